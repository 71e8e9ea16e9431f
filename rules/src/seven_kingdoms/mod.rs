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
//!
//! ## Readings of the rules
//!
//! The rules' own **Interpretation** paragraphs are implemented as written (exactly one
//! straight and three diagonal horseman steps; no check or mate; "more than ten" lost pieces
//! means eleven; a defeated army leaves the board and no longer moves; seating chosen at
//! creation, kingdoms played in the fixed order); the other horseman reading (one to three
//! diagonal steps) is the ruleset option [`HorsemanRule::UpToThreeDiagonal`]. Where the rules
//! are silent we chose, and the code says so where it decides:
//!
//! - **Which allies** ([`Seating::standard`]): extra kingdoms are taken from the end of the
//!   turn order (Qin+Yan; Chu+Zhao; Qi+Wei; with three players Qin+Han+Yan). Two players are
//!   rejected with [`SeatingError::UnsupportedPlayerCount`]; [`Seating::custom`] takes any
//!   agreed table of 3 to 7 seats.
//! - **Attacking an ally** (capturing a piece of a kingdom of one's own seat): allowed, earns
//!   no credit, and the victim's whole army leaves the board ([`Defeat::AllyAttack`]).
//! - **Removed armies** (defeat, ally penalty, resignation, timeout) are not credited as
//!   captures to anybody.
//! - **No legal move**: the kingdom passes; if no kingdom can move, the game ends
//!   ([`EndCause::NoLegalMoves`]).
//! - **Ranking** ([`standings`]): the hegemon first, then by pieces captured; equal keys share
//!   the place (and the win); the historical value is a secondary score shown and used to
//!   order a shared place, never to split it. Seats whose kingdoms are all out keep their
//!   captures and are ranked by them.
//! - **Seats leaving** ([`Position::time_out_seat`], [`Position::resign_seat`]): the seat's
//!   kingdoms are defeated and leave the board; the game goes on.

mod outcome;
mod position;
mod seating;
mod types;

pub use crate::game::seven_kingdoms::{Game, GameEvent, ReplayError, ReplayEvent, SeatExit};
pub use outcome::{standings, EndCause, GameOutcome, HegemonyKind, SeatStanding};
pub use position::{
    perft, Defeat, IllegalMoveKind, KingdomRecord, MoveEffect, MoveList, PlayError, Position, PositionError,
    SeatError, Setup, ARMY_SIZE, HEGEMONY_GENERALS, HEGEMONY_PIECES, LOSSES_THAT_DEFEAT, MAX_MOVES,
};
pub use seating::{Seat, Seating, SeatingError};
pub use types::{HorsemanRule, Kingdom, Move, Occupant, Piece, PieceKind, Point};
