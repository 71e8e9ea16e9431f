//! The exact search for a saving series: mate and stalemate detection in Flickering chess.
//!
//! flickering-chess.md "End of the game": *mate* when the side to play cannot, by any
//! series, end its series with its king free of all threats; *stalemate* when it has no
//! legal move at all and its king is not attacked.
//!
//! # The search
//!
//! A depth-first search over series (orderings of moves of distinct pieces), stopping at
//! the first series that may end (at least one move, king not attacked). It is exact; its
//! cost is bounded by [`SearchLimits::max_nodes`], past which it answers
//! [`SearchResult::Undecided`]. Three devices keep it small:
//!
//! 1. **Memoisation.** A state of a series is the board (its Zobrist key, which covers
//!    castling rights) and the set of squares of pieces that already moved; the same
//!    state reached by another ordering is searched once. Only failed states are stored
//!    (a success ends the search).
//! 2. **Relevance pruning ("which squares matter").** At every state, the squares whose
//!    occupancy can decide the king's safety are collected: every square on a line, a
//!    knight jump or a step from a square the king may still end on (its square, the
//!    squares around it, castling squares). Lines stop at *walls*: a piece that already
//!    moved (it stays put), the enemy king, and any other enemy piece (a capture puts
//!    the capturing piece, frozen, on its square: the line stays shut), except a pawn
//!    that may be taken en passant. Then, to a fixed point, a piece is relevant if it stands on such a
//!    square or could (on an empty board) reach one, and all the squares it could reach
//!    become relevant too. Moves of the other pieces are skipped: they change no square
//!    any relevant move, any king square or any attack on one depends on, so dropping
//!    them from a saving series leaves a saving series (with at least one move, since
//!    the king was attacked). When the king is not attacked at the start, any single move
//!    that keeps it free saves, and the search tries every first move.
//! 3. **A necessary condition.** A state fails at once if for every square the king may
//!    still end on, the enemy pieces attacking it cannot each be given their own piece
//!    still free to move that could capture it or (for a line piece) block it, judged
//!    on a board holding only the walls (one move answers one attacker: two lines to
//!    the king meet only on its square; with en passant about, only "some piece for
//!    every attacker" is required).
//!
//! Moves are tried king moves first, then captures, then the rest.

use std::collections::HashSet;

use arrayvec::ArrayVec;

use super::position::{forward, MoveList, Position, BISHOP_DIRS, KING_STEPS, KNIGHT_STEPS, ROOK_DIRS};
use super::series::{Series, MAX_SERIES_LEN};
use super::types::{CastlingSide, Move, Piece, Role, Square, SquareSet};
use crate::Color;

/// Bounds on the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Series states to visit at most before answering [`SearchResult::Undecided`].
    pub max_nodes: u64,
}

impl SearchLimits {
    /// The bound on judging a start position someone supplied (a challenge's or an
    /// imported record's FEN): 250,000 states, a tenth of a second or so. A start whose
    /// mate or stalemate cannot be decided within it is refused, so that one request
    /// cannot cost seconds of work (the fuzz target `chess_fen` found such positions).
    pub const START_POSITION: SearchLimits = SearchLimits { max_nodes: 250_000 };
}

impl Default for SearchLimits {
    /// Four million states: well beyond the hardest positions measured (see the
    /// `chess` benchmark), a few seconds at worst.
    fn default() -> SearchLimits {
        SearchLimits { max_nodes: 4_000_000 }
    }
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchResult {
    /// A series that ends with the king free (the first one found).
    Saved(Vec<Move>),
    /// No series ends with the king free.
    NoSaving {
        /// Whether the player had no legal first move at all.
        no_legal_move: bool,
        /// Whether the player's king is attacked at the start.
        in_check: bool,
    },
    /// The node limit was reached first.
    Undecided,
}

/// Counters of one search, for measurements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Series states visited.
    pub nodes: u64,
    /// States skipped because they had already failed.
    pub memo_hits: u64,
    /// Moves skipped by the relevance pruning.
    pub irrelevant_moves: u64,
    /// States refused by the necessary condition.
    pub hopeless_states: u64,
}

