"""Tournament messages: pairings, standings, results, CSV exports, and the button that confirms a result.

Big events do not fit one embed (25 fields, 6,000 characters) nor one message (10 embeds, 6,000
characters together): the builders return a list of messages, each a list of embeds within the limits.
"""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import discord

from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import GameSetup, GameState
from bot.engine.errors import GameError
from bot.engine.models import Army
from bot.engine.rng import derive_rng, new_seed
from bot.engine.tournament import event as t
from bot.store.tournament_repository import PendingReport, TableGame, TournamentRecord
from bot.ui.armies import list_message
from bot.ui.challenge import offer_game, open_thread
from bot.ui.errors import answer_failure
from bot.ui.text import title_case

if TYPE_CHECKING:
    from bot.tournament_service import TournamentService

_log = logging.getLogger(__name__)

COLOUR = discord.Colour.dark_gold()
EMBED_FIELDS = 25
EMBED_CHARS = 6000
MESSAGE_EMBEDS = 10
MESSAGE_CHARS = 6000  # all the embeds of one message together
DESCRIPTION_CHARS = 4096
MESSAGE_CONTENT_CHARS = 2000
MESSAGE_USERS = 100  # allowed_mentions.users holds at most 100 ids
OUTCOME_WORDS = {t.Outcome.A_WINS: "A wins", t.Outcome.B_WINS: "B wins", t.Outcome.DRAW: "draw"}
# A result not decided by the score, as the standings note it: (for the winner, for the loser).
REASON_NOTES = {
    t.Reason.CONCESSION: ("won by concession", "conceded"),
    t.Reason.NO_SHOW: ("won by no-show", "no-show"),
    t.Reason.AS_ENTERED: ("as entered", "as entered"),
}

DRAFT_TEMPLATE = r"mdtd:(?P<tournament>[0-9]+):(?P<round>[0-9]+):(?P<draw>[0-9]+):(?P<action>publish|repair)"
CHECKIN_TEMPLATE = r"mdtk:(?P<tournament>[0-9]+)"
CLOSE_TEMPLATE = r"mdtkc:(?P<tournament>[0-9]+):(?P<digest>[0-9a-f]{12})"
NUDGE_TEMPLATE = r"mdtn:(?P<tournament>[0-9]+):(?P<round>[0-9]+)"
CONFIRM_TEMPLATE = r"mdt:(?P<tournament>[0-9]+):(?P<round>[0-9]+):(?P<table>[0-9]+):(?P<digest>[0-9a-f]{12})"


def is_organiser(interaction: discord.Interaction, record: TournamentRecord | None) -> bool:
    """Manage Server, or the event's organiser role."""
    if interaction.permissions.manage_guild:
        return True
    role = record.organiser_role_id if record is not None else None
    user = interaction.user
    return role is not None and isinstance(user, discord.Member) and user.get_role(role) is not None


def mention(player: str) -> str:
    return f"<@{player}>"


def name_of(record: TournamentRecord, player: str) -> str:
    return record.state.names.get(player, player)


def army_of(record: TournamentRecord, player: str) -> Army | None:
    entry = record.state.lists.get(player)
    return entry.army if entry else None


def faction_note(record: TournamentRecord, player: str) -> str:
    """' (Space Wolves)' after a player's name where their list is in, else nothing."""
    army = army_of(record, player)
    return f" ({army.faction_name})" if army else ""


def score_line(pairing: t.Pairing, result: t.Result | PendingReport) -> str:
    """'<@a> 72 – 65 <@b>: <@a> wins', or '... <@a> wins (<@b> conceded)'."""
    winner = {t.Outcome.A_WINS: pairing.a, t.Outcome.B_WINS: pairing.b}.get(result.outcome)
    loser = pairing.b if winner == pairing.a else pairing.a
    verdict = f"{mention(winner)} wins" if winner else "a draw"
    why = {t.Reason.CONCESSION: f" ({mention(loser)} conceded)",
           t.Reason.NO_SHOW: f" ({mention(loser)} did not show)"}.get(result.reason, "")
    return f"{mention(pairing.a)} **{result.vp_a}** – **{result.vp_b}** {mention(pairing.b)}: {verdict}{why}"


def report_text(record: TournamentRecord, pairing: t.Pairing, report: PendingReport) -> str:
    opponent = pairing.b if report.reporter == pairing.a else pairing.a
    return (
        f"{mention(opponent)}, {mention(report.reporter)} reports **{record.name}** round {report.round_number}, "
        f"table {report.table}: {score_line(pairing, report)}. "
        "Press **Confirm** if that is right; if not, report the right result with `/tournament report`."
    )


