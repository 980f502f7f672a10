"""Rematch from the result card: the same pack, size and options, a new secret seed, the seats the other way
round, accepted by the other player; only the players, only once the game is over, for a day."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from bot.store.db import make_engine
from bot.store.models import Game, utcnow
from tests.cogs.game_table import CUSTOM_ID, Table, verbs
from tests.cogs.harness import Harness
from tests.cogs.test_pings import notified


def result_card(harness: Harness) -> dict:
    return next(m for m in reversed(harness.messages()) if m["embeds"]
                and m["embeds"][0].get("title", "").startswith("Result"))


@pytest.mark.parametrize("presser", ["winner", "loser"])
async def test_either_player_offers_a_rematch_and_the_other_accepts(table: Table, harness: Harness, alice, bob,
                                                                    presser: str) -> None:
    await table.start(size="incursion", twist=True, clock=45, seed=None, faction="Orks")
    await table.slash("army set", bob, faction="Necrons")
    await table.to_battle()
    old = await table.state()
    await table.slash("game concede", bob)
    card = result_card(harness)
    rematch = verbs(card)["rematch"]
    user = alice if presser == "winner" else bob
    other = table.other(user)
    reply = await harness.press(rematch, user=user)
    offer = next(s for s in reply if s.message is not None and "rematch" in s.content)
    assert notified(offer) == {other.id}
    game_id = int(CUSTOM_ID.match(offer.custom_ids[0])["game"])
    record = await harness.bot.service.get_state(game_id=game_id)
    new = record.setup
    assert new.players == old.setup.players[::-1] and new.names == old.setup.names[::-1]
    assert (new.size, new.twist, new.clock_minutes, new.pack) == ("incursion", True, 45, old.setup.pack)
    assert new.seed != old.setup.seed and new.seed_fixed_by is None
    assert [army.faction for army in new.armies] == ["necrons", "orks"]  # each keeps the army they played
    accept = next(c for v, c in verbs(offer.message).items() if v.startswith("accept"))
    refused = await harness.press(accept, user=user)
    assert refused.ephemeral and "Waiting for your opponent" in refused.content
    await harness.press(accept, user=other)
    assert len(await harness.bot.service.repo.board_messages(game_id)) == 1


async def test_only_the_players_and_only_once(table: Table, harness: Harness, alice, bob, carol) -> None:
    await table.start()
    assert "rematch" not in verbs(await table.board())
    await table.to_battle()
    await table.slash("game concede", bob)
    rematch = verbs(result_card(harness))["rematch"]
    reply = await harness.press(rematch, user=carol)
    assert reply.ephemeral and "Only the two players" in reply.content
    await harness.press(rematch, user=alice)
    reply = await harness.press(rematch, user=bob)  # the rematch waits for an answer in this channel
    assert reply.ephemeral and "already has a game" in reply.content


async def test_a_rematch_is_offered_for_a_day(table: Table, harness: Harness, alice, bob) -> None:
    await table.start()
    await table.to_battle()
    await table.slash("game concede", bob)
    engine = make_engine(harness.bot.settings.database_url)
    async with engine.begin() as conn:
        await conn.execute(update(Game).values(updated_at=utcnow() - timedelta(days=1, minutes=1)))
    await engine.dispose()
    reply = await harness.press(verbs(result_card(harness))["rematch"], user=alice)
    assert reply.ephemeral and "up to a day" in reply.content
