"""/roll and /rolloff through the real bot."""

from __future__ import annotations

import random

import pytest

from bot.engine import dice
from tests.cogs.harness import Harness
from tests.cogs.lookups import LOOKUPS, module_harness  # noqa: F401
from tests.engine.test_dice import ScriptedRandom

pytestmark = LOOKUPS


@pytest.fixture
def use_rng(harness: Harness):
    """Swap the cog's generator for one the test controls, and put the real one back afterwards."""
    cog = harness.bot.get_cog("Dice")
    real = cog.rng

    def use(rng: random.Random) -> None:
        cog.rng = rng

    yield use
    cog.rng = real


async def test_runtime_dice_come_from_the_system_generator(harness: Harness) -> None:
    assert isinstance(harness.bot.get_cog("Dice").rng, random.SystemRandom)


async def test_roll_is_public_and_shows_each_die(harness: Harness, use_rng, alice) -> None:
    use_rng(random.Random(5))
    expected = dice.roll("2D6+1", random.Random(5))
    reply = await harness.slash("roll", user=alice, dice="2d6 + 1")
    assert not reply.ephemeral
    a, b = expected.dice
    assert reply.content == f"🎲 {alice.mention} rolled **2D6+1**: {a} + {b} (+1) = **{expected.total}**"


async def test_roll_defaults_to_one_d6(harness: Harness, use_rng, alice) -> None:
    use_rng(ScriptedRandom([4]))
    reply = await harness.slash("roll", user=alice)
    assert reply.content == f"🎲 {alice.mention} rolled **D6**: **4**"


async def test_d33(harness: Harness, use_rng, alice) -> None:
    use_rng(ScriptedRandom([2, 1]))
    reply = await harness.slash("roll", user=alice, dice="D33")
    assert reply.content.endswith("**D33**: 2 then 1 = **21**")


async def test_a_real_roll_stays_in_range(harness: Harness, alice) -> None:
    reply = await harness.slash("roll", user=alice, dice="3D6")
    total = int(reply.content.rsplit("**", 2)[-2])
    assert 3 <= total <= 18


@pytest.mark.parametrize(
    ("bad", "message"),
    [("fireball", "I can't read the dice 'fireball'. Use D6, 2D6"), ("0D6", "Roll between 1 and 100 dice"),
     ("D1", "between 2 and 1000 sides"), ("2D33", "D33 is rolled on its own"), ("x" * 300, "Use D6, 2D6")],
)
async def test_bad_dice_are_refused_privately(harness: Harness, alice, bad: str, message: str) -> None:
    reply = await harness.slash("roll", user=alice, dice=bad)
    assert reply.ephemeral
    assert [s.kind for s in reply] == ["response"]  # nothing public was posted
    assert message in reply.content


async def test_rolloff_rerolls_ties_and_names_the_winner(harness: Harness, use_rng, alice, bob) -> None:
    use_rng(ScriptedRandom([3, 3, 2, 5]))
    reply = await harness.slash("rolloff", user=alice, opponent=bob)
    assert not reply.ephemeral
    assert reply.content.splitlines() == [
        f"🎲 Roll-off: {alice.mention} vs {bob.mention}",
        "3 – 3: a tie, roll again",
        f"2 – 5: **{bob.mention} wins the roll-off**",
    ]


async def test_rolloff_the_asker_can_win(harness: Harness, use_rng, alice, bob) -> None:
    use_rng(ScriptedRandom([6, 1]))
    reply = await harness.slash("rolloff", user=alice, opponent=bob)
    assert reply.content.splitlines()[-1] == f"6 – 1: **{alice.mention} wins the roll-off**"


async def test_rolloff_needs_another_player(harness: Harness, alice) -> None:
    reply = await harness.slash("rolloff", user=alice, opponent=alice)
    assert reply.ephemeral and "pick your opponent" in reply.content
    robot = harness.user("robot", bot=True)
    reply = await harness.slash("rolloff", user=alice, opponent=robot)
    assert reply.ephemeral and "Bots don't roll off" in reply.content
