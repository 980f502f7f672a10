"""One public model below every surface (bot/present): the Discord board and a page say the same words, each in its
own medium. The board writes the marks as markdown and escapes what players typed; a page reads plain words."""

from __future__ import annotations

import re

import discord

from bot.present import game_model
from bot.present.words import Code, Moment, Strong, Struck, plain, words
from bot.ui.markup import markdown
from tests.cogs.game_table import Table


def test_marks_are_markdown_on_discord_and_plain_words_on_a_page() -> None:
    line = words("• ", Struck("No Man's Land"), " removed · ", Strong("Sly_Marbo*"), "'s turn · seed ", Code("a_b"),
                 " · runs out ", Moment(1_800_000_000))
    assert markdown(line) == ("• ~~No Man's Land~~ removed · **Sly\\_Marbo\\***'s turn · seed `` a_b `` · runs out "
                              "<t:1800000000:R>")
    assert plain(line) == "• No Man's Land removed · Sly_Marbo*'s turn · seed a_b · runs out 08:00 UTC"


def unmarked(text: str) -> str:
    """Discord's markdown taken off again: what a reader of the board sees."""
    return re.sub(r"\\(.)", r"\1", re.sub(r"\*\*|~~|`` | ``", "", text))


async def test_the_board_and_the_page_say_the_same_words_and_a_name_stays_a_name(harness) -> None:
    table = Table(harness, harness.user("sly_marbo*"), harness.user("mad_dok*"))
    await table.start()
    await table.to_battle()
    await table.answer_all()
    record = await harness.bot.service.get_state(game_id=table.game_id)
    page = game_model(harness.bot.service.packs, record.state, game_id=record.id, version=record.version,
                      recent=[]).to_json()
    board = (await table.board())["embeds"][0]
    active = record.state.player(record.state.active).name
    assert "_" in active and "*" in active
    assert f"**{discord.utils.escape_markdown(active)}**'s turn" in board["description"]  # bold, the name escaped
    assert f"{active}'s turn" in page["status_text"]  # the page: the name as typed
    status, replay = unmarked(board["description"]).split("\n")
    assert status == page["status_text"] and replay == page["replay"]  # the same sentences: the seed a test fixed
    assert page["replay"].startswith("🔁 Replay of seed table fixed by")
    titles = [f["name"] for f in board["fields"]]
    for player in record.state.players:  # a field's title is plain words: no markdown to escape there
        assert any(title.startswith(f"{player.name} (") for title in titles)
    assert page["title"] == board["title"]
