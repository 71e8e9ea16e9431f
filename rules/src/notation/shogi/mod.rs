//! Shogi and MiniShogi notation: SFEN, USI, western/AISE, KIF, CSA.
