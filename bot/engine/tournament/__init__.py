"""Swiss events (Chapter Approved Tournament Companion): the event's state and the organiser's actions (event),
pairings (pairing), records and standings (ranking)."""
