"""The state of one Chapter Approved game: immutable pydantic models (bot/engine/models.py) that serialise to
JSON for the store."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from bot.engine.chapter_approved.catalog import GameSize
from bot.engine.models import Army, Clock, Expiry, Frozen, Result, RollOff, Seats

SCHEMA_VERSION = 4  # of the snapshot (4: a chess clock); bot/store/codec.py upgrades older ones
CA_PACK = "ca-2025-26"  # the pack these models belong to (bot/engine/packs.py)
SETUP_VERSION = 5  # of the setup: how its random streams are made and which rules it is played by


class Status(StrEnum):
    DISPOSITIONS = "dispositions"  # CA 2026-27: both players secretly pick a Force Disposition
    SIDES = "sides"  # the Attacker/Defender roll-off winner chooses a side
    SECONDARIES = "secondaries"  # both players secretly choose Fixed or Tactical
    DEPLOYMENT = "deployment"  # version 2: armies are set up; each player confirms, then the first turn
    BATTLE = "battle"
    ENDED = "ended"
    ABANDONED = "abandoned"


class Phase(StrEnum):
    COMMAND = "command"
    BATTLE = "battle"  # Movement to Fight: the bot does not need to tell these apart
    END_OF_TURN = "end_of_turn"  # scoring window at the end of the turn
    DISCARDS = "discards"  # achieved cards gone; each Tactical player may discard, turn player first


class Source(StrEnum):
    PRIMARY = "primary"
    SECONDARY = "secondary"
    CHALLENGER = "challenger"
    BATTLE_READY = "battle_ready"


class GameSetup(Frozen):
    """What the players asked for; with the seed it determines every shuffle and roll."""

    size: GameSize
    players: tuple[str, str] = Field(description="Discord user ids: the challenger of the game first")
    names: tuple[str, str]
    twist: bool = False
    challenger_cards: bool = True
    mission: str | None = Field(None, description="Tournament Mission Pool letter, or None to draw")
    seed: str
    pack: str = Field(CA_PACK, description="The Chapter Approved season whose decks the game uses (its catalog's id)")
    seed_fixed_by: str | None = Field(
        None, description="The player who fixed the seed (a replay, public from the start); None: made by the bot")
    clock_minutes: int | None = Field(None, description="Each player's time on the chess clock (None: no clock)")
    clock_expiry: Expiry = "play-on"
    # CA 2026-27 (Force Dispositions): what the players or the organiser settled before the game.
    dispositions: tuple[str, str] | None = Field(
        None, description="Each seat's Force Disposition, set beforehand (an event's roster); None: picked in game")
    armies: tuple[Army | None, Army | None] | None = Field(
        None, description="Each seat's army, set beforehand (an event's lists, or the challenger's /game new)")
    deployment: str | None = Field(None, description="The Deployment card the players chose (None: drawn)")
    layout: Literal["A", "B", "C"] | None = Field(
        None, description="The layout of the pairing the players or the organiser chose (None: drawn)")
    battlefield: Literal["deployment", "layout"] = Field(
        "deployment", description="CA 2026-27 from version 4: a Deployment card, or the pairing's layout (its card "
                                  "shows the deployment; chosen `layout` implies it)")
    defender: str | None = Field(
        None, description="CA 2026-27: the Defender a team pairing fixed (its Defender's game): no roll-off for the "
                          "roles. None: the roll-off winner chooses")
    partners: tuple[str, str] | None = Field(
        None, description="Doubles: each side's second player (Discord user ids). A side plays as one seat, its first "
                          "player's id; `names` names both its players")
    player_names: tuple[tuple[str, str], tuple[str, str]] | None = Field(
        None, description="Doubles: each side's two players by their own names, its first player first")
    partner_armies: tuple[Army | None, Army | None] | None = Field(
        None, description="Doubles: each side's second player's army, set beforehand (a doubles event's lists)")
    version: int = Field(SETUP_VERSION, description=(
        "1: games stored before version 2 (Mersenne Twister streams, roll-offs and Supply Drop drawn at "
        "creation, one Done scoring closes the end of a turn); 2: SHA-256 streams (docs/verify.md) "
        "and the battle sequence's timing; 3: VP entered by hand are checked against the card's own options "
        "(games of version 2 replay without that check); 4: a CA 2026-27 game plays a Deployment card or a "
        "layout, not both (version 3 drew both); 5: once CA 2026-27's Force Dispositions are revealed, an army "
        "changes only within what keeps its disposition (version 4 took any army until the battle)"))

    @property
    def plays_layout(self) -> bool:
        """CA 2026-27: the pairing's layout shows the deployment, and no Deployment card is drawn (version 4)."""
        return self.version >= 4 and (self.battlefield == "layout" or self.layout is not None)

    @property
    def legacy(self) -> bool:
        """Stored before version 2: its log replays under the checks and the timing it was played with
        (first-turn roll-off and Supply Drop at creation, one Done scoring closing the end of a turn for
        both players, an Adapt or Die swap inside that window, add-ons and burns unchecked)."""
        return self.version < 2


