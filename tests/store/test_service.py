from __future__ import annotations

import asyncio
import hashlib
from datetime import UTC, datetime

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.game import replay
from bot.engine.chapter_approved.state import Source, Status
from bot.engine.errors import GameError, NotAPlayer, NotYourTurn
from bot.services.games import CACHED_GAMES, ChannelBusy, GameService, NoGame, StaleBoard, _ActiveGames
from bot.store.db import make_engine, make_sessionmaker
from bot.store.models import GameStatus
from bot.store.repository import GameRecord

CHANNEL = 1_111_111_111_111_111_111
GUILD = 2_222_222_222_222_222_222
OUTSIDER = "333333333333333333"


@pytest.fixture
def service(catalog, sessionmaker) -> GameService:
    return GameService(catalog, sessionmaker)


async def play_until(service: GameService, actions, stop) -> int:
    """Play the scripted actions through the service until stop(state); return how many were played."""
    for n, action in enumerate(actions):
        if stop((await service.get_state(channel_id=CHANNEL)).state):
            return n
        await service.act(action, channel_id=CHANNEL)
    raise AssertionError("the game ended first")


async def test_start_and_act(service, setup):
    started = await service.start_game(GUILD, CHANNEL, setup)
    assert (started.version, started.state.status) == (0, Status.SIDES)
    assert any(hashlib.sha256(setup.seed.encode()).hexdigest()[:16] in e.text for e in started.events)
    assert not any(setup.seed in e.text for e in started.events)
    winner = started.state.sides_rolloff.winner
    result = await service.act(a.ChooseSide(actor=winner, side="defender"), channel_id=CHANNEL, expected_version=0)
    assert (result.game_id, result.version, result.state.status) == (started.game_id, 1, Status.SECONDARIES)
    assert result.state.defender == winner and result.events
    stored = await service.get_state(game_id=started.game_id)
    assert (stored.version, stored.state) == (1, result.state)


async def test_replay_of_the_log_equals_the_snapshot_after_every_action(service, catalog, setup, play):
    await service.start_game(GUILD, CHANNEL, setup)
    for action in play(setup, scores_per_turn=1):
        result = await service.act(action, channel_id=CHANNEL)
        log = await service.repo.list_actions(result.game_id)
        assert replay(catalog, setup, [e.action for e in log]) == result.state
        assert (await service.get_state(game_id=result.game_id)).state == result.state
    assert result.state.status == Status.ENDED
    assert any(setup.seed in e.text for e in result.events)  # revealed once the game is over
    assert (await service.get_state(game_id=result.game_id)).status == GameStatus.ENDED
    with pytest.raises(NoGame):
        await service.get_state(channel_id=CHANNEL)


async def test_undo_takes_back_the_last_action(service, setup, play):
    started = await service.start_game(GUILD, CHANNEL, setup)
    actions = play(setup, scores_per_turn=1)
    played = await play_until(service, actions, lambda s: s.status == Status.BATTLE and s.vp)
    alice, bob = setup.players
    before = await service.get_state(channel_id=CHANNEL)
    scored = await service.act(a.Score(actor=before.state.active, source=Source.PRIMARY, vp=3), channel_id=CHANNEL)
    assert scored.state.total_vp(before.state.active) == before.state.total_vp(before.state.active) + 3
    with pytest.raises(NotAPlayer):
        await service.undo(CHANNEL, OUTSIDER)
    scorer = before.state.active
    with pytest.raises(GameError, match="only they can undo it"):
        await service.undo(CHANNEL, before.state.opponent(scorer).id)
    undone = await service.undo(CHANNEL, scorer)
    assert undone.state == before.state
    assert undone.version == scored.version + 1  # a board drawn before the undo is out of date
    assert "undid" in undone.events[0].text
    assert len(await service.repo.list_actions(started.game_id)) == played
    with pytest.raises(StaleBoard):
        await service.act(actions[played], channel_id=CHANNEL, expected_version=scored.version)
    await service.act(actions[played], channel_id=CHANNEL, expected_version=undone.version)


async def test_undo_refuses_what_cannot_be_taken_back(service, setup, play):
    with pytest.raises(NoGame):
        await service.undo(CHANNEL, setup.players[0])
    await service.start_game(GUILD, CHANNEL, setup)
    with pytest.raises(GameError, match="nothing to undo"):
        await service.undo(CHANNEL, setup.players[0])
    # The second Secondary choice reveals both and shuffles the decks: undoing it would let a
    # player choose again knowing the other's choice.
    await play_until(service, play(setup), lambda s: s.status == Status.BATTLE)
    before = await service.get_state(channel_id=CHANNEL)
    with pytest.raises(GameError, match="cannot be undone"):
        await service.undo(CHANNEL, setup.players[0])
    after = await service.get_state(channel_id=CHANNEL)
    assert (after.version, after.state) == (before.version, before.state)


