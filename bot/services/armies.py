"""A player's army in a game, from what they typed or the list they gave: the list read and checked against the army
data, kept, and the move that sets the army (every surface that takes an army goes through here)."""

from __future__ import annotations

from bot.armies.check import CheckedList, army_from, read_list
from bot.armies.data import army_data
from bot.armies.lists import ListError
from bot.engine.errors import GameError
from bot.engine.moves import SetArmy
from bot.services.games import GameService


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
    service.packs.apply(record.state, SetArmy(actor=me, army=army))
    if checked is not None:
        list_id = await service.lists.add(owner=me, guild_id=guild_id, text=kept or "", checked=checked)
        army = army.model_copy(update={"list_id": list_id})
    return SetArmy(actor=me, army=army), checked
