"""What a seat is sent: a room's table as that seat sees it, made of the game's own documents.

:func:`table_message` builds the message :meth:`~cheekymonkey.web.Room.message` gives (its keys are listed
there): the seat's view, never the full state; the seat's legal moves, each with its text in the game's
notation and its words; the events from a number on, each told in words written for that seat. The page
and any other client read it the same way for every game.

Each event also carries ``log``: the lines a log of the game shows when it comes, the same lines the
terminal prints (its narrator, in ``cheekymonkey.cli.narrate``). A move made of several actions (a stop's
tokens stacked one at a time, :meth:`~cheekymonkey.Game.mid_move`) is told once, when it is complete, in
one line (:meth:`~cheekymonkey.Game.merge_events`): its last event carries the move's lines and the events
inside it carry none; a move still going on has no lines yet.
"""

from __future__ import annotations

from typing import Any, Protocol

from cheekymonkey.games import AnyGame
from cheekymonkey.table import Table, Waiting, events_seen

__all__ = ["MessageSource", "bare", "events_seen_since", "log_lines", "table_message"]


class MessageSource(Protocol):
    """What a message is made from: a :class:`~cheekymonkey.web.Room`, as this module sees it."""

    @property
    def id(self) -> str:
        """The room's id."""
        ...

    @property
    def table(self) -> Table[Any, Any, Any, Any, Any]:
        """The game in progress."""
        ...

    @property
    def game(self) -> AnyGame:
        """The game."""
        ...

    @property
    def rules(self) -> str:
        """The name the rules are shown by."""
        ...

    @property
    def version(self) -> int:
        """How many actions the game has had."""
        ...

    @property
    def closed(self) -> bool:
        """Whether the room has ended."""
        ...

    @property
    def notices(self) -> list[str]:
        """What the room tells every seat (a bot that failed, say)."""
        ...


def bare(document: dict[str, Any]) -> dict[str, Any]:
    """A document without its format header, as a view's own lists hold actions.

    >>> bare({"format": "cheekymonkey/1", "kind": "action", "type": "draw"})
    {'type': 'draw'}
    """
    return {key: value for key, value in document.items() if key not in ("format", "kind")}


def events_seen_since(table: Table[Any, Any, Any, Any, Any], seat: int | None, since: int) -> list[tuple[int, Any]]:
    """The events numbered ``since`` on as ``seat`` (None: a spectator) sees them, each with its number.

    For a game with private information each event goes through the game's
    :meth:`~cheekymonkey.Game.event_for` (as :meth:`~cheekymonkey.Table.events_for` does), and an
    event that shows the seat nothing is left out; the others keep their number in the room's log, so a
    client's ``since`` means the same for every seat. For a game without secrets, every event as it is.
    """
    start = max(0, since)
    game = table.game
    if not game.private_information:
        return list(enumerate(table.events_since(start), start))
    numbered = []
    for seq, event in enumerate(table.events_since(start), start):
        # events_seen of one event: the game's event_for, or nothing if it shows this seat nothing.
        seen = events_seen(game, (event,), seat)
        if seen:
            numbered.append((seq, seen[0]))
    return numbered


def _move_groups(table: Table[Any, Any, Any, Any, Any], since: int) -> list[tuple[int, int, bool]]:
    """The moves with events numbered ``since`` or later, oldest first: each its first event, end and completeness.

    A move ends with each action that is not inside a move of several actions, the rule the terminal's
    narrator holds events by: an action ends one unless both the state it was played in and the one it led
    to are :meth:`~cheekymonkey.Game.mid_move`. A table keeps its events, not where each action's begin, so
    each action's events are counted again (a game's ``apply_with_events`` is a function of its state and
    action), from the newest action back to the start of the move that holds event ``since``.
    """
    game = table.game
    history = table.history
    actions = table.actions
    end = len(table.events_since(0))
    groups: list[tuple[int, int, bool]] = []
    gathering: tuple[int, bool] | None = None  # the end of the move being gathered, walking back, and if whole
    for index in range(len(actions) - 1, -1, -1):
        before, after = history[index], history[index + 1]
        ends_move = not (game.mid_move(before) and game.mid_move(after))
        if ends_move and gathering is not None:
            # This action ended the move before the one gathered so far, which is therefore all there.
            groups.append((end, *gathering))
            if end <= since:
                break
            gathering = None
        if gathering is None:
            gathering = (end, ends_move)  # only the newest move can be still going on
        end -= len(game.apply_with_events(before, actions[index])[1])
    else:
        if gathering is not None:
            groups.append((end, *gathering))
    return [group for group in reversed(groups) if group[1] > since]


