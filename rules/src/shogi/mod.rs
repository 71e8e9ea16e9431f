//! Shogi and MiniShogi, one implementation parameterised by [`Variant`].
//! Rules: `../shared/rules/shogi.md`, `../shared/rules/minishogi.md`.
//!
//! ```
//! use tavoliere_rules::shogi::{perft, Position, Variant};
//!
//! let pos = Position::startpos(Variant::Mini);
//! assert_eq!(pos.legal_moves().len(), 14);
//! assert_eq!(perft(&pos, 2), 181);
//! ```

mod attacks;
mod handicap;
mod position;
mod types;

pub use handicap::{Handicap, MiniHandicap};
pub use position::{perft, IllegalMoveKind, MoveList, PlayError, Position, PositionError, Setup};
pub use types::{Hand, Move, Piece, Role, Square, SquareSet, Variant};

#[cfg(test)]
mod tests;
