"""Which files of the bot an "End turn" press walks through, and how often it enters the desk (issue "A house a
newcomer can change" asks for the first, "One game, every screen" for the second).

Run from the repository root:  .venv/bin/python -m bench.press_walk
A game is pressed to its first battle round through the fake Discord (tests/cogs/harness.py); then the active
player's End turn is profiled (sys.setprofile, this thread: the bot, the fake Discord and the players share one
event loop) until every scheduled board edit is done. Printed: the files of bot/ and cogs/ that ran, and the calls
into bot/ui/desk.py from outside it (the harness's own waits apart).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from bot.client import MissionBot
from bot.decks import default_catalog
from tests.cogs.conftest import harness_settings
from tests.cogs.game_table import Table
from tests.cogs.harness import Harness

ROOT = Path(__file__).resolve().parents[1]
OURS = (str(ROOT / "bot") + "/", str(ROOT / "cogs") + "/")
DESK = str(ROOT / "bot" / "ui" / "desk.py")


async def walk() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with Harness(MissionBot(harness_settings(f"sqlite+aiosqlite:///{tmp}/walk.db"),
                                      default_catalog())) as h:
            table = Table(h, h.user("alice"), h.user("bob"))
            await table.start(seed="walk")
            await table.to_battle()
            await table.answer_all()
            user = await table.active_user()
            await table.press("endcmd", user)
            files: set[str] = set()
            entries: dict[int, tuple[object, str]] = {}  # each call into the desk once (a coroutine resumes often)

            def profile(frame, event, arg) -> None:
                if event != "call":
                    return
                name = frame.f_code.co_filename
                if name.startswith(OURS):
                    files.add(name)
                    caller = frame.f_back.f_code.co_filename if frame.f_back else "the event loop"
                    ours = not caller.startswith((str(ROOT / "tests"), str(ROOT / "bench")))  # not the harness's
                    if name == DESK and caller != DESK and ours and id(frame) not in entries:
                        where = Path(caller).relative_to(ROOT) if caller.startswith(str(ROOT)) else Path(caller).name
                        entries[id(frame)] = (frame, f"{frame.f_code.co_name} (from {where})")

            sys.setprofile(profile)
            try:
                await table.press("endturn", user)
                await h.bot.desk.idle()
            finally:
                sys.setprofile(None)
    print(f"End turn walked {len(files)} files of bot/ and cogs/:")
    for name in sorted(files):
        print(f"  {Path(name).relative_to(ROOT)}")
    print(f"entered the desk {len(entries)} times from outside it:")
    for _, entry in entries.values():
        print(f"  {entry}")


if __name__ == "__main__":
    asyncio.run(walk())
