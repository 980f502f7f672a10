"""One embed per card of a mission pack, always within Discord's embed limits.

The printed text is shown as the seed gives it; the typed fields the bot enforces (Fixed symbol,
When Drawn, scoring options and their windows) are summarised beside it. Map data that is measured
rather than printed carries its confidence mark, so an estimate never looks official.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import discord

from bot.engine.chapter_approved import catalog as c
from bot.engine.chapter_approved.faq_search import FaqMatch
from bot.present.mission_deck_words import WINDOWS
from bot.ui.embeds import Section, build_embed
from bot.ui.text import title_case

Card = (
    c.PrimaryMission | c.SecondaryCard | c.ChallengerCard | c.Twist
    | c.Deployment | c.TerrainLayout | c.PoolMission | c.ForceDisposition | c.DeploymentCard
)

COLOURS = {
    c.PrimaryMission: discord.Colour.gold(),
    c.SecondaryCard: discord.Colour.blue(),
    c.ChallengerCard: discord.Colour.red(),
    c.Twist: discord.Colour.purple(),
    c.Deployment: discord.Colour.green(),
    c.TerrainLayout: discord.Colour.dark_grey(),
    c.PoolMission: discord.Colour.teal(),
    c.ForceDisposition: discord.Colour.orange(),
    c.DeploymentCard: discord.Colour.green(),
}

SCORERS = {
    c.Scorer.ACTIVE: "the player whose turn it is",
    c.Scorer.OPPONENT_OF_ACTIVE: "the opponent of the player whose turn it is",
    c.Scorer.EACH: "each player",
    c.Scorer.ATTACKER: "the Attacker",
    c.Scorer.DEFENDER: "the Defender",
}

SIZES = {"incursion": "Incursion", "strike-force": "Strike Force", "asymmetric-war": "Asymmetric War"}
AREAS = {"attacker": "Attacker's zone", "defender": "Defender's zone", "no_mans_land": "No Man's Land"}
CONFIDENCE = {"confirmed": "", "likely": " (measured from the map)", "uncertain": " (uncertain: check the card)"}





def kind_label(card: Card) -> str:
    if isinstance(card, c.PrimaryMission):
        return "Asymmetric War Primary Mission" if card.asymmetric else "Primary Mission"
    if isinstance(card, c.Deployment):
        return f"{SIZES[card.size]} Deployment"
    return {
        c.SecondaryCard: "Secondary Mission",
        c.ChallengerCard: "Challenger card",
        c.Twist: "Twist",
        c.TerrainLayout: "Terrain layout",
        c.PoolMission: "Tournament Mission Pool",
        c.ForceDisposition: "Force Disposition",
        c.DeploymentCard: "Deployment",
    }[type(card)]


def card_title(card: Card, catalog: c.Catalog) -> str:
    """The name a player searches for: unique across the whole pack."""
    if isinstance(card, c.PoolMission):
        return (
            f"Mission {card.letter}: {title_case(catalog.primary(card.primary).name)}"
            f" / {title_case(catalog.deployment(card.deployment).name)}"
        )
    if isinstance(card, c.Deployment):
        return f"{title_case(card.name)} ({SIZES[card.size]})"
    return title_case(card.name)


def card_embed(card: Card, catalog: c.Catalog) -> discord.Embed:
    description, sections = _content(card, catalog)
    if not isinstance(card, c.PoolMission):
        sections += rulings_sections(catalog.rulings_for(card.id))
    return build_embed(
        title=card_title(card, catalog),
        description=description,
        sections=sections,
        colour=COLOURS[type(card)],
        footer=f"{kind_label(card)} · {catalog.title}",
    )


def _content(card: Card, catalog: c.Catalog) -> tuple[str, list[Section]]:
    """The card's text and the sections of its kind (a Tournament Mission Pool mission when no kind matches)."""
    for kind, content in _CONTENTS.items():
        if isinstance(card, kind):
            return content(card, catalog)
    return _pool_mission(card, catalog)  # type: ignore[arg-type]


def _disposition(card: c.ForceDisposition, catalog: c.Catalog) -> tuple[str, list[Section]]:
    """Its table: your Primary Mission against each of the opponent's Force Dispositions."""
    table = "\n".join(f"• against {title_case(catalog.disposition(theirs).name)}: "
                      f"**{title_case(catalog.primary(mission).name)}**" for theirs, mission in card.missions.items())
    return card.text, [Section("Your Primary Mission", table)]


