"""Narration in plain words: events, the board, the score sheet and seat names, for every front end.

The command line prints these lines, and the web front end sends them, so every player reads the same words.
Each line is written for one reader: the ``viewer`` seat reads as "you" ("You draw a Seal.", "Bea claims a
Giraffe from you.", "Bob swaps the monkey for your Lion.") and every other seat by its name. A seat's *name*
never makes it "you": :func:`cheekymonkey.names.check_names` refuses "You" as a name, and look-alikes.

>>> from cheekymonkey.cheeky.events import Claimed, Swapped
>>> names = ["Ann", "Bea", "Cy"]
>>> describe_event(Claimed(1, 0, Animal.GIRAFFE), names, viewer=0)
'Bea claims a Giraffe from you.'
>>> describe_event(Claimed(1, 0, Animal.GIRAFFE), names, viewer=2)
'Bea claims a Giraffe from Ann.'
>>> describe_event(Swapped(2, 0, Animal.SEAL), names, viewer=0)
'Cy swaps the monkey for your Seal.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from cheekymonkey.cheeky.events import Busted, Claimed, Drew, Event, GameOver, HerdSecured, Stacked, Stopped, Swapped
from cheekymonkey.cheeky.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.cheeky.scoring import Decision, ScoreSheet
from cheekymonkey.text_table import Cell, Column, TextTable

if TYPE_CHECKING:
    from cheekymonkey.cheeky.state import GameState

__all__ = [
    "ANIMAL_COLOURS",
    "LEGEND",
    "RESULTS_NOTE",
    "SUMMARY",
    "a",
    "action_words",
    "and_list",
    "board_table",
    "bot_title",
    "choice_notes",
    "count",
    "describe_event",
    "format_sheet",
    "hint",
    "merge_stacking",
    "result_table",
    "result_text",
    "sheet_columns",
    "sheet_numbers",
    "sheet_table",
    "tie_notes",
    "tokens",
    "winners_line",
]


SUMMARY: Final = (
    "Draw animal tokens from the bag one at a time, and stop before you draw an animal already in front of "
    "you: that busts, and the tokens go back. Tokens you stop with go on your stack, where the others may "
    "claim the top one. When the bag is empty, each token scores 1 and each animal's bonus tile goes to the "
    "one player with the most of it; the best score wins."
)
"""What the game is about and how it is won, for a new player (R5-R9, R15-R18)."""

RESULTS_NOTE: Final = (
    "Cheeky Monkey rewards choices: on the bot page (The bot ladder) each bot beats the one below it, the "
    "heuristic bot winning 100% of 200 games against the random bot and the expectimax bot 60.4% of 1,000 "
    "against the heuristic. A win rate still carries the luck of the draw: read it with its interval."
)
"""What a reader of the bots' win rates should know (the figures of docs/explanation/bots.md)."""


def choice_notes(state: GameState, names: Sequence[str]) -> tuple[str, ...]:
    """Why a choice a player may look for is not offered in ``state``: a draw from the empty bag (R8); often none.

    ``names`` names the seats (for the protocol: no note names one yet).

    >>> from cheekymonkey import new_game
    >>> choice_notes(new_game(2), ["Ann", "Bob"])
    ()
    """
    from cheekymonkey.cheeky.state import Phase

    if state.phase is Phase.DECIDE and not any(state.bag):
        return ("The bag is empty, so you cannot draw (R8).",)
    return ()


def action_words(action: object, state: GameState, names: Sequence[str]) -> str:
    """A legal ``action`` in words, for a person choosing it; ``names`` names the seats.

    >>> from cheekymonkey.cheeky import Claim, Draw, new_game
    >>> action_words(Draw(), new_game(2), ["Ann", "Bob"]), action_words(Claim(1), new_game(2), ["Ann", "Bob"])
    ('draw', 'claim from Bob')
    """
    from cheekymonkey.cheeky.actions import Claim, Draw, Herd, Place, Reveal, Stop, Swap

    if isinstance(action, Claim):
        return f"claim from {names[action.seat]}"
    if isinstance(action, Swap):
        top = state.stacks[action.seat][-1]
        return f"swap with {names[action.seat]} for {a(top.label)}"
    if isinstance(action, Place):
        return f"put {a(action.animal.label)} down"
    if isinstance(action, Reveal):
        return f"reveal {a(action.animal.label)}"
    if isinstance(action, Draw):
        return "draw"
    if isinstance(action, Stop):
        return "stop"
    if isinstance(action, Herd):
        return "secure a herd"
    raise TypeError(f"not an action of Cheeky Monkey: {action!r}")


