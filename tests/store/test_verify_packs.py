"""`/game log` exports of the older packs' table games (bot/services/table_log.py) and `python -m bot verify` on them: honest
games of Grand Tournament 2020 and the 4th edition verify, tampering fails the right check, a running game shows
no seed and no secret selection, and the Chapter Approved export is unchanged. Engine level: no database."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.services import verification as verify
from bot.__main__ import main
from bot.decks import installed_packs
from bot.engine import moves
from bot.engine.chapter_approved.game import apply, new_game
from bot.engine.packs import Packs
from bot.engine.rng import seed_hash
from bot.engine.table import actions as t
from bot.engine.table.rules import TableRules
from bot.engine.table.state import Step, TableSetup, TableState
from bot.services.game_log import export_game
from bot.services.table_log import export_table_game
from bot.services.verification import MISMATCH, UNREADABLE
from tests.store.test_verify import strings, verified_on_the_command_line

ALICE, BOB = "111111111111111111", "222222222222222222"
ALICE_PICKS = ("assassinate", "engage-on-all-fronts", "investigate-sites")  # three categories
BOB_PICKS = ("linebreaker", "grind-them-down", "codex")
CODEX_NAME = "Pinned Down by Fire"
CHECKS = ["seed", "start (mission, rolls)", "actions", "mission", "result", "score sheet"]


@pytest.fixture(scope="module")
def packs() -> Packs:
    return installed_packs()


class Table:
    """A table game played action by action through its pack's rules, as the service would log it."""

    def __init__(self, rules: TableRules, setup: TableSetup) -> None:
        self.rules = rules
        self.state: TableState = rules.new_game(setup).state
        self.log: list[t.TableAction] = []

    def do(self, action: t.TableAction) -> None:
        self.state = self.rules.apply(self.state, action).state
        self.log.append(action)

    def export(self) -> dict:
        status = self.state.status.value if self.state.over else "active"
        entries = [(seq, action.actor, f"2025-06-01T12:{seq // 60:02d}:{seq % 60:02d}+00:00", action)
                   for seq, action in enumerate(self.log, start=1)]
        return export_table_game(self.rules, self.state, entries, game_id=7, guild_id=1, channel_id=2,
                                 status=status, created_at="2025-06-01T12:00:00+00:00",
                                 updated_at="2025-06-01T13:00:00+00:00", seed_hash=seed_hash(self.state.setup.seed))


def gt_setup(seed: str = "gt-verify-seed", **fields) -> TableSetup:
    return TableSetup(pack="gt-2020", players=(ALICE, BOB), names=("Alice", "Bob"), size="strike-force", seed=seed,
                      **fields)


def gt_selected(packs: Packs, **fields) -> Table:
    """A Grand Tournament 2020 game up to both secret selections (Bob names a Codex secondary)."""
    game = Table(packs.rules("gt-2020"), gt_setup(**fields))
    game.do(t.SelectSecondaries(actor=ALICE, picks=ALICE_PICKS))
    game.do(moves.DeclareBattleReady(actor=ALICE, ready=True))
    game.do(t.SelectSecondaries(actor=BOB, picks=BOB_PICKS, codex=CODEX_NAME))
    return game


