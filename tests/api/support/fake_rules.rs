//! A stand-in for the rules, to test the server's own decisions (turns, plies, clocks,
//! races, authorization) independently of any game's rules.
//!
//! A handicap makes the second colour start; under the ruleset `shogi-27` the side to move
//! may claim (and wins). Every position has the legal moves `m1`, `m2`, `m3`, `mate` and `perp`; `M1` etc. are
//! the same moves in a second "notation"; `mate` wins for the mover, `perp` loses for the
//! mover by perpetual check. Anything else made of letters and digits is "illegal", the
//! rest "unreadable".

use tavoliere::domain::rules_adapter::{
    RulesEngine, RulesGame, RulesMoveError, RulesMoveErrorKind, RulesPlayed, Variant,
};
use tavoliere_rules::{Color, EndReason, Outcome};

const LEGAL: [&str; 5] = ["m1", "m2", "m3", "mate", "perp"];

/// The stand-in engine. Its positions are written as a Xiangqi FEN: the standard start,
/// or two bare kings with `bare_kings` (where nobody can win on time).
#[derive(Debug, Default)]
pub struct FakeRules {
    pub bare_kings: bool,
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
const BARE_KINGS: &str = "4k4/9/9/9/9/9/9/9/9/4K4";

impl RulesEngine for FakeRules {
    fn new_game(
        &self,
        _variant: Variant,
        ruleset: &str,
        handicap: Option<&str>,
        _start: Option<&str>,
    ) -> Result<Box<dyn RulesGame>, String> {
        // As in Shogi handicaps, the handicap giver (the second colour) starts.
        let second_starts = handicap.is_some();
        let claims = ruleset == "shogi-27";
        Ok(Box::new(FakeGame {
            moves: Vec::new(),
            second_starts,
            over: false,
            bare_kings: self.bare_kings,
            claims,
        }))
    }
}

struct FakeGame {
    moves: Vec<String>,
    second_starts: bool,
    over: bool,
    bare_kings: bool,
    claims: bool,
}

impl FakeGame {
    fn mover(&self) -> Color {
        let first = if self.second_starts { Color::Second } else { Color::First };
        if self.moves.len().is_multiple_of(2) {
            first
        } else {
            first.other()
        }
    }

    fn resolve(&self, text: &str) -> Result<RulesPlayed, RulesMoveError> {
        if text.is_empty() || !text.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(RulesMoveError {
                kind: RulesMoveErrorKind::Unreadable,
                detail: format!("{text:?} is not a move in any notation"),
            });
        }
        let canonical = text.to_ascii_lowercase();
        if self.over || !LEGAL.contains(&canonical.as_str()) {
            return Err(RulesMoveError {
                kind: RulesMoveErrorKind::Illegal,
                detail: format!("{canonical} is not legal in this position"),
            });
        }
        let mover = self.mover();
        let outcome = match canonical.as_str() {
            "mate" => Some(Outcome::win(mover, EndReason::Checkmate)),
            "perp" => Some(Outcome::win(mover.other(), EndReason::PerpetualCheck)),
            _ => None,
        };
        Ok(RulesPlayed {
            display: canonical.to_ascii_uppercase(),
            position_key: self.moves.len() as u64 + 1,
            canonical,
            outcome,
        })
    }
}

impl RulesGame for FakeGame {
    fn fen(&self) -> String {
        let board = if self.bare_kings { BARE_KINGS } else { START };
        format!("{board} fake {}", self.moves.join(","))
    }

    fn side_to_move(&self) -> Color {
        self.mover()
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.over {
            Vec::new()
        } else {
            LEGAL.iter().map(|m| m.to_string()).collect()
        }
    }

    fn dry_run(&self, text: &str) -> Result<RulesPlayed, RulesMoveError> {
        self.resolve(text)
    }

    fn play(&mut self, text: &str) -> Result<RulesPlayed, RulesMoveError> {
        let played = self.resolve(text)?;
        self.over = played.outcome.is_some();
        self.moves.push(played.canonical.clone());
        Ok(played)
    }

    fn display_moves(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.to_ascii_uppercase()).collect()
    }

    /// Under "shogi-27" the side to move may declare and wins; otherwise no claim.
    fn claim(&mut self) -> Result<Outcome, String> {
        if !self.claims {
            return Err("no claim is available in this ruleset".to_owned());
        }
        self.over = true;
        Ok(Outcome::win(self.mover(), EndReason::ImpasseDeclaration))
    }
}
