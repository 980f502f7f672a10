"""Swiss events (Chapter Approved Tournament Companion): the event's state and the organiser's actions (event),
pairings (pairing), records and standings (ranking), the organiser's pairing rules (rules), table numbers
(seating) and edits to a draft round (draft)."""
