"""Grand Tournament 2020 and 4th edition games played through Discord: /game new pack:, the same board, buttons,
menus, pings, result card and score sheet as a Chapter Approved game, on the real bot, service and database."""

from __future__ import annotations

import pytest

from bot.client import MissionBot
from bot.decks import installed_packs
from bot.engine.table.state import Step, TableState
from bot.services.verification import verify_export
from tests.cogs.conftest import harness_settings
from tests.cogs.game_table import Table, menu_values, public_text, verbs
from tests.cogs.harness import Harness
from tests.cogs.test_pings import pings
from tests.discord_model import DiscordModel, FakeUser

GT_PICKS = ["assassinate", "engage-on-all-fronts", "investigate-sites"]
PACKS = installed_packs()


@pytest.fixture
def table(harness: Harness, alice: FakeUser, bob: FakeUser) -> Table:
    return Table(harness, alice, bob)


async def state_of(table: Table) -> TableState:
    state = await table.state()
    assert isinstance(state, TableState)
    return state


async def select_secondaries(table: Table, user: FakeUser, picks: list[str], codex: str | None = None):
    menu = await table.press("select", user)
    assert menu.main.ephemeral
    reply = await table.pick(menu, "picks", picks, user)
    if codex is not None:
        reply = await table.h.submit(reply.modal["custom_id"], {"codex": codex}, user=user)
        await table.settle()
    return reply


async def score(table: Table, user: FakeUser, objective: str, vp: str):
    menu = await table.press("score", user)
    assert objective in menu_values(menu)
    asked = await table.pick(menu, "objective", [objective], user)
    reply = await table.h.submit(asked.modal["custom_id"], {"vp": vp}, user=user)
    await table.settle()
    return reply


async def deployed(table: Table, user: FakeUser) -> None:
    """Deployment done; asked whether their army is Battle Ready (GT 2020, not said yet), the player says no."""
    reply = await table.press("deployed", user)
    if any(sent.message is not None and "notreadydeploy" in verbs(sent.message) for sent in reply):
        await table.press_on(reply, "notreadydeploy", user)


async def to_battle(table: Table) -> None:
    """Attacker and Defender (GT 2020), both deployed, the roll-off winner goes first."""
    state = await state_of(table)
    if state.status == Step.SIDES:
        await table.press("attacker", table.user(state.sides_rolloff.winner))
    await deployed(table, table.first)
    await deployed(table, table.second)
    await table.press("gofirst", table.user((await state_of(table)).first_turn_rolloff.winner))


async def end_turn(table: Table, state: TableState) -> None:
    """The player whose turn it is ends it; at the end of a battle round, whoever scores there presses Done."""
    if state.status == Step.ROUND_END:
        scorers = PACKS.rules(state.pack).round_scorers(state)
        await table.press("rounddone", table.user(next(p for p in scorers if p not in state.scoring_done)))
    else:
        await table.press("endturn", table.user(state.active))


async def turn_of(table: Table, user: FakeUser, round: int) -> None:
    """Turns ended until `user`'s turn of battle round `round`."""
    while (state := await state_of(table)).round < round or state.active != str(user.id):
        await end_turn(table, state)


async def play_out(table: Table) -> None:
    """Every remaining turn ended by the player whose turn it is."""
    while (state := await state_of(table)).status in (Step.BATTLE, Step.ROUND_END):
        await end_turn(table, state)


