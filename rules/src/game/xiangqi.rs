//! Xiangqi game records judged by the CXQ rules (`xiangqi.md` "CXQ supplementary rules"
//! and "CXQ automatic draws") and the FIX handicaps (`xiangqi.md` "Handicap games").
//!
//! For every move the game computes the facts the CXQ rules need (which pieces give
//! check, which unprotected enemy pieces are attacked and by which pieces) from the
//! positions before and after the move, and feeds them to [`CxqJudge`]. Only the moved
//! piece and the cannons it may have become the screen of are examined (the attackers
//! the spec allows), so the cost per move does not depend on the length of the game.
//! Each ply's facts are kept with the squares and kinds of the pieces involved, so that
//! a ruling can name them ([`XiangqiGame::ruling`]) without replaying the game.

use std::fmt;

use crate::game::cxq::{CxqEnding, CxqJudge, MoveFacts, PieceId, PieceSet, SeriesKind, SeriesState};
use crate::game::handicap::{CaptureBan, Handicap, HandicapRules, RiverRestriction};
use crate::game::ruleset::{CxqLimits, Ruleset};
use crate::game::ruling::{self, Citation, Evidence, PieceAt, PlyMove, Ruling, SeriesExplained, SeriesPly};
use crate::xiangqi::{IllegalMoveKind, Move, Piece, Position, Role, Square, SquareSet, SQUARES};
use crate::{Color, EndReason, Outcome};

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

/// A piece as a ply's record remembers it: its identity, what it is, where it stood
/// after the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seen {
    id: PieceId,
    piece: Piece,
    square: Square,
}

