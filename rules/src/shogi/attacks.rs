//! Attack tables over the 9x9 grid (MiniShogi uses the same tables, masked to 5x5).

use std::sync::OnceLock;

use crate::Color;

use super::types::{Role, Square};

/// Direction deltas `(file, rank)`; rank -1 is towards rank a (Black's forward).
/// Opposite directions are paired: `d ^ 1` is the opposite of `d`.
const DIRS: [(i8, i8); 8] = [(0, -1), (0, 1), (1, 0), (-1, 0), (1, -1), (-1, 1), (1, 1), (-1, -1)];
const UP: usize = 0;
const DOWN: usize = 1;
const ROOK_DIRS: [usize; 4] = [0, 1, 2, 3];
const BISHOP_DIRS: [usize; 4] = [4, 5, 6, 7];

/// Step-piece kinds with their own tables.
#[derive(Clone, Copy)]
pub(crate) enum Step {
    Pawn = 0,
    Knight = 1,
    Silver = 2,
    Gold = 3,
    King = 4,
}

pub(crate) struct Tables {
    /// `[step][color][square]`
    step: [[[u128; 81]; 2]; 5],
    /// `[direction][square]`: the squares beyond `square` in that direction, to the edge.
    rays: [[u128; 81]; 8],
    /// Squares strictly between two aligned squares, else 0.
    between: Vec<[u128; 81]>,
    /// The whole line through two aligned squares (both included), else 0.
    line: Vec<[u128; 81]>,
    /// `[file index]`: every square of the file.
    pub(crate) files: [u128; 9],
}

fn on_grid(f: i8, r: i8) -> bool {
    (0..9).contains(&f) && (0..9).contains(&r)
}

fn build() -> Tables {
    let mut t = Tables {
        step: [[[0; 81]; 2]; 5],
        rays: [[0; 81]; 8],
        between: vec![[0; 81]; 81],
        line: vec![[0; 81]; 81],
        files: [0; 9],
    };
    let offsets: [&[(i8, i8)]; 5] = [
        &[(0, -1)],
        &[(1, -2), (-1, -2)],
        &[(0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)],
        &[(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)],
        &[(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1), (1, 1), (-1, 1)],
    ];
    for sq in 0..81usize {
        let (f, r) = ((sq % 9) as i8, (sq / 9) as i8);
        t.files[sq % 9] |= 1u128 << sq;
        for (k, offs) in offsets.iter().enumerate() {
            for &(df, dr) in offs.iter() {
                for (c, sign) in [(0usize, 1i8), (1, -1)] {
                    let (nf, nr) = (f + df, r + dr * sign);
                    if on_grid(nf, nr) {
                        t.step[k][c][sq] |= 1u128 << (nr * 9 + nf);
                    }
                }
            }
        }
        for (d, &(df, dr)) in DIRS.iter().enumerate() {
            let (mut nf, mut nr) = (f + df, r + dr);
            while on_grid(nf, nr) {
                t.rays[d][sq] |= 1u128 << (nr * 9 + nf);
                nf += df;
                nr += dr;
            }
        }
    }
    for a in 0..81usize {
        for d in 0..8 {
            let mut b = t.rays[d][a];
            while b != 0 {
                let s = b.trailing_zeros() as usize;
                b &= b - 1;
                let opposite = d ^ 1;
                t.between[a][s] = t.rays[d][a] & t.rays[opposite][s];
                t.line[a][s] = t.rays[d][a] | t.rays[opposite][a] | (1u128 << a);
            }
        }
    }
    t
}

#[inline]
pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

impl Tables {
    #[inline]
    pub(crate) fn step(&self, kind: Step, color: Color, sq: Square) -> u128 {
        self.step[kind as usize][color.index()][sq.index()]
    }

    #[inline]
    fn ray(&self, dir: usize, sq: Square, occupied: u128) -> u128 {
        let ray = self.rays[dir][sq.index()];
        let blockers = ray & occupied;
        if blockers == 0 {
            return ray;
        }
        // Directions 1, 2, 5, 6 go towards higher indices (+9, +1, +8, +10).
        let nearest = if matches!(dir, 1 | 2 | 5 | 6) {
            blockers.trailing_zeros()
        } else {
            127 - blockers.leading_zeros()
        };
        ray ^ self.rays[dir][nearest as usize]
    }

    #[inline]
    pub(crate) fn rook(&self, sq: Square, occupied: u128) -> u128 {
        ROOK_DIRS.iter().fold(0, |acc, &d| acc | self.ray(d, sq, occupied))
    }

    #[inline]
    pub(crate) fn bishop(&self, sq: Square, occupied: u128) -> u128 {
        BISHOP_DIRS.iter().fold(0, |acc, &d| acc | self.ray(d, sq, occupied))
    }

    #[inline]
    pub(crate) fn lance(&self, color: Color, sq: Square, occupied: u128) -> u128 {
        self.ray(if color == Color::First { UP } else { DOWN }, sq, occupied)
    }

    /// Empty-board lance ray (forward for `color`).
    #[inline]
    pub(crate) fn lance_ray(&self, color: Color, sq: Square) -> u128 {
        self.rays[if color == Color::First { UP } else { DOWN }][sq.index()]
    }

    #[inline]
    pub(crate) fn rook_rays(&self, sq: Square) -> u128 {
        self.rays[0][sq.index()]
            | self.rays[1][sq.index()]
            | self.rays[2][sq.index()]
            | self.rays[3][sq.index()]
    }

    #[inline]
    pub(crate) fn bishop_rays(&self, sq: Square) -> u128 {
        self.rays[4][sq.index()]
            | self.rays[5][sq.index()]
            | self.rays[6][sq.index()]
            | self.rays[7][sq.index()]
    }

    #[inline]
    pub(crate) fn between(&self, a: Square, b: Square) -> u128 {
        self.between[a.index()][b.index()]
    }

    #[inline]
    pub(crate) fn line(&self, a: Square, b: Square) -> u128 {
        self.line[a.index()][b.index()]
    }

    /// The squares a piece of `color` and `role` on `sq` attacks, given the occupancy.
    #[inline]
    pub(crate) fn attacks(&self, color: Color, role: Role, sq: Square, occupied: u128) -> u128 {
        match role {
            Role::King => self.step(Step::King, color, sq),
            Role::Rook => self.rook(sq, occupied),
            Role::Bishop => self.bishop(sq, occupied),
            Role::Gold | Role::ProSilver | Role::ProKnight | Role::ProLance | Role::Tokin => {
                self.step(Step::Gold, color, sq)
            }
            Role::Silver => self.step(Step::Silver, color, sq),
            Role::Knight => self.step(Step::Knight, color, sq),
            Role::Lance => self.lance(color, sq, occupied),
            Role::Pawn => self.step(Step::Pawn, color, sq),
            Role::Dragon => self.rook(sq, occupied) | self.step(Step::King, color, sq),
            Role::Horse => self.bishop(sq, occupied) | self.step(Step::King, color, sq),
        }
    }
}
