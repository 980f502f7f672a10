"""The judges' persistent buttons: **Call a judge** on an event table's board, and a call's **Claim**, **Resolved**
and **+5 minutes** in the judges' channel; and the form that takes a ruling. Each press goes to the bot's judge
desk (bot/ui/judges/desk.py), which answers a refusal privately."""

from __future__ import annotations

from typing import Protocol

import discord

from bot.services.judges import EXTRA_MINUTES, MAX_RULING
from bot.store.judge_models import JudgeCall
from bot.ui.dynamic import CustomId, Persistent, one_of
from bot.present.offers import Field, FormSpec
from bot.ui.forms import Form

CALL_ID = CustomId("mdjc:{game}")
JUDGE_ID = CustomId("mdj:{call}:{action}", action=one_of("claim", "resolve", "time"))
LABELS = {"claim": ("Claim", discord.ButtonStyle.success), "resolve": ("Resolved", discord.ButtonStyle.primary),
          "time": (f"+{EXTRA_MINUTES} minutes", discord.ButtonStyle.secondary)}
BOARD_ROW = 4  # under the game's own buttons


class JudgeDesk(Protocol):
    """What the buttons ask of the bot's judge desk (bot/ui/judges/desk.py), which imports them."""

    async def call_from_board(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def on_press(self, interaction: discord.Interaction, call_id: int, action: str) -> None: ...

    async def resolve(self, interaction: discord.Interaction, call_id: int, ruling: str | None) -> None: ...


def _judges(interaction: discord.Interaction) -> JudgeDesk:
    return interaction.client.judges  # type: ignore[attr-defined]


class CallJudgeButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=CALL_ID):
    """On the board of a game played at an event's table: one of its players calls a judge."""

    what = "Calling a judge from game {game}"

    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(label="Call a judge", emoji="🛎️", style=discord.ButtonStyle.secondary,
                                           custom_id=self.custom_ids.format(game=game), row=BOARD_ROW))
        self.game = game

    async def act(self, interaction: discord.Interaction) -> None:
        await _judges(interaction).call_from_board(interaction, self.game)


class JudgeCallButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=JUDGE_ID):
    """A call's buttons in the judges' channel: a judge claims it, then resolves it; an organiser gives time."""

    what = "Judge call {call} ({action})"

    def __init__(self, call: int, action: str) -> None:
        label, style = LABELS[action]
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=self.custom_ids.format(call=call, action=action)))
        self.call, self.action = call, action

    async def act(self, interaction: discord.Interaction) -> None:
        await _judges(interaction).on_press(interaction, self.call, self.action)


def call_view(call: JudgeCall) -> discord.ui.View:
    """An open call: Claim (until claimed), Resolved and the time button; a closed one keeps the time button."""
    if call.resolved_at is not None:
        actions = ["time"]
    elif call.claimed_by is not None:
        actions = ["resolve", "time"]
    else:
        actions = ["claim", "resolve", "time"]
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(JudgeCallButton(call.id or 0, action))
    return view


RULING = Field("ruling", "Your ruling (optional)", placeholder="What you ruled: it is kept in the event's log",
               required=False, max_length=MAX_RULING, paragraph=True)


class RulingForm(Form):
    """Resolved: the judge's ruling, kept with the call."""

    def __init__(self, desk: JudgeDesk, call: JudgeCall) -> None:
        super().__init__(FormSpec(title=f"Resolve table {call.table_number}'s call", fields=(RULING,)))
        self.desk, self.call_id = desk, call.id or 0

    async def submit(self, interaction: discord.Interaction, values: dict[str, str]) -> None:
        await self.desk.resolve(interaction, self.call_id, values.get("ruling"))
