"""What the older mission systems (Grand Tournament 2020, the 4th edition generator) share: a table game of
battle rounds and turns, VP recorded by objective and battle round, the pre-battle roll-offs, the chess clock.
Each pack's own rules live in its rules module (bot/engine/gt2020/game.py, bot/engine/fourth_edition/game.py)."""
