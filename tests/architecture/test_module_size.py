"""No module of the bot is over 600 lines unless its docstring says why ("Over 600 lines: …"): a reader should
find one thing in one small file."""

from __future__ import annotations

import ast

import pytest

from tests.architecture.imports import bot_modules

LIMIT = 600
REASON = "Over 600 lines:"


def too_long(source: str) -> bool:
    if len(source.splitlines()) <= LIMIT:
        return False
    docstring = ast.get_docstring(ast.parse(source)) or ""
    return REASON not in docstring


@pytest.mark.parametrize("name, path", sorted(bot_modules().items()), ids=lambda x: x if isinstance(x, str) else "")
def test_no_module_is_over_600_lines_without_its_reason(name, path) -> None:
    assert not too_long(path.read_text(encoding="utf-8")), f"{name} is over {LIMIT} lines without its reason"


def test_the_check_counts_lines_and_reads_the_reason() -> None:
    body = "x = 1\n" * (LIMIT + 1)
    assert too_long(body) and too_long('"""A module."""\n' + body)
    assert not too_long(f'"""A module. {REASON} one table of data."""\n' + body)
    assert not too_long(body[: 6 * LIMIT])
