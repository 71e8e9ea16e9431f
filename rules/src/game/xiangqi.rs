//! Xiangqi game records judged by the CXQ rules (`xiangqi.md` "CXQ supplementary rules"
//! and "CXQ automatic draws") and the FIX handicaps (`xiangqi.md` "Handicap games").
//!
//! For every move the game computes the facts the CXQ rules need (which pieces give
//! check, which unprotected enemy pieces are attacked and by which pieces) from the
//! positions before and after the move, and feeds them to [`CxqJudge`]. Only the moved
//! piece and the pieces whose attacks the move uncovered are examined, so the cost per
//! move does not depend on the length of the game.

use std::fmt;

use crate::game::cxq::{CxqJudge, MoveFacts, PieceId, PieceSet};
use crate::game::handicap::{CaptureBan, Handicap, HandicapRules, RiverRestriction};
use crate::game::ruleset::{CxqLimits, Ruleset};
use crate::xiangqi::{IllegalMoveKind, Move, Position, Role, Square, SquareSet, SQUARES};
use crate::{Color, Outcome};

/// Why a move was refused by the game (as opposed to the position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game is over.
    GameOver,
    /// The move is illegal in the position.
    Illegal(IllegalMoveKind),
    /// A handicap forbids this capture (`xiangqi.md` "Handicap games").
    HandicapCapture,
    /// A handicap forbids a check with this move.
    HandicapCheck,
    /// A move handicap's river restriction forbids this destination.
    HandicapRiver,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver => f.write_str("the game is over"),
            GameError::Illegal(kind) => write!(f, "{kind}"),
            GameError::HandicapCapture => f.write_str("the handicap forbids this capture"),
            GameError::HandicapCheck => f.write_str("the handicap's extra moves may not give check"),
            GameError::HandicapRiver => {
                f.write_str("the handicap's extra moves may not go there (river restriction)")
            }
        }
    }
}

impl std::error::Error for GameError {}

const NO_PIECE: PieceId = PieceId::MAX;

/// A Xiangqi game: start, moves, and the running CXQ judgement.
#[derive(Clone, Debug)]
pub struct XiangqiGame {
    ruleset: Ruleset,
    handicap: HandicapRules,
    start: Position,
    position: Position,
    moves: Vec<Move>,
    checks: Vec<bool>,
    /// The identity of the piece on each point (`NO_PIECE` when empty).
    ids: [PieceId; SQUARES],
    /// Points whose start piece has not moved yet (for the handicap capture bans).
    unmoved: u128,
    judge: Option<CxqJudge>,
    /// Moves the side to move still makes in this turn after the next one.
    moves_left_in_turn: u8,
    /// Whether the receiver's handicap turn is still running.
    in_handicap_turn: bool,
    outcome: Option<Outcome>,
}

impl XiangqiGame {
    /// A game from `start` under `ruleset` ([`Ruleset::Cxq`] or [`Ruleset::XiangqiBasic`];
    /// others mean CXQ) with the extra rules of `handicap`.
    pub fn new(start: Position, ruleset: Ruleset, handicap: Option<Handicap>) -> XiangqiGame {
        let ruleset = match ruleset {
            r @ (Ruleset::Cxq(_) | Ruleset::XiangqiBasic) => r,
            _ => Ruleset::Cxq(CxqLimits::STANDARD),
        };
        let judge = match ruleset {
            Ruleset::Cxq(limits) => Some(CxqJudge::new(limits)),
            _ => None,
        };
        let mut ids = [NO_PIECE; SQUARES];
        let mut unmoved = 0u128;
        let mut next: PieceId = 0;
        for sq in Square::all() {
            if start.piece_at(sq).is_some() {
                ids[sq.index()] = next;
                next += 1;
                unmoved |= 1 << sq.index();
            }
        }
        let handicap = handicap.map(|h| h.rules()).unwrap_or_default();
        let in_handicap_turn =
            handicap.receiver == Some(start.turn()) && handicap.receiver_moves_per_turn.is_some();
        let moves_left_in_turn = if in_handicap_turn {
            handicap.receiver_moves_per_turn.unwrap_or(1).saturating_sub(1)
        } else {
            0
        };
        XiangqiGame {
            ruleset,
            handicap,
            outcome: start.outcome_by_basic_rules(),
            position: start.clone(),
            start,
            moves: Vec::new(),
            checks: Vec::new(),
            ids,
            unmoved,
            judge,
            moves_left_in_turn,
            in_handicap_turn,
        }
    }

