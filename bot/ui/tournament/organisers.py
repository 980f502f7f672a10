"""Who runs an event: Manage Server, or the event's organiser role."""

from __future__ import annotations

import discord

from bot.store.tournament_repository import TournamentRecord


def is_organiser(interaction: discord.Interaction, record: TournamentRecord | None) -> bool:
    """Manage Server, or the event's organiser role."""
    if interaction.permissions.manage_guild:
        return True
    role = record.organiser_role_id if record is not None else None
    user = interaction.user
    return role is not None and isinstance(user, discord.Member) and user.get_role(role) is not None
