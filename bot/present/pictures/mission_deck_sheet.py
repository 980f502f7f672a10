"""The score sheet as a picture (PNG): VP per battle round by source for both players, readable on a phone.

`score_sheet_content` gathers every string the picture shows, from public information only (the VP
ledger, sides, the result; the seed once it is public), so a test can check what a sheet reveals;
`render_score_sheet` only lays those strings out.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import GameState, Source, Status
from bot.engine.rng import seed_hash
from bot.services.game_log import score_sheet, seed_is_public
from bot.present.mission_deck_words import mission_title
from bot.present.pictures import Picture
from bot.present.pictures.drawing import (
    HEADER, INK, MARGIN, MUTED, PAPER, RULE, STRIPE, WIDTH, draw_centred, draw_heading, fit_text, load_font,
    sheet_filename, side_colour,
)
from bot.engine.names import title_case

LABEL_COLUMN = 440
ROW = 46




@dataclass(frozen=True)
class Line:
    label: str
    per_round: tuple[int | None, ...]  # None: not scored by round (Battle Ready)
    total: int
    kind: str = "source"  # "source", "lost" or "total"


@dataclass(frozen=True)
class PlayerSheet:
    heading: str
    side: str | None  # "Attacker", "Defender" or None before sides are chosen
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class SheetContent:
    title: str
    mission: str
    rounds: tuple[int, ...]
    players: tuple[PlayerSheet, ...]
    outcome: str
    footer: tuple[str, ...]

    def text(self) -> str:
        """Every string the picture shows."""
        parts = [self.title, self.mission, self.outcome, *self.footer]
        for player in self.players:
            parts.append(player.heading)
            parts += [line.label for line in player.lines]
        return "\n".join(parts)


def score_sheet_content(catalog: Catalog, state: GameState, game_id: int) -> SheetContent:
    sheets = score_sheet(state)
    rounds = tuple(row["round"] for row in sheets[0]["rounds"])
    players = tuple(_player_sheet(catalog, state, sheet, rounds) for sheet in sheets)
    return SheetContent(
        title=f"Score sheet — game {game_id}",
        mission=mission_title(catalog, state) + (f" · Twist: {title_case(catalog.twist(state.mission.twist).name)}"
                                                 if state.mission.twist else ""),
        rounds=rounds, players=players, outcome=_outcome(state), footer=_footer(state, game_id))


def _player_sheet(catalog: Catalog, state: GameState, sheet: dict, rounds: tuple[int, ...]) -> PlayerSheet:
    pid = sheet["player"]
    by_round = {row["round"]: row for row in sheet["rounds"]}

    def line(label: str, key: str, kind: str = "source") -> Line:
        values = tuple(by_round[r][key] for r in rounds)
        return Line(label, values, sum(values), kind)

    cards: dict[str, dict[int, int]] = {}  # Secondary card -> round -> VP, in the order they first scored
    for entry in state.vp:
        if entry.player == pid and entry.source == Source.SECONDARY:
            per_round = cards.setdefault(entry.card or "", {})
            per_round[entry.round] = per_round.get(entry.round, 0) + entry.awarded
    secondary = [Line("Secondary: " + (title_case(catalog.secondary(card).name) if card else "other"),
                      tuple(per_round.get(r, 0) for r in rounds), sum(per_round.values()))
                 for card, per_round in cards.items()]
    if not secondary:
        secondary = [line("Secondary", Source.SECONDARY.value)]
    side = None if state.attacker is None else ("Attacker" if pid == state.attacker else "Defender")
    lines = (
        line("Primary", Source.PRIMARY.value), *secondary, line("Challenger", Source.CHALLENGER.value),
        Line("Battle Ready", tuple(None for _ in rounds), sheet["battle_ready"]),
        line("Lost to caps", "lost_to_caps", "lost"),
        Line("Total", tuple(by_round[r]["total"] for r in rounds), sheet["total"], "total"),
    )
    armies = " & ".join(a.label for a in state.player(pid).armies)
    heading = sheet["name"] + (f" — {side}" if side else "") + (f" · {armies}" if armies else "")
    return PlayerSheet(heading=heading, side=side, lines=lines)


def _outcome(state: GameState) -> str:
    score = " – ".join(f"{p.name} {state.total_vp(p.id)}" for p in state.players)
    result = state.result
    if result is None:
        where = f"battle round {state.round}" if state.status == Status.BATTLE else "before the battle"
        return f"In progress ({where}): {score}"
    if result.reason == "abandoned":
        return f"Abandoned, no result: {score}"
    if result.winner is None:
        return f"Draw: {score}"
    how = {"concession": " (concession)", "time": " (on time)"}.get(result.reason, "")
    return f"Winner: {state.player(result.winner).name}{how} · {score}"


def _footer(state: GameState, game_id: int) -> tuple[str, ...]:
    seed = state.setup.seed
    if not seed_is_public(state):
        return (f"Seed SHA-256: {seed_hash(seed)}", "The seed is revealed when the game ends.")
    fixed = " (fixed by a player: a replay)" if state.setup.seed_fixed_by else ""
    return (f"Seed: {seed}{fixed}", f"SHA-256: {seed_hash(seed)}",
            f"Verify: /game log, then python -m bot verify game-{game_id}.json")


def _height(content: SheetContent) -> int:
    table = sum(60 + ROW * (len(p.lines) + 1) + 30 for p in content.players)
    return 150 + 60 + table + 50 + 40 * len(content.footer) + MARGIN


def render_score_sheet(content: SheetContent) -> bytes:
    """PNG bytes of the sheet, WIDTH pixels wide."""
    image = Image.new("RGB", (WIDTH, _height(content)), PAPER)
    draw = ImageDraw.Draw(image)
    big, body, small = load_font(44), load_font(30), load_font(24)
    inner = WIDTH - 2 * MARGIN

    draw.rectangle((0, 0, WIDTH, 130), fill=HEADER)
    draw.text((MARGIN, 22), fit_text(draw, content.title, big, inner), fill=PAPER, font=big, stroke_width=1,
              stroke_fill=PAPER)
    draw.text((MARGIN, 82), fit_text(draw, content.mission, small, inner), fill=(225, 225, 225), font=small)
    y = 150
    draw.text((MARGIN, y), fit_text(draw, content.outcome, body, inner), fill=INK, font=body, stroke_width=1,
              stroke_fill=INK)
    y += 60

    columns = len(content.rounds) + 1
    column = (inner - LABEL_COLUMN) / columns
    for player in content.players:
        colour = side_colour(player.side)
        y = draw_heading(draw, player.heading, player.side, y, body)
        heads = [f"R{r}" if r else "Pre" for r in content.rounds] + ["Total"]
        for i, head in enumerate(heads):
            draw_centred(draw, head, MARGIN + LABEL_COLUMN + column * (i + 0.5), y + 8, small, MUTED)
        y += ROW
        for n, line in enumerate(player.lines):
            _draw_line(draw, line, y, column, stripe=n % 2 == 0, colour=colour, fonts=(body, small))
            y += ROW
        y += 30

    y += 10
    draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=RULE, width=2)
    y += 16
    for text in content.footer:
        draw.text((MARGIN, y), fit_text(draw, text, small, inner), fill=INK, font=small)
        y += 40
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _draw_line(draw: ImageDraw.ImageDraw, line: Line, y: int, column: float, *, stripe: bool, colour, fonts) -> None:
    body, small = fonts
    if line.kind == "total":
        draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW), fill=colour)
        ink, bold = PAPER, 1
    else:
        if stripe:
            draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW), fill=STRIPE)
        ink, bold = (MUTED if line.kind == "lost" else INK), 0
    draw.text((MARGIN + 10, y + 7), fit_text(draw, line.label, body, LABEL_COLUMN - 20), fill=ink, font=body,
              stroke_width=bold, stroke_fill=ink)
    cells = [("" if v is None else "-" if v == 0 and line.kind != "total" else str(v)) for v in line.per_round]
    cells.append(str(line.total))
    for i, cell in enumerate(cells):
        last = i == len(cells) - 1
        draw_centred(draw, cell, MARGIN + LABEL_COLUMN + column * (i + 0.5), y + 7, body, ink,
                 bold=1 if last or line.kind == "total" else 0)


def score_sheet_picture(catalog: Catalog, state: GameState, game_id: int) -> Picture:
    """The score sheet picture: public information only, so it may be posted at any time."""
    return Picture(sheet_filename(game_id), render_score_sheet(score_sheet_content(catalog, state, game_id)))
