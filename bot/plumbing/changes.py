"""One stream of changes: every change of a game or an event, told to every surface that shows it.

The services publish; the surfaces subscribe: the web pages (bot/web/feeds.py), the Discord board and its calls
(bot/ui/board_feed.py), the clock watch, the result's reporting to tournaments and ladders
(bot/ui/result_reports.py). A new surface is one subscriber more.

A change made here carries what the action did (`result`, the actor). A change made by another process arrives
through the relay (bot/plumbing/change_relay.py: PostgreSQL's LISTEN/NOTIFY) with its ids and version only, `local`
False: a subscriber that shows it reads the record itself; the Discord board leaves it to the process that made
it, which serves that channel.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

_log = logging.getLogger(__name__)

Kind = Literal["game", "event"]


@dataclass(frozen=True)
class Change:
    """`kind` game or event, its id and the version it now has; `what` the change: for a game "start", an action's
    kind ("end_turn", "time_out", "abandon", ...) or "undo"; for an event "event"."""

    kind: Kind
    id: int
    version: int
    what: str
    result: Any = None  # the service's ActResult, for a change made in this process
    actor: str | None = None
    local: bool = True

    @property
    def played_here(self) -> bool:
        """A game's start, action or undo made by this process, with its result (not a revoked link's notice)."""
        return self.kind == "game" and self.local and self.result is not None

    def wire(self) -> dict[str, Any]:
        """What another process is told (no state: it reads the record)."""
        return {"kind": self.kind, "id": self.id, "version": self.version, "what": self.what}

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Change:
        return cls(kind=data["kind"], id=int(data["id"]), version=int(data["version"]), what=str(data["what"]),
                   local=False)


Subscriber = Callable[[Change], Awaitable[None]]


class Relay(Protocol):
    """Carries this process's changes to the others, and theirs to `deliver`."""

    async def start(self, deliver: Subscriber) -> None: ...

    async def send(self, change: Change) -> None: ...

    async def close(self) -> None: ...


class ChangeStream:
    """Subscribers are called in the order they subscribed, one after another, each change after the previous one;
    a subscriber that fails is logged and the others still run: the change is saved whatever a surface does."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._relay: Relay | None = None

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Add `subscriber`; the function returned removes it."""
        self._subscribers.append(subscriber)
        return lambda: self._subscribers.remove(subscriber)

    async def connect(self, relay: Relay) -> None:
        """Share changes with the other processes of the same database."""
        self._relay = relay
        await relay.start(self.deliver)

    async def close(self) -> None:
        if self._relay is not None:
            await self._relay.close()
            self._relay = None

    async def publish(self, change: Change) -> None:
        await self.deliver(change)
        if self._relay is not None:
            try:
                await self._relay.send(change)
            except Exception:  # the other processes' pages catch up at their next change or reconnect
                _log.exception("Could not relay %s %s v%s", change.kind, change.id, change.version)

    async def deliver(self, change: Change) -> None:
        for subscriber in tuple(self._subscribers):
            try:
                await subscriber(change)
            except Exception:
                _log.exception("Subscriber %r failed on %s %s v%s", subscriber, change.kind, change.id,
                               change.version)
