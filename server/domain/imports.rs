//! Game import (issue 15 §7): a player or a director uploads a game record (PGN with
//! ICCS, WXF, Chinese or FIX moves; KIF in UTF-8 or Shift_JIS; KI2; CSA; a USI
//! `position` command; USI or ICCS move lines). The record is read and validated move by move by the rules crate's
//! replay (`rules/src/replay.rs`, the same laws as a game played here) and stored, in one
//! transaction, as a finished game whose players are the names the record gives (text,
//! no account: migration 500001). Where a law ended the game before the record did, the
//! game is stored up to that ply, with the law's result and its ruling.

use serde::Serialize;
use tavoliere_rules::replay::{
    count_games, detect_format, replay_text, GameReport, RecordFormat, ReplayOptions,
};
use tavoliere_rules::variant::{AnyGame, Variant};

use super::error::{DomainError, ErrorKind};
use super::games::{self, GameReason, GameResult, GameView, SeatOutcome};
use super::rules_adapter;
use super::Domain;
use crate::storage::imports::{self as storage, ImportedGameRow, ImportedMove, ImportedSeat};

/// The name stored for a player the record does not name (the usual "nomen nescio").
const UNNAMED: &str = "N.N.";

/// The variants a record can be imported for: the two-player games whose records the
/// replay reads in the formats above.
const IMPORTABLE: [Variant; 3] = [Variant::Xiangqi, Variant::Shogi, Variant::MiniShogi];

/// How many games an import may bring in (issue 36 §4): per request (the games of one
/// file) and per account in 24 hours.
#[derive(Clone, Copy, Debug)]
pub struct ImportLimits {
    /// Games one file may hold.
    pub per_request: usize,
    /// Games one account may import in 24 hours.
    pub per_day: u32,
}

impl ImportLimits {
    /// The limits of `[imports]`.
    pub fn of(settings: &crate::config::ImportSettings) -> ImportLimits {
        ImportLimits {
            per_request: settings.max_games_per_request,
            per_day: settings.games_per_account_per_day,
        }
    }
}

/// The window of the per-account limit.
const IMPORT_WINDOW: time::Duration = time::Duration::DAY;

/// A record that cannot be imported: where and why (the rules' own code and sentence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordProblem {
    /// The rules' code (`illegal-move.blocked`, `notation.unreadable`,
    /// `record.unreadable`...) or the import's own (`import.empty`...).
    pub code: &'static str,
    /// A sentence for people.
    pub detail: String,
    /// 1-based line of the record, when known.
    pub line: Option<usize>,
    /// 1-based column (characters) of the token, when known.
    pub column: Option<usize>,
    /// The token as the record writes it.
    pub token: Option<String>,
    /// The ply the token would have been.
    pub ply: Option<u32>,
    /// Which game of a file of several (1-based); `None` for a file of one game.
    pub game: Option<usize>,
}

/// Why an import failed.
#[derive(Debug)]
pub enum ImportError {
    /// The record does not replay (HTTP 422, with its place).
    Record(RecordProblem),
    /// Games of a file of several do not replay: each one's problem (HTTP 422; nothing
    /// is stored, not even the good games).
    Records(Vec<RecordProblem>),
    /// The file holds more games than one request may import (HTTP 413).
    TooManyGames {
        /// Games in the file.
        games: usize,
        /// The most one request may import.
        limit: usize,
    },
    /// Anything else the domain refuses or fails at.
    Domain(DomainError),
}

impl From<DomainError> for ImportError {
    fn from(error: DomainError) -> ImportError {
        ImportError::Domain(error)
    }
}

impl From<sqlx::Error> for ImportError {
    fn from(error: sqlx::Error) -> ImportError {
        ImportError::Domain(error.into())
    }
}

/// An imported game.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ImportedGame {
    /// The record's format as detected: `pgn`, `kif`, `ki2`, `csa`, `usi` (a USI
    /// `position` command) or `lines`.
    pub format: &'static str,
    /// The ply at which a game law ended the game before the record did (the game is
    /// stored up to it); `null` when the record ends where the game does.
    pub ended_at: Option<u32>,
    /// The game as stored, as `GET /api/games/{id}` shows it (with its `ruling`); the
    /// first game of a file of several.
    pub game: GameView,
    /// Every game of the file as stored, in the file's order (one for a file of one game).
    pub games: Vec<ImportedEntry>,
}

