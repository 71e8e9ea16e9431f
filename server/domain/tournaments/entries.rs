//! Entries: registration, seeds and withdrawals.

use super::*;

/// Registers a player in a section. Without `username` (or with one's own) a player
/// registers themself while the tournament takes registrations; a director may register
/// anyone (with a seed) until the section starts.
///
/// # Errors
/// Unknown section or player (404/422), registering someone else without directing the
/// tournament (403), registration closed or already entered (409).
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
            return Err(DomainError::Conflict(format!(
                "the tournament is not taking registrations ({status})"
            )));
        }
    }
    if row.status != "registration" {
        return Err(DomainError::Conflict("the section has started: no more entries".to_owned()));
    }
    refuse_seed_when_rated(&row, seed)?;
    if !section_store::insert_entry(&mut tx, section_id, player_id, seed, domain.clock.now()).await? {
        return Err(DomainError::Conflict("already entered in this section".to_owned()));
    }
    tx.commit().await?;
    section(domain, section_id).await
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
    section(domain, section_id).await
}
