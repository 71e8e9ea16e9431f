//! The Xiangqi board: the pieces on the intersections of 9 files and 10 ranks, with the
//! river and the palace diagonals (`xiangqi.md` "Board and pieces"). Points are named in
//! ICCS (files `a`–`i` from Red's left, ranks `0`–`9` from Red's side).

use std::fmt::Write as _;

use tavoliere_rules::notation::xiangqi::iccs;
use tavoliere_rules::xiangqi::{Piece, Position, Role, Square, FILES, RANKS};
use tavoliere_rules::Color;

use super::options::{BoardOptions, PieceStyle};
use super::svg::{self, Frame, INK};

/// Distance between two lines.
const CELL: i32 = 40;
/// Room around the grid for the coordinates.
const MARGIN: i32 = 30;
/// More room below the grid: the file letters sit under the bottom row's pieces (radius
/// 17), not behind them (issue 18 §4).
const LETTER_ROOM: i32 = 12;

/// The character or letter of a piece.
fn label(piece: Piece, style: PieceStyle) -> &'static str {
    let first = usize::from(piece.color == Color::First);
    match style {
        PieceStyle::Traditional => match piece.role {
            Role::King => ["將", "帥"][first],
            Role::Advisor => ["士", "仕"][first],
            Role::Elephant => ["象", "相"][first],
            Role::Chariot => ["車", "俥"][first],
            Role::Horse => ["馬", "傌"][first],
            Role::Cannon => ["包", "炮"][first],
            Role::Soldier => ["卒", "兵"][first],
        },
        PieceStyle::Western => match piece.role {
            Role::King => "K",
            Role::Advisor => "A",
            Role::Elephant => "E",
            Role::Chariot => "R",
            Role::Horse => "H",
            Role::Cannon => "C",
            Role::Soldier => "P",
        },
    }
}

/// The points an ICCS move names; none when the text is no ICCS move (a mark is
/// decoration, never a reason to refuse the drawing).
fn move_points(text: &str) -> Vec<Square> {
    iccs::parse_move(text).map(|m| vec![m.from, m.to]).unwrap_or_default()
}

