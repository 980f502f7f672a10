"""Card data, one folder per mission pack (YAML, validated by bot.decks at load time)."""
