//! Entries: registration, seeds and withdrawals.

use super::*;

/// Registers a player in a section. Without `username` (or with one's own) a player
/// registers themself while the tournament takes registrations and their rating is within
/// the section's limits; a director may register anyone (with a seed) until the section
/// starts.
///
/// # Errors
/// Unknown section or player (404/422), registering someone else without directing the
/// tournament (403), a rating outside the section's limits (403, `entry.rating-too-low`,
/// `entry.rating-too-high`, `entry.unrated`), registration closed (409,
/// `entry.registration-closed`), the section started (409, `entry.section-started`) or
/// already entered (409, `entry.already-entered`).
pub async fn register(
    domain: &Domain,
    actor: &Account,
    section_id: i64,
    username: Option<&str>,
    seed: Option<i32>,
) -> DomainResult<SectionView> {
    let mut tx = domain.pool.begin().await?;
    let row = load_section(&mut *tx, section_id, true).await?;
    let player_id = match username {
        Some(name) if !name.eq_ignore_ascii_case(&actor.username) => {
            account_id_by_username(&domain.pool, name)
                .await
                .map_err(|_| DomainError::Invalid(format!("no account named {name}")))?
        }
        _ => actor.id,
    };
    let is_director = ensure_directs(&mut *tx, actor, row.tournament_id).await.is_ok();
    if player_id != actor.id || seed.is_some() {
        ensure_directs(&mut *tx, actor, row.tournament_id).await?;
    } else if !is_director {
        let status = store::status(&mut *tx, row.tournament_id, false).await?.unwrap_or_default();
        if status != "registration" {
            return Err(DomainError::coded(
                ErrorKind::Conflict,
                "entry.registration-closed",
                format!("the tournament is not taking registrations ({status})"),
            ));
        }
    }
    if row.status != "registration" {
        return Err(DomainError::coded(
            ErrorKind::Conflict,
            "entry.section-started",
            "the section has started: no more entries",
        ));
    }
    if !is_director {
        let rating = section_store::rating_of(&mut *tx, player_id, &row.variant, row.pool().as_str()).await?;
        check_rating(&row, rating)?;
    }
    refuse_seed_when_rated(&row, seed)?;
    if !section_store::insert_entry(&mut tx, section_id, player_id, seed, domain.clock.now()).await? {
        return Err(DomainError::coded(
            ErrorKind::Conflict,
            "entry.already-entered",
            "already entered in this section",
        ));
    }
    tx.commit().await?;
    section(domain, section_id).await
}

/// Refuses a player whose current rating in the section's variant and pool (`None`: no
/// rating there yet) is outside the section's limits: below the minimum, above the
/// maximum, or without a rating where a minimum is set.
fn check_rating(row: &SectionRow, rating: Option<i32>) -> DomainResult<()> {
    let refuse =
        |code: &'static str, detail: String| Err(DomainError::coded(ErrorKind::Forbidden, code, detail));
    match (rating, row.rating_min, row.rating_max) {
        (None, Some(min), _) => refuse(
            "entry.unrated",
            format!(
                "the section takes players rated {min} or more, and you have no rating in its variant yet"
            ),
        ),
        (Some(rating), Some(min), _) if rating < min => refuse(
            "entry.rating-too-low",
            format!("your rating ({rating}) is below the section's minimum ({min})"),
        ),
        (Some(rating), _, Some(max)) if rating > max => refuse(
            "entry.rating-too-high",
            format!("your rating ({rating}) is above the section's maximum ({max})"),
        ),
        _ => Ok(()),
    }
}

/// Sets a player's seed (draw order) before the section starts (directors only).
///
/// # Errors
/// Unknown section or entry (404), not its director (403), section started (409).
pub async fn set_seed(
    domain: &Domain,
    actor: &Account,
    section_id: i64,
    username: &str,
    seed: Option<i32>,
) -> DomainResult<SectionView> {
    let mut tx = domain.pool.begin().await?;
    let row = load_section(&mut *tx, section_id, true).await?;
    ensure_directs(&mut *tx, actor, row.tournament_id).await?;
    if row.status != "registration" {
        return Err(DomainError::Conflict("the section has started: the draw order is fixed".to_owned()));
    }
    refuse_seed_when_rated(&row, seed)?;
    let player_id = entry_account(&mut tx, section_id, username).await?;
    section_store::set_seed(&mut tx, section_id, player_id, seed).await?;
    tx.commit().await?;
    section(domain, section_id).await
}

/// A section seeded by rating takes no seeds from its directors: the ratings give them at
/// the start.
fn refuse_seed_when_rated(row: &SectionRow, seed: Option<i32>) -> DomainResult<()> {
    if seed.is_some() && row.seeding() == Seeding::Rating {
        return Err(DomainError::Conflict(
            "the section is seeded by rating: the seeds are given by the ratings at the start".to_owned(),
        ));
    }
    Ok(())
}

