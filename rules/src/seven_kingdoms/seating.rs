//! Players (seats) and the kingdoms each commands: the alliance table.

use std::fmt;

use super::Kingdom;

/// A player's place in the game, 0-based. Seat 0 commands Qin; seats are numbered in the turn
/// order of the first kingdom each commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat number as an index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// Why a seating cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatingError {
    /// The rules define games of 3 to 7 players only (`seven-kingdoms.md` "Players and
    /// alliances"). Two players are rejected: the rules give no way to split the seven
    /// kingdoms between two players, and we do not invent one.
    UnsupportedPlayerCount(u8),
    /// A kingdom was given a seat number at or beyond the number of players.
    SeatOutOfRange {
        /// The kingdom.
        kingdom: Kingdom,
        /// Its seat number.
        seat: u8,
    },
    /// A seat commands no kingdom.
    EmptySeat(Seat),
    /// Seats must be numbered in the turn order of their first kingdom (Qin's player is seat 0,
    /// the next new player in turn order seat 1, ...).
    SeatsOutOfOrder,
}

impl fmt::Display for SeatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatingError::UnsupportedPlayerCount(n) => {
                write!(f, "the Seven Kingdoms is played by 3 to 7 players, not {n}")
            }
            SeatingError::SeatOutOfRange { kingdom, seat } => {
                write!(f, "{kingdom} is given seat {seat}, beyond the number of players")
            }
            SeatingError::EmptySeat(seat) => write!(f, "{seat} commands no kingdom"),
            SeatingError::SeatsOutOfOrder => {
                f.write_str("seats must be numbered in the turn order of their first kingdom")
            }
        }
    }
}

impl std::error::Error for SeatingError {}

/// Which seat (player) commands each kingdom. The kingdoms of one seat form that player's
/// alliance (`seven-kingdoms.md` "Players and alliances").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seating {
    seat_of: [u8; 7],
    players: u8,
}

impl Seating {
    /// The standard seating for `players` players (3 to 7), `seven-kingdoms.md`
    /// "Players and alliances".
    ///
    /// **Interpretation (ours)**: the rules say *who* commands an extra kingdom but not
    /// *which*. We take the extra kingdoms from the end of the turn order, the last kingdoms
    /// to be otherwise unplayed: Qin takes Yan (6 players), Chu takes Zhao (5), Qi takes
    /// Wei (4); with 3 players Qin commands two allies, Yan and Han, while Chu keeps Zhao
    /// and Qi keeps Wei (every kingdom is still played):
    ///
    /// | players | seats |
    /// |---|---|
    /// | 7 | Qin · Chu · Han · Qi · Wei · Zhao · Yan |
    /// | 6 | Qin+Yan · Chu · Han · Qi · Wei · Zhao |
    /// | 5 | Qin+Yan · Chu+Zhao · Han · Qi · Wei |
    /// | 4 | Qin+Yan · Chu+Zhao · Han · Qi+Wei |
    /// | 3 | Qin+Han+Yan · Chu+Zhao · Qi+Wei |
    ///
    /// # Errors
    ///
    /// [`SeatingError::UnsupportedPlayerCount`] outside 3..=7 (two players included).
    pub const fn standard(players: u8) -> Result<Seating, SeatingError> {
        //                       Qin Chu Han Qi Wei Zhao Yan
        let seat_of = match players {
            7 => [0, 1, 2, 3, 4, 5, 6],
            6 => [0, 1, 2, 3, 4, 5, 0],
            5 => [0, 1, 2, 3, 4, 1, 0],
            4 => [0, 1, 2, 3, 3, 1, 0],
            3 => [0, 1, 0, 2, 2, 1, 0],
            n => return Err(SeatingError::UnsupportedPlayerCount(n)),
        };
        Ok(Seating { seat_of, players })
    }

    /// A seating agreed when the game is created: `seat_of[k]` is the seat of the kingdom with
    /// turn index `k`. The rules leave alliances to the players' choice ("Players and
    /// alliances", **Interpretation**: chosen when the game is created).
    ///
    /// # Errors
    ///
    /// A seat number out of range, a seat without kingdom, seats not numbered in turn order,
    /// or a player count outside 3..=7.
    pub fn custom(seat_of: [u8; 7]) -> Result<Seating, SeatingError> {
        let players = seat_of.iter().copied().max().unwrap_or(0).saturating_add(1);
        if !(3..=7).contains(&players) {
            return Err(SeatingError::UnsupportedPlayerCount(players));
        }
        let mut next_new = 0u8;
        for (kingdom, &seat) in Kingdom::ALL.iter().zip(&seat_of) {
            if seat >= players {
                return Err(SeatingError::SeatOutOfRange { kingdom: *kingdom, seat });
            }
            if seat == next_new {
                next_new += 1;
            } else if seat > next_new {
                return Err(SeatingError::SeatsOutOfOrder);
            }
        }
        // Numbering in order of first appearance leaves no gap, so no seat is empty; kept as a
        // guard should the numbering rule ever change.
        if let Some(empty) = (0..players).find(|s| !seat_of.contains(s)) {
            return Err(SeatingError::EmptySeat(Seat(empty)));
        }
        Ok(Seating { seat_of, players })
    }

    /// The number of players (seats), 3 to 7.
    #[inline]
    pub const fn players(&self) -> u8 {
        self.players
    }

    /// Every seat, in order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        (0..self.players).map(Seat)
    }

    /// The seat commanding `kingdom`.
    #[inline]
    pub const fn seat_of(&self, kingdom: Kingdom) -> Seat {
        Seat(self.seat_of[kingdom.index()])
    }

    /// The kingdoms `seat` commands, in turn order (empty for a seat out of range).
    pub fn kingdoms_of(&self, seat: Seat) -> impl Iterator<Item = Kingdom> + '_ {
        Kingdom::ALL.into_iter().filter(move |k| self.seat_of[k.index()] == seat.0)
    }

    /// Whether two different kingdoms belong to one player's alliance.
    #[inline]
    pub const fn are_allies(&self, a: Kingdom, b: Kingdom) -> bool {
        a.index() != b.index() && self.seat_of[a.index()] == self.seat_of[b.index()]
    }

    /// Whether this is [`Seating::standard`] for its player count.
    pub fn is_standard(&self) -> bool {
        matches!(Seating::standard(self.players), Ok(s) if s == *self)
    }

    /// The raw table: the seat number of each kingdom in turn order.
    pub const fn table(&self) -> [u8; 7] {
        self.seat_of
    }
}

impl Default for Seating {
    /// Seven players, one kingdom each.
    fn default() -> Self {
        Seating { seat_of: [0, 1, 2, 3, 4, 5, 6], players: 7 }
    }
}
