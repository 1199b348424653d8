"""The PostgreSQL cluster under faults for minutes (issue 46): a soak, and the load spread.

A PostgreSQL of its own in a temporary folder (Debian's postgresql, as the tests start it),
three ``tajmahal serve`` processes on it, scripted people (who also undo) playing games of
one person against two bots through processes picked at random, while a fault is made every
few seconds: ``kill -9`` of a process (started again), SIGSTOP past the leases then SIGCONT,
the listeners' connections cut, every connection of the servers cut, PostgreSQL restarted.
Then it checks that every acknowledged move is stored once and in order, that no decision
ever had two stored moves, that every process shows the store's state of every game, that
no game is stuck, and that each page received only its own seat (``tests/cluster_faults.py``
is the harness; the test suite runs it for 14 s)::

    nice -n 10 .venv/bin/python benchmarks/cluster_soak.py --minutes 10 --games 6
    .venv/bin/python benchmarks/cluster_soak.py --spread 12     # the load-spreading table

``--spread N`` creates N games on one process, then starts a second and a third, and prints
how many games each process holds after each joins. Exit status 1 if the soak found a
problem.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from cluster_faults import TTL, health, hold_counts, run_faults, until
from postgres_cluster import Cluster, find_bindir
from web_server import Server


def spread(cluster: Cluster, games: int) -> None:
    """Games per process: all on one, then after a second and a third process join."""
    database = cluster.url(cluster.new_schema())
    options = ("--lease-ttl", str(TTL), "--bot-workers", "1", "--log-level", "warning")
    servers = [Server(database, *options)]
    try:
        for _ in range(games):
            servers[0].create([{"human": True, "name": "Ann"}, "random", "random"])
        print("| processes | games held by each process | seconds to settle |")
        print("|---|---|---|")
        for count in (1, 2, 3):
            if count > 1:
                servers.append(Server(database, *options))
            joined = time.monotonic()
            want = sorted(games // count + (n < games % count) for n in range(count))

            def settled(want: list[int] = want, count: int = count) -> bool:
                held = sorted(hold_counts(database).values())
                return len(held) == count and held == want

            until(settled, f"the games to spread over {count} processes")
            took = time.monotonic() - joined
            names = [health(s)["cluster"]["process"] for s in servers]
            held = hold_counts(database)
            print(f"| {count} | {', '.join(str(held.get(n, 0)) for n in names)} | {took:.1f} |")
    finally:
        for server in servers:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how long (default 10)")
    parser.add_argument("--games", type=int, default=6, help="games at a time (default 6)")
    parser.add_argument("--processes", type=int, default=3, help="server processes (3)")
    parser.add_argument("--every", default="2,4", metavar="A,B",
                        help="seconds between faults, at random between A and B (2,4)")
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument("--spread", type=int, metavar="N", default=0,
                        help="print the load-spreading table for N games instead")
    args = parser.parse_args()
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("needs PostgreSQL (Debian's postgresql: apt-get install postgresql)")
    cluster = Cluster(bindir)
    try:
        if args.spread:
            spread(cluster, args.spread)
            return
        low, high = (float(part) for part in args.every.split(","))
        print(f"soak: {args.minutes:g} min, {args.games} games at a time, {args.processes} "
              f"processes, a fault every {low:g}-{high:g} s, leases of {TTL:g} s, seed "
              f"{args.seed}", flush=True)  # fmt: skip
        result = run_faults(cluster, args.minutes * 60, games=args.games,
                            processes=args.processes, seed=args.seed, every=(low, high),
                            log=lambda line: print(line, flush=True))  # fmt: skip
        print(result.report())
        if result.problems:
            raise SystemExit(1)
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
