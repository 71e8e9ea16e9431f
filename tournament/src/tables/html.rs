//! HTML fragments of the tables (a `<table>` each, printable, styled by the page's CSS),
//! in Italian or English. Every piece of user text is escaped; every crosstable result
//! links to its game at `/games/{id}`.

use std::fmt::Write;

use crate::standings::Place;
use crate::tables::{rating_text, Crosstable, GrandPrixTable, Language};

/// Escapes text for HTML element content and quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn place_class(place: Place) -> &'static str {
    if place.is_shared() {
        "place shared"
    } else {
        "place"
    }
}

/// The crosstable as an HTML `<table class="crosstable">` fragment.
pub fn crosstable_html(table: &Crosstable, language: Language) -> String {
    let labels = language.labels();
    let mut out = String::new();
    // Writing into a String cannot fail: the results of `write!` are ignored below.
    let _ = writeln!(out, "<table class=\"crosstable\" lang=\"{}\">", language.code());
    let _ = writeln!(out, "<caption>{}</caption>", escape(&table.title));
    out.push_str("<thead>\n<tr>");
    let _ = write!(
        out,
        "<th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th>",
        escape(labels.place),
        escape(labels.number),
        escape(labels.player)
    );
    let ratings = table.has_ratings();
    if ratings {
        let _ = write!(out, "<th scope=\"col\" class=\"rating\">{}</th>", escape(labels.rating));
    }
    for row in &table.rows {
        let _ = write!(out, "<th scope=\"col\" class=\"opponent\">{}</th>", row.number);
    }
    let byes = table.has_byes();
    if byes {
        let _ = write!(out, "<th scope=\"col\" class=\"bye\">{}</th>", escape(labels.bye));
    }
    let _ = write!(
        out,
        "<th scope=\"col\">{}</th><th scope=\"col\">{}</th>",
        escape(labels.points),
        escape(labels.games)
    );
    for &tie_break in &table.tie_breaks {
        let (short, long) = labels.tie_break(tie_break);
        let _ =
            write!(out, "<th scope=\"col\"><abbr title=\"{}\">{}</abbr></th>", escape(long), escape(short));
    }
    out.push_str("</tr>\n</thead>\n<tbody>\n");
    for row in &table.rows {
        let _ = write!(
            out,
            "<tr><td class=\"{}\">{}</td><td class=\"number\">{}</td><th scope=\"row\" class=\"player\">{}</th>",
            place_class(row.place),
            row.place,
            row.number,
            escape(&row.player.name)
        );
        if ratings {
            let _ = write!(out, "<td class=\"rating\">{}</td>", rating_text(&row.player));
        }
        for cell in &row.cells {
            if cell.own {
                out.push_str("<td class=\"own\"></td>");
                continue;
            }
            out.push_str("<td class=\"result\">");
            for (i, game) in cell.games.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                let side = if game.row_is_first { "first" } else { "second" };
                let _ = write!(
                    out,
                    "<a class=\"{side}\" href=\"/games/{}\" title=\"{} {}, {} {}\">{}</a>",
                    game.game.0,
                    escape(labels.game),
                    game.game.0,
                    escape(labels.round),
                    game.round,
                    escape(labels.mark(game.mark))
                );
            }
            out.push_str("</td>");
        }
        if byes {
            let rounds: Vec<String> = row.byes.iter().map(ToString::to_string).collect();
            let _ = write!(
                out,
                "<td class=\"bye\" title=\"{}: {}\">{}</td>",
                escape(labels.points),
                table.bye_points.to_table_string(),
                rounds.join(" ")
            );
        }
        let _ = write!(
            out,
            "<td class=\"points\">{}</td><td class=\"games\">{}</td>",
            row.points.to_table_string(),
            row.games_counted
        );
        for value in &row.tie_breaks {
            let text = value.map(|v| v.to_table_string()).unwrap_or_default();
            let _ = write!(out, "<td class=\"tie-break\">{text}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// The Grand Prix table as an HTML `<table class="grand-prix">` fragment.
pub fn grand_prix_html(table: &GrandPrixTable, language: Language) -> String {
    let labels = language.labels();
    let mut out = String::new();
    let _ = writeln!(out, "<table class=\"grand-prix\" lang=\"{}\">", language.code());
    let _ = writeln!(out, "<caption>{}: {}</caption>", escape(labels.grand_prix), escape(&table.title));
    out.push_str("<thead>\n<tr>");
    let _ = write!(
        out,
        "<th scope=\"col\">{}</th><th scope=\"col\">{}</th>",
        escape(labels.place),
        escape(labels.player)
    );
    let ratings = table.has_ratings();
    if ratings {
        let _ = write!(out, "<th scope=\"col\" class=\"rating\">{}</th>", escape(labels.rating));
    }
    for section in &table.sections {
        let _ = write!(out, "<th scope=\"col\" class=\"section\">{}</th>", escape(&section.name));
    }
    let _ = write!(out, "<th scope=\"col\">{}</th>", escape(labels.grand_prix_score));
    for &tie_break in &table.tie_breaks {
        let (short, long) = labels.gp_tie_break(tie_break);
        let _ =
            write!(out, "<th scope=\"col\"><abbr title=\"{}\">{}</abbr></th>", escape(long), escape(short));
    }
    out.push_str("</tr>\n</thead>\n<tbody>\n");
    for row in &table.rows {
        let _ = write!(
            out,
            "<tr><td class=\"{}\">{}</td><th scope=\"row\" class=\"player\">{}</th>",
            place_class(row.place),
            row.place,
            escape(&row.player.name)
        );
        if ratings {
            let _ = write!(out, "<td class=\"rating\">{}</td>", rating_text(&row.player));
        }
        for score in &row.sections {
            match score {
                None => out.push_str("<td class=\"section\"></td>"),
                Some(score) if score.counted => {
                    let _ = write!(
                        out,
                        "<td class=\"section\" title=\"{} {}\">{}</td>",
                        escape(labels.place),
                        score.place,
                        score.value.to_table_string()
                    );
                }
                Some(score) => {
                    let _ = write!(
                        out,
                        "<td class=\"section not-counted\" title=\"{} {}, {}\">({})</td>",
                        escape(labels.place),
                        score.place,
                        escape(labels.not_counted),
                        score.value.to_table_string()
                    );
                }
            }
        }
        let _ = write!(out, "<td class=\"score\">{}</td>", row.score.to_table_string());
        for value in &row.tie_breaks {
            let _ = write!(out, "<td class=\"tie-break\">{}</td>", value.to_table_string());
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escape_covers_the_five_html_special_characters() {
        assert_eq!(
            escape("<b>\"Tom\" & 'Jerry'</b>"),
            "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;"
        );
        assert_eq!(escape("Rossi"), "Rossi");
    }
}
