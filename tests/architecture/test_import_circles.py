"""The modules of the bot import each other in no circle: each helper of the desk (calls, clocks, challenges,
reminders, the packs' controls) names the Protocols of bot/ui/desk_api.py or takes callables, never the desk, so
each can be read alone. Imports under TYPE_CHECKING count too: a circle of types is still a circle to a reader."""

from __future__ import annotations

import networkx as nx

from tests.architecture.imports import bot_modules, imports_of


def test_no_module_of_the_bot_is_part_of_an_import_circle() -> None:
    modules = bot_modules()
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_edges_from((name, target) for target in imports_of(path.read_text(encoding="utf-8"))
                             if target in modules)
    circles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert circles == []
