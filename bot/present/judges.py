"""What the venue screen shows of an event's judges (bot/services/judges.py): the calls waiting, oldest first, with their table,
round, when they were raised and who claimed them (never the caller's note, which is the judges'), who is on duty,
and the extra minutes each table of the round shown was given."""

from __future__ import annotations

from bot.services.judges import Venue


def with_judges(model: dict, venue: Venue) -> dict:
    """The event's model (bot/present/event.py) with its judges."""
    shown = model["round"]
    extra = {table: minutes for (number, table), minutes in venue.extensions.items() if number == shown}
    pairings = [{**p, "extra_minutes": extra.get(p["table"], 0)} for p in model["pairings"]]
    calls = [{"table": c.table_number, "round": c.round_number, "raised_ms": int(c.raised_at.timestamp() * 1000),
              "claimed_by": c.claimed_name} for c in venue.calls]
    return {**model, "pairings": pairings, "judges": {"calls": calls, "on_duty": [d.name for d in venue.on_duty]}}
