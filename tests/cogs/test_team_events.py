"""Team events through Discord (cogs/team.py, bot/ui/teams): teams registered by their captains, a round paired and
published, each match's captains choosing in secret on its board, the games fixed and opened in their table
threads with both armies' dispositions, the layout and the Defender, and the teams scored from the games."""

from __future__ import annotations

import csv
import io
import itertools
from typing import Any

import pytest

from bot.engine.chapter_approved.state import Status
from bot.ui.teams import board as board_module
from bot.engine.teams.match import WANTED, Step, options
from bot.store.tournament_repository import TournamentRecord
from tests.cogs.game_table import Table, verbs
from tests.cogs.harness import Harness, Reply
from tests.cogs.test_tournament_commands import current, refused
from tests.discord_model import FakeUser, walk_components

DISPOSITIONS = ("purge-the-foe", "take-and-hold", "reconnaissance", "priority-assets", "disruption")


async def team_event(harness: Harness, organiser: FakeUser, size: int, teams: int, *, announce: bool = True,
                     **options: Any) -> list[list[FakeUser]]:
    """A team event of `teams` teams of `size`, each player registered with a Force Disposition of their own;
    its pairings posted in #pairings, or (`announce` False) where the organiser publishes them."""
    if announce:
        options["announce-channel"] = harness.channel("pairings")
    reply = await harness.slash("tournament create", user=organiser, name="Team GT", rounds=3, pack="ca-2026-27",
                                **{"team-size": size}, **options)
    assert "teams of" in reply.content, reply.content
    rosters = []
    for t in range(teams):
        people = [harness.user(f"t{t}p{i}") for i in range(size)]
        extra = {f"player{i + 2}": p for i, p in enumerate(people[1:])}
        reply = await harness.slash("team register", user=people[0], name=f"Team {t}", **extra)
        assert f"{size} of {size} players" in reply.content, reply.content
        for i, p in enumerate(people):
            reply = await harness.slash("tournament register", user=p, disposition=DISPOSITIONS[i % 5])
            assert not reply.ephemeral, reply.content
        rosters.append(people)
    return rosters


async def publish_round(harness: Harness, organiser: FakeUser) -> Reply:
    draft = await harness.slash("tournament pair", user=organiser)
    assert draft.ephemeral and "team matches" in draft.content, draft.content
    [button] = [c for c in draft[-1].custom_ids if c.endswith(":publish")]
    return await harness.press(button, user=organiser)


class Board:
    """One team match's pairing board, as its captains press it."""

    def __init__(self, harness: Harness, round_number: int, match: int) -> None:
        self.h, self.round_number, self.match = harness, round_number, match

    async def record(self) -> TournamentRecord:
        return await current(self.h)

    async def pair(self):
        ev = (await self.record()).state.teams
        return ev.rounds[self.round_number - 1].matches[self.match - 1]

    async def message(self) -> dict[str, Any]:
        board = next(b for b in (await self.record()).state.match_boards
                     if (b.round_number, b.match) == (self.round_number, self.match))
        return self.h.message(board.message_id)

    async def choose(self, captain: FakeUser, values: list[str], *, strict: bool = True) -> Reply:
        message = await self.message()
        [choose] = [c for c in verbs_of(message) if c.startswith("mdtc:")]
        menu = await self.h.press(choose, user=captain, message_id=int(message["id"]), strict=strict)
        if not menu.custom_ids:
            return menu  # refused
        [select] = [c for c in menu.custom_ids if c.startswith("mdtp:")]
        return await self.h.select(select, values, user=captain, message_id=int(menu.main.message["id"]),
                                   strict=strict)


def verbs_of(message: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for row in message.get("components", []) for c in row.get("components", [])]


def public_text(harness: Harness) -> str:
    """Everything the bot posted that anyone may read (embeds included), for leaks of a sealed pick."""
    return str([m for m in harness.model.messages.values() if not (m.get("flags", 0) & 64)])


async def run_match(harness: Harness, board: Board, captains: tuple[FakeUser, FakeUser]) -> int:
    """Both captains choose at every step (the first offered each time), checking that nothing chosen is shown
    before both are in: how many choices each captain made."""
    made = 0
    while not (pair := await board.pair()).match.done:
        match = pair.match
        side = match.waiting_on()[0]
        picks = list(options(match, side)[-WANTED[match.step]:])
        before = (await board.message())["embeds"][0].get("fields")
        reply = await board.choose(captains[side], picks)
        assert reply.ephemeral or not reply.content, reply.content
        after = (await board.pair()).match
        if after.steps == match.steps and after.sealed[side] is not None:
            # Sealed: the board shows only that this side is locked in, nothing of what it chose.
            assert (await board.message())["embeds"][0].get("fields") == before
        if side == 0 and match.step != Step.LAYOUT:
            made += 1
    return made


