"""Game: a history of immutable states with push/pop (undo), records and replay.

:func:`replay_states` is the one loop that replays a record; :func:`replay`,
:meth:`Game.from_record`, the document reader and the command line all use it.
"""

from __future__ import annotations

import collections
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence

import attrs

from tajmahal.faults import Fault
from tajmahal.rules.components import Components, standard_components
from tajmahal.rules.engine import new_game
from tajmahal.rules.errors import IllegalMoveError, TajMahalError
from tajmahal.rules.frozenmap import FrozenMap
from tajmahal.rules.moves import Move, parse_move
from tajmahal.rules.state import GameState

__all__ = [
    "MAX_PLAYER_NAME",
    "MAX_TAGS",
    "Game",
    "GameRecord",
    "ReplayError",
    "player_name_problem",
    "replay",
    "replay_states",
    "tag_problem",
]


MAX_TAGS = 64  #: the most tags a record may keep
MAX_TAG_VALUE = 1000  #: the most characters of a tag's value
TAG_NAME = re.compile(r"[a-z][a-z0-9_.-]{0,63}")
def tag_problem(name: object, value: object) -> str | None:
    """What is wrong with one tag, or None.

    >>> tag_problem('event', 'club night'), tag_problem('Event', 'x')
    (None, "tag name 'Event' is not lowercase letters, digits, '_', '.', '-' (at most 64)")
    """
    if type(name) is not str or not TAG_NAME.fullmatch(name):
        shown = repr(name)[:70] if type(name) is str else type(name).__name__
        return f"tag name {shown} is not lowercase letters, digits, '_', '.', '-' (at most 64)"
    if type(value) is not str or len(value) > MAX_TAG_VALUE or not value.isprintable():
        return f"tag {name!r}: a value is printable text of at most {MAX_TAG_VALUE} characters"
    return None


#: the most characters of a player's name in a record, for every writer and reader: a player
#: spec (``tajmahal.bots.MAX_SPEC_LENGTH``, 64 fewer) and the ``#N`` a tournament adds to a
#: repeated entrant fit
MAX_PLAYER_NAME = 4160


def player_name_problem(name: object) -> str | None:
    """What keeps ``name`` from being a player's name in a record, or None.

    A name is any text of at most :data:`~tajmahal.game.MAX_PLAYER_NAME` characters that
    UTF-8 can hold (no lone surrogate); the empty name too.

    >>> player_name_problem('cmd:python3 ' + 'x' * 200) is None
    True
    >>> player_name_problem('x' * 5000)
    'a name is at most 4160 characters, got 5000'
    """
    if type(name) is not str:
        return f"a name is a string, got {type(name).__name__}"
    if len(name) > MAX_PLAYER_NAME:
        return f"a name is at most {MAX_PLAYER_NAME} characters, got {len(name)}"
    if not name.isascii():
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            return "a name is text that UTF-8 can hold: it has a lone surrogate"
    return None


def _check_players(players: Sequence[str]) -> None:
    for seat, name in enumerate(players):
        problem = player_name_problem(name)
        if problem is not None:
            raise TajMahalError(f"player {seat}: {problem}")


def _tags(value: Mapping[str, str] | None) -> FrozenMap[str, str]:
    return value if isinstance(value, FrozenMap) else FrozenMap(value or {})


