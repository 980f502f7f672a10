"""Load a mission pack's YAML files into a validated Catalog.

A bad file stops start-up with the file, the card and the field named, so a typo in the data
never reaches a game.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml
from pydantic import ValidationError

from bot.engine.chapter_approved import catalog as c
from bot.engine.fourth_edition.catalog import MissionGenerator
from bot.engine.fourth_edition.game import FourthEditionRules
from bot.engine.gt2020.catalog import GrandTournament
from bot.engine.gt2020.game import GrandTournamentRules
from bot.engine.packs import ChapterApprovedRules, Packs

DEFAULT_PACK = "ca-2025-26"
PACK_2026 = "ca-2026-27"  # the 11th edition's Chapter Approved: Force Dispositions

# file name -> (Catalog field, item type); pack.yaml holds the pack's name, title and rules.
DECK_FILES: dict[str, tuple[str, type[c.Frozen]]] = {
    "primaries.yaml": ("primaries", c.PrimaryMission),
    "deployments.yaml": ("deployments", c.Deployment),
    "secondaries.yaml": ("secondaries", c.SecondaryCard),
    "challengers.yaml": ("challengers", c.ChallengerCard),
    "twists.yaml": ("twists", c.Twist),
    "layouts.yaml": ("layouts", c.TerrainLayout),
    "pool.yaml": ("pool", c.PoolMission),
    "faq.yaml": ("faq", c.FaqEntry),
}
# Files only a Force Disposition pack (CA 2026-27) has: a pack without them loads with none.
OPTIONAL_DECK_FILES: dict[str, tuple[str, type[c.Frozen]]] = {
    "dispositions.yaml": ("dispositions", c.ForceDisposition),
    "deployment_cards.yaml": ("deployment_cards", c.DeploymentCard),
    "event_layouts.yaml": ("event_layouts", c.EventPairing),
}


class DeckError(Exception):
    """A deck file is missing or does not match the card schema."""


def pack_dir(pack: str = DEFAULT_PACK) -> Path:
    # decks/ is installed beside bot/, in a checkout and in site-packages alike.
    return Path(__file__).resolve().parent.parent / "decks" / pack


def load_catalog(directory: Path) -> c.Catalog:
    header = _read(directory / "pack.yaml")
    if not isinstance(header, dict):
        raise DeckError(f"{directory / 'pack.yaml'}: expected a mapping with pack, title and rules")
    fields: dict[str, object] = {
        "pack": header.get("pack"),
        "title": header.get("title"),
        "rules": _validate(c.PackRules, header.get("rules"), directory / "pack.yaml", "rules"),
    }
    optional = {name: spec for name, spec in OPTIONAL_DECK_FILES.items() if (directory / name).exists()}
    for name, (field, item_type) in {**DECK_FILES, **optional}.items():
        path = directory / name
        items = _read(path)
        if not isinstance(items, list):
            raise DeckError(f"{path}: expected a list of entries")
        fields[field] = tuple(
            _validate(item_type, item, path, _label(item, index)) for index, item in enumerate(items)
        )
    try:
        return c.Catalog.model_validate(fields)
    except ValidationError as exc:
        raise DeckError(f"{directory}: {_describe(exc)}") from None


def load_generator(path: Path) -> MissionGenerator:
    data = _read(path)
    if not isinstance(data, dict):
        raise DeckError(f"{path}: expected a mapping")
    return _validate(MissionGenerator, data, path, "the mission generator")


def load_grand_tournament(directory: Path) -> GrandTournament:
    fields: dict[str, object] = {}
    for name in ("pack.yaml", "secondaries.yaml", "missions.yaml"):
        data = _read(directory / name)
        if not isinstance(data, dict):
            raise DeckError(f"{directory / name}: expected a mapping")
        fields.update({"pack": data} if name == "pack.yaml" else data)
    return _validate(GrandTournament, fields, directory, "the Grand Tournament 2020 pack")


@cache
def grand_tournament() -> GrandTournament:
    """The Grand Tournament 2020 pack (decks/gt-2020), loaded once per process."""
    return load_grand_tournament(pack_dir("gt-2020"))


@cache
def fourth_edition() -> MissionGenerator:
    """The 4th edition Standard Missions' generator (decks/4th-edition), loaded once per process."""
    return load_generator(pack_dir("4th-edition") / "missions.yaml")


@cache
def default_catalog() -> c.Catalog:
    """The shipped Chapter Approved 2025-26 pack, loaded once per process."""
    return load_catalog(pack_dir())


@cache
def catalog_2026() -> c.Catalog:
    """The shipped Chapter Approved 2026-27 pack, loaded once per process."""
    return load_catalog(pack_dir(PACK_2026))


def installed_packs(catalog: c.Catalog | None = None) -> Packs:
    """Every shipped pack's rules over its data: Chapter Approved 2025-26 (or `catalog`) and 2026-27, and the older
    systems."""
    return Packs(ChapterApprovedRules(catalog or default_catalog()), ChapterApprovedRules(catalog_2026()),
                 GrandTournamentRules(grand_tournament()), FourthEditionRules(fourth_edition()))


def _read(path: Path) -> object:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DeckError(f"{path}: file missing") from None
    except yaml.YAMLError as exc:
        raise DeckError(f"{path}: not valid YAML: {exc}") from None


def _validate(item_type: type[c.Frozen], item: object, path: Path, label: str):
    try:
        return item_type.model_validate(item)
    except ValidationError as exc:
        raise DeckError(f"{path}: {label}: {_describe(exc)}") from None


def _label(item: object, index: int) -> str:
    if isinstance(item, dict):
        for key in ("id", "letter"):
            if key in item:
                return f"{key} {item[key]!r}"
    return f"entry #{index + 1}"


def _describe(exc: ValidationError) -> str:
    return "; ".join(
        f"field {'.'.join(str(p) for p in err['loc']) or '(entry)'}: {err['msg']}" for err in exc.errors()
    )
