//! Shogi and MiniShogi notation: SFEN, USI, western/AISE, KIF, CSA.

use std::fmt;

use crate::shogi::{IllegalMoveKind, Move, Position};

pub mod csa;
pub mod game;
pub mod kif;
pub mod sfen;
pub mod usi;
pub mod western;

pub use game::{Ending, GameRecord, RecordError};

/// Reads a move in any shogi move notation: USI first, then western (hyphenated or AISE).
///
/// # Errors
///
/// The error of the notation that recognised the text, or [`NotationError::Unreadable`].
pub fn parse_any(pos: &Position, text: &str) -> Result<Move, NotationError> {
    match usi::parse(pos, text) {
        Err(NotationError::Unreadable) => western::parse(pos, text),
        other => other,
    }
}

/// Why a move text cannot be turned into a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text is not a move in this notation.
    Unreadable,
    /// Several legal moves match the text.
    Ambiguous,
    /// The text names a move, but no legal one; the reason when it is known.
    Illegal(Option<IllegalMoveKind>),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Unreadable => f.write_str("unreadable move"),
            NotationError::Ambiguous => f.write_str("ambiguous move: give the origin square"),
            NotationError::Illegal(Some(kind)) => write!(f, "illegal move: {kind}"),
            NotationError::Illegal(None) => f.write_str("illegal move"),
        }
    }
}

impl std::error::Error for NotationError {}
