//! Conditional moves (#17 §3): the player waiting for the opponent enters lines "if the
//! opponent plays X, I reply Y (and if then X2, Y2 ...)" for the current position. The
//! opponent's move that matches a line's first move plays the reply in the move's own
//! transaction ([`move_under_lock`]), charged as a move made at that instant, and the
//! line advances; any other move deletes the owner's lines. Lines are validated when
//! entered and the reply again when played, the game's laws included: a reply that would
//! end the game other than as its owner's win is not played, the owner is told instead
//! and the lines go. Lines are private to their owner.

use tavoliere_rules::{Color, Outcome};

use super::*;
use crate::domain::notifications::Kind;
use crate::storage::conditional::{self as lines, LineRow, NewLine};
use crate::storage::notifications::{self, About};

/// At most this many lines per player and game, of at most [`MAX_MOVES`] moves each (a
/// bound on what a move's transaction reads).
pub const MAX_LINES: usize = 32;
/// At most this many moves in a line (the opponent's and the replies).
pub const MAX_MOVES: usize = 40;

/// A conditional line of the caller.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct ConditionalLine {
    /// Id (for `DELETE /api/games/{id}/conditional-moves/{line}`).
    pub id: i64,
    /// The game's ply at which the line's first move, the opponent's, is expected.
    pub ply: i32,
    /// The moves in the canonical notation (ICCS, USI, coordinate series), the
    /// opponent's first, then alternating: `[X, Y, X2, Y2, ...]` reads "if the opponent
    /// plays X I reply Y; if then X2, Y2 ...".
    pub moves: Vec<String>,
    /// The same moves in the variant's display notation (WXF, western...).
    pub display: Vec<String>,
    /// When the line was entered.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

impl From<LineRow> for ConditionalLine {
    fn from(row: LineRow) -> ConditionalLine {
        ConditionalLine {
            id: row.conditional_line_id,
            ply: row.ply,
            moves: row.moves,
            display: row.display,
            created_at: row.created_at,
        }
    }
}

/// The caller's lines in `game_id` (none once the game is over).
///
/// # Errors
/// Unknown game (404), not a player (403).
pub async fn list_lines(
    domain: &Domain,
    game_id: i64,
    account_id: i64,
) -> DomainResult<Vec<ConditionalLine>> {
    let mut tx = read_snapshot(domain).await?;
    let row = load_game(&mut tx, game_id).await?;
    let seats = load_seats(&mut tx, game_id).await?;
    seat_of(&seats, account_id)?;
    if row.status != GameStatus::Active {
        return Ok(Vec::new());
    }
    let found = lines::of_account(&mut tx, game_id, account_id, row.current_ply).await?;
    tx.rollback().await?;
    Ok(found.into_iter().map(ConditionalLine::from).collect())
}

/// Enters a line for the current position: `moves` in any notation of the variant, the
/// opponent's first, alternating. `expected_ply`, when given, must be the game's ply.
///
/// # Errors
/// Unknown game (404), not a player (403), game over, stale ply, the caller to move, a
/// line contradicting one entered (409), a game of more seats, an odd or too long line, a
/// move the rules refuse, a move after the end (422). Nothing is stored then.
pub async fn create_line(
    domain: &Domain,
    game_id: i64,
    account_id: i64,
    moves: &[String],
    expected_ply: Option<i32>,
) -> DomainResult<ConditionalLine> {
    let PlayerAction { mut tx, row, seats, mine } = begin_player_action(domain, game_id, account_id).await?;
    if row.seat_count != 2 {
        return Err(DomainError::coded(
            ErrorKind::Invalid,
            "conditional.two-seats",
            "Conditional moves are for games of two players.",
        ));
    }
    if row.time_control.0.is_live() {
        return Err(DomainError::coded(
            ErrorKind::Invalid,
            "conditional.live",
            "Conditional moves are for correspondence games.",
        ));
    }
    if let Some(expected) = expected_ply.filter(|p| *p != row.current_ply) {
        return Err(DomainError::stale_ply(expected, row.current_ply));
    }
    if row.turn_seat == mine.seat {
        return Err(DomainError::coded(
            ErrorKind::Conflict,
            "conditional.your-move",
            "It is your move: conditional moves are entered while the opponent is to move.",
        ));
    }
    if moves.len() < 2 || !moves.len().is_multiple_of(2) || moves.len() > MAX_MOVES {
        return Err(DomainError::coded(
            ErrorKind::Invalid,
            "conditional.pairs",
            format!(
                "A line is pairs of moves, the opponent's then your reply: 2 to {MAX_MOVES} moves, not {}.",
                moves.len()
            ),
        ));
    }
    let state = rules_state(domain, &mut tx, &row, &seats, false).await?;
    let (_, canonical, display) = validate(&state.game, mine.seat as usize, moves)?;
    let existing = lines::of_account(&mut tx, game_id, account_id, row.current_ply).await?;
    if existing.len() >= MAX_LINES {
        return Err(DomainError::coded(
            ErrorKind::Invalid,
            "conditional.too-many",
            format!("At most {MAX_LINES} lines per game: delete one first."),
        ));
    }
    if let Some(other) = existing.iter().find(|l| contradicts(&l.moves, &canonical)) {
        return Err(DomainError::coded(
            ErrorKind::Conflict,
            "conditional.contradicts",
            format!(
                "The line answers a move differently from your line {} ({}); delete that one first.",
                other.conditional_line_id,
                other.display.join(" ")
            ),
        ));
    }
    let now = domain.clock.now();
    let new = NewLine {
        game_id,
        account_id,
        seat: mine.seat,
        ply: row.current_ply,
        moves: &canonical,
        display: &display,
    };
    let line = lines::insert(&mut tx, &new, now).await?;
    tx.commit().await?;
    // The kept copy has the seats without this line: the next move must read them.
    domain.games.take_with_snapshot(game_id);
    Ok(line.into())
}

