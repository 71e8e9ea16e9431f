//! Replaying whole game records (`tavoliere replay`): detects the format from the content
//! (PGN with one or more games, KIF, KI2, CSA, or one game per line), plays every move
//! through the game's laws and reports how each game ends. Pure: the caller reads the
//! file and prints.
//!
//! A record is never cut short silently (issue 15 §5): a token that is not a move, a
//! move number, a result, a comment or a known annotation stops the replay with an error
//! naming its line, column and text.

use crate::game::handicap::Handicap;
use crate::game::ruleset::Ruleset;
use crate::game::ruling::Ruling;
use crate::notation::chess::{fen as chess_fen, record as chess_record, uci as chess_uci};
use crate::notation::record::{self, strip_annotation, strip_check_mark, GameText, Location};
use crate::notation::seven_kingdoms::record as kingdoms_record;
use crate::notation::shogi::game::decode;
use crate::notation::shogi::{csa, files, ki2, kif, sfen, usi, PartialRecord, RecordFailure};
use crate::variant::{AnyGame, MoveError, MoveErrorKind, Notation, Variant};

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
    /// The rules' code of the refusal (`illegal-move.blocked`, `notation.unreadable`...),
    /// `record.unreadable` for text that is no part of a record, `setup.*` for a start
    /// that cannot be played.
    pub code: &'static str,
    /// Where the token is in the record, when known.
    pub at: Option<Location>,
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
    /// The start position (FEN or SFEN) the moves were played from.
    pub start: String,
    /// The moves replayed, canonical (ICCS, USI, coordinate series), one per ply.
    pub moves: Vec<String>,
    /// The players the record names, first player first (PGN `Red`/`White` and `Black`
    /// tags for Xiangqi; the KIF, KI2 and CSA names of sente and gote for Shogi).
    pub players: [Option<String>; 2],
}

impl GameReport {
    fn new(game: usize, result: Option<&str>) -> GameReport {
        GameReport {
            game,
            plies: 0,
            fen: String::new(),
            result: normalise_result(result),
            reason: None,
            ended_at: None,
            ruling: None,
            error: None,
            start: String::new(),
            moves: Vec::new(),
            players: [None, None],
        }
    }
}

/// The record formats [`replay_text`] recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// PGN-style text: tag pairs, move numbers, one or more games.
    Pgn,
    /// CSA (computer shogi).
    Csa,
    /// KIF (Japanese shogi records with numbered moves, `７六歩(77)`).
    Kif,
    /// KI2 (Japanese shogi records with marked moves, `▲７六歩`).
    Ki2,
    /// One game per line.
    Lines,
}

/// Whether a trimmed line belongs to a Japanese (KIF or KI2) record: a header of those
/// formats, a KIF move line (`1 ７六歩(77)`) or a KI2 move (`▲７六歩`).
fn japanese_line(line: &str) -> bool {
    const KEYS: [&str; 10] =
        ["手合割", "先手", "後手", "下手", "上手", "開始日時", "終了日時", "棋戦", "表題", "持ち時間"];
    if line.starts_with(['▲', '△', '☗', '☖', '▽']) || line.starts_with("手数----") {
        return true;
    }
    if KEYS.iter().any(|key| line.strip_prefix(key).is_some_and(|rest| rest.starts_with(['：', ':']))) {
        return true;
    }
    let rest = line.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() == line.len() || !rest.starts_with(char::is_whitespace) {
        return false;
    }
    let mut word = rest.trim_start().chars();
    match (word.next(), word.next()) {
        (Some('同'), _) => true,
        (Some(file), Some(rank)) => ('１'..='９').contains(&file) && "一二三四五六七八九".contains(rank),
        _ => false,
    }
}

