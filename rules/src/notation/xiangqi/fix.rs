//! Western algebraic notation of the Italian federation (FIX; `xiangqi.md` "Notation"):
//! `Bh3e3`, `Ch10g8`, `Tc10c1+`.
//!
//! Italian piece letters T chariot, C horse, E elephant, M advisor, R king, B cannon,
//! P soldier; origin and destination with files a..i and ranks 1..10 from Red's side.
//! Reading accepts any letter case, a separator `-`, `x` or `:` (capture) between the
//! squares, and a trailing `+` (check) or `#`. The piece letter is required: without it a
//! text such as `a4a5` would also be an ICCS move with ranks counted from 0, and a typo
//! in one notation would become a different move in the other (issue 15 §4). Writing adds
//! `+` when the move gives check.

use unicode_normalization::UnicodeNormalization;

use super::{checked, NotationError};
use crate::notation::record::strip_annotation;
use crate::xiangqi::{Move, Position, Role, Square};

fn role_of(c: char) -> Option<Role> {
    Some(match c.to_ascii_uppercase() {
        'T' => Role::Chariot,
        'C' => Role::Horse,
        'E' => Role::Elephant,
        'M' => Role::Advisor,
        'R' => Role::King,
        'B' => Role::Cannon,
        'P' => Role::Soldier,
        _ => return None,
    })
}

fn letter_of(role: Role) -> char {
    match role {
        Role::Chariot => 'T',
        Role::Horse => 'C',
        Role::Elephant => 'E',
        Role::Advisor => 'M',
        Role::King => 'R',
        Role::Cannon => 'B',
        Role::Soldier => 'P',
    }
}

/// Reads a square with rank 1..10 from the front of `cs`; returns it and the rest.
fn read_square(cs: &[char]) -> Option<(Square, &[char])> {
    let file = match cs.first()?.to_ascii_lowercase() {
        f @ 'a'..='i' => f as u8 - b'a',
        _ => return None,
    };
    let (rank, rest) = match cs.get(1..3) {
        Some(['1', '0']) => (10, &cs[3..]),
        _ => (cs.get(1)?.to_digit(10).filter(|d| *d >= 1)? as u8, &cs[2..]),
    };
    Some((Square::new(file, rank - 1)?, rest))
}

/// Reads the structure of a FIX token: role, origin, target.
fn read(text: &str) -> Option<(Role, Move)> {
    let chars: Vec<char> = text.chars().collect();
    let (&letter, cs) = chars.split_first()?;
    let role = role_of(letter)?;
    let (from, rest) = read_square(cs)?;
    let rest = match rest.first() {
        Some('-' | 'x' | 'X' | ':') => &rest[1..],
        _ => rest,
    };
    let (to, rest) = read_square(rest)?;
    rest.is_empty().then_some((role, Move::new(from, to)))
}

/// Reads a FIX move legal in `pos`.
///
/// # Errors
///
/// [`NotationError::Unreadable`] if the text is not FIX (a piece letter missing included),
/// [`NotationError::Illegal`] if the move is illegal or the piece letter does not match
/// the piece on the origin.
pub fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let normalized: String = text.nfkc().collect();
    let token = strip_annotation(normalized.trim());
    let token = token.strip_suffix('+').map_or(token, strip_annotation);
    let (role, m) = read(token).ok_or(NotationError::Unreadable)?;
    if let Some(piece) = pos.piece_at(m.from) {
        if piece.role != role {
            return Err(NotationError::Illegal(None));
        }
    }
    checked(pos, m)
}

/// Writes a legal move in FIX notation, with `+` if it gives check.
pub fn write(pos: &Position, m: Move) -> String {
    let letter = pos.piece_at(m.from).map_or('?', |p| letter_of(p.role));
    let square = |sq: Square| format!("{}{}", char::from(b'a' + sq.file()), sq.rank() + 1);
    let check = if pos.gives_check(m) { "+" } else { "" };
    format!("{letter}{}{}{check}", square(m.from), square(m.to))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::xiangqi::{fen, iccs};
    use crate::xiangqi::IllegalMoveKind;

    #[test]
    fn reads_and_writes_the_examples_of_the_rules() {
        let pos = Position::new();
        let m = iccs::parse(&pos, "h2e2").unwrap();
        assert_eq!(parse(&pos, "Bh3e3"), Ok(m));
        assert_eq!(parse(&pos, "Bh3-e3"), Ok(m));
        assert_eq!(parse(&pos, "bH3E3!"), Ok(m));
        assert_eq!(write(&pos, m), "Bh3e3");
        let pos = pos.play(m).unwrap();
        let m = iccs::parse(&pos, "h9g7").unwrap();
        assert_eq!(parse(&pos, "Ch10g8"), Ok(m));
        assert_eq!(write(&pos, m), "Ch10g8");
        // A chariot capturing with check.
        let pos = fen::parse("2bakab2/9/9/9/9/9/9/9/9/2RK5 w").unwrap();
        let m = iccs::parse(&pos, "c0c9").unwrap();
        assert_eq!(write(&pos, m), "Tc1c10");
        assert_eq!(parse(&pos, "Tc1xc10"), Ok(m));
    }

    #[test]
    fn distinguishes_unreadable_and_illegal() {
        let pos = Position::new();
        assert_eq!(parse(&pos, "Bh3"), Err(NotationError::Unreadable));
        assert_eq!(parse(&pos, "h3e3"), Err(NotationError::Unreadable), "the piece letter is required");
        assert_eq!(parse(&pos, "h3-e3"), Err(NotationError::Unreadable));
        assert_eq!(parse(&pos, "Bh0e3"), Err(NotationError::Unreadable));
        assert_eq!(parse(&pos, "Bh11e3"), Err(NotationError::Unreadable));
        assert_eq!(parse(&pos, "Xh3e3"), Err(NotationError::Unreadable));
        assert_eq!(parse(&pos, "Th3e3"), Err(NotationError::Illegal(None)));
        assert_eq!(parse(&pos, "Bh3h8"), Err(NotationError::Illegal(Some(IllegalMoveKind::Blocked))));
    }
}
