"""A game table for the game cog tests: two players, one board, and short ways to press its buttons.

Everything goes through the interaction harness (real MissionBot, real discord.py code paths, real
SQLite); this module only names the steps a player takes and finds the board among the messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.game import apply, new_game
from bot.engine.chapter_approved.state import GameSetup, GameState
from tests.cogs.harness import Harness, Reply
from tests.discord_model import FakeChannel, FakeUser, Sent, walk_components

CUSTOM_ID = re.compile(r"md[bs]:(?P<game>\d+):(?P<version>\d+):(?P<verb>[a-z-]+)$")


def verbs(message: dict[str, Any]) -> dict[str, str]:
    """verb -> custom id of every game button or menu on a message."""
    found = {}
    for component in walk_components(message.get("components") or []):
        match = CUSTOM_ID.match(component.get("custom_id", ""))
        if match:
            found[match["verb"]] = component["custom_id"]
    return found


def menu_values(reply: Reply) -> list[str]:
    """The values offered by the select menus of a reply's message."""
    return [o["value"] for c in walk_components(reply.main.components) if c["type"] == 3 for o in c["options"]]


def public_text(message: dict[str, Any]) -> str:
    """All the text a message shows: content, embeds (every field) and component labels."""
    parts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or "",
                  (embed.get("footer") or {}).get("text") or ""]
        for field in embed.get("fields") or []:
            parts += [field["name"], field["value"]]
    for component in walk_components(message.get("components") or []):
        parts.append(component.get("label") or "")
        parts += [o["label"] for o in component.get("options", [])]
    return "\n".join(parts)


def said(reply: Reply, text: str) -> Sent:
    """The message of `reply` whose content contains `text`."""
    for sent in reply:
        if sent.message is not None and text in sent.content:
            return sent
    raise AssertionError(f"the bot did not say {text!r}; it said {[s.content for s in reply if s.content]}")


