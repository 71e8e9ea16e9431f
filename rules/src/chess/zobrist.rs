//! Zobrist keys for chess positions: one key per (piece, square), side to move,
//! castling right and en passant target square. Generated at compile time (splitmix64).

use crate::Color;

use super::types::{Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const TABLE_LEN: usize = 12 * 64 + 1 + 4 + 64;

const fn table() -> [u64; TABLE_LEN] {
    let mut keys = [0u64; TABLE_LEN];
    let mut state = 0x7A76_6F6C_6965_7265; // "tavoliere"-ish seed
    let mut i = 0;
    while i < TABLE_LEN {
        let (s, k) = splitmix(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
}

static KEYS: [u64; TABLE_LEN] = table();

/// The key of `piece` standing on `sq`.
#[inline]
pub(crate) fn piece_key(piece: Piece, sq: Square) -> u64 {
    let p = piece.color.index() * 6 + piece.role.index();
    KEYS[p * 64 + sq.index()]
}

/// The key XORed in when the second player (Black) is to move.
#[inline]
pub(crate) fn turn_key(turn: Color) -> u64 {
    match turn {
        Color::First => 0,
        Color::Second => KEYS[12 * 64],
    }
}

/// The key of the castling rights given as four bits.
#[inline]
pub(crate) fn castling_key(bits: u8) -> u64 {
    let mut k = 0;
    for i in 0..4 {
        if bits & (1 << i) != 0 {
            k ^= KEYS[12 * 64 + 1 + i];
        }
    }
    k
}

/// The key of the en passant targets given as a set of squares.
#[inline]
pub(crate) fn en_passant_key(mask: u64) -> u64 {
    let mut k = 0;
    let mut bits = mask;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        k ^= KEYS[12 * 64 + 5 + i];
    }
    k
}
