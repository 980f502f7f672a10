"""What a player of a Chapter Approved game can pick right now, as (label, value) pairs for menus
(mission_deck_offers.py).

Values are compact and parsed back by `parse_score_value`; the engine re-checks every choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.chapter_approved.catalog import Catalog, ScoringOption
from bot.engine.chapter_approved.objectives import removable_objectives, table_objectives
from bot.engine.chapter_approved.scoring import window_refusal
from bot.engine.chapter_approved.state import GameState, Source
from bot.engine.names import title_case
from bot.present.offers import MENU_OPTIONS, fit

DEFAULT_MAX_COUNT = 4


@dataclass(frozen=True)
class ScoreChoice:
    source: Source
    card: str | None
    option: str
    count: int | None
    objective: str | None = None


def score_choices(catalog: Catalog, state: GameState, player_id: str) -> list[tuple[str, str]]:
    """Every scoring option whose window is open for this player, with counts for 'per' options."""
    player = state.player(player_id)
    groups: list[tuple[Source, str | None, str, tuple[ScoringOption, ...]]] = []
    primary = catalog.primary(state.primary_of(player_id))
    groups.append((Source.PRIMARY, None, "Primary", primary.scoring))
    for card_id in player.hand:
        card = catalog.secondary(card_id)
        usable = tuple(o for o in card.scoring if o.mode in ("both", player.mode))
        groups.append((Source.SECONDARY, card_id, title_case(card.name), usable))
    if player.challenger_card and player.challenger_use != "stratagem":
        challenger = catalog.challenger(player.challenger_card)
        groups.append((Source.CHALLENGER, challenger.id, "Challenger", challenger.mission.scoring))

    choices: list[tuple[str, str]] = []
    for source, card_id, what, options in groups:
        for option in options:
            if window_refusal(state, option, player_id, catalog.rules.battle_rounds) is not None:
                continue
            base = option.by_round.get(state.round, option.vp) if option.by_round else option.vp
            if option.removes_objective:  # one choice per marker it may burn or deny
                for marker in removable_objectives(catalog, state, player_id, option.removes_objective):
                    choices.append((f"{what}: {option.label} — {marker.name} — {base}VP",
                                    _value(source, card_id, option.id, None, marker.id)))
                continue
            if option.per is None:
                choices.append((f"{what}: {option.label} — {base}VP", _value(source, card_id, option.id, None)))
                continue
            for count in range(1, _max_count(option, base) + 1):
                label = f"{what}: {option.label} — {count} × {base}VP = {count * base}VP"
                choices.append((label, _value(source, card_id, option.id, count)))
    return [(fit(label), value) for label, value in choices[:MENU_OPTIONS]]


def _max_count(option: ScoringOption, base: int) -> int:
    if option.max_per_turn and base:
        return max(1, min(option.max_per_turn // base, DEFAULT_MAX_COUNT + 2))
    return DEFAULT_MAX_COUNT


def _value(source: Source, card: str | None, option: str, count: int | None, objective: str | None = None) -> str:
    return "|".join((source.value, card or "", option, str(count or ""), objective or ""))


def parse_score_value(value: str) -> ScoreChoice:
    source, card, option, count, *objective = value.split("|")  # menus drawn before objectives had 4 parts
    return ScoreChoice(Source(source), card or None, option, int(count) if count else None,
                       objective[0] or None if objective else None)


def hand_choices(catalog: Catalog, state: GameState, player_id: str) -> list[tuple[str, str]]:
    return [(title_case(catalog.secondary(c).name), c) for c in state.player(player_id).hand]


def fixed_choices(catalog: Catalog, state: GameState) -> list[tuple[str, str]]:
    tournament = state.mission.pool_letter is not None
    return [
        (title_case(card.name), card.id)
        for card in catalog.secondaries
        if card.fixed and (card.tournament_fixed or not tournament)
    ]


def objective_choices(catalog: Catalog, state: GameState) -> list[tuple[str, str]]:
    """The objective markers in No Man's Land still on the table (A Tempting Target)."""
    return [(fit(m.name), m.id) for m in table_objectives(catalog, state) if m.area == "no_mans_land"]


def corner_choices(state: GameState) -> list[tuple[str, str]]:
    return [(f"Towards the {corner} corner", corner) for corner in state.mission.hidden_supplies_corners]


def adapt_draw_choices(catalog: Catalog, state: GameState, player_id: str) -> list[tuple[str, str]]:
    """Adapt or Die, Tactical: the cards just drawn this phase that can be followed by another draw."""
    player = state.player(player_id)
    return [(title_case(catalog.secondary(c).name), c) for c in player.drawn_this_phase if c in player.hand]


def adapt_swap_choices(catalog: Catalog, state: GameState, player_id: str) -> list[tuple[str, str]]:
    """Adapt or Die, Fixed: each active card paired with each other card carrying the Fixed symbol."""
    player = state.player(player_id)
    spares = [c for c in player.set_aside if catalog.secondary(c).fixed]
    pairs = [
        (fit(f"{title_case(catalog.secondary(old).name)} → {title_case(catalog.secondary(new).name)}"),
         f"{old}|{new}")
        for old in player.hand for new in spares
    ]
    return pairs[:MENU_OPTIONS]
