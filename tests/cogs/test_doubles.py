"""Doubles: two players a side, through Discord. Either partner plays the side's turn and opens its private menus;
both hear its calls; the other side and watchers are refused privately; the boards, the result card and the score
sheet name all four players."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from typing import Any

import pytest

from bot.engine.chapter_approved.state import Status
from bot.store.community_models import ChallengeStatus
from tests.cogs.game_table import Table, public_text, verbs
from tests.cogs.test_ca_2026_27 import answer_everything
from tests.cogs.harness import Harness
from tests.cogs.test_open_challenges import challenge_buttons, post, press_together, stored
from tests.discord_model import EPHEMERAL, FakeUser, walk_components

MENTION = re.compile(r"<@(\d+)>")


class DoublesTable(Table):
    """Alice and Cy against Bob and Di. Each time a side is asked for, its two players take turns to press."""

    def __init__(self, harness: Harness, first: FakeUser, second: FakeUser, first_partner: FakeUser,
                 second_partner: FakeUser, **kwargs: Any) -> None:
        super().__init__(harness, first, second, **kwargs)
        self.partner = {first.id: first_partner, second.id: second_partner}
        self._turns = itertools.count()
        self.pressed: Counter[str] = Counter()  # who pressed, by name

    async def challenge_only(self, **options: Any) -> Any:
        options.setdefault("partner", self.partner[self.first.id])
        options.setdefault("opponent-partner", self.partner[self.second.id])
        return await super().challenge_only(**options)

    async def accept(self) -> Any:  # the challenged side's second player accepts for it
        message = self.challenge.main.message
        reply = await self.h.press(verbs(message)["accept"], user=self.partner[self.second.id],
                                   message_id=int(message["id"]))
        await self.settle()
        return reply

    def side(self, user: FakeUser) -> tuple[FakeUser, FakeUser]:
        lead = user if user.id in self.partner else next(u for u in (self.first, self.second)
                                                           if self.partner[u.id] == user)
        return lead, self.partner[lead.id]

    def user(self, player_id: str) -> FakeUser:
        lead = self.first if int(player_id) == self.first.id else self.second
        return self.side(lead)[next(self._turns) % 2]

    def other(self, user: FakeUser) -> FakeUser:
        lead = self.side(user)[0]
        return self.user(str((self.second if lead == self.first else self.first).id))

    async def press(self, verb: str, user: FakeUser, *, strict: bool = True) -> Any:
        self.pressed[user.name] += 1
        return await super().press(verb, user, strict=strict)


@pytest.fixture
def four(harness: Harness) -> tuple[FakeUser, ...]:
    return tuple(harness.user(name) for name in ("alice", "bob", "cy", "di"))


@pytest.fixture
def doubles(harness: Harness, four: tuple[FakeUser, ...]) -> DoublesTable:
    alice, bob, cy, di = four
    return DoublesTable(harness, alice, bob, cy, di)


def pinged(sent) -> set[str]:
    """Whom a sent message notifies: users mentioned in its content that its allowed mentions let through."""
    allowed = sent.body.get("allowed_mentions") or {}
    return set(MENTION.findall(sent.body.get("content") or "")) & {str(u) for u in allowed.get("users", [])}


async def play_to_the_end(table: DoublesTable) -> None:
    """Turn after turn, whoever of the side presses: When Drawn questions answered, every discard kept."""
    while (await table.state()).status == Status.BATTLE:
        await answer_everything(table)
        user = await table.active_user()
        await table.press("endcmd", user)
        await table.press("endturn", user)
        await table.done_scoring(user)
        while (state := await table.state()).discard_queue:
            await table.press_discard_keep(table.user(state.discard_queue[0]))


async def test_a_doubles_game_from_challenge_to_result_with_all_four_pressing(doubles: DoublesTable, four) -> None:
    alice, bob, cy, di = four
    challenge = await doubles.challenge_only(mission="A")  # a pool mission: the same every run
    assert pinged(challenge.main) == {str(bob.id), str(cy.id), str(di.id)}  # the challenger needs no ping
    await doubles.accept()  # Di accepts for Bob's side
    state = await doubles.state()
    assert state.setup.names == ("Alice & Cy", "Bob & Di") and state.setup.partners == (str(cy.id), str(di.id))
    board = await doubles.board()
    called = doubles.user(state.sides_rolloff.winner)
    side = {str(u.id) for u in doubles.side(called)}
    assert side <= set(MENTION.findall(board["content"]))  # a side's call names both its players
    await doubles.to_battle(first_fixed=None, second_fixed=None)
    cp = (await doubles.state()).player(str(alice.id)).cp
    await doubles.slash("cp spend", cy, amount=1)  # Cy spends from the side's one pool
    assert (await doubles.state()).player(str(alice.id)).cp == cp - 1
    await play_to_the_end(doubles)
    state = await doubles.state()
    assert state.status == Status.ENDED and set(doubles.pressed) == {"alice", "bob", "cy", "di"}
    card = next(m for m in reversed(doubles.h.messages()) if m["embeds"] and m["embeds"][0]["title"].startswith("Result"))
    names = [f["name"] for f in card["embeds"][0]["fields"]]
    assert any("Alice & Cy" in n for n in names) and any("Bob & Di" in n for n in names)


async def test_either_partner_opens_the_sides_menus_and_its_secret_reaches_the_side_alone(doubles: DoublesTable,
                                                                                        four) -> None:
    alice, bob, cy, di = four
    await doubles.start()
    state = await doubles.state()
    await doubles.press("attacker", doubles.user(state.sides_rolloff.winner))
    fixed = ("cleanse", "assassination")
    await doubles.choose(alice, fixed)  # Alice picks the side's Fixed Missions in secret
    partner = await doubles.press("choose", cy)  # Cy opens the side's menu: the side's choice is there
    assert partner.ephemeral and "Your side's choice so far: Fixed" in partner.content
    theirs = await doubles.press("choose", di)  # the other side sees its own menu, and nothing of Alice's
    assert theirs.ephemeral and "so far" not in theirs.content and "Cleanse" not in theirs.content
    public = " ".join(str(m) for m in doubles.h.messages() if not m["flags"] & EPHEMERAL)
    assert "Cleanse" not in public and "Assassination" not in public


async def test_the_other_side_and_watchers_are_refused_privately(doubles: DoublesTable, four,
                                                                 harness: Harness) -> None:
    alice, bob, cy, di = four
    await doubles.start()
    await doubles.to_battle(first_fixed=None, second_fixed=None)
    state = await doubles.state()
    active = doubles.user(state.active)
    waiting = next(u for u in four if u not in doubles.side(active))
    version = await doubles.version()
    refused = await doubles.press("endcmd", waiting, strict=False)
    assert refused.ephemeral and await doubles.version() == version
    watcher = harness.user("eve")
    refused = await doubles.press("endcmd", watcher, strict=False)
    assert refused.ephemeral and "Only the four players of this game" in refused.content
    assert await doubles.version() == version


@pytest.mark.parametrize(("options", "says"), [
    ({"partner": "cy"}, "A doubles game is four players"),
    ({"opponent-partner": "di"}, "A doubles game is four players"),
    ({"partner": "cy", "opponent-partner": "cy"}, "four different players"),
    ({"partner": "bob", "opponent-partner": "di"}, "four different players"),
    ({"partner": "cy", "opponent-partner": "di", "pack": "gt-2020"}, "Doubles plays the Chapter Approved decks"),
])
async def test_bad_doubles_challenges_are_refused_privately_and_start_nothing(harness: Harness, four, options,
                                                                              says) -> None:
    alice, bob, cy, di = four
    people = {u.name: u for u in four}
    named = {k: people.get(v, v) if k != "pack" else v for k, v in options.items()}
    reply = await harness.slash("game new", user=alice, opponent=bob, size="strike-force", **named)
    assert reply.ephemeral and says in reply.content
    assert [m for m in harness.messages() if not m["flags"] & EPHEMERAL] == []
    assert await harness.bot.service.repo.get_active_game(harness.default_channel.id) is None


async def test_a_bot_partner_is_refused(harness: Harness, four) -> None:
    alice, bob, cy, di = four
    robot = harness.user("robot", bot=True)
    reply = await harness.slash("game new", user=alice, opponent=bob, size="strike-force", partner=robot,
                                **{"opponent-partner": di})
    assert reply.ephemeral and "Bots cannot play" in reply.content


async def test_a_whole_2026_27_doubles_game_the_sides_dispositions_giving_each_primary(doubles: DoublesTable,
                                                                                       four) -> None:
    alice, bob, cy, di = four
    await doubles.challenge_only(pack="ca-2026-27", seed="doubles-2026", size=None)
    await doubles.accept()
    for user, disposition in ((cy, "reconnaissance"), (bob, "disruption")):  # a partner picks for Alice's side
        menu = await doubles.press("disposition", user)
        await doubles.pick(menu, "disposition", [disposition], user)
    state = await doubles.state()
    assert state.status != Status.DISPOSITIONS
    assert state.player(str(alice.id)).disposition == "reconnaissance"
    assert state.player(str(bob.id)).disposition == "disruption"
    assert len(state.mission.primaries) == 2  # each side's Primary from both sides' dispositions
    await doubles.to_battle(first_fixed=None, second_fixed=None)
    await play_to_the_end(doubles)
    assert (await doubles.state()).status == Status.ENDED
    assert set(doubles.pressed) == {"alice", "bob", "cy", "di"}


# --- the open doubles challenge -------------------------------------------------------------------------------

async def test_an_open_doubles_challenge_fills_four_seats_then_starts(harness: Harness, four) -> None:
    alice, bob, cy, di = four
    message = await post(harness, alice, doubles=True, thread=True)
    buttons = challenge_buttons(message)
    assert set(buttons) == {"join", "oppose", "leave", "withdraw"}
    assert "1 of 4 seats taken" in message["content"]
    await harness.press(buttons["oppose"], user=bob)
    sent = await press_together(harness, buttons["join"], [cy, di], int(message["id"]))  # one seat, two presses
    refusals = [s.content for s in sent if s.ephemeral]
    assert len(refusals) == 1 and ("That side is full" in refusals[0] or "at the same moment" in refusals[0])
    message = harness.message(message["id"])
    partner, last = (cy, di) if "Alice & Cy" in public_text(message) else (di, cy)
    assert "3 of 4 seats taken" in message["content"] and f"Alice & {partner.name.title()}" in public_text(message)
    join = next(c for c in walk_components(message["components"]) if c.get("custom_id") == buttons["join"])
    assert join["disabled"]  # Alice's side is full
    await harness.press(buttons["oppose"], user=last)  # the fourth seat: the game starts
    record = await harness.bot.service.repo.get_latest_game(
        next(c for c in harness.model.channels.values() if c.is_thread).id)
    assert record.setup.players == (str(alice.id), str(bob.id))
    assert record.setup.partners == (str(partner.id), str(last.id))
    assert "four seats" in harness.message(message["id"])["content"]
    thread = harness.model.channels[record.channel_id]
    assert harness.model.thread_members[thread.id] >= {u.id for u in four}
    board = next(m for m in reversed(harness.messages(thread)) if m["embeds"])
    assert board is not None


async def test_a_seat_is_left_and_taken_again_and_a_second_seat_is_refused(harness: Harness, four) -> None:
    alice, bob, cy, di = four
    message = await post(harness, alice, doubles=True, partner=cy)
    buttons = challenge_buttons(message)
    assert "2 of 4 seats taken" in message["content"] and "Alice & Cy" in public_text(message)
    await harness.press(buttons["oppose"], user=bob)
    again = await harness.press(buttons["oppose"], user=bob)
    assert again.ephemeral and "You hold a seat already" in again.content
    await harness.press(buttons["leave"], user=bob)
    assert "2 of 4 seats taken" in harness.message(message["id"])["content"]
    nobody = await harness.press(buttons["leave"], user=di)
    assert nobody.ephemeral and "You hold no seat" in nobody.content
    own = await harness.press(buttons["oppose"], user=alice)
    assert own.ephemeral and "your own challenge" in own.content


async def test_an_open_doubles_challenge_expires_saying_how_many_seats_were_taken(harness: Harness, four) -> None:
    alice, bob, cy, di = four
    message = await post(harness, alice, doubles=True)
    buttons = challenge_buttons(message)
    await harness.press(buttons["oppose"], user=bob)
    challenge_id = int(buttons["join"].split(":")[1])
    assert await harness.bot.desk.challenges.expire(challenge_id)
    closed = harness.message(message["id"])
    assert closed["components"] == [] and "2 of its 4 seats were taken" in closed["content"]
    assert (await stored(harness, challenge_id)).status == ChallengeStatus.EXPIRED


async def test_an_open_doubles_challenge_refuses_what_cannot_be_played(harness: Harness, four) -> None:
    alice, bob, cy, di = four
    older = await harness.slash("game new", user=alice, doubles=True, pack="gt-2020", size="strike-force")
    assert older.ephemeral and "Doubles plays the Chapter Approved decks" in older.content
    theirs = await harness.slash("game new", user=alice, size="strike-force", **{"opponent-partner": di})
    assert theirs.ephemeral and "name your `opponent:` too" in theirs.content
    self_partner = await harness.slash("game new", user=alice, size="strike-force", partner=alice)
    assert self_partner.ephemeral and "four different players" in self_partner.content
    assert [m for m in harness.messages() if not m["flags"] & EPHEMERAL] == []


async def test_each_player_sets_their_own_army_and_the_side_is_flagged_never_refused(doubles: DoublesTable,
                                                                                     four) -> None:
    alice, bob, cy, di = four
    await doubles.start()
    await doubles.slash("army set", alice, faction="Necrons", detachment="Awakened Dynasty")
    flagged = await doubles.slash("army set", cy, faction="Necrons", detachment="Awakened Dynasty")
    state = await doubles.state()
    side = state.player(str(alice.id))
    assert side.army is not None and side.partner_army is not None  # Cy's is her own, beside Alice's
    assert "both Necrons" in " ".join(s.content for s in flagged if s.ephemeral)  # one faction: flagged, kept
    board = str(await doubles.board())
    assert board.count("Necrons") >= 2
    shown = await doubles.slash("army show", bob, player=cy)
    assert shown.ephemeral and shown.content.startswith("Cy: Necrons")
