//! Results: what a game counts as, and the directors' decisions with their audit trail.

use super::*;

impl SectionGame {
    pub(crate) fn result(&self) -> GameResult {
        game_result(self.status, self.result.as_ref(), self.reason, self.tournament_result.as_deref())
    }

    pub(crate) fn record(&self) -> GameRecord {
        GameRecord {
            game: GameId(self.game_id),
            round: self.round.max(0) as u32,
            first: PlayerId(self.first_id),
            second: PlayerId(self.second_id),
            result: self.result(),
        }
    }
}

pub(crate) async fn section_games(
    executor: impl sqlx::PgExecutor<'_>,
    section_id: i64,
) -> DomainResult<Vec<SectionGame>> {
    Ok(section_store::games(executor, section_id).await?)
}

/// The stored name of a result (kebab-case, as `GameResult` serializes).
pub fn result_name(result: GameResult) -> &'static str {
    match result {
        GameResult::FirstWins => "first-wins",
        GameResult::SecondWins => "second-wins",
        GameResult::Draw => "draw",
        GameResult::ForfeitFirstWins => "forfeit-first-wins",
        GameResult::ForfeitSecondWins => "forfeit-second-wins",
        GameResult::DoubleForfeit => "double-forfeit",
        GameResult::Pending => "pending",
        GameResult::Annulled => "annulled",
    }
}

pub(crate) fn parse_result_name(text: &str) -> Option<GameResult> {
    serde_json::from_value(serde_json::Value::String(text.to_owned())).ok()
}

/// A result as a director writes it: a score (`1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`, `--`)
/// or a result name.
pub(crate) fn parse_decided_result(text: &str) -> DomainResult<GameResult> {
    let score = match text {
        "1-0" => Some(GameResult::FirstWins),
        "0-1" => Some(GameResult::SecondWins),
        "1/2-1/2" | "½-½" => Some(GameResult::Draw),
        "+-" | "1-0 forfeit" => Some(GameResult::ForfeitFirstWins),
        "-+" | "0-1 forfeit" => Some(GameResult::ForfeitSecondWins),
        "--" => Some(GameResult::DoubleForfeit),
        _ => None,
    };
    score.or_else(|| parse_result_name(text)).ok_or_else(|| {
        DomainError::Invalid(format!(
            "unknown result {text:?} (1-0, 0-1, 1/2-1/2, first-wins, second-wins, draw, \
             forfeit-first-wins, forfeit-second-wins, double-forfeit, annulled)"
        ))
    })
}

/// What a tournament game counts as in the standings: a director's decision when there is
/// one, otherwise the game row (active or aborted: pending; finished: the result, a win
/// given by forfeit counted as a forfeit).
pub fn game_result(
    status: GameStatus,
    result: Option<&BoardResult>,
    reason: Option<GameReason>,
    decided: Option<&str>,
) -> GameResult {
    if let Some(decided) = decided.and_then(parse_result_name) {
        return decided;
    }
    if status != GameStatus::Finished {
        return GameResult::Pending;
    }
    let forfeit = reason == Some(EndReason::Forfeit.into());
    match (result, forfeit) {
        (Some(BoardResult::FirstWins), false) => GameResult::FirstWins,
        (Some(BoardResult::SecondWins), false) => GameResult::SecondWins,
        (Some(BoardResult::Draw), _) => GameResult::Draw,
        (Some(BoardResult::FirstWins), true) => GameResult::ForfeitFirstWins,
        (Some(BoardResult::SecondWins), true) => GameResult::ForfeitSecondWins,
        (Some(BoardResult::DoubleForfeit), _) => GameResult::DoubleForfeit,
        // A tournament game has two seats; places are no tournament result.
        (Some(BoardResult::Places(_)) | None, _) => GameResult::Pending,
    }
}

/// Stores a director's result: an active game ends through the games' one ending
/// function (finished with the result, or stopped when annulled) and the decision
/// overrides the board result in the standings. Returns whether the game itself changed
/// (the caller announces it after the commit: [`games::announce_stored`]).
pub(crate) async fn set_result(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    result: GameResult,
    now: OffsetDateTime,
) -> DomainResult<bool> {
    let ending = match result {
        GameResult::FirstWins => games::Ending::two_seat(Some(0), EndReason::Adjudication),
        GameResult::SecondWins => games::Ending::two_seat(Some(1), EndReason::Adjudication),
        GameResult::Draw => games::Ending::two_seat(None, EndReason::Adjudication),
        GameResult::ForfeitFirstWins => games::Ending::two_seat(Some(0), EndReason::Forfeit),
        GameResult::ForfeitSecondWins => games::Ending::two_seat(Some(1), EndReason::Forfeit),
        GameResult::DoubleForfeit => games::Ending::double_forfeit(),
        GameResult::Annulled => {
            let stopped = games::stop(tx, game_id, games::GameReason::Annulled, now).await?;
            store_decision(tx, game_id, result).await?;
            return Ok(stopped);
        }
        GameResult::Pending => {
            return Err(DomainError::Invalid("a game cannot be set back to pending".to_owned()));
        }
    };
    let ended = games::finish(tx, game_id, &ending, now).await?;
    store_decision(tx, game_id, result).await?;
    Ok(ended)
}

