//! Chinese notation (`xiangqi.md` "Notation"): `炮二平五`, `马8进7`, `前车进一`.
//!
//! The piece's character, its file counted from the mover's right (Chinese numerals
//! for Red, Arabic for Black; either is read for both), 进 forward, 退 backward, 平
//! sideways, then the ranks moved or the destination file. Like pieces on one file are
//! told apart by 前 (front), 中 (middle), 后 (rear), and four or five soldiers by
//! 一..五 from the front, before the piece's character, optionally followed by the
//! file. Simplified and traditional characters are read (帥 俥 傌 砲 將 車 馬 包 進 後),
//! full-width digits through Unicode NFKC.

use unicode_normalization::UnicodeNormalization;

use super::descriptive::{ascii_digit, describe, find, Descriptive, Direction, Place, Selector};
use super::NotationError;
use crate::notation::record::strip_check_mark;
use crate::xiangqi::{Move, Position, Role};
use crate::Color;

const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn role_of(c: char) -> Option<Role> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => Role::King,
        '仕' | '士' => Role::Advisor,
        '相' | '象' => Role::Elephant,
        '车' | '車' | '俥' | '伡' => Role::Chariot,
        '马' | '馬' | '傌' | '㐷' => Role::Horse,
        '炮' | '砲' | '包' => Role::Cannon,
        '兵' | '卒' => Role::Soldier,
        _ => return None,
    })
}

fn char_of(role: Role, color: Color) -> char {
    let red = color == Color::First;
    match role {
        Role::King => {
            if red {
                '帅'
            } else {
                '将'
            }
        }
        Role::Advisor => {
            if red {
                '仕'
            } else {
                '士'
            }
        }
        Role::Elephant => {
            if red {
                '相'
            } else {
                '象'
            }
        }
        Role::Chariot => '车',
        Role::Horse => '马',
        Role::Cannon => '炮',
        Role::Soldier => {
            if red {
                '兵'
            } else {
                '卒'
            }
        }
    }
}

fn number_of(c: char) -> Option<u8> {
    NUMERALS.iter().position(|&n| n == c).map(|i| i as u8 + 1).or_else(|| ascii_digit(c))
}

fn direction_of(c: char) -> Option<Direction> {
    match c {
        '进' | '進' => Some(Direction::Forward),
        '退' => Some(Direction::Backward),
        '平' => Some(Direction::Sideways),
        _ => None,
    }
}

fn place_of(c: char) -> Option<Place> {
    match c {
        '前' => Some(Place::Front),
        '中' => Some(Place::Middle),
        '后' | '後' => Some(Place::Rear),
        _ => NUMERALS[..5].iter().position(|&n| n == c).map(|i| Place::Nth(i as u8)),
    }
}

fn read(text: &str) -> Option<Descriptive> {
    let cs: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (role, selector, rest) = match cs.len() {
        4 if role_of(cs[0]).is_some() => (role_of(cs[0])?, Selector::File(number_of(cs[1])?), &cs[2..]),
        4 => (role_of(cs[1])?, Selector::Place(place_of(cs[0])?, None), &cs[2..]),
        5 => (role_of(cs[1])?, Selector::Place(place_of(cs[0])?, Some(number_of(cs[2])?)), &cs[3..]),
        _ => return None,
    };
    if matches!(selector, Selector::Place(Place::Nth(_), _)) && role != Role::Soldier {
        return None;
    }
    Some(Descriptive { role, selector, direction: direction_of(rest[0])?, number: number_of(rest[1])? })
}

/// Reads a move in Chinese notation legal in `pos`.
///
/// # Errors
///
/// [`NotationError::Unreadable`] if the text is not Chinese notation,
/// [`NotationError::Illegal`] if no legal move fits, [`NotationError::Ambiguous`] if
/// several do.
pub fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let normalized: String = text.nfkc().collect();
    let d = read(strip_check_mark(normalized.trim())).ok_or(NotationError::Unreadable)?;
    find(pos, &d)
}

/// Writes a legal move in simplified Chinese notation: Chinese numerals for Red, Arabic
/// for Black.
pub fn write(pos: &Position, m: Move) -> String {
    let d = describe(pos, m);
    let color = pos.turn();
    let number = |n: u8| match color {
        Color::First => NUMERALS[usize::from(n.clamp(1, 9)) - 1],
        Color::Second => char::from(b'0' + n),
    };
    let mut out = String::with_capacity(16);
    let piece = char_of(d.role, color);
    match d.selector {
        Selector::File(n) => {
            out.push(piece);
            out.push(number(n));
        }
        Selector::Place(place, file) => {
            out.push(match place {
                Place::Front => '前',
                Place::Middle => '中',
                Place::Rear => '后',
                Place::Nth(i) => NUMERALS[usize::from(i.min(4))],
            });
            out.push(piece);
            if let Some(n) = file {
                out.push(number(n));
            }
        }
    }
    out.push(match d.direction {
        Direction::Forward => '进',
        Direction::Backward => '退',
        Direction::Sideways => '平',
    });
    out.push(number(d.number));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::xiangqi::{fen, iccs};

    #[test]
    fn reads_and_writes_simplified_and_traditional_forms() {
        let pos = Position::new();
        let m = iccs::parse(&pos, "h2e2").unwrap();
        for text in ["炮二平五", "砲二平五", "炮2平5", "炮２平５"] {
            assert_eq!(parse(&pos, text), Ok(m), "{text}");
        }
        assert_eq!(write(&pos, m), "炮二平五");
        assert_eq!(parse(&pos, "傌二進三"), Ok(iccs::parse(&pos, "h0g2").unwrap()));
        assert_eq!(parse(&pos, "俥一进二"), Ok(iccs::parse(&pos, "i0i2").unwrap()));
        let pos = pos.play(m).unwrap();
        let reply = iccs::parse(&pos, "h9g7").unwrap();
        assert_eq!(write(&pos, reply), "马8进7");
        assert_eq!(parse(&pos, "馬8進7"), Ok(reply));
        assert_eq!(parse(&pos, "包8平5"), Ok(iccs::parse(&pos, "h7e7").unwrap()));
    }

    #[test]
    fn reads_and_writes_tandem_pieces() {
        let pos = fen::parse("3k5/9/9/9/9/4C4/9/4C4/R8/R4K3 w").unwrap();
        let front = iccs::parse(&pos, "e4f4").unwrap();
        assert_eq!(parse(&pos, "前炮平四"), Ok(front));
        assert_eq!(write(&pos, front), "前炮平四");
        assert_eq!(parse(&pos, "後車平八"), Ok(iccs::parse(&pos, "a0b0").unwrap()));
        let five = fen::parse("3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/5K3 w").unwrap();
        let second = iccs::parse(&five, "e7f7").unwrap();
        assert_eq!(parse(&five, "二兵平四"), Ok(second));
        assert_eq!(write(&five, second), "二兵平四");
    }

    #[test]
    fn distinguishes_unreadable_and_illegal() {
        let pos = Position::new();
        assert_eq!(parse(&pos, "炮二平"), Err(NotationError::Unreadable));
        assert_eq!(parse(&pos, "龙二平五"), Err(NotationError::Unreadable));
        assert_eq!(parse(&pos, "二炮平五"), Err(NotationError::Unreadable));
        assert_eq!(parse(&pos, "炮二进九"), Err(NotationError::Illegal(None)));
    }
}
