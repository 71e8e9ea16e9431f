//! The game page: board, players and clocks, the move list in the chosen notation, the
//! result; the move form (any notation, confirmation when the dry run says the move would
//! end the game), draw offer/accept/decline, resign, claim. Moves go through
//! [`games::submit_move`], the same function as the REST API.

use axum::extract::State;
use axum::http::header::CACHE_CONTROL;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect};
use axum::Form;
use serde::Deserialize;
use tavoliere_rules::variant::Variant;

use super::dashboard::time_left;
use super::{refusal_text, render, render_with, Chrome, Ctx, PageError, PagePath, PageResult};
use crate::domain::games::{self, GameView};
use crate::domain::preferences;
use crate::domain::{Domain, DomainError, ErrorKind};
use crate::web::board::{self as svg_board, BoardOptions};
use crate::web::records::RecordFormat;

/// A player as the page shows them.
pub struct PlayerLine {
    username: String,
    color: String,
    clock: String,
    to_move: bool,
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
    board: String,
    players: Vec<PlayerLine>,
    moves: Vec<MoveLine>,
    ply: i32,
    active: bool,
    my_turn: bool,
    playing: bool,
    flipped: bool,
    deadline: String,
    result: Option<String>,
    draw_offered_by_me: bool,
    draw_offered_to_me: bool,
    move_text: String,
    move_error: Option<String>,
    pending: Option<Pending>,
    records: Vec<(&'static str, String)>,
    /// A live game in play: the page upgrades itself to live mode (static/live.js).
    live: bool,
}

async fn load(domain: &Domain, ctx: &Ctx, id: i64) -> Result<GameView, PageError> {
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
    let active = view.status == "active";
    let players = view
        .seats
        .iter()
        .map(|s| PlayerLine {
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
            clock: time_left(t, s.remaining_seconds),
            to_move: active && view.to_move_seat == Some(s.seat),
        })
        .collect();
    let deadline = view
        .deadline
        .filter(|_| active)
        .map(|d| time_left(t, (d - domain.clock.now()).whole_seconds()))
        .unwrap_or_default();
    let result = view.result.as_ref().map(|r| {
        let reason = view.reason.as_deref().map(|reason| t.get(&format!("reason.{reason}")).to_owned());
        match reason {
            Some(reason) => format!("{r} · {reason}"),
            None => r.clone(),
        }
    });
    Ok(GamePage {
        chrome: Chrome {
            title: t.format("game.title", &[("id", &view.id.to_string())]),
            ..ctx.chrome("game.title")
        },
        id: view.id,
        variant: t.get(&format!("variant.{}", view.variant)).to_owned(),
        variant_code: view.variant.clone(),
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
            .map(|f| (f.name(), t.get(&format!("record.{}", f.name())).to_owned()))
            .collect(),
        live: active && view.time_control.is_live(),
    })
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
pub async fn show(State(domain): State<Domain>, ctx: Ctx, PagePath(id): PagePath<i64>) -> PageResult {
    let view = load(&domain, &ctx, id).await?;
    render(&page(&domain, &ctx, &view)?)
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
    Form(form): Form<MoveForm>,
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
    Form(form): Form<ActionForm>,
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
