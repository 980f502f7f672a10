"""The modules of the bot import each other in no circle: each helper of the desk (calls, clocks, challenges,
reminders, the packs' controls) names the Protocols of bot/ui/desk_api.py or takes callables, never the desk, so
each can be read alone. Imports under TYPE_CHECKING count too: a circle of types is still a circle to a reader."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]


def imports_of(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(("bot", "cogs")):
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith(("bot", "cogs"))}
    return found


def test_no_module_of_the_bot_is_part_of_an_import_circle() -> None:
    modules = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
               for folder in ("bot", "cogs") for p in (ROOT / folder).rglob("*.py")}
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_edges_from((name, target) for target in imports_of(path) if target in modules)
    circles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert circles == []
