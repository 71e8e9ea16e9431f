//! What clients see of a game: its view (REST, pages, sockets), read in one snapshot,
//! the positions and records derived from it, and a player's list of games.

use super::*;
use tavoliere_rules::game::Ruling;

/// One seat of a game as shown to clients.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct SeatView {
    /// 0-based seat index (turn order of the start position: seat 0 plays the first colour).
    pub seat: i32,
    /// `first` or `second` (Red/Black, sente/gote, White/Black) in two-seat games; in the
    /// Seven Kingdoms the kingdoms the seat commands (`Qin`, `Qin+Yan`...).
    pub color: String,
    /// `playing`, or in a game of more than two seats `out` (its kingdoms defeated on the
    /// board), `resigned` or `timed-out` (it left; the game went on).
    pub status: &'static str,
    /// The seat's score: Seven Kingdoms pieces captured so far; jishogi points once a
    /// game ends on them; otherwise 0.
    pub score: i32,
    /// The secondary score (Seven Kingdoms: the historical value of the pieces captured).
    pub secondary_score: i32,
    /// The place once the game is over (1 = winner; equal places share).
    pub place: Option<i32>,
    /// The player.
    pub username: String,
    /// Clock time left at the start of the current turn, in seconds.
    pub remaining_seconds: i64,
    /// The same in milliseconds (live clocks).
    pub remaining_ms: i64,
    /// `win`, `loss` or `draw` once the game is over.
    pub outcome: Option<SeatOutcome>,
    /// After how many stored moves the seat left (resigned or timed out) a game that went
    /// on. Not part of the API (the replay of a view needs it).
    #[serde(skip)]
    pub exit_after_ply: Option<i32>,
    /// In a rated game, the player's rating (Glicko-2, in the game's variant and pool) when
    /// the game ended; `null` until a rated game ends.
    pub rating_before: Option<i32>,
    /// In a rated game, the rating the game left; `null` until a rated game ends.
    pub rating_after: Option<i32>,
    /// The rating deviation before the game (the pages mark a provisional rating). Not
    /// part of the API.
    #[serde(skip)]
    pub deviation_before: Option<f64>,
}

/// A played move as shown to clients.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct MoveView {
    /// 1-based ply.
    pub ply: i32,
    /// Turn number (several moves may make one turn in some handicaps).
    pub turn_number: i32,
    /// Seat that moved.
    pub seat: i32,
    /// Canonical notation (ICCS / USI).
    pub canonical: String,
    /// The game's display notation (WXF / western).
    pub display: Option<String>,
    /// Whether the move gave check (Xiangqi, Shogi; a Flickering series' algebraic
    /// display marks its checks itself).
    pub check: bool,
    /// When it was played.
    #[serde(with = "time::serde::rfc3339")]
    pub played_at: OffsetDateTime,
}

