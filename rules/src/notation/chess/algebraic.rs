//! Algebraic notation of Flickering chess series (flickering-chess.md "Notation").
//!
//! A move is written as in orthodox short algebraic notation (`e4`, `Nf3`, `Bb5+`,
//! `O-O`, `e8=Q`), with `:` for captures (`Nf3:e5`... is `N:e5`; `x` and `×` are read
//! too). A series is its moves separated by commas, in the order played, labelled `a)`
//! for White and `b)` for Black (Russian `а)`, `б)` are read, and written on request):
//! `a) e4, Nf3, d4`.
//!
//! Moves are resolved against the legal next moves of the series, so disambiguation
//! (`Nbd2`, `R1e2`) and the `+` sign are judged on the board as it stands at that point
//! of the series. Reading is lenient: check and mate signs, `!`/`?`, a missing or wrong
//! capture sign, `e.p.`, long forms (`Ng1-f3`, `e2-e4`) and `0-0` are accepted.

use crate::chess::{Move, MoveKind, Position, Role, Series, Square};
use crate::Color;

use super::NotationError;

/// How to write captures and labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// The capture sign: `':'` (the default, as in the rules) or `'x'`.
    pub capture: char,
    /// Write the labels in Russian (`а)`, `б)`) instead of `a)`, `b)`.
    pub cyrillic_labels: bool,
}

impl Default for Style {
    fn default() -> Style {
        Style { capture: ':', cyrillic_labels: false }
    }
}

/// The label of `player`'s series: `a` for White, `b` for Black (`а`, `б` in Russian).
pub fn label(player: Color, cyrillic: bool) -> char {
    match (player, cyrillic) {
        (Color::First, false) => 'a',
        (Color::Second, false) => 'b',
        (Color::First, true) => 'а',
        (Color::Second, true) => 'б',
    }
}

/// The player a label names, if it is one (`a`, `b`, `а`, `б`).
pub fn player_of_label(c: char) -> Option<Color> {
    match c {
        'a' | 'а' | 'A' | 'А' => Some(Color::First),
        'b' | 'б' | 'B' | 'Б' => Some(Color::Second),
        _ => None,
    }
}

struct Parsed {
    castle: Option<bool>, // Some(true) = king side
    role: Role,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
    promotion: Option<Role>,
}

fn parse_text(text: &str) -> Option<Parsed> {
    let mut t: String = text.trim().to_owned();
    for suffix in ["e.p.", "ep"] {
        if let Some(stripped) = t.strip_suffix(suffix) {
            t = stripped.trim_end().to_owned();
        }
    }
    let t = t.trim_end_matches(['+', '#', '!', '?']);
    let castle_text: String = t.chars().map(|c| if c == '0' { 'O' } else { c }).collect();
    match castle_text.as_str() {
        "O-O" => {
            return Some(Parsed {
                castle: Some(true),
                role: Role::King,
                from_file: None,
                from_rank: None,
                to: Square::new(6, 0)?,
                promotion: None,
            })
        }
        "O-O-O" => {
            return Some(Parsed {
                castle: Some(false),
                role: Role::King,
                from_file: None,
                from_rank: None,
                to: Square::new(2, 0)?,
                promotion: None,
            })
        }
        _ => {}
    }
    let mut chars: Vec<char> = t.chars().filter(|c| !matches!(c, 'x' | ':' | '×' | '-')).collect();
    // Promotion: `e8=Q`, `e8Q`, `e8(Q)`.
    let mut promotion = None;
    if chars.last() == Some(&')') {
        chars.pop();
        let r = chars.pop()?;
        if chars.pop() != Some('(') {
            return None;
        }
        promotion = Some(Role::from_char(r)?);
    } else if let Some(&last) = chars.last() {
        if last.is_ascii_uppercase() {
            chars.pop();
            if chars.last() == Some(&'=') {
                chars.pop();
            }
            promotion = Some(Role::from_char(last)?);
        }
    }
    if promotion == Some(Role::King) || promotion == Some(Role::Pawn) {
        return None;
    }
    if chars.len() < 2 {
        return None;
    }
    let dest: String = chars[chars.len() - 2..].iter().collect();
    let to: Square = dest.parse().ok()?;
    let mut rest = &chars[..chars.len() - 2];
    let mut role = Role::Pawn;
    if let Some(&c) = rest.first() {
        if c.is_ascii_uppercase() {
            role = Role::from_char(c)?;
            rest = &rest[1..];
        }
    }
    let mut from_file = None;
    let mut from_rank = None;
    for &c in rest {
        match c {
            'a'..='h' if from_file.is_none() && from_rank.is_none() => from_file = Some(c as u8 - b'a'),
            '1'..='8' if from_rank.is_none() => from_rank = Some(c as u8 - b'1'),
            _ => return None,
        }
    }
    Some(Parsed { castle: None, role, from_file, from_rank, to, promotion })
}

