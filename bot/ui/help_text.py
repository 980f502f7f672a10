"""What `/help` and the welcome message say, as data.

To document a command, add a HelpEntry to a group of SECTIONS (its full path, one line, an example that starts
with the path). An entry whose command is not registered, or lacks the optional options it names in `options`,
is hidden until it exists: entries can be written before their command is merged. `tests/cogs/test_help.py`
fails when a registered command has no entry, and when the help outgrows Discord's limits.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.present.offers import LABELS
from bot.ui.open_challenge import LABELS as CHALLENGE_LABELS
from bot.ui.permissions import NEEDED


@dataclass(frozen=True)
class HelpEntry:
    command: str  # the full path, as typed: "/game new", "/tournament round start"
    line: str  # what it does, in one line
    example: str = ""  # a whole command line starting with `command`; default: the command alone
    options: tuple[str, ...] = ()  # optional options (Discord names) the entry is about: hidden until they exist

    @property
    def shown(self) -> str:
        return f"`{self.example or self.command}` — {self.line}"


@dataclass(frozen=True)
class HelpGroup:
    title: str
    entries: tuple[HelpEntry, ...]


@dataclass(frozen=True)
class HelpSection:
    key: str  # the menu option's value
    label: str  # the menu option's label (at most 100 characters)
    summary: str  # the menu option's description (at most 100 characters)
    intro: str
    groups: tuple[HelpGroup, ...] = ()
    steps: tuple[str, ...] = ()  # numbered when shown


def button(verb: str) -> str:
    """A board button's real label, in bold: a renamed button renames the help with it."""
    return f"**{LABELS[verb][0]}**"


ABOUT = (
    "I run Warhammer 40,000 games in your channels: the Chapter Approved 2025-26 and 2026-27 Mission Decks, and the "
    "Grand Tournament 2020 and 4th edition missions.\n"
    "A board with buttons, always the newest message at the bottom of the channel, deals the cards from a secret "
    "seed (checkable afterwards) and keeps turns, CP, VP and an optional chess clock; every game is saved.\n"
    "I also run Swiss tournaments: registration, pairings, table threads, results and standings.\n"
    "Chapter Approved 2026-27's cards are shown in my own words. Powered by 40kdc-data "
    "(<https://github.com/wn-mitch/40kdc-data>)."
)

