"""Team events' texts and embeds, from the record alone: a team match's pairing board (its public model,
bot/present/teams.py, as an embed: only what is revealed), what a captain sees privately at each step, the draft,
the rosters and the team standings."""

from __future__ import annotations

import discord

from bot.engine.teams import event as teams
from bot.engine.teams.match import GameKind, Step, TeamMatch, options
from bot.engine.teams.scoring import GAME_BP
from bot.present.entrants import name_of
from bot.present.teams import match as match_model
from bot.present.teams import step_title, team_name
from bot.store.tournament_repository import TournamentRecord
from bot.services.team_rounds import disposition_name, results_by_round, team_event
from bot.ui.armies import escaped
from bot.ui.text import clip

COLOUR = discord.Colour.dark_gold()
STEP_ASKS = {Step.DEFENDER: "Choose your Defender", Step.ATTACKERS: "Choose your two Attackers",
             Step.CHOICE: "Choose the Attacker your Defender plays", Step.LAYOUT: "Declare your Defender's layout"}


def member(record: TournamentRecord, player: str, *, with_list: bool = False) -> str:
    """A player as a captain needs them: name, faction and detachments, Force Disposition (and the list's points
    at an open-list event)."""
    entry = record.state.lists.get(player)
    parts = [name_of(record, player)]
    if entry is not None:
        parts.append(entry.army.label)
    disposition = record.state.dispositions.get(player)
    if disposition is not None:
        parts.append(disposition_name(disposition) or disposition)
    if with_list and entry is not None and entry.army.points is not None:
        parts.append(f"{entry.army.points} pts")
    return " · ".join(parts)


def board_embed(record: TournamentRecord, round_number: int, pair: teams.TeamPair, *,
                deadline: int | None = None) -> discord.Embed:
    """The match's board: its public model (bot/present/teams.py) as an embed. Never a sealed pick."""
    shown = match_model(record, round_number, pair, {})
    names = shown["teams"]
    embed = discord.Embed(title=clip(f"Round {round_number}, match {pair.number}: {names[0]} vs {names[1]}", 256),
                          colour=COLOUR)
    lines = []
    for reveal in shown["revealed"]:
        how = " (forced: the only ones left)" if reveal["forced"] else ""
        both = " · ".join(f"{escaped(names[i])}: {escaped(s)}" for i, s in enumerate(reveal["picks"]) if s)
        lines.append(f"**{reveal['what']}**{how}: {both}")
    if lines:
        embed.add_field(name="Revealed", value=clip("\n".join(lines[-12:]), 1024), inline=False)
    if shown["games"]:
        games = []
        for game in shown["games"]:
            layout = f"layout {game['layout']}" if game["layout"] else "layout to declare"
            score = f" — **{game['vp'][0]}–{game['vp'][1]}** ({game['bp'][0]}–{game['bp'][1]} BP)" \
                if game["state"] == "done" else ""
            games.append(f"Table {game['table']}: {escaped(game['names'][0])} vs {escaped(game['names'][1])}, "
                         f"{layout}{game['note']}{score}")
        size = team_event(record).rules.size
        embed.add_field(name=f"Games ({len(games)} of {size})", value=clip("\n".join(games), 1024), inline=False)
    if shown["reported"]:
        embed.add_field(name=f"Battle Points ({shown['reported']} of {shown['total'] // GAME_BP} games in)",
                        value=f"{escaped(names[0])} **{shown['bp'][0]}** – **{shown['bp'][1]}** {escaped(names[1])}: "
                        f"a win needs a lead of {shown['margin']} of {shown['total']}.", inline=False)
    if not pair.match.done:
        state = [f"{name}: {'🔒 locked in' if locked else '⏳ to choose'}" for name, locked in zip(names, shown["locked"])]
        due = f"\nDeadline <t:{deadline}:R>." if deadline else ""
        embed.description = f"**{shown['step']}**\n" + " · ".join(state) + due
    elif shown["outcome"] is not None:
        embed.description = result_line(shown)
    else:
        embed.description = "Every game is fixed: each plays in its table thread. The score follows here."
    embed.set_footer(text="Each step is secret: both captains choose, then both choices are shown together.")
    return embed


def result_line(shown: dict) -> str:
    """A complete match's result, from its public model: which team won by the margin, or a draw."""
    names, bp = [escaped(n) for n in shown["teams"]], shown["bp"]
    if shown["outcome"] == "draw":
        return (f"🤝 **A draw**, {bp[0]}–{bp[1]} Battle Points: neither team led by the {shown['margin']} a win "
                "needs.")
    winner = 0 if shown["outcome"] == "win" else 1
    return (f"🏆 **{names[winner]} wins the match**, {bp[winner]}–{bp[1 - winner]} Battle Points (a win needs a lead "
            f"of {shown['margin']}).")