class Mission(Frozen):
    deployment: str
    primary: str
    twist: str | None = None
    pool_letter: str | None = None
    layouts: tuple[str, ...] = ()
    alpha_objective: str | None = Field(None, description="Supply Drop: removed at the start of round 4")
    omega_objective: str | None = Field(None, description="Supply Drop: removed at the start of round 5")
    hidden_supplies_corners: tuple[str, ...] = Field((), description="Corners the centre marker may move to")
    hidden_supplies_rolloff: RollOff | None = None
    hidden_supplies_corner: str | None = Field(
        None, description="The corner the players moved the centre marker towards (None: not recorded)")
    # CA 2026-27: each player has their own Primary Mission, looked up from both Force Dispositions.
    primaries: tuple[str, ...] = Field((), description="Each seat's Primary Mission (empty: both play `primary`)")
    layout: str | None = Field(None, description="The event layout of the pairing (CA 2026-27)")
    mirror_rolls: tuple[int, ...] = Field((), description="Mirrored World's D6 rolls, re-rolls included")
    mirror_picks: dict[str, str] = Field(
        default_factory=dict, description="Mirrored World: the mission each player would agree on instead of the roll")


class SecondaryChoice(Frozen):
    mode: Literal["tactical", "fixed"]
    fixed_cards: tuple[str, ...] = ()


class Targets(Frozen):
    """Selections a When Drawn rule asked for, kept with the card while it is active."""

    alpha_units: tuple[str, ...] = ()
    gamma_unit: str | None = None
    objective: str | None = None
    unit: str | None = None  # Beacon's friendly unit


class PromptKind(StrEnum):
    OPTIONAL_RESHUFFLE = "optional_reshuffle"  # drawer: shuffle back and draw again?
    DISCARD_IF = "discard_if"  # drawer: does the condition hold (discard and draw again)?
    ALPHA_TARGETS = "alpha_targets"  # opponent: name up to three of your units (or none left)
    GAMMA_TARGET = "gamma_target"  # drawer: name one enemy unit (optional)
    TEMPTING_OBJECTIVE = "tempting_objective"  # opponent: pick a No Man's Land objective
    ADAPT_KEEP = "adapt_keep"  # drawer: which of two cards to keep (Adapt or Die)
    BEACON_UNIT = "beacon_unit"  # drawer: name one of their units on the battlefield (CA 2026-27)


class Prompt(Frozen):
    """A decision the game waits for before the phase can move on."""

    kind: PromptKind
    player: str = Field(description="Who must answer")
    owner: str = Field(description="Whose Secondary card it is about")
    card: str
    other_card: str | None = None  # ADAPT_KEEP: the second card drawn


class PlayerState(Frozen):
    id: str
    name: str
    battle_ready: bool = False
    choice: SecondaryChoice | None = Field(None, description="Secret until both players have chosen")
    mode: Literal["tactical", "fixed"] | None = Field(None, description="The revealed choice")
    deck: tuple[str, ...] = ()  # top of the deck first
    hand: tuple[str, ...] = ()  # active Secondary cards (Fixed cards for a Fixed player)
    discard: tuple[str, ...] = ()
    set_aside: tuple[str, ...] = ()  # a Fixed player's unused cards
    targets: dict[str, Targets] = Field(default_factory=dict)
    drawn_this_phase: tuple[str, ...] = ()
    cp: int = 0
    extra_cp_round: int = Field(0, description="Battle round of the last CP gained outside the Command phase")
    extra_cp_gained: int = Field(0, description="CP gained outside the Command phase in that round")
    stratagems_this_phase: tuple[str, ...] = ()
    challenger_card: str | None = None
    challenger_use: Literal["stratagem", "mission"] | None = None
    adapt_or_die_uses: int = 0
    disposition_choice: str | None = Field(None, description="CA 2026-27: secret until both players have picked")
    disposition: str | None = Field(None, description="CA 2026-27: the revealed Force Disposition")
    swaps_used: int = Field(0, description="CA 2026-27: swaps made (1CP, once per battle), instead of New Orders")
    army: Army | None = Field(None, description="Set before the battle; CA 2026-27: hidden until the reveal")
    partner_army: Army | None = Field(None, description="Doubles: the side's second player's army (`army`: its first "
                                                        "player's), set and hidden as `army`")

    @property
    def armies(self) -> tuple[Army, ...]:
        """The seat's armies set so far: its player's, or in doubles its two players', the first player's first."""
        return tuple(a for a in (self.army, self.partner_army) if a is not None)


