//! Replaying whole game records (`tavoliere replay`): detects the format (PGN with one
//! or more games, KIF, CSA, or one game per line), plays every move through the game's
//! laws and reports how each game ends. Pure: the caller reads the file and prints.

use crate::game::handicap::Handicap;
use crate::game::ruleset::Ruleset;
use crate::game::ruling::Ruling;
use crate::notation::chess::{fen as chess_fen, record as chess_record, uci as chess_uci};
use crate::notation::record::{self, strip_annotation, strip_check_mark, GameText};
use crate::notation::seven_kingdoms::record as kingdoms_record;
use crate::notation::shogi::{csa, usi};
use crate::variant::{AnyGame, MoveErrorKind, Notation, Variant};

/// How to replay.
#[derive(Clone, Debug)]
pub struct ReplayOptions {
    /// The notation of the moves ([`Notation::Auto`]: any of the variant's).
    pub notation: Notation,
    /// A start position (FEN or SFEN) instead of the standard one.
    pub from: Option<String>,
    /// The ruleset; the variant's default when `None`.
    pub ruleset: Option<Ruleset>,
    /// Tournament mode where it matters (MiniShogi jishogi count).
    pub tournament: bool,
    /// After a law ends the game, still check the remaining moves for basic legality.
    pub continue_after_end: bool,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            notation: Notation::Auto,
            from: None,
            ruleset: None,
            tournament: false,
            continue_after_end: false,
        }
    }
}

/// The first move of a game that could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The 1-based ply of the move.
    pub ply: u32,
    /// The move token as written.
    pub token: String,
    /// Why it was rejected.
    pub reason: String,
}

/// How one game of a record replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    /// 1-based number of the game in the file.
    pub game: usize,
    /// Moves replayed.
    pub plies: u32,
    /// The final position, or the position before the first bad move.
    pub fen: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Kebab-case reason when a law ended the game, else `None`.
    pub reason: Option<String>,
    /// The ply at which a law ended the game before the record did.
    pub ended_at: Option<u32>,
    /// Why the law in `reason` ended the game, for `replay --explain`.
    pub ruling: Option<Ruling>,
    /// The first bad move, if any.
    pub error: Option<ReplayError>,
}

/// The record formats [`replay_text`] recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// PGN-style text: tag pairs, move numbers, one or more games.
    Pgn,
    /// CSA (computer shogi).
    Csa,
    /// One game per line.
    Lines,
}

/// Guesses the format of a record text.
pub fn detect_format(text: &str) -> RecordFormat {
    let lines = || text.lines().map(str::trim).filter(|l| !l.is_empty());
    if lines().any(|l| l.starts_with('[')) {
        return RecordFormat::Pgn;
    }
    let csa_like = |l: &str| {
        l.starts_with("V2")
            || l.starts_with("PI")
            || l.starts_with("P1")
            || l.starts_with("N+")
            || l.starts_with('%')
            || ((l.starts_with('+') || l.starts_with('-'))
                && l.len() == 7
                // Bytes, not a `str` slice: byte 5 may fall inside a wide character.
                && l.as_bytes()[1..5].iter().all(u8::is_ascii_digit))
    };
    if lines().filter(|l| !l.starts_with('\'')).take(5).any(csa_like) {
        return RecordFormat::Csa;
    }
    RecordFormat::Lines
}

/// Replays every game in `text`.
pub fn replay_text(variant: Variant, text: &str, options: &ReplayOptions) -> Vec<GameReport> {
    match variant {
        Variant::Flickering => return vec![replay_flickering(text, options)],
        Variant::SevenKingdoms => return vec![replay_kingdoms(text)],
        _ => {}
    }
    match detect_format(text) {
        RecordFormat::Csa if variant != Variant::Xiangqi => vec![replay_csa(variant, text, options)],
        RecordFormat::Pgn | RecordFormat::Csa => record::split_games(text)
            .into_iter()
            .enumerate()
            .map(|(i, game)| replay_game(variant, i + 1, &game, options))
            .collect(),
        RecordFormat::Lines => text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .enumerate()
            .map(|(i, line)| {
                let game = record::split_games(line).into_iter().next().unwrap_or_default();
                replay_game(variant, i + 1, &game, options)
            })
            .collect(),
    }
}

fn new_game(variant: Variant, options: &ReplayOptions, start: Option<&str>) -> Result<AnyGame, String> {
    let ruleset = options.ruleset.unwrap_or(variant.default_ruleset()).with_tournament(options.tournament);
    AnyGame::with_rules(variant, ruleset, None::<Handicap>, start).map_err(|e| e.to_string())
}

