"""The harness itself: every interaction path the game cogs will use, driven through a real MissionBot.

The cog below exists only for these tests; it is loaded as an extension like any other cog.
"""

from __future__ import annotations

from typing import Literal

import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from bot.client import MissionBot
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.errors import NotYourTurn
from bot.ui.errors import APOLOGY
from tests.cogs.conftest import harness_settings
from tests.cogs.harness import Harness, InteractionFailed
from tests.discord_model import EPHEMERAL, FakeChannel, FakeUser, HarnessError


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"count:(?P<n>\d+)"):
    def __init__(self, n: int, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=str(n), custom_id=f"count:{n}", disabled=disabled))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # noqa: ANN001, ANN206
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1, disabled=self.n + 1 >= 2))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class PickView(discord.ui.View):
    @discord.ui.select(custom_id="pick", options=[discord.SelectOption(label=x, value=x.lower()) for x in "ABC"])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)

    @discord.ui.button(label="Ask", custom_id="ask")
    async def ask(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(NameModal())


class NameModal(discord.ui.Modal, title="Your name"):
    name = discord.ui.TextInput(label="Name", custom_id="name", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}")


class Playground(commands.Cog):
    game = app_commands.Group(name="game", description="Game commands")

    @app_commands.command(description="A counter on a persistent button")
    async def counter(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(0))
        await interaction.response.send_message("count 0", view=view)

    @app_commands.command(description="An ephemeral select")
    async def pick(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick one", view=PickView(), ephemeral=True)

    @app_commands.command(description="A modal")
    async def ask(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @app_commands.command(description="Defer, follow up, post, pin and edit")
    async def board(self, interaction: discord.Interaction, private: bool = False) -> None:
        await interaction.response.defer(thinking=True, ephemeral=private)
        await interaction.followup.send("board ready")
        posted = await interaction.channel.send("the board")
        await posted.pin()
        await posted.edit(content="the board, edited")
        await interaction.edit_original_response(content="done")

    @game.command(name="start", description="Start a game")
    async def start(
        self, interaction: discord.Interaction, opponent: discord.User,
        size: Literal["incursion", "strike-force"] = "strike-force", rounds: int = 5,
    ) -> None:
        await interaction.response.send_message(f"{interaction.user.name} vs {opponent.name}: {size}, {rounds} rounds")

    @app_commands.command(description="Refused by the rules")
    async def refused(self, interaction: discord.Interaction) -> None:
        raise NotYourTurn("It is not your turn.")

    @app_commands.command(description="A bug")
    async def broken(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")

    @app_commands.command(description="Too long for Discord")
    async def huge(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("x" * 2001)

    @app_commands.command(description="Answers twice")
    async def twice(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        await interaction.channel.send("two")

    @app_commands.command(description="Never answers")
    async def silent(self, interaction: discord.Interaction) -> None:
        return None


async def setup(bot: MissionBot) -> None:
    await bot.add_cog(Playground())


# One bot for the module; each test plays at its own table (channel) with its own users.
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def h(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory):
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('harness') / 'bot.db'}"
    bot = MissionBot(harness_settings(url), catalog, extensions=(__name__,), dynamic_items=(Counter,))
    async with Harness(bot) as harness:
        yield harness


@pytest.fixture
def table(h: Harness) -> FakeChannel:
    return h.channel("table")


@pytest.fixture
def alice(h: Harness) -> FakeUser:
    return h.user("alice")


@pytest.fixture
def bob(h: Harness) -> FakeUser:
    return h.user("bob")


async def test_commands_are_synced_to_the_test_server_with_ids(h: Harness) -> None:
    guild_commands = h.model.commands[h.model.guild_id]
    assert {c["name"] for c in guild_commands} >= {"counter", "pick", "ask", "board", "game"}
    assert all(c["id"].isdigit() for c in guild_commands)
    assert None not in h.model.commands  # nothing global when a test server is set
    assert [call.route for call in h.calls[:3]] == [
        "/users/@me", "/oauth2/applications/@me", "/applications/{application_id}/guilds/{guild_id}/commands",
    ]


async def test_subcommand_with_typed_options(h: Harness, table: FakeChannel, alice, bob) -> None:
    reply = await h.slash("game start", user=alice, channel=table, opponent=bob, rounds=3)
    assert reply.content == "alice vs bob: strike-force, 3 rounds"
    assert not reply.ephemeral


async def test_typos_in_tests_are_caught(h: Harness, table: FakeChannel, alice, bob) -> None:
    with pytest.raises(HarnessError, match="no option 'opponet'"):
        await h.slash("game start", user=alice, channel=table, opponet=bob)
    with pytest.raises(HarnessError, match="requires the options"):
        await h.slash("game start", user=alice, channel=table)
    with pytest.raises(HarnessError, match="needs a subcommand"):
        await h.slash("game", user=alice, channel=table)
    with pytest.raises(HarnessError, match="was not synced"):
        await h.slash("nope", user=alice, channel=table)


async def test_dynamic_item_buttons_edit_their_message(h: Harness, table: FakeChannel, alice, bob) -> None:
    reply = await h.slash("counter", user=alice, channel=table)
    assert reply.custom_ids == ["count:0"]
    pressed = await h.press("count:0", user=bob)
    assert pressed.response.type == 7
    assert pressed.content == "count 1"
    message = h.message(reply.main.message["id"])
    assert message["content"] == "count 1"
    assert [c["custom_id"] for row in message["components"] for c in row["components"]] == ["count:1"]


async def test_disabled_and_missing_buttons_cannot_be_pressed(h: Harness, table: FakeChannel, alice) -> None:
    await h.slash("counter", user=alice, channel=table)
    await h.press("count:0", user=alice)
    await h.press("count:1", user=alice)
    with pytest.raises(HarnessError, match="disabled"):
        await h.press("count:2", user=alice)
    with pytest.raises(HarnessError, match="no message shows"):
        await h.press("count:9", user=alice)


async def test_ephemeral_select_only_for_its_owner(h: Harness, table: FakeChannel, alice, bob) -> None:
    reply = await h.slash("pick", user=alice, channel=table)
    assert reply.ephemeral
    with pytest.raises(HarnessError, match="cannot see the ephemeral message"):
        await h.select("pick", ["a"], user=bob)
    with pytest.raises(HarnessError, match="offers"):
        await h.select("pick", ["z"], user=alice)
    picked = await h.select("pick", ["b"], user=alice)
    assert picked.content == "picked b" and picked.ephemeral


async def test_modal_from_a_command_and_from_a_button(h: Harness, table: FakeChannel, alice) -> None:
    reply = await h.slash("ask", user=alice, channel=table)
    assert reply.modal["title"] == "Your name"
    answered = await h.submit(reply.modal["custom_id"], {"name": "Alice"}, user=alice)
    assert answered.content == "hello Alice"
    with pytest.raises(HarnessError, match="takes 0 to 20 characters"):
        await h.submit(reply.modal["custom_id"], {"name": "A" * 21}, user=alice)

    await h.slash("pick", user=alice, channel=table)
    asked = await h.press("ask", user=alice)
    from_button = await h.submit(asked.modal["custom_id"], {"name": "Bo"}, user=alice)
    assert from_button.content == "hello Bo"


async def test_defer_followup_channel_message_pin_and_edit(h: Harness, table: FakeChannel, alice) -> None:
    reply = await h.slash("board", user=alice, channel=table)
    assert [s.kind for s in reply] == ["response", "followup", "message", "pin", "edit", "edit"]
    assert reply.response.type == 5
    # Discord: the first follow-up after a thinking defer fills the deferred message.
    original = reply.main.message
    assert reply.main.kind == "followup" and original["content"] == "board ready"
    assert h.message(original["id"])["content"] == "done"
    channel = [m["content"] for m in h.messages(table)]
    assert channel == ["done", "the board, edited"]
    assert [m["content"] for m in h.pins(table)] == ["the board, edited"]


async def test_ephemeral_defer_keeps_the_answer_private(h: Harness, table: FakeChannel, alice) -> None:
    reply = await h.slash("board", user=alice, channel=table, private=True)
    assert reply.ephemeral
    assert h.message(reply.main.message["id"])["flags"] & EPHEMERAL


async def test_a_game_error_becomes_an_ephemeral_reply(h: Harness, table: FakeChannel, alice) -> None:
    reply = await h.slash("refused", user=alice, channel=table)
    assert reply.content == "It is not your turn." and reply.ephemeral


async def test_a_bug_is_logged_and_apologised_for(h: Harness, table: FakeChannel, alice) -> None:
    with pytest.raises(InteractionFailed, match="boom"):
        await h.slash("broken", user=alice, channel=table)
    reply = await h.slash("broken", user=alice, channel=table, strict=False)
    assert reply.content == APOLOGY and reply.ephemeral
    assert any("boom" in error for error in reply.errors)


async def test_discord_limits_are_enforced(h: Harness, table: FakeChannel, alice) -> None:
    reply = await h.slash("huge", user=alice, channel=table, strict=False)
    assert any("2001 characters" in error for error in reply.errors)
    assert reply.content == APOLOGY


async def test_unanswered_interactions_fail(h: Harness, table: FakeChannel, alice) -> None:
    with pytest.raises(InteractionFailed, match="never answered /silent"):
        await h.slash("silent", user=alice, channel=table)


async def test_new_channels_are_known_to_the_bot(h: Harness, table: FakeChannel, alice) -> None:
    reply = await h.slash("twice", user=alice, channel=table)
    assert reply.content == "one"
    assert h.bot.get_channel(table.id).name == "table"
    assert [m["content"] for m in h.messages(table)] == ["one", "two"]
    assert "two" not in [m["content"] for m in h.messages()]
