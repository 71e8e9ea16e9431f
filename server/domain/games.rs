//! Games: the one move-submission function, the other game actions (resign, draw, abort),
//! the game view and the list of a player's games.

use serde::Serialize;
use sqlx::types::Json;
use sqlx::{Postgres, Transaction};
use tavoliere_rules::EndReason;
use time::OffsetDateTime;

use super::error::{DomainError, DomainResult, ErrorKind};
use tavoliere_rules::variant::{
    split_series_display, AnyGame, Notation, PlayedMove, SeatExit, SeatResult, StoredMove,
};

use super::rules_adapter::{self, move_error, Variant};
use super::time_control::{self, TimeControl};
use super::vacation;
use super::Domain;
use crate::storage::notify;

/// A game row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GameRow {
    game_id: i64,
    variant: String,
    ruleset: String,
    handicap: Option<String>,
    start_position: Option<String>,
    seat_count: i32,
    status: String,
    result: Option<String>,
    reason: Option<String>,
    current_ply: i32,
    turn_seat: i32,
    time_control: Json<TimeControl>,
    vacation_allowed: bool,
    turn_started_at: OffsetDateTime,
    draw_offer_seat: Option<i32>,
    tournament_id: Option<i64>,
    /// Bumped by every change of the row (migration 000800): see [`submit_move`].
    revision: i64,
}

const GAME_COLUMNS: &str = r#"game_id, variant, ruleset, handicap, start_position, seat_count, status,
    result, reason, current_ply, turn_seat, time_control, vacation_allowed, turn_started_at,
    draw_offer_seat, tournament_id, revision"#;

/// A seat row joined with its account.
#[derive(Debug, Clone, sqlx::FromRow, serde::Deserialize)]
struct SeatRow {
    seat: i32,
    account_id: i64,
    username: String,
    remaining_ms: i64,
    moves_made: i32,
    outcome: Option<String>,
    /// `resign` or `timeout` when the seat left a game of more than two seats that went on.
    exit: Option<String>,
    exit_after_ply: Option<i32>,
    place: Option<i32>,
    score: Option<i32>,
    secondary_score: Option<i32>,
    /// Whether the account has leave that ends after the current turn began: only then is
    /// the leave itself read (most moves need no vacation query).
    has_leave: bool,
}

impl SeatRow {
    /// The seat's exit as the rules replay it: after how many stored moves, and whether on
    /// time.
    fn exit_event(&self) -> Option<(i32, bool)> {
        Some((self.exit_after_ply?, self.exit.as_deref()? == "timeout"))
    }
}

/// A stored move.
#[derive(Debug, Clone, sqlx::FromRow)]
struct MoveRow {
    ply: i32,
    turn_number: i32,
    seat: i32,
    notation: String,
    played_at: OffsetDateTime,
}

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
    pub outcome: Option<String>,
    /// After how many stored moves the seat left (resigned or timed out) a game that went
    /// on. Not part of the API (the replay of a view needs it).
    #[serde(skip)]
    pub exit_after_ply: Option<i32>,
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
    /// When the side to move runs out of time (leave included).
    #[serde(with = "time::serde::rfc3339::option")]
    pub deadline: Option<OffsetDateTime>,
    /// `active`, `finished` or `aborted`.
    pub status: String,
    /// `1-0`, `0-1`, `1/2-1/2` once finished; in games of more than two seats the places
    /// in seat order, e.g. `2-1-3` (seat 1 won, seat 0 second).
    pub result: Option<String>,
    /// Why it ended (kebab-case).
    pub reason: Option<String>,
    /// Seat that offers a draw, if any.
    pub draw_offer_seat: Option<i32>,
    /// The game row's revision this view was built from (bumped by every change; the live
    /// hub's resync compares it, server/live/hub.rs). Not part of the API.
    #[serde(skip)]
    pub revision: i64,
}

impl GameView {
    /// The rules game this view shows, replayed from its moves and seat exits (the
    /// rules' one replay of a stored game), with its turns as row ranges.
    pub fn replay(&self) -> DomainResult<(AnyGame, Vec<std::ops::Range<usize>>)> {
        let broken = |e: String| DomainError::Internal(anyhow::anyhow!("game {} does not replay: {e}", self.id));
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

/// A game in a player's list.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct GameSummary {
    /// Game id.
    pub id: i64,
    /// Variant.
    pub variant: String,
    /// Status.
    pub status: String,
    /// Moves played.
    pub ply: i32,
    /// Whether it is the listed player's turn.
    pub your_turn: bool,
    /// Usernames in seat order.
    pub players: Vec<String>,
    /// Result once over.
    pub result: Option<String>,
    /// Current deadline.
    #[serde(with = "time::serde::rfc3339::option")]
    pub deadline: Option<OffsetDateTime>,
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

fn variant_of(row: &GameRow) -> DomainResult<Variant> {
    row.variant
        .parse()
        .map_err(|e: tavoliere_rules::variant::UnknownVariant| DomainError::Internal(anyhow::anyhow!(e)))
}

/// The seat columns ([`SeatRow`]) of game `g`'s seats `s`.
const SEAT_COLUMNS: &str = r#"s.seat, s.account_id, a.username, s.remaining_ms, s.moves_made,
    s.outcome, s.exit, s.exit_after_ply, s.place, s.score, s.secondary_score,
    exists(select 1 from vacation v
           where v.account_id = s.account_id and v.ends_at > g.turn_started_at) as has_leave"#;

async fn load_seats(tx: &mut Transaction<'_, Postgres>, game_id: i64) -> DomainResult<Vec<SeatRow>> {
    Ok(sqlx::query_as::<_, SeatRow>(&format!(
        r#"select {SEAT_COLUMNS}
           from game_seat s join account a on a.account_id = s.account_id
               join game g on g.game_id = s.game_id
           where s.game_id = $1 order by s.seat"#
    ))
    .bind(game_id)
    .fetch_all(&mut **tx)
    .await?)
}

/// A game row locked for update, with its seats.
#[derive(sqlx::FromRow)]
struct LockedGame {
    #[sqlx(flatten)]
    row: GameRow,
    seats: Json<Vec<SeatRow>>,
}

/// Locks the game row and reads its seats in one round trip (the start of every move).
async fn lock_game_with_seats(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
) -> DomainResult<(GameRow, Vec<SeatRow>)> {
    let locked = sqlx::query_as::<_, LockedGame>(&format!(
        r#"select {GAME_COLUMNS},
               (select coalesce(json_agg(seat_row order by seat_row.seat), '[]'::json)
                from (select {SEAT_COLUMNS}
                      from game_seat s join account a on a.account_id = s.account_id
                      where s.game_id = g.game_id) as seat_row) as seats
           from game g where g.game_id = $1 for update of g"#
    ))
    .bind(game_id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| DomainError::NotFound(format!("no game {game_id}")))?;
    Ok((locked.row, locked.seats.0))
}

async fn load_moves(tx: &mut Transaction<'_, Postgres>, game_id: i64) -> DomainResult<Vec<MoveRow>> {
    Ok(sqlx::query_as::<_, MoveRow>(
        r#"select ply, turn_number, seat, notation, played_at from move
           where game_id = $1 order by ply"#,
    )
    .bind(game_id)
    .fetch_all(&mut **tx)
    .await?)
}

/// The stored moves as the rules replay them.
fn stored_moves(moves: &[MoveRow]) -> Vec<StoredMove<'_>> {
    moves.iter().map(|m| StoredMove { turn_number: m.turn_number, seat: m.seat as usize, text: &m.notation }).collect()
}

/// Rebuilds the rules game from the stored canonical moves and the exits of seats that
/// left a game of more seats, up to the first `upto` rows (whole turns only): the rules'
/// one replay of a stored game ([`AnyGame::replay_stored`]). Returns the game and the
/// rows it played.
fn replay(row: &GameRow, moves: &[MoveRow], seats: &[SeatRow], upto: usize) -> DomainResult<(AnyGame, usize)> {
    let corrupt = |detail: String| DomainError::Internal(anyhow::anyhow!("game {}: {detail}", row.game_id));
    let start = rules_adapter::new_game(
        variant_of(row)?,
        &row.ruleset,
        row.handicap.as_deref(),
        row.start_position.as_deref(),
        row.seat_count as usize,
    )
    .map_err(|e| corrupt(e.to_string()))?;
    let rows = stored_moves(moves);
    let exits: Vec<SeatExit> = seats
        .iter()
        .filter_map(|s| {
            let (after, timed_out) = s.exit_event()?;
            Some(SeatExit { after_rows: after as usize, seat: s.seat as usize, timed_out })
        })
        .collect();
    start.replay_stored(&rows, &exits, upto).map_err(|e| corrupt(e.to_string()))
}

/// A game as the rules see it after its first `ply` stored moves and `exits` seat exits,
/// with those moves in the display notation (one per stored row).
#[derive(Clone, Debug)]
pub struct RulesState {
    ply: i32,
    exits: usize,
    game: AnyGame,
    display: Vec<String>,
    /// The stored moves it was built from (moves are never changed once stored, so a
    /// state at the current ply spares reading them again).
    rows: Vec<MoveRow>,
    /// The game and seat rows as this instance wrote them with the last move, for the
    /// next move's fast path ([`submit_move`]); `None` when they may be out of date.
    snapshot: Option<Snapshot>,
}

/// A game's rows as stored at their revision.
#[derive(Clone, Debug)]
struct Snapshot {
    row: GameRow,
    seats: Vec<SeatRow>,
}

impl RulesState {
    fn rebuild(row: &GameRow, moves: Vec<MoveRow>, seats: &[SeatRow]) -> DomainResult<RulesState> {
        let (game, _) = replay(row, &moves, seats, moves.len())?;
        let display = game.display_rows(Notation::Auto, &StoredMove::turns(variant_of(row)?, &stored_moves(&moves)));
        Ok(RulesState {
            ply: moves.len() as i32,
            exits: exits_of(seats),
            game,
            display,
            rows: moves,
            snapshot: None,
        })
    }

