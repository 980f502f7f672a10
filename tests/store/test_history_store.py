"""Community memory in the store, on SQLite and PostgreSQL: a game's summary and its server's tallies are written
with the action that ends it, read back by the history, and rebuilt by the start-up backfill."""

from __future__ import annotations

from sqlalchemy import delete

from bot.armies.check import army_from
from bot.armies.data import army_data
from bot.engine import moves
from bot.engine.chapter_approved.state import GameSetup
from bot.engine.models import Army
from bot.services.game_options import GameOptions
from bot.services.games import GameService
from bot.store.community_models import GameSummary, ServerTally
from bot.store.history import tallies
from bot.present.pictures.stats import faction_stats
from tests.store.conftest import ALICE, BOB, scripted_game

GUILD = 77
CAROL, DORA = "333333333333333333", "444444444444444444"


async def finish(service: GameService, catalog, channel: int, seed: str, *, concede: bool = False) -> int:
    setup = GameSetup(size="strike-force", players=(ALICE, BOB), names=("Alice", "Bob"), seed=seed)
    started = await service.start_game(GUILD, channel, setup)
    actions = scripted_game(catalog, setup)
    if concede:  # up to the battle, then Bob concedes
        actions = actions[:next(i for i, x in enumerate(actions) if x.kind == "end_command_phase")]
        actions.append(moves.Concede(actor=BOB))
    for action in actions:
        await service.act(action, channel_id=channel)
    return started.game_id


async def test_the_ending_action_writes_the_summary_and_the_tallies(catalog, sessionmaker) -> None:
    service = GameService(catalog, sessionmaker)
    battle = await finish(service, catalog, 1, "history-1")
    conceded = await finish(service, catalog, 2, "history-2", concede=True)
    summaries = [await service.history.summary(g) for g in (battle, conceded)]
    assert [s.reason for s in summaries] == ["battle", "concession"] and summaries[1].winner == ALICE
    page = await service.history.history(GUILD, BOB, limit=1)
    assert page.total == 2 and [r.game_id for r in page.rows] == [conceded]  # newest first
    expected: dict[tuple[str, str], list[int]] = {}
    for summary in summaries:
        for kind, key, games, wins in tallies(summary.model_dump()):
            counts = expected.setdefault((kind, key), [0, 0])
            counts[0] += games
            counts[1] += wins
    counts = await service.history.server_counts(GUILD)
    assert {(kind, key): [games, wins] for kind, rows in counts.items() for key, games, wins in rows} == expected
    assert sum(games for _, games, _ in counts["week"]) == 2


async def test_the_backfill_rebuilds_what_the_games_wrote(catalog, sessionmaker) -> None:
    service = GameService(catalog, sessionmaker)
    games = [await finish(service, catalog, n, f"backfill-{n}", concede=n % 2 == 0) for n in range(1, 4)]
    written = [await service.history.summary(g) for g in games]
    tallied = await service.history.server_counts(GUILD)
    async with sessionmaker() as session, session.begin():
        await session.exec(delete(ServerTally))
        await session.exec(delete(GameSummary))
    assert await service.backfill_summaries() == 3
    assert [await service.history.summary(g) for g in games] == written
    assert {k: sorted(v) for k, v in (await service.history.server_counts(GUILD)).items()} == {
        k: sorted(v) for k, v in tallied.items()}


async def test_factions_are_counted_over_both_seats_without_mirrors(catalog, sessionmaker) -> None:
    wolves, necrons = (Army(faction="space-wolves", faction_name="Space Wolves", detachment="saga-of-the-hunter"),
                       Army(faction="necrons", faction_name="Necrons"))
    service = GameService(catalog, sessionmaker)
    for channel, armies, concede in ((11, (wolves, necrons), True), (12, (necrons, wolves), True),
                                     (13, (wolves, wolves), True), (14, (None, necrons), False)):
        setup = GameSetup(size="strike-force", players=(ALICE, BOB), names=("Alice", "Bob"), seed=f"f{channel}",
                          armies=armies)
        await service.start_game(GUILD, channel, setup)
        actions = scripted_game(catalog, setup)
        if concede:  # Bob concedes in the battle: Alice's army wins
            actions = actions[:next(i for i, x in enumerate(actions) if x.kind == "end_command_phase")]
            actions.append(moves.Concede(actor=BOB))
        for action in actions:
            await service.act(action, channel_id=channel)
    records = {(r.faction, r.detachment): (r.games, r.wins, r.draws, r.losses)
               for r in await service.history.factions(GUILD)}
    last = await service.history.summary((await service.latest_game(14)).id)
    bob_won = 1 if last.winner == BOB else 0
    drew = 1 if last.winner is None else 0
    assert records == {("space-wolves", "saga-of-the-hunter"): (2, 1, 0, 1),  # the mirror (13) left out
                       ("necrons", None): (3, 1 + bob_won, drew, 2 - bob_won - drew)}
    assert await service.history.factions(GUILD, tournament_id=5) == []


