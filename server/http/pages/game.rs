//! The game page: board, players and clocks, the move list in the chosen notation, the
//! result; the move form (any notation, confirmation when the dry run says the move would
//! end the game), draw offer/accept/decline, resign, claim. Moves go through
//! [`games::submit_move`], the same function as the REST API.

use axum::extract::State;
use axum::http::header::CACHE_CONTROL;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;
use tavoliere_rules::variant::Variant;
use tavoliere_rules::EndReason;

use super::dashboard::{time_left, Deadline};
use super::{refusal_text, render, render_with, Chrome, Ctx, PageError, PageForm, PagePath, PageResult};
use crate::domain::games::{self, GameReason, GameStatus, GameView, SeatOutcome};
use crate::domain::preferences;
use crate::domain::time_control::TimeControl;
use crate::domain::{Domain, DomainError, ErrorKind};
use crate::web::board::{self as svg_board, BoardOptions};
use crate::web::i18n::Texts;
use crate::web::records::RecordFormat;
use crate::web::ruling::RulingRecord;

/// A player as the page shows them.
pub struct PlayerLine {
    seat: i32,
    username: String,
    color: String,
    clock: String,
    /// Clock time left at the start of the turn (live clocks tick from it in the page).
    remaining_ms: i64,
    to_move: bool,
    /// This seat lost on time.
    flagged: bool,
    /// A rated game that ended: the rating before (`?` when provisional), after and the
    /// change, e.g. `1500? → 1662 (+162)`; empty otherwise.
    rating: String,
}

/// One line of the move list: turn number and the moves of both sides.
pub struct MoveLine {
    number: usize,
    first: String,
    second: String,
}

/// A move waiting for the player's confirmation.
pub struct Pending {
    text: String,
    message: String,
}

