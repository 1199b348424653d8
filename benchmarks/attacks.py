"""Attack classes against the referee, the loaders, the plugins and the CLI: what happens.

Each attack runs in a fresh Python process (with a hard timeout), so one
that hangs or kills the interpreter does not stop the others.  It prints one
row per attack: the outcome, the wall time, the faults.  Run it against any
checkout (the ``src`` directory given by ``--src``) to compare versions::

    python benchmarks/attacks.py                    # this checkout
    python benchmarks/attacks.py --src /other/src   # another one
    python benchmarks/attacks.py --only referee

Not a test: wall times depend on the machine.  The tests of the same attacks
are ``tests/test_hostile.py``, ``tests/test_hostile_documents.py`` and
``tests/test_hostile_input.py`` (round 3: ``--only round3``).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TIMEOUT = 30.0
TIMEOUT_ROUND3 = 120.0  #: the round-3 attacks took minutes before their fixes

PRELUDE = """
import sys, time, threading, tajmahal as tm
def report(result):
    kinds = sorted({f.kind.value for f in result.faults})
    longest = max((len(f.detail) for f in result.faults), default=0)
    print(f"result; {len(result.faults)} faults {kinds}; longest detail {longest} chars")
class Base:
    name = "hostile"
    def __init__(self, seed=0): pass
    def choose(self, view, legal):
        return legal[0]
def seat(bot, time_limit=1.0, **kw):
    report(tm.play_match([bot, "random", "random"], seed=1, time_limit=time_limit, **kw))
"""

REFEREE = {
    "bot raises KeyboardInterrupt": """
class B(Base):
    def choose(self, view, legal): raise KeyboardInterrupt
seat(B(), time_limit=None)
""",
    "bot raises SystemExit": """
class B(Base):
    def choose(self, view, legal): raise SystemExit(3)
seat(B(), time_limit=None)
""",
    "bot raises a BaseException subclass": """
class Odd(BaseException): pass
class B(Base):
    def choose(self, view, legal): raise Odd()
seat(B(), time_limit=None)
""",
    "exception whose __str__ raises": """
class Bad(Exception):
    def __str__(self): raise ValueError("no")
class B(Base):
    def choose(self, view, legal): raise Bad()
seat(B())
""",
    "exception whose __str__ stalls": """
class Slow(Exception):
    def __str__(self): time.sleep(3600); return "x"
class B(Base):
    def choose(self, view, legal): raise Slow()
seat(B(), time_limit=0.2)
""",
    "exception with a 20 MB message": """
class B(Base):
    def choose(self, view, legal): raise ValueError("x" * 20_000_000)
seat(B())
""",
    "returned object whose __repr__ stalls": """
class R:
    def __repr__(self): time.sleep(3600); return "r"
class B(Base):
    def choose(self, view, legal): return R()
seat(B(), time_limit=0.2)
""",
    "returned object whose __eq__/__hash__ raise": """
class R:
    def __eq__(self, other): raise RuntimeError("eq")
    def __hash__(self): raise RuntimeError("hash")
    def __repr__(self): raise RuntimeError("repr")
class B(Base):
    def choose(self, view, legal): return R()
seat(B())
""",
    "move with a foreign field (str subclass, __eq__ stalls)": """
class City(str):
    def __eq__(self, other): time.sleep(3600); return False
    __hash__ = str.__hash__
class B(Base):
    def choose(self, view, legal):
        return tm.PlacePalace(City("agra"))
seat(B(), time_limit=0.2)
""",
    "name that raises": """
class B(Base):
    @property
    def name(self): raise RuntimeError("no name")
seat(B())
""",
    "constructor raises (registered bot)": """
class B(Base):
    name = "hostile"
    def __init__(self, seed=0): raise RuntimeError("cannot start")
class P:
    @tm.hookimpl
    def tajmahal_bots(self): return [B]
tm.bots.default_registry().register(P(), name="hostile-plugin")
seat("hostile")
""",
    "constructor stalls (registered bot)": """
class B(Base):
    name = "hostile"
    def __init__(self, seed=0): time.sleep(3600)
class P:
    @tm.hookimpl
    def tajmahal_bots(self): return [B]
tm.bots.default_registry().register(P(), name="hostile-plugin")
seat("hostile", time_limit=0.2)
""",
    "bot mutates the legal moves (object.__setattr__)": """
