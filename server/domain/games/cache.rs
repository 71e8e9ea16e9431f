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

/// How many games the cache keeps at most (a bound on its memory): enough for the 10,000
/// live games an instance is sized for (issue 21), each game a few kilobytes.
pub(crate) const GAME_CACHE_CAPACITY: usize = 16_384;

/// The rules games of recently played games, so that a move does not replay the whole
/// game. An entry is only used when its ply equals the ply just read from the database
/// (under the row lock when moving), so several server instances on one database stay
/// correct: a stale entry is simply rebuilt from the stored moves.
#[derive(Debug, Default)]
pub struct GameCache {
    pub(crate) entries: std::sync::Mutex<Generations>,
}

/// The cache's entries in two generations: new entries go into `recent`; when it holds
/// half the capacity, `older` is dropped and `recent` becomes `older`; an entry found in
/// `older` moves back to `recent`. So the games used in the last half-capacity insertions
/// always stay (about least-recently-used eviction, at O(1) per call), instead of the whole
/// cache being emptied when full (which, with more games than the capacity, left most
/// moves without their copy).
#[derive(Debug, Default)]
pub(crate) struct Generations {
    recent: std::collections::HashMap<i64, RulesState>,
    older: std::collections::HashMap<i64, RulesState>,
}

impl Generations {
    /// The entry of `game_id`, moved to the recent generation.
    pub(crate) fn get(&mut self, game_id: i64) -> Option<&RulesState> {
        if let Some(state) = self.older.remove(&game_id) {
            self.insert(game_id, state);
        }
        self.recent.get(&game_id)
    }

    pub(crate) fn remove(&mut self, game_id: i64) -> Option<RulesState> {
        self.recent.remove(&game_id).or_else(|| self.older.remove(&game_id))
    }

    /// Keeps `state` for `game_id` in the recent generation (replacing its entry).
    pub(crate) fn insert(&mut self, game_id: i64, state: RulesState) {
        self.older.remove(&game_id);
        if self.recent.len() >= GAME_CACHE_CAPACITY / 2 && !self.recent.contains_key(&game_id) {
            self.older = std::mem::take(&mut self.recent);
        }
        self.recent.insert(game_id, state);
    }

    /// Entries kept.
    pub(crate) fn len(&self) -> usize {
        self.recent.len() + self.older.len()
    }
}

