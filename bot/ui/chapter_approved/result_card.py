"""The end of a game: per-round score sheet by source, the victor, the seed and how to verify the game."""

from __future__ import annotations

import discord


from bot.engine.chapter_approved.state import GameState
from bot.engine.rng import seed_hash
from bot.services.game_log import score_sheet
from bot.present import GameModel
from bot.ui.markup import description
from bot.present.pictures.drawing import sheet_filename
from bot.ui.text import clip, field_value


def score_sheet_text(state: GameState) -> dict[str, str]:
    """Player name -> a monospaced table: round, Primary, Secondary, Challenger, total, lost to caps."""
    tables = {}
    for sheet in score_sheet(state):
        lines = ["Rnd  Pri  Sec  Chl  Tot  Lost"]
        for row in sheet["rounds"]:
            label = "pre" if row["round"] == 0 else str(row["round"])
            lines.append(f"{label:>3} {row['primary']:>4} {row['secondary']:>4} {row['challenger']:>4} "
                         f"{row['total']:>4} {row['lost_to_caps']:>5}")
        if sheet["battle_ready"]:
            lines.append(f"Battle Ready {sheet['battle_ready']:>13}")
        lines.append(f"Total {sheet['total']:>20}")
        tables[sheet["name"]] = "```\n" + "\n".join(lines) + "\n```"
    return tables


def verify_text(state: GameState, game_id: int) -> str:
    seed = state.setup.seed
    return (f"Seed `` {seed} `` — SHA-256 `{seed_hash(seed)}` (the hash shown since the start). Anyone can "
            f"re-derive every shuffle, draw and roll: `/game log`, then `python -m bot verify game-{game_id}.json` "
            "('Verify a game' in the docs).")


def result_embed(model: GameModel, state: GameState) -> discord.Embed:
    """The result card, its title and verdict the game's public model's; sent with `sheet_file`, whose picture it
    shows."""
    game_id = model.game
    embed = discord.Embed(title=clip(f"Result — {model.title}", 256),
                          description=description(model.status_text, model.replay),
                          colour=discord.Colour.dark_gold())
    for player, (name, table) in zip(state.players, score_sheet_text(state).items()):
        army = "".join(f"{a.label}\n" for a in player.armies)
        embed.add_field(name=name, value=field_value(army + table), inline=False)
    embed.add_field(name="Verify the game", value=field_value(verify_text(state, game_id)), inline=False)
    embed.set_image(url=f"attachment://{sheet_filename(game_id)}")
    embed.set_footer(text=f"Game {game_id} · /game log for the full log · /game sheet for this picture")
    return embed