async def test_a_grand_tournament_game_from_challenge_to_result(table: Table, harness: Harness, alice, bob) -> None:
    challenge = await table.challenge_only(pack="gt-2020", size="incursion", seed="gt-table")
    assert "Grand Tournament 2020" in challenge.content
    briefing = public_text(challenge.main.message)
    assert "Mission briefing" in briefing and "Deployment map: the pack draws it in a picture" in briefing
    await table.accept()
    assert set(await table.board_verbs()) == {"select", "ready", "army", "undo"}

    # Step 7: secret until both have selected.
    mine = await select_secondaries(table, alice, GT_PICKS)
    assert mine.main.ephemeral and "Assassinate" in mine.main.content
    board = public_text(await table.board())
    assert "Alice ✅ selected" in board and "Assassinate" not in board
    await table.press("ready", alice)
    start = len(harness.model.sent)
    await select_secondaries(table, bob, ["linebreaker", "thin-their-ranks", "codex"], codex="Oath of Moment")
    board = public_text(await table.board())
    assert "Assassinate" in board and "Oath of Moment (Codex)" in board
    state = await state_of(table)
    assert state.status == Step.SIDES and state.players[1].objectives[2] == "codex"

    # Both selections are revealed at once: the board moves to the bottom with them, notifying Alice (Bob just
    # acted), and calls the roll-off winner in the same message.
    [(revealed_to, reveal)] = pings(harness, start)
    assert revealed_to == {alice.id} and reveal.startswith("🎯 Secondary objectives revealed:")
    assert f"<@{alice.id}>: Assassinate, Engage on All Fronts, Investigate Sites" in reveal
    assert f"<@{bob.id}>: Linebreaker, Thin Their Ranks, Oath of Moment (Codex)" in reveal
    winner = int(state.sides_rolloff.winner)
    assert f"<@{winner}>, you won the roll-off: choose Attacker or Defender." in reveal
    await to_battle(table)
    state = await state_of(table)
    assert state.status == Step.BATTLE and state.round == 1
    assert state.player(state.first).cp == 7  # 6CP mustered + the Battle-forged bonus of the first turn
    menu = await table.press("score", table.user(state.first))
    assert "primary:0" not in menu_values(menu)  # "cannot be scored in the first battle round"

    await turn_of(table, alice, round=2)
    menu = await table.press("score", alice)
    assert "primary:0" in menu_values(menu)
    assert "assassinate" not in menu_values(menu)  # an End Game objective: scored once the battle is over
    assert "Alice**'s turn · Command phase" in public_text(await table.board())
    await score(table, alice, "primary:0", "10")
    await table.press("endcmd", alice)
    assert "endcmd" not in await table.board_verbs()
    assert "primary:0" not in menu_values(await table.press("score", alice))  # "at the end of … Command phase"
    late = await table.slash("score objective", alice, objective="primary:0", vp=5, strict=False)
    assert late.main.ephemeral and "yours is over for this turn" in late.main.content
    slip = await score(table, alice, "engage-on-all-fronts", "12")  # it gives 2 or 3VP at the end of a turn
    assert slip.main.ephemeral and "gives at most 3VP at once, so 12VP cannot be right" in slip.main.content
    for _ in range(6):
        await score(table, alice, "engage-on-all-fronts", "3")  # the sixth is over the 15VP cap
    state = await state_of(table)
    alice_rows = [t for t in state.vp if t.player == str(alice.id) and t.objective == "engage-on-all-fronts"]
    assert [(t.awarded, t.lost) for t in alice_rows] == [(3, 0)] * 5 + [(0, 3)]
    assert "Lost to caps: 3VP" in public_text(await table.board())
    refused = await table.slash("score objective", bob, objective="linebreaker", vp=2, strict=False)
    assert refused.main.ephemeral and "scores in your own turn" in refused.main.content

    await play_out(table)
    assert (await state_of(table)).status == Step.END_GAME
    await score(table, alice, "assassinate", "6")
    await table.press("done", alice)
    await table.press("done", bob)
    state = await state_of(table)
    battle_ready = 10
    assert state.status == Step.ENDED
    assert state.result.vp[str(alice.id)] == 10 + 15 + 6 + battle_ready
    card = next(m for m in harness.messages() if any("Result" in (e.get("title") or "") for e in m.get("embeds", [])))
    assert "End: 6 · Battle Ready: 10 → 41VP" in public_text(card)  # the bonus apart from End Game scores

    card = next(m for m in harness.messages() if any("Result" in (e.get("title") or "") for e in m.get("embeds", [])))
    assert card["attachments"] and card["embeds"][0]["image"]["url"].startswith("attachment://")
    assert "gt-table" in public_text(card)  # the seed, now public

    log = await table.slash("game log", alice)
    assert [a["filename"] for a in log.main.message["attachments"]] == [f"game-{table.game_id}.json"]
    assert "Oath of Moment" in log.main.content  # the score sheet's text tables
    export = await harness.bot.service.export_log(table.game_id)
    assert export["pack"] == "gt-2020"
    assert all(check.problem is None for check in verify_export(harness.bot.service.packs, export))


