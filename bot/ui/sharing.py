"""Sharing a game's live pages (bot/web): one player asks with /game share, the other agrees with a press, and
the links are posted in the channel once. Either player may revoke them; an organiser shares an event's screen."""

from __future__ import annotations

import discord

from bot.engine.errors import GameError
from bot.store.share_models import ShareKind
from bot.ui.dynamic import CustomId, Persistent
from bot.ui.seats import acting_seat

NO_WEB = ("This bot has no web pages: whoever hosts it turns them on with WEB_PORT and PUBLIC_URL in its .env "
          "(see the docs' Web pages and overlays).")


def web_of(client: discord.Client):
    """The bot's web surface, or a refusal saying how to turn it on."""
    web = getattr(client, "web", None)
    if web is None:
        raise GameError(NO_WEB)
    return web


def game_links_text(links: dict[str, str], names: tuple[str, str]) -> str:
    """The links of a game, in the words a streamer needs. Angle brackets: no preview cards in the channel."""
    overlay = links["scoreboard"].rsplit("/", 1)[0]
    return "\n".join([
        f"📺 **Live pages of {names[0]} vs {names[1]}**: anyone with a link can watch; hidden choices stay hidden "
        "until they are revealed. `/game share stop:True` revokes them.",
        f"Board: <{links['board']}>",
        f"OBS overlays (browser sources, 1920×1080): scoreboard <{links['scoreboard']}> · clock <{links['clock']}> "
        f"· mission <{links['mission']}>",
        f"Secondary cards: <{overlay}/cards?side=0> ({names[0]}) · <{overlay}/cards?side=1> ({names[1]})",
    ])


def event_links_text(links: dict[str, str], name: str, *, teams: bool = False) -> str:
    """`teams`: a team event's, with the overlay of a team match too."""
    return "\n".join([
        f"📺 **Live pages of {name}** (anyone with a link can watch: share them with care; `/tournament share "
        "stop:True` revokes them).",
        f"Venue screen: <{links['screen']}>",
        f"A table's board: <{links['table']}> (change the 1 for another table number); its OBS overlay: "
        f"<{links['overlay']}> (also …/overlay/clock, cards?side=0, mission). They follow the table from round to "
        "round.",
        *([f"A team match's OBS overlay: <{links['match']}> (change the 1 for another match): both teams' Battle "
           "Points against the margin, and the pairing step."] if teams else []),
    ])


class ShareAgree(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=CustomId("mdsh:{game}:{asker}")):
    """The opponent's agreement to share a game's live pages: `asker` is the asking player's seat (0 or 1)."""

    what = "Agreeing to share game {game}"

    def __init__(self, game: int, asker: int) -> None:
        super().__init__(discord.ui.Button(label="Agree to share", emoji="📺", style=discord.ButtonStyle.success,
                                           custom_id=self.custom_ids.format(game=game, asker=asker)))
        self.game, self.asker = game, asker

    async def act(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        record = await client.service.get_state(game_id=self.game)  # type: ignore[attr-defined]
        if acting_seat(interaction, record.setup, "agree to share it") == record.setup.players[self.asker]:
            raise GameError("Your opponent has to agree: wait for them to press the button.")
        web = web_of(client)
        token = await web.share(ShareKind.GAME, record.id, guild_id=record.guild_id, by=str(interaction.user.id))
        await interaction.response.edit_message(
            content=game_links_text(web.game_links(token), record.setup.names), view=None,
            allowed_mentions=discord.AllowedMentions.none())
