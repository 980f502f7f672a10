"""The state of a table game of an older pack: immutable pydantic models, stored as JSON like the Chapter
Approved state (bot/engine/chapter_approved/state.py), with their own schema version."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from bot.engine.models import Army, Clock, Expiry, Frozen, Result, RollOff, Seats

TABLE_SCHEMA = 1  # of a table game's snapshot; bot/store/codec.py upgrades older ones
# Of the setup: 2, SHA-256 streams (docs/verify.md); 3, the end of a battle round is a step of its own (objectives
# scored "at the end of the battle round") and a VP entry above what an objective gives at once is refused.
TABLE_VERSION = 3
END_GAME = 0  # the battle round an End Game score is recorded in


class Step(StrEnum):
    MISSION = "mission"  # 4th edition: the Strategy Roll winner chooses the mission
    SECONDARIES = "secondaries"  # GT 2020: each player secretly selects their secondary objectives
    SIDES = "sides"  # the roll-off winner chooses Attacker or Defender
    DEPLOYMENT = "deployment"  # armies are set up; each player confirms
    FIRST_TURN = "first_turn"  # the first-turn roll-off winner chooses to go first or second
    BATTLE = "battle"
    ROUND_END = "round_end"  # version 3: objectives scored at the end of the battle round, each scorer confirms
    END_GAME = "end_game"  # the battle is over: End Game objectives are scored, each player confirms
    ENDED = "ended"
    ABANDONED = "abandoned"


class TableSetup(Frozen):
    """What the players asked for; with the seed it determines every roll."""

    pack: Literal["gt-2020", "4th-edition"]
    players: tuple[str, str] = Field(description="Discord user ids: the challenger of the game first")
    names: tuple[str, str]
    size: Literal["incursion", "strike-force"] | None = Field(None, description="GT 2020's battle size")
    mission: str | None = Field(None, description="The mission agreed on; None: rolled")
    level: str | None = Field(None, description="4th edition: the level agreed on; None: rolled")
    strategy_ratings: tuple[int, int] = Field((1, 1), description="4th edition: each army's Strategy Rating")
    seed: str
    seed_fixed_by: str | None = Field(None, description="The player who fixed the seed (public); None: the bot's")
    clock_minutes: int | None = None
    clock_expiry: Expiry = "play-on"
    armies: tuple[Army | None, Army | None] | None = Field(
        None, description="Each seat's army, set beforehand (an event's lists, or the challenger's /game new)")
    version: int = Field(TABLE_VERSION, description="How its random streams are made and its rules' version")


class Seat(Frozen):
    id: str
    name: str
    cp: int = 0
    cp_round: int = Field(0, description="Battle round of the last CP gained under the per-round limit")
    cp_gained: int = Field(0, description="CP gained under that limit in that round")
    battle_ready: bool = False
    ready_declared: bool = Field(False, description="Battle Ready or not was declared (False: never asked)")
    secret: tuple[str, ...] | None = Field(None, description="Selected secondary objectives, hidden until both chose")
    objectives: tuple[str, ...] = Field((), description="The revealed secondary objectives")
    codex: str | None = Field(None, description="The name of a Codex secondary objective selected")
    army: Army | None = Field(None, description="Set before the battle")


class Tally(Frozen):
    """VP scored for one objective in one battle round (END_GAME: at the end of the battle)."""

    player: str
    objective: str = Field(description="'primary:<n>', a secondary objective's id, 'vp' or 'battle_ready'")
    round: int
    claimed: int
    awarded: int
    capped_by: str | None = None

    @property
    def lost(self) -> int:
        return self.claimed - self.awarded


class TableState(Seats, Frozen):
    schema_version: int = TABLE_SCHEMA
    setup: TableSetup
    mission: str | None = Field(description="None until the Strategy Roll winner has chosen (4th edition)")
    level: str | None = None
    d33: tuple[int, int] | None = Field(None, description="GT 2020: the D33 roll (None: agreed)")
    mission_roll: int | None = Field(None, description="4th edition: the D6 (None: agreed)")
    strategy_roll: RollOff | None = None
    level_roll: int | None = None
    set_up_roll: RollOff | None = Field(None, description="4th edition: corner or table edge, the winner chooses")
    token_d3: int | None = None
    first_token: str | None = None
    infiltrate_first: str | None = None
    dusk_and_dawn: int | None = None
    battle_rounds: int
    length_rolls: tuple[int, ...] = Field((), description="Random Game Length: the D6 after each last round")
    sides_rolloff: RollOff | None = None
    attacker: str | None = None
    first_turn_rolloff: RollOff | None = None
    first: str | None = None
    status: Step
    round: int = 0
    turn: int = 0
    command_phase: bool = Field(False, description="GT 2020: the active player is in their Command phase")
    players: tuple[Seat, Seat]
    deployed: tuple[str, ...] = ()
    scoring_done: tuple[str, ...] = Field((), description="Players who finished the End Game scoring")
    mission_winner: str | None = Field(None, description="4th edition Alpha: who achieved the mission objective")
    mission_decided: bool = Field(False, description="4th edition Alpha: the mission's outcome is recorded")
    vp: tuple[Tally, ...] = ()
    result: Result | None = None
    clock: Clock | None = None

    @property
    def pack(self) -> str:
        return self.setup.pack

    @property
    def defender(self) -> str | None:
        return None if self.attacker is None else self.opponent(self.attacker).id

    @property
    def active(self) -> str | None:
        """The player whose turn it is."""
        if self.status != Step.BATTLE or self.first is None:
            return None
        return self.first if self.turn == 1 else self.opponent(self.first).id

    @property
    def over(self) -> bool:
        return self.status in (Step.ENDED, Step.ABANDONED)

    def total_vp(self, player_id: str) -> int:
        return sum(t.awarded for t in self.vp if t.player == player_id)