async def test_concurrent_presses_of_one_board_apply_once(service, setup):
    started = await service.start_game(GUILD, CHANNEL, setup)
    winner = started.state.sides_rolloff.winner
    presses = [service.act(a.ChooseSide(actor=winner, side=side), game_id=started.game_id, expected_version=0)
               for side in ("attacker", "defender")]
    results = await asyncio.gather(*presses, return_exceptions=True)
    [applied] = [r for r in results if not isinstance(r, Exception)]
    [stale] = [r for r in results if isinstance(r, Exception)]
    assert isinstance(stale, StaleBoard) and "out of date" in stale.message
    stored = await service.get_state(game_id=started.game_id)
    assert (stored.version, stored.state) == (1, applied.state)
    assert len(await service.repo.list_actions(started.game_id)) == 1


async def test_refused_actions_write_nothing(service, setup):
    started = await service.start_game(GUILD, CHANNEL, setup)
    loser = next(p for p in setup.players if p != started.state.sides_rolloff.winner)
    refused = [
        (a.ChooseSide(actor=loser, side="attacker"), NotYourTurn),  # the engine says no
        (a.ChooseSide(actor=OUTSIDER, side="attacker"), NotAPlayer),  # not a player of this game
        (a.Abandon(actor=OUTSIDER), NotAPlayer),
    ]
    for action, error in refused:
        with pytest.raises(error):
            await service.act(action, channel_id=CHANNEL)
    stored = await service.repo.get_active_game(CHANNEL)
    assert (stored.version, stored.state, stored.updated_at) == (0, started.state, stored.created_at)
    assert await service.repo.list_actions(started.game_id) == []
    with pytest.raises(NoGame):
        await service.act(a.EndTurn(actor=loser), channel_id=CHANNEL + 1)


async def test_a_failed_save_leaves_the_game_as_it_was(service, sessionmaker, setup):
    started = await service.start_game(GUILD, CHANNEL, setup)
    async with sessionmaker() as session, session.begin():  # the action log refuses every row
        if session.bind.dialect.name == "sqlite":
            await session.exec(text("CREATE TRIGGER no_log BEFORE INSERT ON game_action "
                                    "BEGIN SELECT RAISE(ABORT, 'disk full'); END"))
        else:
            await session.exec(text("CREATE RULE no_log AS ON INSERT TO game_action DO INSTEAD SELECT 1/0"))
    winner = started.state.sides_rolloff.winner
    with pytest.raises(DBAPIError):
        await service.act(a.ChooseSide(actor=winner, side="attacker"), channel_id=CHANNEL)
    stored = await service.repo.get_active_game(CHANNEL)
    assert (stored.version, stored.state) == (0, started.state)
    assert await service.get_state(channel_id=CHANNEL) == stored


async def test_one_game_per_channel(service, setup):
    await service.start_game(GUILD, CHANNEL, setup)
    with pytest.raises(ChannelBusy):
        await service.start_game(GUILD, CHANNEL, setup.model_copy(update={"seed": "another"}))
    with pytest.raises(NotAPlayer):
        await service.abandon(CHANNEL, OUTSIDER)
    ended = await service.abandon(CHANNEL, OUTSIDER, moderator=True)
    assert ended.state.status == Status.ABANDONED
    restarted = await service.start_game(GUILD, CHANNEL, setup)
    assert restarted.game_id != ended.game_id


async def test_a_restarted_service_continues_the_game(catalog, database_url, setup, play):
    actions = play(setup)
    first_engine = make_engine(database_url)
    first = GameService(catalog, make_sessionmaker(first_engine))
    started = await first.start_game(GUILD, CHANNEL, setup)
    for action in actions[:3]:
        last = await first.act(action, game_id=started.game_id)
    await first_engine.dispose()  # the process goes away

    second_engine = make_engine(database_url)
    try:
        second = GameService(catalog, make_sessionmaker(second_engine))
        resumed = await second.get_state(channel_id=CHANNEL)
        assert (resumed.id, resumed.version, resumed.state) == (started.game_id, last.version, last.state)
        for action in actions[3:]:
            last = await second.act(action, channel_id=CHANNEL)
        assert last.state.status == Status.ENDED
        assert len(await second.repo.list_actions(started.game_id)) == len(actions)
    finally:
        await second_engine.dispose()


async def test_two_processes_on_one_database_never_lose_an_action(catalog, sessionmaker, setup, play):
    # Two bot processes (say, shards misconfigured to share a channel) each keep a copy of the game.
    one, two = GameService(catalog, sessionmaker), GameService(catalog, sessionmaker)
    actions = play(setup)
    started = await one.start_game(GUILD, CHANNEL, setup)
    assert (await two.get_state(channel_id=CHANNEL)).version == 0
    await one.act(actions[0], channel_id=CHANNEL)  # sides chosen
    # two's copy still shows the roll-off: its engine would refuse a Secondary choice, but the
    # refusal is checked against the database first and the action goes through.
    await two.act(actions[1], channel_id=CHANNEL)
    # one's copy lacks that choice: its engine accepts the next one, the save finds version 2 gone,
    # and it is applied again on the fresh state.
    result = await one.act(actions[2], game_id=started.game_id)
    assert (result.version, result.state.status) == (3, Status.DEPLOYMENT)
    # A board two drew from its old copy is still out of date, and says so.
    with pytest.raises(StaleBoard):
        await two.act(actions[3], channel_id=CHANNEL, expected_version=2)
    await two.act(actions[3], channel_id=CHANNEL, expected_version=3)
    log = await one.repo.list_actions(started.game_id)
    assert [(e.seq, e.action) for e in log] == list(enumerate(actions[:4], start=1))
    assert replay(catalog, setup, actions[:4]) == (await one.repo.get_game(started.game_id)).state


