"""`python -m bot verify FILE` on exports made by the real service: honest, tampered, unfinished, stored earlier."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.state import GameSetup
from bot.services.games import GameService
from bot.store.db import make_engine, make_sessionmaker
from bot.services.verification import MISMATCH, UNREADABLE
from tests.store.conftest import ALICE, stored_v1_database

CHANNEL = 1_111_111_111_111_111_111
GUILD = 2_222_222_222_222_222_222


@pytest.fixture
def service(catalog, sessionmaker) -> GameService:
    return GameService(catalog, sessionmaker)


async def finished_export(service: GameService, setup: GameSetup, actions: list[a.Action]) -> dict:
    started = await service.start_game(GUILD, CHANNEL, setup)
    for action in actions:
        await service.act(action, channel_id=CHANNEL)
    return await service.export_log(started.game_id)


def run_verify(tmp_path: Path, data: dict | str, capsys) -> tuple[int, list[str], str]:
    path = tmp_path / "game-1.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    code = main(["verify", str(path)])
    out = capsys.readouterr()
    return code, out.out.splitlines(), out.err


@pytest.fixture
async def honest(service, setup, play) -> dict:
    # Two primary VP a turn and a Tactical deck each: draws, When Drawn answers and a full score sheet.
    return await finished_export(service, setup, play(setup, scores_per_turn=2))


async def test_an_honest_export_passes_every_check(honest, tmp_path, capsys) -> None:
    code, lines, err = run_verify(tmp_path, honest, capsys)
    assert code == 0 and err == ""
    assert [line.split(":")[0] for line in lines[:-1]] == [
        "seed", "start (mission, roll-offs)", f"actions ({len(honest['actions'])} replayed", "mission", "result",
        "score sheet"]
    assert all(line.endswith(": ok") for line in lines[:-1])
    assert lines[-1] == "6 of 6 checks passed: the game follows from its seed."
    # The export really records the draws it checks: each Tactical player's first two cards.
    for player in honest["setup"]["players"]:
        assert sum(len(e["facts"].get(f"{player}.drawn", [])) for e in honest["actions"]) >= 2


def verified_on_the_command_line(export: dict, path: Path) -> str:
    """`python -m bot verify` of the export written to `path`: the last line it prints (it must exit 0)."""
    path.write_text(json.dumps(export), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "bot", "verify", str(path)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[-1]


def test_python_m_bot_verify_is_the_command_line(honest, tmp_path) -> None:
    assert verified_on_the_command_line(honest, tmp_path / "game-1.json") == (
        "6 of 6 checks passed: the game follows from its seed.")


def first_draw(data: dict) -> tuple[dict, str]:
    entry = next(e for e in data["actions"] if any(k.endswith(".drawn") for k in e["facts"]))
    return entry, next(k for k in entry["facts"] if k.endswith(".drawn"))


def failing(lines: list[str]) -> list[str]:
    return [line for line in lines[:-1] if not line.endswith(": ok")]


async def test_a_changed_draw_is_caught(honest, catalog, tmp_path, capsys) -> None:
    tampered = copy.deepcopy(honest)
    entry, key = first_draw(tampered)
    drawn = entry["facts"][key]
    other = next(c.id for c in catalog.secondaries if c.id not in drawn)
    drawn[0] = other
    code, lines, _ = run_verify(tmp_path, tampered, capsys)
    assert code == MISMATCH
    assert failing(lines)[0].startswith(f"actions ({entry['seq'] - 1} replayed")
    assert f"action {entry['seq']} (" in failing(lines)[0] and f'"{other}"' in failing(lines)[0]
    assert "Alice's drawn" in failing(lines)[0] or "Bob's drawn" in failing(lines)[0]
    assert lines[-1].endswith("this log does not match its seed.")


async def test_a_changed_seed_is_caught(honest, tmp_path, capsys) -> None:
    tampered = {**honest, "seed": honest["seed"] + "x", "setup": {**honest["setup"], "seed": honest["seed"] + "x"}}
    code, lines, _ = run_verify(tmp_path, tampered, capsys)
    assert code == MISMATCH
    assert lines[0].startswith("seed: SHA-256 of the seed is ") and honest["seed_hash"] in lines[0]
    # And a forged hash to go with it: the shuffles no longer match.
    from bot.engine.rng import seed_hash
    forged = {**tampered, "seed_hash": seed_hash(tampered["seed"])}
    code, lines, _ = run_verify(tmp_path, forged, capsys)
    assert code == MISMATCH and lines[0] == "seed: ok" and failing(lines)


async def test_a_changed_action_is_caught(honest, tmp_path, capsys) -> None:
    tampered = copy.deepcopy(honest)
    score = next(e for e in tampered["actions"] if e["action"]["kind"] == "score")
    score["action"]["vp"] = 3
    code, lines, _ = run_verify(tmp_path, tampered, capsys)
    assert code == MISMATCH
    assert f"action {score['seq']} (score by " in failing(lines)[0] and "vp: the log says 1, the replay gives 3" in failing(lines)[0]


async def test_a_removed_action_is_caught(honest, tmp_path, capsys) -> None:
    tampered = copy.deepcopy(honest)
    del tampered["actions"][10]
    code, lines, _ = run_verify(tmp_path, tampered, capsys)
    assert code == MISMATCH and "action 11: numbered 12 (an action is missing or out of order)" in failing(lines)[0]
    # Renumbered to hide the gap, the log no longer follows the rules or its facts.
    for seq, entry in enumerate(tampered["actions"], start=1):
        entry["seq"] = seq
    code, lines, _ = run_verify(tmp_path, tampered, capsys)
    assert code == MISMATCH and "action 11 (" in failing(lines)[0]
    assert failing(lines)[1:] == ["mission: not checked: the replay stopped", "result: not checked: the replay stopped",
                                  "score sheet: not checked: the replay stopped"]


async def test_a_changed_result_or_score_is_caught(honest, tmp_path, capsys) -> None:
    players = honest["setup"]["players"]
    result = honest["result"]
    other = next(p for p in [*players, None] if p != result["winner"])
    code, lines, _ = run_verify(tmp_path, {**honest, "result": {**result, "winner": other}}, capsys)
    assert code == MISMATCH and failing(lines) == [next(line for line in lines if line.startswith("result: the log says"))]
    sheet = copy.deepcopy(honest["score_sheet"])
    sheet[0]["total"] += 5
    code, lines, _ = run_verify(tmp_path, {**honest, "score_sheet": sheet}, capsys)
    assert code == MISMATCH and [line.split(":")[0] for line in failing(lines)] == ["score sheet"]


async def test_files_that_cannot_be_verified_say_why(service, setup, play, tmp_path, capsys) -> None:
    code, lines, err = run_verify(tmp_path, "not json", capsys)
    assert (code, lines) == (UNREADABLE, []) and "is not JSON" in err
    code, _, err = run_verify(tmp_path, {"game_id": 1, "actions": []}, capsys)
    assert code == UNREADABLE and "is not a game log exported by /game log" in err
    assert main(["verify", str(tmp_path / "missing.json")]) == UNREADABLE
    assert "Cannot read" in capsys.readouterr().err

    started = await service.start_game(GUILD, CHANNEL, setup)
    for action in play(setup)[:5]:
        await service.act(action, channel_id=CHANNEL)
    running = await service.export_log(started.game_id)
    code, lines, err = run_verify(tmp_path, running, capsys)
    assert code == UNREADABLE and lines == []
    assert err.startswith(f"Game {started.game_id} is not finished (active)")


# --- the export itself --------------------------------------------------------------------------------

def strings(value) -> set[str]:
    """Every string anywhere in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | {s for v in value.values() for s in strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in strings(v)}
    return set()


