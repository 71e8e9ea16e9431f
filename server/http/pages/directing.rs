//! The directors' side of the tournament pages (issue 38 §5): `/tournaments/new` creates
//! a tournament with its first section by form, `/tournaments/{id}/sections/new` adds a
//! section, and the tournament page's buttons open the registration, start a section and
//! pair its next round. The selects of a section (variant, ruleset, handicap, pairing,
//! scoring, time control) offer only what fits the chosen variant; without JavaScript the
//! form's "show the options of this variant" button draws them again for the variant
//! chosen, and every field is checked and explained when the form comes back.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;
use tavoliere_rules::variant::Variant;

use super::entries::{refusal_status, section_or_404, to_section};
use super::forms::{handicap_options, number, ruleset_options, TimeControlFields};
use super::tournaments::{directs, page_with_announcement};
use super::{render, render_with, Chrome, Ctx, PageError, PageForm, PagePath, PageResult};
use crate::domain::accounts::Role;
use crate::domain::tournaments::{
    self, NewSection, NewTournament, PairingSystem, ScoringName, ScoringSpec, Seeding, TournamentPatch,
    TournamentStatus,
};
use crate::domain::{rules_adapter, Domain, DomainError};
use crate::web::i18n::Texts;

/// The pairing systems the form offers.
pub const PAIRINGS: [&str; 3] = ["round-robin", "double-round-robin", "swiss"];
/// The named scorings.
pub const SCORINGS: [&str; 2] = ["1-half-0", "3-2-1-0"];
/// The withdrawal rules.
pub const WITHDRAWAL_RULES: [&str; 2] = ["forfeit-unplayed", "annul-if-fewer-than-half-played"];
/// The round-robin start policies.
pub const START_POLICIES: [&str; 2] = ["all-together", "round-by-round"];
/// The draw orders.
pub const SEEDINGS: [&str; 2] = ["registration", "rating"];

/// The variants a section may have: the two-player ones.
fn pairable_variants() -> impl Iterator<Item = Variant> {
    Variant::ALL.into_iter().filter(|v| rules_adapter::pairable(*v).is_ok())
}

/// A section's fields as typed (shown back as typed when refused).
#[derive(Debug, Default, Deserialize)]
pub struct SectionFields {
    #[serde(default)]
    section_name: String,
    #[serde(default)]
    variant: String,
    #[serde(default)]
    ruleset: String,
    #[serde(default)]
    handicap: String,
    #[serde(default)]
    pairing: String,
    #[serde(default)]
    swiss_rounds: String,
    #[serde(default)]
    start_policy: String,
    #[serde(default)]
    scoring: String,
    #[serde(default)]
    withdrawal_rule: String,
    #[serde(default)]
    seeding: String,
    /// A checkbox: `on` when ticked.
    #[serde(default)]
    rated: String,
    /// A checkbox: leave stops the clocks.
    #[serde(default)]
    vacation: String,
    #[serde(default)]
    rating_min: String,
    #[serde(default)]
    rating_max: String,
    #[serde(flatten)]
    tc: TimeControlFields,
}

impl SectionFields {
    /// An empty section: Xiangqi, round-robin, three days per move.
    fn suggested(name: &str) -> SectionFields {
        SectionFields {
            section_name: name.to_owned(),
            variant: "xiangqi".into(),
            pairing: "round-robin".into(),
            start_policy: "all-together".into(),
            scoring: "1-half-0".into(),
            withdrawal_rule: "forfeit-unplayed".into(),
            seeding: "registration".into(),
            vacation: "on".into(),
            tc: TimeControlFields::suggested(),
            ..SectionFields::default()
        }
    }

    /// The chosen variant, when it is one a section may have.
    fn variant(&self) -> Option<Variant> {
        self.variant.parse::<Variant>().ok().filter(|v| rules_adapter::pairable(*v).is_ok())
    }
}

