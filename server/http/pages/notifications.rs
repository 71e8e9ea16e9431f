//! The in-app notifications (#17 §2), the mail settings page (the address, each kind's
//! delivery, the digest's hour and time zone) and the admin's outbox page.

use std::collections::HashMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;

use super::{render, render_with, Chrome, Ctx, PageError, PageForm, PageResult};
use crate::domain::notifications::{self, Delivery, KindDelivery, MailSettingsChange, Notification};
use crate::domain::{email, DomainError};
use crate::http::AppState;
use crate::storage::outbox::{self, OutboxRow};

/// A line of the notifications page.
pub struct Item {
    id: i64,
    text: String,
    url: Option<String>,
    when: String,
    unread: bool,
}

/// `GET /notifications`.
#[derive(askama::Template)]
#[template(path = "notifications.html")]
pub struct NotificationsPage {
    chrome: Chrome,
    items: Vec<Item>,
}

fn item(ctx: &Ctx, n: Notification) -> Item {
    let detail = |name: &str| match n.details.get(name) {
        Some(serde_json::Value::String(text)) => Some(text.clone()),
        Some(serde_json::Value::Number(number)) => Some(number.to_string()),
        _ => None,
    };
    let mut about = Vec::new();
    // A tournament's notice names its event (and round).
    if let Some(tournament) = detail("tournament") {
        about.push(match detail("round") {
            Some(round) => {
                ctx.t.format("notifications.round", &[("tournament", &tournament), ("round", &round)])
            }
            None => ctx.t.format("notifications.tournament", &[("tournament", &tournament)]),
        });
    }
    if let Some(game) = n.game_id {
        about.push(ctx.t.get("notifications.game").replace("{game}", &game.to_string()));
    }
    let kind = ctx.t.get(&format!("mail.kind.{}", n.kind)).to_owned();
    let text = if about.is_empty() { kind } else { format!("{kind}: {}", about.join(" · ")) };
    let url = match (n.game_id, n.challenge_id, n.tournament_id) {
        (Some(game), _, _) => Some(format!("/games/{game}")),
        (None, Some(_), _) => Some("/challenges".to_owned()),
        (None, None, Some(tournament)) => Some(format!("/tournaments/{tournament}")),
        _ => None,
    };
    let when = n.created_at.format(&time::format_description::well_known::Rfc3339).unwrap_or_default();
    Item { id: n.id, text, url, when, unread: n.read_at.is_none() }
}

fn internal(error: DomainError) -> PageError {
    PageError::Internal(error.to_string())
}

/// `GET /notifications`: the newest 100.
pub async fn list(State(state): State<AppState>, ctx: Ctx) -> PageResult {
    let me = ctx.require_user()?.id;
    let (items, _) = notifications::list(&state.domain, me, None, 100).await.map_err(internal)?;
    let items = items.into_iter().map(|n| item(&ctx, n)).collect();
    render(&NotificationsPage { chrome: ctx.chrome("notifications.title"), items })
}

/// The mark-read form.
#[derive(Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

/// `POST /notifications/read`: marks every notification read.
pub async fn mark_read(
    State(state): State<AppState>,
    ctx: Ctx,
    PageForm(form): PageForm<CsrfForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.id;
    notifications::mark_read(&state.domain, me, None).await.map_err(internal)?;
    Ok(Redirect::to("/notifications").into_response())
}

/// One option of a select.
pub struct Choice {
    value: &'static str,
    label: String,
    selected: bool,
}

/// One kind's select.
pub struct KindRow {
    kind: &'static str,
    label: String,
    choices: Vec<Choice>,
}

/// Which fields were refused.
#[derive(Default)]
pub struct Errors {
    email: Option<String>,
    hour: Option<String>,
    time_zone: Option<String>,
}

/// `GET /settings/mail`.
#[derive(askama::Template)]
#[template(path = "mail_settings.html")]
pub struct MailSettingsPage {
    chrome: Chrome,
    email: String,
    address_state: String,
    kinds: Vec<KindRow>,
    digest_hour: String,
    time_zone: String,
    errors: Errors,
    saved: bool,
}

