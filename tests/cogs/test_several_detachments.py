"""Armies of several detachments through Discord, in Chapter Approved 2026-27: a Necron army of Pantheon of Woe
(Disruption) and Skyshroud Spearhead (Reconnaissance) typed in `/game new`, whose player is asked to choose between its
two dispositions (in a pick-up game another is still allowed), secretly until the reveal, the Primary from the
matrix of the one chosen; after the reveal an army change that keeps the disposition is taken and one that does not
is refused in one line; at an event the list's two dispositions, only those, are offered when it records none; the
detachment option completes the last of several typed."""

from __future__ import annotations

import json

import pytest

from bot.engine.chapter_approved.state import Status
from bot.engine.errors import GameError
from tests.cogs.game_table import Table, menu_values, public_text, verbs
from tests.cogs.harness import Harness
from tests.cogs.test_armies import set_army_by_form
from tests.cogs.test_tournament_commands import MANAGE_SERVER, current, publish
from tests.discord_model import FakeFile, FakeUser

PACK = "ca-2026-27"
TWO = "Pantheon of Woe and Skyshroud Spearhead"
SECRETS = ("Necrons", "Pantheon", "Skyshroud", "Disruption", "Reconnaissance")


def shown_to(reply) -> str:
    """Every message of a reply, as text."""
    return "\n".join(public_text(s.message) for s in reply if s.message is not None)


async def test_a_two_detachment_army_chooses_its_disposition_secretly(harness: Harness, alice: FakeUser,
                                                                     bob: FakeUser) -> None:
    table = Table(harness, alice, bob)
    a, b = str(alice.id), str(bob.id)
    await table.start(pack=PACK, seed="several", size=None, faction="Necrons", detachment=TWO)
    state = await table.state()
    army = state.player(a).army
    assert army.label == "Necrons — Pantheon of Woe + Skyshroud Spearhead"
    assert (army.dispositions, state.player(a).disposition_choice) == (("disruption", "reconnaissance"), None)
    board = await table.board()
    assert f"<@{alice.id}>, pick your Force Disposition." in board["content"]  # her choice is called for
    assert not any(word in public_text(board) for word in SECRETS)

    # Her menu offers her army's two first, and in a pick-up game the others after them.
    menu = await table.press("disposition", alice)
    assert menu.ephemeral and "Your army's detachments grant **Disruption** and **Reconnaissance**" in menu.content
    offered = menu_values(menu)
    assert offered[:2] == ["disruption", "reconnaissance"] and len(offered) == 5
    assert "Reconnaissance (your army's)" in public_text(menu.main.message)
    theirs = await table.press("disposition", bob)  # Bob's menu knows nothing of her army
    assert not any(word in shown_to(theirs) for word in SECRETS[:3]) and "(your army's)" not in shown_to(theirs)
    picked = await table.pick(menu, "disposition", ["reconnaissance"], alice)
    assert any(s.ephemeral and "Reconnaissance" in s.content for s in picked)
    board = public_text(await table.board())
    assert not any(word in board for word in SECRETS)
    assert (await table.state()).player(a).disposition is None  # picked, not revealed
    refused = await table.slash("army show", bob, strict=False, player=alice)
    assert refused.ephemeral and "once both Force Dispositions are revealed" in refused.content
    log = await table.slash("game log", bob)
    text = harness.model.files[int(log.main.message["attachments"][0]["id"])].decode()
    assert not any(word.lower() in text.lower() for word in SECRETS)

    # Bob's detachment picks Disruption for him: both are revealed, and each Primary follows the matrix.
    await table.slash("army set", bob, faction="Space Wolves", detachment="Saga of the Hunter")
    state = await table.state()
    catalog = harness.bot.service.packs.rules(PACK).catalog
    assert (state.player(a).disposition, state.player(b).disposition) == ("reconnaissance", "disruption")
    assert state.primary_of(a) == catalog.primary_for("reconnaissance", "disruption").id
    assert state.primary_of(b) == catalog.primary_for("disruption", "reconnaissance").id
    board = public_text(await table.board())
    assert "Necrons — Pantheon of Woe + Skyshroud Spearhead" in board
    assert f"Alice: {catalog.primary(state.primary_of(a)).name}" in board

    # After the reveal: a change of army that keeps Reconnaissance is taken, one that does not is refused.
    assert "army" in verbs(await table.board())
    version = await table.version()
    refused = await table.slash("army set", alice, strict=False, faction="Necrons", detachment="Awakened Dynasty")
    assert refused.ephemeral and refused.content.endswith(
        "The Force Dispositions are revealed, so your army keeps Reconnaissance: Awakened Dynasty grants "
        "Take and Hold.")
    assert await table.version() == version and await harness.bot.service.lists.get(1) is None
    reply = await set_army_by_form(table, alice, "Necrons", "Hypercrypt Legion")
    assert not [s for s in reply if s.ephemeral and "revealed" in s.content]
    state = await table.state()
    assert state.player(a).army.label == "Necrons — Hypercrypt Legion" and state.player(a).disposition == \
        "reconnaissance"

    # The armies on the result card and in the log.
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    await table.choose(alice, None)
    await table.choose(bob, None)
    await table.deploy()
    await table.slash("game concede", bob)
    log = await table.slash("game log", alice)
    exported = json.loads(harness.model.files[int(log.main.message["attachments"][0]["id"])])
    assert exported["armies"][a]["detachment_name"] == "Hypercrypt Legion"


