//! What the games domain needs from the rules, behind a small trait so that the domain
//! compiles and is tested before and independently of the rules facade
//! (`tavoliere_rules::variant::AnyGame`, see DEVELOPERS.md "The facade the server uses").
//!
//! The server never decides a rule itself: legality, notation and the end of the game
//! all come from a [`RulesGame`].

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use tavoliere_rules::game::{Handicap, Ruleset};
use tavoliere_rules::variant::{self as facade, AnyGame};
use tavoliere_rules::{Color, Outcome};

/// The games the server plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Chinese chess.
    Xiangqi,
    /// Japanese chess.
    Shogi,
    /// 5x5 shogi.
    #[serde(rename = "minishogi")]
    MiniShogi,
}

impl Variant {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Xiangqi => "xiangqi",
            Variant::Shogi => "shogi",
            Variant::MiniShogi => "minishogi",
        }
    }

    /// The ruleset used when a challenge names none.
    pub fn default_ruleset(self) -> &'static str {
        match self {
            Variant::Xiangqi => "cxq",
            Variant::Shogi => "shogi-24",
            Variant::MiniShogi => "aise",
        }
    }

    /// The notation moves are shown in besides the canonical one.
    pub fn display_notation(self) -> &'static str {
        self.to_rules().display_notation().name()
    }

    /// The rules crate's name for the variant.
    pub fn to_rules(self) -> facade::Variant {
        match self {
            Variant::Xiangqi => facade::Variant::Xiangqi,
            Variant::Shogi => facade::Variant::Shogi,
            Variant::MiniShogi => facade::Variant::MiniShogi,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Variant {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "xiangqi" => Ok(Variant::Xiangqi),
            "shogi" => Ok(Variant::Shogi),
            "minishogi" => Ok(Variant::MiniShogi),
            other => Err(format!("unknown variant {other:?} (known: xiangqi, shogi, minishogi)")),
        }
    }
}

/// Why the rules refused a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesMoveErrorKind {
    /// Not a move in any supported notation.
    Unreadable,
    /// Matches several legal moves.
    Ambiguous,
    /// Readable but against the rules.
    Illegal,
}

/// A refused move, with the rules' explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesMoveError {
    /// The kind of refusal.
    pub kind: RulesMoveErrorKind,
    /// The rules' reason, shown to the player.
    pub detail: String,
}

/// A move the rules accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesPlayed {
    /// ICCS (Xiangqi) or USI (Shogi, MiniShogi).
    pub canonical: String,
    /// In the variant's display notation.
    pub display: String,
    /// Zobrist key of the position after the move.
    pub position_key: u64,
    /// The end of the game, if this move ended it.
    pub outcome: Option<Outcome>,
}

/// A game as the rules see it: start position, moves, laws.
pub trait RulesGame: Send {
    /// Current position as FEN (Xiangqi) or SFEN (Shogi).
    fn fen(&self) -> String;
    /// Who moves next.
    fn side_to_move(&self) -> Color;
    /// Legal moves in canonical notation.
    fn legal_moves(&self) -> Vec<String>;
    /// What `text` would do, without playing it.
    ///
    /// # Errors
    /// The move is unreadable, ambiguous or illegal.
    fn dry_run(&self, text: &str) -> Result<RulesPlayed, RulesMoveError>;
    /// Plays `text` (any supported notation).
    ///
    /// # Errors
    /// The move is unreadable, ambiguous or illegal; the game is unchanged.
    fn play(&mut self, text: &str) -> Result<RulesPlayed, RulesMoveError>;
    /// The moves so far in the variant's display notation.
    fn display_moves(&self) -> Vec<String>;
    /// Makes the claim the rules allow now (Shogi impasse declaration); the outcome may
    /// be a loss for the claimant (a false declaration).
    ///
    /// # Errors
    /// No claim is available now, with the reason.
    fn claim(&mut self) -> Result<Outcome, String>;
}

/// Starts games: the rules facade in production, a test double where wanted.
pub trait RulesEngine: Send + Sync + fmt::Debug {
    /// A game of `variant` under `ruleset` with an optional `handicap` (a name from the
    /// rules crate's catalogue) from `start` (FEN/SFEN; `None` = the standard or handicap
    /// start).
    ///
    /// # Errors
    /// The ruleset, handicap or start position is not valid for the variant.
    fn new_game(
        &self,
        variant: Variant,
        ruleset: &str,
        handicap: Option<&str>,
        start: Option<&str>,
    ) -> Result<Box<dyn RulesGame>, String>;
}

/// The rules of `tavoliere-rules`, through its facade [`AnyGame`].
#[derive(Debug, Default, Clone, Copy)]
pub struct CrateRules;

impl RulesEngine for CrateRules {
    fn new_game(
        &self,
        variant: Variant,
        ruleset: &str,
        handicap: Option<&str>,
        start: Option<&str>,
    ) -> Result<Box<dyn RulesGame>, String> {
        let ruleset: Ruleset = ruleset.parse().map_err(|e| format!("{e}"))?;
        let handicap = handicap
            .map(|name| Handicap::parse(variant.as_str(), name).map_err(|e| format!("{e}")))
            .transpose()?;
        let game =
            AnyGame::with_rules(variant.to_rules(), ruleset, handicap, start).map_err(|e| e.to_string())?;
        Ok(Box::new(game))
    }
}

fn move_error(error: facade::MoveError) -> RulesMoveError {
    let kind = match error.kind {
        facade::MoveErrorKind::Unreadable => RulesMoveErrorKind::Unreadable,
        facade::MoveErrorKind::Ambiguous => RulesMoveErrorKind::Ambiguous,
        facade::MoveErrorKind::Illegal | facade::MoveErrorKind::GameOver => RulesMoveErrorKind::Illegal,
    };
    RulesMoveError { kind, detail: error.detail }
}

impl RulesGame for AnyGame {
    fn fen(&self) -> String {
        AnyGame::fen(self)
    }

    fn side_to_move(&self) -> Color {
        AnyGame::side_to_move(self)
    }

    fn legal_moves(&self) -> Vec<String> {
        AnyGame::legal_moves(self)
    }

    fn dry_run(&self, text: &str) -> Result<RulesPlayed, RulesMoveError> {
        let dry = AnyGame::dry_run(self, text).map_err(move_error)?;
        Ok(RulesPlayed {
            canonical: dry.canonical,
            display: dry.display,
            position_key: 0,
            outcome: dry.outcome,
        })
    }

    fn play(&mut self, text: &str) -> Result<RulesPlayed, RulesMoveError> {
        let played = AnyGame::play(self, text).map_err(move_error)?;
        Ok(RulesPlayed {
            canonical: played.canonical,
            display: played.display,
            position_key: played.position_key,
            outcome: played.outcome,
        })
    }

    fn display_moves(&self) -> Vec<String> {
        AnyGame::display_moves(self, facade::Notation::Auto)
    }

    fn claim(&mut self) -> Result<Outcome, String> {
        AnyGame::claim(self)
    }
}
