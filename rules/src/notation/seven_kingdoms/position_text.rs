//! The position text: a readable, line-based description of a Seven Kingdoms position.
//!
//! ```text
//! players: 7
//! turn: Qin
//! emperor: j10
//! Qin: 將 a10, 偏 a11, 裨 a9, 行人 e10, 砲 b10, 弓 d10, 弩 c10, 刀 c9, 刀 c11, 劍 a8, ...
//! Chu: 將 f1, ...
//! Han record: captured 2, generals 0, value 3, lost 4
//! Wei record: captured 0, generals 0, value 0, lost 11, defeated pieces-lost by Qin
//! ```
//!
//! One statement per line, in any order; blank lines and lines starting with `#` are ignored.
//!
//! - `players: N` — the standard seating for N players (3..7); or
//!   `seats: Qin+Yan, Chu+Zhao, Han, Qi, Wei` — each seat's kingdoms, seat 0 first.
//!   Default: seven players.
//! - `turn: <kingdom>` — the kingdom to move. Default: Qin.
//! - `horseman: up-to-three-diagonal` — the ruleset option for the horseman (one to three
//!   diagonal steps); absent, or `three-diagonal`, for the rules' reading.
//! - `emperor: <point>` — where the emperor stands (the rules put him at j10 = (9,9)).
//!   Default: j10.
//! - `<kingdom>: <piece> <point>, ...` — the kingdom's pieces. Pieces by Chinese or English
//!   name, points as `a13` or `0,12`; the commas between pairs are optional.
//! - `<kingdom> record: captured N, generals N, value N, lost N[, defeated <how>]` — the
//!   kingdom's tally (all zero when absent). `<how>` is `general-captured by <kingdom>`,
//!   `pieces-lost by <kingdom>`, `ally-attack by <kingdom>`, `resigned` or `timed-out`.
//!
//! [`write()`] gives the canonical text: seating, turn, emperor, then the armies in turn order
//! (pieces in the order of the rules' table, then south-west first), then the non-zero
//! records. `parse(write(p)) == p` for every position.

use std::fmt;

use super::moves::parse_point;
use crate::seven_kingdoms::{
    Defeat, HorsemanRule, Kingdom, KingdomRecord, Occupant, Piece, PieceKind, Point, Position, PositionError,
    Seat, Seating, SeatingError, Setup,
};

/// The canonical text of the seven-player start position.
pub fn start_text() -> String {
    write(&Position::new())
}

/// Why a position text cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionTextError {
    /// A line that is no statement of the format.
    UnreadableLine {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// Two pieces (or the emperor) on one point.
    PointTaken {
        /// 1-based line number.
        line: usize,
        /// The point.
        point: Point,
    },
    /// The seating is not valid.
    Seating(SeatingError),
    /// The position is not valid.
    Position(PositionError),
}

impl fmt::Display for PositionTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionTextError::UnreadableLine { line, text } => {
                write!(f, "line {line}: cannot read {text:?}")
            }
            PositionTextError::PointTaken { line, point } => write!(f, "line {line}: {point} is taken twice"),
            PositionTextError::Seating(e) => e.fmt(f),
            PositionTextError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PositionTextError {}

/// Reads a position text into an unvalidated setup.
///
/// # Errors
///
/// [`PositionTextError`] naming the line that cannot be read.
pub fn parse_setup(text: &str) -> Result<Setup, PositionTextError> {
    let mut setup = Setup::empty();
    setup.set(Point::CENTRE, None);
    let mut emperor_given = false;
    for (number, raw) in text.lines().enumerate() {
        let line_no = number + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let unreadable = || PositionTextError::UnreadableLine { line: line_no, text: line.to_owned() };
        let (head, body) = line.split_once(':').ok_or_else(unreadable)?;
        let head = head.trim();
        let body = body.trim();
        match head {
            "players" => {
                let n: u8 = body.parse().map_err(|_| unreadable())?;
                setup.seating = Seating::standard(n).map_err(PositionTextError::Seating)?;
            }
            "seats" => {
                setup.seating =
                    parse_seats(body).ok_or_else(unreadable)?.map_err(PositionTextError::Seating)?
            }
            "turn" => setup.turn = Kingdom::from_name(body).ok_or_else(unreadable)?,
            "horseman" => setup.horseman = HorsemanRule::from_name(body).ok_or_else(unreadable)?,
            "emperor" => {
                let point = parse_point(body).ok_or_else(unreadable)?;
                if setup.get(point).is_some() {
                    return Err(PositionTextError::PointTaken { line: line_no, point });
                }
                setup.set(point, Some(Occupant::Emperor));
                emperor_given = true;
            }
            _ => {
                if let Some(name) = head.strip_suffix(" record") {
                    let kingdom = Kingdom::from_name(name.trim()).ok_or_else(unreadable)?;
                    setup.records[kingdom.index()] = parse_record(body).ok_or_else(unreadable)?;
                } else {
                    let kingdom = Kingdom::from_name(head).ok_or_else(unreadable)?;
                    // Pairs of words, `<piece> <point>`, commas between pairs optional: a
                    // comma can also be part of an `x,y` point.
                    let mut words = body.split_whitespace().map(|w| w.trim_end_matches(','));
                    while let Some(kind) = words.next() {
                        let kind = PieceKind::from_name(kind).ok_or_else(unreadable)?;
                        let point = words.next().and_then(parse_point).ok_or_else(unreadable)?;
                        if setup.get(point).is_some() {
                            return Err(PositionTextError::PointTaken { line: line_no, point });
                        }
                        setup.set(point, Some(Occupant::Piece(Piece { kingdom, kind })));
                    }
                }
            }
        }
    }
    // Without an `emperor:` line he stands at (9, 9); if a piece took his point, validation
    // reports the missing emperor.
    if !emperor_given && setup.get(Point::CENTRE).is_none() {
        setup.set(Point::CENTRE, Some(Occupant::Emperor));
    }
    Ok(setup)
}

