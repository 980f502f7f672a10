"""Times as players type them ("tonight 20:00", "in 2 hours"), read in their own time zone, and shown back as
Discord timestamps, which every reader's app draws in their own local time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import dateparser

from bot.engine.errors import GameError

DEFAULT_ZONE = "UTC"
WHEN_EXAMPLES = "`tonight 20:00`, `tomorrow 19:30`, `2026-12-05 14:00`, `saturday 14:00` or `in 2 hours`"
LONGEST_AHEAD = timedelta(days=90)  # a game set further out is a typo more often than a plan


class BadTime(GameError):
    pass


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    """Every IANA time zone name, sorted (for autocomplete)."""
    return tuple(sorted(available_timezones()))


def zone(name: str) -> ZoneInfo:
    """The IANA time zone `name` ("Europe/Berlin"), case as typed or not; a clear refusal otherwise."""
    typed = name.strip()
    known = {n.casefold(): n for n in zone_names()}
    try:
        return ZoneInfo(known.get(typed.casefold(), typed))
    except (ZoneInfoNotFoundError, ValueError):
        raise BadTime(f"There is no time zone {typed!r}: pick one from the list, such as `Europe/Berlin`, "
                      "`America/New_York` or `Australia/Sydney`.") from None


def parse_when(text: str, zone_name: str, now: datetime) -> datetime:
    """The moment `text` names, read in the zone `zone_name` relative to `now` (aware): in UTC. Refuses a time it
    cannot read, one in the past and one more than LONGEST_AHEAD away."""
    tz = zone(zone_name)
    local_now = now.astimezone(tz).replace(tzinfo=None)
    settings = {"TIMEZONE": tz.key, "RETURN_AS_TIMEZONE_AWARE": True, "PREFER_DATES_FROM": "future",
                "RELATIVE_BASE": local_now}
    found = dateparser.parse(text.strip(), languages=["en"], settings=settings)
    if found is None:
        raise BadTime(f"I cannot read {text!r} as a time. Try {WHEN_EXAMPLES}.")
    moment = found.astimezone(UTC)
    if moment <= now:
        raise BadTime(f"{text!r} is {stamp(moment)}, which has passed. Give a time to come, such as {WHEN_EXAMPLES}.")
    if moment - now > LONGEST_AHEAD:
        raise BadTime(f"{text!r} is {stamp(moment)}: games can be set at most {LONGEST_AHEAD.days} days ahead.")
    return moment


def stamp(moment: datetime) -> str:
    """A Discord timestamp with the date and time, then how long until (or since) it: "<t:…:F> (<t:…:R>)"."""
    seconds = int(moment.timestamp())
    return f"<t:{seconds}:F> (<t:{seconds}:R>)"


def relative(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:R>"
