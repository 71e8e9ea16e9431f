//! Computer analysis of finished games with Fairy-Stockfish (issue 41).
//!
//! A signed-in account asks for a finished game's analysis ([`request`]); the request is a
//! row of the queue in PostgreSQL (`storage::analysis`), which the workers of every
//! instance ([`worker::run`]) claim one game at a time. A worker owns one engine process
//! ([`uci::Engine`], started when first needed, at nice 19, started again when it dies or
//! stops answering), searches the position before every ply from the game's real start
//! (`position fen <start> moves ...`, coordinates converted in [`coords`]) twice, among all
//! moves and among the played one alone (`searchmoves`), and stores for each ply the
//! played move's score, the engine's best move and the judgement of the change of the
//! mover's winning chances between the two ([`judgement`], [`Evaluated`]). The result is stored, so it is
//! computed once.

pub mod coords;
pub mod judgement;
pub mod uci;
pub mod worker;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tavoliere_rules::Color;

use crate::config::AnalysisSettings;
use crate::domain::error::{DomainError, DomainResult, ErrorKind};
use crate::domain::games::{self, GameStatus, GameView};
use crate::domain::{rules_adapter, Domain};
use crate::storage::analysis as storage;
use coords::EngineVariant;
use judgement::Judgement;
use uci::{Limit, Score};

/// The window of the per-account limit on requests.
const REQUEST_WINDOW: time::Duration = time::Duration::DAY;

/// The analysis service of this instance: its engine and settings (`None` in the state when
/// no engine is installed: the feature is off).
#[derive(Clone, Debug)]
pub struct Analysis(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    engine: PathBuf,
    limit: Limit,
    workers: usize,
    settings: AnalysisSettings,
}

/// The engine's program: `configured`, else `fairy-stockfish` on the `PATH`, else
/// Debian's `/usr/games/fairy-stockfish`; `None` when there is no such file.
pub fn find_engine(configured: Option<&Path>) -> Option<PathBuf> {
    if let Some(path) = configured {
        return path.is_file().then(|| path.to_owned());
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join("fairy-stockfish"));
    on_path.chain(std::iter::once(PathBuf::from("/usr/games/fairy-stockfish"))).find(|path| path.is_file())
}

/// Workers for `configured` (0: one per two cores) on a machine of `cores`: never more than
/// the cores less one, at least one (issue 41 §1: play keeps a core).
pub fn worker_count(configured: usize, cores: usize) -> usize {
    let wanted = if configured == 0 { cores / 2 } else { configured };
    wanted.min(cores.saturating_sub(1)).max(1)
}

impl Analysis {
    /// The service for `settings`, `None` (the feature off, logged) without an engine.
    pub fn from_settings(settings: &AnalysisSettings) -> Option<Analysis> {
        let Some(engine) = find_engine(settings.engine.as_deref()) else {
            tracing::info!(
                configured = ?settings.engine,
                "no Fairy-Stockfish engine found ([analysis] engine): computer analysis is off"
            );
            return None;
        };
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let limit = Limit {
            depth: (settings.depth > 0).then_some(settings.depth),
            nodes: (settings.nodes > 0).then_some(settings.nodes),
        };
        // Neither limit set would search forever.
        let limit = if limit.depth.is_none() && limit.nodes.is_none() {
            Limit { depth: Some(12), nodes: None }
        } else {
            limit
        };
        let workers = worker_count(settings.workers, cores);
        tracing::info!(engine = %engine.display(), workers, ?limit, "computer analysis on");
        Some(Analysis(Arc::new(Inner { engine, limit, workers, settings: settings.clone() })))
    }

    /// The engine's program.
    pub fn engine(&self) -> &Path {
        &self.0.engine
    }

    /// Engine processes at once on this instance.
    pub fn workers(&self) -> usize {
        self.0.workers
    }

    /// How far each position is searched.
    pub fn limit(&self) -> Limit {
        self.0.limit
    }

    /// Whether this instance runs workers (`poll_interval_ms` 0: it only queues, others
    /// analyse).
    pub fn polls(&self) -> bool {
        self.0.settings.poll_interval_ms > 0
    }

