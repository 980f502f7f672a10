"""Stats as pictures: a player's record and a server's habits, drawn headless with matplotlib (Agg) in the font
the project ships, with a short text summary beside each. Computed from finished games' summaries only."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib

matplotlib.use("Agg")  # no screen: draw to memory

from matplotlib import font_manager  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from bot.store.community_models import GameSummary  # noqa: E402
from bot.store.history import FactionRecord  # noqa: E402

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

FONT = Path(__file__).with_name("fonts") / "DejaVuSans.ttf"
font_manager.fontManager.addfont(str(FONT))
STYLE: dict[RcKeyType, Any] = {"font.family": "DejaVu Sans", "font.size": 9}
WIN, LOSS, DRAW = "#3a7d44", "#b23a48", "#8a8a8a"
TOP = 8  # missions and deployments shown


@dataclass
class Record:
    wins: int = 0
    losses: int = 0
    draws: int = 0

    def add(self, outcome: str) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def __str__(self) -> str:
        return f"{self.wins}-{self.losses}-{self.draws}"


@dataclass
class Played:
    """A player's record in one kind of game (singles, or doubles as either player of a side), with its VP."""

    record: Record = field(default_factory=Record)
    vp_for: int = 0
    vp_against: int = 0

    def __str__(self) -> str:
        games = self.record.games
        return (f"{games} games, {self.record} (wins-losses-draws), average {self.vp_for / games:.1f}VP for and "
                f"{self.vp_against / games:.1f}VP against")


@dataclass
class PlayerStats:
    name: str
    singles: Played = field(default_factory=Played)
    doubles: Played = field(default_factory=Played)
    abandoned: int = 0
    # Every game below, singles and doubles alike: a doubles game as the player's side played it.
    by_pack: dict[str, Record] = field(default_factory=dict)
    by_mission: dict[str, Record] = field(default_factory=dict)
    by_turn: dict[str, Record] = field(default_factory=dict)  # going first, going second
    by_mode: dict[str, Record] = field(default_factory=dict)  # Fixed, Tactical
    by_faction: dict[str, Record] = field(default_factory=dict)  # the player's own army's faction (their side's)

    @property
    def kinds(self) -> dict[str, Played]:
        """Singles and doubles, those the player played."""
        return {kind: p for kind, p in (("Singles", self.singles), ("Doubles", self.doubles)) if p.record.games}

    @property
    def record(self) -> Record:
        """Every game's, singles and doubles."""
        s, d = self.singles.record, self.doubles.record
        return Record(s.wins + d.wins, s.losses + d.losses, s.draws + d.draws)

    def text(self) -> str:
        if not self.kinds:
            return f"{self.name} has no finished games here yet ({self.abandoned} abandoned)."
        lines = [f"**{self.name}**", *(f"{kind}: {played}." for kind, played in self.kinds.items())]
        for label, table in (("By pack", self.by_pack), ("Armies", self.by_faction),
                             ("Going first / second", self.by_turn), ("Fixed / Tactical", self.by_mode)):
            if table:
                lines.append(f"{label}: " + ", ".join(f"{k} {v}" for k, v in table.items()))
        if self.abandoned:
            lines.append(f"{self.abandoned} abandoned (not counted).")
        return "\n".join(lines)


def player_stats(rows: list[GameSummary], player: str, titles: dict[str, str] | None = None,
                 faction_name=str) -> PlayerStats:
    """A player's record from their finished games (abandoned ones counted apart), singles and doubles apart;
    `titles` names each pack by its title (pack id -> title) rather than its id, `faction_name` each faction id."""
    titles = titles or {}
    name = next((r.side(player).name for r in reversed(rows)), "This player")
    stats = PlayerStats(name)
    for r in rows:
        if r.reason == "abandoned":
            stats.abandoned += 1
            continue
        me = r.side(player)
        outcome = "draws" if r.winner is None else "wins" if r.winner == me.seat else "losses"
        played = stats.doubles if r.doubles else stats.singles
        played.record.add(outcome)
        played.vp_for += r.vp_a if me.a else r.vp_b
        played.vp_against += r.vp_b if me.a else r.vp_a
        stats.by_pack.setdefault(titles.get(r.pack, r.pack), Record()).add(outcome)
        stats.by_mission.setdefault(r.mission, Record()).add(outcome)
        if r.first is not None:
            stats.by_turn.setdefault("first" if r.first == me.seat else "second", Record()).add(outcome)
        faction = r.faction_a if me.a else r.faction_b
        if faction:
            stats.by_faction.setdefault(faction_name(faction), Record()).add(outcome)
        mode = r.mode_a if me.a else r.mode_b
        if mode:
            stats.by_mode.setdefault(mode.title(), Record()).add(outcome)
    return stats


