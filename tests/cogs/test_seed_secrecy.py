"""Who may know the shuffles: a seed a player fixes is public from the challenge on; the bot's seed reaches
nobody, not even the player who started the game, before the game ends. Driven through a real MissionBot."""

from __future__ import annotations

import hashlib
import json


from tests.cogs.game_table import Table, public_text
from tests.cogs.harness import Harness


def log_of(harness: Harness, reply) -> dict:
    return json.loads(harness.model.files[int(reply.main.message["attachments"][0]["id"])])


async def test_a_fixed_seed_is_shown_in_the_challenge_and_marks_a_replay(table: Table, harness: Harness, alice,
                                                                          bob) -> None:
    reply = await table.challenge_only(seed="practice-7")
    assert not reply.ephemeral
    assert reply.content.startswith(f"{bob.mention}, {alice.mention} challenges you to a game.")
    assert f"{alice.mention} fixed the seed `` practice-7 ``" in reply.content
    assert reply.content.endswith("Accept?")
    assert reply.main.body["allowed_mentions"]["users"] == [bob.id]  # only the opponent is pinged
    briefing = public_text(reply.main.message)
    assert "Alice fixed the seed 'practice-7'" in briefing and "no secret shuffles" in briefing
    assert "secret seed" not in briefing
    state = await table.state()
    assert state.setup.seed == "practice-7" and state.setup.seed_fixed_by == str(alice.id)

    await table.accept()
    board = (await table.board())["embeds"][0]
    assert "**Replay** of seed `` practice-7 `` fixed by Alice" in board["description"]

    log = log_of(harness, await table.slash("game log", bob))  # a replay's log shows its seed while it runs
    assert log["seed"] == "practice-7" and log["setup"]["seed_fixed_by"] == str(alice.id)

    await table.to_battle()
    ended = await table.slash("game concede", alice)
    result = next(s.message for s in ended if s.embeds and s.embeds[0]["title"].startswith("Result"))
    assert "**Replay** of seed" in result["embeds"][0]["description"]


async def test_a_bot_seed_reaches_nobody_before_the_end(table: Table, harness: Harness, alice, bob) -> None:
    challenge = await table.challenge_only(seed=None)
    state = await table.state()
    seed, digest = state.setup.seed, hashlib.sha256(state.setup.seed.encode()).hexdigest()
    assert state.setup.seed_fixed_by is None
    assert "Replay" not in challenge.content and "fixed the seed" not in challenge.content
    assert f"its SHA-256 begins `{digest[:16]}`" in public_text(challenge.main.message)
    await table.accept()
    await table.to_battle(first_fixed=None)  # both Tactical: decks shuffled, cards drawn
    for user in (alice, bob):
        await table.slash("game status", user)
        await table.slash("game log", user)
    await table.end_turn_plain()

    def everything_sent() -> str:
        """Every HTTP payload the bot sent (messages, edits, ephemeral replies) and every file it uploaded."""
        bodies = json.dumps([call.body for call in harness.calls], ensure_ascii=False)
        return bodies + "".join(data.decode("utf-8", "replace") for data in harness.model.files.values())

    before_the_end = everything_sent()
    assert digest in before_the_end and seed not in before_the_end

    ended = await table.slash("game concede", bob)
    card = public_text(next(s.message for s in ended if s.embeds and s.embeds[0]["title"].startswith("Result")))
    assert f"Seed `` {seed} ``" in card and digest in card
    assert f"python -m bot verify game-{table.game_id}.json" in card and "Verify a game" in card
    assert "Replay" not in card
