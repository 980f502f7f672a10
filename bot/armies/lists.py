"""Army lists as players export them today, read into one shape: which faction, detachments, battle size and points,
and each unit with its models, points, enhancements and whether it is the warlord.

Three formats: the text the Warhammer 40,000 app exports ("Export list", 10th and 11th edition, English or French
labels), the compact WTC-style text that tournament list tools print ("+ FACTION KEYWORD: …", "Char1: 1x … (110
pts): …"), and a NewRecruit / BattleScribe roster (.rosz, a zip holding one .ros XML file, or the bare .ros).

Pure and defensive: standard library only, and any input, however hostile, either reads as a `ParsedList` or raises
`ListError` with one sentence for the player. Zips are read with bounded reads, and XML with expat directly so that a
DOCTYPE (and with it any entity declaration) is refused before anything is expanded.
"""

from __future__ import annotations

import io
import re
import unicodedata
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal
from xml.etree import ElementTree as ET
from xml.parsers import expat

MAX_TEXT_CHARS = 20_000
MAX_FILE_BYTES = 1_000_000
MAX_UNZIPPED_BYTES = 5_000_000
MAX_NAME_CHARS = 100
MAX_UNITS = 200
MAX_LINE_CHARS = 1_000  # no list line is longer; capping it keeps every regex linear in practice
MAX_XML_DEPTH = 64  # real rosters nest about a dozen deep
MAX_XML_ELEMENTS = 200_000  # a 3,000-point roster with every profile holds about 30,000

BattleSize = Literal["incursion", "strike-force", "onslaught"]

NOT_A_LIST = (
    "That doesn't look like an army list: paste the text of the Warhammer 40,000 app's export, "
    "a compact (WTC) list, or attach a NewRecruit .rosz file."
)


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


def parse_text(text: str) -> ParsedList:
    """Read a pasted list: the app's export or the compact format, whichever it is."""
    if isinstance(text, (bytes, bytearray)):
        text = _decode(bytes(text))
    if not isinstance(text, str) or not text.strip():
        raise ListError("That list is empty: paste the text of your army list.")
    if len(text) > MAX_TEXT_CHARS:
        raise ListError(f"That text is too long for an army list (over {MAX_TEXT_CHARS:,} characters).")
    lines = [line.expandtabs(4) for line in text.splitlines() if len(line) <= MAX_LINE_CHARS]
    parsed = _parse_compact(lines) if _is_compact(lines) else _parse_app(lines)
    return _checked(parsed)


def parse_file(name: str, data: bytes) -> ParsedList:
    """Read an attached list: a .rosz or .ros roster, or a text file (UTF-8 with or without BOM, UTF-16 with BOM,
    Windows-1252 or Latin-1)."""
    if isinstance(data, str):
        return parse_text(data)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ListError(NOT_A_LIST)
    data = bytes(data)
    if not data:
        raise ListError("That file is empty.")
    if len(data) > MAX_FILE_BYTES:
        raise ListError(f"That file is too large for an army list (over {MAX_FILE_BYTES // 1_000_000} MB).")
    suffix = name.lower().strip() if isinstance(name, str) else ""
    if data.startswith(b"PK") or suffix.endswith(".rosz"):
        return _parse_roster(_unzip_roster(data))
    if suffix.endswith(".ros") or (not suffix.endswith(".txt") and _looks_like_xml(data)):
        return _parse_roster(data)
    return parse_text(_decode(data))


# --- Shared pieces -------------------------------------------------------------------------------------------------

