"""The captains' pairing of one team match (Teams Event Companion): who of each team plays whom, on which layout.

It runs modules in order, as the team size says (MODULES). A module other than the Champion is four steps, each a
secret and simultaneous choice by both captains, sealed until both are in and then revealed together:

1. DEFENDER: each team puts forward one Defender from its pool.
2. ATTACKERS: each team offers two Attackers from its pool against the other's Defender (forced, and filled in
   here, when only two are left).
3. CHOICE: each team's Defender picks which of the two Attackers offered against it they play. Two games are
   fixed. In an Initial Skirmish the two refused Attackers go back to their pools; in the Main Engagement they play
   each other on the round's layout.
4. LAYOUT: each Defender declares the layout (A, B or C of their pair of primaries) of their own game; secret and
   simultaneous, or in turn (the first team's Defender first, shown at once) when the event says so.

The Champion module pairs the last player of each pool, on the round's layout. In the refused pair's game and the
Champion's, a roll-off decides the Attacker and Defender. The teams are sides 0 and 1, in the order paired.
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Literal

from pydantic import Field

from bot.engine.errors import InvalidValue, NotYourTurn
from bot.engine.models import Frozen

Layout = Literal["A", "B", "C"]
LAYOUTS: tuple[Layout, ...] = ("A", "B", "C")


class Module(StrEnum):
    SKIRMISH = "skirmish"
    MAIN = "main"
    CHAMPION = "champion"


MODULES: dict[int, tuple[Module, ...]] = {
    3: (Module.MAIN,),
    4: (Module.MAIN, Module.CHAMPION),
    5: (Module.SKIRMISH, Module.MAIN),
    6: (Module.SKIRMISH, Module.MAIN, Module.CHAMPION),
    7: (Module.SKIRMISH, Module.SKIRMISH, Module.MAIN),
    8: (Module.SKIRMISH, Module.SKIRMISH, Module.MAIN, Module.CHAMPION),
}
MODULE_NAMES = {Module.SKIRMISH: "Initial Skirmish", Module.MAIN: "Main Engagement", Module.CHAMPION: "Champion"}


class Step(StrEnum):
    DEFENDER = "defender"
    ATTACKERS = "attackers"
    CHOICE = "choice"
    LAYOUT = "layout"
    DONE = "done"


WANTED = {Step.DEFENDER: 1, Step.ATTACKERS: 2, Step.CHOICE: 1, Step.LAYOUT: 1}
STEP_NAMES = {Step.DEFENDER: "Defenders", Step.ATTACKERS: "Attackers", Step.CHOICE: "Attackers chosen",
              Step.LAYOUT: "Layouts"}  # what a step's reveal shows, as the screens name it


class GameKind(StrEnum):
    DEFENDER = "defender"  # a Defender against the Attacker they chose: the Defender is the game's Defender
    REFUSED = "refused"  # the Main Engagement's two refused Attackers: a roll-off decides the roles
    CHAMPION = "champion"  # the last player of each pool: a roll-off decides the roles


class FixedGame(Frozen):
    players: tuple[str, str] = Field(description="Side 0's player, then side 1's")
    kind: GameKind
    module: int
    defender: str | None = Field(None, description="The game's Defender (a Defender's game); None: a roll-off")
    layout: Layout | None = Field(None, description="None until its Defender declares it")


class Reveal(Frozen):
    """What both captains chose at one step, shown together (or a step the bot filled in, `forced`)."""

    module: int
    step: Step
    picks: tuple[tuple[str, ...], tuple[str, ...]]
    forced: bool = False


class TeamMatch(Frozen):
    teams: tuple[str, str]
    size: int = Field(ge=3, le=8)
    round_layout: Layout = Field(description="The refused pair's and the Champions' layout: A, B, C by round")
    layouts_in_turn: bool = False
    pools: tuple[tuple[str, ...], tuple[str, ...]]
    module: int = 0
    step: Step = Step.DEFENDER
    steps: int = Field(0, description="Steps begun so far: names the current one (its deadline, its random pick)")
    sealed: tuple[tuple[str, ...] | None, tuple[str, ...] | None] = Field(
        (None, None), description="Secret: each side's choice at the current step, until both are in")
    defenders: tuple[str | None, str | None] = (None, None)
    attackers: tuple[tuple[str, ...], tuple[str, ...]] = Field(
        ((), ()), description="The Attackers each side offered against the other's Defender, once revealed")
    games: tuple[FixedGame, ...] = ()
    reveals: tuple[Reveal, ...] = ()

    @property
    def modules(self) -> tuple[Module, ...]:
        return MODULES[self.size]

    @property
    def current(self) -> Module | None:
        return self.modules[self.module] if self.step != Step.DONE else None

    @property
    def done(self) -> bool:
        return self.step == Step.DONE

    def waiting_on(self) -> tuple[int, ...]:
        """The sides still to choose at this step."""
        if self.done:
            return ()
        if self.step == Step.LAYOUT and self.layouts_in_turn:
            return (0,) if self.sealed[0] is None else (1,)
        return tuple(side for side in (0, 1) if self.sealed[side] is None)


def new_match(teams: tuple[str, str], pools: tuple[tuple[str, ...], tuple[str, ...]], *, round_number: int,
              layouts_in_turn: bool = False) -> TeamMatch:
    """The captains' pairing of two teams' rosters, at its first step."""
    size = len(pools[0])
    if size not in MODULES or len(pools[1]) != size:
        raise InvalidValue(f"Both teams need the same number of players, 3 to 8: they have {size} and "
                           f"{len(pools[1])}.")
    return _begin(TeamMatch(teams=teams, size=size, pools=pools, round_layout=LAYOUTS[(round_number - 1) % 3],
                            layouts_in_turn=layouts_in_turn))


def options(match: TeamMatch, side: int) -> tuple[str, ...]:
    """What `side` may choose from at this step: players of its pool, the Attackers offered to its Defender, or
    the layouts."""
    if match.step in (Step.DEFENDER, Step.ATTACKERS):
        return match.pools[side]
    if match.step == Step.CHOICE:
        return match.attackers[1 - side]
    if match.step == Step.LAYOUT:
        return LAYOUTS
    return ()


def choose(match: TeamMatch, side: int, picks: tuple[str, ...]) -> TeamMatch:
    """A captain's choice for their side at this step, sealed; revealed with the other's once both are in."""
    if match.done:
        raise InvalidValue("This pairing is complete: every game is fixed.")
    if side not in match.waiting_on():
        if match.sealed[side] is not None:
            raise NotYourTurn("Your choice at this step is locked in: it is revealed once the other captain has "
                              "chosen.")
        raise NotYourTurn("The other team's Defender declares their layout first.")
    wanted, offered = WANTED[match.step], options(match, side)
    if len(set(picks)) != len(picks):
        raise InvalidValue("Choose each player once.")
    if len(picks) != wanted:
        raise InvalidValue(f"Choose exactly {wanted}.")
    stray = [p for p in picks if p not in offered]
    if stray:
        raise InvalidValue(_not_offered(match, stray))
    sealed = list(match.sealed)
    sealed[side] = tuple(picks)
    match = match.model_copy(update={"sealed": tuple(sealed)})
    if match.step == Step.LAYOUT and match.layouts_in_turn and side == 0:
        return _declare(match, 0, picks[0])  # in turn: the first Defender's layout is shown at once
    if None in match.sealed:
        return match
    return _reveal(match)


def random_picks(match: TeamMatch, side: int, rng: random.Random) -> tuple[str, ...]:
    """A choice for a side that missed its deadline, when the organiser lets the bot choose for it."""
    return tuple(rng.sample(sorted(options(match, side)), WANTED[match.step]))


def secret_choices(match: TeamMatch) -> int:
    """How many choices each captain made (Defenders, Attackers and the Defenders' choices; layouts apart),
    forced steps left out."""
    return sum(1 for r in match.reveals if r.step != Step.LAYOUT and not r.forced)


def _not_offered(match: TeamMatch, stray: list[str]) -> str:
    if match.step == Step.LAYOUT:
        return "Declare layout A, B or C."
    if match.step == Step.CHOICE:
        return "Your Defender chooses one of the two Attackers offered against them."
    return "Choose from your team's players still in the pool: one is already playing, put forward or elsewhere."


def _begin(match: TeamMatch) -> TeamMatch:
    """A new step: nothing sealed yet; a step with only one possible choice (the Attackers of a pool of two, the
    Champions) is filled in."""
    match = match.model_copy(update={"sealed": (None, None), "steps": match.steps + 1})
    module = match.current
    if module == Module.CHAMPION:
        champions = (match.pools[0][0], match.pools[1][0])
        game = FixedGame(players=champions, kind=GameKind.CHAMPION, module=match.module, layout=match.round_layout)
        reveal = Reveal(module=match.module, step=Step.DEFENDER, picks=((champions[0],), (champions[1],)),
                        forced=True)
        return match.model_copy(update={"games": (*match.games, game), "reveals": (*match.reveals, reveal),
                                        "pools": ((), ()), "step": Step.DONE})
    if match.step == Step.ATTACKERS and all(len(pool) == WANTED[Step.ATTACKERS] for pool in match.pools):
        picks = (match.pools[0], match.pools[1])
        return _reveal(match.model_copy(update={"sealed": picks}), forced=True)
    return match


def _reveal(match: TeamMatch, *, forced: bool = False) -> TeamMatch:
    one, two = match.sealed
    assert one is not None and two is not None
    shown = ((), two) if match.step == Step.LAYOUT and match.layouts_in_turn else (one, two)  # one is out already
    reveal = Reveal(module=match.module, step=match.step, picks=shown, forced=forced)
    match = match.model_copy(update={"reveals": (*match.reveals, reveal)})
    if match.step == Step.DEFENDER:
        pools = tuple(tuple(p for p in pool if p != picked[0]) for pool, picked in zip(match.pools, (one, two)))
        return _begin(match.model_copy(update={"defenders": (one[0], two[0]), "pools": pools,
                                               "step": Step.ATTACKERS}))
    if match.step == Step.ATTACKERS:
        pools = tuple(tuple(p for p in pool if p not in picked) for pool, picked in zip(match.pools, (one, two)))
        return _begin(match.model_copy(update={"attackers": (one, two), "pools": pools, "step": Step.CHOICE}))
    if match.step == Step.CHOICE:
        return _begin(_fix_choices(match, (one[0], two[0])))
    return _next_module(match.model_copy(update={"games": tuple(
        game.model_copy(update={"layout": _layout_of(match, game)}) for game in match.games)}))


def _fix_choices(match: TeamMatch, chosen: tuple[str, str]) -> TeamMatch:
    """Each Defender plays the Attacker their team chose; the refused go back (Skirmish) or play each other."""
    defenders = (match.defenders[0], match.defenders[1])
    assert defenders[0] is not None and defenders[1] is not None
    games = [FixedGame(players=(defenders[0], chosen[0]), kind=GameKind.DEFENDER, module=match.module,
                       defender=defenders[0]),
             FixedGame(players=(chosen[1], defenders[1]), kind=GameKind.DEFENDER, module=match.module,
                       defender=defenders[1])]
    refused = (next(a for a in match.attackers[0] if a != chosen[1]),
               next(a for a in match.attackers[1] if a != chosen[0]))
    pools = match.pools
    if match.current == Module.MAIN:
        games.append(FixedGame(players=refused, kind=GameKind.REFUSED, module=match.module,
                               layout=match.round_layout))
    else:
        pools = (pools[0] + (refused[0],), pools[1] + (refused[1],))
    return match.model_copy(update={"games": (*match.games, *games), "pools": pools, "step": Step.LAYOUT,
                                    "defenders": (None, None), "attackers": ((), ())})


def _declare(match: TeamMatch, side: int, letter: str) -> TeamMatch:
    """In turn: one Defender's layout shown at once."""
    reveal = Reveal(module=match.module, step=Step.LAYOUT, picks=((letter,), ()) if side == 0 else ((), (letter,)))
    return match.model_copy(update={"reveals": (*match.reveals, reveal)})


def _layout_of(match: TeamMatch, game: FixedGame) -> Layout | None:
    """A Defender's game of this module takes the layout its team declared."""
    if game.layout is not None or game.module != match.module or game.kind != GameKind.DEFENDER:
        return game.layout
    side = 0 if game.defender == game.players[0] else 1
    letter = match.sealed[side]
    assert letter is not None
    return letter[0]  # type: ignore[return-value]


def _next_module(match: TeamMatch) -> TeamMatch:
    if match.module + 1 == len(match.modules):
        return match.model_copy(update={"step": Step.DONE, "sealed": (None, None)})
    return _begin(match.model_copy(update={"module": match.module + 1, "step": Step.DEFENDER}))