    /// Plays `text`; the game is unchanged when the rules refuse it.
    fn play(&mut self, text: &str) -> DomainResult<PlayedMove> {
        let played = self.game.play(text).map_err(move_error)?;
        self.ply += played.parts.len() as i32;
        self.display.extend(split_series_display(&played.display, played.parts.len()));
        Ok(played)
    }
}

fn exits_of(seats: &[SeatRow]) -> usize {
    seats.iter().filter(|s| s.exit.is_some()).count()
}

/// How many games the cache keeps before it starts over (a bound on its memory).
const GAME_CACHE_CAPACITY: usize = 4096;

/// The rules games of recently played games, so that a move does not replay the whole
/// game. An entry is only used when its ply equals the ply just read from the database
/// (under the row lock when moving), so several server instances on one database stay
/// correct: a stale entry is simply rebuilt from the stored moves.
#[derive(Debug, Default)]
pub struct GameCache {
    entries: std::sync::Mutex<std::collections::HashMap<i64, RulesState>>,
}

impl GameCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<i64, RulesState>> {
        // A panic while holding the lock leaves only a map of copies behind: go on with it.
        self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Takes the entry of `game_id` out if it is at `ply` with `exits` seat exits.
    fn take(&self, game_id: i64, ply: i32, exits: usize) -> Option<RulesState> {
        let mut entries = self.lock();
        match entries.get(&game_id) {
            Some(state) if (state.ply, state.exits) == (ply, exits) => entries.remove(&game_id),
            _ => None,
        }
    }

    /// Takes the entry of `game_id` out if it holds the game's rows (whatever its ply: the
    /// fast path's statement checks the revision).
    fn take_with_snapshot(&self, game_id: i64) -> Option<RulesState> {
        let mut entries = self.lock();
        match entries.get(&game_id) {
            Some(state) if state.snapshot.is_some() => entries.remove(&game_id),
            _ => None,
        }
    }

    /// A copy of the entry of `game_id` if it is at `ply` with `exits` seat exits.
    fn copy(&self, game_id: i64, ply: i32, exits: usize) -> Option<RulesState> {
        self.lock().get(&game_id).filter(|state| (state.ply, state.exits) == (ply, exits)).cloned()
    }

