"""Imports point down only: the engine (and the data it is built from, and the plumbing) at the bottom, then the
store, the services, the public model every surface shows (bot/present), the surfaces (the Discord ui
and the web pages), and the cogs and client on top. A module may import its own layer and those below, never one
above: a service that imported the ui could not be used by another surface, and a model that borrowed the Discord
board's words would make every other surface borrow them too."""

from __future__ import annotations

import pytest

from tests.architecture.imports import bot_modules, imports_of

# Most specific prefix first. The foundation: the rules, the data read into them, and plain helpers.
LAYERS: tuple[tuple[str, int], ...] = (
    ("bot.engine", 0), ("bot.decks", 0), ("bot.armies", 0), ("bot.plumbing", 0),
    ("bot.store", 1),
    ("bot.services", 2),
    ("bot.present", 3),
    ("bot.ui", 4), ("bot.web", 4),
    ("bot.client", 5), ("bot.__main__", 5), ("cogs", 5),
)
NAMES = {0: "the engine", 1: "the store", 2: "the service", 3: "the public model", 4: "the surfaces",
         5: "the cogs and client"}


def layer(module: str) -> int | None:
    return next((rank for prefix, rank in LAYERS if module == prefix or module.startswith(prefix + ".")), None)


def upward_imports(name: str, source: str) -> list[str]:
    """The bot modules `name` imports from a layer above its own."""
    own = layer(name)
    return sorted(target for target in imports_of(source)
                  if own is not None and (other := layer(target)) is not None and other > own)


MODULES = bot_modules()


def test_every_module_has_a_layer() -> None:
    assert [name for name in MODULES if name != "bot" and layer(name) is None] == []


@pytest.mark.parametrize("name", sorted(MODULES), ids=str)
def test_imports_point_down_only(name: str) -> None:
    upward = upward_imports(name, MODULES[name].read_text(encoding="utf-8"))
    assert upward == [], f"{name} ({NAMES[layer(name)]}) imports from above: {upward}"


@pytest.mark.parametrize("name, source", [
    ("bot.services.summaries", "from bot.ui.text import title_case"),  # the back arrow this test was written against
    ("bot.store.history", "from bot.services.games import GameService"),
    ("bot.engine.dice", "from bot.store.models import Game"),
    ("bot.ui.desk", "import cogs.game"),
    ("bot.present.mission_deck", "from bot.ui.chapter_approved import board"),  # the arrow issue 43 turned
])
def test_the_check_catches_an_import_from_above(name: str, source: str) -> None:
    assert upward_imports(name, source)


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("bot.web")), ids=str)
def test_the_web_surfaces_render_the_model_not_discords_widgets(name: str) -> None:
    """The pages, the Activity (and the organiser's desk) stand beside the Discord ui, not on it: what a game offers,
    its pictures and recent events are below both (bot/present)."""
    source = MODULES[name].read_text(encoding="utf-8")
    assert [t for t in imports_of(source) if t == "bot.ui" or t.startswith("bot.ui.")] == []