def log_lines(table: Table[Any, Any, Any, Any, Any], seat: int | None, since: int = 0) -> dict[int, list[str]]:
    """The lines a log shows for the events numbered ``since`` on, by event number, as ``seat`` reads them.

    The last event ``seat`` sees of each complete move gets the move's lines: its events as the seat sees
    them (:func:`~cheekymonkey.table.events_seen`), joined by :meth:`~cheekymonkey.Game.merge_events` and
    told by :meth:`~cheekymonkey.Game.event_text`, as the terminal prints them. When joining leaves every
    event as it was, each event gets its own line instead. Any other event gets no line. Only the events
    numbered ``since`` on are keys, but a move's lines are told from all its events.
    """
    game = table.game
    names = table.names
    events = table.events_since(0)
    since = max(0, since)
    lines: dict[int, list[str]] = {}
    for start, stop, whole in _move_groups(table, since):
        seen = [(seq, shown) for seq in range(start, stop) for shown in events_seen(game, (events[seq],), seat)]
        if not whole or not seen:
            continue
        merged = game.merge_events([shown for _, shown in seen])
        if len(merged) == len(seen):
            for seq, shown in seen:
                lines[seq] = [game.event_text(shown, names, seat)]
        else:
            lines[seen[-1][0]] = [game.event_text(event, names, seat) for event in merged]
    return {seq: told for seq, told in lines.items() if seq >= since}


def table_message(room: MessageSource, seat: int | None, since: int = 0) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees of ``room`` now, as a JSON-ready dictionary.

    The keys are listed at :meth:`~cheekymonkey.web.Room.message`. A spectator is sent the view, the board,
    the facts and the events a game gives the viewer None (for a game with private information: only what is
    public), and no moves.
    """
    table = room.table
    game = room.game
    documents = game.documents()
    state = table.state
    names = table.names
    start = max(0, since)
    mine = seat is not None and table.to_move == seat
    legal = table.legal_actions() if table.waiting is Waiting.PERSON and mine else ()
    outcome = table.outcome()
    log = log_lines(table, seat, start)
    return {
        "game": game.name,
        "title": game.title,
        "rules": room.rules,
        "room": room.id,
        "seat": seat,
        "version": room.version,
        "closed": room.closed,
        "seats": [
            {"seat": i, "name": s.name, "kind": s.kind, "title": game.bot_title(s.kind) if s.is_bot else None}
            for i, s in enumerate(table.seats)
        ],
        "waiting": table.waiting.value,
        "to_move": table.to_move,
        "view": documents.to_document(table.view(seat)),
        "board": game.board_table(state, names, seat).text(),
        "legal": [
            {
                "action": bare(documents.to_document(action)),
                "text": game.action_text(action, state),
                "words": game.action_words(action, state, names),
            }
            for action in legal
        ],
        "facts": game.facts(state, seat),
        "events": [
            {
                "seq": seq,
                "event": documents.to_document(event),
                "text": game.event_text(event, names, seat),
                "log": log.get(seq, []),
            }
            for seq, event in events_seen_since(table, seat, start)
        ],
        "outcome": None if outcome is None else {"winners": list(outcome.winners), "ranks": list(outcome.ranks)},
        "notices": list(room.notices),
        "seeded": table.seed is not None,
    }