def mission_title(catalog: Catalog, letter: str | None) -> str:
    """A round's mission: its pool mission, or (CA 2026-27) each table's from its players' Force Dispositions."""
    if letter is None:
        return "each table's Primary Missions from its players' Force Dispositions"
    pool = catalog.pool_mission(letter)
    return (f"Mission {letter}: {title_case(catalog.primary(pool.primary).name)} / "
            f"{title_case(catalog.deployment(pool.deployment).name)}")


def event_catalog(client: discord.Client, record: TournamentRecord) -> Catalog:
    """The decks of the Chapter Approved season the event plays."""
    return client.service.packs.rules(record.state.pack).catalog  # type: ignore[attr-defined]


@dataclass(frozen=True)
class TableMissions:
    """CA 2026-27: a table's Primary Missions, each player's from both registered Force Dispositions (Twists are
    not used at events), and the layout of the pairing, drawn for the table from the event's secret seed."""

    dispositions: tuple[str, str]
    primaries: tuple[str, str]
    layout: str

    @classmethod
    def of(cls, catalog: Catalog, record: TournamentRecord, round_number: int, pairing: t.Pairing) -> TableMissions:
        a, b = record.state.dispositions[pairing.a], record.state.dispositions[pairing.b]
        layouts = catalog.event_pairing(a, b).layouts
        letter = derive_rng(record.seed, f"layout:{round_number}:{pairing.table}").choice(layouts)
        return cls((a, b), (catalog.primary_for(a, b).name, catalog.primary_for(b, a).name), letter)

    def text(self) -> str:
        return f"{title_case(self.primaries[0])} vs {title_case(self.primaries[1])}, layout {self.layout}"


def record_text(wins: int, draws: int, losses: int) -> str:
    """A record as players write it: wins-losses, with draws only when there are any (W-L-D): 3-1, 2-1-1."""
    return f"{wins}-{losses}-{draws}" if draws else f"{wins}-{losses}"


@dataclass(frozen=True)
class Announcement:
    """One public message of a round's announcement: the mentions are in the content (embeds never
    notify) and `users` are exactly the people it mentions, the only ones Discord may notify."""

    content: str
    embeds: list[discord.Embed]
    users: list[int]

    @property
    def allowed_mentions(self) -> discord.AllowedMentions:
        return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                       users=[discord.Object(u) for u in self.users])


def announcement_messages(catalog: Catalog, record: TournamentRecord) -> list[Announcement]:
    """The current round: the mission with its terrain layouts in an embed, then the bye and every table in
    the content, split so that no message exceeds 2,000 characters nor mentions more than 100 users."""
    current = record.state.event.rounds[-1]
    title = f"📣 **{discord.utils.escape_markdown(record.name)}**: round {current.number} pairings"
    lines: list[tuple[str, list[int]]] = []
    if (bye := current.pairings.bye) is not None:
        lines.append((f"**Bye**: {mention(bye.a)} scores a win and {bye.vp_a}VP", [int(bye.a)]))
    for p in current.pairings.tables:
        missions = "" if current.mission else f" · {TableMissions.of(catalog, record, current.number, p).text()}"
        lines.append((f"**Table {p.table}**: {mention(p.a)}{faction_note(record, p.a)} vs "
                      f"{mention(p.b)}{faction_note(record, p.b)}{missions}", [int(p.a), int(p.b)]))
    return pack_mentions(Announcement(title, [round_embed(catalog, record)], []), lines)


def pack_mentions(first: Announcement, lines: list[tuple[str, list[int]]]) -> list[Announcement]:
    """`first`, then lines (each with the users it mentions) added to messages of at most 2,000 characters
    and 100 mentioned users."""
    messages = [first]
    for line, users in lines:
        last = messages[-1]
        if len(last.content) + 1 + len(line) > MESSAGE_CONTENT_CHARS or len(last.users) + len(users) > MESSAGE_USERS:
            messages.append(Announcement(line, [], users))
        else:
            messages[-1] = Announcement(f"{last.content}\n{line}", last.embeds, [*last.users, *users])
    return messages