/// Searches for a series of the side to move of `pos` that ends with its king free.
pub fn search_saving_series(pos: &Position, limits: SearchLimits) -> (SearchResult, SearchStats) {
    let mut search = Search { limits, stats: SearchStats::default(), failed: HashSet::new() };
    let root = Series::new(pos.clone());
    let in_check = pos.is_check();
    let first_moves = root.legal_next_moves();
    if first_moves.is_empty() {
        return (SearchResult::NoSaving { no_legal_move: true, in_check }, search.stats);
    }
    if !in_check {
        // Any single move that keeps the king free is a saving series.
        for &m in &first_moves {
            let mut s = root.clone();
            s.push_unchecked(m);
            search.stats.nodes += 1;
            if s.can_end() {
                return (SearchResult::Saved(s.moves().to_vec()), search.stats);
            }
        }
    }
    let result = match search.dfs(&root, in_check) {
        Some(Some(moves)) => SearchResult::Saved(moves),
        Some(None) => SearchResult::NoSaving { no_legal_move: false, in_check },
        None => SearchResult::Undecided,
    };
    (result, search.stats)
}

struct Search {
    limits: SearchLimits,
    stats: SearchStats,
    failed: HashSet<(u64, u64)>,
}

impl Search {
    /// `Some(Some(series))` saved, `Some(None)` no saving continuation, `None` out of nodes.
    /// `prune` enables the relevance pruning (sound only when the king is attacked at the
    /// start of the series, or at any state after the first move).
    fn dfs(&mut self, series: &Series, prune: bool) -> Option<Option<Vec<Move>>> {
        self.stats.nodes += 1;
        if self.stats.nodes > self.limits.max_nodes {
            return None;
        }
        if series.can_end() {
            return Some(Some(series.moves().to_vec()));
        }
        if series.moves().len() >= MAX_SERIES_LEN {
            return Some(None);
        }
        let key = (series.current().zobrist(), series.frozen().0);
        if self.failed.contains(&key) {
            self.stats.memo_hits += 1;
            return Some(None);
        }
        let analysis = Relevance::new(series);
        if prune && analysis.hopeless(series) {
            self.stats.hopeless_states += 1;
            self.failed.insert(key);
            return Some(None);
        }
        let mut moves = series.legal_next_moves();
        if prune {
            let before = moves.len();
            let relevant = analysis.relevant_pieces(series);
            moves.retain(|m| relevant.contains(m.from));
            self.stats.irrelevant_moves += (before - moves.len()) as u64;
        }
        order_moves(series, &mut moves);
        for &m in &moves {
            let mut next = series.clone();
            next.push_unchecked(m);
            if let Some(found) = self.dfs(&next, true)? {
                return Some(Some(found));
            }
        }
        self.failed.insert(key);
        Some(None)
    }
}

fn order_moves(series: &Series, moves: &mut MoveList) {
    let pos = series.current();
    let score = |m: &Move| -> u8 {
        match pos.piece_at(m.from).map(|p| p.role) {
            Some(Role::King) => 0,
            _ if series.is_capture(*m) => 1,
            _ => 2,
        }
    };
    moves.sort_by_key(score);
}

/// Squares no line passes during the rest of a series.
///
/// Pieces that already moved stay where they are (`before`: never entered). An enemy
/// piece (`at`: entered by a capture, never passed) stays where it is or is replaced by
/// the capturing piece, which then stays there too; only a pawn that may be taken en
/// passant leaves its square empty, so it is no wall. The enemy king is never captured
/// (`before`).
#[derive(Clone, Copy)]
struct Walls {
    before: u64,
    at: u64,
}

impl Walls {
    fn new(series: &Series) -> Walls {
        let pos = series.current();
        let us = series.player();
        let mut enemies = 0u64;
        for sq in Square::all() {
            if pos.piece_at(sq).is_some_and(|p| p.color != us && p.role != Role::King) {
                enemies |= sq.bit();
            }
        }
        let mut victims = 0u64;
        for target in pos.en_passant().iter() {
            if let Some(v) = target.offset(0, -forward(us)) {
                victims |= v.bit();
            }
        }
        Walls { before: series.frozen().0 | pos.king(!us).bit(), at: enemies & !victims }
    }
}

/// Squares `piece` on `sq` could ever move to during the rest of the series, whatever
/// the other pieces do (for pawns: pushes and captures).
fn reach(piece: Piece, sq: Square, walls: Walls) -> u64 {
    let mut set = 0u64;
    let mut steps = |list: &[(i8, i8)]| {
        for &(df, dr) in list {
            if let Some(t) = sq.offset(df, dr) {
                set |= t.bit();
            }
        }
    };
    match piece.role {
        Role::Knight => steps(&KNIGHT_STEPS),
        Role::King => steps(&KING_STEPS),
        Role::Pawn => {
            let f = forward(piece.color);
            let start_rank = if piece.color == Color::First { 1 } else { 6 };
            if sq.rank() == start_rank {
                steps(&[(0, f), (0, 2 * f), (-1, f), (1, f)]);
            } else {
                steps(&[(0, f), (-1, f), (1, f)]);
            }
        }
        Role::Bishop => set = rays(sq, &BISHOP_DIRS, walls),
        Role::Rook => set = rays(sq, &ROOK_DIRS, walls),
        Role::Queen => set = rays(sq, &BISHOP_DIRS, walls) | rays(sq, &ROOK_DIRS, walls),
    }
    set & !walls.before
}

