"""The Chapter Approved Mission Decks' rules, 2025-26 and 2026-27: the card data's models (catalog), a game's state
and moves, the battle sequence (game), scoring and objective markers. Each season is its data in decks/ played by
these rules, its differences as numbers and flags in its pack.yaml and catalog (docs/developers/adding-a-pack.md)."""
