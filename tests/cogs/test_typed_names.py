"""Names typed by hand, as well as the autocomplete values: every option that takes a card, mission or pack reads
the display name in any case, with or without punctuation; a typo is refused privately with the closest names and
changes nothing."""

from __future__ import annotations

from tests.cogs.game_table import Table, verbs
from tests.cogs.harness import Harness
from tests.cogs.test_game_buttons import FIXED, refusal, seeded


async def test_new_game_reads_missions_and_packs_as_typed(table: Table, harness: Harness, alice, bob) -> None:
    await table.challenge_only(mission="mission b")
    assert (await table.state()).mission.pool_letter == "B"
    await harness.press(verbs(table.challenge.main.message)["decline"], user=bob)  # the channel is free again
    reply = await harness.slash("game new", user=alice, opponent=bob, size="strike-force", mission="Mision B")
    assert reply.ephemeral and "Did you mean Mission B" in reply.content
    gt = harness.channel("gt")
    await harness.slash("game new", user=alice, channel=gt, opponent=bob, pack="grand tournament 2020",
                        size="incursion")
    assert (await harness.bot.service.get_state(channel_id=gt.id)).pack == "gt-2020"


async def test_card_options_read_the_name_as_typed(table: Table, harness: Harness, catalog) -> None:
    bob = table.second
    await seeded(table, catalog, lambda s: s.active == str(bob.id) and not s.prompts, first_fixed=FIXED)
    state = await table.state()
    card = state.player(str(bob.id)).hand[0]
    name = catalog.secondary(card).name
    version = await table.version()
    typo = name[:2] + name[3:]
    refusal(await table.slash("secondary new-orders", bob, card=typo, strict=False), f"Did you mean {name}")
    refusal(await table.slash("score add", bob, source="secondary", vp=50, card=name.lower(), strict=False),
            f"{name} cannot give 50VP in one entry: its options are")  # the card's own options are listed
    assert await table.version() == version  # nothing changed
    await table.slash("secondary new-orders", bob, card=name.upper().replace("’", "'"))
    assert card in (await table.state()).player(str(bob.id)).discard
    await table.answer_all()
    await table.press("endcmd", bob)
    await table.press("endturn", bob)
    await table.done_scoring(bob)
    state = await table.state()
    assert state.discard_queue == (str(bob.id),)
    card = state.player(str(bob.id)).hand[0]
    await table.slash("secondary discard", bob, card=catalog.secondary(card).name.lower())
    assert card in (await table.state()).player(str(bob.id)).discard
