//! The evaluation chart of a game's computer analysis (issue 41 §5): the first player's
//! winning chances after every ply as an SVG line, drawn on the server like the rating
//! chart (no JavaScript, no inline style). Every ply's point links to the game page at that
//! ply (`?ply=N`), which shows the board there.

use std::fmt::Write;

/// Width and height of the chart, in SVG units (it scales to its box).
const WIDTH: f64 = 480.0;
const HEIGHT: f64 = 120.0;
const MARGIN: f64 = 6.0;

/// One ply's point: its number, the first player's winning chances in [-1, 1], a label
/// (the move and its score) and its judgement's mark (`""`, `?!`, `?`, `??`).
pub struct EvalPoint<'a> {
    /// The ply.
    pub ply: i32,
    /// The first player's winning chances after it.
    pub chances: f64,
    /// The move and its score, as the point's title.
    pub label: &'a str,
    /// The judgement's mark.
    pub mark: &'a str,
}

/// The SVG chart of `points` (in ply order) for the game `game_id`, `None` when there is
/// nothing to draw.
pub fn eval_chart(game_id: i64, points: &[EvalPoint<'_>]) -> Option<String> {
    if points.is_empty() {
        return None;
    }
    let span = (points.len().max(2) - 1) as f64;
    let x = |i: usize| MARGIN + (WIDTH - 2.0 * MARGIN) * i as f64 / span;
    let y = |chances: f64| MARGIN + (HEIGHT - 2.0 * MARGIN) * (1.0 - chances.clamp(-1.0, 1.0)) / 2.0;
    let mut svg = format!(
        r##"<svg class="eval-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img">"##
    );
    // The first player's advantage above the middle line, the second's below.
    let _ = write!(
        svg,
        r##"<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#f4f1ea"/><line x1="0" y1="{mid}" x2="{WIDTH}" y2="{mid}" stroke="#999" stroke-width="1"/>"##,
        mid = HEIGHT / 2.0
    );
    let mut area = format!("{:.1},{:.1}", x(0), HEIGHT / 2.0);
    for (i, point) in points.iter().enumerate() {
        let _ = write!(area, " {:.1},{:.1}", x(i), y(point.chances));
    }
    let _ = write!(area, " {:.1},{:.1}", x(points.len() - 1), HEIGHT / 2.0);
    let _ = write!(svg, r##"<polygon points="{area}" fill="#c9d8e4" stroke="#2a6f97" stroke-width="1.5"/>"##);
    for (i, point) in points.iter().enumerate() {
        let (fill, radius) = match point.mark {
            "??" => ("#b00020", 3.5),
            "?" => ("#e07000", 3.0),
            "?!" => ("#c9a400", 2.5),
            _ => ("#2a6f97", 2.0),
        };
        let _ = write!(
            svg,
            r##"<a href="/games/{game_id}?ply={ply}" data-ply="{ply}"><circle cx="{cx:.1}" cy="{cy:.1}" r="{radius}" fill="{fill}"><title>{label}</title></circle></a>"##,
            ply = point.ply,
            cx = x(i),
            cy = y(point.chances),
            label = escape(point.label),
        );
    }
    svg.push_str("</svg>");
    Some(svg)
}

/// Text for SVG markup (a move's display text may hold any character).
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ply_is_a_point_linking_to_its_ply() {
        assert_eq!(eval_chart(1, &[]), None);
        let points = [
            EvalPoint { ply: 1, chances: 0.1, label: "1. h2e2 +0.35", mark: "" },
            EvalPoint { ply: 2, chances: 0.7, label: "1... h7h2 <?> +4.60", mark: "??" },
        ];
        let svg = eval_chart(7, &points).unwrap();
        assert!(svg.starts_with(r#"<svg class="eval-chart""#), "{svg}");
        assert!(svg.contains(r#"href="/games/7?ply=1""#) && svg.contains(r#"href="/games/7?ply=2""#));
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.contains("&lt;?&gt;"), "labels are escaped");
        assert!(svg.contains(r##"fill="#b00020""##), "a blunder stands out");
    }
}
