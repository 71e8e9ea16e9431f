//! The Flickering chess board: an orthodox 8 x 8 chessboard (`flickering-chess.md` uses
//! the orthodox board and pieces). The last move is a whole series (`e2e4,g1f3`); every
//! square it names is marked.

use std::fmt::Write as _;

use tavoliere_rules::chess::{Position, Role, Square};
use tavoliere_rules::Color;

use super::options::{BoardOptions, PieceStyle};
use super::svg::{self, Frame, INK};

/// Side of a square in pixels.
const SQUARE: i32 = 45;
/// Room around the board for the coordinates.
const MARGIN: i32 = 24;
const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";

/// The squares a series in canonical coordinates names (`e2e4,g1f3`, promotions as
/// `e7e8q`): origin and target of each move, in order, without duplicates. Unreadable parts
/// are skipped — a mark is decoration, never a reason to refuse the drawing.
fn series_squares(series: &str) -> Vec<Square> {
    let mut squares: Vec<Square> = Vec::new();
    for part in series.split([',', ' ']).map(str::trim).filter(|p| !p.is_empty()) {
        let names = [part.get(0..2), part.get(2..4)].into_iter().flatten();
        for square in names.filter_map(|name| name.to_ascii_lowercase().parse::<Square>().ok()) {
            if !squares.contains(&square) {
                squares.push(square);
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

/// Draws a Flickering chess position as an SVG document. Flipped boards show Black's
/// side at the bottom.
pub(super) fn render(position: &Position, options: BoardOptions<'_>) -> String {
    let size = 8 * SQUARE + 2 * MARGIN;
    // Screen top-left corner of a square.
    let corner = |square: Square| -> (i32, i32) {
        let (file, rank) = (i32::from(square.file()), i32::from(square.rank()));
        let (column, row) = if options.flipped { (7 - file, rank) } else { (file, 7 - rank) };
        (MARGIN + column * SQUARE, MARGIN + row * SQUARE)
    };
    let mut out = String::new();
    let frame = Frame {
        width: size,
        height: size,
        class: "chess",
        cell: SQUARE,
        origin: (MARGIN + SQUARE / 2, MARGIN + SQUARE / 2),
        flipped: options.flipped,
        background: "#e8e0d0",
    };
    svg::open(&mut out, &frame);
    for square in Square::all() {
        let (x, y) = corner(square);
        // a1 is a dark square.
        let colour = if (square.file() + square.rank()) % 2 == 0 { DARK } else { LIGHT };
        let _ = write!(out, r#"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{colour}"/>"#);
    }
    let _ = write!(
        out,
        concat!(
            r#"<rect x="{margin}" y="{margin}" width="{side}" height="{side}" "#,
            r#"fill="none" stroke="{ink}" stroke-width="1.5"/>"#
        ),
        margin = MARGIN,
        side = 8 * SQUARE,
        ink = INK,
    );
    // Coordinates: files below, ranks on the left, in the drawing's orientation.
    for index in 0..8u8 {
        let Some(square) = Square::new(index, index) else { continue };
        let (x, y) = corner(square);
        svg::coordinate(&mut out, x + SQUARE / 2, size - 7, 12, square.file_char());
        svg::coordinate(&mut out, MARGIN / 2, y + SQUARE / 2 + 4, 12, square.rank_char());
    }
    for square in options.last_move.map(series_squares).unwrap_or_default() {
        svg::last_move(&mut out, corner(square), (SQUARE, SQUARE), "#9bc53d", "0.55");
    }
    for square in Square::all() {
        let Some(piece) = position.piece_at(square) else { continue };
        let (x, y) = corner(square);
        let (cx, cy) = (x + SQUARE / 2, y + SQUARE / 2);
        let _ = write!(out, r#"<g class="piece" data-point="{square}">"#);
        match options.style {
            PieceStyle::Traditional => {
                // U+FE0E asks for the text (not emoji) presentation of the figurine.
                let figurine = figurine(piece.color, piece.role);
                let _ = write!(
                    out,
                    concat!(
                        r##"<text x="{cx}" y="{y}" text-anchor="middle" font-size="38" fill="#111">"##,
                        "{figurine}&#xFE0E;</text>"
                    ),
                    cx = cx,
                    y = cy + 13,
                    figurine = figurine,
                );
            }
            PieceStyle::Western => {
                let (fill, ink) =
                    if piece.color == Color::First { ("#fdfdfd", "#111") } else { ("#222", "#fdfdfd") };
                let _ = write!(
                    out,
                    concat!(
                        r#"<circle cx="{cx}" cy="{cy}" r="17" fill="{fill}" "#,
                        r##"stroke="#111" stroke-width="1.5"/>"##,
                        r#"<text x="{cx}" y="{text_y}" text-anchor="middle" font-size="20" "#,
                        r#"font-family="sans-serif" font-weight="bold" fill="{ink}">{letter}</text>"#
                    ),
                    cx = cx,
                    cy = cy,
                    fill = fill,
                    text_y = cy + 7,
                    ink = ink,
                    letter = piece.role.upper_char()
                );
            }
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use tavoliere_rules::notation::chess::fen;

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
    fn flipping_puts_the_white_king_at_the_top() {
        let start = fen::parse(fen::START_FEN).unwrap();
        let plain = render(&start, BoardOptions::default());
        let flipped = render(&start, BoardOptions { flipped: true, ..Default::default() });
        // e1: file 4, rank 0.
        assert!(plain.contains(r#"data-point="e1"><text x="226" y="374""#), "{plain}");
        assert!(flipped.contains(r#"data-point="e1"><text x="181" y="59""#));
    }
}