def status_lines(record: TournamentRecord) -> list[str]:
    """Every table of the current round: confirmed, reported and awaiting whom, or nothing yet."""
    current = record.state.event.rounds[-1]
    results = {r.table: r for r in current.results}
    pending = {p.table: p for p in record.state.pending if p.round_number == current.number}

    def name(player: str) -> str:
        return discord.utils.escape_markdown(name_of(record, player))

    lines = []
    for p in current.pairings.tables:
        if (done := results.get(p.table)) is not None:
            state = f"✅ {done.vp_a}–{done.vp_b}, {OUTCOME_WORDS[done.outcome]}, confirmed"
        elif (report := pending.get(p.table)) is not None:
            waiting = p.b if report.reporter == p.a else p.a
            state = f"⏳ reported by {name(report.reporter)}, awaiting {name(waiting)}"
        else:
            state = "❌ nothing yet"
        lines.append(f"**Table {p.table}** ({name(p.a)} vs {name(p.b)}): {state}")
    return lines


def nudge_messages(record: TournamentRecord) -> list[Announcement]:
    """Mentions of exactly the players the current round still waits for: the opponent who has a report to
    confirm, or both players of a table with nothing reported."""
    current = record.state.event.rounds[-1]
    pending = {p.table: p for p in record.state.pending if p.round_number == current.number}
    lines: list[tuple[str, list[int]]] = []
    for table in t.missing_tables(current):
        p = next(x for x in current.pairings.tables if x.table == table)
        if (report := pending.get(table)) is not None:
            waiting = p.b if report.reporter == p.a else p.a
            reporter = discord.utils.escape_markdown(name_of(record, report.reporter))  # not pinged: they reported
            lines.append((f"**Table {table}**: {mention(waiting)}, please confirm {reporter}'s report (the "
                          "**Confirm** button on it).", [int(waiting)]))
        else:
            lines.append((f"**Table {table}**: {mention(p.a)} {mention(p.b)}, please report your result with "
                          "`/tournament report`.", [int(p.a), int(p.b)]))
    if not lines:
        return []
    title = f"⏰ **{discord.utils.escape_markdown(record.name)}** round {current.number}: results still missing."
    return pack_mentions(Announcement(title, [], []), lines)


def draft_messages(catalog: Catalog, record: TournamentRecord) -> list[list[discord.Embed]]:
    """The draft round as only the organiser sees it: the mission and layouts, then the bye and every table
    with each player's record before the round."""
    event = record.state.event
    current = event.rounds[-1]
    before = t.records(event.model_copy(update={"rounds": event.rounds[:-1]}))

    def who(player: str) -> str:
        r = before[player]
        return f"{discord.utils.escape_markdown(name_of(record, player))} ({record_text(r.wins, r.draws, r.losses)})"

    lines = [f"**Bye**: {who(current.pairings.bye.a)}"] if current.pairings.bye else []
    lines += [f"**Table {p.table}**: {who(p.a)} vs {who(p.b)}" for p in current.pairings.tables]
    header = round_embed(catalog, record)
    header.title = f"Draft: {header.title}"
    header.set_footer(text="Only you see this. Publish announces it; Re-pair draws again among equal players.")
    return pack_embeds([header, *line_embeds(lines, f"{len(current.pairings.tables)} tables")])


def round_embed(catalog: Catalog, record: TournamentRecord) -> discord.Embed:
    """The current round's mission: primary, deployment and terrain layouts, and the bye."""
    event = record.state.event
    current = event.rounds[-1]
    header = discord.Embed(
        title=f"{record.name}: round {current.number} of {record.rounds_planned}",
        description=f"**{mission_title(catalog, current.mission)}**\nLook up each part with `/card`.",
        colour=COLOUR,
    )
    if current.mission is not None:
        pool = catalog.pool_mission(current.mission)
        header.add_field(name="Mission", value=current.mission, inline=True)
        header.add_field(name="Primary Mission", value=title_case(catalog.primary(pool.primary).name), inline=True)
        header.add_field(name="Deployment", value=title_case(catalog.deployment(pool.deployment).name), inline=True)
        header.add_field(name="Terrain layouts",
                         value=", ".join(title_case(catalog.layout(x).name) for x in pool.layouts), inline=False)
    if current.pairings.bye is not None:
        header.add_field(name="Bye", value=f"{mention(current.pairings.bye.a)} scores a win and "
                                           f"{current.pairings.bye.vp_a}VP", inline=False)
    header.set_footer(text="Report your result with /tournament report my-vp: opponent-vp:")
    return header


def result_notes(event: t.Tournament) -> dict[str, list[str]]:
    """Each player's games not decided by the score: 'R2 conceded', 'R3 won by no-show'."""
    notes: dict[str, list[str]] = {}
    for r in event.rounds:
        for res in sorted(r.results, key=lambda x: x.table):
            if res.reason not in REASON_NOTES:
                continue
            won, lost = REASON_NOTES[res.reason]
            loser = t.loser(res)
            for player in (res.a, res.b):
                assert player is not None  # a bye is decided by the score
                notes.setdefault(player, []).append(f"R{r.number} {lost if player == loser else won}")
    return notes


