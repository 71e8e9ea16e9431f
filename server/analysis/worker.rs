//! The analysis workers (issue 41 §1, §3): each owns one engine process, claims one queued
//! game at a time, and stores its analysis. An engine that dies or stops answering is
//! killed and started again for the next game; the game it failed on is queued again,
//! and given up after `max_attempts` claims.

use std::time::Duration;

use tokio::sync::watch;

use super::uci::{Engine, EngineError};
use super::{engine_positions, engine_variant, plies, Analysis, Evaluated};
use crate::domain::games;
use crate::domain::Domain;
use crate::storage::analysis as storage;

/// Runs this instance's workers until `shutdown` changes. A worker stopped mid-analysis
/// queues its game again for the next worker (of any instance).
pub async fn run(domain: Domain, analysis: Analysis, shutdown: watch::Receiver<bool>) {
    let workers: Vec<_> = (0..analysis.workers())
        .map(|_| tokio::spawn(work(domain.clone(), analysis.clone(), shutdown.clone())))
        .collect();
    for worker in workers {
        let _ = worker.await;
    }
}

/// One worker: its engine, the games it claims one after the other, a pause when there
/// are none.
async fn work(domain: Domain, analysis: Analysis, mut shutdown: watch::Receiver<bool>) {
    let poll = Duration::from_millis(analysis.settings().poll_interval_ms.max(10));
    let mut engine: Option<Engine> = None;
    loop {
        loop {
            if *shutdown.borrow() {
                return;
            }
            match step(&domain, &analysis, &mut engine, &mut shutdown).await {
                Ok(true) => {}
                Ok(false) => break,
                Err(error) => {
                    tracing::warn!(%error, "analysis: cannot claim a game");
                    break;
                }
            }
        }
        tokio::select! {
            () = tokio::time::sleep(poll) => {}
            _ = shutdown.changed() => return,
        }
    }
}