/// The refusals of a form, by field, in the reader's language.
#[derive(Debug, Default)]
pub struct FormErrors {
    form: Option<String>,
    name: Option<String>,
    section_name: Option<String>,
    variant: Option<String>,
    ruleset: Option<String>,
    handicap: Option<String>,
    swiss_rounds: Option<String>,
    rating: Option<String>,
    time_control: Option<String>,
}

impl FormErrors {
    fn any(&self) -> bool {
        self.form.is_some()
            || self.name.is_some()
            || self.section_name.is_some()
            || self.variant.is_some()
            || self.ruleset.is_some()
            || self.handicap.is_some()
            || self.swiss_rounds.is_some()
            || self.rating.is_some()
            || self.time_control.is_some()
    }
}

/// The options of the section's selects for the chosen variant.
pub struct Choices {
    /// The pairable variants: value, words.
    variants: Vec<(&'static str, String)>,
    rulesets: Vec<(String, String)>,
    handicaps: Vec<(String, String)>,
    /// Which variant the rulesets and handicaps are those of, in words.
    of_variant: String,
}

fn choices(t: Texts, fields: &SectionFields) -> Choices {
    let variant = fields.variant().unwrap_or(Variant::Xiangqi);
    Choices {
        variants: pairable_variants()
            .map(|v| (v.name(), t.get(&format!("variant.{}", v.name())).to_owned()))
            .collect(),
        rulesets: ruleset_options(t, variant),
        handicaps: handicap_options(t, variant),
        of_variant: t
            .format("directing.refresh_hint", &[("variant", t.get(&format!("variant.{}", variant.name())))]),
    }
}

/// Reads a section's fields into the domain's new section; every refused field says why.
fn read_section(t: Texts, fields: &SectionFields, errors: &mut FormErrors) -> Option<NewSection> {
    if fields.section_name.trim().is_empty() || fields.section_name.trim().chars().count() > 200 {
        errors.section_name = Some(t.get("directing.error.section_name").to_owned());
    }
    let variant = fields.variant();
    if variant.is_none() {
        errors.variant = Some(t.get("directing.error.variant").to_owned());
    }
    let variant = variant.unwrap_or(Variant::Xiangqi);
    let variant_key = format!("variant.{}", variant.name());
    let of_variant = [("variant", t.get(&variant_key))];
    let ruleset = Some(fields.ruleset.trim()).filter(|r| !r.is_empty());
    if ruleset.is_some_and(|r| !ruleset_options(t, variant).iter().any(|(name, _)| name == r)) {
        errors.ruleset = Some(t.format("directing.error.ruleset", &of_variant));
    }
    let handicap = Some(fields.handicap.trim()).filter(|h| !h.is_empty());
    if handicap.is_some_and(|h| !handicap_options(t, variant).iter().any(|(name, _)| name == h)) {
        errors.handicap = Some(t.format("directing.error.handicap", &of_variant));
    }
    let pairing = match fields.pairing.as_str() {
        "double-round-robin" => PairingSystem::DoubleRoundRobin,
        "swiss" => PairingSystem::Swiss,
        _ => PairingSystem::RoundRobin,
    };
    let swiss_rounds = number(&fields.swiss_rounds);
    if pairing == PairingSystem::Swiss && !swiss_rounds.is_some_and(|r| (1..=50).contains(&r)) {
        errors.swiss_rounds = Some(t.get("directing.error.swiss_rounds").to_owned());
    }
    let limit = |text: &str| -> Result<Option<i32>, ()> {
        match text.trim() {
            "" => Ok(None),
            text => text.parse::<i32>().ok().filter(|r| (1..=5000).contains(r)).map(Some).ok_or(()),
        }
    };
    let (rating_min, rating_max) = match (limit(&fields.rating_min), limit(&fields.rating_max)) {
        (Ok(min), Ok(max)) if min.zip(max).is_none_or(|(min, max)| min <= max) => (min, max),
        _ => {
            errors.rating = Some(t.get("directing.error.rating").to_owned());
            (None, None)
        }
    };
    let time_control = fields.tc.read();
    if time_control.is_none() {
        errors.time_control = Some(t.get("challenge.error.time_control").to_owned());
    }
    if errors.any() {
        return None;
    }
    Some(NewSection {
        name: fields.section_name.trim().to_owned(),
        variant: variant.name().to_owned(),
        ruleset: ruleset.map(str::to_owned),
        time_control: time_control?,
        handicap: handicap.map(str::to_owned),
        vacation_allowed: !fields.vacation.is_empty(),
        vacation_days: None,
        pairing,
        start_policy: if fields.start_policy == "round-by-round" {
            tavoliere_tournament::berger::StartPolicy::RoundByRound
        } else {
            tavoliere_tournament::berger::StartPolicy::AllTogether
        },
        swiss_rounds: if pairing == PairingSystem::Swiss { swiss_rounds } else { None },
        scoring: Some(ScoringSpec::Named(if fields.scoring == "3-2-1-0" {
            ScoringName::ThreeTwoOne
        } else {
            ScoringName::Classic
        })),
        bye_points: None,
        tie_breaks: None,
        withdrawal_rule: if fields.withdrawal_rule == "annul-if-fewer-than-half-played" {
            tavoliere_tournament::withdrawal::WithdrawalRule::AnnulIfFewerThanHalfPlayed
        } else {
            tavoliere_tournament::withdrawal::WithdrawalRule::ForfeitUnplayed
        },
        rated: !fields.rated.is_empty(),
        seeding: if fields.seeding == "rating" { Seeding::Rating } else { Seeding::Registration },
        rating_min,
        rating_max,
        // The form has no select for them yet: the defaults (the current edition, no
        // acceleration); the API sets them.
        dutch_edition: None,
        acceleration: None,
    })
}

/// A refusal of the domain on a form, in the reader's language where the catalogue has
/// its code, else the domain's sentence.
fn form_refusal(t: Texts, error: &DomainError) -> String {
    super::refusal_text(t, error)
}

/// The new-tournament form as typed.
#[derive(Debug, Default, Deserialize)]
pub struct TournamentFields {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    season: String,
    /// Set by the "show the options of this variant" button: draw the form again.
    #[serde(default)]
    refresh: String,
    #[serde(flatten)]
    section: SectionFields,
}

/// `GET /tournaments/new`.
#[derive(askama::Template)]
#[template(path = "tournament_new.html")]
pub struct NewTournamentPage {
    chrome: Chrome,
    form: TournamentFields,
    choices: Choices,
    errors: FormErrors,
}

/// `GET /tournaments/{id}/sections/new`.
#[derive(askama::Template)]
#[template(path = "section_new.html")]
pub struct NewSectionPage {
    chrome: Chrome,
    tournament_id: i64,
    tournament: String,
    form: SectionForm,
    choices: Choices,
    errors: FormErrors,
}

/// The new-section form as typed.
#[derive(Debug, Default, Deserialize)]
pub struct SectionForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    refresh: String,
    #[serde(flatten)]
    section: SectionFields,
}

