"""Twenty games at once (GitHub issue "Forty tables at once"): the bot in its own process, on SQLite and on
PostgreSQL (when TEST_POSTGRES_URL is set), against the fake Discord, every game started at the same moment and
played by tests/e2e/crowd.py to battle round 2, When Drawn units named in forms submitted at once (issue 34).

The fake Discord answers under Discord's rate limits. Every game starts, none is lost on the way, the database holds
exactly the moves the bot took (its log replaying to its snapshot), every interaction, form submissions included, is
acknowledged within Discord's 3 s, and Discord refused none of the bot's requests (no 429: the bot waits for a
channel's room rather than being refused). Nothing faster is asserted: bench/bench_tables.py measures.
"""

from __future__ import annotations

from pathlib import Path

from bot.engine.chapter_approved.catalog import Catalog
from tests.e2e.crowd import ACK_LIMIT, play_crowd

GAMES = 20


async def test_twenty_games_at_once(catalog: Catalog, crowd_database: str, tmp_path: Path) -> None:
    crowd = await play_crowd(GAMES, crowd_database, tmp_path, catalog, limits=True)
    games = crowd.games
    never = [(g.game_id, p.verb) for g in games for p in g.presses if p.ack is None]
    assert never == [], "never acknowledged (Discord: 'This interaction failed')"
    assert [g.failed for g in games if g.failed] == []
    assert [g.stuck for g in games if g.stuck] == []
    assert all(g.reached for g in games) and len({g.game_id for g in games}) == GAMES
    assert any(p.verb == "form" for p in crowd.presses), "no form among the moves"
    assert crowd.lost == []  # each log: 1..version, one entry per move the bot took, replaying to the state
    assert crowd.fake.refused == []
    late = [(p.verb, p.ack) for p in crowd.presses if p.ack > ACK_LIMIT]
    assert late == [], f"acknowledged after more than {ACK_LIMIT} s"
