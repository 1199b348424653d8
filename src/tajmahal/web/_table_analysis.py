"""The table panel, hints and the analysis page, from :mod:`tajmahal.analysis`.

The table and the hint work from one seat's view only, so neither can reveal
a hidden card; the analysis reads the record, given out once the game is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tajmahal import analysis
from tajmahal.bots.base import decision_deadline
from tajmahal.bots.ismcts import IsmctsBot
from tajmahal.game import GameRecord
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

__all__ = ["HINT_ITERATIONS", "analysis_html", "hint_for", "replay_page", "table_data"]

HINT_ITERATIONS = 300  #: the search bot's iterations for one hint
ANALYSIS_ITERATIONS = 100  #: ... and for each decision of a game's analysis
#: the most seconds a hint searches, whatever its iterations (a loaded machine: it answers)
HINT_SECONDS = 5.0
#: the most seconds a game's analysis searches in all: the decisions left past it are
#: searched once each (the page is still given, at once)
ANALYSIS_SECONDS = 60.0


def table_data(view: PlayerView, seat: int | None = None) -> dict[str, Any]:
    """The table panel as data (:meth:`tajmahal.analysis.TableSummary.as_dict`): every seat's
    cards, the prizes' leaders, what withdrawing wins, what each seat owns; public facts
    only (``seat`` None: the spectator's, whichever view it is built from)."""
    data = analysis.summarize(view).as_dict()
    data["seat"] = seat
    for row in data["seats"]:
        del row["cards"]  # card_names says it for people
    # what the page shows of them (the rest is in the view document): a small message
    data["withdrawals"] = [None if w is None else {"text": w["text"], "points": w["points"]}
                           for w in data["withdrawals"]]  # fmt: skip
    data["holdings"] = [{"text": h["text"], "palaces": h["palaces"],
                         "connection": h["connection"]} for h in data["holdings"]]  # fmt: skip
    return data


def hint_for(view: PlayerView, legal: Sequence[Move], seed: int) -> dict[str, Any]:
    """A search bot's move for the seat of ``view``, with its reasons (JSON-ready)."""
    from tajmahal.web.seat_messages import for_people, move_label

    with decision_deadline(HINT_SECONDS):
        advice = analysis.hint(IsmctsBot(seed=seed, iterations=HINT_ITERATIONS), view,
                               tuple(legal))  # fmt: skip
    reasons = [advice.effect.text[:1].upper() + advice.effect.text[1:] + "."]
    mine = next((e for e in advice.estimates if e.move == advice.move), None)
    others = [e for e in advice.estimates if e.move != advice.move]
    if mine is not None and max(e.value for e in advice.estimates) >= 0.05:
        line = f"The search gives it {mine.value:.0%} to win"
        if others:
            line += ", against " + ", ".join(f"{e.value:.0%} for {e.name}" for e in others)
        reasons.append(line + ".")
    scores = view.scores
    behind = max(scores) - scores[view.seat]
    if behind or len(reasons) == 1:  # behind, or every chance rounds to 0%: points tell more
        gains = {e.move: e.points for e in analysis.effects(view)}
        best = max(gains.values(), default=0)
        line = (f"You are {behind} point{'s' if behind != 1 else ''} behind the leader: "
                if behind else "")  # fmt: skip
        line += f"this move scores +{gains.get(advice.move, 0)} now"
        if best > gains.get(advice.move, 0):
            line += f" (the most any move scores now: +{best}; the search expects more later)"
        reasons.append(line + ".")
    label = move_label(advice.move, view.components)[0]
    told = [for_people(reason) for reason in reasons]
    return {"type": "hint", "move": str(advice.move), "label": label, "reasons": told}


def analysis_html(record: GameRecord, seats: Sequence[int]) -> str:
    """The page ``tajmahal analyse --html`` writes, for every decision of ``seats`` (the people):
    the replay with its board, the loss strip (a click jumps to the decision), the mistakes;
    seats counted from 1, as on the game page."""
    from tajmahal.render.viewer import replay_html
    from tajmahal.web.seat_messages import seats_from_one

    title = f"Taj Mahal: analysis of {', '.join(record.players)}"
    with decision_deadline(ANALYSIS_SECONDS):
        result = analysis.analyse_game(record, seats=seats, iterations=ANALYSIS_ITERATIONS)
    return seats_from_one(replay_html(record, title=title, analysis=result))


def replay_page(record: GameRecord) -> str:
    """The replay page of a finished game, seats counted from 1 as on the game page."""
    from tajmahal.render.viewer import replay_html
    from tajmahal.web.seat_messages import seats_from_one

    return seats_from_one(replay_html(record))
