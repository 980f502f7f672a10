"""Judges at an event in Discord: the desk that runs calls (`desk`), their texts and the calls file (`texts`), and
the persistent buttons and the ruling form (`buttons`)."""
