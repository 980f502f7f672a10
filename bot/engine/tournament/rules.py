"""The pairing rules an organiser chooses for an event, and what they mean for one round.

Clubs and pins are not part of the rules: they are data about players (entered, corrected, pinned as the event
goes), passed next to the rules as `clubs` (player -> club name) and `pins` (player -> table number).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Literal

from pydantic import Field

from bot.engine.models import Frozen

FriendlyFire = Literal["off", "first", "every"]


class PairingRules(Frozen):
    friendly_fire: FriendlyFire = Field("off", description="Players of the same club are not paired in round 1 "
                                                           "('first') or in any round ('every'), while the field "
                                                           "allows")
    fresh_tables: bool = Field(False, description="No player sits at a table number they played at before, while "
                                                  "the seating allows")


def avoids_clubs(rules: PairingRules | None, round_number: int) -> bool:
    """Whether friendly fire is avoided in this round."""
    if rules is None:
        return False
    return rules.friendly_fire == "every" or (rules.friendly_fire == "first" and round_number == 1)


def club_key(name: str | None) -> str:
    """Club names as organisers type them: "Iron Wolves " and "iron wolves" are one club; "" is no club."""
    return (name or "").strip().casefold()


def club_keys(clubs: Mapping[str, str] | None, players: Collection[str]) -> dict[str, str]:
    """Each of `players`' club key ("" for none)."""
    clubs = clubs or {}
    return {p: club_key(clubs.get(p)) for p in players}


def club_mates(clubs: Mapping[str, str] | None, players: Collection[str]) -> dict[str, frozenset[str]]:
    """Each of `players`' club mates among `players` (none for a player without a club)."""
    keys = club_keys(clubs, players)
    members: dict[str, set[str]] = {}
    for p, key in keys.items():
        if key:
            members.setdefault(key, set()).add(p)
    empty: frozenset[str] = frozenset()
    return {p: frozenset(members[key] - {p}) if key else empty for p, key in keys.items()}