/// The whole state of a game.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct GameView {
    /// Game id.
    pub id: i64,
    /// The variant's name (`xiangqi`, `shogi`, `minishogi`, `flickering`, `seven-kingdoms`).
    #[schema(schema_with = rules_adapter::variant_name_schema)]
    pub variant: String,
    /// Ruleset name.
    pub ruleset: String,
    /// Handicap name, if any.
    pub handicap: Option<String>,
    /// Whether the game is rated: its end changes both players' ratings (issue 18 §1).
    pub rated: bool,
    /// The tournament the game was paired in, if any (its games are neither aborted nor
    /// rematched by the players).
    pub tournament_id: Option<i64>,
    /// Number of seats.
    pub seat_count: i32,
    /// The seats in turn order.
    pub seats: Vec<SeatView>,
    /// Start position (FEN/SFEN), `null` for the standard one.
    pub start_position: Option<String>,
    /// Current position (FEN/SFEN).
    pub position: String,
    /// Number of moves played.
    pub ply: i32,
    /// `first` or `second` in two-seat games; the seat label (kingdoms) in the Seven
    /// Kingdoms.
    pub side_to_move: String,
    /// Seat to move (while active).
    pub to_move_seat: Option<i32>,
    /// Username to move (while active).
    pub to_move: Option<String>,
    /// The moves.
    pub moves: Vec<MoveView>,
    /// Display notation name.
    pub display_notation: &'static str,
    /// Legal moves in canonical notation (empty once over).
    pub legal_moves: Vec<String>,
    /// Time control.
    pub time_control: TimeControl,
    /// Whether leave stops the clocks in this game.
    pub vacation_allowed: bool,
    /// The tournament section's vacation allowance: the days of each player's leave, from
    /// the game's start, that stop its clocks (`null`: all of the player's leave).
    pub vacation_days: Option<i32>,
    /// When the side to move runs out of time (leave included); while it
    /// `awaits_first_move`, when its first-move time ends.
    #[serde(with = "time::serde::rfc3339::option")]
    pub deadline: Option<OffsetDateTime>,
    /// The side to move has yet to make its first move in a live game of two players
    /// (issue 37 §5): its clock does not run until it does, and unless it moves by
    /// `deadline` the game is aborted (no result).
    pub awaits_first_move: bool,
    /// The side to move is in check.
    pub in_check: bool,
    /// `active`, `finished` or `aborted`.
    pub status: GameStatus,
    /// `1-0`, `0-1`, `1/2-1/2` once finished; in games of more than two seats the places
    /// in seat order, e.g. `2-1-3` (seat 1 won, seat 0 second).
    pub result: Option<GameResult>,
    /// Why it ended (kebab-case).
    pub reason: Option<GameReason>,
    /// Seat that offers a draw, if any.
    pub draw_offer_seat: Option<i32>,
    /// Why a game law ended the game, as a director checks it against the rule text
    /// (issue 15 §2): the law, its citation, the ply, the side ruled against, the
    /// evidence. `null` while the game goes on and when no law ended it (resignation,
    /// agreement, time, a director's decision).
    pub ruling: Option<Ruling>,
    /// The game row's revision this view was built from (bumped by every change; the live
    /// hub's resync compares it, server/live/hub.rs). Not part of the API.
    #[serde(skip)]
    pub revision: i64,
}

impl GameView {
    /// About what this view weighs as JSON, a little more rather than less: the size of the
    /// buffer the API writes it into at once (a buffer grown from a small one copies the
    /// body again at each doubling; the move's answer is the server's most frequent body
    /// and grows with the game).
    pub fn expected_json_size(&self) -> usize {
        const FIXED: usize = 1024;
        const SEAT: usize = 512;
        // `{"ply":120,"turn_number":60,"seat":1,"canonical":"h2e2","display":"C2.5",
        // "check":false,"played_at":"2026-11-27T15:23:01.123456Z"},`: 124 bytes and the
        // notations.
        const MOVE: usize = 110;
        // A ruling's evidence (its repeated positions, the checks and chases).
        const RULING: usize = 4096;
        let moves: usize = self
            .moves
            .iter()
            .map(|m| MOVE + m.canonical.len() + m.display.as_ref().map_or(0, |d| d.len() * 2))
            .sum();
        let legal: usize = self.legal_moves.iter().map(|m| m.len() + 3).sum();
        let positions = self.position.len() + self.start_position.as_ref().map_or(0, String::len);
        FIXED
            + SEAT * self.seats.len()
            + moves
            + legal
            + positions
            + if self.ruling.is_some() { RULING } else { 0 }
    }

