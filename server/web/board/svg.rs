//! The SVG pieces every board shares: the opening tag with the geometry the click-to-move
//! script reads (`static/board.js`), the coordinates, the last-move marks.

use std::fmt::{Display, Write as _};

/// Colour of the lines, coordinates and frames.
pub(super) const INK: &str = "#5a3d1e";

/// The size and geometry of a drawing.
pub(super) struct Frame<'a> {
    /// Width in pixels.
    pub width: i32,
    /// Height in pixels.
    pub height: i32,
    /// The game's class after `board` (`xiangqi`, `shogi`, `chess`...).
    pub class: &'a str,
    /// Distance between two points or squares.
    pub cell: i32,
    /// Screen centre of the top-left point or square in the first player's view.
    pub origin: (i32, i32),
    /// Drawn from the second player's side.
    pub flipped: bool,
    /// Background colour.
    pub background: &'a str,
}

/// Opens the document and paints the background.
pub(super) fn open(out: &mut String, frame: &Frame<'_>) {
    let Frame { width, height, class, cell, origin: (x0, y0), flipped, background } = *frame;
    let _ = write!(
        out,
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" class="board {class}" "#,
            r#"viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" "#,
            r#"font-family="serif" data-cell="{cell}" "#,
            r#"data-x0="{x0}" data-y0="{y0}" data-flipped="{flipped}">"#
        ),
        class = class,
        width = width,
        height = height,
        cell = cell,
        x0 = x0,
        y0 = y0,
        flipped = flipped,
    );
    let _ = write!(out, r#"<rect width="{width}" height="{height}" fill="{background}"/>"#);
}

/// A coordinate label centred on `(x, y)` (its baseline).
pub(super) fn coordinate(out: &mut String, x: i32, y: i32, font_size: i32, label: impl Display) {
    let _ = write!(
        out,
        concat!(
            r#"<text class="coord" x="{x}" y="{y}" text-anchor="middle" font-size="{font_size}" "#,
            r#"fill="{ink}">{label}</text>"#
        ),
        x = x,
        y = y,
        font_size = font_size,
        ink = INK,
        label = label,
    );
}

/// The mark of a point or square the last move named: a `width` x `height` rectangle at
/// `(x, y)`.
pub(super) fn last_move(out: &mut String, corner: (i32, i32), size: (i32, i32), fill: &str, opacity: &str) {
    let _ = write!(
        out,
        concat!(
            r#"<rect class="last-move" x="{x}" y="{y}" width="{width}" height="{height}" "#,
            r#"fill="{fill}" fill-opacity="{opacity}"/>"#
        ),
        x = corner.0,
        y = corner.1,
        width = size.0,
        height = size.1,
        fill = fill,
        opacity = opacity,
    );
}

/// The mark of a king in check: a red halo centred on `centre`, drawn under the piece.
pub(super) fn check(out: &mut String, centre: (i32, i32), radius: i32) {
    let _ = write!(
        out,
        r##"<circle class="check" cx="{}" cy="{}" r="{radius}" fill="#e0301e" fill-opacity="0.55"/>"##,
        centre.0, centre.1
    );
}
