//! Tournament pairings, standings, tie-breaks and Grand Prix tables: pure functions, no I/O.
//!
//! The server stores tournaments in PostgreSQL and calls into this crate with plain rows:
//! players and games are identified by opaque ids ([`PlayerId`], [`GameId`]) and every game
//! carries a [`GameResult`].
//!
//! * [`berger`]: round-robin pairings from the FIDE Berger tables (single or double cycle,
//!   a bye for odd numbers, all games started together or round by round).
//! * [`scoring`]: points per result ([`Scoring`]), fixed-point [`Points`].
//! * [`standings`]: standings with configurable tie-breaks and shared places.
//! * [`withdrawal`]: the withdrawal rule (forfeit the unplayed games, or annul everything
//!   below half played).
//! * [`swiss`]: Swiss pairings by the FIDE (Dutch) System, C.04.3 in its 2025 and 2017
//!   editions with the Baku acceleration, as the endorsed engine bbpPairings pairs them
//!   (a corpus of thousands of rounds checks it), with explanations of each pairing.
//! * [`trf`]: the TRF export pairing programs read, and its reader.
//! * [`grand_prix`]: the overall table of a tournament made of several sections.
//! * [`tables`]: crosstables and Grand Prix tables as data, JSON (serde), CSV and HTML in
//!   Italian or English.
//!
//! ```
//! use tavoliere_tournament::berger::{round_robin, Cycles, RoundRobinOptions, StartPolicy};
//! use tavoliere_tournament::PlayerId;
//!
//! let players: Vec<PlayerId> = (1..=4).map(PlayerId).collect();
//! let options = RoundRobinOptions { cycles: Cycles::Single, start: StartPolicy::AllTogether, ..Default::default() };
//! let schedule = round_robin(&players, &options).unwrap();
//! assert_eq!(schedule.games.len(), 6);
//! assert_eq!(schedule.games[0].first, PlayerId(1)); // 1-4: player 1 has the first move
//! assert_eq!(schedule.games[0].second, PlayerId(4));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod berger;
pub mod grand_prix;
mod model;
#[cfg(feature = "openapi")]
mod openapi;
pub mod scoring;
pub mod standings;
pub mod swiss;
pub mod tables;
pub mod trf;
pub mod withdrawal;

pub use model::{Bye, GameId, GameRecord, GameResult, PlayerId, PlayerOutcome, SectionId};
pub use scoring::{ByePoints, Points, Scoring};
