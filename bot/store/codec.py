"""Game snapshots and setups <-> JSON text for the database.

A snapshot carries the schema version it was written with. Older versions are upgraded as they are
read (`_GAME_UPGRADES`), so games stored by an earlier bot keep loading; a version this bot does not
know is refused with a clear error rather than half-read. A setup stored before setups had a version is a
version-1 setup: it keeps the random streams and rules timing it was played with.

A snapshot is written after every action, so its size matters: from version 3 the VP ledger, which gains
an entry for every score, is stored as rows of values (`VP_COLUMNS`) rather than as objects repeating
every field name and the player's id; the rest of the state is pydantic's JSON as it stands.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from itertools import zip_longest
from operator import itemgetter
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bot.engine.chapter_approved.state import CA_PACK, GameSetup, GameState, SCHEMA_VERSION
from bot.engine.packs import MISSION_DECK, Family, family
from bot.store.models import GameStatus

M = TypeVar("M", bound=BaseModel)


class SnapshotError(Exception):
    """A stored snapshot this bot cannot read. Not the player's fault: log it with the game id."""


# A VP ledger row: these fields of the entry in this order, trailing Nones left out, and the player as
# their place in setup.players (0 or 1). Rarely set fields come last, so most rows end after `card`.
# A column added last needs no new schema version while its absence reads as its default (a trailing None or False
# is left out of a row): "end_of_battle" was added so, and every ledger written before reads the same.
VP_COLUMNS = ("player", "source", "round", "turn", "claimed", "awarded", "card", "option", "capped_by", "note",
              "end_of_battle")
# The same for a table game's tallies (bot/engine/table/state.py), stored this way from its first schema.
TALLY_COLUMNS = ("player", "objective", "round", "claimed", "awarded", "capped_by")
_VALUES = {VP_COLUMNS: itemgetter(*VP_COLUMNS), TALLY_COLUMNS: itemgetter(*TALLY_COLUMNS)}


def dump_state(state: Any) -> str:
    # pydantic writes everything but the ledger (in Rust, fast); the ledger rows go last, as the "vp" key.
    columns = VP_COLUMNS if isinstance(state, GameState) else TALLY_COLUMNS
    head = state.model_dump_json(exclude={"vp"})
    places = _places(state.setup.players)
    rows = json.dumps([_vp_row(vars(entry), places, columns) for entry in state.vp], separators=(",", ":"))
    return f'{head[:-1]},"vp":{rows}}}'


def _places(players: Any) -> dict[str, int]:
    return {player: place for place, player in enumerate(players)}


def _vp_row(entry: dict[str, Any], places: dict[str, int], columns: tuple[str, ...] = VP_COLUMNS) -> list[Any]:
    row = list(_VALUES[columns](entry))
    row[0] = places[row[0]]
    while row[-1] is None or row[-1] is False:
        row.pop()
    return row


def _vp_entries(data: dict[str, Any], columns: tuple[str, ...] = VP_COLUMNS) -> dict[str, Any]:
    """A snapshot with its ledger rows turned back into entries, for the model to validate."""
    try:
        players = data["setup"]["players"]
        entries = [dict(((name, value) for name, value in zip_longest(columns, row) if value is not None),
                        player=players[row[0]]) for row in data["vp"]]
    except (TypeError, IndexError, KeyError) as exc:
        raise SnapshotError(f"Game snapshot has a malformed VP ledger row: {exc!r}") from None
    if any(None in entry for entry in entries):
        raise SnapshotError(f"Game snapshot has a VP ledger row longer than {len(columns)} values.")
    return {**data, "vp": entries}


def _legacy_setup(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "version": data.get("version", 1)}


def _game_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 versioned the setup: a version-1 snapshot holds a version-1 setup."""
    return {**data, "schema_version": 2, "setup": _legacy_setup(data["setup"])}


def _game_v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3 stores the VP ledger as rows (VP_COLUMNS)."""
    places = _places(data["setup"]["players"])
    return {**data, "schema_version": 3,
            "vp": [_vp_row({"end_of_battle": False, **entry}, places) for entry in data["vp"]]}


def _game_v3_to_v4(data: dict[str, Any]) -> dict[str, Any]:
    """Version 4 added the chess clock: no game stored before had one."""
    return {**data, "schema_version": 4, "clock": None}


# schema version -> the step that upgrades a snapshot of that version to the next one
_GAME_UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _game_v1_to_v2, 2: _game_v2_to_v3, 3: _game_v3_to_v4}


def load_state(text: str, pack: str = CA_PACK) -> Any:
    """A stored snapshot of a game of `pack` (the game table's column)."""
    models = _family(pack)
    if models is not MISSION_DECK:
        return load_snapshot(models.state, text, schema=models.schema, what=f"{pack} game snapshot",
                             finish=partial(_vp_entries, columns=TALLY_COLUMNS))
    return load_snapshot(
        GameState, text, schema=SCHEMA_VERSION, what="Game snapshot", upgrades=_GAME_UPGRADES,
        hint="; run the bot version that wrote it, or rebuild the snapshot by replaying the action log",
        finish=_vp_entries,
    )


def load_snapshot(model: type[M], text: str, *, schema: int, what: str, hint: str = "",
                  upgrades: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] | None = None,
                  finish: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> M:
    """Read a JSON snapshot, upgraded step by step to `schema`, or raise SnapshotError naming `what`.

    `finish` turns the stored form of the current schema into the model's fields.
    """
    try:
        data = _interned(json.loads(text))
    except json.JSONDecodeError as exc:
        raise SnapshotError(f"{what} is not valid JSON: {exc}") from None
    version = data.get("schema_version") if isinstance(data, dict) else None
    while upgrades and version in upgrades and version != schema:
        data = upgrades[version](data)
        version = data["schema_version"]
    if version != schema:
        raise SnapshotError(
            f"{what} has schema version {version!r}, but this bot reads version {schema}{hint}."
        )
    if finish is not None:
        data = finish(data)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise SnapshotError(f"{what} does not match schema version {schema}: {exc}") from None


def _interned(value: Any) -> Any:
    """The same card and player ids fill every game held in memory: keep one copy of each string."""
    if isinstance(value, str):
        return sys.intern(value)
    if isinstance(value, list):
        return [_interned(item) for item in value]
    if isinstance(value, dict):
        return {key: _interned(item) for key, item in value.items()}
    return value


def dump_setup(setup: BaseModel) -> str:
    return setup.model_dump_json()


def load_setup(text: str, pack: str = CA_PACK) -> Any:
    data = _interned(json.loads(text))
    models = _family(pack)
    if models is not MISSION_DECK:
        return models.setup.model_validate(data)
    return GameSetup.model_validate(_legacy_setup(data))


def _family(pack: str) -> Family:
    try:
        return family(pack)
    except KeyError:
        raise SnapshotError(f"Game of pack {pack!r}, which this bot does not have installed.") from None


def game_status(state: Any) -> GameStatus:
    """The table's status column, derived from the engine's state so the two never disagree (every pack's
    statuses end in 'ended' or 'abandoned')."""
    if state.status == GameStatus.ENDED.value:
        return GameStatus.ENDED
    if state.status == GameStatus.ABANDONED.value:
        return GameStatus.ABANDONED
    return GameStatus.ACTIVE
