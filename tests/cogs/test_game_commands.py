"""The /game, /secondary, /score, /cp and /challenger commands, driven through a real MissionBot."""

from __future__ import annotations

import hashlib
import io
import json

import discord
import pytest
from PIL import Image

from bot.engine.chapter_approved.state import Source, Status
from bot.services.games import GameService, NoGame
from bot.store.models import GameStatus
from bot.present.pictures.drawing import WIDTH
from tests.cogs.game_table import Table, battle_steps, find_seed, public_text, verbs
from tests.cogs.harness import Harness


CHANNEL = 1_111_111_111_111_111_111


# --- /game new: the challenge -------------------------------------------------------------------

async def test_new_posts_a_public_challenge_with_the_briefing_and_the_map(table: Table, harness: Harness, bob) -> None:
    reply = await table.challenge_only(seed=None)
    assert not reply.ephemeral
    assert bob.mention in reply.content and "challenges you" in reply.content
    (summary,) = reply.embeds  # one embed that reads at a glance; the card texts are a /card away
    state = await table.state()
    assert summary["image"]["url"] == "attachment://deployment.png"
    assert [a["filename"] for a in reply.main.message["attachments"]] == ["deployment.png"]
    png = harness.model.files[int(reply.main.message["attachments"][0]["id"])]
    assert png.startswith(b"\x89PNG")
    assert harness.bot.catalog.deployment(state.mission.deployment).name in summary["fields"][0]["name"]
    primary = harness.bot.catalog.primary(state.mission.primary)
    lines = next(f["value"] for f in summary["fields"] if f["name"].lower() == f"primary: {primary.name.lower()}")
    assert len(lines.splitlines()) == len(primary.scoring)  # each scoring line as one line
    assert f"/card {primary.name.lower()}" in summary["footer"]["text"].lower()
    assert sorted(verbs(reply.main.message)) == ["accept", "decline"]
    # The bot's seed stays secret; its hash is shown.
    assert state.setup.seed not in public_text(reply.main.message) and state.setup.seed_fixed_by is None
    digest = hashlib.sha256(state.setup.seed.encode()).hexdigest()
    assert f"`{digest[:16]}`" in summary["description"] and digest not in public_text(reply.main.message)
    assert "Replay" not in public_text(reply.main.message)


async def test_only_the_challenged_player_accepts(table: Table, harness: Harness, alice, bob, carol) -> None:
    challenge = await table.challenge_only()
    accept = verbs(challenge.main.message)["accept"]
    for user, says in ((carol, "not for you"), (alice, "Waiting for your opponent")):
        reply = await harness.press(accept, user=user)
        assert reply.ephemeral and says in reply.content
        assert await table.board_ids() == []
    reply = await harness.press(accept, user=bob)
    await table.settle()
    board = await table.board()
    state = await table.state()
    assert state.mission.primary == "hidden-supplies"  # this seed's mission: its corner is still to record
    assert not board["pinned"] and sorted(verbs(board)) == ["army", "attacker", "corner", "defender", "ready"]
    assert not [s for s in reply if s.kind in ("message", "followup") and s.message["id"] != board["id"]]
    # The challenge keeps its briefing and map but loses its buttons and its question: it says who accepted.
    kept = harness.message(challenge.main.message["id"])
    assert verbs(kept) == {} and kept["embeds"] == challenge.embeds and kept["attachments"]
    assert kept["content"].endswith("\n✅ Bob accepted.") and "Accept?" not in kept["content"]
    assert len(await table.board_ids()) == 1


async def test_a_declined_challenge_frees_the_channel(table: Table, harness: Harness, alice, bob) -> None:
    challenge = await table.challenge_only()
    await harness.press(verbs(challenge.main.message)["decline"], user=bob)
    kept = harness.message(challenge.main.message["id"])
    assert kept["content"].endswith("\n❌ Bob called the game off.") and verbs(kept) == {}
    assert (await harness.bot.service.get_state(game_id=table.game_id)).status == GameStatus.ABANDONED
    assert await table.board_ids() == []
    again = await table.challenge_only()
    assert not again.ephemeral and table.game_id == 2


