"""Discord rendering: embeds, views and buttons, and the shared error reply."""
