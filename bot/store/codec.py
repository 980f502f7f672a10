"""Game snapshots and setups <-> JSON text for the database.

A snapshot carries the schema version it was written with; one this bot does not know is refused
with a clear error rather than half-read. The setup and the action log (bot.engine.actions) need no
version check: pydantic validates them, and replaying them is how a snapshot can be rebuilt.
"""

from __future__ import annotations

import json
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from bot.engine.state import SCHEMA_VERSION, GameSetup, GameState, Status
from bot.store.models import GameStatus

M = TypeVar("M", bound=BaseModel)


class SnapshotError(Exception):
    """A stored snapshot this bot cannot read. Not the player's fault: log it with the game id."""


def dump_state(state: GameState) -> str:
    return state.model_dump_json()


def load_state(text: str) -> GameState:
    return load_snapshot(
        GameState, text, schema=SCHEMA_VERSION, what="Game snapshot",
        hint="; run the bot version that wrote it, or rebuild the snapshot by replaying the action log",
    )


def load_snapshot(model: type[M], text: str, *, schema: int, what: str, hint: str = "") -> M:
    """Read a JSON snapshot written with `schema_version` == `schema`, or raise SnapshotError naming `what`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SnapshotError(f"{what} is not valid JSON: {exc}") from None
    version = data.get("schema_version") if isinstance(data, dict) else None
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
    return GameSetup.model_validate_json(text)


def game_status(state: GameState) -> GameStatus:
    """The table's status column, derived from the engine's state so the two never disagree."""
    if state.status == Status.ENDED:
        return GameStatus.ENDED
    if state.status == Status.ABANDONED:
        return GameStatus.ABANDONED
    return GameStatus.ACTIVE
