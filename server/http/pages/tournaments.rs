//! The tournaments on the site (issue 38 §1, §2): `GET /tournaments`, the events grouped
//! as open for registration, running, in preparation and finished, each group paged with
//! the keyset cursor of `GET /api/tournaments`; `GET /tournaments/{id}`, an event's page
//! inside the site (its sections, entrants with ratings, rounds and pairings, tables,
//! downloads, and the forms of its players and directors); following an event.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;
use tavoliere_tournament::tables::html::{crosstable_html, grand_prix_html};
use tavoliere_tournament::tables::Language;
use tavoliere_tournament::GameResult;

use super::dashboard::Deadline;
use super::game::time_control_summary;
use super::{render, render_with, Chrome, Ctx, PageError, PageForm, PagePath, PageQuery, PageResult};
use crate::domain::accounts::{Account, Role};
use crate::domain::games::GameStatus;
use crate::domain::tournaments::{
    self, PairingSystem, RoundGame, SectionView, TournamentStatus, TournamentView,
};
use crate::domain::{Domain, DomainError, ErrorKind};
use crate::web::i18n::{Lang, Texts};
use crate::web::records::RecordFormat;

/// Tournaments per group on `/tournaments`, and on the page of one group.
const OVERVIEW_SIZE: usize = 10;
const GROUP_PAGE_SIZE: usize = 20;

/// The groups of `/tournaments`, in the page's order.
const GROUPS: [TournamentStatus; 4] = [
    TournamentStatus::Registration,
    TournamentStatus::Running,
    TournamentStatus::Draft,
    TournamentStatus::Finished,
];

/// A date as the pages write it.
pub(crate) fn date_text(at: time::OffsetDateTime) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    at.to_offset(time::UtcOffset::UTC).format(&format).unwrap_or_default()
}

fn internal(error: DomainError) -> PageError {
    PageError::Internal(error.to_string())
}

/// A tournament of the list.
pub struct ListLine {
    id: i64,
    name: String,
    season: String,
    /// Its sections: name, variant, time control and entrants in words.
    sections: Vec<String>,
    dates: String,
}

/// One group of the list.
pub struct Group {
    key: &'static str,
    title: String,
    lines: Vec<ListLine>,
    /// The link to the group's next page.
    more: Option<String>,
}

/// `GET /tournaments`.
#[derive(askama::Template)]
#[template(path = "tournaments.html")]
pub struct ListPage {
    chrome: Chrome,
    groups: Vec<Group>,
    /// One group's page: a link back to every group.
    one_group: bool,
    /// The reader may create tournaments.
    director: bool,
}

/// `?group=` and `?cursor=` of `/tournaments`.
#[derive(Debug, Default, Deserialize)]
pub struct ListQuery {
    #[serde(default)]
    group: Option<String>,
    #[serde(default)]
    cursor: Option<String>,
}

fn list_line(t: Texts, listed: tournaments::ListedTournament) -> ListLine {
    let sections = listed
        .sections
        .iter()
        .map(|s| {
            t.format(
                "tournaments.section_line",
                &[
                    ("name", &s.name),
                    ("variant", t.get(&format!("variant.{}", s.variant))),
                    ("time_control", &time_control_summary(t, s.time_control)),
                    ("entrants", &s.entrants.to_string()),
                ],
            )
        })
        .collect();
    let mut dates = vec![t.format("tournaments.created", &[("date", &date_text(listed.summary.created_at))])];
    if let Some(started) = listed.started {
        dates.push(t.format("tournaments.started", &[("date", &date_text(started))]));
    }
    if let Some(ended) = listed.last_result {
        dates.push(t.format("tournaments.last_result", &[("date", &date_text(ended))]));
    }
    ListLine {
        id: listed.summary.id,
        name: listed.summary.name,
        season: listed.summary.season.unwrap_or_default(),
        sections,
        dates: dates.join(" · "),
    }
}

/// Whether `account` may create tournaments.
fn is_director(account: Option<&Account>) -> bool {
    account.is_some_and(|a| a.role != Role::Player)
}

