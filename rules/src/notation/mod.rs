//! Notation: reading and writing positions, moves and whole game records.
//! Each notation is its own module, depending on the game cores, never the reverse.

pub mod chess;
pub mod record;
pub mod seven_kingdoms;
pub mod shogi;
pub mod xiangqi;
