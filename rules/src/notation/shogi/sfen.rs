//! SFEN: `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`.
//!
//! The board lists ranks from a (White's side) down, each from the highest file to file 1.
//! MiniShogi uses 5 ranks of 5 squares.

use std::fmt;

use crate::shogi::{Hand, Piece, Position, PositionError, Role, Setup, Square, Variant};
use crate::Color;

/// Why an SFEN cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// The board field is missing or the text is empty.
    Empty,
    /// The number of ranks is neither 9 nor 5, or does not match the requested variant.
    WrongBoardSize,
    /// A rank does not have the right number of squares.
    WrongRankLength {
        /// 1-based rank.
        rank: u8,
    },
    /// A character that is neither a piece, a digit, `+` nor `/`.
    BadBoardChar(char),
    /// A `+` before a piece that cannot promote, or at the end of a rank.
    BadPromotion,
    /// The side to move is neither `b` nor `w`.
    BadTurn,
    /// The hand field cannot be read.
    BadHand,
    /// The move number is not a positive number.
    BadMoveNumber,
    /// More fields than board, turn, hand and move number.
    TrailingText,
    /// The setup reads, but is not a legal position.
    Position(PositionError),
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::Empty => f.write_str("empty SFEN"),
            SfenError::WrongBoardSize => f.write_str("the board must have 9 ranks (shogi) or 5 (minishogi)"),
            SfenError::WrongRankLength { rank } => write!(f, "rank {rank} has the wrong number of squares"),
            SfenError::BadBoardChar(c) => write!(f, "unexpected character {c:?} in the board"),
            SfenError::BadPromotion => f.write_str("'+' before a piece that cannot promote"),
            SfenError::BadTurn => f.write_str("the side to move must be 'b' or 'w'"),
            SfenError::BadHand => f.write_str("unreadable pieces in hand"),
            SfenError::BadMoveNumber => f.write_str("the move number must be a positive number"),
            SfenError::TrailingText => f.write_str("unexpected text after the move number"),
            SfenError::Position(e) => write!(f, "illegal position: {e}"),
        }
    }
}

impl std::error::Error for SfenError {}

impl From<PositionError> for SfenError {
    fn from(e: PositionError) -> SfenError {
        SfenError::Position(e)
    }
}

/// Reads an SFEN into an unvalidated setup. `variant` `None` infers it from the number of
/// ranks (9: shogi, 5: minishogi). A missing move number means 1; a missing hand `-`.
///
/// # Errors
///
/// An [`SfenError`] naming what cannot be read.
pub fn parse_setup(text: &str, variant: Option<Variant>) -> Result<Setup, SfenError> {
    let mut fields = text.split_ascii_whitespace();
    let board = fields.next().ok_or(SfenError::Empty)?;
    let rows: Vec<&str> = board.split('/').collect();
    let variant = match (rows.len(), variant) {
        (9, None) => Variant::Standard,
        (5, None) => Variant::Mini,
        (n, Some(v)) if n == usize::from(v.size()) => v,
        _ => return Err(SfenError::WrongBoardSize),
    };
    let size = variant.size();
    let mut setup = Setup::empty(variant);
    for (row_index, row) in rows.iter().enumerate() {
        let rank = row_index as u8 + 1;
        // Files counted from the left: file = size - column.
        let mut column: u8 = 0;
        let mut promoted = false;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                if promoted {
                    return Err(SfenError::BadPromotion);
                }
                let mut n = d;
                // Multi-digit runs do not occur on 9 files, but read them rather than misread.
                while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n.saturating_mul(10).saturating_add(d2);
                    chars.next();
                }
                if n == 0 || n > u32::from(size - column.min(size)) {
                    return Err(SfenError::WrongRankLength { rank });
                }
                column += n as u8;
            } else if c == '+' {
                if promoted {
                    return Err(SfenError::BadPromotion);
                }
                promoted = true;
            } else if let Some(base) = Role::from_letter(c) {
                if column >= size {
                    return Err(SfenError::WrongRankLength { rank });
                }
                let role = if promoted { base.promoted().ok_or(SfenError::BadPromotion)? } else { base };
                promoted = false;
                let color = if c.is_ascii_uppercase() { Color::First } else { Color::Second };
                let sq = Square::new(size - column, rank).ok_or(SfenError::WrongRankLength { rank })?;
                setup.board[sq.index()] = Some(Piece { color, role });
                column += 1;
            } else {
                return Err(SfenError::BadBoardChar(c));
            }
        }
        if promoted {
            return Err(SfenError::BadPromotion);
        }
        if column != size {
            return Err(SfenError::WrongRankLength { rank });
        }
    }
    setup.turn = match fields.next() {
        None | Some("b") => Color::First,
        Some("w") => Color::Second,
        Some(_) => return Err(SfenError::BadTurn),
    };
    if let Some(hand) = fields.next() {
        setup.hands = parse_hands(hand)?;
    }
    if let Some(number) = fields.next() {
        setup.move_number = match number.parse::<u32>() {
            Ok(n) if n > 0 => n,
            _ => return Err(SfenError::BadMoveNumber),
        };
    }
    if fields.next().is_some() {
        return Err(SfenError::TrailingText);
    }
    Ok(setup)
}