async def test_an_old_challenge_never_ends_a_newer_game(table: Table, harness: Harness, alice, bob) -> None:
    old = await table.challenge_only()
    ask = await table.slash("game end", alice)
    await harness.press(verbs(ask.main.message)["endby-first"], user=bob)
    await table.challenge_only()  # game 2 in the same channel
    for verb in ("decline", "accept"):
        reply = await harness.press(verbs(old.main.message)[verb], user=bob, message_id=int(old.main.message["id"]))
        assert reply.ephemeral and "This game is over" in reply.content
    assert (await table.state()).status == Status.SIDES and table.game_id == 2


async def test_new_refusals_are_private_and_change_nothing(table: Table, harness: Harness, alice, bob) -> None:
    robot = harness.user("robot", bot=True)
    reply = await harness.slash("game new", user=alice, size="strike-force", opponent=robot)
    assert reply.ephemeral and "Bots cannot play" in reply.content
    reply = await harness.slash("game new", user=alice, size="strike-force", opponent=alice)
    assert reply.ephemeral and "against yourself" in reply.content
    reply = await harness.slash("game new", user=alice, size="incursion", opponent=bob, mission="A")
    assert reply.ephemeral and "Strike Force" in reply.content
    assert await harness.bot.service.repo.get_latest_game(harness.default_channel.id) is None
    await table.challenge_only()
    reply = await harness.slash("game new", user=bob, size="strike-force", opponent=alice)
    assert reply.ephemeral and "already has a game" in reply.content


async def test_a_pool_mission_shows_its_letter_and_layouts(table: Table, harness: Harness) -> None:
    reply = await table.challenge_only(mission="C")
    state = await table.state()
    assert state.mission.pool_letter == "C"
    assert "Mission C" in reply.embeds[0]["title"]
    assert any(f["name"].startswith("Terrain layouts") for f in reply.embeds[0]["fields"])


@pytest.mark.parametrize(("size", "twist"), [("incursion", True), ("asymmetric-war", False), ("strike-force", True)])
async def test_every_size_briefs_and_boards(table: Table, harness: Harness, size: str, twist: bool) -> None:
    reply = await table.start(size=size, twist=twist)
    state = await table.state()
    challenge = table.challenge
    assert len(challenge.embeds) == 1 and any(f["name"].startswith("Twist") for f in challenge.embeds[0]["fields"]) == twist
    board = public_text(await table.board())
    if twist:
        assert harness.bot.catalog.twist(state.mission.twist).name.lower() in board.lower()
    assert size.replace("-", " ").title() in board and reply.response is not None


async def test_a_deleted_board_is_posted_again_by_status(table: Table, harness: Harness, alice) -> None:
    await table.start()
    (first,) = await table.board_ids()
    harness.model.delete_message(harness.default_channel.id, first)
    await table.slash("game status", alice)  # retiring the lost board fails quietly
    (second,) = await table.board_ids()
    state = await table.state()
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    assert sorted(verbs(harness.message(second))) == ["army", "choose", "corner", "ready", "undo"]


# --- /game status, end, concede, log --------------------------------------------------------------

async def test_status_brings_the_board_to_the_bottom(table: Table, harness: Harness, alice, bob) -> None:
    reply = await harness.slash("game status", user=alice)
    assert reply.ephemeral and "no game" in reply.content.lower()
    await table.challenge_only()
    reply = await harness.slash("game status", user=alice)
    assert reply.ephemeral and "waiting for the challenged player" in reply.content
    await table.accept()
    (first,) = await table.board_ids()
    for _ in range(2):
        reply = await table.slash("game status", alice)
        assert not [s for s in reply if s.kind == "followup"]  # the board at the bottom is the answer
    (newest,) = await table.board_ids()
    assert harness.pins() == [] and first not in harness.model.messages  # nothing pinned; the old board is gone
    assert int(harness.messages()[-1]["id"]) == newest
    state = await table.state()
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    assert sorted(verbs(harness.message(newest))) == ["army", "choose", "corner", "ready", "undo"]


async def test_a_moderator_ends_the_game_at_once(table: Table, harness: Harness, carol) -> None:
    await table.start()
    moderator = harness.user("mod", permissions=discord.Permissions(manage_channels=True,
                                                                    use_application_commands=True).value)
    reply = await table.slash("game end", carol)
    assert reply.ephemeral and "Manage Channels" in reply.content
    assert (await table.state()).status == Status.SIDES
    reply = await table.slash("game end", moderator)
    assert (await table.state()).status == Status.ABANDONED
    result = [s for s in reply if s.embeds and s.embeds[0]["title"].startswith("Result")]
    assert result and not result[0].ephemeral
    board = await table.board()
    assert verbs(board) == {} and "abandoned" in board["embeds"][0]["description"]