    /// The rules game this view shows, replayed from its moves and seat exits (the
    /// rules' one replay of a stored game), with its turns as row ranges.
    pub fn replay(&self) -> DomainResult<(AnyGame, Vec<std::ops::Range<usize>>)> {
        let broken =
            |e: String| DomainError::Internal(anyhow::anyhow!("game {} does not replay: {e}", self.id));
        let variant = rules_adapter::parse_variant(&self.variant)?;
        let start = rules_adapter::new_game(
            variant,
            &self.ruleset,
            self.handicap.as_deref(),
            self.start_position.as_deref(),
            self.seat_count as usize,
        )
        .map_err(|e| broken(e.to_string()))?;
        let rows: Vec<StoredMove<'_>> = self
            .moves
            .iter()
            .map(|m| StoredMove { turn_number: m.turn_number, seat: m.seat as usize, text: &m.canonical })
            .collect();
        let exits: Vec<SeatExit> = self
            .seats
            .iter()
            .filter_map(|s| {
                Some(SeatExit {
                    after_rows: s.exit_after_ply? as usize,
                    seat: s.seat as usize,
                    timed_out: s.status == "timed-out",
                })
            })
            .collect();
        let (game, _) = start.replay_stored(&rows, &exits, rows.len()).map_err(|e| broken(e.to_string()))?;
        Ok((game, StoredMove::turns(variant, &rows)))
    }

    /// The stored moves grouped by turn, as row ranges: a Flickering series or a handicap
    /// turn of several moves is one turn of several rows sharing its turn number.
    pub fn turn_rows(&self) -> Vec<std::ops::Range<usize>> {
        let mut turns: Vec<std::ops::Range<usize>> = Vec::new();
        for (i, m) in self.moves.iter().enumerate() {
            match turns.last_mut() {
                Some(turn) if self.moves[turn.start].turn_number == m.turn_number => turn.end = i + 1,
                _ => turns.push(i..i + 1),
            }
        }
        turns
    }

    /// The last turn among the first `rows` stored moves, canonical: one move, or a whole
    /// Flickering series (its moves joined by commas) — what the board marks as the last
    /// move.
    pub fn last_turn(&self, rows: usize) -> Option<String> {
        let shown = &self.moves[..rows.min(self.moves.len())];
        let last = shown.last()?;
        if self.variant != Variant::Flickering.name() {
            return Some(last.canonical.clone());
        }
        let turn = self.turn_rows().into_iter().rfind(|turn| turn.start < shown.len())?;
        let series: Vec<&str> = shown[turn.start..].iter().map(|m| m.canonical.as_str()).collect();
        Some(series.join(","))
    }
}

/// What a move would do (dry run).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct MoveCheck {
    /// Canonical notation.
    pub canonical: String,
    /// Display notation.
    pub display: String,
    /// Whether the move would end the game.
    pub ends_game: bool,
    /// `1-0`, `0-1`, `1/2-1/2` if it would end it.
    pub result: Option<String>,
    /// The reason, if it would end it.
    pub reason: Option<String>,
    /// A sentence for the player, e.g. "this move would lose by perpetual check".
    pub message: String,
}

/// The full state of a game (anyone may look).
///
/// # Errors
/// Unknown game (404).
pub async fn view(domain: &Domain, game_id: i64) -> DomainResult<GameView> {
    let mut tx = read_snapshot(domain).await?;
    let view = view_in(domain, &mut tx, game_id).await?;
    tx.commit().await?;
    Ok(view)
}

/// A read-only transaction whose statements all see one snapshot of the database
/// (REPEATABLE READ): a game row, its seats and its moves read in it agree with each
/// other even while a move commits between the statements (issue 24 item 2; in READ
/// COMMITTED each statement sees the commits made before it started).
pub(crate) async fn read_snapshot(domain: &Domain) -> DomainResult<Transaction<'static, Postgres>> {
    Ok(domain.pool.begin_with("begin isolation level repeatable read read only").await?)
}

pub(crate) async fn view_in(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
) -> DomainResult<GameView> {
    let row = load_game(tx, game_id).await?;
    let seats = load_seats(tx, game_id).await?;
    let state = rules_state(domain, tx, &row, &seats, false).await?;
    // Read in one snapshot (`view`) or under the row lock (`announce_and_commit`): the
    // rows a next move's fast path can start from.
    domain.games.keep_rows(&row, &seats, &state);
    let active = row.status == GameStatus::Active;
    let to_move = seats.iter().find(|s| s.seat == row.turn_seat).filter(|_| active);
    let deadline = match to_move {
        Some(seat) => {
            let leave = if seat.has_leave {
                counted_leave(tx, &row, seat.account_id, &domain.time_zone.zone()).await?
            } else {
                Vec::new()
            };
            let start = row.turn_started_at;
            Some(turn_deadline(domain.first_move, &row, seat, start, seat.remaining_ms, &leave))
        }
        None => None,
    };
    assemble(&row, &seats, &state, deadline)
}

