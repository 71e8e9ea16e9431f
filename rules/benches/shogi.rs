//! Perft benchmark for shogi (replace with the real criterion benchmark).
fn main() {}
