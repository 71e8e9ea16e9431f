//! The descriptive move model shared by WXF and Chinese notation (`xiangqi.md`
//! "Notation"): a piece named by its file (counted 1..9 from the mover's right) or by
//! its place among like pieces on one file, a direction, and a number that is either
//! the ranks moved or the destination file.

use super::{resolve, NotationError};
use crate::xiangqi::{Move, Position, Role, Square};
use crate::Color;

/// Direction relative to the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Towards the enemy (`+`, 进).
    Forward,
    /// Towards one's own side (`-`, 退).
    Backward,
    /// Along the rank (`=` or `.`, 平).
    Sideways,
}

/// Which of several like pieces on one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// The front one (`+`, 前).
    Front,
    /// The middle one of three (`=`, 中).
    Middle,
    /// The rear one (`-`, 后).
    Rear,
    /// The n-th from the front, 0-based (soldiers: `A`..`E`, 一..五).
    Nth(u8),
}

/// How the moving piece is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Selector {
    /// By its file number, 1..9 from the mover's right.
    File(u8),
    /// By its place on a file shared with like pieces, optionally with the file number
    /// (needed when several files hold such groups, e.g. soldiers).
    Place(Place, Option<u8>),
}

/// A move in descriptive form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Descriptive {
    pub role: Role,
    pub selector: Selector,
    pub direction: Direction,
    /// Ranks moved (straight forward/backward for king, chariot, cannon, soldier) or
    /// the destination file number (sideways moves; advisor, elephant, horse).
    pub number: u8,
}

/// The file number 1..9 of a 0-based file, from `color`'s right.
pub(crate) fn file_number(color: Color, file: u8) -> u8 {
    match color {
        Color::First => 9 - file,
        Color::Second => file + 1,
    }
}

/// Ranks gained towards the enemy.
fn forward_delta(color: Color, from: Square, to: Square) -> i32 {
    let d = i32::from(to.rank()) - i32::from(from.rank());
    match color {
        Color::First => d,
        Color::Second => -d,
    }
}

/// Whether the role moves along lines (its number counts ranks when moving straight).
fn moves_straight(role: Role) -> bool {
    matches!(role, Role::King | Role::Chariot | Role::Cannon | Role::Soldier)
}

/// The like pieces on `sq`'s file, front first, and the index of `sq` among them.
fn column(pos: &Position, sq: Square) -> (usize, usize) {
    let Some(piece) = pos.piece_at(sq) else { return (0, 0) };
    let mut ranks: Vec<u8> =
        (0..10).filter(|&r| Square::new(sq.file(), r).and_then(|s| pos.piece_at(s)) == Some(piece)).collect();
    if piece.color == Color::First {
        ranks.reverse();
    }
    let idx = ranks.iter().position(|&r| r == sq.rank()).unwrap_or(0);
    (idx, ranks.len())
}

fn matches(pos: &Position, d: &Descriptive, m: Move) -> bool {
    let Some(piece) = pos.piece_at(m.from) else { return false };
    if piece.role != d.role {
        return false;
    }
    let color = piece.color;
    let from_number = file_number(color, m.from.file());
    let selected = match d.selector {
        Selector::File(n) => n == from_number,
        Selector::Place(place, file) => {
            let (idx, count) = column(pos, m.from);
            count >= 2
                && file.is_none_or(|n| n == from_number)
                && match place {
                    Place::Front => idx == 0,
                    Place::Rear => idx + 1 == count,
                    Place::Middle => count == 3 && idx == 1,
                    Place::Nth(n) => usize::from(n) == idx,
                }
        }
    };
    if !selected {
        return false;
    }
    let delta = forward_delta(color, m.from, m.to);
    let to_number = file_number(color, m.to.file());
    match d.direction {
        Direction::Sideways => delta == 0 && to_number == d.number,
        Direction::Forward | Direction::Backward => {
            let sign_ok = if d.direction == Direction::Forward { delta > 0 } else { delta < 0 };
            if !sign_ok {
                return false;
            }
            if moves_straight(d.role) {
                m.from.file() == m.to.file() && delta.unsigned_abs() == u32::from(d.number)
            } else {
                to_number == d.number
            }
        }
    }
}

/// The single legal move fitting `d`.
pub(crate) fn find(pos: &Position, d: &Descriptive) -> Result<Move, NotationError> {
    resolve(pos, |m| matches(pos, d, m))
}

/// Describes a legal move `m` in the shortest unambiguous form: by file number when
/// the piece is alone on its file (or, for advisor and elephant, when that is still
/// unambiguous), else by place, adding the file number when places alone are ambiguous.
pub(crate) fn describe(pos: &Position, m: Move) -> Descriptive {
    let Some(piece) = pos.piece_at(m.from) else {
        return Descriptive {
            role: Role::King,
            selector: Selector::File(1),
            direction: Direction::Sideways,
            number: 1,
        };
    };
    let color = piece.color;
    let delta = forward_delta(color, m.from, m.to);
    let direction = match delta {
        0 => Direction::Sideways,
        d if d > 0 => Direction::Forward,
        _ => Direction::Backward,
    };
    let number = if direction != Direction::Sideways && moves_straight(piece.role) {
        delta.unsigned_abs() as u8
    } else {
        file_number(color, m.to.file())
    };
    let from_number = file_number(color, m.from.file());
    let by_file = Descriptive { role: piece.role, selector: Selector::File(from_number), direction, number };
    let (idx, count) = column(pos, m.from);
    if count < 2 || (matches!(piece.role, Role::Advisor | Role::Elephant) && find(pos, &by_file) == Ok(m)) {
        return by_file;
    }
    let place = match (count, idx) {
        (_, 0) if count <= 3 => Place::Front,
        (3, 1) => Place::Middle,
        (_, i) if count <= 3 && i + 1 == count => Place::Rear,
        (_, i) => Place::Nth(i as u8),
    };
    let by_place = Descriptive { selector: Selector::Place(place, None), ..by_file };
    if find(pos, &by_place) == Ok(m) {
        by_place
    } else {
        Descriptive { selector: Selector::Place(place, Some(from_number)), ..by_file }
    }
}

/// The file number encoded by `c` (`'1'..='9'`), if any.
pub(crate) fn ascii_digit(c: char) -> Option<u8> {
    c.to_digit(10).filter(|d| (1..=9).contains(d)).map(|d| d as u8)
}
