"""The docs' pictures of the organiser's desk (docs/organisers/desk.md), drawn from a 16-player event run through the
fake Discord and shot in Chromium:  .venv/bin/python -m tests.web.desk_screenshots [docs/images/desk]"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.engine.tournament.rules import PairingRules
from bot.plumbing.changes import Change
from bot.services.tournaments.requests import DiscordAsk
from tests.cogs.test_tournament_commands import enter_round
from tests.discord_model import MANAGE_SERVER
from tests.web.screenshots import shooting
from tests.web.test_desk import threads_opened

NAMES = ("Mirelle", "Tormund", "Asha", "Bran", "Cass", "Dagny", "Eamon", "Freya", "Gideon", "Halla", "Ivo", "Juno",
         "Kestrel", "Lorcan", "Maeve", "Njal")
CLUBS = {0: "Iron Wolves", 5: "Iron Wolves", 9: "Iron Wolves", 2: "Dice Hall", 12: "Dice Hall"}


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    async with shooting() as (h, settings, oauth, browser):
        organiser = h.user("Sigrun", permissions=MANAGE_SERVER)
        players = [h.user(name) for name in NAMES]
        await h.slash("tournament create", user=organiser, name="Winter GT", rounds=3,
                      **{"announce-channel": h.channel("pairings")})
        for i, p in enumerate(players):
            await h.slash("tournament register", user=p, **({"club": CLUBS[i]} if i in CLUBS else {}))
        tournaments = h.bot.tournaments
        record = await tournaments.pair(h.guild.id)
        current = record.state.event.rounds[-1]
        await tournaments.publish(record.id, 1, current.draw, channel_id=None)
        await tournaments.changes.publish(DiscordAsk("publish", str(organiser.id)).change(record.id))
        await threads_opened(h, 8)
        await enter_round(h, organiser, {t: ("a_wins", 70 - t, 40 + t) if t % 3 else ("b_wins", 40 + t, 70 - t)
                                         for t in range(1, 9)})
        await tournaments.set_rules(record.id, PairingRules(friendly_fire="every", fresh_tables=True))
        await tournaments.pin(record.id, str(players[4].id), 1)

        oauth.browser_user = organiser
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await page.goto(f"{settings.web_url}/desk/{record.id}")
        await page.wait_for_selector("body[data-version]")
        await page.get_by_role("button", name="Pair round 2").click()
        await page.wait_for_selector("#tables tr.state-draft")
        # A swap that makes a rematch, as an organiser moving a player would: the desk marks it.
        record = await tournaments.current(h.guild.id)
        met = record.state.event.rounds[0].pairings.tables[1]
        draft = record.state.event.rounds[1].pairings
        table = next(t for t in draft.tables if met.a in (t.a, t.b))
        other = table.b if table.a == met.a else table.a
        if met.b not in (table.a, table.b):
            await page.locator(".d-player", has_text=record.state.names[met.b]).click()
            await page.locator(".d-player", has_text=record.state.names[other]).click()
            await page.wait_for_selector(".d-problem.rematch")
        await page.wait_for_timeout(300)
        await page.locator("#round-box").screenshot(path=str(out / "draft.png"))
        print(f"wrote {out / 'draft.png'}")
        await page.get_by_role("button", name="Undo last swap").click()
        await page.wait_for_selector(".d-problem.rematch", state="detached")
        await page.get_by_role("button", name="Publish").click()
        if await page.locator(".d-problem").count():  # a rule the draft breaks: the desk asks to confirm
            await page.locator("#confirm-yes").click()
        await page.locator("#round-state", has_text="published").wait_for()
        await threads_opened(h, 16)
        # The round at play: results, a report waiting, a judge call, extra minutes.
        await h.slash("tournament round start", user=organiser, minutes=180)
        record = await tournaments.current(h.guild.id)
        tables = record.state.event.rounds[-1].pairings.tables
        await enter_round(h, organiser, {1: ("a_wins", 72, 51), 2: ("b_wins", 38, 64)})
        by_id = {str(p.id): p for p in players}
        await h.slash("tournament report", user=by_id[tables[2].a], **{"my-vp": 55, "opponent-vp": 47})
        link = next(g for g in record.state.table_games if (g.round_number, g.table) == (2, 4))
        await h.slash("judge call", user=by_id[tables[3].a], channel=h.model.channels[link.thread_id],
                      note="Is the ruin's second floor obscuring?")
        await tournaments.changes.publish(Change("event", record.id, 0, "desk"))
        await page.wait_for_selector(".d-call")
        row = page.locator('#tables tr[data-table="5"]')
        await row.get_by_role("button", name="+5 min").click()
        await row.locator("td", has_text="+5′").wait_for()
        await page.wait_for_timeout(300)
        await page.screenshot(path=str(out / "desk.png"), full_page=False)
        print(f"wrote {out / 'desk.png'}")
        await page.locator("#judges-box").screenshot(path=str(out / "calls.png"))
        print(f"wrote {out / 'calls.png'}")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images/desk")))
