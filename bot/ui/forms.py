"""The bot's forms (Discord modals): every submission is answered, whatever happened since the form was shown.

discord.py holds a modal only from the moment the response showing it has come back until its timeout or a restart,
and drops a submission it does not hold without a word: the player sees "This interaction failed". A player quick
to submit beat that response on a busy bot (issue 34). So the bot holds its forms itself, from when it makes them,
and answers each submission through one listener (`answer_form`, added by the desk): a form it no longer holds is
refused privately, like an outdated board; one it holds is acknowledged first, then acted on, any refusal or
unexpected failure answered as the buttons answer theirs.

What a form asks is a `FormSpec` (bot/present/offers.py), which the Activity draws as a dialog of its own
(bot/web/activity.py) and the same move reads back: a form's fields and its move are written once for both.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from typing import Any

import discord

from bot.present.offers import FormSpec
from bot.ui.errors import answer_failure, send_error

PREFIX = "mdf:"  # the custom id of every form of the bot
HELD = 4096  # forms held at once: past that the oldest go, and their submission is refused as expired
EXPIRED = "This form has expired: open it again from the board."

_held: OrderedDict[str, Form] = OrderedDict()


class Form(discord.ui.Modal):
    """A form that `submit`s what was typed (by input custom id) once its submission is acknowledged."""

    def __init__(self, spec: FormSpec) -> None:
        super().__init__(title=spec.title[:45], custom_id=f"{PREFIX}{uuid.uuid4().hex}")
        self.stop()  # discord.py keeps no copy of a stopped modal: every submission comes to answer_form
        for field in spec.fields:
            self.add_item(discord.ui.TextInput(
                label=field.label, custom_id=field.id, placeholder=field.placeholder, required=field.required,
                max_length=field.max_length,
                style=discord.TextStyle.paragraph if field.paragraph else discord.TextStyle.short))
        _held[self.custom_id] = self
        while len(_held) > HELD:
            _held.popitem(last=False)

    async def submit(self, interaction: discord.Interaction, values: dict[str, str]) -> None:
        raise NotImplementedError

    async def answer(self, interaction: discord.Interaction) -> None:
        try:
            # First, before any wait (the database, a game's lock): the menu it came from stays as it is, a form
            # shown from a command gets a private "thinking…".
            await interaction.response.defer(ephemeral=True, thinking=interaction.message is None)
            await self.submit(interaction, typed((interaction.data or {}).get("components", [])))
        except Exception as exc:
            await answer_failure(interaction, exc, f"Form {self.title!r} of user {interaction.user.id}")


def typed(components: list[dict[str, Any]]) -> dict[str, str]:
    """What a submission's text inputs hold, by custom id (in action rows or labels)."""
    values = {}
    for component in components:
        if component.get("type") == discord.ComponentType.text_input.value:
            values[component["custom_id"]] = component.get("value", "")
        nested = component.get("components", []) + ([component["component"]] if "component" in component else [])
        values |= typed(nested)
    return values


async def answer_form(interaction: discord.Interaction) -> None:
    """on_interaction: the one answer to every submission of the bot's forms."""
    custom_id = (interaction.data or {}).get("custom_id", "")
    if interaction.type is not discord.InteractionType.modal_submit or not custom_id.startswith(PREFIX):
        return
    form = _held.pop(custom_id, None)  # a form acts once: Discord closes it once answered
    if form is None:  # shown before a restart, or long ago
        await send_error(interaction, EXPIRED)
    else:
        await form.answer(interaction)
