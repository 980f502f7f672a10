"""Every move from the call (bot/web/activity.py): starting a game and answering its challenge, the forms (Set army
with a list pasted or a file, Name units, a Codex objective's name, an objective's VP) and the older packs' menus,
through the same moves and checks as Discord's, while the Discord channel follows."""

from __future__ import annotations

import base64
from typing import Any

import aiohttp
import pytest

from bot.engine.chapter_approved.state import PromptKind
from tests.cogs.game_table import Table
from tests.cogs.test_game_buttons import one_prompt, seeded
from tests.cogs.test_table_game import GT_PICKS
from tests.discord_model import GUILD_ID, VOICE, FakeUser
from tests.web.fake_oauth import FakeOAuth
from tests.web.test_activity import Player, channel_of, sign_in

LIST = """Cold Iron (190 points)

Necrons
Strike Force (2000 points)
Awakened Dynasty

CHARACTERS

Imotekh the Stormlord (100 points)
  • Warlord

BATTLELINE

Necron Warriors (90 points)
  • 10x Necron Warrior
"""


async def settled(table: Table) -> None:
    await table.h.bot.desk.idle()


async def you(page: Player, after: int = -1) -> dict[str, Any]:
    """The newest model the page's stream has (at least past `after`), its own part included."""
    if page.stream is None:
        return await page.watch()
    return await page.stream.model(after=after)


def controls(model: dict[str, Any]) -> dict[str, str]:
    return {c["verb"]: c["kind"] for c in model["you"]["controls"]}


@pytest.fixture
def voice(harness) -> Any:
    return harness.channel("table-voice", type=VOICE)


@pytest.fixture
async def call_pages(harness, voice, oauth: FakeOAuth, http: aiohttp.ClientSession, alice: FakeUser,
                     bob: FakeUser) -> dict[str, Player]:
    """Alice and Bob in the voice channel's call, each with the table open; no game yet."""
    instance = oauth.launch(voice.id, GUILD_ID, alice.id, bob.id)
    table = Table(harness, alice, bob, channel=voice)
    return {u.name: await sign_in(http, table, oauth, u, instance) for u in (alice, bob)}


async def test_a_game_is_started_and_accepted_from_the_call(harness, voice, call_pages: dict[str, Player],
                                                            alice: FakeUser, bob: FakeUser) -> None:
    alice_page, bob_page = call_pages["alice"], call_pages["bob"]
    status, lobby = await alice_page.post("lobby")
    assert status == 200 and lobby["game"] is None and lobby["can_start"]
    assert lobby["people"] == [{"id": str(bob.id), "name": "Bob"}]  # who else has the table open in this call
    assert {"ca-2025-26", "gt-2020", "4th-edition"} <= {p["id"] for p in lobby["packs"]}

    status, answer = await alice_page.post("new", opponent=str(alice.id), pack="ca-2025-26", size="strike-force")
    assert status == 400 and "in this call" in answer["error"]  # not herself, nor anyone outside the call
    status, answer = await alice_page.post("new", opponent=str(bob.id), pack="ca-2025-26", size="strike-force")
    assert status == 200, answer
    await settled(Table(harness, alice, bob, channel=voice))
    [challenge] = harness.model.channel_messages(voice.id)
    assert challenge["content"].startswith(f"<@{bob.id}>, <@{alice.id}> challenges you")
    [posted] = [s for s in harness.model.sent if s.kind == "message" and s.message["id"] == challenge["id"]]
    assert [int(u) for u in posted.body["allowed_mentions"]["users"]] == [bob.id]  # the challenged player alone is pinged

    bob_model, alice_model = await you(bob_page), await you(alice_page)
    assert controls(bob_model) == {"accept": "move", "decline": "move"}
    assert controls(alice_model) == {"decline": "move"}  # she may call it off; only Bob accepts
    assert (await alice_page.act(alice_model, "accept"))[0] == 400
    assert (await bob_page.act(bob_model, "accept"))[0] == 200
    await settled(Table(harness, alice, bob, channel=voice))
    challenge, board = harness.model.channel_messages(voice.id)
    assert challenge["content"].endswith("✅ Bob accepted.") and not challenge.get("components")
    assert "embeds" in board and board["components"]
    assert (await bob_page.act(bob_model, "accept"))[0] == 400  # answered already: nothing posted twice
    bob_model = await you(bob_page, after=-1)
    assert "accept" not in controls(bob_model) and controls(bob_model)  # the board's own controls now
    assert len(harness.model.channel_messages(voice.id)) == 2


