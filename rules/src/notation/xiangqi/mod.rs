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

/// The move notations of Xiangqi, for naming the readings of an ambiguous text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveNotation {
    /// ICCS coordinates, `h2e2`.
    Iccs,
    /// WXF, `C2=5`.
    Wxf,
    /// FIX western algebraic, `Bh3e3`.
    Fix,
    /// Chinese, `炮二平五`.
    Chinese,
}

impl MoveNotation {
    /// Every notation, in the order [`parse_any`] tries them.
    pub const ALL: [MoveNotation; 4] =
        [MoveNotation::Iccs, MoveNotation::Wxf, MoveNotation::Fix, MoveNotation::Chinese];

    /// The notation's name, lower case (`iccs`, `wxf`, `fix`, `chinese`).
    pub const fn name(self) -> &'static str {
        match self {
            MoveNotation::Iccs => "iccs",
            MoveNotation::Wxf => "wxf",
            MoveNotation::Fix => "fix",
            MoveNotation::Chinese => "chinese",
        }
    }

    /// The notation's reader.
    pub fn parser(self) -> MoveParser {
        match self {
            MoveNotation::Iccs => iccs::parse,
            MoveNotation::Wxf => wxf::parse,
            MoveNotation::Fix => fix::parse,
            MoveNotation::Chinese => chinese::parse,
        }
    }

    /// The notation's writer.
    pub fn writer(self) -> fn(&Position, Move) -> String {
        match self {
            MoveNotation::Iccs => iccs::write,
            MoveNotation::Wxf => wxf::write,
            MoveNotation::Fix => fix::write,
            MoveNotation::Chinese => chinese::write,
        }
    }
}

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
    /// Two notations read the text as two different legal moves (issue 15 §4: a text is
    /// read one way only, never guessed).
    TwoReadings([(MoveNotation, Move); 2]),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Unreadable => f.write_str("unreadable move"),
            NotationError::Illegal(Some(kind)) => write!(f, "illegal move: {kind}"),
            NotationError::Illegal(None) => f.write_str("illegal move: no legal move fits"),
            NotationError::Ambiguous => f.write_str("ambiguous move: several legal moves fit"),
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

/// Reads a move in any notation the project knows: ICCS, WXF, FIX and Chinese.
///
/// Every notation is tried. The notations' forms do not overlap (a bare four-character
/// coordinate is ICCS only, FIX always has its piece letter), but should a text ever be
/// read by two notations as two different legal moves it is refused as
/// [`NotationError::TwoReadings`], naming both: a player's typo must never become a move
/// they did not mean (issue 15 §4).
///
/// # Errors
///
/// [`NotationError::TwoReadings`], else the error of the most specific notation that
/// could read the text, or [`NotationError::Unreadable`] if none could.
pub fn parse_any(pos: &Position, text: &str) -> Result<Move, NotationError> {
    parse_with(pos, text, MoveNotation::ALL.map(|n| (n, n.parser())))
}

/// [`parse_any`] over the given readers.
fn parse_with(
    pos: &Position,
    text: &str,
    parsers: impl IntoIterator<Item = (MoveNotation, MoveParser)>,
) -> Result<Move, NotationError> {
    super::one_reading(pos, text, parsers, NotationError::Unreadable, NotationError::TwoReadings)
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

    #[test]
    fn a_text_two_notations_read_as_different_moves_is_refused_naming_both() {
        // No two of the project's notations overlap (see the notation tests); a reader
        // that takes every text for the first legal move stands in for one that would.
        fn greedy(pos: &Position, _: &str) -> Result<Move, NotationError> {
            Ok(pos.legal_moves()[0])
        }
        let pos = Position::new();
        let cannon = iccs::parse(&pos, "h2e2").unwrap();
        let first = pos.legal_moves()[0];
        assert_ne!(first, cannon);
        let readers = [(MoveNotation::Iccs, iccs::parse as MoveParser), (MoveNotation::Fix, greedy)];
        assert_eq!(
            parse_with(&pos, "h2e2", readers),
            Err(NotationError::TwoReadings([(MoveNotation::Iccs, cannon), (MoveNotation::Fix, first)]))
        );
        // Two readings of the same move are one move.
        let same = [(MoveNotation::Iccs, iccs::parse as MoveParser), (MoveNotation::Wxf, iccs::parse)];
        assert_eq!(parse_with(&pos, "h2e2", same), Ok(cannon));
    }
}