def _printed(flavour: str, text: str) -> str:
    flavour = flavour.strip()
    return "\n\n".join(part for part in (f"*{flavour}*" if flavour else "", text.strip()) if part)


def _primary(card: c.PrimaryMission) -> tuple[str, list[Section]]:
    sections = [Section("Scoring options", _options(card.scoring, primary=True)), *_note(card.designer_note)]
    return _printed(card.flavour, card.text), sections


def _secondary(card: c.SecondaryCard) -> tuple[str, list[Section]]:
    if not card.fixed:
        deck = "Tactical Missions only: this card has no Fixed Mission symbol."
    elif card.tournament_fixed:
        deck = "Fixed Mission symbol: it can be chosen as a Fixed Mission or drawn as a Tactical Mission."
    else:
        deck = (
            "Fixed Mission symbol, but it cannot be selected as a Fixed Mission in tournament play"
            " (Tournament Companion card amendment)."
        )
    sections = [Section("Mission type", deck)]
    if card.when_drawn:
        sections.append(Section("When Drawn", _when_drawn(card.when_drawn)))
    sections.append(Section("Scoring options", _options(card.scoring, primary=False)))
    sections += _note(card.designer_note)
    return _printed(card.flavour, card.text), sections


def _when_drawn(when: c.WhenDrawn) -> str:
    if when.kind is c.WhenDrawnKind.DEFINITION:
        return "Defines a term the card uses: nothing to choose."
    lines = ["Mandatory." if when.mandatory else "Optional: the drawing player chooses."]
    if when.condition:
        lines.append(f"Question: {when.condition}")
    if when.holds_in_sizes:
        lines.append("Always applies in " + ", ".join(SIZES[s] for s in when.holds_in_sizes) + " games.")
    if when.alpha_count:
        lines.append(f"Alpha Target units: {when.alpha_count}.")
    return "\n".join(lines)


def _challenger(card: c.ChallengerCard) -> tuple[str, list[Section]]:
    s, m = card.stratagem, card.mission
    stratagem = "\n".join(
        part for part in (
            f"*{s.flavour.strip()}*" if s.flavour.strip() else "",
            f"**WHEN:** {s.when}", f"**TARGET:** {s.target}", f"**EFFECT:** {s.effect}",
        ) if part
    )
    sections = [
        Section(f"Challenger Stratagem: {title_case(s.name)} ({s.cp}CP, {s.category})", stratagem),
        Section(f"Challenger Mission: {title_case(m.name)}", m.text.strip() or "-"),
        Section("Scoring options", _options(m.scoring, primary=False)),
    ]
    return "", sections


def _twist(card: c.Twist) -> tuple[str, list[Section]]:
    return _printed(card.flavour, card.text), _note(card.designer_note)


def _deployment(card: c.Deployment) -> tuple[str, list[Section]]:
    description = (
        f"Attacker's battlefield edge: **{card.attacker_edge}** · Defender's: **{card.defender_edge}**\n"
        'Battlefield 60" wide by 44" deep; positions are measured from the top left corner.'
    )
    zones = [
        f"**{zone.side.title()}:** "
        + "; ".join(_shape(shape) for shape in zone.shapes)
        + (" (minus " + "; ".join(_shape(shape) for shape in zone.minus) + ")" if zone.minus else "")
        for zone in card.zones
    ]
    objectives = [
        f"• {o.name}: {_point(o.at)}, {AREAS[o.area]}{' (centre)' if o.centre else ''}{CONFIDENCE[o.confidence]}"
        for o in card.objectives
    ]
    sections = [
        Section("Deployment zones", "\n".join(zones)),
        Section(f"Objective markers ({len(card.objectives)})", "\n".join(objectives)),
    ]
    sections += _note(card.designer_note)
    return description, sections


def _layout(card: c.TerrainLayout) -> tuple[str, list[Section]]:
    tall = sum(1 for s in card.sections if s.height == "tall")
    measured = sum(1 for s in card.sections if s.confidence != "confirmed")
    description = (
        f"{len(card.sections)} area terrain sections: {tall} tall, {len(card.sections) - tall} low. "
        'Centres are measured from the top left corner of the 60" by 44" battlefield.'
    )
    if measured:
        description += (
            f"\n{measured} of {len(card.sections)} positions are measured from the map image, not printed:"
            " treat them as approximate."
        )
    # The summary above covers "likely"; an uncertain position is also marked on its own line.
    lines = [
        f'• {s.height.title()}, {s.length:g}" by {s.width:g}" at {_point(s.centre)}, turned {s.angle:g}°'
        f"{CONFIDENCE[s.confidence] if s.confidence == 'uncertain' else ''}"
        for s in card.sections
    ]
    return description, [Section("Terrain sections", "\n".join(lines))]


