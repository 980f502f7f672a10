"""The application's services: each changes one kind of thing the bot keeps, the one way it is changed (a lock,
the pure rules, a version-checked save, the change published), whichever surface asks: Discord's commands and
buttons, the Activity, the organiser's desk. `games` (a game's moves, with its logs, summaries and their
verification), `tournaments`, `teams` (with `team_rounds`, what a team change does to an event), `judges` and
`ladders`."""
