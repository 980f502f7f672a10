"""Persistent buttons and menus (bot/ui/dynamic.py): each custom id is written once and reads back as the item it
was made from, ids on boards posted by earlier versions still reach their item, every id fits Discord's limits,
and a callback that fails is answered once, privately, through answer_failure."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import pytest_asyncio

from bot.client import DYNAMIC_ITEMS, MissionBot
from bot.decks import fourth_edition, grand_tournament
from bot.engine.fourth_edition.generator import roll_mission
from bot.ui import dynamic
from bot.ui.armies import FullList
from bot.ui.event_lists import ListDisposition
from bot.present.offers import LABELS
from bot.ui.controls import GameButton, GameSelect, view_of
from bot.ui.errors import APOLOGY
from bot.ui.help import HelpMenu
from bot.ui.judges.buttons import CallJudgeButton, JudgeCallButton
from bot.ui.history_view import HistoryPage
from bot.ui.ladder_view import StandingsPage
from bot.ui.open_challenge import ChallengeButton
from bot.ui.sharing import ShareAgree
from bot.ui.teams.board import ChooseButton, LateButton, PickSelect
from bot.ui.table.fourth_edition import ArmiesDeployed, PickMission
from bot.ui.table.gt2020 import PickSecondaries, SelectSecondaries
from bot.ui.tournament.buttons import CheckInButton, CloseCheckInButton, ConfirmResult, DraftButton, NudgeButton
from tests.cogs.conftest import harness_settings
from tests.cogs.harness import Harness
from tests.discord_model import FakeUser, component_problems

BIG = 18_446_744_073_709_551_615  # the largest Discord id (and more than any row id): 20 digits
ALICE, BOB = "111111111111111111", "222222222222222222"
SEED = "d3f0f528f286935883fc7308c6cfe03c"


def samples(big: bool = False) -> list[tuple[discord.ui.DynamicItem, dict[str, Any]]]:
    """One item of every class with the fields its id should carry; `big`: the longest values each field takes."""
    n, a, b = (BIG, str(BIG), str(BIG - 1)) if big else (12, ALICE, BOB)
    verb = max(LABELS, key=len) if big else "endturn"
    level = "omega" if big else None
    rolled = roll_mission(fourth_edition(), "x" * 32 if big else SEED, (a, b), level=level, strategy_ratings=(1, 3))
    return [
        (GameButton(n, 3, verb), {"game": n, "version": 3, "verb": verb}),
        (GameSelect(n, n, "neworders"), {"game": n, "version": n, "verb": "neworders"}),
        (ConfirmResult(n, 2, n, "0123456789ab"), {"tournament": n, "round_number": 2, "table": n,
                                                  "digest": "0123456789ab"}),
        (DraftButton(n, n, n, "repair"), {"tournament": n, "round_number": n, "draw": n, "action": "repair"}),
        (NudgeButton(n, 4), {"tournament": n, "round_number": 4}),
        (CheckInButton(n), {"tournament": n}),
        (CloseCheckInButton(n, "fedcba987654"), {"tournament": n, "digest": "fedcba987654"}),
        (FullList(n), {"list_id": n}),
        (HelpMenu(), {}),
        (ChallengeButton(n, "withdraw"), {"challenge": n, "verb": "withdraw"}),
        (HistoryPage(a, "4th-edition" if big else None, n, "Older"), {"player": a, "pack": "4th-edition" if big
                                                                       else "", "offset": n}),
        (StandingsPage(n, 20, "Lower"), {"ladder": n, "offset": 20}),
        (PickMission(rolled, level, fourth_edition()), {"ratings": "13", "level": level or "-", "a": a, "b": b,
                                                        "seed": rolled.seed}),
        (ArmiesDeployed((a, b), "gamma"), {"level": "gamma", "a": a, "b": b}),
        (SelectSecondaries("s33" if big else "i12", (a, b)), {"code": "s33" if big else "i12", "a": a, "b": b}),
        (PickSecondaries(n, "s21", (a, b), grand_tournament()), {"message_id": n, "code": "s21", "a": a, "b": b}),
        (ShareAgree(n, 1), {"game": n, "asker": 1}),
        (ListDisposition(n, n, [("disruption", "Disruption"), ("reconnaissance", "Reconnaissance")]),
         {"tournament": n, "list_id": n}),
        (CallJudgeButton(n), {"game": n}),
        (JudgeCallButton(n, "resolve"), {"call": n, "action": "resolve"}),
        (ChooseButton(n, n, n, n), {"tournament": n, "round_number": n, "match": n, "step": n}),
        (PickSelect(n, n, n, n, [("Alice · Necrons", a)]), {"tournament": n, "round_number": n, "match": n,
                                                           "step": n}),
        (LateButton(n, 2, n, 7), {"tournament": n, "round_number": 2, "match": n, "step": 7}),
    ]


def items() -> list[tuple[discord.ui.DynamicItem, dict[str, Any]]]:
    return samples() + samples(big=True)


def matching(custom_id: str) -> list[type[discord.ui.DynamicItem]]:
    """The registered classes a press with this id reaches (discord.py matches the whole id)."""
    return [cls for cls in DYNAMIC_ITEMS if cls.__discord_ui_compiled_template__.fullmatch(custom_id)]


def test_every_registered_item_has_its_samples() -> None:
    assert {type(item) for item, _ in samples()} == set(DYNAMIC_ITEMS)
    assert all(issubclass(cls, dynamic.Persistent) for cls in DYNAMIC_ITEMS)


@pytest.mark.parametrize("item, fields", items(), ids=lambda x: x.custom_id if isinstance(x, discord.ui.Item) else "")
async def test_each_custom_id_reads_back_as_the_item_it_was_made_from(item, fields) -> None:
    cls = type(item)
    assert matching(item.custom_id) == [cls]
    match = cls.__discord_ui_compiled_template__.fullmatch(item.custom_id)
    assert cls.custom_ids.read(match) == fields
    assert cls.custom_ids.format(**fields) == item.custom_id
    again = await cls.from_custom_id(None, item.item, match)
    assert (type(again), again.custom_id) == (cls, item.custom_id)


@pytest.mark.parametrize("item, fields", samples(big=True), ids=lambda x: type(x).__name__ if x else "")
async def test_the_longest_ids_fit_discord(item, fields) -> None:
    assert len(item.custom_id) <= 100
    assert component_problems(view_of(item).to_components()) == []


# Ids as the bot has posted them: boards in Discord carry these, so each must still reach its item, field for field.
POSTED = [
    ("mdb:12:3:endturn", GameButton, {"game": 12, "version": 3, "verb": "endturn"}),
    ("mds:12:3:neworders", GameSelect, {"game": 12, "version": 3, "verb": "neworders"}),
    ("mdt:7:2:4:0123456789ab", ConfirmResult, {"tournament": 7, "round_number": 2, "table": 4,
                                               "digest": "0123456789ab"}),
    ("mdtd:7:2:1:publish", DraftButton, {"tournament": 7, "round_number": 2, "draw": 1, "action": "publish"}),
    ("mdtn:7:2", NudgeButton, {"tournament": 7, "round_number": 2}),
    ("mdtk:7", CheckInButton, {"tournament": 7}),
    ("mdtkc:7:0123456789ab", CloseCheckInButton, {"tournament": 7, "digest": "0123456789ab"}),
    ("mdl:5", FullList, {"list_id": 5}),
    ("mdh:menu", HelpMenu, {}),
    ("mdo:9:take", ChallengeButton, {"challenge": 9, "verb": "take"}),
    (f"mdh:{ALICE}::10", HistoryPage, {"player": ALICE, "pack": "", "offset": 10}),
    (f"mdh:{ALICE}:gt-2020:0", HistoryPage, {"player": ALICE, "pack": "gt-2020", "offset": 0}),
    ("mdl:3:20", StandingsPage, {"ladder": 3, "offset": 20}),
    (f"m4p:13:-:{ALICE}:{BOB}:{SEED}", PickMission, {"ratings": "13", "level": "-", "a": ALICE, "b": BOB,
                                                     "seed": SEED}),
    (f"m4d:gamma:{ALICE}:{BOB}", ArmiesDeployed, {"level": "gamma", "a": ALICE, "b": BOB}),
    (f"mgs:i12:{ALICE}:{BOB}", SelectSecondaries, {"code": "i12", "a": ALICE, "b": BOB}),
    (f"mgp:1234:s21:{ALICE}:{BOB}", PickSecondaries, {"message_id": 1234, "code": "s21", "a": ALICE, "b": BOB}),
    ("mdsh:12:0", ShareAgree, {"game": 12, "asker": 0}),
    ("mdld:7:5", ListDisposition, {"tournament": 7, "list_id": 5}),
    ("mdjc:12", CallJudgeButton, {"game": 12}),
    ("mdj:3:claim", JudgeCallButton, {"call": 3, "action": "claim"}),
    ("mdtc:7:2:1:4", ChooseButton, {"tournament": 7, "round_number": 2, "match": 1, "step": 4}),
    ("mdtp:7:2:1:4", PickSelect, {"tournament": 7, "round_number": 2, "match": 1, "step": 4}),
    ("mdtl:7:2:1:4", LateButton, {"tournament": 7, "round_number": 2, "match": 1, "step": 4}),
]


def test_every_item_has_an_id_as_posted() -> None:
    assert {cls for _, cls, _ in POSTED} == set(DYNAMIC_ITEMS)


@pytest.mark.parametrize("custom_id, cls, fields", POSTED, ids=[custom_id for custom_id, _, _ in POSTED])
async def test_an_id_posted_by_earlier_versions_still_reaches_its_item(custom_id: str, cls, fields) -> None:
    assert matching(custom_id) == [cls]
    assert cls.custom_ids.parse(custom_id) == fields
    again = await cls.from_custom_id(None, discord.ui.Button(label="Older"),
                                     cls.__discord_ui_compiled_template__.fullmatch(custom_id))
    assert again.custom_id == custom_id


def test_a_mistake_in_a_declaration_fails_at_import() -> None:
    with pytest.raises(ValueError):
        dynamic.CustomId("mdx:{game}", verb=dynamic.WORD)  # no such field in the id
    with pytest.raises(AttributeError):
        class Undescribed(dynamic.Persistent, discord.ui.DynamicItem[discord.ui.Button],
                          custom_id=dynamic.CustomId("mdx:{game}")):
            pass
    with pytest.raises(KeyError):
        class Misdescribed(dynamic.Persistent, discord.ui.DynamicItem[discord.ui.Button],
                           custom_id=dynamic.CustomId("mdx:{game}")):
            what = "Button {verb} of game {game}"


# --- a failing callback, pressed through a real bot ------------------------------------------------------------


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def h(catalog, tmp_path_factory: pytest.TempPathFactory):
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('dynamic') / 'bot.db'}"
    async with Harness(MissionBot(harness_settings(url), catalog, extensions=())) as harness:
        yield harness


@pytest.fixture
def answered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What each failure answered through answer_failure was described as."""
    whats: list[str] = []
    answer_failure = dynamic.answer_failure

    async def spy(interaction: discord.Interaction, exc: BaseException, what: str) -> None:
        whats.append(what)
        await answer_failure(interaction, exc, what)

    monkeypatch.setattr(dynamic, "answer_failure", spy)
    return whats


