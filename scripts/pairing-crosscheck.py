#!/usr/bin/env python3
"""A second opinion on the Swiss pairings: py4swiss, an independent implementation of the
FIDE (Dutch) System on PyPI (MIT; the engine pychess uses), set against Tavoliere's.

Tavoliere pairs every round of the corpus in tournament/tests/data/pairings/ exactly as
bbpPairings did (tournament/tests/pairing_corpus.rs); this script asks py4swiss for the same
rounds of the 2025 edition (py4swiss implements that one) and also plays NEW random
tournaments paired by Tavoliere (the `pair_trf` example of tavoliere-tournament), asking
py4swiss for each of their rounds. A round where py4swiss agrees confirms Tavoliere a
second time; a round where it pairs otherwise is listed. The script fails when the share of
new rounds (tournaments without absent players) py4swiss pairs as Tavoliere falls below
--agreement. py4swiss (0.3.1) does not follow bbpPairings everywhere: it numbers players for
E.5 by pairing number even when players above have never been paired, and it parts from
bbpPairings on about a third of the rounds of plain tournaments too (measured when this
check was written: 22 of 35 new rounds, 18 of 45 corpus rounds, where bbpPairings and
Tavoliere agree on all). So the floor is half the rounds: a broken engine falls far below
it, and the rounds py4swiss pairs otherwise are listed for a look. The corpus figure,
absences included, is printed for information.

Usage (from the repository root):
    pip install -r scripts/requirements-crosscheck.txt
    cargo build -p tavoliere-tournament --example pair_trf
    python3 scripts/pairing-crosscheck.py [--binary target/debug/examples/pair_trf]
        [--tournaments N] [--seed N] [--agreement 0.5]
"""

from __future__ import annotations

import argparse
import importlib.machinery
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from py4swiss.engines import DutchEngine
from py4swiss.trf import TrfParser

ROOT = Path(__file__).resolve().parent.parent
corpus_tool = importlib.machinery.SourceFileLoader("pairing_corpus", str(ROOT / "scripts" / "pairing-corpus")).load_module()


def py4swiss_pairing(path):
    """py4swiss' pairing of a TRF: `{(white, black)}` and the bye, or None if it finds none."""
    try:
        pairings = DutchEngine.generate_pairings(TrfParser.parse(Path(path)))
    except Exception as error:  # py4swiss raises its own errors when no pairing exists
        return ("error", type(error).__name__)
    pairs = {(p.white, p.black) for p in pairings if p.black != 0}
    bye = next((p.white for p in pairings if p.black == 0), None)
    return pairs, bye


def engine_pairing(binary, path):
    """The pairing of an engine speaking bbpPairings' command line and output."""
    target = str(path) + ".out"
    run = subprocess.run([binary, "--dutch", str(path), "-p", target], capture_output=True, text=True)
    if run.returncode == 1:
        return None
    if run.returncode != 0:
        raise SystemExit(f"{binary} failed on {path}: {run.stderr}")
    with open(target) as f:
        rows = [line.split() for line in f.read().split("\n")[1:] if line.strip()]
    pairs = {(int(a), int(b)) for a, b in rows if b != "0"}
    bye = next((int(a) for a, b in rows if b == "0"), None)
    return pairs, bye


def parse_corpus(path):
    """The corpus' tournaments as generator objects, to rebuild each round's TRF."""
    tournaments = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        if line.startswith("T "):
            fields = dict(f.split("=") for f in line.split()[2:])
            t = corpus_tool.Tournament.__new__(corpus_tool.Tournament)
            t.number = int(line.split()[1])
            t.edition = fields["edition"]
            t.baku = fields["acceleration"] == "baku"
            t.rounds = int(fields["rounds"])
            t.initial = fields["initial"]
            t.win, t.draw, t.loss, t.bye = (float(fields[k]) for k in ("win", "draw", "loss", "bye"))
            t.paired = int(fields["paired"])
            t.unpairable = int(fields["unpairable"]) if "unpairable" in fields else None
            t.history, t.ratings = [], []
            tournaments.append(t)
            continue
        t = tournaments[-1]
        entries = []
        for token in line.split(":", 1)[1].split():
            if token in ("U", "Z", "?"):
                entries.append(token)
            else:
                at = next(i for i, c in enumerate(token) if c in "wb")
                entries.append((int(token[:at]) - 1, token[at], token[at + 1:]))
        t.history.append(entries)
        t.ratings.append(2000)
    for t in tournaments:
        t.players = len(t.history)
        # Availability as the corpus recorded it: Z is absent.
        t.available = lambda p, r, t=t: len(t.history[p]) < r or t.history[p][r - 1] != "Z"
    return tournaments


