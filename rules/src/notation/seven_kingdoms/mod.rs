//! Seven Kingdoms notation: start-position text and moves.
