//! Shogi and MiniShogi notation: SFEN, USI, western/AISE, KIF, CSA.

use std::fmt;

use crate::shogi::{IllegalMoveKind, Move, Position};

pub mod csa;
pub mod files;
pub mod game;
mod japanese;
pub mod ki2;
pub mod kif;
pub mod sfen;
pub mod usi;
pub mod western;

pub use game::{Ending, GameRecord, PartialRecord, RecordError, RecordFailure};

/// The move notations of Shogi and MiniShogi, for naming the readings of an ambiguous
/// text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveNotation {
    /// USI, `7g7f`.
    Usi,
    /// Western, hyphenated (`P-7f`) or in the AISE style (`P7f`).
    Western,
}

impl MoveNotation {
    /// The notation's name, lower case (`usi`, `western`).
    pub const fn name(self) -> &'static str {
        match self {
            MoveNotation::Usi => "usi",
            MoveNotation::Western => "western",
        }
    }
}

/// The signature shared by the move readers.
pub type MoveParser = fn(&Position, &str) -> Result<Move, NotationError>;

/// Reads a move in any shogi move notation: USI and western (hyphenated or AISE).
///
/// Both are tried. Their forms do not overlap but for drops (`P*5e` is the same drop in
/// both); should a text ever be read as two different legal moves it is refused as
/// [`NotationError::TwoReadings`] (issue 15 §4).
///
/// # Errors
///
/// [`NotationError::TwoReadings`], else the error of the notation that recognised the
/// text, or [`NotationError::Unreadable`].
pub fn parse_any(pos: &Position, text: &str) -> Result<Move, NotationError> {
    parse_with(
        pos,
        text,
        [(MoveNotation::Usi, usi::parse as MoveParser), (MoveNotation::Western, western::parse)],
    )
}

fn parse_with(
    pos: &Position,
    text: &str,
    parsers: impl IntoIterator<Item = (MoveNotation, MoveParser)>,
) -> Result<Move, NotationError> {
    super::one_reading(pos, text, parsers, NotationError::Unreadable, NotationError::TwoReadings)
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
    /// Two notations read the text as two different legal moves (issue 15 §4).
    TwoReadings([(MoveNotation, Move); 2]),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Unreadable => f.write_str("unreadable move"),
            NotationError::Ambiguous => f.write_str("ambiguous move: give the origin square"),
            NotationError::Illegal(Some(kind)) => write!(f, "illegal move: {kind}"),
            NotationError::Illegal(None) => f.write_str("illegal move"),
            NotationError::TwoReadings([(n1, m1), (n2, m2)]) => write!(
                f,
                "ambiguous move: in {} it is {m1}, in {} it is {m2}",
                n1.name().to_uppercase(),
                n2.name().to_uppercase()
            ),
        }
    }
}

impl std::error::Error for NotationError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Variant;

    #[test]
    fn a_text_two_notations_read_as_different_moves_is_refused_naming_both() {
        // USI and western never overlap (see the notation tests); a reader that takes
        // every text for the first legal move stands in for one that would.
        fn greedy(pos: &Position, _: &str) -> Result<Move, NotationError> {
            Ok(pos.legal_moves()[0])
        }
        let pos = Position::startpos(Variant::Standard);
        let pawn = usi::parse(&pos, "7g7f").unwrap();
        let first = pos.legal_moves()[0];
        assert_ne!(first, pawn);
        let readers = [(MoveNotation::Usi, usi::parse as MoveParser), (MoveNotation::Western, greedy)];
        assert_eq!(
            parse_with(&pos, "7g7f", readers),
            Err(NotationError::TwoReadings([(MoveNotation::Usi, pawn), (MoveNotation::Western, first)]))
        );
    }

    #[test]
    fn a_drop_reads_the_same_in_usi_and_western() {
        let pos = crate::notation::shogi::sfen::parse("4k4/9/9/9/9/9/9/9/4K4 b P 1", None).unwrap();
        let drop = usi::parse(&pos, "P*5e").unwrap();
        assert_eq!(western::parse(&pos, "P*5e"), Ok(drop));
        assert_eq!(parse_any(&pos, "P*5e"), Ok(drop), "one move, read by both: not ambiguous");
    }
}
