"""Who plays an event: registration with a Force Disposition, lists (submitted, chosen among, changed by an
organiser after the lock and logged), drops and reinstatements, and check-in."""

from __future__ import annotations

import hashlib

from bot.engine.errors import InvalidValue, NotAPlayer
from bot.engine.tournament import event as tournament
from bot.services import team_rounds
from bot.services.tournaments.events import EventChanges, StaleReport
from bot.store.tournament_models import TournamentStatus
from bot.store.tournament_repository import EntryList, EventState, ListChange, TournamentRecord


MAX_CLUB = 60


class Entries(EventChanges):
    async def register(self, guild_id: int, player: str, name: str, disposition: str | None = None,
                       club: str | None = None, partner: tuple[str, str] | None = None) -> TournamentRecord:
        """A player, with their Force Disposition where the event's deck has them: registered once, as it is
        written on their list; and their club (friendly fire keeps club mates apart), when they give one. In a
        doubles event, with their `partner` (id, name): the pair is one entrant, the player's id."""
        club = _club(club)

        def op(record: TournamentRecord) -> EventState:
            state = record.state
            names, partners = {**state.names, player: name}, state.partners
            if state.doubles != (partner is not None):
                raise InvalidValue("This is a doubles event: register with your partner (`partner:`)."
                                   if state.doubles else "This is a singles event: register without `partner:`.")
            if partner is not None:
                mate, mate_name = partner
                if mate == player:
                    raise InvalidValue("A pair is two players: name someone else as your partner.")
                for taken in (player, mate):  # as an entrant or as a partner
                    if state.entrant_of(taken) in state.event.players:
                        raise InvalidValue(f"{state.names.get(taken, taken)} is already registered, in the pair "
                                           f"{state.name_of(state.entrant_of(taken))}.")
                names[mate], partners = mate_name, {**partners, player: mate}
            dispositions = state.dispositions
            if state.event.pool and disposition is not None:
                raise InvalidValue("This event's deck has no Force Dispositions: register without one.")
            if not state.event.pool:
                # With lists, the list's detachment gives it; without, it is registered once, as the list says.
                chosen = disposition if disposition is not None or state.list_policy == "none" \
                    else dispositions.get(player)
                if chosen is None and state.list_policy == "none":
                    raise InvalidValue("Register with your list's Force Disposition: `/tournament register "
                                       "disposition:`.")
                if dispositions.get(player, chosen) != chosen:
                    raise InvalidValue("Your Force Disposition is registered once, with your list.")
                if chosen is not None:
                    dispositions = {**dispositions, player: chosen}
            event = state.event
            if state.teams is None:
                event = tournament.add_player(event, player)
            elif state.teams.team_of(player) is None:
                raise NotAPlayer("In a team event your captain registers you with `/team register` or `/team add`; "
                                 "then register your Force Disposition here.")
            elif disposition is None:
                raise InvalidValue("You are registered with your team: register your list's Force Disposition "
                                   "(`disposition:`), or submit your list.")
            clubs = {**state.clubs, player: club} if club else state.clubs
            return team_rounds.refuse_clashes(state.model_copy(update={
                "event": event, "names": names, "partners": partners, "dispositions": dispositions, "clubs": clubs,
            }), player)
        return await self._change(guild_id, op)

    async def submit_list(self, guild_id: int, player: str, entry: EntryList, *, by: str,
                          organiser: bool) -> TournamentRecord:
        """A registered player's list (again to replace it) until the deadline and the first round; after either,
        only an organiser changes it, and a change after the first round is logged. In a 2026-27 event the list's
        detachments give the player's Force Disposition, or among several the one it records or is chosen."""
        def op(record: TournamentRecord) -> EventState:
            state = record.state
            self.list_refusal(state, player, by=by, organiser=organiser)
            started = bool(state.event.rounds)
            update: dict = {"lists": {**state.lists, player: entry}}
            if started:
                before = state.lists.get(player)
                change = ListChange(player=player, by=by, before=before.army.list_id if before else None,
                                    after=settled_id(entry), at=self.now())
                update["list_changes"] = (*state.list_changes, change)
            disposition = entry.army.disposition
            if not state.event.pool and state.doubles:
                update.update(_pair_disposition(state.model_copy(update=update), player, entry, started))
            elif not state.event.pool and entry.army.to_choose:
                # several granted, none recorded: a choice made before stands where this list grants it too
                kept = state.dispositions.get(player)
                if kept in entry.army.dispositions:
                    update["lists"] = {**state.lists, player: _choosing(entry, kept)}
                elif started:
                    raise InvalidValue("This list's detachments do not grant the Force Disposition the player's "
                                       "games are paired with: correct the detachments.")
                else:  # to choose among those its detachments grant (`choose_disposition`)
                    update["dispositions"] = {p: d for p, d in state.dispositions.items() if p != player}
            elif not state.event.pool and disposition is not None:
                if started and state.dispositions.get(player) not in (None, disposition):
                    raise InvalidValue("This list's detachment gives another Force Disposition than the one the "
                                       "player's games are paired with: correct the detachment.")
                update["dispositions"] = {**state.dispositions, player: disposition}
            return team_rounds.refuse_clashes(state.model_copy(update=update), player)
        return await self._change(guild_id, op)

    async def choose_disposition(self, tournament_id: int, list_id: int, disposition: str, *, by: str,
                                 organiser: bool) -> TournamentRecord:
        """CA 2026-27: the Force Disposition a list plays when its detachments grant several and it records none,
        chosen among those only, by its player (or an organiser) as for the list itself; once the first round is
        paired it stays the one the player's games are paired with. In doubles the pair's, among those either
        player's list grants, chosen by either player."""
        guild_id = (await self.get(tournament_id)).guild_id

        def op(record: TournamentRecord) -> EventState:
            state = record.state
            player = next((p for p, e in state.lists.items() if e.army.list_id == list_id), None)
            if record.id != tournament_id or player is None:
                raise InvalidValue("That list is no longer in the event: submit it again.")
            entrant = state.entrant_of(player)  # in doubles, the pair plays one, from either player's list
            if state.entrant_of(by) != entrant and not organiser:
                raise NotAPlayer("Only an organiser can choose the Force Disposition of someone else's list.")
            self.list_refusal(state, player, by=by, organiser=organiser)
            if disposition not in state.granted(entrant):
                raise InvalidValue("Pick one of the Force Dispositions the list's detachments grant.")
            if state.event.rounds and state.dispositions.get(entrant) not in (None, disposition):
                raise InvalidValue("The player's games are paired with another Force Disposition.")
            lists = {**state.lists, **{p: _choosing(e, disposition) for p in state.members(entrant)
                                       if (e := state.lists.get(p)) and disposition in e.army.granted}}
            return team_rounds.refuse_clashes(state.model_copy(update={
                "lists": lists, "dispositions": {**state.dispositions, entrant: disposition}}), player)
        return await self._change(guild_id, op)

    def list_refusal(self, state: EventState, player: str, *, by: str, organiser: bool) -> None:
        """Raise why `by` may not enter `player`'s list now: no lists, not registered, locked or past the deadline
        (both but for an organiser)."""
        if state.list_policy == "none":
            raise InvalidValue("This event takes no lists.")
        if state.entrant_of(player) not in state.event.players:  # in doubles, each player of a pair has a list
            raise NotAPlayer("Register for the event first (`/tournament register`), then submit your list."
                             if player == by else "That player is not registered for this event.")
        if organiser:
            return
        if state.event.rounds:
            raise InvalidValue("Lists are locked since the first round started: an organiser can correct yours.")
        if state.list_deadline is not None and self.now() > state.list_deadline:
            raise InvalidValue("The list deadline has passed: an organiser can still take your list.")

    async def set_club(self, tournament_id: int, player: str, club: str | None) -> TournamentRecord:
        """The player's club (or team, in a singles event), which friendly fire keeps apart; None or "": none."""
        club = _club(club)

        def op(record: TournamentRecord) -> EventState:
            if player not in record.state.event.players:
                raise NotAPlayer("That player is not registered in this event.")
            clubs = {p: c for p, c in record.state.clubs.items() if p != player} | ({player: club} if club else {})
            return record.state.model_copy(update={"clubs": clubs})
        return await self.change_by_id(tournament_id, op)

    async def reinstate(self, guild_id: int, player: str) -> TournamentRecord:
        """The player's entrant (in doubles, either player's pair) is paired again from the next round."""
        return await self._change(guild_id, lambda r: r.state.model_copy(update={
            "event": tournament.reinstate_player(r.state.event, r.state.entrant_of(player))}))

    async def drop(self, guild_id: int, player: str) -> TournamentRecord:
        """The player's entrant (in doubles, either player's pair) drops."""
        return await self._change(guild_id, lambda r: r.state.model_copy(update={
            "event": tournament.drop_player(r.state.event, r.state.entrant_of(player))}))

    # --- check-in ------------------------------------------------------------------------------

    async def open_checkin(self, guild_id: int) -> TournamentRecord:
        def op(record: TournamentRecord) -> EventState:
            if record.state.event.rounds:
                raise InvalidValue("Check-in is before round 1: this event has started.")
            return record.state.model_copy(update={"checkin_open": True})
        return await self._change(guild_id, op)

    async def check_in(self, tournament_id: int, player: str) -> TournamentRecord:
        guild_id = (await self.get(tournament_id)).guild_id
        async with self._locked(guild_id):
            record = await self.get(tournament_id)
            state = record.state
            player = state.entrant_of(player)  # either player checks their pair in
            if record.status != TournamentStatus.ACTIVE or not state.checkin_open:
                raise InvalidValue("Check-in is closed.")
            if player not in state.event.players or player in state.event.dropped:
                raise NotAPlayer("You are not registered: `/tournament register` first, then check in.")
            if player in state.checked_in:
                raise InvalidValue("You are already checked in.")
            return await self._save(record, state.model_copy(update={"checked_in": (*state.checked_in, player)}))

    async def close_checkin(self, tournament_id: int, digest: str) -> TournamentRecord:
        """Close check-in, dropping exactly the players the organiser was shown (`absent_digest` of them);
        refused if the list changed since (someone checked in, dropped or registered)."""
        guild_id = (await self.get(tournament_id)).guild_id
        async with self._locked(guild_id):
            record = await self.get(tournament_id)
            if not record.state.checkin_open:
                raise InvalidValue("Check-in is closed already.")
            absent = not_checked_in(record)
            if absent_digest(absent) != digest:
                raise StaleReport("Who has checked in changed since: `/tournament checkin close` again.")
            event = record.state.event
            for player in absent:
                event = tournament.drop_player(event, player)
            return await self._save(record, record.state.model_copy(update={"event": event, "checkin_open": False}))


