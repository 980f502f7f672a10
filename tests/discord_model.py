"""What Discord stores and answers for one bot in its servers (one, unless a test adds more), for offline tests.

Shared by the in-process interaction harness (tests/cogs/harness.py) and the fake Discord server
(tests/e2e/fake_discord.py). It builds the payloads Discord would send (users, the server, slash
commands with typed options, component presses, modal submits) and applies the REST calls the bot
makes (interaction callbacks, follow-ups, message edits, pins, command sync) with Discord's rules:
a second answer to one interaction, a follow-up before any answer, an edit of someone else's
message, a message over the size limits, all fail as they would on Discord.
"""

from __future__ import annotations

import copy
import itertools
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord

APP_ID = 1_100_000_000_000_000_001
GUILD_ID = 1_100_000_000_000_000_002
CHANNEL_ID = 1_100_000_000_000_000_003

MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, read_message_history=True, embed_links=True,
    attach_files=True, add_reactions=True, use_application_commands=True,
).value
MANAGE_SERVER = MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value  # an organiser of the server
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, read_message_history=True, embed_links=True,
    attach_files=True, manage_messages=True, pin_messages=True, send_messages_in_threads=True,
    create_public_threads=True,
).value

EPHEMERAL = 64
LOADING = 128

# Interaction types and callback types (Discord API).
SLASH, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 4, 5, 6, 7, 8, 9
LAUNCH_ACTIVITY = 12  # opens the app's Activity for the user (commands and components only)
ENTRY_POINT = 4  # an application command's type: an Activity's launcher, which Discord creates

_NOW = "2025-07-01T12:00:00.000000+00:00"


class DiscordError(Exception):
    """An error answer, as Discord gives it: HTTP status, JSON error code, message."""

    def __init__(self, status: int, code: int, message: str, problems: list[str] | None = None) -> None:
        super().__init__(f"{status} {message} (code {code}){': ' + '; '.join(problems) if problems else ''}")
        self.status, self.code, self.message = status, code, message
        self.problems = problems or []

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.problems:
            body["errors"] = {"body": {"_errors": [{"code": "BASE_TYPE_INVALID", "message": p} for p in self.problems]}}
        return body


class HarnessError(AssertionError):
    """The test asked for something a Discord user could not do (a typo, a hidden or disabled button)."""


@dataclass(frozen=True)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    permissions: int = MEMBER_PERMISSIONS
    roles: tuple[int, ...] = ()  # the ids of the server roles they have

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "username": self.name, "discriminator": "0", "global_name": self.name.title(),
            "avatar": None, "bot": self.bot, "public_flags": 0,
        }

    def member_payload(self, *, with_user: bool = True) -> dict[str, Any]:
        member: dict[str, Any] = {
            "roles": [str(role) for role in self.roles], "joined_at": _NOW, "deaf": False, "mute": False, "flags": 0,
            "pending": False,
            "nick": None, "avatar": None, "premium_since": None, "communication_disabled_until": None,
            "permissions": str(self.permissions),
        }
        if with_user:
            member["user"] = self.payload()
        return member


@dataclass(frozen=True)
class FakeFile:
    """A file a user attaches to a slash command's attachment option."""

    filename: str
    content: bytes


@dataclass(frozen=True)
class FakeRole:
    id: int
    name: str

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "permissions": "0", "position": 1, "color": 0,
                "hoist": False, "managed": False, "mentionable": False, "flags": 0}


TEXT, VOICE, PUBLIC_THREAD, FORUM = 0, 2, 11, 15  # Discord channel types


@dataclass(frozen=True)
class FakeChannel:
    """A place in the server: a text channel, a voice channel (its text chat), a forum, or a thread (a thread
    made from a text channel, or a forum post) whose archived flag lives in the model."""

    id: int
    name: str
    guild_id: int = GUILD_ID
    type: int = TEXT
    parent_id: int | None = None
    denied: int = 0  # permissions an @everyone overwrite takes away here, from the bot too (a read-only channel)
    owner_id: int = APP_ID  # a thread's: who started it

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type == PUBLIC_THREAD

    def payload(self, position: int = 0, *, archived: bool = False) -> dict[str, Any]:
        data = {
            "id": str(self.id), "type": self.type, "guild_id": str(self.guild_id), "name": self.name,
            "position": position, "nsfw": False,
            "permission_overwrites": [
                {"id": str(self.guild_id), "type": 0, "allow": "0", "deny": str(self.denied)}] if self.denied else [],
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "topic": None, "rate_limit_per_user": 0, "last_message_id": None, "flags": 0,
        }
        if self.type == VOICE:
            data |= {"bitrate": 64000, "user_limit": 0, "rtc_region": None}
        if self.type == FORUM:
            data |= {"available_tags": [], "default_reaction_emoji": None, "default_sort_order": None,
                     "default_forum_layout": 0}
        if self.is_thread:
            data |= {"owner_id": str(self.owner_id), "member_count": 2, "message_count": 0, "total_message_sent": 0,
                     "thread_metadata": {"archived": archived, "locked": False, "auto_archive_duration": 1440,
                                         "archive_timestamp": _NOW}}
        return data


