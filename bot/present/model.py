"""The public model of a game: what every surface shows of it, words included. The Discord board lays its sections
out as an embed (bot/ui/board_embed.py); the pages, the overlays and the Activity read `to_json()`
(bot/web/static/live.js draws it). Everything here is public: a player's own part (a secret choice, a hand before the reveal) is
added by the surface that shows it to that player alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.present.words import Text, plain


@dataclass(frozen=True)
class Section:
    """A titled block of lines: a field of the Discord board, a box of a page. `side_by_side`: short enough to
    stand next to its neighbours."""

    title: Text
    lines: tuple[Text, ...]
    side_by_side: bool = False


@dataclass(frozen=True)
class GameModel:
    game: int
    version: int
    family: str  # "mission-deck" or "table"
    title: str
    status: str  # "setup", "battle", "ended" or "abandoned"
    status_text: Text
    replay: Text  # a replayed seed's mark (empty for a game with secret shuffles): the board and the page say it
    tone: str  # "setup", "attacker", "defender", "over" or "table": the board's colour
    mission: dict[str, Any]
    round: int
    rounds: int
    turn: int
    phase: str | None
    active: int | None  # the seat whose turn it is
    players: tuple[dict[str, Any], ...]
    waiting_on: tuple[Text, ...]
    clock: dict[str, Any] | None
    recent: tuple[str, ...]
    result: dict[str, Any] | None
    sheet: str | None
    sections: tuple[Section, ...]  # the board's blocks, in order
    footer: str

    def to_json(self) -> dict:
        return {
            "kind": "game", "game": self.game, "version": self.version, "family": self.family, "title": self.title,
            "mission": self.mission, "status": self.status, "status_text": plain(self.status_text),
            "replay": plain(self.replay) or None,
            "round": self.round, "rounds": self.rounds, "turn": self.turn, "phase": self.phase,
            "active": self.active, "players": list(self.players),
            "waiting_on": [plain(line) for line in self.waiting_on], "clock": self.clock,
            "recent": list(self.recent), "result": self.result, "sheet": self.sheet,
        }