/// Why one game's analysis stopped.
#[derive(Debug, thiserror::Error)]
enum Stop {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Domain(#[from] crate::domain::DomainError),
    /// The claim could not be renewed (the database): not the game's fault.
    #[error("renewing the claim: {0}")]
    Database(crate::domain::DomainError),
    #[error("another worker took the game over")]
    ClaimLost,
    #[error("shutting down")]
    Shutdown,
}

/// Claims one game and analyses it → whether there was one.
async fn step(
    domain: &Domain,
    analysis: &Analysis,
    engine: &mut Option<Engine>,
    shutdown: &mut watch::Receiver<bool>,
) -> crate::domain::DomainResult<bool> {
    let settings = analysis.settings();
    let claim = time::Duration::seconds(settings.claim_seconds.max(1) as i64);
    let now = domain.clock.now();
    let Some((game_id, attempt)) = storage::claim(&domain.pool, now, now + claim).await? else {
        return Ok(false);
    };
    if attempt > settings.max_attempts {
        let error = format!("given up after {} attempts", attempt - 1);
        metrics::counter!("tavoliere_analysis_games_total", "outcome" => "failed").increment(1);
        storage::release(&domain.pool, game_id, attempt, Some(&error), true, now).await?;
        return Ok(true);
    }
    tracing::info!(game.id = game_id, attempt, "analysis started");
    let analysed = tokio::select! {
        analysed = analyse(domain, analysis, engine, game_id, attempt) => analysed,
        _ = shutdown.changed() => Err(Stop::Shutdown),
    };
    let now = domain.clock.now();
    match analysed {
        Ok((name, depth, plies)) => {
            let plies = serde_json::to_value(&plies).map_err(anyhow::Error::from)?;
            storage::finish(&domain.pool, game_id, attempt, (&name, depth, &plies), now).await?;
            metrics::counter!("tavoliere_analysis_games_total", "outcome" => "done").increment(1);
            tracing::info!(game.id = game_id, "analysis done");
        }
        Err(Stop::ClaimLost) => tracing::warn!(game.id = game_id, "analysis: the claim ran out"),
        Err(Stop::Shutdown) => {
            // The engine dies with its worker; the game waits for the next one.
            *engine = None;
            storage::release(&domain.pool, game_id, attempt, None, false, now).await?;
        }
        Err(error) => {
            tracing::warn!(game.id = game_id, attempt, %error, "analysis failed");
            if matches!(error, Stop::Engine(_)) {
                // Dead, hung or confused: a new process for the next game.
                *engine = None;
            }
            // A game that cannot be analysed (it does not replay, a variant the engine does
            // not play) is given up at once; an engine's or the database's trouble is tried
            // again, up to `max_attempts` claims.
            let give_up = attempt >= settings.max_attempts || matches!(error, Stop::Domain(_));
            let outcome = if give_up { "failed" } else { "retried" };
            metrics::counter!("tavoliere_analysis_games_total", "outcome" => outcome).increment(1);
            storage::release(&domain.pool, game_id, attempt, Some(&error.to_string()), give_up, now).await?;
        }
    }
    Ok(true)
}

/// Searches every position of `game_id` → the engine's name, the depth, the plies.
async fn analyse(
    domain: &Domain,
    analysis: &Analysis,
    engine: &mut Option<Engine>,
    game_id: i64,
    attempt: i32,
) -> Result<(String, i32, Vec<super::PlyAnalysis>), Stop> {
    let view = games::view(domain, game_id).await.map_err(|e| match e.kind() {
        crate::domain::ErrorKind::NotFound => Stop::Domain(e),
        _ => Stop::Database(e),
    })?;
    let variant = engine_variant(&view)?;
    let positions = engine_positions(&view, variant)?;
    if engine.as_mut().is_some_and(|e| !e.is_alive()) {
        *engine = None;
    }
    let running = match engine {
        Some(running) => running,
        None => engine.insert(Engine::start(analysis.engine(), analysis.engine_timeout()).await?),
    };
    running.new_game(variant.uci_name()).await?;
    let claim = time::Duration::seconds(analysis.settings().claim_seconds.max(1) as i64);
    let limit = analysis.limit();
    let mut evaluated = Vec::with_capacity(view.moves.len());
    let mut depth = u32::MAX;
    for (position, played) in positions.iter().zip(&view.moves) {
        let best = running.search(&position.fen, &position.moves, limit, None).await?;
        let played = variant
            .to_engine(&played.canonical)
            .map_err(|e| crate::domain::DomainError::Internal(e.into()))?;
        let played_score = if best.best.as_deref() == Some(played.as_str()) {
            best.score
        } else {
            let only = running.search(&position.fen, &position.moves, limit, Some(&played)).await?;
            // An engine that searched another move did not read ours: a coordinate error.
            if only.best.as_deref() != Some(played.as_str()) {
                return Err(Stop::Engine(EngineError::Protocol(format!(
                    "searchmoves {played} answered {:?}",
                    only.best
                ))));
            }
            only.score
        };
        metrics::counter!("tavoliere_analysis_searches_total")
            .increment(if best.best.as_deref() == Some(played.as_str()) { 1 } else { 2 });
        depth = depth.min(best.depth);
        evaluated.push(Evaluated {
            mover: position.side,
            best: best.best,
            best_score: best.score,
            played_score,
        });
        let renewed = storage::extend(&domain.pool, game_id, attempt, domain.clock.now() + claim).await;
        if !renewed.map_err(Stop::Database)? {
            return Err(Stop::ClaimLost);
        }
    }
    let played: Vec<String> = view.moves.iter().map(|m| m.canonical.clone()).collect();
    let plies = plies(variant, &evaluated, &played)
        .map_err(|e| Stop::Engine(EngineError::Protocol(e.to_string())))?;
    let depth = limit.depth.unwrap_or(if depth == u32::MAX { 0 } else { depth });
    Ok((running.name().to_owned(), depth as i32, plies))
}
