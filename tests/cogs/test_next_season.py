"""Packs as a seam: next season's Chapter Approved deck is its data. A second season, installed from a copy of the
decks with its own pack id and renamed Primary Missions (no code), plays through /game new pack:, the same board,
buttons, store and verify, with its own cards, next to the 2025-26 season."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import bot.services.games
from bot.client import MissionBot
from bot.decks import installed_packs, load_catalog, pack_dir
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.packs import FAMILIES, MISSION_DECK, ChapterApprovedRules, Packs
from bot.services.verification import verify_export
from tests.cogs.conftest import harness_settings
from tests.cogs.game_table import Table, public_text
from tests.cogs.harness import Harness

NEXT = "ca-next"  # a made-up season: its data alone


def next_season(tmp_path: Path) -> Catalog:
    """The 2025-26 decks copied as another season: its pack id and title, and every Primary Mission renamed."""
    decks = tmp_path / NEXT
    shutil.copytree(pack_dir(), decks)
    header = decks / "pack.yaml"
    header.write_text(header.read_text().replace("pack: ca-2025-26", f"pack: {NEXT}")
                      .replace("title: Chapter Approved 2025-26", "title: Chapter Approved Next Season"))
    primaries = decks / "primaries.yaml"
    primaries.write_text(re.sub(r"(?m)^  name: ", "  name: NEXT ", primaries.read_text()))
    return load_catalog(decks)


@pytest.fixture
async def seasons(catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A bot with both seasons installed: the season's data, and the line that names its family."""
    season = next_season(tmp_path)
    monkeypatch.setitem(FAMILIES, NEXT, MISSION_DECK)
    monkeypatch.setattr(bot.services.games, "installed_packs",
                        lambda default: Packs(*installed_packs(default), ChapterApprovedRules(season)))
    async with Harness(MissionBot(harness_settings(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"), catalog)) as h:
        yield h


async def test_a_game_of_the_next_season_plays_with_its_own_decks(seasons: Harness) -> None:
    alice, bob = seasons.user("alice"), seasons.user("bob")
    offered = await seasons.autocomplete("game new", "pack", "next", user=alice, opponent=bob)
    assert [c["value"] for c in offered] == [NEXT]
    table = Table(seasons, alice, bob)
    await table.start(pack=NEXT, seed="next-season")
    state = await table.state()
    assert state.pack == NEXT and state.setup.pack == NEXT
    assert "NEXT " in public_text(await table.board())  # its own Primary Mission, from its data
    await table.to_battle(first_fixed=None)
    record = await seasons.bot.service.get_state(game_id=table.game_id)
    assert record.pack == NEXT and record.state.round == 1
    card = await seasons.slash("card", user=alice, name=f"primary:{state.mission.primary}")
    assert "NEXT " in card.embed["title"]

    await seasons.slash("game end", user=alice)  # the other player agrees
    agree = next(m for m in reversed(seasons.messages()) if "wants to abandon" in (m.get("content") or ""))
    await seasons.press(agree["components"][0]["components"][0]["custom_id"], user=bob, message_id=int(agree["id"]))
    export = await seasons.bot.service.export_log(table.game_id)
    assert all(check.problem is None for check in verify_export(seasons.bot.service.packs, export))


async def test_the_2025_26_season_stays_the_default(seasons: Harness) -> None:
    alice, bob = seasons.user("alice"), seasons.user("bob")
    table = Table(seasons, alice, bob)
    await table.start(seed="this-season")
    assert (await table.state()).pack == "ca-2025-26"
    assert "NEXT " not in public_text(await table.board())