    /// Keeps `state` for `game_id` unless a later one is kept already.
    fn put(&self, game_id: i64, state: RulesState) {
        let mut entries = self.lock();
        if entries.get(&game_id).is_some_and(|kept| (kept.ply, kept.exits) > (state.ply, state.exits)) {
            return;
        }
        if entries.len() >= GAME_CACHE_CAPACITY && !entries.contains_key(&game_id) {
            entries.clear();
        }
        entries.insert(game_id, state);
    }
}

/// The rules state of a game at its stored moves: from the cache when it is current (no
/// read of the moves then), otherwise read and replayed. `take` removes the cache entry
/// (the caller will play on it).
async fn rules_state(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    row: &GameRow,
    seats: &[SeatRow],
    take: bool,
) -> DomainResult<RulesState> {
    let ply = row.current_ply;
    let exits = exits_of(seats);
    let cached = if take {
        domain.games.take(row.game_id, ply, exits)
    } else {
        domain.games.copy(row.game_id, ply, exits)
    };
    if let Some(state) = cached {
        return Ok(state);
    }
    let moves = load_moves(tx, row.game_id).await?;
    if moves.len() as i32 != ply {
        return Err(DomainError::Internal(anyhow::anyhow!(
            "game {}: {} stored moves at ply {ply}",
            row.game_id,
            moves.len()
        )));
    }
    let state = RulesState::rebuild(row, moves, seats)?;
    if !take {
        domain.games.put(row.game_id, state.clone());
    }
    Ok(state)
}

/// The seat `account_id` holds in the game, or why it may not act.
fn seat_of(seats: &[SeatRow], account_id: i64) -> DomainResult<&SeatRow> {
    seats
        .iter()
        .find(|s| s.account_id == account_id)
        .ok_or_else(|| DomainError::Forbidden("you do not play in this game".to_owned()))
}

/// What every player action starts with: a transaction holding the game row locked, the
/// seats, and the caller's seat, in an active game.
struct PlayerAction {
    tx: Transaction<'static, Postgres>,
    row: GameRow,
    seats: Vec<SeatRow>,
    mine: SeatRow,
}

/// Begins a player action on `game_id`.
///
/// # Errors
/// Unknown game (404), not a player (403), game over (409).
async fn begin_player_action(domain: &Domain, game_id: i64, account_id: i64) -> DomainResult<PlayerAction> {
    let mut tx = domain.pool.begin().await?;
    let (row, seats) = lock_game_with_seats(&mut tx, game_id).await?;
    let mine = seat_of(&seats, account_id)?.clone();
    ensure_active(&row)?;
    Ok(PlayerAction { tx, row, seats, mine })
}

fn ensure_active(row: &GameRow) -> DomainResult<()> {
    if row.status == "active" {
        Ok(())
    } else {
        Err(DomainError::coded(
            ErrorKind::Conflict,
            "game-over",
            format!("The game is over ({}).", row.status),
        ))
    }
}

/// Leave periods of the seat's account that count in this game.
async fn counted_leave(
    tx: &mut Transaction<'_, Postgres>,
    row: &GameRow,
    account_id: i64,
) -> DomainResult<Vec<time_control::Period>> {
    if row.vacation_allowed {
        vacation::periods_after(tx, account_id, row.turn_started_at).await
    } else {
        Ok(Vec::new())
    }
}

/// One seat's end of the game.
#[derive(Clone, Debug, PartialEq)]
struct SeatEnd {
    seat: i32,
    outcome: &'static str,
    points: f64,
    place: i32,
    score: i32,
    secondary_score: i32,
}

/// How a game ends: the result, the reason and every seat's part.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Ending {
    result: String,
    reason: String,
    seats: Vec<SeatEnd>,
}

impl Ending {
    /// The end the rules reached (every variant, any number of seats).
    fn from_game(game: &AnyGame) -> Option<Ending> {
        let standings = game.seat_results()?;
        let reason = game.end_reason()?.to_owned();
        let mut seats: Vec<SeatEnd> = standings
            .iter()
            .map(|s| {
                let (outcome, points) = match s.result {
                    SeatResult::Win => ("win", 1.0),
                    SeatResult::Draw => ("draw", 0.5),
                    SeatResult::Loss => ("loss", 0.0),
                };
                SeatEnd {
                    seat: s.seat as i32,
                    outcome,
                    points,
                    place: s.place as i32,
                    score: s.score as i32,
                    secondary_score: s.secondary_score as i32,
                }
            })
            .collect();
        seats.sort_by_key(|s| s.seat);
        let result = if seats.len() == 2 {
            two_seat_result(seats.iter().find(|s| s.outcome == "win").map(|s| s.seat))
        } else {
            seats.iter().map(|s| s.place.to_string()).collect::<Vec<_>>().join("-")
        };
        Some(Ending { result, reason, seats })
    }

    /// A two-seat game won by `winner_seat` (`None`: drawn) for `reason`.
    pub(crate) fn two_seat(winner_seat: Option<i32>, reason: EndReason) -> Ending {
        let seat = |seat: i32| {
            let (outcome, points, place) = match winner_seat {
                None => ("draw", 0.5, 1),
                Some(w) if w == seat => ("win", 1.0, 1),
                Some(_) => ("loss", 0.0, 2),
            };
            SeatEnd { seat, outcome, points, place, score: 0, secondary_score: 0 }
        };
        Ending {
            result: two_seat_result(winner_seat),
            reason: reason.as_str().to_owned(),
            seats: vec![seat(0), seat(1)],
        }
    }

    /// A two-seat game both players lost by forfeit (a director's double forfeit:
    /// `0-0`, nobody scores).
    pub(crate) fn double_forfeit() -> Ending {
        let seat = |seat: i32| SeatEnd {
            seat,
            outcome: "loss",
            points: 0.0,
            place: 2,
            score: 0,
            secondary_score: 0,
        };
        Ending {
            result: "0-0".to_owned(),
            reason: EndReason::Forfeit.as_str().to_owned(),
            seats: vec![seat(0), seat(1)],
        }
    }

    fn of_seat(&self, seat: i32) -> Option<&SeatEnd> {
        self.seats.iter().find(|s| s.seat == seat)
    }
}

fn two_seat_result(winner_seat: Option<i32>) -> String {
    match winner_seat {
        Some(0) => "1-0",
        Some(_) => "0-1",
        None => "1/2-1/2",
    }
    .to_owned()
}

/// Ends an active game with `ending` at `now`: THE function through which a game ends
/// with a result (the rules, a resignation, a draw agreed, the clock, a director's
/// decision). Returns whether it ended (`false`: it was over already). The caller
/// commits and then [`announce`]s the change.
pub(crate) async fn finish(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    ending: &Ending,
    now: OffsetDateTime,
) -> DomainResult<bool> {
    let ended = sqlx::query(
        r#"update game set status = 'finished', result = $2, reason = $3, deadline = null,
               draw_offer_seat = null, finished_at = $4
           where game_id = $1 and status = 'active'"#,
    )
    .bind(game_id)
    .bind(&ending.result)
    .bind(&ending.reason)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    if ended.rows_affected() == 0 {
        return Ok(false);
    }
    let seats: Vec<i32> = ending.seats.iter().map(|s| s.seat).collect();
    let outcomes: Vec<&str> = ending.seats.iter().map(|s| s.outcome).collect();
    let points: Vec<f64> = ending.seats.iter().map(|s| s.points).collect();
    let places: Vec<i32> = ending.seats.iter().map(|s| s.place).collect();
    let scores: Vec<i32> = ending.seats.iter().map(|s| s.score).collect();
    let secondary: Vec<i32> = ending.seats.iter().map(|s| s.secondary_score).collect();
    sqlx::query(
        r#"update game_seat s set outcome = e.outcome, points = e.points, place = e.place,
               score = e.score, secondary_score = e.secondary_score
           from unnest($2::int[], $3::text[], $4::float8[], $5::int[], $6::int[], $7::int[])
               as e(seat, outcome, points, place, score, secondary_score)
           where s.game_id = $1 and s.seat = e.seat"#,
    )
    .bind(game_id)
    .bind(&seats)
    .bind(&outcomes)
    .bind(&points)
    .bind(&places)
    .bind(&scores)
    .bind(&secondary)
    .execute(&mut **tx)
    .await?;
    Ok(true)
}

