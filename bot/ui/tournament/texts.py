"""Tournament texts and embeds: announcements, pairings, standings, round embeds and status lines, built from
the record with no call to Discord.

Big events do not fit one embed (25 fields, 6,000 characters) nor one message (10 embeds, 6,000
characters together): the builders return a list of messages, each a list of embeds within the limits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import discord

from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.rng import derive_rng
from bot.engine.tournament import event as tournament
from bot.present.exports import result_notes
from bot.present.entrants import factions_of, name_of, record_text
from bot.store.tournament_repository import PendingReport, TournamentRecord
from bot.services.team_rounds import unfinished_matches
from bot.ui.limits import (
    EMBED_CHARS, EMBED_DESCRIPTION, EMBED_FIELDS, MENTIONED_USERS, MESSAGE_CHARS, MESSAGE_EMBED_CHARS, MESSAGE_EMBEDS,
    THREAD_NAME,
)
from bot.ui.text import pinging, title_case

COLOUR = discord.Colour.dark_gold()
OUTCOME_WORDS = {tournament.Outcome.A_WINS: "A wins", tournament.Outcome.B_WINS: "B wins",
                 tournament.Outcome.DRAW: "draw"}


def mention(player: str) -> str:
    return f"<@{player}>"


def side(record: TournamentRecord, entrant: str) -> str:
    """An entrant mentioned: '<@a>', or a doubles pair's two players, '<@a> & <@c>'."""
    return " & ".join(map(mention, record.state.members(entrant)))


def side_users(record: TournamentRecord, *entrants: str) -> list[int]:
    """Everyone who plays as `entrants`: the users a message about them may notify."""
    return [int(p) for entrant in entrants for p in record.state.members(entrant)]


def faction_note(record: TournamentRecord, player: str) -> str:
    """' (Space Wolves)' after a player's name where their list is in, else nothing."""
    factions = factions_of(record, player)
    return f" ({factions})" if factions else ""


def score_line(record: TournamentRecord, pairing: tournament.Pairing,
               result: tournament.Result | PendingReport) -> str:
    """'<@a> 72 – 65 <@b>: <@a> wins', or '... <@a> wins (<@b> conceded)'; a doubles pair: '<@a> & <@c> win'."""
    winner = {tournament.Outcome.A_WINS: pairing.a, tournament.Outcome.B_WINS: pairing.b}.get(result.outcome)
    loser = pairing.b if winner == pairing.a else pairing.a
    verdict = f"{side(record, winner)} win{'' if record.state.doubles else 's'}" if winner else "a draw"
    why = {tournament.Reason.CONCESSION: f" ({side(record, loser)} conceded)",
           tournament.Reason.NO_SHOW: f" ({side(record, loser)} did not show)"}.get(result.reason, "")
    return (f"{side(record, pairing.a)} **{result.vp_a}** – **{result.vp_b}** {side(record, pairing.b)}: "
            f"{verdict}{why}")


def report_text(record: TournamentRecord, pairing: tournament.Pairing, report: PendingReport) -> str:
    opponent = pairing.b if report.reporter == pairing.a else pairing.a
    return (
        f"{side(record, opponent)}, {side(record, report.reporter)} report"
        f"{'' if record.state.doubles else 's'} **{record.name}** round {report.round_number}, "
        f"table {report.table}: {score_line(record, pairing, report)}. "
        "Press **Confirm** if that is right; if not, report the right result with `/tournament report`."
    )


def mission_title(catalog: Catalog, letter: str | None) -> str:
    """A round's mission: its pool mission, or (CA 2026-27) each table's from its players' Force Dispositions."""
    if letter is None:
        return "each table's Primary Missions from its players' Force Dispositions"
    pool = catalog.pool_mission(letter)
    return (f"Mission {letter}: {title_case(catalog.primary(pool.primary).name)} / "
            f"{title_case(catalog.deployment(pool.deployment).name)}")


@dataclass(frozen=True)
class TableMissions:
    """CA 2026-27: a table's Primary Missions, each player's from both registered Force Dispositions (Twists are
    not used at events), and the layout of the pairing, drawn for the table from the event's secret seed."""

    dispositions: tuple[str, str]
    primaries: tuple[str, str]
    layout: str

    @classmethod
    def of(cls, catalog: Catalog, record: TournamentRecord, round_number: int,
           pairing: tournament.Pairing, *, layout: str | None = None) -> TableMissions:
        """`layout`: the one a team pairing's Defender declared (or the round's), else drawn for the table."""
        a, b = record.state.dispositions[pairing.a], record.state.dispositions[pairing.b]
        layouts = catalog.event_pairing(a, b).layouts
        letter = layout or derive_rng(record.seed, f"layout:{round_number}:{pairing.table}").choice(layouts)
        return cls((a, b), (catalog.primary_for(a, b).name, catalog.primary_for(b, a).name), letter)

    def text(self) -> str:
        return f"{title_case(self.primaries[0])} vs {title_case(self.primaries[1])}, layout {self.layout}"


@dataclass(frozen=True)
class Announcement:
    """One public message of a round's announcement: the mentions are in the content (embeds never
    notify) and `users` are exactly the people it mentions, the only ones Discord may notify."""

    content: str
    embeds: list[discord.Embed]
    users: list[int]

    @property
    def allowed_mentions(self) -> discord.AllowedMentions:
        return pinging(self.users)


