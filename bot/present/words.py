"""Words with their emphasis, written once for every surface. A Text is a tuple of spans: plain strings and marked
ones (a name in bold, a removed marker struck through, a seed in code, a moment shown relative to now). The
presenters write Text; Discord's renderer turns it into markdown (bot/ui/markup.py), a page into plain text."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime


@dataclass(frozen=True)
class Strong:
    text: str


@dataclass(frozen=True)
class Struck:
    text: str


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Moment:
    """A moment shown relative to the reader's now ("in 12 minutes"); Discord counts it down by itself."""

    epoch_s: int


Span = str | Strong | Struck | Code | Moment
Text = tuple[Span, ...]


def words(*parts: Span | Text) -> Text:
    """One Text of spans and Texts, in order (empty strings dropped)."""
    spans: list[Span] = []
    for part in parts:
        spans.extend(part if isinstance(part, tuple) else (part,))
    return tuple(s for s in spans if s != "")


def plain(text: Text) -> str:
    """The words without their marks, for a page or an overlay."""
    return "".join(_plain(span) for span in text).strip()


def _plain(span: Span) -> str:
    if isinstance(span, str):
        return span
    if isinstance(span, Moment):
        return datetime.fromtimestamp(span.epoch_s, UTC).strftime("%H:%M UTC")
    return span.text
