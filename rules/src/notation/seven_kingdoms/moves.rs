//! Move notation: `Qin 騎 a13-e16`, `Qin 騎 a13xe16`, `Qin horseman 0,12-4,15`.
//!
//! `seven-kingdoms.md` "Notation": a move is written `<kingdom> <piece> <from>-<to>`, points as
//! `x,y` or as letters a..s (x) and numbers 1..19 (y); captures with `x`. The canonical form
//! ([`write()`]) uses the English kingdom name, the Chinese piece name and letter-number points.
//! Reading ([`parse()`]) also accepts Chinese kingdom names (秦 楚 韓 齊 魏 趙 燕, simplified
//! too), English piece names in any case (`horseman`), `x,y` points, and leaves kingdom and
//! piece optional (`a13-e16`); whatever is written must agree with the position.

use std::fmt;
use std::str::FromStr;

use crate::seven_kingdoms::{Kingdom, Move, Occupant, PieceKind, PlayError, Point, Position};

/// How points are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Coordinates {
    /// `a13`: letters a..s for x, numbers 1..19 for y (the canonical form).
    #[default]
    Letters,
    /// `0,12`: x and y from 0 to 18.
    Numeric,
}

/// How pieces are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PieceNames {
    /// 騎, 行人... (the canonical form).
    #[default]
    Chinese,
    /// `horseman`, `diplomat`... for western users.
    English,
}

/// A writing style for moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MoveStyle {
    /// How points are written.
    pub coordinates: Coordinates,
    /// How pieces are named.
    pub pieces: PieceNames,
}

impl MoveStyle {
    /// English piece names and letter-number points: `Qin horseman a13-e16`.
    pub const ENGLISH: MoveStyle =
        MoveStyle { coordinates: Coordinates::Letters, pieces: PieceNames::English };
    /// Chinese piece names and `x,y` points: `Qin 騎 0,12-4,15`.
    pub const NUMERIC: MoveStyle =
        MoveStyle { coordinates: Coordinates::Numeric, pieces: PieceNames::Chinese };
}

/// Why a move text cannot be read or does not fit the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text is not a move in this notation.
    Unreadable(String),
    /// The text names a kingdom that is not to move.
    NotTheirTurn {
        /// The kingdom written.
        written: Kingdom,
        /// The kingdom to move.
        turn: Kingdom,
    },
    /// The text names a piece kind that does not stand on the origin.
    WrongPiece {
        /// The kind written.
        written: PieceKind,
        /// What stands on the origin.
        found: Option<Occupant>,
    },
    /// A capture mark `x` on a move to an empty point.
    NothingToCapture,
    /// The move is illegal.
    Illegal(PlayError),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Unreadable(text) => write!(f, "cannot read {text:?} as a Seven Kingdoms move"),
            NotationError::NotTheirTurn { written, turn } => {
                write!(f, "{written} is not to move; it is {turn}'s turn")
            }
            NotationError::WrongPiece { written, found } => match found {
                Some(Occupant::Piece(p)) => {
                    write!(
                        f,
                        "the piece there is {}'s {}, not a {}",
                        p.kingdom,
                        p.kind.english(),
                        written.english()
                    )
                }
                Some(Occupant::Emperor) => write!(f, "the emperor stands there, not a {}", written.english()),
                None => write!(f, "no {} stands there", written.english()),
            },
            NotationError::NothingToCapture => {
                f.write_str("the move is marked as a capture but captures nothing")
            }
            NotationError::Illegal(e) => write!(f, "illegal move {e}"),
        }
    }
}

impl std::error::Error for NotationError {}

/// A move as written, not yet checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// The kingdom, if written.
    pub kingdom: Option<Kingdom>,
    /// The piece kind, if written.
    pub piece: Option<PieceKind>,
    /// The origin.
    pub from: Point,
    /// The target.
    pub to: Point,
    /// Whether the capture mark `x` was written.
    pub capture: bool,
}

/// Reads a point: `a13` (letters a..s, numbers 1..19) or `0,12` (0..18 each).
pub fn parse_point(text: &str) -> Option<Point> {
    if let Some((x, y)) = text.split_once(',') {
        let x: u8 = x.trim().parse().ok()?;
        let y: u8 = y.trim().parse().ok()?;
        return Point::new(x, y);
    }
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    if !('a'..='s').contains(&letter) {
        return None;
    }
    let number = chars.as_str();
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) || number.starts_with('0') {
        return None;
    }
    let y: u8 = number.parse().ok()?;
    Point::new(letter as u8 - b'a', y.checked_sub(1)?)
}