async def test_only_the_players_act_and_refusals_are_private(table: Table, harness: Harness, alice, bob) -> None:
    await table.start(pack="gt-2020", seed="gt-refusals")
    carol = harness.user("carol")
    stranger = await table.press("select", carol)
    assert stranger.main.ephemeral and "Only the two players" in stranger.main.content
    await select_secondaries(table, alice, GT_PICKS)
    clash = await select_secondaries(table, bob, ["assassinate", "bring-it-down", "linebreaker"])
    assert clash.main.ephemeral and "both Purge the Enemy" in clash.main.content
    assert (await state_of(table)).players[1].secret is None
    await select_secondaries(table, bob, GT_PICKS)
    state = await state_of(table)
    loser = table.other(table.user(state.sides_rolloff.winner))
    refused = await table.press("attacker", loser)
    assert refused.main.ephemeral and "won the roll-off" in refused.main.content
    version = await table.version()
    await to_battle(table)
    state = await state_of(table)
    bad = await score(table, table.user(state.active), "engage-on-all-fronts", "lots")
    assert bad.main.ephemeral and "whole number" in bad.main.content
    assert (await state_of(table)).vp == () and await table.version() > version


async def test_options_of_another_pack_are_refused(table: Table, alice, bob) -> None:
    for options, message in (({"pack": "gt-2020", "size": "asymmetric-war"}, "Incursion or Strike Force"),
                             ({"pack": "gt-2020", "twist": True}, "Chapter Approved"),
                             ({"pack": "4th-edition", "size": "incursion"}, "Battle sizes"),
                             ({"pack": "ca-2025-26", "level": "gamma"}, "4th edition"),
                             ({"pack": "no-such-pack"}, "is not a pack")):
        reply = await table.h.slash("game new", user=alice, opponent=bob, strict=False, seed="x", **options)
        assert reply.main.ephemeral and message in reply.main.content, options
    assert await table.h.bot.service.repo.get_active_game(table.h.default_channel.id) is None


async def test_pack_and_mission_autocomplete(harness: Harness, alice, bob) -> None:
    packs = await harness.autocomplete("game new", "pack", "", user=alice, opponent=bob)
    assert [c["value"] for c in packs] == ["ca-2025-26", "ca-2026-27", "gt-2020", "4th-edition"]
    gt = await harness.autocomplete("game new", "mission", "", user=alice, opponent=bob, pack="gt-2020",
                                    size="incursion")
    assert {c["name"] for c in gt} >= {"Crossfire", "Reconnaissance Mission"} and len(gt) == 9
    ca = await harness.autocomplete("game new", "mission", "", user=alice, opponent=bob)
    assert ca[0]["value"] == "A"


async def test_a_fourth_edition_game_counts_turns_and_vp_by_battle_round(table: Table, harness: Harness, alice,
                                                                          bob) -> None:
    await table.start(pack="4th-edition", size=None, mission="cleanse", level="gamma", seed="4e-table")
    state = await state_of(table)
    assert state.status == Step.DEPLOYMENT and state.battle_rounds == 6
    assert "Deployment done" in public_text(await table.board())
    await to_battle(table)
    await table.slash("score objective", alice, objective="vp", vp=120)
    refused = await table.slash("cp spend", bob, amount=1, strict=False)
    assert refused.main.ephemeral and "no Command points" in refused.main.content
    for _ in range(2):
        await table.press("endturn", table.user((await state_of(table)).active))
    await score(table, bob, "vp", "200")
    await play_out(table)
    await table.press("done", alice)
    await table.press("done", bob)
    state = await state_of(table)
    assert [(t.player, t.round, t.awarded) for t in state.vp] == [(str(alice.id), 1, 120), (str(bob.id), 2, 200)]
    assert state.result.winner == str(bob.id) and state.round == 6