/// The game page.
#[derive(askama::Template)]
#[template(path = "game.html")]
pub struct GamePage {
    chrome: Chrome,
    id: i64,
    variant: String,
    variant_code: String,
    /// Whether the game is rated.
    rated: bool,
    board: String,
    players: Vec<PlayerLine>,
    moves: Vec<MoveLine>,
    ply: i32,
    active: bool,
    my_turn: bool,
    playing: bool,
    flipped: bool,
    /// The correspondence deadline of the side to move.
    deadline: Option<Deadline>,
    result: Option<String>,
    draw_offered_by_me: bool,
    draw_offered_to_me: bool,
    move_text: String,
    pub(super) move_error: Option<String>,
    pending: Option<Pending>,
    records: Vec<(&'static str, String)>,
    /// A live game in play: the page upgrades itself to live mode (static/live.js).
    live: bool,
    /// `active`, `finished` or `aborted`.
    status: String,
    /// Who is to move, or that the game is over.
    status_line: String,
    /// The live time control in words (empty for correspondence games).
    time_control: String,
    /// Byoyomi: the period in milliseconds and the number of periods (the page's clocks
    /// show the periods left).
    byoyomi: Option<(i64, u32)>,
    /// Examples of moves in this variant's notations.
    move_hint: String,
    /// The claim this game's rules offer the players: the button's words and what it
    /// claims (none where nothing can be claimed, issue 23 §3).
    claim: Option<(String, String)>,
    /// Why a game law ended the game, explained in the reader's language (HTML,
    /// [`crate::web::ruling::paragraph`]).
    ruling: Option<String>,
    /// The waiting player's conditional moves (#17 §3), see [`super::conditional`].
    pub(super) conditional: Option<super::conditional::ConditionalCard>,
    /// The computer analysis section (issue 41), [`super::analysis::section`].
    analysis: Option<String>,
}

pub(super) async fn load(domain: &Domain, ctx: &Ctx, id: i64) -> Result<GameView, PageError> {
    match games::view(domain, id).await {
        Ok(view) => Ok(view),
        Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(other) => Err(PageError::Internal(other.to_string())),
    }
}

fn page(domain: &Domain, ctx: &Ctx, view: &GameView) -> Result<GamePage, PageError> {
    let t = ctx.t;
    let me = ctx.user.as_ref().map(|u| u.username.as_str());
    let my_seat = view.seats.iter().find(|s| Some(s.username.as_str()) == me).map(|s| s.seat);
    // The second player of a two-seat game sees the board from their side; the Seven
    // Kingdoms board has no sides.
    let flipped = view.seat_count == 2 && my_seat == Some(1);
    let variant: Variant =
        view.variant.parse().map_err(|_| PageError::Internal(format!("variant {}", view.variant)))?;
    let last_turn = view.last_turn(view.moves.len());
    let options = BoardOptions { last_move: last_turn.as_deref(), flipped, style: ctx.piece_style() };
    let board = svg_board::render(variant, &view.position, options)
        .map_err(|e| PageError::Internal(format!("board of game {}: {e}", view.id)))?;
    let moves = move_lines(ctx, view, variant)?;
    let active = view.status == GameStatus::Active;
    let live = view.time_control.is_live();
    let now = domain.clock.now();
    let players = view
        .seats
        .iter()
        .map(|s| PlayerLine {
            seat: s.seat,
            username: s.username.clone(),
            color: if view.seat_count == 2 {
                t.get(&format!("color.{}.{}", view.variant, s.color)).to_owned()
            } else {
                // The kingdoms the seat commands, its captures so far and its status.
                t.format(
                    "game.seat_standing",
                    &[
                        ("kingdoms", &s.color),
                        ("captured", &s.score.to_string()),
                        ("value", &s.secondary_score.to_string()),
                        ("status", t.get(&format!("seat.status.{}", s.status))),
                    ],
                )
            },
            clock: if live {
                // The running clock as it stands now; the others as they stood when the
                // turn began.
                let running = active && view.to_move_seat == Some(s.seat);
                let left = match view.deadline.filter(|_| running) {
                    Some(deadline) => (deadline - now).whole_milliseconds() as i64,
                    None => s.remaining_ms,
                };
                clock_text(view.time_control, left)
            } else {
                time_left(t, s.remaining_seconds)
            },
            remaining_ms: s.remaining_ms,
            to_move: active && view.to_move_seat == Some(s.seat),
            flagged: view.reason == Some(GameReason::Rules(EndReason::Timeout))
                && s.outcome == Some(SeatOutcome::Loss),
            rating: rating_change(domain, s),
        })
        .collect();
    let deadline = Deadline::of(view.deadline.filter(|_| active && !live));
    let result = view.result.as_ref().map(|r| {
        let reason = view.reason.map(|reason| t.get(&format!("reason.{reason}")).to_owned());
        match reason {
            Some(reason) => format!("{r} · {reason}"),
            None => r.to_string(),
        }
    });
    let names: Vec<&str> = view.seats.iter().map(|s| s.username.as_str()).collect();
    Ok(GamePage {
        chrome: Chrome {
            // The players name the page (issue 18 §4): tabs and bookmarks tell games apart.
            title: t.format(
                "game.title_players",
                &[("players", &names.join(" – ")), ("id", &view.id.to_string())],
            ),
            ..ctx.chrome("game.title")
        },
        id: view.id,
        variant: t.get(&format!("variant.{}", view.variant)).to_owned(),
        variant_code: view.variant.clone(),
        rated: view.rated,
        board,
        players,
        moves,
        ply: view.ply,
        active,
        my_turn: active && my_seat.is_some() && my_seat == view.to_move_seat,
        playing: active && my_seat.is_some(),
        flipped,
        deadline,
        result,
        draw_offered_by_me: my_seat.is_some() && view.draw_offer_seat == my_seat,
        draw_offered_to_me: my_seat.is_some()
            && view.draw_offer_seat.is_some()
            && view.draw_offer_seat != my_seat,
        move_text: String::new(),
        move_error: None,
        pending: None,
        records: RecordFormat::for_variant(variant)
            .iter()
            .map(|f| (f.name(), t.get(&record_label_key(variant, *f)).to_owned()))
            .collect(),
        live: active && live,
        status: view.status.to_string(),
        status_line: status_line(t, view, my_seat),
        time_control: time_control_text(t, view.time_control),
        byoyomi: match view.time_control {
            TimeControl::Byoyomi { period_seconds, periods, .. } => {
                Some((i64::from(period_seconds) * 1000, periods))
            }
            _ => None,
        },
        move_hint: t.get(&format!("game.notation_hint.{}", view.variant)).to_owned(),
        claim: claim_words(t, &view.ruleset),
        ruling: ruling_paragraph(ctx, view, variant)?,
        conditional: None,
        analysis: None,
    })
}

/// The page with the viewer's conditional lines (read only for a waiting player).
pub(super) async fn page_with_lines(
    domain: &Domain,
    ctx: &Ctx,
    view: &GameView,
) -> Result<GamePage, PageError> {
    let mut page = page(domain, ctx, view)?;
    page.conditional = super::conditional::card(domain, ctx, view).await?;
    Ok(page)
}

/// A rated seat's rating change as the player line shows it: `1500? → 1662 (+162)` (`?`
/// marks a provisional rating before the game); empty until a rated game ends.
fn rating_change(domain: &Domain, seat: &crate::domain::games::SeatView) -> String {
    let (Some(before), Some(after)) = (seat.rating_before, seat.rating_after) else {
        return String::new();
    };
    let provisional =
        seat.deviation_before.is_some_and(|d| crate::domain::ratings::is_provisional(d, &domain.ratings));
    let mark = if provisional { "?" } else { "" };
    format!("{before}{mark} → {after} ({:+})", after - before)
}

/// The ruling's paragraph, its plies named in the notation of the move list.
fn ruling_paragraph(ctx: &Ctx, view: &GameView, variant: Variant) -> Result<Option<String>, PageError> {
    let Some(ruling) = &view.ruling else { return Ok(None) };
    let texts = preferences::moves_in(view, ctx.prefs.notation_for(variant))
        .map_err(|e| PageError::Internal(e.to_string()))?;
    let record = RulingRecord { variant, moves: &texts };
    Ok(Some(crate::web::ruling::paragraph(ruling, &record, ctx.t.lang())))
}

/// The catalogue key naming a record format on the page: the variant's own record
/// (Flickering chess, the Seven Kingdoms) is named after its variant (issue 23 §1).
pub(crate) fn record_label_key(variant: Variant, format: RecordFormat) -> String {
    match format {
        RecordFormat::Record => format!("record.record.{}", variant.name()),
        other => format!("record.{}", other.name()),
    }
}

/// The rulesets with a claim, by their stored name: the shogi impasse count (shogi.md
/// "Impasse", 24-point rule), the 27-point declaration, and the Flickering chess
/// repetition (flickering-chess.md "End of the game": a draw claimed). Xiangqi, MiniShogi
/// and the Seven Kingdoms end by themselves: nothing to claim (issue 23 §3).
const CLAIMS: [&str; 3] = ["shogi-24", "shogi-27", "flickering"];

/// The claim button's words and what it claims, where the ruleset has a claim.
fn claim_words(t: Texts, ruleset: &str) -> Option<(String, String)> {
    CLAIMS.contains(&ruleset).then(|| {
        (
            t.get(&format!("game.claim.{ruleset}")).to_owned(),
            t.get(&format!("game.claim_help.{ruleset}")).to_owned(),
        )
    })
}

/// Who is to move (the reader, another player, a kingdom's seat), or that the game is over.
fn status_line(t: Texts, view: &GameView, my_seat: Option<i32>) -> String {
    if view.status != GameStatus::Active {
        return t.get("game.status.over").to_owned();
    }
    match (view.to_move_seat, view.to_move.as_deref()) {
        (Some(seat), _) if Some(seat) == my_seat => t.get("game.status.your_move").to_owned(),
        (_, Some(player)) => t.format("game.status.to_move", &[("player", player)]),
        // Correspondence: the game page shows the deadline instead (empty here).
        _ => String::new(),
    }
}

/// A time control in words, correspondence ones included (the home page, the lobby).
pub(crate) fn time_control_summary(t: Texts, control: TimeControl) -> String {
    let summary = days_summary(t, control);
    if control.iccf_zone().is_none() {
        return summary;
    }
    // A challenge without an event's zone: the server's counts, named once the game starts.
    let zone = control.event_zone().map_or_else(|| t.get("tc.server_zone").to_owned(), |z| z.to_string());
    format!("{summary}, {}", t.format("tc.iccf_zone", &[("zone", &zone)]))
}

fn days_summary(t: Texts, control: TimeControl) -> String {
    match control {
        TimeControl::DaysPerMove { days, .. } => {
            t.format("tc.summary.days-per-move", &[("days", &days.to_string())])
        }
        TimeControl::MovesInDays { moves, days, .. } => t.format(
            "tc.summary.moves-in-days",
            &[("moves", &moves.to_string()), ("days", &days.to_string())],
        ),
        TimeControl::Fischer { initial_days, increment_days, cap_days, .. } => t.format(
            "tc.summary.fischer",
            &[
                ("initial", &initial_days.to_string()),
                ("increment", &increment_days.to_string()),
                ("cap", &cap_days.to_string()),
            ],
        ),
        live => time_control_text(t, live),
    }
}

/// A live clock: minutes and seconds, tenths under ten seconds; byoyomi shows the main
/// time and the periods, then the current period and the periods left. `static/live.js`
/// writes the ticking clocks the same way (`clockText`).
fn clock_text(control: TimeControl, ms: i64) -> String {
    let ms = ms.max(0);
    let plain = |ms: i64| {
        if ms < 10_000 {
            format!("{}.{}", ms / 1000, ms % 1000 / 100)
        } else {
            let seconds = (ms + 999) / 1000;
            format!("{}:{:02}", seconds / 60, seconds % 60)
        }
    };
    match control {
        TimeControl::Byoyomi { period_seconds, periods, .. } => {
            let period = i64::from(period_seconds) * 1000;
            let all_periods = period * i64::from(periods);
            if ms > all_periods {
                format!("{} + {}×{}s", plain(ms - all_periods), periods, period_seconds)
            } else {
                let left = ((ms + period - 1) / period).max(1);
                format!("{} ({}×{}s)", plain(ms - (left - 1) * period), left, period_seconds)
            }
        }
        _ => plain(ms),
    }
}

/// A live control in words, e.g. "5 min + 5 s"; empty for correspondence controls.
fn time_control_text(t: Texts, control: TimeControl) -> String {
    let minutes = |seconds: u32| {
        if seconds.is_multiple_of(60) {
            (seconds / 60).to_string()
        } else {
            format!("{:.1}", f64::from(seconds) / 60.0)
        }
    };
    match control {
        TimeControl::LiveFischer { base_seconds, increment_seconds } => t.format(
            "tc.summary.live-fischer",
            &[("minutes", &minutes(base_seconds)), ("increment", &increment_seconds.to_string())],
        ),
        TimeControl::Byoyomi { base_seconds, period_seconds, periods } => t.format(
            "tc.summary.byoyomi",
            &[
                ("minutes", &minutes(base_seconds)),
                ("periods", &periods.to_string()),
                ("period", &period_seconds.to_string()),
            ],
        ),
        // ICCF days: the players see whose calendar counts (#17 §4).
        _ => control
            .iccf_zone()
            .map(|zone| t.format("tc.iccf_zone", &[("zone", zone.as_str())]))
            .unwrap_or_default(),
    }
}

/// The lines of the move list, in the notation the viewer chose for the game's family.
fn move_lines(ctx: &Ctx, view: &GameView, variant: Variant) -> Result<Vec<MoveLine>, PageError> {
    let texts = preferences::moves_in(view, ctx.prefs.notation_for(variant))
        .map_err(|e| PageError::Internal(e.to_string()))?;
    if texts.len() != view.moves.len() {
        return Err(PageError::Internal(format!(
            "game {}: {} move texts for {} moves",
            view.id,
            texts.len(),
            view.moves.len()
        )));
    }
    // One text per turn: a Flickering series (and a handicap turn of several moves) is
    // stored one row per move with the turn's number.
    let turns: Vec<String> = view.turn_rows().into_iter().map(|rows| texts[rows].join(", ")).collect();
    // Two players: a line per pair of turns; more: a line per turn (the move names the
    // kingdom).
    let per_line = if view.seat_count == 2 { 2 } else { 1 };
    Ok(turns
        .chunks(per_line)
        .enumerate()
        .map(|(i, pair)| MoveLine {
            number: i + 1,
            first: pair[0].clone(),
            second: pair.get(1).cloned().unwrap_or_default(),
        })
        .collect())
}

/// `GET /games/{id}`.
pub async fn show(
    State(domain): State<Domain>,
    State(state): State<crate::http::AppState>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
) -> PageResult {
    let view = load(&domain, &ctx, id).await?;
    let mut page = page_with_lines(&domain, &ctx, &view).await?;
    page.analysis = super::analysis::section(&state, &ctx, &view).await?;
    render(&page)
}

/// The game page's `panel` block alone: the element `#game` (board, players and clocks,
/// status, forms, move list) as the page draws it for this viewer.
#[derive(askama::Template)]
#[template(path = "game.html", block = "panel")]
pub struct GamePanel {
    page: GamePage,
}

impl std::ops::Deref for GamePanel {
    type Target = GamePage;