/// Draws a Xiangqi position as an SVG document.
pub(super) fn render(position: &Position, options: BoardOptions<'_>) -> String {
    let width = 8 * CELL + 2 * MARGIN;
    let height = 9 * CELL + 2 * MARGIN + LETTER_ROOM;
    // Screen position of a point; Black's side (rank 9) at the top unless flipped.
    let at = |point: Square| -> (i32, i32) {
        let (file, rank) = (i32::from(point.file()), i32::from(point.rank()));
        let (column, row) = if options.flipped { (8 - file, rank) } else { (file, 9 - rank) };
        (MARGIN + column * CELL, MARGIN + row * CELL)
    };
    let mut out = String::new();
    let frame = Frame {
        width,
        height,
        class: "xiangqi",
        cell: CELL,
        origin: (MARGIN, MARGIN),
        flipped: options.flipped,
        background: "#f2d9a0",
    };
    svg::open(&mut out, &frame);
    let _ = write!(out, r#"<g stroke="{INK}" stroke-width="1.5" fill="none">"#);
    // Ranks.
    for rank in 0..10 {
        let y = MARGIN + rank * CELL;
        let _ = write!(out, r#"<line x1="{MARGIN}" y1="{y}" x2="{}" y2="{y}"/>"#, MARGIN + 8 * CELL);
    }
    // Files: the edge files cross the river, the others stop at it.
    for file in 0..9 {
        let x = MARGIN + file * CELL;
        if file == 0 || file == 8 {
            let _ = write!(out, r#"<line x1="{x}" y1="{MARGIN}" x2="{x}" y2="{}"/>"#, MARGIN + 9 * CELL);
        } else {
            let _ = write!(out, r#"<line x1="{x}" y1="{MARGIN}" x2="{x}" y2="{}"/>"#, MARGIN + 4 * CELL);
            let _ = write!(
                out,
                r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}"/>"#,
                MARGIN + 5 * CELL,
                MARGIN + 9 * CELL
            );
        }
    }
    // Palace diagonals (files d–f, three ranks at each end).
    for (top, bottom) in [(0, 2), (7, 9)] {
        let (x1, y1) = (MARGIN + 3 * CELL, MARGIN + top * CELL);
        let (x2, y2) = (MARGIN + 5 * CELL, MARGIN + bottom * CELL);
        let _ = write!(out, r#"<line class="palace" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>"#);
        let _ = write!(out, r#"<line class="palace" x1="{x2}" y1="{y1}" x2="{x1}" y2="{y2}"/>"#);
    }
    out.push_str("</g>");
    let river = match options.style {
        PieceStyle::Traditional => "楚 河　　漢 界",
        PieceStyle::Western => "~ ~ ~",
    };
    let _ = write!(
        out,
        r#"<text class="river" x="{}" y="{}" text-anchor="middle" font-size="18" fill="{}">{}</text>"#,
        width / 2,
        MARGIN + 4 * CELL + CELL / 2 + 6,
        INK,
        river,
    );
    // Coordinates: ICCS files below, ranks on the left, in the drawing's orientation.
    for file in 0..FILES {
        let Some(point) = Square::new(file, 9) else { continue };
        svg::coordinate(&mut out, at(point).0, height - 6, 11, char::from(b'a' + file));
    }
    for rank in (0..RANKS).rev() {
        let Some(point) = Square::new(0, rank) else { continue };
        svg::coordinate(&mut out, 8, at(point).1 + 4, 11, rank);
    }
    for point in options.last_move.map(move_points).unwrap_or_default() {
        let (x, y) = at(point);
        let corner = (x - CELL / 2 + 1, y - CELL / 2 + 1);
        svg::last_move(&mut out, corner, (CELL - 2, CELL - 2), "#7fbf7f", "0.6");
    }
    if position.is_check() {
        svg::check(&mut out, at(position.king(position.turn())), CELL / 2);
    }
    // Pieces, from Black's back rank down, each file from Red's left.
    for rank in (0..RANKS).rev() {
        for point in (0..FILES).filter_map(|file| Square::new(file, rank)) {
            let Some(piece) = position.piece_at(point) else { continue };
            let (x, y) = at(point);
            let colour = if piece.color == Color::First { "#b22222" } else { "#1a1a1a" };
            let font_size = if options.style == PieceStyle::Traditional { 20 } else { 18 };
            let _ = write!(
                out,
                concat!(
                    r#"<g class="piece" data-square="{point}"><circle cx="{x}" cy="{y}" r="17" "#,
                    r##"fill="#fbeccb" stroke="{colour}" stroke-width="2"/>"##,
                    r#"<text x="{x}" y="{text_y}" text-anchor="middle" font-size="{font_size}" "#,
                    r#"fill="{colour}">{label}</text></g>"#
                ),
                point = point,
                x = x,
                y = y,
                colour = colour,
                text_y = y + 7,
                font_size = font_size,
                label = label(piece, options.style),
            );
        }
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use tavoliere_rules::notation::xiangqi::fen;

    use super::*;

    #[test]
    fn an_iccs_move_marks_its_two_points() {
        let names: Vec<String> = move_points("h2e2").iter().map(Square::to_string).collect();
        assert_eq!(names, ["h2", "e2"]);
        assert!(move_points("z9z9").is_empty(), "no mark for what is no move");
    }

    #[test]
    fn a_king_in_check_is_marked() {
        let start =
            fen::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
        assert!(!render(&start, BoardOptions::default()).contains(r#"class="check""#));
        // Red's chariot on e2 checks the black general up an empty file.
        let check = fen::parse("4k4/9/9/9/9/9/9/4R4/9/3K5 b - - 0 1").unwrap();
        assert!(render(&check, BoardOptions::default()).contains(r#"<circle class="check" cx="190" cy="30""#));
    }

    #[test]
    fn flipping_moves_the_first_players_king_to_the_top() {
        let start =
            fen::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
        let plain = render(&start, BoardOptions::default());
        let flipped = render(&start, BoardOptions { flipped: true, ..Default::default() });
        assert!(plain.contains(r#"data-square="e0"><circle cx="190" cy="390""#));
        assert!(flipped.contains(r#"data-square="e0"><circle cx="190" cy="30""#));
    }
}
