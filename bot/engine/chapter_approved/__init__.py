"""The Chapter Approved 2025-26 Mission Deck's rules: its card data's models (catalog), a game's state and moves,
the battle sequence (game), scoring and objective markers. Next season's deck is its data in decks/ played by
these rules (docs/developers/adding-a-pack.md)."""