async def to_battle(table: Table) -> None:
    """A team game from its start to the battle: the roll-off's roles where no Defender is fixed, both players'
    Tactical Missions, deployment."""
    state = await table.state()
    assert state.status in (Status.SIDES, Status.SECONDARIES)  # a Defender's game skips the roll-off
    if state.status == Status.SIDES:
        await table.press("attacker", table.user(state.sides_rolloff.winner))
    for user in (table.first, table.second):
        await table.choose(user, None)
    await table.deploy()


@pytest.mark.parametrize(("size", "modules", "choices"), [(5, 2, 5), (8, 4, 9)])
async def test_a_match_is_paired_in_secret_and_its_games_start_in_their_threads(
    harness: Harness, organiser: FakeUser, size: int, modules: int, choices: int
) -> None:
    """5 players: two rounds of choices (Initial Skirmish, Main Engagement), 5 games; 8: three rounds of choices
    (two Skirmishes and the Main Engagement) and the Champions, 8 games, 9 choices a captain."""
    rosters = await team_event(harness, organiser, size, 2)
    published = await publish_round(harness, organiser)
    assert any("Opened the 1 match thread of round 1" in s.content and s.ephemeral for s in published if s.message)
    record = await current(harness)
    [pair] = record.state.teams.rounds[0].matches
    by_team = {record.state.teams.team(t).captain: r[0] for t, r in zip(("1", "2"), rosters)}
    captains = (by_team[record.state.teams.team(pair.teams[0]).captain],
                by_team[record.state.teams.team(pair.teams[1]).captain])
    board = Board(harness, 1, 1)

    # Bad input first: each a private line, nothing changed.
    stranger = rosters[0][1]
    refused(await board.choose(stranger, [], strict=False), "captains")
    assert (await board.pair()).match.sealed == (None, None)
    # Discord's menu offers only the captain's own pool (a player of the other team is refused by the rules too).
    message = await board.message()
    [choose] = [c for c in verbs_of(message) if c.startswith("mdtc:")]
    menu = await harness.press(choose, user=captains[0], message_id=int(message["id"]))
    [select] = menu.custom_ids
    own = {str(p.id) for p in rosters[0 if captains[0] == rosters[0][0] else 1]}
    offered = {o["value"] for row in menu.main.message["components"] for c in row["components"]
               for o in c.get("options", [])}
    assert offered == own and all("Purge" in o["label"] or "·" in o["label"] for row in
                                  menu.main.message["components"] for c in row["components"] for o in c["options"])
    await harness.select(select, [sorted(own)[0]], user=captains[0], message_id=int(menu.main.message["id"]))
    refused(await board.choose(captains[0], [], strict=False), "locked in")  # a choice after the lock
    sealed = (await board.pair()).match.sealed
    assert sealed[0] == (sorted(own)[0],) and sealed[1] is None
    assert record.state.names[sorted(own)[0]] not in public_text(harness)  # sealed: shown nowhere yet

    made = await run_match(harness, board, captains)
    pair = await board.pair()
    assert made + 1 == choices and len(pair.match.games) == size and len(pair.match.modules) == modules
    record = await current(harness)
    links = sorted(record.state.table_games, key=lambda g: g.table)
    assert [g.table for g in links] == list(range(1, size + 1))
    for link, game in zip(links, pair.match.games):
        played = await harness.bot.service.get_state(game_id=link.game_id)
        setup = played.setup
        assert setup.players == game.players and setup.layout == game.layout and setup.defender == game.defender
        assert setup.dispositions == tuple(record.state.dispositions[p] for p in game.players)


