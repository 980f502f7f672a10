"""What the web surfaces ask Discord itself, so that nothing a page says is believed (the Activity,
bot/web/activity.py, and the organiser's desk, bot/web/desk.py):

- who the user is: Discord's OAuth2 gives the page a code (the Activity's SDK, or the desk's sign-in redirect),
  which this server exchanges at Discord's OAuth2 endpoint with the client secret, then reads `users/@me`;
- where they are: each launch of the Activity is an instance (the SDK's `instanceId`), which the application asks
  Discord for with the bot's token (`GET /applications/{id}/activity-instances/{instance}`). Its answer names the
  users connected to it and its location, the voice channel (and guild) whose game it shows;
- what they may do in a server: their roles there and the server's roles' permissions, asked with the bot's token
  (`GET /guilds/{id}` and `/guilds/{id}/members/{user}`), trusted a few seconds.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import aiohttp

from bot.engine.errors import GameError

INSTANCE_SECONDS = 15.0  # how long Discord's answer about an instance is trusted before it is asked again
INSTANCES_KEPT = 4096
MEMBER_SECONDS = 5.0  # how long Discord's answer about a member's roles is trusted: a removed role counts soon
MEMBERS_KEPT = 4096
ADMINISTRATOR, MANAGE_GUILD = 1 << 3, 1 << 5
# Discord's instance ids are short strings of letters, digits and dashes ("i-1234-gc-5678-9012"): anything else is
# refused before it reaches a URL.
INSTANCE_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")


@dataclass(frozen=True)
class Instance:
    """One launch of the Activity, as Discord describes it."""

    id: str
    channel_id: int
    guild_id: int | None
    users: frozenset[str]


@dataclass(frozen=True)
class Member:
    """A member of a server as its roles make them: their role ids, and whether they may manage the server."""

    name: str
    roles: frozenset[int]
    manages_server: bool


class DiscordApi:
    """The web surfaces' questions to Discord: who a code belongs to, who is in an instance where, and who holds which
    roles in a server."""

    @classmethod
    def of(cls, settings: Any, application_id: int | None) -> DiscordApi | None:
        """The Activity's Discord, when the settings give the client secret and the bot's token (None: no
        Activity)."""
        client_id = settings.discord_client_id or application_id
        if settings.discord_client_secret is None or client_id is None or settings.discord_token is None:
            return None
        return cls(str(client_id), settings.discord_client_secret.get_secret_value(),
                   settings.discord_token.get_secret_value(), settings.discord_api_url)

    def __init__(self, client_id: str, client_secret: str, bot_token: str, api: str) -> None:
        self.client_id, self._secret, self._token, self.api = client_id, client_secret, bot_token, api.rstrip("/")
        self._instances: OrderedDict[str, tuple[Instance | None, float]] = OrderedDict()
        self._members: OrderedDict[tuple[int, str], tuple[Member | None, float]] = OrderedDict()
        self.ttl = INSTANCE_SECONDS
        self.member_ttl = MEMBER_SECONDS
        self.now = time.monotonic  # tests move it

    def authorize_url(self, redirect_uri: str, state: str) -> str:
        """Discord's sign-in page, which sends the user back to `redirect_uri` with a code and `state`."""
        site = self.api.split("/api/")[0]  # https://discord.com/api/v10 -> https://discord.com
        query = urlencode({"client_id": self.client_id, "response_type": "code", "redirect_uri": redirect_uri,
                           "scope": "identify", "state": state, "prompt": "none"})
        return f"{site}/oauth2/authorize?{query}"

    async def user(self, code: str, redirect_uri: str | None = None) -> tuple[str, str]:
        """(user id, display name); a GameError when Discord refuses the code. `redirect_uri`: the one the code was
        asked with (a web sign-in's; the Activity's SDK asks with none)."""
        form = {"client_id": self.client_id, "client_secret": self._secret, "grant_type": "authorization_code",
                "code": code, **({"redirect_uri": redirect_uri} if redirect_uri else {})}
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http:
            async with http.post(f"{self.api}/oauth2/token", data=form) as answer:
                if answer.status != 200:
                    raise GameError("Discord did not confirm who you are: reopen the Activity to sign in again.")
                token = (await answer.json())["access_token"]
            async with http.get(f"{self.api}/users/@me", headers={"Authorization": f"Bearer {token}"}) as answer:
                if answer.status != 200:
                    raise GameError("Discord did not say who you are: reopen the Activity to sign in again.")
                me = await answer.json()
        return str(me["id"]), me.get("global_name") or me["username"]

    async def instance(self, instance_id: str, *, with_user: str | None = None) -> Instance | None:
        """The instance as Discord describes it now, None when Discord knows no such instance of this application
        (it ended, or never was). An answer is trusted for `ttl` seconds (a call of ten asks once), unless it lacks
        `with_user`: someone who just joined the call is asked about again."""
        if not INSTANCE_ID.fullmatch(instance_id):
            return None
        known, at = self._instances.get(instance_id, (None, float("-inf")))
        if self.now() - at < self.ttl and (with_user is None or known is not None and with_user in known.users):
            return known
        found = await self._ask(instance_id)
        self._instances.pop(instance_id, None)
        self._instances[instance_id] = (found, self.now())
        while len(self._instances) > INSTANCES_KEPT:
            self._instances.popitem(last=False)
        return found

    async def _ask(self, instance_id: str) -> Instance | None:
        url = f"{self.api}/applications/{self.client_id}/activity-instances/{instance_id}"
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http:
            async with http.get(url, headers={"Authorization": f"Bot {self._token}"}) as answer:
                if answer.status == 404:
                    return None
                if answer.status != 200:
                    raise GameError("Discord did not say who is in this call: try again in a moment.")
                body = await answer.json()
        location = body.get("location") or {}
        if not str(location.get("channel_id", "")).isdigit():  # not launched in a channel
            return None
        guild = location.get("guild_id")
        return Instance(instance_id, int(location["channel_id"]), int(guild) if str(guild or "").isdigit() else None,
                        frozenset(str(u) for u in body.get("users", ())))

    async def member(self, guild_id: int, user_id: str) -> Member | None:
        """The user's standing in the server as Discord says now (None: not a member), trusted `member_ttl`
        seconds."""
        key = (guild_id, user_id)
        known, at = self._members.get(key, (None, float("-inf")))
        if self.now() - at < self.member_ttl:
            return known
        found = await self._member(guild_id, user_id)
        self._members.pop(key, None)
        self._members[key] = (found, self.now())
        while len(self._members) > MEMBERS_KEPT:
            self._members.popitem(last=False)
        return found

    async def _member(self, guild_id: int, user_id: str) -> Member | None:
        if not user_id.isdigit():
            return None
        member = await self._bot_get(f"/guilds/{guild_id}/members/{user_id}")
        if member is None:
            return None
        guild = await self._bot_get(f"/guilds/{guild_id}")
        if guild is None:
            return None
        roles = frozenset(int(r) for r in member.get("roles", ()))
        held = roles | {guild_id}  # @everyone's role has the server's id
        permissions = 0
        for role in guild.get("roles", ()):
            if int(role["id"]) in held:
                permissions |= int(role.get("permissions") or 0)
        owner = str(guild.get("owner_id")) == user_id
        return Member(_member_name(member), roles, owner or bool(permissions & (ADMINISTRATOR | MANAGE_GUILD)))

    async def search_members(self, guild_id: int, query: str) -> list[tuple[str, str]]:
        """(user id, display name) of the server's members whose name starts with `query`, at most 10."""
        found = await self._bot_get(f"/guilds/{guild_id}/members/search?{urlencode({'query': query, 'limit': 10})}")
        return [(str(m["user"]["id"]), _member_name(m)) for m in found or () if not m["user"].get("bot")]

    async def _bot_get(self, path: str) -> Any:
        """A GET with the bot's token: the answer, or None for 404; a GameError when Discord will not say."""
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http:
            async with http.get(f"{self.api}{path}", headers={"Authorization": f"Bot {self._token}"}) as answer:
                if answer.status == 404:
                    return None
                if answer.status != 200:
                    raise GameError("Discord did not answer who holds which role: try again in a moment.")
                return await answer.json()


def _member_name(member: dict[str, Any]) -> str:
    user = member.get("user") or {}
    return member.get("nick") or user.get("global_name") or user.get("username") or "?"
