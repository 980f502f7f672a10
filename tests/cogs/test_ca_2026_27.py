"""A whole Chapter Approved 2026-27 game through Discord: secret Force Dispositions, two different Primary Missions
side by side, a layout, secret Secondary Missions, two draws each Command phase, a swap (a second one refused),
caps with what they cost on the board, and the end; its /game log verifies."""

from __future__ import annotations

import json

from bot.client import MissionBot
from bot.decks import catalog_2026
from bot.engine.chapter_approved.game import new_game
from bot.engine.chapter_approved.state import GameSetup, Status
from bot.services.verification import verify_export
from tests.cogs.conftest import harness_settings
from tests.cogs.game_table import Table, menu_values, public_text, verbs
from tests.cogs.harness import Harness
from tests.discord_model import DiscordModel, FakeUser

PACK = "ca-2026-27"


async def answer_everything(table: Table) -> None:
    """Every open When Drawn question answered: no, or a name typed in the form it opens."""
    while (state := await table.state()).prompts:
        user = table.user(state.prompts[0].player)
        menu = await table.press("answer", user)
        offered = verbs(menu.main.message)
        if "units" in offered:
            opened = await table.press_on(menu, "units", user)
            form = opened.modal
            field = form["components"][0]["components"][0]["custom_id"]
            await table.h.submit(form["custom_id"], {field: "the unit or objective named"}, user=user)
            await table.settle()
        elif "no" in offered:
            await table.press_on(menu, "no", user)
        else:
            await table.pick(menu, next(v for v in offered if v != "units"), menu_values(menu)[:1], user)


async def a_turn(table: Table, *, swap: bool = False) -> None:
    """The player whose turn it is: maybe a swap, End Command phase, End turn, both Done scoring, keep all."""
    await answer_everything(table)
    user = await table.active_user()
    if swap:
        menu = await table.press("swap", user)
        await table.pick(menu, "neworders", menu_values(menu)[:1], user)
        await answer_everything(table)
    await table.press("endcmd", user)
    await table.press("endturn", user)
    await table.done_scoring(user)
    if (await table.state()).discard_queue:
        await table.press_discard_keep(user)


async def test_a_whole_2026_27_game(catalog, tmp_path) -> None:
    model = DiscordModel()
    alice, bob = model.add_user("alice"), model.add_user("bob")
    settings = harness_settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'ca26.db'}")
    async with Harness(MissionBot(settings, catalog), model) as h:
        table = Table(h, alice, bob)
        challenge = await table.challenge_only(pack=PACK, seed="eleventh", size=None)
        briefing = public_text(challenge.main.message)
        assert "Deployment:" in briefing and "Force Disposition" in briefing and "Powered by 40kdc-data" in briefing
        assert "Layout" not in briefing
        assert challenge.main.message["attachments"] == []  # its Deployment cards have no map to draw
        await table.accept()
        assert (await table.state()).status == Status.DISPOSITIONS and "disposition" in await table.board_verbs()

        # Secret dispositions: Alice's pick is hers alone until Bob has picked too.
        menu = await table.press("disposition", alice)
        picked = await table.pick(menu, "disposition", ["take-and-hold"], alice)
        assert any(s.ephemeral and "Take and Hold" in s.content for s in picked)
        assert "Take and Hold" not in public_text(await table.board())
        assert f"<@{bob.id}>, pick your Force Disposition." in (await table.board())["content"]
        menu = await table.press("disposition", bob)
        await table.pick(menu, "disposition", ["purge-the-foe"], bob)
        state = await table.state()
        assert (state.primary_of(str(alice.id)), state.primary_of(str(bob.id))) == (
            "immovable-object", "unstoppable-force")
        board = public_text(await table.board())
        assert "Alice: Immovable Object" in board and "Bob: Unstoppable Force" in board
        card = h.bot.service.packs.rules(PACK).catalog.deployment_name(state.mission.deployment)
        assert "Layout" not in board and f"on {card}" in board  # one deployment: the card, no layout

        await table.press("attacker", table.user(state.sides_rolloff.winner))
        menu = await table.press("choose", bob)  # Fixed: two of the four cards with the Fixed symbol, no other
        assert sorted(v for v in menu_values(menu)) == [
            "a-grievous-blow", "assassination", "bring-it-down", "engage-on-all-fronts"]
        await table.choose(alice, None)
        await table.choose(bob, ("bring-it-down", "a-grievous-blow"))
        await table.deploy()
        state = await table.state()
        assert state.status == Status.BATTLE and state.challenger is None

        # Alice plays Tactical: two cards every Command phase; one swap a battle.
        while (state := await table.state()).active != str(alice.id):
            await a_turn(table)
        await answer_everything(table)
        assert len(state.player(str(alice.id)).hand) >= 2
        await a_turn(table, swap=True)
        assert (await table.state()).player(str(alice.id)).swaps_used == 1
        while (state := await table.state()).active != str(alice.id):
            await a_turn(table)
        await answer_everything(table)
        assert "swap" not in await table.board_verbs()  # used: not offered again
        refusal = await table.slash("secondary new-orders", alice, strict=False,
                                    card=state.player(str(alice.id)).hand[0])
        assert refusal.ephemeral and "once per battle" in refusal.content
        early = await table.slash("score add", alice, strict=False, source="primary", vp=5,
                                  **{"end-of-battle": True})
        assert early.ephemeral and "at the end of the battle" in early.content  # typed by hand, it waits for it

        # Bob's Primary caps at 15 in the round, and the board says what the cap cost.
        while (state := await table.state()).active != str(bob.id) or state.round < 2:
            await a_turn(table)
        await answer_everything(table)
        await table.slash("score add", bob, source="primary", vp=20)  # 4VP for each of 5 objectives: over 15
        entry = (await table.state()).vp[-1]
        assert (entry.claimed, entry.awarded) == (20, 15)
        assert "5VP lost to caps" in public_text(await table.board())
        await table.press("endcmd", bob)
        await table.press("endturn", bob)
        await table.done_scoring(bob)
        while (state := await table.state()).status == Status.BATTLE:
            await a_turn(table)
        assert state.status == Status.ENDED and state.round == 5

        result = next(m for m in h.messages() if m["embeds"] and m["embeds"][0]["title"].startswith("Result"))
        assert "Immovable Object vs Unstoppable Force" in public_text(result)
        reply = await table.slash("game log", alice)
        log = json.loads(h.model.files[int(reply.main.message["attachments"][0]["id"])])
        checks = verify_export(h.bot.service.packs, log)
        assert checks and [c.line() for c in checks if c.problem] == []  # every shuffle and roll, from the seed


