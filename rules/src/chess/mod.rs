//! Orthodox chess and Flickering chess (a turn is a series of moves).
//! Rules: `../shared/rules/flickering-chess.md`.
//!
//! # Our own chess core, on purpose
//!
//! The orthodox core (board, move generation, castling, en passant, promotion, perft) is
//! written here rather than taken from a chess crate. The best-kept one, `shakmaty`, is
//! GPL-3.0, which does not fit this MIT/Apache-2.0 project; and Flickering chess needs
//! positions that are not orthodox ones anyway (within a series the side to move does
//! not change, several en passant targets live at once, moved pieces are frozen). The
//! core is checked against the standard perft tables (`rules/tests/data/chess.perft`).
//!
//! # Shape
//!
//! - [`Setup`] (what a FEN says) → [`Position::from_setup`] → [`Position`] (validated).
//! - [`Position::legal_moves`] / [`Position::play`] / [`perft`]: orthodox chess.
//! - [`Series`]: one Flickering chess turn under construction, from the [`Position`] at
//!   its start: [`Series::legal_next_moves`], [`Series::push`], [`Series::can_end`],
//!   [`Series::finish`].
//! - [`search_saving_series`]: the exact mate / stalemate search over series, bounded
//!   by [`SearchLimits`] (hard positions: see `benches/chess.rs`).
//! - [`Game`]: a Flickering chess game with history, repetition and outcome (defined with
//!   the other games' laws in [`crate::game::flickering`], re-exported here).
//!
//! The rules' **Interpretation**s are documented where they are decided: the series
//! (king moves, exposure mid-series, en passant rights, promotions) in [`Series`], mate
//! and stalemate in [`Game`].
//!
//! Notation lives in [`crate::notation::chess`]: FEN (with several en passant squares
//! for Flickering chess), algebraic series (`a) e4, Nf3, d4`), coordinate moves
//! (`e2e4,g1f3`, the canonical form) and game records.
//!
//! ```
//! use tavoliere_rules::chess::{Position, Series};
//! use tavoliere_rules::notation::chess::algebraic;
//!
//! let series = algebraic::parse_series(&Position::new(), "a) e4, Nf3, d4").unwrap();
//! let next = series.finish().unwrap();
//! assert_eq!(algebraic::write_series(&Position::new(), series.moves()).unwrap(), "a) e4, Nf3, d4");
//! assert_eq!(next.turn(), tavoliere_rules::Color::Second);
//! ```

mod position;
mod search;
mod series;
mod types;
mod zobrist;

pub use crate::game::flickering::{Game, GameError};
pub use position::{
    perft, IllegalMoveKind, MoveList, PlayError, Position, PositionError, Setup, MOVE_LIST_CAPACITY,
};
pub use search::{search_saving_series, SearchLimits, SearchResult, SearchStats};
pub use series::{Series, SeriesError, SeriesErrorKind, MAX_SERIES_LEN};
pub use types::{
    CastlingRights, CastlingSide, InvalidSquare, Move, MoveKind, Piece, Role, Square, SquareSet,
};