/// `GET /tournaments`: every group's newest events, or one group a page at a time.
pub async fn list(
    State(domain): State<Domain>,
    ctx: Ctx,
    PageQuery(query): PageQuery<ListQuery>,
) -> PageResult {
    let t = ctx.t;
    let chosen = query.group.as_deref().filter(|g| !g.is_empty());
    let groups: Vec<TournamentStatus> = match chosen {
        None => GROUPS.to_vec(),
        Some(name) => match GROUPS.into_iter().find(|g| g.as_str() == name) {
            Some(group) => vec![group],
            None => return Err(PageError::NotFound(t)),
        },
    };
    let size = if chosen.is_some() { GROUP_PAGE_SIZE } else { OVERVIEW_SIZE };
    let mut shown = Vec::new();
    for group in groups {
        let cursor = if chosen.is_some() { query.cursor.clone() } else { None };
        let page = match tournaments::listed(&domain, group, cursor, size).await {
            Ok(page) => page,
            // A cursor of another page or hand-made: no such page.
            Err(error) if error.kind() == ErrorKind::Invalid => return Err(PageError::NotFound(t)),
            Err(other) => return Err(internal(other)),
        };
        // The overview shows no empty group but the ones players look for first.
        if page.items.is_empty()
            && chosen.is_none()
            && matches!(group, TournamentStatus::Draft | TournamentStatus::Finished)
        {
            continue;
        }
        shown.push(Group {
            key: group.as_str(),
            title: t.get(&format!("tournaments.group.{}", group.as_str())).to_owned(),
            more: page.next.map(|cursor| format!("/tournaments?group={}&cursor={cursor}", group.as_str())),
            lines: page.items.into_iter().map(|listed| list_line(t, listed)).collect(),
        });
    }
    render(&ListPage {
        chrome: ctx.chrome("tournaments.title"),
        groups: shown,
        one_group: chosen.is_some(),
        director: is_director(ctx.user.as_ref()),
    })
}

/// An entrant of a section.
pub struct EntrantLine {
    name: String,
    seed: String,
    rating: String,
    withdrawn: bool,
}

/// A game of a round.
pub struct PairingLine {
    id: i64,
    board: i32,
    first: String,
    second: String,
    /// The result in words, or "in play".
    result: String,
    in_play: bool,
    to_move: String,
    /// The deadline of the side to move, for correspondence games in play.
    deadline: Option<Deadline>,
}

/// A round of a section.
pub struct RoundBlock {
    round: i32,
    title: String,
    games: Vec<PairingLine>,
    byes: String,
}

/// A line of a Swiss section's standings.
pub struct StandingLine {
    place: String,
    name: String,
    rating: String,
    points: String,
    tie_breaks: Vec<String>,
}

/// What the reader may do about their entry in a section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryState {
    /// Nothing to do (registration closed, or a visitor of a closed section).
    None,
    /// A visitor of an open section: log in to join.
    LogIn,
    /// May join.
    Join,
    /// Entered: may withdraw.
    Entered,
    /// Entered, and the section is over.
    EnteredOver,
    /// Has withdrawn.
    Withdrawn,
}

/// One section of the tournament page.
pub struct SectionBlock {
    id: i64,
    name: String,
    variant: String,
    time_control: String,
    pairing: String,
    status: String,
    rules: Vec<String>,
    /// The rating limits in words (empty: none).
    limits: String,
    /// "Entrants (5)".
    entrants_title: String,
    entrants: Vec<EntrantLine>,
    entry: EntryState,
    /// The crosstable (round-robins), an HTML fragment the tournament crate escapes.
    crosstable: String,
    /// The standings (Swiss sections).
    standings: Vec<StandingLine>,
    /// The tie-breaks of the tables: short heading and full name.
    tie_breaks: Vec<(String, String)>,
    rounds: Vec<RoundBlock>,
    downloads: Vec<(String, String)>,
    can_start: bool,
    can_pair: bool,
    can_register: bool,
}

/// `GET /tournaments/{id}`.
#[derive(askama::Template)]
#[template(path = "tournament.html")]
pub struct TournamentPage {
    chrome: Chrome,
    id: i64,
    status: String,
    description: String,
    season: String,
    directors: String,
    dates: String,
    signed_in: bool,
    following: bool,
    /// The reader directs this tournament.
    director: bool,
    /// It is in preparation: its directors may open the registration.
    draft: bool,
    /// It is being played: its directors may close it.
    running: bool,
    /// It is over: no more sections.
    finished: bool,
    /// A refusal of a form of the page, in the reader's language.
    error: Option<String>,
    sections: Vec<SectionBlock>,
    /// The Grand Prix table (an HTML fragment) and its tie-breaks.
    grand_prix: String,
    grand_prix_tie_breaks: Vec<(String, String)>,
    grand_prix_csv: String,
    /// The directors' latest announcements, newest first.
    announcements: Vec<AnnouncementLine>,
    /// The director's announcement as typed, when it was refused.
    announcement: String,
}

