"""Pictures of a game and of a community, below every surface: the deployment map with its markers, the score
sheet of every pack, the stats charts. Each is drawn from public information only, as PNG bytes with the file name
it goes by; the Discord side attaches it, the web pages serve it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Picture:
    name: str
    png: bytes
