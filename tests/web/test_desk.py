"""The organiser's desk over HTTP (bot/web/desk.py): signed in with Discord (the fake's OAuth2), Discord deciding who
is an organiser or a judge, every action checked again, refused with one line that changes nothing, logged with who
took it; the draft edited and checked against the rules; Discord's side asked on the change stream."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.engine.tournament.draft import draft_problems
from bot.plumbing.changes import Change
from tests.cogs.harness import Harness
from tests.cogs.test_tournament_commands import current, enter_round, open_event
from tests.discord_model import FakeUser
from tests.web.desk_client import DeskClient
from tests.web.fake_oauth import FakeOAuth


@pytest.fixture
def desk_oauth(harness: Harness, oauth: FakeOAuth) -> FakeOAuth:
    oauth.model = harness.model
    return oauth


async def desk_of(harness: Harness, oauth: FakeOAuth, user: FakeUser) -> DeskClient:
    record = await current(harness)
    desk = DeskClient(harness.bot.web.public_url, record.id)
    await desk.sign_in(oauth, user)
    return desk


async def threads_opened(harness: Harness, count: int) -> None:
    """Wait until the Discord side has opened `count` table threads of the event (asked on the change stream)."""
    for _ in range(200):
        if len((await current(harness)).state.table_games) >= count:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{count} table threads were not opened")


async def test_discord_decides_who_sits_at_the_desk(harness: Harness, desk_oauth: FakeOAuth, organiser: FakeUser,
                                                    players: list[FakeUser]) -> None:
    await open_event(harness, organiser, players[:4], **{"announce-channel": harness.channel("pairings")})
    desk = await desk_of(harness, desk_oauth, organiser)
    assert desk.page["standing"] == "organiser" and desk.page["csrf"]
    model = await desk.watch()
    assert model["name"] == "Club GT" and len(model["players"]) == 4 and model["round"] is None

    player = await desk_of(harness, desk_oauth, players[0])
    assert player.page.get("standing") is None and "organisers" in player.page["refused"]
    status, answer = await player.act("round.pair", token="")
    assert status == 403 and (await current(harness)).state.event.rounds == ()

    role = harness.role("Judges")
    judge = harness.user("judge", roles=(role.id,))
    await harness.slash("judge setup", user=organiser, role=role)
    harness.bot.web.desk.auth.discord.member_ttl = 0.2  # Discord's answer trusted this long: the test waits less
    judging = await desk_of(harness, desk_oauth, judge)
    assert judging.page["standing"] == "judge"
    status, answer = await judging.act("round.pair")
    assert status == 403 and "Only an organiser" in answer["error"]
    judged = await judging.watch()
    assert judged["judges_only"] and "players" not in judged

    # From another site, or without the page's token: refused, nothing changed.
    status, _ = await desk.act("round.pair", origin="https://evil.example")
    assert status == 403
    status, _ = await desk.act("round.pair", token="forged")
    assert status == 403
    assert (await current(harness)).state.event.rounds == ()

    # A role removed in Discord closes the desk: at the next action, and on the open stream within seconds.
    harness.model.users[judge.id] = replace(judge, roles=())
    event, data = await judging.frame(timeout=5)
    while event == "model":
        event, data = await judging.frame(timeout=5)
    assert event == "gone" and "no longer counts you" in data["message"]
    status, answer = await judging.act("call.claim", call=1)
    assert status == 403
    for client in (desk, player, judging):
        await client.close()


async def test_a_signed_out_or_forged_session_is_sent_to_discord(harness: Harness, desk_oauth: FakeOAuth,
                                                               organiser: FakeUser, players: list[FakeUser]) -> None:
    await open_event(harness, organiser, players[:2])
    record = await current(harness)
    desk = DeskClient(harness.bot.web.public_url, record.id)
    desk.http.cookie_jar.update_cookies({"md_desk": "forged"})
    async with desk.http.get(desk.url, allow_redirects=False) as answer:
        assert answer.status == 302 and "/oauth2/authorize" in answer.headers["Location"]
        assert "redirect_uri=" in answer.headers["Location"]
    status, answer = await desk.act("round.pair")
    assert status == 401 and "sign in again" in answer["error"]
    async with desk.http.get(f"{harness.bot.web.public_url}/desk/callback?code=x&state=y") as answer:
        assert answer.status == 400  # a state this browser did not leave with
    await desk.close()


async def test_the_desk_publishes_where_an_event_without_announcement_channel_was_created(
        harness: Harness, desk_oauth: FakeOAuth, organiser: FakeUser, players: list[FakeUser]) -> None:
    await open_event(harness, organiser, players[:4])  # no announce-channel:
    assert (await current(harness)).state.tables_channel_id == harness.default_channel.id
    desk = await desk_of(harness, desk_oauth, organiser)
    await desk.watch()
    assert (await desk.act("round.pair"))[0] == 200
    r = (await desk.next_model(where=lambda m: m["round"] is not None))["round"]
    status, answer = await desk.act("round.publish", number=r["number"], draw=r["draw"], digest=r["digest"])
    assert status == 200, answer
    await threads_opened(harness, 2)
    threads = [harness.model.channels[g.thread_id] for g in (await current(harness)).state.table_games]
    assert {t.parent_id for t in threads} == {harness.default_channel.id}
    assert any("round 1 pairings" in m["content"] for m in harness.messages())  # announced there too
    await desk.close()


async def test_an_event_day_at_the_desk(harness: Harness, desk_oauth: FakeOAuth, organiser: FakeUser,
                                       players: list[FakeUser]) -> None:
    pairings = harness.channel("pairings")
    await open_event(harness, organiser, players, **{"announce-channel": pairings})
    desk = await desk_of(harness, desk_oauth, organiser)
    model = await desk.watch()
    # Round 1 from the desk, its results from Discord.
    assert (await desk.act("checkin.open"))[0] == 200
    model = await desk.next_model(where=lambda m: m["checkin"]["open"])
    status, answer = await desk.act("checkin.close", digest=model["checkin"]["digest"])
    assert status == 200 and "8 players" in answer["done"]  # nobody checked in: all dropped
    record = await current(harness)
    assert len(record.state.event.dropped) == 8
    for p in players:
        assert (await desk.act("player.reinstate", player=str(p.id)))[0] == 200
    assert (await desk.act("round.pair"))[0] == 200
    model = await desk.next_model(where=lambda m: m["round"] is not None)
    r = model["round"]
    assert not r["published"] and len(r["tables"]) == 4
    status, answer = await desk.act("round.publish", number=r["number"], draw=r["draw"], digest=r["digest"])
    assert status == 200, answer
    await threads_opened(harness, 4)
    record = await current(harness)
    assert len(record.state.table_games) == 4  # the Discord side opened the threads
    await enter_round(harness, organiser, {1: ("a_wins", 70, 40), 2: ("a_wins", 60, 50), 3: ("b_wins", 30, 55),
                                           4: ("draw", 45, 45)})

    # Round 2's draft: a swap that makes a rematch is marked, the undo clears it; a pin seats its player.
    assert (await desk.act("round.pair"))[0] == 200
    model = await desk.next_model(where=lambda m: m["round"]["number"] == 2)
    r = model["round"]
    record = await current(harness)
    one = record.state.event.rounds[0].pairings.tables[0]
    first = next(t for t in r["tables"] if one.a in {p["id"] for p in t["players"]})
    opponent = next(p["id"] for p in first["players"] if p["id"] != one.a)  # one.a's in round 2
    status, answer = await desk.act("draft.swap", number=2, draw=r["draw"], digest=r["digest"], a=one.b,
                                    b=opponent)  # one.a meets one.b again
    assert status == 200, answer
    model = await desk.next_model(where=lambda m: m["round"]["digest"] != r["digest"])
    marked = [p for t in model["round"]["tables"] for p in t["problems"] if p["kind"] == "rematch"]
    assert marked and "met in round 1" in marked[0]["message"]
    stale = await desk.act("draft.move", number=2, draw=r["draw"], digest=r["digest"], table=1, to=2)
    assert stale[0] == 400 and "another organiser" in stale[1]["error"]  # the draft this desk saw is gone
    r2 = model["round"]
    status, answer = await desk.act("round.publish", number=2, draw=r2["draw"], digest=r2["digest"])
    assert status == 409 and any("met in round 1" in line for line in answer["confirm"])
    assert not (await current(harness)).state.event.rounds[-1].published  # asked, not done
    status, _ = await desk.act("draft.swap", number=2, draw=r2["draw"], digest=r2["digest"], a=one.b, b=opponent)
    model = await desk.next_model(where=lambda m: m["round"]["digest"] != r2["digest"])
    assert not [p for t in model["round"]["tables"] for p in t["problems"] if p["kind"] == "rematch"]
    pinned = model["round"]["tables"][2]["players"][0]["id"]
    assert (await desk.act("pin.set", player=pinned, table=1))[0] == 200
    model = await desk.next_model(where=lambda m: m["round"]["tables"][0]["players"][0]["id"] == pinned
                                  or m["round"]["tables"][0]["players"][1]["id"] == pinned)
    r3 = model["round"]
    record = await current(harness)
    assert draft_problems(record.state.event, record.state.event.rounds[-1], record.state.pairing_rules,
                          record.state.clubs, record.state.pins) == {}
    status, answer = await desk.act("round.publish", number=2, draw=r3["draw"], digest=r3["digest"])
    assert status == 200, answer

    # Results: one entered, one corrected; minutes given; the log says who did each.
    status, answer = await desk.act("result.enter", table=1, vp_a=61, vp_b=40)
    assert status == 200 and "61–40" in answer["done"]
    status, answer = await desk.act("result.enter", table=1, vp_a=40, vp_b=61)
    assert status == 200 and "corrected from 61–40" in answer["done"]
    await threads_opened(harness, 8)
    status, answer = await desk.act("table.minutes", table=2, minutes=5)
    assert status == 200 and "5 in all" in answer["done"]
    status, text, headers = await desk.get("export/standings")
    assert status == 200 and "attachment" in headers["Content-Disposition"] and text.startswith("rank,")
    model = await desk.next_model(where=lambda m: any("corrected" in e["detail"] for e in m["log"]))
    assert all(e["by"] == "Organiser" for e in model["log"] if e["action"] != "publish")
    await desk.close()


async def test_a_team_event_at_the_desk_chooses_for_a_late_captain(harness: Harness, desk_oauth: FakeOAuth,
                                                                   organiser: FakeUser,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.cogs.test_team_events import Board, publish_round, team_event
    await team_event(harness, organiser, 3, 2, **{"pairing-minutes": 5})
    await publish_round(harness, organiser)
    record = await current(harness)
    deadline = record.state.match_boards[0].deadline
    desk = await desk_of(harness, desk_oauth, organiser)
    model = await desk.watch()
    assert [t["name"] for t in model["rosters"]] == ["Team 0", "Team 1"] and model["late"] == []
    status, answer = await desk.act("team.late", round=1, match=1, step=1)
    assert status == 400 and "still have time" in answer["error"]  # the service's own refusal: not late yet
    monkeypatch.setattr("time.time", lambda: deadline + 1)  # past the step's deadline, for the desk and the service
    monkeypatch.setattr("time.time_ns", lambda: (deadline + 1) * 10**9)
    await harness.bot.tournaments.changes.publish(Change("event", record.id, 0, "desk"))
    model = await desk.next_model(where=lambda m: m["late"])
    [late] = model["late"]
    assert late["match"] == 1 and set(late["waiting"]) == {"Team 0", "Team 1"}
    status, answer = await desk.act("team.late", round=1, match=1, step=late["step"])
    assert status == 200, answer
    board = Board(harness, 1, 1)
    assert (await board.pair()).match.steps > late["step"]  # both sides chosen at random, the board moved on
    await desk.close()