/// The view of a game from its rows and its rules game.
pub(crate) fn assemble(
    row: &GameRow,
    seats: &[SeatRow],
    state: &RulesState,
    deadline: Option<OffsetDateTime>,
) -> DomainResult<GameView> {
    let variant = variant_of(row)?;
    let game = &state.game;
    let display = &state.display;
    let moves = &state.rows;
    let active = row.status == GameStatus::Active;
    let to_move = seats.iter().find(|s| s.seat == row.turn_seat).filter(|_| active);
    // Scores while the game goes on (Seven Kingdoms captures); the stored ones once over.
    let standings = if row.seat_count > 2 && active { game.standings_now() } else { Vec::new() };
    // A seat that ran out of time has nothing left, whatever its clock held when its turn
    // began (issue 37 §5: a flagged clock shows 0:00).
    let timed_out = !active
        && matches!(
            row.reason,
            Some(GameReason::Rules(EndReason::Timeout | EndReason::TimeoutInsufficientMaterial))
        );
    let remaining = |s: &SeatRow| {
        let ran_out = (timed_out && s.seat == row.turn_seat) || s.exit == Some(SeatLeave::Timeout);
        if ran_out {
            0
        } else {
            s.remaining_ms
        }
    };
    Ok(GameView {
        id: row.game_id,
        variant: row.variant.clone(),
        ruleset: row.ruleset.clone(),
        handicap: row.handicap.clone(),
        rated: row.rated,
        tournament_id: row.tournament_id,
        seat_count: row.seat_count,
        seats: seats
            .iter()
            .map(|s| {
                let now = standings.iter().find(|n| n.seat as i32 == s.seat);
                SeatView {
                    seat: s.seat,
                    color: game.seat_label(s.seat as usize),
                    status: match s.exit {
                        Some(SeatLeave::Resign) => "resigned",
                        Some(_) => "timed-out",
                        None if game.is_seat_out(s.seat as usize) => "out",
                        None => "playing",
                    },
                    score: s.score.or(now.map(|n| n.score as i32)).unwrap_or(0),
                    secondary_score: s.secondary_score.or(now.map(|n| n.secondary_score as i32)).unwrap_or(0),
                    place: s.place,
                    username: s.username.clone(),
                    remaining_seconds: remaining(s) / 1000,
                    remaining_ms: remaining(s),
                    outcome: s.outcome,
                    exit_after_ply: s.exit_after_ply,
                    rating_before: s.rating_before.map(|r| r.round() as i32),
                    rating_after: s.rating_after.map(|r| r.round() as i32),
                    deviation_before: s.deviation_before,
                }
            })
            .collect(),
        start_position: row.start_position.clone(),
        position: game.fen(),
        ply: row.current_ply,
        side_to_move: game.seat_label(game.seat_to_move()),
        to_move_seat: to_move.map(|s| s.seat),
        to_move: to_move.map(|s| s.username.clone()),
        moves: moves
            .iter()
            .enumerate()
            .map(|(i, m)| MoveView {
                ply: m.ply,
                turn_number: m.turn_number,
                seat: m.seat,
                canonical: m.notation.clone(),
                display: display.get(i).cloned(),
                check: game.gave_check(i),
                played_at: m.played_at,
            })
            .collect(),
        display_notation: variant.display_notation().name(),
        legal_moves: if active { game.legal_moves() } else { Vec::new() },
        time_control: row.time_control.0,
        vacation_allowed: row.vacation_allowed,
        vacation_days: row.vacation_days,
        deadline,
        awaits_first_move: to_move.is_some_and(|s| awaits_first_move(row, s)),
        in_check: active && game.is_check(),
        status: row.status,
        result: row.result.clone(),
        reason: row.reason,
        draw_offer_seat: row.draw_offer_seat,
        ruling: ruling_of(game, row),
        revision: row.revision,
    })
}

