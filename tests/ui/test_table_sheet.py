"""The table games' score sheets: the Grand Tournament 2020 Tournament Scoring Sheet and the 4th edition sheet, as
strings, as a PNG and as text for /game log; nothing secret before it is revealed."""

from __future__ import annotations

import io

from PIL import Image

from bot.decks import installed_packs
from bot.engine.moves import ChooseSide, Concede, DeclareBattleReady, DeploymentDone, DoneScoring, EndTurn
from bot.engine.rng import seed_hash
from bot.engine.table.actions import ChooseTurn, MissionResult, ScoreObjective, SelectSecondaries
from bot.engine.table.state import Step, TableSetup, TableState
from bot.present.pictures.drawing import WIDTH
from bot.present.pictures.table_sheet import table_sheet_content, table_sheet_picture, table_sheet_text
from bot.present.pictures.table_sheet_content import Column, Row
from bot.present.pictures.table_sheet_image import render_table_sheet

ALICE, BOB = "111", "222"
PACKS = installed_packs()
GT = PACKS.rules("gt-2020")
FOURTH = PACKS.rules("4th-edition")
ALICE_PICKS = ("assassinate", "engage-on-all-fronts", "investigate-sites")  # Purge, Supremacy, Shadow Operations
BOB_PICKS = ("linebreaker", "codex", "grind-them-down")
CODEX_NAME = "Oaths of Moment"


class Game:
    def __init__(self, rules, **setup) -> None:
        self.rules = rules
        self.state: TableState = rules.new_game(TableSetup(players=(ALICE, BOB), names=("Alice", "Bob"),
                                                           **setup)).state

    def act(self, action) -> None:
        self.state = self.rules.apply(self.state, action).state

    def deploy(self, *, first: str) -> None:
        self.act(DeploymentDone(actor=ALICE))
        self.act(DeploymentDone(actor=BOB))
        chooser = self.state.first_turn_rolloff.winner
        self.act(ChooseTurn(actor=chooser, first=chooser == first))

    def score(self, player: str, objective: str, vp: int) -> None:
        self.act(ScoreObjective(actor=player, objective=objective, vp=vp))

    def end_turn(self) -> None:
        self.act(EndTurn(actor=self.state.active))

    def done(self) -> None:
        self.act(DoneScoring(actor=ALICE))
        self.act(DoneScoring(actor=BOB))


def gt_game(seed: str = "gt-sheet", **setup) -> Game:
    """An Incursion game of the agreed Crossfire mission (its primary objective: Take and Hold), of version 2 as
    stored games are: its scores include entries above what an objective gives at once, which version 3 refuses."""
    setup = {"pack": "gt-2020", "size": "incursion", "mission": "crossfire", "seed": seed, "version": 2, **setup}
    return Game(GT, **setup)


def to_battle(game: Game) -> None:
    """Both select, Alice is the Attacker, Battle Ready and first."""
    game.act(DeclareBattleReady(actor=ALICE, ready=True))
    game.act(SelectSecondaries(actor=ALICE, picks=ALICE_PICKS))
    game.act(SelectSecondaries(actor=BOB, picks=BOB_PICKS, codex=CODEX_NAME))
    winner = game.state.sides_rolloff.winner
    game.act(ChooseSide(actor=winner, side="attacker" if winner == ALICE else "defender"))
    game.deploy(first=ALICE)


def played_gt_game() -> Game:
    game = gt_game()
    to_battle(game)
    for round_ in range(1, 6):
        if round_ >= 2:  # the primary objective cannot be scored in the first battle round
            game.score(ALICE, "primary:0", 12)  # 45VP at most: 3 of round 5's 12 are lost
        if round_ <= 4:
            game.score(ALICE, "engage-on-all-fronts", 4)  # 15VP at most: 1 of round 4's 4 is lost
        game.end_turn()
        if round_ >= 2:
            game.score(BOB, "primary:0", 6)
        if round_ <= 3:
            game.score(BOB, "linebreaker", 2)
        game.end_turn()
    assert game.state.status == Step.END_GAME
    game.score(ALICE, "assassinate", 9)
    game.score(BOB, "codex", 5)
    game.done()
    return game


