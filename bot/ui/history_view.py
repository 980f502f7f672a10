"""A player's finished games as a paged embed (`/game history`), with Newer/Older buttons that keep working
after a restart. It shows only what the games' result cards showed everyone."""

from __future__ import annotations

import discord

from bot.engine.errors import GameError
from bot.store.community_models import GameSummary
from bot.store.history import Page
from bot.armies.data import army_data
from bot.ui.dynamic import DIGITS, CustomId, Field, Persistent
from bot.engine.names import size_name
from bot.ui.text import clip

PAGE = 10
PAGE_ID = CustomId("mdh:{player}:{pack}:{offset}", player=DIGITS, pack=Field(r"[a-z0-9-]*"))  # no pack: all games
HOW = {"battle": "battle over", "concession": "concession", "time": "on time", "abandoned": "abandoned"}


class HistoryPage(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=PAGE_ID):
    what = "Page {offset} of the history of {player}"

    def __init__(self, player: str, pack: str | None, offset: int, label: str, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=self.custom_ids.format(player=player, pack=pack or "",
                                                                            offset=offset)))
        self.player, self.pack, self.offset = player, pack or None, offset

    @classmethod
    async def from_custom_id(cls, interaction, item, match) -> HistoryPage:
        return cls(**cls.custom_ids.read(match), label=item.label or "")

    async def act(self, interaction: discord.Interaction) -> None:
        page = await interaction.client.service.history.history(  # type: ignore[attr-defined]
            interaction.guild_id, self.player, pack=self.pack, offset=self.offset, limit=PAGE)
        titles = pack_titles(interaction.client.service.packs)  # type: ignore[attr-defined]
        await interaction.response.edit_message(**history_message(interaction.guild_id, self.player, self.pack,
                                                                  self.offset, page, titles))


def pack_titles(packs) -> dict[str, str]:
    return {rules.pack: rules.title for rules in packs}


def history_message(guild_id: int, player: str, pack: str | None, offset: int, page: Page,
                    titles: dict[str, str]) -> dict:
    if not page.total:
        raise GameError(f"<@{player}> has no finished games on this server"
                        + (f" in {titles.get(pack, pack)}." if pack else "."))
    name = page.rows[0].side(player).name if page.rows else "?"
    lines = [_line(guild_id, player, row, titles) for row in page.rows]
    embed = discord.Embed(title=clip(f"{name}'s games" + (f" ({titles.get(pack, pack)})" if pack else ""), 256),
                          description=clip("\n".join(lines), 4096), colour=discord.Colour.blurple())
    embed.set_footer(text=f"Games {offset + 1}–{offset + len(page.rows)} of {page.total}, newest first")
    view = discord.ui.View(timeout=None)
    view.add_item(HistoryPage(player, pack, max(0, offset - PAGE), "Newer", disabled=offset == 0))
    view.add_item(HistoryPage(player, pack, offset + PAGE, "Older", disabled=offset + PAGE >= page.total))
    return dict(embed=embed, view=view)


def _line(guild_id: int, player: str, row: GameSummary, titles: dict[str, str]) -> str:
    me = row.side(player)  # in doubles, their side's
    mine, theirs = (row.vp_a, row.vp_b) if me.a else (row.vp_b, row.vp_a)
    if row.reason == "abandoned":
        result = "abandoned"
    else:
        result = "draw" if row.winner is None else "win" if row.winner == me.seat else "loss"
        result = f"**{result}** ({HOW[row.reason]})"
    where = " · ".join(x for x in (titles.get(row.pack, row.pack), size_name(row.size) if row.size else None,
                                   row.mission, row.deployment) if x)
    factions = (row.faction_a, row.faction_b) if me.a else (row.faction_b, row.faction_a)
    if any(factions):  # games from before armies, or without them, have none
        data = army_data()
        where += " · " + " vs ".join(data.faction_name(f) if f else "?" for f in factions)
    link = (f" · [result](https://discord.com/channels/{guild_id}/{row.channel_id}/{row.result_message_id})"
            if row.result_message_id else "")
    who = f"doubles with **{me.partner}** vs **{me.opponents}**" if me.partner else f"vs **{me.opponents}**"
    return f"<t:{int(row.ended_at.timestamp())}:d> {who} · {where} · {mine}–{theirs} · {result}{link}"
