"""Army lists as players export them today, read into one shape: which faction, detachments (11th edition: several),
battle size, points and recorded Force Disposition, and each unit with its models, points, enhancements and whether
it is the warlord.

Three formats: the text the Warhammer 40,000 app exports ("Export list", 10th and 11th edition, English or French
labels), the compact WTC-style text that tournament list tools print ("+ FACTION KEYWORD: …", "Char1: 1x … (110
pts): …"), and a NewRecruit / BattleScribe roster (.rosz, a zip holding one .ros XML file, or the bare .ros).

Pure and defensive: standard library only, and any input, however hostile, either reads as a `ParsedList` or raises
`ListError` with one sentence for the player. Zips are read with bounded reads, and XML with expat directly so that a
DOCTYPE (and with it any entity declaration) is refused before anything is expanded.

The package, a module to a concern: model (the records, the error, the limits), common (names, numbers, battle
sizes), text_units (units in either text format), app, compact and roster (one format each), parse (the way in).
"""

from __future__ import annotations

from bot.armies.lists.common import clean_name
from bot.armies.lists.model import (
    MAX_FILE_BYTES, MAX_LINE_CHARS, MAX_NAME_CHARS, MAX_TEXT_CHARS, MAX_UNITS, MAX_UNZIPPED_BYTES, MAX_XML_DEPTH,
    MAX_XML_ELEMENTS, BattleSize, ListedUnit, ListError, ParsedList,
)
from bot.armies.lists.parse import NOT_A_LIST, parse_file, parse_text

__all__ = [
    "MAX_FILE_BYTES", "MAX_LINE_CHARS", "MAX_NAME_CHARS", "MAX_TEXT_CHARS", "MAX_UNITS", "MAX_UNZIPPED_BYTES",
    "MAX_XML_DEPTH", "MAX_XML_ELEMENTS", "NOT_A_LIST", "BattleSize", "ListError", "ListedUnit", "ParsedList",
    "clean_name", "parse_file", "parse_text",
]
