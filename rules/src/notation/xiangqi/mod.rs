//! Xiangqi notation: FEN, ICCS, WXF, FIX western algebraic, Chinese.
