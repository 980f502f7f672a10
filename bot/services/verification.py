"""`python -m bot verify FILE`: check a finished game's `/game log` export against its seed.

The seed must hash to the SHA-256 shown at the start; the action log, replayed from the setup with
that seed (by the setup's own derivation version), must re-derive the mission, every roll-off, shuffle
and draw the export records, and its result and score sheet. One line per check, `ok` or the first
mismatch; exit 0 only when every check passes (docs/verify.md).

An export names its pack (`pack`; none: Chapter Approved 2025-26, as every export made before the older packs
were playable). A table game of an older pack (Grand Tournament 2020, 4th edition: bot/services/table_log.py) is checked
the same way by its pack's rules, with the packs `installed_packs()` loads.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, cast

from pydantic import TypeAdapter, ValidationError

from bot.services import table_log
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import CA_PACK, GameSetup
from bot.engine.errors import GameError
from bot.engine.packs import FAMILIES, ChapterApprovedRules, Packs, family
from bot.engine.rng import seed_hash
from bot.engine.table.rules import TableRules
from bot.engine.table.state import TableSetup
from bot.services.game_log import FORMAT, FORMAT_VERSION, OVER, action_facts, public_view, score_sheet

MISMATCH = 1
UNREADABLE = 2


class NotVerifiable(Exception):
    """The file is not a game log export this bot reads, or its seed is not revealed yet."""


@dataclass(frozen=True)
class Check:
    name: str
    problem: str | None  # None: ok

    def line(self) -> str:
        return f"{self.name}: {self.problem or 'ok'}"


def read_export(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise NotVerifiable(f"Cannot read {path}: {exc.strerror or exc}.") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise NotVerifiable(f"{path} is not JSON: export the game with /game log and verify that file.") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise NotVerifiable(f"{path} is not a game log exported by /game log.")
    if data.get("format_version") != FORMAT_VERSION:
        raise NotVerifiable(f"{path} is a game log of format version {data.get('format_version')!r}; this bot "
                            f"verifies version {FORMAT_VERSION}: export it again with /game log.")
    pack = pack_of(data)
    if not isinstance(pack, str) or pack not in FAMILIES:
        raise NotVerifiable(f"{path} is a game log of the pack {pack!r}, which this bot does not know.")
    if data.get("status") not in OVER:
        raise NotVerifiable(f"Game {data.get('game_id')} is not finished ({data.get('status')}): verify it once it "
                            "has ended and its seed is revealed, with a new /game log.")
    if data.get("seed") is None:
        raise NotVerifiable("The seed of this game is not revealed yet: it is shown when the game ends. "
                            "Export the log again with /game log once the game is over.")
    return data


@dataclass(frozen=True)
class Views:
    """How a pack's export is re-derived from its states: the public facts its checks compare, and their names."""

    start_check: str
    actions_check: str  # what replaying each action re-derives
    start: Callable[[Any], dict[str, Any]]
    facts: Callable[[Any, Any], dict[str, Any]]
    mission: Callable[[Any], Any]
    score_sheet: Callable[[Any], Any]


MISSION_DECK_VIEWS = Views("start (mission, roll-offs)", "draws, shuffles, roll-offs, CP, VP", public_view,
                           action_facts, lambda state: state.mission.model_dump(mode="json"), score_sheet)


def verify(catalog: Catalog, data: dict[str, Any]) -> list[Check]:
    """Every check of a Chapter Approved export read by `read_export`, in order."""
    return _verify(ChapterApprovedRules(catalog), data, MISSION_DECK_VIEWS)


def pack_of(data: dict[str, Any]) -> Any:
    """The pack an export names: a table game's at the top, a Chapter Approved season's in its setup (none: the
    2025-26 one, as every export before seasons)."""
    setup = data.get("setup")
    return data.get("pack") or (setup.get("pack", CA_PACK) if isinstance(setup, dict) else CA_PACK)


def verify_export(packs: Packs, data: dict[str, Any]) -> list[Check]:
    """Every check of an export read by `read_export`, by the rules of the pack it names."""
    pack = pack_of(data)
    try:
        rules = packs.rules(pack)
    except KeyError:
        raise NotVerifiable(f"This is a game of the pack {pack!r}, which is not installed.") from None
    if isinstance(rules, ChapterApprovedRules):
        return verify(rules.catalog, data)
    return verify_table(cast(TableRules, rules), data)  # every other installed pack is a table game's


def verify_table(rules: TableRules, data: dict[str, Any]) -> list[Check]:
    """Every check of a table game's export (bot/services/table_log.py) read by `read_export`, in order."""
    views = Views("start (mission, rolls)", "rolls, CP, VP", partial(table_log.public_view, rules),
                  partial(table_log.action_facts, rules), partial(table_log.mission_view, rules),
                  partial(table_log.score_sheet, rules))
    return _verify(rules, data, views)