def announcement_messages(catalog: Catalog, record: TournamentRecord) -> list[Announcement]:
    """The current round: the mission with its terrain layouts in an embed, then the bye and every table in
    the content, split so that no message exceeds 2,000 characters nor mentions more than 100 users."""
    current = record.state.event.rounds[-1]
    title = f"📣 **{discord.utils.escape_markdown(record.name)}**: round {current.number} pairings"
    lines: list[tuple[str, list[int]]] = []
    if (bye := current.pairings.bye) is not None:
        lines.append((f"**Bye**: {side(record, bye.a)} {'score' if record.state.doubles else 'scores'} a win and "
                      f"{bye.vp_a}VP", side_users(record, bye.a)))
    for p in current.pairings.tables:
        missions = "" if current.mission else f" · {TableMissions.of(catalog, record, current.number, p).text()}"
        lines.append((f"**Table {p.table}**: {side(record, p.a)}{faction_note(record, p.a)} vs "
                      f"{side(record, p.b)}{faction_note(record, p.b)}{missions}", side_users(record, p.a, p.b)))
    return pack_mentions(Announcement(title, [round_embed(catalog, record)], []), lines)


def pack_mentions(first: Announcement, lines: list[tuple[str, list[int]]]) -> list[Announcement]:
    """`first`, then lines (each with the users it mentions) added to messages of at most 2,000 characters
    and 100 mentioned users."""
    messages = [first]
    for line, users in lines:
        last = messages[-1]
        if len(last.content) + 1 + len(line) > MESSAGE_CHARS or len(last.users) + len(users) > MENTIONED_USERS:
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
    for pair in unfinished_matches(record):  # a team event: games still to be fixed by their captains
        lines.append(f"**Match {pair.number}**: ⏳ the captains are pairing ({len(pair.match.games)} of "
                     f"{pair.match.size} games fixed)")
    return lines


def nudge_messages(record: TournamentRecord) -> list[Announcement]:
    """Mentions of exactly the players the current round still waits for: the opponent who has a report to
    confirm, or both players of a table with nothing reported."""
    current = record.state.event.rounds[-1]
    pending = {p.table: p for p in record.state.pending if p.round_number == current.number}
    lines: list[tuple[str, list[int]]] = []
    for table in tournament.missing_tables(current):
        p = next(x for x in current.pairings.tables if x.table == table)
        if (report := pending.get(table)) is not None:
            waiting = p.b if report.reporter == p.a else p.a
            reporter = discord.utils.escape_markdown(name_of(record, report.reporter))  # not pinged: they reported
            lines.append((f"**Table {table}**: {side(record, waiting)}, please confirm {reporter}'s report (the "
                          "**Confirm** button on it).", side_users(record, waiting)))
        else:
            lines.append((f"**Table {table}**: {side(record, p.a)} {side(record, p.b)}, please report your result "
                          "with `/tournament report`.", side_users(record, p.a, p.b)))
    if not lines:
        return []
    title = f"⏰ **{discord.utils.escape_markdown(record.name)}** round {current.number}: results still missing."
    return pack_mentions(Announcement(title, [], []), lines)


def draft_messages(catalog: Catalog, record: TournamentRecord) -> list[list[discord.Embed]]:
    """The draft round as only the organiser sees it: the mission and layouts, then the bye and every table
    with each player's record before the round."""
    event = record.state.event
    current = event.rounds[-1]
    before = tournament.records(event.model_copy(update={"rounds": event.rounds[:-1]}))

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
        header.add_field(name="Bye", value=f"{side(record, current.pairings.bye.a)} "
                                           f"{'score' if record.state.doubles else 'scores'} a win and "
                                           f"{current.pairings.bye.vp_a}VP", inline=False)
    header.set_footer(text="Report your result with /tournament report my-vp: opponent-vp:")
    return header


def own_standing(record: TournamentRecord, player: str) -> str:
    """A player's own line, for the standings they get privately."""
    table = tournament.standings(record.state.event)
    mine = next((s for s in table if s.player == record.state.entrant_of(player)), None)
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
        for s in tournament.standings(event)
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
        if pages[-1] and size + len(line) + 1 > EMBED_DESCRIPTION - len(title) - 100:
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
        if not messages or len(messages[-1]) == MESSAGE_EMBEDS or size + len(embed) > MESSAGE_EMBED_CHARS:
            messages.append([])
            size = 0
        messages[-1].append(embed)
        size += len(embed)
    return messages


def table_thread_name(record: TournamentRecord, round_number: int, pairing: tournament.Pairing) -> str:
    """'R2 · T7 · alice vs bob' ('A & B vs C & D' in doubles), within Discord's 100 characters."""
    name = f"R{round_number} · T{pairing.table} · {name_of(record, pairing.a)} vs {name_of(record, pairing.b)}"
    return name[:THREAD_NAME]


def announced_text(record: TournamentRecord, where: str, count: int) -> str:
    return (f"Posted the round {record.state.event.rounds[-1].number} pairings in {where} "
            f"({count} message{'s' if count != 1 else ''}).")


def entrants(record: TournamentRecord, count: int) -> str:
    """'1 player', '3 players'; in a doubles event, '3 pairs'."""
    return f"{count} {'pair' if record.state.doubles else 'player'}{'s' if count != 1 else ''}"


def checkin_closed_text(record: TournamentRecord) -> str:
    count = len(record.state.event.players) - len(record.state.event.dropped)
    return (f"Check-in for **{discord.utils.escape_markdown(record.name)}** is closed: {entrants(record, count)} "
            "will be paired.")
