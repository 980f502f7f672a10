"""The seeded streams: the published derivation and test vector (docs/verify.md), and its invariants.

The test vector is read from docs/verify.md ("Test vector"), so the documentation cannot drift from the code.
"""

from __future__ import annotations

import hashlib
import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.chapter_approved.state import GameSetup
from bot.engine.rng import Stream, roll_off, seed_hash, shuffled, stream

ROOT = Path(__file__).resolve().parents[2]
VERIFY_PAGE = ROOT / "docs" / "verify.md"
SPAN = 1 << 32


def published_vector() -> list[tuple[str, str]]:
    """The (name, value) lines of the page's test vector block, in order."""
    text = VERIFY_PAGE.read_text(encoding="utf-8")
    section = text.split("## Test vector", 1)[1]
    block = re.search(r"```text\n(.*?)```", section, re.S)
    assert block, "docs/verify.md's Test vector section has no ```text block"
    return [(line[:17].strip(), line[17:].strip()) for line in block[1].splitlines() if line.strip()]


def setup_of(seed: str, version: int = 2) -> GameSetup:
    return GameSetup(size="strike-force", players=("first", "second"), names=("First", "Second"), seed=seed,
                     version=version)


def test_the_published_test_vector_matches_the_code() -> None:
    checked = set()
    seed = label = items = None
    for name, value in published_vector():
        words = value.split()
        match name:
            case "seed":
                seed = value
            case "label":
                label = value
            case "SHA-256(seed)":
                assert seed_hash(seed) == value
            case "block 0 of":
                assert value == f"{seed}/{label}/0"
            case "block 0":
                assert Stream(seed, label).read(32).hex() == value == hashlib.sha256(f"{seed}/{label}/0".encode()).hexdigest()
            case "first words":
                s = Stream(seed, label)
                assert [int.from_bytes(s.read(4), "big") for _ in words] == [int(w) for w in words]
            case "shuffle of" | "choice of" | "sample 2 of":
                items = words
            case "j for i = 9..1":
                s = Stream(seed, label)
                assert [s.below(i + 1) for i in range(len(items) - 1, 0, -1)] == [int(w) for w in words]
            case "shuffled":
                assert list(shuffled(setup_of(seed), label, items)) == words
            case "ten D6":
                s = stream(setup_of(seed), label)
                assert [s.randint(1, 6) for _ in range(10)] == [int(w) for w in words]
            case "chosen":
                assert stream(setup_of(seed), label).choice(items) == value
            case "sampled":
                assert stream(setup_of(seed), label).sample(items, 2) == words
            case "roll-off":
                *rolls, winner = words
                setup = setup_of(seed)
                result = roll_off(setup, label)
                assert [f"{x}-{y}" for x, y in result.rolls] == rolls
                assert result.winner == setup.players[0 if winner == "first" else 1]
            case _:
                raise AssertionError(f"the test vector has a line this test does not know: {name!r}")
        checked.add(name)
    # Every kind of step the page documents is in the vector, a tied roll-off included.
    assert checked >= {"SHA-256(seed)", "block 0", "first words", "j for i = 9..1", "shuffled", "ten D6", "chosen",
                       "sampled", "roll-off"}
    assert any(name == "roll-off" and value.count("-") > 1 for name, value in published_vector())


def test_the_verify_page_lists_every_label_the_engine_uses() -> None:
    engine = "\n".join(p.read_text(encoding="utf-8")  # the season's rules, over their modules
                       for p in sorted((ROOT / "bot" / "engine" / "chapter_approved").glob("*.py")))
    used = set(re.findall(r'(?:stream|shuffled|roll_off)\([^"]*"([a-z-]+)"', engine))
    used |= {m.split(":")[0] + ":" for m in re.findall(r'f"([a-z-]+:)\{', engine)}
    assert used >= {"sides", "first-turn", "deployment", "primary", "deck:", "reshuffle:"}
    page = VERIFY_PAGE.read_text(encoding="utf-8")
    for label in used:
        assert f"| `{label}" in page, f"docs/verify.md's label table misses {label!r}"


@given(seed=st.text(max_size=20), label=st.text(max_size=20), size=st.integers(0, 60))
def test_a_shuffle_keeps_every_item_exactly_once(seed: str, label: str, size: int) -> None:
    items = [f"card-{i}" for i in range(size)]
    pile = list(items)
    Stream(seed, label).shuffle(pile)
    assert sorted(pile) == sorted(items) and len(pile) == len(set(pile)) == size


@given(seed=st.text(max_size=20), n=st.one_of(st.integers(1, 100), st.integers(1, SPAN)))
def test_below_is_always_in_range(seed: str, n: int) -> None:
    s = Stream(seed, "below")
    assert all(0 <= s.below(n) < n for _ in range(20))


@pytest.mark.parametrize("n", [0, -1, SPAN + 1])
def test_below_refuses_an_impossible_range(n: int) -> None:
    with pytest.raises(ValueError):
        Stream("seed", "label").below(n)


class Crafted(Stream):
    """A stream whose bytes are given, to show what `below` does with a word in the biased tail."""

    def __init__(self, words: list[int]) -> None:
        super().__init__("unused", "unused")
        self._data = b"".join(w.to_bytes(4, "big") for w in words)

    def read(self, count: int) -> bytes:
        out, self._data = self._data[:count], self._data[count:]
        assert len(out) == count, "the crafted stream ran out"
        return out


def test_a_word_in_the_biased_tail_is_rejected() -> None:
    # 2**32 mod 3 == 1: the last word would make 0 more likely than 1 and 2, so it is drawn again.
    assert Crafted([SPAN - 1, 5]).below(3) == 5 % 3 == 2
    assert Crafted([SPAN - 2, 5]).below(3) == (SPAN - 2) % 3  # the word below the tail is kept
    # n = 3 * 2**30: a quarter of the words fall in the tail.
    n = 3 << 30
    assert Crafted([n, n + 7, SPAN - 1, 12]).below(n) == 12


def test_a_real_stream_skips_a_first_word_in_the_tail() -> None:
    n = 3 << 30  # words from n to 2**32 - 1 are rejected
    label = next(f"tail-{k}" for k in range(100) if int.from_bytes(Stream("example", f"tail-{k}").read(4), "big") >= n)
    words = Stream("example", label)
    first, second = (int.from_bytes(words.read(4), "big") for _ in range(2))
    assert first >= n > second
    assert Stream("example", label).below(n) == second


def test_version_1_setups_keep_the_mersenne_twister_stream() -> None:
    items = list(range(30))
    legacy = random.Random(hashlib.sha256(b"old-seed/deck:1").digest())
    expected = list(items)
    legacy.shuffle(expected)
    assert list(shuffled(setup_of("old-seed", version=1), "deck:1", items)) == expected
    assert isinstance(stream(setup_of("old-seed", version=1), "deck:1"), random.Random)
    assert isinstance(stream(setup_of("old-seed"), "deck:1"), Stream)
    assert list(shuffled(setup_of("old-seed"), "deck:1", items)) != expected
