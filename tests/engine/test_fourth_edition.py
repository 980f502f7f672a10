"""The 4th edition mission generator: every table entry, the Strategy Roll choice, the set-up rolls, the seed."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot.decks import DeckError, fourth_edition, load_generator, pack_dir
from bot.engine.errors import InvalidValue, NotAPlayer
from bot.engine.fourth_edition.generator import roll_mission, start_battle
from bot.engine.rng import stream_of

GENERATOR = fourth_edition()
PLAYERS = ("100000000000000001", "100000000000000002")


def roll(seed: str, **options):
    return roll_mission(GENERATOR, seed, PLAYERS, **options)


def seed_where(test) -> str:
    return next(s for s in (f"4e-{n}" for n in range(5000)) if test(s))


def test_each_roll_comes_from_its_labelled_stream_of_the_seed() -> None:
    rolled = roll("abc")
    assert rolled.mission_roll == stream_of("abc", "4e:mission").randint(1, 6)
    assert rolled.level_roll == stream_of("abc", "4e:level").randint(1, 3)
    assert roll("abc") == rolled and roll("abd") != rolled


@pytest.mark.parametrize("d6", range(1, 7))
def test_every_mission_roll_gives_its_table_entry(d6: int) -> None:
    rolled = roll(seed_where(lambda s: stream_of(s, "4e:mission").randint(1, 6) == d6))
    assert rolled.mission_roll == d6
    entry = GENERATOR.mission_table[d6 - 1]
    assert rolled.mission == entry.mission  # a 6 leaves the mission to the Strategy Roll winner
    assert (rolled.strategy_roll is not None) == (d6 == 6)


@pytest.mark.parametrize("d3, level", [(1, "alpha"), (2, "gamma"), (3, "omega")])
def test_every_level_roll_gives_its_level_and_its_rolls_after_deployment(d3: int, level: str) -> None:
    rolled = roll(seed_where(lambda s: stream_of(s, "4e:level").randint(1, 3) == d3))
    assert (rolled.level_roll, rolled.level) == (d3, level)
    start = start_battle(GENERATOR, "later", PLAYERS, rolled.level)
    special = level != "alpha"  # Gamma and Omega have Dusk & Dawn and Infiltrate
    assert (start.dusk_and_dawn is not None, start.infiltrate_first is not None) == (special, special)
    if special:
        assert start.dusk_and_dawn == stream_of("later", "4e:dusk-and-dawn").randint(1, 6)
        assert start.infiltrate_first == PLAYERS[stream_of("later", "4e:infiltrate").randint(0, 1)]


def test_nothing_rolled_before_deployment_says_who_goes_first() -> None:
    """The first turn is rolled after deployment (every mission's last set-up step), from a seed made then."""
    assert "first_turn_roll" not in roll("x").model_dump()
    start = start_battle(GENERATOR, "y", PLAYERS, "alpha")
    source = stream_of("y", "4e:first-turn")
    assert start.first_turn_roll.rolls[0] == (source.randint(1, 6), source.randint(1, 6))


def test_the_strategy_roll_winner_chooses_the_mission_and_the_rest_stays_the_same() -> None:
    seed = seed_where(lambda s: stream_of(s, "4e:mission").randint(1, 6) == 6)
    open_choice = roll(seed, strategy_ratings=(3, 1))
    winner = open_choice.chooser
    assert winner == open_choice.strategy_roll.winner and open_choice.mission is None
    loser = next(p for p in PLAYERS if p != winner)
    with pytest.raises(NotAPlayer, match="Only the winner of the Strategy Roll"):
        roll(seed, strategy_ratings=(3, 1), picked=(loser, "recon"))
    chosen = roll(seed, strategy_ratings=(3, 1), picked=(winner, "secure-and-control"))
    assert chosen.mission == "secure-and-control" and chosen.chooser is None
    assert (chosen.set_up_roll, chosen.level) == (open_choice.set_up_roll, open_choice.level)
    assert 3 <= chosen.token_d3 + 2 <= 5 and chosen.first_token in PLAYERS


def test_a_strategy_roll_keeps_each_players_highest_die() -> None:
    seed = seed_where(lambda s: stream_of(s, "4e:mission").randint(1, 6) == 6)
    rolled = roll(seed, strategy_ratings=(3, 2))
    source = stream_of(seed, "4e:strategy")
    first = (max(source.randint(1, 6) for _ in range(3)), max(source.randint(1, 6) for _ in range(2)))
    assert rolled.strategy_roll.rolls[0] == first


def test_agreed_mission_and_level_are_not_rolled() -> None:
    rolled = roll("agreed", mission="cleanse", level="alpha")
    assert (rolled.mission_roll, rolled.mission, rolled.level_roll, rolled.level) == (None, "cleanse", None, "alpha")
    with pytest.raises(InvalidValue, match="nothing left to pick"):
        roll("agreed", mission="cleanse", picked=(PLAYERS[0], "recon"))
    with pytest.raises(InvalidValue, match="Unknown choice 'delta'"):
        roll("agreed", level="delta")


def test_only_secure_and_control_places_tokens() -> None:
    for mission in ("cleanse", "seek-and-destroy", "recon", "take-and-hold"):
        assert roll("t", mission=mission).token_d3 is None
    assert roll("t", mission="secure-and-control").token_d3 == stream_of("t", "4e:tokens").randint(1, 3)


def test_bad_requests_are_refused() -> None:
    with pytest.raises(InvalidValue, match="two players"):
        roll_mission(GENERATOR, "s", (PLAYERS[0], PLAYERS[0]))
    with pytest.raises(InvalidValue, match="Strategy Rating is 1, 2 or 3"):
        roll("s", strategy_ratings=(4, 1))


def test_a_broken_generator_file_names_the_file_and_the_field(tmp_path: Path) -> None:
    data = yaml.safe_load((pack_dir("4th-edition") / "missions.yaml").read_text(encoding="utf-8"))
    data["levels"][1]["special_rules"].append("orbital-strike")
    broken = tmp_path / "missions.yaml"
    broken.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(DeckError, match=r"missions\.yaml: the mission generator: .*level 'gamma': unknown special "
                                        r"rule 'orbital-strike'"):
        load_generator(broken)
    del data["missions"][0]["objective"]
    broken.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(DeckError, match=r"field missions\.0\.objective: Field required"):
        load_generator(broken)