def result_table(state: GameState, names: Sequence[str] | None = None) -> TextTable:
    """The final score sheet of a finished game as cells, each seat by its name (default ``Seat 0``, ...).

    Raises:
        GameNotOverError: If the game is not over.
    """
    from cheekymonkey.cheeky.scoring import score

    sheet = score(state)
    return sheet_table(sheet, state.ruleset, _names_for(sheet, names))


def result_text(state: GameState, names: Sequence[str] | None = None, width: int = 80) -> str:
    """The final score sheet of a finished game as plain text, ``width`` columns at most, seats by their names.

    Raises:
        GameNotOverError: If the game is not over.
    """
    return result_table(state, names).text(width)


def _names_for(sheet: ScoreSheet, names: Sequence[str] | None) -> Sequence[str]:
    return [f"Seat {seat}" for seat in range(len(sheet.totals))] if names is None else names


def hint(state: GameState) -> str:
    """What the player to move may do now beside drawing and stopping, in one sentence; "" when nothing more.

    The page shows it as it is, and the terminal above its choices, so both say the same.

    >>> from cheekymonkey.cheeky import new_game
    >>> hint(new_game(2))
    ''
    """
    from cheekymonkey.cheeky.actions import Claim, Swap
    from cheekymonkey.cheeky.engine import legal_actions
    from cheekymonkey.cheeky.state import Phase

    if state.phase is Phase.PLACING:
        return "Choose the order, bottom first: the last token you put down ends on top, where others may claim it."
    if state.phase is not Phase.DECIDE:
        return ""
    legal = legal_actions(state)
    claim = any(isinstance(action, Claim) for action in legal)
    swap = any(isinstance(action, Swap) for action in legal)
    if claim and swap:
        return "You drew a Monkey: claim another Monkey from a stack top, or swap yours for a stack's top token."
    if claim:
        return f"You drew {a(state.front[-1].label)}: you may claim the same animal from the top of another stack."
    if swap:
        return "You drew a Monkey: you may swap it for the top token of another stack."
    return ""


def a(word: str) -> str:
    """The word with its indefinite article: ``"a Seal"``, ``"an Elephant"``."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def count(n: int, singular: str, plural: str | None = None) -> str:
    """A count with its noun in the right number: ``"1 token"``, ``"3 tokens"``, ``"2 properties"``."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def and_list(words: Sequence[str]) -> str:
    """Words joined as a sentence joins them: ``"Seal"``, ``"Seal and Lion"``, ``"Seal, Hippo and Lion"``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _animal_count(n: int, animal: Animal) -> str:
    return f"{n} {animal.label if n == 1 else animal.plural}"


_ACRONYMS: Final = {"mcts": "MCTS", "mcts400": "MCTS-400"}


def bot_title(kind: str) -> str:
    """A bot kind's name for people: ``"Heuristic"``, ``"Expectimax"``, ``"MCTS"`` (Monte Carlo tree search)."""
    return _ACRONYMS.get(kind.lower(), kind.capitalize())


