//! The Flickering chess board: an orthodox 8 x 8 chessboard drawn from a FEN
//! (`flickering-chess.md` uses the orthodox board and pieces). The last move is a whole
//! series (`e2e4,g1f3`); every square it names is marked.

use std::fmt::Write as _;

use tavoliere_rules::chess::{Role, Square};
use tavoliere_rules::notation::chess::fen;
use tavoliere_rules::Color;

use super::board::{BoardError, BoardOptions, PieceStyle};

/// Side of a square in pixels.
const SQUARE: i32 = 45;
/// Room around the board for the coordinates.
const MARGIN: i32 = 24;
const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";

/// The squares a series in canonical coordinates names (`e2e4,g1f3`, promotions as
/// `e7e8q`): origin and target of each move, in order, without duplicates. Unreadable parts
/// are skipped — a mark is decoration, never a reason to refuse the drawing.
pub(crate) fn series_squares(series: &str) -> Vec<Square> {
    let mut squares: Vec<Square> = Vec::new();
    for part in series.split([',', ' ']).map(str::trim).filter(|p| !p.is_empty()) {
        let bytes = part.as_bytes();
        for pair in [bytes.get(0..2), bytes.get(2..4)].into_iter().flatten() {
            let (file, rank) = (pair[0].to_ascii_lowercase(), pair[1]);
            if !(b'a'..=b'h').contains(&file) || !(b'1'..=b'8').contains(&rank) {
                continue;
            }
            if let Some(square) = Square::new(file - b'a', rank - b'1') {
                if !squares.contains(&square) {
                    squares.push(square);
                }
            }
        }
    }
    squares
}

/// The Unicode figurine: outlined for White, solid for Black.
fn figurine(color: Color, role: Role) -> &'static str {
    match (color, role) {
        (Color::First, Role::King) => "♔",
        (Color::First, Role::Queen) => "♕",
        (Color::First, Role::Rook) => "♖",
        (Color::First, Role::Bishop) => "♗",
        (Color::First, Role::Knight) => "♘",
        (Color::First, Role::Pawn) => "♙",
        (Color::Second, Role::King) => "♚",
        (Color::Second, Role::Queen) => "♛",
        (Color::Second, Role::Rook) => "♜",
        (Color::Second, Role::Bishop) => "♝",
        (Color::Second, Role::Knight) => "♞",
        (Color::Second, Role::Pawn) => "♟",
    }
}

/// Draws a Flickering chess position (FEN) as an SVG document. Flipped boards show Black's
/// side at the bottom.
///
/// # Errors
/// [`BoardError::Position`] when the FEN cannot be read.
pub(crate) fn render(text: &str, options: BoardOptions<'_>) -> Result<String, BoardError> {
    let position = fen::parse(text).map_err(|e| BoardError::Position(e.to_string()))?;
    let size = 8 * SQUARE + 2 * MARGIN;
    // Screen top-left corner of a square.
    let corner = |square: Square| -> (i32, i32) {
        let (file, rank) = (i32::from(square.file()), i32::from(square.rank()));
        let (column, row) = if options.flipped { (7 - file, rank) } else { (file, 7 - rank) };
        (MARGIN + column * SQUARE, MARGIN + row * SQUARE)
    };
    let mut out = String::new();
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="board chess" viewBox="0 0 {size} {size}" width="{size}" height="{size}" role="img" font-family="serif" data-cell="{SQUARE}" data-x0="{x0}" data-y0="{x0}" data-flipped="{}">"##,
        options.flipped,
        x0 = MARGIN + SQUARE / 2
    );
    let _ = write!(out, r##"<rect width="{size}" height="{size}" fill="#e8e0d0"/>"##);
    for square in Square::all() {
        let (x, y) = corner(square);
        // a1 is a dark square.
        let colour = if (square.file() + square.rank()) % 2 == 0 { DARK } else { LIGHT };
        let _ = write!(out, r#"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{colour}"/>"#);
    }
    let _ = write!(
        out,
        r##"<rect x="{MARGIN}" y="{MARGIN}" width="{0}" height="{0}" fill="none" stroke="#5a3d1e" stroke-width="1.5"/>"##,
        8 * SQUARE
    );
    // Coordinates: files below, ranks on the left, in the drawing's orientation.
    for index in 0..8u8 {
        let Some(square) = Square::new(index, index) else { continue };
        let (x, y) = corner(square);
        let _ = write!(
            out,
            r##"<text class="coord" x="{}" y="{}" text-anchor="middle" font-size="12" fill="#5a3d1e">{}</text>"##,
            x + SQUARE / 2,
            size - 7,
            square.file_char()
        );
        let _ = write!(
            out,
            r##"<text class="coord" x="{}" y="{}" text-anchor="middle" font-size="12" fill="#5a3d1e">{}</text>"##,
            MARGIN / 2,
            y + SQUARE / 2 + 4,
            square.rank_char()
        );
    }
    if let Some(last) = options.last_move {
        for square in series_squares(last) {
            let (x, y) = corner(square);
            let _ = write!(
                out,
                r##"<rect class="last-move" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="#9bc53d" fill-opacity="0.55"/>"##
            );
        }
    }
    for square in Square::all() {
        let Some(piece) = position.piece_at(square) else { continue };
        let (x, y) = corner(square);
        let (cx, cy) = (x + SQUARE / 2, y + SQUARE / 2);
        let name = format!("{}{}", square.file_char(), square.rank_char());
        let _ = write!(out, r#"<g class="piece" data-point="{name}">"#);
        match options.style {
            PieceStyle::Traditional => {
                // U+FE0E asks for the text (not emoji) presentation of the figurine.
                let _ = write!(
                    out,
                    r##"<text x="{cx}" y="{}" text-anchor="middle" font-size="38" fill="#111">{}&#xFE0E;</text>"##,
                    cy + 13,
                    figurine(piece.color, piece.role)
                );
            }
            PieceStyle::Western => {
                let (fill, ink) =
                    if piece.color == Color::First { ("#fdfdfd", "#111") } else { ("#222", "#fdfdfd") };
                let _ = write!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="17" fill="{fill}" stroke="#111" stroke-width="1.5"/><text x="{cx}" y="{}" text-anchor="middle" font-size="20" font-family="sans-serif" font-weight="bold" fill="{ink}">{}</text>"##,
                    cy + 7,
                    piece.role.upper_char()
                );
            }
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_marks_every_named_square_once() {
        let names: Vec<String> = series_squares("e2e4,g1f3,f3e5")
            .iter()
            .map(|s| format!("{}{}", s.file_char(), s.rank_char()))
            .collect();
        assert_eq!(names, ["e2", "e4", "g1", "f3", "e5"]);
        assert_eq!(series_squares("e7e8q").len(), 2);
        assert!(series_squares("z9??").is_empty());
    }

    #[test]
    fn unreadable_fen_is_a_typed_error() {
        let error = render("rnbqkbnr/pppppppp w", BoardOptions::default()).unwrap_err();
        assert!(matches!(error, BoardError::Position(_)));
    }

    #[test]
    fn flipping_puts_the_white_king_at_the_top() {
        let start = fen::START_FEN;
        let plain = render(start, BoardOptions::default()).unwrap();
        let flipped = render(start, BoardOptions { flipped: true, ..Default::default() }).unwrap();
        // e1: file 4, rank 0.
        assert!(plain.contains(r#"data-point="e1"><text x="226" y="374""#), "{plain}");
        assert!(flipped.contains(r#"data-point="e1"><text x="181" y="59""#));
    }
}