async def test_a_running_game_exports_no_seed_and_no_deck_order(service, setup, play) -> None:
    started = await service.start_game(GUILD, CHANNEL, setup)
    for action in play(setup)[:12]:
        await service.act(action, channel_id=CHANNEL)
    state = (await service.get_state(game_id=started.game_id)).state
    assert all(p.deck for p in state.players)
    running = await service.export_log(started.game_id)
    shown = strings(running)
    assert setup.seed not in json.dumps(running) and running["seed"] is None
    seen = {c for p in state.players for c in p.hand + p.discard}
    for p in state.players:
        assert set(p.deck) - seen and not (set(p.deck) - seen) & shown, "a card still in a deck appears in the export"
        assert running["actions"][-1]["facts"].get(f"{p.id}.deck", len(p.deck)) == len(p.deck)
    assert not set(state.challenger_deck) & shown


async def test_a_player_fixed_seed_is_public_from_the_start(service, setup) -> None:
    replay = setup.model_copy(update={"seed_fixed_by": ALICE})
    started = await service.start_game(GUILD, CHANNEL, replay)
    texts = " ".join(e.text for e in started.events)
    assert f"Replay: Alice fixed the seed {setup.seed!r}" in texts and "no secret shuffles" in texts
    assert "secret seed" not in texts  # such a game never claims secret shuffles
    data = await service.export_log(started.game_id)
    assert data["seed"] == setup.seed and data["setup"]["seed"] == setup.seed
    assert data["setup"]["seed_fixed_by"] == ALICE


async def test_the_stored_version_1_games_verify(tmp_path, catalog, capsys) -> None:
    """Games played before this change, exported by today's service, verify with their own derivation."""
    engine = make_engine(await stored_v1_database(tmp_path / "old.db"))
    try:
        service = GameService(catalog, make_sessionmaker(engine))
        finished = 0
        for game_id in range(1, 9):
            data = await service.export_log(game_id)
            assert data["setup"]["version"] == 1
            if data["status"] == "active":
                assert data["seed"] is None
                continue
            code, lines, err = run_verify(tmp_path, data, capsys)
            assert (code, err) == (0, ""), lines
            assert lines[-1] == "6 of 6 checks passed: the game follows from its seed."
            finished += 1
        assert finished == 7
    finally:
        await engine.dispose()
