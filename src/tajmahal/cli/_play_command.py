"""``tajmahal play``: a person plays one seat against bots, at the terminal.

The person's seat sees only what its view shows (the same view a bot gets).
Each turn prints what happened since the person's last decision (the events
of every move, :mod:`tajmahal.events`, as many as fit the terminal; ``log``
shows them all), a compact table panel (:mod:`tajmahal.analysis`: each
seat's cards this visit and symbol totals, the leaders marked, what
withdrawing now would win) and the legal moves, numbered, suits in colour;
the person answers with a number, a move in notation (with line editing,
history and tab completion at a terminal), or a command (``help`` lists
them).  End of input or Ctrl-C ends the game without a traceback (``save
FILE`` first to continue later with ``--load FILE``); ``--record FILE``
saves the finished game, and a person at a terminal is offered to save it.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.text import Text

from tajmahal.analysis import city_options, effects, hint, plain_text, score_breakdown
from tajmahal.bots import create
from tajmahal.bots.base import Bot
from tajmahal.cli._account import decision_lines, ranking_line, scores_line, winners_line
from tajmahal.cli._common import (
    Commands,
    UsageError,
    add_command,
    add_components_option,
    components_from,
    read_record,
    write_record,
)
from tajmahal.cli._panel import SHORT, moves_lines, options_lines, panel_lines
from tajmahal.cli._table import describe_view
from tajmahal.cli._terminal import EscapingStream, printable
from tajmahal.events import Decision, explain, opening
from tajmahal.game import Game
from tajmahal.referee.match import bot_seed
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move, PlaceCrownPalace, PlacePalace, parse_move

__all__ = ["register"]

YOU = "you"
HINT_BOT = "ismcts:iterations=300"
MAX_TYPED = 300  #: the longest line read as a command (longer ones get a short answer)
HELP = f"""\
Answer with the number of a move, or the move itself (for example 'withdraw',
'play red:elephant+vizier white:monk', 'palace agra', 'take white:monk'; Tab
completes it), or:
  why           what each legal move does at once
  hint [BOT]    a bot's move and why (default {HINT_BOT})
  undo          take back your last decision (and the bots' moves after it)
  log           everything that happened since your last decision
  details       the whole view: cities, court, tiles owned, cards known
  board FILE    write a picture of the board (SVG) to FILE
  save FILE     write the game so far to FILE (tajmahal replay / play --load)
  show          show the table again, with what each seat owns
  help          this text
  quit          stop playing
Table: {", ".join(f"{short} {symbol.value.replace('_', ' ')}" for symbol, short in SHORT.items())};
* leads (wins the prize on withdrawing), = tied, > to play, hd cards in hand."""



def register(commands: Commands[argparse.ArgumentParser]) -> None:
    play = add_command(
        commands,
        "play",
        _run,
        summary="play a game against bots at the terminal",
        description="Play one seat of a game against 2 to 4 bots. Type 'help' during the game "
        "for the commands.",
    )
    play.add_argument(
        "opponents",
        nargs="*",
        metavar="OPPONENT",
        help="a player spec per other seat (2 to 4), in seat order: NAME[:KEY=VALUE,...]",
    )
    play.add_argument("--seat", type=int, metavar="N", help="your seat (default 0)")
    play.add_argument(
        "--seed",
        type=int,
        help="the game's seed (default: an unguessable one from the operating system, shown "
        "when the game is over)",
    )
    play.add_argument(
        "--load", metavar="FILE", help="continue a game saved with 'save FILE' (or any record)"
    )
    play.add_argument(
        "--record", metavar="FILE", help="save the game to FILE when it ends (a game record)"
    )
    play.add_argument(
        "--auto", action="store_true",
        help="play your forced moves (a single legal choice) automatically",
    )  # fmt: skip
    add_components_option(play)


def plain(text: str) -> str:
    """Card notation in an event's words made plain (:func:`tajmahal.names.plain_text`).

    >>> plain('seat 1 plays red:monk+princess with special:color_change')
    'seat 1 plays red monk+princess with color change card'
    """
    return plain_text(text)


def _rows(lines: Sequence[str | Text], width: int = 80) -> int:
    """Terminal rows the lines take, long ones wrapping at word boundaries as rich wraps them."""
    measure = Console(width=width, color_system=None)
    return sum(len(Text(str(line)).wrap(measure, width)) for line in lines)


class Session:
    """One person's game: the history, the bots, and what the person has not yet seen."""

    def __init__(
        self,
        game: Game,
        seat: int,
        bots: dict[int, Bot],
        write: Callable[[str | Text], None],
        *,
        auto: bool = False,
        height: int = 24,
    ) -> None:
        self.game, self.seat, self.bots, self.write = game, seat, bots, write
        self.players = game.players
        self.auto, self.height = auto, height
        self.unseen: list[Decision] = []
        self.log: list[str] = []  # the lines of the events since the person's last decision
        self.mine: list[int] = []  # history lengths at each of the person's decisions
        self.original_players: tuple[str, ...] = ()  # a loaded record's own names

    def run_bots(self) -> None:
        """Bots move until it is the person's turn or the game is over (forced moves too,
        with ``auto``)."""
        state = self.game.state
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            if seat == self.seat:
                if not (self.auto and len(state.legal_moves()) == 1):
                    return
                move = state.legal_moves()[0]
                self.mine.append(len(self.game))
            else:
                move = self._bot_move(seat)
            after = self.game.push(move)
            self.unseen.append(explain(state, move, after, audience=self.seat))
            state = after

    def _bot_move(self, seat: int) -> Move:
        state = self.game.state
        legal = state.legal_moves()
        try:
            move = self.bots[seat].choose(state.view(seat), legal)
        except Exception as exc:  # a faulty bot must not end the person's game
            self.write(
                f"  ({self.players[seat]} failed: {type(exc).__name__}: {exc}; it withdraws)"
            )
            return legal[-1]
        if move not in legal:
            self.write(f"  ({self.players[seat]} chose an illegal move, {move}; it withdraws)")
            return legal[-1]
        return move

    def report(self, room: int | None = None) -> None:
        """Print the events of every move since the person last saw the table: the last
        ``room`` lines of them when given (``log`` shows them all)."""
        lines = [
            plain(line)
            for decision in self.unseen
            for line in decision_lines(decision, self.players, quiet=False)
        ]
        self.unseen = []
        if lines:
            self.log = lines
        if room is not None and _rows(lines) > room:
            while lines and _rows(lines) > room - 1:
                lines = lines[1:]
            hidden = len(self.log) - len(lines)
            self.write(Text(f"  ({hidden} earlier lines: 'log' shows them)", style="dim"))
        for line in lines:
            self.write(line)

    def table_lines(self, owned: bool = False) -> list[Text]:
        """The panel and the numbered moves (a palace choice: what each city gives);
        ``owned``: with what each seat owns (``show``)."""
        state = self.game.state
        view = state.view(self.seat)
        legal = state.legal_moves()
        lines = panel_lines(view, self.players, owned=owned)
        if isinstance(legal[0], PlacePalace | PlaceCrownPalace):
            what = "crown palace" if isinstance(legal[0], PlaceCrownPalace) else "palace"
            lines.append(Text(f"Place your {what}:", style="bold"))
            lines += options_lines(city_options(view), legal)
        else:
            choices = f"{len(legal)} choice{'' if len(legal) == 1 else 's'}"
            lines.append(Text(f"Your move ({choices}; 'help' for commands):", style="bold"))
            lines += moves_lines(legal, components=state.components)
        return lines

    def show(self) -> None:
        for line in self.table_lines(owned=True):
            self.write(line)

    def turn(self) -> None:
        """The events since the person's last decision (as many as fit), then the table."""
        table = self.table_lines()
        self.report(room=max(3, self.height - _rows([t.plain for t in table]) - 1))
        for line in table:
            self.write(line)

    def decide(self, move: Move) -> None:
        before = self.game.state
        self.mine.append(len(self.game))
        after = self.game.push(move)
        self.unseen.append(explain(before, move, after, audience=self.seat))

    def undo(self) -> bool:
        if not self.mine:
            return False
        target = self.mine.pop()
        while len(self.game) > target:
            self.game.pop()
        self.unseen = []
        return True


def _console() -> Console:
    """Colour at a terminal, wrapped at its width (80 at most); plain lines elsewhere.

    It writes to the stream under the command line's escaping one (its own colour codes
    must reach the terminal); :func:`_printer` escapes every text it prints instead.
    """
    width = min(80, shutil.get_terminal_size((80, 24)).columns)
    out = sys.stdout
    raw = out.stream if isinstance(out, EscapingStream) else out
    return Console(
        file=raw, width=width, highlight=False, emoji=False, soft_wrap=not raw.isatty()
    )


def _printer(console: Console) -> Callable[[str | Text], None]:
    """Print a line, its control and format characters escaped (names come from outside)."""

    def write(line: str | Text) -> None:
        if isinstance(line, Text):
            safe = printable(line.plain)
            shown = line if safe == line.plain else Text(safe)
        else:
            shown = Text(printable(line))
        console.print(shown, crop=False)

    return write


def _run(args: argparse.Namespace) -> int:
    console = _console()
    write = _printer(console)
    session = _session(args, write)
    session.height = shutil.get_terminal_size((80, 24)).lines
    if session.game.state.is_over:
        return _already_over(session, args.load)
    write(
        f"Taj Mahal: you play seat {session.seat}; "  # the seed only at the end: it deals
        + ", ".join(
            f"seat {s} {name}" for s, name in enumerate(session.players) if s != session.seat
        )
    )
    if not len(session.game):
        for event in opening(session.game.state):
            write(plain(event.text))
    read = input
    if sys.stdin.isatty():
        _line_editing(session)
    status = _loop(session, read)
    if session.game.state.is_over:
        _save_at_end(session, args.record, read)
    return status


def _line_editing(session: Session) -> None:
    """readline at a terminal: line editing, history, Tab completes moves and commands."""
    try:
        import readline
    except ImportError:  # a Python built without it: plain input still works
        return
    commands = ["why", "hint", "undo", "log", "details", "board", "save", "show", "help", "quit"]

    def complete(text: str, index: int) -> str | None:
        state = session.game.state
        words = commands + ([str(m) for m in state.legal_moves()] if not state.is_over else [])
        found = [w for w in words if w.startswith(text)]
        return found[index] if index < len(found) else None

    readline.set_completer_delims("\n")  # the whole line is completed: moves hold spaces
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")


def _loop(session: Session, read: Callable[[str], str]) -> int:
    while True:
        session.run_bots()
        state = session.game.state
        if state.is_over:
            session.report()
            _result(session)
            return 0
        session.turn()
        while True:
            try:
                text = read("> ").strip()
            except EOFError:
                session.write("\nEnd of input: the game stops here (not saved).")
                return 0
            done = _answer(session, text)
            if done is not None:
                if done == "quit":
                    return 0
                break


def _answer(session: Session, text: str) -> str | None:
    """Carry out one line the person typed; None asks for another line."""
    state = session.game.state
    legal = state.legal_moves()
    word, _, rest = text.partition(" ")
    word, rest = word.lower(), rest.strip()
    write = session.write
    if not text:
        return None
    if len(text) > MAX_TYPED:
        write(f"That line has {len(text)} characters: type a number, a move, or 'help'.")
        return None
    if word in ("quit", "exit"):
        write("Goodbye: the game stops here ('save FILE' first to continue it later).")
        return "quit"
    if word == "help":
        write(HELP)
        return None
    if word == "show":
        session.show()
        return None
    if word == "details":
        for line in describe_view(state.view(session.seat), session.players):
            write(plain(line))
        return None
    if word == "log":
        for line in session.log or ["Nothing happened since your last decision."]:
            write(line)
        return None
    if word == "why":
        for k, told in enumerate(effects(state.view(session.seat), legal), start=1):
            write(f"{k:>2} {told}")
        return None
    if word == "undo":
        if session.undo():
            write("Taken back: your last decision and the moves after it.")
            return "moved"
        write("Nothing to take back: you have not decided anything yet.")
        return None
    if word == "hint":
        _hint(session, rest or HINT_BOT)
        return None
    if word in ("board", "save"):
        if not rest:
            write(f"Say where: '{word} FILE'.")
            return None
        try:
            _write_file(session, word, rest)
        except (TajMahalError, OSError) as exc:
            write(f"Cannot {word} to {rest}: {exc}")
        return None
    number = _move_number(text, len(legal))
    if isinstance(number, str):
        write(number)
        return None
    if number is not None:
        session.decide(legal[number - 1])
        return "moved"
    try:
        move = parse_move(text, state)
    except TajMahalError as exc:
        write(f"Not a legal move: {exc}")
        write("Type a number from the list, a move, or 'help'.")
        return None
    session.decide(move)
    return "moved"


def _move_number(text: str, count: int) -> int | str | None:
    """The move number (1 to ``count``) a typed line gives, a one-line answer saying why it
    gives none, or None when the line is not a number (only ASCII digits make one).

    >>> _move_number('2', 3), _move_number('7', 3), _move_number('²', 3), _move_number('x', 3)
    (2, 'No move 7: choose 1 to 3.', None, None)
    >>> _move_number('9' * 5000, 3)
    'No move 9999999999...: choose 1 to 3.'
    """
    if not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > 9:  # int() of thousands of digits is slow, then refused
        return f"No move {digits[:10]}...: choose 1 to {count}."
    number = int(digits)
    return number if 1 <= number <= count else f"No move {number}: choose 1 to {count}."


def _hint(session: Session, spec: str) -> None:
    state = session.game.state
    legal = state.legal_moves()
    try:
        bot = create(spec, seed=bot_seed(state.seed, session.seat))
        advice = hint(bot, state.view(session.seat), legal)
    except TajMahalError as exc:
        session.write(f"No hint: {exc}")
        return
    except Exception as exc:  # a bot's own failure
        session.write(f"No hint: {spec} failed: {type(exc).__name__}: {exc}")
        return
    number = legal.index(advice.move) + 1
    session.write(f"{spec} would choose {number}. {advice.text}")


def _write_file(session: Session, what: str, path: str) -> None:
    if what == "save":
        write_record(path, session.game.record())
        moves = len(session.game)
        session.write(f"Saved the game ({moves} move{'' if moves == 1 else 's'}) to {path}.")
        return
    from tajmahal.render import render_board

    state = session.game.state
    svg = render_board(state.components, state=state.view(session.seat), players=session.players)
    Path(path).write_text(svg, encoding="utf-8")
    session.write(f"Wrote the board to {path}.")


def _result(session: Session, players: tuple[str, ...] | None = None) -> None:
    """The final scores, every seat's points by reason, the ranking and the winners."""
    state = session.game.state
    players = players if players is not None else session.players
    session.write(scores_line(state.scores, players))
    session.write("Where the points came from:")
    for row in score_breakdown(session.game.record()):
        session.write(f"  {who_short(row.seat, players)}: {row.text()}")
    ranking = sorted(range(state.num_players), key=lambda s: -state.scores[s])
    session.write(ranking_line(ranking, state.scores, players))
    session.write(winners_line(state.winners, players, state.scores))
    session.write(f"Seed {state.seed}: --seed {state.seed} deals this game again.")


def who_short(seat: int, players: Sequence[str]) -> str:
    name = players[seat] if seat < len(players) else ""
    return f"seat {seat}" + (f" ({name})" if name else "")


def _already_over(session: Session, path: str | None) -> int:
    """A loaded game that has ended: say so, and show its result (nothing to play)."""
    record = session.game.record()
    state = session.game.state
    session.write(
        f"The game in {path} is already over (visit {state.visit}, {len(record.moves)} moves): "
        "nothing is left to play. Its result:"
    )
    players = session.original_players or session.players
    _result(session, players)
    return 0


def _save_at_end(session: Session, path: str | None, read: Callable[[str], str]) -> None:
    """``--record FILE`` saves the finished game; a person at a terminal is asked."""
    if path is None and sys.stdin.isatty():
        try:
            path = read("Save this game? A file name (Enter: no): ").strip() or None
        except EOFError:
            path = None
    if path is None:
        return
    try:
        _write_file(session, "save", path)
    except (TajMahalError, OSError) as exc:
        session.write(f"Cannot save to {path}: {exc}")


def _session(
    args: argparse.Namespace,
    write: Callable[[str | Text], None],
    ask: Callable[[str], str] = input,
) -> Session:
    opponents: list[str] = args.opponents
    original: tuple[str, ...] = ()
    if args.load is not None:
        if args.components is not None:
            raise UsageError(
                "--components cannot be combined with --load: the record has its own"
            )
        record = read_record(args.load)
        game = Game.from_record(record)
        original = tuple(record.players)
        names = list(record.players) or [YOU] + ["random"] * (record.num_players - 1)
        seat = args.seat if args.seat is not None else (names.index(YOU) if YOU in names else 0)
        _check_seat(seat, record.num_players)
        if opponents:
            if len(opponents) != record.num_players - 1:
                raise UsageError(
                    f"the saved game has {record.num_players} seats: give "
                    f"{record.num_players - 1} opponents, or none to keep its own"
                )
            names = opponents[:seat] + [YOU] + opponents[seat:]
        else:
            _confirm_saved_opponents(names, seat, ask)
        names[seat] = YOU
    else:
        if not MIN_PLAYERS - 1 <= len(opponents) <= MAX_PLAYERS - 1:
            raise UsageError(
                f"a game needs {MIN_PLAYERS - 1} to {MAX_PLAYERS - 1} opponents, "
                f"got {len(opponents)}: {' '.join(opponents) or '(none)'}"
            )
        seat = args.seat if args.seat is not None else 0
        _check_seat(seat, len(opponents) + 1)
        names = opponents[:seat] + [YOU] + opponents[seat:]
        game = Game.new(len(names), args.seed, components_from(args.components), players=names)
    seed = game.initial_state.seed
    over = game.state.is_over  # nothing to play: no bot is needed
    bots = {
        s: create(name, seed=bot_seed(seed, s))
        for s, name in enumerate(names)
        if s != seat and not over
    }
    game.players = tuple(names)
    session = Session(game, seat, bots, write, auto=getattr(args, "auto", False))
    session.original_players = original
    return session


def _confirm_saved_opponents(names: list[str], seat: int, ask: Callable[[str], str]) -> None:
    """A saved game names its opponents; one that also sets their options (hours per move,
    say) starts only when the person agrees, seeing them.  CommandError otherwise."""
    chosen = [(s, name) for s, name in enumerate(names) if s != seat and ":" in name]
    if not chosen:
        return  # built-in names with their default options
    shown = ", ".join(f"seat {s} {name}" for s, name in chosen)
    try:
        answer = ask(f"The saved game sets these opponents' options: {shown}. Start? [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise UsageError(
            "not started: name the opponents yourself after the file "
            "(tajmahal play --load FILE greedy random)"
        )


def _check_seat(seat: int, seats: int) -> None:
    if not 0 <= seat < seats:
        raise UsageError(f"--seat must be a seat from 0 to {seats - 1}, got {seat}")
