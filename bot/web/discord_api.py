"""What the Activity asks Discord itself, so that nothing a page says is believed (bot/web/activity.py):

- who the user is: the SDK's authorize gives the page a code, which this server exchanges at Discord's OAuth2
  endpoint with the client secret, then reads `users/@me`;
- where they are: each launch of the Activity is an instance (the SDK's `instanceId`), which the application asks
  Discord for with the bot's token (`GET /applications/{id}/activity-instances/{instance}`). Its answer names the
  users connected to it and its location, the voice channel (and guild) whose game it shows.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.engine.errors import GameError

INSTANCE_SECONDS = 15.0  # how long Discord's answer about an instance is trusted before it is asked again
INSTANCES_KEPT = 4096
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


class DiscordApi:
    """The Activity's questions to Discord: who a code belongs to, and who is in an instance where."""

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
        self.ttl = INSTANCE_SECONDS
        self.now = time.monotonic  # tests move it

    async def user(self, code: str) -> tuple[str, str]:
        """(user id, display name); a GameError when Discord refuses the code."""
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http:
            async with http.post(f"{self.api}/oauth2/token", data={
                "client_id": self.client_id, "client_secret": self._secret, "grant_type": "authorization_code",
                "code": code,
            }) as answer:
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
