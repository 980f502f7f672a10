"""A team match's captains' pairing in Discord: a thread per match with one board, the captains' private controls,
and the games each step fixes opened in table threads as singles tables are.

The board is one message: when a new step begins it is posted anew at the bottom, mentioning exactly the captains
(and stand-ins) it waits on, and the one before it is deleted; while a step waits on the other captain it is edited
in place. **Choose** opens the presser's private menu of what their side may choose now (both pools with each
player's army and Force Disposition); the choice is sealed until both are in. Past a step's deadline, an organiser
may let the bot choose at random for the side that is late.
"""

from __future__ import annotations

import logging
import time
from functools import partial

import discord

from bot.plumbing.changes import Change
from bot.engine.errors import GameError
from bot.engine.teams import event as teams
from bot.engine.teams.match import WANTED, Step, options
from bot.plumbing.locks import KeyedLocks
from bot.store.tournament_repository import MatchBoard, TournamentRecord
from bot.services.team_rounds import Fixed, round_results, team_event
from bot.services.teams import NOT_LATE, TeamService
from bot.ui.armies import FullList
from bot.ui.dynamic import INT, CustomId, Persistent
from bot.ui.errors import reply_privately
from bot.present.entrants import name_of
from bot.present.teams import team_name
from bot.ui.teams.texts import (
    board_content, board_embed, captain_view_text, draft_lines, leaders_to_call, locked_line, member,
)
from bot.ui.text import clip, pinging
from bot.ui.threads import new_thread
from bot.ui.tournament.organisers import is_organiser
from bot.ui.tournament.posting import open_table, table_channel
from bot.ui.tournament.texts import line_embeds

_log = logging.getLogger(__name__)
_boards = KeyedLocks()  # one per match: its board's posts and edits in order


class PrivateLines:
    """Each captain's one private message in a match (their menu, then what they locked in): a new menu replaces
    the one before, deleted through the interaction that last drew it while its token lasts (Discord: 15 minutes,
    counted here from when it was kept)."""

    LASTS = 14 * 60

    def __init__(self) -> None:
        self._last: dict[tuple[int, int, int, str], tuple[discord.Interaction, float]] = {}

    def keep(self, key: tuple[int, int, int, str], interaction: discord.Interaction) -> None:
        """`interaction` drew the captain's message now (a choice locked in it)."""
        now = time.monotonic()
        self._last = {k: (i, at) for k, (i, at) in self._last.items() if now - at < self.LASTS}
        self._last[key] = (interaction, now)

    async def replace(self, key: tuple[int, int, int, str], interaction: discord.Interaction) -> None:
        """`interaction` drew a new message: the one before it goes."""
        earlier = self._last.get(key)
        self.keep(key, interaction)
        if earlier is not None and time.monotonic() - earlier[1] < self.LASTS:
            try:
                await earlier[0].delete_original_response()
            except discord.HTTPException:
                _log.info("A captain's earlier private message was gone already")


_private = PrivateLines()

MATCH = "{tournament}:{round_number}:{match}:{step}"
FIELDS = dict(tournament=INT, round_number=INT, match=INT, step=INT)


def _teams(interaction: discord.Interaction) -> TeamService:
    return interaction.client.teams  # type: ignore[attr-defined]


