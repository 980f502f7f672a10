"""The options of a new game, apart from who plays (`/game new`, an open challenge, the Activity's lobby): checked
once, stored with an open challenge until someone takes its seat, and turned into the pack's setup when both
players are known."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from bot.armies.check import army_from
from bot.armies.data import army_data
from bot.engine.chapter_approved.state import CA_PACK, GameSetup
from bot.engine.errors import GameError
from bot.engine.names import resolve
from bot.engine.packs import GT_PACK, ChapterApprovedRules, Packs
from bot.engine.rng import new_seed
from bot.engine.sides import side_name
from bot.engine.table.state import TableSetup

MAX_SEED = 64


class GameOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    pack: str = CA_PACK
    size: Literal["incursion", "strike-force", "asymmetric-war"] | None = None
    mission: str | None = None
    level: str | None = None
    my_strategy: int | None = None
    their_strategy: int | None = None
    twist: bool = False
    challenger: bool = True
    seed: str | None = None
    thread: bool = False
    clock: int | None = None
    clock_expiry: Literal["play-on", "claim"] = "play-on"
    deployment: str | None = None  # Chapter Approved 2026-27: the Deployment card (None: drawn)
    # Chapter Approved 2026-27: the pairing's layout instead of a Deployment card ("drawn": its letter at random)
    layout: Literal["A", "B", "C", "drawn"] | None = None
    faction: str | None = None  # the challenger's army, as typed (the taker sets theirs on the board)
    detachment: str | None = None
    doubles: bool = False  # an open challenge for four: two a side (a challenge names its players instead)

    def setup(self, packs: Packs, players: tuple[str, str], names: tuple[str, str], *,
              partners: tuple[tuple[str, str], tuple[str, str]] | None = None) -> Any:
        """The setup of the pack's game between `players` (the challenger first), refusing options that belong
        to another pack; in doubles `partners` are each side's second player, as (id, name). Without a fixed seed,
        each call makes a new secret one."""
        if self.pack not in packs:
            raise GameError(f"There is no pack {self.pack!r}: pick one from the list.")
        if partners is not None:
            return self.setup(packs, players, (side_name(names[0], partners[0][1]), side_name(names[1], partners[1][1]))
                              ).model_copy(update=sides(packs.rules(self.pack), players, names, partners))
        if len(self.seed or "") > MAX_SEED:
            raise GameError(f"Seeds are at most {MAX_SEED} characters.")
        if self.detachment and not self.faction:
            raise GameError("Name your `faction:` with your `detachment:`.")
        army = army_from(army_data(), self.faction, self.detachment) if self.faction else None
        common = dict(players=players, names=names, seed=self.seed or new_seed(),
                      seed_fixed_by=players[0] if self.seed else None,
                      clock_minutes=self.clock, clock_expiry=self.clock_expiry,
                      armies=(army, None) if army else None)
        rules = packs.rules(self.pack)
        dispositions = isinstance(rules, ChapterApprovedRules) and rules.catalog.force_dispositions
        if (self.deployment or self.layout) and not dispositions:
            raise GameError("`deployment:` and `layout:` belong to Chapter Approved 2026-27: pick that pack.")
        if isinstance(rules, ChapterApprovedRules):
            if self.level or self.my_strategy or self.their_strategy:
                raise GameError("Levels and Strategy Ratings belong to the 4th edition missions.")
            if dispositions:
                return self._setup_2026(rules, common)
            if self.size is None:
                raise GameError("Pick a size: Incursion, Strike Force or Asymmetric War.")
            return GameSetup(size=self.size, twist=self.twist, challenger_cards=self.challenger,
                             mission=self.mission, pack=self.pack, **common)
        if self.twist or not self.challenger:
            raise GameError("Twists and Challenger cards belong to the Chapter Approved 2025-26 deck.")
        if self.pack == GT_PACK:
            if self.level or self.my_strategy or self.their_strategy:
                raise GameError("Levels and Strategy Ratings belong to the 4th edition missions.")
            if self.size == "asymmetric-war":
                raise GameError("Grand Tournament 2020 battles are Incursion or Strike Force.")
            return TableSetup(pack=self.pack, size=self.size or "strike-force", mission=self.mission, **common)
        if self.size is not None:
            raise GameError("Battle sizes belong to the Chapter Approved and Grand Tournament 2020 missions.")
        ratings = (self.my_strategy or 1, self.their_strategy or 1)
        return TableSetup(pack=self.pack, mission=self.mission, level=self.level, strategy_ratings=ratings, **common)

    def _setup_2026(self, rules: ChapterApprovedRules, common: dict[str, Any]) -> GameSetup:
        """Chapter Approved 2026-27: Strike Force and no Challenger cards; a Deployment card (drawn unless named), or
        with `layout:` the pairing's layout instead (a pool mission is refused as it is typed, by read_typed). Checked
        here, as an open challenge is checked before anyone takes its seat."""
        if self.size not in (None, "strike-force"):
            raise GameError(f"{rules.title} is played at Strike Force size.")
        if self.deployment is not None and self.layout is not None:
            raise GameError("A game plays a Deployment card or the pairing's layout, not both: pick `deployment:` "
                            "or `layout:`.")
        deployment = None
        if self.deployment is not None:
            deployment = resolve(self.deployment, [(d.id, d.name) for d in rules.catalog.deployment_cards],
                                 "a Deployment card of this pack")
        layout = None if self.layout in (None, "drawn") else self.layout
        return GameSetup(size="strike-force", twist=self.twist, challenger_cards=False, pack=self.pack,
                         mission=self.mission, deployment=deployment, layout=layout,
                         battlefield="layout" if self.layout else "deployment", **common)


def sides(rules: Any, players: tuple[str, str], names: tuple[str, str],
          partners: tuple[tuple[str, str], tuple[str, str]]) -> dict[str, Any]:
    """A doubles game's sides, checked: the Chapter Approved decks only, four different players."""
    if not isinstance(rules, ChapterApprovedRules):
        raise GameError("Doubles plays the Chapter Approved decks (2025-26 or 2026-27): pick one of those packs.")
    if len({*players, partners[0][0], partners[1][0]}) != 4:
        raise GameError("A doubles game is four different players: two a side.")
    return {"partners": (partners[0][0], partners[1][0]),
            "player_names": ((names[0], partners[0][1]), (names[1], partners[1][1]))}