class VpEntry(Frozen):
    player: str
    source: Source
    card: str | None = None
    option: str | None = None
    round: int
    turn: int = Field(description="1 or 2 within the round; 0 before or after the battle")
    claimed: int
    awarded: int
    capped_by: str | None = None
    note: str | None = None
    end_of_battle: bool = Field(False, description="Typed by hand as the end of the battle's VP: outside round caps")

    @property
    def lost(self) -> int:
        return self.claimed - self.awarded


class RitualMarker(Frozen):
    """An objective marker a completed The Ritual Action set up in No Man's Land."""

    id: str
    player: str
    round: int


class GameState(Seats, Frozen):
    schema_version: int = SCHEMA_VERSION
    setup: GameSetup
    mission: Mission
    sides_rolloff: RollOff
    first_turn_rolloff: RollOff | None = Field(
        None, description="Made once both armies are deployed (version 1: when the game was created)")
    attacker: str | None = None
    first: str | None = None
    players: tuple[PlayerState, PlayerState]
    status: Status = Status.SIDES
    round: int = 0
    turn: int = 0
    phase: Phase | None = None
    challenger: str | None = None
    challenger_deck: tuple[str, ...] = ()
    challenger_discard: tuple[str, ...] = ()
    prompts: tuple[Prompt, ...] = ()
    discard_queue: tuple[str, ...] = ()
    removed_objectives: tuple[str, ...] = Field((), description="Removed, burned or denied objective markers")
    ritual_markers: tuple[RitualMarker, ...] = ()
    deployed: tuple[str, ...] = Field((), description="Players who confirmed their deployment (version 2)")
    scoring_done: tuple[str, ...] = Field(
        (), description="Players who finished the end-of-turn scoring of this turn (version 2)")
    vp: tuple[VpEntry, ...] = ()
    shuffles: int = Field(0, description="Counter that names each reshuffle's random stream")
    result: Result | None = None
    clock: Clock | None = Field(None, description="The chess clock, if the players chose one")

    # Small read-only helpers used by the engine and the renderers.
    @property
    def pack(self) -> str:
        return self.setup.pack

    @property
    def defender(self) -> str | None:
        if self.attacker is None:
            return None
        return self.opponent(self.attacker).id

    @property
    def deploys_first(self) -> str | None:
        """The Defender sets up first; in Asymmetric War the Attacker sets up their whole army first."""
        if self.attacker is None:
            return None
        return self.attacker if self.setup.size == "asymmetric-war" else self.defender

    @property
    def active(self) -> str | None:
        """The player whose turn it is."""
        if self.status != Status.BATTLE or self.first is None:
            return None
        return self.first if self.turn == 1 else self.opponent(self.first).id

    def primary_of(self, player_id: str) -> str:
        """The Primary Mission `player_id` plays: their own (CA 2026-27, once revealed), else the shared one."""
        if self.mission.primaries:
            return self.mission.primaries[self.setup.players.index(player_id)]
        return self.mission.primary

    @property
    def primaries(self) -> tuple[str, ...]:
        """Every Primary Mission in play, once each (none before the Force Dispositions are revealed)."""
        if self.mission.primaries:
            return tuple(dict.fromkeys(self.mission.primaries))
        return (self.mission.primary,) if self.mission.primary else ()

    def total_vp(self, player_id: str, *, battle_ready: bool = True) -> int:
        return sum(
            e.awarded
            for e in self.vp
            if e.player == player_id and (battle_ready or e.source != Source.BATTLE_READY)
        )
