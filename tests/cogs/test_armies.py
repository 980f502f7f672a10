"""Armies at the table, through Discord: a 2026-27 game where both players set faction and detachment (each
disposition from the detachment, each Primary from the matrix, the armies on the result card, in /game history and
the log), lists pasted and attached and shown privately, and every kind of bad input refused privately."""

from __future__ import annotations

import io
import json
import zipfile

from bot.decks import catalog_2026
from tests.cogs.game_table import Table, public_text, verbs
from tests.cogs.harness import Harness
from tests.cogs.lists_for_tests import NECRONS_APP, WOLVES_FLAGGED
from tests.discord_model import FakeFile, FakeUser

PACK = "ca-2026-27"
CATALOG = catalog_2026()


def form_fields(modal: dict) -> list[str]:
    """The custom ids of a form's text inputs, top to bottom."""
    return [c["custom_id"] for row in modal["components"] for c in row.get("components", [row.get("component", {})])
            if c.get("custom_id")]


async def set_army_by_form(table: Table, user: FakeUser, faction: str, detachment: str, pasted: str = ""):
    opened = await table.press("army", user)
    faction_id, detachment_id, list_id = form_fields(opened.modal)
    reply = await table.h.submit(opened.modal["custom_id"],
                                 {faction_id: faction, detachment_id: detachment, list_id: pasted}, user=user)
    await table.settle()
    return reply


async def test_a_2026_27_game_where_both_players_set_their_army(harness: Harness, alice: FakeUser,
                                                                bob: FakeUser) -> None:
    table = Table(harness, alice, bob)
    a, b = str(alice.id), str(bob.id)
    await table.start(pack=PACK, seed="armies", size=None, faction="space wolfs", detachment="Saga of the Hunter")
    state = await table.state()
    assert state.player(a).army.label == "Space Wolves — Saga of the Hunter"
    assert state.player(a).disposition_choice == "disruption"  # the detachment's, picked for her
    board = public_text(await table.board())
    assert "Space Wolves" not in board and "Disruption" not in board and "Army set" in board  # secret until both

    # Bob sets his on the board's form, pasting his list: the reveal follows at once.
    reply = await set_army_by_form(table, bob, "necrons", "awakened dynasty", NECRONS_APP)
    assert not [s for s in reply if s.ephemeral and s.embeds]  # a clean list: nothing to tell him
    state = await table.state()
    necrons = state.player(b).army
    assert (necrons.faction_name, necrons.detachment_name, necrons.points) == ("Necrons", "Awakened Dynasty", 510)
    assert (state.player(a).disposition, state.player(b).disposition) == ("disruption", necrons.disposition)
    assert state.primary_of(a) == CATALOG.primary_for("disruption", necrons.disposition).id
    assert state.primary_of(b) == CATALOG.primary_for(necrons.disposition, "disruption").id
    board = public_text(await table.board())
    assert "Space Wolves — Saga of the Hunter" in board and "Necrons — Awakened Dynasty · 510 pts" in board

    # Alice reads Bob's list privately; its full text is a press away.
    shown = await table.slash("army show", alice, player=bob)
    assert shown.ephemeral and "Necrons — Awakened Dynasty" in shown.embed["title"]
    assert "510 pts" in shown.embed["description"] and "Overlord" in json.dumps(shown.embed)
    full = await harness.press(shown.custom_ids[0], user=alice, message_id=int(shown.main.message["id"]))
    assert full.ephemeral and "Tomb World (510 Points)" in full.content

    await table.press("attacker", table.user(state.sides_rolloff.winner))
    await table.choose(alice, None)
    await table.choose(bob, None)
    await table.deploy()
    await table.slash("game concede", bob)
    result = next(m for m in harness.messages() if m["embeds"] and m["embeds"][0]["title"].startswith("Result"))
    text = public_text(result)
    assert "Space Wolves — Saga of the Hunter" in text and "Necrons — Awakened Dynasty" in text
    history = await table.slash("game history", alice)
    assert "Space Wolves vs Necrons" in history.embed["description"]
    log = await table.slash("game log", alice)
    exported = json.loads(harness.model.files[int(log.main.message["attachments"][0]["id"])])
    assert exported["armies"][b]["detachment_name"] == "Awakened Dynasty"