/// Refuses anyone without the director role (the site's 404 page, as the desk does).
fn require_director(ctx: &Ctx) -> Result<crate::domain::accounts::Account, PageError> {
    let me = ctx.require_user()?;
    if me.role == Role::Player {
        return Err(PageError::NotFound(ctx.t));
    }
    Ok(me.clone())
}

fn new_tournament_page(ctx: &Ctx, form: TournamentFields, errors: FormErrors) -> NewTournamentPage {
    NewTournamentPage {
        chrome: ctx.chrome("directing.new_title"),
        choices: choices(ctx.t, &form.section),
        form,
        errors,
    }
}

/// `GET /tournaments/new` (accounts with the director role).
pub async fn new_form(ctx: Ctx) -> PageResult {
    require_director(&ctx)?;
    let form = TournamentFields {
        section: SectionFields::suggested(ctx.t.get("directing.first_section")),
        ..TournamentFields::default()
    };
    render(&new_tournament_page(&ctx, form, FormErrors::default()))
}

/// `POST /tournaments`: creates the tournament and its first section, or draws the form
/// again (for another variant, or with its refusals).
pub async fn create(
    State(domain): State<Domain>,
    ctx: Ctx,
    PageForm(form): PageForm<TournamentFields>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = require_director(&ctx)?;
    if !form.refresh.is_empty() {
        return render(&new_tournament_page(&ctx, form, FormErrors::default()));
    }
    let t = ctx.t;
    let mut errors = FormErrors::default();
    if form.name.trim().is_empty() || form.name.trim().chars().count() > 200 {
        errors.name = Some(t.get("directing.error.name").to_owned());
    }
    let section = read_section(t, &form.section, &mut errors);
    let (Some(section), false) = (section, errors.any()) else {
        return render_with(StatusCode::UNPROCESSABLE_ENTITY, &new_tournament_page(&ctx, form, errors));
    };
    let new = NewTournament {
        name: form.name.trim().to_owned(),
        description: form.description.trim().to_owned(),
        season: Some(form.season.trim().to_owned()).filter(|s| !s.is_empty()),
        grand_prix: None,
    };
    match tournaments::create_with_section(&domain, &me, new, section).await {
        Ok(view) => Ok(Redirect::to(&format!("/tournaments/{}", view.id)).into_response()),
        Err(DomainError::Internal(e)) => Err(PageError::Internal(e.to_string())),
        Err(error) => {
            errors.form = Some(form_refusal(t, &error));
            render_with(refusal_status(&error), &new_tournament_page(&ctx, form, errors))
        }
    }
}

