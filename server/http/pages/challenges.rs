//! Challenges: the new-challenge form (variant, ruleset, handicap, opponent or open,
//! colour, time control), the open challenges to accept, accept/decline/cancel.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;

use tavoliere_rules::variant::Variant;

use super::auth::CsrfOnly;
use super::forms::{handicap_options, ruleset_options, TimeControlFields};
use super::{render, render_with, Chrome, Ctx, PageError, PageForm, PagePath, PageResult};
use crate::domain::accounts;
use crate::domain::challenges::{self, NewChallenge, SeatChoice};
use crate::domain::{Domain, DomainError, ErrorKind};

/// What the new-challenge form sends (all text, so that it can be shown back as typed).
#[derive(Debug, Default, Deserialize)]
pub struct ChallengeForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    variant: String,
    #[serde(default)]
    ruleset: String,
    #[serde(default)]
    handicap: String,
    #[serde(default)]
    opponent: String,
    /// Number of seats (Seven Kingdoms: 3 to 7).
    #[serde(default)]
    seats: String,
    #[serde(default)]
    color: String,
    /// The time control.
    #[serde(flatten)]
    tc: TimeControlFields,
    /// The "rated" checkbox: `on` when ticked (a browser sends nothing otherwise).
    #[serde(default)]
    rated: String,
}

/// Errors of the form, by field.
#[derive(Debug, Default)]
pub struct ChallengeErrors {
    form: Option<String>,
    variant: Option<String>,
    opponent: Option<String>,
    time_control: Option<String>,
}

/// The new-challenge page.
#[derive(askama::Template)]
#[template(path = "challenge_new.html")]
pub struct NewChallengePage {
    chrome: Chrome,
    form: ChallengeForm,
    errors: ChallengeErrors,
}

/// A group of options of a select box: its label (a variant) and the options' values
/// and words.
type OptionGroup = (String, Vec<(String, String)>);

impl NewChallengePage {
    /// The rules crate's rulesets by variant, each with its one-line description
    /// (issue 18 §4: chosen from a list, not typed).
    fn rulesets(&self) -> Vec<OptionGroup> {
        let t = self.chrome.t;
        Variant::ALL
            .iter()
            .map(|variant| {
                (t.get(&format!("variant.{}", variant.name())).to_owned(), ruleset_options(t, *variant))
            })
            .collect()
    }

    /// The rules crate's handicaps by variant, each with its one-line description.
    fn handicaps(&self) -> Vec<OptionGroup> {
        let t = self.chrome.t;
        Variant::ALL
            .iter()
            .filter_map(|variant| {
                let options = handicap_options(t, *variant);
                (!options.is_empty())
                    .then(|| (t.get(&format!("variant.{}", variant.name())).to_owned(), options))
            })
            .collect()
    }
}

/// One open challenge.
pub struct OpenLine {
    id: i64,
    challenger: String,
    opponent: String,
    variant: String,
    ruleset: String,
    color: String,
    mine: bool,
    addressed_to_me: bool,
    /// A seat of this game of more seats is already mine.
    joined: bool,
}

/// The open challenges page.
#[derive(askama::Template)]
#[template(path = "challenges.html")]
pub struct ChallengesPage {
    chrome: Chrome,
    open: Vec<OpenLine>,
    /// Some of the open challenges are mine: the page follows them (`static/challenges.js`)
    /// and opens the game once one is accepted.
    waiting: bool,
}

/// `GET /challenges/new`.
pub async fn new_form(ctx: Ctx) -> PageResult {
    ctx.require_user()?;
    let form = ChallengeForm {
        variant: "xiangqi".into(),
        color: "random".into(),
        tc: TimeControlFields::suggested(),
        ..ChallengeForm::default()
    };
    render(&NewChallengePage {
        chrome: ctx.chrome("challenge.new_title"),
        form,
        errors: ChallengeErrors::default(),
    })
}

