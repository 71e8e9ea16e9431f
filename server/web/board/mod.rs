//! Boards drawn as SVG by the server: pure functions from a position, the last move, the
//! orientation and the piece style to an SVG document. The same code serves the game page
//! and `GET /games/{id}/board.svg?ply=N` (for forums and mails).
//!
//! [`render`] reads the stored position text with the rules crate's own reader (FEN, SFEN,
//! the Seven Kingdoms position text) and hands the position to the renderer of its game
//! family, one file each: [`xiangqi`] (points and river), [`shogi`] (Shogi and MiniShogi:
//! squares and hands), [`chess`] (Flickering chess) and [`seven_kingdoms`] (the 19 x 19
//! grid and the kingdoms' legend). They share [`BoardOptions`] and the SVG pieces of
//! [`svg`]. Every piece is an element of class `piece` whose `data-square` (or
//! `data-point`) names its square or point in the game's canonical notation.

mod chess;
mod options;
mod seven_kingdoms;
mod shogi;
mod svg;
mod xiangqi;

use tavoliere_rules::notation::chess::fen as chess_fen;
use tavoliere_rules::notation::seven_kingdoms::position_text::{self, PositionTextError};
use tavoliere_rules::notation::shogi::sfen::{self, SfenError};
use tavoliere_rules::notation::xiangqi::fen as xiangqi_fen;
use tavoliere_rules::shogi::Variant as ShogiVariant;
use tavoliere_rules::variant::Variant;

pub use options::{BoardOptions, PieceStyle};

/// Why a board cannot be drawn: the rules crate cannot read the position text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Not a Xiangqi FEN of a legal position.
    #[error("the Xiangqi position cannot be read: {0}")]
    Xiangqi(#[from] xiangqi_fen::FenError),
    /// Not an SFEN of a legal Shogi or MiniShogi position.
    #[error("the Shogi position cannot be read: {0}")]
    Shogi(#[from] SfenError),
    /// Not a FEN of a legal Flickering chess position.
    #[error("the chess position cannot be read: {0}")]
    Chess(#[from] chess_fen::FenError),
    /// Not a Seven Kingdoms position text.
    #[error("the Seven Kingdoms position cannot be read: {0}")]
    SevenKingdoms(#[from] PositionTextError),
}

/// Draws `text` (FEN for Xiangqi and Flickering chess, SFEN for Shogi and MiniShogi, the
/// position text for the Seven Kingdoms: what the game stores) as an SVG document. For
/// Flickering chess the last move may be a whole series (`e2e4,g1f3`): every square it
/// names is marked.
///
/// # Errors
/// [`BoardError`] when the rules crate cannot read the position text.
pub fn render(variant: Variant, text: &str, options: BoardOptions<'_>) -> Result<String, BoardError> {
    Ok(match variant {
        Variant::Xiangqi => xiangqi::render(&xiangqi_fen::parse(text)?, options),
        Variant::Shogi => shogi::render(&sfen::parse(text, Some(ShogiVariant::Standard))?, options),
        Variant::MiniShogi => shogi::render(&sfen::parse(text, Some(ShogiVariant::Mini))?, options),
        Variant::Flickering => chess::render(&chess_fen::parse(text)?, options),
        Variant::SevenKingdoms => seven_kingdoms::render(&position_text::parse(text)?, options),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreadable_position_is_a_typed_error_of_its_game() {
        let error = render(Variant::Xiangqi, "9/9 w", BoardOptions::default()).unwrap_err();
        assert_eq!(error, BoardError::Xiangqi(xiangqi_fen::FenError::WrongRankCount));
        let error =
            render(Variant::MiniShogi, "rbsgk/4p/5/P4/KGSBQ b - 1", BoardOptions::default()).unwrap_err();
        assert!(matches!(error, BoardError::Shogi(_)), "{error}");
        let error = render(Variant::Flickering, "rnbqkbnr/pppppppp w", BoardOptions::default()).unwrap_err();
        assert!(matches!(error, BoardError::Chess(_)), "{error}");
        let error = render(Variant::SevenKingdoms, "players: nine", BoardOptions::default()).unwrap_err();
        assert!(matches!(error, BoardError::SevenKingdoms(_)), "{error}");
    }

    #[test]
    fn a_shogi_position_is_read_as_its_variant() {
        let minishogi = "rbsgk/4p/5/P4/KGSBR b - 1";
        assert!(render(Variant::MiniShogi, minishogi, BoardOptions::default()).is_ok());
        let error = render(Variant::Shogi, minishogi, BoardOptions::default()).unwrap_err();
        assert!(matches!(error, BoardError::Shogi(_)), "a 5 x 5 SFEN is no Shogi position: {error}");
    }
}