/// One stored game of an imported file.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ImportedEntry {
    /// The game's number in the file (1-based).
    pub number: usize,
    /// The stored game's id.
    pub id: i64,
    /// Its moves.
    pub plies: u32,
    /// Its result as stored (`1-0`, `0-1`, `1/2-1/2`; `null` when the record has none).
    pub result: Option<String>,
    /// As for the first game: the ply at which a game law ended it, if before the record.
    pub ended_at: Option<u32>,
}

/// The format's name as the API and the `game.imported_format` column write it.
fn format_name(format: RecordFormat) -> &'static str {
    match format {
        RecordFormat::Pgn => "pgn",
        RecordFormat::Csa => "csa",
        RecordFormat::Kif => "kif",
        RecordFormat::Ki2 => "ki2",
        RecordFormat::Lines => "lines",
    }
}

fn problem(code: &'static str, detail: impl Into<String>) -> ImportError {
    ImportError::Record(RecordProblem {
        code,
        detail: detail.into(),
        line: None,
        column: None,
        token: None,
        ply: None,
        game: None,
    })
}

/// The variant of a record: the one asked for, else the Japanese formats' Shogi, a PGN
/// `Variant`/`Game` tag, else Xiangqi unless only Shogi reads the first move.
fn variant_for(text: &str, asked: Option<&str>, format: RecordFormat) -> Result<Variant, ImportError> {
    if let Some(name) = asked.map(str::trim).filter(|n| !n.is_empty()) {
        let variant = rules_adapter::parse_variant(name)?;
        if !IMPORTABLE.contains(&variant) {
            return Err(problem(
                "import.unsupported-variant",
                format!("Records of {variant} games cannot be imported: xiangqi, shogi and minishogi can."),
            ));
        }
        return Ok(variant);
    }
    if matches!(format, RecordFormat::Kif | RecordFormat::Ki2 | RecordFormat::Csa) {
        return Ok(Variant::Shogi);
    }
    let tagged = text.lines().find_map(|line| {
        let line = line.trim();
        let rest = line.strip_prefix("[Variant ").or_else(|| line.strip_prefix("[Game "))?;
        Some(rest.trim_end_matches(']').trim().trim_matches('"').to_ascii_lowercase())
    });
    if let Some(tag) = tagged {
        if let Some(variant) = IMPORTABLE.into_iter().find(|v| tag.contains(v.name())) {
            return Ok(variant);
        }
        if tag.contains("chinese") {
            return Ok(Variant::Xiangqi);
        }
    }
    // Untagged moves: Xiangqi, unless Shogi reads further.
    let reach = |variant| {
        let report = replay_text(variant, text, &ReplayOptions::default());
        report.first().map_or(0, |r| if r.error.is_none() { u32::MAX } else { r.plies })
    };
    Ok(if reach(Variant::Shogi) > reach(Variant::Xiangqi) { Variant::Shogi } else { Variant::Xiangqi })
}