def png(content) -> Image.Image:
    image = Image.open(io.BytesIO(render_table_sheet(content)))
    image.load()
    return image


def test_a_played_gt_game_fills_every_cell_of_the_tournament_scoring_sheet() -> None:
    game = played_gt_game()
    content = table_sheet_content(GT, game.state, 7)
    assert content.title == "Tournament Scoring Sheet — game 7"
    assert content.lines == ("Grand Tournament 2020 Mission Pack", "Battle size: Incursion",
                             "Mission: Crossfire (agreed)")
    attacker, defender = content.sections
    assert (attacker.heading, attacker.side) == ("Attacker: Alice", "Attacker")
    assert (defender.heading, defender.side) == ("Defender: Bob", "Defender")
    assert attacker.columns == (Column("Primary Objective", "Take and Hold"),
                                Column("Secondary Objective 1", "Assassinate"),
                                Column("Secondary Objective 2", "Engage on All Fronts"),
                                Column("Secondary Objective 3", "Investigate Sites"))
    assert [c.name for c in defender.columns] == ["Take and Hold", "Linebreaker", "Oaths of Moment (Codex)",
                                                  "Grind Them Down"]
    assert attacker.rows == (
        Row("1", ("-", "-", "4", "-")),
        Row("2", ("12", "-", "4", "-")),
        Row("3", ("12", "-", "4", "-")),
        Row("4", ("12", "-", "3 (+1 lost)", "-")),
        Row("5", ("9 (+3 lost)", "-", "-", "-")),
        Row("End Game", ("-", "9", "-", "-")),
        Row("Objective totals", ("45/45 (+3 lost)", "9/15", "15/15 (+1 lost)", "0/15"), "total"),
    )
    assert attacker.summary == (("Battle Ready score", "+10 (army was Battle Ready)"),
                                ("Victory Points Total", "79/100"))
    assert [r.cells for r in defender.rows] == [
        ("-", "2", "-", "-"), ("6", "2", "-", "-"), ("6", "2", "-", "-"), ("6", "-", "-", "-"),
        ("6", "-", "-", "-"), ("-", "-", "5", "-"), ("24/45", "6/15", "5/15", "0/15")]
    assert defender.summary == (("Battle Ready score", "+0 (army was not Battle Ready)"),
                                ("Victory Points Total", "35/100"))
    assert content.outcome == "Attacker wins: Alice · Alice 79VP – Bob 35VP"
    assert content.footer[0] == "Seed: gt-sheet" and seed_hash("gt-sheet") in content.footer[1]


def test_before_sides_are_chosen_the_sections_follow_the_players_and_name_them() -> None:
    game = gt_game()
    content = table_sheet_content(GT, game.state)
    assert content.title == "Tournament Scoring Sheet"
    assert [(s.heading, s.side) for s in content.sections] == [("Alice", None), ("Bob", None)]
    assert all(row.cells == ("", "", "", "") for row in content.sections[0].rows[:-1])  # nothing played yet
    assert content.sections[0].rows[-1].cells == ("0/45", "0/15", "0/15", "0/15")
    assert content.outcome == "In progress (before the battle): Alice 0VP – Bob 0VP"