async def test_an_alpha_mission_is_won_by_its_objective(table: Table, harness: Harness, alice, bob) -> None:
    """Alpha scores no VP: no Score button, no VP on the board or the result card, no score sheet; the card says
    who achieved the mission's objective."""
    await table.start(pack="4th-edition", size=None, mission="recon", level="alpha", seed="4e-alpha")
    await to_battle(table)
    assert "score" not in await table.board_verbs()
    assert "VP" not in public_text(await table.board())
    refused = await table.slash("score objective", alice, objective="vp", vp=5, strict=False)
    assert refused.main.ephemeral
    await play_out(table)
    assert set(await table.board_verbs()) >= {"outcome", "done"}
    early = await table.press("done", alice, strict=False)
    assert early.main.ephemeral and "Record who achieved" in early.main.content
    menu = await table.press("outcome", alice)
    await table.pick(menu, "outcome", [str(alice.id)], alice)
    await table.press("done", alice)
    await table.press("done", bob)
    state = await state_of(table)
    assert state.result.winner == str(alice.id) and state.result.reason == "battle"
    card = next(m for m in harness.messages() if any("Result" in (e.get("title") or "") for e in m.get("embeds", [])))
    text = public_text(card)
    assert "Alice achieved the mission's objective: Alice wins." in text and "VP" not in text
    assert not card["attachments"] and "image" not in card["embeds"][0]
    sheet = await table.slash("game sheet", alice, strict=False)
    assert sheet.main.ephemeral and "scores no VP, so it has no score sheet" in sheet.main.content


async def test_the_strategy_roll_winner_chooses_the_mission(table: Table, harness: Harness, alice, bob) -> None:
    seed = next(s for s in (f"strategy-{n}" for n in range(500)) if _rolls_a_six(harness, s, alice, bob))
    await table.start(pack="4th-edition", size=None, seed=seed)
    state = await state_of(table)
    assert state.status == Step.MISSION and state.mission is None
    winner = table.user(state.strategy_roll.winner)
    assert "pickmission" in verbs(await table.board())
    refused = await table.press("pickmission", table.other(winner))
    assert refused.main.ephemeral and "Only the winner of the Strategy Roll" in refused.main.content
    menu = await table.press("pickmission", winner)
    await table.pick(menu, "mission", ["take-and-hold"], winner)
    assert (await state_of(table)).mission == "take-and-hold"


def _rolls_a_six(harness: Harness, seed: str, alice: FakeUser, bob: FakeUser) -> bool:
    from bot.engine.fourth_edition.generator import roll_mission
    generator = harness.bot.service.packs.rules("4th-edition").data
    return roll_mission(generator, seed, (str(alice.id), str(bob.id))).mission is None


async def test_the_chess_clock_runs_in_an_older_packs_game(table: Table, harness: Harness, alice, bob) -> None:
    await table.start(pack="4th-edition", size=None, mission="recon", level="gamma", seed="4e-clock", clock=30)
    await to_battle(table)
    board = await table.board()
    assert "pause" in verbs(board) and "Clock" in public_text(board)
    state = await state_of(table)
    assert state.clock.running == state.active
    assert harness.bot.desk.clocks.deadline(table.game_id) == state.clock.deadline_ms
    await table.press("pause", alice)
    assert (await state_of(table)).clock.paused_by == str(alice.id)
    assert "resume" in await table.board_verbs()


async def test_a_grand_tournament_game_survives_a_restart(catalog, tmp_path) -> None:
    """The bot restarts on the same database: a selection made before it stays secret and stands, the board posted
    before it still works."""
    settings = harness_settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'restart.db'}")
    model = DiscordModel()
    alice, bob = model.add_user("alice"), model.add_user("bob")
    async with Harness(MissionBot(settings, catalog), model) as first:
        table = Table(first, alice, bob)
        await table.start(pack="gt-2020", seed="gt-restart")
        await select_secondaries(table, alice, GT_PICKS)
        board_id = (await table.board_ids())[-1]

    async with Harness(MissionBot(settings, catalog), model) as second:
        table = Table(second, alice, bob)
        table.game_id = 1
        assert (await state_of(table)).player(str(alice.id)).secret == tuple(GT_PICKS)
        menu = await second.press(verbs(second.message(board_id))["select"], user=bob, message_id=board_id)
        await table.pick(menu, "picks", ["domination", "grind-them-down", "teleport-homer"], bob)
        state = await state_of(table)
        assert state.status == Step.SIDES and state.player(str(alice.id)).objectives == tuple(GT_PICKS)
        assert board_id not in second.model.messages  # the board posted before the restart moved with the reveal
        assert "Assassinate" in public_text(await table.board())