/// Squares along `dirs` from `sq`, each ray ending before a `before` wall or on an `at` wall.
fn rays(sq: Square, dirs: &[(i8, i8)], walls: Walls) -> u64 {
    let mut set = 0;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            if walls.before & next.bit() != 0 {
                break;
            }
            set |= next.bit();
            if walls.at & next.bit() != 0 {
                break;
            }
            cur = next;
        }
    }
    set
}

/// The squares that matter at a state, and the pieces that may matter.
struct Relevance {
    walls: Walls,
    /// Squares the king may still end on (or cross, when castling).
    king_targets: u64,
    /// Squares that matter to the king's safety on those squares.
    squares: u64,
}

impl Relevance {
    fn new(series: &Series) -> Relevance {
        let pos = series.current();
        let us = series.player();
        let walls = Walls::new(series);
        let king = pos.king(us);
        // Squares the king may still end on (or cross, when castling).
        let mut king_targets = king.bit();
        let mut squares = 0u64;
        if !series.frozen().contains(king) {
            king_targets |= reach(Piece { color: us, role: Role::King }, king, walls);
            let rank = if us == Color::First { 0 } else { 7 };
            if king.rank() == rank && king.file() == 4 {
                // Castling: the king crosses and lands on two squares whose safety matters;
                // the rook's square and the squares between must be free.
                for (side, king_files, other_files) in [
                    (CastlingSide::KingSide, [5u8, 6], [7u8, 7]),
                    (CastlingSide::QueenSide, [3u8, 2], [1u8, 0]),
                ] {
                    if pos.castling().has(us, side) {
                        for (f, g) in king_files.into_iter().zip(other_files) {
                            if let (Some(a), Some(b)) = (Square::new(f, rank), Square::new(g, rank)) {
                                king_targets |= a.bit();
                                squares |= b.bit();
                            }
                        }
                    }
                }
            }
        }
        // Every square from which something could attack a king square, or block such
        // an attack: lines (up to the walls: see `Walls`), knight jumps.
        for k in SquareSet(king_targets).iter() {
            squares |= k.bit();
            squares |= rays(k, &ROOK_DIRS, walls) | rays(k, &BISHOP_DIRS, walls);
            squares |= reach(Piece { color: us, role: Role::Knight }, k, Walls { before: 0, at: 0 });
        }
        Relevance { walls, king_targets, squares }
    }