def _pair_disposition(state: EventState, player: str, entry: EntryList, started: bool) -> dict:
    """Doubles, CA 2026-27: the pair's Force Disposition once `player`'s list is in (`state` holds it), one of those
    either player's detachments grant: a choice the list records among several; else the one the pair has, while
    a list grants it (or the partner's list may: it is still to come); else the only one granted; else none, to
    choose. After the first round the pair's stays."""
    entrant, lists = state.entrant_of(player), dict(state.lists)
    kept, granted = state.dispositions.get(entrant), state.granted(entrant)
    recorded = entry.army.disposition if len(entry.army.dispositions) > 1 else None
    chosen = recorded or (kept if kept in granted else None)
    if started and kept is not None and chosen != kept:
        raise InvalidValue("Your pair's lists do not grant the Force Disposition its games are paired with: "
                           "correct the detachments.")
    if chosen is None and kept is not None and any(p not in lists for p in state.members(entrant)):
        chosen = kept  # the partner's list, still to come, may grant it
    if chosen is None and len(granted) == 1:
        chosen = granted[0]
    if chosen is not None and entry.army.to_choose and chosen in entry.army.dispositions:
        lists[player] = _choosing(entry, chosen)
    dispositions = {p: d for p, d in state.dispositions.items() if p != entrant}
    return {"lists": lists, "dispositions": {**dispositions, entrant: chosen} if chosen else dispositions}


def settled_id(entry: EntryList) -> int:
    list_id = entry.army.list_id
    if list_id is None:
        raise ValueError("an event's list is always stored")
    return list_id


def _choosing(entry: EntryList, disposition: str) -> EntryList:
    """The list with the Force Disposition chosen among those its detachments grant."""
    return entry.model_copy(update={"army": entry.army.model_copy(update={"disposition": disposition})})


def not_checked_in(record: TournamentRecord) -> list[str]:
    """The players still in the event who have not checked in."""
    state = record.state
    return [p for p in state.event.players if p not in state.event.dropped and p not in state.checked_in]


def absent_digest(players: list[str]) -> str:
    return hashlib.sha256("|".join(players).encode()).hexdigest()[:12]


def _club(club: str | None) -> str:
    club = (club or "").strip()
    if len(club) > MAX_CLUB:
        raise InvalidValue(f"A club's name is at most {MAX_CLUB} characters.")
    return club