PLAYERS = HelpSection(
    key="players",
    label="Players",
    summary="Challenge someone, play the battle, look up cards and roll dice",
    intro=("Commands answer in the channel you type them in; one game at a time per channel or thread. Playing "
           "over voice? Open the table from the call's Activities menu (or a board's "
           f"{button('table')} in the voice channel's chat): both players start and play the whole game there, and "
           "everyone in the call watches."),
    groups=(
        HelpGroup("Start a game", (
            HelpEntry("/game new", "challenge someone to a game here (`thread:True`: in a thread of its own; "
                      "`pack:` for an older pack)", "/game new opponent:@bob size:strike-force"),
            HelpEntry("/game new", "leave out `opponent:` to post an open challenge anyone can take",
                      "/game new size:strike-force", options=("opponent",)),
            HelpEntry("/game new", "schedule the game: `when:tonight 20:00`; both players are reminded",
                      "/game new opponent:@bob size:strike-force when:tonight 20:00", options=("when",)),
            HelpEntry("/game new", "an open challenge for one role only, closing after 6 hours",
                      "/game new size:incursion for:@League expires:6", options=("for", "expires")),
            HelpEntry("/game new", "doubles, two a side: either partner plays the side's turn; `doubles:True` "
                      "without an opponent posts an open challenge for four seats",
                      "/game new opponent:@bob partner:@cy opponent-partner:@di",
                      options=("partner", "opponent-partner")),
            HelpEntry("/game new", "with your army: the faction and detachments autocomplete, several parted by "
                      "commas or 'and' (in 2026-27 they give your Force Disposition, or a choice of them)",
                      "/game new opponent:@bob faction:Space Wolves detachment:Saga of the Hunter",
                      options=("faction", "detachment")),
            HelpEntry("/army set", "set your army before the battle (the board's Set army button too): faction "
                      "and detachment, and your list as a file (app export or NewRecruit .rosz); with nothing, a "
                      "form to paste your list", "/army set faction:Necrons detachment:Awakened Dynasty"),
            HelpEntry("/army show", "a player's army and list, privately, with the full list a press away",
                      "/army show player:@bob"),
            HelpEntry("/settings timezone", "set your time zone once, for times you type",
                      "/settings timezone zone:Europe/Berlin"),
            HelpEntry("/game status", "post this channel's board again"),
        )),
        HelpGroup("During the battle", (
            HelpEntry("/secondary choose", "secretly choose Tactical, or Fixed with two cards"),
            HelpEntry("/secondary new-orders", "New Orders (1CP): swap one of your active cards",
                      "/secondary new-orders card:Area Denial"),
            HelpEntry("/secondary discard", "end-of-turn discards (no card: keep them all)",
                      "/secondary discard card:Sabotage"),
            HelpEntry("/score add", "record VP (the board's Score button offers each card's options)",
                      "/score add source:secondary vp:3 card:Sabotage"),
            HelpEntry("/score objective", "older packs: VP for one of your objectives",
                      "/score objective objective:Engage on All Fronts vp:3"),
            HelpEntry("/cp spend", "spend CP on a Stratagem or rule", "/cp spend amount:1 reason:Command Re-roll"),
            HelpEntry("/cp gain", "gain CP from a rule (at most 1CP per battle round)",
                      "/cp gain amount:1 reason:detachment rule"),
            HelpEntry("/challenger use", "use your Challenger card as its Stratagem or its Mission",
                      "/challenger use as:stratagem"),
            HelpEntry("/game undo", "take back the last action"),
            HelpEntry("/game pings", "stop (or restart) my notifications to you in this game",
                      "/game pings setting:off"),
            HelpEntry("/game concede", "concede: your opponent wins"),
            HelpEntry("/game end", "abandon the game without a result (your opponent agrees)"),
            HelpEntry("/game share", "live web pages of the game: a board page and OBS overlays for a stream "
                      "(your opponent agrees; `stop:True` revokes them)"),
        )),
        HelpGroup("After the battle", (
            HelpEntry("/game log", "the whole game as JSON, to check with `python -m bot verify` (for you; "
                      "`public:True` posts it)"),
            HelpEntry("/game sheet", "the score sheet picture of this channel's latest game"),
            HelpEntry("/game history", "your finished games here, newest first (or another player's)",
                      "/game history player:@bob"),
            HelpEntry("/stats player", "a picture of your record: results, VP, missions, first or second",
                      "/stats player player:@bob"),
            HelpEntry("/stats server", "this server's games per week, missions, first-turn wins, the Challenger"),
            HelpEntry("/stats faction", "each faction's games, W-L-D and win rate here (mirrors left out); "
                      "`scope:event` for the latest tournament", "/stats faction scope:event"),
            HelpEntry("/stats export", "your finished games as CSV"),
        )),
        HelpGroup("The ladder (once an admin starts it)", (
            HelpEntry("/ladder standings", "the server's table: ratings, games and W-L-D"),
            HelpEntry("/ladder me", "your rating, place and last changes"),
        )),
        HelpGroup("Cards, rulings and dice", (
            HelpEntry("/card", "any card, deployment, layout or pool mission", "/card name:Cleanse"),
            HelpEntry("/faq", "the FAQ rulings that answer a question", "/faq query:Sabotage deployment zone"),
            HelpEntry("/roll", "roll dice for the channel to see", "/roll dice:2D6+1"),
            HelpEntry("/rolloff", "roll off against another player", "/rolloff opponent:@bob"),
            HelpEntry("/mission roll", "roll a mission of an older pack, without a board",
                      "/mission roll pack:4th-edition opponent:@bob"),
        )),
        HelpGroup("Help", (
            HelpEntry("/help", "this guide, only for you"),
        )),
    ),
)

EVENTS = HelpSection(
    key="events",
    label="At events",
    summary="Play a tournament, a doubles event or a team event: register, report, captain",
    intro=("An event's tables get threads of their own, each with its game ready: play it there and its result goes "
           "to the standings by itself. Games played elsewhere are reported with `/tournament report`."),
    groups=(
        HelpGroup("Tournaments", (
            HelpEntry("/tournament register", "join this server's tournament; `club:` your club (organisers may "
                      "keep club mates apart); in doubles, `partner:` yours",
                      "/tournament register club:Iron Wolves", options=("club", "partner")),
            HelpEntry("/tournament list submit", "your army list for the event (a file, or a form to paste it; in "
                      "doubles, each player their own); again to replace it until the deadline",
                      "/tournament list submit file:my-list.txt"),
            HelpEntry("/tournament list show", "a list, privately: yours (or your doubles partner's), or anyone's at "
                      "an open-list event",
                      "/tournament list show player:@bob"),
            HelpEntry("/tournament report", "report your game; your opponent confirms it",
                      "/tournament report my-vp:72 opponent-vp:65"),
            HelpEntry("/tournament standings", "the standings, with your own place"),
            HelpEntry("/tournament drop", "leave the tournament (you keep your results)"),
            HelpEntry("/judge call", "call a judge to your table, from its thread (the board's **Call a judge** "
                      "too); the note is for the judges only", "/judge call note:line of sight to the ruin"),
        )),
        HelpGroup("Team events (captains)", (
            HelpEntry("/team register", "register your team, you as its captain, with its players",
                      "/team register name:Iron Lords player2:@bob player3:@carol"),
            HelpEntry("/team add", "add a player to your team (until round 1 is paired)", "/team add player:@dan"),
            HelpEntry("/team replace", "swap a player for another (until round 1)", "/team replace out:@dan into:@eve"),
            HelpEntry("/team remove", "take a player off your team (until round 1)", "/team remove player:@eve"),
            HelpEntry("/team captain", "name the captain and a stand-in who chooses when they cannot",
                      "/team captain captain:@bob stand-in:@carol"),
            HelpEntry("/team show", "a roster, privately, with what keeps it from playing"),
            HelpEntry("/team standings", "the teams by Team Points, game wins and Battle Points"),
        )),
    ),
)


