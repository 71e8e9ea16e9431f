//! Xiangqi (Chinese chess): board, pieces, move generation. Rules: `../shared/rules/xiangqi.md`.
