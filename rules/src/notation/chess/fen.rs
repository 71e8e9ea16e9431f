//! FEN (Forsyth–Edwards Notation) for chess and Flickering chess positions.
//!
//! Orthodox FEN, with one extension for Flickering chess: the en passant field may name
//! several target squares run together (`c6e6`), one for every pawn the opponent
//! double-stepped in their last series (see [`crate::chess::Series`]). The two counters
//! may be left out (they default to `0 1`).

use std::fmt;

use crate::chess::{CastlingRights, CastlingSide, Piece, Position, PositionError, Setup, Square, SquareSet};
use crate::Color;

/// The FEN of the orthodox start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN text was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not 4 to 6 space-separated fields.
    FieldCount,
    /// The piece placement field is malformed (unknown letter, not 8 ranks of 8 squares).
    Board,
    /// The side to move is not `w` or `b`.
    Turn,
    /// The castling field is not `-` or a subset of `KQkq`.
    Castling,
    /// The en passant field is not `-` or a run of square names.
    EnPassant,
    /// A move counter is not a number.
    Counter,
    /// The text is well formed but the position is not playable.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount => f.write_str("a FEN has 4 to 6 fields"),
            FenError::Board => f.write_str("malformed piece placement"),
            FenError::Turn => f.write_str("the side to move must be w or b"),
            FenError::Castling => f.write_str("malformed castling rights"),
            FenError::EnPassant => f.write_str("malformed en passant squares"),
            FenError::Counter => f.write_str("malformed move counter"),
            FenError::Position(e) => write!(f, "invalid position: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

/// Reads a FEN into an unvalidated [`Setup`].
///
/// # Errors
///
/// A [`FenError`] naming the malformed field.
pub fn parse_setup(text: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(FenError::FieldCount);
    }
    let mut board = [None; 64];
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::Board);
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(FenError::Board);
                }
                file += d as u8;
            } else {
                let piece = Piece::from_fen_char(c).ok_or(FenError::Board)?;
                let sq = Square::new(file, rank).ok_or(FenError::Board)?;
                board[sq.index()] = Some(piece);
                file += 1;
            }
            if file > 8 {
                return Err(FenError::Board);
            }
        }
        if file != 8 {
            return Err(FenError::Board);
        }
    }
    let turn = match fields[1] {
        "w" => Color::First,
        "b" => Color::Second,
        _ => return Err(FenError::Turn),
    };
    let mut castling = CastlingRights::NONE;
    if fields[2] != "-" {
        for c in fields[2].chars() {
            let (color, side) = match c {
                'K' => (Color::First, CastlingSide::KingSide),
                'Q' => (Color::First, CastlingSide::QueenSide),
                'k' => (Color::Second, CastlingSide::KingSide),
                'q' => (Color::Second, CastlingSide::QueenSide),
                _ => return Err(FenError::Castling),
            };
            if castling.has(color, side) {
                return Err(FenError::Castling);
            }
            castling.set(color, side, true);
        }
    }
    let mut en_passant = SquareSet::EMPTY;
    if fields[3] != "-" {
        let ep = fields[3];
        if ep.is_empty() || !ep.len().is_multiple_of(2) || !ep.is_ascii() {
            return Err(FenError::EnPassant);
        }
        for i in (0..ep.len()).step_by(2) {
            let sq: Square = ep[i..i + 2].parse().map_err(|_| FenError::EnPassant)?;
            en_passant.insert(sq);
        }
    }
    let counter = |i: usize, default: u32| -> Result<u32, FenError> {
        fields.get(i).map_or(Ok(default), |t| t.parse().map_err(|_| FenError::Counter))
    };
    Ok(Setup {
        board,
        turn,
        castling,
        en_passant,
        halfmove_clock: counter(4, 0)?,
        fullmove_number: counter(5, 1)?,
    })
}

/// Reads a FEN into a playable [`Position`].
///
/// # Errors
///
/// [`FenError`] for a malformed text, [`FenError::Position`] for an unplayable position.
pub fn parse(text: &str) -> Result<Position, FenError> {
    Position::from_setup(parse_setup(text)?).map_err(FenError::Position)
}

/// Writes the FEN of a setup.
pub fn write_setup(setup: &Setup) -> String {
    let mut out = String::with_capacity(90);
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            match Square::new(file, rank).and_then(|sq| setup.board[sq.index()]) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(p.fen_char());
                }
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push_str(if setup.turn == Color::First { " w " } else { " b " });
    let rights = [
        (Color::First, CastlingSide::KingSide, 'K'),
        (Color::First, CastlingSide::QueenSide, 'Q'),
        (Color::Second, CastlingSide::KingSide, 'k'),
        (Color::Second, CastlingSide::QueenSide, 'q'),
    ];
    let before = out.len();
    for (color, side, c) in rights {
        if setup.castling.has(color, side) {
            out.push(c);
        }
    }
    if out.len() == before {
        out.push('-');
    }
    out.push(' ');
    if setup.en_passant.is_empty() {
        out.push('-');
    } else {
        for sq in setup.en_passant.iter() {
            out.push_str(&sq.to_string());
        }
    }
    out.push_str(&format!(" {} {}", setup.halfmove_clock, setup.fullmove_number));
    out
}

/// Writes the FEN of a position.
pub fn write(pos: &Position) -> String {
    write_setup(&pos.to_setup())
}