class B(Base):
    def choose(self, view, legal):
        for m in legal:
            if isinstance(m, tm.PlacePalace):
                object.__setattr__(m, "city", "nowhere")
                return m
        return legal[0]
seat(B())
r = tm.play_match(["random"] * 3, seed=1)
print("later match in the same process:", tm.replay(r.record).scores == r.scores)
""",
    "bot recovers the default game seed": """
class Spy(Base):
    found = None
    def choose(self, view, legal):
        if Spy.found is None:
            for s in range(10_000):
                if tm.new_game(3, seed=s).view(view.seat) == view:
                    Spy.found = s; break
            else:
                Spy.found = -1
        return legal[0]
r = tm.play_match([Spy(), "random", "random"])
print(f"seed found: {Spy.found == r.record.seed} (record seed {r.record.seed})")
""",
    "time_limit bounds a decision whose objects stall": """
class City(str):
    def __eq__(self, other): time.sleep(3600); return False
    __hash__ = str.__hash__
class B(Base):
    def choose(self, view, legal): return tm.PlacePalace(City("agra"))
t = time.perf_counter()
seat(B(), time_limit=0.2)
""",
    "abandoned threads: 12 matches with a bot that spins forever": """
class B(Base):
    def choose(self, view, legal):
        while True: pass
first = last = 0.0
for i in range(12):
    t = time.perf_counter()
    try:
        r = tm.play_match([B(), "random", "random"], seed=i, time_limit=0.01)
    except Exception as exc:
        print("raised", type(exc).__name__, str(exc)[:100]); break
    d = time.perf_counter() - t
    first = first or d; last = d
print(f"threads alive {threading.active_count()}; first {first:.2f} s, last {last:.2f} s; "
      f"faults {sorted({f.kind.value for f in r.faults})}")
""",
    "invalid limits (nan, inf, 1e300, -1, 0)": """
out = []
for limit in (float("nan"), float("inf"), 1e300, -1, 0):
    try:
        tm.play_match(["random"] * 3, seed=1, time_limit=limit)
        out.append(f"{limit}: accepted")
    except Exception as exc:
        out.append(f"{limit}: {type(exc).__name__}")
print("; ".join(out))
""",
}

DOCUMENTS = {
    "deeply nested JSON document": """
try:
    tm.loads("[" * 100_000 + "]" * 100_000)
except Exception as exc: print(type(exc).__name__, str(exc)[:80])
""",
    "deeply nested TOML components": """
try:
    tm.rules.components.parse_components("a = " + "[" * 100_000 + "]" * 100_000)
except BaseException as exc: print(type(exc).__name__, str(exc)[:80])
""",
    "components: 400 entries of 10 000 cards each": """
from tajmahal.rules.components import parse_components, STANDARD_PATH
text = STANDARD_PATH.read_text()
extra = '[[cards]]\\ncolor = "red"\\nsymbols = ["elephant"]\\ncount = 10000\\n' * 400
t = time.perf_counter()
try:
    c = parse_components(text + extra)
    print(f"accepted: {len(c.deck)} cards in {time.perf_counter() - t:.1f} s")
except BaseException as exc: print(type(exc).__name__, str(exc)[:100])
""",
    "components: board with a disconnected province": """
from tajmahal.rules.components import parse_components, STANDARD_PATH
import re
text = STANDARD_PATH.read_text()
comps = tm.standard_components()
kashmir = {c.id for c in comps.board.province("kashmir").cities}
def keep(m):
    a, b = m.group(1), m.group(2)
    return "" if (a in kashmir) != (b in kashmir) else m.group(0)
cut = re.sub(r'\\["([a-z_-]+)", *"([a-z_-]+)"\\],?', keep, text)
try:
    parse_components(cut); print("accepted")
except Exception as exc: print(type(exc).__name__, str(exc)[:100])
""",
    "components: 20 000 cities in one province (quadratic checks)": """
from tajmahal.rules.components import components_from_data
import tomllib
from tajmahal.rules.components import STANDARD_PATH
data = tomllib.loads(STANDARD_PATH.read_text())
board = data["board"]
for i in range(20_000):
    board["cities"].append({"id": f"x{i}", "name": "x", "province": "agra", "x": 0, "y": 0})
    board["roads"].append(["agra", f"x{i}"])
t = time.perf_counter()
try:
    components_from_data(data); print(f"accepted in {time.perf_counter() - t:.1f} s")
except Exception as exc:
    print(f"{type(exc).__name__} in {time.perf_counter() - t:.1f} s: {str(exc)[:80]}")
