//! Perft benchmark for xiangqi (replace with the real criterion benchmark).
fn main() {}