async def test_a_four_team_event_of_five_runs_three_rounds_with_results_from_the_games(
    harness: Harness, organiser: FakeUser
) -> None:
    rosters = await team_event(harness, organiser, 5, 4)
    people = {str(p.id): p for p in itertools.chain(*rosters)}
    for round_number in (1, 2, 3):
        await publish_round(harness, organiser)
        record = await current(harness)
        for pair in record.state.teams.rounds[-1].matches:
            captains = tuple(people[record.state.teams.team(t).captain] for t in pair.teams)
            await run_match(harness, Board(harness, round_number, pair.number), captains)
        record = await current(harness)
        for link in [g for g in record.state.table_games if g.round_number == round_number]:
            game = await harness.bot.service.get_state(game_id=link.game_id)
            first, second = (people[p] for p in game.setup.players)
            table = Table(harness, first, second, channel=harness.model.channels[link.thread_id])
            table.game_id = link.game_id
            [challenge] = [m for m in harness.messages(table.channel) if "accept" in verbs(m)]
            await harness.press(verbs(challenge)["accept"], user=second, message_id=int(challenge["id"]))
            await table.settle()
            board = (await table.board())
            assert any(c.startswith("mdjc:") for c in verbs_of(board))  # a team table calls a judge as any table
            await to_battle(table)
            await table.slash("game concede", user=first if link.table % 2 else second)
        record = await current(harness)
        assert not [t for t in record.state.event.rounds[-1].pairings.tables
                    if t.table not in {r.table for r in record.state.event.rounds[-1].results}]
    standings = await harness.slash("team standings", user=organiser)
    assert "TP" in str(standings.embeds)
    record = await current(harness)
    reply = await harness.slash("tournament export", user=organiser)
    files = {x["filename"]: harness.model.files[int(x["id"])].decode() for x in reply.main.message["attachments"]}
    ranked = list(csv.DictReader(io.StringIO(files[f"tournament-{record.id}-teams.csv"])))
    games = list(csv.DictReader(io.StringIO(files[f"tournament-{record.id}-team-games.csv"])))
    assert len(ranked) == 4 and sum(int(r["team_points"]) for r in ranked) >= 4 * 3  # every match scored
    assert len(games) == 3 * 2 * 5 and all(int(g["bp"]) + int(g["opponent_bp"]) == 20 for g in games)
    assert len(list(csv.DictReader(io.StringIO(files[f"tournament-{record.id}-standings.csv"])))) == 20
    met = [frozenset(p.teams) for r in record.state.teams.rounds for p in r.matches]
    assert len(met) == len(set(met)) == 6  # four teams, three rounds: everyone met everyone once
    assert (await harness.bot.service.get_state(game_id=record.state.table_games[0].game_id)).state.status \
        in (Status.ENDED, "ended")


async def test_a_team_short_of_a_player_is_not_paired(harness: Harness, organiser: FakeUser) -> None:
    rosters = await team_event(harness, organiser, 3, 2)
    await harness.slash("team remove", user=rosters[0][0], player=rosters[0][2])
    draft = await harness.slash("tournament pair", user=organiser, strict=False)
    refused(draft, "Team 0 has 2 of its 3 players")
    assert (await current(harness)).state.event.rounds == ()


