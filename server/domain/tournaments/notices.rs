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

/// The longest announcement, in characters: a notice, not a bulletin (the bulletins are the
/// downloads).
pub const ANNOUNCEMENT_MAX_CHARS: usize = 2000;

/// How many announcements a tournament makes in a day at most: each one is a notice (and
/// possibly a mail) to every entrant and follower.
pub const ANNOUNCEMENTS_PER_DAY: i64 = 10;

/// An announcement on a tournament's page.
#[derive(Debug, Clone)]
pub struct Announcement {
    /// The director who wrote it.
    pub author: String,
    /// Its text, as written (trimmed).
    pub body: String,
    /// When it was made.
    pub created_at: OffsetDateTime,
}

/// A director announces `text` to the tournament's active entrants and followers: it is
/// shown on the tournament's page and each of them gets an `announcement` notice (in the
/// site, and by mail as their settings say), in one transaction.
///
/// # Errors
/// Unknown tournament (404), not its director (403), empty or longer than
/// [`ANNOUNCEMENT_MAX_CHARS`] (422), more than [`ANNOUNCEMENTS_PER_DAY`] in a day (429).
pub async fn announce(domain: &Domain, actor: &Account, tournament_id: i64, text: &str) -> DomainResult<()> {
    let now = domain.clock.now();
    let mut tx = domain.pool.begin().await?;
    // The tournament's row, locked: two announcements at once count each other.
    store::status(&mut *tx, tournament_id, true)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no tournament {tournament_id}")))?;
    ensure_directs(&mut *tx, actor, tournament_id).await?;
    // Checked after who asks: a stranger learns nothing but that it is not theirs.
    let body = text.trim();
    if body.is_empty() {
        return Err(DomainError::coded(
            ErrorKind::Invalid,
            "announcement.empty",
            "The announcement is empty.",
        ));
    }
    if body.chars().count() > ANNOUNCEMENT_MAX_CHARS {
        return Err(DomainError::coded(
            ErrorKind::Invalid,
            "announcement.too-long",
            format!("An announcement has at most {ANNOUNCEMENT_MAX_CHARS} characters."),
        ));
    }
    if store::announcements_since(&mut tx, tournament_id, now - time::Duration::DAY).await?
        >= ANNOUNCEMENTS_PER_DAY
    {
        return Err(DomainError::coded(
            ErrorKind::RateLimited,
            "announcement.too-many",
            format!("A tournament makes at most {ANNOUNCEMENTS_PER_DAY} announcements in a day."),
        ));
    }
    store::announce(&mut tx, tournament_id, actor.id, body, now).await?;
    tx.commit().await?;
    Ok(())
}

/// The tournament's latest `limit` announcements, newest first.
///
/// # Errors
/// Database failure.
pub async fn announcements(
    domain: &Domain,
    tournament_id: i64,
    limit: i64,
) -> DomainResult<Vec<Announcement>> {
    Ok(store::announcements(&domain.pool, tournament_id, limit)
        .await?
        .into_iter()
        .map(|row| Announcement { author: row.author, body: row.body, created_at: row.created_at })
        .collect())
}