/// How many announcements the tournament's page shows.
const ANNOUNCEMENTS_SHOWN: i64 = 10;

/// A director's announcement on the page.
pub struct AnnouncementLine {
    author: String,
    body: String,
    when: Option<Deadline>,
}

fn table_language(lang: Lang) -> Language {
    match lang {
        Lang::It => Language::It,
        Lang::En => Language::En,
    }
}

/// A game's result as the tournament counts it, in words; "in play" while it goes on.
fn result_words(t: Texts, game: &RoundGame) -> String {
    match (game.result, game.status) {
        (GameResult::Pending, GameStatus::Active) => t.get("tournament.in_play").to_owned(),
        (GameResult::Pending, _) => t.get("tournament.result.undecided").to_owned(),
        (result, _) => {
            let words = t.get(&format!("tournament.result.{}", tournaments::result_name(result))).to_owned();
            match game.reason {
                Some(reason) if result.is_played() => {
                    format!("{words} · {}", t.get(&format!("reason.{reason}")))
                }
                _ => words,
            }
        }
    }
}

fn round_block(t: Texts, live: bool, round: tournaments::RoundView) -> RoundBlock {
    RoundBlock {
        round: round.round,
        title: t.format("rounds.round", &[("round", &round.round.to_string())]),
        byes: if round.byes.is_empty() {
            String::new()
        } else {
            t.format("rounds.byes", &[("names", &round.byes.join(", "))])
        },
        games: round
            .games
            .iter()
            .map(|g| PairingLine {
                id: g.game_id,
                board: g.board,
                first: g.first.clone(),
                second: g.second.clone(),
                result: result_words(t, g),
                in_play: g.status == GameStatus::Active,
                to_move: g.to_move.clone().unwrap_or_default(),
                deadline: if live { None } else { Deadline::of(g.deadline) },
            })
            .collect(),
    }
}

/// The downloads of a section: its crosstable (CSV, printable), TRF and every game in
/// each record format that holds several games.
fn downloads(t: Texts, section: &SectionView) -> Vec<(String, String)> {
    let lang = t.lang().code();
    let id = section.id;
    let mut links = vec![
        (
            format!("/api/sections/{id}/crosstable.csv?lang={lang}"),
            t.get("tournament.download.csv").to_owned(),
        ),
        (
            format!("/api/sections/{id}/crosstable.html?lang={lang}"),
            t.get("tournament.download.print").to_owned(),
        ),
        (format!("/api/sections/{id}/trf"), t.get("tournament.download.trf").to_owned()),
    ];
    if let Ok(variant) = section.variant.parse::<tavoliere_rules::variant::Variant>() {
        for format in RecordFormat::for_variant(variant)
            .iter()
            .filter(|f| !matches!(f, RecordFormat::Usi | RecordFormat::Aise | RecordFormat::Record))
        {
            links.push((
                format!("/api/sections/{id}/games/{}", format.name()),
                t.format("tournament.download.games", &[("format", format.name())]),
            ));
        }
    }
    links
}

/// The rating limits of a section in words (empty without limits).
pub(crate) fn limits_text(t: Texts, section: &SectionView) -> String {
    match (section.rating_min, section.rating_max) {
        (Some(min), Some(max)) => {
            t.format("tournament.limits.between", &[("min", &min.to_string()), ("max", &max.to_string())])
        }
        (Some(min), None) => t.format("tournament.limits.min", &[("min", &min.to_string())]),
        (None, Some(max)) => t.format("tournament.limits.max", &[("max", &max.to_string())]),
        (None, None) => String::new(),
    }
}

