//! Chess and Flickering chess notation: FEN, algebraic series, coordinate (UCI-like)
//! moves and whole game records.

pub mod algebraic;
pub mod fen;
pub mod record;
pub mod uci;

use std::fmt;

use crate::chess::SeriesError;

/// Why a move or series text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text is not a move (or series) in this notation.
    Unreadable(String),
    /// Several legal moves fit the text.
    Ambiguous(String),
    /// The text reads as a move, but no legal move fits it.
    Illegal(String),
    /// The series' label (`a`/`b`, `а`/`б`) names the player not to move.
    WrongPlayer(String),
    /// The moves were legal but the series may not end (no move, or the king attacked).
    Series(SeriesError),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Unreadable(t) => write!(f, "unreadable move: {t:?}"),
            NotationError::Ambiguous(t) => write!(f, "ambiguous move: {t:?}"),
            NotationError::Illegal(t) => write!(f, "illegal move: {t:?}"),
            NotationError::WrongPlayer(t) => write!(f, "the series label names the wrong player: {t:?}"),
            NotationError::Series(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for NotationError {}
