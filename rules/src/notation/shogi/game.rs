//! Whole shogi games as the KIF and CSA readers and writers see them.

use std::fmt;

use crate::shogi::{IllegalMoveKind, Move, Position, PositionError};
use crate::{Color, EndReason, Outcome};

/// A whole game: start position, moves, how it ended and the header fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The start position (standard, handicap or any diagram).
    pub start: Position,
    /// The moves, every one legal in turn.
    pub moves: Vec<Move>,
    /// How the record says the game ended, if it says.
    pub ending: Option<Ending>,
    /// Header fields in file order. Player names use the keys [`BLACK_NAME`] and
    /// [`WHITE_NAME`]; other keys are kept as written (KIF Japanese keys, CSA `$` keys
    /// without the `$`).
    pub headers: Vec<(String, String)>,
}

/// Header key of Black's (sente's) name.
pub const BLACK_NAME: &str = "Black";
/// Header key of White's (gote's) name.
pub const WHITE_NAME: &str = "White";

impl GameRecord {
    /// The position after the last move.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            if pos.is_legal(m) {
                pos.play_unchecked(m);
            }
        }
        pos
    }

    /// The value of a header field.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The outcome implied by the ending (the side to move after the last move is the
    /// one that resigned, ran out of time, was mated or declared), or by mate on the board.
    pub fn outcome(&self) -> Option<Outcome> {
        let end = self.final_position();
        let to_move = end.turn();
        match self.ending {
            None | Some(Ending::Interrupted) => end.outcome_by_basic_rules(),
            Some(Ending::Resignation) => Some(Outcome::win(!to_move, EndReason::Resignation)),
            Some(Ending::Checkmate) => Some(Outcome::win(!to_move, EndReason::Checkmate)),
            Some(Ending::TimeUp) => Some(Outcome::win(!to_move, EndReason::Timeout)),
            Some(Ending::IllegalMove) => Some(Outcome::win(!to_move, EndReason::Adjudication)),
            Some(Ending::IllegalAction(offender)) => Some(Outcome::win(!offender, EndReason::Adjudication)),
            Some(Ending::DeclarationWin) => Some(Outcome::win(to_move, EndReason::ImpasseDeclaration)),
            Some(Ending::Sennichite) => Some(Outcome::draw(EndReason::Sennichite)),
            Some(Ending::Jishogi) => Some(Outcome::draw(EndReason::Impasse24)),
            Some(Ending::Draw) => Some(Outcome::draw(EndReason::Agreement)),
        }
    }
}

/// How a record says a game ended. Unless noted, the event concerns the side to move
/// after the last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// 投了 / `%TORYO`: the side to move resigned.
    Resignation,
    /// 中断 / `%CHUDAN`: the game was interrupted.
    Interrupted,
    /// 千日手 / `%SENNICHITE`: fourfold repetition.
    Sennichite,
    /// 持将棋 / `%JISHOGI`: impasse.
    Jishogi,
    /// 切れ負け / `%TIME_UP`: the side to move ran out of time.
    TimeUp,
    /// 反則負け / `%ILLEGAL_MOVE`: the side to move made an illegal move.
    IllegalMove,
    /// `%+ILLEGAL_ACTION` / `%-ILLEGAL_ACTION`: the named side acted illegally.
    IllegalAction(Color),
    /// 入玉勝ち / `%KACHI`: the side to move declared a win.
    DeclarationWin,
    /// 詰み / `%TSUMI`: the side to move is mated.
    Checkmate,
    /// `%HIKIWAKE`: drawn.
    Draw,
}

/// Why a KIF or CSA record cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// A line that cannot be read (1-based line number and what was expected).
    BadLine {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        detail: &'static str,
    },
    /// A handicap name (手合割) that is not known.
    UnknownHandicap(String),
    /// The start position is not legal.
    Position(PositionError),
    /// A move that is not legal.
    IllegalMove {
        /// 1-based line number.
        line: usize,
        /// 1-based ply.
        ply: usize,
        /// Why, when known.
        kind: Option<IllegalMoveKind>,
    },
    /// The variant has no representation in this format.
    UnsupportedVariant,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::BadLine { line, detail } => write!(f, "line {line}: {detail}"),
            RecordError::UnknownHandicap(name) => write!(f, "unknown handicap {name:?}"),
            RecordError::Position(e) => write!(f, "illegal start position: {e}"),
            RecordError::IllegalMove { line, ply, kind: Some(kind) } => {
                write!(f, "line {line}: move {ply} is illegal: {kind}")
            }
            RecordError::IllegalMove { line, ply, kind: None } => {
                write!(f, "line {line}: move {ply} is illegal")
            }
            RecordError::UnsupportedVariant => f.write_str("this format cannot record that variant"),
        }
    }
}

impl std::error::Error for RecordError {}

impl From<PositionError> for RecordError {
    fn from(e: PositionError) -> RecordError {
        RecordError::Position(e)
    }
}

/// Decodes a record file: UTF-8 (with or without BOM) if valid, else Shift_JIS.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => encoding_rs::SHIFT_JIS.decode(bytes).0.into_owned(),
    }
}

/// A record read as far as it could be: the moves before the first error, and the error
/// with its place (a record is never cut short silently, issue 15 §5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartialRecord {
    /// The start, headers, ending and the moves read.
    pub record: GameRecord,
    /// Where each move of the record is written, and its text (one per move).
    pub moves_at: Vec<(crate::notation::record::Location, String)>,
    /// The first line that could not be read, if any.
    pub error: Option<RecordFailure>,
}

impl PartialRecord {
    /// The whole record of a reader's `read_partial`, or its first error (what each
    /// format's `read` answers).
    pub(crate) fn complete(read: Result<PartialRecord, RecordFailure>) -> Result<GameRecord, RecordError> {
        match read {
            Ok(PartialRecord { record, error: None, .. }) => Ok(record),
            Ok(PartialRecord { error: Some(failure), .. }) | Err(failure) => Err(failure.error),
        }
    }
}

/// A record's first error, with its place and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordFailure {
    /// What is wrong.
    pub error: RecordError,
    /// Where.
    pub at: crate::notation::record::Location,
    /// The text there (a move word, or the line).
    pub token: String,
}
