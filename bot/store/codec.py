"""Game snapshots and setups <-> JSON text for the database.

A snapshot carries the schema version it was written with; one this bot does not know is refused
with a clear error rather than half-read. The setup and the action log (bot.engine.actions) need no
version check: pydantic validates them, and replaying them is how a snapshot can be rebuilt.
"""

from __future__ import annotations

import json

from pydantic import ValidationError

from bot.engine.state import SCHEMA_VERSION, GameSetup, GameState, Status
from bot.store.models import GameStatus


class SnapshotError(Exception):
    """A stored snapshot this bot cannot read. Not the player's fault: log it with the game id."""


def dump_state(state: GameState) -> str:
    return state.model_dump_json()


def load_state(text: str) -> GameState:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SnapshotError(f"Game snapshot is not valid JSON: {exc}") from None
    version = data.get("schema_version") if isinstance(data, dict) else None
    if version != SCHEMA_VERSION:
        raise SnapshotError(
            f"Game snapshot has schema version {version!r}, but this bot reads version {SCHEMA_VERSION}; "
            "run the bot version that wrote it, or rebuild the snapshot by replaying the action log."
        )
    try:
        return GameState.model_validate(data)
    except ValidationError as exc:
        raise SnapshotError(f"Game snapshot does not match schema version {SCHEMA_VERSION}: {exc}") from None


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