def gt_game(packs: Packs) -> Table:
    """A whole Grand Tournament 2020 battle: CP spent and gained, primary VP in each Command phase, secondary VP each
    turn (Alice's Engage on All Fronts over its 15VP cap), Bob's Grind Them Down at the end of each battle round,
    End Game objectives, Battle Ready."""
    game = gt_selected(packs)
    game.do(moves.SpendCp(actor=BOB, amount=3, reason="Detachment"))
    game.do(moves.ChooseSide(actor=game.state.sides_rolloff.winner, side="attacker"))
    game.do(moves.DeploymentDone(actor=ALICE))
    game.do(moves.DeploymentDone(actor=BOB))
    game.do(t.ChooseTurn(actor=game.state.first_turn_rolloff.winner, first=False))
    while game.state.status in (Step.BATTLE, Step.ROUND_END):
        if game.state.status == Step.ROUND_END:  # Grind Them Down: at the end of the battle round
            game.do(t.ScoreObjective(actor=BOB, objective="grind-them-down", vp=2))
            game.do(moves.DoneScoring(actor=BOB))
            continue
        me = game.state.active
        if game.state.round >= 2:  # the primary objective cannot be scored in the first battle round
            game.do(t.ScoreObjective(actor=me, objective="primary:0", vp=4))
        game.do(moves.EndCommandPhase(actor=me))
        if me == ALICE:
            for _ in range(2 if game.state.round == 5 else 1):
                game.do(t.ScoreObjective(actor=me, objective="engage-on-all-fronts", vp=3))
        if me == BOB and game.state.round == 2:
            game.do(t.GainCp(actor=BOB, amount=1, reason="Refund"))
        game.do(moves.EndTurn(actor=me))
    game.do(t.ScoreObjective(actor=ALICE, objective="assassinate", vp=10))
    game.do(t.ScoreObjective(actor=BOB, objective="codex", vp=6))
    game.do(moves.DoneScoring(actor=ALICE))
    game.do(moves.DoneScoring(actor=BOB))
    assert game.state.status == Step.ENDED
    return game


def fourth_game(packs: Packs, seed: str = "4e-seed-11") -> Table:
    """A 4th edition Omega game (Victory Points, Random Game Length): this seed rolls a 6 after battle round 6 (a
    seventh round), then a 3."""
    game = Table(packs.rules("4th-edition"), TableSetup(pack="4th-edition", players=(ALICE, BOB),
                                                         names=("Alice", "Bob"), level="omega", seed=seed))
    game.do(moves.DeploymentDone(actor=BOB))
    game.do(moves.DeploymentDone(actor=ALICE))
    game.do(t.ChooseTurn(actor=game.state.first_turn_rolloff.winner, first=True))
    while game.state.status == Step.BATTLE:
        me = game.state.active
        game.do(t.ScoreObjective(actor=me, objective="vp", vp=3 if me == ALICE else 2))
        game.do(moves.EndTurn(actor=me))
    game.do(t.ScoreObjective(actor=BOB, objective="vp", vp=5))
    game.do(moves.DoneScoring(actor=BOB))
    game.do(moves.DoneScoring(actor=ALICE))
    assert game.state.status == Step.ENDED
    return game


def alpha_game(packs: Packs) -> Table:
    """A 4th edition Alpha game: this seed's mission roll is a 6, so the Strategy Roll winner chooses the mission;
    no VP, the players record who achieved the mission's objective."""
    game = Table(packs.rules("4th-edition"), TableSetup(pack="4th-edition", players=(ALICE, BOB),
                                                         names=("Alice", "Bob"), level="alpha", seed="4e-seed-25"))
    assert game.state.status == Step.MISSION
    game.do(t.ChooseMission(actor=game.state.strategy_roll.winner, mission="recon"))
    game.do(moves.DeploymentDone(actor=ALICE))
    game.do(moves.DeploymentDone(actor=BOB))
    game.do(t.ChooseTurn(actor=game.state.first_turn_rolloff.winner, first=True))
    while game.state.status == Step.BATTLE:
        game.do(moves.EndTurn(actor=game.state.active))
    game.do(t.MissionResult(actor=ALICE, winner=BOB))
    game.do(moves.DoneScoring(actor=ALICE))
    game.do(moves.DoneScoring(actor=BOB))
    assert game.state.result.winner == BOB
    return game


@pytest.fixture(scope="module")
def gt(packs) -> dict:
    return gt_game(packs).export()


@pytest.fixture(scope="module")
def fourth(packs) -> dict:
    return fourth_game(packs).export()


def run_verify(tmp_path: Path, data: dict | str, capsys) -> tuple[int, list[str], str]:
    """`python -m bot verify FILE`, in this process: the CLI loads the packs itself."""
    path = tmp_path / "game-7.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    code = main(["verify", str(path)])
    out = capsys.readouterr()
    return code, out.out.splitlines(), out.err


def failing(lines: list[str]) -> list[str]:
    return [line for line in lines[:-1] if not line.endswith(": ok")]


def names_of(lines: list[str]) -> list[str]:
    return [line.split(":")[0].split(" (")[0] if line.startswith("actions") else line.split(":")[0]
            for line in lines]


