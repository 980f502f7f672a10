"""Every button and menu of the game board, its refusals, hidden choices and simultaneous presses."""

from __future__ import annotations

import asyncio


from bot.engine import moves
from bot.engine.chapter_approved.catalog import Window
from bot.engine.chapter_approved.objectives import table_objectives
from bot.engine.chapter_approved.state import GameState, Phase, PromptKind, Source, Status
from bot.services.games import GameService
from bot.ui.desk import GameDesk
from bot.ui.text import title_case
from tests.cogs.game_table import Table, battle_steps, find_seed, menu_values, public_text, said, verbs
from tests.cogs.harness import Harness
from tests.discord_model import EPHEMERAL

FIXED = ("cleanse", "assassination")


def refusal(reply, text: str) -> None:
    """The reply is one private message saying `text`."""
    private = [s for s in reply if s.message is not None and s.ephemeral and s.content]
    public = [s for s in reply if s.message is not None and not s.ephemeral]
    assert public == [], [s.content for s in public]
    assert any(text in s.content for s in private), [s.content for s in private]


async def seeded(table: Table, catalog, wanted, *, first_fixed=None, second_fixed=None, prefix: str = "b") -> None:
    """Start a game whose seed gives `wanted` once both players have chosen, and play to the battle."""
    first, second = str(table.first.id), str(table.second.id)
    seed = find_seed(catalog, (first, second), wanted, prefix=prefix,
                     steps=battle_steps(first, second, first_fixed, second_fixed))
    await table.start(seed=seed)
    await table.to_battle(first_fixed=first_fixed, second_fixed=second_fixed)


def one_prompt(kind: PromptKind):
    return lambda state: len(state.prompts) == 1 and state.prompts[0].kind == kind


# --- before the battle --------------------------------------------------------------------------

async def test_sides_and_battle_ready(table: Table, harness: Harness) -> None:
    await table.start()
    state = await table.state()
    winner = table.user(state.sides_rolloff.winner)
    loser = table.other(winner)
    refusal(await table.press("defender", loser), "won the roll-off and chooses")
    assert (await table.version()) == 0
    await table.press("ready", loser)
    await table.press("ready", loser)  # pressed again: not Battle Ready after all
    await table.press("ready", winner)
    state = await table.state()
    assert (state.player(str(winner.id)).battle_ready, state.player(str(loser.id)).battle_ready) == (True, False)
    await table.press("defender", winner)
    state = await table.state()
    assert state.status == Status.SECONDARIES and state.defender == str(winner.id)
    fields = {f["name"].split(" ")[0]: f["value"] for f in (await table.board())["embeds"][0]["fields"]}
    assert "Battle Ready" in fields[winner.name.title()] and "Battle Ready" not in fields[loser.name.title()]
    assert f"{winner.name.title()} (Defender)" in public_text(await table.board())


async def test_the_first_turn_and_supply_drop_wait_for_both_players_to_deploy(table: Table, harness: Harness,
                                                                               alice, bob) -> None:
    reply = await table.challenge_only(mission="B")  # Supply Drop
    briefing = public_text(reply.main.message)
    assert "drawn at random at the start of the battle" in briefing and "Alpha objective:" not in briefing
    await table.accept()
    state = await table.state()
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    await table.choose(alice, None)
    await table.choose(bob, FIXED)
    state = await table.state()
    assert state.status == Status.DEPLOYMENT and state.first is None
    defender = table.user(state.defender)
    board = await table.board()
    assert f"Deploy armies: **{defender.name.title()}** sets up first" in board["embeds"][0]["description"]
    assert "Alice ⏳ deploying, Bob ⏳ deploying" in board["embeds"][0]["description"]
    assert sorted(verbs(board)) == ["army", "deployed", "ready", "undo"]
    assert "first turn roll-off" not in "\n".join(public_text(m).lower() for m in harness.messages())

    pressed = await table.press("deployed", alice)
    notice = said(pressed, "press Deployment done once your army is set up")  # Bob is the one the game waits for
    assert bob.mention in notice.content and "deployed" in verbs(notice.message)
    assert "Alice ✅ deployed, Bob ⏳ deploying" in (await table.board())["embeds"][0]["description"]
    refusal(await table.press("deployed", alice), "already confirmed your deployment")
    await harness.press(verbs(notice.message)["deployed"], user=bob, message_id=int(notice.message["id"]))
    await table.settle()
    state = await table.state()
    assert state.status == Status.BATTLE and state.first == state.first_turn_rolloff.winner
    board = public_text(await table.board())
    # Announced with the other lines of the step (the board shows the latest of them, which draws may push out).
    assert any(f"{state.player(state.first).name} takes the first turn" in line
               for line in harness.bot.desk.board.recent.lines(table.game_id))
    assert "Supply Drop" in board and "Alpha objective:" in board
    refusal(await table.slash("game undo", bob), "cannot be undone")  # the roll-off is out


