//! Starting a section and pairing its rounds (round-robin batches, Swiss rounds).

use super::*;

/// What starting a section or a round created.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RoundStarted {
    /// The section after the start.
    pub section: SectionView,
    /// The games created, with their clocks running.
    pub games: Vec<i64>,
}

pub(crate) async fn active_entries(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    all: bool,
) -> DomainResult<Vec<i64>> {
    Ok(section_store::entered(tx, section_id, all).await?)
}

pub(crate) fn round_robin_options(row: &SectionRow) -> DomainResult<RoundRobinOptions> {
    Ok(RoundRobinOptions {
        cycles: if row.pairing()? == PairingSystem::DoubleRoundRobin {
            Cycles::Double
        } else {
            Cycles::Single
        },
        start: row.start_policy(),
        swap_last_two_rounds_of_first_cycle: false,
    })
}

/// Creates one tournament game with its clock running and links it to its round.
pub(crate) async fn create_game(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    row: &SectionRow,
    round: u32,
    board: u32,
    first: i64,
    second: i64,
) -> DomainResult<i64> {
    let variant: Variant = rules_adapter::parse_variant(&row.variant)?;
    let game_id = games::create_in(
        domain,
        tx,
        variant,
        &row.ruleset,
        row.handicap.as_deref(),
        None,
        row.time_control.0,
        row.vacation_allowed,
        &[first, second],
    )
    .await?;
    section_store::place_game(tx, game_id, row.tournament_id, row.section_id, round as i32, board as i32)
        .await?;
    if let Some(days) = row.vacation_days {
        // The section's vacation allowance, counted by the clocks of this game (§3).
        section_store::set_game_vacation_days(tx, game_id, days).await?;
    }
    if row.rated {
        // Rated by the one ending path (`games::finish`), as a rated challenge's game.
        crate::storage::ratings::mark_game_rated(tx, game_id).await?;
    }
    // The players hear of their pairing with the round (#17 §2).
    crate::storage::notifications::notify_round_started(tx, game_id, domain.clock.now()).await?;
    Ok(game_id)
}

/// Starts a section (directors only): draws the pairings and creates the games with their
/// clocks running — every game of a round-robin at once with the `all-together` start
/// policy, otherwise the first round (later rounds with [`next_round`]).
///
/// # Errors
/// Unknown section (404), not its director (403), already started or tournament finished
/// (409), too few players (422).
pub async fn start(domain: &Domain, actor: &Account, section_id: i64) -> DomainResult<RoundStarted> {
    let mut tx = domain.pool.begin().await?;
    let row = load_section(&mut *tx, section_id, true).await?;
    ensure_directs(&mut *tx, actor, row.tournament_id).await?;
    if row.status != "registration" {
        return Err(DomainError::Conflict(format!("the section is already {}", row.status)));
    }
    let tournament_status = store::status(&mut *tx, row.tournament_id, true).await?.unwrap_or_default();
    if tournament_status == "finished" {
        return Err(DomainError::Conflict("the tournament is finished".to_owned()));
    }
    if row.seeding() == Seeding::Rating {
        // The draw order is fixed now, from the ratings as they stand at the start.
        section_store::seed_by_rating(&mut tx, section_id, &row.variant, row.pool().as_str()).await?;
    }
    let players = active_entries(&mut tx, section_id, false).await?;
    if players.len() < 2 {
        return Err(DomainError::Invalid("a section needs at least two players".to_owned()));
    }
    let (games, current_round) = match row.pairing()? {
        PairingSystem::Swiss => {
            let ids: Vec<PlayerId> = players.iter().copied().map(PlayerId).collect();
            let created = pair_swiss(domain, &mut tx, &row, &ids, &[], &[]).await?;
            (created, 1)
        }
        _ => {
            // Withdrawals are only possible later; everyone entered is active now.
            let created = create_round_robin_batch(domain, &mut tx, &row, &players, 1).await?;
            let rounds = if row.start_policy() == StartPolicy::AllTogether {
                round_robin(&ids_of(&players), &round_robin_options(&row)?).map_err(pairing_error)?.rounds
            } else {
                1
            };
            (created, rounds as i32)
        }
    };
    section_store::set_round(&mut tx, section_id, current_round).await?;
    store::mark_running(&mut tx, row.tournament_id).await?;
    tx.commit().await?;
    Ok(RoundStarted { section: section(domain, section_id).await?, games })
}

pub(crate) fn ids_of(players: &[i64]) -> Vec<PlayerId> {
    players.iter().copied().map(PlayerId).collect()
}

pub(crate) fn pairing_error(error: impl std::fmt::Display) -> DomainError {
    DomainError::Invalid(format!("The section cannot be paired: {error}."))
}