async def test_the_challenger_calls_it_off_from_the_call(harness, voice, call_pages: dict[str, Player],
                                                         alice: FakeUser, bob: FakeUser) -> None:
    alice_page = call_pages["alice"]
    assert (await alice_page.post("new", opponent=str(bob.id), pack="gt-2020", size="incursion"))[0] == 200
    model = await you(alice_page)
    assert (await alice_page.act(model, "decline"))[0] == 200
    await settled(Table(harness, alice, bob, channel=voice))
    [challenge] = harness.model.channel_messages(voice.id)
    assert challenge["content"].endswith("❌ Alice called the game off.")
    assert (await alice_page.post("lobby"))[1]["game"] is None


async def test_set_army_from_the_call_with_a_list_pasted_or_a_file(
    table: Table, oauth: FakeOAuth, http: aiohttp.ClientSession, alice: FakeUser, bob: FakeUser
) -> None:
    await table.start(seed="army-call")
    instance = oauth.launch(channel_of(table), GUILD_ID, alice.id, bob.id)
    alice_page, bob_page = [await sign_in(http, table, oauth, u, instance) for u in (alice, bob)]
    model = await you(alice_page)
    assert controls(model)["army"] == "form"
    status, form = await alice_page.post("form", game=model["game"], version=model["version"], verb="army")
    assert status == 200 and form["file"] and [f["id"] for f in form["fields"]] == ["faction", "detachment", "list"]
    status, answer = await alice_page.act(model, "army", typed={"faction": "", "detachment": "", "list": ""})
    assert status == 400 and "faction" in answer["error"]  # nothing given: one line, nothing changed
    assert await table.version() == model["version"]

    flagged = LIST.replace("Necron Warriors (90 points)", "Necron Wariors (90 points)")  # a unit misspelt
    status, answer = await alice_page.act(model, "army", typed={"faction": "", "detachment": "", "list": flagged})
    assert status == 200 and any("Did you mean Necron Warriors?" in line for line in answer["private"])
    model = await you(alice_page, after=model["version"])
    assert model["players"][0]["army"].startswith("Necrons")
    theirs = await you(bob_page)
    assert "Did you mean" not in str(theirs)  # the flags are hers alone
    await settled(table)
    assert (await table.board())["embeds"][0]["footer"]["text"].endswith(f"move {model['version']}")

    file = {"name": "army.txt", "data": base64.b64encode(LIST.encode()).decode()}
    status, answer = await bob_page.act(theirs, "army", typed={"faction": "", "detachment": "", "list": ""},
                                        file=file)
    assert status == 200, answer
    theirs = await you(bob_page, after=theirs["version"])
    assert theirs["players"][1]["army"].startswith("Necrons") and theirs["you"]["private"] == []
    status, answer = await bob_page.act(theirs, "army", typed={}, file={"name": "x.txt", "data": "%%%"})
    assert status == 400 and "choose it again" in answer["error"]


async def test_name_units_from_the_call(table: Table, catalog, oauth: FakeOAuth, http: aiohttp.ClientSession,
                                        alice: FakeUser, bob: FakeUser) -> None:
    await seeded(table, catalog, one_prompt(PromptKind.ALPHA_TARGETS))
    naming = table.user((await table.state()).prompts[0].player)
    instance = oauth.launch(channel_of(table), GUILD_ID, alice.id, bob.id)
    page = await sign_in(http, table, oauth, naming, instance)
    model = await you(page)
    status, menu = await page.post("menu", game=model["game"], version=model["version"], verb="answer")
    assert status == 200 and {i["verb"] for i in menu["items"]} == {"units", "nounits"}
    status, answer = await page.act(model, "units")
    assert status == 200 and answer["form"]["title"] == "Alpha Targets" and len(answer["form"]["fields"]) == 3
    status, answer = await page.act(model, "units", typed={"name1": "Lictor", "name2": "Hive Tyrant", "name3": ""})
    assert status == 200, answer
    assert [q.kind for q in (await table.state()).prompts] == [PromptKind.GAMMA_TARGET]  # the drawer's turn now
    assert (await page.act(model, "units", typed={"name1": "Again"}))[0] == 400  # answered, and an old version


