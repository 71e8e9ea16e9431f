//! A section's rounds for everyone (issue 20 §2): each round's games with their players,
//! colours, status, ply, whose move, deadline, result and ruling, and the round's byes.

use super::*;
use tavoliere_rules::game::Ruling;

/// One game of a round.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RoundGame {
    /// Game id.
    pub game_id: i64,
    /// Board number in the round.
    pub board: i32,
    /// The player of the first seat (Red, sente).
    pub first: String,
    /// The player of the second seat (Black, gote).
    pub second: String,
    /// Game status.
    pub status: GameStatus,
    /// Plies played.
    pub ply: i32,
    /// Who is to move (active games).
    pub to_move: Option<String>,
    /// When the player to move runs out of time (active games).
    #[serde(with = "time::serde::rfc3339::option")]
    pub deadline: Option<OffsetDateTime>,
    /// What the game counts as in the standings (a director's decision first).
    pub result: GameResult,
    /// The board result (`1-0`, `0-1`, `1/2-1/2`) once over.
    pub board_result: Option<BoardResult>,
    /// Why it ended.
    pub reason: Option<GameReason>,
    /// How a game law ended it (as in the game's view), when one did.
    pub ruling: Option<Ruling>,
    /// Whether a draw offer is pending.
    pub draw_offer: bool,
}

/// One round of a section.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RoundView {
    /// Round number (1-based).
    pub round: i32,
    /// Its games by board.
    pub games: Vec<RoundGame>,
    /// Who has a bye this round (Swiss).
    pub byes: Vec<String>,
}

/// A section's rounds.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RoundsView {
    /// The section.
    pub section_id: i64,
    /// The last round whose games exist.
    pub current_round: i32,
    /// The rounds with games or byes, first to last.
    pub rounds: Vec<RoundView>,
}

/// Whether `reason` is a game law's, with a ruling to explain it.
fn by_law(reason: Option<GameReason>) -> bool {
    match reason {
        Some(GameReason::Rules(reason)) => !matches!(
            reason,
            EndReason::Resignation
                | EndReason::Agreement
                | EndReason::Timeout
                | EndReason::TimeoutInsufficientMaterial
                | EndReason::Adjudication
                | EndReason::Forfeit
                | EndReason::Aborted
        ),
        _ => false,
    }
}

/// The section's rounds with their games and byes (anyone may look).
///
/// # Errors
/// Unknown section (404).
pub async fn rounds(domain: &Domain, section_id: i64) -> DomainResult<RoundsView> {
    let row = load_section(&domain.pool, section_id, false).await?;
    let games = section_store::round_games(&domain.pool, section_id).await?;
    let byes = section_store::bye_names(&domain.pool, section_id).await?;
    let mut rounds: Vec<RoundView> = Vec::new();
    let round_of = |rounds: &mut Vec<RoundView>, round: i32| -> usize {
        match rounds.iter().position(|r| r.round == round) {
            Some(index) => index,
            None => {
                rounds.push(RoundView { round, games: Vec::new(), byes: Vec::new() });
                rounds.len() - 1
            }
        }
    };
    for game in games {
        // The ruling is the game view's (the rules replay the game): only for a law's end.
        let ruling = if by_law(game.reason) { games::view(domain, game.game_id).await?.ruling } else { None };
        let result =
            game_result(game.status, game.result.as_ref(), game.reason, game.tournament_result.as_deref());
        let index = round_of(&mut rounds, game.round);
        rounds[index].games.push(RoundGame {
            game_id: game.game_id,
            board: game.board,
            first: game.first,
            second: game.second,
            status: game.status,
            ply: game.ply,
            to_move: game.to_move,
            deadline: game.deadline,
            result,
            board_result: game.result,
            reason: game.reason,
            ruling,
            draw_offer: game.draw_offer,
        });
    }
    for (round, username) in byes {
        let index = round_of(&mut rounds, round);
        rounds[index].byes.push(username);
    }
    rounds.sort_by_key(|r| r.round);
    Ok(RoundsView { section_id, current_round: row.current_round, rounds })
}
