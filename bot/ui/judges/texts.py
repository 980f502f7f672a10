"""What the judges' side of an event says, with no call to Discord: a call's message in the judges' channel, the
one message listing the open calls and who is on duty, the lines its table's thread is told, and the calls file of
the event's export."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import discord

from bot.store.judge_models import JudgeCall, JudgeDuty
from bot.store.tournament_repository import TournamentRecord
from bot.ui.limits import EMBED_DESCRIPTION, EMBED_TITLE, MESSAGE_CHARS
from bot.ui.text import clip

COLOUR = discord.Colour.orange()


def reraised(minutes: int) -> str:
    return f"🔔 **Raised again**: nobody has claimed this call for {minutes} minutes."


def mention(user: str) -> str:
    return f"<@{user}>"


def sides(call: JudgeCall) -> tuple[str, str]:
    """The table's two sides as mentions: '<@a>', or a doubles pair's '<@a> & <@c>' (its players are A, B, then their
    partners: bot/services/judges.py EventTable)."""
    ids = call.player_ids
    return " & ".join(map(mention, ids[0::2])), " & ".join(map(mention, ids[1::2]))


def everyone(call: JudgeCall) -> str:
    """Every player of the table, mentioned."""
    return " ".join(map(mention, call.player_ids))


def when(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:R>"


def typed(text: str) -> str:
    """Text a member typed, shown as typed: no markdown, and no mention that could notify anyone."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def event_name(record: TournamentRecord) -> str:
    return discord.utils.escape_markdown(record.name)


def round_ends(record: TournamentRecord, round_number: int, extra_minutes: int) -> int | None:
    """When the table's round ends (unix seconds) with the minutes it was given, if the round has a clock."""
    clock = record.state.clock
    if clock is None or clock.round_number != round_number:
        return None
    return clock.ends_at + 60 * extra_minutes


def time_line(record: TournamentRecord, call: JudgeCall, extra_minutes: int, now: datetime) -> str:
    ends = round_ends(record, call.round_number, extra_minutes)
    given = f", with {extra_minutes} extra minutes for this table" if extra_minutes else ""
    if ends is None:
        return f"**Round time:** no round clock{given}."
    left = ends - int(now.timestamp())
    if left <= 0:
        return f"**Round time:** up <t:{ends}:R>{given}."
    return f"**Round time:** {left // 60} min left, ends <t:{ends}:t> (<t:{ends}:R>){given}."


def duty_line(duty: Iterable[JudgeDuty], role: int | None) -> str:
    """Who a call notifies: the judges on duty, else `role` (the judge role, else the organisers')."""
    names = ", ".join(mention(d.judge_id) for d in duty)
    if names:
        return f"**On duty:** {names}."
    if role is not None:
        return f"**On duty:** nobody, so calls go to <@&{role}>: judges, `/judge duty on`."
    return ("**On duty:** nobody, and no judge role to call: judges, `/judge duty on`; organisers, "
            "`/judge setup role:`.")


def status_line(call: JudgeCall) -> str:
    if call.resolved_at is not None:
        ruling = f": {typed(call.ruling)}" if call.ruling else " (no ruling noted)"
        return f"✅ **Resolved** by {mention(call.resolved_by or '')} {when(call.resolved_at)}{ruling}"
    if call.claimed_at is not None:
        return f"🧑‍⚖️ **Claimed** by {mention(call.claimed_by or '')} {when(call.claimed_at)}: on the way."
    return "⏳ **Waiting** for a judge: **Claim** it, and the table is told who is coming."


def call_text(record: TournamentRecord, call: JudgeCall, duty: list[JudgeDuty], role: int | None, extra_minutes: int,
              now: datetime, *, headline: str | None = None) -> str:
    """A call's message in the judges' channel, as it stands; it names the judges on duty, else the `role` called
    instead (who are notified when it is posted), and both players (who are not)."""
    a, b = sides(call)
    lines = [f"🛎️ **Table {call.table_number}** calls a judge: round {call.round_number} of "
             f"**{event_name(record)}**."]
    if headline:
        lines.append(headline)
    lines += [f"**Players:** {a} vs {b}; called by {mention(call.caller)} {when(call.raised_at)}."]
    if call.note:
        lines.append(f"**Note:** {typed(call.note)}")
    if call.resolved_at is None:
        lines.append(time_line(record, call, extra_minutes, now))
    elif extra_minutes:
        lines.append(f"**Extra time:** {extra_minutes} minutes for this table this round.")
    lines += [f"**Thread:** <#{call.thread_id}>", duty_line(duty, role), status_line(call)]
    return clip("\n".join(lines), MESSAGE_CHARS)


def call_link(call: JudgeCall) -> str:
    if call.channel_id is None or call.message_id is None:
        return ""
    return f" · [the call](https://discord.com/channels/{call.guild_id}/{call.channel_id}/{call.message_id})"


def calls_embed(record: TournamentRecord, calls: list[JudgeCall], duty: list[JudgeDuty],
                role: int | None) -> discord.Embed:
    """The one message of the judges' channel listing the open calls, oldest first, and who is on duty."""
    lines = [duty_line(duty, role), ""]
    if not calls:
        lines.append("No call is waiting.")
    for call in calls:
        who = f"claimed by {mention(call.claimed_by)}" if call.claimed_by else "⏳ **nobody yet**"
        lines.append(f"• **Table {call.table_number}** (round {call.round_number}): raised {when(call.raised_at)}, "
                     f"{who}{call_link(call)}")
    waiting = f"{len(calls)} waiting" if calls else "none waiting"
    return discord.Embed(title=clip(f"Judge calls · {record.name} · {waiting}", EMBED_TITLE),
                         description=clip("\n".join(lines), EMBED_DESCRIPTION), colour=COLOUR)


def called_text(call: JudgeCall) -> str:
    """The table's thread, when a player calls: the judges have it (the note stays theirs)."""
    return (f"🛎️ {mention(call.caller)} called a judge to table {call.table_number}: the judges have been told. "
            "This thread hears who is coming.")


def claimed_text(call: JudgeCall) -> str:
    return (f"🧑‍⚖️ {everyone(call)}: judge {mention(call.claimed_by or '')} is on the way to table "
            f"{call.table_number}.")


def resolved_text(call: JudgeCall) -> str:
    ruling = f" Ruling: {typed(call.ruling)}" if call.ruling else ""
    return clip(f"✅ Judge {mention(call.resolved_by or '')} closed table {call.table_number}'s call.{ruling}",
                MESSAGE_CHARS)


def extended_text(record: TournamentRecord, call: JudgeCall, organiser: str, minutes: int, total: int) -> str:
    ends = round_ends(record, call.round_number, total)
    until = f" Your round now ends <t:{ends}:t> (<t:{ends}:R>)." if ends is not None else ""
    return (f"⏱️ {everyone(call)}: organiser {mention(organiser)} gave table {call.table_number} "
            f"{minutes} more minutes ({total} in all this round).{until}")
