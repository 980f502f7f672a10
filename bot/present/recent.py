"""What just happened at a game, for the surfaces that show it: the last public lines of each of the most recently
active games (the Discord board's and the pages' "recent" lines)."""

from __future__ import annotations

from collections import OrderedDict, deque


class RecentEvents:
    """The last public lines of each of the most recently active games, for their boards: a bounded cache
    (a game pushed out, or served before a restart, shows fewer lines, nothing else)."""

    def __init__(self, games: int, lines: int) -> None:
        self._games, self._lines = games, lines
        self._by_game: OrderedDict[int, deque[str]] = OrderedDict()

    def add(self, game_id: int, texts: list[str]) -> None:
        lines = self._by_game.pop(game_id, None) or deque(maxlen=self._lines)
        lines.extend(texts)
        self._by_game[game_id] = lines  # now the most recent
        while len(self._by_game) > self._games:
            self._by_game.popitem(last=False)

    def lines(self, game_id: int) -> list[str]:
        return list(self._by_game.get(game_id, ()))

    def forget(self, game_id: int) -> None:
        self._by_game.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._by_game)
