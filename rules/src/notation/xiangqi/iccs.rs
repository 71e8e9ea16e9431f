//! ICCS coordinate notation (`xiangqi.md` "Notation"): `h2e2`, files a..i, ranks 0..9;
//! read case-insensitively and with an optional `-` (`H2-E2`).

use super::{checked, NotationError};
use crate::xiangqi::{Move, Position, Square};

/// Reads the two squares of an ICCS move without checking legality.
///
/// # Errors
///
/// [`NotationError::Unreadable`] if the text is not two squares.
pub fn parse_move(text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    let (a, b) = match text.len() {
        4 if text.is_char_boundary(2) => text.split_at(2),
        5 if text.is_char_boundary(2) && text.is_char_boundary(3) && &text[2..3] == "-" => {
            (&text[..2], &text[3..])
        }
        _ => return Err(NotationError::Unreadable),
    };
    let from: Square = a.parse().map_err(|_| NotationError::Unreadable)?;
    let to: Square = b.parse().map_err(|_| NotationError::Unreadable)?;
    Ok(Move::new(from, to))
}

/// Reads an ICCS move legal in `pos`.
///
/// # Errors
///
/// [`NotationError::Unreadable`] for text that is not two squares,
/// [`NotationError::Illegal`] with the reason for an illegal move.
pub fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    checked(pos, parse_move(text)?)
}

/// Writes `m` in lower-case ICCS (`h2e2`).
pub fn write(_pos: &Position, m: Move) -> String {
    m.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::IllegalMoveKind;

    #[test]
    fn reads_plain_dashed_and_upper_case_moves() {
        let pos = Position::new();
        for text in ["h2e2", "H2E2", "h2-e2", "H2-E2"] {
            assert_eq!(parse(&pos, text).unwrap().to_string(), "h2e2", "{text}");
        }
    }

    #[test]
    fn distinguishes_unreadable_from_illegal() {
        let pos = Position::new();
        assert_eq!(parse(&pos, "h2e"), Err(NotationError::Unreadable));
        assert_eq!(parse(&pos, "z2e2"), Err(NotationError::Unreadable));
        assert_eq!(parse(&pos, "é2e2"), Err(NotationError::Unreadable));
        assert_eq!(parse(&pos, "e5e6"), Err(NotationError::Illegal(Some(IllegalMoveKind::NoPiece))));
        assert_eq!(parse(&pos, "h7h0"), Err(NotationError::Illegal(Some(IllegalMoveKind::WrongColor))));
        assert_eq!(parse(&pos, "b0b4"), Err(NotationError::Illegal(Some(IllegalMoveKind::NotAMove))));
    }
}