@dataclass
class ServerStats:
    weeks: list[tuple[date, int]]
    missions: list[tuple[str, int]]
    deployments: list[tuple[str, int]]
    first: tuple[int, int]  # decided games with a first turn, and how many the player who took it won
    modes: dict[str, tuple[int, int]]  # choice -> (times chosen, wins)
    challenger: tuple[int, int]  # games with a Challenger, won by the Challenger

    @property
    def games(self) -> int:
        return sum(n for _, n in self.weeks)

    def text(self) -> str:
        if not self.games:
            return "No finished games on this server yet."
        decided, won = self.first
        lines = [f"{self.games} finished games."]
        if decided:
            lines.append(f"The player who took the first turn won {won} of {decided} decided games "
                         f"({100 * won / decided:.0f}%).")
        if self.missions:
            lines.append("Most played: " + ", ".join(f"{m} ({n})" for m, n in self.missions[:3]) + ".")
        for mode, (chosen, wins) in self.modes.items():
            lines.append(f"{mode}: chosen {chosen} times, won {wins}.")
        if self.challenger[0]:
            lines.append(f"A Challenger came into play in {self.challenger[0]} games and went on to win "
                         f"{self.challenger[1]}.")
        return "\n".join(lines)


def server_stats(tallies: dict[str, list[tuple[str, int, int]]]) -> ServerStats:
    """The server's picture from its tallies (bot/store/history.py, server_counts): (key, games, wins) by kind."""
    def ranked(kind: str) -> list[tuple[str, int]]:
        return sorted(((key, games) for key, games, _ in tallies.get(kind, [])), key=lambda x: (-x[1], x[0]))

    def total(kind: str) -> tuple[int, int]:
        rows = tallies.get(kind, [])
        return sum(games for _, games, _ in rows), sum(wins for _, _, wins in rows)

    decided, first_won = total("first")
    return ServerStats(
        weeks=sorted((date.fromisoformat(key), games) for key, games, _ in tallies.get("week", [])),
        missions=ranked("mission"), deployments=ranked("deployment"), first=(decided, first_won),
        modes={key.title(): (games, wins) for key, games, wins in sorted(tallies.get("mode", []))},
        challenger=total("challenger"))


def player_picture(stats: PlayerStats) -> bytes:
    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(8, 4.5), dpi=100)
        figure.suptitle(f"{stats.name}: {stats.record.games} games, {stats.record} (W-L-D)", fontweight="bold")
        left, right = figure.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.6]})
        _record_bars(left, {**{kind: p.record for kind, p in stats.kinds.items()},
                            **{f"Going {k}": v for k, v in stats.by_turn.items()}, **stats.by_mode})
        left.set_title("Results")
        missions = dict(sorted(stats.by_mission.items(), key=lambda kv: -kv[1].games)[:TOP])
        _record_bars(right, missions)
        right.set_title("By mission")
        return _png(figure)


def server_picture(stats: ServerStats) -> bytes:
    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(9, 6), dpi=100)
        figure.suptitle(f"This server: {stats.games} finished games", fontweight="bold")
        (weeks, first), (missions, modes) = figure.subplots(2, 2)
        if stats.weeks:
            weeks.bar([w.isoformat() for w, _ in stats.weeks], [n for _, n in stats.weeks], color="#4c72b0")
            weeks.tick_params(axis="x", labelrotation=45, labelsize=7)
        weeks.set_title("Games per week (from Monday)")
        decided, won = stats.first
        first.bar(["First turn won", "Second turn won"], [won, decided - won], color=[WIN, LOSS])
        first.set_title(f"Who won ({decided} decided games)")
        top = stats.missions[:TOP][::-1]
        missions.barh([m for m, _ in top], [n for _, n in top], color="#4c72b0")
        missions.set_title("Most played missions")
        labels = list(stats.modes) + (["Challenger"] if stats.challenger[0] else [])
        chosen = [c for c, _ in stats.modes.values()] + ([stats.challenger[0]] if stats.challenger[0] else [])
        wins = [w for _, w in stats.modes.values()] + ([stats.challenger[1]] if stats.challenger[0] else [])
        modes.bar(labels, chosen, color="#c0c0c0", label="in play")
        modes.bar(labels, wins, color=WIN, label="won")
        modes.legend(loc="upper right")
        modes.set_title("Fixed, Tactical and the Challenger")
        return _png(figure)


