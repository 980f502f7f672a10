"""Buttons and menus of a game, as DynamicItems so they keep working after a restart.

Every custom id carries the game id, the board version it was drawn at and a verb (at most 100
characters): a press on an outdated board is refused, and a menu from an old board can never act twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.ui.dynamic import WORD, CustomId, Persistent

if TYPE_CHECKING:
    from bot.ui.desk_api import Presses

BUTTON_ID = CustomId("mdb:{game}:{version}:{verb}", verb=WORD)
SELECT_ID = CustomId("mds:{game}:{version}:{verb}", verb=WORD)

BUTTONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "accept": ("Accept the game", discord.ButtonStyle.success),
    "accept-first": ("Accept the game", discord.ButtonStyle.success),
    "rematch": ("Rematch", discord.ButtonStyle.primary),
    "decline": ("Decline", discord.ButtonStyle.secondary),
    "attacker": ("I'll be the Attacker", discord.ButtonStyle.primary),
    "defender": ("I'll be the Defender", discord.ButtonStyle.primary),
    "disposition": ("Pick Force Disposition", discord.ButtonStyle.primary),
    "mirror": ("Agree on Mirrored World's mission", discord.ButtonStyle.secondary),
    "choose": ("Choose Secondary Missions", discord.ButtonStyle.primary),
    "ready": ("Battle Ready", discord.ButtonStyle.secondary),
    "army": ("Set army", discord.ButtonStyle.secondary),
    "deployed": ("Deployment done", discord.ButtonStyle.success),
    "endcmd": ("End Command phase", discord.ButtonStyle.primary),
    "endturn": ("End turn", discord.ButtonStyle.primary),
    "done": ("Done scoring", discord.ButtonStyle.success),
    "rounddone": ("Done scoring", discord.ButtonStyle.success),
    "readydeploy": ("Battle Ready: deployment done", discord.ButtonStyle.success),
    "notreadydeploy": ("Not Battle Ready: deployment done", discord.ButtonStyle.secondary),
    "score": ("Score", discord.ButtonStyle.success),
    "neworders": ("New Orders (1CP)", discord.ButtonStyle.secondary),
    "swap": ("Swap a card (1CP, once)", discord.ButtonStyle.secondary),
    "discard": ("Discard", discord.ButtonStyle.secondary),
    "answer": ("Answer", discord.ButtonStyle.danger),
    "challenger": ("Challenger card", discord.ButtonStyle.secondary),
    "adapt": ("Adapt or Die", discord.ButtonStyle.secondary),
    "corner": ("Hidden Supplies corner", discord.ButtonStyle.secondary),
    "ritual": ("Ritual marker set up", discord.ButtonStyle.secondary),
    "undo": ("Undo", discord.ButtonStyle.secondary),
    "pause": ("Pause clock", discord.ButtonStyle.secondary),
    "resume": ("Resume clock", discord.ButtonStyle.success),
    "claim": ("Claim the game on time", discord.ButtonStyle.danger),
    "tactical": ("Use Tactical Missions", discord.ButtonStyle.primary),
    "keep": ("Keep all", discord.ButtonStyle.secondary),
    "yes": ("Yes", discord.ButtonStyle.success),
    "no": ("No", discord.ButtonStyle.secondary),
    "units": ("Name units", discord.ButtonStyle.primary),
    "nounits": ("No units on the battlefield", discord.ButtonStyle.secondary),
    "nogamma": ("No Gamma Target", discord.ButtonStyle.secondary),
    "stratagem": ("Use as Stratagem", discord.ButtonStyle.primary),
    "mission": ("Go for the Mission", discord.ButtonStyle.success),
    "select": ("Select secondary objectives", discord.ButtonStyle.primary),
    "gofirst": ("Take the first turn", discord.ButtonStyle.primary),
    "gosecond": ("Take the second turn", discord.ButtonStyle.primary),
    "pickmission": ("Choose the mission", discord.ButtonStyle.primary),
    "outcome": ("Record the mission's outcome", discord.ButtonStyle.primary),
    "endby-first": ("Agree to abandon", discord.ButtonStyle.danger),
    "endby-second": ("Agree to abandon", discord.ButtonStyle.danger),
    "table": ("Open the table", discord.ButtonStyle.success),
}


def _desk(interaction: discord.Interaction) -> Presses:
    return interaction.client.desk  # type: ignore[attr-defined]


class GameButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=BUTTON_ID):
    what = "Button {verb} of game {game}"

    def __init__(self, game: int, version: int, verb: str, *, disabled: bool = False) -> None:
        label, style = BUTTONS[verb]
        super().__init__(discord.ui.Button(
            label=label, style=style, custom_id=self.custom_ids.format(game=game, version=version, verb=verb),
            disabled=disabled,
        ))
        self.game, self.version, self.verb = game, version, verb

    async def act(self, interaction: discord.Interaction) -> None:
        await _desk(interaction).on_button(interaction, self.game, self.version, self.verb)


class GameSelect(Persistent, discord.ui.DynamicItem[discord.ui.Select], custom_id=SELECT_ID):
    what = "Menu {verb} of game {game}"

    def __init__(self, game: int, version: int, verb: str, *, placeholder: str = "Choose…",
                 options: list[tuple[str, str]] | None = None, min_values: int = 1,
                 max_values: int = 1) -> None:
        options = options or [("—", "-")]
        super().__init__(discord.ui.Select(
            custom_id=self.custom_ids.format(game=game, version=version, verb=verb), placeholder=placeholder,
            options=[discord.SelectOption(label=label, value=value) for label, value in options],
            min_values=min_values, max_values=min(max_values, len(options)),
        ))
        self.game, self.version, self.verb = game, version, verb

    async def act(self, interaction: discord.Interaction) -> None:
        await _desk(interaction).on_select(interaction, self.game, self.version, self.verb, list(self.item.values))


def view_of(*items: discord.ui.Item) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
