//! How a game ended: who won (or a draw) and why.

use std::fmt;

use crate::Color;

/// Why a game ended. [`EndReason::as_str`] gives the kebab-case name used by the
/// command line (`tavoliere replay`), the REST API and the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (a loss in Xiangqi,
    /// see `xiangqi.md` "Legality" 3; a loss in Shogi, see `shogi.md` "End of the game").
    Stalemate,
    /// CXQ rule 1: a side checked perpetually (`xiangqi.md`), or a shogi/minishogi
    /// repetition made by continuous checks.
    PerpetualCheck,
    /// CXQ rule 2: a side chased one unprotected piece perpetually.
    PerpetualChase,
    /// CXQ rule 5 / sennichite: both sides checked perpetually (a draw).
    MutualPerpetualCheck,
    /// CXQ rule 5: both sides chased perpetually (a draw).
    MutualPerpetualChase,
    /// Shogi: fourfold repetition, a draw.
    Sennichite,
    /// MiniShogi (AISE): the player who started the repeated cycle loses.
    RepetitionInitiatorLoses,
    /// MiniShogi (modern rule): a fourfold repetition loses for the first player.
    RepetitionFirstPlayerLoses,
    /// MiniShogi jishogi decided (or drawn) by the 11-point count.
    JishogiCount,
    /// MiniShogi jishogi in a friendly game: a draw.
    Jishogi,
    /// Shogi impasse, 24-point rule.
    Impasse24,
    /// Shogi impasse, 27-point declaration (valid or false).
    ImpasseDeclaration,
    /// CXQ automatic draw: 120 effective moves each.
    MoveLimit120,
    /// CXQ automatic draw: 30 moves each without progress.
    NoProgress30,
    /// CXQ automatic draw: 300 moves each.
    MoveLimit300,
    /// CXQ: neither side has a chariot, horse, cannon or soldier.
    DeadPosition,
    /// Fourfold/threefold repetition draw in games without a special law.
    Repetition,
    /// A player resigned.
    Resignation,
    /// The players agreed a draw.
    Agreement,
    /// A player ran out of time.
    Timeout,
    /// A player ran out of time, but the opponent could not possibly win.
    TimeoutInsufficientMaterial,
    /// A director adjudicated the game.
    Adjudication,
    /// A game forfeited (tournament withdrawal or no-show).
    Forfeit,
    /// Aborted before both sides moved; no result.
    Aborted,
}

impl EndReason {
    /// The kebab-case name of the reason, e.g. `"perpetual-check"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::PerpetualCheck => "perpetual-check",
            EndReason::PerpetualChase => "perpetual-chase",
            EndReason::MutualPerpetualCheck => "mutual-perpetual-check",
            EndReason::MutualPerpetualChase => "mutual-perpetual-chase",
            EndReason::Sennichite => "sennichite",
            EndReason::RepetitionInitiatorLoses => "repetition-initiator-loses",
            EndReason::RepetitionFirstPlayerLoses => "repetition-first-player-loses",
            EndReason::JishogiCount => "jishogi-count",
            EndReason::Jishogi => "jishogi",
            EndReason::Impasse24 => "impasse-24",
            EndReason::ImpasseDeclaration => "impasse-declaration",
            EndReason::MoveLimit120 => "move-limit-120",
            EndReason::NoProgress30 => "no-progress-30",
            EndReason::MoveLimit300 => "move-limit-300",
            EndReason::DeadPosition => "dead-position",
            EndReason::Repetition => "repetition",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Timeout => "timeout",
            EndReason::TimeoutInsufficientMaterial => "timeout-insufficient-material",
            EndReason::Adjudication => "adjudication",
            EndReason::Forfeit => "forfeit",
            EndReason::Aborted => "aborted",
        }
    }

    /// Every reason, for parsing and exhaustive tests.
    pub const ALL: [EndReason; 25] = [
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::PerpetualCheck,
        EndReason::PerpetualChase,
        EndReason::MutualPerpetualCheck,
        EndReason::MutualPerpetualChase,
        EndReason::Sennichite,
        EndReason::RepetitionInitiatorLoses,
        EndReason::RepetitionFirstPlayerLoses,
        EndReason::JishogiCount,
        EndReason::Jishogi,
        EndReason::Impasse24,
        EndReason::ImpasseDeclaration,
        EndReason::MoveLimit120,
        EndReason::NoProgress30,
        EndReason::MoveLimit300,
        EndReason::DeadPosition,
        EndReason::Repetition,
        EndReason::Resignation,
        EndReason::Agreement,
        EndReason::Timeout,
        EndReason::TimeoutInsufficientMaterial,
        EndReason::Adjudication,
        EndReason::Forfeit,
        EndReason::Aborted,
    ];
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for EndReason {
    type Err = UnknownEndReason;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EndReason::ALL.iter().copied().find(|r| r.as_str() == s).ok_or(UnknownEndReason)
    }
}

/// A string that names no [`EndReason`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownEndReason;

impl fmt::Display for UnknownEndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown end reason")
    }
}

impl std::error::Error for UnknownEndReason {}

/// Extra facts about an ending, e.g. both players' jishogi scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct EndDetails {
    /// Points of the first and the second player, for point counts (jishogi, impasse).
    pub scores: Option<[u32; 2]>,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Decisive {
        /// The winner.
        winner: Color,
        /// Why.
        reason: EndReason,
        /// Extra facts (scores).
        details: EndDetails,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: EndReason,
        /// Extra facts (scores).
        details: EndDetails,
    },
}

impl Outcome {
    /// A win for `winner` by `reason`, without details.
    pub const fn win(winner: Color, reason: EndReason) -> Outcome {
        Outcome::Decisive { winner, reason, details: EndDetails { scores: None } }
    }

    /// A draw by `reason`, without details.
    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome::Draw { reason, details: EndDetails { scores: None } }
    }

    /// The winner, if any.
    pub const fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// Why the game ended.
    pub const fn reason(&self) -> EndReason {
        match self {
            Outcome::Decisive { reason, .. } | Outcome::Draw { reason, .. } => *reason,
        }
    }

    /// Extra facts about the ending.
    pub const fn details(&self) -> EndDetails {
        match self {
            Outcome::Decisive { details, .. } | Outcome::Draw { details, .. } => *details,
        }
    }

    /// The result string of PGN and the command line: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result_str(&self) -> &'static str {
        match self {
            Outcome::Decisive { winner: Color::First, .. } => "1-0",
            Outcome::Decisive { winner: Color::Second, .. } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_round_trips_through_its_kebab_name() {
        for r in EndReason::ALL {
            assert_eq!(r.as_str().parse::<EndReason>(), Ok(r), "{r:?}");
        }
    }

    #[test]
    fn result_strings_follow_pgn() {
        assert_eq!(Outcome::win(Color::First, EndReason::Checkmate).result_str(), "1-0");
        assert_eq!(Outcome::win(Color::Second, EndReason::Checkmate).result_str(), "0-1");
        assert_eq!(Outcome::draw(EndReason::Sennichite).result_str(), "1/2-1/2");
    }
}
