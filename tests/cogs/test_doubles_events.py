"""Doubles events through Discord: a pair registers as one entrant, is paired as one, plays its table's game in its
thread with all four players pressing, reports and confirms by either player, checks in, drops and comes back by
either player, and shows as a pair in the standings, the announcement, the venue screen, the desk and the exports.
Every bad registration is refused privately, changing nothing."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest

from bot.engine.chapter_approved.state import Status
from bot.engine.tournament.event import standings
from bot.present import event as venue
from bot.present.desk import desk_model
from bot.present.entrants import name_of
from bot.services.judges import Venue
from bot.store.tournament_repository import TournamentRecord
from tests.cogs.game_table import verbs
from tests.cogs.harness import Harness, Reply
from tests.cogs.test_doubles import DoublesTable
from tests.cogs.test_tournament_commands import current, publish, refused
from tests.discord_model import FakeUser

MENTION = re.compile(r"<@(\d+)>")
PAIRS = (("ann", "cy"), ("bob", "di"), ("eve", "fay"), ("gus", "hal"))


@pytest.fixture
def people(harness: Harness) -> dict[str, FakeUser]:
    return {name: harness.user(name) for pair in PAIRS for name in pair}


async def doubles_event(harness: Harness, organiser: FakeUser, people: dict[str, FakeUser],
                        **options: Any) -> Reply:
    """A doubles event of the four pairs: three register themselves, the organiser registers the last."""
    await harness.slash("tournament create", user=organiser, name="Doubles GT", rounds=3, doubles=True, **options)
    for first, second in PAIRS[:3]:
        await harness.slash("tournament register", user=people[first], partner=people[second])
    first, second = PAIRS[3]
    return await harness.slash("tournament register", user=organiser, player=people[first], partner=people[second])


def members(record: TournamentRecord, entrant: str) -> list[str]:
    return list(record.state.members(entrant))


def mentioned_ids(text: str) -> set[str]:
    return set(MENTION.findall(text))


async def thread_tables(harness: Harness, by_id: dict[str, FakeUser]) -> list[DoublesTable]:
    """The current round's table threads as doubles tables, each game accepted by the second pair's partner."""
    record = await current(harness)
    tables = []
    for link in sorted(record.state.table_games, key=lambda g: g.table):
        if link.round_number != len(record.state.event.rounds):
            continue
        setup = (await harness.bot.service.get_state(game_id=link.game_id)).setup
        a, b = setup.players
        thread = harness.model.channels[link.thread_id]
        table = DoublesTable(harness, by_id[a], by_id[b], by_id[setup.partners[0]], by_id[setup.partners[1]],
                             channel=thread)
        table.game_id = link.game_id
        [challenge] = [m for m in harness.messages(thread) if "accept" in verbs(m)]
        await harness.press(verbs(challenge)["accept"], user=by_id[setup.partners[1]], message_id=int(challenge["id"]))
        await table.settle()
        tables.append(table)
    return tables


async def results_of(harness: Harness, round_number: int) -> dict[int, Any]:
    return {r.table: r for r in (await current(harness)).state.event.rounds[round_number - 1].results if r.table}


async def test_register_a_pair_and_refuse_every_bad_entry_privately(harness: Harness, organiser: FakeUser,
                                                                    people: dict[str, FakeUser]) -> None:
    ann, cy, bob, di = (people[n] for n in ("ann", "cy", "bob", "di"))
    created = await harness.slash("tournament create", user=organiser, name="Doubles GT", rounds=3, doubles=True)
    assert "doubles: pairs of players, two a side" in created.content
    assert "Join with `/tournament register partner:`" in created.content
    reply = await harness.slash("tournament register", user=ann, partner=cy)
    assert not reply.ephemeral
    assert f"{ann.mention} and {cy.mention} are registered as a pair for **Doubles GT** (1 pair)." in reply.content
    record = await current(harness)
    assert record.state.event.players == (str(ann.id),) and record.state.partners == {str(ann.id): str(cy.id)}
    assert name_of(record, str(ann.id)) == "Ann & Cy" and name_of(record, str(cy.id)) == "Cy"

    robot = harness.user("robot", bot=True)
    for user, options, says in [
        (bob, {"partner": cy}, "Cy is already registered, in the pair Ann & Cy"),  # a partner already in
        (bob, {"partner": ann}, "Ann is already registered, in the pair Ann & Cy"),  # an entrant already in
        (cy, {"partner": bob}, "Cy is already registered, in the pair Ann & Cy"),  # a partner registering again
        (ann, {"partner": bob}, "Ann is already registered"),
        (bob, {"partner": bob}, "A pair is two players"),
        (bob, {}, "This is a doubles event: register with your partner"),
        (bob, {"partner": robot}, "Bots cannot play"),
        (bob, {"player": di, "partner": people["eve"]}, "Only an organiser"),
    ]:
        refused(await harness.slash("tournament register", user=user, **options), says)
    assert (await current(harness)).version == record.version  # nothing changed

    # An organiser registers a pair for others; either player of it drops it, and it comes back.
    await harness.slash("tournament register", user=organiser, player=bob, partner=di)
    dropped = await harness.slash("tournament drop", user=di)
    assert f"{bob.mention} & {di.mention} have dropped" in dropped.content
    assert (await current(harness)).state.event.dropped == (str(bob.id),)
    refused(await harness.slash("tournament drop", user=bob), "has already dropped")
    back = await harness.slash("tournament reinstate", user=organiser, player=di)
    assert f"{bob.mention} & {di.mention} are back in **Doubles GT**" in back.content
    assert (await current(harness)).state.event.dropped == ()

    await harness.slash("tournament finish", user=organiser)
    await harness.slash("tournament create", user=organiser, name="Singles GT", rounds=3)
    refused(await harness.slash("tournament register", user=ann, partner=cy), "This is a singles event")
    assert (await current(harness)).state.event.players == ()


async def test_either_player_checks_the_pair_in(harness: Harness, organiser: FakeUser,
                                                people: dict[str, FakeUser]) -> None:
    await doubles_event(harness, organiser, people)
    opened = await harness.slash("tournament checkin", user=organiser, action="open")
    [button] = opened.custom_ids
    done = await harness.press(button, user=people["cy"])  # the partner checks the pair in
    assert done.ephemeral and "Your pair is checked in for **Doubles GT**" in done.content
    refused(await harness.press(button, user=people["ann"]), "already checked in")
    for name in ("bob", "fay"):
        await harness.press(button, user=people[name])
    close = await harness.slash("tournament checkin", user=organiser, action="close")
    assert close.content.startswith("1 pair has not checked in: Gus & Hal.")
    closed = await harness.press(close.custom_ids[0], user=organiser)
    assert "3 pairs will be paired." in closed.content
    record = await current(harness)
    assert record.state.checked_in == (str(people["ann"].id), str(people["bob"].id), str(people["eve"].id))
    assert record.state.event.dropped == (str(people["gus"].id),)


async def test_a_doubles_event_runs_three_rounds_from_the_threads_and_the_partners_reports(
    harness: Harness, organiser: FakeUser, people: dict[str, FakeUser]
) -> None:
    by_id = {str(u.id): u for u in people.values()}
    news = harness.channel("pairings")
    registered = await doubles_event(harness, organiser, people, **{"announce-channel": news})
    assert "(4 pairs)" in registered.content

    # Round 1: each table's thread is named for both pairs and brings all four players in.
    published = await publish(harness, organiser, mission="C")
    record = await current(harness)
    tables = record.state.event.rounds[0].pairings.tables
    [announcement] = [s for s in published if s.kind == "message" and int(s.message["channel_id"]) == news.id]
    lines = announcement.body["content"].splitlines()
    for p in tables:
        a, b = members(record, p.a), members(record, p.b)
        assert f"**Table {p.table}**: <@{a[0]}> & <@{a[1]}> vs <@{b[0]}> & <@{b[1]}>" in lines
        thread = next(c for c in harness.model.channels.values()
                      if c.is_thread and c.name == f"R1 · T{p.table} · {name_of(record, p.a)} vs "
                                                   f"{name_of(record, p.b)}")
        assert " & " in thread.name and harness.model.thread_members[thread.id] == {int(x) for x in a + b}
        [challenge] = [s for s in published if s.kind == "message" and int(s.message["channel_id"]) == thread.id]
        assert sorted(map(str, challenge.body["allowed_mentions"]["users"])) == sorted(a + b)
        assert mentioned_ids(challenge.body["content"]) == set(a + b)
        assert f"{record.state.names[b[0]]} or {record.state.names[b[1]]} accepts it" in challenge.body["content"]
        setup = (await harness.bot.service.get_state(channel_id=thread.id)).setup
        assert setup.players == (p.a, p.b) and setup.partners == (a[1], b[1])
        assert setup.names == (name_of(record, p.a), name_of(record, p.b))
    assert mentioned_ids(announcement.body["content"]) == {str(u.id) for u in people.values()}

    first, second = await thread_tables(harness, by_id)
    # Table 1 is played to its end, each side's two players taking turns at its presses.
    await first.to_battle(first_fixed=None)
    while (await first.state()).status == Status.BATTLE:
        await first.end_turn_plain()
    assert set(first.pressed) == {u.name for u in (first.first, first.second, *first.partner.values())}
    vp = (await first.state()).result.vp
    result = (await results_of(harness, 1))[1]
    assert (result.vp_a, result.vp_b, result.reason) == (vp[tables[0].a], vp[tables[0].b], "score")
    note = next(m for m in harness.messages(first.channel) if "counts as confirmed" in (m.get("content") or ""))
    assert mentioned_ids(note["content"]) == set(members(record, tables[0].a) + members(record, tables[0].b))
    # Table 2: a partner of the first pair concedes in the thread.
    await second.to_battle()
    await second.slash("game concede", user=second.partner[second.first.id])
    result = (await results_of(harness, 1))[2]
    assert (result.outcome, result.reason) == ("b_wins", "concession")

    # Round 2: reports by partners, confirmed by the other pair's partner.
    await publish(harness, organiser)
    record = await current(harness)
    for p in record.state.event.rounds[1].pairings.tables:
        a_first, a_partner = (by_id[x] for x in members(record, p.a))
        b_first, b_partner = (by_id[x] for x in members(record, p.b))
        report = await harness.slash("tournament report", user=a_partner, **{"my-vp": 70, "opponent-vp": 40})
        assert report.content.startswith(f"{b_first.mention} & {b_partner.mention}, {a_first.mention} & "
                                         f"{a_partner.mention} report **Doubles GT** round 2, table {p.table}:")
        assert f"{a_first.mention} & {a_partner.mention} win" in report.content
        assert sorted(report.response.body["data"]["allowed_mentions"]["users"]) == sorted([b_first.id, b_partner.id])
        refused(await harness.press(report.custom_ids[0], user=a_first), "Your opponent confirms your report")
        stranger = next(u for u in people.values() if str(u.id) not in members(record, p.a) + members(record, p.b))
        refused(await harness.press(report.custom_ids[0], user=stranger),
                f"Only {b_first.mention} or {b_partner.mention} (or an organiser)")
        await harness.press(report.custom_ids[0], user=b_partner)
        result = (await results_of(harness, 2))[p.table]
        assert (result.a, result.vp_a, result.vp_b, result.outcome) == (p.a, 70, 40, "a_wins")
    own = await harness.slash("tournament standings", user=people["hal"])  # a partner's own place is the pair's
    gus = next(s for s in standings((await current(harness)).state.event) if s.player == str(people["gus"].id))
    assert own.ephemeral and own.content.startswith(f"You are **{gus.rank}** of 4:")

    # Round 3: a partner calls a judge from the thread; the tables' games end there.
    await publish(harness, organiser)
    record = await current(harness)
    first, second = await thread_tables(harness, by_id)
    caller = first.partner[first.second.id]
    await first.slash("judge call", user=caller, note="terrain")
    [call] = await harness.bot.judges.service.calls(record.id)
    pairing = record.state.event.rounds[2].pairings.tables[0]
    a, b = members(record, pairing.a), members(record, pairing.b)
    assert call.player_ids == (a[0], b[0], a[1], b[1]) and call.caller == str(caller.id)
    [posted] = [m for m in harness.messages(news) if "calls a judge" in (m.get("content") or "")]
    assert f"**Players:** <@{a[0]}> & <@{a[1]}> vs <@{b[0]}> & <@{b[1]}>;" in posted["content"]
    for table in (first, second):
        await table.to_battle()
        await table.slash("game concede", user=table.partner[table.second.id])
    assert [r.outcome for r in (await results_of(harness, 3)).values()] == ["a_wins", "a_wins"]
    await harness.slash("tournament finish", user=organiser)
    record = await harness.bot.tournaments.latest(harness.guild.id)

    # The standings, the venue screen, the desk and the exports show pairs.
    shown = await harness.slash("tournament standings", user=organiser)
    names = [re.search(r"`\s*\d+` (.+?) ·", line)[1] for line in shown.embed["description"].splitlines()]
    assert sorted(names) == sorted(f"{a.title()} & {b.title()}" for a, b in PAIRS)
    screen = venue.model(record, {}, now_ms=0)
    assert sorted(s["name"] for s in screen["standings"]) == sorted(names)
    desk = desk_model(record, {}, Venue([], []), [], now_ms=0)
    assert sorted(p["name"] for p in desk["players"]) == sorted(names)
    assert all(" & " in n for t in desk["round"]["tables"] for n in (t["players"][0]["name"], t["players"][1]["name"]))
    export = await harness.slash("tournament export", user=organiser)
    files = {a["filename"]: harness.model.files[int(a["id"])].decode() for a in export.main.message["attachments"]}
    rows = list(csv.DictReader(io.StringIO(files[f"tournament-{record.id}-standings.csv"])))
    assert list(rows[0])[-6:] == ["partner_id", "partner", "partner_faction", "partner_detachment",
                                  "partner_list_points", "partner_list_flags"]
    for row in rows:
        assert row["partner_id"] == record.state.partners[row["player_id"]]
        assert row["name"] == f"{record.state.names[row['player_id']]} & {row['partner']}"
    results = list(csv.DictReader(io.StringIO(files[f"tournament-{record.id}-results.csv"])))
    assert len(results) == 6 and list(results[0])[-4:] == ["partner_a_id", "partner_a", "partner_b_id", "partner_b"]
    assert all(r["partner_a_id"] == record.state.partners[r["player_a_id"]] for r in results)
    calls = list(csv.DictReader(io.StringIO(files[f"tournament-{record.id}-calls.csv"])))
    assert [(c["player_a"], c["player_b"]) for c in calls] == [(name_of(record, a[0]), name_of(record, b[0]))]


async def test_the_announcement_keeps_each_tables_four_together_within_100_mentions(
    harness: Harness, organiser: FakeUser
) -> None:
    """60 pairs: 30 tables of four players, at most 25 tables to a message."""
    await harness.slash("tournament create", user=organiser, name="Big Doubles", rounds=3, doubles=True)
    record = await current(harness)  # registering 60 pairs one command at a time would be slow
    ids = [str(10**17 + i) for i in range(120)]
    entrants, partners = ids[0::2], dict(zip(ids[0::2], ids[1::2]))
    state = record.state.model_copy(update={
        "event": record.state.event.model_copy(update={"players": tuple(entrants)}), "partners": partners,
        "names": {p: f"p{p[-3:]}" for p in ids}})
    record = await harness.bot.tournaments.repo.save_if_version(record, state)
    record = await harness.bot.tournaments.pair(harness.guild.id, None)
    record = await harness.bot.tournaments.publish(record.id, 1, 0, channel_id=None)
    reply = await harness.slash("tournament announce", user=organiser)
    messages = [s.body for s in reply if s.kind == "message"]
    assert len(messages) == 2
    tables = {p.table: p for p in record.state.event.rounds[0].pairings.tables}
    seen: list[str] = []
    for body in messages:
        users = set(map(str, body["allowed_mentions"]["users"]))
        assert len(users) <= 100 and users == mentioned_ids(body["content"])
        for line in body["content"].splitlines()[body["content"].startswith("📣"):]:
            table = tables[int(re.match(r"\*\*Table (\d+)\*\*", line)[1])]
            four = set(members(record, table.a) + members(record, table.b))
            assert mentioned_ids(line) == four and four <= users
            seen += four
    assert sorted(seen) == sorted(ids)
