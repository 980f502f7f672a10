"""Every random choice of a game derives from its seed, so anyone can re-derive it after the game.

Each choice has a label naming its stream: "deployment", "primary", "twist", "pool", "sides",
"first-turn", "supply-drop", "hidden-supplies", "challenger-deck", "deck:<player id>" for a Tactical
deck, "reshuffle:<n>" for the n-th shuffle back. The seed stays hidden while the game runs (unless a
player fixed it); its SHA-256 is shown from the start so players can check afterwards that the seed
revealed at the end is the one that was used.

How a stream is made depends on the setup's version, so games stored earlier replay unchanged:
- version 2 (`Stream`, documented step by step in docs/verify.md): SHA-256 in counter mode, unbiased
  integers by rejection, Fisher-Yates shuffles; easy to re-implement in any language.
- version 1: Python's Mersenne Twister seeded with SHA-256(seed/label), as the first games used.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import Protocol, TypeVar
from collections.abc import Sequence

from bot.engine.models import RollOff

T = TypeVar("T")
STREAM_VERSION = 2  # setups from this version onwards draw from `Stream`, earlier ones from `derive_rng`

_WORD = 4  # bytes per draw
_SPAN = 1 << (8 * _WORD)


def new_seed() -> str:
    return secrets.token_hex(16)


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


class Stream:
    """The byte stream of one label: SHA-256(seed "/" label "/" counter) for counter 0, 1, 2, ..."""

    def __init__(self, seed: str, label: str) -> None:
        self._prefix = f"{seed}/{label}/".encode()
        self._counter = 0
        self._buffer = b""

    def read(self, count: int) -> bytes:
        while len(self._buffer) < count:
            block = hashlib.sha256(self._prefix + str(self._counter).encode()).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def below(self, n: int) -> int:
        """An integer in [0, n): a 4-byte big-endian draw, redrawn while it falls in the biased tail."""
        if not 1 <= n <= _SPAN:
            raise ValueError(f"cannot draw below {n}")
        limit = _SPAN - _SPAN % n
        while True:
            value = int.from_bytes(self.read(_WORD), "big")
            if value < limit:
                return value % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates from the last position down: swap position i with below(i + 1)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """The first k items of the shuffled sequence."""
        pile = list(items)
        self.shuffle(pile)
        return pile[:k]

    def randint(self, low: int, high: int) -> int:
        return low + self.below(high - low + 1)


class RandomSource(Protocol):
    """What the engine draws from: a `Stream`, or `random.Random` for version-1 games."""

    def shuffle(self, items: list) -> None: ...
    def choice(self, items: Sequence[T]) -> T: ...
    def sample(self, items: Sequence[T], k: int) -> list[T]: ...
    def randint(self, low: int, high: int) -> int: ...


class Seeded(Protocol):
    """A game's setup as its random streams read it, whichever pack it belongs to."""

    @property
    def seed(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def players(self) -> tuple[str, str]: ...


def derive_rng(seed: str, label: str) -> random.Random:
    """Version 1's stream (still used for tournament pairings, which nobody replays elsewhere)."""
    return random.Random(hashlib.sha256(f"{seed}/{label}".encode()).digest())


def stream_of(seed: str, label: str, version: int = STREAM_VERSION) -> RandomSource:
    return Stream(seed, label) if version >= STREAM_VERSION else derive_rng(seed, label)


def stream(setup: Seeded, label: str) -> RandomSource:
    return stream_of(setup.seed, label, setup.version)


def shuffled(setup: Seeded, label: str, items: Sequence[T]) -> tuple[T, ...]:
    pile = list(items)
    stream(setup, label).shuffle(pile)
    return tuple(pile)


def roll_off(setup: Seeded, label: str) -> RollOff:
    """Both players roll a D6, the first player of the setup first; a tie is rolled again (core rules)."""
    return roll_off_between(stream(setup, label), setup.players)


def roll_off_between(source: RandomSource, players: tuple[str, str], dice: tuple[int, int] = (1, 1)) -> RollOff:
    """Each player rolls their number of D6 and keeps the highest (one each: a plain roll-off), the first
    player first; a tie is rolled again."""
    rolls: list[tuple[int, int]] = []
    while True:
        first, second = (max(source.randint(1, 6) for _ in range(count)) for count in dice)
        rolls.append((first, second))
        if first != second:
            return RollOff(rolls=tuple(rolls), winner=players[0] if first > second else players[1])
