"""A player's army in a game, from what they typed or the list they gave: the list read and checked against the army
data, kept, and the move that sets the army (every surface that takes an army goes through here)."""

from __future__ import annotations

from bot.armies.check import CheckedList, army_from, read_list
from bot.armies.data import POINTS_LIMITS, army_data
from bot.armies.lists import ListError
from bot.engine.errors import GameError
from bot.engine.moves import SetArmy
from bot.engine.sides import partners, seat_of
from bot.services.games import GameService
from bot.store.repository import GameRecord


async def army_move(service: GameService, me: str, guild_id: int | None, game_id: int, *, faction: str | None,
                    detachment: str | None, text: str | None = None,
                    file: tuple[str, bytes] | None = None) -> tuple[SetArmy, CheckedList | None]:
    """Read what the player gave and keep their list: the move that sets their army in the game, and the checked list
    (its flags are for the player alone; the army itself shows on the board). Refused (a stranger, the battle
    begun) before the list is kept, so a refusal changes nothing."""
    checked = kept = None
    if text or file:
        try:
            kept, checked = read_list(text, file=file, faction=faction, detachment=detachment)
        except ListError as exc:
            raise GameError(str(exc)) from None
    elif not faction:
        raise GameError("Name your faction, or paste or attach your list.")
    army = army_from(army_data(), faction or "", detachment, checked)
    record = await service.get_state(game_id=game_id)
    seat = seat_of(record.setup, me) or me  # a stranger is refused by the rules, just below
    move = SetArmy(actor=seat, army=army, partner=seat != me)
    service.packs.apply(record.state, move)
    if checked is not None:
        checked = checked.model_copy(update={"flags": (*checked.flags, *await _side_flags(service, record, move, checked))})
        list_id = await service.lists.add(owner=me, guild_id=guild_id, text=kept or "", checked=checked)
        move = move.model_copy(update={"army": army.model_copy(update={"list_id": list_id})})
    return move, checked


async def _side_flags(service: GameService, record: GameRecord, move: SetArmy, checked: CheckedList) -> list[str]:
    """Doubles: what a side's two lists should not both hold, flagged, never refused: more than half the game's
    points in one list, an enhancement in both (the data marks no named characters, so those are for the players)."""
    if partners(record.setup) is None:
        return []
    flags = []
    limit = POINTS_LIMITS.get(record.setup.size or "")
    if limit and checked.points > limit // 2:
        flags.append(f"Doubles: each player brings about half the game's {limit:,} points; this list is "
                     f"{checked.points:,}.")
    side = record.state.player(move.actor)
    other = side.army if move.partner else side.partner_army
    found = await service.lists.get(other.list_id) if other is not None and other.list_id else None
    if found is not None:
        theirs = {e for unit in found[1].units for e in unit.enhancements}
        shared = sorted({e for unit in checked.units for e in unit.enhancements} & theirs)
        if shared:
            flags.append(f"Doubles: {', '.join(shared)} {'is' if len(shared) == 1 else 'are'} in both lists of your "
                         "side; a side takes each enhancement once.")
    return flags