def entry_where(data: dict, test: Callable[[dict], bool]) -> dict:
    return next(e for e in data["actions"] if test(e))


# --- honest games -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["gt", "fourth"])
def test_an_honest_table_game_passes_every_check(game, request, tmp_path, capsys) -> None:
    data = request.getfixturevalue(game)
    code, lines, err = run_verify(tmp_path, data, capsys)
    assert (code, err) == (0, ""), lines
    assert names_of(lines[:-1]) == CHECKS and all(line.endswith(": ok") for line in lines[:-1])
    assert lines[2] == f"actions ({len(data['actions'])} replayed: rolls, CP, VP): ok"
    assert lines[-1] == "6 of 6 checks passed: the game follows from its seed."


def test_the_gt_export_records_its_rolls_selections_and_score_sheet(gt) -> None:
    assert gt["format"] == "mission-deck game log" and gt["format_version"] == 2 and gt["pack"] == "gt-2020"
    assert list(gt)[:4] == ["format", "format_version", "pack", "game_id"]
    assert gt["seed"] == "gt-verify-seed" == gt["setup"]["seed"]
    assert gt["start"]["status"] == "secondaries" and len(gt["start"]["d33"]) == 2
    assert gt["start"][f"{ALICE}.cp"] == gt["start"][f"{BOB}.cp"] == 12  # Strike Force musters with 12CP
    assert gt["mission"]["battle_rounds"] == 5 and gt["mission"]["name"]
    # The selections, revealed together with the Attacker and Defender roll-off.
    reveal = entry_where(gt, lambda e: "roll-off:sides" in e["facts"])
    assert reveal["action"]["picks"] == list(BOB_PICKS) and reveal["action"]["codex"] == CODEX_NAME
    assert reveal["facts"][f"{ALICE}.objectives"] == list(ALICE_PICKS)
    assert reveal["facts"][f"{BOB}.codex"] == CODEX_NAME and reveal["facts"]["status"] == "sides"
    assert "roll-off:first-turn" in entry_where(gt, lambda e: e["facts"].get("status") == "first_turn")["facts"]
    # Every action says where the game stands and each player's CP and VP after it.
    for entry in gt["actions"]:
        facts = set(entry["facts"])
        assert {"status", "round", "turn", f"{ALICE}.cp", f"{ALICE}.vp", f"{BOB}.cp", f"{BOB}.vp"} <= facts
    last = gt["actions"][-1]["facts"]
    assert last["status"] == "ended" and last["result"] == gt["result"]
    assert gt["result"]["vp"] == {p["player"]: p["total"] for p in gt["score_sheet"]}
    # The score sheet: per objective and battle round, awarded and lost to the caps.
    alice = next(p for p in gt["score_sheet"] if p["player"] == ALICE)
    engage = next(o for o in alice["objectives"] if o["objective"] == "engage-on-all-fronts")
    assert (engage["awarded"], engage["lost"]) == (15, 3) and [r["round"] for r in engage["rounds"]] == [1, 2, 3, 4,
                                                                                                        5, "end"]
    assert next(o for o in alice["objectives"] if o["objective"] == "assassinate")["rounds"][-1] == {
        "round": "end", "awarded": 10, "lost": 0}
    assert next(o for o in alice["objectives"] if o["objective"] == "battle_ready")["awarded"] == 10
    bob = next(p for p in gt["score_sheet"] if p["player"] == BOB)
    assert next(o for o in bob["objectives"] if o["objective"] == "codex")["name"] == f"{CODEX_NAME} (Codex)"
    assert alice["total"] == 16 + 15 + 10 + 10 and alice["lost"] == 3  # primary from battle round 2