/// Guesses the format of a record text.
pub fn detect_format(text: &str) -> RecordFormat {
    let lines = || {
        text.lines()
            .map(|l| l.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}'))
            .filter(|l| !l.is_empty())
    };
    // Tags, or numbered moves (`1. h2e2`, `1.Bh3e3`): a game may span lines.
    let numbered = |l: &str| {
        let rest = l.trim_start_matches(|c: char| c.is_ascii_digit());
        rest.len() < l.len() && rest.starts_with('.')
    };
    if lines().any(|l| l.starts_with('[') || numbered(l)) {
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
    if lines().any(japanese_line) {
        return if ki2::looks_like_ki2(text) { RecordFormat::Ki2 } else { RecordFormat::Kif };
    }
    RecordFormat::Lines
}

/// Replays every game in a record file's bytes: UTF-8 (with or without a byte order
/// mark) or, failing that, Shift_JIS (as KIF and KI2 files often are).
pub fn replay_bytes(variant: Variant, bytes: &[u8], options: &ReplayOptions) -> Vec<GameReport> {
    replay_text(variant, &decode(bytes), options)
}

/// How many games [`replay_text`] would replay from `text` for `variant`, found by
/// splitting the record without replaying any (the files of Shogi records and PGN by their
/// games, move lines by their lines): a reader can refuse a file of too many games before
/// the work of replaying them.
///
/// ```
/// use tavoliere_rules::replay::count_games;
/// use tavoliere_rules::variant::Variant;
/// assert_eq!(count_games(Variant::Xiangqi, "h2e2 h9g7\nb0c2\n# a comment\n"), 2);
/// ```
pub fn count_games(variant: Variant, text: &str) -> usize {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if matches!(variant, Variant::Flickering | Variant::SevenKingdoms) {
        return 1;
    }
    let shogi = variant != Variant::Xiangqi;
    match detect_format(text) {
        format @ (RecordFormat::Csa | RecordFormat::Kif | RecordFormat::Ki2) if shogi => {
            files::split_games(text, format == RecordFormat::Csa).len()
        }
        RecordFormat::Lines => {
            text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).count()
        }
        _ => record::split_games(text).len(),
    }
}

/// Replays every game in `text`.
pub fn replay_text(variant: Variant, text: &str, options: &ReplayOptions) -> Vec<GameReport> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match variant {
        Variant::Flickering => return vec![replay_flickering(text, options)],
        Variant::SevenKingdoms => return vec![replay_kingdoms(text)],
        _ => {}
    }
    let shogi = variant != Variant::Xiangqi;
    match detect_format(text) {
        format @ (RecordFormat::Csa | RecordFormat::Kif | RecordFormat::Ki2) if shogi => {
            // Every game of the file, numbered in order, its places in the file's lines.
            files::split_games(text, format == RecordFormat::Csa)
                .into_iter()
                .enumerate()
                .map(|(i, (lines_before, game))| {
                    let read = match format {
                        RecordFormat::Csa => csa::read_partial(game),
                        RecordFormat::Kif => kif::read_partial(game),
                        _ => ki2::read_partial(game),
                    };
                    let mut report = replay_shogi_record(variant, read, options);
                    report.game = i + 1;
                    if let Some(at) = report.error.as_mut().and_then(|e| e.at.as_mut()) {
                        at.line += lines_before;
                    }
                    report
                })
                .collect()
        }
        RecordFormat::Lines => text
            .lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .enumerate()
            .map(|(i, (line_no, line))| {
                let mut game = record::split_games(line).into_iter().next().unwrap_or_default();
                // The tokens' lines are the file's lines, not the line's.
                let indent = text
                    .lines()
                    .nth(line_no - 1)
                    .map_or(0, |l| l.chars().take_while(|c| c.is_whitespace()).count());
                for at in game.locations.iter_mut().chain(game.problem.iter_mut().map(|p| &mut p.at)) {
                    *at = Location { line: line_no, column: at.column + indent };
                }
                replay_game(variant, i + 1, &game, options)
            })
            .collect(),
        _ => record::split_games(text)
            .into_iter()
            .enumerate()
            .map(|(i, game)| replay_game(variant, i + 1, &game, options))
            .collect(),
    }
}

