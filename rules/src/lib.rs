//! # tavoliere-rules
//!
//! The rules of the games played on Tavoliere: Xiangqi, Shogi, MiniShogi, Flickering chess
//! and the Game of the Seven Kingdoms. A pure library: no I/O, no async, no database.
//!
//! Each game has its own module with the same shape (after shakmaty and shogi_core):
//! an unvalidated `Setup` (what a FEN or SFEN says), a playable `Position` that only
//! `Position::from_setup` builds, `Copy` moves, allocation-free move lists, and typed
//! errors. Notation lives in [`notation`], outside the cores. Game history, outcomes
//! and the repetition laws live in the game records.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod color;
mod outcome;

pub mod chess;
pub mod game;
pub mod notation;
pub mod replay;
pub mod seven_kingdoms;
pub mod shogi;
pub mod variant;
pub mod xiangqi;

pub use color::Color;
pub use outcome::{EndDetails, EndReason, Outcome, UnknownEndReason};
