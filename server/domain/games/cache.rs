//! The rules state of a game: the replay of its stored moves (the rules' one replay,
//! `AnyGame::replay_stored`) and the per-instance cache that spares it.

use super::*;

/// The stored moves as the rules replay them.
pub(crate) fn stored_moves(moves: &[MoveRow]) -> Vec<StoredMove<'_>> {
    moves
        .iter()
        .map(|m| StoredMove { turn_number: m.turn_number, seat: m.seat as usize, text: &m.notation })
        .collect()
}

/// Rebuilds the rules game from the stored canonical moves and the exits of seats that
/// left a game of more seats, up to the first `upto` rows (whole turns only): the rules'
/// one replay of a stored game ([`AnyGame::replay_stored`]). Returns the game and the
/// rows it played.
pub(crate) fn replay(
    row: &GameRow,
    moves: &[MoveRow],
    seats: &[SeatRow],
    upto: usize,
) -> DomainResult<(AnyGame, usize)> {
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
    pub(crate) ply: i32,
    pub(crate) exits: usize,
    pub(crate) game: AnyGame,
    pub(crate) display: Vec<String>,
    /// The stored moves it was built from (moves are never changed once stored, so a
    /// state at the current ply spares reading them again).
    pub(crate) rows: Vec<MoveRow>,
    /// The game and seat rows as this instance wrote them with the last move, for the
    /// next move's fast path ([`submit_move`]); `None` when they may be out of date.
    pub(crate) snapshot: Option<Snapshot>,
}

/// A game's rows as stored at their revision.
#[derive(Clone, Debug)]
pub(crate) struct Snapshot {
    pub(crate) row: GameRow,
    pub(crate) seats: Vec<SeatRow>,
}

impl RulesState {
    pub(crate) fn rebuild(row: &GameRow, moves: Vec<MoveRow>, seats: &[SeatRow]) -> DomainResult<RulesState> {
        let (game, _) = replay(row, &moves, seats, moves.len())?;
        let display =
            game.display_rows(Notation::Auto, &StoredMove::turns(variant_of(row)?, &stored_moves(&moves)));
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
    pub(crate) fn play(&mut self, text: &str) -> DomainResult<PlayedMove> {
        let played = self.game.play(text).map_err(move_error)?;
        self.ply += played.parts.len() as i32;
        self.display.extend(split_series_display(&played.display, played.parts.len()));
        Ok(played)
    }
}

pub(crate) fn exits_of(seats: &[SeatRow]) -> usize {
    seats.iter().filter(|s| s.exit.is_some()).count()
}

/// How many games the cache keeps before it starts over (a bound on its memory).
pub(crate) const GAME_CACHE_CAPACITY: usize = 4096;

/// The rules games of recently played games, so that a move does not replay the whole
/// game. An entry is only used when its ply equals the ply just read from the database
/// (under the row lock when moving), so several server instances on one database stay
/// correct: a stale entry is simply rebuilt from the stored moves.
#[derive(Debug, Default)]
pub struct GameCache {
    pub(crate) entries: std::sync::Mutex<std::collections::HashMap<i64, RulesState>>,
}

impl GameCache {
    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<i64, RulesState>> {
        // A panic while holding the lock leaves only a map of copies behind: go on with it.
        self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Takes the entry of `game_id` out if it is at `ply` with `exits` seat exits.
    pub(crate) fn take(&self, game_id: i64, ply: i32, exits: usize) -> Option<RulesState> {
        let mut entries = self.lock();
        match entries.get(&game_id) {
            Some(state) if (state.ply, state.exits) == (ply, exits) => entries.remove(&game_id),
            _ => None,
        }
    }

    /// Takes the entry of `game_id` out if it holds the game's rows (whatever its ply: the
    /// fast path's statement checks the revision).
    pub(crate) fn take_with_snapshot(&self, game_id: i64) -> Option<RulesState> {
        let mut entries = self.lock();
        match entries.get(&game_id) {
            Some(state) if state.snapshot.is_some() => entries.remove(&game_id),
            _ => None,
        }
    }

    /// A copy of the entry of `game_id` if it is at `ply` with `exits` seat exits.
    pub(crate) fn copy(&self, game_id: i64, ply: i32, exits: usize) -> Option<RulesState> {
        self.lock().get(&game_id).filter(|state| (state.ply, state.exits) == (ply, exits)).cloned()
    }

    /// Keeps `state` for `game_id` unless a later one is kept already.
    pub(crate) fn put(&self, game_id: i64, state: RulesState) {
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
pub(crate) async fn rules_state(
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