/// The rules' explanation of how the game ended (issue 15 §2), only where the stored
/// reason is its law (a director's decision is not explained by the rules). A game a claim
/// ended (the Shogi impasse count or declaration, the Flickering repetition) is stored as
/// its moves and the result: the claim is judged again on the final position, where it
/// was made, so that its ruling is shown like any other law's.
fn ruling_of(game: &AnyGame, row: &GameRow) -> Option<Ruling> {
    let stored_law = row.reason?.as_str();
    if let Some(ruling) = game.ruling() {
        return (ruling.law == stored_law).then_some(ruling);
    }
    // Only a game the claim would end by the stored law is copied to make the claim (a
    // resigned or timed-out game is not).
    let claim_is_the_law = row.status == GameStatus::Finished
        && game.judge_claim().is_ok_and(|outcome| outcome.reason().as_str() == stored_law);
    if !claim_is_the_law {
        return None;
    }
    let mut claimed = game.clone();
    claimed.claim().ok()?;
    claimed.ruling().filter(|r| r.law == stored_law)
}

/// Where a Flickering series being built can go next.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SeriesOptions {
    /// The moves of the series so far, canonical (coordinates).
    pub prefix: Vec<String>,
    /// The legal next moves (coordinates).
    pub next: Vec<String>,
    /// Whether the series may end here (at least one move, the king free of every threat:
    /// `flickering-chess.md` "The series").
    pub can_end: bool,
}

/// For a Flickering chess game: the legal next moves after the first moves `prefix` of the
/// series of the side to move (issue 8: "build it move by move and submit it").
///
/// # Errors
/// Unknown game (404), game over (409), not a series game or an illegal prefix (422).
pub async fn series_options(domain: &Domain, game_id: i64, prefix: &str) -> DomainResult<SeriesOptions> {
    let mut tx = read_snapshot(domain).await?;
    let row = load_game(&mut tx, game_id).await?;
    ensure_active(&row)?;
    let seats = load_seats(&mut tx, game_id).await?;
    let game = rules_state(domain, &mut tx, &row, &seats, false).await?.game;
    tx.commit().await?;
    let (next, can_end) = game.series_continuations(prefix).map_err(move_error)?;
    let prefix = prefix.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty());
    Ok(SeriesOptions { prefix: prefix.map(str::to_owned).collect(), next, can_end })
}

/// The game's view and its position after its first `ply` stored moves (whole turns:
/// within a Flickering series, the position before it; `None` or more than were played:
/// now), with the number of moves it shows, all read in one snapshot.
///
/// # Errors
/// Unknown game (404).
pub async fn position_at(
    domain: &Domain,
    game_id: i64,
    ply: Option<usize>,
) -> DomainResult<(GameView, String, usize)> {
    let mut tx = read_snapshot(domain).await?;
    let view = view_in(domain, &mut tx, game_id).await?;
    let asked = ply.map_or(view.moves.len(), |p| p.min(view.moves.len()));
    if asked == view.moves.len() {
        tx.commit().await?;
        let fen = view.position.clone();
        return Ok((view, fen, asked));
    }
    let row = load_game(&mut tx, game_id).await?;
    let seats = load_seats(&mut tx, game_id).await?;
    let moves = load_moves(&mut tx, game_id).await?;
    tx.commit().await?;
    // Off the async workers: a replay to any ply, a supplied start judged again.
    let (game, shown) = domain.rules_work.run(move || replay(&row, &moves, &seats, asked)).await??;
    let fen = game.fen();
    Ok((view, fen, shown))
}