/// A USI `position` command (`position startpos moves 7g7f ...` or `position sfen <SFEN>
/// moves ...`, the USI export): its start, and the text with the command's words
/// blanked so that the moves keep their lines and columns. `None` for anything else.
fn usi_position(text: &str) -> Option<(Option<String>, String)> {
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        match (c.is_whitespace(), start) {
            (true, Some(from)) => {
                words.push((from, &text[from..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if words.first()?.1 != "position" || text.trim().lines().count() != 1 {
        return None;
    }
    let (sfen, mut skip) = match words.get(1)?.1 {
        "startpos" => (None, 2),
        "sfen" if words.len() >= 6 => {
            (Some(words[2..6].iter().map(|(_, w)| *w).collect::<Vec<_>>().join(" ")), 6)
        }
        _ => return None,
    };
    if words.get(skip).map(|(_, w)| *w) == Some("moves") {
        skip += 1;
    }
    let moves_at = words.get(skip).map_or(text.len(), |(at, _)| *at);
    let blanked: String = text[..moves_at].chars().map(|c| if c == '\n' { c } else { ' ' }).collect();
    Some((sfen, blanked + &text[moves_at..]))
}

/// Reads and replays a record (from `from`, a FEN or SFEN, when given): every game of it
/// (KIF, KI2 and CSA files and PGN files may hold several), every move legal; the
/// problems of every game that is not, each with its place, otherwise.
fn replay_record(
    text: &str,
    variant: Variant,
    format: RecordFormat,
    from: Option<String>,
) -> Result<Vec<GameReport>, ImportError> {
    let reports = replay_text(variant, text, &ReplayOptions { from, ..ReplayOptions::default() });
    if reports.is_empty() {
        return Err(problem("import.empty", "The record holds no game."));
    }
    let several = reports.len() > 1;
    let mut problems = Vec::new();
    for (index, report) in reports.iter().enumerate() {
        let game = several.then_some(index + 1);
        let prefix = game.map_or_else(String::new, |n| format!("Game {n}: "));
        if let Some(error) = &report.error {
            let place = match error.at {
                Some(at) => format!("Line {}, column {}: ", at.line, at.column),
                None => String::new(),
            };
            problems.push(RecordProblem {
                code: error.code,
                detail: format!("{prefix}{place}{} (ply {}, “{}”)", error.reason, error.ply, error.token),
                line: error.at.map(|at| at.line),
                column: error.at.map(|at| at.column),
                token: Some(error.token.clone()),
                ply: Some(error.ply),
                game,
            });
        } else if report.moves.is_empty() {
            let what = if format == RecordFormat::Lines { "no moves" } else { "a game without moves" };
            problems.push(RecordProblem {
                code: "import.empty",
                detail: format!("{prefix}The record holds {what}: there is nothing to import."),
                line: None,
                column: None,
                token: None,
                ply: None,
                game,
            });
        }
    }
    match problems.len() {
        0 => Ok(reports),
        1 if !several => Err(ImportError::Record(problems.remove(0))),
        _ => Err(ImportError::Records(problems)),
    }
}

/// A replayed game ready to store.
struct Prepared {
    report: GameReport,
    start: Option<String>,
    result: Option<GameResult>,
    reason: Option<GameReason>,
    /// Each move's seat, turn and the key of the position after it.
    rows: Vec<(i32, i32, i64)>,
    turn_seat: i32,
}

/// The stored rows of a replayed game: the seat that made each move, its turn, the key of
/// the position after it; its result and reason. The replay accepted the moves, so a
/// refusal here is a defect.
fn prepare(variant: Variant, standard: &str, report: GameReport) -> Result<Prepared, ImportError> {
    let defect = |e: String| DomainError::Internal(anyhow::anyhow!("import replay: {e}"));
    let start = (report.start != standard).then(|| report.start.clone());
    let mut game =
        rules_adapter::new_game(variant, variant.default_ruleset().name(), None, start.as_deref(), 2)?;
    let mut rows = Vec::with_capacity(report.moves.len());
    let mut turn = 0;
    let mut last_seat = None;
    for text in &report.moves {
        let seat = game.seat_to_move() as i32;
        if last_seat != Some(seat) {
            turn += 1;
        }
        last_seat = Some(seat);
        let played = game.play(text).map_err(|e| defect(e.to_string()))?;
        rows.push((seat, turn, played.position_key as i64));
    }
    // The result: the law's when a law ended the game (the replay's `result` then), else
    // the record's own; none for `*`.
    let result = match report.result.as_str() {
        "*" => None,
        text => Some(text.parse::<GameResult>().map_err(|e| defect(e.to_string()))?),
    };
    let reason = report
        .reason
        .as_deref()
        .map(str::parse::<GameReason>)
        .transpose()
        .map_err(|e| defect(e.to_string()))?;
    Ok(Prepared { report, start, result, reason, rows, turn_seat: game.seat_to_move() as i32 })
}

/// Refuses an import that would bring `uploader`'s imports of the last 24 hours past the
/// day's limit (429, with the seconds until enough of them leave the window); takes the
/// uploader's lock so that parallel imports are counted one after the other.
async fn check_daily_limit(
    tx: &mut sqlx::PgConnection,
    limits: ImportLimits,
    uploader: i64,
    games: usize,
    now: time::OffsetDateTime,
) -> Result<(), ImportError> {
    let limit = limits.per_day as usize;
    let times = storage::imported_since(tx, uploader, now - IMPORT_WINDOW).await?;
    if times.len() + games <= limit {
        return Ok(());
    }
    // Room for these games once the `len + games - limit` oldest have left the window
    // (never, for more games than a day allows: a whole day).
    let wait = match times.get(times.len() + games - limit - 1) {
        Some(&at) if games <= limit => (at + IMPORT_WINDOW - now).whole_seconds().max(1),
        _ => IMPORT_WINDOW.whole_seconds(),
    };
    Err(ImportError::Domain(DomainError::Limited {
        code: "import.daily-limit",
        detail: format!(
            "An account may import at most {limit} games in 24 hours; {} were imported in the \
             last 24 hours and this record holds {games}.",
            times.len()
        ),
        retry_after: u64::try_from(wait).unwrap_or(1),
    }))
}

/// A record read and every game of it replayed, ready to store.
struct ReadRecord {
    /// The format's name as stored.
    format: &'static str,
    variant: Variant,
    games: Vec<Prepared>,
}

/// Reads a record (its format, its variant: `asked`, else what the record says) and
/// replays every game of it with the rules: the costly part of an import, run in the
/// domain's bounded pool of rules work.
fn read_record(text: &str, asked: Option<&str>) -> Result<ReadRecord, ImportError> {
    let usi = usi_position(text);
    let (text, from) = match &usi {
        Some((from, moves)) => (moves.as_str(), from.clone()),
        None => (text, None),
    };
    let format = detect_format(text);
    let variant = match (&usi, asked.filter(|v| !v.trim().is_empty())) {
        // A USI command is Shogi, MiniShogi when its board has five ranks.
        (Some((sfen, _)), None) => {
            match sfen.as_deref().map(|s| s.split(' ').next().unwrap_or("").split('/').count()) {
                Some(5) => Variant::MiniShogi,
                _ => Variant::Shogi,
            }
        }
        (_, asked) => variant_for(text, asked, format)?,
    };
    let label = if usi.is_some() { "usi" } else { format_name(format) };
    let reports = replay_record(text, variant, format, from)?;
    let standard = AnyGame::new(variant, None).map_err(DomainError::from)?.start_fen();
    let games = reports.into_iter().map(|r| prepare(variant, &standard, r)).collect::<Result<Vec<_>, _>>()?;
    Ok(ReadRecord { format: label, variant, games })
}

/// Imports a record for `uploader`: replays every game of it with the rules, then stores
/// the games, their seats (the players as the record names them) and their moves in one
/// transaction.
///
/// # Errors
/// [`ImportError::Record`] (422) for a record that does not replay, with its line, column
/// and token, or [`ImportError::Records`] naming each game of a file of several that does
/// not; an unknown or unsupported variant (422); a file of more games than a request may
/// import ([`ImportError::TooManyGames`], 413, before any is replayed); more games than
/// the account may import today (429 `import.daily-limit`); nothing is stored then.
pub async fn import(
    domain: &Domain,
    limits: ImportLimits,
    uploader: i64,
    variant: Option<&str>,
    text: &str,
) -> Result<ImportedGame, ImportError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(problem("import.empty", "The record is empty."));
    }
    // A decoded file (`record_base64`, the page's upload) is text no extractor saw: NUL,
    // which no stored text (a player's name) can hold, is refused here.
    if text.contains('\0') {
        return Err(problem(
            "import.invalid-text",
            "The record holds a NUL character: it is not a text record.",
        ));
    }
    // Counted before any game is replayed (the variant's detection replays): the files of
    // the Japanese formats split as Shogi's, anything else the same for either game.
    let counted = usi_position(text).map_or_else(|| text.to_owned(), |(_, moves)| moves);
    let japanese =
        matches!(detect_format(&counted), RecordFormat::Kif | RecordFormat::Ki2 | RecordFormat::Csa);
    let games = count_games(if japanese { Variant::Shogi } else { Variant::Xiangqi }, &counted);
    if games > limits.per_request {
        return Err(ImportError::TooManyGames { games, limit: limits.per_request });
    }
    let (owned, asked) = (text.to_owned(), variant.map(str::to_owned));
    let ReadRecord { format: format_label, variant, games: prepared } =
        domain.rules_work.run(move || read_record(&owned, asked.as_deref())).await??;
    let ruleset = variant.default_ruleset();
    let now = domain.clock.now();
    let mut tx = domain.pool.begin().await?;
    check_daily_limit(&mut tx, limits, uploader, prepared.len(), now).await?;
    let mut games = Vec::with_capacity(prepared.len());
    for (index, game) in prepared.iter().enumerate() {
        let stored_seats: Vec<ImportedSeat> = game
            .report
            .players
            .iter()
            .enumerate()
            .map(|(seat, name)| {
                let name = name.as_deref().map(str::trim).filter(|n| !n.is_empty());
                let (outcome, points, place) = seat_outcome(game.result.as_ref(), seat as i32);
                let moves_made = game.rows.iter().filter(|(s, _, _)| *s == seat as i32).count() as i32;
                ImportedSeat { name: name.unwrap_or(UNNAMED), moves_made, outcome, points, place }
            })
            .collect();
        let moves: Vec<ImportedMove> = game
            .rows
            .iter()
            .zip(&game.report.moves)
            .map(|(&(seat, turn, position_key), notation)| ImportedMove {
                seat,
                turn,
                notation,
                position_key,
            })
            .collect();
        let stored = ImportedGameRow {
            variant: variant.name(),
            ruleset: ruleset.name(),
            start_position: game.start.as_deref(),
            result: game.result.as_ref(),
            reason: game.reason,
            plies: game.report.moves.len() as i32,
            turn_seat: game.turn_seat,
            imported_by: uploader,
            format: format_label,
            now,
        };
        let id = storage::insert_imported(&mut tx, &stored, &stored_seats, &moves).await?;
        games.push(ImportedEntry {
            number: index + 1,
            id,
            plies: game.report.moves.len() as u32,
            result: game.result.as_ref().map(ToString::to_string),
            ended_at: game.report.ended_at,
        });
    }
    tx.commit().await?;
    let first = &games[0];
    let view = games::view(domain, first.id).await?;
    Ok(ImportedGame { format: format_label, ended_at: first.ended_at, game: view, games })
}

/// A seat's outcome, points and place under a two-player result.
fn seat_outcome(result: Option<&GameResult>, seat: i32) -> (Option<SeatOutcome>, Option<f64>, Option<i32>) {
    let Some(result) = result else { return (None, None, None) };
    match result.winner_seat() {
        Some(winner) if winner == seat => (Some(SeatOutcome::Win), Some(1.0), Some(1)),
        Some(_) => (Some(SeatOutcome::Loss), Some(0.0), Some(2)),
        None => (Some(SeatOutcome::Draw), Some(0.5), Some(1)),
    }
}

impl ImportError {
    /// The error's kind (for a status): a record's problem is invalid input.
    pub fn kind(&self) -> ErrorKind {
        match self {
            ImportError::Record(_) | ImportError::Records(_) | ImportError::TooManyGames { .. } => {
                ErrorKind::Invalid
            }
            ImportError::Domain(e) => e.kind(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_usi_position_command_gives_its_start_and_keeps_the_columns_of_its_moves() {
        let (start, moves) = usi_position("position startpos moves 7g7f 3c3d\n").unwrap();
        assert_eq!(start, None);
        assert_eq!(moves, "                        7g7f 3c3d\n");
        let sfen = "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 1e2d";
        let (start, moves) = usi_position(sfen).unwrap();
        assert_eq!(start.as_deref(), Some("rbsgk/4p/5/P4/KGSBR b - 1"));
        assert_eq!(moves.trim_start(), "1e2d");
        assert_eq!(moves.len(), sfen.len());
        assert_eq!(usi_position("7g7f 3c3d"), None);
        assert_eq!(usi_position("position"), None);
    }
}