async def test_2026_27_refusals_are_private_and_change_nothing(harness: Harness, alice: FakeUser,
                                                               bob: FakeUser) -> None:
    table = Table(harness, alice, bob)
    reply = await harness.slash("game new", user=alice, opponent=bob, pack=PACK, mission="A")
    assert reply.ephemeral and "no mission to pick" in reply.content
    reply = await harness.slash("game new", user=alice, opponent=bob, pack=PACK, size="incursion")
    assert reply.ephemeral and "Strike Force" in reply.content
    reply = await harness.slash("game new", user=alice, opponent=bob, pack="ca-2025-26", size="strike-force",
                                layout="B")
    assert reply.ephemeral and "belong to Chapter Approved 2026-27" in reply.content
    reply = await harness.slash("game new", user=alice, opponent=bob, pack=PACK, deployment="Dawn of War",
                                layout="B")
    assert reply.ephemeral and "not both" in reply.content
    await table.start(pack=PACK, seed="refusals", size=None, deployment="Dawn of War")
    state = await table.state()
    assert state.mission.deployment == "dawn-of-war"
    menu = await table.press("disposition", alice)
    await table.pick(menu, "disposition", ["reconnaissance"], alice)
    again = await table.press("disposition", alice)
    picked = await table.pick(again, "disposition", ["disruption"], alice, strict=False)
    assert any(s.ephemeral and "changed your pick to Disruption" in s.content for s in picked)
    assert (await table.state()).player(str(alice.id)).disposition_choice == "disruption"
    assert "Disruption" not in public_text(await table.board())


async def test_a_pick_stays_secret_in_the_log_until_both_have_picked(harness: Harness, alice: FakeUser,
                                                                     bob: FakeUser) -> None:
    table = Table(harness, alice, bob)
    await table.start(pack=PACK, seed=None, size=None)
    menu = await table.press("disposition", alice)
    await table.pick(menu, "disposition", ["priority-assets"], alice)
    for user in (alice, bob):
        reply = await table.slash("game log", user)
        text = harness.model.files[int(reply.main.message["attachments"][0]["id"])].decode()
        assert "priority-assets" not in text and "until both players have picked" in text
        assert json.loads(text)["start"]["roll-off:sides"] is None  # the sides are rolled off after the reveal
    assert "Priority Assets" not in public_text(await table.board())


async def test_a_pick_up_game_on_the_pairings_layout_names_no_deployment_card(harness: Harness, alice: FakeUser,
                                                                              bob: FakeUser) -> None:
    table = Table(harness, alice, bob)
    challenge = await table.challenge_only(pack=PACK, seed="layout-game", size=None, layout="drawn")
    briefing = public_text(challenge.main.message)
    assert "The pairing's layout" in briefing and "Deployment:" not in briefing
    await table.accept()
    for user, disposition in ((alice, "take-and-hold"), (bob, "purge-the-foe")):
        menu = await table.press("disposition", user)
        await table.pick(menu, "disposition", [disposition], user)
    state = await table.state()
    assert state.mission.deployment == "" and state.mission.layout.startswith("take-and-hold--purge-the-foe-")
    assert f"on Layout {state.mission.layout[-1].upper()}" in public_text(await table.board())


async def test_mirrored_world_can_be_agreed_on_the_board(harness: Harness, alice: FakeUser, bob: FakeUser) -> None:
    catalog = catalog_2026()
    seed = next(s for n in range(200) if new_game(catalog, GameSetup(
        size="strike-force", players=("1", "2"), names=("A", "B"), seed=(s := f"mirror-{n}"), pack=PACK,
        challenger_cards=False, twist=True)).state.mission.twist == "mirrored-world")
    table = Table(harness, alice, bob)
    await table.start(pack=PACK, seed=seed, size=None, twist=True)
    agreed = catalog.twist("mirrored-world").primary_roll[4]
    for user in (alice, bob):
        menu = await table.press("mirror", user)
        await table.pick(menu, "mirror", [agreed], user)
    assert "Mirrored World: Alice would play" in public_text(await table.board())
    for user, disposition in ((alice, "take-and-hold"), (bob, "purge-the-foe")):
        menu = await table.press("disposition", user)
        await table.pick(menu, "disposition", [disposition], user)
    state = await table.state()
    assert state.primary_of(str(alice.id)) == state.primary_of(str(bob.id)) == agreed
