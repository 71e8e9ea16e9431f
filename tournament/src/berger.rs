//! Round-robin pairings from the FIDE Berger tables (FIDE Handbook C.05, Annex 1).
//!
//! Players are numbered by their position in the draw (`players[0]` is number 1). For an odd
//! number of players the highest number is a bye: whoever meets it sits the round out. In a
//! double round-robin the second cycle repeats the first with the colours swapped.
//! Correspondence round-robins usually start every game at once ([`StartPolicy::AllTogether`]);
//! over-the-board style round-by-round starts are the other option.

use std::collections::HashSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::PlayerId;

/// The largest section this module pairs (a 1,000-player round-robin is already ~500,000
/// games); larger inputs are refused rather than exhausting memory.
pub const MAX_ROUND_ROBIN_PLAYERS: usize = 1000;

/// One or two cycles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cycles {
    /// Every pair meets once.
    #[default]
    Single,
    /// Every pair meets twice, with each colour once.
    Double,
}

/// When the games of a round-robin start.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum StartPolicy {
    /// Every game starts when the section starts (the usual correspondence practice).
    #[default]
    AllTogether,
    /// The games of round `r` form start batch `r`, started one round after the other.
    RoundByRound,
}

/// How to build a round-robin schedule.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoundRobinOptions {
    /// Single or double round-robin.
    pub cycles: Cycles,
    /// All games at once, or round by round.
    pub start: StartPolicy,
    /// FIDE C.05 Annex 1 recommends, in a double round-robin, exchanging the last two rounds
    /// of the first cycle so that nobody gets the same colour three times running. Only
    /// meaningful with [`Cycles::Double`] and round-by-round starts; off by default.
    pub swap_last_two_rounds_of_first_cycle: bool,
}

/// One game to create.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairing {
    /// The round, 1-based, counting on through the second cycle.
    pub round: u32,
    /// 1 or 2.
    pub cycle: u32,
    /// The board within the round, 1-based, in the order of the Berger table.
    pub board: u32,
    /// The player with the first move (Red / sente).
    pub first: PlayerId,
    /// The player with the second move.
    pub second: PlayerId,
    /// Which start batch the game belongs to: 1 for every game with
    /// [`StartPolicy::AllTogether`], the round number with [`StartPolicy::RoundByRound`].
    pub start_batch: u32,
}

/// A player without a game in a round (odd number of players).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bye {
    /// The round.
    pub round: u32,
    /// The player who sits out.
    pub player: PlayerId,
}

/// The whole schedule of a round-robin section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    /// Number of rounds over all cycles.
    pub rounds: u32,
    /// Every game, by round then board.
    pub games: Vec<Pairing>,
    /// Every bye, by round (empty for an even number of players).
    pub byes: Vec<Bye>,
}

/// Why a schedule cannot be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairingError {
    /// A round-robin needs at least two players.
    TooFewPlayers {
        /// How many were given.
        count: usize,
    },
    /// More than [`MAX_ROUND_ROBIN_PLAYERS`].
    TooManyPlayers {
        /// How many were given.
        count: usize,
    },
    /// The same player is entered twice.
    DuplicatePlayer(PlayerId),
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingError::TooFewPlayers { count } => {
                write!(f, "a round-robin needs at least 2 players, got {count}")
            }
            PairingError::TooManyPlayers { count } => {
                write!(f, "a round-robin takes at most {MAX_ROUND_ROBIN_PLAYERS} players, got {count}")
            }
            PairingError::DuplicatePlayer(player) => write!(f, "player {} is entered twice", player.0),
        }
    }
}

impl std::error::Error for PairingError {}

/// The Berger table for `players` players, as pairs of draw numbers `(first, second)` per
/// round. An odd count is rounded up: the highest number is then the bye.
///
/// Construction (it reproduces the published FIDE tables, which the tests check literally):
/// with `n` even and `m = n - 1`, in round `r` player `n` meets `k = (r + 1) / 2` (odd `r`,
/// `k` has the first move) or `k = n / 2 + r / 2` (even `r`, `n` has the first move); the
/// other boards are `(k + i, k - i)` for `i = 1 .. n/2 - 1`, numbers taken modulo `m` in
/// `1..=m`.
///
/// # Errors
///
/// [`PairingError::TooFewPlayers`] below 2, [`PairingError::TooManyPlayers`] above
/// [`MAX_ROUND_ROBIN_PLAYERS`].
pub fn berger_table(players: usize) -> Result<Vec<Vec<(u32, u32)>>, PairingError> {
    if players < 2 {
        return Err(PairingError::TooFewPlayers { count: players });
    }
    if players > MAX_ROUND_ROBIN_PLAYERS {
        return Err(PairingError::TooManyPlayers { count: players });
    }
    let n = (players + players % 2) as i64;
    let m = n - 1;
    let wrap = |x: i64| ((x - 1).rem_euclid(m) + 1) as u32;
    let table = (1..=m)
        .map(|round| {
            let mut boards = Vec::with_capacity((n / 2) as usize);
            let k = if round % 2 == 1 {
                let k = (round + 1) / 2;
                boards.push((k as u32, n as u32));
                k
            } else {
                let k = n / 2 + round / 2;
                boards.push((n as u32, k as u32));
                k
            };
            boards.extend((1..n / 2).map(|i| (wrap(k + i), wrap(k - i))));
            boards
        })
        .collect();
    Ok(table)
}

/// The schedule of a round-robin between `players`, in draw order (`players[0]` is number 1
/// of the Berger table).
///
/// # Errors
///
/// Fewer than 2 or more than [`MAX_ROUND_ROBIN_PLAYERS`] players, or a player entered twice.
pub fn round_robin(players: &[PlayerId], options: &RoundRobinOptions) -> Result<Schedule, PairingError> {
    let mut seen = HashSet::with_capacity(players.len());
    for &player in players {
        if !seen.insert(player) {
            return Err(PairingError::DuplicatePlayer(player));
        }
    }
    let mut table = berger_table(players.len())?;
    if options.cycles == Cycles::Double && options.swap_last_two_rounds_of_first_cycle && table.len() >= 2 {
        let last = table.len() - 1;
        table.swap(last - 1, last);
    }
    let rounds_per_cycle = table.len() as u32;
    let cycles = match options.cycles {
        Cycles::Single => 1,
        Cycles::Double => 2,
    };
    let player_at = |number: u32| players.get(number as usize - 1).copied();
    let mut schedule = Schedule { rounds: rounds_per_cycle * cycles, games: Vec::new(), byes: Vec::new() };
    for cycle in 1..=cycles {
        for (index, boards) in table.iter().enumerate() {
            let round = (cycle - 1) * rounds_per_cycle + index as u32 + 1;
            let start_batch = match options.start {
                StartPolicy::AllTogether => 1,
                StartPolicy::RoundByRound => round,
            };
            let mut board = 0;
            for &(a, b) in boards {
                match (player_at(a), player_at(b)) {
                    (Some(a), Some(b)) => {
                        board += 1;
                        // Second cycle: the same pairs with the colours swapped.
                        let (first, second) = if cycle == 1 { (a, b) } else { (b, a) };
                        schedule.games.push(Pairing { round, cycle, board, first, second, start_batch });
                    }
                    (Some(player), None) | (None, Some(player)) => {
                        schedule.byes.push(Bye { round, player });
                    }
                    (None, None) => {}
                }
            }
        }
    }
    Ok(schedule)
}
