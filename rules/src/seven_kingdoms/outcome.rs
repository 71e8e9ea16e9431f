//! The end of the game and the result of every seat.

use std::fmt;

use super::{Kingdom, Position, Seat};

/// How a player became hegemon (`seven-kingdoms.md` "Defeat of a kingdom and victory").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HegemonyKind {
    /// The player's kingdoms captured two generals.
    TwoGenerals,
    /// The player's kingdoms captured thirty pieces in all.
    ThirtyPieces,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndCause {
    /// A player became hegemon.
    Hegemony {
        /// The hegemon.
        seat: Seat,
        /// By generals or by pieces.
        kind: HegemonyKind,
    },
    /// Only one alliance (the kingdoms of one player) remains in play.
    LastAlliance {
        /// The player still in play.
        seat: Seat,
    },
    /// No kingdom in play has a legal move. Interpretation (ours): the rules do not foresee
    /// it; the game ends and is ranked by captures like any other end.
    NoLegalMoves,
}

impl EndCause {
    /// A kebab-case name for storage and the API: `hegemony-generals`, `hegemony-pieces`,
    /// `last-alliance`, `no-legal-moves`.
    pub const fn as_str(&self) -> &'static str {
        match self {
            EndCause::Hegemony { kind: HegemonyKind::TwoGenerals, .. } => "hegemony-generals",
            EndCause::Hegemony { kind: HegemonyKind::ThirtyPieces, .. } => "hegemony-pieces",
            EndCause::LastAlliance { .. } => "last-alliance",
            EndCause::NoLegalMoves => "no-legal-moves",
        }
    }
}

impl fmt::Display for EndCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One seat's standing: scores, place, whether it won.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SeatStanding {
    /// The player.
    pub seat: Seat,
    /// The kingdoms the player commands, in turn order.
    pub kingdoms: Vec<Kingdom>,
    /// Pieces captured by the player's kingdoms (the primary score).
    pub captured_pieces: u32,
    /// Generals among them.
    pub captured_generals: u32,
    /// The historical value of the pieces captured (the secondary score, shown only).
    pub value_score: u32,
    /// Whether the player is hegemon.
    pub hegemon: bool,
    /// Whether all of the player's kingdoms are out of the game.
    pub out: bool,
    /// 1 for the winners; equal places share.
    pub place: u8,
    /// Whether the player won (alone or shared).
    pub winner: bool,
}

/// The result of a finished game: why it ended and every seat's standing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameOutcome {
    /// Why the game ended.
    pub cause: EndCause,
    /// Every seat, best first (by place, then value score, then seat number).
    pub standings: Vec<SeatStanding>,
}

impl GameOutcome {
    pub(crate) fn new(cause: EndCause, pos: &Position) -> GameOutcome {
        GameOutcome { cause, standings: standings(pos) }
    }

    /// The winning seats (more than one when they share the win).
    pub fn winners(&self) -> impl Iterator<Item = Seat> + '_ {
        self.standings.iter().filter(|s| s.winner).map(|s| s.seat)
    }

    /// The standing of `seat`, if it is in the game.
    pub fn standing(&self, seat: Seat) -> Option<&SeatStanding> {
        self.standings.iter().find(|s| s.seat == seat)
    }
}

/// Every seat's standing in `pos`, best first.
///
/// `seven-kingdoms.md` "Defeat of a kingdom and victory": the winner is the hegemon, or else
/// the player who captured the most pieces; equal counts share the win; the historical values
/// are shown as a secondary score. Interpretation (ours): places follow the same key down the
/// table (hegemon first, then pieces captured), equal keys share a place, and the value score
/// only orders the listing within a shared place, without separating it. A player whose
/// kingdoms are all out keeps the captures they made and is ranked by them.
pub fn standings(pos: &Position) -> Vec<SeatStanding> {
    let seating = pos.seating();
    let mut rows: Vec<SeatStanding> = seating
        .seats()
        .map(|seat| {
            let (captured_pieces, captured_generals, value_score) = pos.seat_totals(seat);
            SeatStanding {
                seat,
                kingdoms: seating.kingdoms_of(seat).collect(),
                captured_pieces,
                captured_generals,
                value_score,
                hegemon: pos.hegemony(seat).is_some(),
                out: pos.is_seat_out(seat),
                place: 0,
                winner: false,
            }
        })
        .collect();
    let keys: Vec<(bool, u32)> = rows.iter().map(|r| (r.hegemon, r.captured_pieces)).collect();
    for (row, key) in rows.iter_mut().zip(&keys) {
        let better = keys.iter().filter(|other| *other > key).count();
        row.place = u8::try_from(better + 1).unwrap_or(u8::MAX);
        row.winner = row.place == 1;
    }
    rows.sort_by(|a, b| {
        a.place.cmp(&b.place).then(b.value_score.cmp(&a.value_score)).then(a.seat.cmp(&b.seat))
    });
    rows
}