async def test_both_players_agree_to_end(table: Table, harness: Harness, alice, bob, carol) -> None:
    await table.start()
    ask = await table.slash("game end", alice)
    assert bob.mention in ask.content and not ask.ephemeral
    agree = verbs(ask.main.message)["endby-first"]
    for user, says in ((alice, "opponent has to agree"), (carol, "Only the two players")):
        reply = await harness.press(agree, user=user)
        assert reply.ephemeral and says in reply.content
        assert (await table.state()).status == Status.SIDES
    reply = await harness.press(agree, user=bob)
    await table.settle()
    assert (await table.state()).status == Status.ABANDONED
    assert not [s for s in reply if s.ephemeral]  # the board and the result card say it
    assert int(ask.main.message["id"]) not in harness.model.messages  # the answered request is gone
    # The channel is free again.
    assert not (await harness.slash("game new", user=bob, size="incursion", opponent=alice)).ephemeral


async def test_a_request_to_abandon_closes_when_the_game_ends_another_way(table: Table, harness: Harness, alice,
                                                                           bob) -> None:
    """/game end asks the opponent; if the game ends otherwise (a concession), the request is deleted, so the
    channel keeps no live button that could only be refused."""
    await table.start()
    await table.to_battle()
    ask = await table.slash("game end", alice)
    await table.slash("game concede", bob)
    assert (await table.state()).status == Status.ENDED
    assert int(ask.main.message["id"]) not in harness.model.messages


async def test_concede_before_and_during_the_battle(table: Table, harness: Harness, alice, bob) -> None:
    await table.start()
    reply = await table.slash("game concede", alice)
    assert reply.ephemeral and "/game end" in reply.content
    await table.to_battle()
    reply = await table.slash("game concede", alice)
    state = await table.state()
    assert state.status == Status.ENDED and state.result.winner == str(bob.id)
    assert any(s.embeds and s.embeds[0]["title"].startswith("Result") for s in reply)
    assert not [s for s in reply if s.kind == "followup"]  # no private echo: the result card says it
    board = await table.board()
    assert "wins by concession" in board["embeds"][0]["description"]
    assert state.setup.seed in board["embeds"][0]["footer"]["text"]  # the seed is revealed at the end


async def test_log_during_and_after_the_game(table: Table, harness: Harness, alice, bob) -> None:
    reply = await harness.slash("game log", user=alice)
    assert reply.ephemeral and "No game" in reply.content
    await table.start(seed=None)
    await table.to_battle(first_fixed=("cleanse", "no-prisoners"))
    seed = (await table.state()).setup.seed
    reply = await table.slash("game log", bob)
    assert reply.ephemeral  # a player's own look, unless they post it
    attachment = reply.main.message["attachments"][0]
    assert attachment["filename"] == f"game-{table.game_id}.json"
    log = json.loads(harness.model.files[int(attachment["id"])])
    assert log["seed"] is None and seed not in json.dumps(log)
    assert [e["action"]["kind"] for e in log["actions"]] == ["choose_side", "choose_secondaries",
                                                              "choose_secondaries", "deployment_done",
                                                              "deployment_done"]
    assert "Alice" in reply.content and "Rnd" in reply.content and log["seed_hash"] in reply.content
    await table.slash("game concede", bob)
    reply = await table.slash("game log", alice, public=True)
    assert not reply.ephemeral
    log = json.loads(harness.model.files[int(reply.main.message["attachments"][0]["id"])])
    assert log["seed"] == seed and log["status"] == "ended"
    assert log["actions"][-1]["action"]["kind"] == "concede"


async def test_sheet_posts_the_picture_during_and_after_the_game(table: Table, harness: Harness, alice,
                                                                 bob) -> None:
    reply = await harness.slash("game sheet", user=alice)
    assert reply.ephemeral and "No game" in reply.content
    await table.start(seed=None)
    await table.to_battle()
    seed = (await table.state()).setup.seed
    for user in (bob, alice):
        reply = await table.slash("game sheet", user)
        assert not reply.ephemeral and seed not in reply.content
        attachment = reply.main.message["attachments"][0]
        assert attachment["filename"] == f"score-sheet-{table.game_id}.png"
        picture = Image.open(io.BytesIO(harness.model.files[int(attachment["id"])]))
        assert picture.format == "PNG" and picture.width == WIDTH
    await table.slash("game concede", bob)
    reply = await table.slash("game sheet", alice)
    assert reply.main.message["attachments"][0]["filename"] == f"score-sheet-{table.game_id}.png"


