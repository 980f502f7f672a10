"""Ladder standings as a paged embed whose Newer/Older buttons keep working after a restart."""

from __future__ import annotations

import discord

from bot.engine.errors import GameError
from bot.engine.ladder import PROVISIONAL_GAMES, Standing
from bot.store.community_models import Ladder
from bot.ui.dynamic import CustomId, Persistent
from bot.ui.text import clip

PAGE = 20
PAGE_ID = CustomId("mdl:{ladder}:{offset}")


class StandingsPage(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=PAGE_ID):
    what = "Page {offset} of ladder {ladder}"

    def __init__(self, ladder: int, offset: int, label: str, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=self.custom_ids.format(ladder=ladder, offset=offset)))
        self.ladder, self.offset = ladder, offset

    @classmethod
    async def from_custom_id(cls, interaction, item, match) -> StandingsPage:
        return cls(**cls.custom_ids.read(match), label=item.label or "")

    async def act(self, interaction: discord.Interaction) -> None:
        ladders = interaction.client.service.ladders  # type: ignore[attr-defined]
        ladder = await ladders.repo.ladder(self.ladder)
        if ladder is None or ladder.guild_id != interaction.guild_id:
            raise GameError("That ladder no longer exists.")
        rows, total = await ladders.repo.page(ladder.id, self.offset, PAGE)
        await interaction.response.edit_message(**standings_message(ladder, rows, total, self.offset))


def standings_message(ladder: Ladder, rows: list[Standing], total: int, offset: int) -> dict:
    title = f"{ladder.name}, season {ladder.season}" + (" (archived)" if ladder.archived_at else "")
    if not rows:
        description = "Nobody has played a counted game yet."
    else:
        description = "\n".join(f"**{offset + i}.** {standing_line(s)}" for i, s in enumerate(rows, 1))
    embed = discord.Embed(title=clip(title, 256), description=clip(description, 4096), colour=discord.Colour.gold())
    embed.set_footer(text=f"Rating: mu − 3σ, from openskill; ~ provisional under {PROVISIONAL_GAMES} games. "
                          f"Players {offset + 1 if rows else 0}–{offset + len(rows)} of {total}.")
    view = discord.ui.View(timeout=None)
    view.add_item(StandingsPage(ladder.id, max(0, offset - PAGE), "Higher", disabled=offset == 0))
    view.add_item(StandingsPage(ladder.id, offset + PAGE, "Lower", disabled=offset + PAGE >= total))
    return dict(embed=embed, view=view)


def standing_line(s: Standing) -> str:
    mark = "~" if s.provisional else ""
    return (f"{discord.utils.escape_markdown(s.name)} — {mark}{s.rating:.1f} "
            f"({s.games} games, {s.wins}-{s.losses}-{s.draws})")