ORGANISERS = HelpSection(
    key="organisers",
    label="Organisers",
    summary="Run a Swiss tournament: register, pair, clock, results, standings",
    intro="Organisers have Manage Server, or the organiser role named at `/tournament create`. Drafts and "
          "refusals are shown only to you.",
    groups=(
        HelpGroup("Before round 1", (
            HelpEntry("/tournament create", "open a Swiss event on this server (Manage Server)",
                      "/tournament create name:Winter GT rounds:5 announce-channel:#pairings"),
            HelpEntry("/tournament create", "with lists: closed (you see them) or open (each player sees their "
                      "opponent's in the table thread), due by a deadline",
                      "/tournament create name:Winter GT rounds:5 lists:open list-deadline:friday 18:00",
                      options=("lists", "list-deadline")),
            HelpEntry("/tournament create", "a doubles event: pairs of players, two a side, each pair one entrant",
                      "/tournament create name:Doubles GT rounds:3 doubles:True", options=("doubles",)),
            HelpEntry("/tournament register", "register someone else (a pair: with `partner:`)",
                      "/tournament register player:@alice"),
            HelpEntry("/tournament list review", "every entrant's list: missing, flagged, corrected"),
            HelpEntry("/tournament list submit", "enter or correct a player's list (after the lock, logged)",
                      "/tournament list submit player:@alice file:alice.rosz"),
            HelpEntry("/tournament checkin", "post a Check in button; `close` drops who did not check in",
                      "/tournament checkin action:open"),
        )),
        HelpGroup("Each round", (
            HelpEntry("/tournament pair", "draft the next round privately, then Publish it (tables get threads)",
                      "/tournament pair mission:F"),
            HelpEntry("/tournament announce", "post the round's pairings and mission again"),
            HelpEntry("/tournament tables", "where table threads open: up to 5 channels share a big round's tables, "
                      "which open sooner; also opens any table the round still lacks",
                      "/tournament tables channel:#tables-a channel-2:#tables-b"),
            HelpEntry("/tournament round start", "start the round's clock, with reminders",
                      "/tournament round start minutes:180"),
            HelpEntry("/tournament status", "which tables have their result; Nudge them pings the rest"),
            HelpEntry("/tournament result", "enter or correct a table's result",
                      "/tournament result table:3 vp-a:78 vp-b:61"),
            HelpEntry("/tournament drop", "drop a player", "/tournament drop player:@bob"),
            HelpEntry("/tournament reinstate", "bring back a player who dropped",
                      "/tournament reinstate player:@bob"),
        )),
        HelpGroup("At the end", (
            HelpEntry("/tournament standings", "post the standings for everyone"),
            HelpEntry("/tournament export", "the standings and every result as CSV files"),
            HelpEntry("/tournament desk", "the organiser's desk: one live web page, signed in with Discord, to run "
                      "the whole day (check-in, the draft and its pairing rules, results, time, judge calls, exports)"),
            HelpEntry("/tournament share", "the venue screen's link (round clock, pairings, live scores, standings) "
                      "and each table's overlays, for you"),
            HelpEntry("/tournament finish", "close the event once every result is in"),
        )),
        HelpGroup("Team events", (
            HelpEntry("/tournament create", "a team event: teams of 3 to 8 paired by their captains, scored in "
                      "Battle Points (Chapter Approved 2026-27)",
                      "/tournament create name:Team GT rounds:3 pack:ca-2026-27 team-size:5 pairing-minutes:15",
                      options=("team-size", "chapters", "team-bye", "pairing-minutes", "layouts")),
            HelpEntry("/team register", "register a team for its captain", "/team register name:Iron Lords "
                      "captain:@bob player2:@carol", options=("captain",)),
            HelpEntry("/tournament pair", "draft the round's team matches; Publish opens a thread per match where "
                      "the captains pair their games in secret, step by step"),
        )),
        HelpGroup("Judges", (
            HelpEntry("/judge setup", "the judges' channel (default: the announcement channel), a judge role "
                      "besides organisers (called when nobody is on duty), and the minutes before an unclaimed call "
                      "is raised again", "/judge setup channel:#judges role:@Judges reraise-minutes:10",
                      options=("reraise-minutes",)),
            HelpEntry("/judge duty on", "go on duty: each table's call mentions you; **Claim** tells the table "
                      "you are coming, **Resolved** keeps your ruling"),
            HelpEntry("/judge duty off", "go off duty"),
            HelpEntry("/judge calls", "the open calls, oldest first, and who is on duty, at the bottom of the "
                      "judges' channel; a call's **+5 minutes** gives its table time (organisers)"),
        )),
    ),
)