@dataclass
class InteractionRecord:
    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    message_id: int | None = None  # the message holding the pressed component
    response_type: int | None = None
    original_id: int | None = None  # the message the answer created or updated
    followup_ids: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Sent:
    """One thing the bot did that a user can see, with the message as it stands afterwards."""

    kind: str  # response, followup, edit, delete, message, pin, unpin
    body: dict[str, Any]
    message: dict[str, Any] | None = None
    interaction_id: int | None = None
    type: int | None = None  # the callback type, for kind == "response"

    @property
    def content(self) -> str:
        return (self.message or {}).get("content") or ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return (self.message or {}).get("embeds") or []

    @property
    def components(self) -> list[dict[str, Any]]:
        return (self.message or {}).get("components") or []

    @property
    def flags(self) -> int:
        return (self.message or {}).get("flags") or 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    @property
    def selects(self) -> list[dict[str, Any]]:
        """The message's select menus (string selects), in order."""
        return [c for c in walk_components(self.components) if c["type"] == 3]

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.body.get("data", {}).get("choices", []) if self.type == AUTOCOMPLETE_RESULT else []

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.body.get("data") if self.type == MODAL else None


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard whose gateway connection gets a server's events (Discord's sharding formula)."""
    return (guild_id >> 22) % shard_count


def walk_components(components: list[dict[str, Any]]):
    """Every component, nested ones included (action rows, containers, sections, labels)."""
    for component in components:
        yield component
        yield from walk_components(component.get("components", []))
        for key in ("accessory", "component"):
            if key in component:
                yield from walk_components([component[key]])


class DiscordModel:
    def __init__(self, *, bot_name: str = "Mission Deck") -> None:
        self._ids = itertools.count(1_200_000_000_000_000_000)
        self.app_id = APP_ID
        self.guild_id = GUILD_ID  # the first server; add_guild makes more
        self.guilds: dict[int, str] = {GUILD_ID: "Test Server"}
        self.owners: dict[int, int] = {}  # guild id -> its owner's id (default: the bot, who then has every right)
        self.system_channels: dict[int, int] = {}  # guild id -> the channel Discord posts its notices in
        self.bot_user = FakeUser(APP_ID, bot_name, bot=True, permissions=BOT_PERMISSIONS)
        self.bot_permissions = BOT_PERMISSIONS
        self.channels: dict[int, FakeChannel] = {CHANNEL_ID: FakeChannel(CHANNEL_ID, "general")}
        self.archived: set[int] = set()  # archived threads
        self.thread_members: dict[int, set[int]] = {}
        self.max_active_threads = 1000  # Discord's limit of active (not archived) threads per server
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.roles: dict[int, FakeRole] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.ephemeral_owner: dict[int, int] = {}  # ephemeral message id -> the only user who sees it
        self.files: dict[int, bytes] = {}  # attachment id -> content
        self.interactions: dict[str, InteractionRecord] = {}
        self.modals: list[tuple[int, dict[str, Any], int]] = []  # (user id, modal, opening interaction id)
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None: global) -> commands
        self._command_ids: dict[tuple[int | None, str], int] = {}
        self.sent: list[Sent] = []

    def next_id(self) -> int:
        return next(self._ids)

    # --- people and places ------------------------------------------------------------------

    def add_user(self, name: str, **options: Any) -> FakeUser:
        user = FakeUser(self.next_id(), name, **options)
        self.users[user.id] = user
        return user

    def add_role(self, name: str) -> FakeRole:
        role = FakeRole(self.next_id(), name)
        self.roles[role.id] = role
        return role

    def add_channel(self, name: str, guild_id: int = GUILD_ID, *, type: int = TEXT,
                    parent: FakeChannel | None = None, denied: int = 0) -> FakeChannel:
        """A channel of a server; a thread (parent given) belongs to its parent's server. `denied`: permissions
        (a discord.Permissions value) nobody below the owner has there, the bot included."""
        channel = FakeChannel(self.next_id(), name, parent.guild_id if parent else guild_id, type=type,
                              parent_id=parent.id if parent else None, denied=denied)
        self.channels[channel.id] = channel
        return channel

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None, owner: FakeUser | None = None) -> int:
        """A new server; with shard=(id, count), one whose id Discord routes to that shard. With an owner, the bot
        is a plain member there, whose rights channels can restrict (`add_channel(denied=)`)."""
        guild_id = self.next_id()
        while shard is not None and shard_of(guild_id, shard[1]) != shard[0]:
            guild_id = self.next_id()
        self.guilds[guild_id] = name
        if owner is not None:
            self.owners[guild_id] = owner.id
        return guild_id

    def create_thread(self, parent_id: int, body: dict[str, Any]) -> dict[str, Any]:
        """A public thread started from a text channel (Discord refuses one elsewhere)."""
        parent = self._channel(parent_id)
        if parent.type != TEXT:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        self._require(discord.Permissions(create_public_threads=True), channel=parent)
        self._room_for_a_thread(parent.guild_id)
        return self.channel(self.add_channel(body["name"], type=PUBLIC_THREAD, parent=parent).id)

    def fill_threads(self, guild_id: int, parent_id: int, count: int, *, owner: FakeUser | None = None) -> list[FakeChannel]:
        """`count` active threads under `parent_id` (started by `owner`, else the bot), made directly (no REST, no
        limit): a server at its limit."""
        parent = self.channels[parent_id]
        assert parent.guild_id == guild_id, "the parent channel is in another server"
        threads = [FakeChannel(self.next_id(), f"thread {n}", guild_id, type=PUBLIC_THREAD, parent_id=parent_id,
                               owner_id=owner.id if owner else self.app_id) for n in range(count)]
        self.channels.update((thread.id, thread) for thread in threads)
        return threads

    def active_threads(self, guild_id: int) -> dict[str, Any]:
        """GET /guilds/{guild}/threads/active: the server's threads that are not archived."""
        threads = [self.channel(c.id) for c in self.channels.values()
                   if c.is_thread and c.guild_id == guild_id and c.id not in self.archived]
        return {"threads": threads, "members": []}

    def _room_for_a_thread(self, guild_id: int) -> None:
        """Refuse one more active thread in a server at its limit."""
        active = sum(1 for c in self.channels.values()
                     if c.is_thread and c.guild_id == guild_id and c.id not in self.archived)
        if active >= self.max_active_threads:
            raise DiscordError(400, 160006, "Maximum number of active threads reached")

    def _unarchive(self, channel: FakeChannel) -> None:
        if channel.id in self.archived:
            self._room_for_a_thread(channel.guild_id)
            self.archived.discard(channel.id)

    def edit_channel(self, channel_id: int, body: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(channel_id)
        if "archived" in body and channel.is_thread:
            if body["archived"]:
                self.archived.add(channel_id)
            else:
                self._unarchive(channel)
        return self.channel(channel_id)

    def add_thread_member(self, channel_id: int, user_id: int) -> None:
        if not self._channel(channel_id).is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        if channel_id in self.archived:
            raise DiscordError(400, 50083, "Thread is archived")
        self.thread_members.setdefault(channel_id, set()).add(user_id)

    def delete_channel(self, channel_id: int) -> dict[str, Any]:
        data = self.channel(channel_id)
        del self.channels[channel_id]
        return data

    @property
    def default_channel(self) -> FakeChannel:
        return self.channels[CHANNEL_ID]

    def guild_payload(self, guild_id: int = GUILD_ID) -> dict[str, Any]:
        everyone = {
            "id": str(guild_id), "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS),
            "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0,
        }
        return {
            "id": str(guild_id), "name": self.guilds[guild_id], "icon": None,
            "owner_id": str(self.owners.get(guild_id, next(iter(self.users)))),
            "features": [], "roles": [everyone, *(role.payload() for role in self.roles.values())], "emojis": [],
            "stickers": [],
            "channels": [channel.payload(i) for i, channel in enumerate(self.channels.values())
                         if channel.guild_id == guild_id and not channel.is_thread],
            "members": [self.bot_user.member_payload()], "member_count": len(self.users),
            "large": False, "unavailable": False, "preferred_locale": "en-US", "premium_tier": 0,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "mfa_level": 0, "nsfw_level": 0, "afk_timeout": 300,
            "system_channel_id": str(self.system_channels[guild_id]) if guild_id in self.system_channels else None,
            "threads": [], "voice_states": [], "presences": [], "stage_instances": [],
            "guild_scheduled_events": [], "joined_at": _NOW,
        }

    def join_payload(self, guild_id: int) -> dict[str, Any]:
        """The GUILD_CREATE Discord sends when the bot is added to a server: without `unavailable`, which
        discord.py reads as a join (on_guild_join) rather than a known server coming back."""
        payload = self.guild_payload(guild_id)
        del payload["unavailable"]
        return payload

    def application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.app_id), "name": self.bot_user.name, "description": "", "icon": None,
            "bot_public": True, "bot_require_code_grant": False, "owner": self.bot_user.payload(),
            "verify_key": "0" * 64, "flags": 0, "interactions_endpoint_url": None,
        }

    def member(self, guild_id: int, user_id: int) -> dict[str, Any]:
        if guild_id not in self.guilds or user_id not in self.users:
            raise DiscordError(404, 10007, "Unknown Member")
        return self.users[user_id].member_payload()

    def channel(self, channel_id: int) -> dict[str, Any]:
        return self._channel(channel_id).payload(archived=channel_id in self.archived)

    # --- interactions a user starts -----------------------------------------------------------

    def slash(self, path: str, user: FakeUser, channel: FakeChannel | None, options: dict[str, Any]) -> dict[str, Any]:
        data = self._command_data(path, options, focused=None, guild_id=(channel or self.default_channel).guild_id)
        return self._interaction(SLASH, data, user, channel)

    def autocomplete(
        self, path: str, option: str, value: str, user: FakeUser, channel: FakeChannel | None, options: dict[str, Any]
    ) -> dict[str, Any]:
        data = self._command_data(path, {**options, option: value}, focused=option,
                                  guild_id=(channel or self.default_channel).guild_id)
        return self._interaction(AUTOCOMPLETE, data, user, channel)

    def component(
        self, custom_id: str, user: FakeUser, message_id: int | None, values: list[str] | None
    ) -> dict[str, Any]:
        message = self._message_with(custom_id, user, message_id)
        component = next(c for c in walk_components(message["components"]) if c.get("custom_id") == custom_id)
        if component.get("disabled"):
            raise HarnessError(f"the component {custom_id!r} is disabled: Discord would not let anyone use it")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] == 2:
            if values is not None:
                raise HarnessError(f"{custom_id!r} is a button: press it without values")
        else:
            data["values"] = self._select_values(component, values or [])
        channel = self.channels[int(message["channel_id"])]
        return self._interaction(COMPONENT, data, user, channel, message=message)

    def modal_submit(self, custom_id: str, user: FakeUser, values: dict[str, Any]) -> dict[str, Any]:
        for owner, modal, opened_by in reversed(self.modals):
            if owner == user.id and modal["custom_id"] == custom_id:
                break
        else:
            raise HarnessError(f"no modal {custom_id!r} was shown to {user.name}")
        opener = next(r for r in self.interactions.values() if r.id == opened_by)
        components = [_submitted(component, values) for component in modal["components"]]
        unknown = set(values) - {c.get("custom_id") for c in walk_components(modal["components"])}
        if unknown:
            raise HarnessError(f"the modal {custom_id!r} has no input {sorted(unknown)}")
        message = self.messages.get(opener.message_id) if opener.message_id else None
        data = {"custom_id": custom_id, "components": components}
        return self._interaction(MODAL_SUBMIT, data, user, self.channels[opener.channel_id], message=message)

    def _interaction(
        self, kind: int, data: dict[str, Any], user: FakeUser, channel: FakeChannel | None,
        message: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        channel = channel or self.default_channel
        interaction_id = self.next_id()
        token = f"interaction-token-{interaction_id}"
        self.interactions[token] = InteractionRecord(
            id=interaction_id, token=token, type=kind, user_id=user.id, channel_id=channel.id,
            message_id=int(message["id"]) if message else None,
        )
        guild_id = channel.guild_id
        payload: dict[str, Any] = {
            "id": str(interaction_id), "application_id": str(self.app_id), "type": kind, "data": data,
            "guild_id": str(guild_id), "guild": {"id": str(guild_id), "locale": "en-US", "features": []},
            "channel_id": str(channel.id), "channel": {**self.channel(channel.id), "permissions": str(user.permissions)},
            "member": user.member_payload(), "token": token, "version": 1,
            "app_permissions": str(self.bot_permissions & ~channel.denied), "locale": "en-GB", "guild_locale": "en-US",
            "entitlements": [], "authorizing_integration_owners": {"0": str(guild_id)}, "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = copy.deepcopy(message)
        return payload

    def _command_data(self, path: str, options: dict[str, Any], focused: str | None, guild_id: int) -> dict[str, Any]:
        names = path.split()
        command, guild_id = self._registered(names[0], guild_id)
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1, "resolved": {}}
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        container: list[dict[str, Any]] = []
        data["options"] = container
        spec = command.get("options", [])
        for name in names[1:]:
            sub = next((o for o in spec if o["name"] == name and o["type"] in (1, 2)), None)
            if sub is None:
                raise HarnessError(f"/{path}: /{names[0]} has no subcommand {name!r}")
            entry: dict[str, Any] = {"type": sub["type"], "name": name, "options": []}
            container.append(entry)
            container, spec = entry["options"], sub.get("options", [])
        by_name = {o["name"]: o for o in spec if o["type"] not in (1, 2)}
        if any(o["type"] in (1, 2) for o in spec):
            raise HarnessError(f"/{path} needs a subcommand: one of {[o['name'] for o in spec]}")
        for name, value in options.items():
            if name not in by_name:
                raise HarnessError(f"/{path} has no option {name!r}; it has {sorted(by_name)}")
            container.append(self._option(by_name[name], value, data["resolved"], focused == name))
        if focused is None:
            missing = [n for n, o in by_name.items() if o.get("required") and n not in options]
            if missing:
                raise HarnessError(f"/{path}: Discord requires the options {missing}")
        return data

    def _registered(self, name: str, in_guild: int) -> tuple[dict[str, Any], int | None]:
        for guild_id in (in_guild, None):
            for command in self.commands.get(guild_id, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command, guild_id
        raise HarnessError(f"/{name} was not synced to Discord; synced: {self.command_names()}")

    def command_names(self) -> list[str]:
        return sorted({c["name"] for commands in self.commands.values() for c in commands})

    def _option(self, spec: dict[str, Any], value: Any, resolved: dict[str, Any], focused: bool) -> dict[str, Any]:
        kind = spec["type"]
        option: dict[str, Any] = {"type": kind, "name": spec["name"]}
        if focused:
            option.update(value=str(value), focused=True)
        elif kind == 3:
            option["value"] = str(value)
        elif kind == 4:
            option["value"] = int(value)
        elif kind == 5:
            option["value"] = bool(value)
        elif kind == 10:
            option["value"] = float(value)
        elif kind in (6, 9) and isinstance(value, FakeUser):
            option["value"] = str(value.id)
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            resolved.setdefault("members", {})[str(value.id)] = value.member_payload(with_user=False)
        elif kind == 11 and isinstance(value, FakeFile):
            attachment_id = self.next_id()
            self.files[attachment_id] = value.content
            option["value"] = str(attachment_id)
            resolved.setdefault("attachments", {})[str(attachment_id)] = {
                "id": str(attachment_id), "filename": value.filename, "size": len(value.content),
                "url": f"https://cdn.example/{attachment_id}/{value.filename}",
                "proxy_url": f"https://media.example/{attachment_id}/{value.filename}"}
        elif kind == 8 and isinstance(value, FakeRole):
            option["value"] = str(value.id)
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        elif kind == 7 and isinstance(value, FakeChannel):
            option["value"] = str(value.id)
            resolved.setdefault("channels", {})[str(value.id)] = {
                "id": str(value.id), "name": value.name, "type": 0, "permissions": str(MEMBER_PERMISSIONS),
            }
        else:
            raise HarnessError(f"option {spec['name']!r} (type {kind}) cannot take {value!r}")
        return option

    def _message_with(self, custom_id: str, user: FakeUser, message_id: int | None) -> dict[str, Any]:
        candidates = [self.messages[message_id]] if message_id in self.messages else reversed(self.messages.values())
        for message in candidates:
            if custom_id in {c.get("custom_id") for c in walk_components(message.get("components") or [])}:
                owner = self.ephemeral_owner.get(int(message["id"]))
                if owner is not None and owner != user.id:
                    raise HarnessError(f"{user.name} cannot see the ephemeral message holding {custom_id!r}")
                return message
        raise HarnessError(f"no message shows a component {custom_id!r}")

    @staticmethod
    def _select_values(component: dict[str, Any], values: list[str]) -> list[str]:
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise HarnessError(f"select {component['custom_id']!r} takes {low} to {high} values, not {len(values)}")
        if component["type"] == 3:
            allowed = {o["value"] for o in component.get("options", [])}
            if not set(values) <= allowed:
                raise HarnessError(f"select {component['custom_id']!r} offers {sorted(allowed)}, not {values}")
        return [str(v) for v in values]

    # --- what the bot does ------------------------------------------------------------------

    def global_commands(self) -> list[dict[str, Any]]:
        return copy.deepcopy(self.commands.get(None, []))

    def enable_activities(self) -> dict[str, Any]:
        """What turning Activities on in the Developer Portal does: the app gets its Entry Point command (global)."""
        entry = {"id": str(self.next_id()), "application_id": str(self.app_id), "version": str(self.next_id()),
                 "type": ENTRY_POINT, "name": "launch", "description": "", "handler": 2}
        self.commands.setdefault(None, []).append(entry)
        return copy.deepcopy(entry)

    def overwrite_commands(self, guild_id: int | None, body: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if guild_id is None and any(c["type"] == ENTRY_POINT and c["name"] not in {b["name"] for b in body}
                                    for c in self.commands.get(None, [])):
            raise DiscordError(400, 50240, "You cannot remove this app's Entry Point command in a bulk update "
                                           "operation. Please include the Entry Point command in your update request "
                                           "or delete it separately.")
        problems = [p for command in body if command.get("type") != ENTRY_POINT for p in _command_problems(command)]
        if problems:
            raise DiscordError(400, 50035, "Invalid Form Body", problems)
        stored = []
        for command in body:
            key = (guild_id, command["name"])
            command_id = self._command_ids.setdefault(key, self.next_id())
            entry = {
                **copy.deepcopy(command), "id": str(command_id), "application_id": str(self.app_id),
                "version": str(self.next_id()), "type": command.get("type", 1),
                "default_member_permissions": command.get("default_member_permissions"),
            }
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            stored.append(entry)
        self.commands[guild_id] = stored
        return copy.deepcopy(stored)

    def interaction_callback(
        self, interaction_id: int, token: str, body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> dict[str, Any]:
        record = self.interactions.get(token)
        if record is None or record.id != interaction_id:
            raise DiscordError(404, 10062, "Unknown interaction")
        if record.response_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        kind = body.get("type")
        allowed = {
            SLASH: {MESSAGE, DEFERRED_MESSAGE, MODAL, LAUNCH_ACTIVITY},
            AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
            COMPONENT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL, LAUNCH_ACTIVITY},
            MODAL_SUBMIT: {MESSAGE, DEFERRED_MESSAGE} | ({DEFERRED_UPDATE, UPDATE_MESSAGE} if record.message_id else set()),
        }[record.type]
        if kind not in allowed:
            raise DiscordError(400, 50035, "Invalid Form Body", [f"callback type {kind} is not valid for this interaction"])
        data = body.get("data") or {}
        message = None
        if kind in (MESSAGE, DEFERRED_MESSAGE):
            if kind == MESSAGE:
                _check_message(data, files, needs_content=True)
            flags = (data.get("flags") or 0) | (LOADING if kind == DEFERRED_MESSAGE else 0)
            message = self._create_message(record.channel_id, {**data, "flags": flags}, files, message_type=20)
            if flags & EPHEMERAL:
                self.ephemeral_owner[int(message["id"])] = record.user_id
            record.original_id = int(message["id"])
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            record.original_id = record.message_id
            if kind == UPDATE_MESSAGE:
                _check_message(data, files, needs_content=False)
                message = self._apply_edit(record.message_id, data, files)
        elif kind == AUTOCOMPLETE_RESULT:
            _check_choices(data.get("choices", []))
        elif kind == MODAL:
            _check_modal(data)
            self.modals.append((record.user_id, copy.deepcopy(data), record.id))
        record.response_type = kind
        self.sent.append(Sent("response", copy.deepcopy(body), _copy(message), record.id, kind))
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(record.id), "type": record.type,
                "response_message_loading": kind == DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and message["flags"] & EPHEMERAL),
            },
        }
        if message is not None:
            answer["interaction"]["response_message_id"] = message["id"]
            answer["resource"] = {"type": kind, "message": copy.deepcopy(message)}
        return answer

    def execute_webhook(self, webhook_id: int, token: str, body: dict[str, Any], files: list[tuple[str, bytes]]) -> dict[str, Any]:
        record = self._answered(webhook_id, token)
        _check_message(body, files, needs_content=True)
        original = self.messages.get(record.original_id) if record.original_id else None
        if record.response_type == DEFERRED_MESSAGE and original is not None and original["flags"] & LOADING:
            # Discord: the first follow-up after a "thinking" defer replaces the loading message.
            message = self._apply_edit(record.original_id, body, files)
        else:
            message = self._create_message(record.channel_id, body, files, message_type=0, webhook=True)
            if message["flags"] & EPHEMERAL:
                self.ephemeral_owner[int(message["id"])] = record.user_id
            record.followup_ids.append(int(message["id"]))
        self.sent.append(Sent("followup", copy.deepcopy(body), _copy(message), record.id))
        return copy.deepcopy(message)

    def get_webhook_message(self, webhook_id: int, token: str, message_id: str) -> dict[str, Any]:
        record = self._answered(webhook_id, token)
        return copy.deepcopy(self.messages[self._webhook_message(record, message_id)])

    def edit_webhook_message(
        self, webhook_id: int, token: str, message_id: str, body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> dict[str, Any]:
        record = self._answered(webhook_id, token)
        _check_message(body, files, needs_content=False)
        message = self._apply_edit(self._webhook_message(record, message_id), body, files)
        self.sent.append(Sent("edit", copy.deepcopy(body), _copy(message), record.id))
        return copy.deepcopy(message)

    def delete_webhook_message(self, webhook_id: int, token: str, message_id: str) -> None:
        record = self._answered(webhook_id, token)
        removed = self.messages.pop(self._webhook_message(record, message_id))
        self.sent.append(Sent("delete", {}, removed, record.id))

    def create_message(self, channel_id: int, body: dict[str, Any], files: list[tuple[str, bytes]]) -> dict[str, Any]:
        channel = self._channel(channel_id)
        if channel.is_thread:
            self._require(discord.Permissions(send_messages_in_threads=True, view_channel=True), channel=channel)
        elif channel.type == FORUM:
            raise DiscordError(400, 50008, "Cannot send messages in a non-text channel")
        else:
            self._require(discord.Permissions(send_messages=True, view_channel=True), channel=channel)
        if files:
            self._require(discord.Permissions(attach_files=True), channel=channel)
        _check_message(body, files, needs_content=True)
        if channel.is_thread:
            self._unarchive(channel)  # a message in an archived (not locked) thread unarchives it, if there is room
            # Discord adds every user the message may ping to a public thread.
            pinged = _pinged_users(body, self.users)
            if pinged:
                self.thread_members.setdefault(channel_id, set()).update(pinged)
        message_type = 19 if body.get("message_reference") else 0
        message = self._create_message(channel_id, body, files, message_type=message_type)
        self.sent.append(Sent("message", copy.deepcopy(body), _copy(message)))
        return copy.deepcopy(message)

    def get_message(self, channel_id: int, message_id: int) -> dict[str, Any]:
        return copy.deepcopy(self._channel_message(channel_id, message_id))

    def edit_message(
        self, channel_id: int, message_id: int, body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> dict[str, Any]:
        message = self._channel_message(channel_id, message_id)
        if int(message["author"]["id"]) != self.bot_user.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        if channel_id in self.archived:
            raise DiscordError(400, 50083, "Thread is archived")
        _check_message(body, files, needs_content=False)
        message = self._apply_edit(message_id, body, files)
        self.sent.append(Sent("edit", copy.deepcopy(body), _copy(message)))
        return copy.deepcopy(message)

    def delete_message(self, channel_id: int, message_id: int) -> None:
        self._channel_message(channel_id, message_id)
        removed = self.messages.pop(message_id)
        self.sent.append(Sent("delete", {}, removed))

    def pin(self, channel_id: int, message_id: int, pinned: bool = True) -> None:
        message = self._channel_message(channel_id, message_id)
        if channel_id in self.archived:
            raise DiscordError(400, 50083, "Thread is archived")
        self._require(discord.Permissions(pin_messages=True), discord.Permissions(manage_messages=True),
                      channel=self.channels[channel_id])
        if pinned and not message["pinned"] and len(self.pins(channel_id)) >= 250:
            raise DiscordError(400, 30003, "Maximum number of pins reached (250)")
        message["pinned"] = pinned
        self.sent.append(Sent("pin" if pinned else "unpin", {}, _copy(message)))

    def pins(self, channel_id: int) -> list[dict[str, Any]]:
        return [copy.deepcopy(m) for m in self.messages.values() if int(m["channel_id"]) == channel_id and m["pinned"]]

    def channel_messages(self, channel_id: int) -> list[dict[str, Any]]:
        return [copy.deepcopy(m) for m in self.messages.values() if int(m["channel_id"]) == channel_id]

    # --- helpers ----------------------------------------------------------------------------

    def _channel(self, channel_id: int) -> FakeChannel:
        if channel_id not in self.channels:
            raise DiscordError(404, 10003, "Unknown Channel")
        return self.channels[channel_id]

    def _channel_message(self, channel_id: int, message_id: int) -> dict[str, Any]:
        self._channel(channel_id)
        message = self.messages.get(message_id)
        # An ephemeral message lives only in its interaction: the channel endpoints never see it.
        if message is None or int(message["channel_id"]) != channel_id or message_id in self.ephemeral_owner:
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    def _answered(self, webhook_id: int, token: str) -> InteractionRecord:
        record = self.interactions.get(token)
        if webhook_id != self.app_id or record is None or record.response_type is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        return record

    def _webhook_message(self, record: InteractionRecord, message_id: str) -> int:
        wanted = record.original_id if message_id == "@original" else int(message_id)
        if wanted is None or wanted not in self.messages or wanted not in {record.original_id, *record.followup_ids}:
            raise DiscordError(404, 10008, "Unknown Message")
        return wanted

    def _require(self, *any_of: discord.Permissions, channel: FakeChannel | None = None) -> None:
        held = self.bot_permissions & ~(channel.denied if channel else 0)
        if not any((held & p.value) == p.value for p in any_of):
            raise DiscordError(403, 50013, "Missing Permissions")

    def _create_message(
        self, channel_id: int, body: dict[str, Any], files: list[tuple[str, bytes]], *, message_type: int,
        webhook: bool = False,
    ) -> dict[str, Any]:
        message_id = self.next_id()
        message = {
            "id": str(message_id), "channel_id": str(channel_id), "guild_id": str(self.channels[channel_id].guild_id),
            "author": self.bot_user.payload(), "type": message_type, "content": body.get("content") or "",
            "embeds": copy.deepcopy(body.get("embeds") or []),
            "components": copy.deepcopy(body.get("components") or []),
            "flags": body.get("flags") or 0, "attachments": self._attachments(body, files, keep=[]),
            "pinned": False, "tts": bool(body.get("tts")), "mention_everyone": False, "mentions": [],
            "mention_roles": [], "timestamp": datetime.now(UTC).isoformat(), "edited_timestamp": None,
        }
        if webhook or message_type == 20:
            message["webhook_id"] = str(self.app_id)
            message["application_id"] = str(self.app_id)
        self.messages[message_id] = message
        return message

    def _apply_edit(self, message_id: int | None, body: dict[str, Any], files: list[tuple[str, bytes]]) -> dict[str, Any]:
        if message_id is None or message_id not in self.messages:
            raise DiscordError(404, 10008, "Unknown Message")
        message = self.messages[message_id]
        if "content" in body:
            message["content"] = body["content"] or ""
        for key in ("embeds", "components"):
            if key in body:
                message[key] = copy.deepcopy(body[key] or [])
        if "attachments" in body or files:
            keep = [int(a["id"]) for a in body.get("attachments", []) if "id" in a and str(a["id"]).isdigit()]
            message["attachments"] = self._attachments(body, files, keep=keep, old=message["attachments"])
        message["flags"] = message["flags"] & ~LOADING
        message["edited_timestamp"] = datetime.now(UTC).isoformat()
        return message

    def _attachments(self, body, files, *, keep: list[int], old: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        attachments = [a for a in (old or []) if int(a["id"]) in keep]
        for filename, content in files:
            attachment_id = self.next_id()
            self.files[attachment_id] = content
            attachments.append({
                "id": str(attachment_id), "filename": filename, "size": len(content),
                "url": f"https://cdn.example/{attachment_id}/{filename}",
                "proxy_url": f"https://media.example/{attachment_id}/{filename}",
            })
        return attachments


_USER_MENTION = re.compile(r"<@!?(\d+)>")


def _pinged_users(body: dict[str, Any], users: dict[int, FakeUser]) -> set[int]:
    """The known users a message's content mentions and its allowed_mentions lets it ping (none given: all)."""
    allowed = body.get("allowed_mentions")
    mentioned = {int(found) for found in _USER_MENTION.findall(body.get("content") or "")} & set(users)
    if allowed is None or "users" in (allowed.get("parse") or []):
        return mentioned
    return mentioned & {int(user) for user in allowed.get("users") or []}


def _copy(message: dict[str, Any] | None) -> dict[str, Any] | None:
    return copy.deepcopy(message) if message is not None else None


def _submitted(component: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """A modal component as Discord sends it back, with what the user typed or picked."""
    if component["type"] == 1:
        return {"type": 1, "components": [_submitted(c, values) for c in component.get("components", [])]}
    if component["type"] == 18:
        return {"type": 18, "component": _submitted(component["component"], values)}
    custom_id = component.get("custom_id")
    if component["type"] == 4:
        value = str(values.get(custom_id, component.get("value") or ""))
        low, high = component.get("min_length", 0), component.get("max_length", 4000)
        if component.get("required", True) and not value:
            raise HarnessError(f"the modal input {custom_id!r} is required")
        if value and not low <= len(value) <= high:
            raise HarnessError(f"the modal input {custom_id!r} takes {low} to {high} characters")
        return {"type": 4, "custom_id": custom_id, "value": value}
    if custom_id is not None:
        return {"type": component["type"], "custom_id": custom_id, "values": [str(v) for v in values.get(custom_id, [])]}
    return copy.deepcopy(component)


# --- Discord's size limits ---------------------------------------------------------------------

_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def _command_problems(command: dict[str, Any], *, option: bool = False) -> list[str]:
    problems = []
    name = command.get("name", "")
    if not _COMMAND_NAME.match(name) or name != name.lower():
        problems.append(f"command or option name {name!r} must be 1-32 lower-case letters, digits, - or _")
    needs_description = option or command.get("type", 1) == 1  # context menus have none
    if needs_description and not 1 <= len(command.get("description", "")) <= 100:
        problems.append(f"{name!r}: description must be 1-100 characters")
    options = command.get("options", [])
    if len(options) > 25:
        problems.append(f"{name!r}: at most 25 options")
    seen_optional = False
    for sub in options:
        if sub.get("type") not in (1, 2):
            if sub.get("required") and seen_optional:
                problems.append(f"{name!r}: required option {sub['name']!r} after an optional one")
            seen_optional = seen_optional or not sub.get("required")
        if len(sub.get("choices", [])) > 25:
            problems.append(f"{sub['name']!r}: at most 25 choices")
        problems += _command_problems(sub, option=True)
    return problems


def message_problems(body: dict[str, Any], files: list[tuple[str, bytes]] | None = None, *, needs_content: bool = True) -> list[str]:
    """Why Discord would refuse this message body (empty list: it would accept it)."""
    problems = []
    content = body.get("content") or ""
    embeds = body.get("embeds") or []
    components = body.get("components") or []
    if len(content) > 2000:
        problems.append(f"content has {len(content)} characters (limit 2000)")
    if len(embeds) > 10:
        problems.append("more than 10 embeds")
    total = 0
    for embed in embeds:
        problems += embed_problems(embed)
        total += embed_length(embed)
    if total > 6000:
        problems.append(f"the embeds hold {total} characters together (limit 6000)")
    problems += component_problems(components, v2=bool((body.get("flags") or 0) & (1 << 15)))
    if needs_content and not (content or embeds or components or files or body.get("poll") or body.get("sticker_ids")):
        problems.append("Cannot send an empty message")
    return problems


def embed_length(embed: dict[str, Any]) -> int:
    fields = embed.get("fields", [])
    return (
        len(embed.get("title") or "") + len(embed.get("description") or "")
        + sum(len(f.get("name") or "") + len(f.get("value") or "") for f in fields)
        + len((embed.get("footer") or {}).get("text") or "") + len((embed.get("author") or {}).get("name") or "")
    )


def embed_problems(embed: dict[str, Any]) -> list[str]:
    problems = []
    limits = [
        ("title", embed.get("title"), 256), ("description", embed.get("description"), 4096),
        ("footer", (embed.get("footer") or {}).get("text"), 2048), ("author", (embed.get("author") or {}).get("name"), 256),
    ]
    for what, text, limit in limits:
        if text and len(text) > limit:
            problems.append(f"embed {what} has {len(text)} characters (limit {limit})")
    fields = embed.get("fields", [])
    if len(fields) > 25:
        problems.append(f"embed has {len(fields)} fields (limit 25)")
    for f in fields:
        if not f.get("name") or len(f["name"]) > 256:
            problems.append(f"embed field name {f.get('name')!r} is empty or over 256 characters")
        if not f.get("value") or len(f["value"]) > 1024:
            problems.append(f"embed field {f.get('name')!r} value is empty or over 1024 characters")
    if embed_length(embed) > 6000:
        problems.append(f"embed has {embed_length(embed)} characters (limit 6000)")
    return problems


def component_problems(components: list[dict[str, Any]], *, v2: bool = False) -> list[str]:
    problems = []
    if not v2 and len(components) > 5:
        problems.append(f"{len(components)} action rows (limit 5)")
    custom_ids = [c["custom_id"] for c in walk_components(components) if "custom_id" in c]
    if len(custom_ids) != len(set(custom_ids)):
        problems.append("two components share a custom_id")
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is not None and not 1 <= len(custom_id) <= 100:
            problems.append(f"custom_id {custom_id!r} must be 1-100 characters")
        if component["type"] == 1:
            children = component.get("components", [])
            buttons = sum(1 for c in children if c["type"] == 2)
            if buttons > 5 or (buttons and buttons != len(children)) or len(children) > 5:
                problems.append("an action row holds up to 5 buttons or a single select")
        if component["type"] == 2:
            if len(component.get("label") or "") > 80:
                problems.append(f"button label {component.get('label')!r} over 80 characters")
            if component.get("style") == 5 and not component.get("url"):
                problems.append("a link button needs a url")
        if component["type"] == 3:
            options = component.get("options", [])
            if not 1 <= len(options) <= 25:
                problems.append(f"select {custom_id!r} has {len(options)} options (1-25)")
            for o in options:
                if not 1 <= len(o.get("label", "")) <= 100 or not 1 <= len(o.get("value", "")) <= 100:
                    problems.append(f"select option {o.get('label')!r}: label and value must be 1-100 characters")
        if component["type"] in (3, 5, 6, 7, 8) and len(component.get("placeholder") or "") > 150:
            problems.append(f"select {custom_id!r} placeholder over 150 characters")
    return problems


def _check_message(body: dict[str, Any], files: list[tuple[str, bytes]], *, needs_content: bool) -> None:
    problems = message_problems(body, files, needs_content=needs_content)
    if problems == ["Cannot send an empty message"]:
        raise DiscordError(400, 50006, "Cannot send an empty message")
    if problems:
        raise DiscordError(400, 50035, "Invalid Form Body", problems)


def _check_choices(choices: list[dict[str, Any]]) -> None:
    problems = [] if len(choices) <= 25 else [f"{len(choices)} autocomplete choices (limit 25)"]
    for choice in choices:
        if not 1 <= len(choice.get("name", "")) <= 100:
            problems.append(f"choice name {choice.get('name')!r} must be 1-100 characters")
        if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
            problems.append(f"choice value {choice['value']!r} over 100 characters")
    if problems:
        raise DiscordError(400, 50035, "Invalid Form Body", problems)


def _check_modal(modal: dict[str, Any]) -> None:
    problems = []
    if not 1 <= len(modal.get("title", "")) <= 45:
        problems.append("modal title must be 1-45 characters")
    if not 1 <= len(modal.get("custom_id", "")) <= 100:
        problems.append("modal custom_id must be 1-100 characters")
    if not 1 <= len(modal.get("components", [])) <= 5:
        problems.append("a modal holds 1-5 components")
    for component in walk_components(modal.get("components", [])):
        if component["type"] == 4 and len(component.get("label") or "") > 45:
            problems.append(f"text input label {component.get('label')!r} over 45 characters")
    if problems:
        raise DiscordError(400, 50035, "Invalid Form Body", problems)
