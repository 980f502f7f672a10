"""Every random choice of a game derives from its seed, so anyone can re-derive it after the game.

`derive_rng(seed, label)` is the one function that does it: the label names the choice
("deployment", "primary", "twist", "pool", "sides", "first-turn", "supply-drop", "hidden-supplies",
"challenger-deck", "deck:<player id>" for a Tactical deck, "reshuffle:<n>" for the n-th shuffle back).
The seed stays hidden while the game runs; its SHA-256 is shown from the start so players can check
afterwards that the seed revealed at the end is the one that was used.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import Sequence, TypeVar

from bot.engine import dice
from bot.engine.state import RollOff

T = TypeVar("T")


def new_seed() -> str:
    return secrets.token_hex(16)


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def derive_rng(seed: str, label: str) -> random.Random:
    return random.Random(hashlib.sha256(f"{seed}/{label}".encode()).digest())


def shuffled(seed: str, label: str, items: Sequence[T]) -> tuple[T, ...]:
    pile = list(items)
    derive_rng(seed, label).shuffle(pile)
    return tuple(pile)


def roll_off(seed: str, label: str, players: tuple[str, str]) -> RollOff:
    """Both players roll a D6; a tie is rolled again (core rules, Roll-offs)."""
    result = dice.roll_off(derive_rng(seed, label))
    return RollOff(rolls=result.rolls, winner=players[result.winner])
