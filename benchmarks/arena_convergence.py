"""The arena's targets (issue #48): does its table find the known order of six bots, after how
many games per bot; and how many rated games a minute does a server play.

Two runs of a real ``tajmahal serve --arena`` on a fresh SQLite file, each for ``--minutes``:

1. **Population**: ``random`` and ``greedy`` as remote bots (``tajmahal bot connect``, their
   own processes), ``ismcts:level=1``, ``level=2``, ``level=3`` and the default ``ismcts`` as
   house bots.  The known order is random < greedy < level 1 < level 2 < level 3, and the
   default is level 3 (their pair has no order).  It prints the table and whether its order
   (by mean) matches.  Then, from the rated games the arena recorded (which bots, which
   ranks), the convergence: the games are resampled (a bootstrap, ``--resamples`` orders) and
   rated one by one as the arena does; for each number of games per bot, the share of
   resamples whose order matches.  The answer is the first count from which 95% match.
2. **Throughput**: three house bots, the default ``ismcts`` in every seat: rated games a
   minute, and the server's CPU per decision (its own and its bot workers', from
   ``getrusage``) against a local game's (``tm.play_match`` in a child process).

Usage::

    python benchmarks/arena_convergence.py --minutes 2
    python benchmarks/arena_convergence.py --minutes 1 --skip-throughput

On a busy 2-core machine the counts are small: the bootstrap's answer then says what the
games played support, and more minutes narrow it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

from tajmahal.arena import ArenaStore, rate_game
from tajmahal.arena.ratings import NEW_MU, NEW_SIGMA

HOUSE = {"level1": "ismcts:level=1", "level2": "ismcts:level=2", "level3": "ismcts:level=3",
         "ismcts": "ismcts"}  # fmt: skip
REMOTE = {"random": "random", "greedy": "greedy"}
#: the known order, weakest first (the default ismcts is level 3)
STRENGTH = {"random": 0, "greedy": 1, "level1": 2, "level2": 3, "level3": 4, "ismcts": 4}


def ordered(mu: dict[str, float]) -> bool:
    """Whether the means order every pair of the known order (weakest first); level 3 and the
    default are one strength, their pair unordered."""
    return all(mu[a] < mu[b] for a in STRENGTH for b in STRENGTH if STRENGTH[a] < STRENGTH[b])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def tajmahal(*words: str) -> list[str]:
    return [sys.executable, "-m", "tajmahal", *words]


def run_arena(folder: Path, house: dict[str, str], remote: dict[str, str], minutes: float,
              games_at_once: int) -> tuple[ArenaStore, float, float, Path]:  # fmt: skip
    """A server with these bots for ``minutes``; (its store, seconds run, CPU seconds of the
    server and its bot workers, the database)."""
    db = folder / "arena.sqlite3"
    for name, spec in house.items():
        subprocess.run(tajmahal("arena", "add-bot", name, "--house", spec, "--db", str(db),
                                "--max-games", "2"), check=True, capture_output=True)
    for name in remote:
        subprocess.run(tajmahal("arena", "add-bot", name, "--db", str(db), "--token-file",
                                str(folder / f"{name}.token")), check=True, capture_output=True)
    port = free_port()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    server = subprocess.Popen(
        tajmahal("serve", "--arena", "--db", str(db), "--port", str(port), "--arena-games",
                 str(games_at_once), "--time-limit", "60", "--bot-workers", "2",
                 "--log-level", "warning"),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            urllib.request.urlopen(url + "/api/arena/leaderboard", timeout=5).read()
            break
        except OSError:
            time.sleep(0.1)
    bots = [subprocess.Popen(tajmahal("bot", "connect", url, spec, "--token-file",
                                      str(folder / f"{name}.token"), "--games", "100000",
                                      "--concurrency", "2"),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for name, spec in remote.items()]  # fmt: skip
    start = time.monotonic()
    time.sleep(minutes * 60)
    seconds = time.monotonic() - start
    for bot in bots:
        bot.terminate()
        bot.wait()
    middle = resource.getrusage(resource.RUSAGE_CHILDREN)  # the bots' CPU: not the server's
    server.send_signal(signal.SIGTERM)
    server.wait(120)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (middle.ru_utime + middle.ru_stime)
    del before
    return ArenaStore(db), seconds, cpu, db


def decisions_of(db: Path) -> int:
    import sqlite3

    (count,) = sqlite3.connect(db).execute("SELECT COUNT(*) FROM moves").fetchone()
    return int(count)


PAIRS = [(a, b) for a in STRENGTH for b in STRENGTH if STRENGTH[a] < STRENGTH[b]]


def convergence(
    games: list[tuple[tuple[str, ...], tuple[int, ...]]], resamples: int, seed: int,
    extend: float = 1.0,
) -> tuple[dict[int, float], dict[tuple[str, str], dict[int, float]]]:  # fmt: skip
    """{games per bot: share of resampled orders whose table matches the known order when the
    bot with the fewest games reaches that many}; and the same share for each ordered pair.
    Each resample draws ``extend`` times as many games as were played (with replacement):
    past 1, an extrapolation that takes the played games as the bots' true results."""
    rng = random.Random(seed)
    matched: Counter[int] = Counter()
    counted: Counter[int] = Counter()
    pairs: dict[tuple[str, str], Counter[int]] = {pair: Counter() for pair in PAIRS}
    for _ in range(resamples):
        ratings = {name: (NEW_MU, NEW_SIGMA) for name in STRENGTH}
        played: Counter[str] = Counter()
        least = 0
        for _ in range(int(len(games) * extend)):
            bots, ranks = rng.choice(games)
            after = rate_game([ratings[b] for b in bots], ranks)
            for bot, rating in zip(bots, after, strict=True):
                ratings[bot] = rating
                played[bot] += 1
            now = min(played[b] for b in STRENGTH)
            if now > least:
                least = now
                counted[now] += 1
                mu = {b: r[0] for b, r in ratings.items()}
                matched[now] += ordered(mu)
                for a, b in PAIRS:
                    pairs[(a, b)][now] += mu[a] < mu[b]
    # only the counts most resamples reach (a few lucky ones say little)
    counts = [k for k in sorted(counted) if counted[k] >= resamples / 2]
    shares = {pair: {k: hits[k] / counted[k] for k in counts} for pair, hits in pairs.items()}
    return {k: matched[k] / counted[k] for k in counts}, shares


