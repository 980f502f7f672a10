"""Tournament CSV exports: the standings and every game's result, as files to download."""

from __future__ import annotations

import csv
import io

import discord

from bot.engine.tournament import event as tournament
from bot.present.entrants import army_of, name_of, record_text
from bot.store.tournament_repository import TournamentRecord
from bot.ui.tournament.texts import result_notes


def standings_csv(record: TournamentRecord) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["rank", "player_id", "name", "record", "wins", "draws", "losses", "opponents_win_pct", "vp",
                     "path", "had_bye", "dropped", "notes", "faction", "detachment", "list_points", "list_flags"])
    notes = result_notes(record.state.event)
    for s in tournament.standings(record.state.event):
        entry = record.state.lists.get(s.player)
        army = entry.army if entry else None
        writer.writerow([s.rank, s.player, name_of(record, s.player), record_text(s.wins, s.draws, s.losses),
                         s.wins, s.draws, s.losses,
                         f"{s.opponents_win_pct:.2f}", s.vp, s.path, s.had_bye, s.dropped,
                         "; ".join(notes.get(s.player, ())), army.faction_name if army else "",
                         army.detachments_text if army else "",  # several: "A + B"
                         army.points if army and army.points is not None else "", entry.flags if entry else ""])
    return out.getvalue()


def results_csv(record: TournamentRecord) -> str:
    """Every game of every round, in table order; a bye is table 0 with no player B."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["round", "mission", "table", "player_a_id", "player_a", "player_b_id", "player_b",
                     "outcome", "vp_a", "vp_b", "reason", "faction_a", "faction_b"])

    def faction(player: str | None) -> str:
        army = army_of(record, player) if player else None
        return army.faction_name if army else ""

    for r in record.state.event.rounds:
        for res in sorted(r.results, key=lambda x: x.table):
            writer.writerow([r.number, r.mission or "", res.table, res.a, name_of(record, res.a), res.b or "",
                             name_of(record, res.b) if res.b else "", res.outcome.value, res.vp_a, res.vp_b,
                             res.reason.value, faction(res.a), faction(res.b)])
    return out.getvalue()


def csv_file(text: str, filename: str) -> discord.File:
    return discord.File(io.BytesIO(text.encode("utf-8")), filename=filename)
