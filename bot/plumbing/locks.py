"""One asyncio.Lock per key (a channel, a ladder), kept only while someone holds or awaits it, so the map of locks
never grows with every key ever used."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from weakref import WeakValueDictionary


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: WeakValueDictionary[Hashable, asyncio.Lock] = WeakValueDictionary()

    def __call__(self, key: Hashable) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock
