"""Reading and writing the play around games: open challenges, players' time zones and scheduled reminders.

Every change that more than one press (or process) may race for is one conditional UPDATE: the row count says
who won, so a seat is taken once, a challenge closes once and a reminder is sent once.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, update
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.chapter_approved.state import CA_PACK
from bot.store.community_models import (
    CallMessage, ChallengeStatus, OpenChallenge, PlayerSettings, Reminder, ServerSettings,
)
from bot.store.models import utcnow

REMINDER_LEAD = timedelta(minutes=15)


class CommunityRepository:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessionmaker = sessionmaker
        # Each server's default pack as read or set: only the process serving a server sets it (its /settings pack),
        # and every /game new reads it, forty of them at once when a round starts.
        self._packs: dict[int, str] = {}

    # ---- open challenges ---------------------------------------------------------------------------

    async def add_challenge(self, row: OpenChallenge) -> OpenChallenge:
        async with self._sessionmaker() as session, session.begin():
            session.add(row)
        return row

    async def challenge(self, challenge_id: int) -> OpenChallenge | None:
        async with self._sessionmaker() as session, session.begin():
            return await session.get(OpenChallenge, challenge_id)

    async def set_message(self, challenge_id: int, message_id: int) -> None:
        await self._update(challenge_id, None, message_id=message_id)

    async def open_challenge_by(self, author_id: str, channel_id: int) -> OpenChallenge | None:
        """The author's challenge still open in the channel, if any."""
        query = select(OpenChallenge).where(OpenChallenge.author_id == author_id,
                                            OpenChallenge.channel_id == channel_id,
                                            OpenChallenge.status == ChallengeStatus.OPEN)
        async with self._sessionmaker() as session, session.begin():
            return (await session.exec(query)).first()

    async def open_challenges(self) -> list[OpenChallenge]:
        """Every challenge still open, soonest to expire first (at start-up, to arm their expiry)."""
        query = (select(OpenChallenge).where(OpenChallenge.status == ChallengeStatus.OPEN)
                 .order_by(col(OpenChallenge.expires_at)))
        async with self._sessionmaker() as session, session.begin():
            return list((await session.exec(query)).all())

    async def take_seat(self, challenge_id: int, taker_id: str, now: datetime) -> bool:
        """Give the seat to `taker_id` if the challenge is still open and not expired: whether they got it."""
        return await self._update(challenge_id, ChallengeStatus.OPEN, status=ChallengeStatus.TAKEN, taker_id=taker_id,
                                  expires_after=now)

    async def set_seats(self, challenge_id: int, before: str, after: str, now: datetime, *, full: bool) -> bool:
        """Doubles: the seats become `after` if they are still `before` and the challenge is open and not expired (a
        press at the same moment changed them otherwise); full, the challenge is taken. Whether they changed."""
        statement = (update(OpenChallenge)
                     .where(col(OpenChallenge.id) == challenge_id, col(OpenChallenge.status) == ChallengeStatus.OPEN,
                            col(OpenChallenge.seats_json) == before, col(OpenChallenge.expires_at) > now)
                     .values(seats_json=after, **({"status": ChallengeStatus.TAKEN} if full else {})))
        async with self._sessionmaker() as session, session.begin():
            result = await session.exec(statement)
        return result.rowcount == 1

    async def reopen_seats(self, challenge_id: int, seats: str) -> None:
        """Doubles: the game could not start; the challenge is open again with these seats."""
        async with self._sessionmaker() as session, session.begin():
            await session.exec(update(OpenChallenge).where(
                col(OpenChallenge.id) == challenge_id, col(OpenChallenge.status) == ChallengeStatus.TAKEN)
                .values(status=ChallengeStatus.OPEN, seats_json=seats))

    async def give_back_seat(self, challenge_id: int, taker_id: str) -> None:
        """The taker's game could not start: the challenge is open again."""
        async with self._sessionmaker() as session, session.begin():
            await session.exec(update(OpenChallenge).where(
                col(OpenChallenge.id) == challenge_id, col(OpenChallenge.status) == ChallengeStatus.TAKEN,
                col(OpenChallenge.taker_id) == taker_id).values(status=ChallengeStatus.OPEN, taker_id=None))

    async def set_game(self, challenge_id: int, game_id: int) -> None:
        await self._update(challenge_id, None, game_id=game_id)

    async def close(self, challenge_id: int, status: ChallengeStatus) -> bool:
        """Withdraw or expire an open challenge: whether this call closed it."""
        return await self._update(challenge_id, ChallengeStatus.OPEN, status=status)

    async def _update(self, challenge_id: int, only_if: ChallengeStatus | None, *,
                      expires_after: datetime | None = None, **values: object) -> bool:
        statement = update(OpenChallenge).where(col(OpenChallenge.id) == challenge_id)
        if only_if is not None:
            statement = statement.where(col(OpenChallenge.status) == only_if)
        if expires_after is not None:
            statement = statement.where(col(OpenChallenge.expires_at) > expires_after)
        async with self._sessionmaker() as session, session.begin():
            result = await session.exec(statement.values(**values))
        return result.rowcount == 1

    # ---- calls ------------------------------------------------------------------------------------

    async def add_call(self, message_id: int, game_id: int, channel_id: int, player_id: str, wait_key: str) -> None:
        async with self._sessionmaker() as session, session.begin():
            session.add(CallMessage(message_id=message_id, game_id=game_id, channel_id=channel_id,
                                    player_id=player_id, wait_key=wait_key))

    async def calls_of(self, game_id: int) -> list[CallMessage]:
        async with self._sessionmaker() as session, session.begin():
            return list((await session.exec(select(CallMessage).where(CallMessage.game_id == game_id))).all())

    async def drop_call(self, message_id: int) -> None:
        async with self._sessionmaker() as session, session.begin():
            await session.exec(delete(CallMessage).where(col(CallMessage.message_id) == message_id))

    # ---- settings ----------------------------------------------------------------------------------

    async def time_zone(self, user_id: str) -> str | None:
        async with self._sessionmaker() as session, session.begin():
            row = await session.get(PlayerSettings, user_id)
        return row.time_zone if row is not None else None

    async def set_time_zone(self, user_id: str, time_zone: str) -> None:
        async with self._sessionmaker() as session, session.begin():
            row = await session.get(PlayerSettings, user_id)
            if row is None:
                session.add(PlayerSettings(user_id=user_id, time_zone=time_zone))
            else:
                row.time_zone = time_zone

    async def default_pack(self, guild_id: int | None) -> str:
        """The pack a server's admins chose for /game new (Chapter Approved 2025-26 if none, or not a server)."""
        if guild_id is None:
            return CA_PACK
        if guild_id not in self._packs:
            async with self._sessionmaker() as session, session.begin():
                row = await session.get(ServerSettings, guild_id)
            self._packs[guild_id] = row.default_pack if row is not None else CA_PACK
        return self._packs[guild_id]

    async def set_default_pack(self, guild_id: int, pack: str) -> None:
        async with self._sessionmaker() as session, session.begin():
            row = await session.get(ServerSettings, guild_id)
            if row is None:
                session.add(ServerSettings(guild_id=guild_id, default_pack=pack))
            else:
                row.default_pack = pack
        self._packs[guild_id] = pack

    # ---- reminders ---------------------------------------------------------------------------------

    async def schedule(self, game_id: int, channel_id: int, starts_at: datetime) -> list[Reminder]:
        """A reminder 15 minutes before `starts_at` (when that is still to come) and one at the time."""
        moments = [("soon", starts_at - REMINDER_LEAD), ("start", starts_at)]
        rows = [Reminder(game_id=game_id, channel_id=channel_id, kind=kind, starts_at=starts_at, due_at=due)
                for kind, due in moments if due > utcnow()]
        async with self._sessionmaker() as session, session.begin():
            session.add_all(rows)
        return rows

    async def pending_reminders(self) -> list[Reminder]:
        """The reminders not sent yet, soonest first (at start-up, to arm them again)."""
        query = select(Reminder).where(col(Reminder.sent).is_(False)).order_by(col(Reminder.due_at))
        async with self._sessionmaker() as session, session.begin():
            return list((await session.exec(query)).all())

    async def starts_at(self, game_id: int) -> datetime | None:
        """When a scheduled game starts (None: it was not scheduled)."""
        query = select(Reminder.starts_at).where(Reminder.game_id == game_id).limit(1)
        async with self._sessionmaker() as session, session.begin():
            return (await session.exec(query)).first()

    async def mark_sent(self, reminder_id: int) -> bool:
        """Claim a reminder for sending: whether this call did (another process, or a second timer, may race)."""
        statement = (update(Reminder).where(col(Reminder.id) == reminder_id, col(Reminder.sent).is_(False))
                     .values(sent=True))
        async with self._sessionmaker() as session, session.begin():
            return (await session.exec(statement)).rowcount == 1