/// The legal moves after the first moves of a line being entered.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct LineNext {
    /// The moves so far, canonical.
    pub line: Vec<String>,
    /// The legal next moves, canonical (none after a move that ends the game).
    pub next: Vec<String>,
    /// Whether the next move is the caller's reply (else the opponent's move).
    pub reply: bool,
}

/// The legal continuations of the line `prefix` (moves in any notation) for the caller,
/// who waits for the opponent in `game_id`: what a board offers to click (static/board.js).
///
/// # Errors
/// Unknown game (404), not a player (403), game over or the caller to move (409), a move
/// the rules refuse (422).
pub async fn line_continuations(
    domain: &Domain,
    game_id: i64,
    account_id: i64,
    prefix: &[String],
) -> DomainResult<LineNext> {
    let mut tx = read_snapshot(domain).await?;
    let row = load_game(&mut tx, game_id).await?;
    let seats = load_seats(&mut tx, game_id).await?;
    let mine = seat_of(&seats, account_id)?.seat;
    ensure_active(&row)?;
    if row.turn_seat == mine {
        return Err(DomainError::coded(
            ErrorKind::Conflict,
            "conditional.your-move",
            "It is your move: conditional moves are entered while the opponent is to move.",
        ));
    }
    let state = rules_state(domain, &mut tx, &row, &seats, false).await?;
    tx.rollback().await?;
    let (probe, line, _) = validate(&state.game, mine as usize, prefix)?;
    let next = if probe.is_over() { Vec::new() } else { probe.legal_moves() };
    Ok(LineNext { line, next, reply: prefix.len() % 2 == 1 })
}

/// Deletes the caller's line `line_id` in `game_id`, or all of them when `None`.
///
/// # Errors
/// Unknown game (404), not a player (403), no such line of the caller's (404).
pub async fn delete_lines(
    domain: &Domain,
    game_id: i64,
    account_id: i64,
    line_id: Option<i64>,
) -> DomainResult<()> {
    let mut tx = domain.pool.begin().await?;
    let (_, seats) = lock_game_with_seats(&mut tx, game_id).await?;
    seat_of(&seats, account_id)?;
    let deleted = lines::delete(&mut tx, game_id, account_id, line_id).await?;
    if let (Some(id), 0) = (line_id, deleted) {
        return Err(DomainError::NotFound(format!("no conditional line {id} of yours in game {game_id}")));
    }
    tx.commit().await?;
    domain.games.take_with_snapshot(game_id);
    Ok(())
}

/// Plays `moves` on a copy of `game` and returns them canonical and in the display
/// notation: every move legal where it would be played, the turns alternating between
/// the opponent and `owner`, nothing after a move that ends the game. The laws are
/// applied when a reply is played (#17 §3: "validated when entered (legal in the position
/// it would be played from) and again when played (laws included)"): a line whose reply
/// would lose by one is kept, and not played.
fn validate(
    game: &AnyGame,
    owner: usize,
    moves: &[String],
) -> DomainResult<(AnyGame, Vec<String>, Vec<String>)> {
    let mut probe = game.clone();
    let mut canonical = Vec::with_capacity(moves.len());
    let mut display = Vec::with_capacity(moves.len());
    for (index, text) in moves.iter().enumerate() {
        let ours = index % 2 == 1;
        // The rules' refusal as it is (its code and the move's text, as for a move).
        let played = probe.play(text).map_err(move_error)?;
        if played.game_over {
            if index + 1 < moves.len() {
                return Err(DomainError::coded(
                    ErrorKind::Invalid,
                    "conditional.after-end",
                    format!("Move {} of the line ends the game; nothing can follow it.", index + 1),
                ));
            }
        } else if probe.seat_to_move() != if ours { 1 - owner } else { owner } {
            return Err(DomainError::coded(
                ErrorKind::Invalid,
                "conditional.turns",
                format!("After move {} of the line it is not the other player's turn.", index + 1),
            ));
        }
        canonical.push(played.canonical);
        display.push(played.display);
    }
    Ok((probe, canonical, display))
}