async def test_a_grand_tournament_turn_from_the_call(table: Table, oauth: FakeOAuth, http: aiohttp.ClientSession,
                                                     alice: FakeUser, bob: FakeUser) -> None:
    """The older packs' menus and forms: secondary objectives with a Codex objective's name, Deployment done with
    the Battle Ready question, the first turn, an objective scored with its VP."""
    await table.start(pack="gt-2020", size="incursion", seed="gt-call")
    instance = oauth.launch(channel_of(table), GUILD_ID, alice.id, bob.id)
    pages = {u.id: await sign_in(http, table, oauth, u, instance) for u in (alice, bob)}
    for user in (alice, bob):
        page = pages[user.id]
        model = await you(page, after=-1)
        assert controls(model)["select"] == "menu"
        status, menu = await page.post("menu", game=model["game"], version=model["version"], verb="select")
        assert status == 200 and menu["items"][0]["verb"] == "picks"
        picks = [*GT_PICKS[:2], "codex"]
        status, answer = await page.act(model, "picks", values=picks)
        assert status == 200 and answer["form"]["fields"][0]["id"] == "codex"
        status, answer = await page.act(model, "picks", values=picks, typed={"codex": f"{user.name}'s own"})
        assert status == 200, answer
    state = await table.state()
    assert [p.codex for p in state.players] == ["alice's own", "bob's own"] and all(p.objectives for p in state.players)

    winner = pages[int(state.sides_rolloff.winner)]
    model = await you(winner, after=-1)
    assert (await winner.act(await table_model(table, winner), "attacker"))[0] == 200
    for user in (alice, bob):
        page = pages[user.id]
        model = await table_model(table, page)
        assert controls(model)["deployed"] == "menu"  # Battle Ready is asked first
        status, menu = await page.post("menu", game=model["game"], version=model["version"], verb="deployed")
        assert [i["verb"] for i in menu["items"]] == ["readydeploy", "notreadydeploy"]
        assert (await page.act(model, "readydeploy"))[0] == 200
    state = await table.state()
    first = pages[int(state.first_turn_rolloff.winner)]
    assert (await first.act(await table_model(table, first), "gofirst"))[0] == 200

    active = pages[int((await table.state()).active)]
    model = await table_model(table, active)
    status, menu = await active.post("menu", game=model["game"], version=model["version"], verb="score")
    if status == 200:  # an objective of theirs scores in the first turn
        objective = menu["items"][0]["options"][0]["value"]
        status, answer = await active.act(model, "objective", values=[objective])
        assert answer["form"]["fields"][0]["id"] == "vp"
        assert (await active.act(model, "objective", values=[objective], typed={"vp": "0"}))[0] == 400
        assert (await active.act(model, "objective", values=[objective], typed={"vp": "3"}))[0] == 200
        model = await table_model(table, active)
    assert (await active.act(model, "endturn"))[0] == 200
    await settled(table)
    assert (await table.board())["embeds"][0]["footer"]["text"].endswith(f"move {await table.version()}")


async def test_a_fourth_edition_outcome_from_the_call(table: Table, oauth: FakeOAuth, http: aiohttp.ClientSession,
                                                      alice: FakeUser, bob: FakeUser) -> None:
    await table.start(pack="4th-edition", size=None, mission="recon", level="alpha", seed="4e-call")
    instance = oauth.launch(channel_of(table), GUILD_ID, alice.id, bob.id)
    pages = {u.id: await sign_in(http, table, oauth, u, instance) for u in (alice, bob)}
    state = await table.state()
    picker = pages[int(state.strategy_roll.winner)] if state.status == "mission" else None
    if picker is not None:
        model = await table_model(table, picker)
        status, menu = await picker.post("menu", game=model["game"], version=model["version"], verb="pickmission")
        assert status == 200
        assert (await picker.act(model, "mission", values=[menu["items"][0]["options"][0]["value"]]))[0] == 200
    model = await table_model(table, pages[alice.id])
    assert "deployed" in controls(model)


async def table_model(table: Table, page: Player) -> dict[str, Any]:
    """The page's model at the game's current version."""
    version = await table.version()
    model = await you(page, after=-1)
    while model["version"] < version:
        model = await you(page, after=model["version"])
    return model
