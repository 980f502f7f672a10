"""The bot's modules and what each imports, read from the source with ast (TYPE_CHECKING imports included: a
dependency of types is still one to a reader)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bot_modules() -> dict[str, Path]:
    """Every module of bot/ and cogs/ by dotted name (a package by its own name)."""
    return {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
            for folder in ("bot", "cogs") for p in (ROOT / folder).rglob("*.py")}


def imports_of(source: str) -> set[str]:
    """The bot's modules (and names in them) that `source` imports."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(("bot", "cogs")):
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith(("bot", "cogs"))}
    return found