pub(crate) async fn store_decision(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    result: GameResult,
) -> DomainResult<()> {
    Ok(section_store::store_decision(tx, game_id, result_name(result)).await?)
}

#[allow(clippy::too_many_arguments)]
pub(crate) async fn audit(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    actor_id: i64,
    now: OffsetDateTime,
    kind: &str,
    from: GameResult,
    to: GameResult,
    reason: &str,
) -> DomainResult<()> {
    let entry = section_store::AuditEntry {
        game_id,
        changed_by: actor_id,
        changed_at: now,
        kind,
        old_result: result_name(from),
        new_result: result_name(to),
        reason,
    };
    Ok(section_store::insert_audit(tx, &entry).await?)
}

/// A director's decision on a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Adjudication of an unfinished game: a win or a draw over the board.
    Adjudication,
    /// A forfeit of an unfinished game.
    Forfeit,
    /// A correction of any result.
    Correction,
}

impl Decision {
    pub(crate) fn kind(self) -> &'static str {
        match self {
            Decision::Adjudication => "adjudication",
            Decision::Forfeit => "forfeit",
            Decision::Correction => "correction",
        }
    }
}

/// A tournament game's result after a decision.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct GameDecision {
    /// The game.
    pub game_id: i64,
    /// What it counts as now.
    pub result: GameResult,
}

/// Decides a tournament game's result (its tournament's directors or an admin) and records
/// who, when and why in the audit trail. Adjudications and forfeits apply to unfinished
/// games only; a correction may change any result except back to pending. `result` is a
/// score (`1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`, `--`) or a result name (`first-wins`...).
///
/// Who may decide is settled before what is decided: anyone but an admin or a director of
/// the game's tournament is refused (403) whatever the game and the body; only then are a
/// casual game, the result and the reason checked.
///
/// # Errors
/// Unknown game (404), not a director of its tournament (403; a casual game has none), an
/// admin naming a casual game (422), an empty reason or a result that is unknown or does
/// not fit the decision (422), a finished game adjudicated or forfeited (409).
pub async fn decide(
    domain: &Domain,
    actor: &Account,
    game_id: i64,
    decision: Decision,
    result: &str,
    reason: &str,
) -> DomainResult<GameDecision> {
    let mut tx = domain.pool.begin().await?;
    let game = section_store::lock_game(&mut tx, game_id)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no game {game_id}")))?;
    match game.tournament_id {
        Some(tournament_id) => ensure_directs(&mut *tx, actor, tournament_id).await?,
        // Nobody directs a casual game: only an admin learns that it is one.
        None if actor.role.directs_all() => {
            return Err(DomainError::Invalid(format!("game {game_id} is not a tournament game")))
        }
        None => {
            return Err(DomainError::Forbidden(
                "only the directors of the game's tournament may decide its result".to_owned(),
            ))
        }
    }
    let result = parse_decided_result(result)?;
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(DomainError::Invalid("say why: a reason is required".to_owned()));
    }
    let fits = match decision {
        Decision::Adjudication => result.is_played(),
        Decision::Forfeit => result.is_forfeit(),
        Decision::Correction => result != GameResult::Pending,
    };
    if !fits {
        return Err(DomainError::Invalid(format!(
            "{} is not a possible {}",
            result_name(result),
            decision.kind()
        )));
    }
    let before = game.result();
    if decision != Decision::Correction && before != GameResult::Pending {
        return Err(DomainError::Conflict(format!(
            "the game already has a result ({}): correct it instead",
            result_name(before)
        )));
    }
    let now = domain.clock.now();
    let ended = set_result(&mut tx, game_id, result, now).await?;
    audit(&mut tx, game_id, actor.id, now, decision.kind(), before, result, reason).await?;
    tx.commit().await?;
    if ended {
        // A watcher sees the director's decision at once, like any other ending.
        games::announce_stored(domain, &[game_id]).await;
    } else {
        // A decision on a game already over (an aborted game decided, a correction) may
        // give its round its last result too.
        note_final_rounds_of_game(domain, game_id).await;
    }
    Ok(GameDecision { game_id, result })
}

/// One entry of a game's audit trail.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct CorrectionView {
    /// Who decided.
    pub changed_by: String,
    /// When.
    #[serde(with = "time::serde::rfc3339")]
    pub changed_at: OffsetDateTime,
    /// `adjudication`, `forfeit`, `correction` or `withdrawal`.
    pub kind: String,
    /// The result before.
    pub old_result: String,
    /// The result after.
    pub new_result: String,
    /// Why.
    pub reason: String,
}

/// The audit trail of a game's result, oldest first.
///
/// # Errors
/// Database failure.
pub async fn corrections(domain: &Domain, game_id: i64) -> DomainResult<Vec<CorrectionView>> {
    Ok(section_store::corrections(&domain.pool, game_id).await?)
}
