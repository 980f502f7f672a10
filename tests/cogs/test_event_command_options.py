"""Every option of /tournament create, /team and /judge, left empty and given each of its values (each choice; a
number's least and greatest), through Discord: what it set, or its clear private refusal. `tries` records what
each test tries, and the last test holds that record against the options the bot synced, so an option added later
without a test fails here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.engine.chapter_approved.state import CA_PACK
from bot.engine.teams.scoring import MatchOutcome
from bot.store.tournament_repository import TournamentRecord
from tests.cogs.harness import Harness
from tests.cogs.judge_room import notified, private
from tests.cogs.test_tournament_commands import current, refused
from tests.discord_model import FakeUser

EMPTY, GIVEN = "empty", "a value"  # an optional option left out; a value of a type with no choices
TRIED: dict[tuple[str, str], set[str]] = {}


def tries(command: str, option: str, *values: str) -> Callable[[Any], Any]:
    """Record that the test tries `option` of `/command` with each of `values`."""
    TRIED.setdefault((command, option), set()).update(values)
    return lambda test: test


# ---- /tournament create ---------------------------------------------------------------------------

Options = Callable[[Harness], dict[str, Any]]
Check = Callable[[TournamentRecord, Harness], bool]
T26 = {"pack": "ca-2026-27"}
TEAM = {**T26, "team-size": 3}


def rules(record: TournamentRecord) -> Any:
    return record.state.teams.rules


CREATE: list[tuple[str, str, Options, Check]] = [
    ("rounds", "1", lambda h: {"rounds": 1}, lambda r, h: r.rounds_planned == 1),
    ("rounds", "20", lambda h: {"rounds": 20}, lambda r, h: r.rounds_planned == 20),
    ("announce-channel", EMPTY, lambda h: {}, lambda r, h: r.announce_channel_id is None),
    ("announce-channel", GIVEN, lambda h: {"announce-channel": h.channel("pairings")},
     lambda r, h: r.announce_channel_id == next(c.id for c in h.model.channels.values() if c.name == "pairings")),
    ("organiser-role", EMPTY, lambda h: {}, lambda r, h: r.organiser_role_id is None),
    ("organiser-role", GIVEN, lambda h: {"organiser-role": h.role("TO")},
     lambda r, h: r.organiser_role_id is not None),
    ("bye-vp", EMPTY, lambda h: {}, lambda r, h: r.state.event.bye_vp == 0),
    ("bye-vp", "0", lambda h: {"bye-vp": 0}, lambda r, h: r.state.event.bye_vp == 0),
    ("bye-vp", "100", lambda h: {"bye-vp": 100}, lambda r, h: r.state.event.bye_vp == 100),
    ("pack", EMPTY, lambda h: {}, lambda r, h: r.state.pack == CA_PACK and r.state.event.pool),
    ("pack", "ca-2025-26", lambda h: {"pack": "ca-2025-26"}, lambda r, h: r.state.event.pool),
    ("pack", "ca-2026-27", lambda h: T26, lambda r, h: r.state.pack == "ca-2026-27" and not r.state.event.pool),
    ("lists", EMPTY, lambda h: {}, lambda r, h: r.state.list_policy == "none"),
    ("lists", "none", lambda h: {"lists": "none"}, lambda r, h: r.state.list_policy == "none"),
    ("lists", "closed", lambda h: {"lists": "closed"}, lambda r, h: r.state.list_policy == "closed"),
    ("lists", "open", lambda h: {"lists": "open"}, lambda r, h: r.state.list_policy == "open"),
    ("list-deadline", EMPTY, lambda h: {"lists": "open"}, lambda r, h: r.state.list_deadline is None),
    ("list-deadline", GIVEN, lambda h: {"lists": "closed", "list-deadline": "in 2 hours"},
     lambda r, h: r.state.list_deadline is not None),
    ("team-size", EMPTY, lambda h: T26, lambda r, h: r.state.teams is None),
    ("team-size", "3", lambda h: TEAM, lambda r, h: rules(r).size == 3),
    ("team-size", "8", lambda h: {**T26, "team-size": 8}, lambda r, h: rules(r).size == 8),
    ("chapters", EMPTY, lambda h: TEAM, lambda r, h: not rules(r).chapters_one_faction),
    ("chapters", "each", lambda h: {**TEAM, "chapters": "each"}, lambda r, h: not rules(r).chapters_one_faction),
    ("chapters", "one", lambda h: {**TEAM, "chapters": "one"}, lambda r, h: rules(r).chapters_one_faction),
    ("team-bye", EMPTY, lambda h: TEAM, lambda r, h: rules(r).bye == MatchOutcome.WIN),
    ("team-bye", "win", lambda h: {**TEAM, "team-bye": "win"}, lambda r, h: rules(r).bye == MatchOutcome.WIN),
    ("team-bye", "draw", lambda h: {**TEAM, "team-bye": "draw"}, lambda r, h: rules(r).bye == MatchOutcome.DRAW),
    ("team-bye", "loss", lambda h: {**TEAM, "team-bye": "loss"}, lambda r, h: rules(r).bye == MatchOutcome.LOSS),
    ("pairing-minutes", EMPTY, lambda h: TEAM, lambda r, h: rules(r).step_minutes == 15),
    ("pairing-minutes", "1", lambda h: {**TEAM, "pairing-minutes": 1}, lambda r, h: rules(r).step_minutes == 1),
    ("pairing-minutes", "1440", lambda h: {**TEAM, "pairing-minutes": 1440},
     lambda r, h: rules(r).step_minutes == 1440),
    ("layouts", EMPTY, lambda h: TEAM, lambda r, h: not rules(r).layouts_in_turn),
    ("layouts", "secret", lambda h: {**TEAM, "layouts": "secret"}, lambda r, h: not rules(r).layouts_in_turn),
    ("layouts", "in-turn", lambda h: {**TEAM, "layouts": "in-turn"}, lambda r, h: rules(r).layouts_in_turn),
    ("doubles", EMPTY, lambda h: {}, lambda r, h: not r.state.doubles),
    ("doubles", GIVEN, lambda h: {"doubles": True}, lambda r, h: r.state.doubles and r.state.teams is None),
]
for _option, _value, _, _ in CREATE:
    tries("tournament create", _option, _value)
tries("tournament create", "name", GIVEN)
tries("tournament create", "pack", GIVEN)  # a typed pack: each of the two above


@pytest.mark.parametrize(("option", "value", "options", "check"), CREATE, ids=[f"{o}={v}" for o, v, _, _ in CREATE])
async def test_tournament_create_option(harness: Harness, organiser: FakeUser, option: str, value: str,
                                        options: Options, check: Check) -> None:
    reply = await harness.slash("tournament create", user=organiser, name="Club GT", **{"rounds": 3, **options(harness)})
    assert "Club GT" in reply.content, reply.content
    assert check(await current(harness), harness)


@pytest.mark.parametrize(("options", "says"), [
    ({"list-deadline": "in 2 hours"}, "A list deadline needs lists"),
    ({"team-size": 5}, "pick the Chapter Approved 2026-27 `pack:`"),
    ({"chapters": "one"}, "`chapters:` is for team events"),
    ({**T26, "team-bye": "draw", "layouts": "in-turn"}, "`team-bye:`, `layouts:` are for team events"),
    ({"pairing-minutes": 30}, "`pairing-minutes:` is for team events"),
    ({**TEAM, "doubles": True}, "A doubles event is of pairs, not teams"),
])
async def test_tournament_create_refuses_options_that_do_not_go_together(
    harness: Harness, organiser: FakeUser, options: dict[str, Any], says: str
) -> None:
    refused(await harness.slash("tournament create", user=organiser, name="Club GT", rounds=3, strict=False,
                                **options), says)
    assert await harness.bot.tournaments.repo.active(harness.guild.id) is None  # nothing created


# ---- /team ----------------------------------------------------------------------------------------

async def team_of_three(harness: Harness, organiser: FakeUser, name: str = "Iron Lords",
                        *, create: bool = True) -> list[FakeUser]:
    if create:
        await harness.slash("tournament create", user=organiser, name="Team GT", rounds=3, **TEAM)
    people = [harness.user(f"{name[:4]}{i}") for i in range(3)]
    await harness.slash("team register", user=people[0], name=name, player2=people[1], player3=people[2])
    return people


async def roster(harness: Harness, name: str) -> tuple[str, ...]:
    return (await current(harness)).state.teams.named(name).members


@tries("team register", "name", GIVEN)
@tries("team register", "captain", EMPTY)
@pytest.mark.parametrize("given", range(8), ids=lambda n: f"{n}-players-named")
async def test_team_register_with_each_player_option(harness: Harness, organiser: FakeUser,
                                                     given: int) -> None:
    """player2 … player8 each left out or given: a team of 8 registered by its captain with `given` others."""
    await harness.slash("tournament create", user=organiser, name="Team GT", rounds=3, **{**T26, "team-size": 8})
    people = [harness.user(f"p{i}") for i in range(8)]
    named = {f"player{i + 2}": people[i + 1] for i in range(given)}
    reply = await harness.slash("team register", user=people[0], name="Eights", **named)
    assert f"{given + 1} of 8 players" in reply.content
    team = (await current(harness)).state.teams.named("Eights")
    assert team.captain == str(people[0].id) and len(team.members) == given + 1


for _n in range(2, 9):
    tries("team register", f"player{_n}", EMPTY, GIVEN)


@tries("team register", "captain", GIVEN)
async def test_team_register_for_a_captain(harness: Harness, organiser: FakeUser) -> None:
    await harness.slash("tournament create", user=organiser, name="Team GT", rounds=3, **TEAM)
    captain, other = harness.user("cap"), harness.user("other")
    refused(await harness.slash("team register", user=other, name="Theirs", captain=captain, strict=False),
            "Only an organiser")
    await harness.slash("team register", user=organiser, name="Theirs", captain=captain)
    team = (await current(harness)).state.teams.named("Theirs")
    assert team.captain == str(captain.id) and team.members == (str(captain.id),)


@tries("team add", "player", GIVEN)
@tries("team add", "team", EMPTY, GIVEN)
@tries("team remove", "player", GIVEN)
@tries("team remove", "team", EMPTY, GIVEN)
async def test_team_add_and_remove_for_your_team_or_a_named_one(harness: Harness,
                                                                organiser: FakeUser) -> None:
    people = await team_of_three(harness, organiser)
    await harness.slash("team remove", user=people[0], player=people[2])  # the captain's own team
    assert await roster(harness, "Iron Lords") == (str(people[0].id), str(people[1].id))
    newcomer = harness.user("newcomer")
    await harness.slash("team add", user=people[0], player=newcomer)
    assert str(newcomer.id) in await roster(harness, "Iron Lords")
    await harness.slash("team remove", user=organiser, player=newcomer, team="Iron Lords")  # an organiser's
    await harness.slash("team add", user=organiser, player=people[2], team="Iron Lords")
    assert await roster(harness, "Iron Lords") == tuple(str(p.id) for p in people)
    refused(await harness.slash("team add", user=organiser, player=newcomer, strict=False), "captain no team")


@tries("team replace", "out", GIVEN)
@tries("team replace", "into", GIVEN)
@tries("team replace", "team", EMPTY, GIVEN)
async def test_team_replace_for_your_team_or_a_named_one(harness: Harness, organiser: FakeUser) -> None:
    people = await team_of_three(harness, organiser)
    first, second = harness.user("first"), harness.user("second")
    await harness.slash("team replace", user=people[0], out=people[2], into=first)
    await harness.slash("team replace", user=organiser, out=first, into=second, team="Iron Lords")
    assert await roster(harness, "Iron Lords") == (str(people[0].id), str(people[1].id), str(second.id))


@tries("team captain", "captain", GIVEN)
@tries("team captain", "stand-in", EMPTY, GIVEN)
@tries("team captain", "team", EMPTY, GIVEN)
async def test_team_captain_with_and_without_a_stand_in(harness: Harness, organiser: FakeUser) -> None:
    people = await team_of_three(harness, organiser)
    await harness.slash("team captain", user=people[0], captain=people[1], **{"stand-in": people[2]})
    team = (await current(harness)).state.teams.named("Iron Lords")
    assert (team.captain, team.stand_in) == (str(people[1].id), str(people[2].id))
    await harness.slash("team captain", user=organiser, captain=people[0], team="Iron Lords")
    team = (await current(harness)).state.teams.named("Iron Lords")
    assert (team.captain, team.stand_in) == (str(people[0].id), None)


@tries("team show", "team", EMPTY, GIVEN)
async def test_team_show_yours_or_a_named_one(harness: Harness, organiser: FakeUser) -> None:
    mine = await team_of_three(harness, organiser)
    await team_of_three(harness, organiser, "Ash Wolves", create=False)
    own = await harness.slash("team show", user=mine[1])
    assert own.ephemeral and "Iron Lords" in own.embed["title"]
    other = await harness.slash("team show", user=mine[1], team="Ash Wolves")
    assert "Ash Wolves" in other.embed["title"]
    refused(await harness.slash("team show", user=harness.user("nobody"), strict=False), "in no team")


async def test_team_standings(harness: Harness, organiser: FakeUser) -> None:
    await team_of_three(harness, organiser)
    reply = await harness.slash("team standings", user=organiser)
    assert "Iron Lords" in str(reply.embeds)


# ---- /judge ---------------------------------------------------------------------------------------

async def judged_round(harness: Harness, organiser: FakeUser) -> list[FakeUser]:
    """A singles round of two tables published in their threads: the players, table 1's first."""
    from tests.cogs.test_table_games import thread_tables
    from tests.cogs.test_tournament_commands import open_event, publish
    people = [harness.user(f"player{i}") for i in range(4)]
    await open_event(harness, organiser, people)
    await publish(harness, organiser, mission="C")
    tables = await thread_tables(harness, people)
    return [tables[0].first, tables[0].second, tables[1].first]