def _pool_mission(card: c.PoolMission, catalog: c.Catalog) -> tuple[str, list[Section]]:
    primary = catalog.primary(card.primary)
    deployment = catalog.deployment(card.deployment)
    layouts = ", ".join(title_case(catalog.layout(layout).name) for layout in card.layouts)
    sections = [
        Section("Primary Mission", title_case(primary.name), inline=True),
        Section("Deployment", card_title(deployment, catalog), inline=True),
        Section("Terrain layouts", layouts),
    ]
    return "Chapter Approved Tournament Mission Pool. Look up each part with `/card`.", sections


def _options(options: Iterable[c.ScoringOption], *, primary: bool) -> str:
    return "\n".join(_option(o, primary=primary) for o in options) or "-"


def _option(o: c.ScoringOption, *, primary: bool) -> str:
    if o.by_round:
        vp = ", ".join(f"round {r}: {v}VP" for r, v in sorted(o.by_round.items()))
    else:
        vp = f"{'+' if o.cumulative else ''}{o.vp}VP"
    if o.per:
        vp += f" per {o.per}"
    details = [WINDOWS[o.window]]
    if o.from_round > 1:
        details.append(f"from battle round {o.from_round}")
    if o.to_round is not None:
        details.append(f"up to battle round {o.to_round}")
    if o.fifth_round_end_of_turn:
        details.append("in round 5 at the end of your turn instead")
    if o.fifth_round_going_second:
        details.append("or end of your turn in round 5 if you go second")
    if o.or_end_of_battle:
        details.append("or the end of the fifth battle round")
    if o.max_per_turn:
        details.append(f"up to {o.max_per_turn}VP")
    if primary and o.scorer in SCORERS:
        details.append(f"scored by {SCORERS[o.scorer]}")
    mode = {"fixed": " (Fixed)", "tactical": " (Tactical)"}.get(o.mode, "")
    return f"• **{o.label}**{mode}: {vp}; {', '.join(details)}"


def rulings_sections(rulings: Iterable[c.FaqEntry]) -> list[Section]:
    """The FAQ rulings about a card, last: when space runs out they are cut before the card itself."""
    return [Section(f"FAQ: {entry.question}", entry.answer) for entry in rulings]


def _note(note: str | None) -> list[Section]:
    return [Section("Designer's note", note.strip())] if note and note.strip() else []


def _point(p: c.Point) -> str:
    return f'({p.x:g}", {p.y:g}")'


def _shape(shape: c.Shape) -> str:
    if shape.polygon is not None:
        xs = [p.x for p in shape.polygon]
        ys = [p.y for p in shape.polygon]
        text = f'x {min(xs):g}-{max(xs):g}", y {min(ys):g}-{max(ys):g}"'
        if len(shape.polygon) != 4:
            text = f"{len(shape.polygon)}-sided area within " + text
    else:
        text = f'{shape.radius:g}" around {_point(shape.circle_centre)}'
    return text + CONFIDENCE[shape.confidence]


def faq_embed(query: str, matches: Iterable[FaqMatch], catalog: c.Catalog) -> discord.Embed:
    """The best rulings for a question, best first, each as its question and answer."""
    sections = [Section(f"Q: {m.entry.question}", m.entry.answer) for m in matches]
    return build_embed(
        title=f"FAQ: {query.strip()}",
        description="",
        sections=sections,
        colour=discord.Colour.light_grey(),
        footer=f"Mission Deck Errata & FAQ · {catalog.title}",
    )


# Each kind of card and how its sections are written (those that need no catalog ignore it).
_CONTENTS: dict[type, Callable[[Any, c.Catalog], tuple[str, list[Section]]]] = {
    c.PrimaryMission: lambda card, _: _primary(card),
    c.SecondaryCard: lambda card, _: _secondary(card),
    c.ChallengerCard: lambda card, _: _challenger(card),
    c.Twist: lambda card, _: _twist(card),
    c.Deployment: lambda card, _: _deployment(card),
    c.TerrainLayout: lambda card, _: _layout(card),
    c.ForceDisposition: _disposition,
    c.DeploymentCard: lambda card, _: (card.text, []),
}
