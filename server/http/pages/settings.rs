//! Settings: interface language, piece style, notation (kept in the browser session, so
//! they work before signing in too), and leave days (the account's vacation, through the
//! same domain function as the API).

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use axum::Form;
use serde::Deserialize;

use super::{render, render_with, store_failure, Chrome, Ctx, PageError, PageResult, Prefs, PREFS_KEY};
use crate::domain::{vacation, Domain, DomainError};

/// The settings page.
#[derive(askama::Template)]
#[template(path = "settings.html")]
pub struct SettingsPage {
    chrome: Chrome,
    lang: String,
    piece_style: String,
    notation: String,
    signed_in: bool,
    vacation_days: String,
    vacation_error: Option<String>,
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
    notation: String,
    #[serde(default)]
    vacation_days: String,
}

fn page(ctx: &Ctx, prefs: &Prefs, vacation_days: String, vacation_error: Option<String>) -> SettingsPage {
    SettingsPage {
        chrome: ctx.chrome("settings.title"),
        lang: prefs.lang.clone().unwrap_or_default(),
        piece_style: prefs.piece_style.clone().unwrap_or_else(|| "traditional".into()),
        notation: prefs.notation.clone().unwrap_or_else(|| "display".into()),
        signed_in: ctx.user.is_some(),
        vacation_days,
        vacation_error,
    }
}

/// `GET /settings`.
pub async fn show(ctx: Ctx) -> PageResult {
    render(&page(&ctx, &ctx.prefs, String::new(), None))
}

fn pick(value: &str, allowed: &[&str]) -> Option<String> {
    allowed.contains(&value).then(|| value.to_owned())
}

/// `POST /settings`: stores the preferences; starts leave when days are given.
pub async fn save(State(domain): State<Domain>, ctx: Ctx, Form(form): Form<SettingsForm>) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let prefs = Prefs {
        lang: pick(&form.lang, &["en", "it"]),
        piece_style: pick(&form.piece_style, &["traditional", "western"]),
        notation: pick(&form.notation, &["display", "canonical"]),
    };
    ctx.session.insert(PREFS_KEY, &prefs).await.map_err(store_failure)?;
    let days = form.vacation_days.trim();
    if !days.is_empty() {
        let me = ctx.require_user()?;
        let error = match days.parse::<u32>() {
            Ok(days) => match vacation::start(&domain, me.id, days).await {
                Ok(_) => None,
                Err(DomainError::Internal(e)) => return Err(PageError::Internal(e.to_string())),
                Err(other) => Some(other.to_string()),
            },
            Err(_) => Some(ctx.t.get("settings.error.days").to_owned()),
        };
        if let Some(error) = error {
            return render_with(
                StatusCode::UNPROCESSABLE_ENTITY,
                &page(&ctx, &prefs, form.vacation_days, Some(error)),
            );
        }
    }
    Ok(Redirect::to("/settings").into_response())
}