async def test_each_detachment_an_army_fielded_counts_on_its_line_and_the_faction_once(catalog, sessionmaker) -> None:
    """The summary holds an army's first detachment; the others are read from the few final snapshots that hold an
    army of several. Alice's Necrons field Pantheon of Woe and Skyshroud Spearhead in two games, Pantheon of Woe alone
    in a third; her Necrons' games count three times, Pantheon of Woe's three, Skyshroud Spearhead's two."""
    data = army_data()
    two, one = army_from(data, "Necrons", "Pantheon of Woe and Skyshroud Spearhead"), army_from(
        data, "Necrons", "Pantheon of Woe")
    orks = army_from(data, "Orks", "War Horde")
    service = GameService(catalog, sessionmaker)
    for channel, army in ((21, two), (22, two), (23, one)):
        setup = GameSetup(size="strike-force", players=(ALICE, BOB), names=("Alice", "Bob"), seed=f"d{channel}",
                          armies=(army, orks))
        await service.start_game(GUILD, channel, setup)
        actions = scripted_game(catalog, setup)
        actions = actions[:next(i for i, x in enumerate(actions) if x.kind == "end_command_phase")]
        for action in [*actions, moves.Concede(actor=BOB)]:
            await service.act(action, channel_id=channel)
    records = {(r.faction, r.detachment, r.further): (r.games, r.wins) for r in await service.history.factions(GUILD)}
    assert records == {("necrons", "pantheon-of-woe", False): (3, 3), ("necrons", "skyshroud-spearhead", True): (2, 2),
                       ("orks", "war-horde", False): (3, 0)}
    stats = faction_stats(list(await service.history.factions(GUILD)), "here", data.faction_name,
                          data.detachment_name)
    necrons = next(line for line in stats.lines if line.name == "Necrons")
    assert necrons.record.games == 3 and necrons.detachments == []  # under five games each: no line yet
    stats = faction_stats([r for r in await service.history.factions(GUILD) for _ in range(3)], "here",
                          data.faction_name, data.detachment_name)  # each game three times: nine and six
    necrons = next(line for line in stats.lines if line.name == "Necrons")
    assert necrons.record.games == 9
    assert [(n, r.games) for n, r in necrons.detachments] == [("Pantheon of Woe", 9), ("Skyshroud Spearhead", 6)]


async def test_a_doubles_game_is_summarised_for_its_four_players_and_backfilled_alike(catalog, sessionmaker) -> None:
    service = GameService(catalog, sessionmaker)
    setup = GameOptions(size="strike-force", seed="doubles", faction="Necrons").setup(
        service.packs, (ALICE, BOB), ("Alice", "Bob"), partners=((CAROL, "Carol"), (DORA, "Dora")))
    started = await service.start_game(GUILD, 31, setup)
    actions = scripted_game(catalog, setup)
    for action in [*actions[:next(i for i, x in enumerate(actions) if x.kind == "end_command_phase")],
                   moves.Concede(actor=BOB)]:
        await service.act(action, channel_id=31)
    summary = await service.history.summary(started.game_id)
    assert (summary.player_a, summary.partner_a, summary.player_b, summary.partner_b) == (ALICE, CAROL, BOB, DORA)
    assert (summary.name_a, summary.partner_name_a, summary.name_b, summary.partner_name_b) == (
        "Alice", "Carol", "Bob", "Dora")
    assert summary.winner == ALICE and summary.doubles and summary.faction_a == "necrons"
    for player in (ALICE, BOB, CAROL, DORA):
        assert (await service.history.history(GUILD, player)).total == 1
        assert [r.game_id for r in await service.history.rows(GUILD, player)] == [started.game_id]
    assert await service.history.factions(GUILD) == []  # a doubles side's army is not one player's
    assert sum(games for _, games, _ in (await service.history.server_counts(GUILD))["week"]) == 1
    async with sessionmaker() as session, session.begin():
        await session.exec(delete(ServerTally))
        await session.exec(delete(GameSummary))
    assert await service.backfill_summaries() == 1
    assert await service.history.summary(started.game_id) == summary
