"""The two ways in: `parse_text` for a pasted list (the app's export or the compact format, whichever it is) and
`parse_file` for an attachment (a roster, or a text file in whatever encoding it came in)."""

from __future__ import annotations

from bot.armies.lists.app import parse_app
from bot.armies.lists.compact import is_compact, parse_compact
from bot.armies.lists.model import MAX_FILE_BYTES, MAX_LINE_CHARS, MAX_TEXT_CHARS, ListError, ParsedList
from bot.armies.lists.roster import looks_like_xml, parse_roster, unzip_roster

NOT_A_LIST = (
    "That doesn't look like an army list: paste the text of the Warhammer 40,000 app's export, "
    "a compact (WTC) list, or attach a NewRecruit .rosz file."
)


def parse_text(text: str) -> ParsedList:
    """Read a pasted list: the app's export or the compact format, whichever it is."""
    if isinstance(text, (bytes, bytearray)):
        text = _decode(bytes(text))
    if not isinstance(text, str) or not text.strip():
        raise ListError("That list is empty: paste the text of your army list.")
    if len(text) > MAX_TEXT_CHARS:
        raise ListError(f"That text is too long for an army list (over {MAX_TEXT_CHARS:,} characters).")
    lines = [line.expandtabs(4) for line in text.splitlines() if len(line) <= MAX_LINE_CHARS]
    parsed = parse_compact(lines) if is_compact(lines) else parse_app(lines)
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
        return parse_roster(unzip_roster(data))
    if suffix.endswith(".ros") or (not suffix.endswith(".txt") and looks_like_xml(data)):
        return parse_roster(data)
    return parse_text(_decode(data))


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