async fn section_block(
    domain: &Domain,
    ctx: &Ctx,
    tournament: &TournamentView,
    director: bool,
    section: &SectionView,
) -> Result<SectionBlock, PageError> {
    let t = ctx.t;
    let me = ctx.user.as_ref().map(|u| u.username.as_str());
    let mine = section.entries.iter().find(|e| Some(e.username.as_str()) == me);
    let open = tournament.status == TournamentStatus::Registration && section.status == "registration";
    let entry = match (ctx.user.is_some(), mine.map(|e| e.status.as_str())) {
        (true, Some("withdrawn")) => EntryState::Withdrawn,
        (true, Some(_)) if section.status == "finished" => EntryState::EnteredOver,
        (true, Some(_)) => EntryState::Entered,
        (true, None) if open => EntryState::Join,
        (false, _) if open => EntryState::LogIn,
        _ => EntryState::None,
    };
    let language = table_language(t.lang());
    let labels = language.labels();
    let started = section.status != "registration";
    let swiss = section.pairing == PairingSystem::Swiss;
    let (crosstable, standings) = if !started {
        (String::new(), Vec::new())
    } else if swiss {
        let view = tournaments::standings(domain, section.id).await.map_err(internal)?;
        let lines = view
            .standings
            .into_iter()
            .map(|line| StandingLine {
                place: line.standing.place.to_string(),
                name: line.username,
                rating: line.rating.map(|r| r.to_string()).unwrap_or_default(),
                points: line.standing.points.to_table_string(),
                tie_breaks: line
                    .standing
                    .tie_breaks
                    .iter()
                    .map(|v| v.map(|v| v.to_table_string()).unwrap_or_default())
                    .collect(),
            })
            .collect();
        (String::new(), lines)
    } else {
        let table = tournaments::crosstable(domain, section.id).await.map_err(internal)?;
        (crosstable_html(&table, language), Vec::new())
    };
    let tie_breaks = section
        .tie_breaks
        .iter()
        .map(|&tb| {
            let (short, long) = labels.tie_break(tb);
            (short.to_owned(), long.to_owned())
        })
        .collect();
    let live = section.time_control.is_live();
    let rounds = if started {
        let view = tournaments::rounds(domain, section.id).await.map_err(internal)?;
        view.rounds.into_iter().map(|r| round_block(t, live, r)).collect()
    } else {
        Vec::new()
    };
    Ok(SectionBlock {
        id: section.id,
        name: section.name.clone(),
        variant: t.get(&format!("variant.{}", section.variant)).to_owned(),
        time_control: time_control_summary(t, section.time_control),
        pairing: pairing_words(t, section),
        status: t.get(&format!("section.status.{}", section.status)).to_owned(),
        rules: super::rounds::rules_of(t, section),
        limits: limits_text(t, section),
        entrants_title: t.format(
            "tournament.entrants",
            &[("count", &section.entries.iter().filter(|e| e.status == "active").count().to_string())],
        ),
        entrants: section
            .entries
            .iter()
            .map(|e| EntrantLine {
                name: e.username.clone(),
                seed: e.seed.map(|s| s.to_string()).unwrap_or_default(),
                rating: e.rating.map(|r| r.to_string()).unwrap_or_default(),
                withdrawn: e.status == "withdrawn",
            })
            .collect(),
        entry,
        crosstable,
        standings,
        tie_breaks,
        rounds,
        downloads: if started { downloads(t, section) } else { Vec::new() },
        can_start: director
            && section.status == "registration"
            && tournament.status != TournamentStatus::Finished,
        can_pair: director && section.status == "running",
        can_register: director && section.status == "registration",
    })
}

/// The pairing system in words (a Swiss section with its rounds).
fn pairing_words(t: Texts, section: &SectionView) -> String {
    let name = match section.pairing {
        PairingSystem::RoundRobin => "round-robin",
        PairingSystem::DoubleRoundRobin => "double-round-robin",
        PairingSystem::Swiss => "swiss",
    };
    let words = t.get(&format!("pairing.{name}")).to_owned();
    match section.swiss_rounds {
        Some(rounds) if section.pairing == PairingSystem::Swiss => {
            format!("{words} · {}", t.format("tournament.swiss_rounds", &[("rounds", &rounds.to_string())]))
        }
        _ => words,
    }
}

/// Whether `account` directs the tournament (its directors, global directors, admins).
pub(crate) async fn directs(domain: &Domain, account: Option<&Account>, tournament_id: i64) -> bool {
    match account {
        Some(account) => tournaments::ensure_directs(&domain.pool, account, tournament_id).await.is_ok(),
        None => false,
    }
}

/// The tournament page, with `error` (a refusal of one of its forms) answered with
/// `status`.
pub(crate) async fn page(
    domain: &Domain,
    ctx: &Ctx,
    id: i64,
    status: StatusCode,
    error: Option<String>,
) -> PageResult {
    page_with_announcement(domain, ctx, id, status, error, "").await
}

