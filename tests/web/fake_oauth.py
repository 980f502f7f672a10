"""Discord's OAuth2 code exchange and users/@me, as a fake Discord on 127.0.0.1 answers them for the Activity's
sign-in (bot/web/activity.py): a code the fake handed out for a user becomes an access token, the token that user."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from aiohttp import web

from tests.web.conftest import free_port

CLIENT_ID, CLIENT_SECRET = "1100000000000000001", "activity-secret"


@dataclass
class FakeOAuth:
    codes: dict[str, dict] = field(default_factory=dict)  # code -> the user it was given to
    tokens: dict[str, dict] = field(default_factory=dict)
    exchanges: list[dict] = field(default_factory=list)  # what the bot sent to the token endpoint

    def code_for(self, user_id: int, name: str) -> str:
        """What the SDK's authorize gives the page of this user."""
        code = secrets.token_hex(8)
        self.codes[code] = {"id": str(user_id), "username": name, "global_name": name.title()}
        return code

    async def token(self, request: web.Request) -> web.Response:
        form = dict(await request.post())
        self.exchanges.append(form)
        user = self.codes.pop(form.get("code", ""), None)  # a code is good once
        if form.get("client_secret") != CLIENT_SECRET or form.get("grant_type") != "authorization_code" or not user:
            return web.json_response({"error": "invalid_grant"}, status=400)
        token = secrets.token_hex(16)
        self.tokens[token] = user
        return web.json_response({"access_token": token, "token_type": "Bearer", "scope": "identify"})

    async def me(self, request: web.Request) -> web.Response:
        user = self.tokens.get(request.headers.get("Authorization", "").removeprefix("Bearer "))
        return web.json_response(user) if user else web.json_response({"message": "401: Unauthorized"}, status=401)

    async def start(self) -> str:
        """Serve on 127.0.0.1; the API base URL to give the bot."""
        app = web.Application()
        app.router.add_post("/api/v10/oauth2/token", self.token)
        app.router.add_get("/api/v10/users/@me", self.me)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        port = free_port()
        await web.TCPSite(self._runner, "127.0.0.1", port).start()
        return f"http://127.0.0.1:{port}/api/v10"

    async def stop(self) -> None:
        await self._runner.cleanup()