class _Reader:
    """The seats as one reader reads them: the viewer's seat is "you", the others their names."""

    def __init__(self, names: Sequence[str], viewer: int | None) -> None:
        self.names = names
        self.viewer = viewer

    def subject(self, seat: int, verb: str) -> str:
        """``"Ann draws"``, or ``"You draw"`` for the viewer (``verb`` is given in the third person)."""
        if seat == self.viewer:
            return f"You {verb.removesuffix('es') if verb.endswith('shes') else verb.removesuffix('s')}"
        return f"{self.names[seat]} {verb}"

    def object(self, seat: int) -> str:
        """``"Ann"``, or ``"you"``."""
        return "you" if seat == self.viewer else self.names[seat]

    def possessive(self, seat: int) -> str:
        """``"Ann's"``, or ``"your"``."""
        return "your" if seat == self.viewer else f"{self.names[seat]}'s"

    def own(self, seat: int) -> str:
        """The possessive of a seat's own thing after it is the subject: ``"their"``, or ``"your"``."""
        return "your" if seat == self.viewer else "their"


def tokens(animals: Sequence[Animal]) -> str:
    """A list of tokens for people: ``"Seal, Lion"``, or ``"nothing"``."""
    return ", ".join(a.label for a in animals) or "nothing"


def describe_event(event: Event, names: Sequence[str], viewer: int | None = None) -> str:
    """One line of narration for an event, as ``viewer`` reads it (None: a spectator, who sees only names).

    Args:
        event: What happened.
        names: The seats' names, in seat order.
        viewer: The reader's seat, which reads as "you"; None for a spectator.

    >>> from cheekymonkey.cheeky.events import Busted, HerdSecured, Stacked
    >>> describe_event(Busted(1, Animal.KANGAROO, (Animal.LION, Animal.KANGAROO)), ["Ann", "Bea"], viewer=1)
    'You draw a Kangaroo: bust! 2 tokens go back into the bag.'
    >>> describe_event(HerdSecured(0, (Animal.ELEPHANT,) * 2), ["Ann", "Bea"], viewer=1)
    'Ann secures a herd of 2 Elephants at the bottom of their stack.'
    >>> describe_event(Stacked(0, (Animal.SEAL, Animal.LION)), ["Ann", "Bea"], viewer=0)
    'You stack Seal and Lion, bottom to top: the Lion on top.'
    """
    reader = _Reader(names, viewer)
    if isinstance(event, Drew):
        return f"{reader.subject(event.seat, 'draws')} {a(event.animal.label)}."
    if isinstance(event, Busted):
        back = len(event.returned)
        drew = reader.subject(event.seat, "draws")
        goes = "goes" if back == 1 else "go"
        return f"{drew} {a(event.animal.label)}: bust! {count(back, 'token')} {goes} back into the bag."
    if isinstance(event, Claimed):
        claims = reader.subject(event.seat, "claims")
        return f"{claims} {a(event.animal.label)} from {reader.object(event.from_seat)}."
    if isinstance(event, Swapped):
        swaps = reader.subject(event.seat, "swaps")
        return f"{swaps} the monkey for {reader.possessive(event.with_seat)} {event.took.label}."
    if isinstance(event, Stopped):
        return f"{reader.subject(event.seat, 'stops')} with {and_list([t.label for t in event.tokens])}."
    if isinstance(event, Stacked):
        if len(event.animals) == 1:
            puts = reader.subject(event.seat, "puts")
            return f"{puts} {a(event.animals[0].label)} on top of {reader.own(event.seat)} stack."
        stacks = reader.subject(event.seat, "stacks")
        order = and_list([animal.label for animal in event.animals])
        return f"{stacks} {order}, bottom to top: the {event.animals[-1].label} on top."
    if isinstance(event, HerdSecured):
        herd = f"a herd of {_animal_count(len(event.animals), event.animals[0])}"
        return f"{reader.subject(event.seat, 'secures')} {herd} at the bottom of {reader.own(event.seat)} stack."
    if isinstance(event, GameOver):
        return "The bag is empty and every token is stacked: the game is over."
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover


def merge_stacking(events: Sequence[Event]) -> tuple[Event, ...]:
    """The events with each run of :class:`~cheekymonkey.cheeky.events.Stacked` by one seat joined into one.

    A player who stacks tokens one at a time (R9) makes one event per token; narrated, they read as one.

    >>> merge_stacking([Stacked(0, (Animal.SEAL,)), Stacked(0, (Animal.LION, Animal.HIPPO))])
    (Stacked(seat=0, animals=(Animal.SEAL, Animal.LION, Animal.HIPPO)),)
    """
    merged: list[Event] = []
    for event in events:
        last = merged[-1] if merged else None
        if isinstance(event, Stacked) and isinstance(last, Stacked) and last.seat == event.seat:
            merged[-1] = Stacked(event.seat, (*last.animals, *event.animals))
        else:
            merged.append(event)
    return tuple(merged)


