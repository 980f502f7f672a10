"""The models every pack's state is made of: immutable pydantic models that serialise to JSON for the store,
a game's two seats, a roll-off, a result and the chess clock.

Pydantic rather than plain frozen dataclasses: the same models validate the snapshot read back from
the database and give the JSON codec for free (see the closing note of the engine issue).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


def settled(value: T | None) -> T:
    """A field already set where it is read: by the game's step (a roll-off once rolled, the player whose turn it
    is during the battle) or by the data's validation (a listed secondary's category). The type checker cannot
    follow either, so this says so, and fails loudly if that ever did not hold."""
    if value is None:
        raise ValueError("a step of the game read a field the game had not set yet")
    return value


class Frozen(BaseModel):
    """An immutable model. Pydantic gives every instance its own set of the field names it was given; the
    states of thousands of games held in memory share one set per combination instead (bench_interactions)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def model_post_init(self, context: Any, /) -> None:
        _share_fields_set(self)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        return _share_fields_set(super().model_copy(update=update, deep=deep))


_FIELDS_SETS: dict[frozenset[str], set[str]] = {}


def _share_fields_set(model: M) -> M:
    # Safe to share: pydantic copies the set before adding to it (model_copy), and frozen models never change.
    names = model.__pydantic_fields_set__
    object.__setattr__(model, "__pydantic_fields_set__", _FIELDS_SETS.setdefault(frozenset(names), names))
    return model


class Seats:
    """A game's two players (its `players` field), looked up by Discord id: every pack's state has them."""

    players: tuple

    def player(self, player_id: str):
        for p in self.players:
            if p.id == player_id:
                return p
        raise KeyError(player_id)

    def opponent(self, player_id: str):
        for p in self.players:
            if p.id != player_id:
                return p
        raise KeyError(player_id)

    @property
    def leader(self) -> str | None:
        """The player with more VP (None: level), by the state's own `total_vp`."""
        one, two = (self.total_vp(p.id) for p in self.players)  # type: ignore[attr-defined]
        if one == two:
            return None
        return self.players[0].id if one > two else self.players[1].id


Expiry = Literal["play-on", "claim"]  # when a player's time runs out: play on, or the opponent may claim


class RollOff(Frozen):
    """A roll-off as the core rules play it: ties are rolled again."""

    rolls: tuple[tuple[int, int], ...]
    winner: str

    @property
    def text(self) -> str:
        """The dice as players read them: "2–5", or "3–3, then 6–1" after a tie."""
        return ", then ".join(f"{a}–{b}" for a, b in self.rolls)


class Army(Frozen):
    """A player's army as a game records it: faction and detachments as ids and names from the army data (which the
    engine does not read), the Force Disposition it plays, and where a list was given, its total and its row.

    An 11th-edition army may field several detachments. The first is `detachment`, as in every army stored before
    armies had several, and the others follow in `more_detachments`: an army of one detachment, stored before or
    since, reads and writes the same. `detachments` and `detachment_names` give them all."""

    faction: str
    faction_name: str
    detachment: str | None = Field(None, description="Its first detachment (the only one, in most armies)")
    detachment_name: str | None = None
    disposition: str | None = Field(None, description="The Force Disposition it plays (11th edition data): the one "
                                                      "its detachments grant, or the one its list records among "
                                                      "several; None: none known, or several still to choose from")
    points: int | None = Field(None, description="The list's total, recomputed from the army data")
    list_id: int | None = Field(None, description="The army_list row holding the list, if one was given")
    more_detachments: tuple[str, ...] = Field((), description="Its detachments after the first, in the list's order")
    more_detachment_names: tuple[str, ...] = ()
    dispositions: tuple[str, ...] = Field((), description="Every Force Disposition its detachments grant, when they "
                                                          "grant more than one (the player plays one of them)")

    @property
    def detachments(self) -> tuple[str, ...]:
        return (self.detachment, *self.more_detachments) if self.detachment else ()

    @property
    def detachment_names(self) -> tuple[str, ...]:
        return (self.detachment_name, *self.more_detachment_names) if self.detachment_name else ()

    @property
    def granted(self) -> tuple[str, ...]:
        """The Force Dispositions its detachments grant (one, in an army of one detachment)."""
        return self.dispositions or ((self.disposition,) if self.disposition else ())

    @property
    def to_choose(self) -> bool:
        """Its detachments grant several Force Dispositions and none is chosen yet."""
        return self.disposition is None and len(self.dispositions) > 1

    @property
    def detachments_text(self) -> str:
        """'Saga of the Hunter', or 'Pantheon of Woe + Skyshroud Spearhead' (names may hold "and")."""
        return " + ".join(self.detachment_names)

    @property
    def label(self) -> str:
        """'Space Wolves — Saga of the Hunter', 'Necrons — Pantheon of Woe + Skyshroud Spearhead', or the faction
        alone."""
        return f"{self.faction_name} — {self.detachments_text}" if self.detachment_name else self.faction_name


class Result(Frozen):
    winner: str | None = Field(description="None for a draw or an abandoned game")
    reason: Literal["battle", "concession", "time", "abandoned"]
    vp: dict[str, int]


class Clock(Frozen):
    """A chess clock (bot/engine/clock.py): times in milliseconds, counted from the actions' stamps."""

    budget_ms: int = Field(description="Each player's time at the start")
    expiry: Expiry = Field("play-on", description="When a player's time runs out: play on, or the opponent may "
                                                  "claim the game")
    used_ms: dict[str, int] = Field(default_factory=dict, description="Time used by each player up to `since_ms`")
    running: str | None = Field(None, description="The player whose time runs from `since_ms` (None: nobody's)")
    since_ms: int | None = None
    paused_by: str | None = None
    resume_asked_by: str | None = Field(None, description="The player who asked the pauser to resume")
    out: tuple[str, ...] = Field((), description="Players whose time ran out (recorded once)")

    def left_ms(self, player: str, now_ms: int | None = None) -> int:
        """Time left (negative: over time); with `now_ms`, counting the running player's current stretch."""
        used = self.used_ms.get(player, 0)
        if now_ms is not None and self.ticking(player) and self.since_ms is not None:
            used += max(0, now_ms - self.since_ms)
        return self.budget_ms - used

    def ticking(self, player: str) -> bool:
        return self.running == player and self.paused_by is None

    @property
    def deadline_ms(self) -> int | None:
        """When the running player's time runs out, unless paused or already out."""
        if self.running is None or self.paused_by is not None or self.running in self.out or self.since_ms is None:
            return None
        return self.since_ms + self.left_ms(self.running)
