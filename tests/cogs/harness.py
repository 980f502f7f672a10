"""Drive a real MissionBot through raw Discord interactions, with no network.

The bot logs in through discord.py's own `Client.login` and runs its real `setup_hook` (extensions,
DynamicItems, command sync); only the two places where discord.py talks HTTP are replaced:
`HTTPClient.request` (REST) and `AsyncWebhookAdapter.request` (interaction callbacks, follow-ups,
edits of the original response). Both answer from a DiscordModel (tests/discord_model.py), which
keeps the messages and enforces Discord's rules and limits.

Interactions are built the way Discord builds them, from the commands the bot synced, and fed through
`bot._connection.parse_interaction_create`; the harness then waits for discord.py's tasks
(`CommandTree-invoker`, `discord-ui-*`, event listeners) to finish. A call that logs an error, or
leaves the interaction unanswered, fails the test unless `strict=False`.

    async with Harness(bot) as h:
        alice = h.user("alice")
        reply = await h.slash("card", user=alice, name="Cleanse")
        assert reply.embed["title"] == "Cleanse"
        await h.press(reply.custom_ids[0], user=alice)
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import re
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import discord
from discord.webhook.async_ import AsyncWebhookAdapter

from tests.discord_model import (
    DiscordError,
    DiscordModel,
    TEXT,
    FakeChannel,
    FakeRole,
    FakeUser,
    HarnessError,
    Sent,
)

TOKEN = "harness-token"

Handler = Callable[[dict[str, str], Any, list[tuple[str, bytes]]], Any]


class InteractionFailed(HarnessError):
    """The bot logged an error or left the interaction unanswered (Discord: 'This interaction failed')."""


@dataclass(frozen=True)
class Call:
    """One HTTP request the bot made."""

    method: str
    route: str  # discord.py's template, e.g. /channels/{channel_id}/messages
    params: dict[str, str]
    body: Any
    files: list[str]


class Reply(list):
    """What the bot did in answer to one interaction: a list of Sent, in order."""

    def __init__(self, sent: list[Sent], errors: list[str]) -> None:
        super().__init__(sent)
        self.errors = errors

    @property
    def response(self) -> Sent | None:
        return next((s for s in self if s.kind == "response"), None)

    @property
    def main(self) -> Sent:
        """The first message the user sees: skips "thinking" defers, which the next edit fills."""
        for sent in self:
            if sent.message is not None and not (sent.message["flags"] & 128):
                return sent
        raise HarnessError(f"the bot sent no message; it did: {[s.kind for s in self]}")

    @property
    def content(self) -> str:
        return self.main.content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.main.embeds

    @property
    def embed(self) -> dict[str, Any]:
        embeds = self.embeds
        if len(embeds) != 1:
            raise HarnessError(f"expected one embed, the message has {len(embeds)}")
        return embeds[0]

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.main.components

    @property
    def custom_ids(self) -> list[str]:
        return self.main.custom_ids

    @property
    def ephemeral(self) -> bool:
        return self.main.ephemeral

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.response.choices if self.response else []

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.response.modal if self.response else None


class Harness:
    # discord.py names the tasks that run commands, component callbacks, modals and event listeners.
    TASK_PREFIXES: tuple[str, ...] = (
        "CommandTree-invoker",
        "discord-ui-view-dispatch",
        "discord-ui-dynamic-item",
        "discord-ui-modal-dispatch",
        "discord.py: ",
        "mission-deck: ",  # the bot's own background work a press starts (a round's table threads)
    )

    def __init__(self, bot: discord.Client, model: DiscordModel | None = None, *, timeout: float = 5.0) -> None:
        self.bot = bot
        self.model = model or DiscordModel()
        self.timeout = timeout
        self.calls: list[Call] = []
        self.routes: dict[tuple[str, str], Handler] = _default_routes(self.model)
        self._errors = _ErrorLog()
        self._saved_adapter_request: Any = None

    # --- life cycle -------------------------------------------------------------------------

    async def __aenter__(self) -> Harness:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self) -> None:
        global _ACTIVE
        if _ACTIVE is not None:
            raise HarnessError("another Harness is running: close it first")
        _ACTIVE = self
        self._saved_adapter_request = AsyncWebhookAdapter.request
        AsyncWebhookAdapter.request = _webhook_request  # type: ignore[method-assign]
        self.bot.http.request = self._http_request  # type: ignore[method-assign]
        self.bot.http.get_from_cdn = self._from_cdn  # type: ignore[method-assign]
        logging.getLogger().addHandler(self._errors)
        before = set(asyncio.all_tasks())
        await self.bot.login(TOKEN)  # runs setup_hook: extensions, DynamicItems, command sync
        self.bot._connection._add_guild_from_data(self.model.guild_payload())
        self.bot._ready.set()
        self.bot.dispatch("ready")
        await self._settle(before)
        self._raise_errors(0, "start-up")

    async def close(self) -> None:
        global _ACTIVE
        try:
            await self.bot.close()
        finally:
            logging.getLogger().removeHandler(self._errors)
            if self._saved_adapter_request is not None:
                AsyncWebhookAdapter.request = self._saved_adapter_request  # type: ignore[method-assign]
            _ACTIVE = None

    def route(self, method: str, template: str, handler: Handler) -> None:
        """Answer another REST route, named by discord.py's template (see discord/http.py)."""
        self.routes[(method, template)] = handler

    # --- people and places ------------------------------------------------------------------

    def user(self, name: str, **options: Any) -> FakeUser:
        """A server member; options: bot=True, permissions=discord.Permissions(...).value."""
        return self.model.add_user(name, **options)

    def role(self, name: str) -> FakeRole:
        """A new server role (give it to a user with `user(name, roles=(role.id,))`)."""
        role = self.model.add_role(name)
        self.guild._add_role(discord.Role(guild=self.guild, state=self.bot._connection, data=role.payload()))
        return role

    def channel(
        self, name: str, *, type: int = TEXT, parent: FakeChannel | None = None, denied: int = 0,
    ) -> FakeChannel:
        """A new place: a text channel, a voice channel (type=VOICE), a forum (FORUM), or a thread or forum post
        (PUBLIC_THREAD, with its parent); `denied`: permissions the bot lacks there (interactions' app_permissions
        say so, and the model refuses what they forbid)."""
        channel = self.model.add_channel(name, type=type, parent=parent, denied=denied)
        guild, state = self.guild, self.bot._connection
        if channel.is_thread:
            guild._add_thread(discord.Thread(guild=guild, state=state, data=channel.payload()))
        else:
            factory, _ = discord.channel._guild_channel_factory(type)
            guild._add_channel(factory(state=state, guild=guild, data=channel.payload()))
        return channel

    @property
    def guild(self) -> discord.Guild:
        guild = self.bot.get_guild(self.model.guild_id)
        assert guild is not None
        return guild

    @property
    def default_channel(self) -> FakeChannel:
        return self.model.default_channel

    # --- interactions -----------------------------------------------------------------------

    async def slash(
        self, command: str, *, user: FakeUser, channel: FakeChannel | None = None,
        options: dict[str, Any] | None = None, strict: bool = True, **named: Any,
    ) -> Reply:
        """Run `/command` (subcommands separated by spaces: "game start"); options as keywords."""
        payload = self.model.slash(command, user, channel, {**(options or {}), **named})
        return await self.feed(payload, strict=strict)

    async def autocomplete(
        self, command: str, option: str, value: str, *, user: FakeUser, channel: FakeChannel | None = None,
        options: dict[str, Any] | None = None, **named: Any,
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while `user` types `value` into `option`."""
        payload = self.model.autocomplete(command, option, value, user, channel, {**(options or {}), **named})
        return (await self.feed(payload)).choices

    async def press(
        self, custom_id: str, *, user: FakeUser, message_id: int | None = None, strict: bool = True
    ) -> Reply:
        """Press a button on the newest message showing it (or on `message_id`)."""
        return await self.feed(self.model.component(custom_id, user, message_id, None), strict=strict)

    async def select(
        self, custom_id: str, values: list[str], *, user: FakeUser, message_id: int | None = None,
        strict: bool = True,
    ) -> Reply:
        return await self.feed(self.model.component(custom_id, user, message_id, values), strict=strict)

    async def submit(self, custom_id: str, values: dict[str, Any], *, user: FakeUser, strict: bool = True) -> Reply:
        """Submit the modal last shown to `user`: text inputs by custom_id, selects as lists."""
        return await self.feed(self.model.modal_submit(custom_id, user, values), strict=strict)

    async def feed(self, payload: dict[str, Any], *, strict: bool = True) -> Reply:
        """Deliver an INTERACTION_CREATE payload built by `self.model` and collect what the bot did."""
        before = set(asyncio.all_tasks())
        first_sent, first_error = len(self.model.sent), len(self._errors.records)
        self.bot._connection.parse_interaction_create(copy.deepcopy(payload))
        await self._settle(before)
        reply = Reply(self.model.sent[first_sent:], [self._errors.format(r) for r in self._errors.records[first_error:]])
        if strict:
            self._raise_errors(first_error, _describe(payload))
            if self.model.interactions[payload["token"]].response_type is None:
                raise InteractionFailed(f"the bot never answered {_describe(payload)} (Discord: 'This interaction failed')")
        return reply

    async def join(self, guild_id: int, *, strict: bool = True) -> Reply:
        """Someone adds the bot to the model's server `guild_id` (made with `model.add_guild`): Discord sends its
        GUILD_CREATE, discord.py dispatches on_guild_join; what the bot posted in answer."""
        before = set(asyncio.all_tasks())
        first_sent, first_error = len(self.model.sent), len(self._errors.records)
        self.bot._connection.parse_guild_create(self.model.join_payload(guild_id))
        await self._settle(before)
        if strict:
            self._raise_errors(first_error, f"the join of server {guild_id}")
        return Reply(self.model.sent[first_sent:], [self._errors.format(r) for r in self._errors.records[first_error:]])

    # --- what users see ---------------------------------------------------------------------

    def messages(self, channel: FakeChannel | None = None) -> list[dict[str, Any]]:
        """The bot's messages in a channel, oldest first, as they stand now (ephemeral ones included)."""
        return self.model.channel_messages((channel or self.default_channel).id)

    def message(self, message_id: int | str) -> dict[str, Any]:
        return copy.deepcopy(self.model.messages[int(message_id)])

    def pins(self, channel: FakeChannel | None = None) -> list[dict[str, Any]]:
        return self.model.pins((channel or self.default_channel).id)

    # --- plumbing ---------------------------------------------------------------------------

    async def _settle(self, before: set[asyncio.Task]) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while True:
            await asyncio.sleep(0)
            pending = [
                t for t in asyncio.all_tasks()
                if t not in before and not t.done() and t.get_name().startswith(self.TASK_PREFIXES)
            ]
            if not pending:
                return
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise InteractionFailed(f"still running after {self.timeout}s: {[t.get_name() for t in pending]}")
            await asyncio.wait(pending, timeout=remaining)

    def _raise_errors(self, first: int, what: str) -> None:
        errors = self._errors.records[first:]
        if errors:
            details = "\n\n".join(self._errors.format(r) for r in errors)
            raise InteractionFailed(f"the bot logged {len(errors)} error(s) during {what}:\n{details}")

    async def _http_request(self, route: discord.http.Route, *, files=None, form=None, **kwargs: Any) -> Any:
        if form:
            body, uploaded = _from_form(form)
        else:
            body, uploaded = kwargs.get("json"), [(f.filename, _read(f.fp)) for f in files or []]
        return await self._dispatch(route, body, uploaded)

    async def _from_cdn(self, url: str) -> bytes:
        """A file users attached, as Discord's CDN serves it (its id is the first part of the path)."""
        await asyncio.sleep(0)
        return self.model.files[int(url.split("/")[3])]

    async def _dispatch(self, route: discord.http.Route, body: Any, files: list[tuple[str, bytes]]) -> Any:
        params = _route_params(route)
        self.calls.append(Call(route.method, route.path, params, copy.deepcopy(body), [name for name, _ in files]))
        handler = self.routes.get((route.method, route.path))
        if handler is None:
            raise NotImplementedError(
                f"the harness has no answer for {route.method} {route.path}: add one with Harness.route()"
            )
        await asyncio.sleep(0)  # a real request suspends the caller
        try:
            result = handler(params, copy.deepcopy(body), files)
        except DiscordError as exc:
            raise _http_exception(exc) from None
        return copy.deepcopy(result)


_ACTIVE: Harness | None = None


async def _webhook_request(
    adapter: AsyncWebhookAdapter, route: discord.http.Route, session: Any = None, *,
    payload: dict[str, Any] | None = None, multipart: list[dict[str, Any]] | None = None,
    files: list[discord.File] | None = None, **_: Any,
) -> Any:
    if _ACTIVE is None:
        raise RuntimeError("webhook request outside a Harness")
    if multipart:
        body, uploaded = _from_form(multipart)
    else:
        body, uploaded = payload, [(f.filename, _read(f.fp)) for f in files or []]
    return await _ACTIVE._dispatch(route, body, uploaded)


def _default_routes(m: DiscordModel) -> dict[tuple[str, str], Handler]:
    def i(params: dict[str, str], name: str) -> int:
        return int(params[name])

    return {
        ("GET", "/users/@me"): lambda p, b, f: m.bot_user.payload(),
        ("GET", "/oauth2/applications/@me"): lambda p, b, f: m.application_payload(),
        ("PUT", "/applications/{application_id}/commands"): lambda p, b, f: m.overwrite_commands(None, b),
        ("GET", "/applications/{application_id}/commands"): lambda p, b, f: m.global_commands(),
        ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"):
            lambda p, b, f: m.overwrite_commands(i(p, "guild_id"), b),
        ("GET", "/channels/{channel_id}"): lambda p, b, f: m.channel(i(p, "channel_id")),
        ("POST", "/channels/{channel_id}/messages"): lambda p, b, f: m.create_message(i(p, "channel_id"), b, f),
        ("GET", "/channels/{channel_id}/messages/{message_id}"):
            lambda p, b, f: m.get_message(i(p, "channel_id"), i(p, "message_id")),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}"):
            lambda p, b, f: m.edit_message(i(p, "channel_id"), i(p, "message_id"), b, f),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}"):
            lambda p, b, f: m.delete_message(i(p, "channel_id"), i(p, "message_id")),
        ("PUT", "/channels/{channel_id}/messages/pins/{message_id}"):
            lambda p, b, f: m.pin(i(p, "channel_id"), i(p, "message_id")),
        ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}"):
            lambda p, b, f: m.pin(i(p, "channel_id"), i(p, "message_id"), pinned=False),
        ("GET", "/channels/{channel_id}/messages/pins"): lambda p, b, f: {
            "items": [{"pinned_at": message["timestamp"], "message": message} for message in m.pins(i(p, "channel_id"))],
            "has_more": False,
        },
        ("POST", "/channels/{channel_id}/threads"): lambda p, b, f: m.create_thread(i(p, "channel_id"), b),
        ("PATCH", "/channels/{channel_id}"): lambda p, b, f: m.edit_channel(i(p, "channel_id"), b),
        ("DELETE", "/channels/{channel_id}"): lambda p, b, f: m.delete_channel(i(p, "channel_id")),
        ("GET", "/guilds/{guild_id}/threads/active"): lambda p, b, f: m.active_threads(i(p, "guild_id")),
        ("PUT", "/channels/{channel_id}/thread-members/{user_id}"):
            lambda p, b, f: m.add_thread_member(i(p, "channel_id"), i(p, "user_id")),
        ("GET", "/guilds/{guild_id}/members/{member_id}"): lambda p, b, f: m.member(i(p, "guild_id"), i(p, "member_id")),
        ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"):
            lambda p, b, f: m.interaction_callback(i(p, "webhook_id"), p["webhook_token"], b, f),
        ("POST", "/webhooks/{webhook_id}/{webhook_token}"):
            lambda p, b, f: m.execute_webhook(i(p, "webhook_id"), p["webhook_token"], b, f),
        **{
            (method, f"/webhooks/{{webhook_id}}/{{webhook_token}}/messages/{which}"): handler
            for which in ("@original", "{message_id}")
            for method, handler in (
                ("GET", lambda p, b, f: m.get_webhook_message(i(p, "webhook_id"), p["webhook_token"], p.get("message_id", "@original"))),
                ("PATCH", lambda p, b, f: m.edit_webhook_message(i(p, "webhook_id"), p["webhook_token"], p.get("message_id", "@original"), b, f)),
                ("DELETE", lambda p, b, f: m.delete_webhook_message(i(p, "webhook_id"), p["webhook_token"], p.get("message_id", "@original"))),
            )
        },
    }


