"""What every persistent button and menu shares: its custom id written once, and its failures answered one way.

    class CheckIn(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=CustomId("mdtk:{tournament}")):
        what = "Checking in to tournament {tournament}"

        def __init__(self, tournament: int) -> None:
            custom_id = self.custom_ids.format(tournament=tournament)
            super().__init__(discord.ui.Button(label="Check in", custom_id=custom_id))
            self.tournament = tournament

        async def act(self, interaction: discord.Interaction) -> None:
            ...  # raise GameError to refuse: the presser alone is told why

A posted id lives on in Discord's messages: change a CustomId and every board already posted stops answering.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple

import discord

from bot.ui.errors import answer_failure


class Field(NamedTuple):
    """One part of a custom id: the text it may be, and how it is read back."""

    regex: str
    read: Callable[[str], Any] = str


INT = Field(r"[0-9]+", int)
DIGITS = Field(r"[0-9]+")  # a Discord user id, kept as the text the store keeps it as
WORD = Field(r"[a-z-]+")
DIGEST = Field(r"[0-9a-f]{12}")


def one_of(*words: str) -> Field:
    return Field("|".join(map(re.escape, words)))


class CustomId:
    """A custom id such as "mdt:{tournament}:{round_number}": the regex DynamicItem matches (`template`) and the id
    posted (`format`) both come from it. A field is a number (INT) unless named with another Field."""

    def __init__(self, pattern: str, **fields: Field) -> None:
        parts = list(string.Formatter().parse(pattern))
        names = [name for _, name, _, _ in parts if name is not None]
        if unknown := set(fields) - set(names):
            raise ValueError(f"{pattern!r} has no field {sorted(unknown)}")
        self.pattern = pattern
        self.fields = {name: fields.get(name, INT) for name in names}
        self.template = "".join(re.escape(text) + (f"(?P<{name}>{self.fields[name].regex})" if name else "")
                                for text, name, _, _ in parts)

    def format(self, **values: Any) -> str:
        return self.pattern.format(**values)

    def read(self, match: re.Match[str]) -> dict[str, Any]:
        """The fields of a matched id, numbers as numbers."""
        return {name: field.read(match[name]) for name, field in self.fields.items()}

    def parse(self, custom_id: str) -> dict[str, Any] | None:
        """The fields of an id, or None for an id of another item."""
        match = re.fullmatch(self.template, custom_id)
        return None if match is None else self.read(match)


class Persistent:
    """Mixed in before discord.ui.DynamicItem (so its callback is the one called), with the class keyword
    `custom_id=CustomId(...)`, which gives DynamicItem its template. The item's work goes in `act`: whatever it
    raises is answered by answer_failure, privately, with `what` (a description that may name the id's fields,
    "Full list {list_id}") in the log. `from_custom_id` builds the item from the id's fields by name; an item whose
    __init__ takes other arguments overrides it.
    """

    custom_ids: ClassVar[CustomId]
    what: ClassVar[str]

    def __init_subclass__(cls, *, custom_id: CustomId, **kwargs: Any) -> None:
        super().__init_subclass__(template=custom_id.template, **kwargs)  # type: ignore[call-arg]
        cls.custom_ids = custom_id
        # A missing `what`, or one naming a field the id lacks, would only show when a press fails: fail at import.
        cls.what.format(**dict.fromkeys(custom_id.fields, 0))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]):
        return cls(**cls.custom_ids.read(match))

    async def act(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.act(interaction)
        except Exception as exc:
            fields = self.custom_ids.parse(self.custom_id)  # type: ignore[attr-defined]
            await answer_failure(interaction, exc, self.what.format(**fields))
