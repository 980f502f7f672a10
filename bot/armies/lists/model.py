"""What a read army list is (`ParsedList`, its `ListedUnit`s), the `ListError` a list that cannot be read raises, and
the limits every reader holds input to."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

MAX_TEXT_CHARS = 20_000
MAX_FILE_BYTES = 1_000_000
MAX_UNZIPPED_BYTES = 5_000_000
MAX_NAME_CHARS = 100
MAX_UNITS = 200
MAX_LINE_CHARS = 1_000  # no list line is longer; capping it keeps every regex linear in practice
MAX_XML_DEPTH = 64  # real rosters nest about a dozen deep
MAX_XML_ELEMENTS = 200_000  # a 3,000-point roster with every profile holds about 30,000

BattleSize = Literal["incursion", "strike-force", "onslaught"]


class ListError(ValueError):
    """A list that cannot be read; the message is for the player, one short sentence."""


@dataclass(frozen=True)
class ListedUnit:
    name: str  # as written, trimmed, e.g. "Grey Hunters"
    models: int  # models in the unit (1 for a character); at least 1
    points: int | None  # the points the list gives it, enhancement included if the list folds it in
    enhancements: tuple[str, ...] = ()
    warlord: bool = False


@dataclass(frozen=True)
class ParsedList:
    format: Literal["app", "compact", "rosz"]
    name: str | None  # the list's own name, if any
    faction: str | None  # the most specific faction named, e.g. "Space Wolves"
    detachments: tuple[str, ...]  # detachment names as written, in order (11th edition allows several)
    battle_size: BattleSize | None
    points_stated: int | None  # the total the list states
    points_limit: int | None  # the battle size's limit if the list states one
    units: tuple[ListedUnit, ...]
    # The Force Disposition the player recorded ("Force Disposition: X", or the app's unlabelled line under its
    # detachments), as written; None: none recorded. A "Force Dispositions: X, Y" line lists, and is no choice.
    disposition: str | None = None
    # Header lines, in order, that may name the faction or a detachment: the parser cannot tell "Necrons" from
    # "Awakened Dynasty" without the army data, so where a list's layout leaves it open (names above the battle size
    # and no detachment line, or names under it with none above) it gives them here and the check places them.
    faction_or_detachment: tuple[str, ...] = ()