def board_view(record: TournamentRecord, round_number: int, pair: teams.TeamPair, late: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if pair.match.done:
        return view
    view.add_item(ChooseButton(record.id, round_number, pair.number, pair.match.steps))
    if late:
        view.add_item(LateButton(record.id, round_number, pair.number, pair.match.steps))
    return view


async def send_team_draft(interaction: discord.Interaction, record: TournamentRecord,
                          view: discord.ui.View) -> None:
    """The draft round of a team event, privately to the organiser, with its Publish and Re-pair buttons."""
    current = team_event(record).rounds[-1]
    redrawn = f" (draw {current.draw + 1})" if current.draw else ""
    intro = (f"Round {current.number} of **{discord.utils.escape_markdown(record.name)}** is paired{redrawn}: "
             f"{len(current.matches)} team matches. Only you see this draft: **Publish** opens each match's "
             "thread, where the captains pair their games; **Re-pair** draws again among equal teams.")
    embeds = line_embeds(draft_lines(record), f"Draft: round {current.number} of {record.rounds_planned}")
    await interaction.followup.send(intro, embeds=embeds[:10], view=view, ephemeral=True,
                                    allowed_mentions=discord.AllowedMentions.none())


async def announce_team_round(client: discord.Client, record: TournamentRecord,
                              fallback: discord.abc.Messageable | None) -> str:
    """A published team round in the announcement channel (else `fallback`), before its match threads open: what
    was done, for the organiser."""
    current = team_event(record).rounds[-1]
    channel = await table_channel(client, record, fallback)
    embeds = line_embeds(draft_lines(record), "Team matches")[:10]
    await channel.send(f"🏆 **{discord.utils.escape_markdown(record.name)}** round {current.number}: the captains "
                       "pair their games in each match's thread.", embeds=embeds,
                       allowed_mentions=discord.AllowedMentions.none())
    return f"Round {current.number} is published: announced in <#{channel.id}>."


def match_thread_name(record: TournamentRecord, number: int, pair: teams.TeamPair) -> str:
    names = [team_name(record, t) for t in pair.teams]
    return clip(f"R{number} {names[0]} vs {names[1]}", 100)


async def open_match(client: discord.Client, record: TournamentRecord, channel: discord.TextChannel, number: int,
                     pair: teams.TeamPair, place: discord.Thread | None = None) -> None:
    """A team match's thread with both teams in it, and its board. `place`: its thread, opened before a restart cut
    the round's opening (its players are told again unless Discord says it holds a message)."""
    thread = place or await new_thread(client, channel, match_thread_name(record, number, pair),
                                       f"{record.name}: team pairing")
    if place is None or place.last_message_id is None:
        members = [p for team_id in pair.teams for p in team_event(record).team(team_id).members]
        names = [team_name(record, t) for t in pair.teams]
        # The mention brings every player into the thread: one message, not a call each.
        await thread.send(f"{' '.join(f'<@{p}>' for p in members)}: your round {number} match, "
                          f"**{discord.utils.escape_markdown(names[0])}** vs "
                          f"**{discord.utils.escape_markdown(names[1])}**. The captains pair the games on the board "
                          "below; each game opens in its own thread.",
                          allowed_mentions=pinging(members))
    await post_board(client, record, number, pair, thread.id, None)


async def post_board(client: discord.Client, record: TournamentRecord, round_number: int, pair: teams.TeamPair,
                     thread_id: int, earlier: int | None, *, overdue: MatchBoard | None = None) -> TournamentRecord:
    """The board posted at the bottom of its thread, calling the captains it waits on, and the one before deleted.
    `overdue`: the board of this step, whose deadline passed: posted again calling the organisers too, as the call
    is part of the board and goes with it once the step moves on."""
    rules = team_event(record).rules
    deadline = overdue.deadline if overdue is not None else \
        int(time.time()) + rules.step_minutes * 60 if rules.step_minutes and not pair.match.done else None
    role = record.organiser_role_id if overdue is not None else None
    thread = client.get_partial_messageable(thread_id)
    called = [discord.Object(int(p)) for p in leaders_to_call(record, pair)]
    message = await thread.send(_content(record, pair, overdue is not None) or None,
                                embed=board_embed(record, round_number, pair, deadline=deadline),
                                view=board_view(record, round_number, pair, late=overdue is not None),
                                allowed_mentions=discord.AllowedMentions(
                                    everyone=False, users=called, roles=[discord.Object(role)] if role else False))
    if earlier is not None:
        try:
            await thread.get_partial_message(earlier).delete()
        except discord.HTTPException:
            _log.info("The pairing board %s was gone already", earlier)
    board = MatchBoard(round_number=round_number, match=pair.number, thread_id=thread_id, message_id=message.id,
                       step=pair.match.steps, deadline=deadline, called=overdue is not None,
                       score=score_key(record, round_number, pair))
    saved = await client.teams.set_board(record.id, board)  # type: ignore[attr-defined]
    watch_deadline(client, saved.id, board)
    return saved


def _content(record: TournamentRecord, pair: teams.TeamPair, overdue: bool) -> str:
    """The board's call: the captains it waits on, and past the deadline the organisers (their role, if any)."""
    content = board_content(record, pair)
    if not overdue:
        return content
    late = " and ".join(team_name(record, pair.teams[s]) for s in pair.match.waiting_on())
    role = record.organiser_role_id
    return (f"⏰ {f'<@&{role}>' if role else 'Organisers'}: the deadline of this step has passed and {late} has not "
            "chosen. An organiser may let the bot choose at random for them with the button below.\n" + content)


def watch_deadline(client: discord.Client, tournament_id: int, board: MatchBoard) -> None:
    """Arm (or drop) the alarm of a board's step deadline: it calls the organisers once, if a side is still to
    choose then. Armed when the board is posted, and at start-up for every stored board (cogs/team.py)."""
    at = board.deadline if board.deadline is not None and not board.called else None
    client.desk.alarms.arm(("team-step", tournament_id, board.round_number, board.match), at,  # type: ignore[attr-defined]
                           partial(deadline_passed, client, tournament_id, board.round_number, board.match, board.step))


async def deadline_passed(client: discord.Client, tournament_id: int, round_number: int, match: int,
                          step: int) -> None:
    """The alarm of a step's deadline: if a side is still to choose, the board moves to the bottom calling the
    organisers and offering them to choose at random for it. The stored board decides: a step over, or organisers
    called already (a restart, another process), calls nobody."""
    async with _boards((tournament_id, round_number, match)):
        record = await client.tournaments.get(tournament_id)  # type: ignore[attr-defined]
        board = board_of(record, round_number, match)
        if board is None or board.step != step or board.called or record.state.teams is None:
            return
        pair = teams.match_of(record.state.teams, round_number, match)
        if not pair.match.done and pair.match.steps == step:
            await post_board(client, record, round_number, pair, board.thread_id, board.message_id, overdue=board)


def board_of(record: TournamentRecord, round_number: int, match: int) -> MatchBoard | None:
    return next((b for b in record.state.match_boards if (b.round_number, b.match) == (round_number, match)), None)


async def show(client: discord.Client, record: TournamentRecord, round_number: int, match: int,
               fixed: list[Fixed]) -> None:
    """After a choice: the board moves on a new step (calling the captains), else it is edited in place; the games
    now ready open in their table threads."""
    async with _boards((record.id, round_number, match)):
        record = await client.tournaments.get(record.id)  # type: ignore[attr-defined]
        pair = teams.match_of(team_event(record), round_number, match)
        board = board_of(record, round_number, match)
        if board is not None and board.step != pair.match.steps:
            record = await post_board(client, record, round_number, pair, board.thread_id, board.message_id)
        elif board is not None:
            await redraw(client, record, round_number, pair, board)
    if fixed:
        await open_fixed(client, record, fixed)


async def follow_late(client: discord.Client, record: TournamentRecord, round_number: int, match: int) -> None:
    """The bot chose for a late side from the organiser's desk: the board moves on, and the games it fixed open."""
    pair = teams.match_of(team_event(record), round_number, match)
    linked = {g.table for g in record.state.table_games if g.round_number == round_number}
    fixed = [Fixed(round_number, match, t, g) for t, g in zip(pair.tables, pair.match.games)
             if g.layout is not None and t not in linked]
    await show(client, record, round_number, match, fixed)


async def redraw(client: discord.Client, record: TournamentRecord, round_number: int, pair: teams.TeamPair,
                 board: MatchBoard) -> None:
    """The board edited in place, naming without a notification only who is still to choose (they were called
    when the step began); the results it shows remembered."""
    message = client.get_partial_messageable(board.thread_id).get_partial_message(board.message_id)
    await message.edit(content=_content(record, pair, board.called) or None,
                       embed=board_embed(record, round_number, pair, deadline=board.deadline),
                       view=board_view(record, round_number, pair, late=board.called),
                       allowed_mentions=discord.AllowedMentions.none())
    if (score := score_key(record, round_number, pair)) != board.score:
        await client.teams.set_board(record.id, board.model_copy(update={"score": score}))  # type: ignore[attr-defined]


def score_key(record: TournamentRecord, round_number: int, pair: teams.TeamPair) -> str:
    """The results of a match's tables as its board shows them: when they change, the board is drawn again."""
    results = round_results(record, round_number)
    return ";".join(f"{t}:{r.vp_a}-{r.vp_b}:{r.outcome}:{r.reason}" for t in pair.tables if (r := results.get(t)))


async def follow_results(client: discord.Client, change: Change) -> None:
    """A subscriber of the change stream: when a team event's results change (a game ended, a report confirmed,
    an organiser's correction), each match board they belong to shows them; once a match's every result is in,
    its board moves to the bottom of its thread with the result. The process serving the event's server draws."""
    if change.kind != "event" or change.what != "event":
        return
    try:
        record = await client.tournaments.get(change.id)  # type: ignore[attr-defined]
    except GameError:
        return
    if record.state.teams is None or client.get_guild(record.guild_id) is None:
        return
    for board in record.state.match_boards:
        pair = teams.match_of(record.state.teams, board.round_number, board.match)
        if score_key(record, board.round_number, pair) != board.score:
            await _results_changed(client, record.id, board.round_number, board.match)


async def _results_changed(client: discord.Client, tournament_id: int, round_number: int, match: int) -> None:
    async with _boards((tournament_id, round_number, match)):
        record = await client.tournaments.get(tournament_id)  # type: ignore[attr-defined]
        board = board_of(record, round_number, match)
        pair = teams.match_of(team_event(record), round_number, match)
        if board is None or score_key(record, round_number, pair) == board.score:
            return  # drawn already (by the press that saved it, or a change before this one)
        if teams.match_score(team_event(record), pair, round_results(record, round_number)).complete:
            await post_board(client, record, round_number, pair, board.thread_id, board.message_id)
        else:
            await redraw(client, record, round_number, pair, board)


async def open_fixed(client: discord.Client, record: TournamentRecord, fixed: list[Fixed]) -> None:
    """The games a pairing made ready, each in its table thread with its game waiting to be accepted: from the
    event's announcement channel, else from the channel the round was published in (its match thread's)."""
    board = board_of(record, fixed[0].round_number, fixed[0].match)
    channel = await table_channel(client, record, await _parent(client, board.thread_id) if board else None)
    event = record.state.event
    links = []
    try:
        for game in fixed:
            pairing = next(p for p in event.rounds[game.round_number - 1].pairings.tables if p.table == game.table)
            links.append(await open_table(client, record, channel, game.round_number, pairing,
                                          layout=game.game.layout, defender=game.game.defender))
    finally:
        if links:
            await client.tournaments.link_games(record.id, links)  # type: ignore[attr-defined]


async def _parent(client: discord.Client, thread_id: int) -> discord.abc.Messageable | None:
    """The channel a match's thread was opened from."""
    try:
        thread = client.get_channel(thread_id) or await client.fetch_channel(thread_id)
        parent_id = getattr(thread, "parent_id", None)
        return client.get_channel(parent_id) or await client.fetch_channel(parent_id) if parent_id else None
    except (discord.NotFound, discord.Forbidden):
        return None


class ChooseButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=CustomId(
        "mdtc:" + MATCH, **FIELDS)):
    """A captain's private control for the step the board shows: their menu, drawn from what they may choose."""

    what = "Choosing in match {match} of tournament {tournament}"

    def __init__(self, tournament: int, round_number: int, match: int, step: int) -> None:
        super().__init__(discord.ui.Button(label="Choose", style=discord.ButtonStyle.primary,
                                           custom_id=self.custom_ids.format(tournament=tournament,
                                                                            round_number=round_number, match=match,
                                                                            step=step)))
        self.tournament, self.round_number, self.match, self.step = tournament, round_number, match, step

    async def act(self, interaction: discord.Interaction) -> None:
        # Acknowledged at once, privately: reading the event may wait behind the other matches' writes.
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await interaction.client.tournaments.get(self.tournament)  # type: ignore[attr-defined]
        pair = teams.match_of(team_event(record), self.round_number, self.match)
        me = str(interaction.user.id)
        side = next((i for i, t in enumerate(pair.teams) if team_event(record).team(t).leads(me)), None)
        if side is None:
            raise GameError("Only the two teams' captains (or their stand-ins) choose in this pairing.")
        if pair.match.steps != self.step or pair.match.done:
            raise GameError("This board is out of date: the pairing has moved on. Use the newest board.")
        if side not in pair.match.waiting_on():
            raise GameError("Your choice at this step is locked in: it is revealed once the other captain has "
                            "chosen." if pair.match.sealed[side] is not None
                            else "The other team's Defender declares their layout first.")
        offered = options(pair.match, side)
        labels = [(o if pair.match.step == Step.LAYOUT else clip(member(record, o), 100), o) for o in offered]
        wanted = WANTED[pair.match.step]
        select = PickSelect(self.tournament, self.round_number, self.match, self.step, labels, wanted)
        view = discord.ui.View(timeout=None)
        view.add_item(select)
        if record.state.list_policy == "open":  # the other team's lists, a press away
            for player in pair.match.pools[1 - side] or options(pair.match, side):
                entry = record.state.lists.get(player)
                if entry is not None and entry.army.list_id is not None:
                    view.add_item(FullList(entry.army.list_id, f"{name_of(record, player)}'s list"))
        await reply_privately(interaction, captain_view_text(record, pair, side), view=view,
                              allowed_mentions=discord.AllowedMentions.none())
        await _private.replace((self.tournament, self.round_number, self.match, str(interaction.user.id)),
                               interaction)


