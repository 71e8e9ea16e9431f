//! `GET /sections/{id}/rounds`: a section's rounds for everyone (issue 20 §2), the page of
//! `GET /api/sections/{id}/rounds`, with the links to the section's games as one file.

use axum::extract::State;
use time::format_description::well_known::Rfc3339;

use super::{render, Ctx, PageError, PagePath, PageResult};
use crate::domain::tournaments;
use crate::domain::{Domain, DomainError};
use crate::web::records::RecordFormat;

/// One game line.
pub struct GameLine {
    id: i64,
    board: i32,
    first: String,
    second: String,
    status: String,
    ply: i32,
    to_move: String,
    deadline: String,
    result: String,
    ruling: String,
}

/// One round.
pub struct RoundLine {
    round: i32,
    title: String,
    games: Vec<GameLine>,
    byes: String,
}

/// The rounds page.
#[derive(askama::Template)]
#[template(path = "section_rounds.html")]
pub struct RoundsPage {
    chrome: super::Chrome,
    heading: String,
    section_id: i64,
    /// The section's rules as every game plays them (issue 20 §3).
    rules: Vec<String>,
    formats: Vec<&'static str>,
    rounds: Vec<RoundLine>,
}

/// The section's rules in words: ruleset, handicap, vacation, rating and draw order.
pub(crate) fn rules_of(t: crate::web::i18n::Texts, section: &tournaments::SectionView) -> Vec<String> {
    let mut rules = vec![t.format("rounds.rules", &[("ruleset", &section.ruleset)])];
    if let Some(handicap) = &section.handicap {
        rules.push(t.format("rounds.handicap", &[("handicap", handicap)]));
    }
    rules.push(match (section.vacation_allowed, section.vacation_days) {
        (false, _) => t.get("rounds.vacation_none").to_owned(),
        (true, None) => t.get("rounds.vacation_any").to_owned(),
        (true, Some(days)) => t.format("rounds.vacation_days", &[("days", &days.to_string())]),
    });
    rules.push(t.get(if section.rated { "rounds.rated" } else { "rounds.unrated" }).to_owned());
    if section.seeding == tournaments::Seeding::Rating {
        rules.push(t.get("rounds.seeded_by_rating").to_owned());
    }
    rules
}

/// `GET /sections/{id}/rounds`.
pub async fn show(State(domain): State<Domain>, ctx: Ctx, PagePath(id): PagePath<i64>) -> PageResult {
    let (section, view) =
        match tokio::try_join!(tournaments::section(&domain, id), tournaments::rounds(&domain, id)) {
            Ok(found) => found,
            Err(DomainError::NotFound(_)) => return Err(PageError::NotFound(ctx.t)),
            Err(other) => return Err(PageError::Internal(other.to_string())),
        };
    let t = ctx.t;
    let variant: tavoliere_rules::variant::Variant =
        section.variant.parse().map_err(|_| PageError::Internal(format!("variant {}", section.variant)))?;
    let formats = RecordFormat::for_variant(variant)
        .iter()
        // The formats that hold several games in one file.
        .filter(|f| !matches!(f, RecordFormat::Usi | RecordFormat::Aise | RecordFormat::Record))
        .map(|f| f.name())
        .collect();
    let rounds = view
        .rounds
        .into_iter()
        .map(|r| RoundLine {
            round: r.round,
            title: t.format("rounds.round", &[("round", &r.round.to_string())]),
            byes: if r.byes.is_empty() {
                String::new()
            } else {
                t.format("rounds.byes", &[("names", &r.byes.join(", "))])
            },
            games: r
                .games
                .into_iter()
                .map(|g| GameLine {
                    id: g.game_id,
                    board: g.board,
                    first: g.first,
                    second: g.second,
                    status: g.status.to_string(),
                    ply: g.ply,
                    to_move: g.to_move.unwrap_or_default(),
                    deadline: g.deadline.and_then(|d| d.format(&Rfc3339).ok()).unwrap_or_default(),
                    result: match (g.board_result, g.reason) {
                        (Some(board), Some(reason)) => {
                            format!("{board} · {}", t.get(&format!("reason.{reason}")))
                        }
                        (Some(board), None) => board.to_string(),
                        _ => tournaments::result_name(g.result).to_owned(),
                    },
                    ruling: g
                        .ruling
                        .map(|r| t.get(&format!("reason.{}", r.law)).to_owned())
                        .unwrap_or_default(),
                })
                .collect(),
        })
        .collect();
    let heading = format!("{} — {}", section.name, t.get("rounds.title"));
    let rules = rules_of(t, &section);
    render(&RoundsPage {
        chrome: ctx.chrome("rounds.title"),
        heading,
        section_id: id,
        rules,
        formats,
        rounds,
    })
}