/// Resolves a token, trying it without a trailing check mark when it is unreadable as
/// written.
fn resolve(game: &AnyGame, token: &str, notation: Notation) -> Result<String, String> {
    let bare = strip_annotation(token);
    match game.resolve(bare, notation) {
        Err(e) if e.kind == MoveErrorKind::Unreadable && strip_check_mark(token) != bare => {
            game.resolve(strip_check_mark(token), notation).map_err(|e| e.to_string())
        }
        other => other.map_err(|e| e.to_string()),
    }
}

fn replay_game(variant: Variant, number: usize, text: &GameText, options: &ReplayOptions) -> GameReport {
    let start = options.from.as_deref().or_else(|| text.tag("FEN"));
    let record_result = text.tag("Result").map(str::to_owned).or_else(|| text.result.clone());
    replay_tokens(variant, number, start, text.tokens.iter().map(String::as_str), record_result, options)
}

fn replay_tokens<'a>(
    variant: Variant,
    number: usize,
    start: Option<&str>,
    tokens: impl Iterator<Item = &'a str>,
    record_result: Option<String>,
    options: &ReplayOptions,
) -> GameReport {
    let mut report = GameReport {
        game: number,
        plies: 0,
        fen: String::new(),
        result: normalise_result(record_result.as_deref()),
        reason: None,
        ended_at: None,
        ruling: None,
        error: None,
    };
    let mut game = match new_game(variant, options, start) {
        Ok(game) => game,
        Err(reason) => {
            report.error = Some(ReplayError { ply: 1, token: String::new(), reason });
            return report;
        }
    };
    let tokens: Vec<&str> = tokens.collect();
    for &token in &tokens {
        let ply = report.plies + 1;
        if game.outcome().is_some() {
            if !options.continue_after_end {
                break;
            }
            // Keep checking basic legality only: a fresh game from here, no history.
            match new_game(variant, &ReplayOptions { ruleset: None, ..options.clone() }, Some(&game.fen())) {
                Ok(fresh) if fresh.outcome().is_none() => game = fresh,
                _ => {
                    report.error = Some(ReplayError {
                        ply,
                        token: token.to_owned(),
                        reason: "the game is over".to_owned(),
                    });
                    break;
                }
            }
        }
        let played =
            resolve(&game, token, options.notation).and_then(|m| game.play(&m).map_err(|e| e.to_string()));
        match played {
            Ok(played) => {
                report.plies = ply;
                if let (Some(outcome), None) = (played.outcome, report.ended_at) {
                    report.result = outcome.result_str().to_owned();
                    report.reason = Some(outcome.reason().as_str().to_owned());
                    report.ended_at = Some(ply);
                    report.ruling = game.ruling();
                }
            }
            Err(reason) => {
                report.error = Some(ReplayError { ply, token: token.to_owned(), reason });
                break;
            }
        }
    }
    report.fen = game.fen();
    // A law that ends the game at the record's last move is not an early end.
    if report.ended_at == Some(tokens.len() as u32) {
        report.ended_at = None;
    }
    report
}

/// A Flickering chess record (`flickering-chess.md` "Notation": series labelled `a`/`b`):
/// read with its own reader, then each series replayed through the game's laws.
fn replay_flickering(text: &str, options: &ReplayOptions) -> GameReport {
    match chess_record::read(text) {
        Ok(record) => {
            let start = options.from.clone().unwrap_or_else(|| chess_fen::write(&record.start));
            let tokens: Vec<String> =
                record.series.iter().map(|series| chess_uci::write_series(series)).collect();
            replay_tokens(
                Variant::Flickering,
                1,
                Some(&start),
                tokens.iter().map(String::as_str),
                record.result.clone(),
                options,
            )
        }
        Err(e) => {
            let ply = match &e {
                chess_record::RecordError::Series { index, .. }
                | chess_record::RecordError::Game { index, .. } => *index as u32 + 1,
                _ => 1,
            };
            GameReport {
                game: 1,
                plies: ply - 1,
                fen: String::new(),
                result: "*".to_owned(),
                reason: None,
                ended_at: None,
                ruling: None,
                error: Some(ReplayError { ply, token: String::new(), reason: e.to_string() }),
            }
        }
    }
}