    /// The ruleset in force.
    pub fn ruleset(&self) -> Ruleset {
        self.ruleset
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Whether ply `ply` (0-based index into [`XiangqiGame::moves`]) gave check.
    pub fn was_check(&self, ply: usize) -> bool {
        self.checks.get(ply).copied().unwrap_or(false)
    }

    /// The outcome, once the game has ended by rule.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The side that makes the next move.
    pub fn side_to_move(&self) -> Color {
        self.position.turn()
    }

    /// Moves the side to move still makes in this turn after the next one.
    pub fn moves_left_in_turn(&self) -> u8 {
        self.moves_left_in_turn
    }

    /// The running CXQ judgement, if the ruleset is CXQ.
    pub fn judge(&self) -> Option<&CxqJudge> {
        self.judge.as_ref()
    }

    /// The legal moves now, with the handicap's bans applied.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.position.legal_moves().iter().copied().filter(|&m| self.handicap_check(m).is_ok()).collect()
    }

    /// Checks a move without playing it.
    ///
    /// # Errors
    ///
    /// A [`GameError`] saying why the move cannot be played.
    pub fn check_move(&self, m: Move) -> Result<(), GameError> {
        if self.outcome.is_some() {
            return Err(GameError::GameOver);
        }
        if let Some(kind) = self.position.illegal_move_kind(m) {
            return Err(GameError::Illegal(kind));
        }
        self.handicap_check(m)
    }

