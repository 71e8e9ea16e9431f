//! The analysis board (issue 37 §2): from any position of a game (a finished one, or a
//! player's own correspondence game in play), the viewer plays moves for both sides to
//! explore a variation, steps through it and discards it. It never sends a move to the
//! game: the rules judge the variation alone ([`crate::domain::positions`]), and the
//! variation lives in the address only —
//! `GET /games/{id}/analysis?ply=N&m=<move>&m=<move>…&at=K&flip=1`: the position after `N`
//! stored moves of the game, the variation's moves, `K` of them shown. A move typed into
//! the page's form (`&move=`) is tried after the `K` shown (the rest is discarded) and
//! answered by a redirect to the new variation's address. Without JavaScript the page
//! works by its links and form; `static/board.js` adds the legal-move dots (from
//! `POST /api/positions/legal-moves`), `static/game.js` shows the pages in place.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use tavoliere_rules::variant::Variant;

use super::{refusal_text, render_with, Chrome, Ctx, PageError, PagePath, PageResult};
use crate::domain::games::{self, GameStatus};
use crate::domain::positions::{self, Explored, Variation};
use crate::domain::DomainError;
use crate::web::board::{self as svg_board, BoardOptions};

/// One move of the variation as the page lists it.
pub struct LineMove {
    text: String,
    href: String,
    current: bool,
    ahead: bool,
}

/// The analysis page.
#[derive(askama::Template)]
#[template(path = "analysis.html")]
pub struct AnalysisPage {
    chrome: Chrome,
    id: i64,
    variant_code: String,
    /// The game's ply the variation starts from.
    ply: usize,
    /// That position (FEN, SFEN...), which the board's script sends with the moves.
    position: String,
    ruleset: String,
    /// The moves shown, canonical, as JSON (for the board's script).
    moves_json: String,
    /// The same, for the form's hidden fields (a move tried goes after them).
    shown_moves: Vec<String>,
    board: String,
    line: Vec<LineMove>,
    /// Where the variation starts, in words.
    intro: String,
    /// Who is to move in the position shown, check, or the variation's end.
    status_line: String,
    /// Step links within the variation: start, back, forward, its end.
    first: Option<String>,
    previous: Option<String>,
    next: Option<String>,
    last: Option<String>,
    flip: bool,
    flip_link: String,
    discard: String,
    back: String,
    typed: String,
    error: Option<String>,
    hint: String,
    /// The analysis is not open to this viewer (a game in play not theirs, a live game).
    closed: bool,
}

/// The analysis address's parts.
#[derive(Debug, Default)]
struct Asked {
    ply: Option<usize>,
    moves: Vec<String>,
    at: Option<usize>,
    text: Option<String>,
    flip: bool,
}

impl Asked {
    /// Reads the query (`m` repeats: one a move).
    fn read(query: Option<&str>) -> Asked {
        let mut asked = Asked::default();
        for (key, value) in url::form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
            match key.as_ref() {
                "ply" => asked.ply = value.trim().parse::<i64>().ok().map(|n| n.max(0) as usize),
                "m" if !value.trim().is_empty() => asked.moves.push(value.trim().to_owned()),
                "at" => asked.at = value.trim().parse::<i64>().ok().map(|n| n.max(0) as usize),
                "move" => asked.text = Some(value.into_owned()).filter(|t| !t.trim().is_empty()),
                "flip" => asked.flip = matches!(value.as_ref(), "1" | "true"),
                _ => {}
            }
        }
        asked
    }
}

/// The address of the variation `moves` from `ply`, `at` of them shown (all: `None`).
fn address(id: i64, ply: usize, moves: &[String], at: Option<usize>, flip: bool) -> String {
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    query.append_pair("ply", &ply.to_string());
    for m in moves {
        query.append_pair("m", m);
    }
    if let Some(at) = at.filter(|&at| at < moves.len()) {
        query.append_pair("at", &at.to_string());
    }
    if flip {
        query.append_pair("flip", "1");
    }
    format!("/games/{id}/analysis?{}", query.finish())
}