# -- tables: the board and the score sheet -----------------------------------------------------------------

ANIMAL_COLOURS: Final[dict[Animal, str]] = {
    Animal.ELEPHANT: "grey62",
    Animal.SEAL: "blue",
    Animal.HIPPO: "magenta",
    Animal.GIRAFFE: "yellow",
    Animal.PANDA: "cyan",  # not white: it must show on light terminals too
    Animal.KANGAROO: "dark_orange",
    Animal.LION: "red",
    Animal.MONKEY: "green",
}
"""One colour per animal for the board and the score sheet (names rich knows; a pipe shows none)."""


def _cell(text: str, animal: Animal | None = None) -> Cell:
    return Cell(text, ANIMAL_COLOURS[animal] if animal is not None else None)


def board_table(
    state: GameState, names: Sequence[str], viewer: int | None = None, bust: float | None = None
) -> TextTable:
    """The table as a player sees it (R9): each stack's height and top, the front, the bag, and the bust odds.

    Args:
        state: The state shown.
        names: The seats' names.
        viewer: The reader's seat, marked "(you)", or None.
        bust: The chance that drawing now busts the player to move, shown while they decide, or None.

    >>> from cheekymonkey import Reveal, Stop, apply_all, new_game
    >>> state = apply_all(new_game(2), [Reveal(Animal.ELEPHANT), Stop(), Reveal(Animal.SEAL)])
    >>> print(board_table(state, ["Ann", "Bob"], viewer=1, bust=0.0).text())
    Bag: 50 tokens
    seat  player     stack  top
       0  Ann            1  Elephant
       1  > Bob (you)      0  -
    In front of you: Seal. Drawing again busts with probability 0%.
    """
    from cheekymonkey.cheeky.state import Phase

    over = state.phase is Phase.OVER
    rows = []
    for seat, stack in enumerate(state.stacks):
        marker = "> " if seat == state.seat and not over else ""
        label = f"{marker}{names[seat]}{' (you)' if seat == viewer else ''}"
        top = stack[-1] if len(stack) else None
        rows.append(
            (Cell(str(seat)), Cell(label), Cell(str(len(stack))), _cell(top.label if top is not None else "-", top))
        )
    notes = []
    if not over:
        whose = "you" if state.seat == viewer else names[state.seat]
        note = f"In front of {whose}: {tokens(state.front)}."
        if bust is not None and state.phase is Phase.DECIDE and state.bag_size:
            note += f" Drawing again busts with probability {bust:.0%}."
        notes.append(note)
    columns = (
        Column(Cell("seat"), right=True),
        Column(Cell("player")),
        Column(Cell("stack"), right=True),
        Column(Cell("top")),
    )
    return TextTable(columns, tuple(rows), title=f"Bag: {count(state.bag_size, 'token')}", notes=tuple(notes))


LEGEND = "* took the bonus tile: the most of that animal (rule R16, Bonus tiles)"
"""The score sheet's note on its star, in words a player can look up (``? R16`` at the prompt)."""


def tie_notes(sheet: ScoreSheet, animals: Sequence[Animal], names: Sequence[str]) -> tuple[str, ...]:
    """Why an animal's tile went to nobody though some stacked it: the most of it was shared (R16); often none.

    >>> from cheekymonkey.cheeky import Animal, Ruleset
    >>> from cheekymonkey.cheeky.scoring import score_counts
    >>> counts = [[0] * 8, [0] * 8]
    >>> counts[0][Animal.LION] = counts[1][Animal.LION] = 3
    >>> tie_notes(score_counts(counts, Ruleset.standard()), [Animal.LION], ["Ann", "Bob"])
    ('No Lion tile: Ann and Bob tie with 3 each (a tie takes no tile).',)
    """
    notes = []
    for animal in animals:
        held = [line.counts[animal] for line in sheet.seats]
        most = max(held, default=0)
        if most and sheet.tile_holders[animal] is None:
            tied = [names[line.seat] for line in sheet.seats if line.counts[animal] == most]
            if len(tied) > 1:
                who = and_list(tied)
                notes.append(f"No {animal.label} tile: {who} tie with {most} each (a tie takes no tile).")
    return tuple(notes)


