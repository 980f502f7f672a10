"""Tournament messages in Discord: texts and embeds (`texts`), CSV files as attachments (`exports`), what is posted and opened
in the server (`posting`) and the persistent buttons (`buttons`). The names other modules use are re-exported here."""

from __future__ import annotations

from bot.ui.tournament.buttons import (
    CheckInButton, CloseCheckInButton, ConfirmResult, DraftButton, NudgeButton, is_organiser, send_draft,
)
from bot.ui.tournament.exports import csv_file
from bot.ui.tournament.posting import (
    announce, archive_table_threads, collect_table_games, event_catalog, report_table_game,
)
from bot.ui.tournament.texts import (
    OUTCOME_WORDS, announced_text, checkin_closed_text, entrants, line_embeds, own_standing, pack_embeds,
    report_text, score_line, side, side_users, standings_messages, status_lines,
)

__all__ = [
    "OUTCOME_WORDS", "CheckInButton", "CloseCheckInButton", "ConfirmResult", "DraftButton", "NudgeButton",
    "announce", "announced_text", "archive_table_threads", "checkin_closed_text", "collect_table_games",
    "csv_file", "entrants", "event_catalog", "is_organiser", "line_embeds", "own_standing", "pack_embeds",
    "report_table_game", "report_text", "score_line", "send_draft", "side", "side_users", "standings_messages",
    "status_lines",
]