/// `GET /games/{id}/analysis`: the analysis board.
pub async fn show(
    State(domain): State<crate::domain::Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    RawQuery(query): RawQuery,
) -> PageResult {
    let asked = Asked::read(query.as_deref());
    let internal = |e: DomainError| PageError::Internal(e.to_string());
    let (view, fen, ply) = match games::position_at(&domain, id, asked.ply).await {
        Ok(read) => read,
        Err(DomainError::NotFound(_)) => return Err(PageError::NotFound(ctx.t)),
        Err(other) => return Err(internal(other)),
    };
    let variant: Variant =
        view.variant.parse().map_err(|_| PageError::Internal(format!("variant {}", view.variant)))?;
    let t = ctx.t;
    let me = ctx.user.as_ref().map(|u| u.username.as_str());
    let my_seat = view.seats.iter().find(|s| Some(s.username.as_str()) == me).map(|s| s.seat);
    // A game in play is analysed by its players only, and only by correspondence: a live
    // game's board is the game itself.
    let open = view.status != GameStatus::Active || (my_seat.is_some() && !view.time_control.is_live());
    let mut page = AnalysisPage {
        chrome: Chrome {
            title: t.format("analysis.title", &[("id", &view.id.to_string())]),
            ..ctx.chrome("analysis.title")
        },
        id: view.id,
        variant_code: view.variant.clone(),
        ply,
        position: fen.clone(),
        ruleset: view.ruleset.clone(),
        moves_json: "[]".to_owned(),
        shown_moves: Vec::new(),
        board: String::new(),
        line: Vec::new(),
        intro: t.format("analysis.intro", &[("ply", &ply.to_string())]),
        status_line: String::new(),
        first: None,
        previous: None,
        next: None,
        last: None,
        flip: asked.flip,
        flip_link: String::new(),
        discard: address(view.id, ply, &[], None, asked.flip),
        back: format!("/games/{}?ply={ply}", view.id),
        typed: String::new(),
        error: None,
        hint: t.get(&format!("game.notation_hint.{}", view.variant)).to_owned(),
        closed: !open,
    };
    if !open {
        page.error = Some(t.get("analysis.closed").to_owned());
        return render_with(StatusCode::FORBIDDEN, &page);
    }
    let variation = |moves: Vec<String>| Variation {
        variant,
        ruleset: Some(view.ruleset.clone()),
        position: Some(fen.clone()),
        moves,
    };
    let mut status = StatusCode::OK;
    // A move tried: after the moves shown, the rest discarded; then the new variation's
    // own address.
    if let Some(text) = &asked.text {
        let at = asked.at.unwrap_or(asked.moves.len()).min(asked.moves.len());
        let mut tried = asked.moves[..at].to_vec();
        tried.push(text.trim().to_owned());
        match positions::explore(&domain.rules_work, variation(tried)).await {
            Ok(explored) => {
                let to = address(view.id, ply, &explored.moves, None, asked.flip);
                return Ok(Redirect::to(&to).into_response());
            }
            Err(error) if error.kind() == crate::domain::ErrorKind::Internal => return Err(internal(error)),
            Err(error) => {
                page.typed = text.clone();
                page.error = Some(refusal_text(t, &error));
                status = StatusCode::UNPROCESSABLE_ENTITY;
            }
        }
    }
    let whole = match positions::explore(&domain.rules_work, variation(asked.moves.clone())).await {
        Ok(explored) => explored,
        // A variation the rules refuse (an address edited by hand): from the start again.
        Err(error) if error.kind() != crate::domain::ErrorKind::Internal => {
            page.error = Some(refusal_text(t, &error));
            status = StatusCode::UNPROCESSABLE_ENTITY;
            positions::explore(&domain.rules_work, variation(Vec::new())).await.map_err(internal)?
        }
        Err(error) => return Err(internal(error)),
    };
    let count = whole.moves.len();
    let at = asked.at.unwrap_or(count).min(count);
    let shown: Explored = if at == count {
        whole.clone()
    } else {
        positions::explore(&domain.rules_work, variation(whole.moves[..at].to_vec()))
            .await
            .map_err(internal)?
    };
    let link = |k: usize| address(view.id, ply, &whole.moves, Some(k), asked.flip);
    page.line = whole
        .display
        .iter()
        .enumerate()
        .map(|(i, text)| LineMove {
            text: text.clone(),
            href: link(i + 1),
            current: i + 1 == at,
            ahead: i + 1 > at,
        })
        .collect();
    page.first = (at > 0).then(|| link(0));
    page.previous = (at > 0).then(|| link(at - 1));
    page.next = (at < count).then(|| link(at + 1));
    page.last = (at < count).then(|| link(count));
    page.flip_link = address(view.id, ply, &whole.moves, Some(at), !asked.flip);
    page.shown_moves = shown.moves.clone();
    page.moves_json = serde_json::to_string(&shown.moves).map_err(|e| PageError::Internal(e.to_string()))?;
    page.status_line = match (&shown.result, &shown.reason) {
        (Some(result), Some(reason)) => format!("{result} · {}", t.get(&format!("reason.{reason}"))),
        _ => {
            let side = if view.seat_count == 2 {
                t.get(&format!("color.{}.{}", view.variant, shown.side_to_move)).to_owned()
            } else {
                shown.side_to_move.clone()
            };
            let turn = t.format("analysis.to_move", &[("side", &side)]);
            if shown.check {
                format!("{turn} · {}", t.get("game.status.check"))
            } else {
                turn
            }
        }
    };
    // The last move on the board: the variation's, else the game's before it.
    let game_last = view.last_turn(ply);
    let last_move = if at > 0 { Some(whole.moves[at - 1].as_str()) } else { game_last.as_deref() };
    let flipped = (view.seat_count == 2 && my_seat == Some(1)) != asked.flip;
    let options = BoardOptions { last_move, flipped, style: ctx.piece_style() };
    page.board = svg_board::render(variant, &shown.position, options)
        .map_err(|e| PageError::Internal(format!("analysis of game {}: {e}", view.id)))?;
    render_with(status, &page)
}
