//! Pieces shared by the forms that set up games: the time-control fields (the
//! new-challenge and the new-section forms, `templates/time_control_fields.html`) and the
//! options of the ruleset and handicap selects of one variant, in the reader's language.

use serde::Deserialize;
use tavoliere_rules::game::{Handicap, Ruleset};
use tavoliere_rules::variant::Variant;

use crate::domain::time_control::{Accounting, TimeControl};
use crate::web::i18n::Texts;

/// The time-control fields of a form, as typed (shown back as typed when refused).
#[derive(Debug, Default, Deserialize)]
pub struct TimeControlFields {
    /// `days-per-move`, `moves-in-days`, `fischer`, `live-fischer` or `byoyomi`.
    #[serde(default)]
    pub tc_kind: String,
    #[serde(default)]
    pub days: String,
    #[serde(default)]
    pub moves: String,
    #[serde(default)]
    pub increment_days: String,
    #[serde(default)]
    pub cap_days: String,
    /// Correspondence: `iccf-days` charges whole days as ICCF does (#17 §4).
    #[serde(default)]
    pub iccf_days: String,
    /// Live controls: the base time in minutes (decimals allowed, e.g. `0.5`).
    #[serde(default)]
    pub base_minutes: String,
    #[serde(default)]
    pub increment_seconds: String,
    #[serde(default)]
    pub period_seconds: String,
    #[serde(default)]
    pub periods: String,
}

/// The kinds of time control the forms offer, in their order.
pub const TIME_CONTROL_KINDS: [&str; 5] =
    ["days-per-move", "moves-in-days", "fischer", "live-fischer", "byoyomi"];

impl TimeControlFields {
    /// The fields of an empty form: three days per move, and sensible values for the
    /// other kinds.
    pub fn suggested() -> TimeControlFields {
        TimeControlFields {
            tc_kind: "days-per-move".into(),
            days: "3".into(),
            base_minutes: "5".into(),
            increment_seconds: "5".into(),
            period_seconds: "30".into(),
            periods: "3".into(),
            ..TimeControlFields::default()
        }
    }

    /// The time control the fields describe, validated; `None` when they describe none.
    pub fn read(&self) -> Option<TimeControl> {
        let control = match self.tc_kind.as_str() {
            "days-per-move" | "moves-in-days" | "fischer" => self.correspondence(),
            "live-fischer" => seconds_of_minutes(&self.base_minutes)
                .zip(number(&self.increment_seconds))
                .map(|(base_seconds, increment_seconds)| TimeControl::LiveFischer {
                    base_seconds,
                    increment_seconds,
                }),
            "byoyomi" => match (
                seconds_of_minutes(&self.base_minutes),
                number(&self.period_seconds),
                number(&self.periods),
            ) {
                (Some(base_seconds), Some(period_seconds), Some(periods)) => {
                    Some(TimeControl::Byoyomi { base_seconds, period_seconds, periods })
                }
                _ => None,
            },
            _ => None,
        };
        control.and_then(|tc| tc.validate().ok())
    }

    /// A correspondence control, with the day accounting chosen.
    fn correspondence(&self) -> Option<TimeControl> {
        let accounting =
            if self.iccf_days.is_empty() { Accounting::Milliseconds } else { Accounting::IccfDays };
        let days = number(&self.days)?;
        let time_zone = None;
        Some(match self.tc_kind.as_str() {
            "moves-in-days" => {
                TimeControl::MovesInDays { moves: number(&self.moves)?, days, accounting, time_zone }
            }
            "fischer" => TimeControl::Fischer {
                initial_days: days,
                increment_days: number(&self.increment_days)?,
                cap_days: number(&self.cap_days)?,
                accounting,
                time_zone,
            },
            _ => TimeControl::DaysPerMove { days, accounting, time_zone },
        })
    }
}

/// A whole number as typed.
pub fn number(text: &str) -> Option<u32> {
    text.trim().parse().ok()
}

/// Minutes as typed (`5`, `0.5`, `1,5`) in whole seconds.
fn seconds_of_minutes(text: &str) -> Option<u32> {
    let minutes: f64 = text.trim().replace(',', ".").parse().ok()?;
    let seconds = (minutes * 60.0).round();
    (minutes.is_finite() && (0.0..=f64::from(u32::MAX)).contains(&seconds)).then_some(seconds as u32)
}

/// The rules crate's rulesets of `variant`, each with its one-line description (issue 18
/// §4: chosen from a list, not typed): (value, words).
pub fn ruleset_options(t: Texts, variant: Variant) -> Vec<(String, String)> {
    Ruleset::ALL
        .iter()
        .filter(|r| variant.accepts(**r))
        .map(|r| (r.name().to_owned(), format!("{} — {}", r.name(), t.get(&format!("ruleset.{}", r.name())))))
        .collect()
}

/// The rules crate's handicaps of `variant`, each with its one-line description: (value,
/// words); none for a variant without handicaps.
pub fn handicap_options(t: Texts, variant: Variant) -> Vec<(String, String)> {
    Handicap::catalogue(variant.name())
        .iter()
        .map(|h| (h.name(), handicap_words(t, variant.name(), &h.name())))
        .collect()
}

/// A handicap's words: its description from the catalogue (`handicap.<variant>.<name>`;
/// Xiangqi's `moves-N` share one with the number).
pub fn handicap_words(t: Texts, variant: &str, name: &str) -> String {
    match name.strip_prefix("moves-") {
        Some(n) => t.format("handicap.xiangqi.moves", &[("moves", n)]),
        None => t.get(&format!("handicap.{variant}.{name}")).to_owned(),
    }
}