_NUMBER = r"\d{1,3}(?:[,.\u00a0\u202f ]\d{3})+|\d{1,7}"
_POINTS = re.compile(rf"\(\s*(?P<points>{_NUMBER})\s*(?:pts?|points?)\.?\s*\)", re.I)
# "â€¢" is "•" mangled by a wrong decoding somewhere between the exporting app and the paste
_BULLET = re.compile(r"^(?:[•◦▪●‣∙·*-]|â€¢)\s*")
_COUNT = re.compile(r"^(?P<count>\d{1,4})\s*[x×]\s+(?P<rest>\S.*)$", re.I)
_WARLORD = re.compile(r"^(?:warlord|seigneur de guerre)$", re.I)
_ENHANCEMENT = re.compile(r"^(?:enhancements?|optimisations?)\s*:\s*(?P<name>.+)$", re.I)
_COSTED_UPGRADE = re.compile(rf"^(?P<name>[^()]+?)\s*\(\s*\+\s*(?:{_NUMBER})\s*(?:pts?|points?)\s*\)$", re.I)
_NAME_NOISE = re.compile(rf"\s*\((?:\+?\s*(?:{_NUMBER})\s*(?:pts?|points?)|upgrade)\)\s*$", re.I)

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
    rf"(?:\(\s*(?P<limit>{_NUMBER})\s*(?:pts?|points?)(?:\s+limit)?\s*\))?$",
    re.I,
)


def clean_name(raw: str) -> str:
    """A name as written, less control and format characters and outer whitespace, at most MAX_NAME_CHARS long."""
    kept = "".join(char for char in raw if not unicodedata.category(char).startswith("C"))
    return " ".join(kept.split())[:MAX_NAME_CHARS].strip()


def _number(text: str) -> int:
    return int(re.sub(r"\D", "", text))


def _battle_size(text: str) -> tuple[BattleSize | None, int] | None:
    """(size, limit) for a line naming a battle size, e.g. "2. Strike Force (2000 Point limit)"; None otherwise."""
    match = _BATTLE_SIZE.match(text.strip())
    if match is None or match["name"].strip().lower() not in _BATTLE_SIZES:
        return None
    size, limit = _BATTLE_SIZES[match["name"].strip().lower()]
    return size, _number(match["limit"]) if match["limit"] else limit


def _enhancement_name(raw: str) -> str:
    """An enhancement's name without the cost or "(Upgrade)" tag some exports append to it."""
    return clean_name(_NAME_NOISE.sub("", raw))


def _checked(parsed: ParsedList) -> ParsedList:
    if not parsed.units:
        if parsed.points_stated or parsed.points_limit or parsed.detachments:  # a list's header, at least
            raise ListError("That list has no units that I could read.")
        raise ListError(NOT_A_LIST)
    return parsed


