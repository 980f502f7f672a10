"""Who is at the organiser's desk, as Discord says it (bot/web/desk.py).

Sign-in is Discord's OAuth2 authorization code with the bot's own application: the desk sends the browser to
Discord with a random `state` kept in a short cookie, Discord sends it back with a code, this server exchanges the
code (with the client secret) for the user. The session is stored (bot/store/desk.py: only its hash), so it survives
a restart and any process sharing the database answers it; its secret lives in an HttpOnly cookie.

What the user may do is asked of Discord at each request, with the bot's token, from their roles in the event's
server, trusted MEMBER_SECONDS at most: Manage Server (or the server's owner, or Administrator) or the event's
organiser role opens the whole desk, the event's judge role its judges' part, anyone else nothing. A role removed in
Discord closes the desk within those seconds. An action must come from the desk's own page: its Origin (or
Sec-Fetch-Site) says the same site, and it carries the session's own token, which another site cannot read.
"""

from __future__ import annotations

import secrets
from enum import StrEnum
from urllib.parse import urlsplit

from aiohttp import web

from bot.store.desk import DeskRepository
from bot.store.desk_models import DeskSession
from bot.store.tournament_repository import TournamentRecord
from bot.web.discord_api import DiscordApi

SESSION_COOKIE = "md_desk"
STATE_COOKIE = "md_desk_state"
CSRF_HEADER = "X-Desk-Token"
SIGN_IN_MINUTES = 10  # from leaving for Discord to coming back
SIGNED_OUT = "Your desk session has ended: sign in again."
DESK_CLOSED = ("Discord no longer counts you among this event's organisers or judges, or your session ended: the desk "
               "is closed. Reload the page to sign in again.")
OTHER_SITE = "This request did not come from the desk's own page: reload the desk."


class Standing(StrEnum):
    """What a user is at an event's desk."""

    ORGANISER = "organiser"
    JUDGE = "judge"
    NOBODY = "nobody"


class DeskAuth:
    def __init__(self, discord: DiscordApi, repo: DeskRepository, public_url: str) -> None:
        self.discord, self.repo, self.public_url = discord, repo, public_url.rstrip("/")
        parts = urlsplit(self.public_url)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.secure = parts.scheme == "https"

    @property
    def redirect_uri(self) -> str:
        """The address Discord sends a signed-in user back to: registered in the application's OAuth2 settings."""
        return f"{self.public_url}/desk/callback"

    # ---- signing in ---------------------------------------------------------------------------------

    def sign_in(self, event_id: int) -> web.HTTPFound:
        """Off to Discord, with a fresh `state` remembered in a cookie (and the event to come back to)."""
        state = f"{secrets.token_urlsafe(24)}.{event_id}"
        found = web.HTTPFound(self.discord.authorize_url(self.redirect_uri, state))
        found.set_cookie(STATE_COOKIE, state, max_age=SIGN_IN_MINUTES * 60, httponly=True, secure=self.secure,
                         samesite="Lax", path="/desk")
        return found

    async def callback(self, request: web.Request) -> web.HTTPFound:
        """Discord's answer: the state must be the one this browser left with; the code becomes the user."""
        state, code = request.query.get("state", ""), request.query.get("code", "")
        kept = request.cookies.get(STATE_COOKIE, "")
        if not state or not secrets.compare_digest(state, kept) or not code:
            raise web.HTTPBadRequest(text="This sign-in did not start here, or took too long: open the desk again.")
        user, name = await self.discord.user(code, self.redirect_uri)
        token, _ = await self.repo.open(user, name)
        event_id = state.rsplit(".", 1)[1]
        found = web.HTTPFound(f"{self.public_url}/desk/{event_id}")
        found.set_cookie(SESSION_COOKIE, token, httponly=True, secure=self.secure, samesite="Lax", path="/desk")
        found.del_cookie(STATE_COOKIE, path="/desk")
        return found

    async def sign_out(self, request: web.Request) -> None:
        if token := request.cookies.get(SESSION_COOKIE):
            await self.repo.close(token)

    # ---- each request -------------------------------------------------------------------------------

    async def session(self, request: web.Request) -> DeskSession | None:
        token = request.cookies.get(SESSION_COOKIE)
        return await self.repo.session(token) if token else None

    def same_site(self, request: web.Request, session: DeskSession) -> bool:
        """An action from the desk's own page: the same origin, and the session's token in its header."""
        origin = request.headers.get("Origin")
        fetched = request.headers.get("Sec-Fetch-Site")
        if origin is not None and origin != self.origin or fetched not in (None, "same-origin"):
            return False
        if origin is None and fetched is None:
            return False
        return secrets.compare_digest(request.headers.get(CSRF_HEADER, ""), session.csrf)

    async def standing(self, record: TournamentRecord, user_id: str, judge_role: int | None) -> Standing:
        """What Discord says the user is at this event now (their roles, a few seconds old at most)."""
        member = await self.discord.member(record.guild_id, user_id)
        if member is None:
            return Standing.NOBODY
        if member.manages_server or record.organiser_role_id in member.roles:
            return Standing.ORGANISER
        if judge_role is not None and judge_role in member.roles:
            return Standing.JUDGE
        return Standing.NOBODY