async def test_a_stranger_is_told_off_by_every_button(table: Table, harness: Harness, catalog) -> None:
    carol = harness.user("carol")
    first, second = str(table.first.id), str(table.second.id)
    seed = find_seed(catalog, (first, second), one_prompt(PromptKind.TEMPTING_OBJECTIVE),
                     steps=battle_steps(first, second, None, None))
    await table.start(seed=seed)
    seen: set[str] = set()

    async def stranger_presses_everything() -> None:
        board, version = await table.board(), await table.version()
        for verb, custom_id in verbs(board).items():
            seen.add(verb)
            refusal(await harness.press(custom_id, user=carol, message_id=int(board["id"])), "Only the two players")
        assert await table.version() == version

    await stranger_presses_everything()  # sides
    state = await table.state()
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    await stranger_presses_everything()  # secret choices
    await table.choose(table.first, None)
    await table.choose(table.second, None)
    await stranger_presses_everything()  # deployment
    await table.deploy()
    await stranger_presses_everything()  # battle, with a question open
    prompt = (await table.state()).prompts[0]
    answer = await table.press("answer", table.user(prompt.player))
    await table.pick(answer, "objective", [menu_values(answer)[0]], table.user(prompt.player))
    await stranger_presses_everything()  # the Command phase, question answered: New Orders is offered
    await table.press("endcmd", await table.active_user())
    await stranger_presses_everything()  # movement to fight
    assert seen == {"attacker", "defender", "ready", "army", "choose", "deployed", "undo", "answer", "endcmd", "score",
                    "neworders", "endturn"}


