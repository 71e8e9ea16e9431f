//! Shogi and MiniShogi notation: SFEN, USI, western/AISE, KIF, CSA.

use std::fmt;

use crate::shogi::{IllegalMoveKind, Move, Position};
use crate::Color;

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
    /// Japanese, as KIF and KI2 records write moves (`７六歩`, `同　歩`, `▲５五角打`).
    Japanese,
}

impl MoveNotation {
    /// The notation's name, lower case (`usi`, `western`).
    pub const fn name(self) -> &'static str {
        match self {
            MoveNotation::Usi => "usi",
            MoveNotation::Western => "western",
            MoveNotation::Japanese => "japanese",
        }
    }
}

/// Where a move is read: the position, and the move before it (the square a Japanese
/// `同` names).
#[derive(Clone, Copy, Debug)]
pub struct At<'a> {
    /// The position the move is played in.
    pub pos: &'a Position,
    /// The move that led to it, if known.
    pub previous: Option<Move>,
}

/// The signature shared by the move readers.
pub type MoveParser = fn(&At<'_>, &str) -> Result<Move, NotationError>;

/// Reads a move in any shogi move notation: USI, western (hyphenated or AISE) and
/// Japanese (`７六歩`, `▲７六歩`, `７六歩(77)`, `同　歩`, `８八角成`, `５五角打`; see
/// [`kif::parse_move`]). `previous` is the move before, which a Japanese `同` ("the same
/// square") names.
///
/// Every notation is tried. Their forms do not overlap but for drops (`P*5e` is the same
/// drop in USI and western); should a text ever be read as two different legal moves it is
/// refused as [`NotationError::TwoReadings`] (issue 15 §4).
///
/// # Errors
///
/// [`NotationError::TwoReadings`], else the error of the notation that recognised the
/// text, or [`NotationError::Unreadable`].
pub fn parse_any(pos: &Position, text: &str, previous: Option<Move>) -> Result<Move, NotationError> {
    parse_with(
        &At { pos, previous },
        text,
        [
            (MoveNotation::Usi, (|at, text| usi::parse(at.pos, text)) as MoveParser),
            (MoveNotation::Western, |at, text| western::parse(at.pos, text)),
            (MoveNotation::Japanese, |at, text| kif::parse_move(at.pos, text, at.previous)),
        ],
    )
}

fn parse_with(
    at: &At<'_>,
    text: &str,
    parsers: impl IntoIterator<Item = (MoveNotation, MoveParser)>,
) -> Result<Move, NotationError> {
    super::one_reading(at, text, parsers, NotationError::Unreadable, NotationError::TwoReadings)
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
    /// The text's side mark (Japanese ▲ or △) names this side, which is not to move.
    WrongSide(Color),
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
            NotationError::WrongSide(color) => {
                write!(f, "the move is marked for {}, not to move", side_name(*color))
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// A side as its mark and name: `▲ (Black)`, `△ (White)`.
pub fn side_name(color: Color) -> &'static str {
    match color {
        Color::First => "▲ (Black)",
        Color::Second => "△ (White)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Variant;

    #[test]
    fn a_text_two_notations_read_as_different_moves_is_refused_naming_both() {
        // USI and western never overlap (see the notation tests); a reader that takes
        // every text for the first legal move stands in for one that would.
        fn greedy(at: &At<'_>, _: &str) -> Result<Move, NotationError> {
            Ok(at.pos.legal_moves()[0])
        }
        let pos = Position::startpos(Variant::Standard);
        let pawn = usi::parse(&pos, "7g7f").unwrap();
        let first = pos.legal_moves()[0];
        assert_ne!(first, pawn);
        let usi_reader: MoveParser = |at, text| usi::parse(at.pos, text);
        let readers = [(MoveNotation::Usi, usi_reader), (MoveNotation::Western, greedy)];
        assert_eq!(
            parse_with(&At { pos: &pos, previous: None }, "7g7f", readers),
            Err(NotationError::TwoReadings([(MoveNotation::Usi, pawn), (MoveNotation::Western, first)]))
        );
    }

    #[test]
    fn a_drop_reads_the_same_in_usi_and_western() {
        let pos = crate::notation::shogi::sfen::parse("4k4/9/9/9/9/9/9/9/4K4 b P 1", None).unwrap();
        let drop = usi::parse(&pos, "P*5e").unwrap();
        assert_eq!(western::parse(&pos, "P*5e"), Ok(drop));
        assert_eq!(parse_any(&pos, "P*5e", None), Ok(drop), "one move, read by both: not ambiguous");
    }

    /// A position after `usi` moves from the start of `variant`, and the last of them.
    fn after(variant: Variant, usi_moves: &[&str]) -> (Position, Option<Move>) {
        let mut pos = Position::startpos(variant);
        let mut last = None;
        for text in usi_moves {
            let m = usi::parse(&pos, text).unwrap();
            pos.play_unchecked(m);
            last = Some(m);
        }
        (pos, last)
    }

    #[test]
    fn japanese_moves_are_read_in_every_form_players_type() {
        let (start, _) = after(Variant::Standard, &[]);
        let read =
            |pos: &Position, text: &str, previous| parse_any(pos, text, previous).map(|m| m.to_string());
        // The square in full-width, ASCII or kanji digits, the side's mark, KIF's origin.
        for text in [
            "７六歩",
            "76歩",
            "7六歩",
            "７６歩",
            "▲７六歩",
            "☗７六歩",
            "▲ ７六歩",
            "７六歩(77)",
            "７六歩（７７）",
            " ７六歩　",
        ] {
            assert_eq!(read(&start, text, None).as_deref(), Ok("7g7f"), "{text}");
        }
        // 同: the square of the move before, with or without the full-width space.
        let (pos, last) = after(Variant::Standard, &["7g7f", "3c3d", "8h2b+"]);
        for text in ["同　銀", "同銀", "△同　銀", "同 銀", "同　銀(31)"] {
            assert_eq!(read(&pos, text, last).as_deref(), Ok("3a2b"), "{text}");
        }
        assert_eq!(read(&pos, "同　銀", None), Err(NotationError::Unreadable), "同 needs the move before");
        // Promotion, its refusal, and a drop.
        let (pos, _) = after(Variant::Standard, &["7g7f", "3c3d"]);
        assert_eq!(read(&pos, "２二角成", None).as_deref(), Ok("8h2b+"));
        assert_eq!(read(&pos, "２二角不成", None).as_deref(), Ok("8h2b"));
        let (pos, last) = after(Variant::Standard, &["7g7f", "3c3d", "8h2b+", "3a2b"]);
        assert_eq!(read(&pos, "５五角打", last).as_deref(), Ok("B*5e"));
        assert_eq!(read(&pos, "▲5五角打", last).as_deref(), Ok("B*5e"));
        // Back to 8h: the bishop promotes there only if it could (it cannot: own camp).
        let (pos, _) = after(Variant::Standard, &["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e", "2b3a"]);
        assert_eq!(read(&pos, "８八角", None).as_deref(), Ok("5e8h"));
        assert!(
            matches!(read(&pos, "８八角成", None), Err(NotationError::Illegal(_))),
            "no promotion outside the zone"
        );
        // Two golds can go to 5h: KI2's 右 and 左 tell them apart.
        assert_eq!(read(&start, "５八金", None), Err(NotationError::Ambiguous));
        assert_eq!(read(&start, "５八金右", None).as_deref(), Ok("4i5h"));
        assert_eq!(read(&start, "５八金左", None).as_deref(), Ok("6i5h"));
        assert_eq!(read(&start, "５八金(49)", None).as_deref(), Ok("4i5h"));
    }

    #[test]
    fn a_japanese_move_marked_for_the_side_not_to_move_is_refused() {
        let (start, _) = after(Variant::Standard, &[]);
        assert_eq!(parse_any(&start, "△７六歩", None), Err(NotationError::WrongSide(Color::Second)));
        assert_eq!(parse_any(&start, "☖７六歩", None), Err(NotationError::WrongSide(Color::Second)));
        let (pos, last) = after(Variant::Standard, &["7g7f"]);
        assert_eq!(parse_any(&pos, "▲３四歩", last), Err(NotationError::WrongSide(Color::First)));
        assert_eq!(parse_any(&pos, "△３四歩", last).map(|m| m.to_string()).as_deref(), Ok("3c3d"));
        assert!(NotationError::WrongSide(Color::First).to_string().contains("Black"));
    }

    #[test]
    fn japanese_moves_are_read_in_minishogi_and_what_is_not_one_stays_unreadable() {
        let (start, _) = after(Variant::Mini, &[]);
        assert_eq!(
            parse_any(&start, "１三飛", None).map(|m| m.to_string()).as_deref(),
            Ok("1e1c"),
            "MiniShogi's rook on 1e"
        );
        assert!(
            matches!(parse_any(&start, "９九歩", None), Err(NotationError::Unreadable)),
            "off the 5×5 board"
        );
        let (std, _) = after(Variant::Standard, &[]);
        for text in ["七六歩x", "歩", "７六", "▲", "７六歩(7七)", "７六象"] {
            assert_eq!(parse_any(&std, text, None), Err(NotationError::Unreadable), "{text}");
        }
        // Illegal, with the reason where the text names an exact move.
        assert!(matches!(parse_any(&std, "７五歩", None), Err(NotationError::Illegal(_))));
        assert!(matches!(
            parse_any(&std, "７六歩(88)", None),
            Err(NotationError::Illegal(Some(IllegalMoveKind::NoPiece)))
        ));
    }
}
