//! The Seven Kingdoms board: the 19 x 19 grid with the pieces on the intersections, drawn
//! from the position text, and a legend beside it with whose turn it is and each kingdom's
//! tally (`seven-kingdoms.md` "Board, players, pieces": x = 0..18 west to east, y = 0..18
//! south to north, the Zhou emperor 周 at (9, 9), the kingdoms' colours).

use std::fmt::Write as _;

use tavoliere_rules::notation::seven_kingdoms::moves::parse_point;
use tavoliere_rules::seven_kingdoms::{Defeat, Kingdom, Occupant, PieceKind, Point, Position};

use super::options::{BoardOptions, PieceStyle};
use super::svg::{self, Frame, INK};

/// Distance between two lines of the grid in pixels.
const STEP: i32 = 28;
/// Room around the grid for the coordinates.
const MARGIN: i32 = 34;
/// Width of the legend to the right of the grid.
const LEGEND: i32 = 230;
/// Radius of a piece's disc.
const RADIUS: i32 = 12;
const SIDE: i32 = Point::SIDE as i32;

/// Fill and ink (text) colour of a kingdom's pieces: `seven-kingdoms.md` "Board, players,
/// pieces": Qin white, Chu red, Han orange, Qi blue, Wei green, Zhao purple, Yan black.
fn kingdom_colours(kingdom: Kingdom) -> (&'static str, &'static str) {
    match kingdom {
        Kingdom::Qin => ("#fbfbf5", "#111"),
        Kingdom::Chu => ("#c62828", "#fff"),
        Kingdom::Han => ("#f08a24", "#111"),
        Kingdom::Qi => ("#1f5fbf", "#fff"),
        Kingdom::Wei => ("#2e7d32", "#fff"),
        Kingdom::Zhao => ("#7b3fa0", "#fff"),
        Kingdom::Yan => ("#1a1a1a", "#fff"),
    }
}

/// The western abbreviation of a piece kind (one or two letters).
fn western_label(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::General => "G",
        PieceKind::Deputy => "De",
        PieceKind::Officer => "Of",
        PieceKind::Diplomat => "Di",
        PieceKind::Catapult => "Ca",
        PieceKind::Archer => "Ar",
        PieceKind::Crossbow => "Cb",
        PieceKind::Sword => "Sw",
        PieceKind::Broadsword => "Bs",
        PieceKind::Horseman => "H",
    }
}

/// The points a canonical move names (`Qin 騎 a13-e16`, `Qin 騎 a13xe16`, or just
/// `a13-e16`): origin and target. Unreadable text gives no points.
fn move_points(text: &str) -> Vec<Point> {
    let Some(last) = text.split_whitespace().last() else { return Vec::new() };
    // Points use the letters a..s only, so `x` always is the capture mark.
    let Some((from, to)) = last.split_once(['-', 'x']) else { return Vec::new() };
    [from, to].into_iter().filter_map(parse_point).collect()
}

/// How a kingdom went out, for the legend.
fn defeat_text(defeat: Defeat) -> String {
    match defeat {
        Defeat::GeneralCaptured { by } => format!("out: general taken by {}", by.name()),
        Defeat::PiecesLost { by } => format!("out: 11 pieces lost, last to {}", by.name()),
        Defeat::AllyAttack { by } => format!("out: attacked by ally {}", by.name()),
        Defeat::Resigned => "out: resigned".to_owned(),
        Defeat::TimedOut => "out: timed out".to_owned(),
    }
}