    fn settings(&self) -> &AnalysisSettings {
        &self.0.settings
    }

    fn engine_timeout(&self) -> Duration {
        Duration::from_secs(self.0.settings.engine_timeout_seconds.max(1))
    }
}

/// Where an analysis is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AnalysisStatus {
    /// Waiting for a worker.
    Queued,
    /// Being computed.
    Running,
    /// Computed: the plies are there.
    Done,
    /// Given up (the engine kept failing on it).
    Failed,
}

/// A score from the first player's point of view (Red, sente): centipawns or a mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub enum PlyScore {
    /// Centipawns (positive: the first player is better).
    #[serde(rename = "cp")]
    Cp(i32),
    /// Mate in this many moves (positive: the first player mates).
    #[serde(rename = "mate")]
    Mate(i32),
}

/// One ply of an analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PlyAnalysis {
    /// 1-based ply.
    pub ply: i32,
    /// The move played, canonical (ICCS, USI).
    #[serde(rename = "move")]
    pub played: String,
    /// The value of the move played, from the first player's point of view (the position
    /// before it searched among that move alone, to the depth of the best move's search).
    pub score: PlyScore,
    /// The engine's best move in the position before it, canonical.
    pub best: Option<String>,
    /// How much the move lowered its player's winning chances (lichess's thresholds:
    /// 0.1 inaccuracy, 0.2 mistake, 0.3 blunder); `null` for a good move.
    pub judgement: Option<Judgement>,
}

/// A game's computer analysis.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct AnalysisView {
    /// `queued`, `running`, `done` or `failed`.
    pub status: AnalysisStatus,
    /// The engine's name and version (once done).
    pub engine: Option<String>,
    /// The depth each position was searched to (once done).
    pub depth: Option<i32>,
    /// Every ply, once done (empty before).
    pub plies: Vec<PlyAnalysis>,
}

impl AnalysisView {
    fn of(row: storage::AnalysisRow) -> DomainResult<AnalysisView> {
        let status = match row.status.as_str() {
            "queued" => AnalysisStatus::Queued,
            "running" => AnalysisStatus::Running,
            "done" => AnalysisStatus::Done,
            "failed" => AnalysisStatus::Failed,
            other => return Err(anyhow::anyhow!("unknown analysis status {other}").into()),
        };
        let plies = match row.plies {
            Some(plies) => serde_json::from_value(plies).map_err(anyhow::Error::from)?,
            None => Vec::new(),
        };
        Ok(AnalysisView { status, engine: row.engine, depth: row.depth, plies })
    }
}

/// 503 `analysis.unavailable`: no engine on this server.
pub fn unavailable() -> DomainError {
    DomainError::coded(
        ErrorKind::Unavailable,
        "analysis.unavailable",
        "Computer analysis is not available on this server (no engine is installed).",
    )
}

/// The engine's variant of a game, or 422 `analysis.unsupported-variant`.
///
/// # Errors
/// A variant the engine cannot play (Flickering chess, the Seven Kingdoms).
pub fn engine_variant(view: &GameView) -> DomainResult<EngineVariant> {
    let variant = rules_adapter::parse_variant(&view.variant)?;
    EngineVariant::of(variant).ok_or_else(|| {
        DomainError::coded(
            ErrorKind::Invalid,
            "analysis.unsupported-variant",
            format!("The engine cannot analyse {variant} games."),
        )
    })
}