fn new_game(variant: Variant, options: &ReplayOptions, start: Option<&str>) -> Result<AnyGame, ReplayError> {
    let ruleset = options.ruleset.unwrap_or(variant.default_ruleset()).with_tournament(options.tournament);
    AnyGame::with_rules(variant, ruleset, None::<Handicap>, start).map_err(|e| ReplayError {
        ply: 1,
        token: String::new(),
        reason: e.to_string(),
        code: e.code(),
        at: None,
    })
}

/// Resolves a token, trying it without a trailing check mark when it is unreadable as
/// written.
fn resolve(game: &AnyGame, token: &str, notation: Notation) -> Result<String, MoveError> {
    let bare = strip_annotation(token);
    match game.resolve(bare, notation) {
        Err(e) if e.kind() == MoveErrorKind::Unreadable && strip_check_mark(token) != bare => {
            game.resolve(strip_check_mark(token), notation)
        }
        other => other,
    }
}

/// A move token of a record and where it is written.
struct Token<'a> {
    text: &'a str,
    at: Option<Location>,
}

/// Text after the moves that is not part of the record: the game's text ends there.
struct Trailing {
    at: Location,
    token: String,
    reason: String,
}

fn replay_game(variant: Variant, number: usize, text: &GameText, options: &ReplayOptions) -> GameReport {
    let start = options.from.as_deref().or_else(|| text.tag("FEN"));
    let record_result = text.tag("Result").map(str::to_owned).or_else(|| text.result.clone());
    let tokens =
        text.tokens.iter().enumerate().map(|(i, t)| Token { text: t, at: text.locations.get(i).copied() });
    let trailing = text.problem.as_ref().map(|p| Trailing {
        at: p.at,
        token: p.token.clone(),
        reason: p.reason.to_owned(),
    });
    let mut report =
        replay_tokens(variant, number, start, tokens, record_result.as_deref(), trailing, options);
    let tag = |names: &[&str]| names.iter().find_map(|n| text.tag(n)).map(str::to_owned);
    report.players = if variant == Variant::Xiangqi {
        [tag(&["Red", "White"]), tag(&["Black"])]
    } else {
        [tag(&["Sente", "Black"]), tag(&["Gote", "White"])]
    };
    report
}

fn replay_tokens<'a>(
    variant: Variant,
    number: usize,
    start: Option<&str>,
    tokens: impl Iterator<Item = Token<'a>>,
    record_result: Option<&str>,
    trailing: Option<Trailing>,
    options: &ReplayOptions,
) -> GameReport {
    let mut report = GameReport::new(number, record_result);
    let mut game = match new_game(variant, options, start) {
        Ok(game) => game,
        Err(error) => {
            report.error = Some(error);
            return report;
        }
    };
    report.start = game.start_fen();
    let tokens: Vec<Token<'a>> = tokens.collect();
    let mut stopped = false;
    for token in &tokens {
        let ply = report.plies + 1;
        let refused = |reason: String, code: &'static str| ReplayError {
            ply,
            token: token.text.to_owned(),
            reason,
            code,
            at: token.at,
        };
        if game.outcome().is_some() {
            if !options.continue_after_end {
                stopped = true;
                break;
            }
            // Keep checking basic legality only: a fresh game from here, no history.
            match new_game(variant, &ReplayOptions { ruleset: None, ..options.clone() }, Some(&game.fen())) {
                Ok(fresh) if fresh.outcome().is_none() => game = fresh,
                _ => {
                    report.error = Some(refused(
                        "The game is over: no more moves can be played.".to_owned(),
                        "game-over",
                    ));
                    break;
                }
            }
        }
        let played = resolve(&game, token.text, options.notation).and_then(|m| Ok((game.play(&m)?, m)));
        match played {
            Ok((played, canonical)) => {
                report.plies = ply;
                report.moves.push(canonical);
                if let (Some(outcome), None) = (played.outcome, report.ended_at) {
                    report.result = outcome.result_str().to_owned();
                    report.reason = Some(outcome.reason().as_str().to_owned());
                    report.ended_at = Some(ply);
                    report.ruling = game.ruling();
                }
            }
            Err(e) => {
                report.error = Some(refused(e.to_string(), e.code()));
                break;
            }
        }
    }
    if let (Some(trailing), None, false) = (trailing, &report.error, stopped) {
        report.error = Some(ReplayError {
            ply: report.plies + 1,
            token: trailing.token,
            reason: format!("This is not part of a record: {}.", trailing.reason),
            code: "record.unreadable",
            at: Some(trailing.at),
        });
    }
    report.fen = game.fen();
    // A law that ends the game at the record's last move is not an early end.
    if report.ended_at == Some(tokens.len() as u32) {
        report.ended_at = None;
    }
    report
}