def own_standing(record: TournamentRecord, player: str) -> str:
    """A player's own line, for the standings they get privately."""
    table = t.standings(record.state.event)
    mine = next((s for s in table if s.player == player), None)
    if mine is None:
        return "You are not registered in this event."
    return (f"You are **{mine.rank}** of {len(table)}: {record_text(mine.wins, mine.draws, mine.losses)}, "
            f"{mine.vp} VP.")


def standings_messages(record: TournamentRecord) -> list[list[discord.Embed]]:
    event = record.state.event
    played = len(event.rounds)
    notes = result_notes(event)
    lines = [
        f"`{s.rank:>4}` {discord.utils.escape_markdown(name_of(record, s.player))}{faction_note(record, s.player)} · "
        f"{record_text(s.wins, s.draws, s.losses)} · {s.opponents_win_pct:.2f}% · {s.vp} VP"
        f"{' · bye' if s.had_bye else ''}{' · dropped' if s.dropped else ''}"
        f"{''.join(f' · {n}' for n in notes.get(s.player, ()))}"
        for s in t.standings(event)
    ]
    title = f"{record.name}: standings after round {played}" if played else f"{record.name}: registered players"
    embeds = line_embeds(lines or ["No players yet."], title)
    embeds[-1].set_footer(text="Rank · player · record W-L (W-L-D when there are draws) · opponents' win % · "
                               "total VP")
    return pack_embeds(embeds)


def line_embeds(lines: list[str], title: str) -> list[discord.Embed]:
    """Lines spread over as many embed descriptions as they need; the title on the first only."""
    pages: list[list[str]] = [[]]
    size = 0
    for line in lines:
        if pages[-1] and size + len(line) + 1 > DESCRIPTION_CHARS - len(title) - 100:
            pages.append([])
            size = 0
        pages[-1].append(line)
        size += len(line) + 1
    return [
        discord.Embed(title=title if i == 0 else None, description="\n".join(page), colour=COLOUR)
        for i, page in enumerate(pages)
    ]


def pack_embeds(embeds: Iterable[discord.Embed]) -> list[list[discord.Embed]]:
    """Group embeds into messages: at most 10 embeds and 6,000 characters to a message."""
    messages: list[list[discord.Embed]] = []
    size = 0
    for embed in embeds:
        if len(embed) > EMBED_CHARS or len(embed.fields) > EMBED_FIELDS:
            raise ValueError("an embed over Discord's limits")
        if not messages or len(messages[-1]) == MESSAGE_EMBEDS or size + len(embed) > MESSAGE_CHARS:
            messages.append([])
            size = 0
        messages[-1].append(embed)
        size += len(embed)
    return messages


def standings_csv(record: TournamentRecord) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["rank", "player_id", "name", "record", "wins", "draws", "losses", "opponents_win_pct", "vp",
                     "path", "had_bye", "dropped", "notes", "faction", "detachment", "list_points", "list_flags"])
    notes = result_notes(record.state.event)
    for s in t.standings(record.state.event):
        entry = record.state.lists.get(s.player)
        army = entry.army if entry else None
        writer.writerow([s.rank, s.player, name_of(record, s.player), record_text(s.wins, s.draws, s.losses),
                         s.wins, s.draws, s.losses,
                         f"{s.opponents_win_pct:.2f}", s.vp, s.path, s.had_bye, s.dropped,
                         "; ".join(notes.get(s.player, ())), army.faction_name if army else "",
                         (army.detachment_name or "") if army else "",
                         army.points if army and army.points is not None else "", entry.flags if entry else ""])
    return out.getvalue()