/// [`page`] with the director's `announcement` as typed in its form (refused).
pub(crate) async fn page_with_announcement(
    domain: &Domain,
    ctx: &Ctx,
    id: i64,
    status: StatusCode,
    error: Option<String>,
    announcement: &str,
) -> PageResult {
    let t = ctx.t;
    let view = match tournaments::get(domain, id).await {
        Ok(view) => view,
        Err(DomainError::NotFound(_)) => return Err(PageError::NotFound(t)),
        Err(other) => return Err(internal(other)),
    };
    let director = directs(domain, ctx.user.as_ref(), id).await;
    let following = match &ctx.user {
        Some(me) => tournaments::follows(domain, id, me.id).await.map_err(internal)?,
        None => false,
    };
    let mut sections = Vec::with_capacity(view.sections.len());
    for section in &view.sections {
        sections.push(section_block(domain, ctx, &view, director, section).await?);
    }
    let language = table_language(t.lang());
    let (grand_prix, grand_prix_tie_breaks) = match &view.grand_prix {
        Some(config) if view.status != TournamentStatus::Draft => {
            let table = tournaments::grand_prix(domain, id).await.map_err(internal)?;
            let labels = language.labels();
            let names = config
                .tie_breaks
                .iter()
                .map(|&tb| {
                    let (short, long) = labels.gp_tie_break(tb);
                    (short.to_owned(), long.to_owned())
                })
                .collect();
            (grand_prix_html(&table, language), names)
        }
        _ => (String::new(), Vec::new()),
    };
    let listed = tournaments::listed_one(domain, id).await.map_err(internal)?;
    let announcements = tournaments::announcements(domain, id, ANNOUNCEMENTS_SHOWN)
        .await
        .map_err(internal)?
        .into_iter()
        .map(|a| AnnouncementLine { author: a.author, body: a.body, when: Deadline::of(Some(a.created_at)) })
        .collect();
    let dates = listed.map(|l| list_line(t, l).dates).unwrap_or_default();
    let mut chrome = ctx.chrome("tournaments.title");
    chrome.title = view.name.clone();
    render_with(
        status,
        &TournamentPage {
            chrome,
            id,
            status: t.get(&format!("tournament.status.{}", view.status.as_str())).to_owned(),
            description: view.description.clone(),
            season: view.season.clone().unwrap_or_default(),
            directors: view.directors.join(", "),
            dates,
            signed_in: ctx.user.is_some(),
            following,
            director,
            draft: view.status == TournamentStatus::Draft,
            running: view.status == TournamentStatus::Running,
            finished: view.status == TournamentStatus::Finished,
            error,
            sections,
            grand_prix,
            grand_prix_tie_breaks,
            grand_prix_csv: format!("/api/tournaments/{id}/grand-prix.csv?lang={}", t.lang().code()),
            announcements,
            announcement: announcement.to_owned(),
        },
    )
}

/// `GET /tournaments/{id}`.
pub async fn show(State(domain): State<Domain>, ctx: Ctx, PagePath(id): PagePath<i64>) -> PageResult {
    page(&domain, &ctx, id, StatusCode::OK, None).await
}

/// The follow form: `follow` is `on` or `off`.
#[derive(Deserialize)]
pub struct FollowForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    follow: String,
}

/// `POST /tournaments/{id}/follow`: follows the event (`follow=on`) or stops (`off`).
pub async fn follow(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<FollowForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?;
    let done = if form.follow == "off" {
        tournaments::unfollow(&domain, me, id).await
    } else {
        tournaments::follow(&domain, me, id).await
    };
    match done {
        Ok(()) => Ok(Redirect::to(&format!("/tournaments/{id}")).into_response()),
        Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(other) => Err(internal(other)),
    }
}

/// A tournament game's event for its page: the link to the tournament's page (at the
/// section) and "Round 3 of <tournament>, <section>"; `None` for a casual game.
///
/// # Errors
/// The database fails.
pub(crate) async fn event_of_game(
    domain: &Domain,
    t: Texts,
    game_id: i64,
) -> Result<Option<(String, String)>, PageError> {
    let place = tournaments::place_of_game(domain, game_id).await.map_err(internal)?;
    Ok(place.map(|p| {
        (
            format!("/tournaments/{}#section-{}", p.tournament_id, p.section_id),
            t.format(
                "tournament.round_of",
                &[("round", &p.round.to_string()), ("tournament", &p.tournament), ("section", &p.section)],
            ),
        )
    }))
}