@attrs.frozen(repr=False)
class GameRecord:
    """Everything needed to rebuild a game, and what the match knew about it.

    Setup, players and moves rebuild the game; the result, once over, is
    checked against it.  A record made by :func:`tajmahal.play_match` also
    keeps ``tags`` (the date, the library and each seat's package with their
    versions, the time limits, any tags the caller gave), the ``faults`` and
    the seconds each decision took (``times``, one per move).  Two records
    are equal when they describe the same game: same setup, players, moves,
    result and faults; ``tags`` and ``times`` are not compared.

    >>> import tajmahal as tm
    >>> game = tm.Game.new(num_players=3, seed=1)
    >>> _ = game.push(game.state.legal_moves()[0])
    >>> record = game.record()
    >>> len(record.moves), record.scores
    (1, None)
    >>> tm.replay(record) == game.state
    True
    """

    num_players: int
    seed: int
    moves: tuple[Move, ...] = ()
    first_player: int = 0
    components: Components = attrs.field(factory=standard_components, repr=False)
    #: names of whoever played each seat (bot names: their specs), or empty;
    #: each at most :data:`~tajmahal.game.MAX_PLAYER_NAME` characters (see
    #: :func:`~tajmahal.game.player_name_problem`)
    players: tuple[str, ...] = ()
    #: final scores and winners, once the game is over
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    #: what the match knew: ``date``, ``library``, ``package.<seat>``, ``time_limit``, ...
    tags: FrozenMap[str, str] = attrs.field(factory=FrozenMap, converter=_tags, eq=False)
    #: the referee's faults; the move of each fault's decision is the fallback move
    faults: tuple[Fault, ...] = ()
    #: seconds each decision took, one per move (empty if nobody timed them)
    times: tuple[float, ...] = attrs.field(default=(), eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        _check_players(self.players)  # what tm.loads reads back, and no more

    def __repr__(self) -> str:
        """A one-line summary; every field is still there (``record.moves``, ``tm.dumps``).

        >>> import tajmahal as tm
        >>> tm.play_match(['random', 'random', 'random'], seed=1).record
        <GameRecord 3 players (random, random, random), seed 1, 191 moves, scores (29, 49, 43), winners (1,)>
        """  # noqa: E501
        players = f" ({', '.join(self.players)})" if self.players else ""
        result = (
            f"scores {self.scores}, winners {self.winners}"
            if self.scores is not None
            else "unfinished"
        )
        faults = f", {len(self.faults)} faults" if self.faults else ""
        return (
            f"<GameRecord {self.num_players} players{players}, seed {self.seed}, "
            f"{len(self.moves)} moves, {result}{faults}>"
        )

    def _repr_html_(self) -> str | None:
        """The replay page inline, for notebooks (Jupyter shows a record as its replay).

        An ``<iframe>`` whose ``srcdoc`` is :func:`tajmahal.render.viewer.replay_html`'s
        self-contained page, escaped (players' names included); a record that does not
        replay shows why instead. Drawn by :mod:`tajmahal.render`, loaded on first use.

        >>> import tajmahal as tm
        >>> html = tm.play_match(['random', 'random', 'random'], seed=1).record._repr_html_()
        >>> html.startswith('<iframe') and 'srcdoc="&lt;!DOCTYPE html&gt;' in html
        True
        """
        from tajmahal.render import notebook_replay  # on first use, as python-chess does

        return notebook_replay(self)


class Game:
    """A mutable history around immutable states, in the manner of python-chess's board stack.

    >>> import tajmahal as tm
    >>> game = tm.Game.new(num_players=4, seed=7)
    >>> start = game.state
    >>> move = game.state.legal_moves()[0]
    >>> _ = game.push(move)
    >>> game.pop() == move and game.state == start
    True
    """

    def __init__(self, state: GameState, players: Sequence[str] = ()) -> None:
        if not isinstance(state, GameState):
            raise TajMahalError(f"Game needs a GameState, got {type(state).__name__}")
        self._states: list[GameState] = [state]
        self._moves: list[Move] = []
        self.players: tuple[str, ...] = tuple(players)
        _check_players(self.players)

    def __repr__(self) -> str:
        """The history's length and where it stands.

        >>> import tajmahal as tm
        >>> game = tm.Game.new(num_players=3, seed=1, players=('greedy', 'random', 'random'))
        >>> _ = game.push(tm.Withdraw())
        >>> game
        <Game 3 players (greedy, random, random), seed 1, 1 move, visit 1, take, current 0>
        """
        state = self.state
        players = f" ({', '.join(self.players)})" if self.players else ""
        moves = f"{len(self._moves)} move{'' if len(self._moves) == 1 else 's'}"
        return (
            f"<Game {state.num_players} players{players}, seed {state.seed}, {moves}, "
            f"visit {state.visit}, {state.phase.value}, current {state.current_player}>"
        )

    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        """The game a record describes, with its whole history (so it can be undone).

        Raises :class:`~tajmahal.IllegalMoveError` naming the first bad move, as :func:`replay`.

        >>> import tajmahal as tm
        >>> game = tm.Game.new(num_players=3, seed=2)
        >>> _ = game.push(game.state.legal_moves()[0])
        >>> again = tm.Game.from_record(game.record())
        >>> again.state == game.state and again.moves == game.moves
        True
        """
        states = list(replay_states(record))
        game = cls(states[0], record.players)
        game._states = states
        game._moves = list(record.moves)
        return game

    @classmethod
    def new(
        cls,
        num_players: int,
        seed: int | None = None,
        components: Components | None = None,
        first_player: int = 0,
        players: Sequence[str] = (),
    ) -> Game:
        """A new game, set up as :func:`tajmahal.new_game` does.

        ``seed=None`` draws an unguessable seed from the operating system
        (``game.initial_state.seed`` and the record keep it).

        >>> import tajmahal as tm
        >>> game = tm.Game.new(num_players=3, seed=1, players=('greedy', 'random', 'random'))
        >>> game.state == tm.new_game(num_players=3, seed=1), game.players, len(game)
        (True, ('greedy', 'random', 'random'), 0)
        >>> tm.Game.new(num_players=3).initial_state.seed != tm.Game.new(num_players=3).initial_state.seed
        True
        """  # noqa: E501
        if seed is None:
            seed = secrets.randbits(63)
        return cls(new_game(num_players, seed, components, first_player), players)

    @property
    def state(self) -> GameState:
        """The current state.

        >>> import tajmahal as tm
        >>> game = tm.Game.new(num_players=3, seed=1)
        >>> game.state.phase
        <Phase.PLAY: 'play'>
        >>> _ = game.push(tm.Withdraw())
        >>> game.state.phase, game.state.current_player
        (<Phase.TAKE: 'take'>, 0)
        """
        return self._states[-1]

    @property
    def initial_state(self) -> GameState:
        """The state the game started from.

        >>> import tajmahal as tm
        >>> game = tm.Game.new(num_players=3, seed=1)
        >>> _ = game.push(tm.Withdraw())
        >>> game.initial_state == tm.new_game(num_players=3, seed=1) != game.state
        True
        """
        return self._states[0]

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves made so far, oldest first.

        >>> import tajmahal as tm
        >>> game = tm.Game.new(num_players=3, seed=1)
        >>> _ = game.push_text('withdraw')
        >>> _ = game.push_text('take white:elephant')
        >>> [str(move) for move in game.moves]
        ['withdraw', 'take white:elephant']
        """
        return tuple(self._moves)

    @property
    def states(self) -> tuple[GameState, ...]:
        """Every state so far, from the initial one to the current one.

        >>> import tajmahal as tm
        >>> game = tm.Game.new(num_players=3, seed=1)
        >>> _ = game.push(tm.Withdraw())
        >>> len(game.states), game.states[0] is game.initial_state, game.states[-1] is game.state
        (2, True, True)
        """
        return tuple(self._states)

    def __len__(self) -> int:
        return len(self._moves)

    def push(self, move: Move) -> GameState:
        """Make ``move`` (``IllegalMoveError`` if not legal) and return the new state.

        >>> import tajmahal as tm
        >>> game = tm.Game.new(num_players=3, seed=1)
        >>> game.push(tm.Withdraw()).phase  # after withdrawing, seat 0 takes supply cards (F2)
        <Phase.TAKE: 'take'>
        >>> game.push(tm.Withdraw())
        Traceback (most recent call last):
        ...
        tajmahal.rules.errors.IllegalMoveError: cannot withdraw: seat 0 must take a supply card ...
        >>> len(game)  # the illegal move was not recorded
        1
        """
        state = self.state.apply(move)
        self._states.append(state)
        self._moves.append(move)
        return state

    def push_text(self, text: str) -> GameState:
        """Make the move written ``text`` (read by :func:`tajmahal.parse_move`); the new state.

        >>> import tajmahal as tm
        >>> game = tm.Game.new(num_players=3, seed=2)
        >>> _ = game.push_text('withdraw')
        >>> str(game.moves[-1])
        'withdraw'
        """
        return self.push(parse_move(text, self.state))

    def pop(self) -> Move:
        """Undo the last move and return it; ``IndexError`` if there is none.

        >>> import tajmahal as tm
        >>> game = tm.Game.new(num_players=3, seed=1)
        >>> _ = game.push(tm.Withdraw())
        >>> game.pop(), game.state == game.initial_state
        (Withdraw(), True)
        >>> game.pop()
        Traceback (most recent call last):
        ...
        IndexError: pop from a game with no moves
        """
        if not self._moves:
            raise IndexError("pop from a game with no moves")
        self._states.pop()
        return self._moves.pop()

    def record(self) -> GameRecord:
        """A :class:`GameRecord` of the game so far.

        >>> import tajmahal as tm
        >>> game = tm.Game.new(num_players=3, seed=1, players=('greedy', 'random', 'random'))
        >>> _ = game.push(tm.Withdraw())
        >>> record = game.record()
        >>> record.seed, record.moves, record.players, record.scores  # no result yet
        (1, (Withdraw(),), ('greedy', 'random', 'random'), None)
        """
        first, last = self.initial_state, self.state
        return GameRecord(
            num_players=first.num_players,
            seed=first.seed,
            moves=self.moves,
            first_player=first.first_player,
            components=first.components,
            players=self.players,
            scores=last.scores if last.is_over else None,
            winners=last.winners if last.is_over else None,
        )


class ReplayError(IllegalMoveError):
    """A record that does not replay: a move that is not legal, or a result or fault that
    does not match the game.  ``move_index`` is the 0-based index of the bad move, or None.

    >>> import attrs, tajmahal as tm
    >>> record = tm.Game.new(num_players=3, seed=1).record()
    >>> try:
    ...     tm.replay(attrs.evolve(record, moves=(tm.PlacePalace('agra'),)))
    ... except ReplayError as exc:
    ...     print(exc.move_index, isinstance(exc, tm.IllegalMoveError))
    0 True
    """

    def __init__(self, message: str, move_index: int | None = None) -> None:
        super().__init__(message)
        self.move_index = move_index


def replay_states(record: GameRecord) -> Iterator[GameState]:
    """Every state of a record, the initial one first: the one replay loop of the library.

    Raises :class:`ReplayError` (an :class:`~tajmahal.IllegalMoveError`) at
    the first move that is not legal, at a fault whose seat did not decide
    there or whose move is not the fallback (the first legal move), and, after
    the last state, if the stored result is not the replayed game's.

    >>> import tajmahal as tm
    >>> game = tm.Game.new(num_players=3, seed=4)
    >>> _ = game.push(tm.Withdraw())
    >>> [state.phase.value for state in replay_states(game.record())]
    ['play', 'take']
    """
    state = _initial_state(record)
    faults: dict[int, list[Fault]] = {}
    for fault in record.faults:
        if not 0 <= fault.decision <= len(record.moves) or not 0 <= fault.seat < state.num_players:
            raise ReplayError(
                f"fault {fault} names no decision of this record ({len(record.moves)} moves, "
                f"{state.num_players} seats)"
            )
        faults.setdefault(fault.decision, []).append(fault)
    yield state
    for index, move in enumerate(record.moves):
        number = index + 1
        for fault in faults.get(number, ()):
            legal = state.legal_moves()
            if fault.seat != state.current_player or not legal or legal[0] != move:
                raise ReplayError(
                    f"fault at decision {number} does not match the game: seat "
                    f"{state.current_player} decided, and the fallback move is the first "
                    "legal one"
                )
        try:
            state = state.apply(move)
        except IllegalMoveError as exc:
            raise ReplayError(f"move {number} ({move}) is not legal: {exc}", index) from None
        yield state
    _check_result(record, state)


def replay(record: GameRecord) -> GameState:
    """Rebuild the final state of a record; :class:`ReplayError` names the first bad move.

    A record whose stored result disagrees with the replayed game is rejected too.

    >>> import attrs, tajmahal as tm
    >>> game = tm.Game.new(num_players=3, seed=4)
    >>> for _ in range(3):
    ...     _ = game.push(game.state.legal_moves()[-1])
    >>> tm.replay(game.record()) == game.state
    True
    >>> moves = game.moves
    >>> tm.replay(attrs.evolve(game.record(), moves=(moves[0], moves[0], moves[2])))
    Traceback (most recent call last):
    ...
    tajmahal.game.ReplayError: move 2 (withdraw) is not legal: ...
    """
    (last,) = collections.deque(replay_states(record), maxlen=1)
    return last


def _initial_state(record: GameRecord) -> GameState:
    if not isinstance(record, GameRecord):
        raise TajMahalError(f"expected a GameRecord, got {type(record).__name__}")
    return new_game(record.num_players, record.seed, record.components, record.first_player)


def _check_result(record: GameRecord, state: GameState) -> None:
    """A stored result must be the replayed game's (and only a finished game has one)."""
    if (record.scores, record.winners) == (None, None):
        return
    if not state.is_over:
        raise ReplayError(
            f"the record has a result {record.scores}, but its {len(record.moves)} moves "
            "do not finish the game"
        )
    if (record.scores, record.winners) != (state.scores, state.winners):
        raise ReplayError(
            f"the record's result (scores {record.scores}, winners {record.winners}) does not "
            f"match the replayed game's (scores {state.scores}, winners {state.winners})"
        )