/// Why a reply that ends the game is not played (#17 §3: "a conditional move that would
/// lose by perpetual check or repetition is not played"): any end but its mover's win. A
/// draw ends the game too, which its player decides at the board, not in advance.
fn law_refusal(display: &str, outcome: Option<Outcome>, mover: Color) -> Option<String> {
    let outcome = outcome?;
    let reason = outcome.reason().as_str().replace('-', " ");
    match outcome.winner() {
        Some(winner) if winner == mover => None,
        Some(_) => Some(format!("{display} would lose by {reason}.")),
        None => Some(format!("{display} would draw by {reason}.")),
    }
}

/// Whether two lines answer one sequence of the opponent's moves differently.
fn contradicts(a: &[String], b: &[String]) -> bool {
    let mut index = 0;
    while index + 1 < a.len() && index + 1 < b.len() && a[index] == b[index] {
        if a[index + 1] != b[index + 1] {
            return true;
        }
        index += 2;
    }
    a == b
}

/// What the waiting seat's lines make of the opponent's move just planned.
pub(crate) enum Answer {
    /// No lines (the usual case, no query made).
    Nothing,
    /// Lines, none matching: they go.
    Cleared { owner: i32 },
    /// A line matched: its reply is played.
    Reply { owner: SeatRow, text: String, advanced: Vec<i64>, their: String, ours: String },
    /// A line matched but its reply is not played now (the rules or a law refuse it):
    /// the owner is told, the lines go.
    Refused { owner: SeatRow, their: String, ours: String, why: String },
}

impl Answer {
    /// Whether the reply is played (the opponent's move then notifies no "your move").
    pub(crate) fn plays(&self) -> bool {
        matches!(self, Answer::Reply { .. })
    }
}

/// Reads the lines of the seat to move after `write` (the opponent's move, played on
/// `state`) and decides what they answer. Runs under the game's row lock.
pub(crate) async fn answer(
    tx: &mut Transaction<'_, Postgres>,
    row: &GameRow,
    seats: &[SeatRow],
    state: &RulesState,
    write: &MoveWrite,
) -> DomainResult<Answer> {
    let Some(owner) = seats.iter().find(|s| s.seat == write.next_seat && s.seat != write.mover) else {
        return Ok(Answer::Nothing);
    };
    if !owner.has_conditional {
        return Ok(Answer::Nothing);
    }
    if write.game_over {
        return Ok(Answer::Cleared { owner: owner.seat });
    }
    let found = lines::of_seat(tx, row.game_id, owner.seat).await?;
    let played = write.parts.join(",");
    let matching: Vec<&LineRow> =
        found.iter().filter(|l| l.ply == row.current_ply && l.moves.first() == Some(&played)).collect();
    let Some(first) = matching.first() else {
        return Ok(Answer::Cleared { owner: owner.seat });
    };
    // Lines never contradict each other (checked when entered): they share the reply.
    let text = first.moves[1].clone();
    let their = first.display[0].clone();
    let ours = first.display[1].clone();
    let refused = match state.game.dry_run(&text) {
        Err(error) => Some(error.to_string()),
        Ok(dry) => law_refusal(&dry.display, dry.outcome, state.game.side_to_move()),
    };
    let owner = owner.clone();
    if let Some(why) = refused {
        return Ok(Answer::Refused { owner, their, ours, why });
    }
    let advanced = matching.iter().filter(|l| l.moves.len() > 2).map(|l| l.conditional_line_id).collect();
    Ok(Answer::Reply { owner, text, advanced, their, ours })
}

/// Stores what an answer changed (in the move's transaction): the lines advanced or gone,
/// and the owner's notification. `ply` is the game's ply after everything played.
pub(crate) async fn settle(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    answer: &Answer,
    ply: i32,
    now: OffsetDateTime,
) -> DomainResult<Option<(i32, bool)>> {
    let about = About::game(game_id);
    match answer {
        Answer::Nothing => Ok(None),
        Answer::Cleared { owner } => {
            lines::advance(tx, game_id, *owner, &[], ply).await?;
            Ok(Some((*owner, false)))
        }
        Answer::Reply { owner, advanced, their, ours, .. } => {
            lines::advance(tx, game_id, owner.seat, advanced, ply).await?;
            let details = serde_json::json!({
                "played": true, "ply": ply, "opponent_move": their, "reply": ours,
                "lines_left": advanced.len(),
            });
            notifications::notify(tx, owner.account_id, Kind::ConditionalMove, &about, details, now).await?;
            Ok(Some((owner.seat, !advanced.is_empty())))
        }
        Answer::Refused { owner, their, ours, why } => {
            lines::advance(tx, game_id, owner.seat, &[], ply).await?;
            let details = serde_json::json!({
                "played": false, "ply": ply, "opponent_move": their, "reply": ours, "why": why,
            });
            notifications::notify(tx, owner.account_id, Kind::ConditionalMove, &about, details, now).await?;
            Ok(Some((owner.seat, false)))
        }
    }
}