def results_csv(record: TournamentRecord) -> str:
    """Every game of every round, in table order; a bye is table 0 with no player B."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["round", "mission", "table", "player_a_id", "player_a", "player_b_id", "player_b",
                     "outcome", "vp_a", "vp_b", "reason", "faction_a", "faction_b"])

    def faction(player: str | None) -> str:
        army = army_of(record, player) if player else None
        return army.faction_name if army else ""

    for r in record.state.event.rounds:
        for res in sorted(r.results, key=lambda x: x.table):
            writer.writerow([r.number, r.mission or "", res.table, res.a, name_of(record, res.a), res.b or "",
                             name_of(record, res.b) if res.b else "", res.outcome.value, res.vp_a, res.vp_b,
                             res.reason.value, faction(res.a), faction(res.b)])
    return out.getvalue()


def csv_file(text: str, filename: str) -> discord.File:
    return discord.File(io.BytesIO(text.encode("utf-8")), filename=filename)


def _service(interaction: discord.Interaction) -> TournamentService:
    return interaction.client.tournaments  # type: ignore[attr-defined]


class ConfirmResult(discord.ui.DynamicItem[discord.ui.Button], template=CONFIRM_TEMPLATE):
    """The opponent's confirmation of one exact report: the custom id carries its digest, so a button
    for a report that was replaced, corrected or belongs to an earlier round is refused."""

    def __init__(self, tournament: int, round_number: int, table: int, digest: str) -> None:
        super().__init__(discord.ui.Button(
            label="Confirm", style=discord.ButtonStyle.success,
            custom_id=f"mdt:{tournament}:{round_number}:{table}:{digest}",
        ))
        self.tournament, self.round_number, self.table, self.digest = tournament, round_number, table, digest

    @classmethod
    async def from_custom_id(cls, interaction, item, match) -> ConfirmResult:
        return cls(int(match["tournament"]), int(match["round"]), int(match["table"]), match["digest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            service = _service(interaction)
            organiser = is_organiser(interaction, await service.get(self.tournament))
            done = await service.confirm(self.tournament, self.round_number, self.table, self.digest,
                                         str(interaction.user.id), organiser=organiser)
            assert done.result is not None
            text = (f"✅ **{done.record.name}** round {self.round_number}, table {self.table}: "
                    f"{score_line(done.table, done.result)}. "
                    f"Confirmed by {interaction.user.mention}.")
            await interaction.response.edit_message(content=text, view=None,
                                                    allowed_mentions=discord.AllowedMentions.none())
        except Exception as exc:
            await answer_failure(interaction, exc, f"Confirming a result of tournament {self.tournament}")


async def announce(client: discord.Client, record: TournamentRecord, fallback: discord.abc.Messageable | None,
                   *, tables_pinged: bool = False) -> tuple[str, int]:
    """Post the current round in the event's announcement channel (else `fallback`): where, and how many
    messages. Refused, posting nothing, while the round is a draft. `tables_pinged`: each table's players are
    pinged in their table thread, so here they are named without a notification (each player is pinged once)."""
    current = record.state.event.rounds[-1]
    if not current.published:
        raise GameError(f"Round {current.number} is still a draft: publish it from `/tournament pair` first.")
    messages = announcement_messages(event_catalog(client, record), record)
    if tables_pinged:
        seated = {int(p) for table in current.pairings.tables for p in (table.a, table.b)}
        messages = [replace(m, users=[u for u in m.users if u not in seated]) for m in messages]
    return await post(client, record, fallback, messages)


async def post(client: discord.Client, record: TournamentRecord, fallback: discord.abc.Messageable | None,
               messages: list[Announcement]) -> tuple[str, int]:
    """Post messages in the event's announcement channel (else `fallback`): where, and how many."""
    channel = await announcement_channel(client, record, fallback)
    where = f"<#{channel.id}>"  # type: ignore[attr-defined]
    try:
        for message in messages:
            await channel.send(message.content, embeds=message.embeds, allowed_mentions=message.allowed_mentions)
    except discord.Forbidden:
        raise GameError(f"I cannot post in {where}: check my permissions there.") from None
    return where, len(messages)


async def announcement_channel(client: discord.Client, record: TournamentRecord,
                               fallback: discord.abc.Messageable | None) -> discord.abc.Messageable:
    """The event's announcement channel, else `fallback`."""
    channel = fallback
    if record.announce_channel_id is not None:
        try:
            channel = client.get_channel(record.announce_channel_id) or await client.fetch_channel(
                record.announce_channel_id)
        except (discord.NotFound, discord.Forbidden):
            raise GameError(f"I cannot reach the announcement channel <#{record.announce_channel_id}>: "
                            "check it still exists and that I can see it.") from None
    assert isinstance(channel, discord.abc.Messageable)
    return channel


def table_thread_name(record: TournamentRecord, round_number: int, pairing: t.Pairing) -> str:
    return f"R{round_number} · T{pairing.table} · {name_of(record, pairing.a)} vs {name_of(record, pairing.b)}"


