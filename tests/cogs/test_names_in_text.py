"""One way of writing names: every card, mission, deployment and twist the bot writes in a played game (board,
log lines, menus, pings, errors, the result card) is written as the catalog writes it, in title case as printed.

The game is played through the fake Discord; the test walks every text the bot sent and fails on a name written
another way (e.g. the seed's capitals, "OVERWHELMING FORCE")."""

from __future__ import annotations

import re

from bot.engine.chapter_approved.catalog import Catalog
from tests.cogs.game_table import Table, fixed_turn, tactical_turn
from tests.cogs.harness import Harness
from tests.discord_model import walk_components


def catalog_names(catalog: Catalog) -> set[str]:
    names = {c.name for c in catalog.secondaries} | {p.name for p in catalog.primaries}
    names |= {d.name for d in catalog.deployments} | {t.name for t in catalog.twists}
    for card in catalog.challengers:
        names |= {card.name, card.mission.name}
    return names


def texts(harness: Harness) -> list[str]:
    """Everything the bot wrote: every message body it sent or edited, with embeds, buttons and menu options."""
    found = []
    for sent in harness.model.sent:
        body = sent.body.get("data", sent.body) if isinstance(sent.body, dict) else {}
        if not isinstance(body, dict):
            continue
        found.append(body.get("content") or "")
        for embed in body.get("embeds") or []:
            found += [embed.get("title") or "", embed.get("description") or "",
                      (embed.get("footer") or {}).get("text") or ""]
            found += [part for f in embed.get("fields") or [] for part in (f["name"], f["value"])]
        for component in walk_components(body.get("components") or []):
            found.append(component.get("label") or "")
            found += [o["label"] for o in component.get("options", [])]
    return [t for t in found if t]


def misspelt(text: str, names: set[str]) -> list[str]:
    """The names `text` writes another way than the catalog does (same letters, other case)."""
    wrong = []
    for name in names:
        for match in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text, flags=re.IGNORECASE):
            if match.group() != name:
                wrong.append(f"{match.group()!r} for {name!r}")
    return wrong


async def test_every_name_the_bot_writes_is_written_as_printed(table: Table, harness: Harness, catalog: Catalog,
                                                               alice, bob) -> None:
    await table.start(twist=True)
    await table.to_battle(first_fixed=None, second_fixed=("cleanse", "assassination"))
    for _ in range(2):  # two battle rounds: draws, When Drawn, New Orders, scoring, discards, the Challenger
        for user in (await table.active_user(), None):
            user = user or await table.active_user()
            if (await table.state()).player(str(user.id)).mode == "tactical":
                await tactical_turn(table, user, new_orders=True)
            else:
                await fixed_turn(table, user, primary=5)
    refused = await table.slash("score add", bob, source="secondary", vp=3, card="no-such-card", strict=False)
    assert refused.ephemeral
    await table.slash("game concede", bob)
    names = catalog_names(catalog)
    wrong = [f"{problem} in {text[:80]!r}" for text in texts(harness) for problem in misspelt(text, names)]
    assert not wrong, "\n".join(wrong[:20])


def test_the_walk_sees_a_name_in_capitals() -> None:
    assert misspelt("bob draws OVERWHELMING FORCE.", {"Overwhelming Force"}) == [
        "'OVERWHELMING FORCE' for 'Overwhelming Force'"]
    assert misspelt("Bob draws Overwhelming Force; cleansed twice.", {"Overwhelming Force", "Cleanse"}) == []