def expected_pairing(t, r):
    pairs, bye = set(), None
    for p, history in enumerate(t.history):
        entry = history[r - 1] if len(history) >= r else None
        if entry == "U":
            bye = p + 1
        elif isinstance(entry, tuple) and entry[1] == "w":
            pairs.add((p + 1, entry[0] + 1))
    return pairs, bye


def corpus_rounds(workdir, limit):
    agree = total = 0
    differences = []
    for name in ("dutch-2025.txt", "dutch-2025-baku.txt"):
        for t in parse_corpus(ROOT / "tournament" / "tests" / "data" / "pairings" / name)[:limit]:
            for r in range(1, t.paired + 1):
                path = os.path.join(workdir, "round.trf")
                with open(path, "w") as f:
                    f.write(t.trf(r))
                total += 1
                theirs = py4swiss_pairing(path)
                if theirs == expected_pairing(t, r):
                    agree += 1
                else:
                    differences.append(f"{name} T {t.number} round {r}")
    return agree, total, differences


def new_rounds(binary, count, seed, workdir):
    """New tournaments paired by Tavoliere, each round also asked of py4swiss."""
    rng = random.Random(seed)
    agree = total = 0
    differences = []
    for number in range(1, count + 1):
        t = corpus_tool.Tournament(rng, number, "fide-2025", rng.random() < 0.2)
        # Everyone plays every round: py4swiss numbers the players by their pairing numbers
        # where bbpPairings (and Tavoliere) skip those never paired yet (E.5's parity), so
        # rounds with absent players are left to the corpus' figure.
        t.first_round = [1] * t.players
        t.last_round = [t.rounds] * t.players
        t.missed = [set() for _ in range(t.players)]
        for r in range(1, t.rounds + 1):
            path = os.path.join(workdir, "new.trf")
            with open(path, "w") as f:
                f.write(t.trf(r))
            ours = engine_pairing(binary, path)
            if ours is None:
                break
            total += 1
            if py4swiss_pairing(path) == ours:
                agree += 1
            else:
                differences.append(f"new T {number} (seed {seed}) round {r}")
            pairs, bye = ours
            for white, black in sorted(pairs):
                a, b = t.result(white - 1, black - 1)
                t.history[white - 1].append((black - 1, "w", a))
                t.history[black - 1].append((white - 1, "b", b))
            if bye:
                t.history[bye - 1].append("U")
            seen = {p for pair in pairs for p in pair} | ({bye} if bye else set())
            for p in range(t.players):
                if p + 1 not in seen:
                    t.history[p].append("Z")
    return agree, total, differences


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / "target" / "debug" / "examples" / "pair_trf"))
    parser.add_argument("--corpus-tournaments", type=int, default=40, help="per corpus file")
    parser.add_argument("--tournaments", type=int, default=10, help="new tournaments")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--agreement", type=float, default=0.5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        agree, total, corpus_differences = corpus_rounds(workdir, args.corpus_tournaments)
        print(f"corpus (bbpPairings 6.0.0 = Tavoliere): py4swiss agrees on {agree} of {total} rounds")
        new_agree, new_total, new_differences = new_rounds(args.binary, args.tournaments, args.seed, workdir)
        print(f"new tournaments paired by Tavoliere: py4swiss agrees on {new_agree} of {new_total} rounds")
    for line in (corpus_differences + new_differences)[:20]:
        print("  py4swiss pairs otherwise:", line)
    share = new_agree / max(1, new_total)
    if new_total == 0 or share < args.agreement:
        print(f"FAIL: py4swiss agrees on {share:.1%} of the new rounds, below {args.agreement:.0%}")
        return 1
    print(f"py4swiss agrees with Tavoliere on {new_agree} of {new_total} new rounds ({share:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