/// Reads one move as the next move of `series`.
///
/// # Errors
///
/// [`NotationError::Unreadable`] for a text that is no move, [`NotationError::Ambiguous`]
/// when several legal moves fit, [`NotationError::Series`] with the reason when the move
/// reads as one a piece could make but the series forbids it (the piece already moved,
/// the king would move into check, the move would capture the king), and
/// [`NotationError::Illegal`] otherwise.
pub fn parse_move(series: &Series, text: &str) -> Result<Move, NotationError> {
    let parsed = parse_text(text).ok_or_else(|| NotationError::Unreadable(text.to_owned()))?;
    let pos = series.current();
    let fits = |m: &Move| -> bool {
        let Some(piece) = pos.piece_at(m.from) else { return false };
        if piece.color != series.player() {
            return false;
        }
        if let Some(king_side) = parsed.castle {
            return m.kind == MoveKind::Castle && (m.to.file() == 6) == king_side;
        }
        piece.role == parsed.role
            && m.kind != MoveKind::Castle
            && m.to == parsed.to
            && m.promotion() == parsed.promotion
            && parsed.from_file.is_none_or(|f| m.from.file() == f)
            && parsed.from_rank.is_none_or(|r| m.from.rank() == r)
    };
    let legal: Vec<Move> = series.legal_next_moves().into_iter().filter(|m| fits(m)).collect();
    match legal.as_slice() {
        [m] => return Ok(*m),
        [_, _, ..] => return Err(NotationError::Ambiguous(text.to_owned())),
        [] => {}
    }
    // Not legal now: find out why, for a precise message.
    let index = series.moves().len();
    let enemy_king = pos.king(!series.player());
    if parsed.castle.is_none() && parsed.to == enemy_king {
        let kind = crate::chess::SeriesErrorKind::CapturesKing;
        return Err(NotationError::Series(crate::chess::SeriesError { kind, index }));
    }
    let candidates: Vec<Move> =
        series.moves_ignoring_series_limits().into_iter().filter(|m| fits(m)).collect();
    if let [m] = candidates.as_slice() {
        if let Err(e) = series.clone().push(*m) {
            return Err(NotationError::Series(e));
        }
    }
    Err(NotationError::Illegal(text.to_owned()))
}

/// Writes `m`, the next move of `series`, in algebraic notation.
///
/// Returns `None` if `m` is not a legal next move.
pub fn write_move(series: &Series, m: Move, style: Style) -> Option<String> {
    let legal = series.legal_next_moves();
    if !legal.contains(&m) {
        return None;
    }
    let pos = series.current();
    let piece = pos.piece_at(m.from)?;
    let mut out = String::with_capacity(8);
    if m.kind == MoveKind::Castle {
        out.push_str(if m.to.file() == 6 { "O-O" } else { "O-O-O" });
    } else {
        let capture = series.is_capture(m);
        if piece.role == Role::Pawn {
            if capture {
                out.push(m.from.file_char());
                out.push(style.capture);
            }
        } else {
            out.push(piece.role.upper_char());
            let rivals: Vec<&Move> = legal
                .iter()
                .filter(|o| o.from != m.from && o.to == m.to && pos.piece_at(o.from) == Some(piece))
                .collect();
            if !rivals.is_empty() {
                if rivals.iter().all(|o| o.from.file() != m.from.file()) {
                    out.push(m.from.file_char());
                } else if rivals.iter().all(|o| o.from.rank() != m.from.rank()) {
                    out.push(m.from.rank_char());
                } else {
                    out.push_str(&m.from.to_string());
                }
            }
            if capture {
                out.push(style.capture);
            }
        }
        out.push_str(&m.to.to_string());
        if let Some(role) = m.promotion() {
            out.push('=');
            out.push(role.upper_char());
        }
    }
    let mut after = series.clone();
    after.push(m).ok()?;
    let enemy = !series.player();
    if after.current().is_attacked(after.current().king(enemy), series.player()) {
        out.push('+');
    }
    Some(out)
}

/// Reads a whole series, optionally labelled (`a) e4, Nf3`), played from `start`.
///
/// Returns the series after its last move; [`Series::finish`] gives the next position.
///
/// # Errors
///
/// [`NotationError::WrongPlayer`] if the label names the player not to move, the first
/// move's error, or [`NotationError::Series`] if the series may not end (no move, or
/// the king left attacked).
pub fn parse_series(start: &Position, text: &str) -> Result<Series, NotationError> {
    let body = strip_label(start.turn(), text)?;
    let mut series = Series::new(start.clone());
    for token in body.split(',') {
        let token = token.trim();
        if token.is_empty() {
            continue;
        }
        let m = parse_move(&series, token)?;
        series.push(m).map_err(NotationError::Series)?;
    }
    series.finish().map_err(NotationError::Series)?;
    Ok(series)
}

/// Removes a leading series label (`a)`, `b)`, `а)`, `б)`, optionally after a move number
/// `12.`), checking that it names the player to move.
fn strip_label(player: Color, text: &str) -> Result<&str, NotationError> {
    let mut t = text.trim_start();
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && t[digits..].starts_with('.') {
        t = t[digits + 1..].trim_start();
    }
    let mut chars = t.chars();
    if let (Some(c), Some(')')) = (chars.next(), chars.next()) {
        let named = player_of_label(c).ok_or_else(|| NotationError::Unreadable(text.to_owned()))?;
        if named != player {
            return Err(NotationError::WrongPlayer(text.to_owned()));
        }
        return Ok(chars.as_str());
    }
    Ok(t)
}

/// Writes a series played from `start`: `a) e4, Nf3, d4`.
///
/// Returns `None` if a move is not legal at its point of the series.
pub fn write_series(start: &Position, moves: &[Move]) -> Option<String> {
    write_series_with(start, moves, Style::default())
}

/// Writes a series played from `start` in the given [`Style`].
///
/// Returns `None` if a move is not legal at its point of the series.
pub fn write_series_with(start: &Position, moves: &[Move], style: Style) -> Option<String> {
    let mut series = Series::new(start.clone());
    let mut out = String::new();
    out.push(label(start.turn(), style.cyrillic_labels));
    out.push_str(") ");
    for (i, &m) in moves.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&write_move(&series, m, style)?);
        series.push(m).ok()?;
    }
    Some(out)
}
