//! `tavoliere replay <variant> [--notation ...] [--from <FEN-or-SFEN>] [--ruleset <name>]
//! [--tournament] [--continue] <FILE|->`: replays every game of a record and prints one
//! JSON line per game (an interface other tools read: extend, don't rename):
//! `{"game":1,"plies":N,"fen":"...","result":"1-0|0-1|1/2-1/2|*","reason":null,"error":null}`,
//! with `"ended_at": <ply>` when a law ended the game before the record did. Exits 0 when
//! every game replayed, 1 otherwise.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;
use tavoliere_rules::game::Ruleset;
use tavoliere_rules::notation::shogi::game::decode;
use tavoliere_rules::replay::{replay_text, GameReport, ReplayOptions};
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
}

impl<'a> From<&'a GameReport> for Line<'a> {
    fn from(report: &'a GameReport) -> Self {
        Line {
            game: report.game,
            plies: report.plies,
            fen: &report.fen,
            result: &report.result,
            reason: report.reason.as_deref(),
            ended_at: report.ended_at,
            error: report.error.as_ref().map(|e| ErrorLine {
                ply: e.ply,
                token: &e.token,
                reason: &e.reason,
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
    // KIF files are often Shift_JIS: decode whatever is not UTF-8.
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => decode(e.as_bytes()),
    };
    let options = ReplayOptions {
        notation: args.notation,
        from: args.from,
        ruleset: args.ruleset,
        tournament: args.tournament,
        continue_after_end: args.continue_after_end,
    };
    let reports = replay_text(args.variant, &text, &options);
    let mut all_ok = true;
    for report in &reports {
        all_ok &= report.error.is_none();
        match serde_json::to_string(&Line::from(report)) {
            Ok(line) => println!("{line}"),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
