"""Forms (bot/ui/forms.py, GitHub issue 34): every submission of every form is answered. One the bot can no longer
apply (shown against an older version of the game, its question answered meanwhile, its game over, or forgotten as
after a restart) is refused privately in one line and changes nothing, as an outdated board's press is."""

from __future__ import annotations

import copy
from collections import OrderedDict
from typing import Any

import pytest

from bot.engine.chapter_approved.state import PromptKind
from bot.ui import forms
from bot.ui.errors import APOLOGY
from tests.cogs.game_table import Table, verbs
from tests.cogs.harness import Harness, Reply
from tests.cogs.test_game_buttons import one_prompt, seeded
from tests.cogs.test_table_game import GT_PICKS, select_secondaries, to_battle
from tests.discord_model import MODAL, FakeUser, walk_components

CALLBACK = ("POST", "/interactions/{webhook_id}/{webhook_token}/callback")
OUTDATED = "This board is out of date"


def named(form: dict[str, Any], *names: str) -> dict[str, str]:
    """What a player types into a form's text inputs, in order."""
    inputs = [c["custom_id"] for c in walk_components(form["components"]) if c["type"] == 4]
    return dict(zip(inputs, names, strict=False))


def refused(reply: Reply, text: str) -> None:
    """Acknowledged, then one private line saying `text`; nothing public."""
    shown = [s for s in reply if s.message is not None]
    assert [s.content for s in shown if not s.ephemeral] == []
    assert len(shown) == 1 and text in shown[0].content and "\n" not in shown[0].content, [s.content for s in shown]


async def alpha_form(table: Table, catalog) -> tuple[FakeUser, dict[str, Any]]:
    """A game waiting on Marked for Death's Alpha Targets, and their form opened by the player who names them."""
    await seeded(table, catalog, one_prompt(PromptKind.ALPHA_TARGETS))
    naming = table.user((await table.state()).prompts[0].player)
    return naming, await open_units_form(table, naming)


async def open_units_form(table: Table, user: FakeUser) -> dict[str, Any]:
    menu = await table.press("answer", user)
    return (await table.press_on(menu, "units", user)).modal


async def unchanged(table: Table, submit) -> Reply:
    """The reply to `submit()`, checking the game is as it was."""
    before = (await table.version(), await table.state())
    reply = await submit()
    await table.settle()
    assert (await table.version(), await table.state()) == before
    return reply


async def test_a_form_submitted_before_its_opening_is_read_is_answered(table: Table, harness: Harness,
                                                                       catalog) -> None:
    """The cause of issue 34: discord.py holds a modal only once the response showing it has come back, and drops
    a submission it does not hold without a word. A quick player's submission came first on a busy bot."""
    await seeded(table, catalog, one_prompt(PromptKind.ALPHA_TARGETS))
    prompt = (await table.state()).prompts[0]
    naming = table.user(prompt.player)
    callback, submitted = harness.routes[CALLBACK], []

    def submitted_at_once(params: dict[str, str], body: Any, files: list) -> Any:
        answer = callback(params, body, files)
        if body["type"] == MODAL:  # the form is shown: submitted before the bot reads this answer
            payload = harness.model.modal_submit(body["data"]["custom_id"], naming, named(body["data"], "Lictor"))
            submitted.append(payload["token"])
            harness.bot._connection.parse_interaction_create(copy.deepcopy(payload))
        return answer

    harness.route(*CALLBACK, submitted_at_once)
    menu = await table.press("answer", naming)
    await table.press_on(menu, "units", naming)
    await table.settle()
    assert harness.model.interactions[submitted[0]].response_type is not None, "the submission was never answered"
    assert (await table.state()).player(prompt.owner).targets[prompt.card].alpha_units == ("Lictor",)


async def test_a_form_shown_against_an_older_version_is_refused(table: Table, harness: Harness, catalog) -> None:
    naming, older = await alpha_form(table, catalog)
    newer = await open_units_form(table, naming)  # the same form opened twice, as in two windows
    await harness.submit(newer["custom_id"], named(newer, "Carnifex"), user=naming)
    reply = await unchanged(table, lambda: harness.submit(older["custom_id"], named(older, "Lictor"), user=naming))
    refused(reply, OUTDATED)


async def test_a_form_whose_question_was_answered_is_refused(table: Table, harness: Harness, catalog) -> None:
    naming, form = await alpha_form(table, catalog)
    await table.press_on(await table.press("answer", naming), "nounits", naming)  # answered from the menu instead
    reply = await unchanged(table, lambda: harness.submit(form["custom_id"], named(form, "Lictor"), user=naming))
    refused(reply, OUTDATED)


async def test_a_form_of_a_game_that_ended_is_refused(table: Table, harness: Harness, catalog, alice, bob) -> None:
    naming, form = await alpha_form(table, catalog)
    ask = await table.slash("game end", alice)
    await harness.press(verbs(ask.main.message)["endby-first"], user=bob)
    reply = await unchanged(table, lambda: harness.submit(form["custom_id"], named(form, "Lictor"), user=naming))
    refused(reply, OUTDATED)


async def test_a_form_the_bot_no_longer_holds_is_refused(table: Table, harness: Harness, catalog,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    naming, form = await alpha_form(table, catalog)
    monkeypatch.setattr(forms, "_held", OrderedDict())  # as after a restart
    reply = await unchanged(table, lambda: harness.submit(form["custom_id"], named(form, "Lictor"), user=naming))
    refused(reply, forms.EXPIRED)


async def test_the_forms_of_a_table_game_that_ended_are_refused(table: Table, harness: Harness, alice,
                                                                bob) -> None:
    await table.start(pack="gt-2020", seed="gt-forms")
    menu = await table.press("select", bob)
    codex = (await table.pick(menu, "picks", ["linebreaker", "thin-their-ranks", "codex"], bob)).modal
    await select_secondaries(table, alice, GT_PICKS)
    await select_secondaries(table, bob, GT_PICKS)
    await to_battle(table)
    scorer = table.user((await table.state()).active)
    menu = await table.press("score", scorer)
    vp = (await table.pick(menu, "objective", ["engage-on-all-fronts"], scorer)).modal
    ask = await table.slash("game end", alice)
    await harness.press(verbs(ask.main.message)["endby-first"], user=bob)
    for user, form, values in ((scorer, vp, {"vp": "5"}), (bob, codex, {"codex": "Oath of Moment"})):
        reply = await unchanged(table, lambda: harness.submit(form["custom_id"], values, user=user))
        refused(reply, "This game is over.")


async def test_a_bug_behind_a_form_is_apologised_for(table: Table, harness: Harness, catalog,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    naming, form = await alpha_form(table, catalog)

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(harness.bot.desk, "perform", broken)
    reply = await unchanged(table, lambda: harness.submit(form["custom_id"], named(form, "Lictor"), user=naming,
                                                          strict=False))
    refused(reply, APOLOGY)
    assert any("a bug" in error for error in reply.errors)
