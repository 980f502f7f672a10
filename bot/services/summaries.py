"""A finished game as community memory reads it: one summary row, from the game's final state, for any pack."""

from __future__ import annotations

from typing import Any, cast

from bot.engine.packs import ChapterApprovedRules, Packs, is_mission_deck
from bot.engine.names import title_case
from bot.engine.sides import partners
from bot.engine.table.rules import TableRules


def summary_row(packs: Packs, state: Any, *, game_id: int, guild_id: int | None, channel_id: int) -> dict[str, Any]:
    """The game_summary row of a game that is over (bot/store/community_models.py, GameSummary), but for the
    moment it ended, which its save adds."""
    a, b = state.players
    result = state.result
    rules = packs.rules(state.pack)
    if isinstance(rules, ChapterApprovedRules):
        mission = " vs ".join(title_case(rules.catalog.primary(p).name) for p in state.primaries)
        deployment = rules.catalog.battlefield_name(state.mission.deployment, state.mission.layout)
    else:
        # every other installed pack is a table game's, installed as TableRules
        mission = cast(TableRules, rules).data.mission(state.mission).name if state.mission else "No mission chosen"
        deployment = None
    deck = is_mission_deck(state)
    vp = result.vp if result else {p.id: state.total_vp(p.id) for p in state.players}
    # In doubles a seat is named for its side ('Alice & Cy'): the summary keeps each player by their own name.
    doubles = partners(state.setup)
    (name_a, partner_name_a), (name_b, partner_name_b) = (state.setup.player_names if doubles
                                                          else ((a.name, None), (b.name, None)))
    partner_a, partner_b = doubles or (None, None)
    return dict(
        game_id=game_id, guild_id=guild_id, channel_id=channel_id, pack=state.pack, size=state.setup.size,
        mission=mission[:100], deployment=deployment, player_a=a.id, player_b=b.id, partner_a=partner_a,
        partner_b=partner_b, name_a=name_a[:100], name_b=name_b[:100], partner_name_a=_clip(partner_name_a),
        partner_name_b=_clip(partner_name_b), vp_a=vp.get(a.id, 0), vp_b=vp.get(b.id, 0),
        winner=result.winner if result else None, reason=result.reason if result else "abandoned",
        first=state.first, mode_a=a.mode if deck else None, mode_b=b.mode if deck else None,
        challenger=state.challenger if deck else None,
        faction_a=_army(a, "faction"), faction_b=_army(b, "faction"),
        detachment_a=_army(a, "detachment"), detachment_b=_army(b, "detachment"),
    )


def _clip(name: str | None) -> str | None:
    return name[:100] if name else None


def _army(player: Any, field: str) -> str | None:
    """A seat's faction or detachment id (games stored before armies, and players who set none: None)."""
    army = getattr(player, "army", None)
    return getattr(army, field) if army is not None else None