def test_the_4th_edition_export_records_the_generator_rolls_and_game_length(fourth) -> None:
    assert fourth["pack"] == "4th-edition"
    start = fourth["start"]
    assert start["level"] == "omega" and start["level_roll"] is None and start["mission_roll"] in range(1, 6)
    assert start["roll-off:set-up"]["winner"] in (ALICE, BOB) and "d33" not in start
    assert f"{ALICE}.cp" not in start  # 4th edition has no Command points
    assert fourth["mission"]["level"] == "omega" and fourth["mission"]["battle_rounds"] == 7
    deployed = entry_where(fourth, lambda e: "roll-off:first-turn" in e["facts"])
    assert deployed["seq"] == 2 and deployed["facts"]["infiltrate_first"] in (ALICE, BOB)
    assert deployed["facts"]["dusk_and_dawn"] in range(1, 7)
    lengths = [e["facts"]["length_rolls"] for e in fourth["actions"] if "length_rolls" in e["facts"]]
    assert lengths == [[6], [6, 3]]
    sheet = {p["player"]: p for p in fourth["score_sheet"]}
    assert [r["round"] for r in sheet[ALICE]["objectives"][0]["rounds"]] == [1, 2, 3, 4, 5, 6, 7, "end"]
    assert sheet[ALICE]["total"] == 21 and sheet[BOB]["total"] == 19 and fourth["result"]["winner"] == ALICE


def test_a_4th_edition_alpha_game_with_a_chosen_mission_verifies(packs, tmp_path, capsys) -> None:
    data = alpha_game(packs).export()
    assert data["start"]["roll-off:strategy"]["winner"] in (ALICE, BOB) and data["start"]["mission"] is None
    assert data["actions"][0]["facts"]["mission"] == "recon"
    assert data["actions"][-3]["facts"]["mission_winner"] == BOB
    assert all(not p["objectives"] and p["total"] == 0 for p in data["score_sheet"])
    code, lines, _ = run_verify(tmp_path, data, capsys)
    assert code == 0, lines
    tampered = copy.deepcopy(data)
    tampered["result"]["winner"] = ALICE
    code, lines, _ = run_verify(tmp_path, tampered, capsys)
    assert code == MISMATCH and names_of(failing(lines)) == ["result"]


def test_python_m_bot_verify_reads_a_table_game(gt, tmp_path) -> None:
    assert verified_on_the_command_line(gt, tmp_path / "game-7.json") == (
        "6 of 6 checks passed: the game follows from its seed.")


# --- tampering ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["gt", "fourth"])
def test_a_changed_vp_is_caught(game, request, tmp_path, capsys) -> None:
    honest = request.getfixturevalue(game)
    tampered = copy.deepcopy(honest)
    entry = entry_where(tampered, lambda e: e["action"]["kind"] == "score_objective" and e["actor"] == ALICE)
    claimed = entry["facts"][f"{ALICE}.vp"]
    entry["facts"][f"{ALICE}.vp"] = claimed + 1
    code, lines, _ = run_verify(tmp_path, tampered, capsys)
    assert code == MISMATCH and lines[-1].endswith("this log does not match its seed.")
    assert names_of(failing(lines)) == ["actions", "mission", "result", "score sheet"]
    assert failing(lines)[0].startswith(f"actions ({entry['seq'] - 1} replayed")
    assert (f"action {entry['seq']} (score_objective by Alice): Alice's vp: the log says {claimed + 1}, "
            f"the replay gives {claimed}") in failing(lines)[0]
    assert failing(lines)[1:] == [f"{name}: not checked: the replay stopped" for name in
                                  ("mission", "result", "score sheet")]
    # The VP claimed in the action itself, with its facts to match: the rules cap or award it differently.
    tampered = copy.deepcopy(honest)
    entry = entry_where(tampered, lambda e: e["action"].get("objective") in ("primary:0", "vp") and e["actor"] == ALICE)
    entry["action"]["vp"] += 1
    code, lines, _ = run_verify(tmp_path, tampered, capsys)
    assert code == MISMATCH and f"action {entry['seq']} (score_objective by Alice): Alice's vp" in failing(lines)[0]


