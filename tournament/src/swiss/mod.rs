//! Swiss pairings: the FIDE (Dutch) System, Handbook C.04.3, as the FIDE-endorsed engine
//! bbpPairings applies it, round after round.
//!
//! * [`DutchEdition::Fide2025`] (the default) is the 2025 edition of C.04.3 (in force for
//!   events from 2026), as bbpPairings 6.0.0 pairs it; [`DutchEdition::Fide2017`] is the
//!   2017 edition, as bbpPairings 5.0.1 pairs it, for events begun under it.
//! * [`Acceleration::Baku`] adds the Baku acceleration's virtual points (C.04.5.1) to the
//!   first half of the players in the first half of the rounds.
//!
//! How: C.04.3 orders its quality criteria strictly, so a pairing can be chosen by one
//! number per pair of players whose binary digits hold the criteria, most important first
//! (absolute criteria: the edge exists or not; completion; then the criteria of the
//! bracket in their order; finally room for the D-section's order of candidates). A
//! maximum-weight matching of all the players with those weights (`blossom.rs`) is then a
//! pairing that meets the criteria in their order; the brackets are paired one after the
//! other, top down, each decision (which moved-down players are paired, with whom, which
//! players are exchanged between S1 and S2, who gets which opponent) fixed by re-weighting
//! the edges concerned and asking the matching again, in the order of section D. This is
//! the method of bbpPairings (Bierema Boyz Programming, Apache-2.0), whose weights and
//! steps `dutch.rs` follows so that the pairings are the same ones; the pairing corpus in
//! `tests/data/` (thousands of rounds paired by bbpPairings) checks it.
//!
//! No search is cut short: a round either gets the pairing the rules give, or
//! [`SwissError::NoPairing`] when no pairing satisfies the absolute criteria (C.1-C.3).
//!
//! Colours are allocated by the E-section (both preferences, the stronger preference,
//! alternation from the last round in which the two had different colours, counting
//! only games actually played, the higher-ranked player's preference, then the initial
//! colour by pairing number), see [`explain_swiss`] for the rule that decided each.

mod blossom;
mod dutch;
mod explain;
mod input;
mod wide;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::{Bye, GameRecord, PlayerId};
use crate::scoring::{Points, Scoring};

pub use explain::{
    BracketExplanation, ByeExplanation, ColourRule, PairExplanation, PairRole, PairingExplanation,
    PassedOver, PassedOverReason,
};

/// The most rounds a TRF export writes (each round is a 10-column block on every line).
pub const MAX_TRF_ROUNDS: u32 = 999;

/// A bye already given (a round a player sat out with the bye's points): the crate's
/// [`Bye`], under the name this module has always used.
pub type SwissBye = Bye;

/// Which edition of the FIDE (Dutch) System pairs the section.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum DutchEdition {
    /// C.04.3 as approved in 2025 (in force from 2026): bbpPairings 6.0.0.
    #[default]
    #[serde(rename = "fide-2025")]
    Fide2025,
    /// C.04.3 as of 2017, for events begun under it: bbpPairings 5.0.1.
    #[serde(rename = "fide-2017")]
    Fide2017,
}

impl DutchEdition {
    /// The name used in the API and the database (`fide-2025`, `fide-2017`).
    pub fn as_str(self) -> &'static str {
        match self {
            DutchEdition::Fide2025 => "fide-2025",
            DutchEdition::Fide2017 => "fide-2017",
        }
    }

    /// The edition of a name given by [`DutchEdition::as_str`].
    pub fn parse(text: &str) -> Option<DutchEdition> {
        match text {
            "fide-2025" => Some(DutchEdition::Fide2025),
            "fide-2017" => Some(DutchEdition::Fide2017),
            _ => None,
        }
    }
}

/// An acceleration of the first rounds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Acceleration {
    /// No acceleration.
    #[default]
    None,
    /// The Baku acceleration method (C.04.5.1): the first half of the players by pairing
    /// number (rounded up) count a win's points more in the first rounds (the first half of
    /// the first half of the rounds, rounded up) and a draw's in the rest of the first half
    /// (rounded up), as bbpPairings reckons it. Needs the planned rounds, a draw worth half
    /// a win and a loss worth nothing.
    Baku,
}

impl Acceleration {
    /// The name used in the API and the database (`none`, `baku`).
    pub fn as_str(self) -> &'static str {
        match self {
            Acceleration::None => "none",
            Acceleration::Baku => "baku",
        }
    }

    /// The acceleration of a name given by [`Acceleration::as_str`].
    pub fn parse(text: &str) -> Option<Acceleration> {
        match text {
            "none" => Some(Acceleration::None),
            "baku" => Some(Acceleration::Baku),
            _ => None,
        }
    }
}

/// Settings of a Swiss section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SwissOptions {
    /// Points per result (the brackets are by points).
    pub scoring: Scoring,
    /// Points for the pairing-allocated bye (usually a win's).
    pub bye_points: Points,
    /// Whether the first pairing number gets the first move in round 1 (the "initial
    /// colour"); `false` gives it the second move.
    pub initial_first: bool,
    /// The number of rounds planned. When the round paired is the last one, the top-scorer
    /// rules apply (C.04.3: players above half the maximum possible score may meet with the
    /// same absolute colour preference). `None`: never.
    pub rounds: Option<u32>,
    /// The edition of C.04.3.
    #[serde(default)]
    pub edition: DutchEdition,
    /// The acceleration of the first rounds.
    #[serde(default)]
    pub acceleration: Acceleration,
}