/// A KIF, KI2 or CSA record read as far as it goes, replayed through the game's laws
/// from its start (standard, handicap or diagram); the reader's error, if any, comes
/// after its moves.
fn replay_shogi_record(
    variant: Variant,
    read: Result<PartialRecord, RecordFailure>,
    options: &ReplayOptions,
) -> GameReport {
    let partial = match read {
        Ok(partial) => partial,
        Err(failure) => {
            let mut report = GameReport::new(1, None);
            report.error = Some(record_error(1, failure));
            return report;
        }
    };
    let record = &partial.record;
    let start = options.from.clone().unwrap_or_else(|| sfen::write(&record.start));
    let mut position = record.start.clone();
    let usi_moves: Vec<String> = record
        .moves
        .iter()
        .map(|&m| {
            let token = usi::write(&position, m);
            position.play_unchecked(m);
            token
        })
        .collect();
    let tokens = usi_moves
        .iter()
        .enumerate()
        .map(|(i, text)| Token { text, at: partial.moves_at.get(i).map(|(at, _)| *at) });
    let result = if partial.error.is_none() { record.outcome().map(|o| o.result_str()) } else { None };
    let mut report = replay_tokens(variant, 1, Some(&start), tokens, result, None, options);
    let name = |key: &str| record.headers.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    report.players =
        [name(crate::notation::shogi::game::BLACK_NAME), name(crate::notation::shogi::game::WHITE_NAME)];
    // Name the moves as the record writes them.
    if let Some(error) = &mut report.error {
        if let Some((_, written)) = partial.moves_at.get(error.ply as usize - 1) {
            error.token = written.clone();
        }
    }
    if let (None, Some(failure)) = (&report.error, partial.error) {
        if report.ended_at.is_none() || options.continue_after_end {
            report.error = Some(record_error(report.plies + 1, failure));
        }
    }
    report
}

fn record_error(ply: u32, failure: RecordFailure) -> ReplayError {
    use crate::notation::shogi::RecordError as E;
    let (reason, code) = match &failure.error {
        E::BadLine { detail, .. } => (format!("This line cannot be read: {detail}."), "record.unreadable"),
        E::UnknownHandicap(name) => (format!("The handicap {name} is not known."), "record.unknown-handicap"),
        E::Position(e) => (format!("The start position cannot be used: {e}."), "setup.start-position"),
        E::IllegalMove { kind: Some(kind), .. } => (
            format!("{} is not legal: {}.", failure.token, crate::variant::IllegalMove::Shogi(*kind)),
            crate::variant::IllegalMove::Shogi(*kind).code(),
        ),
        E::IllegalMove { kind: None, .. } => {
            (format!("No legal move fits “{}”.", failure.token), "notation.no-such-move")
        }
        E::UnsupportedVariant => {
            ("This format cannot record that variant.".to_owned(), "record.unsupported-variant")
        }
    };
    ReplayError { ply, token: failure.token, reason, code, at: Some(failure.at) }
}