@tries("judge call", "note", EMPTY, GIVEN)
async def test_judge_call_with_and_without_a_note(harness: Harness, organiser: FakeUser) -> None:
    await judged_round(harness, organiser)
    record = await current(harness)
    threads = sorted(record.state.table_games, key=lambda g: g.table)
    players = {p: harness.model.users[int(p)] for t in record.state.event.rounds[0].pairings.tables
               for p in (t.a, t.b)}
    first = record.state.event.rounds[0].pairings.tables[0]
    second = record.state.event.rounds[0].pairings.tables[1]
    await harness.slash("judge call", user=players[first.a], channel=harness.model.channels[threads[0].thread_id])
    await harness.slash("judge call", user=players[second.a], channel=harness.model.channels[threads[1].thread_id],
                        note="Terrain")
    calls = sorted(await harness.bot.judges.service.calls(record.id), key=lambda c: c.table_number)
    assert [c.note for c in calls] == [None, "Terrain"]


@tries("judge setup", "channel", EMPTY, GIVEN)
@tries("judge setup", "role", EMPTY, GIVEN)
@tries("judge setup", "reraise-minutes", EMPTY, "1", "120")
async def test_judge_setup_each_option(harness: Harness, organiser: FakeUser) -> None:
    await harness.slash("tournament create", user=organiser, name="Club GT", rounds=3,
                        **{"announce-channel": harness.channel("pairings")})
    record = await current(harness)
    reply = await harness.slash("judge setup", user=organiser)  # every option empty: the defaults
    assert "go to <#" in private(reply) and "judges: organisers." in private(reply)
    assert "raised again after 5 minutes" in private(reply)
    judges, role = harness.channel("judges"), harness.role("Judges")
    reply = await harness.slash("judge setup", user=organiser, options={"channel": judges}, role=role,
                                **{"reraise-minutes": 1})
    assert f"<#{judges.id}>" in private(reply) and f"<@&{role.id}>" in private(reply)
    settings = await harness.bot.judges.service.settings(record.id)
    assert (settings.channel_id, settings.role_id, settings.reraise_minutes) == (judges.id, role.id, 1)
    await harness.slash("judge setup", user=organiser, **{"reraise-minutes": 120})  # the others kept
    settings = await harness.bot.judges.service.settings(record.id)
    assert (settings.channel_id, settings.role_id, settings.reraise_minutes) == (judges.id, role.id, 120)


