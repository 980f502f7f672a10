"""What the web surfaces ask Discord (bot/web/discord_api.py), as a fake Discord on 127.0.0.1 answers it: the OAuth2
code exchange and users/@me (a code the fake handed out for a user becomes an access token, the token that user),
the application's Activity instances (who is connected to each, in which voice channel), asked with the bot's
token; for the organiser's desk, the sign-in page (it signs in whoever `browser_user` names, as a browser already
signed in to Discord is) and the server's members and roles, read from the harness's DiscordModel (`model`), where
a member's permissions are a role of their own."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

from tests.web.conftest import free_port

CLIENT_ID, CLIENT_SECRET = "1100000000000000001", "activity-secret"
BOT_TOKEN = "harness-token"  # the harness's settings


@dataclass
class FakeOAuth:
    codes: dict[str, dict] = field(default_factory=dict)  # code -> the user it was given to
    tokens: dict[str, dict] = field(default_factory=dict)
    exchanges: list[dict] = field(default_factory=list)  # what the bot sent to the token endpoint
    instances: dict[str, dict] = field(default_factory=dict)  # instance id -> Discord's description of it
    instance_asks: list[str] = field(default_factory=list)  # the instances the bot asked about, in order
    model: Any = None  # the harness's DiscordModel: the server's members and roles
    browser_user: Any = None  # the FakeUser the desk's sign-in signs in
    redirects: dict[str, str] = field(default_factory=dict)  # code -> the redirect_uri it was given for
    member_asks: int = 0

    def code_for(self, user_id: int, name: str) -> str:
        """What the SDK's authorize gives the page of this user."""
        code = secrets.token_hex(8)
        self.codes[code] = {"id": str(user_id), "username": name, "global_name": name.title()}
        return code

    async def token(self, request: web.Request) -> web.Response:
        form = dict(await request.post())
        self.exchanges.append(form)
        code = str(form.get("code", ""))
        user = self.codes.pop(code, None)  # a code is good once
        if form.get("client_secret") != CLIENT_SECRET or form.get("grant_type") != "authorization_code" or not user:
            return web.json_response({"error": "invalid_grant"}, status=400)
        if self.redirects.pop(code, None) != form.get("redirect_uri"):  # as Discord: the one it was asked with
            return web.json_response({"error": "invalid_grant"}, status=400)
        token = secrets.token_hex(16)
        self.tokens[token] = user
        return web.json_response({"access_token": token, "token_type": "Bearer", "scope": "identify"})

    async def me(self, request: web.Request) -> web.Response:
        user = self.tokens.get(request.headers.get("Authorization", "").removeprefix("Bearer "))
        return web.json_response(user) if user else web.json_response({"message": "401: Unauthorized"}, status=401)

    def launch(self, channel_id: int, guild_id: int | None, *users: int) -> str:
        """The Activity launched in a voice channel with `users` connected: its instance id."""
        instance = f"i-{secrets.token_hex(6)}-gc-{guild_id}-{channel_id}"
        self.instances[instance] = {"application_id": CLIENT_ID, "instance_id": instance, "launch_id": "1",
                                    "location": {"id": f"gc-{guild_id}-{channel_id}", "kind": "gc",
                                                 "channel_id": str(channel_id),
                                                 **({"guild_id": str(guild_id)} if guild_id else {})},
                                    "users": [str(u) for u in users]}
        return instance

    def join(self, instance: str, user: int) -> None:
        self.instances[instance]["users"].append(str(user))

    def leave(self, instance: str, user: int) -> None:
        self.instances[instance]["users"].remove(str(user))

    async def instance(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        self.instance_asks.append(request.match_info["instance"])
        found = self.instances.get(request.match_info["instance"])
        if request.match_info["application"] != CLIENT_ID or found is None:
            return web.json_response({"message": "404: Not Found", "code": 0}, status=404)
        return web.json_response(found)

    async def authorize(self, request: web.Request) -> web.Response:
        """Discord's sign-in page, for a browser signed in to Discord as `browser_user`: straight back with a
        code."""
        query = request.query
        if query.get("client_id") != CLIENT_ID or query.get("response_type") != "code" or self.browser_user is None:
            return web.Response(status=400, text="invalid request")
        code = self.code_for(self.browser_user.id, self.browser_user.name)
        self.redirects[code] = query["redirect_uri"]
        raise web.HTTPFound(f"{query['redirect_uri']}?{urlencode({'code': code, 'state': query.get('state', '')})}")

    def _bot(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {BOT_TOKEN}"

    async def guild(self, request: web.Request) -> web.Response:
        if not self._bot(request):
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        guild_id = int(request.match_info["guild"])
        if guild_id not in self.model.guilds:
            return web.json_response({"message": "Unknown Guild", "code": 10004}, status=404)
        payload = self.model.guild_payload(guild_id)
        own = [{"id": f"9{u.id}", "name": f"{u.name}'s", "permissions": str(u.permissions)}
               for u in self.model.users.values()]
        roles = [{**r, "permissions": "0"} if r["id"] == str(guild_id) else r for r in payload["roles"]]
        return web.json_response({"id": payload["id"], "owner_id": payload["owner_id"], "roles": roles + own})

    async def member(self, request: web.Request) -> web.Response:
        if not self._bot(request):
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        self.member_asks += 1
        user = self.model.users.get(int(request.match_info["user"]))
        if int(request.match_info["guild"]) not in self.model.guilds or user is None:
            return web.json_response({"message": "Unknown Member", "code": 10007}, status=404)
        member = user.member_payload()
        del member["permissions"]  # the REST member has none: its roles say them
        member["roles"] = [*member["roles"], f"9{user.id}"]
        return web.json_response(member)

    async def search(self, request: web.Request) -> web.Response:
        if not self._bot(request):
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        query = request.query.get("query", "").casefold()
        found = [u.member_payload() for u in self.model.users.values() if u.name.casefold().startswith(query)]
        return web.json_response(found[: int(request.query.get("limit", "1"))])

    async def start(self) -> str:
        """Serve on 127.0.0.1; the API base URL to give the bot."""
        app = web.Application()
        app.router.add_get("/oauth2/authorize", self.authorize)
        app.router.add_get("/api/v10/guilds/{guild}", self.guild)
        app.router.add_get("/api/v10/guilds/{guild}/members/search", self.search)
        app.router.add_get("/api/v10/guilds/{guild}/members/{user}", self.member)
        app.router.add_post("/api/v10/oauth2/token", self.token)
        app.router.add_get("/api/v10/users/@me", self.me)
        app.router.add_get("/api/v10/applications/{application}/activity-instances/{instance}", self.instance)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        port = free_port()
        await web.TCPSite(self._runner, "127.0.0.1", port).start()
        return f"http://127.0.0.1:{port}/api/v10"

    async def stop(self) -> None:
        await self._runner.cleanup()
