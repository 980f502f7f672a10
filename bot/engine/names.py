"""Names as printed, and names as typed: the one way a card, mission, deployment or twist is written for people,
and the one way what a person types is read back.

The seed prints most card names in capitals ("CULL THE HORDE"); players read them in title case as the headings
of the seed set them ("Cull the Horde"). The catalogs store every name through `title_case` when they load, so
the board, log lines, errors, pings, result cards, score sheets and exports all write the same name. Every
option that takes a name reads it with `resolve`: the id autocomplete sends, or the name in any case, with or
without punctuation and accents; a typo gets the closest names (rapidfuzz).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Annotated

from pydantic import AfterValidator
from rapidfuzz import fuzz, process

from bot.engine.errors import GameError

SMALL_WORDS = {"a", "an", "and", "the", "of", "or", "for", "to", "at", "by", "on", "in"}
_FIRST_LETTER = re.compile(r"[^\W\d_]")
_NOT_WORD = re.compile(r"[\W_]+")
SUGGEST_ABOVE = 70  # `likeness`, 0-100: below this a name is no suggestion


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


class UnknownName(GameError):
    """A typed name that names nothing offered: the message lists the closest names."""


def normalised(text: str) -> str:
    """What a typed name is compared by: any case, accents, punctuation and spacing ("cull the horde",
    "Cull the Horde!", "CULL  THE HORDE" all read alike)."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c)).replace("’", "").replace("'", "")
    return " ".join(_NOT_WORD.sub(" ", text).split())


def resolve(typed: str, candidates: Iterable[tuple[str, str]], what: str) -> str:
    """The id of the candidate (id, name) that `typed` names: its id as autocomplete sends it, or its name (or
    words of it that name it alone) as a person types it. Otherwise an UnknownName: "'x' is not {what}. Did you
    mean A or B?" with the closest names by rapidfuzz, or the names there are when few. `what` completes "'x' is not …": "one of your active
    Secondary Missions", "a pack"."""
    offered = list(candidates)
    key = normalised(typed)
    for card_id, name in offered:
        if typed == card_id or key in (normalised(name), normalised(card_id)):
            return card_id
    # Part of a name, in whole words, that names one thing only: "grand tournament", "4th edition".
    within = [card_id for card_id, name in offered if key and f" {key} " in f" {normalised(name)} "]
    if len(within) == 1:
        return within[0]
    names = {card_id: name for card_id, name in offered}
    close = [names[card_id] for _, _, card_id in process.extract(
        key, {card_id: normalised(name) for card_id, name in offered}, scorer=likeness, limit=3,
        score_cutoff=SUGGEST_ABOVE)]
    if close:
        raise UnknownName(f"{typed.strip()!r} is not {what}. Did you mean {_either(close)}?")
    if offered and len(offered) <= 6:
        raise UnknownName(f"{typed.strip()!r} is not {what}: choose {_either(list(names.values()))}.")
    raise UnknownName(f"{typed.strip()!r} is not {what}: pick one from the list as you type.")


def ranked(typed: str, names: dict[str, str], limit: int) -> list[str]:
    """The ids whose names best match `typed`, best first (rapidfuzz): for suggestions and look-ups."""
    return [key for _, _, key in process.extract(normalised(typed), {k: normalised(v) for k, v in names.items()},
                                                  scorer=likeness, limit=limit, score_cutoff=SUGGEST_ABOVE)]


def likeness(typed: str, name: str, **_: object) -> float:
    """How alike, 0-100: the words in any order ("all fronts engage"), or the letters ("TheRitual")."""
    return max(fuzz.token_set_ratio(typed, name), fuzz.ratio(typed, name))


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def size_name(size: str) -> str:
    """'strike-force' -> 'Strike Force', as the pack prints a game size."""
    return size.replace("-", " ").title()
