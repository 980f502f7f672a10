"""The Activity offers what the Discord board offers: both render what a game offers (bot/present/play.py), so at
every point of a fixed-seed game of each pack, each player's controls in the call are the board's buttons (label,
verb, order), and each menu a control opens has the same words, lists, options and buttons as the private menu
Discord shows them."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from tests.cogs.game_table import Table, tactical_turn
from tests.cogs.test_table_game import GT_PICKS
from tests.discord_model import GUILD_ID, walk_components
from tests.web.fake_oauth import FakeOAuth
from tests.web.test_activity import Player, channel_of, sign_in
from tests.web.test_activity_play import table_model

DISCORD_ONLY = {"table"}  # opening the Activity itself: a Discord button


def board_controls(board: dict[str, Any]) -> list[tuple[str, str]]:
    """(verb, label) of the game's own buttons on the Discord board, in order."""
    found = []
    for c in walk_components(board.get("components") or []):
        custom = c.get("custom_id", "")
        if custom.startswith("mdb:") and (verb := custom.rsplit(":", 1)[1]) not in DISCORD_ONLY:
            found.append((verb, c["label"]))
    return found


def discord_menu(message: dict[str, Any]) -> dict[str, Any]:
    """A private menu's words, lists (verb, placeholder, options, bounds) and buttons, as the page's menu says them."""
    items = []
    for c in walk_components(message.get("components") or []):
        custom = c.get("custom_id", "")
        if custom.startswith("mds:"):
            items.append({"kind": "select", "verb": custom.rsplit(":", 1)[1], "placeholder": c.get("placeholder"),
                          "options": [(o["label"], o["value"]) for o in c["options"]],
                          "min": c.get("min_values", 1), "max": c.get("max_values", 1)})
        elif custom.startswith("mdb:"):
            items.append({"kind": "button", "verb": custom.rsplit(":", 1)[1], "label": c["label"]})
    return {"content": message["content"], "items": items}


def page_menu(menu: dict[str, Any]) -> dict[str, Any]:
    items = []
    for i in menu["items"]:
        if i["kind"] == "select":
            items.append({"kind": "select", "verb": i["verb"], "placeholder": i["placeholder"],
                          "options": [(o["label"], o["value"]) for o in i["options"]], "min": i["min"],
                          "max": i["max"]})
        else:
            items.append({"kind": "button", "verb": i["verb"], "label": i["label"]})
    return {"content": menu["content"], "items": items}


async def same_offers(table: Table, pages: dict[int, Player]) -> int:
    """Each player's controls and menus, in the call and on Discord, at the game's current version: how many menus
    were compared."""
    await table.h.bot.desk.idle()
    board = await table.board()
    menus = 0
    for user in (table.first, table.second):
        page = pages[user.id]
        model = await table_model(table, page)
        offered = [(c["verb"], c["label"]) for c in model["you"]["controls"]]
        assert offered == board_controls(board), (user.name, model["version"])
        for control in model["you"]["controls"]:
            if control["kind"] != "menu":
                continue
            status, in_call = await page.post("menu", game=model["game"], version=model["version"],
                                              verb=control["verb"])
            [custom] = [c["custom_id"] for c in walk_components(board["components"])
                        if c.get("custom_id", "").endswith(f":{control['verb']}")]
            reply = await table.h.press(custom, user=user, message_id=int(board["id"]), strict=False)
            shown = [s for s in reply if s.message is not None and s.ephemeral]
            if status != 200:  # nothing to pick for this player now: both say why, privately
                assert shown and in_call["error"] in shown[-1].content, (control, in_call)
                continue
            assert shown and shown[-1].components, (control["verb"], [s.content for s in shown])
            assert page_menu(in_call) == discord_menu(shown[-1].message), control["verb"]
            menus += 1
    return menus


async def open_in_call(table: Table, oauth: FakeOAuth, http: aiohttp.ClientSession) -> dict[int, Player]:
    instance = oauth.launch(channel_of(table), GUILD_ID, table.first.id, table.second.id)
    return {u.id: await sign_in(http, table, oauth, u, instance) for u in (table.first, table.second)}


@pytest.mark.parametrize("pack", ["ca-2025-26", "ca-2026-27"])
async def test_a_chapter_approved_game_offers_the_same_in_the_call_and_on_the_board(
    table: Table, oauth: FakeOAuth, http: aiohttp.ClientSession, pack: str
) -> None:
    await table.start(pack=pack, seed=f"offers-{pack}")
    pages = await open_in_call(table, oauth, http)
    menus = await same_offers(table, pages)
    state = await table.state()
    if state.status == "dispositions":  # 2026-27: both pick, then the reveal
        for user in (table.first, table.second):
            menu = await table.press("disposition", user)
            await table.pick(menu, "disposition", [menu.main.components[0]["components"][0]["options"][0]["value"]],
                             user)
        menus += await same_offers(table, pages)
        state = await table.state()
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    menus += await same_offers(table, pages)
    await table.choose(table.first, None)
    menus += await same_offers(table, pages)
    await table.choose(table.second, None)
    menus += await same_offers(table, pages)
    await table.deploy()
    for _ in range(2):
        menus += await same_offers(table, pages)
        await tactical_turn(table, await table.active_user())
    menus += await same_offers(table, pages)
    assert menus >= 4


@pytest.mark.parametrize(("pack", "size"), [("gt-2020", "incursion"), ("4th-edition", None)])
async def test_a_table_game_offers_the_same_in_the_call_and_on_the_board(
    table: Table, oauth: FakeOAuth, http: aiohttp.ClientSession, pack: str, size: str | None
) -> None:
    await table.start(pack=pack, seed=f"offers-{pack}", size=size)
    pages = await open_in_call(table, oauth, http)
    menus = await same_offers(table, pages)
    state = await table.state()
    if state.status == "mission":
        chooser = table.user(state.strategy_roll.winner)
        menu = await table.press("pickmission", chooser)
        await table.pick(menu, "mission", [menu.main.components[0]["components"][0]["options"][0]["value"]], chooser)
        menus += await same_offers(table, pages)
    if (await table.state()).status == "secondaries":
        for user in (table.first, table.second):
            menu = await table.press("select", user)
            await table.pick(menu, "picks", list(GT_PICKS), user)
        menus += await same_offers(table, pages)
    state = await table.state()
    if state.sides_rolloff is not None:
        await table.press("attacker", table.user(state.sides_rolloff.winner))
        menus += await same_offers(table, pages)  # GT: Deployment done asks first whether the army is Battle Ready
    if pack == "4th-edition" and (await table.state()).status == "deployment":  # no Battle Ready to ask
        before = await table.version()
        await table.press("deployed", table.first, strict=False)
        if await table.version() != before:
            menus += await same_offers(table, pages)
    assert menus >= 1