/// Stops an active game without a result at `now` (`reason`: `aborted` by a player,
/// `annulled` by a director). Returns whether it stopped (`false`: it was over already).
pub(crate) async fn stop(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    reason: &str,
    now: OffsetDateTime,
) -> DomainResult<bool> {
    let stopped = sqlx::query(
        r#"update game set status = 'aborted', reason = $2, deadline = null,
               draw_offer_seat = null, finished_at = $3
           where game_id = $1 and status = 'active'"#,
    )
    .bind(game_id)
    .bind(reason)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(stopped.rows_affected() > 0)
}

/// Submits a move: the ONE function through which every transport plays a move.
///
/// The move is checked against the game as stored: the expected ply, the turn, the
/// clock, then the rules. It is stored with the mover's clock, the new turn and, when
/// the rules end the game, the result, all in one transaction, committed before this
/// returns `Ok`; on any error nothing is stored. Concurrent submissions for one ply are
/// serialised by the game row: the later ones see the new ply and get a conflict.
///
/// Two ways to read "the game as stored", with the same outcome:
/// - the fast path ([`move_on_copy`]): the copy of the game this instance kept after the
///   last move it stored, written by one statement that succeeds only while the game row
///   is still at the revision of the copy (migration 000800 bumps it on every change);
/// - the locked path ([`move_under_lock`]): the game row locked and read with its seats.
///   It answers every case the copy cannot (no copy, another instance or action changed
///   the game, leave to count, a refusal to explain).
///
/// # Errors
/// Unknown game (404), not a player (403), game over / stale ply / not your turn / time
/// ran out (409), unreadable or illegal move (422).
#[tracing::instrument(skip(domain, text), fields(game.id = game_id))]
pub async fn submit_move(
    domain: &Domain,
    game_id: i64,
    account_id: i64,
    text: &str,
    expected_ply: i32,
) -> DomainResult<GameView> {
    if let Some(copy) = domain.games.take_with_snapshot(game_id) {
        if let Some(view) = move_on_copy(domain, copy, account_id, text, expected_ply).await? {
            return Ok(view);
        }
    }
    move_under_lock(domain, game_id, account_id, text, expected_ply).await
}

/// The fast path of [`submit_move`]: `Ok(None)` when the copy cannot decide (the locked
/// path then does, from the stored game).
async fn move_on_copy(
    domain: &Domain,
    mut state: RulesState,
    account_id: i64,
    text: &str,
    expected_ply: i32,
) -> DomainResult<Option<GameView>> {
    let Some(Snapshot { mut row, mut seats }) = state.snapshot.take() else {
        return Ok(None);
    };
    let game_id = row.game_id;
    let mover = seats.iter().find(|s| s.account_id == account_id && s.seat == row.turn_seat).cloned();
    // Leave to count needs the leave periods: the locked path reads them.
    let plain =
        row.status == "active" && row.current_ply == expected_ply && !seats.iter().any(|s| s.has_leave);
    let (true, Some(mine)) = (plain, mover) else {
        state.snapshot = Some(Snapshot { row, seats });
        domain.games.put(game_id, state);
        return Ok(None);
    };
    let now = domain.clock.now();
    let write = match plan_move(&row, &seats, &mine, &mut state, text, now, &[]) {
        Ok(write) => write,
        // A refusal is explained from the stored game (the copy may be behind it); the
        // copy is unchanged and stays usable.
        Err(_) => {
            state.snapshot = Some(Snapshot { row, seats });
            domain.games.put(game_id, state);
            return Ok(None);
        }
    };
    // Leave taken since the copy was made would change the clocks: the statement checks
    // there is none.
    let leave_guard: Vec<i64> =
        if row.vacation_allowed { seats.iter().map(|s| s.account_id).collect() } else { Vec::new() };
    let ending = write.game_over.then(|| Ending::from_game(&state.game)).flatten();
    let revision = match &ending {
        None => {
            let mut connection = domain.pool.acquire().await?;
            write_move(&mut connection, game_id, &write, row.revision, &leave_guard, row.turn_started_at)
                .await?
        }
        Some(ending) => {
            let mut tx = domain.pool.begin().await?;
            let revision =
                write_move(&mut tx, game_id, &write, row.revision, &leave_guard, row.turn_started_at).await?;
            if revision.is_some() {
                finish(&mut tx, game_id, ending, now).await?;
                tx.commit().await?;
            }
            revision
        }
    };
    // The game changed since the copy was made: the copy (already played on) is dropped.
    let Some(revision) = revision else { return Ok(None) };
    Ok(Some(after_move(domain, &mut row, &mut seats, state, &write, revision, ending.as_ref())?))
}

/// The locked path of [`submit_move`].
async fn move_under_lock(
    domain: &Domain,
    game_id: i64,
    account_id: i64,
    text: &str,
    expected_ply: i32,
) -> DomainResult<GameView> {
    let PlayerAction { mut tx, mut row, mut seats, mine } =
        begin_player_action(domain, game_id, account_id).await?;
    if expected_ply != row.current_ply {
        return Err(DomainError::stale_ply(expected_ply, row.current_ply));
    }
    if mine.seat != row.turn_seat {
        return Err(DomainError::not_your_turn());
    }
    let now = domain.clock.now();
    // One query for the leave of every seat (the mover's since its turn began, the next
    // seat's from now on).
    let leave = if row.vacation_allowed && seats.iter().any(|s| s.has_leave) {
        let accounts: Vec<i64> = seats.iter().map(|s| s.account_id).collect();
        vacation::periods_of(&mut tx, &accounts, row.turn_started_at).await?
    } else {
        Vec::new()
    };
    let mut state = rules_state(domain, &mut tx, &row, &seats, true).await?;
    let write = match plan_move(&row, &seats, &mine, &mut state, text, now, &leave) {
        Ok(write) => write,
        Err(refused) => {
            domain.games.put(game_id, state);
            return Err(refused);
        }
    };
    // Under the row lock the revision read is the stored one.
    let revision = write_move(&mut tx, game_id, &write, row.revision, &[], row.turn_started_at)
        .await?
        .ok_or_else(|| DomainError::Internal(anyhow::anyhow!("game {game_id} changed under its row lock")))?;
    let ending = write.game_over.then(|| Ending::from_game(&state.game)).flatten();
    if let Some(ending) = &ending {
        finish(&mut tx, game_id, ending, now).await?;
    }
    tx.commit().await?;
    after_move(domain, &mut row, &mut seats, state, &write, revision, ending.as_ref())
}

/// What a move writes, worked out from the game as read and the rules.
struct MoveWrite {
    /// The stored rows' plies (several for a Flickering series) and their notations.
    plies: Vec<i32>,
    parts: Vec<String>,
    turn_number: i32,
    mover: i32,
    /// The mover's clock after the move.
    remaining_ms: i64,
    next_seat: i32,
    deadline: OffsetDateTime,
    draw_offer: Option<i32>,
    position_key: i64,
    now: OffsetDateTime,
    game_over: bool,
}

