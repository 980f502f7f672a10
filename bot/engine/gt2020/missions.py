"""The Grand Tournament 2020 mission for a battle size: agreed, or rolled on its D33 table (two D3 one after the
other, the first the tens and the second the units) from a labelled stream of a public seed."""

from __future__ import annotations

from pydantic import Field

from bot.engine.errors import InvalidValue
from bot.engine.gt2020.catalog import GrandTournament, Size
from bot.engine.models import Frozen
from bot.engine.rng import stream_of


class RolledGtMission(Frozen):
    seed: str
    size: Size
    d33: tuple[int, int] | None = Field(description="The tens die and the units die; None when agreed")
    mission: str


def roll_gt_mission(pack: GrandTournament, seed: str, size: Size, mission: str | None = None) -> RolledGtMission:
    if not seed:
        raise InvalidValue("A roll needs a seed.")
    if mission is not None:
        sized = [m.id for m in pack.missions if m.size == size]
        if mission not in sized:
            raise InvalidValue(f"{mission!r} is not one of the {size.replace('-', ' ')} missions: {', '.join(sized)}.")
        return RolledGtMission(seed=seed, size=size, d33=None, mission=mission)
    dice = stream_of(seed, "gt:d33")
    tens, units = dice.randint(1, 3), dice.randint(1, 3)
    return RolledGtMission(seed=seed, size=size, d33=(tens, units), mission=pack.by_roll(size, tens * 10 + units).id)
