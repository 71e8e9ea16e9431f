//! The Shogi and MiniShogi board: pieces on squares (9 x 9, or 5 x 5), each pointing at
//! the opponent, and the pieces in hand beside the board, the bottom player's below it.
//! Squares are named in USI (files `9`–`1` from Black's left, ranks `a`–`i` from the top).

use std::fmt::Write as _;

use tavoliere_rules::notation::shogi::usi;
use tavoliere_rules::shogi::{Move, Piece, Position, Role, Square};
use tavoliere_rules::Color;

use super::options::{BoardOptions, PieceStyle};
use super::svg::{self, Frame, INK};

/// Side of a square.
const CELL: i32 = 40;
/// Room around the board for the coordinates.
const MARGIN: i32 = 30;
/// Height of the band of pieces in hand above and below the board.
const HAND_BAND: i32 = 44;

/// The character or letter of a piece.
fn label(piece: Piece, style: PieceStyle) -> &'static str {
    match style {
        PieceStyle::Traditional => match piece.role {
            Role::King if piece.color == Color::First => "玉",
            Role::King => "王",
            Role::Rook => "飛",
            Role::Dragon => "龍",
            Role::Bishop => "角",
            Role::Horse => "馬",
            Role::Gold => "金",
            Role::Silver => "銀",
            Role::ProSilver => "全",
            Role::Knight => "桂",
            Role::ProKnight => "圭",
            Role::Lance => "香",
            Role::ProLance => "杏",
            Role::Pawn => "歩",
            Role::Tokin => "と",
        },
        PieceStyle::Western => match piece.role {
            Role::King => "K",
            Role::Rook => "R",
            Role::Dragon => "+R",
            Role::Bishop => "B",
            Role::Horse => "+B",
            Role::Gold => "G",
            Role::Silver => "S",
            Role::ProSilver => "+S",
            Role::Knight => "N",
            Role::ProKnight => "+N",
            Role::Lance => "L",
            Role::ProLance => "+L",
            Role::Pawn => "P",
            Role::Tokin => "+P",
        },
    }
}

/// The squares a USI move names (a drop only its target); none when the text is no USI
/// move of the board (a mark is decoration, never a reason to refuse the drawing).
fn move_squares(text: &str, position: &Position) -> Vec<Square> {
    match usi::parse_move(text, position.variant()) {
        Some(Move::Normal { from, to, .. }) => vec![from, to],
        Some(Move::Drop { to, .. }) => vec![to],
        None => Vec::new(),
    }
}

