//! Perft benchmark for chess (replace with the real criterion benchmark).
fn main() {}
