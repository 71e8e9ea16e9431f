//! Precomputed move tables and Zobrist keys, built at compile time.

use super::types::{FILES, RANKS, SQUARES};

/// Up to eight `(target, blocking point)` pairs per square.
#[derive(Clone, Copy)]
pub(crate) struct Steps {
    pub len: u8,
    pub to: [u8; 8],
    /// The point that must be empty (horse leg, elephant eye); unused for king and advisor.
    pub block: [u8; 8],
}

const EMPTY_STEPS: Steps = Steps { len: 0, to: [0; 8], block: [0; 8] };

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < FILES as i32 && r >= 0 && r < RANKS as i32
}

const fn idx(f: i32, r: i32) -> u8 {
    (r * FILES as i32 + f) as u8
}

const fn in_any_palace(f: i32, r: i32) -> bool {
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

const fn push(s: &mut Steps, to: u8, block: u8) {
    s.to[s.len as usize] = to;
    s.block[s.len as usize] = block;
    s.len += 1;
}

/// One-point steps by `deltas` from every palace point, staying in the same palace.
const fn palace_steps(deltas: [(i32, i32); 4]) -> [Steps; SQUARES] {
    let mut t = [EMPTY_STEPS; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        if in_any_palace(f, r) {
            let mut i = 0;
            while i < 4 {
                let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
                // Same palace: both ranks on the same side of the river.
                if on_board(nf, nr) && in_any_palace(nf, nr) && (nr <= 4) == (r <= 4) {
                    push(&mut t[sq], idx(nf, nr), 0);
                }
                i += 1;
            }
        }
        sq += 1;
    }
    t
}

/// King steps: one point orthogonally, never leaving the palace (`xiangqi.md` "Moves").
pub(crate) const KING_STEPS: [Steps; SQUARES] = palace_steps([(1, 0), (-1, 0), (0, 1), (0, -1)]);

/// Advisor steps: one point diagonally, never leaving the palace (`xiangqi.md` "Moves").
pub(crate) const ADVISOR_STEPS: [Steps; SQUARES] = palace_steps([(1, 1), (-1, 1), (1, -1), (-1, -1)]);

/// Elephant steps: two points diagonally with the eye in between, never crossing
/// the river (`xiangqi.md` "Moves").
pub(crate) const ELEPHANT_STEPS: [Steps; SQUARES] = {
    let mut t = [EMPTY_STEPS; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let d: [(i32, i32); 4] = [(2, 2), (-2, 2), (2, -2), (-2, -2)];
        let mut i = 0;
        while i < 4 {
            let (nf, nr) = (f + d[i].0, r + d[i].1);
            if on_board(nf, nr) && (nr <= 4) == (r <= 4) {
                push(&mut t[sq], idx(nf, nr), idx(f + d[i].0 / 2, r + d[i].1 / 2));
            }
            i += 1;
        }
        sq += 1;
    }
    t
};

const HORSE_DELTAS: [(i32, i32); 8] =
    [(1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)];

/// The horse leg for a jump by `(df, dr)`: the orthogonal neighbour of the start
/// point in the direction of the long side (`xiangqi.md` "Moves": horse).
const fn horse_leg(f: i32, r: i32, df: i32, dr: i32) -> u8 {
    if dr == 2 || dr == -2 {
        idx(f, r + dr / 2)
    } else {
        idx(f + df / 2, r)
    }
}

/// Horse moves from a square: `(target, leg)`.
pub(crate) const HORSE_STEPS: [Steps; SQUARES] = {
    let mut t = [EMPTY_STEPS; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut i = 0;
        while i < 8 {
            let (df, dr) = HORSE_DELTAS[i];
            if on_board(f + df, r + dr) {
                push(&mut t[sq], idx(f + df, r + dr), horse_leg(f, r, df, dr));
            }
            i += 1;
        }
        sq += 1;
    }
    t
};

/// Horses that could jump onto a square: `(origin, leg of that jump)`.
pub(crate) const HORSE_ATTACKERS: [Steps; SQUARES] = {
    let mut t = [EMPTY_STEPS; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut i = 0;
        while i < 8 {
            let (df, dr) = HORSE_DELTAS[i];
            let (of, or) = (f - df, r - dr);
            if on_board(of, or) {
                push(&mut t[sq], idx(of, or), horse_leg(of, or, df, dr));
            }
            i += 1;
        }
        sq += 1;
    }
    t
};

/// For each square and each of the four directions (east, west, north, south), the
/// squares along the ray in order, and the ray's length.
pub(crate) const RAYS: [[(u8, [u8; 9]); 4]; SQUARES] = {
    let mut t = [[(0u8, [0u8; 9]); 4]; SQUARES];
    let d: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut dir = 0;
        while dir < 4 {
            let (mut nf, mut nr) = (f + d[dir].0, r + d[dir].1);
            while on_board(nf, nr) {
                let n = t[sq][dir].0 as usize;
                t[sq][dir].1[n] = idx(nf, nr);
                t[sq][dir].0 += 1;
                nf += d[dir].0;
                nr += d[dir].1;
            }
            dir += 1;
        }
        sq += 1;
    }
    t
};

/// For a king on each square, the points whose change of occupant can change whether it
/// is attacked by a line piece (chariot, cannon, the other king): its whole file and rank.
pub(crate) const KING_LINES: [u128; SQUARES] = {
    let mut t = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut other = 0;
        while other < SQUARES {
            if other != sq && (other % 9 == sq % 9 || other / 9 == sq / 9) {
                t[sq] |= 1u128 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    t
};

/// For a king on each square, the legs of the horse jumps that reach it: a piece leaving
/// one of them may unblock a horse's check.
pub(crate) const KING_HORSE_LEGS: [u128; SQUARES] = {
    let mut t = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let steps = &HORSE_ATTACKERS[sq];
        let mut i = 0;
        while i < steps.len as usize {
            t[sq] |= 1u128 << steps.block[i];
            i += 1;
        }
        sq += 1;
    }
    t
};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Zobrist keys per piece code (1..=14; row 0 unused and zero) and square.
pub(crate) const ZOBRIST_PIECES: [[u64; SQUARES]; 15] = {
    let mut t = [[0u64; SQUARES]; 15];
    let mut state = 0x5851_F42D_4C95_7F2Du64;
    let mut code = 1;
    while code < 15 {
        let mut sq = 0;
        while sq < SQUARES {
            let (s, v) = splitmix(state);
            state = s;
            t[code][sq] = v;
            sq += 1;
        }
        code += 1;
    }
    t
};

/// Zobrist key xored in when Black is to move.
pub(crate) const ZOBRIST_BLACK_TO_MOVE: u64 = splitmix(0x2545_F491_4F6C_DD1D).1;
