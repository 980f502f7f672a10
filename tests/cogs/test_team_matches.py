"""A team match as organisers and captains meet it: an event without an announcement channel opens every game a
pairing fixes, the match board follows the games to the match's result (the same numbers as the venue screen),
each captain keeps one private message naming in full what they locked in, and a table thread calls a judge before
its game is accepted."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from bot.engine.teams.match import WANTED, Step, options
from bot.present import event as event_view
from tests.cogs.harness import Harness
from tests.cogs.judge_room import call_button, has_call_button, open_room
from tests.cogs.test_team_events import Board, publish_round, run_match, team_event
from tests.cogs.test_tournament_commands import current
from tests.discord_model import FakeUser


async def paired_match(harness: Harness, organiser: FakeUser, size: int, **options: Any
                       ) -> tuple[Board, dict[str, FakeUser]]:
    """One team match of `size` a side, published and paired to its end: its board, and its players by id."""
    rosters = await team_event(harness, organiser, size, 2, **options)
    await publish_round(harness, organiser)
    record = await current(harness)
    people = {str(p.id): p for p in itertools.chain(*rosters)}
    [pair] = record.state.teams.rounds[0].matches
    captains = (people[record.state.teams.team(pair.teams[0]).captain],
                people[record.state.teams.team(pair.teams[1]).captain])
    board = Board(harness, 1, 1)
    await run_match(harness, board, captains)
    return board, people


async def test_without_an_announcement_channel_every_fixed_game_opens_beside_its_match(
    harness: Harness, organiser: FakeUser
) -> None:
    board, _ = await paired_match(harness, organiser, 5, announce=False)
    record = await current(harness)
    links = sorted(record.state.table_games, key=lambda g: g.table)
    assert [g.table for g in links] == [1, 2, 3, 4, 5]  # every game the pairing fixed has its thread
    match_thread = harness.model.channels[int((await board.message())["channel_id"])]
    published_in = harness.default_channel  # where the organiser paired and published
    assert match_thread.parent_id == published_in.id
    for link in links:
        thread = harness.model.channels[link.thread_id]
        assert thread.parent_id == published_in.id
        [challenge] = [m for m in harness.messages(thread) if "Your game is ready" in (m["content"] or "")]
        assert has_call_button(challenge)  # a dispute before the game starts: call a judge from here


# Five games a side: four level games (10-10 BP each) and one that decides the match.
WIN = [(50, 50)] * 4 + [(70, 52)]  # 18 VP apart: 13-7 BP, 53-47 in all, a lead of 6: a win
DRAW = [(50, 50)] * 4 + [(60, 47)]  # 13 VP apart: 12-8 BP, 52-48 in all, a lead of 4: a draw


@pytest.mark.parametrize(("scores", "totals", "verdict"), [
    (WIN, (53, 47), "🏆 **{0} wins the match**, 53–47 Battle Points"),
    (DRAW, (52, 48), "🤝 **A draw**, 52–48 Battle Points: neither team led by the 6"),
])
async def test_the_match_board_follows_its_games_to_the_result(
    harness: Harness, organiser: FakeUser, scores: list[tuple[int, int]], totals: tuple[int, int],
    verdict: str,
) -> None:
    board, _ = await paired_match(harness, organiser, 5)
    record = await current(harness)
    names = [record.state.teams.team(t).name for t in (await board.pair()).teams]
    first = await board.message()
    for table, (vp_a, vp_b) in enumerate(scores, start=1):
        await harness.slash("tournament result", user=organiser, table=table, **{"vp-a": vp_a, "vp-b": vp_b})
        await harness.bot.desk.idle()
        shown = await board.message()
        games = next(f["value"] for f in shown["embeds"][0]["fields"] if f["name"].startswith("Games"))
        line = next(g for g in games.split("\n") if g.startswith(f"Table {table}:"))
        assert f"**{vp_a}–{vp_b}**" in line, line
        points = next(f for f in shown["embeds"][0]["fields"] if f["name"].startswith("Battle Points"))
        assert f"({table} of 5 games in)" in points["name"]
        if table < 5:
            assert shown["id"] == first["id"]  # edited in place while results come in
    [level] = {g for g in games.split("\n") if g.startswith("Table 1:")}
    assert "(10–10 BP)" in level
    assert f"**{totals[0]}** – **{totals[1]}**" in points["value"] and "a win needs a lead of 6 of 100" in \
        points["value"]
    assert shown["embeds"][0]["description"].startswith(verdict.format(names[0]))
    in_thread = [m["id"] for m in harness.model.channel_messages(int(shown["channel_id"]))]
    assert in_thread[-1] == shown["id"] != first["id"] and first["id"] not in in_thread  # moved with the result
    # The venue screen says the same: its model of the match, from the same record.
    venue = event_view.model(await current(harness), {}, now_ms=0)["teams"][0]
    assert venue["bp"] == list(totals) and venue["outcome"] == ("win" if totals[0] > 52 else "draw")
    assert [g["vp"] for g in venue["games"]] == [list(s) for s in scores]


async def test_a_correction_redraws_the_board(harness: Harness, organiser: FakeUser) -> None:
    board, _ = await paired_match(harness, organiser, 3)
    for table in (1, 2, 3):
        await harness.slash("tournament result", user=organiser, table=table, **{"vp-a": 60, "vp-b": 40})
    await harness.slash("tournament result", user=organiser, table=3, round=1, **{"vp-a": 40, "vp-b": 60})
    await harness.bot.desk.idle()
    games = next(f["value"] for f in (await board.message())["embeds"][0]["fields"] if f["name"].startswith("Games"))
    assert "**40–60**" in games.split("\n")[2]


LOCKED = re.compile(r"^🔒 Locked in: .+ \((Main Engagement|Initial Skirmish)[^)]*\)\. ")


async def test_a_captain_keeps_one_private_message_naming_what_they_locked(
    harness: Harness, organiser: FakeUser
) -> None:
    rosters = await team_event(harness, organiser, 5, 2)
    await publish_round(harness, organiser)
    record = await current(harness)
    people = {str(p.id): p for p in itertools.chain(*rosters)}
    [pair] = record.state.teams.rounds[0].matches
    captains = tuple(people[record.state.teams.team(t).captain] for t in pair.teams)
    board = Board(harness, 1, 1)
    lines: list[str] = []
    while not (match := (await board.pair()).match).done:
        side = match.waiting_on()[0]
        picks = list(options(match, side)[-WANTED[match.step]:])
        reply = await board.choose(captains[side], picks)
        line = next(s.content for s in reply if s.message is not None and s.content.startswith("🔒"))
        if side == 0:
            lines.append(line)
            assert LOCKED.match(line), line
            names = [record.state.names.get(p, p) for p in picks]
            if match.step == Step.LAYOUT:
                game = next(g for g in match.games if g.module == match.module and g.defender == g.players[0])
                assert line.startswith(f"🔒 Locked in: Layout {picks[0]} for **{record.state.names[game.players[0]]}**'s "
                                       f"game against **{record.state.names[game.players[1]]}**"), line
            else:
                assert all(f"**{n}**" in line for n in names), line
    assert len(lines) == 7  # Skirmish: Defender, Attackers, choice, layout; Main: Defender, choice, layout
    for captain in captains:
        private = [m for i, m in harness.model.messages.items()
                   if harness.model.ephemeral_owner.get(i) == captain.id]
        assert len(private) == 1, [m["content"] for m in private]  # one private message, the newest
        assert private[0]["content"].startswith("🔒 Locked in:")


async def test_a_table_calls_a_judge_before_its_game_is_accepted(
    harness: Harness, organiser: FakeUser
) -> None:
    _, people = await paired_match(harness, organiser, 3)
    record = await current(harness)
    room = await open_room(harness, organiser, [])
    link = record.state.table_games[0]
    thread = harness.model.channels[link.thread_id]
    [challenge] = [m for m in harness.messages(thread) if "Your game is ready" in (m["content"] or "")]
    game = await harness.bot.service.get_state(game_id=link.game_id)
    player = people[game.setup.players[0]]
    await harness.press(call_button(challenge), user=player, message_id=int(challenge["id"]))
    [call] = await room.calls()
    assert (call.table_number, call.caller) == (link.table, str(player.id))
    assert room.call_message(link.table)