fn non_empty(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// The variants offered by the form, by name: every variant of the rules facade.
pub const VARIANTS: [&str; Variant::ALL.len()] = {
    let mut names = [""; Variant::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Variant::ALL[i].name();
        i += 1;
    }
    names
};

/// Reads the form; errors by field.
fn read(ctx: &Ctx, form: &ChallengeForm) -> Result<NewChallenge, ChallengeErrors> {
    let mut errors = ChallengeErrors::default();
    if !VARIANTS.contains(&form.variant.as_str()) {
        errors.variant = Some(ctx.t.get("challenge.error.variant").to_owned());
    }
    let color = match form.color.as_str() {
        "first" => SeatChoice::First,
        "second" => SeatChoice::Second,
        _ => SeatChoice::Random,
    };
    let time_control = form.tc.read();
    if time_control.is_none() {
        errors.time_control = Some(ctx.t.get("challenge.error.time_control").to_owned());
    }
    match (time_control, errors.variant.is_none()) {
        (Some(time_control), true) => Ok(NewChallenge {
            variant: form.variant.clone(),
            ruleset: non_empty(&form.ruleset),
            handicap: non_empty(&form.handicap),
            start_position: None,
            opponent: non_empty(&form.opponent),
            seats: super::forms::number(&form.seats).and_then(|n| i32::try_from(n).ok()),
            color,
            time_control,
            vacation_allowed: true,
            rated: !form.rated.is_empty(),
        }),
        _ => Err(errors),
    }
}

/// `POST /challenges`: creates a challenge through the same domain function as the API.
pub async fn create(
    State(domain): State<Domain>,
    ctx: Ctx,
    PageForm(form): PageForm<ChallengeForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    let new = match read(&ctx, &form) {
        Ok(new) => new,
        Err(errors) => {
            let page = NewChallengePage { chrome: ctx.chrome("challenge.new_title"), form, errors };
            return render_with(StatusCode::UNPROCESSABLE_ENTITY, &page);
        }
    };
    let mut errors = ChallengeErrors::default();
    if let Some(opponent) = &new.opponent {
        match accounts::account_id_by_username(&domain.pool, opponent).await {
            Ok(_) => {}
            Err(DomainError::NotFound(_)) => {
                errors.opponent = Some(ctx.t.get("challenge.error.opponent").to_owned());
                let page = NewChallengePage { chrome: ctx.chrome("challenge.new_title"), form, errors };
                return render_with(StatusCode::UNPROCESSABLE_ENTITY, &page);
            }
            Err(other) => return Err(PageError::Internal(other.to_string())),
        }
    }
    let status = match challenges::create(&domain, me.id, new).await {
        Ok(_) => return Ok(Redirect::to("/challenges").into_response()),
        Err(DomainError::NotFound(_)) => {
            errors.opponent = Some(ctx.t.get("challenge.error.opponent").to_owned());
            StatusCode::UNPROCESSABLE_ENTITY
        }
        Err(error)
            if matches!(error.kind(), ErrorKind::Invalid | ErrorKind::Forbidden | ErrorKind::Conflict) =>
        {
            errors.form = Some(super::refusal_text(ctx.t, &error));
            StatusCode::UNPROCESSABLE_ENTITY
        }
        Err(other) => return Err(PageError::Internal(other.to_string())),
    };
    render_with(status, &NewChallengePage { chrome: ctx.chrome("challenge.new_title"), form, errors })
}

/// `GET /challenges`: open challenges I may accept or have made.
pub async fn list(State(domain): State<Domain>, ctx: Ctx) -> PageResult {
    let me = ctx.require_user()?.clone();
    let open = challenges::list_open(&domain, me.id).await.map_err(|e| PageError::Internal(e.to_string()))?;
    let open = open
        .into_iter()
        .map(|c| OpenLine {
            id: c.id,
            mine: c.challenger == me.username,
            addressed_to_me: c.opponent.as_deref() == Some(me.username.as_str()),
            joined: c.entrants.iter().skip(1).any(|name| *name == me.username),
            opponent: if c.seat_count > 2 {
                // Who has taken a seat so far, e.g. "3/7: qin, chu, han".
                ctx.t.format(
                    "challenge.seats_taken",
                    &[
                        ("taken", &c.entrants.len().to_string()),
                        ("seats", &c.seat_count.to_string()),
                        ("players", &c.entrants.join(", ")),
                    ],
                )
            } else {
                c.opponent.unwrap_or_else(|| ctx.t.get("challenge.anyone").to_owned())
            },
            challenger: c.challenger,
            variant: ctx.t.get(&format!("variant.{}", c.variant)).to_owned(),
            ruleset: c.ruleset,
            color: ctx.t.get(&format!("challenge.color.{}", c.color)).to_owned(),
        })
        .collect::<Vec<OpenLine>>();
    let waiting = open.iter().any(|c| c.mine || c.joined);
    render(&ChallengesPage { chrome: ctx.chrome("challenge.list_title"), open, waiting })
}

/// `POST /challenges/{id}/accept`: starts the game and opens it.
pub async fn accept(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<CsrfOnly>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    match challenges::accept(&domain, id, me.id).await {
        Ok(challenges::Accepted::Game { game_id, .. }) => {
            Ok(Redirect::to(&format!("/games/{game_id}")).into_response())
        }
        // A seat of a game of more seats: back to the list, which shows who has joined.
        Ok(challenges::Accepted::Seated { .. }) => Ok(Redirect::to("/challenges").into_response()),
        Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(DomainError::Internal(e)) => Err(PageError::Internal(e.to_string())),
        Err(_) => Ok(Redirect::to("/challenges").into_response()),
    }
}

/// What a player does to an open challenge besides accepting it.
enum Withdrawal {
    Decline,
    Cancel,
    /// Give up a seat taken in a challenge of more seats.
    Leave,
}

async fn close(domain: &Domain, ctx: &Ctx, id: i64, how: Withdrawal) -> PageResult {
    let me = ctx.require_user()?;
    let done = match how {
        Withdrawal::Decline => challenges::decline(domain, id, me.id).await,
        Withdrawal::Cancel => challenges::cancel(domain, id, me.id).await,
        Withdrawal::Leave => challenges::leave(domain, id, me.id).await,
    };
    match done {
        Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(DomainError::Internal(e)) => Err(PageError::Internal(e.to_string())),
        _ => Ok(Redirect::to("/challenges").into_response()),
    }
}

/// `POST /challenges/{id}/cancel`.
pub async fn cancel(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<CsrfOnly>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    close(&domain, &ctx, id, Withdrawal::Cancel).await
}

/// `POST /challenges/{id}/leave`: gives up a seat taken in a challenge of more seats.
pub async fn leave(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<CsrfOnly>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    close(&domain, &ctx, id, Withdrawal::Leave).await
}

/// `POST /challenges/{id}/decline`.
pub async fn decline(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<CsrfOnly>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    close(&domain, &ctx, id, Withdrawal::Decline).await
}