class Table:
    def __init__(self, harness: Harness, first: FakeUser, second: FakeUser, *,
                 channel: FakeChannel | None = None) -> None:
        self.h = harness
        self.first, self.second = first, second
        self.channel = channel  # where the players type their commands (None: the harness's default channel)
        self.game_id: int | None = None
        self.challenge: Reply | None = None

    # --- setting up -------------------------------------------------------------------------

    async def challenge_only(self, **options: Any) -> Reply:
        options.setdefault("size", "strike-force")
        options.setdefault("seed", "table")  # tests replay the same shuffles every run; None: the bot's seed
        options = {name: value for name, value in options.items() if value is not None}
        self.challenge = await self.h.slash("game new", user=self.first, channel=self.channel, opponent=self.second,
                                            **options)
        self.game_id = int(CUSTOM_ID.match(self.challenge.custom_ids[0])["game"])
        return self.challenge

    async def start(self, **options: Any) -> Reply:
        """/game new by the first player, accepted by the second: the board is up."""
        await self.challenge_only(**options)
        return await self.accept()

    async def accept(self) -> Reply:
        reply = await self.h.press(verbs(self.challenge.main.message)["accept"], user=self.second,
                                   message_id=int(self.challenge.main.message["id"]))
        await self.settle()
        return reply

    async def to_battle(self, *, first_fixed: tuple[str, str] | None = ("cleanse", "assassination"),
                        second_fixed: tuple[str, str] | None = None) -> None:
        """Sides (the roll-off winner takes Attacker), the secret choices (None: Tactical), deployment."""
        state = await self.state()
        await self.press("attacker", self.user(state.sides_rolloff.winner))
        for user, fixed in ((self.first, first_fixed), (self.second, second_fixed)):
            await self.choose(user, fixed)
        await self.deploy()

    async def deploy(self) -> None:
        """Both players press Deployment done, the one who deploys first first."""
        first = self.user((await self.state()).deploys_first)
        await self.press("deployed", first)
        await self.press("deployed", self.other(first))

    async def choose(self, user: FakeUser, fixed: tuple[str, str] | None) -> Reply:
        menu = await self.press("choose", user)
        if fixed is None:
            return await self.press_on(menu, "tactical", user)
        return await self.pick(menu, "fixed", list(fixed), user)

    # --- looking ----------------------------------------------------------------------------

    async def state(self) -> GameState:
        return (await self.h.bot.service.get_state(game_id=self.game_id)).state

    async def version(self) -> int:
        return (await self.h.bot.service.get_state(game_id=self.game_id)).version

    async def board_ids(self) -> list[int]:
        return [b.message_id for b in await self.h.bot.service.repo.board_messages(self.game_id)]

    async def board(self) -> dict[str, Any]:
        ids = await self.board_ids()
        assert ids, "no board was posted"
        return self.h.message(ids[-1])

    async def board_verbs(self) -> dict[str, str]:
        return verbs(await self.board())

    def user(self, player_id: str) -> FakeUser:
        return self.first if int(player_id) == self.first.id else self.second

    def other(self, user: FakeUser) -> FakeUser:
        return self.second if user == self.first else self.first

    async def active_user(self) -> FakeUser:
        return self.user((await self.state()).active)

    # --- acting -----------------------------------------------------------------------------

    async def settle(self) -> None:
        await self.h.bot.desk.idle()

    async def press(self, verb: str, user: FakeUser, *, strict: bool = True) -> Reply:
        """Press a button on the board as it stands now."""
        board = await self.board()
        ids = verbs(board)
        assert verb in ids, f"the board offers {sorted(ids)}, not {verb!r}"
        reply = await self.h.press(ids[verb], user=user, message_id=int(board["id"]), strict=strict)
        await self.settle()
        return reply

    async def press_on(self, reply: Reply, verb: str, user: FakeUser, *, strict: bool = True) -> Reply:
        """Press a button on a message the bot sent in `reply` (a private menu, a notice)."""
        message = _holding(reply, verb)
        pressed = await self.h.press(verbs(message)[verb], user=user, message_id=int(message["id"]), strict=strict)
        await self.settle()
        return pressed

    async def pick(self, reply: Reply, verb: str, values: list[str], user: FakeUser, *, strict: bool = True) -> Reply:
        """Pick values in a menu the bot sent in `reply`."""
        message = _holding(reply, verb)
        picked = await self.h.select(verbs(message)[verb], values, user=user, message_id=int(message["id"]),
                                     strict=strict)
        await self.settle()
        return picked

    async def slash(self, command: str, user: FakeUser, *, strict: bool = True, **options: Any) -> Reply:
        reply = await self.h.slash(command, user=user, channel=self.channel, strict=strict, **options)
        await self.settle()
        return reply

    async def answer_notice(self, user: FakeUser) -> Reply:
        """Open the private answer menu from the board's Answer button."""
        return await self.press("answer", user)

    async def answer_all(self) -> None:
        """Answer every open When Drawn question the plain way: no, no units, the first objective."""
        state = await self.state()
        while state.prompts:
            user = self.user(state.prompts[0].player)
            menu = await self.press("answer", user)
            offered = verbs(menu.main.message)
            for verb in ("no", "nounits", "nogamma"):
                if verb in offered:
                    await self.press_on(menu, verb, user)
                    break
            else:
                await self.pick(menu, "objective", menu_values(menu)[:1], user)
            state = await self.state()

    async def end_turn_plain(self) -> None:
        """Take the active player's turn to its end with no scoring or discards."""
        await self.answer_all()
        user = await self.active_user()
        await self.press("endcmd", user)
        await self.press("endturn", user)
        await self.done_scoring(user)
        state = await self.state()
        while state.discard_queue:
            await self.press_discard_keep(self.user(state.discard_queue[0]))
            state = await self.state()

    async def done_scoring(self, user: FakeUser) -> None:
        """`user` presses Done scoring, then their opponent does: the end-of-turn scoring window closes."""
        await self.press("done", user)
        await self.press("done", self.other(user))

    async def press_discard_keep(self, user: FakeUser) -> Reply:
        """Keep every card: the board's own Keep all."""
        return await self.press("keep", user)


