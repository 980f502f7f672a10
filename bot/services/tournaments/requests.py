"""What an organiser asks at the desk that the event's Discord side carries out (posting in its channels): asked on
the change stream as a change of the event, so the process serving the event's server does it, whichever process
the desk's request reached (bot/ui/tournament/requests.py)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.plumbing.changes import Change

PREFIX = "ask:"
ASKS = frozenset({"publish", "announce", "clock", "minutes", "call", "late"})


@dataclass(frozen=True)
class DiscordAsk:
    """`what` the Discord side is asked to do for an event, with its details (`args`: table, minutes, call id...)
    and who asked (a user id)."""

    what: str
    by: str
    args: tuple[str, ...] = ()

    def change(self, event_id: int) -> Change:
        return Change("event", event_id, 0, PREFIX + ":".join((self.what, self.by, *self.args)))

    @classmethod
    def of(cls, change: Change) -> DiscordAsk | None:
        if change.kind != "event" or not change.what.startswith(PREFIX):
            return None
        what, by, *args = change.what.removeprefix(PREFIX).split(":")
        return cls(what, by, tuple(args)) if what in ASKS else None