    /// The FIX handicap restrictions (`xiangqi.md` "Handicap games (FIX)").
    fn handicap_check(&self, m: Move) -> Result<(), GameError> {
        let rules = &self.handicap;
        let mover = self.position.turn();
        let capture = self.position.piece_at(m.to).is_some();
        if self.in_handicap_turn {
            // Interpretation: the receiver's extra moves may not capture or give check,
            // and the river restrictions apply to them only.
            if rules.extra_moves_no_capture && capture {
                return Err(GameError::HandicapCapture);
            }
            let on_own_side = m.to.on_own_side(mover);
            let bank_rank = if mover == Color::First { 4 } else { 5 };
            let soldier = self.position.piece_at(m.from).is_some_and(|p| p.role == Role::Soldier);
            let river_ok = match rules.river {
                RiverRestriction::None => true,
                RiverRestriction::NoCrossing => on_own_side,
                RiverRestriction::NoCrossingOnlySoldiersOnBank => {
                    on_own_side && (soldier || m.to.rank() != bank_rank)
                }
            };
            if !river_ok {
                return Err(GameError::HandicapRiver);
            }
            if rules.extra_moves_no_check {
                let mut after = self.position.clone();
                after.play_unchecked(m);
                if after.is_check() {
                    return Err(GameError::HandicapCheck);
                }
            }
        }
        if capture && self.unmoved >> m.to.index() & 1 != 0 {
            let target = m.to.to_string();
            match rules.capture_ban {
                // Chariot odds: Black may not capture Red's leftmost soldier, left horse
                // or left cannon while they have not moved.
                CaptureBan::ChariotOdds
                    if mover == Color::Second && ["a3", "b0", "b2"].contains(&&*target) =>
                {
                    return Err(GameError::HandicapCapture);
                }
                // Two horses: Red's central soldier may not be captured while it has not
                // moved, unless the capturing move gives check.
                CaptureBan::TwoHorses if mover == Color::Second && target == "e3" => {
                    let mut after = self.position.clone();
                    after.play_unchecked(m);
                    if !after.is_check() {
                        return Err(GameError::HandicapCapture);
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Plays a move and returns the outcome if it ends the game.
    ///
    /// # Errors
    ///
    /// A [`GameError`] when the move cannot be played; the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<Option<Outcome>, GameError> {
        self.check_move(m)?;
        let before = self.position.clone();
        let mover = before.turn();
        let mut after = before.clone();
        after.play_unchecked(m);
        let facts = self.judge.as_ref().map(|_| self.facts(&before, &after, m));

        // Follow the pieces (`xiangqi.md` Interpretation: a piece is identified by where it
        // stands and follows it as it moves).
        self.ids[m.to.index()] = self.ids[m.from.index()];
        self.ids[m.from.index()] = NO_PIECE;
        self.unmoved &= !(1 << m.from.index() | 1 << m.to.index());
        self.checks.push(after.is_check());
        self.moves.push(m);
        self.position = after;
        self.continue_turn(mover);

        self.outcome = self.position.outcome_by_basic_rules();
        if self.outcome.is_none() {
            if let (Some(judge), Some(facts)) = (self.judge.as_mut(), facts) {
                let dead = is_dead_position(&self.position);
                self.outcome = judge.record(mover, &facts, dead);
            }
        }
        Ok(self.outcome)
    }

    /// Multi-move turns of the move handicaps: the receiver moves again until its extra
    /// moves are used up (`xiangqi.md` "Handicap games" interpretation).
    fn continue_turn(&mut self, mover: Color) {
        if self.in_handicap_turn && self.moves_left_in_turn > 0 {
            let mut setup = self.position.to_setup();
            setup.turn = mover;
            // The extra moves never give check, so the setup stays a legal position.
            if let Ok(again) = Position::from_setup(setup) {
                if again.legal_moves().iter().any(|&m| self.handicap_check_in(&again, m)) {
                    self.position = again;
                    self.moves_left_in_turn -= 1;
                    return;
                }
            }
        }
        self.in_handicap_turn = false;
        self.moves_left_in_turn = 0;
        if !self.handicap.first_turn_only && self.handicap.receiver == Some(self.position.turn()) {
            self.in_handicap_turn = true;
            self.moves_left_in_turn = self.handicap.receiver_moves_per_turn.unwrap_or(1).saturating_sub(1);
        }
    }

    fn handicap_check_in(&self, position: &Position, m: Move) -> bool {
        let probe = XiangqiGame { position: position.clone(), outcome: None, ..self.clone() };
        probe.handicap_check(m).is_ok()
    }

    /// The CXQ facts of a legal move `m` in the current position (which pieces it checks
    /// with, which unprotected pieces it chases), without playing it: for dry runs and
    /// for telling a player what a move counts as.
    pub fn facts_of(&self, m: Move) -> Option<MoveFacts> {
        if !self.position.is_legal(m) {
            return None;
        }
        let mut after = self.position.clone();
        after.play_unchecked(m);
        Some(self.facts(&self.position, &after, m))
    }

    fn id(&self, sq: Square) -> PieceSet {
        match self.ids[sq.index()] {
            NO_PIECE => 0,
            id => 1 << id,
        }
    }

    /// The CXQ facts of `m`, played from `before` to `after`.
    fn facts(&self, before: &Position, after: &Position, m: Move) -> MoveFacts {
        let mover = before.turn();
        let enemy = mover.other();
        // The ids as they stand after the move.
        let id_after = |sq: Square| if sq == m.to { self.id(m.from) } else { self.id(sq) };

        let checkers: PieceSet = after.checkers().map(id_after).fold(0, |a, b| a | b);

        let mut facts = MoveFacts { checkers, ..MoveFacts::default() };
        // Attack sets are computed once per attacking piece (not once per pair): the
        // cost of a move stays a small constant.
        let mut chasers_of = [0 as PieceSet; SQUARES];
        let enemy_occupied = after.occupied_by(enemy).0;
        for attacker in after.occupied_by(mover) {
            let Some(attacker_piece) = after.piece_at(attacker) else { continue };
            // Exception: threats by a king or a soldier are not attacks.
            if matches!(attacker_piece.role, Role::King | Role::Soldier) {
                continue;
            }
            let targets = after.attacks_from(attacker).0 & enemy_occupied;
            if targets == 0 {
                continue;
            }
            // Credit: the moved piece, or a piece whose attack the move uncovered.
            let attacked_before = if attacker == m.to { 0 } else { before.attacks_from(attacker).0 };
            for target in SquareSet(targets) {
                let Some(target_piece) = after.piece_at(target) else { continue };
                // Exceptions: the king is checked, not chased; a soldier that has not
                // crossed the river is not a target.
                if target_piece.role == Role::King
                    || (target_piece.role == Role::Soldier && target.on_own_side(enemy))
                {
                    continue;
                }
                let was_attacked = attacked_before >> target.index() & 1 != 0;
                if was_attacked && can_capture(before, attacker, target, mover) {
                    continue;
                }
                if !can_capture(after, attacker, target, mover) {
                    continue;
                }
                // Exception: a same-type exchange or sacrifice is not an attack.
                if attacker_piece.role == target_piece.role && can_capture(after, target, attacker, enemy) {
                    continue;
                }
                facts.attacks = true;
                // The chariot exception: a chariot threatened by a horse or a cannon counts
                // as unprotected.
                let chariot_exception = target_piece.role == Role::Chariot
                    && matches!(attacker_piece.role, Role::Horse | Role::Cannon);
                if chariot_exception || !is_protected(after, attacker, target) {
                    chasers_of[target.index()] |= id_after(attacker);
                }
            }
        }
        for target in Square::all() {
            if chasers_of[target.index()] != 0 {
                facts.chased.push((self.ids[target.index()], chasers_of[target.index()]));
            }
        }
        facts.progress = before.piece_at(m.to).is_some()
            || before.piece_at(m.from).is_some_and(|p| {
                p.role == Role::Soldier && !m.from.on_own_side(mover) && is_forward(m, mover)
            });
        facts
    }
}

/// Whether the soldier move `m` goes forward for `color`.
fn is_forward(m: Move, color: Color) -> bool {
    match color {
        Color::First => m.to.rank() > m.from.rank(),
        Color::Second => m.to.rank() < m.from.rank(),
    }
}

/// Whether the piece of `color` on `from` could legally capture on `to` if it were
/// `color`'s move: it attacks the point and moving would not expose its own king
/// (`xiangqi.md` CXQ: a pinned piece neither attacks nor protects).
fn can_capture(position: &Position, from: Square, to: Square, color: Color) -> bool {
    if !position.attacks_from(from).contains(to) {
        return false;
    }
    if position.turn() == color {
        return position.is_legal(Move::new(from, to));
    }
    // Not `color`'s turn: the side not to move is never in check, so the capture is
    // illegal only if leaving `from` exposes the king, which the capture of the pinning
    // piece itself (on `to`) may still cure.
    if !position.is_pinned(from) {
        return true;
    }
    let mut setup = position.to_setup();
    setup.board[to.index()] = setup.board[from.index()].take();
    setup.turn = color.other();
    Position::from_setup(setup).is_ok()
}

/// Whether, after the piece on `attacker` captured the piece on `target`, the target's
/// side could recapture on that point (`xiangqi.md` CXQ "Protected").
fn is_protected(position: &Position, attacker: Square, target: Square) -> bool {
    let Some(target_piece) = position.piece_at(target) else { return false };
    let defender = target_piece.color;
    let mut setup = position.to_setup();
    setup.board[target.index()] = setup.board[attacker.index()].take();
    setup.turn = defender;
    match Position::from_setup(setup) {
        Ok(after_capture) => after_capture.legal_moves().iter().any(|m| m.to == target),
        Err(_) => false,
    }
}

/// `xiangqi.md` "CXQ automatic draws": neither side has a chariot, horse, cannon or
/// soldier left.
fn is_dead_position(position: &Position) -> bool {
    Square::all()
        .filter_map(|sq| position.piece_at(sq))
        .all(|p| !matches!(p.role, Role::Chariot | Role::Horse | Role::Cannon | Role::Soldier))
}
