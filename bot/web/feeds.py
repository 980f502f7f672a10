"""The web pages' subscriber of the change stream (bot/plumbing/changes.py): each open page is a viewer of a game or an
event, and every change of what it watches sends it the whole public model again (bot/present), computed once for
all its viewers. A viewer holds only the newest frame: one that reads slowly skips to the latest model instead of
piling up old ones, and a page that reconnects starts from the current model, so a missed event loses nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.plumbing.changes import Change
from bot.engine.errors import GameError
from bot.services.judges import JudgeService
from bot.present import Links, game_model
from bot.present import event as event_view
from bot.present.judges import with_judges
from bot.services.games import GameService
from bot.store.shares import ShareRepository
from bot.services.tournaments import TournamentService
from bot.present.recent import RecentEvents
from bot.store.tournament_repository import TournamentRecord

_log = logging.getLogger(__name__)

RECENT_LINES = 8
GAMES_REMEMBERED = 512
GONE = "gone"  # a frame's event: the link was revoked or what it showed is gone
CLOSE = "close"  # a frame's event that ends the stream quietly (the process stops): the page reconnects
UNSHARED = "unshared"  # a change's `what` when links to it were revoked
REVOKED = "This link was revoked by the players or the organiser."


class DeskModels(Protocol):
    """What the desk's pages are sent (bot/web/desk.py)."""

    async def model(self, event_id: int, games: dict[int, Any]) -> dict[str, Any]: ...

    def view(self, target_kind: str, model: dict[str, Any]) -> dict[str, Any]: ...


@dataclass(eq=False)
class Viewer:
    """One open page: `target` ("game", id) or ("event", id); `token` the share link it was opened with (None: the
    Activity's, whose session says who may watch)."""

    target: tuple[str, int]
    token: str | None
    frames: asyncio.Queue[tuple[str, str]] = field(default_factory=lambda: asyncio.Queue(maxsize=1))

    def send(self, event: str, data: str) -> None:
        if self.frames.full():  # not read yet: the newer model replaces it
            self.frames.get_nowait()
        self.frames.put_nowait((event, data))


