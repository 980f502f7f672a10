"""The army list parsers: the app's text export, the compact (WTC) text and NewRecruit rosters, and their refusals."""

from __future__ import annotations

import functools
import io
import struct
import unicodedata
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.armies import lists
from bot.armies.lists import (
    MAX_FILE_BYTES, MAX_TEXT_CHARS, MAX_UNZIPPED_BYTES, ListedUnit, ListError, ParsedList, parse_file, parse_text,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "lists"
U = ListedUnit


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def zipped(*members: tuple[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def orks_rosz() -> bytes:
    """The .rosz NewRecruit would give for tests/fixtures/lists/newrecruit_orks.ros."""
    return zipped(("Waaagh! on Armageddon.ros", (FIXTURES / "newrecruit_orks.ros").read_bytes()))


def roster(selections: str, *, force: str = 'catalogueName="Imperium - Space Wolves"', head: str = "",
           forces: str = "") -> bytes:
    """A small .ros document around the given force-level selections (and any forces within the force)."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<roster name=" Pack " xmlns="http://www.battlescribe.net/schema/rosterSchema">'
        f'{head}<forces><force name="Army Roster" {force}><selections>{selections}</selections>{forces}</force>'
        "</forces></roster>"
    ).encode()


def model(name: str, points: int, inner: str = "") -> str:
    return (
        f'<selection name="{name}" number="1" type="model"><costs><cost name="pts" value="{points}"/></costs>'
        f"<selections>{inner}</selections></selection>"
    )


# --- The app's export ----------------------------------------------------------------------------------------------


def test_app_export_reads_header_and_every_unit():
    parsed = parse_text(fixture_text("app_space_wolves.txt"))

    assert parsed == ParsedList(
        format="app",
        name="Hunt on Fenris",
        faction="Space Wolves",
        detachments=("Saga of the Hunter",),
        battle_size="strike-force",
        points_stated=1995,
        points_limit=2000,
        units=(
            U("Ragnar Blackmane", 1, 110, warlord=True),
            U("Wolf Guard Battle Leader", 1, 100, ("Feral Rage",)),
            U("Wolf Priest", 1, 85, ("Hunter's Guile",)),
            U("Grey Hunters", 10, 180),
            U("Grey Hunters", 10, 180),
            U("Intercessor Squad", 5, 80),
            U("Rhino", 1, 75),
            U("Fenrisian Wolves", 5, 40),
            U("Gladiator Lancer", 1, 160),
            U("Predator Destructor", 1, 130),
            U("Redemptor Dreadnought", 1, 210),  # "2x Fragstorm grenade launcher" is wargear, not models
            U("Thunderwolf Cavalry", 6, 240),
            U("Wolf Guard Terminators", 5, 170),
            U("Wolf Scouts", 5, 135),
            U("Callidus Assassin", 1, 100),
        ),
    )


def test_app_export_of_an_eleventh_edition_army_with_two_detachments():
    parsed = parse_text(fixture_text("app_two_detachments.txt"))

    assert (parsed.format, parsed.name, parsed.faction) == ("app", "Spears of Saim-Hann", "Aeldari")
    assert parsed.detachments == ("Aspect Host", "Windrider Host")
    assert (parsed.battle_size, parsed.points_stated, parsed.points_limit) == ("onslaught", 2990, 3000)
    assert parsed.units[:4] == (
        U("Autarch Wayleaper", 1, 100, ("Mantle of Wisdom",), warlord=True),
        U("Dire Avengers", 5, 90),
        U("Farseer Skyrunner", 1, 100, ("Seer of the Shifting Vector",)),
        U("Windriders", 3, 80),
    )
    assert [(unit.name, unit.models, unit.points) for unit in parsed.units[4:]] == [
        ("Avatar of Khaine", 1, 280), ("Lhykis", 1, 85), ("Guardian Defenders", 11, 100), ("Crimson Hunter", 1, 160),
        ("Fire Dragons", 5, 120), ("Fire Prism", 1, 170), ("Night Spinner", 1, 190), ("Shining Spears", 3, 115),
        ("Shining Spears", 3, 115), ("Swooping Hawks", 5, 90), ("Vypers", 1, 75), ("Warp Spiders", 5, 110),
        ("Wave Serpent", 1, 125), ("Wave Serpent", 1, 125), ("Wraithguard", 5, 170), ("Wraithlord", 1, 155),
        ("Wraithknight", 1, 435),
    ]
    assert not any(unit.enhancements or unit.warlord for unit in parsed.units[4:])
    assert sum(unit.points for unit in parsed.units) == parsed.points_stated


def test_app_export_with_hollow_bullets_and_flat_squads():
    """Another app layout: models under "•", their wargear under "◦"; and a squad written without its wargear."""
    parsed = parse_text(
        "Pack (465 Points)\n\nSpace Marines\nSpace Wolves\nCombat Patrol (500 Points)\nSaga of the Bold\n\n"
        "CHARACTERS\n\n"
        "Wolf Guard Battle Leader (85 Points)\n  • Warlord\n  • 1x Crozius arcanum\n  • 1x Plasma pistol\n"
        "  • Enhancement: Thundercaller (Upgrade)\n\n"
        "OTHER DATASHEETS\n\n"
        "Wolf Guard Terminators (170 Points)\n  • 1x Wolf Guard Terminator Pack Leader\n     ◦ 1x Relic greataxe\n"
        "  • 4x Wolf Guard Terminator\n     ◦ 4x Power fist\n     ◦ 3x Storm bolter\n\n"
        "Grey Hunters (90 Points)\n  • 1x Grey Hunter Pack Leader\n  • 4x Grey Hunter\n\n"
        "Land Speeder (120 Points)\n  • 1x Heavy bolter\n  • 1x Multi-melta\n"
    )

    assert (parsed.battle_size, parsed.points_limit, parsed.detachments) == (None, 500, ("Saga of the Bold",))
    assert parsed.units == (
        U("Wolf Guard Battle Leader", 1, 85, ("Thundercaller",), warlord=True),
        U("Wolf Guard Terminators", 5, 170),
        U("Grey Hunters", 5, 90),
        U("Land Speeder", 1, 120),
    )


def test_app_export_with_french_labels():
    parsed = parse_text(
        "Vague (205 points)\n\nEmpire T’au\nForce de Frappe (2000 points)\nMont’ka (3 Points de Détachement)\n"
        "Dispositions des Forces : Éliminez l’Adversaire\n\nUnités Attachées\nUnité 1 Attachée\n\n"
        "Commander Farsight (80 points)\n• Attachée en tant que : Meneur (Personnage)\n  • Seigneur de Guerre\n"
        "  • 1x Dawn Blade\n    1x High-intensity plasma rifle\n  • Optimisation : Exemplar of the Mont’ka\n\n"
        "Crisis Sunforge Battlesuits (125 points)\n• Attachée en tant que : Gardes du Corps\n"
        "  • 1x Crisis Sunforge Shas’vre\n    • 1x Battlesuit fists\n  • 2x Crisis Sunforge Shas’ui\n"
        "    • 2x Battlesuit fists\n"
    )

    assert (parsed.faction, parsed.detachments, parsed.battle_size) == ("Empire T’au", ("Mont’ka",), "strike-force")
    assert parsed.units == (
        U("Commander Farsight", 1, 80, ("Exemplar of the Mont’ka",), warlord=True),
        U("Crisis Sunforge Battlesuits", 3, 125),
    )


def test_app_export_pasted_without_its_title_keeps_faction_and_units():
    parsed = parse_text("Necrons\nIncursion (1000 pts)\nAwakened Dynasty\n\nOverlord (85 pts)\n  • 1x Voidscythe\n")

    assert (parsed.name, parsed.points_stated) == (None, None)
    assert (parsed.faction, parsed.detachments, parsed.battle_size, parsed.points_limit) == (
        "Necrons", ("Awakened Dynasty",), "incursion", 1000,
    )
    assert parsed.units == (U("Overlord", 1, 85),)


# --- The compact format --------------------------------------------------------------------------------------------


def test_compact_list_reads_header_and_every_unit():
    parsed = parse_text(fixture_text("compact_necrons.txt"))

    assert parsed == ParsedList(
        format="compact",
        name=None,
        faction="Necrons",
        detachments=("Awakened Dynasty",),  # the note in brackets is the detachment's rule
        battle_size=None,
        points_stated=1990,
        points_limit=None,
        units=(
            U("Overlord", 1, 105, ("Veil of Darkness",), warlord=True),
            U("Imotekh the Stormlord", 1, 100),
            U("Technomancer", 1, 95, ("Enaegic Dermal Bond",)),
            U("Chronomancer", 1, 65),
            U("Necron Warriors", 20, 200),
            U("Necron Warriors", 20, 200),
            U("Immortals", 10, 150),
            U("Lychguard", 5, 85),
            U("Lokhust Heavy Destroyers", 3, 165),
            U("Canoptek Scarab Swarms", 6, 80),
            U("Canoptek Reanimator", 1, 75),
            U("Doomsday Ark", 1, 200),
            U("Ghost Ark", 1, 115),
            U("Canoptek Wraiths", 3, 110),
            U("Triarch Stalker", 1, 110),
            U("Deathmarks", 5, 60),
            U("Convergence of Dominion", 1, 75),
        ),
    )


def test_compact_header_marks_units_its_lines_leave_bare():
    """Some tools name the warlord and enhancements only in the header; the header's "Char" numbers can be off."""
    parsed = parse_text(
        "+++++++++++++++++++++++++++++++++++++++++++++++\n"
        "+ FACTION KEYWORD: Chaos - Emperor's Children\n"
        "+ BATTLE SIZE: 3. Strike Force (2000 Point limit)\n"
        "+ DETACHMENT: Coterie of the Conceited, Carnival of Excess\n"
        "+ TOTAL ARMY POINTS: 1,005pts\n"
        "+ WARLORD: Char2: Lord Kakophonist\n"
        "+ ENHANCEMENT: Tears of Ecstasy (on Char1: Lord Kakophonist)\n"
        "& Intoxicating Elixir (on Char3: Lord Exultant)\n"
        "+++++++++++++++++++++++++++++++++++++++++++++++\n\n"
        "CHARACTER\n\n"
        "Char1: 1x Lord Exultant (135 pts): Rapture lash, Phoenix power spear\n"
        "Char2: 1x Lord Kakophonist (80 pts): Screamer pistol\n\n"
        "&& 1x Defiler (190 pts): Defiler cannon, Defiler scourge\n"
        "10x Infractors (150 pts)\n• 1x Infractor Champion: Power sword\n• 9x Infractor: 9 with Duelling sabre\n"
        "10x Tormentors (450 pts)\n"
    )

    assert parsed.faction == "Emperor's Children"
    assert parsed.detachments == ("Coterie of the Conceited", "Carnival of Excess")
    assert (parsed.battle_size, parsed.points_limit, parsed.points_stated) == ("strike-force", 2000, 1005)
    assert parsed.units == (
        U("Lord Exultant", 1, 135, ("Intoxicating Elixir",)),
        U("Lord Kakophonist", 1, 80, ("Tears of Ecstasy",), warlord=True),
        U("Defiler", 1, 190),
        U("Infractors", 10, 150),
        U("Tormentors", 10, 450),
    )


def test_compact_header_with_app_style_body():
    """New Recruit's "GW" export: the compact header over app-like units, enhancements as "• Name (+N pts)"."""
    parsed = parse_text(
        "+ FACTION KEYWORD: Chaos - World Eaters\n+ DETACHMENT: Berzerker Warband\n+ TOTAL ARMY POINTS: 345pts\n\n"
        "CHARACTER\n\n1x Slaughterbound (120 pts)\n• 1x Lacerator and daemonic claw\n• Warlord\n"
        "• Battle-lust (+20 pts)\n\nBATTLELINE\n\n"
        "Khorne Berzerkers (180 pts)\n• 1x Khorne Berzerker Champion\n    • 1x Chainblade\n"
        "• 9x Khorne Berzerker\n    • 9x Chainblade\n    • Icon of Khorne\n\n"
        "1x Chaos Rhino (45 pts)\n• 1x Armoured tracks\n"
    )

    assert parsed.format == "compact"
    assert parsed.units == (
        U("Slaughterbound", 1, 120, ("Battle-lust",), warlord=True),
        U("Khorne Berzerkers", 10, 180),
        U("Chaos Rhino", 1, 45),
    )


def test_the_two_examples_in_the_brief():
    app = (
        "Hunt (1,995 Points)\n\nSpace Marines\nSpace Wolves\nStrike Force (2,000 Points)\nSaga of the Hunter\n\n"
        "CHARACTERS\n\nRagnar Blackmane (110 Points)\n  • Warlord\n  • 1x Frostfang\n  • 1x Bolt pistol\n\n"
        "Wolf Guard Battle Leader (85 Points)\n  • 1x Crozius arcanum\n  • Enhancements: Hordeslayer\n\n"
        "BATTLELINE\n\nGrey Hunters (90 Points)\n  • 1x Grey Hunter Pack Leader\n  • 9x Grey Hunter\n\n"
        "Exported with App Version: v1.30.0 (1), Data Version: v585\n"
    )
    compact = (
        "+++++++++++++++++++++++++++++++++++++++++++++++\n"
        "+ FACTION KEYWORD: Imperium - Adeptus Astartes - Space Wolves\n+ DETACHMENT: Saga of the Hunter\n"
        "+ TOTAL ARMY POINTS: 1995pts\n+\n+ WARLORD: Char1: Ragnar Blackmane\n"
        "+ ENHANCEMENT: Hordeslayer (on Char2: Wolf Guard Battle Leader)\n+ NUMBER OF UNITS: 3\n"
        "+++++++++++++++++++++++++++++++++++++++++++++++\n\n"
        "Char1: 1x Ragnar Blackmane (110 pts): Warlord, Frostfang\n"
        "Char2: 1x Wolf Guard Battle Leader (110 pts): Crozius arcanum, Enhancement: Hordeslayer (+25 pts)\n"
        "10x Grey Hunters (90 pts): 9 with Boltgun, 1 with Plasma gun\n"
    )
    for parsed, leader_points in ((parse_text(app), 85), (parse_text(compact), 110)):
        assert (parsed.faction, parsed.detachments, parsed.points_stated) == (
            "Space Wolves", ("Saga of the Hunter",), 1995,
        )
        assert parsed.units == (
            U("Ragnar Blackmane", 1, 110, warlord=True),
            U("Wolf Guard Battle Leader", 1, leader_points, ("Hordeslayer",)),
            U("Grey Hunters", 10, 90),
        )


# --- NewRecruit / BattleScribe rosters -----------------------------------------------------------------------------


def test_rosz_reads_header_and_every_unit():
    parsed = parse_file("Waaagh! on Armageddon.rosz", orks_rosz())

    assert parsed == ParsedList(
        format="rosz",
        name="Waaagh! on Armageddon",
        faction="Orks",
        detachments=("War Horde",),
        battle_size="strike-force",
        points_stated=1995,
        points_limit=2000,
        units=(
            U("Warboss in Mega Armour", 1, 100, ("Headwoppa's Killchoppa",), warlord=True),
            U("Beastboss", 1, 105, ("Follow Me Ladz",)),
            U("Boyz", 20, 170),
            U("Boyz", 10, 85),
            U("Meganobz", 3, 105),  # points on the models, not the unit: still summed
            U("Deff Dread", 1, 140),  # two dread klaws are wargear, not models
            U("Trukk", 1, 70),
            U("Battlewagon", 1, 160),
            U("Stormboyz", 5, 65),
            U("Gretchin", 11, 40),
            U("Ghazghkull Thraka", 2, 235),
            U("Mek Gunz", 3, 135),
            U("Squighog Boyz", 3, 110),
            U("Lootas", 5, 50),
            U("Kill Rig", 1, 185),
            U("Weirdboy", 1, 60),
            U("Killa Kans", 3, 100),
            U("Painboy", 1, 80),
        ),
    )


def test_a_bare_ros_reads_as_its_rosz():
    assert parse_file("list.ros", (FIXTURES / "newrecruit_orks.ros").read_bytes()) == parse_file("x.rosz", orks_rosz())


def test_roster_variants():
    """Several detachments under a "Detachment Choice" in a "Configuration" selection, an "Enhancements" entry, a
    warlord category, no Battle Size but a cost limit, and an allied force nested in the main one."""
    enhancements = (
        '<selection name="Enhancements" type="upgrade"><selections><selection name="Hordeslayer" type="upgrade">'
        '<costs><cost name="pts" value="25"/></costs></selection></selections></selection>'
    )
    detachments = (
        '<selection name="Configuration" type="upgrade"><selections>'
        '<selection name="Detachment" type="upgrade"><selections><selection name="Detachment Choice" type="upgrade">'
        '<selections><selection name="Saga of the Hunter" type="upgrade"/><selection name="Saga of the Bold" '
        'type="upgrade"/></selections></selection></selections></selection>'
        "</selections></selection>"
    )
    allies = (
        '<forces><force catalogueName="Imperium - Agents of the Imperium"><selections>'
        + model("Vindicare Assassin", 100).replace("</selection>", '<categories><category name="Warlord"/>'
                                                   "</categories></selection>")
        + "</selections></force></forces>"
    )
    document = roster(
        detachments
        + model("Wolf Guard Battle Leader", 85, enhancements + '<selection name="Crozius arcanum" type="upgrade"/>'),
        force='catalogueName="Imperium - Adeptus Astartes - Space Wolves"',
        head='<costs><cost name="pts" value="210.0"/></costs><costLimits><costLimit name="pts" value="1000"/>'
        "</costLimits>",
        forces=allies,
    )

    parsed = parse_file("pack.ros", document)

    assert (parsed.name, parsed.faction, parsed.detachments) == (
        "Pack", "Space Wolves", ("Saga of the Hunter", "Saga of the Bold"),
    )
    assert (parsed.battle_size, parsed.points_limit, parsed.points_stated) == (None, 1000, 210)
    assert parsed.units == (
        U("Wolf Guard Battle Leader", 1, 110, ("Hordeslayer",)),
        U("Vindicare Assassin", 1, 100, warlord=True),
    )


def test_roster_with_namespace_prefixes():
    document = (
        b'<bs:roster xmlns:bs="http://www.battlescribe.net/schema/rosterSchema" name="Pack">'
        b'<bs:forces><bs:force catalogueName="Xenos - Orks"><bs:selections>'
        b'<bs:selection name="Battle Size" type="upgrade"><bs:selections>'
        b'<bs:selection name="1. Incursion (1000 Point limit)" type="upgrade"/></bs:selections></bs:selection>'
        b'<bs:selection name="Weirdboy" type="model" number="1"><bs:costs><bs:cost name="pts" value="60"/>'
        b"</bs:costs></bs:selection></bs:selections></bs:force></bs:forces></bs:roster>"
    )

    parsed = parse_file("pack.ros", document)

    assert (parsed.faction, parsed.battle_size, parsed.points_limit) == ("Orks", "incursion", 1000)
    assert parsed.units == (U("Weirdboy", 1, 60),)


# --- Names, encodings, limits --------------------------------------------------------------------------------------


def test_names_lose_control_characters_and_are_capped():
    long_name = "Wolf " * 40
    parsed = parse_text(f"\x1b[31mPack\u202e (100 pts)\n\nGrey\x00 Hunters\u200b (100 pts)\n  • 10x Grey Hunter\n"
                        f"{long_name}(5 pts)\n  • 1x Fang\n")

    assert parsed.name == "[31mPack"
    assert parsed.units[0].name == "Grey Hunters"
    assert parsed.units[1].name == ("Wolf " * 20).strip()


def test_units_are_capped_at_two_hundred():
    text = "+ FACTION KEYWORD: Orks\n" + "1x Gretchin (5 pts): Grot blasta\n" * 250
    assert len(parse_text(text).units) == 200


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252", "utf-16"])
def test_text_files_in_common_encodings(encoding):
    text = fixture_text("app_space_wolves.txt").replace("\n", "\r\n")
    assert parse_file("army.txt", text.encode(encoding)) == parse_text(fixture_text("app_space_wolves.txt"))


def test_latin_1_text_is_read():
    parsed = parse_file("liste.txt", "Khârn (100 pts): Gorechild\n".encode("latin-1"))
    assert parsed.units == (U("Khârn", 1, 100),)


# --- Refusals ------------------------------------------------------------------------------------------------------

BILLION_LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
    b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><roster name="&c;"><forces/></roster>'
)
REFUSALS = {
    "empty text": lambda: parse_text(""),
    "blank text": lambda: parse_text("  \n\t \n"),
    "text too long": lambda: parse_text("Boyz (85 pts)\n" * (MAX_TEXT_CHARS // 10)),
    "prose": lambda: parse_text("Hi! Are we still playing on Saturday? I'm bringing my Orks."),
    "header without units": lambda: parse_text("Hunt (1,995 Points)\n\nSpace Wolves\nStrike Force (2,000 Points)\n"),
    "compact header without units": lambda: parse_text("+ FACTION KEYWORD: Xenos - Necrons\n+ TOTAL ARMY POINTS: 5pts"),
    "not a string": lambda: parse_text(None),  # type: ignore[arg-type]
    "empty file": lambda: parse_file("army.rosz", b""),
    "file too large": lambda: parse_file("army.txt", b"Boyz (85 pts)\n" * (MAX_FILE_BYTES // 10)),
    "rosz not a zip": lambda: parse_file("army.rosz", b"this is not a zip archive"),
    "truncated zip": lambda: parse_file("army.rosz", orks_rosz()[:300]),
    "zip without a ros": lambda: parse_file("army.rosz", zipped(("notes.txt", b"Boyz (85 pts)"))),
    "bzip2 member": lambda: parse_file("army.rosz", zipped(("a.ros", b"<roster/>"), compression=zipfile.ZIP_BZIP2)),
    "bad xml": lambda: parse_file("army.ros", b"<roster><forces></roster>"),
    "xml with a doctype": lambda: parse_file("army.ros", BILLION_LAUGHS),
    "rosz with a doctype": lambda: parse_file("army.rosz", zipped(("a.ros", BILLION_LAUGHS))),
    "external entity": lambda: parse_file(
        "army.ros", b'<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><roster name="&x;"/>'
    ),
    "undeclared entity": lambda: parse_file("army.ros", b'<roster name="&x;"/>'),
    "xml not a roster": lambda: parse_file("army.ros", b'<catalogue name="Orks"/>'),
    "roster without units": lambda: parse_file("army.ros", roster("")),
    "roster nested too deep": lambda: parse_file("army.ros", b"<roster>" + b"<a>" * 10_000 + b"</a>" * 10_000),
    "unknown xml encoding": lambda: parse_file("army.ros", b'<?xml version="1.0" encoding="klingon"?><roster/>'),
}


@pytest.mark.parametrize("case", REFUSALS, ids=list(REFUSALS))
def test_unreadable_input_is_refused_with_one_sentence(case):
    with pytest.raises(ListError) as refusal:
        REFUSALS[case]()

    message = str(refusal.value)
    assert message[0].isupper() and message.endswith(".") and "\n" not in message and len(message) < 200


@functools.cache
def zeros_zip() -> bytes:
    """50 MB of zeros, deflated to about 50 kB: a zip bomb."""
    return zipped(("army.ros", bytes(50_000_000)))


def test_a_declared_zip_bomb_is_refused_without_opening_it(monkeypatch):
    assert len(zeros_zip()) < MAX_FILE_BYTES
    monkeypatch.setattr(zipfile.ZipFile, "open", lambda *_: pytest.fail("the bomb was opened"))

    with pytest.raises(ListError, match="unpacks to more"):
        parse_file("army.rosz", zeros_zip())


@pytest.mark.parametrize("claimed", [1_000, MAX_UNZIPPED_BYTES - 1])
def test_a_zip_bomb_that_lies_about_its_size_is_inflated_only_so_far(monkeypatch, claimed):
    inflated = []
    update_crc = zipfile.ZipExtFile._update_crc  # sees every inflated chunk before the CRC check
    monkeypatch.setattr(zipfile.ZipExtFile, "_update_crc", lambda self, data: (inflated.append(len(data)),
                                                                                  update_crc(self, data)))

    with pytest.raises(ListError, match="damaged"):
        parse_file("army.rosz", claim_size(zeros_zip(), claimed))
    assert 0 < sum(inflated) <= claimed


def claim_size(archive: bytes, size: int) -> bytes:
    """The archive with its one member's uncompressed size rewritten, in the local header and the central directory."""
    data = bytearray(archive)
    struct.pack_into("<I", data, data.find(b"PK\x03\x04") + 22, size)
    struct.pack_into("<I", data, data.find(b"PK\x01\x02") + 24, size)
    return bytes(data)


# --- Properties ----------------------------------------------------------------------------------------------------


def assert_sound(parsed: ParsedList) -> None:
    """What any successful read promises its callers."""
    assert isinstance(parsed, ParsedList) and 0 < len(parsed.units) <= lists.MAX_UNITS
    for unit in parsed.units:
        assert unit.models >= 1
        for name in (unit.name, *unit.enhancements):
            assert name == name.strip() and 0 < len(name) <= lists.MAX_NAME_CHARS
            assert not any(unicodedata.category(char).startswith("C") for char in name)


def parses_or_refuses(read, *args) -> None:
    try:
        parsed = read(*args)
    except ListError as refusal:
        assert str(refusal)
    else:
        assert_sound(parsed)


@given(st.text())
def test_any_text_parses_or_is_refused(text):
    parses_or_refuses(parse_text, text)


@given(st.sampled_from(["army.rosz", "army.ros", "army.txt", "army", ""]), st.binary())
def test_any_file_parses_or_is_refused(name, data):
    parses_or_refuses(parse_file, name, data)


# Names a zip can hold: zipfile cuts a name at NUL and encodes it as UTF-8
MEMBER_NAMES = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=12)


@given(
    st.lists(
        st.tuples(st.sampled_from(["a.ros", "b.ROS", "dir/", "c.txt"]) | MEMBER_NAMES, st.binary()),
        unique_by=lambda member: member[0],
    ),
    st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_LZMA]),
)
def test_any_zip_parses_or_is_refused(members, compression):
    parses_or_refuses(parse_file, "army.rosz", zipped(*members, compression=compression))


MUTATIONS = ["delete", "duplicate", "replace", "insert", "truncate", "indent", "dedent", "swap"]


@st.composite
def mutated(draw, source: str) -> str:
    """A valid list with a few of its lines deleted, copied, rewritten, cut short, moved or re-indented."""
    lines = source.splitlines()
    for _ in range(draw(st.integers(1, 6))):
        if not lines:
            break
        at = draw(st.integers(0, len(lines) - 1))
        mutation = draw(st.sampled_from(MUTATIONS))
        if mutation == "delete":
            del lines[at]
        elif mutation == "duplicate":
            lines.insert(at, lines[at])
        elif mutation in ("replace", "insert"):
            lines[at: at + (mutation == "replace")] = [draw(st.text(max_size=40))]
        elif mutation == "truncate":
            lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
        elif mutation == "indent":
            lines[at] = " " * draw(st.integers(1, 8)) + lines[at]
        elif mutation == "dedent":
            lines[at] = lines[at].lstrip()
        else:
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
    return "\n".join(lines)


TEXT_FIXTURES = [fixture_text(name) for name in ("app_space_wolves.txt", "app_two_detachments.txt",
                                                 "compact_necrons.txt")]


@given(st.sampled_from(TEXT_FIXTURES).flatmap(mutated))
def test_a_mutated_text_list_parses_or_is_refused(text):
    parses_or_refuses(parse_text, text)


@given(mutated(fixture_text("newrecruit_orks.ros")))
def test_a_mutated_roster_parses_or_is_refused(document):
    parses_or_refuses(parse_file, "army.rosz", zipped(("army.ros", document.encode())))