fn parse_hands(text: &str) -> Result<[Hand; 2], SfenError> {
    let mut hands = [Hand::new(); 2];
    if text == "-" {
        return Ok(hands);
    }
    let mut count: Option<u32> = None;
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = count.unwrap_or(0).saturating_mul(10).saturating_add(d);
            if n > 99 {
                return Err(SfenError::BadHand);
            }
            count = Some(n);
        } else {
            let role = Role::from_letter(c).filter(|r| r.is_hand_role()).ok_or(SfenError::BadHand)?;
            let color = if c.is_ascii_uppercase() { Color::First } else { Color::Second };
            let n = count.take().unwrap_or(1);
            if n == 0 {
                return Err(SfenError::BadHand);
            }
            let hand = &mut hands[color.index()];
            let total = u32::from(hand.count(role)) + n;
            hand.set(role, u8::try_from(total).map_err(|_| SfenError::BadHand)?);
        }
    }
    if count.is_some() {
        return Err(SfenError::BadHand);
    }
    Ok(hands)
}

/// Reads and validates an SFEN (see [`parse_setup`]).
///
/// # Errors
///
/// An [`SfenError`]; [`SfenError::Position`] when it reads but is not legal.
pub fn parse(text: &str, variant: Option<Variant>) -> Result<Position, SfenError> {
    Ok(Position::from_setup(parse_setup(text, variant)?)?)
}

/// Writes a setup as SFEN.
pub fn write_setup(setup: &Setup) -> String {
    let size = setup.variant.size();
    let mut out = String::with_capacity(96);
    for rank in 1..=size {
        if rank > 1 {
            out.push('/');
        }
        let mut empty = 0;
        for file in (1..=size).rev() {
            let piece = Square::new(file, rank).and_then(|sq| setup.board[sq.index()]);
            match piece {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    if p.role.is_promoted() {
                        out.push('+');
                    }
                    out.push(piece_char(p));
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out.push_str(if setup.turn == Color::First { " b " } else { " w " });
    let mut hand = String::new();
    for color in Color::ALL {
        for (role, n) in setup.hands[color.index()].iter() {
            if n > 1 {
                hand.push_str(&n.to_string());
            }
            hand.push(piece_char(Piece { color, role }));
        }
    }
    if hand.is_empty() {
        hand.push('-');
    }
    out.push_str(&hand);
    out.push(' ');
    out.push_str(&setup.move_number.to_string());
    out
}

/// Writes a position as SFEN.
pub fn write(pos: &Position) -> String {
    write_setup(&pos.to_setup())
}

impl std::str::FromStr for Setup {
    type Err = SfenError;

    /// Reads an SFEN, inferring the variant from the board size (see [`parse_setup`]).
    fn from_str(text: &str) -> Result<Setup, SfenError> {
        parse_setup(text, None)
    }
}

impl fmt::Display for Setup {
    /// Writes the setup as SFEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_setup(self))
    }
}

impl fmt::Display for Position {
    /// Writes the position as SFEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write(self))
    }
}

fn piece_char(p: Piece) -> char {
    let c = p.role.letter();
    if p.color == Color::First {
        c
    } else {
        c.to_ascii_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_round_trip() {
        for (variant, sfen) in [
            (Variant::Standard, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
            (Variant::Mini, "rbsgk/4p/5/P4/KGSBR b - 1"),
        ] {
            assert_eq!(write(&Position::startpos(variant)), sfen);
            assert_eq!(parse(sfen, None).unwrap(), Position::startpos(variant));
        }
    }

    #[test]
    fn setups_parse_and_display_as_sfen() {
        let setup: Setup = "rbsgk/4p/5/P4/KGSBR b - 1".parse().unwrap();
        assert_eq!(setup.variant, Variant::Mini);
        assert_eq!(setup.to_string(), "rbsgk/4p/5/P4/KGSBR b - 1");
        assert_eq!(Position::startpos(Variant::Mini).to_string(), "rbsgk/4p/5/P4/KGSBR b - 1");
    }

    #[test]
    fn hands_and_promoted_pieces_round_trip() {
        let sfen = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
        assert_eq!(write(&parse(sfen, None).unwrap()), sfen);
    }

    #[test]
    fn bad_sfens_have_typed_errors() {
        assert_eq!(parse("", None), Err(SfenError::Empty));
        assert_eq!(parse("rbsgk/4p/5/P4 b - 1", None), Err(SfenError::WrongBoardSize));
        assert_eq!(parse("rbsgk/4p/6/P4/KGSBR b - 1", None), Err(SfenError::WrongRankLength { rank: 3 }));
        assert_eq!(parse("rbsgk/4p/5/P4/KGSBR x - 1", None), Err(SfenError::BadTurn));
        assert_eq!(parse("rbsgk/4p/5/P4/KGSB+G b - 1", None), Err(SfenError::BadPromotion));
        assert_eq!(parse("rbsgk/4p/5/P4/KGSBR b 3 1", None), Err(SfenError::BadHand));
        assert_eq!(
            parse("rbsgk/4p/5/P4/KGSB1 b N 1", None),
            Err(SfenError::Position(PositionError::RoleNotInVariant(Role::Knight)))
        );
        assert_eq!(
            parse("rbsgk/4p/5/P4/KGSBR b 0P 1", None),
            Err(SfenError::BadHand),
            "a zero count is not a count"
        );
    }
}