@pytest.fixture(scope="module")
def member(h: Harness) -> FakeUser:
    return h.user("member")


async def press(h: Harness, member: FakeUser, item: discord.ui.DynamicItem):
    """Post the item and press it (a menu: its first options) as a member; what the bot did."""
    await h.bot.get_channel(h.default_channel.id).send("A persistent item", view=view_of(item))
    if isinstance(item.item, discord.ui.Select):
        values = [o.value for o in item.item.options][:item.item.min_values]
        return await h.select(item.custom_id, values, user=member, strict=False)
    return await h.press(item.custom_id, user=member, strict=False)


def private_answer(reply) -> str:
    """The one message the press was answered with, checked to be private."""
    shown = [s for s in reply if s.message is not None]
    assert len(shown) == 1 and shown[0].ephemeral, [(s.kind, s.content) for s in shown]
    return shown[0].content


@pytest.mark.asyncio(loop_scope="module")  # on the loop of the module's bot
@pytest.mark.parametrize("item, fields", samples(), ids=lambda x: type(x).__name__ if x else "")
async def test_a_callback_that_crashes_is_answered_once_privately(h: Harness, member: FakeUser, answered,
                                                                    monkeypatch, item, fields) -> None:
    async def crash(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(type(item), "act", crash)
    reply = await press(h, member, item)
    assert private_answer(reply) == APOLOGY
    assert answered == [type(item).what.format(**fields)]
    assert len(reply.errors) == 1 and f"{answered[0]} failed" in reply.errors[0]


@pytest.mark.asyncio(loop_scope="module")
async def test_a_refusal_is_answered_once_privately_in_its_own_words(h: Harness, member: FakeUser,
                                                                      answered) -> None:
    reply = await press(h, member, FullList(404))  # no list 404 is kept: the item raises GameError
    assert private_answer(reply) == "That list is no longer kept."
    assert answered == ["Full list 404"] and reply.errors == []