def _verify(rules: Any, data: dict[str, Any], views: Views) -> list[Check]:
    """The seed against its hash, the start, every action replayed by `rules`, the mission, result and sheet."""
    try:
        model = family(rules.pack).setup  # the Mission Deck's or the table game's (bot/engine/packs.py, FAMILIES)
        setup = cast(GameSetup | TableSetup, model.model_validate({**data["setup"], "seed": data["seed"]}))
    except (KeyError, TypeError, ValidationError) as exc:
        raise NotVerifiable(f"The export's setup cannot be read: {exc}") from None
    if setup.pack != rules.pack:
        raise NotVerifiable(f"The export says it is a game of {rules.pack!r}, but its setup is of {setup.pack!r}.")
    checks = [Check("seed", None if seed_hash(setup.seed) == data.get("seed_hash") else
                    f"SHA-256 of the seed is {seed_hash(setup.seed)}, not the hash shown at the start "
                    f"({data.get('seed_hash')})")]
    try:
        state = rules.new_game(setup).state
    except GameError as exc:
        return [*checks, Check(views.start_check, f"the setup cannot start a game: {exc.message}")]
    checks.append(Check(views.start_check, _first_difference(data.get("start"), views.start(state), state)))
    state, problem, count = _replay(family(rules.pack).actions, rules, views.facts, state, data.get("actions"))
    checks.append(Check(f"actions ({count} replayed: {views.actions_check})", problem))
    if problem:
        skipped = "not checked: the replay stopped"
        return [*checks, Check("mission", skipped), Check("result", skipped), Check("score sheet", skipped)]
    final = [
        ("mission", data.get("mission"), views.mission(state)),
        ("result", data.get("result"), state.result.model_dump(mode="json") if state.result else None),
        ("score sheet", data.get("score_sheet"), views.score_sheet(state)),
    ]
    for name, claimed, derived in final:
        checks.append(Check(name, None if claimed == derived else
                            f"the log says {_short(claimed)}, the replay gives {_short(derived)}"))
    return checks


def _replay(adapter: TypeAdapter[Any], rules: Any, facts: Callable[[Any, Any], dict[str, Any]], state: Any,
            entries: Any) -> tuple[Any, str | None, int]:
    """Apply the logged actions (read by `adapter`) one by one by `rules`, comparing each one's `facts`: the state
    reached, the first problem, how many were replayed."""
    if not isinstance(entries, list):
        return state, "the export has no action list", 0
    for number, entry in enumerate(entries, start=1):
        where = f"action {number}"
        try:
            if entry["seq"] != number:
                return state, f"{where}: numbered {entry['seq']} (an action is missing or out of order)", number - 1
            action = adapter.validate_python(entry["action"])
            where += f" ({action.kind} by {_name(state, action.actor)})"
            if entry["actor"] != action.actor:
                return state, f"{where}: logged as made by {_name(state, entry['actor'])}", number - 1
        except (KeyError, TypeError, ValidationError):
            return state, f"{where} cannot be read (hidden, edited or incomplete)", number - 1
        try:
            after = rules.apply(state, action).state
        except GameError as exc:
            return state, f"{where} is refused by the rules: {exc.message}", number - 1
        except (LookupError, TypeError, ValueError, StopIteration) as exc:  # an edited log the rules cannot read
            return state, f"{where} cannot be replayed: {exc!r}", number - 1
        problem = _first_difference(entry.get("facts"), facts(state, after), after)
        if problem:
            return state, f"{where}: {problem}", number - 1
        state = after
    return state, None, len(entries)


def _first_difference(claimed: Any, derived: dict[str, Any], state: Any) -> str | None:
    if not isinstance(claimed, dict):
        return "the export has no facts here"
    for key in sorted(claimed.keys() | derived.keys()):
        if claimed.get(key) != derived.get(key):
            return (f"{_label(key, state)}: the log says {_short(claimed.get(key))}, "
                    f"the replay gives {_short(derived.get(key))}")
    return None


def _label(key: str, state: Any) -> str:
    """'1234.hand' -> "Alice's hand"."""
    player, _, what = key.partition(".")
    if what and player in state.setup.players:
        return f"{_name(state, player)}'s {what}"
    return key


def _name(state: Any, player_id: str) -> str:
    return state.player(player_id).name if player_id in state.setup.players else player_id


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


def main(path: Path, packs: Packs, out: Callable[[str], None] = print) -> int:
    """Verify the export at `path` by the rules of the installed pack it names."""
    try:
        checks = verify_export(packs, read_export(path))
    except NotVerifiable as exc:
        print(exc, file=sys.stderr)
        return UNREADABLE
    for check in checks:
        out(check.line())
    failed = [c for c in checks if c.problem]
    out(f"{len(checks) - len(failed)} of {len(checks)} checks passed: "
        + ("the game follows from its seed." if not failed else "this log does not match its seed."))
    return MISMATCH if failed else 0

