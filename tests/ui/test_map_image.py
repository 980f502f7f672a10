"""The deployment map picture: its title, legend and scale (in the picture's PNG text and `map_key`), the
markers numbered as the briefing lists them, terrain drawn or said to be not drawn, and the shipped font."""

from __future__ import annotations

import fnmatch
import io
import tomllib
from pathlib import Path

from PIL import Image, ImageFont

from bot.engine.chapter_approved.catalog import Catalog, Deployment
from bot.engine.chapter_approved.game import new_game
from bot.engine.chapter_approved.objectives import table_objectives
from bot.engine.chapter_approved.state import GameSetup
from bot.present.pictures import map as map_image
from bot.present import Links, mission_deck
from bot.present.pictures.map import table_map
from bot.ui.chapter_approved.briefing import briefing
from bot.present.pictures.map import BOLD_FONT, REGULAR_FONT, WIDTH, map_key, render_deployment
from tests.engine.conftest import Table

ROOT = Path(__file__).resolve().parents[2]
SIZES = {"strike-force": "Strike Force", "incursion": "Incursion", "asymmetric-war": "Asymmetric War"}


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def legend_lines(image: Image.Image) -> list[str]:
    return image.text["Description"].splitlines()


def test_every_deployment_map_has_its_title_zones_numbered_markers_and_scale(catalog: Catalog) -> None:
    for deployment in catalog.deployments:
        image = decoded(render_deployment(deployment))
        title = f"{deployment.name} — {SIZES[deployment.size]}"
        assert image.text["Title"].splitlines()[0] == title and not deployment.name.isupper()
        legend = legend_lines(image)
        assert "Attacker’s deployment zone" in legend and "Defender’s deployment zone" in legend
        numbered = [f"{n} — {o.name}" for n, o in enumerate(deployment.objectives, start=1)]
        assert [line for line in legend if line[0].isdigit()] == numbered, deployment.id
        assert '0–12"' in image.text["Scale"] and '60" × 44"' in image.text["Scale"]
        assert image.text["Description"] == "\n".join(e.text for e in map_key(deployment).legend)


def test_the_picture_decodes_is_drawn_and_fits_discord(catalog: Catalog) -> None:
    deployment = catalog.deployment("search-and-destroy-strike-force")
    png = render_deployment(deployment, layout=catalog.layout("layout-1"))
    image = decoded(png)
    assert image.format == "PNG" and image.width == WIDTH <= 1100 and image.height <= 1100
    colours = image.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 50  # zones, terrain, markers and text, not a blank page
    assert render_deployment(deployment, layout=catalog.layout("layout-1")) == png  # deterministic


def test_the_game_map_numbers_markers_as_the_briefing_lists_them(catalog: Catalog) -> None:
    setup = GameSetup(size="strike-force", players=("1", "2"), names=("Alice", "Bob"), mission="I", seed="s")
    out = new_game(catalog, setup)
    model = mission_deck.model(catalog, out.state, game_id=1, version=0, recent=[], links=Links())
    embeds, _ = briefing(model, catalog, out.state, out.events)
    listed = next(f["value"] for f in embeds[0].to_dict()["fields"] if f["name"].startswith("Deployment:"))
    image = decoded(table_map(catalog, out.state).png)
    title, subtitle = image.text["Title"].splitlines()
    assert (title, subtitle) == ("Search and Destroy — Strike Force", "Mission I: Hidden Supplies")
    markers = [line for line in legend_lines(image) if line[0].isdigit()]
    unplaced = " (not drawn: no recorded position)"
    assert [m.removesuffix(unplaced) for m in markers] == [m.replace(". ", " — ", 1) for m in listed.splitlines()]
    # The Hidden Supplies marker waits for the players' corner: listed under its number, not drawn.
    assert markers[-1].startswith("6 — Hidden Supplies marker") and markers[-1].endswith(unplaced)