async def test_the_board_form_takes_several_detachments(harness: Harness, alice: FakeUser, bob: FakeUser) -> None:
    table = Table(harness, alice, bob)
    await table.start(pack=PACK, seed=None, size=None)
    await set_army_by_form(table, alice, "necrons", "pantheon of woe, skyshroud spearhead")
    army = (await table.state()).player(str(alice.id)).army
    assert army.detachments == ("pantheon-of-woe", "skyshroud-spearhead") and army.to_choose
    assert f"<@{alice.id}>, pick your Force Disposition." in (await table.board())["content"]


def two_detachment_list(recorded: str = "") -> str:
    """A Necron list of two detachments in the builders' form, its choice of disposition recorded or not."""
    return (f"Two of them (170 Points)\n\nNecrons\nStrike Force (2,000 Points)\n{TWO} (3 Detachment Points)\n"
            f"{recorded}\nCHARACTERS\n\nOverlord (85 Points)\n  • Warlord\n  • 1x Voidscythe\n\n"
            "BATTLELINE\n\nNecron Warriors (85 Points)\n  • 10x Necron Warrior\n")


async def test_at_an_event_only_the_lists_dispositions_are_offered(harness: Harness) -> None:
    organiser = harness.user("organiser", permissions=MANAGE_SERVER)
    alice, bob = harness.user("alice"), harness.user("bob")
    await harness.slash("tournament create", user=organiser, name="Eleventh", rounds=1, pack=PACK, lists="closed")
    for player in (alice, bob):
        await harness.slash("tournament register", user=player)

    reply = await harness.slash("tournament list submit", user=alice,
                                file=FakeFile("two.txt", two_detachment_list().encode()))
    assert reply.ephemeral and "grant **Disruption** and **Reconnaissance**" in reply.content
    selects = reply.main.selects
    assert [[o["value"] for o in s["options"]] for s in selects] == [["disruption", "reconnaissance"]]
    record = await current(harness)
    assert str(alice.id) not in record.state.dispositions and record.state.lists[str(alice.id)].army.to_choose
    review = await harness.slash("tournament list review", user=organiser)
    assert "Force Disposition to choose" in review.embed["description"]

    # Only she (or an organiser) chooses, and only what the list grants; her choice is recorded.
    custom_id = selects[0]["custom_id"]
    message = int(reply.main.message["id"])
    list_id = record.state.lists[str(alice.id)].army.list_id
    with pytest.raises(GameError, match="the list's detachments grant"):
        await harness.bot.tournaments.choose_disposition(record.id, list_id, "take-and-hold", by=str(alice.id),
                                                         organiser=False)
    with pytest.raises(GameError, match="Only an organiser"):
        await harness.bot.tournaments.choose_disposition(record.id, list_id, "disruption", by=str(bob.id),
                                                         organiser=False)
    chosen = await harness.select(custom_id, ["reconnaissance"], user=alice, message_id=message)
    assert chosen.ephemeral and "**Reconnaissance**" in chosen.content
    record = await current(harness)
    assert record.state.dispositions[str(alice.id)] == "reconnaissance"
    assert record.state.lists[str(alice.id)].army.disposition == "reconnaissance"

    # The same list again keeps the choice; Bob's records his on the list, and is offered nothing.
    again = await harness.slash("tournament list submit", user=alice,
                                file=FakeFile("two.txt", two_detachment_list().encode()))
    assert "grant" not in again.content
    assert (await current(harness)).state.dispositions[str(alice.id)] == "reconnaissance"
    recorded = await harness.slash("tournament list submit", user=bob, file=FakeFile(
        "two.txt", two_detachment_list("Force Disposition: Disruption\n").encode()))
    assert not recorded.main.selects

    await publish(harness, organiser)
    record = await current(harness)
    link = record.state.table_games[0]
    game = (await harness.bot.service.get_state(game_id=link.game_id)).state
    catalog = harness.bot.service.packs.rules(PACK).catalog
    dispositions = dict(zip(game.setup.players, game.setup.dispositions))
    assert dispositions == {str(alice.id): "reconnaissance", str(bob.id): "disruption"}
    assert game.status == Status.SIDES
    assert game.primary_of(str(alice.id)) == catalog.primary_for("reconnaissance", "disruption").id


async def test_the_detachment_option_completes_the_last_of_several(harness: Harness, alice: FakeUser) -> None:
    typed = await harness.autocomplete("army set", "detachment", "pantheon of woe, sky", user=alice,
                                       faction="necrons")
    assert [c["value"] for c in await harness.autocomplete("army set", "detachment", "Pantheon of Woe, ", user=alice,
                                                            faction="necrons")][0].startswith("pantheon-of-woe, ")
    assert typed[0] == {"name": "Pantheon of Woe + Skyshroud Spearhead · Reconnaissance (provisional)",
                        "value": "pantheon-of-woe, skyshroud-spearhead"}
    again = await harness.autocomplete("game new", "detachment", "Pantheon of Woe and ", user=alice,
                                       faction="necrons")
    assert all(c["value"].startswith("pantheon-of-woe, ") for c in again)
    assert "pantheon-of-woe, pantheon-of-woe" not in [c["value"] for c in again]  # named once
    one = await harness.autocomplete("army set", "detachment", "legends of saga and s", user=alice,
                                     faction="space-wolves")
    assert one[0]["value"] == "legends-of-saga-and-song"  # a name holding "and" is still one name
