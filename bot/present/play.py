"""What a player may do in a game of any pack, below every surface: the controls it offers now, the menu or form a
control opens, and the moves a press, a choice or a form makes. Each family's own are in mission_deck_offers.py and
table_offers.py; the Discord board and its menus (bot/ui) and the Activity (bot/web/activity.py) ask here, and
send what it reads back through the same service."""

from __future__ import annotations

from typing import Any, cast

from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.errors import GameError
from bot.engine.packs import ChapterApprovedRules, Packs, is_mission_deck
from bot.engine.table.rules import TableRules
from bot.present import mission_deck_offers as md
from bot.present import table_offers as tg
from bot.present.offers import ARMY_FORM, Control, FormSpec, Menu

# Verbs whose press does not depend on the board it was drawn on; verbs whose press opens a form first.
UNVERSIONED = md.UNVERSIONED | tg.UNVERSIONED
FORMS = md.FORMS | tg.FORMS
MENUS = md.MENUS | tg.MENUS


def _catalog(packs: Packs, state: Any) -> Catalog:
    """A Mission Deck game's catalog: its pack is a Chapter Approved season's, installed as ChapterApprovedRules."""
    return cast(ChapterApprovedRules, packs.rules(state.pack)).catalog


def _table_rules(packs: Packs, state: Any) -> TableRules:
    """A table game's rules: its pack is an older system's, installed as TableRules."""
    return cast(TableRules, packs.rules(state.pack))


def controls(packs: Packs, state: Any, me: str | None = None) -> list[Control]:
    """The controls the board offers now; for the player `me`, each says whether it opens a menu for them."""
    if is_mission_deck(state):
        return md.controls(_catalog(packs, state), state)
    return tg.controls(_table_rules(packs, state), state, me)


def simple_actions(state: Any) -> dict[str, Any]:
    """The controls of the game's family that make a move at once: verb -> the presser's move."""
    return md.SIMPLE_ACTIONS if is_mission_deck(state) else tg.SIMPLE_ACTIONS


def menu(packs: Packs, state: Any, me: str, verb: str) -> Menu:
    """The menu `verb` opens for the player `me`, drawn from what they may pick now."""
    if is_mission_deck(state):
        if verb not in md.MENUS:
            raise GameError("That control has no menu.")
        return md.menu(_catalog(packs, state), state, me, verb)
    if verb not in tg.MENUS and verb != "deployed":
        raise GameError("That control has no menu.")
    return tg.menu(_table_rules(packs, state), state, me, verb)


def form(packs: Packs, state: Any, me: str, verb: object, values: list[str] | None = None) -> FormSpec | None:
    """What a control's form asks (Set army, Name units), or what a menu choice asks before it is a move."""
    if verb == "army":
        return ARMY_FORM
    if verb == "units" and is_mission_deck(state):
        return md.units_form(state, me)
    if values is not None and not is_mission_deck(state):
        return tg.select_form(_table_rules(packs, state), state, me, str(verb), values)
    return None


def moves(packs: Packs, state: Any, me: str, verb: object, values: list[str] | None = None,
          typed: dict[str, str] | None = None) -> list[tuple[Any, bool]]:
    """The moves a control makes (with what was picked in its menu, `values`, and typed in its form, `typed`),
    each with whether it is checked against the version on screen."""
    if verb == "units" and is_mission_deck(state):
        return [(md.units_answer(state, me, typed or {}), True)]
    if values is not None:
        if is_mission_deck(state):
            try:
                return [(md.select_action(me, str(verb), values), verb not in UNVERSIONED)]
            except (ValueError, KeyError):  # a value no menu offers
                raise GameError("That choice is not on the menu.") from None
        return [(tg.select_action(me, str(verb), values, typed), verb in ("mission", "outcome"))]
    if not is_mission_deck(state) and verb in tg.DEPLOYING:
        found = tg.deploy_moves(_table_rules(packs, state), state, me, str(verb))
        if found is None:
            raise GameError(tg.READY_QUESTION)
        return [(move, verb == "deployed") for move in found]  # the Battle Ready answer holds however it moved
    actions = simple_actions(state)
    if verb in actions:
        return [(actions[str(verb)](me, state), verb not in UNVERSIONED)]
    raise GameError("That control is not available here.")