def reached(table: dict[int, float], at: float = 0.95) -> int | None:
    """The first count of games per bot from which every share is at least ``at``."""
    counts = sorted(table)
    return next((k for k in counts if all(table[j] >= at for j in counts if j >= k)), None)


#: how often the stronger bot of each adjacent pair finished ahead of the weaker in the levels
#: ladder (docs/performance.md, "Levels ladder": 84 games of 3 seats, 12 meetings a pair);
#: random's 0% against greedy is taken as 1% (a share of 0 gives no finite gap)
LADDER_AHEAD = {("random", "greedy"): 0.99, ("greedy", "level1"): 0.58,
                ("level1", "level2"): 0.75, ("level2", "level3"): 0.72}  # fmt: skip


def model_skills(beta: float) -> dict[str, float]:
    """Each bot's skill in a Thurstone model (a game's performance ~ N(skill, beta^2), ranks by
    performance) whose adjacent pairs finish ahead as often as in the ladder."""
    from statistics import NormalDist

    skills = {"random": 0.0}
    for (weaker, stronger), ahead in LADDER_AHEAD.items():
        gap = (2**0.5) * beta * NormalDist().inv_cdf(ahead)
        skills[stronger] = skills[weaker] + gap
    skills["ismcts"] = skills["level3"]  # the default is level 3
    return skills


