"""Rank the pack's FAQ rulings for a free-text question.

Plain word overlap, weighted by how rare a word is across the FAQ (so "Sabotage" counts for more than
"unit"), with a crude stemmer so "destroyed" finds "destroying", and a typed word the FAQ does not use read as
the FAQ's closest word (rapidfuzz), so "sabotge" finds "sabotage". A ruling tied to a card the question names
gets a bonus. The FAQ has a few dozen entries: no index is needed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from bot.engine.chapter_approved.catalog import Catalog, FaqEntry

QUESTION_WEIGHT = 2.0
ANSWER_WEIGHT = 1.0
CARD_NAME_WEIGHT = 3.0  # words of the names of the cards a ruling is tied to
NAMED_CARD_BONUS = 6.0  # the question names a card the ruling is tied to
RELATIVE_CUTOFF = 0.35  # drop matches far weaker than the best one
TYPO_CUTOFF = 80  # how alike (0-100) a typed word must be to a word of the FAQ to be read as it

STOPWORDS = frozenset(
    """a an and are as at be been but by can could do does doing did for from had has have how i if in into
    is it its me my of on or our so than that the their them then there these they this to was we were what
    when where which while who whom why will with would you your yours""".split()
)

_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class FaqMatch:
    entry: FaqEntry
    score: float


def stem(word: str) -> str:
    """Strip common English endings so that inflections of a word meet: destroyed/destroying -> destroy."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]  # setting -> sett -> set
    if len(word) > 4 and word.endswith("e"):
        word = word[:-1]  # cleanse / cleansed -> cleans
    return word


def tokens(text: str) -> list[str]:
    text = re.sub(r"'s\b", "", text.lower().replace("\u2019", "'"))
    return [stem(w) for w in _WORD.findall(text) if w not in STOPWORDS and len(w) > 1]


def search_faq(catalog: Catalog, query: str, limit: int = 3) -> list[FaqMatch]:
    """The best rulings for `query`, best first; an empty or meaningless query gives no result."""
    wanted = set(tokens(query))
    if not wanted or not catalog.faq:
        return []
    names = _card_names(catalog)
    documents = [_document(catalog.faq_cards(entry), entry, names) for entry in catalog.faq]
    vocabulary = set().union(*names.values(), *(q | a | c for q, a, c in documents))
    wanted = {_as_spelled(word, vocabulary) for word in wanted}
    named_cards = {card_id for card_id, name in names.items() if name and name <= wanted}
    idf = _idf(documents, len(documents))

    matches = []
    for entry, (question, answer, card_words) in zip(catalog.faq, documents):
        score = sum(
            idf.get(word, 0.0)
            * (
                QUESTION_WEIGHT * (word in question)
                + ANSWER_WEIGHT * (word in answer)
                + CARD_NAME_WEIGHT * (word in card_words)
            )
            for word in wanted
        )
        if score > 0 and named_cards.intersection(catalog.faq_cards(entry)):
            score += NAMED_CARD_BONUS
        if score > 0:
            matches.append(FaqMatch(entry=entry, score=round(score, 3)))
    if not matches:
        return []
    matches.sort(key=lambda m: (-m.score, m.entry.id))
    best = matches[0].score
    return [m for m in matches if m.score >= best * RELATIVE_CUTOFF][:limit]


def _as_spelled(word: str, vocabulary: set[str]) -> str:
    """A word the FAQ and the card names never use, read as their closest word when one is close (a typo)."""
    if word in vocabulary or len(word) < 4:
        return word
    match = process.extractOne(word, vocabulary, scorer=fuzz.ratio, score_cutoff=TYPO_CUTOFF)
    return word if match is None else match[0]


def _card_names(catalog: Catalog) -> dict[str, frozenset[str]]:
    cards: Iterable = (
        *catalog.primaries, *catalog.secondaries, *catalog.challengers,
        *catalog.twists, *catalog.deployments, *catalog.layouts,
    )
    return {card.id: frozenset(tokens(card.name)) for card in cards}


def _document(cards: tuple[str, ...], entry: FaqEntry, names: dict[str, frozenset[str]]
              ) -> tuple[set[str], set[str], set[str]]:
    card_words: set[str] = set()
    for card_id in cards:
        card_words |= names.get(card_id, frozenset())
    return set(tokens(entry.question)), set(tokens(entry.answer)), card_words


def _idf(documents: list[tuple[set[str], set[str], set[str]]], total: int) -> dict[str, float]:
    counts: dict[str, int] = {}
    for question, answer, card_words in documents:
        for word in question | answer | card_words:
            counts[word] = counts.get(word, 0) + 1
    return {word: math.log(1 + total / n) for word, n in counts.items()}