/// The tournament's name for its directors (others find no such page).
async fn directed_name(domain: &Domain, ctx: &Ctx, id: i64) -> Result<String, PageError> {
    let view = match tournaments::get(domain, id).await {
        Ok(view) => view,
        Err(DomainError::NotFound(_)) => return Err(PageError::NotFound(ctx.t)),
        Err(other) => return Err(PageError::Internal(other.to_string())),
    };
    if !directs(domain, ctx.user.as_ref(), id).await {
        return Err(PageError::NotFound(ctx.t));
    }
    Ok(view.name)
}

fn new_section_page(
    ctx: &Ctx,
    id: i64,
    tournament: String,
    form: SectionForm,
    errors: FormErrors,
) -> NewSectionPage {
    NewSectionPage {
        chrome: ctx.chrome("directing.section_title"),
        tournament_id: id,
        tournament,
        choices: choices(ctx.t, &form.section),
        form,
        errors,
    }
}

/// `GET /tournaments/{id}/sections/new` (its directors).
pub async fn new_section_form(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
) -> PageResult {
    ctx.require_user()?;
    let name = directed_name(&domain, &ctx, id).await?;
    let form = SectionForm { section: SectionFields::suggested(""), ..SectionForm::default() };
    render(&new_section_page(&ctx, id, name, form, FormErrors::default()))
}

/// `POST /tournaments/{id}/sections`: adds the section, or draws the form again.
pub async fn create_section(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<SectionForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    let name = directed_name(&domain, &ctx, id).await?;
    if !form.refresh.is_empty() {
        return render(&new_section_page(&ctx, id, name, form, FormErrors::default()));
    }
    let mut errors = FormErrors::default();
    let Some(section) = read_section(ctx.t, &form.section, &mut errors) else {
        return render_with(
            StatusCode::UNPROCESSABLE_ENTITY,
            &new_section_page(&ctx, id, name, form, errors),
        );
    };
    match tournaments::create_section(&domain, &me, id, section).await {
        Ok(section) => Ok(to_section(&section)),
        Err(DomainError::Internal(e)) => Err(PageError::Internal(e.to_string())),
        Err(error) => {
            errors.form = Some(form_refusal(ctx.t, &error));
            render_with(refusal_status(&error), &new_section_page(&ctx, id, name, form, errors))
        }
    }
}

