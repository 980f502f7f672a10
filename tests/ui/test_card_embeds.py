"""Card embeds: every card of the real pack renders, within Discord's embed limits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.decks import default_catalog
from bot.engine.chapter_approved import catalog as c
from bot.engine.chapter_approved.faq_search import search_faq
from bot.engine.chapter_approved.game import new_game
from bot.engine.chapter_approved.state import GameSetup
from bot.present import Links, mission_deck
from bot.ui.chapter_approved.briefing import briefing
from bot.ui.chapter_approved.cards import card_embed, card_title, faq_embed
from bot.ui.embeds import TRUNCATED_NOTE, Section, build_embed, split_text
from bot.ui.text import title_case
from tests.discord_model import embed_problems
from bot.ui.limits import EMBED_DESCRIPTION, EMBED_FIELD_VALUE

CATALOG = default_catalog()
ALL_CARDS = [
    *CATALOG.primaries, *CATALOG.secondaries, *CATALOG.challengers, *CATALOG.twists,
    *CATALOG.deployments, *CATALOG.layouts, *CATALOG.pool,
]


def field(embed: dict, name: str) -> str:
    values = [f["value"] for f in embed.get("fields", []) if f["name"].startswith(name)]
    assert values, f"no field {name!r} in {[f['name'] for f in embed.get('fields', [])]}"
    return "\n".join(values)


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda card: getattr(card, "id", None) or f"pool-{card.letter}")
def test_every_card_renders_within_discord_limits(card) -> None:
    embed = card_embed(card, CATALOG).to_dict()
    assert embed_problems(embed) == []
    assert embed["title"] == card_title(card, CATALOG)
    assert "Truncated" not in [f["name"] for f in embed.get("fields", [])], "a real card should fit whole"


def test_every_card_title_is_unique() -> None:
    titles = [card_title(card, CATALOG) for card in ALL_CARDS]
    assert len(titles) == len(set(titles))


def test_the_printed_text_is_shown_whole(catalog: c.Catalog) -> None:
    for card in catalog.secondaries:
        embed = card_embed(card, catalog).to_dict()
        assert card.text.strip() in embed["description"]


@pytest.mark.parametrize(
    ("card_id", "expected"),
    [
        ("cleanse", "Fixed Mission symbol: it can be chosen as a Fixed Mission"),
        ("no-prisoners", "cannot be selected as a Fixed Mission in tournament play"),
        ("defend-stronghold", "Tactical Missions only"),
    ],
)
def test_secondary_mission_type(catalog: c.Catalog, card_id: str, expected: str) -> None:
    embed = card_embed(catalog.secondary(card_id), catalog).to_dict()
    assert expected in field(embed, "Mission type")


def test_secondary_scoring_options_name_their_mode(catalog: c.Catalog) -> None:
    scoring = field(card_embed(catalog.secondary("cleanse"), catalog).to_dict(), "Scoring options")
    assert "(Fixed): 4VP" in scoring
    assert "(Tactical): 5VP" in scoring
    assert "2VP; end of your turn" in scoring


def test_secondary_when_drawn(catalog: c.Catalog) -> None:
    bring_it_down = field(card_embed(catalog.secondary("bring-it-down"), catalog).to_dict(), "When Drawn")
    assert bring_it_down.startswith("Optional")
    assert "MONSTER or VEHICLE" in bring_it_down
    marked = field(card_embed(catalog.secondary("marked-for-death"), catalog).to_dict(), "When Drawn")
    assert marked.startswith("Mandatory") and "Alpha Target units: 3" in marked
    recover = field(card_embed(catalog.secondary("recover-assets"), catalog).to_dict(), "When Drawn")
    assert "Always applies in Incursion games" in recover
    cleanse = card_embed(catalog.secondary("cleanse"), catalog).to_dict()
    assert "When Drawn" not in [f["name"] for f in cleanse["fields"]]


def test_primary_scoring_shows_windows_rounds_and_caps(catalog: c.Catalog) -> None:
    scoring = field(card_embed(catalog.primary("linchpin"), catalog).to_dict(), "Scoring options")
    assert "end of the Command phase" in scoring
    assert "from battle round 2" in scoring
    assert "or end of your turn in round 5 if you go second" in scoring
    assert "+5VP per other objective marker" in scoring and "up to 15VP" in scoring
    assert "scored by the player whose turn it is" in scoring
    supply = field(card_embed(catalog.primary("supply-drop"), catalog).to_dict(), "Scoring options")
    assert "round 4: 8VP, round 5: 15VP" in supply


def test_challenger_shows_stratagem_and_mission(catalog: c.Catalog) -> None:
    card = catalog.challenger("burst-of-speed")
    embed = card_embed(card, catalog).to_dict()
    stratagem = field(embed, "Challenger Stratagem: Burst of Speed (0CP")
    assert card.stratagem.when in stratagem and card.stratagem.effect in stratagem
    assert card.mission.scoring[0].text.split(",")[0] in field(embed, "Challenger Mission")
    assert "3VP" in field(embed, "Scoring options")


def test_twist_shows_its_text(catalog: c.Catalog) -> None:
    twist = catalog.twist("adapt-or-die")
    embed = card_embed(twist, catalog).to_dict()
    assert twist.text.strip() in embed["description"]
    assert embed["footer"]["text"].startswith("Twist")


def test_deployment_lists_edges_zones_and_every_objective(catalog: c.Catalog) -> None:
    deployment = catalog.deployment("tipping-point-strike-force")
    embed = card_embed(deployment, catalog).to_dict()
    assert embed["title"] == "Tipping Point (Strike Force)"
    assert "Attacker's battlefield edge: **right**" in embed["description"]
    objectives = field(embed, "Objective markers (5)")
    assert objectives.count("•") == len(deployment.objectives)
    assert '(30", 22"), No Man\'s Land (centre)' in objectives
    assert "**Attacker:**" in field(embed, "Deployment zones")


def test_measured_map_data_is_flagged(catalog: c.Catalog) -> None:
    measured = [d for d in catalog.deployments if any(s.confidence != "confirmed" for z in d.zones for s in z.shapes)]
    assert measured, "the pack has measured deployment shapes"
    assert "(measured from the map)" in field(card_embed(measured[0], catalog).to_dict(), "Deployment zones")
    layout = catalog.layout("layout-1")
    estimated = sum(1 for s in layout.sections if s.confidence != "confirmed")
    assert estimated
    embed = card_embed(layout, catalog).to_dict()
    assert f"{estimated} of {len(layout.sections)} positions are measured from the map" in embed["description"]
    assert field(embed, "Terrain sections").count("•") == len(layout.sections)


def test_an_uncertain_position_is_marked_on_its_line(catalog: c.Catalog) -> None:
    layout = catalog.layout("layout-1")
    first = layout.sections[0].model_copy(update={"confidence": "uncertain"})
    doubtful = layout.model_copy(update={"sections": (first, *layout.sections[1:])})
    lines = field(card_embed(doubtful, catalog).to_dict(), "Terrain sections").splitlines()
    assert lines[0].endswith("(uncertain: check the card)")
    assert not lines[1].endswith("(uncertain: check the card)")


def test_pool_mission_names_its_parts(catalog: c.Catalog) -> None:
    embed = card_embed(catalog.pool_mission("A"), catalog).to_dict()
    assert embed["title"] == "Mission A: Take and Hold / Tipping Point"
    assert field(embed, "Primary Mission") == "Take and Hold"
    assert field(embed, "Deployment") == "Tipping Point (Strike Force)"
    assert field(embed, "Terrain layouts") == "Layout 1, Layout 2, Layout 4, Layout 6, Layout 7, Layout 8"


@pytest.mark.parametrize(
    ("name", "shown"),
    [("CULL THE HORDE", "Cull the Horde"), ("A TEMPTING TARGET", "A Tempting Target"),
     ("SECURE NO MAN’S LAND", "Secure No Man’s Land"), ("ENGAGE ON ALL FRONTS", "Engage on All Fronts"),
     ("Take and Hold", "Take and Hold"), ("Layout 1", "Layout 1")],
)
def test_display_name(name: str, shown: str) -> None:
    assert title_case(name) == shown


# --- limits, with cards far larger than any real one -------------------------------------------


def huge_secondary(text_length: int, options: int, option_text: int, note: int = 3000) -> c.SecondaryCard:
    paragraph = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 4
    text = "\n\n".join([paragraph] * (text_length // len(paragraph) + 1))[:text_length]
    scoring = tuple(
        c.ScoringOption(
            id=f"o{i}", label=f"Option {i} " + "x" * 60, text="t", vp=1, window=c.Window.END_OF_YOUR_TURN,
            when="W" * option_text,
        )
        for i in range(options)
    )
    return c.SecondaryCard(
        id="huge", name="HUGE " * 80 if note else "HUGE", flavour="F" * 300, text=text, fixed=False, tournament_fixed=False,
        scoring=scoring, designer_note="N" * note if note else None,
    )


@pytest.mark.parametrize(
    ("text_length", "options", "option_text"),
    [(500, 1, 10), (4000, 5, 10), (9000, 40, 10), (30000, 200, 900), (2000, 60, 10)],
)
def test_oversized_cards_are_cut_to_fit(text_length: int, options: int, option_text: int) -> None:
    embed = card_embed(huge_secondary(text_length, options, option_text), CATALOG).to_dict()
    assert embed_problems(embed) == []
    assert len(embed["title"]) <= 256


def test_truncation_is_announced_and_content_keeps_its_order() -> None:
    card = huge_secondary(30000, 10, 10)
    embed = card_embed(card, CATALOG).to_dict()
    names = [f["name"] for f in embed["fields"]]
    assert names[-1] == "Truncated"
    assert embed["fields"][-1]["value"] == TRUNCATED_NOTE
    # The description continues in "(continued)" fields, in order, before any other section.
    shown = embed["description"] + "".join(f["value"] for f in embed["fields"] if f["name"] == "(continued)")
    flat = lambda text: "".join(text.split())  # noqa: E731
    assert flat(shown) in flat(f"*{card.flavour}*" + card.text)
    assert len(flat(shown)) > 4000


def test_a_card_that_fits_loses_nothing() -> None:
    card = huge_secondary(5000, 3, 10, note=0)
    embed = card_embed(card, CATALOG).to_dict()
    assert "Truncated" not in [f["name"] for f in embed["fields"]]
    shown = embed["description"] + "\n\n" + "\n\n".join(f["value"] for f in embed["fields"] if f["name"] == "(continued)")
    assert "".join(shown.split()) == "".join((f"*{card.flavour}*" + card.text).split())


def test_too_many_sections_stop_at_25_fields() -> None:
    sections = [Section(f"S{i}", "v" * 10) for i in range(40)]
    embed = build_embed(title="t", description="", sections=sections, colour=None, footer="f").to_dict()
    assert len(embed["fields"]) == 25
    assert embed["fields"][-1]["name"] == "Truncated"
    assert embed_problems(embed) == []


def test_exactly_25_sections_fit_without_a_note() -> None:
    sections = [Section(f"S{i}", "v") for i in range(25)]
    embed = build_embed(title="t", description="d", sections=sections, colour=None, footer="f").to_dict()
    assert [f["name"] for f in embed["fields"]] == [f"S{i}" for i in range(25)]


@settings(max_examples=60, deadline=None)
@given(text=st.text(st.sampled_from("ab \n"), max_size=3000), limit=st.sampled_from([20, 256, EMBED_FIELD_VALUE, EMBED_DESCRIPTION]))
def test_split_text_keeps_every_word_and_respects_the_limit(text: str, limit: int) -> None:
    pieces = split_text(text, limit)
    assert all(0 < len(p) <= limit for p in pieces)
    assert "".join("".join(pieces).split()) == "".join(text.split())


def test_split_text_prefers_paragraph_bounds() -> None:
    text = "a" * 600 + "\n\n" + "b" * 600
    assert split_text(text, 1024) == ["a" * 600, "b" * 600]


def test_faq_embed_fits(catalog: c.Catalog) -> None:
    query = "objective marker unit destroyed action"
    matches = search_faq(catalog, query, limit=3)
    embed = faq_embed(query, matches, catalog).to_dict()
    assert embed_problems(embed) == []
    assert embed["title"] == f"FAQ: {query}"
    assert embed["fields"][0]["name"].startswith("Q: ")
    assert matches[0].entry.answer.split("\n")[0][:200] in embed["fields"][0]["value"]


@pytest.mark.parametrize("deployment_id", ["search-and-destroy-strike-force", "search-and-destroy-incursion"])
def test_a_deployment_ruling_shows_on_every_size_of_the_card(deployment_id) -> None:
    """The measuring ruling is about the Search and Destroy map, whatever the game size."""
    embed = card_embed(CATALOG.deployment(deployment_id), CATALOG).to_dict()
    ruling = field(embed, "FAQ: When setting up objective markers")
    assert "central objective marker in the Search and Destroy deployment map" in ruling
    other = card_embed(CATALOG.deployment("tipping-point-incursion"), CATALOG).to_dict()
    assert not any(f["name"].startswith("FAQ:") for f in other.get("fields", []))


def test_the_briefing_points_to_the_deployment_ruling_and_shows_the_game_markers() -> None:
    setup = GameSetup(size="strike-force", players=("1", "2"), names=("Alice", "Bob"), mission="I", seed="s")
    out = new_game(CATALOG, setup)
    model = mission_deck.model(CATALOG, out.state, game_id=1, version=0, recent=[], links=Links())
    embeds, files = briefing(model, CATALOG, out.state, out.events)
    (summary,) = (embed.to_dict() for embed in embeds)
    # The ruling is one /card away, as the footer says, not spelled out in a briefing read at a glance.
    assert "/card Search and Destroy" in summary["footer"]["text"] and "FAQ" not in str(summary["fields"])
    deployment = CATALOG.deployment(out.state.mission.deployment)
    assert "Search and Destroy deployment map" in str(card_embed(deployment, CATALOG).to_dict())
    markers = field(summary, "Deployment: Search and Destroy")
    assert "Hidden Supplies marker" in markers and "\n1. Centre\n" not in f"\n{markers}\n"
    assert files[0].filename == "deployment.png"
