//! Positions outside games (issue 37 §2): the analysis board plays moves for both sides
//! from a position of a game to explore a variation. The rules judge every move; nothing
//! is stored and no game changes.
//!
//! Anyone may ask, so the work of one question is bounded: at most [`MAX_MOVES`] moves
//! replayed from the position given, computed in the bounded pool of rules work
//! ([`super::rules_work`], a Flickering series is judged by a search over series), which
//! answers 503 when no turn comes in time.

use serde::Serialize;
use tavoliere_rules::variant::Variant;

use super::error::{DomainError, DomainResult, ErrorKind};
use super::rules_adapter;
use super::rules_work::RulesWork;

/// The most moves one question may play from its position.
pub const MAX_MOVES: usize = 400;

/// A variation to explore: the moves played, in order, from a position of a variant.
#[derive(Clone, Debug)]
pub struct Variation {
    /// The variant.
    pub variant: Variant,
    /// The ruleset (the variant's default when `None`).
    pub ruleset: Option<String>,
    /// The position (FEN, SFEN, Seven Kingdoms text); `None`: the standard start.
    pub position: Option<String>,
    /// The moves, any notation of the variant (a Flickering turn is a whole series).
    pub moves: Vec<String>,
}

/// Where a variation leads.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Explored {
    /// The position after the moves (FEN, SFEN, Seven Kingdoms text).
    pub position: String,
    /// The moves played, canonical (ICCS, USI, coordinate series, Seven Kingdoms moves).
    pub moves: Vec<String>,
    /// The moves played, in the variant's display notation (WXF, western, AISE...).
    pub display: Vec<String>,
    /// The legal moves after them, canonical (for Flickering chess the legal first moves
    /// of a series); empty once the game would be over.
    pub legal_moves: Vec<String>,
    /// Who is to move: `first` or `second`, or the seat's kingdoms in the Seven Kingdoms.
    pub side_to_move: String,
    /// The side to move is in check.
    pub check: bool,
    /// `1-0`, `0-1` or `1/2-1/2` when the moves end a game of two, else `null`.
    pub result: Option<String>,
    /// Why they end it (kebab-case, e.g. `checkmate`), else `null`.
    pub reason: Option<String>,
}

/// Plays `variation` and says where it leads, in the pool of rules work `work` when its
/// turn comes.
///
/// # Errors
/// More than [`MAX_MOVES`] moves, an unknown ruleset, an unreadable position, a move the
/// rules refuse (422); no turn in the pool in time (503, `busy`).
pub async fn explore(work: &RulesWork, variation: Variation) -> DomainResult<Explored> {
    if variation.moves.len() > MAX_MOVES {
        return Err(DomainError::coded(
            ErrorKind::Invalid,
            "positions.too-many-moves",
            format!("At most {MAX_MOVES} moves are played at once, not {}.", variation.moves.len()),
        ));
    }
    work.run(move || explore_now(&variation)).await?
}

/// [`explore`] on this thread.
///
/// # Errors
/// As [`explore`], but for the queue.
pub fn explore_now(variation: &Variation) -> DomainResult<Explored> {
    let variant = variation.variant;
    let ruleset = rules_adapter::ruleset_for(variant, variation.ruleset.as_deref())?;
    let seats = variant.seat_range().1;
    let mut game = rules_adapter::new_game(variant, &ruleset, None, variation.position.as_deref(), seats)?;
    let (mut moves, mut display) = (Vec::new(), Vec::new());
    let mut outcome = None;
    for text in &variation.moves {
        let played = game.play(text).map_err(rules_adapter::move_error)?;
        outcome = played.outcome;
        moves.push(played.canonical);
        display.push(played.display);
    }
    Ok(Explored {
        position: game.fen(),
        moves,
        display,
        legal_moves: game.legal_moves(),
        side_to_move: game.seat_label(game.seat_to_move()),
        check: game.is_check(),
        result: outcome.map(|o| o.result_str().to_owned()),
        reason: outcome.map(|o| o.reason().as_str().to_owned()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variation(variant: Variant, moves: &[&str]) -> Variation {
        Variation {
            variant,
            ruleset: None,
            position: None,
            moves: moves.iter().map(|m| (*m).to_owned()).collect(),
        }
    }

    #[test]
    fn a_variation_is_played_by_the_rules_from_its_position() {
        let explored = explore_now(&variation(Variant::Shogi, &["P-7f", "３四歩"])).unwrap();
        assert_eq!(explored.moves, ["7g7f", "3c3d"]);
        assert_eq!(explored.display, ["P-7f", "P-3d"]);
        assert_eq!(explored.side_to_move, "first");
        assert!(explored.legal_moves.contains(&"8h2b+".to_owned()), "the bishop may take and promote");
        let refused = explore_now(&variation(Variant::Xiangqi, &["h2e2", "h2e2"])).unwrap_err();
        assert_eq!(refused.kind(), ErrorKind::Invalid, "{refused}");
    }

    #[tokio::test]
    async fn too_many_moves_are_refused_before_any_is_played() {
        let moves = vec!["nonsense"; MAX_MOVES + 1];
        let refused = explore(&RulesWork::new(1), variation(Variant::Xiangqi, &moves)).await.unwrap_err();
        assert_eq!(refused.code(), "positions.too-many-moves");
    }
}
