"""What the tournament does in Discord: announce and post in the event's channel, open and archive the table
threads with their games, post the players' lists, and report the table games that ended."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import discord

from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import GameSetup, GameState
from bot.engine.errors import GameError
from bot.engine.tournament import event as tournament
from bot.engine.rng import new_seed
from bot.present.entrants import army_of, name_of, player_name
from bot.store.tournament_repository import TableGame, TournamentRecord
from bot.ui.armies import list_message
from bot.services.games import ActResult
from bot.ui.challenge import challenge, offer_game
from bot.ui.judges.buttons import CallJudgeButton
from bot.ui.text import pinging
from bot.ui.threads import archive, new_thread
from bot.ui.tournament.texts import (
    Announcement, TableMissions, announcement_messages, mission_title, score_line, side, side_users,
    table_thread_name,
)

_log = logging.getLogger(__name__)


def event_catalog(client: discord.Client, record: TournamentRecord) -> Catalog:
    """The decks of the Chapter Approved season the event plays."""
    return client.service.packs.rules(record.state.pack).catalog  # type: ignore[attr-defined]


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
        seated = {p for table in current.pairings.tables for p in side_users(record, table.a, table.b)}
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


async def table_channels(client: discord.Client, record: TournamentRecord,
                         fallback: discord.abc.Messageable | None) -> list[discord.TextChannel]:
    """The text channels the event's table threads open from: those its organisers named, else its announcement
    channel, else `fallback`."""
    if not record.state.table_channels:
        return [await table_channel(client, record, fallback)]
    found = []
    for channel_id in record.state.table_channels:
        try:
            channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden):
            raise GameError(f"I cannot reach <#{channel_id}>, a channel of the event's table threads: check it still "
                            "exists and that I can see it, or name others with `/tournament tables`.") from None
        if not isinstance(channel, discord.TextChannel):
            raise GameError(f"Table threads open only from text channels; <#{channel_id}> is not one.")
        found.append(channel)
    return found


async def table_channel(client: discord.Client, record: TournamentRecord,
                        fallback: discord.abc.Messageable | None) -> discord.TextChannel:
    """The text channel the event's threads open from: its announcement channel, else `fallback`."""
    channel = await announcement_channel(client, record, fallback)
    if not isinstance(channel, discord.TextChannel):
        raise GameError(f"Tables get threads only from a text channel; <#{channel.id}> is not one, so play "  # type: ignore[attr-defined]
                        "the games with `/game new` and report them.")
    return channel


async def open_table(client: discord.Client, record: TournamentRecord, channel: discord.TextChannel,
                     round_number: int, pairing: tournament.Pairing, *, layout: str | None = None,
                     defender: str | None = None, place: discord.Thread | None = None) -> TableGame:
    """A table's thread with its game waiting for the second player to accept; the challenge's mention of both
    players (all four in doubles, either of the second pair accepting) brings them into the thread. A team pairing
    gives the `layout` its Defender declared and the game's `defender` (None: the roll-off decides). `place`: the
    table's thread, opened before a restart cut the round's publishing: a game started in it then is offered again
    rather than started twice."""
    catalog = event_catalog(client, record)
    players = [discord.Object(p) for p in side_users(record, pairing.a, pairing.b)]
    current = record.state.event.rounds[round_number - 1]
    adopted = place is not None
    if place is None:
        place = await new_thread(client, channel, table_thread_name(record, round_number, pairing),
                                 f"{record.name}: round {round_number}")
    names = (name_of(record, pairing.a), name_of(record, pairing.b))
    armies = (army_of(record, pairing.a), army_of(record, pairing.b))
    sides: dict[str, Any] = {}
    if record.state.doubles:  # each side plays as its first player's seat; its partner plays it too
        partners = record.state.partners
        sides = {"partners": (partners[pairing.a], partners[pairing.b]),
                 "player_names": tuple((record.state.names[p], record.state.names[partners[p]])
                                       for p in (pairing.a, pairing.b)),
                 "partner_armies": (army_of(record, partners[pairing.a]), army_of(record, partners[pairing.b]))}
    if current.mission is not None:
        setup = GameSetup(size="strike-force", players=(pairing.a, pairing.b), names=names,
                          mission=current.mission, seed=new_seed(), armies=armies, **sides)
        missions = mission_title(catalog, current.mission)
    else:  # CA 2026-27: the Force Dispositions they registered, the layout drawn for the table (or declared)
        table = TableMissions.of(catalog, record, round_number, pairing, layout=layout)
        setup = GameSetup(size="strike-force", players=(pairing.a, pairing.b), names=names,
                          pack=record.state.pack, challenger_cards=False, dispositions=table.dispositions,
                          layout=table.layout, seed=new_seed(), armies=armies, defender=defender, **sides)
        missions = table.text()
        if defender is not None:
            missions += f", {discord.utils.escape_markdown(name_of(record, defender))} defending"
    accepts = " or ".join(discord.utils.escape_markdown(record.state.names.get(p, p))  # in doubles, either
                          for p in record.state.members(pairing.b))
    content = (f"{side(record, pairing.a)} vs {side(record, pairing.b)}: round {round_number}, table "
               f"{pairing.table} of **{discord.utils.escape_markdown(record.name)}**, "
               f"{missions}. Your game is ready: {accepts} accepts it to begin. "
               "When it ends, its result goes to the standings by itself.")
    if record.state.list_policy == "open" and (place.last_message_id is None or not adopted):
        # each player sees their opponent's list at pairing, above the challenge waiting at the bottom
        await post_lists(client, place, record, (*record.state.members(pairing.a), *record.state.members(pairing.b)))
    started = await client.service.repo.get_active_game(place.id) if adopted else None  # type: ignore[attr-defined]
    if started is not None:
        game = ActResult(started.id, started.state, (), started.version)
        message = await challenge(client, game, content, players)
    else:
        game, message = await offer_game(client, channel.guild.id, place, setup, content, players, thread=True)
    message["view"].add_item(CallJudgeButton(game.game_id))  # a dispute before the game starts (a list, terrain)
    await place.send(**message)
    return TableGame(round_number=round_number, table=pairing.table, game_id=game.game_id, thread_id=place.id)


async def post_lists(client: discord.Client, place: discord.abc.Messageable, record: TournamentRecord,
                     players: tuple[str, ...]) -> None:
    """Each player's list at a glance (its full text a press away), naming and notifying nobody."""
    for player in players:
        entry = record.state.lists.get(player)
        lists = client.service.lists  # type: ignore[attr-defined]
        found = await lists.get(entry.army.list_id) if entry and entry.army.list_id else None
        if found is not None:
            await place.send(**list_message(found[1], player_name(record, player), found[0].id))


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
        text = (f"Recorded for {where}: {score_line(report.record, pairing, report.result)}. Both of you played "
                "it, so it counts as confirmed; an organiser can still correct it.")
    else:
        assert report.clash is not None
        text = (f"This game ended {result.vp[pairing.a]}–{result.vp[pairing.b]}, but {where} already has a "
                f"confirmed result: {score_line(report.record, pairing, report.clash)}. The standings keep that "
                f"one; an organiser can correct it with `/tournament result round:{report.link.round_number}`.")
    await channel.send(text, allowed_mentions=pinging(side_users(report.record, pairing.a, pairing.b)))
    if report.link.thread_id == channel.id:  # the table is done: its thread leaves the server's active ones
        await archive(client, channel.id, f"{report.record.name}: table {report.link.table}'s result is in")
