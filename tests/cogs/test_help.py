"""/help names every command the bot registers, switches sections on its private message and walks a first game
through the board's real buttons; the bot welcomes a server it joins where it may post; /setup check says which
permissions the bot lacks in the channel."""

from __future__ import annotations

import re

import discord
import pytest

from bot.client import EXTENSIONS, MissionBot
from bot.present.offers import LABELS
from bot.ui.help import available, help_embed, registered
from bot.ui.help_text import FIRST_GAME, SECTIONS
from bot.ui.open_challenge import LABELS as CHALLENGE_LABELS
from bot.ui.permissions import BY_ATTR, NEEDED, missing_permission_text
from tests.cogs.conftest import harness_settings
from tests.cogs.harness import Harness
from tests.discord_model import BOT_PERMISSIONS, MEMBER_PERMISSIONS, UPDATE_MESSAGE, FakeUser, embed_problems

MENU = "mdh:menu"
ADMIN = (discord.Permissions(MEMBER_PERMISSIONS) | discord.Permissions(manage_guild=True)).value


def text_of(embed: dict) -> str:
    fields = [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
    return "\n".join([embed.get("title", ""), embed.get("description", ""), *fields])


async def every_section(harness: Harness, user: FakeUser) -> dict[str, str]:
    """The text of each section, as a user sees it by opening /help and picking each part in its menu."""
    reply = await harness.slash("help", user=user)
    message_id = int(reply.main.message["id"])
    shown = {}
    for section in SECTIONS:
        picked = await harness.select(MENU, [section.key], user=user, message_id=message_id)
        shown[section.key] = text_of(picked.embed)
    return shown


async def test_help_names_every_registered_command_by_its_full_path(harness: Harness, alice: FakeUser) -> None:
    shown = "\n".join((await every_section(harness, alice)).values())
    # The live tree: a command another cog adds must get its help entry, or this fails naming it.
    paths = set(registered(harness.bot.tree))
    synced = {f"/{c['name']}" for commands in harness.model.commands.values() for c in commands}
    assert {path.split()[0] for path in paths} == synced
    assert "/game new" in paths and "/tournament round start" in paths and "/setup check" in paths
    assert sorted(path for path in paths if path not in shown) == []


async def test_help_hides_entries_for_commands_not_registered_yet(catalog, database_url: str) -> None:
    """A bot without the /army cog: its entries are hidden, every other entry is shown."""
    extensions = tuple(name for name in EXTENSIONS if name != "cogs.army")
    async with Harness(MissionBot(harness_settings(database_url), catalog, extensions=extensions)) as harness:
        shown = "\n".join((await every_section(harness, harness.user("alice"))).values())
        commands = registered(harness.bot.tree)
    entries = [entry for section in SECTIONS for group in section.groups for entry in group.entries]
    hidden = {entry.command for entry in entries if entry.shown not in shown}
    assert hidden == {"/army set", "/army show"}
    assert all(available(entry, commands) == (entry.command not in hidden) for entry in entries)


async def test_help_is_private_and_its_menu_switches_the_same_message(harness: Harness, alice: FakeUser) -> None:
    reply = await harness.slash("help", user=alice)
    assert reply.ephemeral
    assert "Players" in reply.embed["title"] and "/game new" in reply.embed["fields"][0]["value"]
    message_id = int(reply.main.message["id"])
    for section in (SECTIONS[1], SECTIONS[3], SECTIONS[0]):
        picked = await harness.select(MENU, [section.key], user=alice, message_id=message_id)
        assert picked.response.type == UPDATE_MESSAGE and int(picked.main.message["id"]) == message_id
        assert picked.ephemeral and section.label in picked.embed["title"]
        options = picked.components[0]["components"][0]["options"]
        assert [o["value"] for o in options if o.get("default")] == [section.key]
    organisers = await harness.select(MENU, ["organisers"], user=alice, message_id=message_id)
    assert "/tournament pair" in text_of(organisers.embed)


async def test_the_first_game_walks_through_the_boards_real_buttons(harness: Harness, alice: FakeUser) -> None:
    assert len(FIRST_GAME.steps) == 10
    labels = {label for label, _ in (*LABELS.values(), *CHALLENGE_LABELS.values())}
    named = re.findall(r"\*\*(.+?)\*\*", "\n".join(FIRST_GAME.steps))
    assert set(named) <= labels
    assert {"Accept the game", "I'll be the Attacker", "Choose Secondary Missions", "Deployment done",
            "End Command phase", "End turn", "Done scoring"} <= set(named)
    shown = (await every_section(harness, alice))[FIRST_GAME.key]
    assert "1. In your game channel: `/game new" in shown and "10. After round 5" in shown


@pytest.mark.parametrize("section", SECTIONS, ids=[s.key for s in SECTIONS])
def test_every_section_fits_discords_limits_with_every_entry_shown(section) -> None:
    embed = help_embed(section, lambda entry: True).to_dict()  # every entry: the longest this help can be
    assert embed_problems(embed) == []
    assert len(section.label) <= 100 and len(section.summary) <= 100
    for group in section.groups:
        for entry in group.entries:
            assert (entry.example or entry.command).startswith(entry.command + (" " if entry.example else "")), entry


async def test_the_bot_welcomes_a_server_where_it_may_post(harness: Harness) -> None:
    owner = harness.user("olga")
    guild_id = harness.model.add_guild("Club", owner=owner)
    lobby = harness.model.add_channel("lobby", guild_id)
    harness.model.system_channels[guild_id] = lobby.id
    reply = await harness.join(guild_id)
    assert [sent.kind for sent in reply] == ["message"]
    welcome = reply[0].content
    assert int(reply[0].message["channel_id"]) == lobby.id
    assert "/help" in welcome and "/setup check" in welcome and "/game new" in welcome


@pytest.mark.parametrize("system_channel", ["read-only", None])
async def test_no_welcome_without_a_system_channel_or_the_right_to_post_there(
    harness: Harness, system_channel: str | None
) -> None:
    guild_id = harness.model.add_guild("Club", owner=harness.user("olga"))
    general = harness.model.add_channel("general", guild_id)
    if system_channel is not None:
        read_only = harness.model.add_channel(system_channel, guild_id,
                                              denied=discord.Permissions(send_messages=True).value)
        harness.model.system_channels[guild_id] = read_only.id
    reply = await harness.join(guild_id)
    assert list(reply) == [] and reply.errors == []
    assert harness.bot.get_guild(guild_id) is not None  # the bot did join
    assert harness.model.channel_messages(general.id) == []


async def test_setup_check_says_all_set_when_nothing_is_missing(harness: Harness) -> None:
    admin = harness.user("admin", permissions=ADMIN)
    reply = await harness.slash("setup check", user=admin)
    assert reply.ephemeral and reply.content.startswith("✅ All set")


@pytest.mark.parametrize("needed", NEEDED, ids=[n.attr for n in NEEDED])
async def test_setup_check_names_each_missing_permission_and_what_it_breaks(harness: Harness, needed) -> None:
    admin = harness.user("admin", permissions=ADMIN)
    for attr in (needed.attr, *needed.also):
        harness.model.bot_permissions &= ~discord.Permissions(**{attr: True}).value
    reply = await harness.slash("setup check", user=admin)
    assert reply.ephemeral
    assert f"- **{needed.name}** — {needed.breaks}" in reply.content
    assert [line for line in reply.content.splitlines() if line.startswith("- ")] == [
        f"- **{needed.name}** — {needed.breaks}"]


async def test_setup_check_reads_this_channels_permissions(harness: Harness) -> None:
    admin = harness.user("admin", permissions=ADMIN)
    no_files = harness.channel("no-files", denied=discord.Permissions(attach_files=True, embed_links=True).value)
    reply = await harness.slash("setup check", user=admin, channel=no_files)
    assert no_files.mention in reply.content
    assert "**Embed Links**" in reply.content and "**Attach Files**" in reply.content
    assert "**Send Messages**" not in reply.content
    assert (await harness.slash("setup check", user=admin)).content.startswith("✅ All set")


async def test_setup_check_is_for_server_managers(harness: Harness, alice: FakeUser) -> None:
    synced = next(c for c in harness.model.commands[harness.model.guild_id] if c["name"] == "setup")
    assert int(synced["default_member_permissions"]) == discord.Permissions(manage_guild=True).value
    reply = await harness.slash("setup check", user=alice)  # a server may open the command to everyone
    assert reply.ephemeral and "Manage Server" in reply.content and "All set" not in reply.content


def test_a_failure_can_point_to_the_missing_permission() -> None:
    assert missing_permission_text("create_public_threads") == (
        "I could not open a thread for the game: I need **Create Public Threads** here. Run `/setup check`.")
    assert "manage_messages" not in BY_ATTR  # nothing is pinned: the board moves to the bottom instead
    assert all(n.held(discord.Permissions(BOT_PERMISSIONS)) for n in NEEDED)  # the model's bot has them all
