//! Shogi and MiniShogi, one implementation parameterised by [`Variant`].
//! Rules: `../shared/rules/shogi.md`, `../shared/rules/minishogi.md`.
//!
//! A [`Setup`] is what an SFEN says; [`Position::from_setup`] validates it into a playable
//! [`Position`]. Moves are checked ([`Position::play`], with a typed [`IllegalMoveKind`])
//! or unchecked ([`Position::play_unchecked`]). Notation lives in
//! [`crate::notation::shogi`].
//!
//! ```
//! use tavoliere_rules::notation::shogi::{sfen, usi};
//! use tavoliere_rules::shogi::{perft, IllegalMoveKind, Position, Variant};
//!
//! let pos = Position::startpos(Variant::Mini);
//! assert_eq!(pos.legal_moves().len(), 14);
//! assert_eq!(perft(&pos, 2), 181);
//!
//! let shogi = Position::startpos(Variant::Standard);
//! let m = usi::parse(&shogi, "7g7f").unwrap();
//! let after = shogi.play(m).unwrap();
//! assert_eq!(sfen::write(&after), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
//!
//! let bad = usi::parse_move("P*5e", Variant::Standard).unwrap();
//! let err = after.play(bad).unwrap_err();
//! assert_eq!(err.kind, IllegalMoveKind::NotInHand);
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
