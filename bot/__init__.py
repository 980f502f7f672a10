"""Mission Deck bot: runs Chapter Approved 2025-26 games and tournaments in Discord."""
