"""``tajmahal play``: a person plays one seat against bots, at the terminal.

The person's seat sees only what its view shows (the same view a bot gets).
Each turn prints what happened since the person's last decision (the events
of every move, :mod:`tajmahal.events`), the table as that seat sees it, and
the legal moves, numbered; the person answers with a number, a move in
notation, or a command (``help`` lists them).  End of input or Ctrl-C ends
the game without a traceback (``save FILE`` first to continue later with
``--load FILE``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from tajmahal.bots import create
from tajmahal.bots.base import Bot
from tajmahal.cli._common import (
    CommandError,
    Commands,
    add_command,
    add_components_option,
    components_from,
    read_record,
    write_record,
)
from tajmahal.cli._table import describe_view, numbered_moves
from tajmahal.cli.account import decision_lines, ranking_line, scores_line, winners_line
from tajmahal.events import Decision, explain, opening
from tajmahal.game import Game
from tajmahal.referee import bot_seed
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move, parse_move

__all__ = ["register"]

YOU = "you"
MAX_TYPED = 300  #: the longest line read as a command (longer ones get a short answer)
HELP = """\
Answer with the number of a move, or the move itself (for example 'withdraw',
'play red:elephant+vizier white:monk', 'palace agra', 'take white:monk'), or:
  undo          take back your last decision (and the bots' moves after it)
  hint [BOT]    what a bot would do here (default greedy; any player spec)
  board FILE    write a picture of the board (SVG) to FILE
  save FILE     write the game so far to FILE (tajmahal replay / play --load)
  show          show the table again
  help          this text
  quit          stop playing"""


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
    add_components_option(play)


class Session:
    """One person's game: the history, the bots, and what the person has not yet seen."""

    def __init__(self, game: Game, seat: int, bots: dict[int, Bot], write: Callable[[str], None]):
        self.game, self.seat, self.bots, self.write = game, seat, bots, write
        self.players = game.players
        self.unseen: list[Decision] = []
        self.mine: list[int] = []  # history lengths at each of the person's decisions

    def run_bots(self) -> None:
        """Bots move until it is the person's turn or the game is over."""
        state = self.game.state
        while not state.is_over and state.current_player != self.seat:
            seat = state.current_player
            assert seat is not None
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

    def report(self) -> None:
        """Print the events of every move since the person last saw the table."""
        for decision in self.unseen:
            for line in decision_lines(decision, self.players, quiet=False):
                self.write(line)
        self.unseen = []

    def show(self) -> None:
        state = self.game.state
        self.write("")
        for line in describe_view(state.view(self.seat), self.players):
            self.write(line)
        legal = state.legal_moves()
        choices = f"{len(legal)} choice{'' if len(legal) == 1 else 's'}"
        self.write(f"Your move ({choices}; 'help' for commands):")
        for line in numbered_moves(legal):
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


def _run(args: argparse.Namespace) -> int:
    session = _session(args, print)
    print(
        f"Taj Mahal: you play seat {session.seat}; "  # the seed only at the end: it deals
        + ", ".join(
            f"seat {s} {name}" for s, name in enumerate(session.players) if s != session.seat
        )
    )
    if not len(session.game):
        for event in opening(session.game.state):
            print(event.text)
    return _loop(session, input)


def _loop(session: Session, read: Callable[[str], str]) -> int:
    while True:
        session.run_bots()
        session.report()
        state = session.game.state
        if state.is_over:
            _result(session)
            return 0
        session.show()
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
    if word == "undo":
        if session.undo():
            write("Taken back: your last decision and the moves after it.")
            return "moved"
        write("Nothing to take back: you have not decided anything yet.")
        return None
    if word == "hint":
        _hint(session, rest or "greedy")
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
    try:
        bot = create(spec, seed=bot_seed(state.seed, session.seat))
        move = bot.choose(state.view(session.seat), state.legal_moves())
    except TajMahalError as exc:
        session.write(f"No hint: {exc}")
        return
    except Exception as exc:  # a bot's own failure
        session.write(f"No hint: {spec} failed: {type(exc).__name__}: {exc}")
        return
    legal = state.legal_moves()
    number = f"{legal.index(move) + 1}. " if move in legal else ""
    session.write(f"{spec} would choose: {number}{move}")


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


def _result(session: Session) -> None:
    state = session.game.state
    players = session.players
    session.write(scores_line(state.scores, players))
    ranking = sorted(range(state.num_players), key=lambda s: -state.scores[s])
    session.write(ranking_line(ranking, state.scores, players))
    session.write(winners_line(state.winners, players, state.scores))
    session.write(f"Seed {state.seed}: --seed {state.seed} deals this game again.")


def _session(args: argparse.Namespace, write: Callable[[str], None]) -> Session:
    opponents: list[str] = args.opponents
    if args.load is not None:
        if args.components is not None:
            raise CommandError(
                "--components cannot be combined with --load: the record has its own"
            )
        record = read_record(args.load)
        game = Game.from_record(record)
        names = list(record.players) or [YOU] + ["random"] * (record.num_players - 1)
        seat = args.seat if args.seat is not None else (names.index(YOU) if YOU in names else 0)
        _check_seat(seat, record.num_players)
        if opponents:
            if len(opponents) != record.num_players - 1:
                raise CommandError(
                    f"the saved game has {record.num_players} seats: give "
                    f"{record.num_players - 1} opponents, or none to keep its own"
                )
            names = opponents[:seat] + [YOU] + opponents[seat:]
        names[seat] = YOU
    else:
        if not MIN_PLAYERS - 1 <= len(opponents) <= MAX_PLAYERS - 1:
            raise CommandError(
                f"a game needs {MIN_PLAYERS - 1} to {MAX_PLAYERS - 1} opponents, "
                f"got {len(opponents)}: {' '.join(opponents) or '(none)'}"
            )
        seat = args.seat if args.seat is not None else 0
        _check_seat(seat, len(opponents) + 1)
        names = opponents[:seat] + [YOU] + opponents[seat:]
        game = Game.new(len(names), args.seed, components_from(args.components), players=names)
    seed = game.initial_state.seed
    bots = {s: create(name, seed=bot_seed(seed, s)) for s, name in enumerate(names) if s != seat}
    game.players = tuple(names)
    return Session(game, seat, bots, write)


def _check_seat(seat: int, seats: int) -> None:
    if not 0 <= seat < seats:
        raise CommandError(f"--seat must be a seat from 0 to {seats - 1}, got {seat}")