    fn deref(&self) -> &GamePage {
        &self.page
    }
}

/// `GET /games/{id}/panel`: the element `#game` of the game page, drawn by the same
/// template for this viewer. Live mode (`static/live.js`) swaps it in after every event
/// that changes the game, so the board is drawn in one place, by the server
/// (`web/board`), and the forms are enabled for whoever is to move now.
pub async fn panel(State(domain): State<Domain>, ctx: Ctx, PagePath(id): PagePath<i64>) -> PageResult {
    let view = load(&domain, &ctx, id).await?;
    let mut response = render(&GamePanel { page: page_with_lines(&domain, &ctx, &view).await? })?;
    response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// The items of the game page's move list alone.
#[derive(askama::Template)]
#[template(path = "game_moves.html")]
pub struct MoveList {
    moves: Vec<MoveLine>,
}

/// `GET /games/{id}/moves`: the move list's items as the game page shows them to this
/// viewer (the notation of their preferences, one line per pair of turns). Live mode
/// (`static/live.js`) redraws the list with it after each move, so the list never
/// switches notation or layout.
pub async fn moves(State(domain): State<Domain>, ctx: Ctx, PagePath(id): PagePath<i64>) -> PageResult {
    let view = load(&domain, &ctx, id).await?;
    let variant: Variant =
        view.variant.parse().map_err(|_| PageError::Internal(format!("variant {}", view.variant)))?;
    let mut response = render(&MoveList { moves: move_lines(&ctx, &view, variant)? })?;
    response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// What the move form sends.
#[derive(Deserialize)]
pub struct MoveForm {
    #[serde(default)]
    csrf: String,
    #[serde(rename = "move", default)]
    text: String,
    #[serde(default)]
    ply: String,
    #[serde(default)]
    confirm: Option<String>,
}

/// The catalogue's words for a refused move: the rules' reason in the reader's language.
fn move_error_text(ctx: &Ctx, error: &DomainError) -> String {
    match (error.kind(), error.code()) {
        (_, "move.stale-ply") => ctx.t.get("game.error.stale").to_owned(),
        (ErrorKind::Forbidden, _) => ctx.t.get("game.error.not_yours").to_owned(),
        _ => refusal_text(ctx.t, error),
    }
}

/// `POST /games/{id}/move`: dry run first; when the move would end the game (a loss by
/// rule included) the page asks for confirmation; then [`games::submit_move`]. The game is
/// read once on the way (the dry run); the page is read again only to show a refusal or
/// the confirmation. A form without a readable `ply` is refused: the ply is the guard
/// against a move meant for an earlier position.
pub async fn play(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<MoveForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    let text = form.text.trim().to_owned();
    let (domain_ref, ctx_ref, typed) = (&domain, &ctx, &form.text);
    let refuse = move |message: String| async move {
        let view = load(domain_ref, ctx_ref, id).await?;
        let mut page = page(domain_ref, ctx_ref, &view)?;
        page.move_text = typed.clone();
        page.move_error = Some(message);
        render_with(StatusCode::UNPROCESSABLE_ENTITY, &page)
    };
    let Ok(ply) = form.ply.trim().parse::<i32>() else {
        return refuse(ctx.t.get("game.error.ply").to_owned()).await;
    };
    if text.is_empty() {
        return refuse(ctx.t.get("game.error.empty").to_owned()).await;
    }
    if form.confirm.as_deref() != Some("1") {
        match games::check_move(&domain, id, me.id, &text).await {
            Ok(check) if check.ends_game => {
                let reason = check
                    .reason
                    .as_deref()
                    .map(|r| ctx.t.get(&format!("reason.{r}")).to_owned())
                    .unwrap_or_default();
                let view = load(&domain, &ctx, id).await?;
                let mut page = page(&domain, &ctx, &view)?;
                page.move_text = text.clone();
                page.pending = Some(Pending {
                    text,
                    message: ctx.t.format(
                        "game.confirm",
                        &[
                            ("move", &check.display),
                            ("result", check.result.as_deref().unwrap_or("")),
                            ("reason", &reason),
                        ],
                    ),
                });
                return render(&page);
            }
            Ok(_) => {}
            Err(DomainError::NotFound(_)) => return Err(PageError::NotFound(ctx.t)),
            Err(DomainError::Internal(e)) => return Err(PageError::Internal(e.to_string())),
            Err(error) => return refuse(move_error_text(&ctx, &error)).await,
        }
    }
    match games::submit_move(&domain, id, me.id, &text, ply).await {
        Ok(_) => Ok(Redirect::to(&format!("/games/{id}")).into_response()),
        Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(DomainError::Internal(e)) => Err(PageError::Internal(e.to_string())),
        Err(error) => refuse(move_error_text(&ctx, &error)).await,
    }
}

/// What the action buttons send.
#[derive(Deserialize)]
pub struct ActionForm {
    #[serde(default)]
    csrf: String,
    action: String,
}

/// `POST /games/{id}/action`: resign, offer/accept/decline a draw, claim.
pub async fn action(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<ActionForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    let done = match form.action.as_str() {
        "resign" => games::resign(&domain, id, me.id).await,
        "offer-draw" => games::offer_draw(&domain, id, me.id).await,
        "accept-draw" => games::accept_draw(&domain, id, me.id).await,
        "decline-draw" => games::decline_draw(&domain, id, me.id).await,
        "claim" => games::claim(&domain, id, me.id).await,
        _ => Err(DomainError::Invalid(String::new())),
    };
    match done {
        Ok(_) => Ok(Redirect::to(&format!("/games/{id}")).into_response()),
        Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(DomainError::Internal(e)) => Err(PageError::Internal(e.to_string())),
        Err(error) => {
            let view = load(&domain, &ctx, id).await?;
            let mut page = page(&domain, &ctx, &view)?;
            page.move_error = Some(match error {
                DomainError::Invalid(detail) if detail.is_empty() => {
                    ctx.t.get("game.error.unknown_action").to_owned()
                }
                error
                    if matches!(
                        error.kind(),
                        ErrorKind::Invalid | ErrorKind::Conflict | ErrorKind::Forbidden
                    ) =>
                {
                    refusal_text(ctx.t, &error)
                }
                _ => ctx.t.get("game.error.unknown_action").to_owned(),
            });
            render_with(StatusCode::UNPROCESSABLE_ENTITY, &page)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_clocks_read_minutes_and_seconds_and_tenths_under_ten_seconds() {
        let fischer = TimeControl::LiveFischer { base_seconds: 300, increment_seconds: 5 };
        assert_eq!(clock_text(fischer, 300_000), "5:00");
        assert_eq!(clock_text(fischer, 299_001), "5:00", "a second begun is shown whole");
        assert_eq!(clock_text(fischer, 61_000), "1:01");
        assert_eq!(clock_text(fischer, 10_000), "0:10");
        assert_eq!(clock_text(fischer, 9_950), "9.9");
        assert_eq!(clock_text(fischer, -5), "0.0", "never below zero");
    }

    #[test]
    fn byoyomi_clocks_show_the_periods_left() {
        let byoyomi = TimeControl::Byoyomi { base_seconds: 60, period_seconds: 30, periods: 3 };
        assert_eq!(clock_text(byoyomi, 150_000), "1:00 + 3×30s", "main time, then the periods");
        assert_eq!(clock_text(byoyomi, 90_000), "0:30 (3×30s)", "main time gone: the first period");
        assert_eq!(clock_text(byoyomi, 35_000), "5.0 (2×30s)", "a period lost");
    }
}
