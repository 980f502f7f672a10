"""A complete five-round Strike Force game in a Discord channel, with a bot restart in the middle.

Alice plays Tactical Missions, Bob Fixed ones. The seed is found with the pure engine so that Alice goes
first and draws a mandatory When Drawn card (Defend Stronghold or Display of Might) in round 1.
"""

from __future__ import annotations

import io
import json

from PIL import Image

from bot.client import MissionBot
from bot.engine.chapter_approved.actions import parse_action
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.game import replay
from bot.engine.chapter_approved.state import Phase, Source, Status
from bot.present.pictures.drawing import WIDTH
from tests.cogs.conftest import harness_settings
from tests.cogs.game_table import (
    Table, battle_steps, find_seed, fixed_turn, public_text, score_first_card_option, tactical_turn, verbs,
)
from tests.cogs.harness import Harness
from tests.discord_model import DiscordModel

BOB_FIXED = ("cleanse", "no-prisoners")
MANDATORY = ("defend stronghold", "display of might")


async def test_a_complete_game_with_a_restart(catalog: Catalog, tmp_path) -> None:
    settings = harness_settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'flow.db'}")
    model = DiscordModel()
    alice, bob = model.add_user("alice"), model.add_user("bob")
    a_id, b_id = str(alice.id), str(bob.id)
    seed = find_seed(catalog, (a_id, b_id), lambda s: s.active == a_id and s.shuffles > 0 and not s.prompts,
                     steps=battle_steps(a_id, b_id, None, BOB_FIXED), prefix="flow")

    async with Harness(MissionBot(settings, catalog), model) as h:
        table = Table(h, alice, bob)
        await table.start(seed=seed)
        await table.to_battle(first_fixed=None, second_fixed=BOB_FIXED)
        state = await table.state()
        assert state.round == 1 and state.active == a_id and state.player(a_id).mode == "tactical"
        board = public_text(await table.board())
        assert any(f"when drawn: {name} in the first battle round is replaced" in board.lower() for name in MANDATORY)
        assert not set(state.player(a_id).hand) & {"defend-stronghold", "display-of-might"}

        # Round 1: New Orders, a scored card, a discard for 1CP; Bob scores 15 Primary VP.
        cp = state.player(a_id).cp
        await tactical_turn(table, alice, new_orders=True)
        state = await table.state()
        assert state.player(a_id).cp == cp - 1 + 1 + 1  # New Orders, discard, Bob's Command phase
        log = [e.action for e in await h.bot.service.repo.list_actions(table.game_id)]
        assert [x.kind for x in log].count("new_orders") == 1
        assert [x for x in log if x.kind == "discard"][0].cards  # discarded a card for 1CP
        await fixed_turn(table, bob, primary=15)

        # Round 2: Alice trails by 6VP or more, is the Challenger and draws a Challenger card.
        state = await table.state()
        assert (state.round, state.challenger) == (2, a_id)
        card = state.player(a_id).challenger_card
        assert card is not None and "Challenger" in public_text(await table.board())
        await table.answer_all()
        menu = await table.press("challenger", alice)
        await table.press_on(menu, "mission", alice)
        assert (await table.state()).player(a_id).challenger_use == "mission"
        await table.press("undo", alice)
        state = await table.state()
        assert state.player(a_id).challenger_use is None and state.player(a_id).challenger_card == card
        await table.slash("challenger use", alice, **{"as": "stratagem"})
        state = await table.state()
        assert state.player(a_id).challenger_card is None and card in state.challenger_discard
        await tactical_turn(table, alice, discard=False)
        await fixed_turn(table, bob, primary=5)

        assert (await table.state()).round == 3
        board_id = (await table.board_ids())[-1]
        old_buttons = verbs(h.message(board_id))

    # The bot restarts on the same database; the board posted before the restart still works.
    async with Harness(MissionBot(settings, catalog), model) as h:
        table = Table(h, alice, bob)
        table.game_id = 1
        await table.answer_all()
        old_buttons = verbs(h.message(board_id))
        reply = await h.press(old_buttons["endcmd"], user=alice, message_id=board_id)
        await table.settle()
        assert reply.response is not None and (await table.state()).phase == Phase.BATTLE
        assert "endturn" in verbs(h.message(board_id))
        await table.press("endturn", alice)
        await score_first_card_option(table, alice)
        await table.done_scoring(alice)
        if (await table.state()).discard_queue:
            await table.press_discard_keep(alice)
        await fixed_turn(table, bob)
        for _ in (4, 5):
            await tactical_turn(table, alice)
            await fixed_turn(table, bob, primary=4)

        state = await table.state()
        assert state.status == Status.ENDED and state.round == 5
        assert state.result.winner == b_id and state.result.reason == "battle"
        vp = {p: state.total_vp(p) for p in (a_id, b_id)}
        assert state.result.vp == vp

        # The result card: the winner, each round by source, and the seed to check every shuffle.
        result = next(m for m in h.messages() if m["embeds"] and m["embeds"][0]["title"].startswith("Result"))
        card_text = public_text(result)
        assert "**Bob** wins." in card_text and seed in card_text
        sheet = result["embeds"][0]["fields"]
        assert [f["name"] for f in sheet[:2]] == ["Alice", "Bob"]
        assert f"Total {vp[b_id]:>20}" in sheet[1]["value"]
        # ... with the score sheet picture attached and shown in it.
        assert [f["filename"] for f in result["attachments"]] == [f"score-sheet-{table.game_id}.png"]
        assert result["embeds"][0]["image"]["url"] == f"attachment://score-sheet-{table.game_id}.png"
        picture = Image.open(io.BytesIO(h.model.files[int(result["attachments"][0]["id"])]))
        assert picture.format == "PNG" and picture.width == WIDTH
        board = await table.board()
        assert verbs(board) == {} and seed in board["embeds"][0]["footer"]["text"]

        # The log replays to the final state, and the undone action is not in it.
        reply = await table.slash("game log", alice)
        log = json.loads(h.model.files[int(reply.main.message["attachments"][0]["id"])])
        actions = [parse_action(json.dumps(e["action"])) for e in log["actions"]]
        assert replay(catalog, state.setup, actions) == state
        kinds = [a.kind for a in actions]
        assert kinds.count("use_challenger") == 1 and kinds.count("new_orders") == 1
        assert [a.use for a in actions if a.kind == "use_challenger"] == ["stratagem"]  # the undone one is gone
        assert sum(r["secondary"] for r in log["score_sheet"][0]["rounds"]) == sum(
            e.awarded for e in state.vp if e.player == a_id and e.source == Source.SECONDARY)