def model(args: argparse.Namespace) -> None:
    """The arena simulated: its scheduler and its ratings, the games' ranks drawn from a model
    calibrated by the ladder, ``--model-runs`` arenas of ``--model-games`` games per bot."""
    from tajmahal.arena import Candidate, choose_game

    beta = NEW_SIGMA / 2
    skills = model_skills(beta)
    rng = random.Random(args.seed)
    matched: Counter[int] = Counter()
    pairs: dict[tuple[str, str], Counter[int]] = {pair: Counter() for pair in PAIRS}
    for _ in range(args.model_runs):
        ratings = {name: (NEW_MU, NEW_SIGMA) for name in STRENGTH}
        played: Counter[str] = Counter()
        least = 0
        while least < args.model_games:
            candidates = [Candidate(n, *ratings[n], played[n], 1) for n in STRENGTH]
            bots = choose_game(candidates, rng)
            assert bots is not None
            performance = [rng.gauss(skills[b], beta) for b in bots]
            ranks = [1 + sum(o > p for o in performance) for p in performance]
            for bot, rating in zip(bots, rate_game([ratings[b] for b in bots], ranks),
                                   strict=True):  # fmt: skip
                ratings[bot] = rating
                played[bot] += 1
            now = min(played[b] for b in STRENGTH)
            if now > least:
                least = now
                mu = {b: r[0] for b, r in ratings.items()}
                matched[now] += ordered(mu)
                for a, b in PAIRS:
                    pairs[(a, b)][now] += mu[a] < mu[b]
    runs = args.model_runs
    print(f"model: {runs} simulated arenas of {args.model_games} games per bot; skills from the "
          "ladder's head-to-head shares: " + ", ".join(f"{n} {v:.1f}" for n, v in skills.items()))
    table = {k: matched[k] / runs for k in matched}
    print("  games per bot (the fewest of any bot) -> share of tables in the known order")
    for k in sorted(table)[:: max(1, len(table) // 15)]:
        print(f"    {k:4d}  {table[k]:6.1%}")
    first = reached(table)
    print(f"  95% of tables in the known order from {first} games per bot" if first else
          f"  95% of tables in the known order: not within {args.model_games} games per bot")
    print("  each adjacent pair: games per bot from which 95% order it so")
    for a, b in PAIRS:
        if STRENGTH[b] == STRENGTH[a] + 1 and b != "ismcts":
            at = reached({k: n / runs for k, n in pairs[(a, b)].items()})
            print(f"    {a:>7} < {b:<7} {'not reached' if at is None else at:>11}")


def population(args: argparse.Namespace) -> None:
    if args.from_db:  # the games of an earlier run, analysed again
        store, seconds = ArenaStore(args.from_db), float("nan")
        bots = store.bots()
        games = [(g.bots, g.ranks) for g in store.games(rated=True) if g.ranks is not None]
    else:
        with tempfile.TemporaryDirectory() as folder:
            store, seconds, _, db = run_arena(Path(folder), HOUSE, REMOTE, args.minutes,
                                              args.games_at_once)  # fmt: skip
            bots = store.bots()
            games = [(g.bots, g.ranks) for g in store.games(rated=True) if g.ranks is not None]
            store.close()
            if args.keep:
                Path(args.keep).write_bytes(db.read_bytes())
                print(f"the arena's database kept in {args.keep}")
    print(f"population: {len(games)} rated games in {seconds / 60:.1f} min "
          f"({len(games) / (seconds / 60):.2f} a minute)")  # fmt: skip
    print(f"{'bot':<8} {'rating':>7} {'mu':>6} {'sigma':>6} {'games':>5}")
    for bot in bots:
        print(f"{bot.name:<8} {bot.rating:7.2f} {bot.mu:6.2f} {bot.sigma:6.2f} {bot.games:5d}")
    mus = {bot.name: bot.mu for bot in bots}
    print(f"the table's order (by mean) matches the known order: {ordered(mus)}")
    if not games:
        return
    for extend in (1.0, args.extend) if args.extend > 1 else (1.0,):
        table, pairs = convergence(games, args.resamples, args.seed, extend)
        kind = ("the games played, resampled" if extend == 1 else
                f"an extrapolation: {extend:g} times as many games drawn from those played")
        print(f"convergence ({kind}; {args.resamples} resamples)")
        print("  games per bot (the fewest of any bot) -> share of resampled tables in the "
              "known order")
        for k in sorted(table)[:: max(1, len(table) // 12)]:
            print(f"    {k:4d}  {table[k]:6.1%}")
        first = reached(table)
        print(f"  95% of tables in the known order from {first} games per bot" if first else
              "  95% of tables in the known order: not reached")  # fmt: skip
        print("  each pair (weaker < stronger): games per bot from which 95% order it so; "
              "the share at the most games")
        for (a, b), shares in pairs.items():
            at = reached(shares)
            last = shares[max(shares)] if shares else float("nan")
            print(f"    {a:>7} < {b:<7} {'not reached' if at is None else at:>11}  {last:6.1%}")


def throughput(args: argparse.Namespace) -> None:
    house = {"a": "ismcts", "b": "ismcts", "c": "ismcts"}
    with tempfile.TemporaryDirectory() as folder:
        store, seconds, cpu, db = run_arena(Path(folder), house, {}, args.minutes,
                                            args.games_at_once)  # fmt: skip
        rated = len(store.games(rated=True))
        decisions = decisions_of(db)
    local = subprocess.run([sys.executable, "-c", (
        "import resource, json, tajmahal as tm\n"
        "r = tm.play_match(['ismcts'] * 3, seed=1)\n"
        "u = resource.getrusage(resource.RUSAGE_SELF); c = resource.getrusage("
        "resource.RUSAGE_CHILDREN)\n"
        "print(json.dumps([u.ru_utime + u.ru_stime + c.ru_utime + c.ru_stime, "
        "len(r.record.moves)]))")], capture_output=True, text=True, check=True)  # fmt: skip
    local_cpu, local_decisions = json.loads(local.stdout)
    print(f"throughput: {rated} rated games in {seconds / 60:.1f} min with the default ismcts in "
          f"every seat ({rated / (seconds / 60):.2f} a minute, {args.games_at_once} at once)")
    if decisions:  # games still being played count by their decisions
        print(f"decisions a minute: {decisions / (seconds / 60):.0f} (about "
              f"{decisions / (seconds / 60) / local_decisions:.2f} games of {local_decisions} "
              "decisions a minute)")
        print(f"server CPU per decision: {1000 * cpu / decisions:.1f} ms ({decisions} decisions, "
              f"{cpu:.1f} s of CPU, bot workers included)")  # fmt: skip
    print(f"local game CPU per decision: {1000 * local_cpu / local_decisions:.1f} ms "
          f"({local_decisions} decisions, the import included)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=2.0, help="each run's length")
    parser.add_argument("--games-at-once", type=int, default=2)
    parser.add_argument("--resamples", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--skip-population", action="store_true")
    parser.add_argument("--keep", metavar="FILE", help="keep the population's database here")
    parser.add_argument("--from-db", metavar="FILE",
                        help="analyse the games of a kept database (no run)")
    parser.add_argument("--extend", type=float, default=1.0, metavar="F",
                        help="also extrapolate: resample F times as many games as were played")
    parser.add_argument("--model", action="store_true",
                        help="only simulate arenas calibrated by the levels ladder (no server)")
    parser.add_argument("--model-runs", type=int, default=200)
    parser.add_argument("--model-games", type=int, default=150, metavar="N",
                        help="games per bot in each simulated arena")
    args = parser.parse_args()
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    if args.model:
        model(args)
        return
    if not args.skip_population:
        population(args)
    if not args.skip_throughput:
        throughput(args)


if __name__ == "__main__":
    main()