async def open_table_threads(client: discord.Client, record: TournamentRecord,
                             fallback: discord.abc.Messageable | None) -> tuple[str, int]:
    """One thread per table of the current round (the bye gets none) in the announcement channel (else
    `fallback`), with both players in it and their Strike Force game on the round's mission waiting for
    the second player to accept: where, and how many threads."""
    channel = await announcement_channel(client, record, fallback)
    where = f"<#{channel.id}>"  # type: ignore[attr-defined]
    if not isinstance(channel, discord.TextChannel):
        raise GameError(f"Tables get threads only from a text channel; {where} is not one, so play "
                        "the games with `/game new` and report them.")
    current = record.state.event.rounds[-1]
    catalog = event_catalog(client, record)
    links: list[TableGame] = []
    try:
        for pairing in current.pairings.tables:
            players = [discord.Object(int(pairing.a)), discord.Object(int(pairing.b))]
            place = await open_thread(channel, table_thread_name(record, current.number, pairing), players,
                                      f"{record.name}: round {current.number}")
            names = (name_of(record, pairing.a), name_of(record, pairing.b))
            armies = (army_of(record, pairing.a), army_of(record, pairing.b))
            if current.mission is not None:
                setup = GameSetup(size="strike-force", players=(pairing.a, pairing.b), names=names,
                                  mission=current.mission, seed=new_seed(), armies=armies)
                missions = mission_title(catalog, current.mission)
            else:  # CA 2026-27: the Force Dispositions they registered, the layout drawn for the table
                table = TableMissions.of(catalog, record, current.number, pairing)
                setup = GameSetup(size="strike-force", players=(pairing.a, pairing.b), names=names,
                                  pack=record.state.pack, challenger_cards=False, dispositions=table.dispositions,
                                  layout=table.layout, seed=new_seed(), armies=armies)
                missions = table.text()
            content = (f"{mention(pairing.a)} vs {mention(pairing.b)}: round {current.number}, table "
                       f"{pairing.table} of **{discord.utils.escape_markdown(record.name)}**, "
                       f"{missions}. Your game is ready: "
                       f"{discord.utils.escape_markdown(name_of(record, pairing.b))} accepts it to begin. "
                       "When it ends, its result goes to the standings by itself.")
            game, message = await offer_game(client, channel.guild.id, place, setup, content, players, thread=True)
            links.append(TableGame(round_number=current.number, table=pairing.table, game_id=game.game_id,
                                   thread_id=place.id))
            await place.send(**message)
            if record.state.list_policy == "open":  # each player sees their opponent's list at pairing
                await post_lists(client, place, record, (pairing.a, pairing.b))
    except discord.Forbidden:
        raise GameError(f"I cannot open threads in {where}: check my permissions there.") from None
    finally:
        if links:  # the games already set up report back even when a later thread could not be opened
            await client.tournaments.link_games(record.id, links)  # type: ignore[attr-defined]
    return where, len(current.pairings.tables)


async def post_lists(client: discord.Client, place: discord.abc.Messageable, record: TournamentRecord,
                     players: tuple[str, ...]) -> None:
    """Each player's list at a glance (its full text a press away), naming and notifying nobody."""
    for player in players:
        entry = record.state.lists.get(player)
        lists = client.service.lists  # type: ignore[attr-defined]
        found = await lists.get(entry.army.list_id) if entry and entry.army.list_id else None
        if found is not None:
            await place.send(**list_message(found[1], name_of(record, player), found[0].id))


async def archive_table_threads(client: discord.Client, record: TournamentRecord, round_number: int) -> int:
    """Archive the table threads of a closed round (its games stay playable: a press unarchives the
    thread): how many were archived."""
    archived = 0
    for link in record.state.table_games:
        if link.round_number != round_number:
            continue
        try:
            thread = client.get_channel(link.thread_id) or await client.fetch_channel(link.thread_id)
            if isinstance(thread, discord.Thread) and not thread.archived:
                await thread.edit(archived=True, reason=f"{record.name}: round {round_number} is over")
                archived += 1
        except (discord.NotFound, discord.Forbidden):  # deleted, or out of reach: nothing to tidy
            _log.info("Table thread %s of tournament %s is gone", link.thread_id, record.id)
    return archived


async def collect_table_games(client: discord.Client, record: TournamentRecord) -> TournamentRecord:
    """Report the table games of the current round that ended without reaching the standings (the bot
    stopped between the two): the record as it is now."""
    current = record.state.event.rounds[-1]
    reported = {r.table for r in current.results}
    late = [g for g in record.state.table_games if g.round_number == current.number and g.table not in reported]
    for link in late:
        game = await client.service.get_state(game_id=link.game_id)  # type: ignore[attr-defined]
        if game.state.result is not None:
            thread = client.get_partial_messageable(link.thread_id)
            await report_table_game(client, thread, record.guild_id, link.game_id, game.state)
    return await client.tournaments.get(record.id) if late else record  # type: ignore[attr-defined]