/// Reads and validates a position text.
///
/// # Errors
///
/// [`PositionTextError`] for an unreadable text or an invalid position.
pub fn parse(text: &str) -> Result<Position, PositionTextError> {
    Position::from_setup(parse_setup(text)?).map_err(PositionTextError::Position)
}

fn parse_seats(body: &str) -> Option<Result<Seating, SeatingError>> {
    let mut seat_of = [u8::MAX; 7];
    for (seat, group) in body.split(',').enumerate() {
        for name in group.split('+') {
            let kingdom = Kingdom::from_name(name.trim())?;
            if seat_of[kingdom.index()] != u8::MAX {
                return None;
            }
            seat_of[kingdom.index()] = u8::try_from(seat).ok()?;
        }
    }
    if seat_of.contains(&u8::MAX) {
        return None;
    }
    Some(Seating::custom(seat_of))
}

fn parse_record(body: &str) -> Option<KingdomRecord> {
    let mut record = KingdomRecord::default();
    for item in body.split(',').map(str::trim) {
        let mut words = item.split_whitespace();
        let key = words.next()?;
        let rest: Vec<&str> = words.collect();
        match (key, rest.as_slice()) {
            ("captured", [n]) => record.captured_pieces = n.parse().ok()?,
            ("generals", [n]) => record.captured_generals = n.parse().ok()?,
            ("value", [n]) => record.captured_value = n.parse().ok()?,
            ("lost", [n]) => record.lost = n.parse().ok()?,
            ("defeated", how) => record.defeat = Some(parse_defeat(how)?),
            _ => return None,
        }
    }
    Some(record)
}

fn parse_defeat(words: &[&str]) -> Option<Defeat> {
    let by = |w: &[&str]| match w {
        ["by", k] => Kingdom::from_name(k),
        _ => None,
    };
    match words.split_first()? {
        (&"general-captured", rest) => Some(Defeat::GeneralCaptured { by: by(rest)? }),
        (&"pieces-lost", rest) => Some(Defeat::PiecesLost { by: by(rest)? }),
        (&"ally-attack", rest) => Some(Defeat::AllyAttack { by: by(rest)? }),
        (&"resigned", []) => Some(Defeat::Resigned),
        (&"timed-out", []) => Some(Defeat::TimedOut),
        _ => None,
    }
}

fn write_defeat(defeat: Defeat) -> String {
    match defeat {
        Defeat::GeneralCaptured { by } => format!("general-captured by {by}"),
        Defeat::PiecesLost { by } => format!("pieces-lost by {by}"),
        Defeat::AllyAttack { by } => format!("ally-attack by {by}"),
        Defeat::Resigned => "resigned".to_owned(),
        Defeat::TimedOut => "timed-out".to_owned(),
    }
}

/// The seating line's text: `players: N` for a standard seating, else `seats: Qin+Yan, ...`.
pub fn write_seating(seating: &Seating) -> String {
    if seating.is_standard() {
        return format!("players: {}", seating.players());
    }
    let groups: Vec<String> = seating
        .seats()
        .map(|seat: Seat| seating.kingdoms_of(seat).map(Kingdom::name).collect::<Vec<_>>().join("+"))
        .collect();
    format!("seats: {}", groups.join(", "))
}

/// Writes the canonical text of a position.
pub fn write(pos: &Position) -> String {
    write_setup(&pos.to_setup())
}

/// Writes the canonical text of a setup (valid or not).
pub fn write_setup(setup: &Setup) -> String {
    let mut out = String::new();
    out.push_str(&write_seating(&setup.seating));
    out.push('\n');
    out.push_str(&format!("turn: {}\n", setup.turn));
    if setup.horseman != HorsemanRule::default() {
        out.push_str(&format!("horseman: {}\n", setup.horseman.as_str()));
    }
    for point in Point::all().filter(|&p| setup.get(p) == Some(Occupant::Emperor)) {
        out.push_str(&format!("emperor: {point}\n"));
    }
    for kingdom in Kingdom::ALL {
        let mut items = Vec::new();
        for kind in PieceKind::ALL {
            for point in Point::all() {
                if setup.get(point) == Some(Occupant::Piece(Piece { kingdom, kind })) {
                    items.push(format!("{kind} {point}"));
                }
            }
        }
        if !items.is_empty() {
            out.push_str(&format!("{kingdom}: {}\n", items.join(", ")));
        }
    }
    for kingdom in Kingdom::ALL {
        let r = &setup.records[kingdom.index()];
        if *r == KingdomRecord::default() {
            continue;
        }
        out.push_str(&format!(
            "{kingdom} record: captured {}, generals {}, value {}, lost {}",
            r.captured_pieces, r.captured_generals, r.captured_value, r.lost
        ));
        if let Some(defeat) = r.defeat {
            out.push_str(&format!(", defeated {}", write_defeat(defeat)));
        }
        out.push('\n');
    }
    out
}