/// Charges the mover's clock and plays `text` on `state`; the state is unchanged when
/// this fails (time ran out: 409; the rules refuse: 422). `leave` holds the seats' leave
/// periods that count (by account).
fn plan_move(
    row: &GameRow,
    seats: &[SeatRow],
    mine: &SeatRow,
    state: &mut RulesState,
    text: &str,
    now: OffsetDateTime,
    leave: &[(i64, time_control::Period)],
) -> DomainResult<MoveWrite> {
    let leave_of = |account: i64| -> Vec<time_control::Period> {
        leave.iter().filter(|(a, _)| *a == account).map(|(_, p)| *p).collect()
    };
    let charged = time_control::charged_time(row.turn_started_at, now, &leave_of(mine.account_id));
    let remaining_ms = mine.remaining_ms - charged.whole_milliseconds() as i64;
    if remaining_ms < 0 {
        return Err(DomainError::coded(
            ErrorKind::Conflict,
            "move.time-out",
            "Your time has run out: the game is lost on time.",
        ));
    }
    let played: PlayedMove = state.play(text)?;
    let game = &state.game;
    let variant = variant_of(row)?;
    let control = row.time_control.0;
    let moves_made = i64::from(mine.moves_made) + 1;
    let new_remaining = control.after_move(remaining_ms, moves_made);
    let first_ply = row.current_ply + 1;
    let ply = row.current_ply + played.parts.len() as i32;
    // A turn is one move, a whole Flickering series (its moves share the number), or the
    // several moves of a handicap turn (the same seat moving again). In the Seven
    // Kingdoms a seat commanding two kingdoms may move twice in a row: two turns.
    let turn_number = match state.rows.last() {
        Some(last) if last.seat == mine.seat && variant != Variant::SevenKingdoms => last.turn_number,
        Some(last) => last.turn_number + 1,
        None => 1,
    };
    let next_seat = game.seat_to_move() as i32;
    let next = seats.iter().find(|s| s.seat == next_seat).unwrap_or(mine);
    let next_remaining = if next.seat == mine.seat { new_remaining } else { next.remaining_ms };
    let deadline = time_control::deadline(now, time_control::ms(next_remaining), &leave_of(next.account_id));
    Ok(MoveWrite {
        plies: (first_ply..=ply).collect(),
        parts: played.parts,
        turn_number,
        mover: mine.seat,
        remaining_ms: new_remaining,
        next_seat,
        deadline,
        // A draw offer stands until the opponent moves (declining it by playing on).
        draw_offer: row.draw_offer_seat.filter(|s| *s == mine.seat),
        position_key: played.position_key as i64,
        now,
        game_over: played.game_over,
    })
}

/// Stores a move (every move of a series), the mover's clock and the game's turn in one
/// statement (announced after the commit: [`after_move`]), if the game row is still at `revision`, active, and
/// none of `leave_guard`'s accounts has leave ending after `turn_started_at`. Returns the
/// row's new revision, `None` (nothing written) when a condition failed. The primary key
/// (game_id, ply) backs up the revision: a second row for a ply is a 409. Every row of a
/// series carries the key of the position after it.
async fn write_move(
    connection: &mut sqlx::PgConnection,
    game_id: i64,
    write: &MoveWrite,
    revision: i64,
    leave_guard: &[i64],
    turn_started_at: OffsetDateTime,
) -> DomainResult<Option<i64>> {
    let ply = *write.plies.last().expect("a move stores at least one row");
    Ok(sqlx::query_scalar(
        r#"with turned as (
               update game set current_ply = $12, turn_seat = $9, turn_started_at = $7,
                   deadline = $10, draw_offer_seat = $11, revision = revision + 1
               where game_id = $1 and revision = $13 and status = 'active'
                   and not exists (select 1 from vacation v
                                   where v.account_id = any($14) and v.ends_at > $15)
               returning revision
           ), played as (
               insert into move (game_id, ply, turn_number, seat, notation, position_key, played_at)
               select $1, p.ply, $3, $4, p.notation, $6, $7
               from unnest($2::int[], $5::text[]) as p(ply, notation)
               where exists (select 1 from turned)
           ), charged as (
               update game_seat set remaining_ms = $8, moves_made = moves_made + 1
               where game_id = $1 and seat = $4 and exists (select 1 from turned)
           )
           select revision from turned"#,
    )
    .bind(game_id)
    .bind(&write.plies)
    .bind(write.turn_number)
    .bind(write.mover)
    .bind(&write.parts)
    .bind(write.position_key)
    .bind(write.now)
    .bind(write.remaining_ms)
    .bind(write.next_seat)
    .bind(write.deadline)
    .bind(write.draw_offer)
    .bind(ply)
    .bind(revision)
    .bind(leave_guard)
    .bind(turn_started_at)
    .fetch_optional(&mut *connection)
    .await?)
}

/// After a stored (committed) move: the announcement to the live sockets of every
/// instance (server/live), the rows as written, the view built from them (no second read
/// or replay), and the game kept for the next move (with its rows, for the fast path,
/// while it goes on).
fn after_move(
    domain: &Domain,
    row: &mut GameRow,
    seats: &mut [SeatRow],
    mut state: RulesState,
    write: &MoveWrite,
    revision: i64,
    ending: Option<&Ending>,
) -> DomainResult<GameView> {
    row.current_ply = *write.plies.last().expect("a move stores at least one row");
    row.turn_seat = write.next_seat;
    row.turn_started_at = write.now;
    row.draw_offer_seat = write.draw_offer;
    row.revision = revision;
    for seat in seats.iter_mut().filter(|s| s.seat == write.mover) {
        seat.remaining_ms = write.remaining_ms;
        seat.moves_made += 1;
    }
    for (ply, part) in write.plies.iter().zip(&write.parts) {
        state.rows.push(MoveRow {
            ply: *ply,
            turn_number: write.turn_number,
            seat: write.mover,
            notation: part.clone(),
            played_at: write.now,
        });
    }
    let mut deadline = Some(write.deadline);
    if let Some(ending) = ending {
        end_rows(row, seats, ending);
        deadline = None;
    }
    let view = assemble(row, seats, &state, deadline)?;
    state.snapshot = ending.is_none().then(|| Snapshot { row: row.clone(), seats: seats.to_vec() });
    domain.games.put(row.game_id, state);
    Ok(announce(domain, view))
}

/// The one announcement of a committed change of a game, whatever made it (a move, an
/// action, the clock, a director): its view goes to this instance's sockets at once
/// ([`super::LocalRooms`]), and the change to every instance just after
/// ([`notify::Announcer`]; they read it unless they have that revision).
pub(crate) fn announce(domain: &Domain, view: GameView) -> GameView {
    domain.rooms.publish(&view);
    domain.announcer.announce(notify::GameChanged {
        game_id: view.id,
        ply: view.ply,
        revision: view.revision,
    });
    view
}

