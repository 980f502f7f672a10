"""What a game offers a player now, below every surface: its controls (each a move made at once, a menu or a form),
each menu's picks and buttons, each form's fields and their limits. The Discord board and its private menus and
forms render them (bot/ui/controls.py, bot/ui/forms.py); the Activity draws the same ones as its own controls
(bot/web/activity.py); the organiser's desk and any later surface would too. What each family of packs offers is
mission_deck_offers.py and table_offers.py; play.py asks the right one, and reads a choice back into its move."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Style = Literal["primary", "secondary", "success", "danger"]
Kind = Literal["move", "menu", "form"]  # a move made at once, a menu to pick from, a form to type in
MENU_OPTIONS = 25  # a menu offers at most this many options (Discord's select menu holds no more)
LABEL_CHARS = 100  # an option's label at most (Discord's limit)

# Every control's label and emphasis, by verb.
LABELS: dict[str, tuple[str, Style]] = {
    "accept": ("Accept the game", "success"),
    "accept-first": ("Accept the game", "success"),
    "rematch": ("Rematch", "primary"),
    "decline": ("Decline", "secondary"),
    "attacker": ("I'll be the Attacker", "primary"),
    "defender": ("I'll be the Defender", "primary"),
    "disposition": ("Pick Force Disposition", "primary"),
    "mirror": ("Agree on Mirrored World's mission", "secondary"),
    "choose": ("Choose Secondary Missions", "primary"),
    "ready": ("Battle Ready", "secondary"),
    "army": ("Set army", "secondary"),
    "deployed": ("Deployment done", "success"),
    "endcmd": ("End Command phase", "primary"),
    "endturn": ("End turn", "primary"),
    "done": ("Done scoring", "success"),
    "rounddone": ("Done scoring", "success"),
    "readydeploy": ("Battle Ready: deployment done", "success"),
    "notreadydeploy": ("Not Battle Ready: deployment done", "secondary"),
    "score": ("Score", "success"),
    "neworders": ("New Orders (1CP)", "secondary"),
    "swap": ("Swap a card (1CP, once)", "secondary"),
    "discard": ("Discard", "secondary"),
    "answer": ("Answer", "danger"),
    "challenger": ("Challenger card", "secondary"),
    "adapt": ("Adapt or Die", "secondary"),
    "corner": ("Hidden Supplies corner", "secondary"),
    "ritual": ("Ritual marker set up", "secondary"),
    "undo": ("Undo", "secondary"),
    "pause": ("Pause clock", "secondary"),
    "resume": ("Resume clock", "success"),
    "claim": ("Claim the game on time", "danger"),
    "tactical": ("Use Tactical Missions", "primary"),
    "keep": ("Keep all", "secondary"),
    "yes": ("Yes", "success"),
    "no": ("No", "secondary"),
    "units": ("Name units", "primary"),
    "nounits": ("No units on the battlefield", "secondary"),
    "nogamma": ("No Gamma Target", "secondary"),
    "stratagem": ("Use as Stratagem", "primary"),
    "mission": ("Go for the Mission", "success"),
    "select": ("Select secondary objectives", "primary"),
    "gofirst": ("Take the first turn", "primary"),
    "gosecond": ("Take the second turn", "primary"),
    "pickmission": ("Choose the mission", "primary"),
    "outcome": ("Record the mission's outcome", "primary"),
    "endby-first": ("Agree to abandon", "danger"),
    "endby-second": ("Agree to abandon", "danger"),
    "table": ("Open the table", "success"),
}


@dataclass(frozen=True)
class Control:
    """A button: `kind` says what pressing it does (a move, or it opens a menu or a form)."""

    verb: str
    kind: Kind = "move"

    @property
    def label(self) -> str:
        return LABELS[self.verb][0]

    @property
    def style(self) -> Style:
        return LABELS[self.verb][1]

    def as_dict(self) -> dict[str, Any]:
        return {"verb": self.verb, "label": self.label, "kind": self.kind}


@dataclass(frozen=True)
class Choice:
    label: str
    value: str
    description: str | None = None


@dataclass(frozen=True)
class Pick:
    """A menu's list to pick from: `least` to `most` of its options."""

    verb: str
    options: tuple[Choice, ...]
    placeholder: str = "Choose…"
    least: int = 1
    at_most: int = 1

    @property
    def most(self) -> int:
        return min(self.at_most, len(self.options))

    def as_dict(self) -> dict[str, Any]:
        return {"kind": "select", "verb": self.verb, "placeholder": self.placeholder,
                "options": [{"label": o.label, "value": o.value, "description": o.description} for o in self.options],
                "min": self.least, "max": self.most}


def fit(label: str) -> str:
    """A label cut to LABEL_CHARS, the cut marked."""
    return label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"


def choices(pairs: list[tuple[str, str]]) -> tuple[Choice, ...]:
    """(label, value) pairs as a menu's options."""
    return tuple(Choice(label, value) for label, value in pairs)


@dataclass(frozen=True)
class Menu:
    """What a control's menu says and offers: lists to pick from and buttons."""

    content: str
    items: tuple[Pick | Control, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"content": self.content,
                "items": [{"kind": "button", "verb": i.verb, "label": i.label} if isinstance(i, Control)
                          else i.as_dict() for i in self.items]}


@dataclass(frozen=True)
class Field:
    """One text input of a form."""

    id: str
    label: str
    placeholder: str | None = None
    required: bool = True
    max_length: int = 80
    paragraph: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "placeholder": self.placeholder or "",
                "required": self.required, "max_length": self.max_length, "paragraph": self.paragraph}


@dataclass(frozen=True)
class FormSpec:
    """What a form asks: its title and fields; `file`: a list file may come with it (the Activity's dialog takes
    one; in Discord a file is attached to /army set instead)."""

    title: str
    fields: tuple[Field, ...]
    file: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"title": self.title, "fields": [f.as_dict() for f in self.fields], "file": self.file}


LIST_CHARS = 4000  # a list pasted in a form, at most (Discord's longest text input)


def army_fields(*, list_required: bool) -> tuple[Field, ...]:
    """The fields of a form that takes an army: faction and detachment (typos forgiven), and a pasted list."""
    return (
        Field("faction", "Faction", "e.g. Space Wolves (or leave it to your list)", required=False, max_length=60),
        Field("detachment", "Detachments (give your Force Disposition)",
              "e.g. Saga of the Hunter, or Pantheon of Woe and Skyshroud Spearhead", required=False),
        Field("list", "Your list" if list_required else "Your list (optional)",
              "Paste the Warhammer 40,000 app's export, or a compact (WTC) list", required=list_required,
              max_length=LIST_CHARS, paragraph=True),
    )


ARMY_FORM = FormSpec("Your army", army_fields(list_required=False), file=True)  # every pack's Set army


def army_values(values: dict[str, str]) -> dict[str, str]:
    """What an army form's fields hold, trimmed, as the army service takes them."""
    return {"faction": values.get("faction", "").strip(), "detachment": values.get("detachment", "").strip(),
            "text": values.get("list", "").strip()}
