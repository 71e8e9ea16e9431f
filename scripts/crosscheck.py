#!/usr/bin/env python3
"""Cross-check our legal move generator against an independent implementation (pyffish).

For each game (xiangqi, shogi, minishogi) this plays random games with pyffish (the Python
binding of Fairy-Stockfish), records every visited position with pyffish's legal moves,
converts positions to FEN / SFEN and moves to ICCS / USI, asks our rules crate for the legal
moves of all positions in one batch (the `legal_moves` example of `tavoliere-rules`), and
compares the two sets position by position.

Besides the playouts, a few hand-picked positions (`EXTRA_POSITIONS`) are always checked.

Expected difference: a pawn drop that gives checkmate (uchifuzume) is illegal in shogi and
minishogi; if pyffish lists one that we do not, the script verifies with pyffish that the drop
really gives check and leaves the opponent without a legal move, and counts it separately.
Every other difference is a failure: the position, both sets and the difference are printed and
the exit status is 1.

Only basic-rule legal moves are compared. pyffish is always asked about a bare FEN without
move history, so its repetition rules (AXF, perpetual check in shogi) and its adjudications
cannot truncate or alter a move list.

Usage (from the repository root):
    pip install -r scripts/requirements-crosscheck.txt
    cargo build --release -p tavoliere-rules --example legal_moves
    python3 scripts/crosscheck.py [--playouts N] [--max-plies N] [--seed N] [--games g1,g2]
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pyffish

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BINARY = REPO_ROOT / "target" / "release" / "examples" / "legal_moves"
GAMES = ("xiangqi", "shogi", "minishogi")

# Known values of the start positions, checking the conversions before anything else.
# Random minishogi games are short: more of them for a comparable number of positions.
DEFAULT_PLAYOUTS = {"xiangqi": 20, "shogi": 20, "minishogi": 35}

START_MOVE_COUNTS = {"xiangqi": 44, "shogi": 30, "minishogi": 14}
START_POSITIONS = {
    "xiangqi": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "shogi": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "minishogi": "rbsgk/4p/5/P4/KGSBR b - 1",
}
BOARD_SIZE = {"shogi": 9, "minishogi": 5}

# Hand-picked positions (pyffish FEN) checked besides the playouts, so that the rare cases are
# always exercised: a mating pawn drop (P*1b, which pyffish lists and we must not) next to legal
# pawn drops, and a flying-general pin.
EXTRA_POSITIONS = {
    "xiangqi": [
        "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1",  # the advisor between the generals cannot move
        "3k5/9/9/9/9/9/9/9/4A4/4K4 b - - 0 1",  # the black general cannot step onto the e file
    ],
    "shogi": [
        "8k/9/8G/9/7R1/9/9/9/4K4[P] w - - 0 1",  # P*1b mates: uchifuzume
    ],
    "minishogi": [
        "1br2/P+B2G/3k1/1Ks2/2G1R[PS] w - - 1 28",  # P*2d mates: uchifuzume
    ],
}

# pyffish's UCI-like moves: files a.. from the left, ranks 1.. from the bottom (first player's side).
NORMAL_MOVE = re.compile(r"^([a-i])(\d{1,2})([a-i])(\d{1,2})([+=]?)$")
DROP_MOVE = re.compile(r"^([A-Z])@([a-i])(\d)$")
SHOGI_HAND_ORDER = "RBGSNLP"


class ConversionError(Exception):
    """A pyffish position or move that this script cannot translate."""


# --- Conversions --------------------------------------------------------------------------


def xiangqi_fen(ffish_fen: str) -> str:
    """pyffish's xiangqi FEN is the standard one (`w`/`b`, `- -`, clocks); keep it as is."""
    fields = ffish_fen.split()
    if len(fields) < 2 or fields[0].count("/") != 9 or fields[1] not in ("w", "b"):
        raise ConversionError(f"unexpected xiangqi FEN {ffish_fen!r}")
    return ffish_fen


def xiangqi_move(ffish_move: str) -> str:
    """UCI with ranks 1..10 (`b3b10`) to ICCS with ranks 0..9 (`b2b9`)."""
    m = NORMAL_MOVE.match(ffish_move)
    if not m or m.group(5):
        raise ConversionError(f"unexpected xiangqi move {ffish_move!r}")
    ff, fr, tf, tr, _ = m.groups()
    fr, tr = int(fr), int(tr)
    if not (1 <= fr <= 10 and 1 <= tr <= 10):
        raise ConversionError(f"rank out of range in {ffish_move!r}")
    return f"{ff}{fr - 1}{tf}{tr - 1}"


