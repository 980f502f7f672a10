"""Open challenges: `/game new` without an opponent offers a seat to anyone in the channel (or anyone with a
role). The first press takes it, exactly once, however many members press at the same moment; the game then
starts as an accepted challenge does. An open doubles challenge fills four seats: members join the author's side
or the other, one seat a press, until the last seat starts the game. An open challenge expires at its stored time,
even across a restart, and its author may withdraw it; a closed one says so and keeps no button.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.errors import GameError
from bot.engine.models import settled
from bot.engine.sides import seat_of
from bot.store.community import CommunityRepository
from bot.store.community_models import ChallengeStatus, OpenChallenge
from bot.store.models import utcnow
from bot.plumbing.times import relative, stamp
from bot.ui.challenge import open_thread, start_game
from bot.ui.controls import view_of
from bot.ui.dynamic import CustomId, Persistent, one_of
from bot.services.game_options import GameOptions
from bot.ui.game_options import option_lines
from bot.ui.text import pinging

if TYPE_CHECKING:
    from bot.ui.desk_api import Desk

_log = logging.getLogger(__name__)

CHALLENGE_ID = CustomId("mdo:{challenge}:{verb}", verb=one_of("take", "withdraw", "join", "oppose", "leave"))
LABELS = {"take": ("Take the seat", discord.ButtonStyle.success),
          "withdraw": ("Withdraw", discord.ButtonStyle.secondary),
          "join": ("Join your side", discord.ButtonStyle.success),
          "oppose": ("Play against you", discord.ButtonStyle.primary),
          "leave": ("Leave", discord.ButtonStyle.secondary)}
PARTNER, OPPONENTS = 0, (1, 2)  # doubles: the seats left open, the author's partner's then the other side's
DEFAULT_EXPIRY = timedelta(hours=24)
LONGEST_EXPIRY = timedelta(days=7)


class ChallengeButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=CHALLENGE_ID):
    what = "Open challenge {challenge} ({verb})"

    def __init__(self, challenge: int, verb: str, *, disabled: bool = False) -> None:
        label, style = LABELS[verb]
        super().__init__(discord.ui.Button(label=label, style=style, disabled=disabled,
                                           custom_id=self.custom_ids.format(challenge=challenge, verb=verb)))
        self.challenge, self.verb = challenge, verb

    async def act(self, interaction: discord.Interaction) -> None:
        challenges: OpenChallenges = interaction.client.desk.challenges  # type: ignore[attr-defined]
        await challenges.on_press(interaction, self.challenge, self.verb)


class OpenChallenges:
    def __init__(self, desk: Desk, repo: CommunityRepository) -> None:
        self.desk = desk
        self.repo = repo

    # ---- posting ------------------------------------------------------------------------------------

    async def post(self, interaction: discord.Interaction, options: GameOptions, *, role: discord.Role | None,
                   expires_at: datetime, starts_at: datetime | None, partner: discord.Member | None = None) -> None:
        """Offer the seat (doubles: the seats, the author's `partner` seated if named) in the interaction's channel;
        refuses a second open challenge of one author there."""
        me = str(interaction.user.id)
        seats = None
        if options.doubles:
            if partner is not None and str(partner.id) == me:
                raise GameError("A doubles game is four different players: your partner is someone else.")
            seats = json.dumps([[str(partner.id), partner.display_name[:100]] if partner else None, None, None])
        if await self.repo.open_challenge_by(me, interaction.channel_id) is not None:
            raise GameError("You already have an open challenge in this channel: withdraw it first, or wait for "
                            "someone to take it.")
        if not options.thread and await self.desk.service.repo.get_active_game(interaction.channel_id) is not None:
            raise GameError("This channel already has a game in progress: post the open challenge with "
                            "`thread:True`, or in another channel.")
        row = await self.repo.add_challenge(OpenChallenge(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, author_id=me,
            author_name=interaction.user.display_name[:100], role_id=role.id if role else None,
            options_json=options.model_dump_json(exclude_defaults=True), expires_at=expires_at, starts_at=starts_at,
            seats_json=seats))
        await interaction.response.send_message(**self.message(row), allowed_mentions=discord.AllowedMentions.none())
        message = await interaction.original_response()
        await self.repo.set_message(row.id, message.id)
        self.watch(row)

    def message(self, row: OpenChallenge) -> dict:
        """The challenge as it stands: open with its buttons, or a one-line record of how it closed."""
        options = GameOptions.model_validate_json(row.options_json)
        rules = self.desk.service.packs.rules(options.pack)
        if row.status == ChallengeStatus.OPEN and row.seats_json is not None:
            return self._doubles_message(row, options, rules.title)
        if row.status == ChallengeStatus.OPEN:
            who = f"members with <@&{row.role_id}>" if row.role_id else "anyone"
            lines = [*option_lines(options, self.desk.service.packs), f"**Who may take it:** {who} but {row.author_name}"]
            if row.starts_at is not None:
                lines.append(f"**Starts:** {stamp(row.starts_at)}")
            lines.append(f"**Expires:** {relative(row.expires_at)}")
            embed = discord.Embed(title=f"Open challenge: {rules.title}", description="\n".join(lines),
                                  colour=discord.Colour.green())
            content = f"**{row.author_name}** is looking for a game: press **Take the seat** to play."
            return dict(content=content, embed=embed,
                        view=view_of(ChallengeButton(row.id, "take"), ChallengeButton(row.id, "withdraw")))
        closed = {
            ChallengeStatus.WITHDRAWN: f"{row.author_name} withdrew this open challenge ({rules.title}).",
            ChallengeStatus.EXPIRED: f"{row.author_name}'s open challenge ({rules.title}) expired "
                                     f"{relative(row.expires_at)}: {_taken_text(row)}.",
        }
        return dict(content=closed[ChallengeStatus(row.status)], embed=None, view=None)

    def _doubles_message(self, row: OpenChallenge, options: GameOptions, title: str) -> dict:
        seats = json.loads(settled(row.seats_json))
        names = [seat[1] if seat else "*open*" for seat in seats]
        who = f"members with <@&{row.role_id}>" if row.role_id else "anyone"
        lines = [*option_lines(options, self.desk.service.packs), f"**Who may take a seat:** {who}",
                 f"**{row.author_name}'s side:** {row.author_name} & {names[PARTNER]}",
                 f"**Against them:** {names[1]} & {names[2]}"]
        if row.starts_at is not None:
            lines.append(f"**Starts:** {stamp(row.starts_at)}")
        lines.append(f"**Expires:** {relative(row.expires_at)}")
        embed = discord.Embed(title=f"Open doubles challenge: {title}", description="\n".join(lines),
                              colour=discord.Colour.green())
        taken = 1 + sum(1 for seat in seats if seat)
        content = (f"**{row.author_name}** is looking for a doubles game, two a side: {taken} of 4 seats taken. "
                   "Press **Join your side** or **Play against you**.")
        view = view_of(ChallengeButton(row.id, "join", disabled=seats[PARTNER] is not None),
                       ChallengeButton(row.id, "oppose", disabled=all(seats[i] for i in OPPONENTS)),
                       ChallengeButton(row.id, "leave"), ChallengeButton(row.id, "withdraw"))
        return dict(content=content, embed=embed, view=view)

    # ---- presses ------------------------------------------------------------------------------------

    async def on_press(self, interaction: discord.Interaction, challenge_id: int, verb: str) -> None:
        row = await self.repo.challenge(challenge_id)
        if row is None:
            raise GameError("That open challenge no longer exists.")
        if verb == "withdraw":
            await self._withdraw(interaction, row)
        elif row.seats_json is not None:
            await self._seat(interaction, row, verb)
        else:
            await self._take(interaction, row)

    async def _withdraw(self, interaction: discord.Interaction, row: OpenChallenge) -> None:
        if str(interaction.user.id) != row.author_id:
            raise GameError(f"Only {row.author_name}, who posted it, can withdraw this challenge.")
        if not await self.repo.close(row.id, ChallengeStatus.WITHDRAWN):
            raise GameError(_closed_text(await self.repo.challenge(row.id)))
        self.desk.alarms.drop(("challenge", row.id))
        await interaction.response.edit_message(**self.message(await self.repo.challenge(row.id)))

    async def _may_sit(self, interaction: discord.Interaction, row: OpenChallenge) -> GameOptions:
        """Refuse a press that may not take a seat, saying why: the challenge's options otherwise."""
        if str(interaction.user.id) == row.author_id:
            raise GameError("This is your own challenge: wait for someone to take the seat, or withdraw it.")
        if interaction.user.bot:
            raise GameError("Bots cannot play.")
        if row.role_id is not None and not any(r.id == row.role_id for r in getattr(interaction.user, "roles", ())):
            raise GameError(f"This challenge is for members with the <@&{row.role_id}> role, which you do not have.")
        if row.status != ChallengeStatus.OPEN:
            raise GameError(_closed_text(row))
        # The channel's game may have started since the challenge was posted: say so before taking the seat.
        options = GameOptions.model_validate_json(row.options_json)
        if not options.thread and await self.desk.service.repo.get_active_game(row.channel_id) is not None:
            raise GameError("This channel has a game in progress now: the seat can be taken once it is over.")
        return options

    async def _take(self, interaction: discord.Interaction, row: OpenChallenge) -> None:
        me = str(interaction.user.id)
        options = await self._may_sit(interaction, row)
        if not await self.repo.take_seat(row.id, me, utcnow()):
            raise GameError(_closed_text(await self.repo.challenge(row.id)))
        await interaction.response.defer()
        try:
            await self._start(interaction, row, options)
        except BaseException:
            await self.repo.give_back_seat(row.id, me)  # nothing started: the next member may take it
            raise
        self.desk.alarms.drop(("challenge", row.id))

    async def _start(self, interaction: discord.Interaction, row: OpenChallenge, options: GameOptions) -> None:
        """The taker's game, started as an accepted challenge: briefing, board, and the first ping."""
        me = str(interaction.user.id)
        setup = options.setup(self.desk.service.packs, (row.author_id, me),
                              (row.author_name, interaction.user.display_name))
        place, started, record, when = await self._begin(interaction, row, options, setup, [row.author_id, me],
                                                         f"{interaction.user.display_name} took {row.author_name}'s seat")
        await place.send(f"<@{row.author_id}>, {interaction.user.mention} took the seat of your open challenge."
                         f"{when}", allowed_mentions=await self._ping_author(record, row.author_id),
                         **await self.desk.briefing(started))
        await self.desk.open_board(record, actor=me)

    async def _seat(self, interaction: discord.Interaction, row: OpenChallenge, verb: str) -> None:
        """Doubles: a seat joined on either side, or left; the fourth seat starts the game."""
        me = str(interaction.user.id)
        before = settled(row.seats_json)
        seats = json.loads(before)
        mine = next((i for i, seat in enumerate(seats) if seat and seat[0] == me), None)
        if verb == "leave":
            if mine is None:
                raise GameError("You hold no seat in this challenge.")
            if row.status != ChallengeStatus.OPEN:
                raise GameError(_closed_text(row))
            seats[mine] = None
        else:
            options = await self._may_sit(interaction, row)
            if mine is not None:
                raise GameError("You hold a seat already: **Leave** it first to change sides.")
            free = [i for i in ((PARTNER,) if verb == "join" else OPPONENTS) if seats[i] is None]
            if not free:
                raise GameError("That side is full: join the other, or wait for someone to leave.")
            seats[free[0]] = [me, interaction.user.display_name[:100]]
        full = all(seats)
        if not await self.repo.set_seats(row.id, before, json.dumps(seats), utcnow(), full=full):
            raise GameError(_closed_text(await self.repo.challenge(row.id)) if row.status != ChallengeStatus.OPEN
                            else "Someone took or left a seat at the same moment: look again and press once more.")
        if not full:
            await interaction.response.edit_message(**self.message(settled(await self.repo.challenge(row.id))))
            return
        await interaction.response.defer()
        try:
            await self._start_doubles(interaction, row, options, seats)
        except BaseException:
            await self.repo.reopen_seats(row.id, before)  # nothing started: the last seat is free again
            raise
        self.desk.alarms.drop(("challenge", row.id))

    async def _start_doubles(self, interaction: discord.Interaction, row: OpenChallenge, options: GameOptions,
                             seats: list[list[str]]) -> None:
        """The four seats taken: the game, started as an accepted challenge, pinging the other three."""
        (partner, partner_name), (opponent, opponent_name), (theirs, their_name) = seats
        setup = options.setup(self.desk.service.packs, (row.author_id, opponent), (row.author_name, opponent_name),
                              partners=((partner, partner_name), (theirs, their_name)))
        players = [row.author_id, partner, opponent, theirs]
        place, started, record, when = await self._begin(
            interaction, row, options, setup, players, f"The four seats of {row.author_name}'s doubles challenge are taken")
        others = [p for p in players if p != str(interaction.user.id)]
        quiet = await self.desk.service.repo.quiet_players(record.id)
        await place.send(f"{' '.join(f'<@{p}>' for p in others)}: the doubles game is on, **{setup.names[0]}** vs "
                         f"**{setup.names[1]}**.{when}", allowed_mentions=pinging(p for p in others if p not in quiet),
                         **await self.desk.briefing(started))
        await self.desk.open_board(record, actor=settled(seat_of(setup, str(interaction.user.id))))

    async def _begin(self, interaction: discord.Interaction, row: OpenChallenge, options: GameOptions, setup,
                     players: list[str], taken: str) -> tuple[discord.abc.Messageable, Any, Any, str]:
        """The taken challenge's game: in its own thread if asked, started, stored with the challenge, which now says
        `taken`; the game's place, its start, its record, and when it is set for (words, or nothing)."""
        place = interaction.channel
        if options.thread:
            rules = self.desk.service.packs.rules(options.pack)
            kind = options.size.replace("-", " ").title() if options.size else rules.title
            place = await open_thread(interaction.client, interaction.channel,
                                      f"{setup.names[0]} vs {setup.names[1]} ({kind})",
                                      [discord.Object(int(p)) for p in players], "Open challenge taken")
        started = await start_game(interaction.client, interaction.guild_id, place, setup, thread=options.thread)
        record = await self.desk.service.get_state(game_id=started.game_id)
        await self.repo.set_game(row.id, record.id)
        where = f": the game is in {place.mention}" if options.thread else ""
        await interaction.edit_original_response(content=f"{taken}{where}.", embed=None, view=None)
        if row.starts_at is not None:
            await self.desk.schedule(record.id, place.id, row.starts_at)
        return place, started, record, f" The game is set for {stamp(row.starts_at)}." if row.starts_at else ""

    async def _ping_author(self, record, author: str) -> discord.AllowedMentions:
        """The author hears that their seat was taken, unless the board below calls them anyway: one ping each."""
        called = {w.player for w in self.desk.waits(record.state)}
        if author in called or author in await self.desk.service.repo.quiet_players(record.id):
            return discord.AllowedMentions.none()
        return pinging([author])

    # ---- expiry -------------------------------------------------------------------------------------

    def watch(self, row: OpenChallenge) -> None:
        self.desk.alarms.arm(("challenge", row.id), row.expires_at.timestamp(), partial(self.expire, row.id))

    async def watch_stored(self) -> int:
        """At start-up: arm the expiry of every open challenge in this process's servers; how many."""
        rows = [row for row in await self.repo.open_challenges()
                if row.guild_id is None or self.desk.bot.get_guild(row.guild_id) is not None]
        for row in rows:
            self.watch(row)
        return len(rows)

    async def expire(self, challenge_id: int) -> bool:
        """Close the challenge if it is still open (a take or a withdrawal may have come first): whether it did."""
        if not await self.repo.close(challenge_id, ChallengeStatus.EXPIRED):
            return False
        row = await self.repo.challenge(challenge_id)
        if row.message_id is not None:
            message = self.desk.bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
            try:
                await message.edit(**self.message(row))
            except (discord.NotFound, discord.Forbidden):
                _log.info("Expired open challenge %s: its message is gone", challenge_id)
        return True


def _taken_text(row: OpenChallenge) -> str:
    if row.seats_json is None:
        return "nobody took the seat"
    return f"{1 + sum(1 for seat in json.loads(row.seats_json) if seat)} of its 4 seats were taken"


def _closed_text(row: OpenChallenge | None) -> str:
    if row is None:
        return "That open challenge no longer exists."
    if row.status == ChallengeStatus.TAKEN and row.seats_json is not None:
        return "The four seats are taken: the game has started."
    if row.status == ChallengeStatus.TAKEN:
        return f"The seat is taken: <@{row.taker_id}> took it first."
    if row.status == ChallengeStatus.WITHDRAWN:
        return f"{row.author_name} withdrew this challenge."
    return "This open challenge has expired: post a new one with /game new."
