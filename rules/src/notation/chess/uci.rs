//! Coordinate notation (as in UCI): `e2e4`, `e7e8q`, castling as the king's move `e1g1`.
//! The canonical form the server stores; a series is its moves separated by commas
//! (`e2e4,g1f3`).

use crate::chess::{Move, MoveKind, Position, Role, Series, Square};

use super::NotationError;

/// Writes a move: from-square, to-square, promotion letter in lower case.
pub fn write(m: Move) -> String {
    let mut s = format!("{}{}", m.from, m.to);
    if let MoveKind::Promotion(role) = m.kind {
        s.push(role.upper_char().to_ascii_lowercase());
    }
    s
}

/// Reads a move as the next move of `series`.
///
/// # Errors
///
/// [`NotationError::Unreadable`] for a malformed text, [`NotationError::Series`] with the
/// reason when the series forbids the move, [`NotationError::Illegal`] otherwise.
pub fn parse_move(series: &Series, text: &str) -> Result<Move, NotationError> {
    let t = text.trim();
    let unreadable = || NotationError::Unreadable(text.to_owned());
    if !t.is_ascii() || !(4..=5).contains(&t.len()) {
        return Err(unreadable());
    }
    let from: Square = t[0..2].parse().map_err(|_| unreadable())?;
    let to: Square = t[2..4].parse().map_err(|_| unreadable())?;
    let promotion = match t.chars().nth(4) {
        None => None,
        Some(c) => match Role::from_char(c) {
            Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => Some(r),
            _ => return Err(unreadable()),
        },
    };
    let fits = |m: &Move| m.from == from && m.to == to && m.promotion() == promotion;
    if let Some(m) = series.legal_next_moves().into_iter().find(fits) {
        return Ok(m);
    }
    let candidate = series.moves_ignoring_series_limits().into_iter().find(fits);
    let probe = candidate.unwrap_or(Move { from, to, kind: MoveKind::Normal });
    match series.clone().push(probe) {
        Err(e) if e.kind != crate::chess::SeriesErrorKind::NotAMove => Err(NotationError::Series(e)),
        _ => Err(NotationError::Illegal(text.to_owned())),
    }
}

/// Writes a series: moves separated by commas.
pub fn write_series(moves: &[Move]) -> String {
    moves.iter().map(|&m| write(m)).collect::<Vec<_>>().join(",")
}

/// Reads a series of comma- (or space-) separated moves from `start`; the series must be
/// able to end.
///
/// # Errors
///
/// The first move's error, or [`NotationError::Series`] if the series may not end.
pub fn parse_series(start: &Position, text: &str) -> Result<Series, NotationError> {
    let mut series = Series::new(start.clone());
    for token in text.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()) {
        let m = parse_move(&series, token)?;
        series.push(m).map_err(NotationError::Series)?;
    }
    series.finish().map_err(NotationError::Series)?;
    Ok(series)
}
