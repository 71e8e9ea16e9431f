//! Identifiers and game results, shaped like the server's rows.

use serde::{Deserialize, Serialize};

/// A player, as identified by the server (the primary key of its account row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct PlayerId(pub i64);

/// A game, as identified by the server; crosstable cells link to `/games/{id}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct GameId(pub i64);

/// A section of a tournament (one group: one variant, one round-robin or Swiss).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct SectionId(pub i64);

/// The result of one game, from the point of view of its first player (Xiangqi Red,
/// Shogi Black/sente) and second player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum GameResult {
    /// Won over the board by the first player.
    FirstWins,
    /// Won over the board by the second player.
    SecondWins,
    /// Drawn over the board.
    Draw,
    /// Not played; the first player wins by forfeit.
    ForfeitFirstWins,
    /// Not played; the second player wins by forfeit.
    ForfeitSecondWins,
    /// Not played; both players lose by forfeit.
    DoubleForfeit,
    /// Still in progress or not started: counts for nothing yet.
    Pending,
    /// Cancelled (e.g. after a withdrawal): counts for nothing, ever.
    Annulled,
}

impl GameResult {
    /// Whether the game has a final result that counts in the standings (anything but
    /// `Pending` and `Annulled`).
    pub fn is_counted(self) -> bool {
        !matches!(self, GameResult::Pending | GameResult::Annulled)
    }

    /// Whether the game was decided over the board (a win or a draw, not a forfeit).
    pub fn is_played(self) -> bool {
        matches!(self, GameResult::FirstWins | GameResult::SecondWins | GameResult::Draw)
    }

    /// Whether the result is one of the forfeits.
    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            GameResult::ForfeitFirstWins | GameResult::ForfeitSecondWins | GameResult::DoubleForfeit
        )
    }

    /// The outcome for the player on one side (`first == true` for the first player), or
    /// `None` when the game does not count (pending or annulled).
    pub fn outcome_for(self, first: bool) -> Option<PlayerOutcome> {
        use PlayerOutcome::*;
        let (for_first, for_second) = match self {
            GameResult::FirstWins => (Win, Loss),
            GameResult::SecondWins => (Loss, Win),
            GameResult::Draw => (Draw, Draw),
            GameResult::ForfeitFirstWins => (ForfeitWin, ForfeitLoss),
            GameResult::ForfeitSecondWins => (ForfeitLoss, ForfeitWin),
            GameResult::DoubleForfeit => (ForfeitLoss, ForfeitLoss),
            GameResult::Pending | GameResult::Annulled => return None,
        };
        Some(if first { for_first } else { for_second })
    }
}

/// A counted game's outcome seen from one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlayerOutcome {
    /// Won over the board.
    Win,
    /// Drawn over the board.
    Draw,
    /// Lost over the board.
    Loss,
    /// Won by forfeit (the opponent did not play).
    ForfeitWin,
    /// Lost by forfeit (includes a double forfeit).
    ForfeitLoss,
}

impl PlayerOutcome {
    /// Whether this is a win, over the board or by forfeit.
    pub fn is_win(self) -> bool {
        matches!(self, PlayerOutcome::Win | PlayerOutcome::ForfeitWin)
    }

    /// The classical fraction of a game won, in halves: 2 for a win, 1 for a draw, 0 for a
    /// loss (used by Sonneborn-Berger whatever the section's scoring).
    pub fn halves(self) -> i64 {
        match self {
            PlayerOutcome::Win | PlayerOutcome::ForfeitWin => 2,
            PlayerOutcome::Draw => 1,
            PlayerOutcome::Loss | PlayerOutcome::ForfeitLoss => 0,
        }
    }
}

/// One game of a section as the server stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's id (for links).
    pub game: GameId,
    /// The round (1-based; in a double round-robin the second cycle continues the count).
    pub round: u32,
    /// The player with the first move (Red / sente).
    pub first: PlayerId,
    /// The player with the second move (Black / gote).
    pub second: PlayerId,
    /// The current result.
    pub result: GameResult,
}

impl GameRecord {
    /// The opponent of `player` in this game, if `player` plays in it.
    pub fn opponent_of(&self, player: PlayerId) -> Option<PlayerId> {
        if self.first == player {
            Some(self.second)
        } else if self.second == player {
            Some(self.first)
        } else {
            None
        }
    }
}

/// A pairing-allocated bye (Swiss): the player sat out `round` and scores the section's
/// bye points ([`crate::ByePoints`]). It is not a game: no opponent, no colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bye {
    /// The round.
    pub round: u32,
    /// The player.
    pub player: PlayerId,
}