/// Draws a Seven Kingdoms position as an SVG document: the grid, the pieces, the last
/// move, and a legend with the kingdom to move and every kingdom's captures and status.
/// Flipped drawings are turned 180°.
pub(super) fn render(position: &Position, options: BoardOptions<'_>) -> String {
    let grid = (SIDE - 1) * STEP;
    let width = grid + 2 * MARGIN + LEGEND;
    let height = grid + 2 * MARGIN;
    // Screen position of a point; north (y = 18) at the top unless flipped.
    let at = |point: Point| -> (i32, i32) {
        let (x, y) = (i32::from(point.x()), i32::from(point.y()));
        let (column, row) = if options.flipped { (SIDE - 1 - x, y) } else { (x, SIDE - 1 - y) };
        (MARGIN + column * STEP, MARGIN + row * STEP)
    };
    let mut out = String::new();
    let frame = Frame {
        width,
        height,
        class: "seven-kingdoms",
        cell: STEP,
        origin: (MARGIN, MARGIN),
        flipped: options.flipped,
        background: "#e3c07a",
    };
    svg::open(&mut out, &frame);
    let _ = write!(out, r#"<g stroke="{INK}" stroke-width="1">"#);
    for line in 0..SIDE {
        let offset = MARGIN + line * STEP;
        let _ = write!(out, r#"<line x1="{MARGIN}" y1="{offset}" x2="{}" y2="{offset}"/>"#, MARGIN + grid);
        let _ = write!(out, r#"<line x1="{offset}" y1="{MARGIN}" x2="{offset}" y2="{}"/>"#, MARGIN + grid);
    }
    out.push_str("</g>");
    // Coordinates: letters a..s for x below, numbers 1..19 for y on the left.
    for index in 0..Point::SIDE {
        let Some(point) = Point::new(index, index) else { continue };
        let (x, y) = at(point);
        svg::coordinate(&mut out, x, height - 8, 11, char::from(b'a' + index));
        svg::coordinate(&mut out, MARGIN / 2 - 2, y + 4, 11, index + 1);
    }
    for point in options.last_move.map(move_points).unwrap_or_default() {
        let (x, y) = at(point);
        let corner = (x - STEP / 2 + 1, y - STEP / 2 + 1);
        svg::last_move(&mut out, corner, (STEP - 2, STEP - 2), "#7fbf7f", "0.7");
    }
    for point in Point::all() {
        let Some(occupant) = position.piece_at(point) else { continue };
        let (x, y) = at(point);
        match occupant {
            Occupant::Emperor => {
                let _ = write!(
                    out,
                    concat!(
                        r#"<g class="emperor" data-point="{point}">"#,
                        r#"<rect x="{left}" y="{top}" width="{side}" height="{side}" "#,
                        r##"fill="#f4d03f" stroke="#7a5c00" stroke-width="2"/>"##,
                        r#"<text x="{x}" y="{text_y}" text-anchor="middle" font-size="16" "#,
                        r##"fill="#7a5c00">周</text>"##,
                        "</g>"
                    ),
                    point = point,
                    left = x - RADIUS,
                    top = y - RADIUS,
                    side = 2 * RADIUS,
                    x = x,
                    text_y = y + 6,
                );
            }
            Occupant::Piece(piece) => {
                let (fill, ink) = kingdom_colours(piece.kingdom);
                let label = match options.style {
                    PieceStyle::Traditional => piece.kind.chinese(),
                    PieceStyle::Western => western_label(piece.kind),
                };
                let font = if label.chars().count() > 1 { 10 } else { 15 };
                let _ = write!(
                    out,
                    concat!(
                        r#"<g class="piece kingdom-{kingdom}" data-point="{point}">"#,
                        r#"<circle cx="{x}" cy="{y}" r="{radius}" fill="{fill}" "#,
                        r##"stroke="#333" stroke-width="1"/>"##,
                        r#"<text x="{x}" y="{text_y}" text-anchor="middle" font-size="{font}" "#,
                        r#"fill="{ink}">{label}</text></g>"#
                    ),
                    kingdom = piece.kingdom.name().to_ascii_lowercase(),
                    point = point,
                    x = x,
                    y = y,
                    radius = RADIUS,
                    fill = fill,
                    text_y = y + font / 3 + 1,
                    font = font,
                    ink = ink,
                    label = label,
                );
            }
        }
    }
    // The legend: the kingdom to move, then each kingdom's captures and status.
    let left = MARGIN + grid + MARGIN;
    let turn = position.turn();
    let _ = write!(
        out,
        concat!(
            r#"<g class="legend">"#,
            r##"<text class="turn" x="{left}" y="{y}" font-size="14" fill="#1a1a1a">"##,
            "To move: {name} {char}</text>"
        ),
        left = left,
        y = MARGIN + 4,
        name = turn.name(),
        char = turn.char()
    );
    for (row, kingdom) in Kingdom::ALL.into_iter().enumerate() {
        let top = MARGIN + 26 + row as i32 * 62;
        let record = position.record(kingdom);
        let (fill, _) = kingdom_colours(kingdom);
        let defeated = position.is_defeated(kingdom);
        let class = if defeated { "kingdom defeated" } else { "kingdom" };
        let opacity = if defeated { r#" opacity="0.5""# } else { "" };
        let marker = if kingdom == turn { "▶ " } else { "" };
        let _ = write!(
            out,
            concat!(
                r#"<g class="{class}" data-kingdom="{name}"{opacity}>"#,
                r##"<circle cx="{disc_x}" cy="{disc_y}" r="8" fill="{fill}" stroke="#333"/>"##,
                r##"<text x="{text_x}" y="{name_y}" font-size="13" font-weight="bold" fill="#1a1a1a">"##,
                "{marker}{name} {char}</text>",
                r##"<text x="{text_x}" y="{tally_y}" font-size="11" fill="#1a1a1a">"##,
                "captured {pieces}, generals {generals}, value {value}</text>",
                r##"<text x="{text_x}" y="{lost_y}" font-size="11" fill="#1a1a1a">lost {lost}</text>"##
            ),
            class = class,
            name = kingdom.name(),
            opacity = opacity,
            disc_x = left + 8,
            disc_y = top + 8,
            fill = fill,
            text_x = left + 22,
            name_y = top + 13,
            marker = marker,
            char = kingdom.char(),
            tally_y = top + 27,
            pieces = record.captured_pieces,
            generals = record.captured_generals,
            value = record.captured_value,
            lost_y = top + 41,
            lost = record.lost,
        );
        if let Some(defeat) = record.defeat {
            let _ = write!(
                out,
                r##"<text class="status" x="{}" y="{}" font-size="11" fill="#8b0000">{}</text>"##,
                left + 22,
                top + 55,
                defeat_text(defeat)
            );
        }
        out.push_str("</g>");
    }
    out.push_str("</g></svg>");
    out
}

#[cfg(test)]
mod tests {
    use tavoliere_rules::notation::seven_kingdoms::position_text;

    use super::*;

    #[test]
    fn move_points_of_canonical_moves() {
        let a13 = Point::new(0, 12).unwrap();
        let e16 = Point::new(4, 15).unwrap();
        assert_eq!(move_points("Qin 騎 a13-e16"), vec![a13, e16]);
        assert_eq!(move_points("Qin 騎 a13xe16"), vec![a13, e16]);
        assert_eq!(move_points("a13-e16"), vec![a13, e16]);
        assert!(move_points("").is_empty());
        assert!(move_points("Qin 騎 z1-a1").len() < 2);
    }

    #[test]
    fn flipping_turns_the_grid_around() {
        let start = position_text::parse(&position_text::start_text()).unwrap();
        let plain = render(&start, BoardOptions::default());
        let flipped = render(&start, BoardOptions { flipped: true, ..Default::default() });
        // The emperor stays in the centre; the rest turns around.
        assert!(plain.contains(r#"data-point="j10"><rect x="274" y="274""#), "{plain}");
        assert!(flipped.contains(r#"data-point="j10"><rect x="274" y="274""#));
        assert_ne!(plain, flipped);
    }
}
