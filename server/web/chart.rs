//! The rating chart of a profile (issue 18 §1): an SVG line of the ratings after each
//! rated game, drawn on the server so that the page needs no JavaScript. Only numbers go
//! into the markup (presentation attributes, no `style`: the content security policy
//! allows no inline styles).

use std::fmt::Write;

/// Width and height of the chart, in SVG units (it scales to its box).
const WIDTH: f64 = 320.0;
const HEIGHT: f64 = 120.0;
/// Room for the rating labels on the left and a margin elsewhere.
const LEFT: f64 = 40.0;
const MARGIN: f64 = 8.0;

/// The SVG chart of `ratings` (oldest first), `None` when there is nothing to draw.
pub fn rating_chart(ratings: &[i32]) -> Option<String> {
    let (&first, rest) = ratings.split_first()?;
    let low = rest.iter().copied().fold(first, i32::min);
    let high = rest.iter().copied().fold(first, i32::max);
    // Some room above and below, and never a flat zero-height scale.
    let (low, high) = (f64::from(low) - 25.0, f64::from(high) + 25.0);
    let x = |i: usize| {
        if ratings.len() == 1 {
            LEFT + (WIDTH - LEFT - MARGIN) / 2.0
        } else {
            LEFT + (WIDTH - LEFT - MARGIN) * i as f64 / (ratings.len() - 1) as f64
        }
    };
    let y = |r: i32| MARGIN + (HEIGHT - 2.0 * MARGIN) * (high - f64::from(r)) / (high - low);
    let mut svg = format!(
        r##"<svg class="rating-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{first} … {last}">"##,
        last = ratings[ratings.len() - 1]
    );
    let top = (high - 25.0).round();
    let bottom = (low + 25.0).round();
    let _ = write!(
        svg,
        r##"<line x1="{LEFT}" y1="{MARGIN}" x2="{LEFT}" y2="{bottom_y}" stroke="#999" stroke-width="1"/><text x="{tx}" y="{top_y}" font-size="10" text-anchor="end" fill="#555">{top}</text><text x="{tx}" y="{bottom_label_y}" font-size="10" text-anchor="end" fill="#555">{bottom}</text>"##,
        bottom_y = HEIGHT - MARGIN,
        tx = LEFT - 4.0,
        top_y = y(top as i32) + 3.0,
        bottom_label_y = y(bottom as i32) + 3.0,
    );
    let points: Vec<String> =
        ratings.iter().enumerate().map(|(i, &r)| format!("{:.1},{:.1}", x(i), y(r))).collect();
    let _ = write!(
        svg,
        r##"<polyline points="{}" fill="none" stroke="#2a6f97" stroke-width="2"/>"##,
        points.join(" ")
    );
    for (i, &r) in ratings.iter().enumerate() {
        let _ = write!(
            svg,
            r##"<circle cx="{:.1}" cy="{:.1}" r="2.5" fill="#2a6f97"><title>{r}</title></circle>"##,
            x(i),
            y(r)
        );
    }
    svg.push_str("</svg>");
    Some(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_draws_one_point_per_game_within_its_box() {
        assert_eq!(rating_chart(&[]), None);
        let one = rating_chart(&[1500]).unwrap();
        assert_eq!(one.matches("<circle").count(), 1);
        let svg = rating_chart(&[1500, 1662, 1590, 1700]).unwrap();
        assert_eq!(svg.matches("<circle").count(), 4);
        assert!(svg.contains(">1700</text>") && svg.contains(">1500</text>"), "the scale's ends: {svg}");
        let points = svg.split(r#"points=""#).nth(1).unwrap().split('"').next().unwrap();
        for point in points.split(' ') {
            let (x, y) = point.split_once(',').unwrap();
            let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
            assert!((0.0..=WIDTH).contains(&x) && (0.0..=HEIGHT).contains(&y), "{point}");
        }
        assert!(!svg.contains("style"), "no inline styles (content security policy)");
    }
}
