"""Game snapshots and setups <-> JSON text for the database.

A snapshot carries the schema version it was written with. Older versions are upgraded as they are
read (`_UPGRADES`), so games stored by an earlier bot keep loading; a version this bot does not know
is refused with a clear error rather than half-read. A setup stored before setups had a version is a
version-1 setup: it keeps the random streams and rules timing it was played with.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bot.engine.state import SCHEMA_VERSION, GameSetup, GameState, Status
from bot.store.models import GameStatus

M = TypeVar("M", bound=BaseModel)


class SnapshotError(Exception):
    """A stored snapshot this bot cannot read. Not the player's fault: log it with the game id."""


def dump_state(state: GameState) -> str:
    return state.model_dump_json()


def _legacy_setup(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "version": data.get("version", 1)}


def _game_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 versioned the setup: a version-1 snapshot holds a version-1 setup."""
    return {**data, "schema_version": 2, "setup": _legacy_setup(data["setup"])}


# schema version -> the step that upgrades a snapshot of that version to the next one
_GAME_UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _game_v1_to_v2}


def load_state(text: str) -> GameState:
    return load_snapshot(
        GameState, text, schema=SCHEMA_VERSION, what="Game snapshot", upgrades=_GAME_UPGRADES,
        hint="; run the bot version that wrote it, or rebuild the snapshot by replaying the action log",
    )


def load_snapshot(model: type[M], text: str, *, schema: int, what: str, hint: str = "",
                  upgrades: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] | None = None) -> M:
    """Read a JSON snapshot, upgraded step by step to `schema`, or raise SnapshotError naming `what`."""
    try:
        data = json.loads(text)
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
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise SnapshotError(f"{what} does not match schema version {schema}: {exc}") from None


def dump_setup(setup: GameSetup) -> str:
    return setup.model_dump_json()


def load_setup(text: str) -> GameSetup:
    return GameSetup.model_validate(_legacy_setup(json.loads(text)))


def game_status(state: GameState) -> GameStatus:
    """The table's status column, derived from the engine's state so the two never disagree."""
    if state.status == Status.ENDED:
        return GameStatus.ENDED
    if state.status == Status.ABANDONED:
        return GameStatus.ABANDONED
    return GameStatus.ACTIVE