class LiveFeeds:
    def __init__(self, service: GameService, tournaments: TournamentService, shares: ShareRepository) -> None:
        self.service, self.tournaments, self.shares = service, tournaments, shares
        self.recent = RecentEvents(GAMES_REMEMBERED, RECENT_LINES)
        self._viewers: dict[tuple[str, int], set[Viewer]] = defaultdict(set)
        self._watched_games: dict[tuple[str, int], set[int]] = {}  # each watched event's games of the round shown
        self._states: OrderedDict[int, Any] = OrderedDict()  # games' newest states, as their changes bring them
        self._dirty: dict[tuple[str, int], int | None] = {}  # targets changed since their last model (a version)
        self._pushing: dict[tuple[str, int], asyncio.Task] = {}  # the task sending a target's models
        self.judges: JudgeService | None = None  # when set, an event's screen shows its judges' calls and duty
        # The organiser's desk (bot/web/desk.py), when set: its ("desk", event) and ("judges", event) pages.
        self.desk: DeskModels | None = None

    # ---- viewers ---------------------------------------------------------------------------------

    async def watch(self, target: tuple[str, int], token: str | None) -> Viewer:
        """A new viewer, with the current model waiting for it."""
        viewer = Viewer(target, token)
        viewer.send("model", await self.frame(target))
        self._viewers[target].add(viewer)
        return viewer

    def leave(self, viewer: Viewer) -> None:
        viewers = self._viewers.get(viewer.target)
        if viewers is not None:
            viewers.discard(viewer)
            if not viewers:
                del self._viewers[viewer.target]
                self._watched_games.pop(viewer.target, None)

    def viewers(self) -> Iterator[Viewer]:
        for viewers in self._viewers.values():
            yield from viewers

    def close(self, target: tuple[str, int], message: str) -> int:
        """Tell every viewer of `target` it is gone (a revoked link): how many there were."""
        viewers = self._viewers.pop(target, set())
        for viewer in viewers:
            viewer.send(GONE, json.dumps({"message": message}))
        return len(viewers)

    # ---- models ------------------------------------------------------------------------------------

    async def frame(self, target: tuple[str, int], version: int | None = None) -> str:
        """The model as the page reads it. `version`: a game's, as a change from another process announced it."""
        kind, target_id = target
        if kind == "game":
            model = await self.game(target_id, version)
        elif kind == "event":
            model = await self.event(target_id)
        else:
            assert self.desk is not None
            record = await self.tournaments.get(target_id)
            model = self.desk.view(kind, await self.desk.model(target_id, await self._round_states(target, record)))
        return json.dumps(model, separators=(",", ":"))

    async def game(self, game_id: int, version: int | None = None) -> dict[str, Any]:
        record = await self.service.get_state(game_id=game_id, version=version)
        return game_model(self.service.packs, record.state, game_id=game_id, version=record.version,
                          recent=self.recent.lines(game_id), links=Links(map="map.png", sheet="sheet.png")).to_json()

    async def event(self, tournament_id: int) -> dict[str, Any]:
        record = await self.tournaments.get(tournament_id)
        states = await self._round_states(("event", tournament_id), record)
        model = event_view.model(record, states, now_ms=time.time_ns() // 1_000_000)
        return model if self.judges is None else with_judges(model, await self.judges.venue(tournament_id))

    async def _round_states(self, target: tuple[str, int], record: TournamentRecord) -> dict[int, Any]:
        """The states of the event's round's games (their live VP), remembered from their changes; the page of
        `target` is sent a new model when one of them changes."""
        games = event_view.table_games(record)
        self._watched_games[target] = set(games.values())
        states = {}
        for game_id in games.values():
            state = self._states.get(game_id)
            if state is None:
                try:
                    state = (await self.service.get_state(game_id=game_id)).state
                except GameError:  # deleted since: the table shows as waiting
                    continue
                self._remember(game_id, state)
            states[game_id] = state
        return states

    def _remember(self, game_id: int, state: Any) -> None:
        self._states.pop(game_id, None)
        self._states[game_id] = state
        while len(self._states) > GAMES_REMEMBERED:
            self._states.popitem(last=False)

    # ---- the subscriber ------------------------------------------------------------------------------

    async def on_change(self, change: Change) -> None:
        """Returns at once: the pages' models are computed in tasks of their own, so the pages never wait for the
        Discord board (an earlier subscriber may be slow), and the board never waits for them."""
        if change.what == UNSHARED:
            await self.unshared()
            return
        if change.kind == "game" and change.result is not None:
            self.recent.add(change.id, [e.text for e in change.result.events if e.private_to is None])
            self._remember(change.id, change.result.state)
        elif change.kind == "game":
            self._states.pop(change.id, None)  # another process's: read again when shown
        kinds = ("game",) if change.kind == "game" else ("event", "desk", "judges")
        targets = [(kind, change.id) for kind in kinds if (kind, change.id) in self._viewers]
        if change.kind == "game":  # an event's screen and desk show its tables' live VP
            targets += [target for target, games in self._watched_games.items() if change.id in games]
        for target in targets:
            version = change.version if target[0] == "game" else None
            self._dirty[target] = max(version or 0, self._dirty.get(target) or 0) or None
            if target not in self._pushing:
                self._pushing[target] = asyncio.create_task(self._push(target))

    async def _push(self, target: tuple[str, int]) -> None:
        """Send the newest model of `target` to its viewers, again while changes come in meanwhile (one model for
        a burst of them)."""
        try:
            while target in self._dirty:
                version = self._dirty.pop(target)
                try:
                    frame = await self.frame(target, version)
                except GameError:
                    _log.info("%s %s is gone: its pages close", *target)
                    self.close(target, "This game or event no longer exists.")
                    return
                for viewer in tuple(self._viewers.get(target, ())):
                    viewer.send("model", frame)
        except Exception:
            _log.exception("The pages of %s %s were not updated", *target)
        finally:
            del self._pushing[target]

    async def stop(self) -> None:
        """The server stops: the models being sent stop, waited for (each may be inside a database call, whose
        connection closes before the engine is disposed)."""
        pushing = list(self._pushing.values())
        for task in pushing:
            task.cancel()
        await asyncio.gather(*pushing, return_exceptions=True)

    async def unshared(self) -> None:
        """Links were revoked (here or in another process): the pages opened with them stop."""
        tokens = {viewer.token for viewer in self.viewers() if viewer.token is not None}
        revoked = {token for token in tokens if await self.shares.resolve(token) is None}
        for viewer in [v for v in self.viewers() if v.token in revoked]:
            viewer.send(GONE, json.dumps({"message": REVOKED}))
            self.leave(viewer)