def pack_choices(packs: Packs) -> list[tuple[str, str]]:
    """(id, title) of every installed pack."""
    return [(rules.pack, rules.title) for rules in packs]


def mission_choices(rules: Any, size: str | None) -> list[tuple[str, str]]:
    """(value, name) of the missions a game of the pack (and size) may agree on: the Tournament Mission Pool's
    letters for Chapter Approved, the Grand Tournament's missions of the battle size, the 4th edition's."""
    if isinstance(rules, ChapterApprovedRules):
        if rules.catalog.force_dispositions:  # each player's mission comes from both Force Dispositions
            return []
        return [(m.letter, f"Mission {m.letter}") for m in rules.catalog.pool] + [("random", "Random pool mission")]
    if rules.pack == GT_PACK:
        return [(m.id, m.name) for m in rules.data.missions if m.size == (size or "strike-force")]
    return [(m.id, m.name) for m in rules.data.missions]


def read_typed(packs: Packs, pack: str, mission: str | None, size: str | None) -> tuple[str, str | None]:
    """The pack and mission as their ids, from what a person typed or autocomplete sent."""
    pack = resolve(pack, pack_choices(packs), "a pack of this bot")
    if mission is not None:
        missions = mission_choices(packs.rules(pack), size)
        if not missions:  # Chapter Approved 2026-27: each player's comes from both Force Dispositions
            raise GameError(f"{packs.rules(pack).title} has no mission to pick: each player's Primary Mission comes "
                            "from both Force Dispositions. Name a `deployment:` or a `layout:` instead.")
        mission = resolve(mission, missions, "a mission of this pack")
    return pack, mission
