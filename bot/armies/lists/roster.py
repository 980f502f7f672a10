"""NewRecruit / BattleScribe rosters: the .ros inside a .rosz read with a bounded read, the XML parsed by expat with
any DOCTYPE refused, and the roster's forces read into a `ParsedList`."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from xml.etree import ElementTree as ET
from xml.parsers import expat

from bot.armies.lists.common import battle_size, clean_name, enhancement_name
from bot.armies.lists.model import (
    MAX_UNITS, MAX_UNZIPPED_BYTES, MAX_XML_DEPTH, MAX_XML_ELEMENTS, BattleSize, ListedUnit, ListError, ParsedList,
)

_DETACHMENT_GROUPS = {"detachment", "detachments", "detachment choice"}
_CONFIGURATION = _DETACHMENT_GROUPS | {"battle size", "show/hide options", "configuration", "force disposition"}


def unzip_roster(data: bytes) -> bytes:
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


def looks_like_xml(data: bytes) -> bool:
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
            yield "enhancement", enhancement_name(name)
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


def parse_roster(data: bytes) -> ParsedList:
    root = _read_xml(data)
    if root.tag != "roster":
        raise ListError("That file is not a NewRecruit or BattleScribe roster.")
    forces = list(_forces(root))
    units: list[ListedUnit] = []
    detachments: list[str] = []
    size: tuple[BattleSize | None, int] | None = None
    disposition: str | None = None
    for force in forces:
        for selection in _force_selections(force):
            name = selection.get("name", "").strip().lower()
            if name in _DETACHMENT_GROUPS:
                detachments += _detachment_names(selection)
            elif name == "battle size":
                size = size or next(filter(None, map(battle_size, _child_names(selection))), None)
            elif name == "force disposition":  # the player's choice, as an option under it
                disposition = disposition or next(filter(None, map(clean_name, _child_names(selection))), None)
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
        disposition=disposition,
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