SERVER_ADMINS = HelpSection(
    key="admins",
    label="Server admins",
    summary="The permissions I need, and who may do what",
    intro=("In each channel where games are played I need: " + ", ".join(n.name for n in NEEDED) + ". "
           "Server Settings → Integrations sets who may use each command."),
    groups=(
        HelpGroup("Set-up", (
            HelpEntry("/setup check", "which permissions I lack in this channel, and what each one breaks "
                      "(Manage Server)"),
            HelpEntry("/settings pack", "the pack `/game new` plays here when no `pack:` is named (Manage Server; "
                      "Chapter Approved 2025-26 until changed)", "/settings pack pack:Grand Tournament 2020"),
            HelpEntry("/ladder start", "start ranking this server's games from now on (nothing is ranked before)",
                      "/ladder start name:Winter League"),
            HelpEntry("/ladder start", "rate doubles (2v2) games too, on a table of their own (`/ladder standings "
                      "doubles:True`; default: not at all)", "/ladder start name:Winter League doubles:separate",
                      options=("doubles",)),
            HelpEntry("/ladder void", "take a game off the ladder; the table is recomputed", "/ladder void game:412"),
            HelpEntry("/ladder season new", "archive the ladder's table and start a new season"),
            HelpEntry("/game end", "with Manage Channels: abandon this channel's game at once"),
            HelpEntry("/tournament create", "needs Manage Server; `organiser-role:` lets a role run the event",
                      "/tournament create name:Club league rounds:3 organiser-role:@TO"),
        )),
    ),
)

FIRST_GAME = HelpSection(
    key="first-game",
    label="Your first game in 10 steps",
    summary="From the challenge to the result, button by button",
    intro="A Chapter Approved game, as the board runs it. Only the player whose move it is can press a button.",
    steps=(
        "In your game channel: `/game new opponent:@bob size:strike-force` (or leave out `opponent:` and the "
        f"first member to press **{CHALLENGE_LABELS['take'][0]}** plays you).",
        f"Your opponent presses {button('accept')}: the challenge keeps the mission briefing, and I post the board "
        "under it.",
        f"The roll-off winner presses {button('attacker')} or {button('defender')}.",
        f"Each player presses {button('choose')} and secretly picks Tactical, or Fixed with two cards; both "
        f"choices are revealed together. {button('ready')} marks a painted army.",
        f"Deploy, then each player presses {button('deployed')}: I roll off for the first turn.",
        f"Command phase: CP and Tactical cards come in; score with {button('score')}, swap a card with "
        f"{button('neworders')}, then {button('endcmd')}.",
        f"Movement to Fight: {button('score')} what you achieve as it happens, then {button('endturn')}.",
        f"End of turn: both players score, then each presses {button('done')}; Tactical players may "
        f"{button('discard')}.",
        f"Turns alternate for five battle rounds; {button('undo')} takes back a slip, `/game status` brings the "
        "board to the bottom.",
        f"After round 5, End Game scoring and {button('done')} by both: the result card and score sheet are "
        "posted; `/game log` exports the game.",
    ),
)

SECTIONS: tuple[HelpSection, ...] = (PLAYERS, EVENTS, ORGANISERS, SERVER_ADMINS, FIRST_GAME)

WELCOME = (
    "👋 Thanks for adding me! I run Warhammer 40,000 Mission Deck games in your channels (challenge someone with "
    "`/game new`: a board with buttons at the bottom of the channel runs the battle) and Swiss tournaments.\n"
    "• `/help` explains every command, privately.\n"
    "• Admins: run `/setup check` in the channels where you will play: it lists the permissions I still lack "
    "there and what each one breaks."
)