/// What one ply did under the CXQ rules, kept so that a ruling can name every piece of a
/// series (issue 15 §2) without replaying the game.
#[derive(Clone, Debug)]
struct PlyRecord {
    mover: Color,
    /// The enemy king and the pieces checking it after the move, if the move was a check.
    check: Option<(Seen, Vec<Seen>)>,
    /// The unprotected enemy pieces the move attacked, each with its attackers.
    chased: Vec<(Seen, Vec<Seen>)>,
    /// Whether the move was effective ("CXQ automatic draws" 1).
    effective: bool,
}

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
    /// Every ply's CXQ facts with the pieces named (only under the CXQ ruleset).
    history: Vec<PlyRecord>,
    /// Why a law ended the game, once one has.
    ruling: Option<Ruling>,
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
        let mut game = XiangqiGame {
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
            history: Vec::new(),
            ruling: None,
            moves_left_in_turn,
            in_handicap_turn,
        };
        game.ruling = game.outcome.map(|outcome| game.explain(outcome));
        game
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

    /// Why a law ended the game (mate, no legal move, a CXQ series or automatic draw),
    /// once one has.
    pub fn ruling(&self) -> Option<&Ruling> {
        self.ruling.as_ref()
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
        if let (Some(judge), Some((facts, mut record))) = (self.judge.as_mut(), facts) {
            if self.outcome.is_none() {
                let dead = is_dead_position(&self.position);
                self.outcome = judge.record(mover, &facts, dead);
                record.effective = judge.last_move_effective();
            }
            self.history.push(record);
        }
        self.ruling = self.outcome.map(|outcome| self.explain(outcome));
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
        Some(self.facts(&self.position, &after, m).0)
    }

    /// The CXQ facts of `m`, played from `before` to `after`, and the same facts with the
    /// pieces named for the game's history.
    fn facts(&self, before: &Position, after: &Position, m: Move) -> (MoveFacts, PlyRecord) {
        let mover = before.turn();
        let enemy = mover.other();
        // The pieces as they stand after the move, with their identities.
        let seen = |square: Square| {
            let id = self.ids[if square == m.to { m.from } else { square }.index()];
            after.piece_at(square).map(|piece| Seen { id, piece, square })
        };
        let bits = |pieces: &[Seen]| pieces.iter().fold(0 as PieceSet, |set, p| set | 1 << p.id);

        let checkers: Vec<Seen> = after.checkers().filter_map(seen).collect();
        let check =
            if checkers.is_empty() { None } else { seen(after.king(enemy)).map(|king| (king, checkers)) };
        let mut facts =
            MoveFacts { checkers: check.as_ref().map_or(0, |(_, by)| bits(by)), ..MoveFacts::default() };

        let mut chased: Vec<(Seen, Vec<Seen>)> = Vec::new();
        for (attacker, target) in threats_made(before, after, m) {
            let (Some(attacker_seen), Some(target_seen)) = (seen(attacker), seen(target)) else { continue };
            let (attacker_piece, target_piece) = (attacker_seen.piece, target_seen.piece);
            // Exceptions: the king is checked, not chased; a soldier that has not crossed
            // the river is not a target.
            if target_piece.role == Role::King
                || (target_piece.role == Role::Soldier && target.on_own_side(enemy))
            {
                continue;
            }
            // "Can capture" is a legal capture in the position after the move: a pinned
            // piece does not attack (Interpretation, "Who attacks").
            if !can_capture(after, attacker, target, mover) {
                continue;
            }
            // Exception: a same-type exchange or sacrifice is not an attack.
            if attacker_piece.role == target_piece.role && can_capture(after, target, attacker, enemy) {
                continue;
            }
            facts.attacks = true;
            // The chariot exception: a chariot threatened by a horse or a cannon counts as
            // unprotected.
            let chariot_exception = target_piece.role == Role::Chariot
                && matches!(attacker_piece.role, Role::Horse | Role::Cannon);
            if chariot_exception || !is_protected(after, attacker, target) {
                match chased.iter_mut().find(|(t, _)| t.square == target) {
                    Some((_, by)) => by.push(attacker_seen),
                    None => chased.push((target_seen, vec![attacker_seen])),
                }
            }
        }
        facts.chased = chased.iter().map(|(target, by)| (target.id, bits(by))).collect();
        facts.progress = before.piece_at(m.to).is_some()
            || before.piece_at(m.from).is_some_and(|p| {
                p.role == Role::Soldier && !m.from.on_own_side(mover) && is_forward(m, mover)
            });
        (facts, PlyRecord { mover, check, chased, effective: false })
    }

    /// The square of the piece with identity `id` now.
    fn square_of(&self, id: PieceId) -> Option<Square> {
        Square::all().find(|sq| self.ids[sq.index()] == id)
    }

    /// The ruling for `outcome`, reached now.
    fn explain(&self, outcome: Outcome) -> Ruling {
        let ply = self.moves.len() as u32;
        let against = outcome.winner().map(|winner| !winner);
        let reason = outcome.reason();
        let limits = self.judge.as_ref().map_or(CxqLimits::STANDARD, |judge| *judge.limits());
        let cxq_draws = |items| Citation {
            spec: "xiangqi.md",
            section: "CXQ automatic draws",
            items,
            interpretation: false,
        };
        let (citation, evidence) = match self.judge.as_ref().and_then(CxqJudge::ending) {
            Some(&CxqEnding::Perpetual { series, opponent_check, opponent_chase }) => {
                let opponent_chase = opponent_chase.map(|s| self.explain_series(s));
                let chases_counted = series.kind != SeriesKind::Check
                    || opponent_chase.as_ref().is_some_and(|s| s.used_allowance);
                let items: &'static [u8] = match reason {
                    EndReason::PerpetualCheck | EndReason::MutualPerpetualCheck if chases_counted => {
                        &[1, 2, 3, 5]
                    }
                    EndReason::PerpetualCheck | EndReason::MutualPerpetualCheck => &[1, 3, 5],
                    _ => &[2, 3, 5],
                };
                let evidence = Evidence::CxqSeries(ruling::CxqSeries {
                    series: self.explain_series(series),
                    opponent_check: opponent_check.map(|s| self.explain_series(s)),
                    opponent_chase,
                    limits: ruling::SeriesLimits {
                        per_piece: limits.series_per_piece,
                        max_pieces: limits.series_max_pieces,
                    },
                });
                let citation = Citation {
                    spec: "xiangqi.md",
                    section: "CXQ supplementary rules: perpetual check and perpetual chase",
                    items,
                    interpretation: true,
                };
                (citation, evidence)
            }
            Some(&CxqEnding::NoProgress { plies, last_progress_ply }) => {
                let evidence = Evidence::NoProgress(ruling::NoProgress {
                    limit_per_side: limits.moves_without_progress,
                    plies,
                    from_ply: ply + 1 - plies,
                    to_ply: ply,
                    last_progress: last_progress_ply.map(|p| self.ply_move(p)),
                });
                (cxq_draws(&[2]), evidence)
            }
            Some(&CxqEnding::MoveLimit120 { effective_moves }) => {
                let sides = Color::ALL
                    .iter()
                    .map(|&side| {
                        let plies: Vec<u32> = (0..self.history.len() as u32)
                            .filter(|&p| {
                                let record = &self.history[p as usize];
                                record.mover == side && record.effective
                            })
                            .collect();
                        ruling::SideMoves {
                            side,
                            counted: effective_moves[side.index()],
                            last: plies.last().map(|&p| self.ply_move(p)),
                            plies: plies.iter().map(|p| p + 1).collect(),
                        }
                    })
                    .collect();
                (
                    cxq_draws(&[1]),
                    Evidence::EffectiveMoves(ruling::EffectiveMoves {
                        limit_per_side: limits.effective_moves,
                        sides,
                    }),
                )
            }
            Some(&CxqEnding::MoveLimit300 { moves }) => {
                let evidence = Evidence::MoveLimit(ruling::MoveLimit {
                    limit_per_side: limits.moves_per_side,
                    moves: moves.to_vec(),
                });
                (cxq_draws(&[3]), evidence)
            }
            Some(CxqEnding::DeadPosition) => {
                let pieces = Square::all().filter_map(|sq| piece_at(&self.position, sq)).collect();
                (cxq_draws(&[]), Evidence::DeadPosition(ruling::DeadPosition { pieces }))
            }
            // `xiangqi.md` "Legality" 3: no legal move loses, in check or not.
            None => {
                let side = self.position.turn();
                let checkers =
                    self.position.checkers().filter_map(|sq| piece_at(&self.position, sq)).collect();
                let evidence = Evidence::NoLegalMove(ruling::NoLegalMove {
                    side,
                    in_check: self.position.is_check(),
                    checkers,
                    legal_moves: 0,
                });
                let citation =
                    Citation { spec: "xiangqi.md", section: "Legality", items: &[3], interpretation: false };
                (citation, evidence)
            }
        };
        Ruling { law: reason.as_str(), citation, ply, against, evidence }
    }

    /// A 0-based ply as a ruling names it.
    fn ply_move(&self, ply: u32) -> PlyMove {
        PlyMove {
            ply: ply + 1,
            mv: self.moves.get(ply as usize).map(ToString::to_string).unwrap_or_default(),
        }
    }

    /// A series, ply by ply, from the game's history.
    fn explain_series(&self, series: SeriesState) -> SeriesExplained {
        let plies = (series.first_ply..self.history.len() as u32)
            .filter(|&p| self.history[p as usize].mover == series.side)
            .filter_map(|p| {
                let record = &self.history[p as usize];
                let (target, by) = match series.kind {
                    SeriesKind::Check => record.check.as_ref()?,
                    SeriesKind::Chase(id) => record.chased.iter().find(|(target, _)| target.id == id)?,
                };
                let PlyMove { ply, mv } = self.ply_move(p);
                Some(SeriesPly {
                    ply,
                    mv,
                    by: by.iter().map(piece_seen).collect(),
                    target: piece_seen(target),
                })
            })
            .collect();
        let target_now = match series.kind {
            SeriesKind::Check => Some(self.position.king(!series.side)),
            SeriesKind::Chase(id) => self.square_of(id),
        };
        SeriesExplained {
            kind: match series.kind {
                SeriesKind::Check => ruling::SeriesKind::Check,
                SeriesKind::Chase(_) => ruling::SeriesKind::Chase,
            },
            side: series.side,
            target: target_now.and_then(|sq| piece_at(&self.position, sq)).unwrap_or(PieceAt {
                piece: "king",
                side: !series.side,
                square: None,
            }),
            length: series.length,
            pieces: series.pieces.count_ones(),
            allowance: series.allowance,
            perpetual: series.is_perpetual(),
            used_allowance: series.has_used_allowance(),
            plies,
        }
    }
}

