"""The Discord client: loads the cogs, registers the persistent buttons and syncs the slash commands."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.plumbing.changes import ChangeStream
from bot.engine.chapter_approved.catalog import Catalog
from bot.services.judges import JudgeService
from bot.plumbing.pacing import GlobalPace
from bot.services.games import GameService
from bot.plumbing.settings import Settings
from bot.store.db import is_postgres, make_engine, make_sessionmaker, upgrade_database
from bot.store.picks import SecretPicks
from bot.store.desk import DeskRepository
from bot.store.shares import ShareRepository
from bot.services.tournaments import TournamentService
from bot.ui.armies import FullList
from bot.ui.controls import GameButton, GameSelect
from bot.ui.desk import GameDesk
from bot.ui.event_lists import ListDisposition
from bot.ui.errors import answer_failure, send_error
from bot.ui.forms import answer_form
from bot.ui.help import HelpMenu
from bot.ui.judges.buttons import CallJudgeButton, JudgeCallButton
from bot.ui.judges.desk import JudgeDesk
from bot.ui.history_view import HistoryPage
from bot.ui.ladder_view import StandingsPage
from bot.ui.open_challenge import ChallengeButton
from bot.ui.packs import PackViews
from bot.ui.sharing import ShareAgree
from bot.ui.table.fourth_edition import ArmiesDeployed, PickMission
from bot.ui.table.gt2020 import PickSecondaries, SelectSecondaries
from bot.web.discord_api import DiscordApi
from bot.web.limits import RateLimits
from bot.web.server import WebSurface
from bot.services.teams import TeamService
from bot.ui.teams.board import DYNAMIC_ITEMS as TEAM_ITEMS, follow_results
from bot.ui.tournament.requests import DeskAsks
from bot.ui.tournament.tables import TableThreads
from bot.ui.tournament import CheckInButton, CloseCheckInButton, ConfirmResult, DraftButton, NudgeButton

_log = logging.getLogger(__name__)
ENTRY_POINT = 4  # an application command's type: the Activity's launcher (PRIMARY_ENTRY_POINT)

# Cog modules loaded at start-up, one per feature.
EXTENSIONS: tuple[str, ...] = (
    "cogs.cards", "cogs.faq", "cogs.dice", "cogs.game", "cogs.play", "cogs.tournament", "cogs.mission", "cogs.help",
    "cogs.setup", "cogs.settings", "cogs.stats", "cogs.ladder", "cogs.army", "cogs.judge", "cogs.team")

# DynamicItem button classes (game boards) are listed here so that a press on a board posted before a
# restart still reaches its callback; each class's custom id carries what it needs.
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem], ...] = (
    GameButton, GameSelect, ConfirmResult, DraftButton, NudgeButton, CheckInButton, CloseCheckInButton, PickMission,
    ArmiesDeployed, SelectSecondaries, PickSecondaries, HelpMenu, ChallengeButton, HistoryPage, StandingsPage,
    FullList, ShareAgree, ListDisposition, CallJudgeButton, JudgeCallButton, *TEAM_ITEMS,
)

# The bot echoes user input (card names, dice): never let that ping @everyone or a role.
ALLOWED_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


class MissionTree(app_commands.CommandTree):
    """Turns a refused action into an ephemeral reply; anything unexpected is logged and apologised for."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        command = interaction.command.qualified_name if interaction.command else "?"
        if interaction.type is discord.InteractionType.autocomplete:
            _log.warning("Autocomplete for /%s failed: %s", command, error)
        elif isinstance(error, (app_commands.CheckFailure, app_commands.TransformerError)):
            await send_error(interaction, str(error))
        elif isinstance(error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
            _log.warning("Interaction for an out-of-date command: %s", error)
            await send_error(interaction, "This command has changed since Discord last loaded it; try again in a minute.")
        else:
            await answer_failure(interaction, original, f"/{command} for user {interaction.user.id}")


class MissionBot(commands.Bot):
    """Needs no privileged intent: everything happens through slash commands and components."""

    def __init__(
        self,
        settings: Settings,
        catalog: Catalog,
        *,
        extensions: Sequence[str] = EXTENSIONS,
        dynamic_items: Sequence[type[discord.ui.DynamicItem]] = DYNAMIC_ITEMS,
        **client_options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=discord.Intents.default(),
            tree_cls=MissionTree,
            allowed_mentions=ALLOWED_MENTIONS,
            **client_options,
        )
        self.settings = settings
        self.catalog = catalog
        self.extension_names = tuple(extensions)
        self.dynamic_items = tuple(dynamic_items)
        # Set in setup_hook, once the database is migrated; None until then (close() may come first).
        self.db_engine: AsyncEngine | None = None
        self.desk: GameDesk | None = None
        self.web: WebSurface | None = None  # the web pages, when WEB_PORT is set
        self.tables: TableThreads | None = None
        self.changes = ChangeStream()

    async def setup_hook(self) -> None:
        # Every REST request of the client waits its turn under Discord's global limit (not the interaction
        # responses: discord.py sends those through its webhook adapter, and Discord does not count them).
        self.http.request = GlobalPace(self.settings.requests_per_second).paced(self.http.request)  # type: ignore
        await upgrade_database(self.settings.database_url)
        self.db_engine = make_engine(self.settings.database_url)
        sessions = make_sessionmaker(self.db_engine)
        self.changes = ChangeStream()  # games' and events' changes, to every surface (bot/plumbing/changes.py)
        if is_postgres(self.settings.database_url):  # and those of the other processes
            from bot.plumbing.change_relay import PgRelay  # asyncpg: installed with the postgres extra
            await self.changes.connect(PgRelay(self.settings.database_url))
        self.service = GameService(self.catalog, sessions, changes=self.changes)
        if summarised := await self.service.backfill_summaries():
            _log.info("Summarised %d games that ended before this version, for history and stats", summarised)
        self.tournaments = TournamentService(sessions, changes=self.changes)
        self.teams = TeamService(self.tournaments)
        self.picks = SecretPicks(sessions)
        judges = JudgeService(sessions, changes=self.changes)
        desks = DeskRepository(sessions)
        views = PackViews(self.service.packs)
        if self.settings.web_port is not None:  # subscribed first: its pages never wait for the Discord board
            self.web = WebSurface(self.service, self.tournaments, ShareRepository(sessions), teams=self.teams,
                                  judges=judges, desks=desks, public_url=self.settings.web_url,
                                  limits=RateLimits.of(self.settings),
                                  discord=DiscordApi.of(self.settings, self.application_id))
            await self.web.start(self.settings.web_host, self.settings.web_port)
        self.desk = GameDesk(self, self.service, views, activity=self.web is not None and self.web.activity is not None)
        if self.web is not None and self.web.activity is not None:
            self.web.activity.table = self.desk  # the Activity posts and answers challenges through the desk
        # Judges at an event's tables: a Call a judge on each table's board, its calls on the venue screen.
        self.judges = JudgeDesk(self, judges, self.tournaments, self.desk.alarms)
        self.desk.board.extras.append(self.judges.board_button)
        self.changes.subscribe(partial(follow_results, self))  # a team match's board follows its games' results
        self.tables = TableThreads(self)  # an event's table threads, opened in the background, archived when done
        self.changes.subscribe(self.tables.on_change)
        # What organisers ask at the web desk that posts in Discord, done where this process serves the server.
        self.changes.subscribe(DeskAsks(self, self.tournaments, self.judges, desks).on_change)
        for name in self.extension_names:
            await self.load_extension(name)
        self.add_dynamic_items(*self.dynamic_items)
        self.add_listener(answer_form, "on_interaction")  # every form's submission is answered (bot/ui/forms.py)
        if self.settings.syncs_commands:
            await self.sync_commands()

    async def close(self) -> None:
        if self.web is not None:
            await self.web.stop()
        if self.desk is not None:
            self.desk.alarms.stop()
            await self.desk.idle()
        if self.tables is not None:
            await self.tables.stop()  # a restart resumes the openings under way
        await self.changes.close()
        await super().close()
        if self.db_engine is not None:
            await self.db_engine.dispose()

    async def sync_commands(self) -> None:
        """Publish the slash commands: to the test server at once when set, else globally."""
        if self.settings.test_guild_id is not None:
            guild = discord.Object(id=self.settings.test_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            _log.info("Synced %d commands to test server %s", len(synced), guild.id)
        else:
            synced = await self._sync_globally()
            _log.info("Synced %d commands globally (Discord may take a while to show them)", len(synced))

    async def _sync_globally(self) -> list[Any]:
        """The tree's commands, and the Activity's Entry Point command if the application has one: Discord refuses a
        bulk update that would delete it (50240), and discord.py's sync knows no such command."""
        assert self.application_id is not None
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands()]
        payload += [c for c in await self.http.get_global_commands(self.application_id) if c["type"] == ENTRY_POINT]
        return await self.http.bulk_upsert_global_commands(self.application_id, payload=payload)


class ShardedMissionBot(MissionBot, commands.AutoShardedBot):
    """The same bot over the shards of SHARD_IDS: discord.py opens one gateway connection per shard, and
    Discord sends each server's interactions on the connection of its shard, (server id >> 22) % SHARD_COUNT.
    Other processes serve the other shards over the same database."""


def make_bot(settings: Settings, catalog: Catalog) -> MissionBot:
    """The bot the settings ask for: one connection as usual, or the shards SHARD_COUNT/SHARD_IDS name."""
    if settings.shard_count is None or settings.shard_ids is None:
        return MissionBot(settings, catalog)
    return ShardedMissionBot(settings, catalog, shard_count=settings.shard_count, shard_ids=list(settings.shard_ids))
