"""Lists at a doubles event: each player of a pair submits their own list; on the 2026-27 deck the pair plays one
Force Disposition, one that either player's detachments grant (registered with the pair, else the only one granted,
else chosen by either player); the lists reach the review, the table thread, the game's two armies of each side (both
seasons), the announcement's factions and the exports, each under its own player's name."""

from __future__ import annotations

import csv
import io

import pytest

from bot.engine.errors import GameError
from bot.present.desk import desk_model
from bot.services.judges import Venue
from tests.cogs.game_table import verbs
from tests.cogs.harness import Harness
from tests.cogs.test_event_lists import ARMIES, PACK, app_list
from tests.cogs.test_tournament_commands import current, publish, refused
from tests.discord_model import FakeFile, FakeUser

WOLVES, NECRONS, ORKS, TAU = ARMIES  # Disruption, Take and Hold, Take and Hold, Reconnaissance


@pytest.fixture
def people(harness: Harness) -> dict[str, FakeUser]:
    return {name: harness.user(name) for name in ("ann", "cy", "bob", "di", "eve")}


async def submit(harness: Harness, user: FakeUser, army: tuple, **options: object):
    return await harness.slash("tournament list submit", user=user,
                               file=FakeFile("list.txt", app_list(*army).encode()), **options)


def thread_embeds(harness: Harness, thread_id: int) -> list[dict]:
    return [e for m in harness.model.channel_messages(thread_id) for e in m.get("embeds", ())]


async def test_each_player_of_a_pair_brings_their_own_list(harness: Harness, organiser: FakeUser,
                                                           people: dict[str, FakeUser]) -> None:
    ann, cy, bob, di, eve = (people[n] for n in ("ann", "cy", "bob", "di", "eve"))
    news = harness.channel("pairings")
    await harness.slash("tournament create", user=organiser, name="Doubles Lists", rounds=2, pack=PACK, doubles=True,
                        lists="open", **{"announce-channel": news})
    # Ann & Cy play Cy's detachment's disposition, registered with the pair; Bob & Di's comes from their lists.
    await harness.slash("tournament register", user=ann, partner=cy, disposition="reconnaissance")
    await harness.slash("tournament register", user=bob, partner=di)

    reply = await submit(harness, ann, WOLVES)
    assert reply.ephemeral and "Your list for **Doubles Lists** is in." in reply.content
    record = await current(harness)
    assert record.state.dispositions[str(ann.id)] == "reconnaissance"  # Cy's list, still to come, may grant it
    assert "Lists: 3 still to come (Cy, Bob, Di)." in desk_model(record, {}, Venue([], []), [], now_ms=0)["todo"]
    refused(await submit(harness, eve, ORKS), "Register for the event first")
    reply = await submit(harness, cy, TAU)  # a partner's own list
    assert reply.ephemeral and "Your list for **Doubles Lists** is in." in reply.content
    refused(await submit(harness, cy, ORKS, player=ann), "Only an organiser can submit someone else's list")
    await submit(harness, bob, NECRONS)
    await submit(harness, di, ORKS)
    record = await current(harness)
    assert set(record.state.lists) == {str(p.id) for p in (ann, cy, bob, di)}
    assert record.state.dispositions == {str(ann.id): "reconnaissance", str(bob.id): "take-and-hold"}

    desk = {p["name"]: p["lists"] for p in desk_model(record, {}, Venue([], []), [], now_ms=0)["players"]}
    assert [(x["of"], x["label"]) for x in desk["Ann & Cy"]] == [("Ann", "Space Wolves — Saga of the Hunter"),
                                                                ("Cy", "T’au Empire — Kauyon")]
    review = await harness.slash("tournament list review", user=organiser)
    assert "4 of 4 in, 0 missing" in review.embed["footer"]["text"]
    lines = review.embed["description"].splitlines()
    assert {line.split(":")[0].removeprefix("✅ ") for line in lines} == {"Ann", "Cy", "Bob", "Di"}

    published = await publish(harness, organiser)
    announcement = next(s for s in published if s.kind == "message" and int(s.message["channel_id"]) == news.id)
    assert "(Space Wolves & T’au Empire)" in announcement.message["content"]
    assert "(Necrons & Orks)" in announcement.message["content"]
    record = await current(harness)
    [link] = record.state.table_games
    shown = {e["title"]: e["description"].split("'s list")[0] for e in thread_embeds(harness, link.thread_id)
             if "'s list" in e.get("description", "")}
    assert shown == {"Space Wolves — Saga of the Hunter": "Ann", "T’au Empire — Kauyon": "Cy",
                     "Necrons — Awakened Dynasty": "Bob", "Orks — War Horde": "Di"}  # open lists: all four
    last = harness.messages(harness.model.channels[link.thread_id])[-1]
    assert any(c.endswith(":accept") for c in verbs(last).values())  # the challenge waits below them
    game = (await harness.bot.service.get_state(game_id=link.game_id)).state
    seats = {p.id: p for p in game.players}
    assert (seats[str(ann.id)].army.faction_name, seats[str(ann.id)].partner_army.faction_name) == \
        ("Space Wolves", "T’au Empire")
    assert (seats[str(bob.id)].army.faction_name, seats[str(bob.id)].partner_army.faction_name) == \
        ("Necrons", "Orks")
    assert dict(zip(game.setup.players, game.setup.dispositions)) == \
        {str(ann.id): "reconnaissance", str(bob.id): "take-and-hold"}

    export = await harness.slash("tournament export", user=organiser)
    files = {a["filename"]: harness.model.files[int(a["id"])].decode() for a in export.main.message["attachments"]}
    rows = {r["player_id"]: r for r in csv.DictReader(io.StringIO(files[f"tournament-{record.id}-standings.csv"]))}
    assert (rows[str(ann.id)]["faction"], rows[str(ann.id)]["partner_faction"]) == ("Space Wolves", "T’au Empire")
    assert rows[str(bob.id)]["partner_detachment"] == "War Horde"