/// Queues the analysis of `game_id` for `account_id` (a game requested already: nothing
/// changes, its state is answered).
///
/// # Errors
/// No engine (503), unknown game (404), a variant the engine cannot play (422), an active
/// game (409: no engine help during a game), the account's daily limit used up (429).
pub async fn request(
    domain: &Domain,
    analysis: Option<&Analysis>,
    game_id: i64,
    account_id: i64,
) -> DomainResult<AnalysisView> {
    let analysis = analysis.ok_or_else(unavailable)?;
    let view = games::view(domain, game_id).await?;
    engine_variant(&view)?;
    if view.status == GameStatus::Active {
        return Err(DomainError::coded(
            ErrorKind::Conflict,
            "analysis.game-active",
            "A game is analysed once it is over: no engine help during a game.",
        ));
    }
    let now = domain.clock.now();
    let mut tx = domain.pool.begin().await?;
    storage::lock_account(&mut tx, account_id).await?;
    if storage::queue(&mut tx, game_id, account_id, now).await? {
        let limit = analysis.settings().requests_per_account_per_day as usize;
        let times = storage::requested_since(&mut tx, account_id, now - REQUEST_WINDOW).await?;
        if times.len() > limit {
            tx.rollback().await?;
            // Room again once the oldest request counted leaves the window.
            let wait =
                times.get(times.len() - limit - 1).map_or(REQUEST_WINDOW, |&at| at + REQUEST_WINDOW - now);
            return Err(DomainError::Limited {
                code: "analysis.daily-limit",
                detail: format!("An account may request at most {limit} analyses in 24 hours."),
                retry_after: u64::try_from(wait.whole_seconds()).unwrap_or(1).max(1),
            });
        }
    }
    tx.commit().await?;
    show(domain, game_id).await
}

/// The analysis of `game_id`.
///
/// # Errors
/// None requested (404 `analysis.not-requested`).
pub async fn show(domain: &Domain, game_id: i64) -> DomainResult<AnalysisView> {
    match storage::get(&domain.pool, game_id).await? {
        Some(row) => AnalysisView::of(row),
        None => Err(DomainError::coded(
            ErrorKind::NotFound,
            "analysis.not-requested",
            "No analysis of this game was requested.",
        )),
    }
}

/// The analysis of `game_id`, if any (the game page).
///
/// # Errors
/// Database failure.
pub async fn find(domain: &Domain, game_id: i64) -> DomainResult<Option<AnalysisView>> {
    storage::get(&domain.pool, game_id).await?.map(AnalysisView::of).transpose()
}

/// A position as the engine is given it: a FEN and the moves since.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnginePosition {
    /// The engine's FEN of the game's start (or of the last turn of several moves).
    pub fen: String,
    /// The moves since, in the engine's notation.
    pub moves: Vec<String>,
    /// The side to move.
    pub side: Color,
}

/// Every position of the game in `view`, its start first, for the engine: the moves from
/// the game's real start (handicap, custom start position). A turn of several moves of
/// one side (Xiangqi move handicaps) cannot be a UCI move list: the position after it
/// starts a new FEN.
///
/// # Errors
/// The stored game does not replay, or a move is not on the engine's board.
pub fn engine_positions(view: &GameView, variant: EngineVariant) -> DomainResult<Vec<EnginePosition>> {
    let broken =
        |e: String| DomainError::Internal(anyhow::anyhow!("game {} cannot be analysed: {e}", view.id));
    let rules = rules_adapter::parse_variant(&view.variant)?;
    let mut game = rules_adapter::new_game(
        rules,
        &view.ruleset,
        view.handicap.as_deref(),
        view.start_position.as_deref(),
        view.seat_count as usize,
    )?;
    let mut fen = variant.engine_fen(&game.start_fen()).map_err(|e| broken(e.to_string()))?;
    let mut moves: Vec<String> = Vec::new();
    let mut positions =
        vec![EnginePosition { fen: fen.clone(), moves: Vec::new(), side: game.side_to_move() }];
    for played in &view.moves {
        let mover = game.side_to_move();
        game.play(&played.canonical).map_err(|e| broken(e.to_string()))?;
        if game.side_to_move() == mover {
            fen = variant.engine_fen(&game.fen()).map_err(|e| broken(e.to_string()))?;
            moves.clear();
        } else {
            moves.push(variant.to_engine(&played.canonical).map_err(|e| broken(e.to_string()))?);
        }
        positions.push(EnginePosition { fen: fen.clone(), moves: moves.clone(), side: game.side_to_move() });
    }
    Ok(positions)
}