async def test_armies_stay_hidden_in_a_2026_27_game_until_the_reveal(harness: Harness, alice: FakeUser,
                                                                     bob: FakeUser) -> None:
    table = Table(harness, alice, bob)
    await table.start(pack=PACK, seed=None, size=None)
    await table.slash("army set", alice, faction="Necrons", detachment="Canoptek Court")
    refused = await table.slash("army show", bob, strict=False, player=alice)
    assert refused.ephemeral and "once both Force Dispositions are revealed" in refused.content
    own = await table.slash("army show", alice)
    assert "Necrons — Canoptek Court" in own.content
    for user in (alice, bob):
        log = await table.slash("game log", user)
        text = harness.model.files[int(log.main.message["attachments"][0]["id"])].decode()
        assert "canoptek" not in text.lower() and "necrons" not in text.lower()
    # Alice may still pick another disposition than her detachment's before Bob picks: the board says so.
    assert "may pick another until both have picked" in public_text(await table.board())
    menu = await table.press("disposition", alice)
    await table.pick(menu, "disposition", ["priority-assets"], alice)
    menu = await table.press("disposition", bob)
    await table.pick(menu, "disposition", ["take-and-hold"], bob)
    assert (await table.state()).player(str(alice.id)).disposition == "priority-assets"


async def test_a_flagged_list_is_kept_its_flags_told_privately_and_nobody_pinged(harness: Harness, alice: FakeUser,
                                                                                 bob: FakeUser) -> None:
    table = Table(harness, alice, bob)
    await table.start()  # Chapter Approved 2025-26: the army shows at once
    reply = await set_army_by_form(table, alice, "", "", WOLVES_FLAGGED)  # the list names its faction
    shown = next(s for s in reply if s.ephemeral and s.embeds)
    flags = "\n".join(f["value"] for f in shown.embeds[0]["fields"])
    assert "Necron Warriors is a unit of Necrons" in flags and "over the 2000-point limit" in flags
    assert shown.body["allowed_mentions"]["parse"] == []
    assert "Wolf @\u200beveryone <@\u200b123456789012345678> \\_\\_Pack\\_\\_ is not a Space Wolves datasheet" in flags  # escaped
    army = (await table.state()).player(str(alice.id)).army
    assert army.faction_name == "Space Wolves" and army.detachment_name == "Saga of the Hunter"
    assert "Space Wolves — Saga of the Hunter" in public_text(await table.board())
    assert all("@everyone" not in m.get("content", "") for m in harness.messages())


async def test_a_list_attached_as_a_file_or_a_roster(harness: Harness, alice: FakeUser, bob: FakeUser) -> None:
    table = Table(harness, alice, bob)
    await table.start(pack="gt-2020")  # any pack's game records armies
    await table.slash("army set", alice, file=FakeFile("necrons.txt", NECRONS_APP.encode()))
    assert (await table.state()).player(str(alice.id)).army.points == 510
    assert "Necrons — Awakened Dynasty · 510 pts" in public_text(await table.board())


async def test_bad_lists_are_refused_privately_and_change_nothing(harness: Harness, alice: FakeUser,
                                                                  bob: FakeUser) -> None:
    table = Table(harness, alice, bob)
    await table.start()
    version = await table.version()
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("army.ros", b"<" + b"0" * 30_000_000)
    for file, says in ((FakeFile("army.txt", b""), "empty"),
                       (FakeFile("army.txt", b"x" * 5_000_000), "at most"),
                       (FakeFile("army.rosz", b"not a zip at all"), ""),
                       (FakeFile("army.rosz", bomb.getvalue()), "")):
        refused = await table.slash("army set", alice, strict=False, file=file)
        assert refused.ephemeral and (says in refused.content.lower()), refused.content
    refused = await table.slash("army set", alice, strict=False, faction="Elves of the Woods")
    assert refused.ephemeral and "is not a faction" in refused.content
    garbage = await set_army_by_form(table, alice, "", "", "lorem ipsum dolor sit amet")
    assert any(s.ephemeral and "army list" in s.content for s in garbage)
    assert await table.version() == version and (await table.state()).player(str(alice.id)).army is None
    assert "army" in verbs(await table.board())


async def test_armies_are_set_before_the_battle_only(harness: Harness, alice: FakeUser, bob: FakeUser) -> None:
    table = Table(harness, alice, bob)
    await table.start()
    await table.to_battle()
    assert "army" not in verbs(await table.board())
    refused = await table.slash("army set", alice, strict=False, faction="Orks")
    assert refused.ephemeral and "before the battle" in refused.content
    refused = await table.slash("army set", alice, strict=False, file=FakeFile("necrons.txt", NECRONS_APP.encode()))
    assert refused.ephemeral and "before the battle" in refused.content
    assert await harness.bot.service.lists.get(1) is None  # the refused list was not kept


async def test_faction_and_detachment_autocomplete_forgive_typos(harness: Harness, alice: FakeUser) -> None:
    factions = await harness.autocomplete("army set", "faction", "wolf", user=alice)
    assert factions[0]["name"] == "Space Wolves"
    detachments = await harness.autocomplete("army set", "detachment", "hunt", user=alice, faction="space-wolves")
    assert any(c["name"].startswith("Saga of the Hunter · Disruption") for c in detachments)