# --- whole turns, as the complete-game tests play them --------------------------------------------

async def score_first_card_option(table: Table, user: FakeUser) -> str | None:
    """At the end of the turn, score the first Secondary option the Score menu offers; its card id."""
    menu = await table.press("score", user)
    if not menu.main.components:
        return None
    card = next((v for v in menu_values(menu) if v.startswith("secondary|")), None)
    if card is not None:
        await table.pick(menu, "score", [card], user)
    return card.split("|")[1] if card else None


async def tactical_turn(table: Table, alice: FakeUser, *, new_orders: bool = False, discard: bool = True) -> None:
    """A Tactical player's turn: maybe New Orders, score a card, then discard one card (1CP) or keep."""
    await table.answer_all()
    if new_orders:
        menu = await table.press("neworders", alice)
        await table.pick(menu, "neworders", [menu_values(menu)[0]], alice)
        await table.answer_all()
    await table.press("endcmd", alice)
    await table.press("endturn", alice)
    await score_first_card_option(table, alice)
    await table.done_scoring(alice)
    state = await table.state()
    if state.discard_queue:
        if discard:
            menu = await table.press("discard", alice)
            await table.pick(menu, "discard", [menu_values(menu)[0]], alice)
        else:
            await table.press_discard_keep(alice)


async def fixed_turn(table: Table, bob: FakeUser, *, primary: int = 0) -> None:
    """A Fixed player's turn: maybe Primary VP by /score add, a card option; the opponent keeps their cards."""
    await table.answer_all()
    await table.press("endcmd", bob)
    if primary:
        await table.slash("score add", bob, source="primary", vp=primary)
    await table.press("endturn", bob)
    await score_first_card_option(table, bob)
    await table.done_scoring(bob)
    state = await table.state()
    if state.discard_queue:  # Alice may discard in Bob's turn too (no CP for it)
        await table.press_discard_keep(table.user(state.discard_queue[0]))


def _holding(reply: Reply, verb: str) -> dict[str, Any]:
    for sent in reversed(reply):
        if sent.kind != "delete" and sent.message is not None and verb in verbs(sent.message):
            return sent.message
    raise AssertionError(f"no message of this reply offers {verb!r}: {[s.content[:60] for s in reply]}")


def battle_steps(first: str, second: str, first_fixed: tuple[str, str] | None,
                 second_fixed: tuple[str, str] | None) -> Callable[[GameState], list[a.Action]]:
    """The actions of Table.to_battle, for find_seed."""
    def choice(player: str, fixed: tuple[str, str] | None) -> a.Action:
        if fixed is None:
            return a.ChooseSecondaries(actor=player, mode="tactical")
        return a.ChooseSecondaries(actor=player, mode="fixed", cards=fixed)

    def steps(state: GameState) -> list[a.Action]:
        return [a.ChooseSide(actor=state.sides_rolloff.winner, side="attacker"),
                choice(first, first_fixed), choice(second, second_fixed),
                a.DeploymentDone(actor=first), a.DeploymentDone(actor=second)]
    return steps


def find_seed(catalog: Catalog, players: tuple[str, str], wanted: Callable[[GameState], bool], *,
              steps: Callable[[GameState], list[a.Action]], prefix: str = "seed", tries: int = 3000) -> str:
    """The first seed `prefix-N` whose game, after `steps`, satisfies `wanted` (pure engine, no Discord)."""
    for n in range(tries):
        seed = f"{prefix}-{n}"
        setup = GameSetup(size="strike-force", players=players, names=("Alice", "Bob"), seed=seed)
        state = new_game(catalog, setup).state
        for action in steps(state):
            state = apply(catalog, state, action).state
        if wanted(state):
            return seed
    raise AssertionError(f"no seed among {tries} gives the wanted game")