def shogi_sfen(ffish_fen: str, game: str) -> str:
    """pyffish `board[hand] w|b ...` to SFEN `board b|w hand 1`.

    pyffish's board rows run from the top (second player's side) with files from the left,
    exactly as SFEN rows; promoted pieces are `+X` in both. pyffish's `w` (uppercase, moving
    first) is SFEN's `b` (sente) and vice versa. The hand lists one letter per piece.
    """
    fields = ffish_fen.split()
    m = re.fullmatch(r"([^\[\]]+)\[([A-Za-z]*|-)\]", fields[0]) if fields else None
    if not m or len(fields) < 2 or fields[1] not in ("w", "b"):
        raise ConversionError(f"unexpected {game} FEN {ffish_fen!r}")
    board, hand = m.groups()
    size = BOARD_SIZE[game]
    if board.count("/") != size - 1 or not re.fullmatch(r"[1-9+/KRBGSNLPkrbgsnlp]+", board):
        raise ConversionError(f"unexpected {game} board {board!r}")
    turn = {"w": "b", "b": "w"}[fields[1]]
    sfen_hand = ""
    if hand != "-":
        letters = SHOGI_HAND_ORDER + SHOGI_HAND_ORDER.lower()
        if any(c not in letters for c in hand):
            raise ConversionError(f"unexpected piece in hand {hand!r}")
        for letter in letters:
            n = hand.count(letter)
            if n:
                sfen_hand += (str(n) if n > 1 else "") + letter
    return f"{board} {turn} {sfen_hand or '-'} 1"


def shogi_square(file_letter: str, rank: str, size: int) -> str:
    """pyffish square (file a.. from the left, rank 1.. from the bottom) to USI (`7g`)."""
    column = ord(file_letter) - ord("a")
    row_from_bottom = int(rank)
    if not (0 <= column < size and 1 <= row_from_bottom <= size):
        raise ConversionError(f"square out of board: {file_letter}{rank}")
    return f"{size - column}{chr(ord('a') + size - row_from_bottom)}"


def shogi_move(ffish_move: str, game: str) -> str:
    """pyffish `c3c4`, `b2h8+`, `P@e5` to USI `7g7f`, `8h2b+`, `P*5e`."""
    size = BOARD_SIZE[game]
    m = DROP_MOVE.match(ffish_move)
    if m:
        piece, f, r = m.groups()
        if piece not in SHOGI_HAND_ORDER:
            raise ConversionError(f"unexpected drop {ffish_move!r}")
        return f"{piece}*{shogi_square(f, r, size)}"
    m = NORMAL_MOVE.match(ffish_move)
    if not m:
        raise ConversionError(f"unexpected {game} move {ffish_move!r}")
    ff, fr, tf, tr, suffix = m.groups()
    promote = "+" if suffix == "+" else ""
    return f"{shogi_square(ff, fr, size)}{shogi_square(tf, tr, size)}{promote}"


def our_position(game: str, ffish_fen: str) -> str:
    return xiangqi_fen(ffish_fen) if game == "xiangqi" else shogi_sfen(ffish_fen, game)


def our_move(game: str, ffish_move: str) -> str:
    return xiangqi_move(ffish_move) if game == "xiangqi" else shogi_move(ffish_move, game)


# --- pyffish side -------------------------------------------------------------------------


def is_mating_pawn_drop(game: str, ffish_fen: str, ffish_move: str) -> bool:
    """Whether `ffish_move` is a pawn drop after which, per pyffish, the opponent is in check
    and has no legal move (uchifuzume)."""
    if game == "xiangqi" or not ffish_move.startswith("P@"):
        return False
    return bool(pyffish.gives_check(game, ffish_fen, [ffish_move])) and not pyffish.legal_moves(
        game, ffish_fen, [ffish_move]
    )


@dataclass
class Visited:
    """One position reached in a playout, with pyffish's view of it."""

    ffish_fen: str
    ffish_moves: list[str]
    fen: str = ""
    expected: dict[str, str] = field(default_factory=dict)  # our notation -> pyffish move


def playouts(game: str, count: int, max_plies: int, seed: int) -> list[Visited]:
    """Random games with pyffish from the start position; every visited position, in order.

    pyffish is always asked about a bare FEN (no move history), so no repetition rule or
    adjudication can touch its move lists. A move is chosen uniformly among pyffish's legal
    moves minus mating pawn drops (illegal in our rules); a game stops with no legal move or
    after `max_plies` plies.
    """
    rng = random.Random(f"{seed}/{game}")
    start = pyffish.start_fen(game)
    visited: list[Visited] = []
    for _ in range(count):
        fen = start
        for ply in range(max_plies + 1):
            moves = list(pyffish.legal_moves(game, fen, []))
            visited.append(Visited(fen, moves))
            if not moves or ply == max_plies:
                break
            candidates = sorted(moves)
            while candidates:
                move = candidates.pop(rng.randrange(len(candidates)))
                if not is_mating_pawn_drop(game, fen, move):
                    break
            else:
                break  # only mating pawn drops: the game is over under our rules
            fen = pyffish.get_fen(game, fen, [move])
    return visited