async def test_the_chapter_approved_commands_answer_in_an_older_packs_game(table: Table, harness: Harness, alice,
                                                                             bob) -> None:
    """/secondary choose opens the pack's own selection; card commands are refused privately, changing nothing."""
    await table.start(pack="gt-2020", seed="gt-commands")
    menu = await table.slash("secondary choose", alice)
    assert menu.main.ephemeral and "picks" in verbs(menu.main.message)
    stranger = await table.slash("secondary choose", harness.user("carol"), strict=False)
    assert stranger.main.ephemeral and "Only the two players" in stranger.main.content
    assert await harness.autocomplete("secondary discard", "card", "", user=alice) == []
    for command, options in (("challenger use", {"as": "stratagem"}), ("secondary new-orders", {"card": "cleanse"})):
        refused = await table.slash(command, alice, strict=False, **options)
        assert refused.main.ephemeral and "has no such move" in refused.main.content
    assert await table.version() == 0
    fourth = Table(harness, alice, bob, channel=harness.channel("fourth"))  # a pack with no secondary objectives
    await fourth.start(pack="4th-edition", size=None, seed="4e-commands")
    refused = await fourth.slash("secondary choose", alice, strict=False)
    assert refused.main.ephemeral and "no secondary objectives" in refused.main.content


async def test_a_player_who_has_not_declared_battle_ready_is_asked_once_at_deployment(table: Table, alice,
                                                                                       bob) -> None:
    """The first-turn roll-off takes the Battle Ready button away: Deployment done asks first, privately, and
    "not Battle Ready" is recorded too; a player who declared is not asked."""
    await table.start(pack="gt-2020", seed="gt-ready")
    await select_secondaries(table, alice, GT_PICKS)
    await select_secondaries(table, bob, ["linebreaker", "assassinate", "teleport-homer"])
    await table.press("attacker", table.user((await state_of(table)).sides_rolloff.winner))
    await table.press("ready", bob)
    question = await table.press("deployed", alice)
    asked = next(sent for sent in question if sent.message is not None and "readydeploy" in verbs(sent.message))
    assert asked.message["flags"] & 64 and "is your army Battle Ready" in asked.content
    assert str(alice.id) not in (await state_of(table)).deployed  # nothing recorded until she answers
    answer = await table.press_on(question, "notreadydeploy", alice)
    seat = (await state_of(table)).player(str(alice.id))
    assert (seat.ready_declared, seat.battle_ready) == (True, False)
    assert str(alice.id) in (await state_of(table)).deployed and answer.errors == []
    plain = await table.press("deployed", bob)  # Bob declared: no question
    assert not any(s.message is not None and "readydeploy" in verbs(s.message) for s in plain)
    assert (await state_of(table)).status == Step.FIRST_TURN


async def test_the_end_of_a_battle_round_calls_whoever_scores_there(table: Table, harness: Harness, alice,
                                                                    bob) -> None:
    """Grind Them Down scores at the end of the battle round: its holder is called with the Done scoring button
    once the round's last turn is over, and the call closes when they press it."""
    await table.start(pack="gt-2020", seed="gt-round-end")
    await select_secondaries(table, alice, GT_PICKS)
    await select_secondaries(table, bob, ["linebreaker", "grind-them-down", "teleport-homer"])
    await to_battle(table)
    for _ in range(2):
        state = await state_of(table)
        await table.press("endturn", table.user(state.active))
    state = await state_of(table)
    assert state.status == Step.ROUND_END and set(await table.board_verbs()) >= {"score", "rounddone"}
    call = next(m for m in reversed(harness.messages()) if "battle round 1 is over" in (m.get("content") or ""))
    assert call["content"].startswith(f"<@{bob.id}>, battle round 1 is over") and "rounddone" in verbs(call)
    await score(table, bob, "grind-them-down", "3")
    await table.press("rounddone", bob)
    state = await state_of(table)
    assert (state.status, state.round) == (Step.BATTLE, 2)
    assert int(call["id"]) not in harness.model.messages  # the board moved on: the answered call left nothing