def test_removed_markers_and_alpha_omega_are_shown_in_the_legend() -> None:
    table = Table(mission="B")  # Supply Drop: the Alpha objective is removed at the start of battle round 4
    table.to_battle()
    table.to_round(4)
    state = table.state
    names = {m.id: m.name for m in table_objectives(table.catalog, state, removed=True)}
    legend = legend_lines(decoded(table_map(table.catalog, state).png))
    alpha = next(line for line in legend if " α — " in line)
    omega = next(line for line in legend if " Ω — " in line)
    assert alpha.endswith(f"{names[state.mission.alpha_objective]} (removed)")
    assert omega.endswith(names[state.mission.omega_objective])
    assert [line for line in legend if line.endswith("(removed)")] == [alpha]


def test_a_drawn_layout_gives_terrain_entries_and_none_says_terrain_is_not_drawn(catalog: Catalog) -> None:
    deployment = catalog.deployment("hammer-and-anvil-strike-force")
    layout = catalog.layout("layout-1")
    drawn = map_key(deployment, layout=layout, mission="Take and Hold")
    assert drawn.subtitle == "Take and Hold · Layout 1"
    assert {e.symbol for e in drawn.legend if e.group == "terrain"} >= {"tall", "low"}
    assert not any("not drawn" in e.text for e in drawn.legend if e.group == "terrain")
    bare = [e.text for e in map_key(deployment).legend if e.group == "terrain"]
    assert bare == ["Terrain: not drawn — use your event’s layout"]
    pool = catalog.pool_mission("A")
    chosen = [e.text for e in map_key(deployment, layouts=tuple(map(catalog.layout, pool.layouts))).legend
              if e.group == "terrain"]
    names = [catalog.layout(i).name for i in pool.layouts]
    assert chosen[0].startswith("Terrain: not drawn — set up ") and all(name in chosen[0] for name in names)
    assert_terrain_is_painted(deployment, layout)


def assert_terrain_is_painted(deployment: Deployment, layout) -> None:
    with_terrain = decoded(render_deployment(deployment, layout=layout)).convert("RGB")
    without = decoded(render_deployment(deployment)).convert("RGB")
    section = next(s for s in layout.sections if s.height == "tall")
    at = tuple(round(v) for v in map_image._xy(section.centre.x, section.centre.y))
    assert with_terrain.getpixel(at) != without.getpixel(at)


def test_the_shipped_dejavu_font_draws_the_text(catalog: Catalog, monkeypatch) -> None:
    opened: list[str] = []
    truetype = ImageFont.truetype

    def recording(path, size):
        opened.append(str(path))
        return truetype(path, size)

    def no_default(*args, **kwargs):
        raise AssertionError("the map must not fall back on Pillow's default font")

    monkeypatch.setattr(ImageFont, "truetype", recording)
    monkeypatch.setattr(ImageFont, "load_default", no_default)
    map_image._font.cache_clear()
    try:
        render_deployment(catalog.deployment("tipping-point-strike-force"),
                          highlight={"nml-1": "2 α", "nml-2": "3 Ω"})
    finally:
        map_image._font.cache_clear()
    assert set(opened) == {str(REGULAR_FONT), str(BOLD_FONT)}
    assert REGULAR_FONT.parent == Path(map_image.__file__).with_name("fonts")  # bot/present/pictures/fonts, shipped
    font = ImageFont.truetype(str(REGULAR_FONT), 20)
    assert font.getname() == ("DejaVu Sans", "Book")
    missing = font.getmask("\U000f0000").getbbox()  # a private-use code point DejaVu has no glyph for
    for symbol in "αΩ’":
        assert font.getmask(symbol).getbbox() not in (None, missing)


def test_an_installed_package_carries_the_font_and_its_licence() -> None:
    licence = (REGULAR_FONT.parent / "LICENSE").read_text()
    assert "Bitstream Vera" in licence and "DejaVu" in licence
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["bot"]
    package = ROOT / "bot"
    for path in (REGULAR_FONT, BOLD_FONT, REGULAR_FONT.parent / "LICENSE"):
        relative = path.relative_to(package).as_posix()
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in patterns), relative