async fn settings_page(state: &AppState, ctx: &Ctx, me: i64) -> Result<MailSettingsPage, PageError> {
    let address = email::address(&state.domain, me).await.map_err(internal)?;
    let settings = notifications::settings(&state.domain, me).await.map_err(internal)?;
    let address_state = match (&address.email, address.email_verified) {
        (None, _) => "mail.address.none",
        (Some(_), true) => "mail.address.verified",
        (Some(_), false) => "mail.address.unverified",
    };
    let kinds = settings
        .deliveries
        .iter()
        .map(|d| KindRow {
            kind: d.kind.as_str(),
            label: ctx.t.get(&format!("mail.kind.{}", d.kind)).to_owned(),
            choices: [Delivery::Immediately, Delivery::Digest, Delivery::Off]
                .into_iter()
                .filter(|choice| d.kind != notifications::Kind::Digest || *choice != Delivery::Digest)
                .map(|choice| Choice {
                    value: choice.as_str(),
                    label: ctx.t.get(&format!("mail.delivery.{}", choice.as_str())).to_owned(),
                    selected: choice == d.delivery,
                })
                .collect(),
        })
        .collect();
    Ok(MailSettingsPage {
        chrome: ctx.chrome("mail.settings.title"),
        email: address.email.unwrap_or_default(),
        address_state: ctx.t.get(address_state).to_owned(),
        kinds,
        digest_hour: settings.digest_hour.to_string(),
        time_zone: settings.time_zone,
        errors: Errors::default(),
        saved: false,
    })
}

/// `GET /settings/mail`.
pub async fn settings_form(State(state): State<AppState>, ctx: Ctx) -> PageResult {
    let me = ctx.require_user()?.id;
    render(&settings_page(&state, &ctx, me).await?)
}

/// `POST /settings/mail`: the address (a new one gets its verification mail), each
/// kind's delivery, the digest's hour and time zone. A refused field changes nothing.
pub async fn settings_save(
    State(state): State<AppState>,
    ctx: Ctx,
    PageForm(form): PageForm<HashMap<String, String>>,
) -> PageResult {
    ctx.check_csrf(form.get("csrf").map_or("", String::as_str))?;
    let me = ctx.require_user()?.id;
    let mut errors = Errors::default();
    let address = form.get("email").map(|e| e.trim().to_owned()).unwrap_or_default();
    if !address.is_empty() && email::parse_address(&address).is_err() {
        errors.email = Some(ctx.t.get("mail.error.address").to_owned());
    }
    let digest_hour = form.get("digest_hour").map(|h| h.trim().parse::<i16>());
    if matches!(digest_hour, Some(Err(_))) || matches!(digest_hour, Some(Ok(h)) if !(0..=23).contains(&h)) {
        errors.hour = Some(ctx.t.get("mail.error.hour").to_owned());
    }
    let mut change = MailSettingsChange {
        digest_hour: digest_hour.and_then(Result::ok),
        time_zone: form.get("time_zone").map(|z| z.trim().to_owned()).filter(|z| !z.is_empty()),
        ..MailSettingsChange::default()
    };
    for kind in notifications::Kind::CHOSEN {
        if let Some(delivery) = form.get(&format!("kind.{kind}")).and_then(|d| d.parse::<Delivery>().ok()) {
            change.deliveries.push(KindDelivery { kind, delivery });
        }
    }
    if errors.email.is_none() && errors.hour.is_none() {
        match notifications::change_settings(&state.domain, me, &change).await {
            Ok(_) => {}
            Err(DomainError::Invalid(_)) => {
                errors.time_zone = Some(ctx.t.get("mail.error.time_zone").to_owned())
            }
            Err(other) => return Err(internal(other)),
        }
    }
    if errors.email.is_some() || errors.hour.is_some() || errors.time_zone.is_some() {
        let mut page = settings_page(&state, &ctx, me).await?;
        page.email = address;
        page.errors = errors;
        return render_with(StatusCode::UNPROCESSABLE_ENTITY, &page);
    }
    match email::set_address(&state.domain, state.mail_quota, me, Some(&address)).await {
        Ok(_) => {}
        Err(error @ DomainError::Limited { .. }) => {
            let mut page = settings_page(&state, &ctx, me).await?;
            page.email = address;
            page.errors.email = Some(ctx.t.get("mail.error.too_many").to_owned());
            let mut response = render_with(StatusCode::TOO_MANY_REQUESTS, &page)?;
            let seconds = error.retry_after().unwrap_or(1);
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, seconds.into());
            return Ok(response);
        }
        Err(other) => return Err(internal(other)),
    }
    let mut page = settings_page(&state, &ctx, me).await?;
    page.saved = true;
    render(&page)
}

/// `GET /admin/outbox`.
#[derive(askama::Template)]
#[template(path = "outbox.html")]
pub struct OutboxPage {
    chrome: Chrome,
    has_relay: bool,
    rows: Vec<OutboxRow>,
}

/// `GET /admin/outbox` (admins only): the newest 200 mails with their state; with no
/// relay configured, what each would have said.
pub async fn outbox_page(State(state): State<AppState>, ctx: Ctx) -> PageResult {
    let me = ctx.require_user()?;
    if me.role != crate::domain::accounts::Role::Admin {
        return Err(PageError::NotFound(ctx.t));
    }
    let rows = outbox::recent(&state.domain.pool, 200).await.map_err(internal)?;
    render(&OutboxPage { chrome: ctx.chrome("admin.outbox.title"), has_relay: state.mail.has_relay(), rows })
}