async def test_export_hides_secrets_until_the_end(service, catalog, setup, play):
    started = await service.start_game(GUILD, CHANNEL, setup)
    actions = play(setup, scores_per_turn=2)
    first_choice = next(i for i, x in enumerate(actions) if isinstance(x, a.ChooseSecondaries))
    await play_until(service, actions, lambda s: any(p.choice for p in s.players))

    running = await service.export_log(started.game_id)
    assert running["seed"] is None and "seed" not in running["setup"]
    assert running["seed_hash"] == hashlib.sha256(setup.seed.encode()).hexdigest()
    assert setup.seed not in str(running)
    secret = running["actions"][first_choice]["action"]
    assert secret["kind"] == "choose_secondaries" and "mode" not in secret and "cards" not in secret
    assert [x["seq"] for x in running["actions"]] == list(range(1, first_choice + 2))
    assert all(x["actor"] in setup.players and x["time"] for x in running["actions"])

    for action in actions[first_choice + 1:]:
        await service.act(action, channel_id=CHANNEL)
    final = await service.export_log(started.game_id)
    state = (await service.get_state(game_id=started.game_id)).state
    assert final["seed"] == setup.seed and final["setup"]["seed"] == setup.seed
    assert final["status"] == "ended" and final["result"]["vp"] == state.result.vp
    assert final["actions"][first_choice]["action"]["mode"] == "tactical"
    assert len(final["actions"]) == len(actions)
    for player in final["score_sheet"]:
        assert player["total"] == state.total_vp(player["player"]) > 0
        assert player["total"] == sum(r["total"] for r in player["rounds"]) + player["battle_ready"]
        assert {1, 2, 3, 4, 5} <= {r["round"] for r in player["rounds"]}
        assert all(r["total"] == r["primary"] + r["secondary"] + r["challenger"] for r in player["rounds"])


async def test_a_board_newer_than_the_memory_copy_is_read_afresh(catalog, sessionmaker, setup, play):
    one, two = GameService(catalog, sessionmaker), GameService(catalog, sessionmaker)
    started = await one.start_game(GUILD, CHANNEL, setup)
    await two.act(play(setup)[0], channel_id=CHANNEL)  # another process moved the game on
    assert (await one.get_state(game_id=started.game_id)).version == 0  # one's copy is behind
    # A press on a board drawn at version 1: the copy is only a cache, the database decides.
    fresh = await one.get_state(game_id=started.game_id, version=1)
    assert (fresh.version, fresh.state.status) == (1, Status.SECONDARIES)
    assert (await one.get_state(channel_id=CHANNEL)).version == 1  # and the copy follows
    # A board older than the copy is not read again: the copy already shows it is out of date.
    assert (await one.get_state(game_id=started.game_id, version=0)) is fresh


def test_memory_copies_are_bounded_and_follow_the_channel(setup, first_state):
    def record(game_id: int, channel: int, status: GameStatus = GameStatus.ACTIVE, version: int = 0) -> GameRecord:
        now = datetime.now(UTC)
        return GameRecord(game_id, GUILD, channel, status, version, setup, first_state, "hash", now, now)

    games = _ActiveGames(size=2)
    games.put(record(1, 10))
    games.put(record(2, 20))
    games.put(record(3, 30))  # the oldest copy goes
    assert games.by_game(1) is None and games.by_channel(10) is None
    assert games.by_channel(20).id == 2 and games.by_channel(30).id == 3
    games.put(record(2, 20, GameStatus.ENDED))  # over: no longer the channel's game
    assert games.by_game(2) is None and games.by_channel(20) is None
    games.put(record(4, 30))  # a newer game in the same channel
    games.forget(record(3, 30))  # forgetting the old one leaves the new one alone
    assert games.by_channel(30).id == 4
    games.put(record(4, 30, version=2))
    games.put(record(4, 30, version=1))  # a read that began before the save: the newer copy stays
    assert games.by_game(4).version == 2


def test_memory_copies_stay_within_their_size_however_many_games(setup, first_state):
    now = datetime.now(UTC)
    games = _ActiveGames(size=CACHED_GAMES)
    for n in range(3 * CACHED_GAMES):  # games of many channels, never finished
        games.put(GameRecord(n, GUILD, 10_000 + n, GameStatus.ACTIVE, 0, setup, first_state, "h", now, now))
    assert len(games._by_game) == len(games._by_channel) == CACHED_GAMES
    assert games.by_game(3 * CACHED_GAMES - 1) is not None and games.by_game(0) is None
