"""A table game (Grand Tournament 2020, 4th edition) played action by action through the engine's one entry, for
the rule tests: each test file's Game says which pack and setup."""

from __future__ import annotations

import re

import pytest

from bot.decks import installed_packs
from bot.engine.errors import GameError
from bot.engine.events import Event
from bot.engine.table.state import TableSetup

PACKS = installed_packs()


class PlayedGame:
    def __init__(self, setup: TableSetup) -> None:
        self.setup = setup
        out = PACKS.new_game(setup)
        self.state, self.events, self.log = out.state, list(out.events), []

    def act(self, action) -> tuple[Event, ...]:
        out = PACKS.apply(self.state, action)
        self.state = out.state
        self.log.append(action)
        self.events.extend(out.events)
        return out.events

    def refuse(self, action, error: type[GameError] = GameError, match: str | None = None) -> None:
        """The action is refused with `error` and the state stays as it was."""
        before = self.state.model_dump()
        with pytest.raises(error, match=None if match is None else re.escape(match)):
            PACKS.apply(self.state, action)
        assert self.state.model_dump() == before
