//! Prints the legal moves of positions read from standard input, one position per line.
//!
//! ```text
//! cargo run -q --release -p tavoliere-rules --example legal_moves -- <xiangqi|shogi|minishogi>
//! ```
//!
//! Input: one FEN (xiangqi) or SFEN (shogi, minishogi) per line. Output: one line per input
//! line, the legal moves in the canonical notation (ICCS for xiangqi, USI for shogi), sorted and
//! separated by single spaces; an empty line when there is no legal move; `error: ...` when the
//! position cannot be read. Blank input lines are answered with `error: empty line`. Used by
//! `scripts/crosscheck.py` to compare our move generator with an independent implementation.

use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use tavoliere_rules::notation::shogi::sfen;
use tavoliere_rules::notation::xiangqi::fen;
use tavoliere_rules::shogi::Variant as ShogiVariant;

/// The game whose positions are read.
#[derive(Clone, Copy)]
enum Game {
    Xiangqi,
    Shogi(ShogiVariant),
}

impl Game {
    fn from_arg(arg: &str) -> Option<Game> {
        match arg {
            "xiangqi" => Some(Game::Xiangqi),
            "shogi" => Some(Game::Shogi(ShogiVariant::Standard)),
            "minishogi" => Some(Game::Shogi(ShogiVariant::Mini)),
            _ => None,
        }
    }

    /// The sorted canonical legal moves of the position `text`, or a readable error.
    fn legal_moves(self, text: &str) -> Result<Vec<String>, String> {
        let mut moves: Vec<String> = match self {
            Game::Xiangqi => {
                let pos = fen::parse(text).map_err(|e| e.to_string())?;
                pos.legal_moves().iter().map(ToString::to_string).collect()
            }
            Game::Shogi(variant) => {
                let pos = sfen::parse(text, Some(variant)).map_err(|e| e.to_string())?;
                pos.legal_moves().iter().map(ToString::to_string).collect()
            }
        };
        moves.sort_unstable();
        Ok(moves)
    }
}

fn main() -> ExitCode {
    let Some(game) = std::env::args().nth(1).as_deref().and_then(Game::from_arg) else {
        eprintln!("usage: legal_moves <xiangqi|shogi|minishogi>  (positions on stdin, one per line)");
        return ExitCode::from(2);
    };
    let stdin = io::stdin().lock();
    let mut out = BufWriter::new(io::stdout().lock());
    for line in stdin.lines() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("error reading stdin: {e}");
                return ExitCode::FAILURE;
            }
        };
        let text = line.trim();
        let answer = if text.is_empty() {
            "error: empty line".to_owned()
        } else {
            match game.legal_moves(text) {
                Ok(moves) => moves.join(" "),
                Err(e) => format!("error: {e}"),
            }
        };
        if writeln!(out, "{answer}").is_err() {
            return ExitCode::FAILURE;
        }
    }
    if out.flush().is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