async def test_undo_command_and_its_refusals(table: Table, harness: Harness, alice, bob, carol) -> None:
    await table.start()
    reply = await table.slash("game undo", alice)
    assert reply.ephemeral and "nothing to undo" in reply.content
    state = await table.state()
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    reply = await table.slash("game undo", carol)
    assert reply.ephemeral and "Only the two players" in reply.content
    reply = await table.slash("game undo", alice)
    thinking = int(reply.response.message["id"])
    assert not [s for s in reply if s.kind == "followup"] and thinking not in harness.model.messages  # the board says it
    assert (await table.state()).status == Status.SIDES
    assert sorted(await table.board_verbs()) == ["army", "attacker", "corner", "defender", "ready"]


# --- in-game commands -------------------------------------------------------------------------------

async def test_secondary_choose_command_opens_the_private_menu(table: Table, harness: Harness, alice, carol) -> None:
    await table.start()
    state = await table.state()
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    reply = await table.slash("secondary choose", carol)
    assert reply.ephemeral and "Only the two players" in reply.content
    reply = await table.slash("secondary choose", alice)
    assert reply.ephemeral and sorted(verbs(reply.main.message)) == ["fixed", "tactical"]
    await table.pick(reply, "fixed", ["cleanse", "no-prisoners"], alice)
    assert (await table.state()).player(str(alice.id)).choice.fixed_cards == ("cleanse", "no-prisoners")


async def test_score_add_and_cp_commands(table: Table, harness: Harness, alice, bob) -> None:
    await table.start()
    reply = await table.slash("score add", alice, source="primary", vp=5)
    assert reply.ephemeral and "has not started" in reply.content
    await table.to_battle()
    active = await table.active_user()
    me = str(active.id)
    reply = await table.slash("score add", active, source="primary", vp=5)
    assert [s.kind for s in reply if s.kind in ("followup", "delete")] == ["delete"]  # the board shows it
    state = await table.state()
    assert [(e.source, e.awarded) for e in state.vp if e.player == me] == [(Source.PRIMARY, 5)]
    not_mine = next(c.id for c in harness.bot.catalog.secondaries if c.id not in state.player(me).hand)
    reply = await table.slash("score add", active, source="secondary", vp=3, card=not_mine)
    assert reply.ephemeral and "not one of your active Secondary Missions" in reply.content
    assert (await table.state()).vp == state.vp

    cp = state.player(me).cp
    reply = await table.slash("cp spend", active, amount=cp + 1)
    assert reply.ephemeral and f"You have {cp}CP" in reply.content
    await table.slash("cp spend", active, amount=1, reason="Grenade")
    assert (await table.state()).player(me).cp == cp - 1
    await table.slash("cp gain", active, amount=1, reason="a rule")
    assert (await table.state()).player(me).cp == cp
    reply = await table.slash("cp gain", active, amount=1, reason="again")
    assert reply.ephemeral and "at most 1CP per battle round" in reply.content
    assert (await table.state()).player(me).cp == cp
    reply = await table.slash("challenger use", active, **{"as": "stratagem"})
    assert reply.ephemeral and "no Challenger card" in reply.content