/// The rows read before `finish`, as `finish` left them.
fn end_rows(row: &mut GameRow, seats: &mut [SeatRow], ending: &Ending) {
    row.status = "finished".to_owned();
    row.result = Some(ending.result.clone());
    row.reason = Some(ending.reason.clone());
    row.draw_offer_seat = None;
    for seat in seats.iter_mut() {
        if let Some(end) = ending.of_seat(seat.seat) {
            seat.outcome = Some(end.outcome.to_owned());
            seat.place = Some(end.place);
            seat.score = Some(end.score);
            seat.secondary_score = Some(end.secondary_score);
        }
    }
}

/// What `text` would do in the game now, without storing anything.
///
/// # Errors
/// As [`submit_move`] for the game and the move; the ply and turn are not checked.
pub async fn check_move(
    domain: &Domain,
    game_id: i64,
    account_id: i64,
    text: &str,
) -> DomainResult<MoveCheck> {
    let mut tx = read_snapshot(domain).await?;
    let row = load_game(&mut tx, game_id).await?;
    let seats = load_seats(&mut tx, game_id).await?;
    seat_of(&seats, account_id)?;
    ensure_active(&row)?;
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

async fn load_game(tx: &mut Transaction<'_, Postgres>, game_id: i64) -> DomainResult<GameRow> {
    sqlx::query_as::<_, GameRow>(&format!("select {GAME_COLUMNS} from game where game_id = $1"))
        .bind(game_id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no game {game_id}")))
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
async fn read_snapshot(domain: &Domain) -> DomainResult<Transaction<'static, Postgres>> {
    Ok(domain.pool.begin_with("begin isolation level repeatable read read only").await?)
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
    let (game, shown) = replay(&row, &moves, &seats, asked)?;
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
    tags.push(("Result".to_owned(), row.result.clone().unwrap_or_else(|| "*".to_owned())));
    if let Some(reason) = &row.reason {
        tags.push(("Termination".to_owned(), reason.clone()));
    }
    Ok(game.record_text(&tags))
}

/// Reads and [`announce`]s games changed by a committed transaction that did not build
/// their views (a director's decisions). A game that cannot be read is left to the
/// hub's resync.
pub(crate) async fn announce_stored(domain: &Domain, game_ids: &[i64]) {
    for &game_id in game_ids {
        match view(domain, game_id).await {
            Ok(view) => {
                announce(domain, view);
            }
            Err(error) => tracing::warn!(game.id = game_id, %error, "cannot announce a changed game"),
        }
    }
}

/// Reads the game's view as the change left it, commits and [`announce`]s it.
pub(crate) async fn announce_and_commit(
    domain: &Domain,
    mut tx: Transaction<'_, Postgres>,
    game_id: i64,
) -> DomainResult<GameView> {
    let view = view_in(domain, &mut tx, game_id).await?;
    tx.commit().await?;
    Ok(announce(domain, view))
}

async fn view_in(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
) -> DomainResult<GameView> {
    let row = load_game(tx, game_id).await?;
    let seats = load_seats(tx, game_id).await?;
    let state = rules_state(domain, tx, &row, &seats, false).await?;
    let active = row.status == "active";
    let to_move = seats.iter().find(|s| s.seat == row.turn_seat).filter(|_| active);
    let deadline = match to_move {
        Some(seat) => {
            let leave =
                if seat.has_leave { counted_leave(tx, &row, seat.account_id).await? } else { Vec::new() };
            Some(time_control::deadline(row.turn_started_at, time_control::ms(seat.remaining_ms), &leave))
        }
        None => None,
    };
    assemble(&row, &seats, &state, deadline)
}

/// The view of a game from its rows and its rules game.
fn assemble(
    row: &GameRow,
    seats: &[SeatRow],
    state: &RulesState,
    deadline: Option<OffsetDateTime>,
) -> DomainResult<GameView> {
    let variant = variant_of(row)?;
    let game = &state.game;
    let display = &state.display;
    let moves = &state.rows;
    let active = row.status == "active";
    let to_move = seats.iter().find(|s| s.seat == row.turn_seat).filter(|_| active);
    // Scores while the game goes on (Seven Kingdoms captures); the stored ones once over.
    let standings = if row.seat_count > 2 && active { game.standings_now() } else { Vec::new() };
    Ok(GameView {
        id: row.game_id,
        variant: row.variant.clone(),
        ruleset: row.ruleset.clone(),
        handicap: row.handicap.clone(),
        seat_count: row.seat_count,
        seats: seats
            .iter()
            .map(|s| {
                let now = standings.iter().find(|n| n.seat as i32 == s.seat);
                SeatView {
                    seat: s.seat,
                    color: game.seat_label(s.seat as usize),
                    status: match s.exit.as_deref() {
                        Some("resign") => "resigned",
                        Some(_) => "timed-out",
                        None if game.is_seat_out(s.seat as usize) => "out",
                        None => "playing",
                    },
                    score: s.score.or(now.map(|n| n.score as i32)).unwrap_or(0),
                    secondary_score: s.secondary_score.or(now.map(|n| n.secondary_score as i32)).unwrap_or(0),
                    place: s.place,
                    username: s.username.clone(),
                    remaining_seconds: s.remaining_ms / 1000,
                    remaining_ms: s.remaining_ms,
                    outcome: s.outcome.clone(),
                    exit_after_ply: s.exit_after_ply,
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
                played_at: m.played_at,
            })
            .collect(),
        display_notation: variant.display_notation().name(),
        legal_moves: if active { game.legal_moves() } else { Vec::new() },
        time_control: row.time_control.0,
        vacation_allowed: row.vacation_allowed,
        deadline,
        status: row.status.clone(),
        result: row.result.clone(),
        reason: row.reason.clone(),
        draw_offer_seat: row.draw_offer_seat,
        revision: row.revision,
    })
}

/// A player's games, those where it is their turn first.
///
/// # Errors
/// Unknown player (404), unknown status filter (422).
pub async fn list_for_player(
    domain: &Domain,
    username: &str,
    status: Option<&str>,
) -> DomainResult<Vec<GameSummary>> {
    if let Some(s) = status {
        if !["active", "finished", "aborted"].contains(&s) {
            return Err(DomainError::Invalid(format!(
                "unknown status {s:?} (known: active, finished, aborted)"
            )));
        }
    }
    let account_id = super::accounts::account_id_by_username(&domain.pool, username).await?;
    Ok(sqlx::query_as::<_, GameSummary>(
        r#"select g.game_id as id, g.variant, g.status, g.current_ply as ply,
                  (g.status = 'active' and g.turn_seat = mine.seat) as your_turn,
                  array(select a.username from game_seat s join account a using (account_id)
                        where s.game_id = g.game_id order by s.seat) as players,
                  g.result, g.deadline
           from game g join game_seat mine on mine.game_id = g.game_id and mine.account_id = $1
           where ($2::text is null or g.status = $2)
           order by your_turn desc, g.deadline asc nulls last, g.game_id desc
           limit 200"#,
    )
    .bind(account_id)
    .bind(status)
    .fetch_all(&domain.pool)
    .await?)
}

/// Resigns: the other side wins.
///
/// # Errors
/// Unknown game (404), not a player (403), game over (409).
pub async fn resign(domain: &Domain, game_id: i64, account_id: i64) -> DomainResult<GameView> {
    let PlayerAction { mut tx, row, seats, mine } = begin_player_action(domain, game_id, account_id).await?;
    let now = domain.clock.now();
    if row.seat_count > 2 {
        seat_exit(domain, &mut tx, &row, &seats, mine.seat, false, now).await?;
        return announce_and_commit(domain, tx, game_id).await;
    }
    let winner = seats.iter().map(|s| s.seat).find(|s| *s != mine.seat);
    finish(&mut tx, game_id, &Ending::two_seat(winner, EndReason::Resignation), now).await?;
    announce_and_commit(domain, tx, game_id).await
}

/// A seat leaves a game of more than two seats, by resignation or on time: its kingdoms
/// are defeated and leave the board, and the game goes on (`seven-kingdoms.md`; issue 9:
/// "a player who times out: their kingdoms are defeated and leave the board, the game goes
/// on") — unless that ends it. The exit is stored with the number of moves played, so a
/// replay applies it at the same point. When the seat was to move, the turn passes on at
/// `at` (for a timeout: the deadline that passed).
async fn seat_exit(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    row: &GameRow,
    seats: &[SeatRow],
    seat: i32,
    timed_out: bool,
    at: OffsetDateTime,
) -> DomainResult<()> {
    let game_id = row.game_id;
    // The cache entry stays as it is: its key (ply, exits) no longer matches once the
    // exit is stored.
    let mut game = rules_state(domain, tx, row, seats, false).await?.game;
    game.seat_leaves(seat as usize, timed_out)?;
    // The game row changes too (its revision), even when the turn does not pass: a copy
    // of the game made before the exit must not be played on (see `submit_move`).
    sqlx::query(
        r#"with gone as (
               update game_seat set exit = $3, exit_after_ply = $4, exited_at = $5,
                   remaining_ms = case when $3 = 'timeout' then 0 else remaining_ms end
               where game_id = $1 and seat = $2
               returning game_id
           )
           update game set revision = revision + 1 where game_id in (select game_id from gone)"#,
    )
    .bind(game_id)
    .bind(seat)
    .bind(if timed_out { "timeout" } else { "resign" })
    .bind(row.current_ply)
    .bind(at)
    .execute(&mut **tx)
    .await?;
    if let Some(ending) = game.is_over().then(|| Ending::from_game(&game)).flatten() {
        finish(tx, game_id, &ending, at).await?;
        return Ok(());
    }
    let next_seat = game.seat_to_move() as i32;
    if next_seat == row.turn_seat {
        return Ok(());
    }
    let Some(next) = seats.iter().find(|s| s.seat == next_seat) else {
        return Err(DomainError::Internal(anyhow::anyhow!("game {game_id}: no seat {next_seat}")));
    };
    let leave = if row.vacation_allowed {
        vacation::periods_after(tx, next.account_id, at).await?
    } else {
        Vec::new()
    };
    let deadline = time_control::deadline(at, time_control::ms(next.remaining_ms), &leave);
    sqlx::query(
        r#"update game set turn_seat = $2, turn_started_at = $3, deadline = $4, draw_offer_seat = null
           where game_id = $1"#,
    )
    .bind(game_id)
    .bind(next_seat)
    .bind(at)
    .bind(deadline)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Draw offers are between the two players of a two-seat game.
fn ensure_two_seats(row: &GameRow) -> DomainResult<()> {
    if row.seat_count == 2 {
        Ok(())
    } else {
        Err(DomainError::Invalid(
            "draws by agreement are for two-player games; this game ends by the rules".to_owned(),
        ))
    }
}

/// Offers a draw (stands until the opponent accepts, declines or moves).
///
/// # Errors
/// Unknown game (404), not a player (403), game over or an offer already made (409).
pub async fn offer_draw(domain: &Domain, game_id: i64, account_id: i64) -> DomainResult<GameView> {
    let PlayerAction { mut tx, row, mine, .. } = begin_player_action(domain, game_id, account_id).await?;
    ensure_two_seats(&row)?;
    let mine = mine.seat;
    match row.draw_offer_seat {
        Some(seat) if seat == mine => {
            return Err(DomainError::Conflict("you have already offered a draw".to_owned()))
        }
        Some(_) => {
            return Err(DomainError::Conflict("your opponent offers a draw: accept or decline it".to_owned()))
        }
        None => {}
    }
    sqlx::query(r#"update game set draw_offer_seat = $2 where game_id = $1"#)
        .bind(game_id)
        .bind(mine)
        .execute(&mut *tx)
        .await?;
    announce_and_commit(domain, tx, game_id).await
}

/// Accepts the opponent's draw offer: the game is drawn by agreement.
///
/// # Errors
/// Unknown game (404), not a player (403), game over or no offer to accept (409).
pub async fn accept_draw(domain: &Domain, game_id: i64, account_id: i64) -> DomainResult<GameView> {
    let PlayerAction { mut tx, row, mine, .. } = begin_player_action(domain, game_id, account_id).await?;
    let mine = mine.seat;
    ensure_two_seats(&row)?;
    if !matches!(row.draw_offer_seat, Some(seat) if seat != mine) {
        return Err(DomainError::Conflict("there is no draw offer to accept".to_owned()));
    }
    finish(&mut tx, game_id, &Ending::two_seat(None, EndReason::Agreement), domain.clock.now()).await?;
    announce_and_commit(domain, tx, game_id).await
}

/// Declines the opponent's draw offer.
///
/// # Errors
/// Unknown game (404), not a player (403), game over or no offer to decline (409).
pub async fn decline_draw(domain: &Domain, game_id: i64, account_id: i64) -> DomainResult<GameView> {
    let PlayerAction { mut tx, row, mine, .. } = begin_player_action(domain, game_id, account_id).await?;
    let mine = mine.seat;
    if !matches!(row.draw_offer_seat, Some(seat) if seat != mine) {
        return Err(DomainError::Conflict("there is no draw offer to decline".to_owned()));
    }
    sqlx::query(r#"update game set draw_offer_seat = null where game_id = $1"#)
        .bind(game_id)
        .execute(&mut *tx)
        .await?;
    announce_and_commit(domain, tx, game_id).await
}

/// Makes the claim the rules allow on the caller's turn (Shogi impasse declaration,
/// shogi.md "End of the game": a declaration that does not meet the conditions loses).
///
/// # Errors
/// Unknown game (404), not a player (403), game over or not your turn (409), no claim
/// available (422, with the rules' reason).
pub async fn claim(domain: &Domain, game_id: i64, account_id: i64) -> DomainResult<GameView> {
    let PlayerAction { mut tx, row, seats, mine } = begin_player_action(domain, game_id, account_id).await?;
    if mine.seat != row.turn_seat {
        return Err(DomainError::Conflict("a claim is made on your own turn".to_owned()));
    }
    let mut game = rules_state(domain, &mut tx, &row, &seats, false).await?.game;
    game.claim()?;
    let ending = Ending::from_game(&game)
        .ok_or_else(|| DomainError::Internal(anyhow::anyhow!("game {game_id}: a claim without an end")))?;
    finish(&mut tx, game_id, &ending, domain.clock.now()).await?;
    announce_and_commit(domain, tx, game_id).await
}

/// Aborts the game: only before every side has moved; no result.
///
/// # Errors
/// Unknown game (404), not a player (403), game over or every side has moved (409).
pub async fn abort(domain: &Domain, game_id: i64, account_id: i64) -> DomainResult<GameView> {
    let PlayerAction { mut tx, row, seats, .. } = begin_player_action(domain, game_id, account_id).await?;
    if row.tournament_id.is_some() {
        // A tournament game is scheduled by the director: it is played, resigned or
        // adjudicated, never aborted by a player (issue 7).
        return Err(DomainError::Conflict(
            "a tournament game cannot be aborted; ask the tournament director".to_owned(),
        ));
    }
    if seats.iter().all(|s| s.moves_made > 0) {
        return Err(DomainError::Conflict(
            "every side has moved: the game can no longer be aborted".to_owned(),
        ));
    }
    stop(&mut tx, game_id, EndReason::Aborted.as_str(), domain.clock.now()).await?;
    announce_and_commit(domain, tx, game_id).await
}

/// Creates a game (from an accepted challenge) inside the caller's transaction.
/// `accounts` are in seat order.
///
/// # Errors
/// The rules refuse the start position.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn create_in(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    variant: Variant,
    ruleset: &str,
    handicap: Option<&str>,
    start_position: Option<&str>,
    control: TimeControl,
    vacation_allowed: bool,
    accounts: &[i64],
) -> DomainResult<i64> {
    let game = rules_adapter::new_game(variant, ruleset, handicap, start_position, accounts.len())?;
    let now = domain.clock.now();
    let turn_seat = game.seat_to_move() as i32;
    let initial = control.initial_ms();
    let game_id: i64 = sqlx::query_scalar(
        r#"insert into game (variant, ruleset, handicap, start_position, seat_count, turn_seat,
               time_control, vacation_allowed, turn_started_at, deadline)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           returning game_id"#,
    )
    .bind(variant.name())
    .bind(ruleset)
    .bind(handicap)
    .bind(start_position)
    .bind(accounts.len() as i32)
    .bind(turn_seat)
    .bind(Json(control))
    .bind(vacation_allowed)
    .bind(now)
    .bind(now + time_control::ms(initial))
    .fetch_one(&mut **tx)
    .await?;
    for (seat, account_id) in accounts.iter().enumerate() {
        sqlx::query(
            r#"insert into game_seat (game_id, seat, account_id, remaining_ms)
               values ($1, $2, $3, $4)"#,
        )
        .bind(game_id)
        .bind(seat as i32)
        .bind(account_id)
        .bind(initial)
        .execute(&mut **tx)
        .await?;
    }
    Ok(game_id)
}

/// Recomputes the stored deadlines of the active games where `account_id` is to move
/// (after its leave changed).
///
/// # Errors
/// Database failure.
pub async fn refresh_deadlines(domain: &Domain, account_id: i64) -> DomainResult<()> {
    let ids: Vec<i64> = sqlx::query_scalar(
        r#"select g.game_id from game g
           join game_seat s on s.game_id = g.game_id and s.seat = g.turn_seat
           where g.status = 'active' and s.account_id = $1"#,
    )
    .bind(account_id)
    .fetch_all(&domain.pool)
    .await?;
    for game_id in ids {
        let mut tx = domain.pool.begin().await?;
        let (row, seats) = lock_game_with_seats(&mut tx, game_id).await?;
        if row.status == "active" {
            if let Some(seat) = seats.iter().find(|s| s.seat == row.turn_seat) {
                let leave = counted_leave(&mut tx, &row, seat.account_id).await?;
                let deadline =
                    time_control::deadline(row.turn_started_at, time_control::ms(seat.remaining_ms), &leave);
                sqlx::query(r#"update game set deadline = $2 where game_id = $1"#)
                    .bind(game_id)
                    .bind(deadline)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
    }
    Ok(())
}

/// Ends the game on time if its side to move has run out at `now` (leave included):
/// a loss, or a draw when the opponent cannot possibly win. In a game of more seats the
/// seat leaves instead and the next seat's clock starts at that deadline; after a long
/// downtime that one may have run out too, so seats leave until the seat to move has time
/// (one per seat at most). Returns whether anything changed.
///
/// # Errors
/// Database failure.
pub(crate) async fn expire_if_overdue(
    domain: &Domain,
    game_id: i64,
    now: OffsetDateTime,
) -> DomainResult<bool> {
    let mut changed = false;
    for _ in 0..7 {
        if !expire_turn(domain, game_id, now).await? {
            break;
        }
        changed = true;
    }
    Ok(changed)
}

/// One step of [`expire_if_overdue`]: the seat to move, if it has run out.
async fn expire_turn(domain: &Domain, game_id: i64, now: OffsetDateTime) -> DomainResult<bool> {
    let mut tx = domain.pool.begin().await?;
    let (row, seats) = lock_game_with_seats(&mut tx, game_id).await?;
    if row.status != "active" {
        return Ok(false);
    }
    let Some(seat) = seats.iter().find(|s| s.seat == row.turn_seat) else {
        return Ok(false);
    };
    let leave = counted_leave(&mut tx, &row, seat.account_id).await?;
    let deadline = time_control::deadline(row.turn_started_at, time_control::ms(seat.remaining_ms), &leave);
    if deadline > now {
        // Leave moved it: store the real deadline and look again then.
        sqlx::query(r#"update game set deadline = $2 where game_id = $1"#)
            .bind(game_id)
            .bind(deadline)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        return Ok(false);
    }
    if row.seat_count > 2 {
        // The seat leaves at its deadline; the game goes on without it.
        seat_exit(domain, &mut tx, &row, &seats, seat.seat, true, deadline).await?;
        announce_and_commit(domain, tx, game_id).await?;
        tracing::info!(game.id = game_id, seat = seat.seat, "seat timed out");
        return Ok(true);
    }
    let game = rules_state(domain, &mut tx, &row, &seats, false).await?.game;
    let winner = seats.iter().map(|s| s.seat).find(|s| *s != seat.seat);
    let opponent_can_win = winner.is_some_and(|w| game.can_possibly_win(w as usize));
    let ending = if opponent_can_win {
        Ending::two_seat(winner, EndReason::Timeout)
    } else {
        Ending::two_seat(None, EndReason::TimeoutInsufficientMaterial)
    };
    // The game ends at the deadline, not at the sweep.
    finish(&mut tx, game_id, &ending, deadline).await?;
    announce_and_commit(domain, tx, game_id).await?;
    tracing::info!(game.id = game_id, reason = %ending.reason, "game ended on time");
    Ok(true)
}