pub(crate) async fn entry_account(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    username: &str,
) -> DomainResult<i64> {
    section_store::entry_account(tx, section_id, username)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("{username} is not entered in this section")))
}

/// Withdraws a player (the player themself or a director). Before the start the entry
/// is removed; once the section runs, the section's withdrawal rule decides the player's
/// games (forfeits, or everything annulled when fewer than half were played), each change
/// recorded in the audit trail.
///
/// # Errors
/// Unknown section or entry (404), someone else's entry without directing (403), already
/// withdrawn (409).
pub async fn withdraw(
    domain: &Domain,
    actor: &Account,
    section_id: i64,
    username: &str,
    reason: Option<&str>,
) -> DomainResult<SectionView> {
    let mut tx = domain.pool.begin().await?;
    let row = load_section(&mut *tx, section_id, true).await?;
    let player_id = entry_account(&mut tx, section_id, username).await?;
    if player_id != actor.id {
        ensure_directs(&mut *tx, actor, row.tournament_id).await?;
    }
    let now = domain.clock.now();
    if row.status == "registration" {
        // Before the draw the entry simply goes: the pairings only ever see who started.
        section_store::delete_entry(&mut tx, section_id, player_id).await?;
        tx.commit().await?;
        return section(domain, section_id).await;
    }
    if !section_store::withdraw_entry(&mut tx, section_id, player_id, now).await? {
        return Err(DomainError::Conflict(format!("{username} has already withdrawn")));
    }
    let games = section_games(&mut *tx, section_id).await?;
    let records: Vec<GameRecord> = games.iter().map(SectionGame::record).collect();
    let reason = reason.map_or_else(|| format!("withdrawal of {username}"), str::to_owned);
    let mut ended = Vec::new();
    for change in apply_withdrawal(PlayerId(player_id), &records, row.withdrawal_rule()) {
        if set_result(&mut tx, change.game.0, change.to, now).await? {
            ended.push(change.game.0);
        }
        audit(&mut tx, change.game.0, actor.id, now, "withdrawal", change.from, change.to, &reason).await?;
    }
    tx.commit().await?;
    games::announce_stored(domain, &ended).await;
    // Forfeits and annulments may complete a round.
    note_final_rounds(domain, section_id).await?;
    section(domain, section_id).await
}

/// What withdrawing would do to a player's games, for the confirmation step of the site:
/// the section's rule applied to its games as they stand, nothing stored.
#[derive(Debug, Serialize)]
pub struct WithdrawalPreview {
    /// Whether the section has started (before, the entry is simply removed).
    pub started: bool,
    /// The section's rule.
    pub rule: WithdrawalRule,
    /// The player's unfinished games that would be lost by forfeit.
    pub forfeited: usize,
    /// The player's games that would be annulled (fewer than half played, under
    /// [`WithdrawalRule::AnnulIfFewerThanHalfPlayed`]).
    pub annulled: usize,
    /// Rounds of a round-by-round round-robin not started yet: their games are lost by
    /// forfeit as each round starts.
    pub later_rounds: bool,
    /// A Swiss section: the player is not paired in the rounds to come.
    pub swiss: bool,
}

/// What withdrawing the signed-in player from the section would do.
///
/// # Errors
/// Unknown section (404), the player not entered or withdrawn already (404).
pub async fn withdrawal_preview(
    domain: &Domain,
    actor: &Account,
    section_id: i64,
) -> DomainResult<WithdrawalPreview> {
    let row = load_section(&domain.pool, section_id, false).await?;
    let entries = section_store::entries(&domain.pool, section_id, &row.variant, row.pool().as_str()).await?;
    if !entries.iter().any(|e| e.username == actor.username && e.status == "active") {
        return Err(DomainError::NotFound(format!("{} is not entered in this section", actor.username)));
    }
    let started = row.status != "registration";
    let records: Vec<GameRecord> =
        section_games(&domain.pool, section_id).await?.iter().map(SectionGame::record).collect();
    let changes = apply_withdrawal(PlayerId(actor.id), &records, row.withdrawal_rule());
    let annulled = changes.iter().filter(|c| c.to == GameResult::Annulled).count();
    let pairing = row.pairing()?;
    // Every entry, withdrawn ones too, as the round-robin's schedule counts them.
    let players: Vec<i64> =
        section_store::players(&domain.pool, section_id, &row.variant, row.pool().as_str())
            .await?
            .into_iter()
            .map(|(id, _, _)| id)
            .collect();
    let later_rounds = started
        && pairing != PairingSystem::Swiss
        && row.start_policy() == StartPolicy::RoundByRound
        && round_robin(&ids_of(&players), &round_robin_options(&row)?)
            .is_ok_and(|schedule| (row.current_round.max(0) as u32) < schedule.rounds);
    Ok(WithdrawalPreview {
        started,
        rule: row.withdrawal_rule(),
        forfeited: if started { changes.len() - annulled } else { 0 },
        annulled: if started { annulled } else { 0 },
        later_rounds,
        swiss: started && pairing == PairingSystem::Swiss,
    })
}