def test_a_changed_roll_is_caught(gt, fourth, tmp_path, capsys) -> None:
    tampered = copy.deepcopy(gt)
    tens, units = tampered["start"]["d33"]
    tampered["start"]["d33"] = [tens % 3 + 1, units]
    code, lines, _ = run_verify(tmp_path, tampered, capsys)
    assert code == MISMATCH and names_of(failing(lines)) == ["start (mission, rolls)"]
    assert failing(lines)[0].startswith(f"start (mission, rolls): d33: the log says [{tens % 3 + 1}, {units}], "
                                        f"the replay gives [{tens}, {units}]")

    tampered = copy.deepcopy(gt)
    entry = entry_where(tampered, lambda e: "roll-off:sides" in e["facts"])
    rolloff = entry["facts"]["roll-off:sides"]
    rolloff["winner"] = ALICE if rolloff["winner"] == BOB else BOB
    code, lines, _ = run_verify(tmp_path, tampered, capsys)
    where = f"action {entry['seq']} (select_secondaries by Bob): roll-off:sides"
    assert code == MISMATCH and where in failing(lines)[0]

    tampered = copy.deepcopy(fourth)
    entry = entry_where(tampered, lambda e: e["facts"].get("length_rolls") == [6])
    entry["facts"]["length_rolls"] = [5]
    code, lines, _ = run_verify(tmp_path, tampered, capsys)
    assert code == MISMATCH
    assert f"action {entry['seq']} (end_turn by " in failing(lines)[0]
    assert "length_rolls: the log says [5], the replay gives [6]" in failing(lines)[0]


@pytest.mark.parametrize("game", ["gt", "fourth"])
def test_a_wrong_seed_is_caught(game, request, tmp_path, capsys) -> None:
    honest = request.getfixturevalue(game)
    wrong = honest["seed"] + "x"
    tampered = {**honest, "seed": wrong, "setup": {**honest["setup"], "seed": wrong}}
    code, lines, _ = run_verify(tmp_path, tampered, capsys)
    assert code == MISMATCH
    assert lines[0] == (f"seed: SHA-256 of the seed is {seed_hash(wrong)}, not the hash shown at the start "
                        f"({honest['seed_hash']})")
    # With a forged hash to go with it, the rolls no longer follow.
    code, lines, _ = run_verify(tmp_path, {**tampered, "seed_hash": seed_hash(wrong)}, capsys)
    assert code == MISMATCH and lines[0] == "seed: ok" and failing(lines)


@pytest.mark.parametrize("game", ["gt", "fourth"])
def test_a_changed_result_or_score_sheet_is_caught(game, request, tmp_path, capsys) -> None:
    honest = request.getfixturevalue(game)
    result = {**honest["result"], "winner": BOB if honest["result"]["winner"] == ALICE else ALICE}
    code, lines, _ = run_verify(tmp_path, {**honest, "result": result}, capsys)
    assert code == MISMATCH and names_of(failing(lines)) == ["result"]
    assert failing(lines)[0].startswith("result: the log says ")
    sheet = copy.deepcopy(honest["score_sheet"])
    sheet[1]["objectives"][0]["rounds"][0]["awarded"] += 3
    code, lines, _ = run_verify(tmp_path, {**honest, "score_sheet": sheet}, capsys)
    assert code == MISMATCH and names_of(failing(lines)) == ["score sheet"]


def test_an_edited_action_log_is_caught(gt, tmp_path, capsys) -> None:
    tampered = copy.deepcopy(gt)
    del tampered["actions"][5]
    code, lines, _ = run_verify(tmp_path, tampered, capsys)
    assert code == MISMATCH and "action 6: numbered 7 (an action is missing or out of order)" in failing(lines)[0]
    tampered = copy.deepcopy(gt)
    entry = entry_where(tampered, lambda e: e["action"]["kind"] == "end_turn")
    entry["action"]["actor"] = entry["actor"] = ALICE if entry["actor"] == BOB else BOB
    code, lines, _ = run_verify(tmp_path, tampered, capsys)
    assert code == MISMATCH and f"action {entry['seq']} (end_turn by " in failing(lines)[0]
    assert "is refused by the rules: It is " in failing(lines)[0]


def test_a_log_that_names_no_known_pack_is_refused(gt, tmp_path, capsys) -> None:
    code, lines, err = run_verify(tmp_path, {**gt, "pack": "9th-edition"}, capsys)
    assert (code, lines) == (UNREADABLE, []) and "pack '9th-edition', which this bot does not know" in err
    code, _, err = run_verify(tmp_path, {**gt, "pack": "4th-edition"}, capsys)
    assert code == UNREADABLE and "its setup is of 'gt-2020'" in err


