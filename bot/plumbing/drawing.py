"""Pictures (maps, score sheets, briefings, stats) are drawn off the event loop, one at a time.

Drawing is Python work that holds the GIL. Several drawing threads would only take turns with each other while
leaving the event loop, which acknowledges every press, a smaller share of the process: forty games starting
together would delay their acknowledgements behind forty maps. One drawing thread leaves the loop at least half.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

T = TypeVar("T")

_DRAWING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="drawing")


async def drawn(draw: Callable[..., T], *args: Any) -> T:
    """`draw(*args)` in the drawing thread."""
    return await asyncio.get_running_loop().run_in_executor(_DRAWING, partial(draw, *args))
