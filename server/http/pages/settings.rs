//! Settings: interface language, piece style, the move-list notation of each game family
//! (on the account when signed in, so they follow the player to any browser; in the
//! browser session otherwise), and leave days (the account's vacation, through the same
//! domain function as the API).

use std::str::FromStr;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;

use super::{render, render_with, store_failure, Chrome, Ctx, PageError, PageForm, PageResult, PREFS_KEY};
use crate::domain::preferences::{
    self, Language, PieceStyle, Preferences, PreferencesPatch, ShogiNotation, XiangqiNotation,
};
use crate::domain::{vacation, Domain, DomainError};

/// One option of a select.
pub struct Choice {
    value: &'static str,
    label: String,
    selected: bool,
}

/// Which fields of the form were refused.
#[derive(Default)]
pub struct FieldErrors {
    lang: Option<String>,
    piece_style: Option<String>,
    xiangqi_notation: Option<String>,
    shogi_notation: Option<String>,
    vacation_days: Option<String>,
}

impl FieldErrors {
    fn any(&self) -> bool {
        self.lang.is_some()
            || self.piece_style.is_some()
            || self.xiangqi_notation.is_some()
            || self.shogi_notation.is_some()
            || self.vacation_days.is_some()
    }
}

/// The settings page.
#[derive(askama::Template)]
#[template(path = "settings.html")]
pub struct SettingsPage {
    chrome: Chrome,
    languages: Vec<Choice>,
    piece_styles: Vec<Choice>,
    xiangqi_notations: Vec<Choice>,
    shogi_notations: Vec<Choice>,
    signed_in: bool,
    vacation_status: Vec<String>,
    vacation_days: String,
    errors: FieldErrors,
}

/// What the settings form sends.
#[derive(Deserialize)]
pub struct SettingsForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    lang: String,
    #[serde(default)]
    piece_style: String,
    #[serde(default)]
    xiangqi_notation: String,
    #[serde(default)]
    shogi_notation: String,
    #[serde(default)]
    vacation_days: String,
}

fn choices<T: Copy + PartialEq>(
    ctx: &Ctx,
    key: &str,
    all: &[T],
    chosen: T,
    name: impl Fn(T) -> &'static str,
) -> Vec<Choice> {
    all.iter()
        .map(|&value| Choice {
            value: name(value),
            label: ctx.t.get(&format!("{key}.{}", name(value))).to_owned(),
            selected: value == chosen,
        })
        .collect()
}

async fn page(
    domain: &Domain,
    ctx: &Ctx,
    vacation_days: String,
    errors: FieldErrors,
) -> Result<SettingsPage, PageError> {
    let prefs = &ctx.prefs;
    let vacation_status = match &ctx.user {
        Some(me) => {
            let status =
                vacation::status(domain, me.id).await.map_err(|e| PageError::Internal(e.to_string()))?;
            let mut lines = vec![ctx.t.format(
                "settings.vacation.status",
                &[("used", &status.used_days.to_string()), ("allowance", &status.allowance_days.to_string())],
            )];
            if let Some(until) = status.on_leave_until {
                lines.push(ctx.t.format("settings.vacation.until", &[("until", &until.date().to_string())]));
            }
            lines
        }
        None => Vec::new(),
    };
    Ok(SettingsPage {
        chrome: ctx.chrome("settings.title"),
        languages: choices(ctx, "settings.language", Language::ALL, prefs.language, Language::as_str),
        piece_styles: choices(
            ctx,
            "settings.piece_style",
            PieceStyle::ALL,
            prefs.piece_style,
            PieceStyle::as_str,
        ),
        xiangqi_notations: choices(
            ctx,
            "settings.notation.xiangqi",
            XiangqiNotation::ALL,
            prefs.xiangqi_notation,
            XiangqiNotation::as_str,
        ),
        shogi_notations: choices(
            ctx,
            "settings.notation.shogi",
            ShogiNotation::ALL,
            prefs.shogi_notation,
            ShogiNotation::as_str,
        ),
        signed_in: ctx.user.is_some(),
        vacation_status,
        vacation_days,
        errors,
    })
}

/// `GET /settings`.
pub async fn show(State(domain): State<Domain>, ctx: Ctx) -> PageResult {
    render(&page(&domain, &ctx, String::new(), FieldErrors::default()).await?)
}

/// Reads a select's value; an empty (or absent) field is the default.
fn choice<T: FromStr + Default>(text: &str, error: &mut Option<String>, refused: &str) -> T {
    let text = text.trim();
    if text.is_empty() {
        return T::default();
    }
    text.parse().unwrap_or_else(|_| {
        *error = Some(refused.to_owned());
        T::default()
    })
}

/// `POST /settings`: checks every field first (a refused value changes nothing), starts
/// leave when days are given, then stores the preferences on the account when signed in
/// and in the session in any case.
pub async fn save(
    State(domain): State<Domain>,
    ctx: Ctx,
    PageForm(form): PageForm<SettingsForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let refused = ctx.t.get("settings.error.choice");
    let mut errors = FieldErrors::default();
    let chosen = Preferences {
        language: choice(&form.lang, &mut errors.lang, refused),
        piece_style: choice(&form.piece_style, &mut errors.piece_style, refused),
        xiangqi_notation: choice(&form.xiangqi_notation, &mut errors.xiangqi_notation, refused),
        shogi_notation: choice(&form.shogi_notation, &mut errors.shogi_notation, refused),
    };
    let days = form.vacation_days.trim();
    let days = if days.is_empty() {
        None
    } else {
        ctx.require_user()?;
        match days.parse::<u32>() {
            Ok(days) => Some(days),
            Err(_) => {
                errors.vacation_days = Some(ctx.t.get("settings.error.days").to_owned());
                None
            }
        }
    };
    if errors.any() {
        return render_with(
            StatusCode::UNPROCESSABLE_ENTITY,
            &page(&domain, &ctx, form.vacation_days, errors).await?,
        );
    }
    if let (Some(days), Some(me)) = (days, &ctx.user) {
        match vacation::start(&domain, me.id, days).await {
            Ok(_) => {}
            Err(DomainError::Internal(e)) => return Err(PageError::Internal(e.to_string())),
            Err(other) => {
                let errors = FieldErrors { vacation_days: Some(other.to_string()), ..FieldErrors::default() };
                return render_with(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    &page(&domain, &ctx, form.vacation_days, errors).await?,
                );
            }
        }
    }
    if let Some(me) = &ctx.user {
        preferences::update(&domain.pool, me.id, &PreferencesPatch::from(chosen))
            .await
            .map_err(|e| PageError::Internal(e.to_string()))?;
    }
    ctx.session.insert(PREFS_KEY, &chosen).await.map_err(store_failure)?;
    Ok(Redirect::to("/settings").into_response())
}
