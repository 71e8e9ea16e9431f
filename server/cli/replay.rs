//! `tavoliere replay <variant> [--notation ...] [--from <FEN-or-SFEN>] [--ruleset <name>]
//! [--tournament] [--continue] [--explain] <FILE|->`: replays every game of a record and
//! prints one JSON line per game (an interface other tools read: extend, don't rename):
//! `{"game":1,"plies":N,"fen":"...","result":"1-0|0-1|1/2-1/2|*","reason":null,"error":null}`,
//! with `"ended_at": <ply>` when a law ended the game before the record did, with
//! `--explain` a `"ruling"` object beside `reason` (null when no law ended the game; its
//! shape is `tavoliere_rules::game::ruling::Ruling`), and in an error its place in the
//! record (`"line"`, `"column"`) and the rules' `"code"`. Reads PGN, KIF, KI2, CSA or one
//! game per line, detected from the content, in UTF-8 (with or without a byte order mark)
//! or Shift_JIS. Exits 0 when every game replayed, 1 otherwise; a closed output
//! (`| head`) ends it quietly.

use std::io::{ErrorKind, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;
use tavoliere_rules::game::{Ruleset, Ruling};
use tavoliere_rules::replay::{replay_bytes, GameReport, ReplayOptions};
use tavoliere_rules::variant::{Notation, Variant};

/// Arguments of `tavoliere replay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: xiangqi, shogi, minishogi, flickering or seven-kingdoms.
    pub variant: Variant,
    /// The notation of the moves: auto, iccs, wxf, fix, chinese, usi, western, aise.
    #[arg(long, default_value = "auto")]
    pub notation: Notation,
    /// The start position (FEN or SFEN) instead of the standard one.
    #[arg(long)]
    pub from: Option<String>,
    /// The ruleset (cxq, basic, shogi-24, shogi-27, aise, modern); the variant's default
    /// when absent.
    #[arg(long)]
    pub ruleset: Option<Ruleset>,
    /// Tournament mode where it matters (MiniShogi jishogi is counted).
    #[arg(long)]
    pub tournament: bool,
    /// After a law ends a game, still check the remaining moves for basic legality.
    #[arg(long = "continue")]
    pub continue_after_end: bool,
    /// Add to each line a JSON `ruling` object explaining the law that ended the game.
    #[arg(long)]
    pub explain: bool,
    /// The record file, or `-` for standard input.
    pub file: PathBuf,
}

#[derive(Serialize)]
struct Line<'a> {
    game: usize,
    plies: u32,
    fen: &'a str,
    result: &'a str,
    reason: Option<&'a str>,
    /// Present with `--explain` only (then `null` when no law ended the game).
    #[serde(skip_serializing_if = "Option::is_none")]
    ruling: Option<Option<&'a Ruling>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ended_at: Option<u32>,
    error: Option<ErrorLine<'a>>,
}

#[derive(Serialize)]
struct ErrorLine<'a> {
    ply: u32,
    #[serde(rename = "move")]
    token: &'a str,
    reason: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    code: &'a str,
}

impl<'a> Line<'a> {
    fn new(report: &'a GameReport, explain: bool) -> Self {
        Line {
            game: report.game,
            plies: report.plies,
            fen: &report.fen,
            result: &report.result,
            reason: report.reason.as_deref(),
            ruling: explain.then_some(report.ruling.as_ref()),
            ended_at: report.ended_at,
            error: report.error.as_ref().map(|e| ErrorLine {
                ply: e.ply,
                token: &e.token,
                reason: &e.reason,
                line: e.at.map(|at| at.line),
                column: e.at.map(|at| at.column),
                code: e.code,
            }),
        }
    }
}

fn read_input(file: &PathBuf) -> std::io::Result<Vec<u8>> {
    if file.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes)?;
        Ok(bytes)
    } else {
        std::fs::read(file)
    }
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    if let Some(ruleset) = args.ruleset {
        if !args.variant.accepts(ruleset) {
            eprintln!("error: ruleset {ruleset} is not a {} ruleset", args.variant);
            return ExitCode::FAILURE;
        }
    }
    let bytes = match read_input(&args.file) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("error: {}: {e}", args.file.display());
            return ExitCode::FAILURE;
        }
    };
    let options = ReplayOptions {
        notation: args.notation,
        from: args.from,
        ruleset: args.ruleset,
        tournament: args.tournament,
        continue_after_end: args.continue_after_end,
    };
    let reports = replay_bytes(args.variant, &bytes, &options);
    let status =
        if reports.iter().all(|r| r.error.is_none()) { ExitCode::SUCCESS } else { ExitCode::FAILURE };
    let mut out = std::io::stdout().lock();
    for report in &reports {
        let written = serde_json::to_writer(&mut out, &Line::new(report, args.explain))
            .map_err(std::io::Error::from)
            .and_then(|()| out.write_all(b"\n"));
        match written {
            Ok(()) => {}
            // The reader went away (`| head`): nobody is left to tell.
            Err(e) if e.kind() == ErrorKind::BrokenPipe => return status,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    match out.flush() {
        Err(e) if e.kind() != ErrorKind::BrokenPipe => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
        _ => status,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tavoliere_rules::replay::replay_text;

    /// Red's chariot checks seven times in a row (CXQ rule 1): Red loses at ply 13.
    fn perpetual_check_report() -> GameReport {
        let moves = "i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9 e9e8";
        let options =
            ReplayOptions { from: Some("4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1".into()), ..Default::default() };
        replay_text(Variant::Xiangqi, moves, &options).remove(0)
    }

    #[test]
    fn without_explain_the_line_keeps_its_format() {
        let report = perpetual_check_report();
        let line = serde_json::to_string(&Line::new(&report, false)).unwrap();
        assert_eq!(
            line,
            r#"{"game":1,"plies":13,"fen":"4k3R/9/9/9/9/9/9/9/9/3K5 b - - 13 7","result":"0-1","reason":"perpetual-check","ended_at":13,"error":null}"#
        );
    }

    #[test]
    fn explain_adds_the_ruling_beside_the_reason() {
        let report = perpetual_check_report();
        let line = serde_json::to_string(&Line::new(&report, true)).unwrap();
        assert!(line.contains(r#""reason":"perpetual-check","ruling":{"law":"perpetual-check","#), "{line}");
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        let ruling = &value["ruling"];
        assert_eq!(ruling["ply"], 13);
        assert_eq!(ruling["against"], "first");
        assert_eq!(ruling["citation"]["items"], serde_json::json!([1, 3, 5]));
        let evidence = &ruling["evidence"];
        assert_eq!(evidence["kind"], "cxq-series");
        assert_eq!(evidence["series"]["kind"], "check");
        assert_eq!(evidence["series"]["allowance"], 6);
        assert_eq!(
            evidence["series"]["plies"][0],
            serde_json::json!({
                "ply": 1, "move": "i0i9",
                "by": [{"piece": "chariot", "side": "first", "square": "i9"}],
                "target": {"piece": "king", "side": "second", "square": "e9"}
            })
        );
    }

    #[test]
    fn explain_gives_a_null_ruling_when_no_law_ended_the_game() {
        let report = replay_text(Variant::Xiangqi, "h2e2 h9g7", &ReplayOptions::default()).remove(0);
        let line = serde_json::to_string(&Line::new(&report, true)).unwrap();
        assert!(line.contains(r#""reason":null,"ruling":null,"#), "{line}");
    }
}