async def report_table_game(client: discord.Client, channel: discord.abc.Messageable, guild_id: int,
                            game_id: int, state: GameState) -> None:
    """A table game ended: its result goes to the tournament, and the thread says what was recorded."""
    result = state.result
    if result is None or result.reason not in ("battle", "concession"):
        return  # an abandoned game has no result; a win on time is the organiser's to enter
    report = await client.tournaments.game_ended(  # type: ignore[attr-defined]
        guild_id, game_id, result.vp, result.winner, conceded=result.reason == "concession")
    if report is not None:  # a table of an event: a ladder may leave it out
        await client.service.history.set_tournament(game_id, report.record.id)  # type: ignore[attr-defined]
    if report is None or (report.result is None and report.clash is None):
        return
    event = report.record.state.event
    pairing = next(p for p in event.rounds[report.link.round_number - 1].pairings.tables
                   if p.table == report.link.table)
    where = f"**{discord.utils.escape_markdown(report.record.name)}** round {report.link.round_number}, " \
            f"table {report.link.table}"
    if report.result is not None:
        text = (f"Recorded for {where}: {score_line(pairing, report.result)}. Both of you played it, so it "
                "counts as confirmed; an organiser can still correct it.")
    else:
        assert report.clash is not None
        text = (f"This game ended {result.vp[pairing.a]}–{result.vp[pairing.b]}, but {where} already has a "
                f"confirmed result: {score_line(pairing, report.clash)}. The standings keep that one; an "
                f"organiser can correct it with `/tournament result round:{report.link.round_number}`.")
    await channel.send(text, allowed_mentions=discord.AllowedMentions(
        users=[discord.Object(int(pairing.a)), discord.Object(int(pairing.b))]))


def announced_text(record: TournamentRecord, where: str, count: int) -> str:
    return (f"Posted the round {record.state.event.rounds[-1].number} pairings in {where} "
            f"({count} message{'s' if count != 1 else ''}).")


def draft_view(record: TournamentRecord) -> discord.ui.View:
    current = record.state.event.rounds[-1]
    view = discord.ui.View(timeout=None)
    for action in ("publish", "repair"):
        view.add_item(DraftButton(record.id, current.number, current.draw, action))
    return view


async def send_draft(interaction: discord.Interaction, record: TournamentRecord) -> None:
    """The draft round, privately to the organiser (after a deferred response), buttons on its last message."""
    catalog = event_catalog(interaction.client, record)
    current = record.state.event.rounds[-1]
    redrawn = f" (draw {current.draw + 1})" if current.draw else ""
    intro = (f"Round {current.number} of **{discord.utils.escape_markdown(record.name)}** is paired{redrawn}: "
             f"{len(current.pairings.tables)} tables, {mission_title(catalog, current.mission)}. Only you see this "
             "draft: **Publish** announces it (players are notified); **Re-pair** draws again among equal players.")
    messages = draft_messages(catalog, record)
    for i, embeds in enumerate(messages):
        last = i == len(messages) - 1
        await interaction.followup.send(intro if i == 0 else "", embeds=embeds, ephemeral=True,
                                        allowed_mentions=discord.AllowedMentions.none(),
                                        **({"view": draft_view(record)} if last else {}))