    /// The pieces whose moves may matter (the fixed point described in the module docs).
    fn relevant_pieces(&self, series: &Series) -> SquareSet {
        let pos = series.current();
        let us = series.player();
        let walls = self.walls;
        let king_targets = self.king_targets;
        let mut squares = self.squares;
        let movable = series.movable_pieces();
        let mut relevant = 0u64;
        loop {
            let mut changed = false;
            for sq in movable.iter() {
                if relevant & sq.bit() != 0 {
                    continue;
                }
                let Some(piece) = pos.piece_at(sq) else { continue };
                let mut r = reach(piece, sq, walls);
                if piece.role == Role::Pawn {
                    // En passant removes a pawn beside the capturer.
                    for df in [-1i8, 1] {
                        if let Some(t) = sq.offset(df, forward(us)) {
                            if pos.en_passant().contains(t) {
                                if let Some(v) = sq.offset(df, 0) {
                                    r |= v.bit();
                                }
                            }
                        }
                    }
                }
                if piece.role == Role::King {
                    r |= king_targets;
                }
                if squares & sq.bit() != 0 || squares & r != 0 {
                    relevant |= sq.bit();
                    squares |= r | sq.bit();
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        SquareSet(relevant)
    }

    /// The necessary condition: for some square the king may end on, every enemy
    /// attacker of it could be captured or blocked by a piece still free to move.
    fn hopeless(&self, series: &Series) -> bool {
        let pos = series.current();
        let us = series.player();
        let king = pos.king(us);
        let enemy_king = pos.king(!us);
        let walls = self.walls;
        // What each free non-king piece could reach. An en passant capture removes a
        // pawn beside the capturer.
        let mut helpers: ArrayVec<u64, MAX_SERIES_LEN> = ArrayVec::new();
        for sq in series.movable_pieces().iter() {
            match pos.piece_at(sq) {
                Some(p) if p.role != Role::King => {
                    let mut r = reach(p, sq, walls);
                    if p.role == Role::Pawn {
                        for df in [-1i8, 1] {
                            if let Some(v) = sq.offset(df, 0) {
                                r |= v.bit();
                            }
                        }
                    }
                    let _ = helpers.try_push(r);
                }
                _ => {}
            }
        }
        // One move answers at most one attacker: it captures on the attacker's square or
        // lands on its line, and two lines towards the king meet only on the king's
        // square. An en passant capture may do both at once (it removes a pawn and lands
        // elsewhere), so with en passant targets only the weaker test is made.
        let distinct_helpers = pos.en_passant().is_empty();
        let mut board_without_king = pos.clone();
        let _ = board_without_king.remove_piece(king);
        for k in SquareSet(self.king_targets).iter() {
            if k != king && pos.piece_at(k).is_some_and(|p| p.color == us) && series.frozen().contains(k) {
                continue; // a piece that moved stays on this square
            }
            let attackers = board_without_king.attackers(k, !us);
            // The enemy king is never captured, and its attack (a step) is never blocked.
            if attackers.contains(enemy_king) {
                continue;
            }
            let needs: ArrayVec<u64, 32> = attackers.iter().map(|a| a.bit() | between(a, k)).collect();
            let answerable = if distinct_helpers {
                perfect_matching(&needs, &helpers)
            } else {
                let any = helpers.iter().fold(0, |acc, r| acc | r);
                needs.iter().all(|n| any & n != 0)
            };
            if answerable {
                return false;
            }
        }
        true
    }
}

/// Whether every need (a set of squares) can be given its own helper (a set of
/// reachable squares meeting it): bipartite matching by augmenting paths.
fn perfect_matching(needs: &[u64], helpers: &[u64]) -> bool {
    if needs.len() > helpers.len() {
        return false;
    }
    let mut owner: ArrayVec<Option<usize>, MAX_SERIES_LEN> = helpers.iter().map(|_| None).collect();
    fn augment(
        need: usize,
        needs: &[u64],
        helpers: &[u64],
        owner: &mut [Option<usize>],
        seen: &mut u64,
    ) -> bool {
        for (h, reach) in helpers.iter().enumerate() {
            if reach & needs[need] == 0 || *seen & (1 << h) != 0 {
                continue;
            }
            *seen |= 1 << h;
            let free = match owner[h] {
                None => true,
                Some(other) => augment(other, needs, helpers, owner, seen),
            };
            if free {
                owner[h] = Some(need);
                return true;
            }
        }
        false
    }
    (0..needs.len()).all(|n| augment(n, needs, helpers, &mut owner, &mut 0))
}

/// Squares strictly between `a` and `b` on a line (empty if not on one line).
fn between(a: Square, b: Square) -> u64 {
    let df = (b.file() as i8 - a.file() as i8).signum();
    let dr = (b.rank() as i8 - a.rank() as i8).signum();
    let aligned = a.file() == b.file()
        || a.rank() == b.rank()
        || a.file().abs_diff(b.file()) == a.rank().abs_diff(b.rank());
    if !aligned || a == b {
        return 0;
    }
    let mut set = 0;
    let mut cur = a;
    while let Some(next) = cur.offset(df, dr) {
        if next == b {
            break;
        }
        set |= next.bit();
        cur = next;
    }
    set
}

impl Position {
    /// Squares of `by`'s pieces attacking `sq` on the current board.
    pub(crate) fn attackers(&self, sq: Square, by: Color) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        let is = |s: Square, roles: &[Role]| {
            self.piece_at(s).is_some_and(|p| p.color == by && roles.contains(&p.role))
        };
        for df in [-1, 1] {
            if let Some(s) = sq.offset(df, -forward(by)) {
                if is(s, &[Role::Pawn]) {
                    set.insert(s);
                }
            }
        }
        for (list, role) in [(&KNIGHT_STEPS, Role::Knight), (&KING_STEPS, Role::King)] {
            for &(df, dr) in list {
                if let Some(s) = sq.offset(df, dr) {
                    if is(s, &[role]) {
                        set.insert(s);
                    }
                }
            }
        }
        for (dirs, role) in [(ROOK_DIRS, Role::Rook), (BISHOP_DIRS, Role::Bishop)] {
            for (df, dr) in dirs {
                let mut cur = sq;
                while let Some(next) = cur.offset(df, dr) {
                    cur = next;
                    if self.piece_at(cur).is_some() {
                        if is(cur, &[role, Role::Queen]) {
                            set.insert(cur);
                        }
                        break;
                    }
                }
            }
        }
        set
    }
}
