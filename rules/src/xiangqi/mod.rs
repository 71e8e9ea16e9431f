//! Xiangqi (Chinese chess): board, pieces, move generation. Rules: `../shared/rules/xiangqi.md`.
//!
//! ```
//! use tavoliere_rules::xiangqi::{perft, Move, Position, Square};
//!
//! let pos = Position::new();
//! assert_eq!(pos.legal_moves().len(), 44);
//! let m = Move::new("h2".parse().unwrap(), "e2".parse().unwrap());
//! let pos = pos.play(m).expect("a legal opening move");
//! // Black's cannon on h7 may now also go to h2 and h1.
//! assert_eq!(perft(&pos, 1), 45);
//! assert_eq!(perft(&Position::new(), 3), 79_666);
//! ```

mod position;
mod tables;
mod types;

pub use position::{perft, IllegalMoveKind, MoveList, PlayError, Position, PositionError, Setup, MAX_MOVES};
pub use types::{Move, ParseSquareError, Piece, Role, Square, SquareSet, FILES, RANKS, SQUARES};
