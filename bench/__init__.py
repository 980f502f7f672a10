"""Benchmarks that print figures (never run by the tests)."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Awaitable, Callable
from typing import Any


def run_on(url: str | None, bench: Callable[..., Awaitable[Any]], *args: Any) -> None:
    """Run `bench(url, *args)` on `url`, or on a fresh SQLite file in a temporary folder."""
    if url:
        asyncio.run(bench(url, *args))
        return
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bench(f"sqlite:///{tmp}/bench.db", *args))