/// The Xiangqi role's name in rulings.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Advisor => "advisor",
        Role::Elephant => "elephant",
        Role::Horse => "horse",
        Role::Chariot => "chariot",
        Role::Cannon => "cannon",
        Role::Soldier => "soldier",
    }
}

/// A piece on a square as a ruling names it.
fn named(piece: Piece, square: Square) -> PieceAt {
    PieceAt { piece: role_name(piece.role), side: piece.color, square: Some(square.to_string()) }
}

fn piece_seen(seen: &Seen) -> PieceAt {
    named(seen.piece, seen.square)
}

fn piece_at(position: &Position, square: Square) -> Option<PieceAt> {
    position.piece_at(square).map(|piece| named(piece, square))
}

/// The threats a move makes, as (attacker, target) points, by the CXQ definition of an
/// attack (`xiangqi.md` "CXQ supplementary rules", Attack, and the Interpretation "Who
/// attacks"): the moved piece's threats, and those of a cannon whose screen the moved
/// piece became (a new attack through the new screen). A line, horse leg or elephant eye
/// the move opens makes no attacker, and a king move attacks nothing. The caller applies
/// the exceptions (targets, pins, exchanges); a soldier's own threats are left out here.
///
/// Interpretation (ours): a soldier that becomes the screen of its cannon makes an
/// attack, since the threat is the cannon's, not the soldier's; and "new" means the
/// cannon did not reach the target on the board before the move, so a piece that merely
/// slides along the line it already screened, or captures the screen and takes its
/// place, makes no cannon attack.
fn threats_made(before: &Position, after: &Position, m: Move) -> Vec<(Square, Square)> {
    let mut threats = Vec::new();
    let Some(moved) = after.piece_at(m.to) else { return threats };
    if moved.role == Role::King {
        return threats;
    }
    let enemy = after.occupied_by(moved.color.other()).0;
    if moved.role != Role::Soldier {
        threats.extend(SquareSet(after.attacks_from(m.to).0 & enemy).map(|target| (m.to, target)));
    }
    for cannon in after.occupied_by(moved.color) {
        if cannon == m.to || after.piece_at(cannon).is_none_or(|p| p.role != Role::Cannon) {
            continue;
        }
        let new_targets = after.attacks_from(cannon).0 & enemy & !before.attacks_from(cannon).0;
        threats.extend(
            SquareSet(new_targets)
                .filter(|&target| between(cannon, target, m.to))
                .map(|target| (cannon, target)),
        );
    }
    threats
}

/// Whether `middle` lies strictly between `a` and `b` on one file or rank.
fn between(a: Square, b: Square, middle: Square) -> bool {
    let strictly = |x: u8, y: u8, m: u8| x.min(y) < m && m < x.max(y);
    (a.file() == b.file() && middle.file() == a.file() && strictly(a.rank(), b.rank(), middle.rank()))
        || (a.rank() == b.rank() && middle.rank() == a.rank() && strictly(a.file(), b.file(), middle.file()))
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