def sheet_columns(ruleset: Ruleset) -> tuple[list[Animal], list[str]]:
    """The score sheet's columns: the animals in play, then the sums (the total alone without bonus tiles)."""
    # R19: without bonus tiles the score is the token count, so the bonus and tokens columns would only repeat it.
    animals = [a for a in ANIMALS if ruleset.counts[a]]
    return animals, (["tokens", "bonus", "total"] if ruleset.bonus_tiles else ["total"])


def _sheet_columns_of(sheet: ScoreSheet) -> tuple[list[Animal], list[str]]:
    # Without the rule set: the animals someone stacked, and the bonus columns if any tile was taken.
    animals = [a for a in ANIMALS if any(line.counts[a] for line in sheet.seats)]
    tiles = any(holder is not None for holder in sheet.tile_holders)
    return animals, (["tokens", "bonus", "total"] if tiles else ["total"])


def sheet_numbers(sheet: ScoreSheet, seat: int, columns: list[str]) -> list[str]:
    """``seat``'s sums on the score sheet, one per column of :func:`sheet_columns`."""
    line = sheet.seats[seat]
    values = {"tokens": line.tokens, "bonus": line.bonus, "total": line.total}
    return [str(values[column]) for column in columns]


def sheet_table(sheet: ScoreSheet, ruleset: Ruleset | None, names: Sequence[str]) -> TextTable:
    """The score sheet as a table: tokens per animal (a star for a bonus tile), the sums, the legend, the winners.

    The animal columns have full names, and three-letter ones where the table must fit a narrow screen
    (:meth:`~cheekymonkey.text_table.TextTable.fit`). Without bonus tiles (R19) there is no bonus column and no
    star. Without a rule set, the columns are the animals someone stacked.
    """
    animals, columns = sheet_columns(ruleset) if ruleset is not None else _sheet_columns_of(sheet)
    header = [Column(Cell("player"))]
    header += [Column(_cell(animal.label, animal), animal.label[:3], right=True) for animal in animals]
    header += [Column(Cell(column), right=True) for column in columns]
    rows = []
    for line in sheet.seats:
        cells = [_cell(f"{line.counts[a]}{'*' if sheet.tile_holders[a] == line.seat else ''}", a) for a in animals]
        numbers = [Cell(n) for n in sheet_numbers(sheet, line.seat, columns)]
        rows.append((Cell(names[line.seat]), *cells, *numbers))
    tiles = any(holder is not None for holder in sheet.tile_holders) if ruleset is None else ruleset.bonus_tiles
    explained = (LEGEND, *tie_notes(sheet, animals, names)) if tiles else ()
    notes = (*explained, winners_line(sheet, names))
    return TextTable(tuple(header), tuple(rows), title="Final scores", notes=notes)


def format_sheet(sheet: ScoreSheet, ruleset: Ruleset | None, names: Sequence[str], width: int = 80) -> str:
    """The score sheet as plain text at most ``width`` columns wide (:func:`sheet_table`), the winners below."""
    return sheet_table(sheet, ruleset, names).text(width)


def winners_line(sheet: ScoreSheet, names: Sequence[str]) -> str:
    """Who won and how, in one sentence."""
    winners = and_list([names[w] for w in sheet.winners])
    if sheet.decided_by is Decision.SCORE:
        return f"Winner: {winners}."
    if sheet.decided_by is Decision.TIE_BREAK:
        return f"Winner: {winners}, on the tie-break: the highest single bonus tile (rule R18, Winner)."
    return f"Shared win: {winners}."
