"""An event with lists: a four-player 2026-27 event with open lists (submitted as files and pasted, one flagged),
a deadline that passes, dispositions from the lists' detachments, each table thread showing both lists, factions in
the pairings, the standings and the CSV; closed lists kept from other players; the lock and the logged correction."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

from bot.armies.data import army_data
from bot.store.models import utcnow
from tests.cogs.harness import Harness
from tests.cogs.test_tournament_commands import MANAGE_SERVER, current, publish, refused
from tests.discord_model import FakeFile

PACK = "ca-2026-27"
# (faction, detachment, units): four armies of four dispositions, lists written for the test from the army data.
ARMIES = (("Space Wolves", "Saga of the Hunter", ("Ragnar Blackmane", "Grey Hunters")),
          ("Necrons", "Awakened Dynasty", ("Overlord", "Necron Warriors")),
          ("Orks", "War Horde", ("Warboss", "Boyz")),
          ("T’au Empire", "Kauyon", ("Commander Shadowsun", "Strike Team")))


def app_list(faction: str, detachment: str, units: tuple[str, ...], *, extra: str = "") -> str:
    """A list as the Warhammer 40,000 app exports it, each unit at its smallest size and price in the data."""
    data = army_data()
    own = {u.name: u for u in data.units_of(data.faction(faction).id)}
    blocks, total = [], 0
    for name in units:
        bracket = own[name].brackets[0]
        total += bracket.cost
        blocks.append(f"{name} ({bracket.cost} Points)\n  • {bracket.models}x {name}\n")
    return (f"Event list ({total} Points)\n\n{faction}\nStrike Force (2,000 Points)\n{detachment}\n\nCHARACTERS\n\n"
            + "\n".join(blocks) + extra + "\nExported with App Version: v1.30.0 (1), Data Version: v585\n")


async def test_a_four_player_event_with_open_lists(harness: Harness) -> None:
    organiser = harness.user("organiser", permissions=MANAGE_SERVER)
    players = [harness.user(f"player{i}") for i in range(4)]
    ids = [str(p.id) for p in players]
    news = harness.channel("pairings")
    created = await harness.slash("tournament create", user=organiser, name="Lists GT", rounds=2, pack=PACK,
                                  lists="open", **{"announce-channel": news, "list-deadline": "in 2 hours"})
    assert "/tournament list submit" in created.content and "open lists" in created.content
    for player in players:
        await harness.slash("tournament register", user=player)  # no disposition: the list's detachment gives it

    # Three lists as files, the fourth pasted in the form; the Ork list carries a Necron unit: flagged, kept.
    flagged = app_list(*ARMIES[2], extra="\nNecron Warriors (85 Points)\n  • 10x Necron Warrior\n")
    for player, army in zip(players[:3], ARMIES[:3]):
        text = flagged if army is ARMIES[2] else app_list(*army)
        reply = await harness.slash("tournament list submit", user=player,
                                    file=FakeFile("list.txt", text.encode()))
        assert reply.ephemeral and "Your list for **Lists GT** is in." in reply.content
    assert "Necron Warriors is a unit of Necrons" in str(reply.embed)
    form = await harness.slash("tournament list submit", user=players[3])
    await harness.submit(form.modal["custom_id"], {"list": app_list(*ARMIES[3])}, user=players[3])
    record = await current(harness)
    data = army_data()
    for player, (faction, detachment, _) in zip(ids, ARMIES):
        expected = data.detachment(data.faction(faction).id, detachment).disposition
        assert record.state.lists[player].army.faction_name == faction
        assert record.state.dispositions[player] == expected
    review = await harness.slash("tournament list review", user=organiser)
    assert "4 of 4 in, 0 missing, 1 flagged" in review.embed["footer"]["text"]
    assert review.embed["description"].startswith("⚠️ 2 to check Player2: Orks — War Horde")

    # The deadline passes: a player's new list is refused, an organiser's correction still goes in.
    harness.bot.tournaments.now = lambda: utcnow() + timedelta(hours=3)
    late = await harness.slash("tournament list submit", user=players[0], file=FakeFile("l.txt", b"x"))
    refused(late, "deadline has passed")
    await harness.slash("tournament list submit", user=organiser, player=players[2],
                        file=FakeFile("fixed.txt", app_list(*ARMIES[2]).encode()))
    assert (await current(harness)).state.lists[ids[2]].flags == 0

    published = await publish(harness, organiser)
    record = await current(harness)
    announcement = next(s for s in published if s.kind == "message" and int(s.message["channel_id"]) == news.id)
    for pairing in record.state.event.rounds[-1].pairings.tables:
        line = next(x for x in announcement.content.splitlines() if x.startswith(f"**Table {pairing.table}**"))
        for player in (pairing.a, pairing.b):
            assert f"<@{player}> ({record.state.lists[player].army.faction_name})" in line
        thread = next(link.thread_id for link in record.state.table_games if link.table == pairing.table)
        shown = [m for m in harness.messages(harness.model.channels[thread]) if m["embeds"]
                 and m["embeds"][0].get("title", "").startswith(tuple(a[0] for a in ARMIES))]
        assert sorted(m["embeds"][0]["title"] for m in shown) == sorted(
            record.state.lists[p].army.label for p in (pairing.a, pairing.b))  # each sees the opponent's list
        game = (await harness.bot.service.get_state(channel_id=thread)).state
        assert [p.army.label for p in game.players] == [record.state.lists[p].army.label
                                                         for p in (pairing.a, pairing.b)]
        assert game.setup.dispositions == (record.state.dispositions[pairing.a], record.state.dispositions[pairing.b])

    # Locked since the round began: the player is refused; the organiser's correction is logged.
    refused(await harness.slash("tournament list submit", user=players[1], file=FakeFile("l.txt", b"x")), "locked")
    await harness.slash("tournament list submit", user=organiser, player=players[1],
                        file=FakeFile("n.txt", app_list(*ARMIES[1]).encode()))
    changes = (await current(harness)).state.list_changes
    assert [(c.player, c.by) for c in changes] == [(ids[1], str(organiser.id))]
    assert "changed Player1's list" in (await harness.slash("tournament list review", user=organiser)
                                        ).embed["description"]

    standings = await harness.slash("tournament standings", user=organiser)
    assert "Player0 (Space Wolves)" in standings.embed["description"]
    export = await harness.slash("tournament export", user=organiser)
    files = {a["filename"]: harness.model.files[int(a["id"])].decode() for a in export.main.message["attachments"]}
    rows = list(csv.DictReader(io.StringIO(next(v for k, v in files.items() if k.endswith("standings.csv")))))
    assert {r["faction"] for r in rows} == {a[0] for a in ARMIES}
    assert {r["detachment"] for r in rows} == {a[1] for a in ARMIES}


async def test_closed_lists_are_kept_from_other_players(harness: Harness) -> None:
    organiser = harness.user("organiser", permissions=MANAGE_SERVER)
    alice, bob = harness.user("alice"), harness.user("bob")
    await harness.slash("tournament create", user=organiser, name="Closed", rounds=1, lists="closed")
    for player in (alice, bob):
        await harness.slash("tournament register", user=player)
    await harness.slash("tournament list submit", user=alice, file=FakeFile("a.txt", app_list(*ARMIES[0]).encode()))
    refused(await harness.slash("tournament list show", user=bob, player=alice), "closed")
    assert "Space Wolves" in (await harness.slash("tournament list show", user=organiser, player=alice)).embed["title"]
    assert "Space Wolves" in (await harness.slash("tournament list show", user=alice)).embed["title"]
    refused(await harness.slash("tournament list submit", user=bob, player=alice,
                                file=FakeFile("b.txt", b"x")), "Only an organiser")


async def test_an_event_without_lists_refuses_them(harness: Harness) -> None:
    organiser = harness.user("organiser", permissions=MANAGE_SERVER)
    alice = harness.user("alice")
    await harness.slash("tournament create", user=organiser, name="Plain", rounds=1)
    await harness.slash("tournament register", user=alice)
    refused(await harness.slash("tournament list submit", user=alice,
                                file=FakeFile("a.txt", app_list(*ARMIES[0]).encode())), "takes no lists")