/// One ply as the engine judged it, from the position before it: the mover, the best
/// move and its score, and the played move's score, both searched from that position to
/// the same limit (the played one with UCI `searchmoves`), so that the change of winning
/// chances compares two values of one search depth and is not the noise of two searches of
/// different positions (Fairy-Stockfish's Xiangqi scores swing by a pawn between the
/// sides to move at modest depths).
#[derive(Clone, Debug)]
pub struct Evaluated {
    /// The side that played the move.
    pub mover: Color,
    /// The engine's best move, engine notation.
    pub best: Option<String>,
    /// The best move's score, from the mover's point of view.
    pub best_score: Score,
    /// The played move's score, from the mover's point of view.
    pub played_score: Score,
}

/// The plies of an analysis from the evaluated plies and the moves played.
///
/// # Errors
/// A best move that is not on the engine's board.
pub fn plies(
    variant: EngineVariant,
    evaluated: &[Evaluated],
    played: &[String],
) -> Result<Vec<PlyAnalysis>, coords::CoordError> {
    let mut plies = Vec::with_capacity(played.len());
    for (i, (ply, played)) in evaluated.iter().zip(played).enumerate() {
        let best = ply.best.as_deref().map(|m| variant.from_engine(m)).transpose()?;
        let judgement = if best.as_deref() == Some(played.as_str()) {
            None
        } else {
            judgement::judge(ply.best_score, ply.played_score)
        };
        let first = if ply.mover == Color::First { ply.played_score } else { ply.played_score.flipped() };
        let score = match first {
            Score::Cp(cp) => PlyScore::Cp(cp),
            Score::Mate(n) => PlyScore::Mate(n),
        };
        plies.push(PlyAnalysis { ply: i as i32 + 1, played: played.clone(), score, best, judgement });
    }
    Ok(plies)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(mover: Color, best: &str, best_score: Score, played_score: Score) -> Evaluated {
        Evaluated { mover, best: Some(best.to_owned()), best_score, played_score }
    }

    #[test]
    fn scores_are_the_first_players_and_judgements_the_movers() {
        let x = EngineVariant::Xiangqi;
        let evaluated = [
            // 1. h2e2, a little less than the engine's move.
            at(Color::First, "c1e3", Score::Cp(54), Score::Cp(10)),
            // 1... h7h2: Black loses its cannon.
            at(Color::Second, "b10c8", Score::Cp(-4), Score::Cp(-497)),
            // 2. b2h2, the engine's own move.
            at(Color::First, "b3h3", Score::Cp(513), Score::Cp(490)),
        ];
        let plies = plies(x, &evaluated, &["h2e2".to_owned(), "h7h2".to_owned(), "b2h2".to_owned()]).unwrap();
        assert_eq!(plies[0].score, PlyScore::Cp(10));
        assert_eq!(plies[0].best.as_deref(), Some("c0e2"));
        assert_eq!(plies[0].judgement, None);
        assert_eq!(plies[1].score, PlyScore::Cp(497), "from Red's point of view");
        assert_eq!(plies[1].best.as_deref(), Some("b9c7"));
        assert_eq!(plies[1].judgement, Some(Judgement::Blunder));
        assert_eq!(plies[2].judgement, None, "the engine's move is never judged");
    }

    #[test]
    fn a_mate_let_go_is_a_blunder_and_a_mate_given_is_good() {
        let x = EngineVariant::Xiangqi;
        let evaluated = [at(Color::Second, "a10a1", Score::Mate(1), Score::Cp(0))];
        let let_go = plies(x, &evaluated, &["a8a7".to_owned()]).unwrap();
        assert_eq!(let_go[0].judgement, Some(Judgement::Blunder));
        let evaluated = [at(Color::Second, "a10a1", Score::Mate(1), Score::Mate(1))];
        let given = plies(x, &evaluated, &["a8a0".to_owned()]).unwrap();
        assert_eq!(given[0].judgement, None);
        assert_eq!(given[0].score, PlyScore::Mate(-1), "Black mates: negative from Red's point of view");
    }

    #[test]
    fn workers_leave_play_a_core() {
        assert_eq!(worker_count(0, 2), 1);
        assert_eq!(worker_count(0, 8), 4);
        assert_eq!(worker_count(8, 8), 7);
        assert_eq!(worker_count(3, 1), 1, "one core: one worker, at nice 19");
    }
}
