//! Xiangqi FEN: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! Ranks from Black's side (rank 9) down to Red's (rank 0), files a..i; letters
//! `k a b n r c p` (also `e` elephant and `h` horse), upper case Red. The side to move
//! is `w` or `r` for Red, `b` for Black. The two `-` placeholders and the move
//! counters are optional when reading.

use std::fmt;

use crate::xiangqi::{Piece, Position, PositionError, Role, Setup, Square};
use crate::Color;

/// Why a FEN could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// The board does not have 10 ranks.
    WrongRankCount,
    /// A rank does not describe exactly 9 points.
    WrongFileCount {
        /// The rank (0..9 from Red's side).
        rank: u8,
    },
    /// An unknown character on the board.
    BadPieceChar(char),
    /// The side to move is not `w`, `r` or `b`.
    BadTurn,
    /// A move counter is not a number.
    BadCounter,
    /// Fields left over after the move counters.
    TrailingFields,
    /// The board is readable but not a legal position.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => f.write_str("empty FEN"),
            FenError::WrongRankCount => f.write_str("FEN board must have 10 ranks"),
            FenError::WrongFileCount { rank } => write!(f, "FEN rank {rank} does not have 9 points"),
            FenError::BadPieceChar(c) => write!(f, "unknown FEN piece letter {c:?}"),
            FenError::BadTurn => f.write_str("FEN side to move must be w, r or b"),
            FenError::BadCounter => f.write_str("FEN move counter is not a number"),
            FenError::TrailingFields => f.write_str("unexpected fields at the end of the FEN"),
            FenError::Position(e) => write!(f, "illegal position: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

fn piece_from_char(c: char) -> Option<Piece> {
    let role = match c.to_ascii_lowercase() {
        'k' => Role::King,
        'a' => Role::Advisor,
        'b' | 'e' => Role::Elephant,
        'n' | 'h' => Role::Horse,
        'r' => Role::Chariot,
        'c' => Role::Cannon,
        'p' => Role::Soldier,
        _ => return None,
    };
    let color = if c.is_ascii_uppercase() { Color::First } else { Color::Second };
    Some(Piece { color, role })
}

/// Reads a FEN into an unvalidated [`Setup`].
///
/// # Errors
///
/// A [`FenError`] describing the first problem (never [`FenError::Position`]).
pub fn parse_setup(text: &str) -> Result<Setup, FenError> {
    let mut fields = text.split_whitespace();
    let board = fields.next().ok_or(FenError::Empty)?;
    let mut setup = Setup::empty();
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 10 {
        return Err(FenError::WrongRankCount);
    }
    for (i, row) in ranks.iter().enumerate() {
        let rank = 9 - i as u8;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(FenError::BadPieceChar(c));
                }
                file = file.saturating_add(d as u8);
            } else {
                let piece = piece_from_char(c).ok_or(FenError::BadPieceChar(c))?;
                let sq = Square::new(file, rank).ok_or(FenError::WrongFileCount { rank })?;
                setup.board[sq.index()] = Some(piece);
                file += 1;
            }
            if file > 9 {
                return Err(FenError::WrongFileCount { rank });
            }
        }
        if file != 9 {
            return Err(FenError::WrongFileCount { rank });
        }
    }
    setup.turn = match fields.next() {
        None | Some("w" | "W" | "r" | "R") => Color::First,
        Some("b" | "B") => Color::Second,
        Some(_) => return Err(FenError::BadTurn),
    };
    let mut counters = fields.filter(|f| *f != "-");
    if let Some(half) = counters.next() {
        setup.halfmove_clock = half.parse().map_err(|_| FenError::BadCounter)?;
    }
    if let Some(full) = counters.next() {
        setup.fullmove_number = full.parse().map_err(|_| FenError::BadCounter)?;
    }
    if counters.next().is_some() {
        return Err(FenError::TrailingFields);
    }
    Ok(setup)
}

/// Reads a FEN into a validated [`Position`].
///
/// # Errors
///
/// A [`FenError`]; [`FenError::Position`] if the board is not a legal position.
pub fn parse(text: &str) -> Result<Position, FenError> {
    Ok(Position::from_setup(parse_setup(text)?)?)
}

/// Writes the board part of a FEN.
pub fn write_board(setup: &Setup) -> String {
    let mut out = String::with_capacity(64);
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            match Square::new(file, rank).and_then(|sq| setup.piece_at(sq)) {
                Some(p) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(p.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// Writes a setup as a full FEN (`... w - - 0 1`).
pub fn write_setup(setup: &Setup) -> String {
    let turn = if setup.turn == Color::First { 'w' } else { 'b' };
    format!("{} {turn} - - {} {}", write_board(setup), setup.halfmove_clock, setup.fullmove_number)
}

/// Writes a position as a full FEN (`... w - - 0 1`).
pub fn write(pos: &Position) -> String {
    write_setup(&pos.to_setup())
}

/// Reads a position from its FEN.
impl std::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        parse(s)
    }
}

/// Shows a position as its FEN.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn the_start_position_round_trips() {
        let pos = parse(START).unwrap();
        assert_eq!(pos, Position::new());
        assert_eq!(write(&pos), START);
        assert_eq!(START.parse::<Position>(), Ok(Position::new()));
        assert_eq!(Position::new().to_string(), START);
    }

    #[test]
    fn reads_r_for_red_and_short_forms() {
        let short = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r";
        assert_eq!(parse(short).unwrap(), Position::new());
        let black = parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 7").unwrap();
        assert_eq!(black.turn(), Color::Second);
        assert_eq!((black.halfmove_clock(), black.fullmove_number()), (3, 7));
    }

    #[test]
    fn reports_typed_errors() {
        assert_eq!(parse(""), Err(FenError::Empty));
        assert_eq!(parse("9/9 w"), Err(FenError::WrongRankCount));
        assert_eq!(
            parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w"),
            Err(FenError::WrongFileCount { rank: 0 })
        );
        assert_eq!(
            parse("rnbakabnx/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            Err(FenError::BadPieceChar('x'))
        );
        assert_eq!(parse(&START.replace(" w ", " x ")), Err(FenError::BadTurn));
        assert_eq!(parse(&START.replace(" 0 1", " 0 z")), Err(FenError::BadCounter));
        assert_eq!(parse("4k4/9/9/9/9/9/9/9/9/4K4 w"), Err(FenError::Position(PositionError::KingsFacing)));
        assert_eq!(
            parse("4k4/9/9/9/9/9/9/9/9/3K5 w"),
            Ok(Position::from_setup(parse_setup("4k4/9/9/9/9/9/9/9/9/3K5 w").unwrap()).unwrap())
        );
        assert_eq!(parse("3k5/9/9/9/9/9/9/9/9/5K3 w 99999999999999999999 1"), Err(FenError::BadCounter));
    }
}
