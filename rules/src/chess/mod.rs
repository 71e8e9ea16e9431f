//! Orthodox chess and Flickering chess (a turn is a series of moves).
//! Rules: `../shared/rules/flickering-chess.md`.
