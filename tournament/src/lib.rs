//! Tournament pairings, standings, tie-breaks and Grand Prix tables: pure functions, no I/O.