def _decode(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as error:
            raise ListError("That file's text could not be read.") from error
    for encoding in ("utf-8-sig", "cp1252"):  # cp1252 before Latin-1: Windows' "•" is byte 0x95
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            pass
    return data.decode("latin-1")


# --- Units in text: one header line, e.g. "Char1: 10x Grey Hunters (90 pts): …", then its bullets ------------------


@dataclass(frozen=True)
class _Line:
    indent: int
    bullet: bool
    text: str  # stripped, bullet removed


@dataclass
class _Draft:
    name: str
    points: int
    count: int | None
    tag: str | None  # "Char1" in compact lists, which the header's warlord and enhancements refer to
    gear: list[str]  # the compact format's inline "Warlord, Frostfang, Enhancement: …"
    lines: list[_Line] = field(default_factory=list)
    enhancements: list[str] = field(default_factory=list)
    warlord: bool = False


_UNIT_PREFIX = re.compile(
    r"^(?:&+\s*)?(?:(?P<tag>[A-Za-z]{1,12}\d{1,3})\s*:\s*)?(?:(?P<count>\d{1,4})\s*[x×]\s+)?(?P<name>.*)$", re.I | re.S
)


def _unit_header(line: str) -> _Draft | None:
    """The unit a line starts, if it is a unit's header: a name with "(N pts)" after it, and maybe ": gear"."""
    stripped = line.strip()
    if _BULLET.match(stripped):
        return None
    points = _POINTS.search(stripped)
    if points is None:
        return None
    rest = stripped[points.end():].strip()
    if rest and not rest.startswith(":"):
        return None
    prefix = _UNIT_PREFIX.match(stripped[: points.start()].strip())  # matches any text: each part is optional
    name = clean_name(prefix["name"])
    if not name or _battle_size(name) or _ENHANCEMENT.match(name):
        return None
    gear = [item.strip() for item in rest[1:].split(",") if item.strip()]
    count = int(prefix["count"]) if prefix["count"] else None
    return _Draft(name, _number(points["points"]), count, prefix["tag"], gear)


def _line(raw: str) -> _Line:
    stripped = raw.strip()
    bullet = _BULLET.match(stripped)
    text = stripped[bullet.end():].strip() if bullet else stripped
    return _Line(len(raw) - len(raw.lstrip()), bullet is not None, text)


def _drafts(lines: Iterable[str]) -> list[_Draft]:
    """Unit drafts from a list's body; lines outside any unit (section headers, notes) are skipped."""
    drafts: list[_Draft] = []
    for raw in lines:
        if not raw.strip():
            continue
        draft = _unit_header(raw)
        if draft is not None:
            drafts.append(draft)
        elif drafts:
            drafts[-1].lines.append(_line(raw))
    for draft in drafts[:MAX_UNITS]:
        _read_details(draft)
    return drafts[:MAX_UNITS]


def _read_details(draft: _Draft) -> None:
    """The draft's warlord mark and enhancements, from its inline gear and its lines."""
    for item in draft.gear + [line.text for line in draft.lines]:
        enhancement = _ENHANCEMENT.match(item)
        upgrade = _COSTED_UPGRADE.match(item)  # NewRecruit's "• Favoured of Khorne (+20 pts)"
        if _WARLORD.match(item):
            draft.warlord = True
        elif enhancement:
            draft.enhancements.append(_enhancement_name(enhancement["name"]))
        elif upgrade and not _COUNT.match(item):
            draft.enhancements.append(_enhancement_name(upgrade["name"]))


def _models(draft: _Draft) -> int:
    """Models in the unit: the header's count, else the "Nx" lines that carry their own wargear bullets beneath
    them (the app nests a squad's wargear under each model, but lists a lone model's wargear flat), else flat "Nx"
    lines named like the unit (a squad written without wargear), else one."""
    if draft.count:
        return draft.count
    lines = draft.lines
    nested = sum(
        int(count["count"])
        for index, line in enumerate(lines)
        if line.bullet and (count := _COUNT.match(line.text))
        and index + 1 < len(lines) and lines[index + 1].bullet and lines[index + 1].indent > line.indent
    )
    if nested:
        return nested
    stem = _first_stem(draft.name)
    named = sum(
        int(count["count"])
        for line in lines
        if line.bullet and (count := _COUNT.match(line.text)) and _first_stem(count["rest"]) == stem
    )
    return max(named, 1)


def _first_stem(name: str) -> str:
    words = name.lower().split()
    return words[0].removesuffix("s") if words else ""


def _unit(draft: _Draft) -> ListedUnit:
    enhancements = tuple(dict.fromkeys(name for name in draft.enhancements if name))
    return ListedUnit(draft.name, _models(draft), draft.points, enhancements, draft.warlord)


# --- The app's export ----------------------------------------------------------------------------------------------

_SECTIONS = {
    "characters", "character", "battleline", "dedicated transports", "other datasheets", "allied units",
    "attached units", "epic hero", "personnages", "ligne", "transports assignés", "transport assigné",
    "autres fiches techniques", "unités attachées", "unités alliées",
}
_ATTACHED_GROUP = re.compile(r"^(?:attached unit \d+|unité \d+ attachée)$", re.I)
_DETACHMENT_POINTS = re.compile(
    r"^(?P<names>.+?)\s*\(\s*\d{1,2}\s*(?:/\s*\d{1,2}\s*)?"
    r"(?:detachment\s+points?|points?\s+de\s+d[ée]tachement)\s*\)$",
    re.I,
)
_DETACHMENT_JOIN = re.compile(r"\s+(?:and|et|&)\s+", re.I)
_DISPOSITIONS = re.compile(r"^(?:force\s+dispositions?|dispositions\s+des\s+forces)\s*:", re.I)


def _parse_app(lines: list[str]) -> ParsedList:
    start = _body_start(lines)
    header = _AppHeader()
    for line in (line.strip() for line in lines[:start]):
        if line:
            header.read(line)
    drafts = _drafts(lines[start:])
    return ParsedList(
        format="app",
        name=header.name,
        faction=header.factions[-1] if header.factions else None,
        detachments=tuple(header.counted_detachments or header.bare_detachments),
        battle_size=header.battle_size,
        points_stated=header.points,
        points_limit=header.limit,
        units=tuple(_unit(draft) for draft in drafts),
    )


def _body_start(lines: list[str]) -> int:
    """Where the units begin: at the first section header, or at the unit whose bullet comes first."""
    previous = None
    for index, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            continue
        if line.lower() in _SECTIONS or _ATTACHED_GROUP.match(line):
            return index
        if _BULLET.match(line):
            return index if previous is None else previous
        previous = index
    return len(lines)


@dataclass
class _AppHeader:
    """The lines above the units: the list's name and total, factions (broad to specific), battle size, and
    detachments, either bare (10th edition, under the battle size) or joined on one line with their cost in
    detachment points (11th edition)."""

    name: str | None = None
    points: int | None = None
    factions: list[str] = field(default_factory=list)
    battle_size: BattleSize | None = None
    limit: int | None = None  # set with the battle size, which every list states after its factions
    counted_detachments: list[str] = field(default_factory=list)
    bare_detachments: list[str] = field(default_factory=list)
    lines_read: int = 0

    def read(self, line: str) -> None:
        self.lines_read += 1
        total = _POINTS.search(line)
        size = _battle_size(line)
        detachments = _DETACHMENT_POINTS.match(line)
        if size:
            self.battle_size, self.limit = size
        elif self.lines_read == 1 and total and not line[total.end():].strip():  # the title: "Hunt (1,995 Points)"
            self.name = clean_name(line[: total.start()]) or None
            self.points = _number(total["points"])
        elif detachments:
            names = _DETACHMENT_JOIN.split(detachments["names"])
            self.counted_detachments += [name for name in map(clean_name, names) if name]
        elif _DISPOSITIONS.match(line) or total or line.lower().startswith("exported with"):
            return
        elif not (name := clean_name(line)):
            return
        elif self.limit is None and not self.counted_detachments:
            self.factions.append(name)
        elif not self.counted_detachments:
            self.bare_detachments.append(name)
        # A bare line after an 11th-edition detachment line is its Force Disposition, which newer exports leave
        # unlabelled: nothing the list needs.


# --- The compact (WTC-style) format --------------------------------------------------------------------------------

_COMPACT_KEY = re.compile(r"^\+\s*(?P<key>[A-Za-z][A-Za-z ]{1,30}?)\s*:\s*(?P<value>.*)$")
_COMPACT_KEYS = {
    "faction keyword", "detachment", "detachments", "total army points", "warlord", "enhancement", "enhancements",
    "number of units", "secondary", "battle size", "force disposition", "force dispositions",
}
_REFERENCE = re.compile(r"^(?:(?P<tag>[A-Za-z]{1,12}\d{1,3})\s*:\s*)?(?P<name>.+)$")
_ENHANCEMENT_ON = re.compile(r"^(?P<enhancement>.+?)\s*\(\s*on\s+(?P<unit>.+)\)$", re.I)
_TRAILING_NOTE = re.compile(r"\s*\([^()]*\)$")


def _is_compact(lines: list[str]) -> bool:
    for line in lines:
        key = _COMPACT_KEY.match(line.strip())
        if key and key["key"].strip().lower() in _COMPACT_KEYS:
            return True
        draft = _unit_header(line)
        if draft and (draft.tag or draft.gear):
            return True
    return False


@dataclass
class _CompactHeader:
    faction: str | None = None
    detachments: list[str] = field(default_factory=list)
    points: int | None = None
    battle_size: BattleSize | None = None
    limit: int | None = None
    warlord: tuple[str | None, str] | None = None  # (tag, unit name)
    enhancements: list[tuple[str, str | None, str]] = field(default_factory=list)  # (enhancement, tag, unit name)
    key: str = ""

    def read(self, line: str) -> None:
        """One header line: "+ KEY: value", or "& value" going on with the key above (more enhancements)."""
        keyed = _COMPACT_KEY.match(line)
        if keyed:
            self.key, value = keyed["key"].strip().lower(), keyed["value"].strip()
        elif line.startswith("&"):
            value = line.lstrip("&").strip()
        else:
            return
        if self.key == "faction keyword":
            self.faction = clean_name(re.split(r"\s+[-–]\s+", value)[-1]) or None
        elif self.key in ("detachment", "detachments"):
            # "Berzerker Warband (Relentless Rage)": the note is the detachment's rule
            names = _TRAILING_NOTE.sub("", value).split(",")
            self.detachments += [name for name in map(clean_name, names) if name]
        elif self.key == "total army points" and (total := re.match(rf"({_NUMBER})", value)):
            self.points = _number(total[1])
        elif self.key == "battle size" and (size := _battle_size(value)):
            self.battle_size, self.limit = size
        elif self.key == "warlord" and (reference := _REFERENCE.match(value)):
            self.warlord = (reference["tag"], clean_name(reference["name"]))
        elif self.key in ("enhancement", "enhancements") and (on := _ENHANCEMENT_ON.match(value)):
            unit = _REFERENCE.match(on["unit"].strip())
            if unit:
                self.enhancements.append((_enhancement_name(on["enhancement"]), unit["tag"], clean_name(unit["name"])))


def _parse_compact(lines: list[str]) -> ParsedList:
    header = _CompactHeader()
    body: list[str] = []
    for line in lines:
        stripped = line.strip()
        if not body and stripped.startswith(("+", "&")):
            header.read(stripped)
        elif body or _unit_header(line):
            body.append(line)
    drafts = _drafts(body)
    _apply_header_marks(header, drafts)
    return ParsedList(
        format="compact",
        name=None,
        faction=header.faction,
        detachments=tuple(header.detachments),
        battle_size=header.battle_size,
        points_stated=header.points,
        points_limit=header.limit,
        units=tuple(_unit(draft) for draft in drafts),
    )


def _apply_header_marks(header: _CompactHeader, drafts: list[_Draft]) -> None:
    """The header's warlord and enhancements, for lists whose unit lines leave them out."""
    if header.warlord and not any(draft.warlord for draft in drafts):
        unit = _referenced(drafts, *header.warlord)
        if unit:
            unit.warlord = True
    if not any(draft.enhancements for draft in drafts):
        for enhancement, tag, name in header.enhancements:
            unit = _referenced(drafts, tag, name)
            if unit:
                unit.enhancements.append(enhancement)


def _referenced(drafts: list[_Draft], tag: str | None, name: str) -> _Draft | None:
    """The unit a header line names, by tag and name, else by name alone (tools do not always number alike)."""
    same_name = [draft for draft in drafts if draft.name.lower() == name.lower()]
    tagged = [draft for draft in same_name if tag and draft.tag and draft.tag.lower() == tag.lower()]
    return (tagged or same_name or [None])[0]


# --- NewRecruit / BattleScribe rosters -----------------------------------------------------------------------------

_DETACHMENT_GROUPS = {"detachment", "detachments", "detachment choice"}
_CONFIGURATION = _DETACHMENT_GROUPS | {"battle size", "show/hide options", "configuration"}


def _unzip_roster(data: bytes) -> bytes:
    """The .ros inside a .rosz, read with a bounded read whatever its header claims."""
    too_big = "That .rosz file unpacks to more than any army list could need, so I didn't open it."
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            member = next(
                (info for info in archive.infolist() if info.filename.lower().endswith(".ros") and not info.is_dir()),
                None,
            )
            if member is None:
                raise ListError("That .rosz file holds no roster (.ros) file.")
            if member.file_size > MAX_UNZIPPED_BYTES:
                raise ListError(too_big)
            # zipfile inflates bzip2 and LZMA without an output bound; rosters are always stored or deflated
            if member.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise ListError("That .rosz file is compressed in a way roster files never are.")
            with archive.open(member) as stream:
                content = stream.read(MAX_UNZIPPED_BYTES + 1)
    except ListError:
        raise
    except Exception as error:  # zipfile raises many kinds of error on a damaged or hostile archive
        raise ListError("That .rosz file is damaged or is not a zip archive.") from error
    if len(content) > MAX_UNZIPPED_BYTES:
        raise ListError(too_big)
    return content


def _looks_like_xml(data: bytes) -> bool:
    head = data[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith((b"<", b"\xff\xfe<", b"\xfe\xff\x00<"))


def _read_xml(data: bytes) -> ET.Element:
    """The document's root element, parsed by expat with every DOCTYPE refused (so no entity is ever declared)."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[ET.Element] = []
    roots: list[ET.Element] = []
    seen = 0

    def start(tag: str, attributes: dict[str, str]) -> None:
        nonlocal seen
        seen += 1
        if len(stack) >= MAX_XML_DEPTH or seen > MAX_XML_ELEMENTS:
            raise ListError("That roster file is too deeply nested or too large to be an army list.")
        element = ET.Element(tag.rpartition(":")[2], attributes)  # namespaces play no part in a roster
        (stack[-1] if stack else roots).append(element)
        stack.append(element)

    def refuse(*_: object) -> None:
        raise ListError("That roster file declares a DOCTYPE, which roster files never do.")

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda _tag: stack.pop()
    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    try:
        parser.Parse(data, True)
    except ListError:
        raise
    except (expat.ExpatError, ValueError, LookupError) as error:  # malformed, or in an encoding expat lacks
        raise ListError("That roster file is not valid XML.") from error
    if not roots:
        raise ListError("That roster file is not valid XML.")
    return roots[0]


def _children(element: ET.Element, group: str, tag: str) -> Iterator[ET.Element]:
    """`element`'s <group><tag/>…</group> children, e.g. a selection's sub-selections."""
    for container in element.findall(group):
        yield from container.findall(tag)


def _cost(element: ET.Element, tag: str = "cost") -> float | None:
    """The points among an element's own costs (<costs><cost name="pts" value="…"/>)."""
    for cost in element.iter(tag):
        value = cost.get("value", "")
        if cost.get("name", "").strip().lower() in ("pts", "points") and re.fullmatch(r"-?\d{1,7}(?:\.\d+)?", value):
            return float(value)
    return None


def _points(selection: ET.Element) -> int | None:
    """A unit's points: the pts costs of the selection and of everything chosen within it."""
    costs = [
        float(cost.get("value", ""))
        for cost in selection.iter("cost")
        if cost.get("name", "").strip().lower() in ("pts", "points")
        and re.fullmatch(r"-?\d{1,7}(?:\.\d+)?", cost.get("value", ""))
    ]
    return round(sum(costs)) if costs else None


def _number_of(selection: ET.Element) -> int:
    number = selection.get("number", "1").strip()
    return int(number) if re.fullmatch(r"\d{1,6}", number) else 1


def _model_count(selection: ET.Element) -> int:
    if selection.get("type") == "model":
        return _number_of(selection)
    return sum(_model_count(child) for child in _children(selection, "selections", "selection"))


def _categories(selection: ET.Element) -> set[str]:
    return {category.get("name", "").strip().lower() for category in _children(selection, "categories", "category")}


def _marks(selection: ET.Element, in_enhancements: bool = False) -> Iterator[tuple[str, str]]:
    """("warlord", "") and ("enhancement", name) for what was chosen within a unit. An enhancement is a selection
    that NewRecruit tags group="Enhancements", or one inside a selection named "Enhancements"."""
    for child in _children(selection, "selections", "selection"):
        name = clean_name(child.get("name", ""))
        group = child.get("group", "").lower()
        if name.lower() == "warlord":
            yield "warlord", ""
        elif name.lower() in ("enhancement", "enhancements"):
            yield from _marks(child, in_enhancements=True)
            continue
        elif name and (in_enhancements or "enhancement" in group or "enhancement" in _categories(child)):
            yield "enhancement", _enhancement_name(name)
        yield from _marks(child)


def _roster_unit(selection: ET.Element) -> ListedUnit | None:
    name = clean_name(selection.get("name", ""))
    if not name:
        return None
    marks = list(_marks(selection))
    enhancements = tuple(dict.fromkeys(value for kind, value in marks if kind == "enhancement" and value))
    warlord = any(kind == "warlord" for kind, _ in marks) or "warlord" in _categories(selection)
    return ListedUnit(name, max(_model_count(selection), 1), _points(selection), enhancements, warlord)


def _detachment_names(selection: ET.Element) -> Iterator[str]:
    """The detachments chosen under a "Detachment" selection, looking through any "Detachment Choice" within."""
    for child in _children(selection, "selections", "selection"):
        name = clean_name(child.get("name", ""))
        if name.lower() in _DETACHMENT_GROUPS:
            yield from _detachment_names(child)
        elif name:
            yield name


def _force_selections(force: ET.Element) -> Iterator[ET.Element]:
    """A force's own selections, with those some catalogues gather under a "Configuration" selection."""
    for selection in _children(force, "selections", "selection"):
        if selection.get("name", "").strip().lower() == "configuration":
            yield from _children(selection, "selections", "selection")
        else:
            yield selection


def _forces(element: ET.Element) -> Iterator[ET.Element]:
    """Every force, allied forces nested within others included, in document order."""
    for force in _children(element, "forces", "force"):
        yield force
        yield from _forces(force)


def _parse_roster(data: bytes) -> ParsedList:
    root = _read_xml(data)
    if root.tag != "roster":
        raise ListError("That file is not a NewRecruit or BattleScribe roster.")
    forces = list(_forces(root))
    units: list[ListedUnit] = []
    detachments: list[str] = []
    size: tuple[BattleSize | None, int] | None = None
    for force in forces:
        for selection in _force_selections(force):
            name = selection.get("name", "").strip().lower()
            if name in _DETACHMENT_GROUPS:
                detachments += _detachment_names(selection)
            elif name == "battle size":
                size = size or next(filter(None, map(_battle_size, _child_names(selection))), None)
            elif _is_unit(selection) and (unit := _roster_unit(selection)):
                units.append(unit)
    if not units:
        raise ListError("That roster has no units in it.")
    total = next((_cost(costs) for costs in root.findall("costs")), None)
    limit = next((_cost(limits, "costLimit") for limits in root.findall("costLimits")), None)
    return ParsedList(
        format="rosz",
        name=clean_name(root.get("name", "")) or None,
        faction=_catalogue_faction(forces[0].get("catalogueName", "")) if forces else None,
        detachments=tuple(detachments),
        battle_size=size[0] if size else None,
        points_stated=round(total) if total is not None else None,
        points_limit=size[1] if size else (round(limit) if limit and limit > 0 else None),
        units=tuple(units[:MAX_UNITS]),
    )


def _is_unit(selection: ET.Element) -> bool:
    return (
        selection.get("type") in ("unit", "model")
        and selection.get("name", "").strip().lower() not in _CONFIGURATION
        and "configuration" not in _categories(selection)
    )


def _child_names(selection: ET.Element) -> list[str]:
    return [child.get("name", "") for child in _children(selection, "selections", "selection")]


def _catalogue_faction(catalogue: str) -> str | None:
    """The most specific part of a catalogue name: "Imperium - Space Wolves" is "Space Wolves"."""
    return clean_name(re.split(r"\s+[-–]\s+", catalogue)[-1]) or None
