"""Doubles in community memory through the fake Discord: a 2v2 game counts for each of its four players, apart from
their singles games, in history and /stats, and on the ladder as the server chose when it started it: not at all
(the default), or on a separate doubles table that never moves a singles rating."""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.state import Status
from bot.engine.ladder import MODEL
from bot.services.game_options import GameOptions
from bot.services.ladders import counted, counts, rate
from bot.ui import ladder_view
from tests.cogs.harness import Harness
from tests.cogs.test_community_memory import ADMIN, play
from tests.discord_model import FakeUser
from tests.store.conftest import next_action


@pytest.fixture
def dora(harness: Harness) -> FakeUser:
    return harness.user("dora")


async def play_doubles(harness: Harness, sides: tuple[tuple[FakeUser, FakeUser], tuple[FakeUser, FakeUser]], *,
                       loser: FakeUser) -> int:
    """A doubles game, each side (its first player, its partner), started with its setup and played by the service
    to the battle, where `loser` (either player of a side) concedes with /game concede. Its game id."""
    (a, partner_a), (b, partner_b) = sides
    service = harness.bot.service
    setup = GameOptions(size="strike-force").setup(
        service.packs, (str(a.id), str(b.id)), (a.name.title(), b.name.title()),
        partners=((str(partner_a.id), partner_a.name.title()), (str(partner_b.id), partner_b.name.title())))
    channel = harness.channel(f"doubles-{len(harness.model.channels)}")
    started = await service.start_game(harness.guild.id, channel.id, setup)
    catalog = service.packs.rules(setup.pack).catalog
    while (state := (await service.get_state(channel_id=channel.id)).state).status != Status.BATTLE:
        await service.act(next_action(catalog, state), channel_id=channel.id)
    await harness.slash("game concede", user=loser, channel=channel)
    await harness.bot.desk.idle()
    return started.game_id


async def test_a_doubles_game_counts_for_its_four_players_apart_from_singles(harness: Harness, alice, bob, carol,
                                                                            dora) -> None:
    await play(harness, alice, bob, winner=alice)
    doubles = await play_doubles(harness, ((alice, carol), (bob, dora)), loser=dora)  # Bob's partner concedes
    history = harness.bot.service.history
    for player in (alice, bob, carol, dora):
        page = await history.history(harness.guild.id, str(player.id))
        assert page.rows[0].game_id == doubles and page.total == (2 if player in (alice, bob) else 1)
    summary = await history.summary(doubles)
    assert (summary.name_a, summary.partner_name_a, summary.name_b, summary.partner_name_b) == (
        "Alice", "Carol", "Bob", "Dora")  # each player's own name, not the side's
    assert summary.side(str(dora.id)) == (False, str(bob.id), "Dora", "Bob", "Alice & Carol")
    reply = await harness.slash("stats player", user=carol)
    assert "Doubles: 1 games, 1-0-0" in reply.content and "Singles" not in reply.content
    reply = await harness.slash("stats player", user=bob)
    assert "Singles: 1 games, 0-1-0" in reply.content and "Doubles: 1 games, 0-1-0" in reply.content
    reply = await harness.slash("stats player", user=alice)
    assert "Singles: 1 games, 1-0-0" in reply.content and "Doubles: 1 games, 1-0-0" in reply.content
    reply = await harness.slash("stats server", user=alice)
    assert "2 finished games" in reply.content  # the server's habits count every game


async def test_history_says_doubles_and_names_the_partner_and_both_opponents(harness: Harness, alice, bob, carol,
                                                                            dora) -> None:
    await play(harness, alice, bob, winner=alice)
    await play_doubles(harness, ((alice, carol), (bob, dora)), loser=dora)
    reply = await harness.slash("game history", user=dora)
    [line] = reply.embed["description"].splitlines()
    assert reply.embed["title"] == "Dora's games"  # her own name, not her side's
    assert "doubles with **Bob** vs **Alice & Carol**" in line and "**loss** (concession)" in line
    reply = await harness.slash("game history", user=alice)
    doubles, singles = reply.embed["description"].splitlines()
    assert reply.embed["title"] == "Alice's games"
    assert "doubles with **Carol** vs **Bob & Dora**" in doubles and "**win** (concession)" in doubles
    assert "> vs **Bob** ·" in singles and "doubles" not in singles and "**win**" in singles