impl GameCache {
    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Generations> {
        // A panic while holding the lock leaves only a map of copies behind: go on with it.
        self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Games kept (the `/metrics` gauge `tavoliere_game_cache_games`).
    pub fn kept_games(&self) -> usize {
        self.lock().len()
    }

    /// Takes the entry of `game_id` out if it is at `ply` with `exits` seat exits.
    pub(crate) fn take(&self, game_id: i64, ply: i32, exits: usize) -> Option<RulesState> {
        let mut entries = self.lock();
        match entries.get(game_id) {
            Some(state) if (state.ply, state.exits) == (ply, exits) => entries.remove(game_id),
            _ => None,
        }
    }

    /// Takes the entry of `game_id` out if it holds the game's rows (whatever its ply: the
    /// fast path's statement checks the revision).
    pub(crate) fn take_with_snapshot(&self, game_id: i64) -> Option<RulesState> {
        let mut entries = self.lock();
        match entries.get(game_id) {
            Some(state) if state.snapshot.is_some() => entries.remove(game_id),
            _ => None,
        }
    }

    /// A copy of the entry of `game_id` if it is at `ply` with `exits` seat exits.
    pub(crate) fn copy(&self, game_id: i64, ply: i32, exits: usize) -> Option<RulesState> {
        self.lock().get(game_id).filter(|state| (state.ply, state.exits) == (ply, exits)).cloned()
    }

    /// Keeps a copy of `state` with the game's rows `row` and `seats` (read together: in
    /// one snapshot, or under the row lock) for the next move's fast path, unless a copy
    /// as recent is kept already. A game read but not moved on by this instance (a new
    /// game, the first move after a restart, a move made on another instance) then gets
    /// its next move in one statement too; a copy that is out of date by then costs
    /// nothing but that statement, whose revision check refuses it.
    pub(crate) fn keep_rows(&self, row: &GameRow, seats: &[SeatRow], state: &RulesState) {
        if row.status != GameStatus::Active || (state.ply, state.exits) != (row.current_ply, exits_of(seats))
        {
            return;
        }
        let mut entries = self.lock();
        let recency = |kept: &RulesState| {
            (kept.ply, kept.exits, kept.snapshot.as_ref().map_or(i64::MIN, |s| s.row.revision))
        };
        let offered = (state.ply, state.exits, row.revision);
        if entries.get(row.game_id).is_some_and(|kept| recency(kept) >= offered) {
            return;
        }
        let mut kept = state.clone();
        kept.snapshot = Some(Snapshot { row: row.clone(), seats: seats.to_vec() });
        entries.insert(row.game_id, kept);
    }

    /// Keeps `state` for `game_id` unless a later one is kept already.
    pub(crate) fn put(&self, game_id: i64, state: RulesState) {
        let mut entries = self.lock();
        if entries.get(game_id).is_some_and(|kept| (kept.ply, kept.exits) > (state.ply, state.exits)) {
            return;
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
    let state = if row.start_position.is_some() {
        // A supplied start is judged again by the replay (a Flickering start's mate
        // search): off the async workers. From a standard start a replay stays here.
        let (row, seats) = (row.clone(), seats.to_vec());
        domain.rules_work.run(move || RulesState::rebuild(&row, moves, &seats)).await??
    } else {
        RulesState::rebuild(row, moves, seats)?
    };
    if !take {
        domain.games.put(row.game_id, state.clone());
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game_id: i64, ply: i32, revision: i64, status: GameStatus) -> GameRow {
        let now = OffsetDateTime::now_utc();
        GameRow {
            game_id,
            variant: "xiangqi".to_owned(),
            ruleset: "cxq".to_owned(),
            handicap: None,
            start_position: None,
            seat_count: 2,
            status,
            result: None,
            reason: None,
            current_ply: ply,
            turn_seat: 0,
            time_control: sqlx::types::Json(TimeControl::days_per_move(3)),
            vacation_allowed: true,
            turn_started_at: now,
            draw_offer_seat: None,
            tournament_id: None,
            revision,
            rated: false,
            created_at: now,
            vacation_days: None,
        }
    }

    fn seats() -> Vec<SeatRow> {
        (0..2)
            .map(|seat| SeatRow {
                seat,
                account_id: i64::from(seat) + 1,
                username: format!("player{seat}"),
                remaining_ms: 3 * 86_400_000,
                moves_made: 0,
                outcome: None,
                exit: None,
                exit_after_ply: None,
                place: None,
                score: None,
                secondary_score: None,
                has_leave: false,
                has_conditional: false,
                rating_before: None,
                rating_after: None,
                deviation_before: None,
            })
            .collect()
    }

    fn kept_revision(cache: &GameCache, game_id: i64) -> Option<i64> {
        cache.lock().get(game_id).and_then(|s| s.snapshot.as_ref().map(|s| s.row.revision))
    }

    #[test]
    fn a_full_cache_drops_the_games_least_recently_used_not_every_game() {
        let cache = GameCache::default();
        let seats = seats();
        let start = row(0, 0, 1, GameStatus::Active);
        let state = RulesState::rebuild(&start, Vec::new(), &seats).expect("the start");
        // Game 0 is used again after every thousand others; the others once each.
        for game_id in 1..=(GAME_CACHE_CAPACITY as i64 * 2) {
            if game_id % 1000 == 1 {
                cache.put(0, state.clone());
            }
            cache.put(game_id, state.clone());
            let kept = cache.lock().len();
            assert!(kept >= (game_id as usize).min(GAME_CACHE_CAPACITY / 2), "{kept} kept after {game_id}");
        }
        let mut entries = cache.lock();
        assert!(entries.len() <= GAME_CACHE_CAPACITY, "{} entries kept", entries.len());
        assert!(entries.get(0).is_some(), "the game in use stays");
        let last = GAME_CACHE_CAPACITY as i64 * 2;
        assert!(entries.get(last).is_some() && entries.get(last - 7000).is_some(), "the recent games stay");
        assert!(entries.get(1).is_none(), "the oldest unused game is gone");
    }

    #[test]
    fn a_read_game_keeps_its_rows_for_the_next_move_unless_a_newer_copy_is_kept() {
        let cache = GameCache::default();
        let seats = seats();
        let start = row(7, 0, 1, GameStatus::Active);
        let state = RulesState::rebuild(&start, Vec::new(), &seats).expect("the start");
        cache.keep_rows(&start, &seats, &state);
        assert_eq!(kept_revision(&cache, 7), Some(1), "a read game gets a copy with its rows");
        // A draw offer (same ply, newer revision) replaces it; an older read does not.
        cache.keep_rows(&row(7, 0, 3, GameStatus::Active), &seats, &state);
        cache.keep_rows(&row(7, 0, 2, GameStatus::Active), &seats, &state);
        assert_eq!(kept_revision(&cache, 7), Some(3));
        // The next move takes the newest copy.
        let taken = cache.take_with_snapshot(7).expect("the copy");
        assert_eq!(taken.snapshot.map(|s| s.row.revision), Some(3));
        // Rows whose ply the state is not at, and finished games, are not kept.
        cache.keep_rows(&row(8, 4, 9, GameStatus::Active), &seats, &state);
        cache.keep_rows(&row(9, 0, 9, GameStatus::Finished), &seats, &state);
        assert_eq!((kept_revision(&cache, 8), kept_revision(&cache, 9)), (None, None));
        // A state without rows (kept by an older read path) gets them.
        cache.put(10, state.clone());
        assert_eq!(kept_revision(&cache, 10), None);
        cache.keep_rows(&row(10, 0, 4, GameStatus::Active), &seats, &state);
        assert_eq!(kept_revision(&cache, 10), Some(4));
    }
}