/// Creates the games of start batch `batch` of a round-robin over `players` (every entry,
/// in draw order). A game of a player who has withdrawn is lost by forfeit at once (both
/// withdrawn: a double forfeit).
pub(crate) async fn create_round_robin_batch(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    row: &SectionRow,
    players: &[i64],
    batch: u32,
) -> DomainResult<Vec<i64>> {
    let schedule = round_robin(&ids_of(players), &round_robin_options(row)?).map_err(pairing_error)?;
    let withdrawn = section_store::withdrawn(tx, row.section_id).await?;
    let now = domain.clock.now();
    let mut created = Vec::new();
    for pairing in schedule.games.iter().filter(|p| p.start_batch == batch) {
        let game =
            create_game(domain, tx, row, pairing.round, pairing.board, pairing.first.0, pairing.second.0)
                .await?;
        let result = match (withdrawn.contains(&pairing.first.0), withdrawn.contains(&pairing.second.0)) {
            (true, true) => Some(GameResult::DoubleForfeit),
            (true, false) => Some(GameResult::ForfeitSecondWins),
            (false, true) => Some(GameResult::ForfeitFirstWins),
            (false, false) => None,
        };
        if let Some(result) = result {
            set_result(tx, game, result, now).await?;
        }
        created.push(game);
    }
    Ok(created)
}

pub(crate) async fn pair_swiss(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    row: &SectionRow,
    players: &[PlayerId],
    games: &[GameRecord],
    byes: &[SwissBye],
) -> DomainResult<Vec<i64>> {
    // The Dutch system's search grows fast with a section's size: off the async workers.
    let (players, games, byes, options) =
        (players.to_vec(), games.to_vec(), byes.to_vec(), row.swiss_options());
    let paired = domain.rules_work.run(move || pair_swiss_round(&players, &games, &byes, &options)).await?;
    let round = paired.map_err(|e| match e {
        SwissError::RoundNotFinished(game) => {
            DomainError::Conflict(format!("game {} of the last round is not finished", game.0))
        }
        other => pairing_error(other),
    })?;
    let mut created = Vec::new();
    for pairing in &round.pairings {
        created.push(
            create_game(domain, tx, row, round.round, pairing.board, pairing.first.0, pairing.second.0)
                .await?,
        );
    }
    if let Some(bye) = round.bye {
        section_store::insert_bye(tx, row.section_id, round.round as i32, bye.0).await?;
    }
    Ok(created)
}

pub(crate) async fn section_byes(
    executor: impl sqlx::PgExecutor<'_>,
    section_id: i64,
) -> DomainResult<Vec<SwissBye>> {
    let rows = section_store::byes(executor, section_id).await?;
    Ok(rows
        .into_iter()
        .map(|(round, player)| SwissBye { round: round as u32, player: PlayerId(player) })
        .collect())
}

/// Starts the next round of a running section (directors only): the next Swiss round once
/// the previous one is finished, or the next round of a round-by-round round-robin.
///
/// # Errors
/// Unknown section (404), not its director (403), not running, every round already started
/// or the last Swiss round unfinished (409).
pub async fn next_round(domain: &Domain, actor: &Account, section_id: i64) -> DomainResult<RoundStarted> {
    let mut tx = domain.pool.begin().await?;
    let row = load_section(&mut *tx, section_id, true).await?;
    ensure_directs(&mut *tx, actor, row.tournament_id).await?;
    if row.status != "running" {
        return Err(DomainError::Conflict(format!("the section is {}", row.status)));
    }
    let next = row.current_round + 1;
    let games = match row.pairing()? {
        PairingSystem::Swiss => {
            if row.swiss_rounds.is_some_and(|planned| next > planned) {
                return Err(DomainError::Conflict("every planned round has been paired".to_owned()));
            }
            let players = ids_of(&active_entries(&mut tx, section_id, false).await?);
            let records: Vec<GameRecord> =
                section_games(&mut *tx, section_id).await?.iter().map(SectionGame::record).collect();
            let byes = section_byes(&mut *tx, section_id).await?;
            pair_swiss(domain, &mut tx, &row, &players, &records, &byes).await?
        }
        _ => {
            let players = active_entries(&mut tx, section_id, true).await?;
            let rounds =
                round_robin(&ids_of(&players), &round_robin_options(&row)?).map_err(pairing_error)?.rounds;
            if next as u32 > rounds {
                return Err(DomainError::Conflict("every round has started".to_owned()));
            }
            create_round_robin_batch(domain, &mut tx, &row, &players, next as u32).await?
        }
    };
    section_store::set_round(&mut tx, section_id, next).await?;
    tx.commit().await?;
    Ok(RoundStarted { section: section(domain, section_id).await?, games })
}
