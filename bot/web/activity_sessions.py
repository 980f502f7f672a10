"""The Activity's signed-in users (bot/web/activity.py), each bound to the Activity instance Discord placed them in:
its voice channel is the only game the session shows and plays."""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass

from aiohttp import web

from bot.web.discord_api import Instance
from bot.web.json_api import error

SESSION_SECONDS = 3600  # then the page signs in again
SESSIONS_KEPT = 10_000
NOT_SIGNED_IN = "Your session has expired: reopen the Activity to sign in again."
LEFT_CALL = "Discord says you are not in this call: join the voice channel and open the Activity there."


@dataclass
class Session:
    token: str
    user: str
    name: str
    instance: str  # the Activity instance Discord placed the user in: its channel is the session's, for good
    channel: int
    guild: int | None
    expires_at: float
    private: tuple[int, tuple[str, ...]] = (-1, ())  # the version their last move made, and its lines for them alone
    pending: tuple[str, ...] = ()  # lines for them alone that their next move's answer carries (a list's flags)
    game: int | None = None  # the game it last showed: still shown once over, until the call's next game


class Sessions:
    """Signed-in users, in this process's memory: a restart signs everyone in again (the page does it by itself)."""

    def __init__(self) -> None:
        self._by_token: OrderedDict[str, Session] = OrderedDict()
        self.now = time.time  # tests move it

    def open(self, user: str, name: str, instance: Instance) -> Session:
        session = Session(secrets.token_urlsafe(24), user, name, instance.id, instance.channel_id, instance.guild_id,
                          self.now() + SESSION_SECONDS)
        self._by_token[session.token] = session
        while len(self._by_token) > SESSIONS_KEPT:
            self._by_token.popitem(last=False)
        return session

    def get(self, token: object) -> Session:
        """The live session of `token`; an expired one is forgotten, and refused like an unknown one."""
        session = self._by_token.get(token) if isinstance(token, str) else None
        if session is not None and session.expires_at <= self.now():
            self.forget(session)
            session = None
        if session is None:
            raise error(web.HTTPUnauthorized, NOT_SIGNED_IN)
        return session

    def forget(self, session: Session) -> None:
        self._by_token.pop(session.token, None)

    def in_call(self, instance: str) -> list[Session]:
        """The newest live session of each user signed in to `instance`."""
        now, found = self.now(), {}
        for session in self._by_token.values():
            if session.instance == instance and session.expires_at > now:
                found[session.user] = session
        return list(found.values())