async def test_a_pair_chooses_among_what_either_list_grants(harness: Harness, organiser: FakeUser,
                                                            people: dict[str, FakeUser]) -> None:
    ann, cy, bob, di = (people[n] for n in ("ann", "cy", "bob", "di"))
    await harness.slash("tournament create", user=organiser, name="Doubles Lists", rounds=2, pack=PACK, doubles=True,
                        lists="closed")
    await harness.slash("tournament register", user=ann, partner=cy, disposition="take-and-hold")  # neither grants
    await harness.slash("tournament register", user=bob, partner=di)
    await submit(harness, ann, WOLVES)
    assert (await current(harness)).state.dispositions[str(ann.id)] == "take-and-hold"  # Cy's may grant it

    reply = await submit(harness, cy, TAU)
    assert "Your pair's lists grant **Disruption** and **Reconnaissance**" in reply.content
    selects = reply.main.selects
    assert [[o["value"] for o in s["options"]] for s in selects] == [["disruption", "reconnaissance"]]
    record = await current(harness)
    assert str(ann.id) not in record.state.dispositions
    review = await harness.slash("tournament list review", user=organiser)
    assert review.embed["description"].count("Force Disposition to choose") == 2  # Ann's and Cy's
    shown = await harness.slash("tournament list show", user=ann, player=cy)  # closed lists: her partner's
    assert shown.ephemeral and shown.embed["title"] == "T’au Empire — Kauyon"
    refused(await harness.slash("tournament list show", user=bob, player=cy), "only the organisers see them")

    list_id = record.state.lists[str(cy.id)].army.list_id
    with pytest.raises(GameError, match="Only an organiser"):
        await harness.bot.tournaments.choose_disposition(record.id, list_id, "disruption", by=str(bob.id),
                                                         organiser=False)
    with pytest.raises(GameError, match="the list's detachments grant"):
        await harness.bot.tournaments.choose_disposition(record.id, list_id, "take-and-hold", by=str(ann.id),
                                                         organiser=False)
    # Cy chooses under her list: Ann's detachment's disposition, for the pair.
    chosen = await harness.select(selects[0]["custom_id"], ["disruption"], user=cy,
                                  message_id=int(reply.main.message["id"]))
    assert chosen.ephemeral and "**Disruption**" in chosen.content
    record = await current(harness)
    assert record.state.dispositions[str(ann.id)] == "disruption"
    review = await harness.slash("tournament list review", user=organiser)
    assert "Force Disposition to choose" not in review.embed["description"]

    # Once paired, a correction that leaves the pair without its disposition is refused, changing nothing.
    await submit(harness, bob, NECRONS)
    await submit(harness, di, ORKS)
    await publish(harness, organiser)
    before = await current(harness)
    refused(await submit(harness, organiser, NECRONS, player=ann), "do not grant the Force Disposition")
    assert (await current(harness)).version == before.version
    await submit(harness, organiser, ORKS, player=cy)  # Ann's list still grants Disruption: kept, and logged
    record = await current(harness)
    assert record.state.dispositions[str(ann.id)] == "disruption"
    assert record.state.list_changes[-1].player == str(cy.id)


async def test_a_chapter_approved_2025_26_pair_plays_both_lists(harness: Harness, organiser: FakeUser,
                                                                people: dict[str, FakeUser]) -> None:
    ann, cy, bob, di = (people[n] for n in ("ann", "cy", "bob", "di"))
    await harness.slash("tournament create", user=organiser, name="Pool Doubles", rounds=2, doubles=True,
                        lists="closed", pack="ca-2025-26")
    await harness.slash("tournament register", user=ann, partner=cy)
    await harness.slash("tournament register", user=bob, partner=di)
    for player, army in zip((ann, cy, bob, di), ARMIES):
        await submit(harness, player, army)
    assert (await current(harness)).state.dispositions == {}  # the pool's missions: no Force Disposition
    await publish(harness, organiser)
    [link] = (await current(harness)).state.table_games
    game = (await harness.bot.service.get_state(game_id=link.game_id)).state
    sides = {p.id: (p.army.faction_name, p.partner_army.faction_name) for p in game.players}
    assert sides == {str(ann.id): ("Space Wolves", "Necrons"), str(bob.id): ("Orks", "T’au Empire")}