/// Writes a point in the given coordinates.
pub fn write_point(point: Point, coordinates: Coordinates) -> String {
    match coordinates {
        Coordinates::Letters => point.to_string(),
        Coordinates::Numeric => format!("{},{}", point.x(), point.y()),
    }
}

impl FromStr for MoveText {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<MoveText, NotationError> {
        let unreadable = || NotationError::Unreadable(text.to_owned());
        let mut tokens = text.split_whitespace().peekable();
        let kingdom = tokens.peek().and_then(|t| Kingdom::from_name(t));
        if kingdom.is_some() {
            tokens.next();
        }
        let piece = tokens.peek().and_then(|t| PieceKind::from_name(t));
        if piece.is_some() {
            tokens.next();
        }
        let squares: String = tokens.collect();
        let (from, to, capture) = if let Some((from, to)) = squares.split_once('-') {
            (from, to, false)
        } else if let Some((from, to)) = squares.split_once(['x', 'X', '×']) {
            (from, to, true)
        } else {
            return Err(unreadable());
        };
        let from = parse_point(from).ok_or_else(unreadable)?;
        let to = parse_point(to).ok_or_else(unreadable)?;
        Ok(MoveText { kingdom, piece, from, to, capture })
    }
}

impl fmt::Display for MoveText {
    /// Writes what the text holds, in the canonical style.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(k) = self.kingdom {
            write!(f, "{k} ")?;
        }
        if let Some(p) = self.piece {
            write!(f, "{p} ")?;
        }
        write!(f, "{}{}{}", self.from, if self.capture { 'x' } else { '-' }, self.to)
    }
}

impl MoveText {
    /// Checks the text against `pos` and gives the move.
    ///
    /// # Errors
    ///
    /// When the kingdom or piece written does not match, a capture mark captures nothing,
    /// or the move is illegal. A capture written with `-` is accepted.
    pub fn resolve(&self, pos: &Position) -> Result<Move, NotationError> {
        if let Some(written) = self.kingdom {
            if written != pos.turn() {
                return Err(NotationError::NotTheirTurn { written, turn: pos.turn() });
            }
        }
        if let Some(written) = self.piece {
            let found = pos.piece_at(self.from);
            if !matches!(found, Some(Occupant::Piece(p)) if p.kind == written) {
                return Err(NotationError::WrongPiece { written, found });
            }
        }
        let mv = Move { from: self.from, to: self.to };
        pos.check(mv).map_err(NotationError::Illegal)?;
        if self.capture && pos.piece_at(self.to).is_none() {
            return Err(NotationError::NothingToCapture);
        }
        Ok(mv)
    }
}

/// Reads a move and resolves it against the legal moves of `pos`.
///
/// # Errors
///
/// [`NotationError`] when the text is unreadable, does not match the position, or the move
/// is illegal.
pub fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    text.parse::<MoveText>()?.resolve(pos)
}

/// Writes a move of the kingdom to move in the canonical form, e.g. `Qin 騎 a13-e16`.
/// `mv` should be legal in `pos`; an origin without a piece is written without piece name.
pub fn write(pos: &Position, mv: Move) -> String {
    write_with(pos, mv, MoveStyle::default())
}

/// Writes a move in the given style, e.g. `Qin horseman a13xe16` or `Qin 騎 0,12-4,15`.
pub fn write_with(pos: &Position, mv: Move, style: MoveStyle) -> String {
    let (kingdom, piece) = match pos.piece_at(mv.from) {
        Some(Occupant::Piece(p)) => (p.kingdom, Some(p.kind)),
        _ => (pos.turn(), None),
    };
    let mut out = String::from(kingdom.name());
    out.push(' ');
    if let Some(kind) = piece {
        out.push_str(match style.pieces {
            PieceNames::Chinese => kind.chinese(),
            PieceNames::English => kind.english(),
        });
        out.push(' ');
    }
    out.push_str(&write_point(mv.from, style.coordinates));
    out.push(if pos.piece_at(mv.to).is_some() { 'x' } else { '-' });
    out.push_str(&write_point(mv.to, style.coordinates));
    out
}
