"""Army lists written for these tests (no one's real list), in the formats players export."""

NECRONS_APP = """Tomb World (510 Points)

Necrons
Strike Force (2,000 Points)
Awakened Dynasty

CHARACTERS

Overlord (110 Points)
  • Warlord
  • 1x Resurrection orb
  • 1x Voidscythe
  • Enhancements: Veil of Darkness

Technomancer (80 Points)
  • 1x Staff of light

BATTLELINE

Necron Warriors (85 Points)
  • 10x Necron Warrior

Necron Warriors (85 Points)
  • 10x Necron Warrior

OTHER DATASHEETS

Immortals (70 Points)
  • 5x Immortal

Lychguard (80 Points)
  • 5x Lychguard

Exported with App Version: v1.30.0 (1), Data Version: v585
"""

# A Space Wolves list whose author forgot a points update, took a Necron unit and named a unit with markdown
# and a mention: every one is flagged, none refuses the list, and nobody is pinged.
WOLVES_FLAGGED = """Hunt (2,100 Points)

Space Marines
Space Wolves
Strike Force (2,000 Points)
Saga of the Hunter

CHARACTERS

Ragnar Blackmane (110 Points)
  • Warlord
  • 1x Frostfang

BATTLELINE

Grey Hunters (90 Points)
  • 1x Grey Hunter Pack Leader
  • 9x Grey Hunter

Necron Warriors (90 Points)
  • 10x Necron Warrior

OTHER DATASHEETS

Wolf @everyone <@123456789012345678> __Pack__ (100 Points)
  • 5x Wolf

Exported with App Version: v1.30.0 (1), Data Version: v585
"""