def _route_params(route: discord.http.Route) -> dict[str, str]:
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(route.path)) + "$"
    path = urllib.parse.urlsplit(route.url).path
    match = re.search(pattern, path)
    if match is None:
        raise HarnessError(f"cannot read {route.url} as {route.path}")
    return {k: urllib.parse.unquote(v) for k, v in match.groupdict().items()}


def _from_form(form: list[dict[str, Any]]) -> tuple[Any, list[tuple[str, bytes]]]:
    body: Any = None
    files = []
    for part in form:
        if part["name"] == "payload_json":
            body = json.loads(part["value"])
        else:
            files.append((part.get("filename") or part["name"], _read(part["value"])))
    return body, files


def _read(value: Any) -> bytes:
    data = value.read() if hasattr(value, "read") else value
    return data.encode() if isinstance(data, str) else bytes(data)


def _http_exception(error: DiscordError) -> discord.HTTPException:
    response = SimpleNamespace(status=error.status, reason=error.message)
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(error.status, discord.HTTPException)
    if error.status >= 500:
        kind = discord.DiscordServerError
    return kind(response, error.payload())  # type: ignore[arg-type]


def _describe(payload: dict[str, Any]) -> str:
    data = payload.get("data", {})
    if payload["type"] in (2, 4):
        names = [data.get("name", "?")]
        options = data.get("options", [])
        while options and options[0].get("type") in (1, 2):
            names.append(options[0]["name"])
            options = options[0].get("options", [])
        return "/" + " ".join(names)
    return f"interaction {data.get('custom_id')!r}"


class _ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
