//! Chess and Flickering chess notation: FEN, algebraic series.
