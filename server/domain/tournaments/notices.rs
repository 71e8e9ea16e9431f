//! Following an event, and what its players and followers are told (issue 38 §6): that
//! its registration opens (written by [`update`] in the transaction that opens it), that
//! they are paired (the `round-started` notice of each game, `create_game`), and that a
//! round's results are final (noted here, after the commit of whatever gave a round its
//! last result).

use super::*;

/// Makes the signed-in player follow the tournament: they are told when its registration
/// opens and when a round's results are final.
///
/// # Errors
/// Unknown tournament (404).
pub async fn follow(domain: &Domain, actor: &Account, tournament_id: i64) -> DomainResult<()> {
    ensure_exists(domain, tournament_id).await?;
    Ok(store::follow(&domain.pool, tournament_id, actor.id, domain.clock.now()).await?)
}

/// Stops the signed-in player following the tournament.
///
/// # Errors
/// Unknown tournament (404).
pub async fn unfollow(domain: &Domain, actor: &Account, tournament_id: i64) -> DomainResult<()> {
    ensure_exists(domain, tournament_id).await?;
    Ok(store::unfollow(&domain.pool, tournament_id, actor.id).await?)
}

/// Whether `account_id` follows the tournament.
///
/// # Errors
/// Database failure.
pub async fn follows(domain: &Domain, tournament_id: i64, account_id: i64) -> DomainResult<bool> {
    Ok(store::follows(&domain.pool, tournament_id, account_id).await?)
}

/// Notes the rounds of the section whose results have all become final, telling the
/// section's players and the tournament's followers once per round. Called after the
/// commit of a change that may have given a round its last result: the caller that
/// commits last sees every result, and `round_final`'s key lets only one note a round.
///
/// # Errors
/// Database failure.
pub async fn note_final_rounds(domain: &Domain, section_id: i64) -> DomainResult<Vec<i32>> {
    Ok(store::note_final_rounds(&domain.pool, section_id, domain.clock.now()).await?)
}

/// [`note_final_rounds`] for the section of a game that has just ended or stopped (nothing
/// for a casual game). Failures are logged: the game's end stands, and the next result of
/// the section notes the round.
pub async fn note_final_rounds_of_game(domain: &Domain, game_id: i64) {
    let noted = match store::section_of_game(&domain.pool, game_id).await {
        Ok(Some(section_id)) => note_final_rounds(domain, section_id).await.map(|_| ()),
        Ok(None) => Ok(()),
        Err(error) => Err(error.into()),
    };
    if let Err(error) = noted {
        tracing::warn!(game.id = game_id, %error, "cannot note the final rounds of a game's section");
    }
}