async def test_new_orders_and_discard_commands(table: Table, harness: Harness, alice, bob, catalog) -> None:
    a_id, b_id = str(alice.id), str(bob.id)
    seed = find_seed(catalog, (a_id, b_id),
                     lambda s: s.active == b_id and not s.prompts and "cleanse" not in s.player(b_id).hand,
                     steps=battle_steps(a_id, b_id, ("cleanse", "assassination"), None))
    await table.start(seed=seed)
    await table.to_battle(first_fixed=("cleanse", "assassination"), second_fixed=None)
    state = await table.state()
    hand = state.player(b_id).hand
    reply = await table.slash("secondary new-orders", alice, card="cleanse")
    assert reply.ephemeral and "only they can use New Orders" in reply.content
    reply = await table.slash("secondary new-orders", bob, card="cleanse")
    assert reply.ephemeral and "not one of your active Secondary Missions" in reply.content
    assert (await table.state()) == state
    await table.slash("secondary new-orders", bob, card=hand[1])
    state = await table.state()
    assert hand[1] in state.player(b_id).discard and len(state.player(b_id).hand) == 2
    await table.answer_all()
    await table.press("endcmd", bob)
    reply = await table.slash("secondary discard", bob, card=hand[0])
    assert reply.ephemeral and "only in the end-of-turn discards" in reply.content
    await table.press("endturn", bob)
    await table.done_scoring(bob)
    keep = (await table.state()).player(b_id).hand
    reply = await table.slash("secondary discard", alice, card="cleanse")
    assert reply.ephemeral and "no end-of-turn discard" in reply.content
    reply = await table.slash("secondary discard", bob, card=keep[0], **{"second-card": keep[0]})
    assert reply.ephemeral and "Name each card once" in reply.content
    await table.slash("secondary discard", bob, card=keep[0], **{"second-card": keep[1]})
    state = await table.state()
    assert set(keep) <= set(state.player(b_id).discard) and state.active == a_id


async def test_card_autocomplete_offers_only_my_own_active_cards(table: Table, harness: Harness, alice, bob) -> None:
    await table.start()
    assert await harness.autocomplete("secondary new-orders", "card", "", user=alice) == []
    await table.to_battle(first_fixed=("cleanse", "no-prisoners"), second_fixed=None)
    state = await table.state()
    mine = await harness.autocomplete("score add", "card", "", user=alice, source="secondary", vp=1)
    assert [c["value"] for c in mine] == ["cleanse", "no-prisoners"]
    assert [c["value"] for c in await harness.autocomplete("score add", "card", "pris", user=alice,
                                                           source="secondary", vp=1)] == ["no-prisoners"]
    bobs = await harness.autocomplete("secondary discard", "card", "", user=bob)
    assert [c["value"] for c in bobs] == list(state.player(str(bob.id)).hand)
    assert not set(c["value"] for c in bobs) & {"cleanse", "no-prisoners"} - set(state.player(str(bob.id)).hand)
    carol = harness.user("carol")
    assert await harness.autocomplete("secondary discard", "card", "", user=carol) == []


# --- GameService.latest_game ----------------------------------------------------------------------

async def test_latest_game_is_the_newest_of_the_channel_whatever_its_status(catalog, tmp_path) -> None:
    from bot.engine.chapter_approved import actions as a
    from bot.engine.chapter_approved.state import GameSetup
    from bot.store.db import make_engine, make_sessionmaker, upgrade_database

    url = f"sqlite+aiosqlite:///{tmp_path / 'latest.db'}"
    await upgrade_database(url)
    engine = make_engine(url)
    try:
        service = GameService(catalog, make_sessionmaker(engine))
        with pytest.raises(NoGame):
            await service.latest_game(CHANNEL)
        setup = GameSetup(size="incursion", players=("1", "2"), names=("A", "B"), seed="x")
        first = await service.start_game(None, CHANNEL, setup)
        await service.start_game(None, CHANNEL + 1, setup)  # another channel's game is not ours
        assert (await service.latest_game(CHANNEL)).id == first.game_id
        await service.act(a.Abandon(actor="1"), channel_id=CHANNEL)
        ended = await service.latest_game(CHANNEL)
        assert (ended.id, ended.status) == (first.game_id, GameStatus.ABANDONED)
        second = await service.start_game(None, CHANNEL, setup)
        assert (await service.latest_game(CHANNEL)).id == second.game_id
    finally:
        await engine.dispose()


async def test_a_thread_refused_for_lack_of_permission_is_said(harness: Harness, alice, bob) -> None:
    no_pins = harness.channel("no-pins", denied=discord.Permissions(manage_messages=True, pin_messages=True).value)
    table = Table(harness, alice, bob, channel=no_pins)
    await table.start()  # nothing is pinned, so Manage Messages is not needed
    assert len(await table.board_ids()) == 1 and not any("/setup check" in m["content"]
                                                         for m in harness.messages(no_pins))
    no_threads = harness.channel("no-threads", denied=discord.Permissions(create_public_threads=True).value)
    reply = await harness.slash("game new", user=alice, channel=no_threads, opponent=bob, size="incursion",
                                thread=True)
    assert reply.ephemeral and "Create Public Threads" in reply.content
    assert await harness.bot.service.repo.get_active_game(no_threads.id) is None
