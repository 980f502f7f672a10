"""What the three formats share: the points and bullet patterns, clean names and numbers, battle sizes, detachment
lines, and enhancement names without their costs."""

from __future__ import annotations

import re
import unicodedata

from bot.armies.lists.model import MAX_NAME_CHARS, BattleSize

NUMBER = r"\d{1,3}(?:[,.\u00a0\u202f ]\d{3})+|\d{1,7}"
POINTS = re.compile(rf"\(\s*(?P<points>{NUMBER})\s*(?:pts?|points?)\.?\s*\)", re.I)
# "â€¢" is "•" mangled by a wrong decoding somewhere between the exporting app and the paste
BULLET = re.compile(r"^(?:[•◦▪●‣∙·*-]|â€¢)\s*")
_NAME_NOISE = re.compile(rf"\s*\((?:\+?\s*(?:{NUMBER})\s*(?:pts?|points?)|upgrade)\)\s*$", re.I)

_BATTLE_SIZES: dict[str, tuple[BattleSize | None, int]] = {
    "combat patrol": (None, 500),
    "patrouille de combat": (None, 500),
    "incursion": ("incursion", 1000),
    "strike force": ("strike-force", 2000),
    "force de frappe": ("strike-force", 2000),
    "onslaught": ("onslaught", 3000),
}
_BATTLE_SIZE = re.compile(
    rf"^(?:battle size\s*:\s*)?(?:\d\.\s*)?(?P<name>[^()]+?)\s*"
    rf"(?:\(\s*(?P<limit>{NUMBER})\s*(?:pts?|points?)(?:\s+limit)?\s*\))?$",
    re.I,
)


# "Pantheon of Woe (2 Detachment Points)", "A and B (3 Detachment Points)", "Mont’ka (3 Points de Détachement)",
# New Recruit's "Ember Vanguard [2 DP] (Take and Hold)" and "Ember Vanguard (2 DP, Take and Hold)". The names may be
# empty: a pasted list can wrap the cost onto a line of its own.
DETACHMENT_POINTS = re.compile(
    r"^(?P<names>.*?)[\[(]\s*(?P<points>\d{1,2})\s*(?:/\s*\d{1,2}\s*)?"
    r"(?:detachment\s+points?|points?\s+de\s+d[ée]tachement|dp)\b[^()\[\]]*[\])]"
    r"(?:\s*\([^()]*\))?\s*$",
    re.I,
)
_DETACHMENT_JOIN = re.compile(r"\s*[,;]\s*|\s+(?:and|et|&|\+)\s+", re.I)
_DETACHMENT_COMMA = re.compile(r"\s*[,;]\s*")
_DETACHMENT_NOTES = re.compile(r"(?:\s*[\[(][^()\[\]]*[\])])+\s*$")


def detachment_names(text: str, *, words: bool = True) -> list[str]:
    """The detachments a line names: "A and B", "A, B" or one name (only commas part them where `words` is False),
    each less a note in brackets after it (its cost, its rule). A name that itself holds "and" or a comma is parted
    too: the check, which knows the names, joins it again."""
    names = (_DETACHMENT_NOTES.sub("", part) for part in (_DETACHMENT_JOIN if words else _DETACHMENT_COMMA).split(text))
    return [name for name in map(clean_name, names) if name]


def clean_name(raw: str) -> str:
    """A name as written, less control and format characters and outer whitespace, at most MAX_NAME_CHARS long."""
    kept = "".join(char for char in raw if not unicodedata.category(char).startswith("C"))
    return " ".join(kept.split())[:MAX_NAME_CHARS].strip()


def number(text: str) -> int:
    return int(re.sub(r"\D", "", text))


def battle_size(text: str) -> tuple[BattleSize | None, int] | None:
    """(size, limit) for a line naming a battle size, e.g. "2. Strike Force (2000 Point limit)"; None otherwise."""
    match = _BATTLE_SIZE.match(text.strip())
    if match is None or match["name"].strip().lower() not in _BATTLE_SIZES:
        return None
    size, limit = _BATTLE_SIZES[match["name"].strip().lower()]
    return size, number(match["limit"]) if match["limit"] else limit


def enhancement_name(raw: str) -> str:
    """An enhancement's name without the cost or "(Upgrade)" tag some exports append to it."""
    return clean_name(_NAME_NOISE.sub("", raw))
