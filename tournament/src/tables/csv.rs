//! CSV (RFC 4180: comma-separated, CRLF line ends, fields quoted when needed) of the tables,
//! with the headings of a language. Points are written as plain decimals (`2.5`).
//!
//! Names and titles are user text: a field of user text starting with `=`, `+`, `-` or `@`
//! is prefixed with `'` so that spreadsheets do not run it as a formula.

use crate::tables::{rating_text, Crosstable, GrandPrixTable, Language};

/// One CSV field, quoted when it holds a comma, a quote, a line break or edge spaces.
fn field(text: &str) -> String {
    let needs_quotes = text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ');
    if needs_quotes {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// A field of user text, defused against spreadsheet formulas.
fn user_field(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@']) {
        field(&format!("'{text}"))
    } else {
        field(text)
    }
}

fn push_line(out: &mut String, fields: Vec<String>) {
    out.push_str(&fields.join(","));
    out.push_str("\r\n");
}

/// The crosstable as CSV: place, number, player, the rating when anyone has one, one column per opponent (the marks of the
/// games, space-separated, in round order), the rounds of the player's byes when anyone
/// had a bye, points, games, then the tie-breaks.
pub fn crosstable_csv(table: &Crosstable, language: Language) -> String {
    let labels = language.labels();
    let mut out = String::new();
    let mut header = vec![field(labels.place), field(labels.number), field(labels.player)];
    let ratings = table.has_ratings();
    if ratings {
        header.push(field(labels.rating));
    }
    header.extend(table.rows.iter().map(|row| row.number.to_string()));
    let byes = table.has_byes();
    if byes {
        header.push(field(labels.bye));
    }
    header.push(field(labels.points));
    header.push(field(labels.games));
    header.extend(table.tie_breaks.iter().map(|&t| field(labels.tie_break(t).0)));
    push_line(&mut out, header);
    for row in &table.rows {
        let mut fields = vec![row.place.to_string(), row.number.to_string(), user_field(&row.player.name)];
        if ratings {
            fields.push(rating_text(&row.player));
        }
        fields.extend(row.cells.iter().map(|cell| {
            let marks: Vec<&str> = cell.games.iter().map(|g| labels.mark(g.mark)).collect();
            field(&marks.join(" "))
        }));
        if byes {
            let rounds: Vec<String> = row.byes.iter().map(ToString::to_string).collect();
            fields.push(rounds.join(" "));
        }
        fields.push(row.points.to_string());
        fields.push(row.games_counted.to_string());
        fields.extend(row.tie_breaks.iter().map(|v| v.map(|v| v.to_string()).unwrap_or_default()));
        push_line(&mut out, fields);
    }
    out
}

/// The Grand Prix table as CSV: place, player, the rating when anyone has one, one column per section (the section's
/// value, in parentheses when it is not among the best N), the score, then the tie-breaks.
pub fn grand_prix_csv(table: &GrandPrixTable, language: Language) -> String {
    let labels = language.labels();
    let mut out = String::new();
    let mut header = vec![field(labels.place), field(labels.player)];
    let ratings = table.has_ratings();
    if ratings {
        header.push(field(labels.rating));
    }
    header.extend(table.sections.iter().map(|s| user_field(&s.name)));
    header.push(field(labels.grand_prix_score));
    header.extend(table.tie_breaks.iter().map(|&t| field(labels.gp_tie_break(t).0)));
    push_line(&mut out, header);
    for row in &table.rows {
        let mut fields = vec![row.place.to_string(), user_field(&row.player.name)];
        if ratings {
            fields.push(rating_text(&row.player));
        }
        fields.extend(row.sections.iter().map(|score| match score {
            Some(score) if score.counted => score.value.to_string(),
            Some(score) => format!("({})", score.value),
            None => String::new(),
        }));
        fields.push(row.score.to_string());
        fields.extend(row.tie_breaks.iter().map(ToString::to_string));
        push_line(&mut out, fields);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_only_when_needed_and_formulas_are_defused() {
        assert_eq!(field("Rossi"), "Rossi");
        assert_eq!(field("Rossi, Mario"), "\"Rossi, Mario\"");
        assert_eq!(field("il \"Drago\""), "\"il \"\"Drago\"\"\"");
        assert_eq!(field("a\nb"), "\"a\nb\"");
        assert_eq!(user_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(user_field("@home"), "'@home");
    }
}
