"""Names as printed: the one way a card, mission, deployment or twist is written for people.

The seed prints most card names in capitals ("CULL THE HORDE"); players read them in title case as the headings
of the seed set them ("Cull the Horde"). The catalogs store every name through `title_case` when they load, so
the board, log lines, errors, pings, result cards, score sheets and exports all write the same name.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator

SMALL_WORDS = {"a", "an", "and", "the", "of", "or", "for", "to", "at", "by", "on", "in"}
_FIRST_LETTER = re.compile(r"[^\W\d_]")


def title_case(name: str) -> str:
    """'NO MAN’S LAND' -> 'No Man’s Land', 'ATTRITION (ANY BATTLE ROUND)' -> 'Attrition (Any Battle Round)';
    names already in mixed case are kept as they are."""
    if name != name.upper():
        return name
    words = name.lower().split(" ")
    return " ".join(w if i and w in SMALL_WORDS else _capitalise(w) for i, w in enumerate(words))


def _capitalise(word: str) -> str:
    """The first letter of the word and of each part after a hyphen: 'self-preservation' -> 'Self-Preservation'."""
    return "-".join(_FIRST_LETTER.sub(lambda m: m.group().upper(), part, count=1) for part in word.split("-"))


DisplayName = Annotated[str, AfterValidator(title_case)]  # a catalog's name field: stored as people read it