class DraftButton(discord.ui.DynamicItem[discord.ui.Button], template=DRAFT_TEMPLATE):
    """Publish or Re-pair one exact draw of a draft round (organisers): a button for a draw that was
    re-paired or published since is refused."""

    def __init__(self, tournament: int, round_number: int, draw: int, action: str) -> None:
        publish = action == "publish"
        super().__init__(discord.ui.Button(
            label="Publish" if publish else "Re-pair",
            style=discord.ButtonStyle.success if publish else discord.ButtonStyle.secondary,
            custom_id=f"mdtd:{tournament}:{round_number}:{draw}:{action}",
        ))
        self.tournament, self.round_number, self.draw, self.action = tournament, round_number, draw, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match) -> DraftButton:
        return cls(int(match["tournament"]), int(match["round"]), int(match["draw"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            service = _service(interaction)
            if not is_organiser(interaction, await service.get(self.tournament)):
                raise GameError("Only an organiser (Manage Server, or the event's organiser role) can publish or "
                                "re-pair a round.")
            await interaction.response.defer(ephemeral=True, thinking=True)  # pairing a big field takes a moment
            if self.action == "repair":
                await send_draft(interaction, await service.repair(self.tournament, self.round_number, self.draw))
                return
            record = await service.publish(self.tournament, self.round_number, self.draw)
            threads = isinstance(await announcement_channel(interaction.client, record, interaction.channel),
                                 discord.TextChannel)  # type: ignore[arg-type]
            where, count = await announce(interaction.client, record, interaction.channel,  # type: ignore[arg-type]
                                          tables_pinged=threads)
            _, threads = await open_table_threads(interaction.client, record, interaction.channel)  # type: ignore[arg-type]
            archived = await archive_table_threads(interaction.client, record, self.round_number - 1)
            tidied = f" Archived the {archived} table threads of round {self.round_number - 1}." if archived else ""
            await interaction.followup.send(f"Round {self.round_number} is published. "
                                            f"{announced_text(record, where, count)} Opened {threads} table "
                                            f"thread{'s' if threads != 1 else ''} there, each with its game "
                                            f"ready.{tidied}", ephemeral=True)
        except Exception as exc:
            await answer_failure(interaction, exc, f"The draft of tournament {self.tournament}")


class NudgeButton(discord.ui.DynamicItem[discord.ui.Button], template=NUDGE_TEMPLATE):
    """An organiser's reminder to the players a round still waits for, mentioning exactly them."""

    def __init__(self, tournament: int, round_number: int) -> None:
        super().__init__(discord.ui.Button(label="Nudge them", style=discord.ButtonStyle.primary,
                                           custom_id=f"mdtn:{tournament}:{round_number}"))
        self.tournament, self.round_number = tournament, round_number

    @classmethod
    async def from_custom_id(cls, interaction, item, match) -> NudgeButton:
        return cls(int(match["tournament"]), int(match["round"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            record = await _service(interaction).get(self.tournament)
            if not is_organiser(interaction, record):
                raise GameError("Only an organiser (Manage Server, or the event's organiser role) can nudge players.")
            if len(record.state.event.rounds) != self.round_number:
                raise GameError(f"Round {self.round_number} is over: `/tournament status` shows the current one.")
            messages = nudge_messages(record)
            if not messages:
                raise GameError(f"Every table of round {self.round_number} has its result: nobody to nudge.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            where, _ = await post(interaction.client, record, interaction.channel, messages)  # type: ignore[arg-type]
            count = sum(len(m.users) for m in messages)
            await interaction.followup.send(f"Nudged {count} player{'s' if count != 1 else ''} in {where}.",
                                            ephemeral=True)
        except Exception as exc:
            await answer_failure(interaction, exc, f"Nudging the players of tournament {self.tournament}")


class CheckInButton(discord.ui.DynamicItem[discord.ui.Button], template=CHECKIN_TEMPLATE):
    """A registered player's check-in, on the public check-in message."""

    def __init__(self, tournament: int) -> None:
        super().__init__(discord.ui.Button(label="Check in", style=discord.ButtonStyle.success,
                                           custom_id=f"mdtk:{tournament}"))
        self.tournament = tournament

    @classmethod
    async def from_custom_id(cls, interaction, item, match) -> CheckInButton:
        return cls(int(match["tournament"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            saved = await _service(interaction).check_in(self.tournament, str(interaction.user.id))
            await interaction.response.send_message(f"✅ You are checked in for **{saved.name}**.", ephemeral=True)
        except Exception as exc:
            await answer_failure(interaction, exc, f"Checking in to tournament {self.tournament}")


class CloseCheckInButton(discord.ui.DynamicItem[discord.ui.Button], template=CLOSE_TEMPLATE):
    """The organiser's confirmation: close check-in and drop exactly the players they were shown."""

    def __init__(self, tournament: int, digest: str) -> None:
        super().__init__(discord.ui.Button(label="Drop them and close check-in", style=discord.ButtonStyle.danger,
                                           custom_id=f"mdtkc:{tournament}:{digest}"))
        self.tournament, self.digest = tournament, digest

    @classmethod
    async def from_custom_id(cls, interaction, item, match) -> CloseCheckInButton:
        return cls(int(match["tournament"]), match["digest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            service = _service(interaction)
            if not is_organiser(interaction, await service.get(self.tournament)):
                raise GameError("Only an organiser (Manage Server, or the event's organiser role) can close check-in.")
            saved = await service.close_checkin(self.tournament, self.digest)
            await interaction.response.edit_message(content=checkin_closed_text(saved), view=None,
                                                    allowed_mentions=discord.AllowedMentions.none())
        except Exception as exc:
            await answer_failure(interaction, exc, f"Closing the check-in of tournament {self.tournament}")


def checkin_closed_text(record: TournamentRecord) -> str:
    count = len(record.state.event.players) - len(record.state.event.dropped)
    return f"Check-in for **{discord.utils.escape_markdown(record.name)}** is closed: {count} players will be paired."