# --- our side -----------------------------------------------------------------------------


def our_legal_moves(binary: Path, game: str, positions: list[str]) -> list[str]:
    """One output line per position from the `legal_moves` example, in one batch."""
    run = subprocess.run(
        [str(binary), game],
        input="".join(p + "\n" for p in positions),
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        sys.exit(f"{binary} {game} failed with status {run.returncode}: {run.stderr.strip()}")
    lines = run.stdout.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) != len(positions):
        sys.exit(f"{binary} {game}: {len(lines)} answers for {len(positions)} positions")
    return lines


# --- comparison ---------------------------------------------------------------------------


def check_start_position(game: str) -> None:
    """The conversions must reproduce our start position and its known number of moves."""
    start = pyffish.start_fen(game)
    converted = our_position(game, start)
    if converted != START_POSITIONS[game]:
        sys.exit(f"{game}: start FEN converts to {converted!r}, expected {START_POSITIONS[game]!r}")
    moves = {our_move(game, m) for m in pyffish.legal_moves(game, start, [])}
    if len(moves) != START_MOVE_COUNTS[game]:
        sys.exit(f"{game}: {len(moves)} start moves from pyffish, expected {START_MOVE_COUNTS[game]}")


def crosscheck(game: str, args: argparse.Namespace) -> bool:
    began = time.monotonic()
    check_start_position(game)
    count = DEFAULT_PLAYOUTS[game] if args.playouts is None else args.playouts
    visited = playouts(game, count, args.max_plies, args.seed)
    visited += [Visited(f, list(pyffish.legal_moves(game, f, []))) for f in EXTRA_POSITIONS[game]]
    for v in visited:
        v.fen = our_position(game, v.ffish_fen)
        for m in v.ffish_moves:
            v.expected[our_move(game, m)] = m
        if len(v.expected) != len(v.ffish_moves):
            sys.exit(f"{game}: two pyffish moves convert to the same move at {v.ffish_fen}")
    answers = our_legal_moves(args.binary, game, [v.fen for v in visited])

    mismatches = 0
    mating_pawn_drops = 0
    for v, answer in zip(visited, answers):
        if answer.startswith("error:"):
            mismatches += 1
            report(game, v, None, answer, mismatches, args.show)
            continue
        ours = set(answer.split())
        theirs = set(v.expected)
        only_theirs = theirs - ours
        uchifuzume = {m for m in only_theirs if is_mating_pawn_drop(game, v.ffish_fen, v.expected[m])}
        mating_pawn_drops += len(uchifuzume)
        if ours - theirs or only_theirs - uchifuzume:
            mismatches += 1
            report(game, v, ours, None, mismatches, args.show)
    elapsed = time.monotonic() - began
    print(
        f"{game}: {len(visited)} positions ({len({v.fen for v in visited})} distinct), {mismatches} mismatches, "
        f"{mating_pawn_drops} mating pawn drops listed by pyffish only (expected), "
        f"{elapsed:.1f} s",
        flush=True,
    )
    return mismatches == 0


def report(game: str, v: Visited, ours: set[str] | None, error: str | None, index: int, show: int) -> None:
    if index > show:
        if index == show + 1:
            print(f"{game}: further mismatches not shown (--show {show})")
        return
    theirs = set(v.expected)
    print(f"--- {game} mismatch #{index}")
    print(f"  pyffish FEN: {v.ffish_fen}")
    print(f"  our FEN:     {v.fen}")
    print(f"  pyffish ({len(theirs)}): {' '.join(sorted(theirs))}")
    if error is not None:
        print(f"  ours: {error}")
        return
    assert ours is not None
    print(f"  ours    ({len(ours)}): {' '.join(sorted(ours))}")
    print(f"  only pyffish: {' '.join(sorted(theirs - ours)) or '-'}")
    print(f"  only ours:    {' '.join(sorted(ours - theirs)) or '-'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--playouts",
        type=int,
        default=None,
        help="random games per game kind (default: "
        + ", ".join(f"{g} {n}" for g, n in DEFAULT_PLAYOUTS.items())
        + "; about 3000 positions each)",
    )
    parser.add_argument("--max-plies", type=int, default=150, help="longest playout in plies (150)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated subset of " + ",".join(GAMES))
    parser.add_argument("--binary", type=Path, default=DEFAULT_BINARY, help="the built legal_moves example")
    parser.add_argument("--show", type=int, default=20, help="mismatches printed per game (20)")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}")
    if not args.binary.exists():
        parser.error(
            f"{args.binary} not found; build it with "
            "`cargo build --release -p tavoliere-rules --example legal_moves`"
        )
    try:
        ok = [crosscheck(game, args) for game in games]
    except ConversionError as e:
        print(f"conversion error: {e}", file=sys.stderr)
        return 1
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
