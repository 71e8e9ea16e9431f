//! Game records and the laws that judge them: history, Zobrist keys, repetition,
//! perpetual check and chase, jishogi, move-count draws, handicaps, and the rulings that
//! explain how a law ended a game ([`ruling`]).

pub mod cxq;
pub mod handicap;
pub mod ruleset;
pub mod ruling;
pub mod shogi;
pub mod xiangqi;

pub use handicap::{Handicap, HandicapRules, UnknownHandicap};
pub use ruleset::{CxqLimits, ImpasseRule, MiniRepetitionRule, Ruleset, UnknownRuleset};
pub use ruling::Ruling;