/// The game's record in the variant's own record format (Flickering chess, the Seven
/// Kingdoms: seats leaving included), with tags naming the game and its players; `None`
/// for the variants whose records the web layer writes (PGN, KIF, CSA...).
///
/// # Errors
/// Unknown game (404).
pub async fn record_text(domain: &Domain, game_id: i64) -> DomainResult<Option<String>> {
    let mut tx = read_snapshot(domain).await?;
    let row = load_game(&mut tx, game_id).await?;
    let seats = load_seats(&mut tx, game_id).await?;
    let game = rules_state(domain, &mut tx, &row, &seats, false).await?.game;
    tx.commit().await?;
    let mut tags = vec![
        ("Event".to_owned(), format!("Tavoliere game {game_id}")),
        ("Site".to_owned(), "Tavoliere".to_owned()),
    ];
    for seat in &seats {
        let name = match (row.seat_count, seat.seat) {
            (2, 0) => "White".to_owned(),
            (2, _) => "Black".to_owned(),
            (_, n) => format!("Seat {n} ({})", game.seat_label(n as usize)),
        };
        tags.push((name, seat.username.clone()));
    }
    tags.push(("Result".to_owned(), row.result.as_ref().map_or_else(|| "*".to_owned(), |r| r.to_string())));
    if let Some(reason) = row.reason {
        tags.push(("Termination".to_owned(), reason.to_string()));
    }
    Ok(game.record_text(&tags))
}

/// What `text` would do in the game now, without storing anything. With `expected_ply`
/// (the web form's), a game that is no longer at that ply is refused first, as
/// [`submit_move`] refuses it (`move.stale-ply`): a text meant for an earlier position is
/// never judged on the new one (issue 37 §8).
///
/// # Errors
/// As [`submit_move`] for the game, the ply and the move; the turn is not checked.
pub async fn check_move(
    domain: &Domain,
    game_id: i64,
    account_id: i64,
    text: &str,
    expected_ply: Option<i32>,
) -> DomainResult<MoveCheck> {
    let mut tx = read_snapshot(domain).await?;
    let row = load_game(&mut tx, game_id).await?;
    let seats = load_seats(&mut tx, game_id).await?;
    seat_of(&seats, account_id)?;
    ensure_active(&row)?;
    if let Some(expected) = expected_ply.filter(|&p| p != row.current_ply) {
        return Err(DomainError::stale_ply(expected, row.current_ply));
    }
    let game = rules_state(domain, &mut tx, &row, &seats, false).await?.game;
    let mover = game.side_to_move();
    let dry = game.dry_run(text).map_err(move_error)?;
    tx.rollback().await?;
    let (message, result, reason) = match dry.outcome {
        None => ("this move is legal".to_owned(), None, None),
        Some(outcome) => {
            let reason = outcome.reason().as_str().replace('-', " ");
            let verdict = match outcome.winner() {
                Some(winner) if winner == mover => "win",
                Some(_) => "lose",
                None => "draw",
            };
            let message = if verdict == "draw" {
                format!("this move would draw by {reason}")
            } else {
                format!("this move would {verdict} by {reason}")
            };
            (message, Some(outcome.result_str().to_owned()), Some(outcome.reason().as_str().to_owned()))
        }
    };
    Ok(MoveCheck {
        canonical: dry.canonical,
        display: dry.display,
        ends_game: result.is_some(),
        result,
        reason,
        message,
    })
}

/// The active game other than `except` where `account_id` is to move, the nearest deadline
/// first: the page's "next game where it is your move" (issue 37 §9).
///
/// # Errors
/// Database failure.
pub async fn next_to_move(domain: &Domain, account_id: i64, except: i64) -> DomainResult<Option<i64>> {
    Ok(next_game_to_move(&domain.pool, account_id, except).await?)
}

/// A player's games, those where it is their turn first.
///
/// # Errors
/// Unknown player (404).
pub async fn list_for_player(
    domain: &Domain,
    username: &str,
    status: Option<GameStatus>,
) -> DomainResult<Vec<GameSummary>> {
    let account_id = crate::domain::accounts::account_id_by_username(&domain.pool, username).await?;
    Ok(games_of(&domain.pool, account_id, status).await?)
}