async def test_at_the_deadline_the_organisers_are_called_and_may_choose_for_the_late_side(
    harness: Harness, organiser: FakeUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    rosters = await team_event(harness, organiser, 3, 2, **{"pairing-minutes": 5})
    await publish_round(harness, organiser)
    board = Board(harness, 1, 1)
    record = await board.record()
    pair = await board.pair()
    captains = [next(r[0] for r in rosters if str(r[0].id) == record.state.teams.team(t).captain) for t in pair.teams]
    await board.choose(captains[0], [str(captains[0].id)])
    message = await board.message()
    late = [c for c in verbs_of(message) if c.startswith("mdtl:")]
    assert late == []  # no call before the deadline
    deadline = next(b for b in record.state.match_boards).deadline
    alarms, key = harness.bot.desk.alarms, ("team-step", record.id, 1, 1)
    assert alarms.moment(key) == deadline  # the organisers are called at the deadline, not before
    alarms.drop(key)
    await harness.bot.get_cog("team").on_ready()  # a restart arms it again from the stored board
    assert alarms.moment(key) == deadline
    step = (await board.pair()).match.steps
    await board_module.deadline_passed(harness.bot, record.id, 1, 1, step)  # what the alarm does at the deadline
    await board_module.deadline_passed(harness.bot, record.id, 1, 1, step)  # a second alarm (a restart) does nothing
    await harness.bot.desk.idle()
    called = [m for m in harness.model.channel_messages(int(message["channel_id"]))
              if "deadline of this step has passed" in (m["content"] or "")]
    assert len(called) == 1  # called once, in the board, which stays the newest message of the thread
    assert called[0]["id"] == (await board.message())["id"]
    message = await board.message()
    [late] = [c for c in verbs_of(message) if c.startswith("mdtl:")]
    refused(await harness.press(late, user=captains[0], message_id=int(message["id"]), strict=False),
            "Only an organiser")
    monkeypatch.setattr(board_module.time, "time", lambda: deadline + 1)  # the deadline has passed
    await harness.press(late, user=organiser, message_id=int(message["id"]))
    match = (await board.pair()).match
    [defenders] = [r for r in match.reveals if r.step == Step.DEFENDER]
    assert defenders.picks[0] == (str(captains[0].id),) and len(defenders.picks[1]) == 1  # the bot chose for B
    notes = [m["content"] or "" for m in harness.model.channel_messages(int(message["channel_id"]))]
    assert any("past the deadline" in n for n in notes)
    assert not any("deadline of this step has passed" in n for n in notes)  # the call went with its board


async def test_a_disposition_used_too_often_in_a_team_is_refused_before_it_is_stored(
    harness: Harness, organiser: FakeUser
) -> None:
    await harness.slash("tournament create", user=organiser, name="Team GT", rounds=3, pack="ca-2026-27",
                        **{"team-size": 5})
    people = [harness.user(f"p{i}") for i in range(5)]
    await harness.slash("team register", user=people[0], name="Iron Lords",
                        **{f"player{i + 2}": p for i, p in enumerate(people[1:])})
    await harness.slash("tournament register", user=people[0], disposition="purge-the-foe")
    again = await harness.slash("tournament register", user=people[1], disposition="purge-the-foe", strict=False)
    refused(again, "Iron Lords uses Purge the Foe 2 times: a team of 5 may use each Force Disposition 1 time")
    assert str(people[1].id) not in (await current(harness)).state.dispositions
    outsider = harness.user("outsider")
    refused(await harness.slash("tournament register", user=outsider, disposition="disruption", strict=False),
            "your captain registers you")


async def test_at_an_open_list_event_a_captain_reads_the_other_team_s_lists_while_choosing(
    harness: Harness, organiser: FakeUser
) -> None:
    from tests.cogs.test_event_lists import ARMIES, app_list
    from tests.discord_model import FakeFile
    await harness.slash("tournament create", user=organiser, name="Team GT", rounds=1, pack="ca-2026-27",
                        lists="open", **{"team-size": 3, "announce-channel": harness.channel("pairings")})
    teams_of = [[harness.user(f"a{i}") for i in range(3)], [harness.user(f"b{i}") for i in range(3)]]
    for t, people in enumerate(teams_of):
        await harness.slash("team register", user=people[0], name=f"Team {t}", player2=people[1], player3=people[2])
        for player, army in zip(people, (ARMIES[0], ARMIES[1 + t], ARMIES[3])):  # three dispositions a team
            reply = await harness.slash("tournament list submit", user=player,
                                        file=FakeFile("list.txt", app_list(*army).encode()))
            assert "is in" in reply.content, reply.content
    await publish_round(harness, organiser)
    board = Board(harness, 1, 1)
    pair = await board.pair()
    record = await current(harness)
    captain = next(p[0] for p in teams_of if str(p[0].id) == record.state.teams.team(pair.teams[0]).captain)
    others = next(p for p in teams_of if p[0] is not captain)
    message = await board.message()
    [choose] = [c for c in verbs_of(message) if c.startswith("mdtc:")]
    menu = await harness.press(choose, user=captain, message_id=int(message["id"]))
    buttons = [c for c in walk_components(menu.main.message["components"]) if c.get("custom_id", "").startswith("mdl:")]
    assert sorted(b["label"] for b in buttons) == sorted(f"{record.state.names[str(p.id)]}'s list" for p in others)
    shown = await harness.press(buttons[0]["custom_id"], user=captain, message_id=int(menu.main.message["id"]))
    assert shown.main.ephemeral and "```" in shown.main.content


async def test_a_round_whose_captains_are_still_pairing_is_not_over(harness: Harness, organiser: FakeUser) -> None:
    await team_event(harness, organiser, 3, 2)
    await publish_round(harness, organiser)
    status = await harness.slash("tournament status", user=organiser)
    assert "Match 1**: ⏳ the captains are pairing (0 of 3 games fixed)" in str(status.embeds) + status.content
    refused(await harness.slash("tournament finish", user=organiser, strict=False), "still pairing match 1")
    refused(await harness.slash("tournament pair", user=organiser, strict=False), "still pairing match 1")