class PickSelect(Persistent, discord.ui.DynamicItem[discord.ui.Select], custom_id=CustomId(
        "mdtp:" + MATCH, **FIELDS)):
    """A captain's choice at one step of one match, sealed once made."""

    what = "A choice in match {match} of tournament {tournament}"

    def __init__(self, tournament: int, round_number: int, match: int, step: int,
                 labels: list[tuple[str, str]] | None = None, wanted: int = 1) -> None:
        labels = labels or [("—", "-")]
        super().__init__(discord.ui.Select(
            custom_id=self.custom_ids.format(tournament=tournament, round_number=round_number, match=match,
                                             step=step),
            placeholder=f"Choose {wanted}", min_values=wanted, max_values=min(wanted, len(labels)),
            options=[discord.SelectOption(label=label, value=value) for label, value in labels]))
        self.tournament, self.round_number, self.match, self.step = tournament, round_number, match, step

    async def act(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # the private menu stays until the choice is sealed
        record = await interaction.client.tournaments.get(self.tournament)  # type: ignore[attr-defined]
        if teams.match_of(team_event(record), self.round_number, self.match).match.steps != self.step:
            raise GameError("This menu is out of date: the pairing has moved on. Press Choose on the newest board.")
        me, picks = str(interaction.user.id), tuple(self.item.values)
        before = teams.match_of(team_event(record), self.round_number, self.match).match
        saved, fixed = await _teams(interaction).choose(self.tournament, self.round_number, self.match, me, picks)
        after = teams.match_of(team_event(saved), self.round_number, self.match).match
        side = next(i for i, t in enumerate(after.teams) if team_event(saved).team(t).leads(me))
        shown = after.steps != before.steps or len(after.reveals) > len(before.reveals)
        await interaction.edit_original_response(content=locked_line(saved, before, side, picks, shown=shown),
                                                 view=None, allowed_mentions=discord.AllowedMentions.none())
        _private.keep((self.tournament, self.round_number, self.match, me), interaction)
        await show(interaction.client, saved, self.round_number, self.match, fixed)


class LateButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=CustomId(
        "mdtl:" + MATCH, **FIELDS)):
    """Past the step's deadline, an organiser lets the bot choose at random for the side that is late."""

    what = "Choosing for a late side in match {match} of tournament {tournament}"

    def __init__(self, tournament: int, round_number: int, match: int, step: int) -> None:
        super().__init__(discord.ui.Button(label="Choose at random for the late side",
                                           style=discord.ButtonStyle.danger,
                                           custom_id=self.custom_ids.format(tournament=tournament,
                                                                            round_number=round_number, match=match,
                                                                            step=step)))
        self.tournament, self.round_number, self.match, self.step = tournament, round_number, match, step

    async def act(self, interaction: discord.Interaction) -> None:
        record = await interaction.client.tournaments.get(self.tournament)  # type: ignore[attr-defined]
        if not is_organiser(interaction, record):
            raise GameError("Only an organiser can choose for a late side.")
        board = board_of(record, self.round_number, self.match)
        if board is None or board.step != self.step or board.deadline is None or time.time() <= board.deadline:
            raise GameError(NOT_LATE)  # before the press is acknowledged: the service refuses it so too
        await interaction.response.defer()
        pair = teams.match_of(team_event(record), self.round_number, self.match)
        late = [team_name(record, pair.teams[s]) for s in pair.match.waiting_on()]
        saved, fixed = await _teams(interaction).choose_for_late(self.tournament, self.round_number, self.match,
                                                                 self.step)
        thread = interaction.client.get_partial_messageable(board.thread_id)
        await thread.send(f"⏱️ {interaction.user.mention} let the bot choose at random for "
                          f"{' and '.join(late)}, past the deadline.", allowed_mentions=discord.AllowedMentions.none())
        await show(interaction.client, saved, self.round_number, self.match, fixed)


DYNAMIC_ITEMS = (ChooseButton, PickSelect, LateButton)
