//! WXF notation (`xiangqi.md` "Notation"): `C2=5`, `h8+7`, `R1+4`, `C+-1`, `+P+1`, `P++1`.
//!
//! Piece letters K A E R H C P, also G (advisor), M and B (elephant), N (horse), in
//! either case; the file 1..9 from the mover's right, or the place among like pieces on
//! one file (`+` front, `-` rear, `=` middle of three, `A`..`E` for four or five
//! soldiers, before or after the letter; followed by the file number when several files
//! hold such groups, e.g. `P+5+1`); the direction `+`, `-`, `=` (or `.`); then
//! the ranks moved or the destination file. Full-width characters are read through
//! Unicode NFKC; a trailing check mark `+` and annotations `!?#` are ignored.

use unicode_normalization::UnicodeNormalization;

use super::descriptive::{ascii_digit, describe, find, Descriptive, Direction, Place, Selector};
use super::NotationError;
use crate::notation::record::strip_annotation;
use crate::xiangqi::{Move, Position, Role};
use crate::Color;

fn role_of(c: char) -> Option<Role> {
    Some(match c.to_ascii_uppercase() {
        'K' => Role::King,
        'A' | 'G' => Role::Advisor,
        'E' | 'M' | 'B' => Role::Elephant,
        'H' | 'N' => Role::Horse,
        'R' => Role::Chariot,
        'C' => Role::Cannon,
        'P' => Role::Soldier,
        _ => return None,
    })
}

fn letter_of(role: Role) -> char {
    match role {
        Role::King => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Chariot => 'R',
        Role::Cannon => 'C',
        Role::Soldier => 'P',
    }
}

fn place_of_sign(c: char) -> Option<Place> {
    match c {
        '+' => Some(Place::Front),
        '-' => Some(Place::Rear),
        '=' => Some(Place::Middle),
        _ => None,
    }
}

fn nth_of_letter(c: char) -> Option<Place> {
    match c.to_ascii_uppercase() {
        l @ 'A'..='E' => Some(Place::Nth(l as u8 - b'A')),
        _ => None,
    }
}

fn direction_of(c: char) -> Option<Direction> {
    match c {
        '+' => Some(Direction::Forward),
        '-' => Some(Direction::Backward),
        '=' | '.' => Some(Direction::Sideways),
        _ => None,
    }
}

/// Reads the structure of a WXF token (no position needed).
fn read(text: &str) -> Option<Descriptive> {
    let chars: Vec<char> = text.chars().collect();
    let mut cs = &chars[..];
    let mut prefix = None;
    if cs.len() >= 4 && role_of(cs[1]).is_some() {
        if let Some(place) = place_of_sign(cs[0]) {
            prefix = Some(place);
        } else if role_of(cs[1]) == Some(Role::Soldier) && role_of(cs[0]) != Some(Role::Soldier) {
            prefix = nth_of_letter(cs[0]);
        }
        if prefix.is_some() {
            cs = &cs[1..];
        }
    }
    let role = role_of(*cs.first()?)?;
    let body = &cs[1..];
    let (selector, rest) = match (prefix, body.len()) {
        (Some(place), 2) => (Selector::Place(place, None), body),
        (Some(place), 3) => (Selector::Place(place, Some(ascii_digit(body[0])?)), &body[1..]),
        (None, 3) => {
            let sel = if let Some(n) = ascii_digit(body[0]) {
                Selector::File(n)
            } else if let Some(place) = place_of_sign(body[0]) {
                Selector::Place(place, None)
            } else if role == Role::Soldier {
                Selector::Place(nth_of_letter(body[0])?, None)
            } else {
                return None;
            };
            (sel, &body[1..])
        }
        (None, 4) => {
            let place = place_of_sign(body[0]).or(if role == Role::Soldier {
                nth_of_letter(body[0])
            } else {
                None
            })?;
            (Selector::Place(place, Some(ascii_digit(body[1])?)), &body[2..])
        }
        _ => return None,
    };
    let direction = direction_of(rest[0])?;
    let number = ascii_digit(rest[1])?;
    Some(Descriptive { role, selector, direction, number })
}

/// Reads a WXF move legal in `pos`.
///
/// # Errors
///
/// [`NotationError::Unreadable`] if the text is not WXF, [`NotationError::Illegal`] if no
/// legal move fits, [`NotationError::Ambiguous`] if several do.
pub fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let normalized: String = text.nfkc().collect();
    let token = strip_annotation(normalized.trim());
    let d = read(token)
        .or_else(|| token.strip_suffix('+').and_then(|t| read(strip_annotation(t))))
        .ok_or(NotationError::Unreadable)?;
    find(pos, &d)
}

