//! The Game of the Seven Kingdoms (七國象戲), for three to seven players.
//! Rules: `../shared/rules/seven-kingdoms.md`.
//!
//! Seven armies of 17 pieces stand on a 19 x 19 board around the Zhou emperor. The kingdoms
//! move in a fixed order ([`Kingdom::ALL`]); a kingdom is defeated when its general is
//! captured or when it has lost eleven pieces, and its army leaves the board. A player
//! (a [`Seat`]) commands one or more kingdoms ([`Seating`]); the game ends when a player is
//! hegemon (two generals or thirty pieces captured) or only one player's kingdoms remain,
//! and the seats are ranked by captures ([`GameOutcome`]).
//!
//! ```
//! use tavoliere_rules::seven_kingdoms::{Kingdom, Move, Point, Position};
//!
//! let pos = Position::new();
//! assert_eq!(pos.turn(), Kingdom::Qin);
//! // Qin's horseman from (0, 12) to (4, 15): `Qin 騎 a13-e16`.
//! let mv = Move { from: Point::new(0, 12).unwrap(), to: Point::new(4, 15).unwrap() };
//! let next = pos.play(mv).unwrap();
//! assert_eq!(next.turn(), Kingdom::Chu);
//! ```
//!
//! Text forms (positions, moves, records) are in [`crate::notation::seven_kingdoms`].

mod game;
mod outcome;
mod position;
mod seating;
mod types;

pub use game::{Game, GameEvent, ReplayError, ReplayEvent, SeatExit};
pub use outcome::{standings, EndCause, GameOutcome, HegemonyKind, SeatStanding};
pub use position::{
    perft, Defeat, IllegalMoveKind, KingdomRecord, MoveEffect, MoveList, PlayError, Position, PositionError,
    SeatError, Setup, ARMY_SIZE, HEGEMONY_GENERALS, HEGEMONY_PIECES, LOSSES_THAT_DEFEAT, MAX_MOVES,
};
pub use seating::{Seat, Seating, SeatingError};
pub use types::{Kingdom, Move, Occupant, Piece, PieceKind, Point};
