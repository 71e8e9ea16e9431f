//! Game records and the laws that judge them, one module per game: history, Zobrist keys,
//! repetition, perpetual check and chase, jishogi, move-count draws, handicaps, and the
//! rulings that explain how a law ended a game ([`ruling`]).
//!
//! - [`xiangqi`] (with [`cxq`], the CXQ series and automatic draws), [`shogi`] (Shogi and
//!   MiniShogi), [`flickering`] (Flickering chess), [`seven_kingdoms`];
//! - [`ruleset`] (the laws a game is played under, every limit in one value),
//!   [`handicap`], [`ruling`].
//!
//! The cores (`crate::xiangqi`, `crate::shogi`, `crate::chess`, `crate::seven_kingdoms`)
//! know positions and moves; the records here know what happened and what it means.

pub mod cxq;
pub mod flickering;
pub mod handicap;
pub mod ruleset;
pub mod ruling;
pub mod seven_kingdoms;
pub mod shogi;
pub mod xiangqi;

pub use handicap::{Handicap, HandicapRules, UnknownHandicap};
pub use ruleset::{CxqLimits, ImpasseRule, MiniRepetitionRule, Ruleset, UnknownRuleset};
pub use ruling::Ruling;