# --- what a running game shows ------------------------------------------------------------------------------

def test_a_running_game_exports_no_seed_and_no_hidden_selection(packs, tmp_path, capsys) -> None:
    game = Table(packs.rules("gt-2020"), gt_setup())
    game.do(t.SelectSecondaries(actor=BOB, picks=BOB_PICKS, codex=CODEX_NAME))
    game.do(moves.DeclareBattleReady(actor=ALICE, ready=True))
    running = game.export()
    text = json.dumps(running)
    assert running["seed"] is None and "seed" not in running["setup"] and "gt-verify-seed" not in text
    assert running["actions"][0]["action"] == {"actor": BOB, "at": None, "kind": "select_secondaries",
                                               "picks": None, "codex": None}
    assert running["actions"][0]["facts"][f"{BOB}.selected"] is True
    assert not {"linebreaker", "grind-them-down"} & strings(running) and CODEX_NAME not in text
    assert running["status"] == "active" and running["result"] is None
    code, lines, err = run_verify(tmp_path, running, capsys)
    assert (code, lines) == (UNREADABLE, []) and err.startswith("Game 7 is not finished (active)")

    # Once both have selected, the selections are revealed, in the log too; the seed stays hidden.
    game.do(t.SelectSecondaries(actor=ALICE, picks=ALICE_PICKS))
    revealed = game.export()
    assert revealed["seed"] is None and "gt-verify-seed" not in json.dumps(revealed)
    assert revealed["actions"][0]["action"]["picks"] == list(BOB_PICKS)
    assert revealed["actions"][2]["facts"][f"{BOB}.codex"] == CODEX_NAME


def test_a_running_4th_edition_game_shows_its_rolls_but_not_its_seed(packs) -> None:
    game = Table(packs.rules("4th-edition"), TableSetup(pack="4th-edition", players=(ALICE, BOB),
                                                         names=("Alice", "Bob"), level="omega", seed="4e-seed-11"))
    game.do(moves.DeploymentDone(actor=BOB))
    running = game.export()
    assert running["seed"] is None and "4e-seed-11" not in json.dumps(running)
    assert running["start"]["roll-off:first-turn"] is None  # rolled only once both armies are deployed
    assert running["actions"][0]["facts"]["deployed"] == [BOB]


def test_a_player_fixed_seed_is_public_while_the_game_runs(packs) -> None:
    game = gt_selected(packs, seed_fixed_by=ALICE)
    running = game.export()
    assert running["seed"] == "gt-verify-seed" == running["setup"]["seed"]
    assert running["setup"]["seed_fixed_by"] == ALICE


def test_an_abandoned_game_verifies(packs, tmp_path, capsys) -> None:
    game = gt_selected(packs)
    game.do(moves.Abandon(actor=BOB))
    data = game.export()
    assert data["status"] == "abandoned" and data["seed"] == "gt-verify-seed"
    code, lines, _ = run_verify(tmp_path, data, capsys)
    assert code == 0, lines


# --- Chapter Approved -----------------------------------------------------------------------------------------

def test_the_chapter_approved_export_is_unchanged_and_verifies(catalog, setup, play, packs, tmp_path, capsys) -> None:
    actions = play(setup, scores_per_turn=1)
    state = new_game(catalog, setup).state
    for action in actions:
        state = apply(catalog, state, action).state
    log = [(seq, action.actor, "2025-06-01T12:00:00+00:00", action) for seq, action in enumerate(actions, start=1)]
    data = export_game(catalog, state, log, game_id=3, status=state.status.value, seed_hash=seed_hash(setup.seed))
    assert "pack" not in data and list(data)[:3] == ["format", "format_version", "game_id"]
    code, lines, err = run_verify(tmp_path, data, capsys)
    assert (code, err) == (0, "") and lines[1] == "start (mission, roll-offs): ok"
    assert lines[-1] == "6 of 6 checks passed: the game follows from its seed."
    # The dispatch over the installed packs gives the Chapter Approved checks themselves.
    assert verify.verify_export(packs, data) == verify.verify(catalog, data)
    path = tmp_path / "game-3.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out: list[str] = []
    assert verify.main(path, packs, out=out.append) == 0 and out == lines