async def test_a_ladder_rates_no_doubles_unless_chosen(harness: Harness, alice, bob, carol, dora) -> None:
    admin = harness.user("admin", permissions=ADMIN)
    reply = await harness.slash("ladder start", user=admin, name="Winter League")
    assert "Doubles games do not count" in reply.content
    await play(harness, alice, bob, winner=alice)
    ladders = harness.bot.service.ladders
    ladder = await ladders.ladder(harness.guild.id)
    singles = await ladders.repo.standings_of(ladder.id, (str(alice.id), str(bob.id)))
    doubles = await play_doubles(harness, ((alice, carol), (bob, dora)), loser=bob)
    assert not await ladders.game_ended(harness.guild.id, doubles)
    assert await ladders.repo.standings_of(ladder.id, (str(alice.id), str(bob.id), str(carol.id))) == singles
    reply = await harness.slash("ladder standings", user=alice, doubles=True)
    assert reply.ephemeral and "does not rate doubles" in reply.content
    reply = await harness.slash("ladder me", user=carol)
    assert reply.ephemeral and "no counted game" in reply.content
    reply = await harness.slash("ladder void", user=admin, game=doubles)
    assert reply.ephemeral and "does not count" in reply.content
    assert await ladders.recompute(ladder) == singles  # a recompute leaves the doubles game out too


async def test_a_separate_doubles_ladder_rates_the_four_players_as_teams(harness: Harness, alice, bob, carol, dora,
                                                                         monkeypatch) -> None:
    admin = harness.user("admin", permissions=ADMIN)
    reply = await harness.slash("ladder start", user=admin, name="Winter League", doubles="separate")
    assert "Doubles games count on a table of their own" in reply.content
    await play(harness, alice, bob, winner=alice)
    ladders = harness.bot.service.ladders
    ladder, pairs = await ladders.ladder(harness.guild.id), await ladders.ladder(harness.guild.id, doubles=True)
    assert (pairs.name, pairs.doubles, pairs.season) == ("Winter League (doubles)", True, 1)
    four = tuple(str(p.id) for p in (alice, carol, bob, dora))
    singles = await ladders.repo.standings_of(ladder.id, four)
    game = await play_doubles(harness, ((alice, carol), (bob, dora)), loser=dora)
    summary = await harness.bot.service.history.summary(game)
    assert counts(pairs, summary) and not counts(ladder, summary)
    assert await ladders.repo.standings_of(ladder.id, four) == singles  # singles ratings never move for doubles
    table = await ladders.repo.standings_of(pairs.id, four)
    [[a, c], [b, d]] = MODEL.rate([[MODEL.rating(), MODEL.rating()], [MODEL.rating(), MODEL.rating()]],
                                  ranks=[1, 2])
    for player, expected in zip(four, (a, c, b, d)):
        assert (table[player].mu, table[player].sigma) == pytest.approx((expected.mu, expected.sigma), rel=1e-12)
    assert [(table[p].name, table[p].wins, table[p].losses) for p in four] == [
        ("Alice", 1, 0), ("Carol", 1, 0), ("Bob", 0, 1), ("Dora", 0, 1)]
    second = await play_doubles(harness, ((dora, alice), (carol, bob)), loser=bob)  # new partners
    assert await ladders.repo.standings_of(pairs.id, four) == await ladders.recompute(pairs)  # one by one = all

    monkeypatch.setattr(ladder_view, "PAGE", 3)  # its buttons page by three
    reply = await harness.slash("ladder standings", user=admin, doubles=True)
    assert "Winter League (doubles)" in reply.embed["title"] and reply.embed["description"].count("\n") == 3
    lower = next(c["custom_id"] for c in reply.components[0]["components"] if c["label"] == "Lower")
    page = await harness.press(lower, user=admin)
    assert "(doubles)" in page.embed["title"] and page.embed["description"].startswith("**4.**")
    reply = await harness.slash("ladder me", user=alice)
    assert "**Winter League**, place" in reply.content and "**Winter League (doubles)**, place" in reply.content
    assert f"game {second}" in reply.content

    reply = await harness.slash("ladder void", user=admin, game=game)
    assert "Winter League (doubles)" in harness.messages()[-1]["content"]  # the table the game counted on
    kept = rate({}, counted(await harness.bot.service.history.summary(second)))
    assert await ladders.repo.standings_of(pairs.id, four) == kept
    assert await ladders.repo.standings_of(ladder.id, four) == singles

    reply = await harness.slash("ladder season new", user=admin)
    new, new_pairs = await ladders.ladder(harness.guild.id), await ladders.ladder(harness.guild.id, doubles=True)
    assert (new.season, new_pairs.season, new_pairs.doubles) == (2, 2, True)
    assert (await ladders.repo.ladder(pairs.id)).archived_at is not None
    assert (await ladders.repo.page(pairs.id, 0, 10))[1] == 4  # the archive stays
    await play_doubles(harness, ((alice, carol), (bob, dora)), loser=carol)
    assert (await ladders.repo.page(new_pairs.id, 0, 10))[1] == 4 and (await ladders.repo.page(new.id, 0, 10))[1] == 0

