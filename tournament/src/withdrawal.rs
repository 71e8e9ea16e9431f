//! What a player's withdrawal does to the section's results, as a pure function: the server
//! applies the returned changes (and records them in its audit trail).

use serde::{Deserialize, Serialize};

use crate::model::{GameId, GameRecord, GameResult, PlayerId};

/// The section's rule for a withdrawn player's games.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum WithdrawalRule {
    /// Every unfinished game is lost by forfeit; finished games stand.
    #[default]
    ForfeitUnplayed,
    /// If the player finished fewer than half of their games, every one of their games is
    /// annulled (finished ones too, as if they had never entered); otherwise the unfinished
    /// games are lost by forfeit.
    AnnulIfFewerThanHalfPlayed,
}

/// One result to change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ResultChange {
    /// The game.
    pub game: GameId,
    /// Its result before the withdrawal.
    pub from: GameResult,
    /// Its result after.
    pub to: GameResult,
}

/// The changes the withdrawal of `player` makes to `games` (the section's games; games of
/// other players are ignored) under `rule`.
///
/// "Played" counts the player's finished games (a counted result, forfeits included) out of
/// the games not already annulled; "fewer than half" is strict, so 4 finished out of 8 keeps
/// the results. A game already annulled is never changed.
pub fn apply_withdrawal(player: PlayerId, games: &[GameRecord], rule: WithdrawalRule) -> Vec<ResultChange> {
    let own: Vec<&GameRecord> = games
        .iter()
        .filter(|g| (g.first == player || g.second == player) && g.result != GameResult::Annulled)
        .collect();
    let finished = own.iter().filter(|g| g.result.is_counted()).count();
    let annul = rule == WithdrawalRule::AnnulIfFewerThanHalfPlayed && 2 * finished < own.len();
    own.into_iter()
        .filter_map(|g| {
            let to = if annul {
                GameResult::Annulled
            } else if g.result == GameResult::Pending {
                if g.first == player {
                    GameResult::ForfeitSecondWins
                } else {
                    GameResult::ForfeitFirstWins
                }
            } else {
                return None;
            };
            Some(ResultChange { game: g.game, from: g.result, to })
        })
        .collect()
}
