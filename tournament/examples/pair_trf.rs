//! Pairs the round a TRF file asks for, with bbpPairings' command line and output, so that
//! scripts can set Tavoliere beside pairing programs (`scripts/pairing-crosscheck.py`):
//!
//! `pair_trf [--edition fide-2025|fide-2017] --dutch FILE -p OUTPUT`
//!
//! OUTPUT gets the number of pairs, then `white black` per line (`player 0` for the bye);
//! the exit status is 1 when no pairing exists, as bbpPairings'.

use std::process::ExitCode;

use tavoliere_tournament::swiss::{pair_swiss, DutchEdition, SwissError};
use tavoliere_tournament::trf::trf_import;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let (Some(input), Some(output)) = (value("--dutch"), value("-p")) else {
        eprintln!("usage: pair_trf [--edition fide-2025|fide-2017] --dutch FILE -p OUTPUT");
        return ExitCode::from(3);
    };
    let edition = value("--edition").and_then(|e| DutchEdition::parse(&e)).unwrap_or_default();
    let text = match std::fs::read_to_string(&input) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{input}: {e}");
            return ExitCode::from(5);
        }
    };
    let tournament = match trf_import(&text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{input}: {e}");
            return ExitCode::from(3);
        }
    };
    let round = match pair_swiss(
        &tournament.entries(),
        &tournament.games,
        &tournament.byes,
        &tournament.options(edition),
    ) {
        Ok(round) => round,
        Err(SwissError::NoPairing) => return ExitCode::from(1),
        Err(e) => {
            eprintln!("{input}: {e}");
            return ExitCode::from(3);
        }
    };
    let mut out = format!("{}\n", round.pairings.len() + usize::from(round.bye.is_some()));
    for pairing in &round.pairings {
        out.push_str(&format!("{} {}\n", pairing.first.0, pairing.second.0));
    }
    if let Some(bye) = round.bye {
        out.push_str(&format!("{} 0\n", bye.0));
    }
    if let Err(e) = std::fs::write(&output, out) {
        eprintln!("{output}: {e}");
        return ExitCode::from(5);
    }
    ExitCode::SUCCESS
}