/// One piece centred on `(x, y)`, turned around when it belongs to the player at the top;
/// `attributes` name its square or its place in hand.
fn draw_piece(
    out: &mut String,
    (x, y): (i32, i32),
    piece: Piece,
    upside_down: bool,
    style: PieceStyle,
    attributes: &str,
) {
    let label = label(piece, style);
    let half = CELL / 2 - 3;
    let rotate = if upside_down { format!(r#" transform="rotate(180 {x} {y})""#) } else { String::new() };
    let colour = if piece.role.is_promoted() { "#b22222" } else { "#1a1a1a" };
    let font_size = if label.chars().count() > 1 { 14 } else { 20 };
    let _ = write!(
        out,
        concat!(
            r#"<g class="piece"{attributes}{rotate}>"#,
            r#"<path d="M{x} {top} L{right_shoulder} {shoulder} L{right} {bottom} L{left} {bottom} "#,
            r##"L{left_shoulder} {shoulder} Z" fill="#fbeccb" stroke="{ink}"/>"##,
            r#"<text x="{x}" y="{text_y}" text-anchor="middle" font-size="{font_size}" "#,
            r#"fill="{colour}">{label}</text></g>"#
        ),
        attributes = attributes,
        rotate = rotate,
        x = x,
        top = y - half,
        right_shoulder = x + half - 4,
        shoulder = y - half + 6,
        right = x + half,
        bottom = y + half,
        left = x - half,
        left_shoulder = x - half + 4,
        ink = INK,
        text_y = y + 8,
        font_size = font_size,
        colour = colour,
        label = label,
    );
}

/// Draws a Shogi or MiniShogi position as an SVG document.
pub(super) fn render(position: &Position, options: BoardOptions<'_>) -> String {
    let size = position.variant().size();
    let n = i32::from(size);
    let width = n * CELL + 2 * MARGIN;
    let board_top = HAND_BAND + MARGIN;
    let height = n * CELL + 2 * MARGIN + 2 * HAND_BAND;
    // Screen top-left corner of a square; White's side (rank a) at the top unless flipped.
    let corner = |square: Square| -> (i32, i32) {
        let (column, row) = (n - i32::from(square.file()), i32::from(square.rank()) - 1);
        let (column, row) = if options.flipped { (n - 1 - column, n - 1 - row) } else { (column, row) };
        (MARGIN + column * CELL, board_top + row * CELL)
    };
    let squares = |rank: u8| (1..=size).rev().filter_map(move |file| Square::new(file, rank));
    let mut out = String::new();
    let frame = Frame {
        width,
        height,
        class: if size == 5 { "minishogi" } else { "shogi" },
        cell: CELL,
        origin: (MARGIN + CELL / 2, board_top + CELL / 2),
        flipped: options.flipped,
        background: "#f2d9a0",
    };
    svg::open(&mut out, &frame);
    let _ = write!(
        out,
        concat!(
            r#"<rect x="{margin}" y="{top}" width="{side}" height="{side}" "#,
            r##"fill="#f5d88e" stroke="{ink}" stroke-width="2"/>"##
        ),
        margin = MARGIN,
        top = board_top,
        side = n * CELL,
        ink = INK,
    );
    let _ = write!(out, r#"<g stroke="{INK}" stroke-width="1">"#);
    for i in 1..n {
        let x = MARGIN + i * CELL;
        let y = board_top + i * CELL;
        let _ = write!(out, r#"<line x1="{x}" y1="{board_top}" x2="{x}" y2="{}"/>"#, board_top + n * CELL);
        let _ = write!(out, r#"<line x1="{MARGIN}" y1="{y}" x2="{}" y2="{y}"/>"#, MARGIN + n * CELL);
    }
    out.push_str("</g>");
    // Coordinates: USI files (numbers) above, ranks (letters) on the right.
    for square in squares(1) {
        svg::coordinate(&mut out, corner(square).0 + CELL / 2, board_top - 8, 11, square.file());
    }
    for rank in 1..=size {
        let Some(square) = Square::new(size, rank) else { continue };
        let rank_name = char::from(b'a' + rank - 1);
        svg::coordinate(&mut out, MARGIN + n * CELL + 12, corner(square).1 + CELL / 2 + 4, 11, rank_name);
    }
    if let Some(last) = options.last_move {
        for square in move_squares(last, position) {
            let (x, y) = corner(square);
            svg::last_move(&mut out, (x + 1, y + 1), (CELL - 2, CELL - 2), "#7fbf7f", "0.6");
        }
    }
    if let Some(king) = position.king_square(position.turn()).filter(|_| position.is_check()) {
        let (x, y) = corner(king);
        svg::check(&mut out, (x + CELL / 2, y + CELL / 2), CELL / 2);
    }
    // Pieces, rank by rank from the top, each from Black's left. The pieces of the player
    // at the top of the drawing point down.
    for square in (1..=size).flat_map(squares) {
        let Some(piece) = position.piece_at(square) else { continue };
        let (x, y) = corner(square);
        let upside_down = (piece.color == Color::First) == options.flipped;
        let attributes = format!(r#" data-square="{square}""#);
        draw_piece(&mut out, (x + CELL / 2, y + CELL / 2), piece, upside_down, options.style, &attributes);
    }
    // Hands: the player at the bottom has theirs below the board, the other above.
    for color in Color::ALL {
        let first = color == Color::First;
        let at_bottom = first != options.flipped;
        let y = if at_bottom { height - HAND_BAND / 2 } else { HAND_BAND / 2 };
        let mut x = MARGIN + CELL / 2;
        let _ = write!(out, r#"<g class="hand {}">"#, if first { "hand-first" } else { "hand-second" });
        for (role, count) in position.hand(color).iter() {
            let attributes = format!(r#" data-hand="{}""#, role.letter());
            draw_piece(&mut out, (x, y), Piece { color, role }, !at_bottom, options.style, &attributes);
            if count > 1 {
                let _ = write!(
                    out,
                    r##"<text class="count" x="{}" y="{}" font-size="13" fill="#1a1a1a">{count}</text>"##,
                    x + CELL / 2 - 4,
                    y + CELL / 2 - 4
                );
            }
            x += CELL + 6;
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use tavoliere_rules::notation::shogi::sfen;
    use tavoliere_rules::shogi::Variant;

    use super::*;

    fn names(squares: Vec<Square>) -> Vec<String> {
        squares.iter().map(Square::to_string).collect()
    }

    #[test]
    fn a_usi_move_marks_its_squares_and_a_drop_only_its_target() {
        let start = Position::startpos(Variant::Standard);
        assert_eq!(names(move_squares("7g7f", &start)), ["7g", "7f"]);
        assert_eq!(names(move_squares("P*5e", &start)), ["5e"]);
        assert!(move_squares("9z9a", &start).is_empty(), "no mark for what is no move");
        let mini = Position::startpos(Variant::Mini);
        assert!(move_squares("7g7f", &mini).is_empty(), "7g is off the MiniShogi board");
    }

    #[test]
    fn a_king_in_check_is_marked() {
        let start = Position::startpos(Variant::Standard);
        assert!(!render(&start, BoardOptions::default()).contains(r#"class="check""#));
        // Sente's rook on 5e checks gote's king on 5a.
        let check = sfen::parse("4k4/9/9/9/4R4/9/9/9/4K4 w - 1", Some(Variant::Standard)).unwrap();
        let drawn = render(&check, BoardOptions::default());
        let mark = drawn.find(r#"class="check""#).expect("the check mark");
        assert!(mark < drawn.find(r#"data-square="5a""#).unwrap(), "drawn under the king");
    }

    #[test]
    fn the_pieces_of_the_top_player_point_down() {
        let position = sfen::parse("rbsgk/4p/5/P4/KGSBR b - 1", Some(Variant::Mini)).unwrap();
        let plain = render(&position, BoardOptions::default());
        assert!(plain.contains(r#"<g class="piece" data-square="5e"><path"#), "sente's king upright");
        assert!(
            plain.contains(r#"<g class="piece" data-square="1a" transform="rotate(180"#),
            "gote's king turned"
        );
        let flipped = render(&position, BoardOptions { flipped: true, ..Default::default() });
        assert!(flipped.contains(r#"<g class="piece" data-square="5e" transform="rotate(180"#));
        assert!(flipped.contains(r#"<g class="piece" data-square="1a"><path"#));
    }
}
