"""The web surface: live pages of shared games and events (server.py)."""