def test_a_secret_selection_and_a_secret_seed_are_not_on_the_sheet() -> None:
    game = gt_game(seed="secret-seed", mission=None)  # the mission rolled on the D33
    game.act(DeclareBattleReady(actor=ALICE, ready=True))
    game.act(SelectSecondaries(actor=BOB, picks=BOB_PICKS, codex=CODEX_NAME))
    assert game.state.player(BOB).secret == BOB_PICKS  # chosen, not revealed
    content = table_sheet_content(GT, game.state, 7)
    shown = content.text() + "\n".join(table_sheet_text(GT, game.state).values())
    for hidden in ("Linebreaker", CODEX_NAME, "Grind Them Down", "secret-seed"):
        assert hidden not in shown
    alice, bob = content.sections
    assert [c.name for c in alice.columns[1:]] == ["Not selected yet"] * 3
    assert [c.name for c in bob.columns[1:]] == ["Selected, hidden until revealed"] * 3
    assert "D33 roll" in content.lines[2]
    texts = table_sheet_text(GT, game.state)
    assert "S1-3 not selected yet" in texts["Alice"] and "S1-3 hidden until revealed" in texts["Bob"]
    assert alice.summary[0] == ("Battle Ready score", "+10 at the end of the game (army is Battle Ready)")
    assert content.footer == (f"Seed SHA-256: {seed_hash('secret-seed')}", "The seed is revealed when the game ends.")

    game.act(SelectSecondaries(actor=ALICE, picks=ALICE_PICKS))  # both revealed together
    shown = table_sheet_content(GT, game.state).text()
    assert all(name in shown for name in ("Linebreaker", f"{CODEX_NAME} (Codex)", "Assassinate"))
    assert "secret-seed" not in shown


def test_the_seed_shows_when_the_game_is_over_or_a_player_fixed_it() -> None:
    fixed = gt_game(seed="replay-seed", seed_fixed_by=ALICE)
    assert "Seed: replay-seed (fixed by a player: a replay)" in table_sheet_content(GT, fixed.state).footer

    game = gt_game(seed="bot-seed")
    to_battle(game)
    assert "bot-seed" not in table_sheet_content(GT, game.state).text()
    game.act(Concede(actor=BOB))
    content = table_sheet_content(GT, game.state)
    assert "Seed: bot-seed" in content.footer
    assert content.outcome == "Attacker wins (concession): Alice · Alice 10VP – Bob 0VP"
    assert content.sections[0].summary[0] == ("Battle Ready score", "+10 (army was Battle Ready)")


def test_a_conceding_player_scores_nothing_and_the_sheet_says_what_they_had_scored() -> None:
    game = gt_game()
    to_battle(game)
    game.score(ALICE, "engage-on-all-fronts", 8)
    game.end_turn()
    game.score(BOB, "linebreaker", 12)
    game.act(Concede(actor=BOB))
    attacker, defender = table_sheet_content(GT, game.state).sections
    assert attacker.summary[-1] == ("Victory Points Total", "18/100")  # Battle Ready: the game had a result
    assert defender.summary[-1] == ("Victory Points Total", "0/100 (conceded: 12VP scored)")
    assert [r.cells[1] for r in defender.rows[:3]] == ["12", "", ""]  # round 1 was played, 2 and 3 were not


def test_the_gt_text_tables_fit_a_message_and_show_the_same_numbers() -> None:
    tables = table_sheet_text(GT, played_gt_game().state)
    assert list(tables) == ["Attacker: Alice", "Defender: Bob"]
    alice = tables["Attacker: Alice"]
    assert alice.startswith("```\n") and alice.endswith("\n```")
    lines = alice.strip("`\n").split("\n")
    assert lines[0].split() == ["Rnd", "Pri", "S1", "S2", "S3"]
    assert lines[4].split() == ["4", "12", "-", "3", "-"]
    assert lines[6].split() == ["End", "-", "9", "-", "-"]
    assert lines[7].split() == ["Tot", "45/45", "9/15", "15/15", "0/15"]
    assert lines[8].split() == ["Lost", "3", "0", "1", "0"]
    assert "Battle Ready" in lines[9] and lines[9].endswith("+10")
    assert lines[10].endswith("79/100")
    assert lines[11:] == ["Pri Take and Hold", "S1  Assassinate", "S2  Engage on All Fronts", "S3  Investigate Sites"]
    for table in tables.values():
        assert max(len(line) for line in table.split("\n")) <= 32
    assert "S2  Oaths of Moment (Codex)" in tables["Defender: Bob"]
    assert "Lost" not in tables["Defender: Bob"]


