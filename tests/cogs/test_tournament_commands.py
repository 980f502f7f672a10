"""/tournament through the interaction harness: every command, who may use it, and what everyone sees."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import Any

import discord
import pytest

from bot.client import MissionBot
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.tournament.event import missing_tables
from bot.engine.tournament.event import standings as event_standings
from bot.present.entrants import name_of
from bot.store.tournament_repository import TournamentRecord
from bot.ui.text import title_case
from tests.cogs.conftest import harness_settings
from tests.cogs.harness import Harness, Reply
from tests.discord_model import GUILD_ID, MANAGE_SERVER, HarnessError, FakeUser, message_problems

@dataclass(frozen=True)
class RoleMember(FakeUser):
    """A member holding server roles (the shared FakeUser has none)."""

    roles: tuple[int, ...] = ()

    def member_payload(self, *, with_user: bool = True) -> dict[str, Any]:
        return {**super().member_payload(with_user=with_user), "roles": [str(r) for r in self.roles]}


async def current(harness: Harness) -> TournamentRecord:
    return await harness.bot.tournaments.current(GUILD_ID)


async def open_event(harness: Harness, organiser: FakeUser, players: list[FakeUser], **options: Any) -> None:
    await harness.slash("tournament create", user=organiser, name="Club GT", rounds=3, **options)
    for p in players:
        await harness.slash("tournament register", user=p)


async def publish(harness: Harness, organiser: FakeUser, **options: Any) -> Reply:
    """/tournament pair, then Publish on the draft: what the Publish press did."""
    draft = await harness.slash("tournament pair", user=organiser, **options)
    [button] = [c for c in draft[-1].custom_ids if c.endswith(":publish")]
    return await harness.press(button, user=organiser)


async def paired(harness: Harness, organiser: FakeUser, players: list[FakeUser], **options: Any):
    await open_event(harness, organiser, players, **options)
    await publish(harness, organiser)
    return (await current(harness)).state.event.rounds[-1].pairings.tables


def refused(reply: Reply, text: str) -> None:
    assert reply.ephemeral, reply.content
    assert text in reply.content, reply.content


def by_id(players: list[FakeUser]) -> dict[str, FakeUser]:
    return {str(p.id): p for p in players}


async def test_create_needs_manage_server_and_one_event_at_a_time(harness: Harness, organiser, alice) -> None:
    refused(await harness.slash("tournament create", user=alice, name="GT", rounds=3), "Manage Server")
    with pytest.raises(Exception, match="no tournament yet"):
        await harness.bot.tournaments.latest(GUILD_ID)
    reply = await harness.slash("tournament create", user=organiser, name="Club GT", rounds=3, **{"bye-vp": 20})
    assert not reply.ephemeral and "**Club GT** is open for registration: 3 rounds" in reply.content
    assert (await current(harness)).state.event.bye_vp == 20
    again = await harness.slash("tournament create", user=organiser, name="Other", rounds=2)
    refused(again, "already has a tournament")
    refused(await harness.slash("tournament create", user=organiser, name="Bad", rounds=99), "1 to 20 rounds")


async def test_register_and_drop(harness: Harness, organiser, alice, bob) -> None:
    refused(await harness.slash("tournament register", user=alice), "no tournament running")
    await harness.slash("tournament create", user=organiser, name="Club GT", rounds=3)
    reply = await harness.slash("tournament register", user=alice)
    assert not reply.ephemeral and f"{alice.mention} is registered for **Club GT** (1 player)" in reply.content
    refused(await harness.slash("tournament register", user=alice), "already registered")
    refused(await harness.slash("tournament register", user=alice, player=bob), "Only an organiser")
    robot = harness.user("robot", bot=True)
    refused(await harness.slash("tournament register", user=organiser, player=robot), "Bots cannot play")
    reply = await harness.slash("tournament register", user=organiser, player=bob)
    assert "(2 players)" in reply.content
    assert (await current(harness)).state.names == {str(alice.id): "Alice", str(bob.id): "Bob"}

    refused(await harness.slash("tournament drop", user=bob, player=alice), "Only an organiser")
    reply = await harness.slash("tournament drop", user=alice)
    assert "has dropped" in reply.content and not reply.ephemeral
    refused(await harness.slash("tournament drop", user=alice), "already dropped")
    await harness.slash("tournament drop", user=organiser, player=bob)
    assert (await current(harness)).state.event.dropped == (str(alice.id), str(bob.id))


async def test_only_organisers_pair_announce_and_finish(harness: Harness, organiser, players) -> None:
    await open_event(harness, organiser, players)
    for command in ("pair", "announce", "finish"):
        refused(await harness.slash(f"tournament {command}", user=players[0]), "Only an organiser")
    assert (await current(harness)).state.event.rounds == ()
    refused(await harness.slash("tournament announce", user=organiser), "No round has been paired yet")


async def test_the_organiser_role_may_run_the_event(harness: Harness, organiser, players) -> None:
    role = {"id": str(harness.model.next_id()), "name": "TO", "color": 0, "hoist": False, "position": 1,
            "permissions": "0", "managed": False, "mentionable": False, "flags": 0}
    harness.guild._add_role(discord.Role(guild=harness.guild, state=harness.bot._connection, data=role))
    payload = harness.model.slash("tournament create", organiser, None, {"name": "Club GT", "rounds": 3})
    payload["data"]["options"][0]["options"].append({"type": 8, "name": "organiser-role", "value": role["id"]})
    payload["data"]["resolved"]["roles"] = {role["id"]: role}
    await harness.feed(payload)
    assert (await current(harness)).organiser_role_id == int(role["id"])

    judge = RoleMember(harness.model.next_id(), "judge", roles=(int(role["id"]),))
    harness.model.users[judge.id] = judge
    for p in players[:4]:
        await harness.slash("tournament register", user=p)
    refused(await harness.slash("tournament pair", user=players[0]), "Only an organiser")
    reply = await harness.slash("tournament pair", user=judge)
    assert reply.ephemeral and "Round 1 of **Club GT** is paired: 2 tables" in reply.content


async def test_pairing_waits_for_results_and_names_the_missing_tables(harness: Harness, organiser, players) -> None:
    tables = await paired(harness, organiser, players)
    for p in tables[:2]:
        await harness.slash("tournament result", user=organiser, table=p.table, outcome="a_wins",
                            **{"vp-a": 70, "vp-b": 40})
    reply = await harness.slash("tournament pair", user=organiser)
    refused(reply, "Round 1 is missing results for tables 3, 4.")
    assert len((await current(harness)).state.event.rounds) == 1
    for p in tables[2:]:
        await harness.slash("tournament result", user=organiser, table=p.table, outcome="draw",
                            **{"vp-a": 50, "vp-b": 50})
    reply = await harness.slash("tournament pair", user=organiser, mission="C")
    assert "Round 2 of **Club GT** is paired: 4 tables, Mission C: Linchpin / Tipping Point." in reply.content
    assert (await current(harness)).state.event.rounds[-1].mission == "C"


async def test_a_report_is_final_once_the_opponent_confirms(harness: Harness, organiser, players) -> None:
    tables = await paired(harness, organiser, players)
    people = by_id(players)
    table = tables[0]
    a, b = people[table.a], people[table.b]
    stranger = next(p for p in players if p not in (a, b))
    refused(await harness.slash("tournament result", user=stranger, table=table.table, outcome="a_wins",
                                **{"vp-a": 70, "vp-b": 40}), "You do not play at table 1")

    report = await harness.slash("tournament result", user=a, table=table.table, outcome="a_wins",
                                 **{"vp-a": 72, "vp-b": 65})
    assert not report.ephemeral
    assert report.content.startswith(f"{b.mention}, {a.mention} reports **Club GT** round 1, table 1:")
    assert f"{a.mention} **72** – **65** {b.mention}: {a.mention} wins" in report.content
    assert report.response.body["data"]["allowed_mentions"]["users"] == [b.id]  # the opponent is pinged
    [button] = report.custom_ids
    assert len(button) <= 100
    assert (await current(harness)).state.event.rounds[-1].results == ()  # not final yet

    refused(await harness.press(button, user=a), "Your opponent confirms your report")
    refused(await harness.press(button, user=stranger), f"Only {b.mention}")
    confirmed = await harness.press(button, user=b)
    assert confirmed.response.type == 7  # the report message itself is updated
    message = harness.message(report.main.message["id"])
    assert message["content"].startswith("✅ **Club GT** round 1, table 1:") and message["components"] == []
    [result] = (await current(harness)).state.event.rounds[-1].results
    assert (result.a, result.vp_a, result.vp_b, result.outcome) == (table.a, 72, 65, "a_wins")

    refused(await harness.slash("tournament result", user=b, table=table.table, outcome="b_wins",
                                **{"vp-a": 60, "vp-b": 65}), "already has a confirmed result")


async def test_a_replaced_report_cannot_be_confirmed(harness: Harness, organiser, players) -> None:
    tables = await paired(harness, organiser, players)
    a, b = by_id(players)[tables[1].a], by_id(players)[tables[1].b]
    first = await harness.slash("tournament result", user=a, table=2, outcome="a_wins", **{"vp-a": 80, "vp-b": 20})
    second = await harness.slash("tournament result", user=b, table=2, outcome="b_wins", **{"vp-a": 20, "vp-b": 80})
    [old] = first.custom_ids
    [new] = second.custom_ids
    assert old != new
    refused(await harness.press(old, user=b, message_id=int(first.main.message["id"])), "out of date")
    assert (await current(harness)).state.event.rounds[-1].results == ()
    await harness.press(new, user=a)
    [result] = (await current(harness)).state.event.rounds[-1].results
    assert (result.outcome, result.vp_b) == ("b_wins", 80)


async def test_an_organiser_entry_is_final_and_corrects(harness: Harness, organiser, players) -> None:
    tables = await paired(harness, organiser, players)
    a, b = by_id(players)[tables[0].a], by_id(players)[tables[0].b]
    report = await harness.slash("tournament result", user=a, table=1, outcome="a_wins", **{"vp-a": 60, "vp-b": 50})
    entered = await harness.slash("tournament result", user=organiser, table=1, outcome="a_wins",
                                  **{"vp-a": 61, "vp-b": 50})
    assert entered.custom_ids == [] and "Entered by organiser" in entered.content
    refused(await harness.press(report.custom_ids[0], user=b), "out of date")  # the pending report is gone
    fixed = await harness.slash("tournament result", user=organiser, table=1, outcome="b_wins",
                                **{"vp-a": 55, "vp-b": 61})
    assert f"{a.mention} **55** – **61** {b.mention}: {b.mention} wins (corrected from 61 – 50, A wins)" \
        in fixed.content
    [result] = (await current(harness)).state.event.rounds[-1].results
    assert (result.outcome, result.vp_a, result.vp_b) == ("b_wins", 55, 61)
    refused(await harness.slash("tournament result", user=organiser, table=9, outcome="draw",
                                **{"vp-a": 1, "vp-b": 1}), "Round 1 has no table 9")


async def test_a_result_that_contradicts_its_vp_is_refused_and_changes_nothing(
    harness: Harness, organiser, players
) -> None:
    tables = await paired(harness, organiser, players)
    a, b = by_id(players)[tables[0].a], by_id(players)[tables[0].b]
    before = await current(harness)
    for user, outcome, vp_a, vp_b, says in [
        (a, "a_wins", 40, 80, f"40–80 is a win for {b.mention}, not a win for {a.mention}"),
        (organiser, "a_wins", 40, 80, f"40–80 is a win for {b.mention}, not a win for {a.mention}"),
        (b, "draw", 60, 50, f"60–50 is a win for {a.mention}, not a draw"),
        (organiser, "b_wins", 50, 50, f"50–50 is a draw, not a win for {b.mention}"),
    ]:
        reply = await harness.slash("tournament result", user=user, table=1, outcome=outcome,
                                    **{"vp-a": vp_a, "vp-b": vp_b})
        refused(reply, says)
        assert "the player with more VP wins and equal VP is a draw" in reply.content
        assert reply.custom_ids == []
    after = await current(harness)
    assert (after.version, after.state) == (before.version, before.state)  # nothing stored, not even a report

    # Without an outcome the VP decide: the 80VP player wins.
    report = await harness.slash("tournament result", user=a, table=1, **{"vp-a": 40, "vp-b": 80})
    assert f"{a.mention} **40** – **80** {b.mention}: {b.mention} wins" in report.content
    await harness.press(report.custom_ids[0], user=b)
    [result] = (await current(harness)).state.event.rounds[-1].results
    assert (result.outcome, result.reason) == ("b_wins", "score")


async def test_an_organiser_records_a_concession_and_a_no_show(harness: Harness, organiser, players) -> None:
    tables = await paired(harness, organiser, players[:4])
    people = by_id(players)
    first, second = tables
    a, b = people[first.a], people[first.b]
    # Player A conceded while ahead on VP: the organiser records it as such, and B wins whatever the VP.
    refused(await harness.slash("tournament result", user=organiser, table=1, reason="concession",
                                **{"vp-a": 45, "vp-b": 20}), "A concession has a winner")
    entered = await harness.slash("tournament result", user=organiser, table=1, outcome="b_wins",
                                  reason="concession", **{"vp-a": 45, "vp-b": 20})
    assert f"{a.mention} **45** – **20** {b.mention}: {b.mention} wins ({a.mention} conceded)" in entered.content
    refused(await harness.slash("tournament result", user=people[second.a], table=2, outcome="a_wins",
                                reason="no_show", **{"vp-a": 0, "vp-b": 0}), "Only an organiser records a no-show")
    await harness.slash("tournament result", user=organiser, table=2, outcome="a_wins", reason="no_show",
                        **{"vp-a": 0, "vp-b": 0})
    results = {r.table: r for r in (await current(harness)).state.event.rounds[-1].results}
    assert (results[1].outcome, results[1].reason, results[1].vp_a) == ("b_wins", "concession", 45)
    assert (results[2].outcome, results[2].reason) == ("a_wins", "no_show")

    names = {str(p.id): p.name.title() for p in players}
    lines = (await harness.slash("tournament standings", user=a)).embed["description"].splitlines()
    line_of = {re.search(r"` (\w+) ·", line)[1]: line for line in lines}
    assert line_of[names[first.a]].endswith("· R1 conceded")
    assert line_of[names[first.b]].endswith("· R1 won by concession")
    assert line_of[names[second.a]].endswith("· R1 won by no-show")
    assert line_of[names[second.b]].endswith("· R1 no-show")
    reply = await harness.slash("tournament export", user=organiser)
    record = await current(harness)
    files = {x["filename"]: harness.model.files[int(x["id"])].decode() for x in reply.main.message["attachments"]}
    exported = list(csv.DictReader(io.StringIO(files[f"tournament-{record.id}-results.csv"])))
    assert [(row["outcome"], row["reason"]) for row in exported] == [("b_wins", "concession"), ("a_wins", "no_show")]
    standings = {row["player_id"]: row["notes"] for row in
                 csv.DictReader(io.StringIO(files[f"tournament-{record.id}-standings.csv"]))}
    assert standings[first.a] == "R1 conceded" and standings[second.b] == "R1 no-show"
    # An organiser corrects the concession into a result the score decides.
    fixed = await harness.slash("tournament result", user=organiser, table=1, **{"vp-a": 45, "vp-b": 20})
    assert f"{a.mention} wins (corrected from 45 – 20, B wins (concession))" in fixed.content


async def test_a_player_reports_their_own_concession_and_only_theirs(harness: Harness, organiser, players) -> None:
    tables = await paired(harness, organiser, players[:2])
    a, b = by_id(players)[tables[0].a], by_id(players)[tables[0].b]
    refused(await harness.slash("tournament result", user=b, table=1, outcome="b_wins", reason="concession",
                                **{"vp-a": 30, "vp-b": 10}), "Only the player who conceded")
    report = await harness.slash("tournament result", user=a, table=1, outcome="b_wins", reason="concession",
                                 **{"vp-a": 30, "vp-b": 10})
    assert f"{b.mention} wins ({a.mention} conceded)" in report.content
    confirmed = await harness.press(report.custom_ids[0], user=b)
    assert confirmed.response.type == 7
    [result] = (await current(harness)).state.event.rounds[-1].results
    assert (result.outcome, result.reason, result.vp_a, result.vp_b) == ("b_wins", "concession", 30, 10)


async def enter_round(harness: Harness, organiser: FakeUser, scores: dict[int, tuple[str, int, int]]) -> None:
    for table, (outcome, vp_a, vp_b) in scores.items():
        await harness.slash("tournament result", user=organiser, table=table, outcome=outcome,
                            **{"vp-a": vp_a, "vp-b": vp_b})


async def test_standings_order_and_export(harness: Harness, organiser, players) -> None:
    tables = await paired(harness, organiser, players[:4])
    await enter_round(harness, organiser, {1: ("a_wins", 80, 30), 2: ("b_wins", 40, 60)})
    first = tables[0]
    winners = [first.a, tables[1].b]
    losers = [first.b, tables[1].a]
    expected = [winners[0], winners[1], losers[1], losers[0]]  # by VP within the same record
    names = {str(p.id): p.name.title() for p in players}

    public = await harness.slash("tournament standings", user=organiser)
    assert not public.ephemeral and public.content == "" and public.embed["title"] == "Club GT: standings after round 1"
    lines = public.embed["description"].splitlines()
    assert [re.search(r"` (\w+) ·", line)[1] for line in lines] == [names[p] for p in expected]
    assert lines[0].endswith("· 1-0 · 0.00% · 80 VP")
    assert lines[3].startswith("`   4`") and "· 0-1 · 100.00% · 30 VP" in lines[3]
    assert "record W-L (W-L-D when there are draws)" in public.embed["footer"]["text"]
    fourth = by_id(players)[expected[3]]
    private = await harness.slash("tournament standings", user=fourth)  # a player's standings are their own
    assert private.ephemeral and private.content == "You are **4** of 4: 0-1, 30 VP."
    assert private.embed["description"] == public.embed["description"]

    reply = await harness.slash("tournament export", user=players[1])
    assert reply.ephemeral
    files = {a["filename"]: harness.model.files[int(a["id"])].decode() for a in reply.main.message["attachments"]}
    record = await current(harness)
    standings = list(csv.DictReader(io.StringIO(files[f"tournament-{record.id}-standings.csv"])))
    assert [row["player_id"] for row in standings] == expected
    assert standings[0] == {
        "rank": "1", "player_id": expected[0], "name": names[expected[0]], "record": "1-0", "wins": "1", "draws": "0",
        "losses": "0", "opponents_win_pct": "0.00", "vp": "80", "path": "W", "had_bye": "False", "dropped": "False",
        "notes": "", "faction": "", "detachment": "", "list_points": "", "list_flags": "",
    }
    results = list(csv.DictReader(io.StringIO(files[f"tournament-{record.id}-results.csv"])))
    mission = record.state.event.rounds[0].mission
    assert results == [
        {"round": "1", "mission": mission, "table": "1", "player_a_id": first.a, "player_a": names[first.a],
         "player_b_id": first.b, "player_b": names[first.b], "outcome": "a_wins", "vp_a": "80", "vp_b": "30",
         "reason": "score", "faction_a": "", "faction_b": ""},
        {"round": "1", "mission": mission, "table": "2", "player_a_id": tables[1].a, "player_a": names[tables[1].a],
         "player_b_id": tables[1].b, "player_b": names[tables[1].b], "outcome": "b_wins", "vp_a": "40", "vp_b": "60",
         "reason": "score", "faction_a": "", "faction_b": ""},
    ]


def named(message: dict[str, Any]) -> list[int]:
    """The users a posted message mentions in its content."""
    return [int(u) for u in re.findall(r"<@(\d+)>", message["body"]["content"])]


def mentioned(message: dict[str, Any]) -> list[int]:
    """The users a posted message notifies: mentioned in its content and allowed to be (nobody else is allowed)."""
    body_users = [int(u) for u in message["body"]["allowed_mentions"]["users"]]
    assert message["body"]["allowed_mentions"]["parse"] == []  # no @everyone, no roles
    in_content = named(message)
    assert set(body_users) <= set(in_content)  # only users it names
    for embed in message["body"].get("embeds") or []:  # embeds never notify: nobody is only there
        assert set(map(int, re.findall(r"<@(\d+)>", str(embed)))) <= set(in_content)
    return sorted(set(body_users))


def posted(harness: Harness, reply: Reply) -> list[dict[str, Any]]:
    """The messages a reply posted in channels (the table threads' challenges apart)."""
    return [{"body": s.body, "message": s.message} for s in reply
            if s.kind == "message" and not harness.model.channels[int(s.message["channel_id"])].is_thread]


async def test_the_draft_is_private_until_published(harness: Harness, organiser, players, catalog: Catalog) -> None:
    news = harness.channel("pairings")
    await open_event(harness, organiser, players[:7], **{"announce-channel": news})
    draft = await harness.slash("tournament pair", user=organiser, mission="A")
    assert all(s.kind in ("response", "followup") for s in draft) and draft.ephemeral
    assert harness.messages(news) == []
    intro = draft.content
    assert intro.startswith("Round 1 of **Club GT** is paired: 3 tables, Mission A:") and "Only you see" in intro
    event = (await current(harness)).state.event
    first = event.rounds[0]
    assert not first.published and first.draw == 0
    shown = "\n".join(e.get("description") or "" for s in draft if s.message for e in s.message["embeds"])
    names = (await current(harness)).state.names
    for p in first.pairings.tables:
        assert f"**Table {p.table}**: {names[p.a]} (0-0) vs {names[p.b]} (0-0)" in shown
    assert f"**Bye**: {names[first.pairings.bye.a]} (0-0)" in shown
    a = by_id(players)[first.pairings.tables[0].a]
    # Nothing can happen on a draft: no result, no announcement, no next round.
    refused(await harness.slash("tournament result", user=a, table=1, **{"vp-a": 70, "vp-b": 40}),
            "Round 1 is not published yet")
    refused(await harness.slash("tournament result", user=organiser, table=1, **{"vp-a": 70, "vp-b": 40}),
            "Round 1 is not published yet")
    refused(await harness.slash("tournament announce", user=organiser), "Round 1 is still a draft")
    refused(await harness.slash("tournament pair", user=organiser), "Round 1 is still a draft")
    publish_1, repair_1 = draft.custom_ids
    assert publish_1.endswith(":publish") and repair_1.endswith(":repair")
    for button in (publish_1, repair_1):  # the draft is ephemeral: nobody else can even see its buttons
        with pytest.raises(HarnessError, match="cannot see the ephemeral message"):
            await harness.press(button, user=a)
    assert harness.messages(news) == [] and (await current(harness)).state.event == event

    again = await harness.press(repair_1, user=organiser)
    assert again.ephemeral and harness.messages(news) == []
    redrawn = (await current(harness)).state.event.rounds[0]
    assert (redrawn.draw, redrawn.mission, redrawn.published) == (1, "A", False)
    assert "is paired (draw 2)" in again.content
    refused(await harness.press(publish_1, user=organiser), "This draft is out of date")
    publish_2, _ = again.custom_ids
    done = await harness.press(publish_2, user=organiser)
    assert "Round 1 is published. Posted the round 1 pairings" in done[-1].content
    assert (await current(harness)).state.event.rounds[0].published
    assert len(harness.messages(news)) == 1
    refused(await harness.press(publish_2, user=organiser), "This draft is out of date")


async def test_a_re_pair_is_a_new_draw_that_keeps_the_rules(harness: Harness, organiser, players) -> None:
    """Among eight 1-0 and 0-1 players, re-pairs draw other opponents, but never a rematch nor a 1-0 against
    a 0-1 while an equal opponent is free."""
    await paired(harness, organiser, players)
    await enter_round(harness, organiser, {n: ("a_wins", 70, 40) for n in range(1, 5)})
    event = (await current(harness)).state.event
    winners = {r.a for r in event.rounds[0].results}
    met = {frozenset((p.a, p.b)) for p in event.rounds[0].pairings.tables}
    draft = await harness.slash("tournament pair", user=organiser)
    seen = set()
    for _ in range(6):
        r2 = (await current(harness)).state.event.rounds[1]
        tables = frozenset(frozenset((p.a, p.b)) for p in r2.pairings.tables)
        assert not tables & met
        assert all((p.a in winners) == (p.b in winners) for p in r2.pairings.tables)
        seen.add(tables)
        draft = await harness.press(draft.custom_ids[1], user=organiser)
    assert len(seen) > 1


async def test_announce_mentions_every_player_in_the_content(
    harness: Harness, organiser, players, catalog: Catalog
) -> None:
    news = harness.channel("pairings")
    await open_event(harness, organiser, players[:7], **{"announce-channel": news, "bye-vp": 20})
    published = await publish(harness, organiser, mission="A")
    [message] = posted(harness, published)
    event = (await current(harness)).state.event
    bye, tables = event.rounds[0].pairings.bye, event.rounds[0].pairings.tables
    lines = message["body"]["content"].splitlines()
    assert lines == ["📣 **Club GT**: round 1 pairings", f"**Bye**: <@{bye.a}> scores a win and 20VP",
                     *(f"**Table {p.table}**: <@{p.a}> vs <@{p.b}>" for p in tables)]
    # Every player is named; the bye alone is notified here, each table's players in their table thread.
    assert sorted(named(message)) == sorted(p.id for p in players[:7]) and mentioned(message) == [int(bye.a)]
    threads = [s for s in published if s.kind == "message" and harness.model.channels[
        int(s.message["channel_id"])].is_thread]
    pinged = [int(u) for s in threads for u in s.body["allowed_mentions"]["users"]]
    assert sorted(pinged + [int(bye.a)]) == sorted(p.id for p in players[:7])  # each player once
    [header] = message["body"]["embeds"]
    pool = catalog.pool_mission("A")
    assert header["title"] == "Club GT: round 1 of 3"
    assert title_case(catalog.primary(pool.primary).name) in str(header)  # Take and Hold
    assert title_case(catalog.deployment(pool.deployment).name) in str(header)  # Tipping Point
    fields = {f["name"]: f["value"] for f in header["fields"]}
    assert fields["Terrain layouts"] == "Layout 1, Layout 2, Layout 4, Layout 6, Layout 7, Layout 8"

    again = await harness.slash("tournament announce", user=organiser)
    assert [s.kind for s in again] == ["response", "message", "followup"]
    assert again[-1].ephemeral and f"Posted the round 1 pairings in {news.mention} (1 message)" in again[-1].content
    assert posted(harness, again)[0]["body"]["content"] == message["body"]["content"]


async def test_a_thousand_player_announce_is_split_within_discord_limits(harness: Harness, organiser) -> None:
    await harness.slash("tournament create", user=organiser, name="Mega GT", rounds=5)
    record = await current(harness)  # registering 1,001 players one command at a time would be slow
    ids = [str(10**17 + i) for i in range(1001)]
    event = record.state.event.model_copy(update={"players": tuple(ids)})
    state = record.state.model_copy(update={"event": event, "names": {p: f"p{p[-3:]}" for p in ids}})
    await harness.bot.tournaments.repo.save_if_version(record, state)
    draft = await harness.slash("tournament pair", user=organiser)
    previews = [s.body for s in draft if s.kind == "followup"]
    assert len(previews) > 1 and all(message_problems(body) == [] for body in previews)
    assert draft[-1].custom_ids[0].endswith(":publish") and not draft.custom_ids  # the buttons on the last
    harness.timeout = 300  # Publish also opens a thread with a game for each of the 500 tables
    reply = await harness.press(draft[-1].custom_ids[0], user=organiser)
    messages = posted(harness, reply)
    assert f"({len(messages)} messages)" in reply[-1].content and len(messages) > 1
    everyone, notified = [], []
    for message in messages:
        assert message_problems(message["body"]) == []
        users = named(message)
        assert len(users) <= 100
        everyone += users
        notified += mentioned(message)
    assert sorted(everyone) == sorted(map(int, ids))  # each player named once, the bye too
    bye = (await current(harness)).state.event.rounds[-1].pairings.bye
    assert notified == ([int(bye.a)] if bye else [])  # the tables' players are pinged in their threads
    lines = [line for m in messages for line in m["body"]["content"].splitlines()]
    assert [line.split(":")[0] for line in lines if line.startswith("**Table")] == \
        [f"**Table {n}**" for n in range(1, 501)]

    standings = await harness.slash("tournament standings", user=organiser)
    shown = [line for s in standings if s.message for e in s.message["embeds"]
             for line in (e.get("description") or "").splitlines()]
    assert len(shown) == 1001
    assert all(message_problems(s.message) == [] for s in standings if s.message)


async def test_finish_then_a_new_event(harness: Harness, organiser, players) -> None:
    await paired(harness, organiser, players[:2])
    refused(await harness.slash("tournament finish", user=organiser), "still missing results for table 1")
    await enter_round(harness, organiser, {1: ("draw", 45, 45)})
    reply = await harness.slash("tournament finish", user=organiser)
    assert "**Club GT** is over after 1 round." in reply.content
    # A draw each: no wins, no losses, one draw, written W-L-D because there is a draw.
    assert reply.embed["description"].count("· 0-0-1 · 50.00% · 45 VP") == 2
    refused(await harness.slash("tournament register", user=players[3]), "no tournament running")
    assert (await harness.slash("tournament standings", user=players[3])).embed["title"].startswith("Club GT")
    await harness.slash("tournament create", user=organiser, name="Next GT", rounds=2)
    assert (await harness.slash("tournament standings", user=players[3])).embed["title"] == \
        "Next GT: registered players"


async def test_announce_where_the_bot_cannot_post_is_refused(harness: Harness, organiser, players) -> None:
    await paired(harness, organiser, players[:4])
    harness.model.bot_permissions &= ~discord.Permissions(send_messages=True).value
    reply = await harness.slash("tournament announce", user=organiser)
    refused(reply, f"I cannot post in {harness.default_channel.mention}: check my permissions there.")


async def test_a_player_reports_from_their_own_point_of_view(harness: Harness, organiser, players) -> None:
    tables = await paired(harness, organiser, players[:5])
    people = by_id(players)
    first, second = tables
    event = (await current(harness)).state.event
    refused(await harness.slash("tournament report", user=people[event.rounds[0].pairings.bye.a],
                                **{"my-vp": 50, "opponent-vp": 0}), "You have the bye this round")
    refused(await harness.slash("tournament report", user=organiser, **{"my-vp": 50, "opponent-vp": 0}),
            "You have no table in the current round")
    # Player B of table 1 reports their win: the bot seats the VP and names the winner.
    b, a = people[first.b], people[first.a]
    report = await harness.slash("tournament report", user=b, **{"my-vp": 70, "opponent-vp": 40})
    assert report.content.startswith(f"{a.mention}, {b.mention} reports **Club GT** round 1, table 1:")
    assert f"{a.mention} **40** – **70** {b.mention}: {b.mention} wins" in report.content
    assert report.response.body["data"]["allowed_mentions"]["users"] == [a.id]
    await harness.press(report.custom_ids[0], user=a)
    [result] = [r for r in (await current(harness)).state.event.rounds[0].results if r.table == 1]
    assert (result.vp_a, result.vp_b, result.outcome, result.reason) == (40, 70, "b_wins", "score")
    # Player A of table 2 concedes while ahead: B wins, as a concession.
    conceding = people[second.a]
    report = await harness.slash("tournament report", user=conceding, conceded=True,
                                 **{"my-vp": 45, "opponent-vp": 20})
    assert f"**45** – **20** {people[second.b].mention}: {people[second.b].mention} wins " \
           f"({conceding.mention} conceded)" in report.content
    await harness.press(report.custom_ids[0], user=people[second.b])
    [result] = [r for r in (await current(harness)).state.event.rounds[0].results if r.table == 2]
    assert (result.outcome, result.reason) == ("b_wins", "concession")
    refused(await harness.slash("tournament report", user=conceding, **{"my-vp": 45, "opponent-vp": 20}),
            "already has a confirmed result")


async def test_status_lists_every_table_and_nudges_exactly_the_missing_players(
    harness: Harness, organiser, players
) -> None:
    news = harness.channel("pairings")
    tables = await paired(harness, organiser, players, **{"announce-channel": news})
    people = by_id(players)
    await enter_round(harness, organiser, {1: ("a_wins", 70, 40)})
    reporter = people[tables[1].a]
    await harness.slash("tournament report", user=reporter, **{"my-vp": 60, "opponent-vp": 50})
    refused(await harness.slash("tournament status", user=reporter), "Only an organiser")
    status = await harness.slash("tournament status", user=organiser)
    assert status.ephemeral and status.embed["title"] == "Club GT: round 1, 3 of 4 tables waiting"
    names = (await current(harness)).state.names
    lines = status.embed["description"].splitlines()
    assert lines[0] == f"**Table 1** ({names[tables[0].a]} vs {names[tables[0].b]}): ✅ 70–40, A wins, confirmed"
    assert lines[1].endswith(f"⏳ reported by {names[tables[1].a]}, awaiting {names[tables[1].b]}")
    assert lines[2].endswith("❌ nothing yet") and lines[3].endswith("❌ nothing yet")
    [nudge] = status.custom_ids
    before = len(harness.messages(news))
    nudged = await harness.press(nudge, user=organiser)
    assert "Nudged 5 players in" in nudged[-1].content
    [message] = [{"body": s.body} for s in nudged if s.kind == "message"]
    assert len(harness.messages(news)) == before + 1
    waiting = [tables[1].b, tables[2].a, tables[2].b, tables[3].a, tables[3].b]
    assert sorted(mentioned(message)) == sorted(map(int, waiting))
    assert f"**Table 2**: <@{tables[1].b}>, please confirm {names[tables[1].a]}'s report" in message["body"]["content"]

    await enter_round(harness, organiser, {n: ("draw", 50, 50) for n in (2, 3, 4)})
    done = await harness.slash("tournament status", user=organiser)
    assert done.embed["title"] == "Club GT: round 1, 0 of 4 tables waiting" and done.custom_ids == []
    refused(await harness.press(nudge, user=organiser), "nobody to nudge")


async def test_an_organiser_corrects_an_earlier_round_and_the_standings_follow(
    harness: Harness, organiser, players
) -> None:
    tables = await paired(harness, organiser, players[:4])
    await enter_round(harness, organiser, {1: ("a_wins", 80, 30), 2: ("a_wins", 70, 60)})
    await publish(harness, organiser)
    first = tables[0]
    people = by_id(players)
    refused(await harness.slash("tournament result", user=people[first.b], table=1,
                                **{"vp-a": 30, "vp-b": 80, "round": 1}), "Only an organiser")
    refused(await harness.slash("tournament result", user=organiser, table=1, **{"vp-a": 1, "vp-b": 2, "round": 9}),
            "There is no round 9")
    fixed = await harness.slash("tournament result", user=organiser, table=1, **{"vp-a": 30, "vp-b": 80, "round": 1})
    assert not fixed.ephemeral and "round 1, table 1:" in fixed.content
    assert "(corrected from 80 – 30, A wins)" in fixed.content and f"organiser {organiser.mention}" in fixed.content
    record = await current(harness)
    [correction] = record.state.corrections
    assert correction.by == str(organiser.id) and (correction.before.vp_a, correction.after.vp_a) == (80, 30)
    standings = {s.player: s for s in event_standings(record.state.event)}
    assert (standings[first.b].wins, standings[first.b].vp) == (1, 80)
    assert (standings[first.a].losses, standings[first.a].vp) == (1, 30)
    assert len(record.state.event.rounds) == 2 and not missing_tables(record.state.event.rounds[0])


async def test_an_organiser_reinstates_a_dropped_player_before_the_next_round(
    harness: Harness, organiser, players
) -> None:
    tables = await paired(harness, organiser, players[:4])
    people = by_id(players)
    gone = people[tables[0].a]
    refused(await harness.slash("tournament reinstate", user=organiser, player=gone), "has not dropped")
    await harness.slash("tournament drop", user=gone)
    refused(await harness.slash("tournament reinstate", user=gone, player=gone), "Only an organiser")
    await enter_round(harness, organiser, {1: ("a_wins", 80, 30), 2: ("a_wins", 70, 60)})
    back = await harness.slash("tournament reinstate", user=organiser, player=gone)
    assert f"{gone.mention} is back in **Club GT**" in back.content
    await publish(harness, organiser)
    seated = {p for x in (await current(harness)).state.event.rounds[1].pairings.tables for p in (x.a, x.b)}
    assert str(gone.id) in seated
    await enter_round(harness, organiser, {1: ("a_wins", 80, 30), 2: ("a_wins", 70, 60)})
    await harness.slash("tournament drop", user=gone)
    await harness.slash("tournament pair", user=organiser)  # a draft without them
    refused(await harness.slash("tournament reinstate", user=organiser, player=gone), "already paired as a draft")


async def test_check_in_drops_only_who_the_organiser_saw_and_confirmed(harness: Harness, organiser, players) -> None:
    await open_event(harness, organiser, players[:5])
    refused(await harness.slash("tournament checkin", user=players[0], action="open"), "Only an organiser")
    refused(await harness.slash("tournament checkin", user=organiser, action="close"), "Check-in is not open")
    opened = await harness.slash("tournament checkin", user=organiser, action="open")
    assert not opened.ephemeral and "press **Check in**" in opened.content
    [button] = opened.custom_ids
    for p in players[:3]:
        done = await harness.press(button, user=p)
        assert done.ephemeral and "You are checked in for **Club GT**" in done.content
    refused(await harness.press(button, user=players[0]), "already checked in")
    refused(await harness.press(button, user=players[6]), "You are not registered")
    close = await harness.slash("tournament checkin", user=organiser, action="close")
    names = (await current(harness)).state.names
    assert close.ephemeral and close.content.startswith(
        f"2 players have not checked in: {names[str(players[3].id)]}, {names[str(players[4].id)]}.")
    assert (await current(harness)).state.event.dropped == ()  # nothing happens before the organiser confirms
    [confirm] = close.custom_ids
    await harness.press(button, user=players[3])  # checks in meanwhile: the list shown is out of date
    refused(await harness.press(confirm, user=organiser), "Who has checked in changed since")
    close = await harness.slash("tournament checkin", user=organiser, action="close")
    closed = await harness.press(close.custom_ids[0], user=organiser)
    assert "Check-in for **Club GT** is closed: 4 players will be paired." in closed.content
    record = await current(harness)
    assert record.state.event.dropped == (str(players[4].id),) and not record.state.checkin_open
    refused(await harness.press(button, user=players[4]), "Check-in is closed")
    await publish(harness, organiser)
    refused(await harness.slash("tournament checkin", user=organiser, action="open"), "this event has started")


async def test_the_round_clock_reminds_after_a_restart(catalog: Catalog, database_url: str) -> None:
    async with Harness(MissionBot(harness_settings(database_url), catalog)) as first:
        organiser = first.user("organiser", permissions=MANAGE_SERVER)
        players = [first.user(f"player{i}") for i in range(4)]
        await open_event(first, organiser, players)
        refused(await first.slash("tournament round start", user=organiser), "No round is being played")
        await publish(first, organiser)
        refused(await first.slash("tournament round start", user=players[0]), "Only an organiser")
        started = await first.slash("tournament round start", user=organiser, minutes=45)
        clock = (await current(first)).state.clock
        assert clock.ends_at > 0 and clock.reminded == ()
        assert not started.ephemeral and f"ends <t:{clock.ends_at}:t> (<t:{clock.ends_at}:R>)" in started.content
        channel_id = first.default_channel.id
        assert clock.channel_id == channel_id
    # The bot restarts: a new process reads the stored end time.
    async with Harness(MissionBot(harness_settings(database_url), catalog)) as second:
        assert second.default_channel.id == channel_id
        cog = second.bot.get_cog("tournament")
        assert cog.clock.is_running()
        assert await cog.post_reminders(clock.ends_at - 31 * 60) == 0
        assert await cog.post_reminders(clock.ends_at - 30 * 60) == 1
        assert await cog.post_reminders(clock.ends_at - 29 * 60) == 0  # each reminder once
        assert await cog.post_reminders(clock.ends_at) == 1  # late: only the latest mark is posted
        texts = [m["content"] for m in second.messages()]
        assert texts == [f"⏰ **Club GT** round 1: 30 minutes left (ends <t:{clock.ends_at}:R>).",
                         "⏰ **Club GT** round 1: time is up: finish your turn and report your result."]
        assert (await second.bot.tournaments.current(GUILD_ID)).state.clock.reminded == (30, 10, 0)


async def test_a_short_round_skips_the_reminders_it_never_reaches(harness: Harness, organiser, players) -> None:
    await paired(harness, organiser, players[:4])
    await harness.slash("tournament round start", user=organiser, minutes=20)
    clock = (await current(harness)).state.clock
    assert clock.reminded == (30,)
    cog = harness.bot.get_cog("tournament")
    assert await cog.post_reminders(clock.ends_at - 10 * 60) == 1
    assert harness.messages()[-1]["content"].startswith("⏰ **Club GT** round 1: 10 minutes left")


async def test_publish_opens_a_thread_per_table_with_its_game_ready(harness: Harness, organiser, players) -> None:
    news = harness.channel("pairings")
    await open_event(harness, organiser, players[:7], **{"announce-channel": news})
    reply = await publish(harness, organiser, mission="C")
    record = await current(harness)
    tables = record.state.event.rounds[-1].pairings.tables
    threads = {c.name: c for c in harness.model.channels.values() if c.is_thread}
    assert len(tables) == 3 and len(threads) == 3  # seven players: the bye gets no thread
    for pairing in tables:
        a, b = name_of(record, pairing.a), name_of(record, pairing.b)
        thread = threads[f"R1 · T{pairing.table} · {a} vs {b}"]
        assert thread.parent_id == news.id
        assert harness.model.thread_members[thread.id] == {int(pairing.a), int(pairing.b)}
        game = await harness.bot.service.get_state(channel_id=thread.id)
        assert game.setup.players == (pairing.a, pairing.b) and game.setup.mission == "C"
        assert game.setup.size == "strike-force"
        [challenge] = [s for s in reply if s.kind == "message" and int(s.message["channel_id"]) == thread.id]
        assert sorted(map(int, challenge.body["allowed_mentions"]["users"])) == sorted(
            [int(pairing.a), int(pairing.b)]) and challenge.body["allowed_mentions"]["parse"] == []
        assert f"<@{pairing.a}>" in challenge.body["content"] and f"<@{pairing.b}>" in challenge.body["content"]
        assert any(c.endswith(":accept") for c in challenge.custom_ids)  # the second player accepts, as today
    answer = [s.body.get("content") for s in reply if s.kind == "edit"]
    assert answer[:2] == ["Round 1 is published: announcing it…", f"Round 1 is published. Posted the round 1 pairings "
                          f"in <#{news.id}> (1 message). Opening tables: 0 of 3."]
    assert answer[-1].endswith(f"Opened the 3 table threads of round 1 in <#{news.id}>, each with its game ready.")


def test_the_server_only_groups_are_not_offered_in_direct_messages(harness) -> None:
    """An event, its judges, a ladder, a server's set-up and its stats are a server's: Discord does not offer
    their commands outside one (the tournament group's check once decorated an autocomplete instead)."""
    for group in ("tournament", "judge", "ladder", "setup", "stats"):
        assert harness.bot.tree.get_command(group).guild_only, group