impl Default for SwissOptions {
    fn default() -> SwissOptions {
        SwissOptions {
            scoring: Scoring::default(),
            bye_points: Points::whole(1),
            initial_first: true,
            rounds: None,
            edition: DutchEdition::default(),
            acceleration: Acceleration::default(),
        }
    }
}

/// A player of the section, in pairing-number order (the first entry is number 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SwissEntry {
    /// The player.
    pub player: PlayerId,
    /// Whether the player is to be paired in this round: `false` for a player who has
    /// withdrawn (or is otherwise absent). An absent player keeps the pairing number, and the
    /// games already played still count for their opponents.
    pub available: bool,
}

impl SwissEntry {
    /// A player to be paired.
    pub fn available(player: PlayerId) -> SwissEntry {
        SwissEntry { player, available: true }
    }
}

/// One game to create.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SwissPairing {
    /// The board, 1-based: by the higher score of the pair, then the lower, then the
    /// pairing number of the higher-ranked player (C.04.2).
    pub board: u32,
    /// The player with the first move.
    pub first: PlayerId,
    /// The player with the second move.
    pub second: PlayerId,
}

/// The pairings of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissRound {
    /// The round paired.
    pub round: u32,
    /// The games.
    pub pairings: Vec<SwissPairing>,
    /// The player who gets the bye, if the number of players is odd.
    pub bye: Option<PlayerId>,
}

/// Why a round cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SwissError {
    /// Fewer than two players to pair.
    TooFewPlayers,
    /// A player is entered twice.
    DuplicatePlayer(PlayerId),
    /// A game or bye names a player who is not entered (TRF export).
    UnknownPlayer(PlayerId),
    /// A game of an earlier round has no result yet.
    RoundNotFinished(crate::model::GameId),
    /// No pairing satisfies the absolute criteria (C.1-C.3): the arbiter decides.
    NoPairing,
    /// A round number beyond [`MAX_TRF_ROUNDS`] (TRF export).
    TooManyRounds(u32),
    /// The Baku acceleration needs a draw worth half a win and a loss worth nothing.
    AccelerationScoring,
    /// The criteria of the round do not fit in the widest edge weight (4,096 bits): far
    /// beyond any real section (thousands of players in hundreds of score groups).
    TooLarge,
}

impl fmt::Display for SwissError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwissError::TooFewPlayers => write!(f, "a Swiss round needs at least 2 players"),
            SwissError::DuplicatePlayer(p) => write!(f, "player {} is entered twice", p.0),
            SwissError::UnknownPlayer(p) => write!(f, "player {} is not entered", p.0),
            SwissError::RoundNotFinished(g) => write!(f, "game {} has no result yet", g.0),
            SwissError::NoPairing => write!(f, "no pairing satisfies the absolute criteria"),
            SwissError::TooManyRounds(r) => {
                write!(f, "round {r} is beyond the {MAX_TRF_ROUNDS} a TRF file holds")
            }
            SwissError::AccelerationScoring => {
                write!(f, "the Baku acceleration needs a draw worth half a win and a loss worth nothing")
            }
            SwissError::TooLarge => write!(f, "the round is too large to pair"),
        }
    }
}

impl std::error::Error for SwissError {}

/// Pairs the next round of a Swiss section whose players are all available, `players`
/// in pairing-number order. See [`pair_swiss`].
///
/// # Errors
///
/// See [`SwissError`].
pub fn pair_swiss_round(
    players: &[PlayerId],
    games: &[GameRecord],
    byes: &[SwissBye],
    options: &SwissOptions,
) -> Result<SwissRound, SwissError> {
    let entries: Vec<SwissEntry> = players.iter().copied().map(SwissEntry::available).collect();
    pair_swiss(&entries, games, byes, options)
}

/// Pairs the next round of a Swiss section.
///
/// `entries` are every player of the section in pairing-number order, the absent ones
/// (withdrawn) marked unavailable; `games` every game of the earlier rounds (all finished;
/// annulled games count as not played) and `byes` the pairing-allocated byes so far. The
/// round paired is the one after the last round with a game or a bye.
///
/// # Errors
///
/// See [`SwissError`].
pub fn pair_swiss(
    entries: &[SwissEntry],
    games: &[GameRecord],
    byes: &[SwissBye],
    options: &SwissOptions,
) -> Result<SwissRound, SwissError> {
    let prepared = input::prepare(entries, games, byes, options)?;
    let outcome = dutch::pair(&prepared, false)?;
    Ok(outcome.round(&prepared))
}

/// Pairs the next round as [`pair_swiss`] does and says why: per bracket its players,
/// moved-down players, S1 and S2 and exchanges; per pair the bracket, the opponents passed
/// over and the criterion that ruled each out, and the colour rule.
///
/// # Errors
///
/// See [`SwissError`].
pub fn explain_swiss(
    entries: &[SwissEntry],
    games: &[GameRecord],
    byes: &[SwissBye],
    options: &SwissOptions,
) -> Result<(SwissRound, PairingExplanation), SwissError> {
    let prepared = input::prepare(entries, games, byes, options)?;
    let outcome = dutch::pair(&prepared, true)?;
    let round = outcome.round(&prepared);
    let explanation = explain::explain(&prepared, &outcome, &round);
    Ok((round, explanation))
}

pub use crate::trf::trf_export;
