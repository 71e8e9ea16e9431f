//! Whole game texts: splitting a record (PGN tags, move numbers, comments, results) into move tokens.