async def test_judge_duty_and_calls(harness: Harness, organiser: FakeUser) -> None:
    await harness.slash("tournament create", user=organiser, name="Club GT", rounds=3,
                        **{"announce-channel": harness.channel("pairings")})
    assert "on duty" in private(await harness.slash("judge duty on", user=organiser))
    assert "off duty" in private(await harness.slash("judge duty off", user=organiser))
    listed = await harness.slash("judge calls", user=organiser)
    assert "The calls are listed" in private(listed) and not notified(listed.main)


# ---- every option tried --------------------------------------------------------------------------

def wanted(option: dict[str, Any]) -> set[str]:
    """What trying an option means: left out when it may be; each choice, else a number's bounds, else a value."""
    values = set() if option.get("required") else {EMPTY}
    if option.get("choices"):
        return values | {str(c["value"]) for c in option["choices"]}
    if "min_value" in option and "max_value" in option:
        return values | {str(option["min_value"]), str(option["max_value"])}
    return values | {GIVEN}


def synced(harness: Harness, command: str) -> dict[str, list[dict[str, Any]]]:
    """The options of `/command` and of each of its subcommands, by path, as the bot synced them."""
    top = next(c for cs in harness.model.commands.values() for c in cs if c["name"] == command)
    found: dict[str, list[dict[str, Any]]] = {}

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o["type"] in (1, 2)]
        for sub in subs:
            walk(f"{path} {sub['name']}", sub.get("options", []))
        if not subs:
            found[path] = options
    walk(command, top.get("options", []))
    return found


def test_every_option_of_the_event_commands_is_tried(harness: Harness) -> None:
    untried = []
    for command in ("tournament", "team", "judge"):
        for path, options in synced(harness, command).items():
            if command == "tournament" and path != "tournament create":
                continue
            for option in options:
                missing = wanted(option) - TRIED.get((path, option["name"]), set())
                if missing:
                    untried.append(f"/{path} {option['name']}: {sorted(missing)}")
    assert untried == []