""",
    "state document with a score of 10**18": """
import json
doc = json.loads(tm.dumps(tm.new_game(3, seed=1)))
doc["scores"] = [10**18, 0, 0]
try:
    s = tm.loads(json.dumps(doc)); print("accepted, scores", s.scores)
except Exception as exc: print(type(exc).__name__, str(exc)[:100])
""",
    "error message for 100 000 bad cards": """
import json
doc = json.loads(tm.dumps(tm.new_game(3, seed=1)))
doc["deck"] = ["bogus"] * 100_000
try:
    tm.loads(json.dumps(doc))
except Exception as exc: print(f"{type(exc).__name__}, message {len(str(exc))} chars")
""",
    "PlayerView.sample on an inconsistent view": """
import attrs, random
view = tm.new_game(3, seed=1).view(0)
bad = attrs.evolve(view, hand_sizes=(view.hand_sizes[0], 500, 0))
try:
    s = bad.sample(random.Random(1)); print("returned", type(s).__name__)
except Exception as exc: print(type(exc).__name__, str(exc)[:100])
""",
}

# Round 3 (issue 20): each prints what happened, the time it took and, where it matters,
# the memory; run with --only round3 (slow "before" cases are killed after TIMEOUT_ROUND3).
ROUND3_PRELUDE = """
import json, os, subprocess, sys, tempfile, tracemalloc, attrs
from pathlib import Path
TMP = Path(tempfile.mkdtemp())
RECORD = tm.play_match(["greedy", "random", "random"], seed=2).record
def cli(*args, stdin=""):
    done = subprocess.run([sys.executable, "-m", "tajmahal", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)
    return done
def timed(action):
    tracemalloc.start(); t = time.perf_counter()
    try:
        out = action()
    except Exception as exc:
        out = f"{type(exc).__name__}: {str(exc)[:90]}"
    took = time.perf_counter() - t
    peak = tracemalloc.get_traced_memory()[1] / 1e6; tracemalloc.stop()
    return out, took, peak
"""

ROUND3 = {
    "replay page: a 5,000-character player name": """
from tajmahal.render.viewer import replay_html
out, took, peak = timed(lambda: len(replay_html(attrs.evolve(RECORD, players=("x" * 5000, "b", "c")))))
print(f"page of {out} chars in {took:.1f} s, peak {peak:.0f} MB")
""",
    "replay page: a player named {data}": """
from tajmahal.render.viewer import replay_html
page = replay_html(attrs.evolve(RECORD, players=("{data}", "b", "c")))
title = page[page.index("<title>"):page.index("</title>")]
print(f"title {len(title)} chars; page {len(page)} chars")
""",
    "replay page: size of a standard game's page": """
from tajmahal.render.viewer import replay_html
page = replay_html(RECORD)
print(f"{len(RECORD.moves)} moves: page {len(page) / 1e3:.0f} KB")
""",
    "terminal: replay prints a name and a fault detail with escapes": """
evil = "\\x1b]0;owned\\x07\\x1b[2J\\u202eevil"
faults = (tm.Fault(seat=1, kind=tm.referee.FaultKind.EXCEPTION, detail=evil, decision=0),)
(TMP / "r.json").write_text(tm.dumps(attrs.evolve(RECORD, players=(evil, "b", "c"), faults=faults)))
done = cli("replay", str(TMP / "r.json"))
raw = sum(done.stdout.count(c) + done.stderr.count(c) for c in "\\x1b\\x07\\u202e")
print(f"exit {done.returncode}; {raw} raw control/bidi characters printed")
""",
    "terminal: match --components with an escape in a city name": """
from tajmahal.rules.components import STANDARD_PATH
(TMP / "c.toml").write_text(STANDARD_PATH.read_text().replace('name = "Agra"', 'name = "Agra\\\\u001b[2J"'))
done = cli("match", "random", "random", "random", "--seed", "3", "--components", str(TMP / "c.toml"))
print(f"exit {done.returncode}; {done.stdout.count(chr(27))} raw ESC printed")
""",
    "typed input: '²', then 5,000 digits, then quit": """
t = time.perf_counter()
done = cli("play", "random", "random", "--seed", "1", stdin="\\u00b2\\n" + "9" * 5000 + "\\nquit\\n")
last = [l for l in (done.stdout + done.stderr).splitlines() if l.strip()][-1:]
print(f"exit {done.returncode} in {time.perf_counter() - t:.1f} s; longest line "
      f"{max(map(len, (done.stdout + done.stderr).splitlines()))}; last: {last[0][:70] if last else ''}")
""",
    "player spec: greedy:enough=nan, card_cost={}, enough=abc": """
for spec in ("greedy:enough=nan", "greedy:card_cost={}", "greedy:enough=abc"):
    try:
        r = tm.play_match([spec, "random", "random"], seed=1, time_limit=None)
        print(f"{spec}: played, {len(r.faults)} faults", end="; ")
    except tm.TajMahalError as exc:
        print(f"{spec}: {type(exc).__name__}", end="; ")
print()
""",
    "results: --summary of a FIFO": """
os.mkfifo(TMP / "fifo")
done = cli("tournament", "--summary", str(TMP / "fifo"))
print(f"exit {done.returncode}: {done.stderr.strip()[-80:]}")
""",
    "results: 1 KB file naming game 999,999 of 64 entrants": """
from tajmahal.tournament.results import Header
from tajmahal.tournament.seating import deal_seed
entrants = ["random"] * 64
header = Header(tuple(entrants), num_players=4, games=1_000_000, seed=1)
game = {"game": 999_999, "block": 249_999, "seed": deal_seed(1, 249_999),
        "players": list(header.names[:4]), "scores": [4, 3, 2, 1], "winners": [0],
        "ranking": [0, 1, 2, 3], "faults": [], "seconds": 1.0}
path = TMP / "far.jsonl"
path.write_text(json.dumps(header.to_json()) + "\\n" + json.dumps(game) + "\\n")
out, took, peak = timed(lambda: len(tm.tournament.read_results(path).games))
print(f"{path.stat().st_size} bytes: {out} in {took:.1f} s, peak {peak:.0f} MB")
""",
    "results: lowest score as sole winner, NaN seconds": """
from tajmahal.tournament.results import Header
from tajmahal.tournament.seating import schedule
header = Header(("greedy", "random", "random"), num_players=3, games=3, seed=1)
job = next(schedule(header.entrants, 3, 3, 1))
for bad in ({"winners": [2]}, {"seconds": float("nan")}):
    line = dict({"game": 0, "block": 0, "seed": job.seed, "players": list(job.players),
                 "scores": [5, 4, 3], "winners": [0], "ranking": [0, 1, 2], "faults": [],
                 "seconds": 1.0}, **bad)
    path = TMP / "bad.jsonl"
    path.write_text(json.dumps(header.to_json()) + "\\n" + json.dumps(line) + "\\n")
    try:
        tm.tournament.read_results(path); print("accepted", end="; ")
    except tm.TajMahalError as exc:
        print(str(exc)[str(exc).index("line"):][:60], end="; ")
print()
""",
    "results: two writers of one file at once": """
from tajmahal.tournament.results import Header, open_for_append
header = Header(("greedy", "random", "random"), num_players=3, games=3, seed=1)
first, _ = open_for_append(TMP / "two.jsonl", header, True)
try:
    open_for_append(TMP / "two.jsonl", header, True); print("second writer accepted")
except tm.TajMahalError as exc:
    print(f"second writer: {str(exc)[-70:]}")
""",
    "components: a 200 KB dotted key": """
from tajmahal.rules.components import parse_components
text = ".".join(["a"] * 100_000) + " = 1"
out, took, peak = timed(lambda: parse_components(text))
print(f"{out} in {took:.1f} s, peak {peak:.0f} MB")
""",
    "components: 150 distinct documents (memory after the first 70)": """
import copy, tomllib
from tajmahal.rules.components import STANDARD_PATH
standard = tomllib.loads(STANDARD_PATH.read_text())
state = json.loads(tm.dumps(tm.new_game(3, seed=1)))
tracemalloc.start()
for n in range(150):
    data = copy.deepcopy(standard); data["name"] = f"c{n}"
    data["board"]["cities"][0]["name"] = f"K{n}"
    tm.loads(json.dumps(dict(state, components=data))).legal_moves()
    if n == 69: base = tracemalloc.get_traced_memory()[0]
print(f"+{(tracemalloc.get_traced_memory()[0] - base) / 1e6:.1f} MB over the last 80")
""",
    "PlayerView.sample: 11 provinces, one province twice": """
import random
view = tm.new_game(3, seed=1).view(0)
order = view.province_order
for bad in (order[:5] + order[6:], order[:5] + order[6:7] + order[6:]):
    try:
        s = attrs.evolve(view, province_order=bad).sample(random.Random(1))
        print(f"returned a state of {len(s.province_order)} visits", end="; ")
    except Exception as exc:
        print(type(exc).__name__, end="; ")
print()
""",
    "plugin that patches the referee, then offers junk": """
site = TMP / "site"; site.mkdir()
(site / "patching.py").write_text("import tajmahal as tm\\n@tm.hookimpl\\ndef tajmahal_bots():\\n    return 42\\n")
info = site / "patching_plugin-1.0.dist-info"; info.mkdir()
(info / "METADATA").write_text("Metadata-Version: 2.1\\nName: patching-plugin\\nVersion: 1.0\\n")
(info / "entry_points.txt").write_text("[tajmahal]\\npatching = patching\\n")
os.environ["PYTHONPATH"] += os.pathsep + str(site)
out = cli("bots").stdout
print(f"listed as skipped: {'Skipped' in out}; says plugins are trusted: {'trusts' in out}")
""",
    "play --load of a save whose opponent thinks an hour a move": """
path = TMP / "save.json"
rec = tm.play_match(["random"] * 3, seed=1).record
path.write_text(tm.dumps(attrs.evolve(rec, moves=rec.moves[:3], scores=None, winners=None,
    faults=(), times=(), players=("you", "ismcts:time_limit=3600", "random"))))
try:
    done = cli("play", "--load", str(path), stdin="")
    print(f"exit {done.returncode}: {(done.stdout + done.stderr).strip().splitlines()[-1][:80]}")
except subprocess.TimeoutExpired:
    print("the opponent started thinking (killed after 120 s)")
""",
}

PLUGIN_CODE = {
    "import error": "raise ImportError('missing dependency')\n",
    "hook raises": (
        "import tajmahal as tm\n@tm.hookimpl\ndef tajmahal_bots():\n    raise RuntimeError('x')\n"
    ),
    "hook returns junk": "import tajmahal as tm\n@tm.hookimpl\ndef tajmahal_bots():\n    return 42\n",
    "sys.exit on import": "import sys\nsys.exit(4)\n",
    "slow import (60 s)": "import time\ntime.sleep(60)\n",
    "misspelled hook": (
        "import tajmahal as tm\n@tm.hookimpl\ndef tajmahal_bot():\n    return []\n"
    ),
    "slow bot (plays after 0.5 s)": (
        "import time, tajmahal as tm\nclass S:\n    name = 'slow'\n    def __init__(self, seed=0): "
        "pass\n    def choose(self, v, l):\n        time.sleep(0.5)\n        return l[0]\n"
        "@tm.hookimpl\ndef tajmahal_bots():\n    return [S]\n"
    ),
    "duplicate bot name": (
        "import tajmahal as tm\nclass R:\n    name = 'greedy'\n    def choose(self, v, l): "
        "return l[0]\n@tm.hookimpl\ndef tajmahal_bots():\n    return [R]\n"
    ),
}


def plugin_site(directory: Path, kind: str) -> Path:
    """A directory for sys.path holding one installed (dist-info) plugin package."""
    site = directory / "site"
    site.mkdir()
    (site / "evilplugin.py").write_text(PLUGIN_CODE[kind])
    info = site / "evil_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: evil-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tajmahal]\nevil = evilplugin\n")
    return site


def run(
    args: list[str], env: dict[str, str], stdin: int | None = None, timeout: float = TIMEOUT
) -> tuple[str, float]:
    start = time.perf_counter()
    try:
        done = subprocess.run(
            args, env=env, capture_output=True, text=True, timeout=timeout, stdin=stdin
        )
    except subprocess.TimeoutExpired:
        return f"HANGS (killed after {timeout:g} s)", time.perf_counter() - start
    elapsed = time.perf_counter() - start
    out = [line for line in done.stdout.strip().splitlines() if line][-2:]
    err = [line for line in done.stderr.strip().splitlines() if line][-1:]
    traceback = " [traceback]" if "Traceback" in done.stderr else ""
    shown = " / ".join(err if done.returncode else out)
    text = f"exit {done.returncode}{traceback}: {shown[:200]}"
    return text, elapsed


def snippets(
    env: dict[str, str], table: dict[str, str], prelude: str = "", timeout: float = TIMEOUT
) -> list[tuple[str, str, float]]:
    rows = []
    for name, body in table.items():
        code = PRELUDE + prelude + textwrap.dedent(body)
        outcome, elapsed = run([sys.executable, "-c", code], env, timeout=timeout)
        rows.append((name, outcome, elapsed))
    return rows


def plugins(env: dict[str, str]) -> list[tuple[str, str, float]]:
    rows = []
    for kind in PLUGIN_CODE:
        with tempfile.TemporaryDirectory() as tmp:
            site = plugin_site(Path(tmp), kind)
            penv = dict(env, PYTHONPATH=f"{env['PYTHONPATH']}{os.pathsep}{site}")
            if kind.startswith("slow bot"):
                continue  # used by the Ctrl-C attacks
            for command in (["bots"], ["match", "random", "random", "random", "--quiet"]):
                outcome, elapsed = run([sys.executable, "-m", "tajmahal", *command], penv)
                rows.append((f"plugin {kind}: tajmahal {command[0]}", outcome, elapsed))
    return rows


def cli(env: dict[str, str]) -> list[tuple[str, str, float]]:
    rows = []
    tajmahal = [sys.executable, "-m", "tajmahal"]
    with tempfile.TemporaryDirectory() as tmp:
        empty, binary, fifo = Path(tmp, "empty"), Path(tmp, "binary"), Path(tmp, "fifo")
        empty.write_bytes(b"")
        binary.write_bytes(bytes(range(256)) * 100)
        os.mkfifo(fifo)
        huge = Path(tmp, "huge")
        with huge.open("wb") as out:
            out.write(b'{"format": "tajmahal/record", "version": 1, "x": "')
            out.write(b"a" * 300_000_000)
            out.write(b'"}')
        cases = {
            "replay a missing file": ["replay", str(Path(tmp, "missing"))],
            "replay an empty file": ["replay", str(empty)],
            "replay a binary file": ["replay", str(binary)],
            "replay /dev/zero": ["replay", "/dev/zero"],
            "replay a FIFO nobody writes": ["replay", str(fifo)],
            "replay a 300 MB file": ["replay", str(huge)],
            "match --components /dev/zero": [
                "match", "random", "random", "random", "--components", "/dev/zero",
            ],
            "match with a bad seed": ["match", "random", "random", "random", "--seed", "x"],
        }
        for name, args in cases.items():
            outcome, elapsed = run([*tajmahal, *args], env)
            rows.append((f"cli: {name}", outcome, elapsed))
        site = plugin_site(Path(tmp), "slow bot (plays after 0.5 s)")
        penv = dict(env, PYTHONPATH=f"{env['PYTHONPATH']}{os.pathsep}{site}")
        for limit in ([], ["--time-limit", "5"]):
            args = [*tajmahal, "match", "slow", "random", "random", *limit]
            what = "a match with a slow bot" + (" and a time limit" if limit else "")
            rows.append(interrupt(args, penv, what))
    return rows


def interrupt(args: list[str], env: dict[str, str], what: str) -> tuple[str, str, float]:
    """Ctrl-C (SIGINT) four seconds after starting; time from the signal to the exit."""
    process = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(4.0)  # well into the command, after the imports
    process.send_signal(signal.SIGINT)
    start = time.perf_counter()
    try:
        _, err = process.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return f"cli: Ctrl-C during {what}", "HANGS after Ctrl-C", time.perf_counter() - start
    traceback = " [traceback]" if b"Traceback" in err else ""
    outcome = f"exit {process.returncode}{traceback}"
    return f"cli: Ctrl-C during {what}", outcome, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(HERE.parent / "src"), help="the tajmahal src dir")
    parser.add_argument(
        "--only", choices=("referee", "documents", "plugins", "cli", "round3"), action="append"
    )
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=args.src, PYTHONDONTWRITEBYTECODE="1")
    groups = args.only or ["referee", "documents", "plugins", "cli", "round3"]
    rows: list[tuple[str, str, float]] = []
    if "referee" in groups:
        rows += snippets(env, REFEREE)
    if "documents" in groups:
        rows += snippets(env, DOCUMENTS)
    if "plugins" in groups:
        rows += plugins(env)
    if "cli" in groups:
        rows += cli(env)
    if "round3" in groups:
        rows += snippets(env, ROUND3, ROUND3_PRELUDE, TIMEOUT_ROUND3)
    for name, outcome, elapsed in rows:
        print(f"| {name} | {outcome} | {elapsed:.1f} s |", flush=True)


if __name__ == "__main__":
    main()