/// The status form.
#[derive(Deserialize)]
pub struct StatusForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    status: String,
}

/// A director's action refused: the tournament page with the refusal.
async fn refused(domain: &Domain, ctx: &Ctx, tournament_id: i64, error: DomainError) -> PageResult {
    refused_with(domain, ctx, tournament_id, error, "").await
}

/// [`refused`], the director's `announcement` kept as typed.
async fn refused_with(
    domain: &Domain,
    ctx: &Ctx,
    tournament_id: i64,
    error: DomainError,
    announcement: &str,
) -> PageResult {
    match error {
        DomainError::Internal(e) => Err(PageError::Internal(e.to_string())),
        // Not one of its directors: no such action for them.
        DomainError::Forbidden(_) => Err(PageError::NotFound(ctx.t)),
        error => {
            let text = ctx.t.format("directing.refused", &[("why", &super::refusal_text(ctx.t, &error))]);
            page_with_announcement(
                domain,
                ctx,
                tournament_id,
                refusal_status(&error),
                Some(text),
                announcement,
            )
            .await
        }
    }
}

/// `POST /tournaments/{id}/status`: opens the registration (`registration`, which tells
/// the event's followers) or closes the tournament (`finished`).
pub async fn set_status(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<StatusForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    let status = match form.status.as_str() {
        "registration" => TournamentStatus::Registration,
        "finished" => TournamentStatus::Finished,
        _ => return Err(PageError::NotFound(ctx.t)),
    };
    let patch = TournamentPatch { status: Some(status), ..TournamentPatch::default() };
    match tournaments::update(&domain, &me, id, patch).await {
        Ok(_) => Ok(Redirect::to(&format!("/tournaments/{id}")).into_response()),
        Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(error) => refused(&domain, &ctx, id, error).await,
    }
}

/// The CSRF field of a button's form.
#[derive(Deserialize)]
pub struct ButtonForm {
    #[serde(default)]
    csrf: String,
}

/// What a section's buttons do.
#[derive(Clone, Copy)]
enum Pairing {
    /// Draw the pairings and start the games.
    Start,
    /// Pair and start the next round.
    NextRound,
}

async fn pair(domain: &Domain, ctx: &Ctx, id: i64, form: &ButtonForm, what: Pairing) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    let section = section_or_404(domain, ctx, id).await?;
    let done = match what {
        Pairing::Start => tournaments::start(domain, &me, id).await,
        Pairing::NextRound => tournaments::next_round(domain, &me, id).await,
    };
    match done {
        Ok(_) => Ok(to_section(&section)),
        Err(error) => refused(domain, ctx, section.tournament_id, error).await,
    }
}

/// `POST /sections/{id}/start`: draws the pairings and starts the games.
pub async fn start(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<ButtonForm>,
) -> PageResult {
    pair(&domain, &ctx, id, &form, Pairing::Start).await
}

/// `POST /sections/{id}/next-round`: pairs and starts the next round.
pub async fn next_round(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<ButtonForm>,
) -> PageResult {
    pair(&domain, &ctx, id, &form, Pairing::NextRound).await
}

/// The announcement form.
#[derive(Deserialize)]
pub struct AnnounceForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    text: String,
}

/// `POST /tournaments/{id}/announce`: a director's announcement, shown on the page and sent
/// to the event's entrants and followers.
pub async fn announce(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<AnnounceForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    match tournaments::announce(&domain, &me, id, &form.text).await {
        Ok(()) => Ok(Redirect::to(&format!("/tournaments/{id}#announcements")).into_response()),
        Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(error) => refused_with(&domain, &ctx, id, error, &form.text).await,
    }
}