async def test_an_outdated_board_is_refused_and_refreshed(table: Table, harness: Harness) -> None:
    await table.start()
    board = await table.board()
    old = verbs(board)
    # Discord lags: the board edit after the next press is lost (through the channel or the press's token alike),
    # so the board still shows move 0.
    lags = [("PATCH", "/channels/{channel_id}/messages/{message_id}"),
            ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")]
    edits = [harness.routes[lag] for lag in lags]
    harness.route(*lags[0], lambda p, b, f: harness.model.get_message(int(p["channel_id"]), int(p["message_id"])))
    harness.route(*lags[1], lambda p, b, f: harness.model.messages[int(board["id"])])
    state = await table.state()
    loser = table.other(table.user(state.sides_rolloff.winner))
    await table.press("ready", loser)
    assert verbs(await table.board()) == old and await table.version() == 1
    for lag, edit in zip(lags, edits):
        harness.route(*lag, edit)
    reply = await harness.press(old["attacker"], user=table.user(state.sides_rolloff.winner),
                                message_id=int(board["id"]))
    refusal(reply, "out of date")
    await table.settle()
    assert (await table.state()).status == Status.SIDES  # the stale press changed nothing
    fresh = await table.board()
    assert verbs(fresh)["attacker"] == "mdb:1:1:attacker" and "move 1" in fresh["embeds"][0]["footer"]["text"]


async def test_fixed_choices_stay_hidden_until_both_have_chosen(table: Table, harness: Harness, alice, bob,
                                                                 catalog) -> None:
    await table.start()
    state = await table.state()
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    menu = await table.press("choose", alice)
    bobs_menu = await table.press("choose", bob)  # both choose at the same time
    assert menu.ephemeral and sorted(verbs(menu.main.message)) == ["fixed", "tactical"]
    options = menu_values(menu)
    assert options == [card.id for card in catalog.secondaries if card.fixed]
    chosen = await table.pick(menu, "fixed", list(FIXED), alice)
    assert said(chosen, "You chose Fixed Missions").ephemeral
    secret = [catalog.secondary(c).name for c in FIXED]
    secret += [title_case(name) for name in secret]

    def leaked() -> list[str]:
        public = [s.message for s in harness.model.sent if s.message and not s.flags & EPHEMERAL]
        return [name for m in public for name in secret if name in public_text(m)]

    assert leaked() == []
    board = await table.board()
    assert "Alice ✅ chosen, Bob ⏳ choosing" in board["embeds"][0]["description"]
    log = await table.slash("game log", bob)
    assert all(name not in harness.model.files[int(log.main.message["attachments"][0]["id"])].decode()
               for name in [*FIXED, *secret])
    # Bob chooses Tactical with the button of the menu he opened before Alice chose; both are revealed.
    await table.press_on(bobs_menu, "tactical", bob)
    board = public_text(await table.board())
    assert all(title_case(catalog.secondary(c).name) in board for c in FIXED)
    assert (await table.state()).status == Status.DEPLOYMENT


async def test_a_choice_is_refused_in_the_wrong_state(table: Table, harness: Harness, alice, bob) -> None:
    await table.start()
    await table.to_battle(first_fixed=FIXED)
    menu = await table.slash("secondary choose", alice)
    refusal(await table.pick(menu, "fixed", ["cleanse", "no-prisoners"], alice), "already revealed")
    assert (await table.state()).player(str(alice.id)).hand == FIXED


# --- the turn -------------------------------------------------------------------------------------

async def test_a_turn_command_phase_score_done_and_discards(table: Table, harness: Harness, catalog) -> None:
    # Alice Fixed, Bob Tactical; the seed makes Bob go first with no When Drawn question, now or after
    # New Orders, and nothing to score in his Command phase.
    alice, bob = table.first, table.second

    def quiet_start(s: GameState) -> bool:
        me = s.player(str(bob.id))
        windows = {o.window for c in me.hand for o in catalog.secondary(c).scoring}
        return (s.active == me.id and not s.prompts and catalog.secondary(me.deck[0]).when_drawn is None
                and not windows & {Window.WHILE_ACTIVE, Window.ANY_TIME, Window.END_OF_COMMAND_PHASE})

    await seeded(table, catalog, quiet_start, first_fixed=FIXED)
    refusal(await table.press("endcmd", alice), "only they can end the Command phase")
    refusal(await table.press("score", bob), "Nothing of yours scores right now")
    state = await table.state()
    bob_id = str(bob.id)
    hand = state.player(bob_id).hand
    # New Orders: a private menu of Bob's own cards.
    menu = await table.press("neworders", bob)
    values = menu_values(menu)
    assert values == list(hand)
    cp = state.player(bob_id).cp
    await table.pick(menu, "neworders", [hand[0]], bob)
    state = await table.state()
    assert hand[0] in state.player(bob_id).discard and state.player(bob_id).cp == cp - 1
    assert not state.prompts
    assert "neworders" not in await table.board_verbs()  # once per phase: the board no longer offers it
    refusal(await table.slash("secondary new-orders", bob, card=state.player(bob_id).hand[0], strict=False),
            "already used this phase")

    await table.press("endcmd", bob)
    assert sorted(await table.board_verbs()) == ["endturn", "score", "undo"]
    await table.press("endturn", bob)
    state = await table.state()
    assert state.phase == Phase.END_OF_TURN
    # The score menu offers the Primary and Bob's own cards' options, nothing of Alice's.
    menu = await table.press("score", bob)
    labels = [o["label"] for c in menu.main.components for o in c["components"][0]["options"]]
    cards = [title_case(catalog.secondary(c).name) for c in state.player(bob_id).hand]
    assert labels and all(label.startswith(("Primary", *cards)) for label in labels)
    alices = [c for c in FIXED if c not in state.player(bob_id).hand]  # each player has a deck: both may hold one
    assert not any(title_case(catalog.secondary(c).name) in label for label in labels for c in alices)
    card_option = next(o for c in menu.main.components for o in c["components"][0]["options"]
                       if o["value"].startswith("secondary|"))
    await table.pick(menu, "score", [card_option["value"]], bob)
    scored_card = card_option["value"].split("|")[1]
    state = await table.state()
    assert [e.card for e in state.vp if e.player == bob_id and e.source == Source.SECONDARY] == [scored_card]
    await table.press("done", alice)  # Alice has nothing to score at the end of Bob's turn
    refusal(await table.press("done", alice), "already finished scoring this turn: waiting for Bob")
    assert "**Bob** is still scoring" in public_text(await table.board())
    await table.press("done", bob)
    state = await table.state()
    # The achieved card is gone; Bob decides his discards first (his turn), Alice is Fixed.
    assert scored_card in state.player(bob_id).discard
    assert state.phase == Phase.DISCARDS and state.discard_queue == (bob_id,)
    assert sorted(await table.board_verbs()) == ["discard", "keep", "undo"]
    refusal(await table.press("discard", alice), "no end-of-turn discard to decide")
    menu = await table.press("discard", bob)
    left = state.player(bob_id).hand
    cp = state.player(bob_id).cp
    await table.pick(menu, "discard", [left[0]], bob)
    state = await table.state()
    # 1CP for discarding in his own turn, then 1CP for Alice's Command phase.
    assert left[0] in state.player(bob_id).discard and state.player(bob_id).cp == cp + 2
    assert state.player(bob_id).extra_cp_gained == 1
    assert state.active == str(alice.id) and state.phase == Phase.COMMAND


async def test_keep_all_and_the_discard_notice(table: Table, harness: Harness, catalog) -> None:
    alice, bob = table.first, table.second
    await seeded(table, catalog, lambda s: s.active == str(bob.id) and not s.prompts, first_fixed=FIXED)
    await table.press("endcmd", bob)
    await table.press("endturn", bob)
    waiting = said(await table.press("done", bob), "finish scoring, then press Done scoring")  # Alice still scores
    assert alice.mention in waiting.content and "done" in verbs(waiting.message)  # the board, moved, calls her
    reply = await harness.press(verbs(waiting.message)["done"], user=alice, message_id=int(waiting.message["id"]))
    await table.settle()
    notice = said(reply, "discard or keep your Tactical Missions")
    assert bob.mention in notice.content and not notice.ephemeral
    assert int(waiting.message["id"]) not in harness.model.messages  # answered: the board moved on, nothing left
    assert {"discard", "keep"} <= verbs(notice.message).keys()
    before = (await table.state()).player(str(bob.id))
    await table.press_on(reply, "keep", bob)  # Keep all, on the board itself: no menu
    state = await table.state()
    assert state.active == str(alice.id) and state.phase == Phase.COMMAND
    after = state.player(str(bob.id))
    assert before.hand == after.hand[:len(before.hand)] and before.discard == after.discard


# --- When Drawn questions -------------------------------------------------------------------------

async def test_optional_reshuffle_yes_and_no(table: Table, harness: Harness, catalog) -> None:
    await seeded(table, catalog, one_prompt(PromptKind.OPTIONAL_RESHUFFLE))
    state = await table.state()
    prompt = state.prompts[0]
    drawer = table.user(prompt.player)
    refusal(await table.press("endcmd", drawer), "Waiting for")
    refusal(await table.press("answer", table.other(drawer)), "Nothing is waiting for your answer")
    # The question was announced once; the opponent acting meanwhile does not announce it again.
    def notices() -> int:  # boards posted with the question (edits of the board do not notify)
        return len([s for s in harness.model.sent if s.kind == "message" and "answer" in verbs(s.message)
                    and "was drawn: keep it or draw again?" in s.content])
    assert notices() == 1
    await table.slash("cp spend", table.other(drawer), amount=1)
    assert notices() == 1
    menu = await table.press("answer", drawer)
    assert menu.ephemeral and sorted(verbs(menu.main.message)) == ["no", "yes"]
    await table.press_on(menu, "yes", drawer)
    state = await table.state()
    me = state.player(prompt.player)
    assert prompt.card not in me.hand and prompt.card in me.deck


async def test_discard_if_answered_no_keeps_the_card(table: Table, harness: Harness, catalog) -> None:
    await seeded(table, catalog, one_prompt(PromptKind.DISCARD_IF))
    prompt = (await table.state()).prompts[0]
    drawer = table.user(prompt.player)
    menu = await table.press("answer", drawer)
    await table.press_on(menu, "no", drawer)
    state = await table.state()
    assert prompt.card in state.player(prompt.player).hand and not state.prompts


async def test_marked_for_death_units_through_the_modal(table: Table, harness: Harness, catalog) -> None:
    await seeded(table, catalog, one_prompt(PromptKind.ALPHA_TARGETS))
    prompt = (await table.state()).prompts[0]
    drawer, opponent = table.user(prompt.owner), table.user(prompt.player)
    menu = await table.press("answer", opponent)
    assert sorted(verbs(menu.main.message)) == ["nounits", "units"]
    opened = await table.press_on(menu, "units", opponent)
    modal = opened.modal
    assert modal["title"] == "Alpha Targets"
    inputs = [c["components"][0]["custom_id"] for c in modal["components"]]
    assert len(inputs) == 3
    reply = await harness.submit(modal["custom_id"], {inputs[0]: "Hive Tyrant", inputs[1]: "Carnifex"},
                                 user=opponent)
    await table.settle()
    assert not [s for s in reply if s.message is not None and not s.ephemeral and "Hive" in s.content]
    state = await table.state()
    assert state.player(prompt.owner).targets[prompt.card].alpha_units == ("Hive Tyrant", "Carnifex")
    # Then the drawer may name a Gamma Target (one unit), or none.
    assert state.prompts[0].kind == PromptKind.GAMMA_TARGET
    menu = await table.press("answer", drawer)
    assert sorted(verbs(menu.main.message)) == ["nogamma", "units"]
    modal = (await table.press_on(menu, "units", drawer)).modal
    assert modal["title"] == "Gamma Target" and len(modal["components"]) == 1
    await harness.submit(modal["custom_id"], {modal["components"][0]["components"][0]["custom_id"]: "Lictor"},
                         user=drawer)
    await table.settle()
    targets = (await table.state()).player(prompt.owner).targets[prompt.card]
    assert targets.gamma_unit == "Lictor" and "γ Lictor" in public_text(await table.board())
    # Undone, the question is asked again; this time: no Gamma Target.
    await table.press("undo", drawer)
    menu = await table.press("answer", drawer)
    await table.press_on(menu, "nogamma", drawer)
    state = await table.state()
    assert not state.prompts and state.player(prompt.owner).targets[prompt.card].gamma_unit is None
    assert "Hive Tyrant" in public_text(await table.board())


async def test_marked_for_death_with_no_units_is_replaced(table: Table, harness: Harness, catalog) -> None:
    await seeded(table, catalog, one_prompt(PromptKind.ALPHA_TARGETS))
    prompt = (await table.state()).prompts[0]
    opponent = table.user(prompt.player)
    menu = await table.press("answer", opponent)
    await table.press_on(menu, "nounits", opponent)
    state = await table.state()
    owner = state.player(prompt.owner)
    assert prompt.card in owner.discard and prompt.card not in owner.hand and len(owner.hand) == 2


async def test_tempting_target_objective_select(table: Table, harness: Harness, catalog) -> None:
    await seeded(table, catalog, one_prompt(PromptKind.TEMPTING_OBJECTIVE))
    state = await table.state()
    prompt = state.prompts[0]
    opponent = table.user(prompt.player)
    menu = await table.press("answer", opponent)
    markers = table_objectives(catalog, state)
    offered = menu_values(menu)
    assert offered == [o.id for o in markers if o.area == "no_mans_land"]
    await table.pick(menu, "objective", [offered[-1]], opponent)
    state = await table.state()
    assert state.player(prompt.owner).targets[prompt.card].objective == offered[-1]
    name = next(o.name for o in markers if o.id == offered[-1])
    assert f"objective: {name}" in public_text(await table.board())


# --- Challenger, undo, simultaneous presses --------------------------------------------------------

async def test_challenger_card_from_the_board(table: Table, harness: Harness, catalog) -> None:
    alice, bob = table.first, table.second
    await seeded(table, catalog, lambda s: not s.prompts and s.active == str(alice.id),
                 first_fixed=FIXED, second_fixed=("cleanse", "no-prisoners"))
    await table.slash("score add", alice, source="primary", vp=6)
    await table.end_turn_plain()
    await table.end_turn_plain()  # round 2: Bob trails by 6 and draws a Challenger card in his turn
    await table.end_turn_plain()
    state = await table.state()
    assert state.challenger == str(bob.id) and state.active == str(bob.id)
    card = catalog.challenger(state.player(str(bob.id)).challenger_card)
    refusal(await table.press("challenger", alice), "no Challenger card")
    menu = await table.press("challenger", bob)
    assert menu.ephemeral and sorted(verbs(menu.main.message)) == ["mission", "stratagem"]
    await table.press_on(menu, "mission", bob)
    assert (await table.state()).player(str(bob.id)).challenger_use == "mission"
    assert "going for the Mission" in public_text(await table.board())
    refusal(await table.slash("challenger use", bob, **{"as": "stratagem"}), "already being used")
    assert card.mission.name


async def test_undo_button(table: Table, harness: Harness, alice, bob) -> None:
    await table.start()
    await table.to_battle(first_fixed=FIXED, second_fixed=("cleanse", "no-prisoners"))
    active = await table.active_user()
    await table.press("endcmd", active)
    assert (await table.state()).phase == Phase.BATTLE
    await table.press("undo", active)
    state = await table.state()
    assert state.phase == Phase.COMMAND and "endcmd" in await table.board_verbs()
    assert "undid the last action" in public_text(await table.board())
    refusal(await table.press("undo", active), "cannot be undone")  # the reveal before it


async def test_two_simultaneous_presses_apply_once(table: Table, harness: Harness, alice, bob) -> None:
    await table.start()
    await table.to_battle(first_fixed=FIXED, second_fixed=("cleanse", "no-prisoners"))
    active = await table.active_user()
    board = await table.board()
    endcmd = verbs(board)["endcmd"]
    version = await table.version()
    first, second = await asyncio.gather(
        harness.press(endcmd, user=active, message_id=int(board["id"])),
        harness.press(endcmd, user=active, message_id=int(board["id"])),
    )
    await table.settle()
    assert await table.version() == version + 1
    log = await harness.bot.service.repo.list_actions(table.game_id)
    assert [e.action.kind for e in log].count("end_command_phase") == 1
    told = {s.message["id"] for s in [*first, *second] if s.message and s.ephemeral and "out of date" in s.content}
    assert len(told) == 1


async def test_two_simultaneous_accepts_post_one_board(table: Table, harness: Harness, bob) -> None:
    challenge = await table.challenge_only()
    accept = verbs(challenge.main.message)["accept"]
    message_id = int(challenge.main.message["id"])
    await asyncio.gather(harness.press(accept, user=bob, message_id=message_id),
                         harness.press(accept, user=bob, message_id=message_id))
    await table.settle()
    assert len(await table.board_ids()) == 1
    assert len([s for s in harness.model.sent if s.ephemeral and "already been answered" in s.content]) == 1


async def test_a_board_another_process_redrew_works_here(table: Table, harness: Harness, catalog) -> None:
    # Another process (its own service, memory copies and desk, the same database and Discord) moves the
    # game on and redraws the board: this process's copy is behind, yet a press on the new board is
    # checked against the database, not refused as out of date.
    await table.start()
    assert await table.version() == 0  # this process's copy
    other = GameDesk(harness.bot, GameService(catalog, harness.bot.service.repo._sessionmaker))
    state = (await other.service.get_state(game_id=table.game_id)).state
    await other.service.act(moves.ChooseSide(actor=state.sides_rolloff.winner, side="attacker"), game_id=table.game_id)
    other.request_refresh(table.game_id)
    await other.idle()
    assert "choose" in await table.board_verbs()  # the board as the other process drew it
    menu = await table.press("choose", table.first)
    await table.press_on(menu, "tactical", table.first)
    assert (await table.state()).player(str(table.first.id)).choice is not None
    assert await table.version() == 2


async def test_a_restart_does_not_announce_a_waiting_decision_again(table: Table, harness: Harness, catalog) -> None:
    await seeded(table, catalog, one_prompt(PromptKind.OPTIONAL_RESHUFFLE), prefix="announce")
    drawer = table.user((await table.state()).prompts[0].player)
    def announced() -> list[str]:  # boards posted with the question (an edit of the board does not notify)
        return [s.content for s in harness.model.sent
                if s.kind == "message" and "was drawn: keep it or draw again?" in s.content]
    before = announced()
    assert f"<@{drawer.id}>" in before[-1]
    # A new desk remembers nothing (a restart, or a game pushed out of memory): the question still
    # waits from before the opponent's action, so that action does not announce it again.
    harness.bot.desk = GameDesk(harness.bot, harness.bot.service)
    version = await table.version()
    await table.slash("cp spend", table.other(drawer), amount=1)
    assert await table.version() == version + 1
    assert announced() == before


async def test_new_orders_is_offered_only_when_it_can_be_used(table: Table, harness: Harness, catalog) -> None:
    alice, bob = table.first, table.second
    # Alice plays Fixed and goes first: her Command phase offers no New Orders, Bob's (Tactical) does until his
    # CP are spent.
    await seeded(table, catalog, lambda s: s.active == str(alice.id) and not s.prompts, first_fixed=FIXED)
    assert "neworders" not in await table.board_verbs()
    await table.end_turn_plain()
    await table.answer_all()
    assert (await table.state()).active == str(bob.id) and "neworders" in await table.board_verbs()
    cp = (await table.state()).player(str(bob.id)).cp
    await table.slash("cp spend", bob, amount=cp, reason="Command Re-roll")
    assert "neworders" not in await table.board_verbs()