def rows_csv(rows: list[GameSummary]) -> bytes:
    """The rows behind the pictures, one finished game a line."""
    out = io.StringIO()
    # SQLModel sets __table__ on a table model when the class is made; its type does not declare it
    columns = [c.name for c in GameSummary.__table__.columns]  # type: ignore[attr-defined]
    writer = csv.writer(out)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([getattr(row, c) for c in columns])
    return out.getvalue().encode()


def _record_bars(axes, records: dict[str, Record]) -> None:
    labels = list(records)[::-1]
    done = [0] * len(labels)
    for attr, colour in (("wins", WIN), ("draws", DRAW), ("losses", LOSS)):
        values = [getattr(records[k], attr) for k in labels]
        axes.barh(labels, values, left=done, color=colour, label=attr)
        done = [d + v for d, v in zip(done, values)]
    axes.legend(loc="lower right", fontsize=7)


def _png(figure: Figure) -> bytes:
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()


MIN_DETACHMENT_GAMES = 5  # a detachment's own line is shown from this many games


@dataclass
class FactionLine:
    name: str
    record: Record
    detachments: list[tuple[str, Record]]

    @property
    def win_rate(self) -> float:
        return 100 * self.record.wins / self.record.games


@dataclass
class FactionStats:
    where: str
    lines: list[FactionLine]

    @property
    def games(self) -> int:
        return sum(line.record.games for line in self.lines)

    def text(self) -> str:
        if not self.lines:
            return f"No finished games with armies {self.where} yet."
        out = [f"**Factions {self.where}** (mirror matches left out): wins-losses-draws, win rate"]
        for line in self.lines:
            out.append(f"{line.name}: {line.record.games} games, {line.record} · {line.win_rate:.0f}%")
            out += [f"  ↳ {name}: {record.games} games, {record} · {100 * record.wins / record.games:.0f}%"
                    for name, record in line.detachments]
        return "\n".join(out)


def faction_stats(records: list[FactionRecord], where: str, faction_name, detachment_name) -> FactionStats:
    """Factions by games played, each with its detachments that have enough games to say something. A faction's
    game counts once; each detachment its army fielded counts it on that detachment's line."""
    by_faction: dict[str, FactionLine] = {}
    by_detachment: dict[tuple[str, str], Record] = {}
    for r in records:
        line = by_faction.setdefault(r.faction, FactionLine(faction_name(r.faction), Record(), []))
        if not r.further:
            line.record = Record(line.record.wins + r.wins, line.record.losses + r.losses,
                                 line.record.draws + r.draws)
        if r.detachment is not None:
            had = by_detachment.get((r.faction, r.detachment), Record())
            by_detachment[r.faction, r.detachment] = Record(had.wins + r.wins, had.losses + r.losses,
                                                            had.draws + r.draws)
    for (faction, detachment), record in by_detachment.items():
        if record.games >= MIN_DETACHMENT_GAMES:
            by_faction[faction].detachments.append((detachment_name(faction, detachment), record))
    lines = sorted(by_faction.values(), key=lambda line: (-line.record.games, line.name))
    for line in lines:
        line.detachments.sort(key=lambda pair: -pair[1].games)
    return FactionStats(where, lines)


def faction_picture(stats: FactionStats) -> bytes:
    with matplotlib.rc_context(STYLE):
        shown = stats.lines[:24]
        figure = Figure(figsize=(8, 1.5 + 0.3 * len(shown)), dpi=100)
        figure.suptitle(f"Factions {stats.where}: {stats.games} army-games", fontweight="bold")
        axes = figure.subplots()
        _record_bars(axes, {f"{line.name} ({line.win_rate:.0f}%)": line.record for line in shown})
        axes.set_xlabel("games (mirror matches left out)")
        return _png(figure)
