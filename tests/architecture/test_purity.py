"""bot/engine holds the rules as pure functions: no Discord, no database, no event loop."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "bot" / "engine"
FORBIDDEN = {"discord", "sqlmodel", "sqlalchemy", "asyncio", "aiosqlite", "asyncpg"}
# The layers above the engine: imports point down only.
FORBIDDEN_INTERNAL = ("bot.store", "bot.services", "bot.present", "bot.ui", "bot.web", "bot.client", "bot.plumbing.settings",
                      "cogs")


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    modules = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the engine package
                base = ".".join(["bot", "engine"][: 2 - (node.level - 1)] if node.level <= 2 else [])
                modules.append(f"{base}.{node.module}" if node.module else base)
            elif node.module:
                modules.append(node.module)
    return modules


def violations(path: Path) -> list[str]:
    found = []
    for module in imported_modules(path):
        if module.split(".")[0] in FORBIDDEN or module.startswith(FORBIDDEN_INTERNAL):
            found.append(module)
    return found


ENGINE_FILES = sorted(ENGINE.rglob("*.py"))


def test_the_engine_has_modules() -> None:
    assert any(p.name == "dice.py" for p in ENGINE_FILES)


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: p.name)
def test_engine_module_imports_nothing_impure(path: Path) -> None:
    assert violations(path) == [], f"{path.name} imports {violations(path)}"


@pytest.mark.parametrize(
    "source",
    [
        "import discord",
        "import asyncio.tasks",
        "from sqlalchemy import select",
        "from sqlmodel.ext.asyncio.session import AsyncSession",
        "def f():\n    import discord.ui\n",
        "from bot.store import repository",
        "from ..ui import card_embeds",
        "from cogs.cards import CardIndex",
    ],
)
def test_the_check_catches_impure_imports(tmp_path: Path, source: str) -> None:
    module = tmp_path / "impure.py"
    module.write_text(source, encoding="utf-8")
    assert violations(module)


SUBPACKAGES = tuple(f"bot.engine.{d.name}" for d in ENGINE.iterdir() if (d / "__init__.py").exists())
SHARED_FILES = [p for p in ENGINE.glob("*.py") if p.name != "packs.py"]  # packs.py: the one entry, over every pack


def test_the_engine_has_packs_and_shared_modules() -> None:
    assert "bot.engine.chapter_approved" in SUBPACKAGES and "bot.engine.tournament" in SUBPACKAGES
    assert any(p.name == "clock.py" for p in SHARED_FILES)


@pytest.mark.parametrize("path", SHARED_FILES, ids=lambda p: p.name)
def test_what_every_pack_shares_imports_no_pack(path: Path) -> None:
    packs = [m for m in imported_modules(path) if m.startswith(SUBPACKAGES)]
    assert packs == [], f"{path.name} is shared by every pack but imports {packs}"


def test_the_check_lets_pure_imports_through(tmp_path: Path) -> None:
    module = tmp_path / "pure.py"
    module.write_text("import random\nfrom bot.engine.errors import InvalidValue\nfrom .catalog import Catalog\n")
    assert violations(module) == []