/// Writes a legal move in WXF: upper case for Red, lower case for Black.
pub fn write(pos: &Position, m: Move) -> String {
    let d = describe(pos, m);
    let red = pos.turn() == Color::First;
    let case = |c: char| if red { c } else { c.to_ascii_lowercase() };
    let mut out = String::with_capacity(5);
    out.push(case(letter_of(d.role)));
    match d.selector {
        Selector::File(n) => out.push(char::from(b'0' + n)),
        Selector::Place(place, file) => {
            out.push(match place {
                Place::Front => '+',
                Place::Rear => '-',
                Place::Middle => '=',
                Place::Nth(i) => case(char::from(b'A' + i)),
            });
            if let Some(n) = file {
                out.push(char::from(b'0' + n));
            }
        }
    }
    out.push(match d.direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '=',
    });
    out.push(char::from(b'0' + d.number));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::xiangqi::{fen, iccs};

    fn check(fen_text: &str, wxf: &str, iccs_text: &str) {
        let pos = fen::parse(fen_text).unwrap();
        let m = iccs::parse(&pos, iccs_text).unwrap();
        assert_eq!(parse(&pos, wxf), Ok(m), "{wxf} in {fen_text}");
    }

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn reads_the_examples_of_the_rules() {
        check(START, "C2=5", "h2e2");
        check(START, "C2.5", "h2e2");
        check(START, "c2=5", "h2e2");
        check(START, "R1+2", "i0i2");
        check(START, "H2+3", "h0g2");
        check(START, "N2+3", "h0g2");
        check(START, "E3+5", "g0e2");
        check(START, "B3+5", "g0e2");
        check(START, "M7+5", "c0e2");
        check(START, "A4+5", "f0e1");
        check(START, "G6+5", "d0e1");
        check(START, "P7+1", "c3c4");
        check(START, "Ｃ２＝５", "h2e2");
        check(START, "C2=5+", "h2e2");
        check(START, "C2=5!?", "h2e2");
        let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKAB1R b - - 0 1";
        check(black, "h8+7", "h9g7");
        check(black, "c8=5", "h7e7");
        check(black, "c2=5", "b7e7");
    }

    #[test]
    fn reads_tandem_pieces() {
        // Two red cannons on file e (file 5 for Red), two chariots on file a (9).
        let fen_text = "3k5/9/9/9/9/4C4/9/4C4/R8/R4K3 w";
        check(fen_text, "C+=4", "e4f4");
        check(fen_text, "C-=4", "e2f2");
        check(fen_text, "+C=4", "e4f4");
        check(fen_text, "R+=8", "a1b1");
        check(fen_text, "R-=8", "a0b0");
    }

    #[test]
    fn reads_three_and_more_soldiers_on_a_file() {
        // Three red soldiers on file e beyond the river.
        let fen_text = "3k5/4P4/4P4/4P4/9/9/9/9/9/5K3 w";
        check(fen_text, "P+=4", "e8f8");
        check(fen_text, "P==4", "e7f7");
        check(fen_text, "P-=4", "e6f6");
        check(fen_text, "P++1", "e8e9");
        check(fen_text, "+P+1", "e8e9");
        let five = "3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/5K3 w";
        check(five, "PA+1", "e8e9");
        check(five, "PC=6", "e6d6");
        check(five, "DP=4", "e5f5");
    }

    #[test]
    fn distinguishes_unreadable_illegal_and_ambiguous() {
        let pos = Position::new();
        assert_eq!(parse(&pos, "X2=5"), Err(NotationError::Unreadable));
        assert_eq!(parse(&pos, "C2=0"), Err(NotationError::Unreadable));
        assert_eq!(parse(&pos, ""), Err(NotationError::Unreadable));
        assert_eq!(parse(&pos, "C2=6"), Ok(iccs::parse(&pos, "h2d2").unwrap()));
        assert_eq!(parse(&pos, "C2+9"), Err(NotationError::Illegal(None)));
        assert_eq!(parse(&pos, "H2=3"), Err(NotationError::Illegal(None)));
        // Two files of tandem soldiers: the place alone is ambiguous without the file number.
        let pos = fen::parse("3k5/9/P3P4/P3P4/9/9/9/9/9/5K3 w").unwrap();
        assert_eq!(parse(&pos, "P++1"), Err(NotationError::Ambiguous));
        assert_eq!(parse(&pos, "P+5+1"), Ok(iccs::parse(&pos, "e7e8").unwrap()));
        assert_eq!(write(&pos, iccs::parse(&pos, "e7e8").unwrap()), "P+5+1");
    }

    #[test]
    fn writes_standard_forms() {
        let pos = Position::new();
        let w = |t: &str| write(&pos, iccs::parse(&pos, t).unwrap());
        assert_eq!(w("h2e2"), "C2=5");
        assert_eq!(w("h0g2"), "H2+3");
        assert_eq!(w("i0i2"), "R1+2");
        let first = iccs::parse(&pos, "h2e2").unwrap();
        let pos = pos.play(first).unwrap();
        assert_eq!(write(&pos, iccs::parse(&pos, "h9g7").unwrap()), "h8+7");
        let tandem = fen::parse("3k5/9/9/9/9/4C4/9/4C4/R8/R4K3 w").unwrap();
        assert_eq!(write(&tandem, iccs::parse(&tandem, "e4f4").unwrap()), "C+=4");
        assert_eq!(write(&tandem, iccs::parse(&tandem, "a0b0").unwrap()), "R-=8");
    }
}