def leaders_to_call(record: TournamentRecord, pair: teams.TeamPair) -> list[str]:
    """The captains (and stand-ins) of the sides still to choose."""
    ev = team_event(record)
    called = []
    for side in pair.match.waiting_on():
        team = ev.team(pair.teams[side])
        called += [p for p in (team.captain, team.stand_in) if p]
    return called


def board_content(record: TournamentRecord, pair: teams.TeamPair) -> str:
    called = leaders_to_call(record, pair)
    if not called:
        return ""
    return " ".join(f"<@{p}>" for p in called) + f": {STEP_ASKS[pair.match.step].lower()} with **Choose**."


def captain_view_text(record: TournamentRecord, pair: teams.TeamPair, side: int) -> str:
    """What a captain sees privately at this step: both pools with each player's army and disposition."""
    match = pair.match
    open_lists = record.state.list_policy == "open"
    lines = [f"**{STEP_ASKS[match.step]}** ({step_title(match)}). Nobody sees it until the other captain has "
             "chosen too."]
    for i in (side, 1 - side):
        who = "Your pool" if i == side else f"{team_name(record, pair.teams[i])}'s pool"
        pool = match.pools[i]
        if pool:
            lines.append(f"{who}: " + "; ".join(escaped(member(record, p, with_list=open_lists)) for p in pool))
    if match.step == Step.CHOICE:
        offered = options(match, side)
        lines.append("Offered against your Defender: " + "; ".join(escaped(member(record, p)) for p in offered))
    return clip("\n".join(lines), 2000)


def locked_line(record: TournamentRecord, match: TeamMatch, side: int, picks: tuple[str, ...], *,
                shown: bool) -> str:
    """A captain's private record of their choice at `match`'s step, in full; `shown`: the board shows it already
    (the other captain had chosen, or a layout declared in turn)."""
    def who(player: str | None) -> str:
        return f"**{escaped(name_of(record, player or ''))}**"

    if match.step == Step.DEFENDER:
        what = f"{who(picks[0])} as your Defender"
    elif match.step == Step.ATTACKERS:
        what = f"{who(picks[0])} and {who(picks[1])} as your Attackers against {who(match.defenders[1 - side])}"
    elif match.step == Step.CHOICE:
        what = f"{who(picks[0])} as the Attacker your Defender {who(match.defenders[side])} plays"
    else:
        game = next(g for g in match.games if g.module == match.module and g.kind == GameKind.DEFENDER
                    and g.defender == g.players[side])
        what = f"Layout {picks[0]} for {who(game.players[side])}'s game against {who(game.players[1 - side])}"
    after = "The board shows it now." if shown else "Revealed once the other captain has chosen."
    return clip(f"🔒 Locked in: {what} ({step_title(match)}). {after}", 2000)


def draft_lines(record: TournamentRecord) -> list[str]:
    ev = team_event(record)
    current = ev.rounds[-1]
    records = teams.team_records(ev.model_copy(update={"rounds": ev.rounds[:-1]}), results_by_round(record))

    def who(team_id: str) -> str:
        r = records[team_id]
        return f"{escaped(team_name(record, team_id))} ({r.team_points} TP, {r.game_wins} wins)"

    lines = [f"**Bye**: {who(current.bye)}"] if current.bye else []
    lines += [f"**Match {m.number}**: {who(m.teams[0])} vs {who(m.teams[1])}" for m in current.matches]
    return lines


def roster_lines(record: TournamentRecord, team: teams.Team, problems: list[str], *, armies: bool) -> list[str]:
    """A roster, each player with their army and disposition where `armies` (closed lists stay with the team and
    the organisers), then what keeps it from playing."""
    lines = [f"**{escaped(team.name)}** — captain <@{team.captain}>"
             + (f", stand-in <@{team.stand_in}>" if team.stand_in else "")]
    lines += [f"• <@{p}>" + (f" {escaped(member(record, p))}" if armies else "") for p in team.members]
    lines += [f"⚠️ {p}" for p in problems]
    return lines


def standings_lines(record: TournamentRecord) -> list[str]:
    ev = team_event(record)
    lines = []
    for rank, r in teams.standings(ev, results_by_round(record)):
        played = f"{r.wins}-{r.losses}" + (f"-{r.draws}" if r.draws else "")
        lines.append(f"**{rank}.** {escaped(team_name(record, r.team))}: {r.team_points} TP ({played}), "
                     f"{r.game_wins} game wins, {r.bp} BP" + (" · bye" if r.had_bye else ""))
    return lines