/// A Seven Kingdoms record (position text, `moves:`, one event per line). The result of a
/// game of more than two players is not `1-0`: `result` stays `*` and `reason` names how
/// the game ended.
fn replay_kingdoms(text: &str) -> GameReport {
    let mut report = GameReport {
        game: 1,
        plies: 0,
        fen: String::new(),
        result: "*".to_owned(),
        reason: None,
        ended_at: None,
        ruling: None,
        error: None,
    };
    match kingdoms_record::parse_record(text) {
        Ok(game) => {
            report.plies = game.ply() as u32;
            report.fen = game.position_text();
            report.reason = game.outcome().map(|o| o.cause.as_str().to_owned());
            report.ruling = game.ruling();
        }
        Err(e) => {
            let ply = match &e {
                kingdoms_record::RecordError::Unreadable { line, .. }
                | kingdoms_record::RecordError::Move { line, .. } => *line as u32,
                _ => 1,
            };
            report.error = Some(ReplayError { ply, token: String::new(), reason: e.to_string() });
        }
    }
    report
}

fn normalise_result(result: Option<&str>) -> String {
    match result.map(str::trim) {
        Some("1-0") | Some("先胜") => "1-0".to_owned(),
        Some("0-1") | Some("先负") => "0-1".to_owned(),
        Some("1/2-1/2") | Some("½-½") | Some("0.5-0.5") | Some("先和") => "1/2-1/2".to_owned(),
        _ => "*".to_owned(),
    }
}

fn replay_csa(variant: Variant, text: &str, options: &ReplayOptions) -> GameReport {
    match csa::read(text) {
        Ok(record) => {
            let start = crate::notation::shogi::sfen::write(&record.start);
            let mut position = record.start.clone();
            let tokens: Vec<String> = record
                .moves
                .iter()
                .map(|&m| {
                    let token = usi::write(&position, m);
                    position.play_unchecked(m);
                    token
                })
                .collect();
            let result = record.outcome().map(|o| o.result_str().to_owned());
            let start = options.from.clone().unwrap_or(start);
            replay_tokens(variant, 1, Some(&start), tokens.iter().map(String::as_str), result, options)
        }
        Err(e) => GameReport {
            game: 1,
            plies: 0,
            fen: String::new(),
            result: "*".to_owned(),
            reason: None,
            ended_at: None,
            ruling: None,
            error: Some(ReplayError { ply: 1, token: String::new(), reason: e.to_string() }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_detected() {
        assert_eq!(detect_format("[Event \"x\"]\n1. h2e2 h9g7\n"), RecordFormat::Pgn);
        assert_eq!(detect_format("V2.2\nPI\n+\n+7776FU\n"), RecordFormat::Csa);
        assert_eq!(detect_format("7g7f 3c3d\n2g2f 8c8d\n"), RecordFormat::Lines);
    }

    #[test]
    fn one_game_per_line_gives_one_report_per_line() {
        let reports =
            replay_text(Variant::Shogi, "7g7f 3c3d\n# comment\n2g2f 8c8d 2f2e\n", &ReplayOptions::default());
        assert_eq!(reports.len(), 2);
        assert_eq!(reports[1].plies, 3);
        assert_eq!(reports[1].result, "*");
        assert!(reports.iter().all(|r| r.error.is_none()));
    }

    #[test]
    fn the_first_bad_move_is_reported_with_the_position_before_it() {
        let reports = replay_text(Variant::Xiangqi, "1. h2e2 h9g7 2. h2e2 1-0\n", &ReplayOptions::default());
        let report = &reports[0];
        assert_eq!(report.plies, 2);
        let error = report.error.as_ref().expect("an error");
        assert_eq!((error.ply, error.token.as_str()), (3, "h2e2"));
        assert_eq!(report.fen, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
    }

    #[test]
    fn a_law_ending_before_the_record_does_is_reported_with_its_ply() {
        // Red's chariot checks seven times in a row (CXQ rule 1): Red loses at ply 13; the
        // record goes on to ply 15.
        let moves = "i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8";
        let options =
            ReplayOptions { from: Some("4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1".into()), ..Default::default() };
        let report = &replay_text(Variant::Xiangqi, moves, &options)[0];
        assert_eq!(report.result, "0-1");
        assert_eq!(report.reason.as_deref(), Some("perpetual-check"));
        assert_eq!(report.ended_at, Some(13));
        assert_eq!(report.plies, 13);
        let continued =
            &replay_text(Variant::Xiangqi, moves, &ReplayOptions { continue_after_end: true, ..options })[0];
        assert_eq!(continued.plies, 15);
        assert_eq!(continued.ended_at, Some(13));
        assert!(continued.error.is_none());
    }
}
