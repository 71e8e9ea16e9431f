//! Xiangqi notation: FEN, ICCS, WXF, FIX western algebraic, Chinese.
//!
//! Every move notation offers `parse(&Position, &str) -> Result<Move, NotationError>`,
//! resolved against the legal moves of the position, and `write(&Position, Move) -> String`.
//! [`parse_any`] tries them all.

use std::fmt;

use crate::xiangqi::{IllegalMoveKind, Move, Position};

pub mod chinese;
mod descriptive;
pub mod fen;
pub mod fix;
pub mod iccs;
pub mod wxf;

/// Why a move text was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotationError {
    /// The text is not a move in this notation.
    Unreadable,
    /// The text is readable but names no legal move; the reason when the text names
    /// an exact origin and target.
    Illegal(Option<IllegalMoveKind>),
    /// The text fits more than one legal move.
    Ambiguous,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Unreadable => f.write_str("unreadable move"),
            NotationError::Illegal(Some(kind)) => write!(f, "illegal move: {kind}"),
            NotationError::Illegal(None) => f.write_str("illegal move: no legal move fits"),
            NotationError::Ambiguous => f.write_str("ambiguous move: several legal moves fit"),
        }
    }
}

impl std::error::Error for NotationError {}

/// The signature shared by the move parsers of every notation.
pub type MoveParser = fn(&Position, &str) -> Result<Move, NotationError>;

/// Accepts `m` if it is legal in `pos`, else names the reason.
pub(crate) fn checked(pos: &Position, m: Move) -> Result<Move, NotationError> {
    match pos.illegal_move_kind(m) {
        None => Ok(m),
        Some(kind) => Err(NotationError::Illegal(Some(kind))),
    }
}

/// Picks the single legal move satisfying `fits`.
pub(crate) fn resolve(pos: &Position, fits: impl Fn(Move) -> bool) -> Result<Move, NotationError> {
    let mut found = None;
    for m in pos.legal_moves() {
        if fits(m) {
            if found.is_some() {
                return Err(NotationError::Ambiguous);
            }
            found = Some(m);
        }
    }
    found.ok_or(NotationError::Illegal(None))
}

/// Reads a move in any notation the project knows, trying ICCS, WXF, FIX and Chinese
/// in this order.
///
/// # Errors
///
/// The error of the most specific notation that could read the text, or
/// [`NotationError::Unreadable`] if none could.
pub fn parse_any(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let parsers: [MoveParser; 4] = [iccs::parse, wxf::parse, fix::parse, chinese::parse];
    let mut best = NotationError::Unreadable;
    for parse in parsers {
        match parse(pos, text) {
            Ok(m) => return Ok(m),
            Err(NotationError::Unreadable) => {}
            Err(e) => {
                if best == NotationError::Unreadable {
                    best = e;
                }
            }
        }
    }
    Err(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_any_reads_every_notation_and_keeps_the_most_specific_error() {
        let pos = Position::new();
        let cannon = iccs::parse(&pos, "h2e2").unwrap();
        for text in ["h2e2", "H2-E2", "C2=5", "C2.5", "Bh3e3", "炮二平五", "砲2平5"] {
            assert_eq!(parse_any(&pos, text), Ok(cannon), "{text}");
        }
        assert_eq!(parse_any(&pos, "h2f4"), Err(NotationError::Illegal(Some(IllegalMoveKind::NotAMove))));
        assert_eq!(parse_any(&pos, "C2+9"), Err(NotationError::Illegal(None)));
        assert_eq!(parse_any(&pos, "hello"), Err(NotationError::Unreadable));
    }
}
