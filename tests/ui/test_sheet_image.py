"""The score sheet picture: a PNG of the expected size, every source on it, and nothing hidden before the end."""

from __future__ import annotations

import io

from PIL import Image

from bot.engine.chapter_approved.state import Status
from bot.engine.rng import seed_hash
from bot.present.pictures.mission_deck_sheet import render_score_sheet, score_sheet_content
from bot.present.pictures.drawing import WIDTH
from tests.engine.conftest import CATALOG, Table

GAME = 7


def decoded(content) -> Image.Image:
    image = Image.open(io.BytesIO(render_score_sheet(content)))
    image.load()
    return image


def test_a_finished_game_shows_every_source_the_winner_and_how_to_verify() -> None:
    table = Table(seed="sheet")
    table.to_battle(first="fixed", first_cards=("cleanse", "assassination"), attacker=Table.P1)
    table.score("primary", table.first, vp=5)
    table.score("secondary", table.first, card="assassination", vp=4)
    table.score("secondary", table.first, card="cleanse", vp=2)
    table.act("concede", table.second)
    state = table.state
    content = score_sheet_content(CATALOG, state, GAME)
    text = content.text()
    assert content.rounds == (1, 2, 3, 4, 5)
    assert [p.heading for p in content.players] == ["Alice — Attacker", "Bob — Defender"]
    first = next(p for p in content.players if p.heading.startswith(table.name(table.first)))
    assert [(line.label, line.per_round, line.total) for line in first.lines] == [
        ("Primary", (5, 0, 0, 0, 0), 5),
        ("Secondary: Assassination", (4, 0, 0, 0, 0), 4),
        ("Secondary: Cleanse", (2, 0, 0, 0, 0), 2),
        ("Challenger", (0, 0, 0, 0, 0), 0),
        ("Battle Ready", (None,) * 5, 0),
        ("Lost to caps", (0, 0, 0, 0, 0), 0),
        ("Total", (11, 0, 0, 0, 0), 11),
    ]
    assert f"Winner: {table.name(table.first)} (concession)" in content.outcome
    assert "Seed: sheet" in text and seed_hash("sheet") in text
    assert f"python -m bot verify game-{GAME}.json" in text and "/game log" in text
    image = decoded(content)
    assert image.format == "PNG" and image.width == WIDTH and 900 < image.height < 2000


def test_vp_lost_to_a_cap_has_its_own_line() -> None:
    table = Table(seed="sheet")
    table.to_battle(first="fixed", first_cards=("assassination", "cleanse"))
    for _ in range(6):  # 20 VP at most per Fixed Mission card: the sixth 4 VP are lost
        table.score("secondary", table.first, card="assassination", option="character-w4-plus")
    state = table.state
    player = next(p for p in score_sheet_content(CATALOG, state, GAME).players
                  if p.heading.startswith(table.name(table.first)))
    lost = next(line for line in player.lines if line.label == "Lost to caps")
    assert lost.total == sum(e.lost for e in state.vp) > 0
    assert player.lines[-1].total == state.total_vp(table.first)


def test_a_sheet_during_the_game_shows_nothing_hidden() -> None:
    table = Table()  # a seed the bot made: secret until the end
    table.choose_sides()
    table.act("choose_secondaries", table.first, mode="fixed", cards=("cleanse", "assassination"))
    assert table.state.status == Status.SECONDARIES  # the Fixed choice is still secret
    secret = table.state.setup.seed
    text = score_sheet_content(CATALOG, table.state, GAME).text()
    assert secret not in text and "Cleanse" not in text and "Assassination" not in text
    assert seed_hash(secret) in text and "revealed when the game ends" in text

    table.act("choose_secondaries", table.second, mode="tactical")
    table.deploy() if table.state.status == Status.DEPLOYMENT else None
    table.settle()
    content = score_sheet_content(CATALOG, table.state, GAME)
    text = content.text()
    cards = {CATALOG.secondary(c).name.lower() for p in table.state.players for c in p.hand + p.deck}
    assert secret not in text and not any(card in text.lower() for card in cards)  # no hand, no deck
    assert content.outcome.startswith("In progress (battle round 1)")
    assert decoded(content).width == WIDTH


def test_a_replay_shows_its_seed_from_the_start() -> None:
    table = Table(seed="fixed-by-alice")
    table.state = table.state.model_copy(update={"setup": table.state.setup.model_copy(
        update={"seed_fixed_by": Table.P1})})
    assert "Seed: fixed-by-alice (fixed by a player: a replay)" in score_sheet_content(CATALOG, table.state, GAME).text()