def fourth_game(level: str) -> Game:
    game = Game(FOURTH, pack="4th-edition", mission="cleanse", level=level, seed="fourth-sheet")
    game.deploy(first=ALICE)
    return game


def test_a_4th_edition_sheet_has_every_battle_round_with_a_running_total() -> None:
    game = fourth_game("gamma")
    while game.state.status == Step.BATTLE:
        if game.state.round in (1, 3):
            game.score(game.state.active, "vp", game.state.round * 10)
        game.end_turn()
    game.score(BOB, "vp", 25)
    game.done()
    content = table_sheet_content(FOURTH, game.state, 3)
    assert content.title == "Score sheet — game 3"
    assert content.lines == ("Warhammer 40,000 4th edition Standard Missions", "Mission (agreed): Cleanse",
                             "Level: Gamma (agreed), 6 battle rounds")
    alice, bob = content.sections
    assert [c.title for c in alice.columns] == ["Victory Points", "Running total"]
    assert [(r.label, r.cells) for r in alice.rows] == [
        ("1", ("10", "10")), ("2", ("-", "10")), ("3", ("30", "40")), ("4", ("-", "40")),
        ("5", ("-", "40")), ("6", ("-", "40")), ("End Game", ("-", "40"))]
    assert bob.rows[-1].cells == ("25", "65")
    assert alice.summary == (("Victory Points total", "40"),) and bob.summary == (("Victory Points total", "65"),)
    assert content.outcome == "Winner: Bob · Alice 40VP – Bob 65VP"
    lines = table_sheet_text(FOURTH, game.state)["Bob"].strip("`\n").split("\n")
    assert [line.split() for line in lines[:2]] == [["Rnd", "VP", "Total"], ["1", "10", "10"]]
    assert lines[7].split() == ["End", "25", "65"] and lines[8].split() == ["VP", "total", "65"]
    assert len({len(line) for line in lines}) == 1  # the columns line up
    image = png(content)
    assert image.width == WIDTH and 1000 < image.height < 2400


def test_an_alpha_mission_records_who_achieved_its_objective() -> None:
    game = fourth_game("alpha")
    while game.state.status == Step.BATTLE:
        game.end_turn()
    content = table_sheet_content(FOURTH, game.state)
    assert [s.summary for s in content.sections] == [(("Mission objective", "not recorded yet"),)] * 2
    assert content.outcome == "In progress (End Game scoring)"
    game.act(MissionResult(actor=ALICE, winner=BOB))
    game.done()
    content = table_sheet_content(FOURTH, game.state)
    assert [s.summary[0][1] for s in content.sections] == ["not achieved", "achieved"]
    assert content.outcome == "Winner: Bob (achieved the mission's objective)"
    assert len(content.sections[0].rows) == game.state.battle_rounds + 1
    assert table_sheet_text(FOURTH, game.state)["Bob"].endswith("Objective: achieved\n```")


def test_a_4th_edition_sheet_hides_its_seed_until_the_end() -> None:
    game = fourth_game("gamma")
    content = table_sheet_content(FOURTH, game.state)
    assert "fourth-sheet" not in content.text() and seed_hash("fourth-sheet") in content.text()
    assert content.sections[0].rows[0].cells == ("-", "0") and content.sections[0].rows[1].cells == ("", "")


def test_the_picture_is_a_readable_png_and_the_file_is_named_after_the_game() -> None:
    game = played_gt_game()
    image = png(table_sheet_content(GT, game.state, 7))
    assert image.format == "PNG" and image.width == WIDTH and 1500 < image.height < 2600
    early = png(table_sheet_content(GT, gt_game().state))
    assert early.width == WIDTH and early.height < image.height  # no lost VP: no taller rows
    picture = table_sheet_picture(GT, game.state, 7)
    assert picture.name == "score-sheet-7.png"  # as docs/players/playing.md names it, for every pack
    assert Image.open(io.BytesIO(picture.png)).size == image.size