/// A Flickering chess record (`flickering-chess.md` "Notation": series labelled `a`/`b`):
/// read with its own reader, then each series replayed through the game's laws.
fn replay_flickering(text: &str, options: &ReplayOptions) -> GameReport {
    match chess_record::read(text) {
        Ok(record) => {
            let start = options.from.clone().unwrap_or_else(|| chess_fen::write(&record.start));
            let series: Vec<String> =
                record.series.iter().map(|series| chess_uci::write_series(series)).collect();
            let tokens = series.iter().map(|text| Token { text, at: None });
            replay_tokens(
                Variant::Flickering,
                1,
                Some(&start),
                tokens,
                record.result.as_deref(),
                None,
                options,
            )
        }
        Err(e) => {
            let ply = match &e {
                chess_record::RecordError::Series { index, .. }
                | chess_record::RecordError::Game { index, .. } => *index as u32 + 1,
                _ => 1,
            };
            let mut report = GameReport::new(1, None);
            report.plies = ply - 1;
            report.error = Some(ReplayError {
                ply,
                token: String::new(),
                reason: e.to_string(),
                code: "record.unreadable",
                at: None,
            });
            report
        }
    }
}

/// A Seven Kingdoms record (position text, `moves:`, one event per line). The result of a
/// game of more than two players is not `1-0`: `result` stays `*` and `reason` names how
/// the game ended.
fn replay_kingdoms(text: &str) -> GameReport {
    let mut report = GameReport::new(1, None);
    match kingdoms_record::parse_record(text) {
        Ok(game) => {
            report.plies = game.ply() as u32;
            report.fen = game.position_text();
            report.reason = game.outcome().map(|o| o.cause.as_str().to_owned());
            report.ruling = game.ruling();
        }
        Err(e) => {
            let line = match &e {
                kingdoms_record::RecordError::Unreadable { line, .. }
                | kingdoms_record::RecordError::Move { line, .. } => Some(*line),
                _ => None,
            };
            report.error = Some(ReplayError {
                ply: line.map_or(1, |l| l as u32),
                token: String::new(),
                reason: e.to_string(),
                code: "record.unreadable",
                at: line.map(|line| Location { line, column: 1 }),
            });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_counted_as_the_replay_splits_them() {
        let pgn = "[Event \"a\"]\n1. h2e2 h9g7 1-0\n\n[Event \"b\"]\n1. h2e2 h9g7 0-1\n";
        for (variant, text) in [
            (Variant::Xiangqi, pgn),
            (Variant::Xiangqi, "h2e2 h9g7\n\nb0c2 h7h0\n"),
            (Variant::Shogi, "7g7f 3c3d\n2g2f 8c8d\n"),
        ] {
            assert_eq!(
                count_games(variant, text),
                replay_text(variant, text, &ReplayOptions::default()).len(),
                "{text}"
            );
        }
    }

    #[test]
    fn formats_are_detected() {
        assert_eq!(detect_format("[Event \"x\"]\n1. h2e2 h9g7\n"), RecordFormat::Pgn);
        assert_eq!(detect_format("V2.2\nPI\n+\n+7776FU\n"), RecordFormat::Csa);
        assert_eq!(detect_format("7g7f 3c3d\n2g2f 8c8d\n"), RecordFormat::Lines);
        assert_eq!(detect_format("1.Bh3e3 Ch10g8;\n2.Ch1g3\n"), RecordFormat::Pgn);
        assert_eq!(detect_format("手合割：平手\n   1 ７六歩(77)\n"), RecordFormat::Kif);
        assert_eq!(detect_format("   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)\n"), RecordFormat::Kif);
        assert_eq!(detect_format("手合割：平手\n▲７六歩    △３四歩\n"), RecordFormat::Ki2);
        assert_eq!(detect_format("\u{feff}[Event \"x\"]\n"), RecordFormat::Pgn);
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
        assert_eq!(error.code, "illegal-move.no-piece");
        assert_eq!(error.at, Some(Location { line: 1, column: 17 }));
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
