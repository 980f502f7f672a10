"""The fake Discord refuses what Discord refuses, so a bot bug cannot pass the tests unnoticed."""

from __future__ import annotations

import discord
import pytest

from tests.discord_model import DiscordError, DiscordModel, message_problems


def test_the_model_refuses_what_discord_refuses() -> None:
    model = DiscordModel()
    user = model.add_user("alice")
    model.overwrite_commands(model.guild_id, [{"name": "x", "description": "d", "type": 1}])
    payload = model.slash("x", user, None, {})
    interaction_id, token = int(payload["id"]), payload["token"]
    with pytest.raises(DiscordError, match="Unknown Webhook"):
        model.execute_webhook(model.app_id, token, {"content": "too early"}, [])
    with pytest.raises(DiscordError, match="empty message"):
        model.interaction_callback(interaction_id, token, {"type": 4, "data": {}}, [])
    with pytest.raises(DiscordError, match="callback type 7"):
        model.interaction_callback(interaction_id, token, {"type": 7, "data": {"content": "no message to update"}}, [])
    model.interaction_callback(interaction_id, token, {"type": 4, "data": {"content": "hi"}}, [])
    with pytest.raises(DiscordError, match="already been acknowledged"):
        model.interaction_callback(interaction_id, token, {"type": 4, "data": {"content": "again"}}, [])
    with pytest.raises(DiscordError, match="Unknown interaction"):
        model.interaction_callback(interaction_id + 1, token, {"type": 4, "data": {"content": "x"}}, [])


@pytest.mark.parametrize(
    "command",
    [
        {"name": "Card", "description": "upper case", "type": 1},
        {"name": "card", "description": "", "type": 1},
        {"name": "card", "description": "d", "type": 1, "options": [
            {"name": "a", "description": "d", "type": 3},
            {"name": "b", "description": "d", "type": 3, "required": True},
        ]},
    ],
)
def test_the_model_refuses_bad_command_definitions(command: dict) -> None:
    with pytest.raises(DiscordError, match="Invalid Form Body"):
        DiscordModel().overwrite_commands(None, [command])


def test_message_limits() -> None:
    assert message_problems({"content": "ok"}) == []
    assert message_problems({}) == ["Cannot send an empty message"]
    assert message_problems({}, needs_content=False) == []
    too_many_rows = {"components": [{"type": 1, "components": []}] * 6}
    assert "6 action rows (limit 5)" in message_problems(too_many_rows)
    duplicate = {"components": [{"type": 1, "components": [
        {"type": 2, "custom_id": "a", "label": "A", "style": 1}, {"type": 2, "custom_id": "a", "label": "B", "style": 1},
    ]}]}
    assert "two components share a custom_id" in message_problems(duplicate)
    long_id = {"components": [{"type": 1, "components": [{"type": 2, "custom_id": "x" * 101, "style": 1}]}]}
    assert any("1-100 characters" in p for p in message_problems(long_id))
    embeds = {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2500}]}
    assert any("6500 characters together" in p for p in message_problems(embeds))


def test_a_channel_can_take_permissions_from_the_bot() -> None:
    model = DiscordModel()
    user = model.add_user("alice")
    model.overwrite_commands(model.guild_id, [{"name": "x", "description": "d", "type": 1}])
    read_only = model.add_channel("news", denied=discord.Permissions(send_messages=True).value)
    with pytest.raises(DiscordError, match="Missing Permissions"):
        model.create_message(read_only.id, {"content": "hi"}, [])
    model.create_message(model.default_channel.id, {"content": "hi"}, [])
    held = discord.Permissions(int(model.slash("x", user, read_only, {})["app_permissions"]))
    assert not held.send_messages and held.embed_links
    overwrites = model.channel(read_only.id)["permission_overwrites"]
    assert overwrites == [{"id": str(model.guild_id), "type": 0, "allow": "0", "deny": str(1 << 11)}]


def test_a_joined_server_has_its_owner_and_system_channel() -> None:
    model = DiscordModel()
    owner = model.add_user("olga")
    guild_id = model.add_guild("Club", owner=owner)
    lobby = model.add_channel("lobby", guild_id)
    model.system_channels[guild_id] = lobby.id
    joined = model.join_payload(guild_id)
    assert "unavailable" not in joined  # discord.py reads a GUILD_CREATE without it as a join
    assert joined["owner_id"] == str(owner.id) and joined["system_channel_id"] == str(lobby.id)
    assert model.guild_payload()["owner_id"] == str(model.bot_user.id)  # the first server: the bot owns it
    assert model.guild_payload()["system_channel_id"] is None
