//! The CXQ supplementary rules as a state machine over per-move facts
//! (`xiangqi.md` "CXQ supplementary rules: perpetual check and perpetual chase" and
//! "CXQ automatic draws").
//!
//! The facts of a move (which pieces gave check, which unprotected pieces it attacked
//! and with which pieces, whether it was effective or progress) are computed from the
//! positions by [`crate::game::xiangqi`]; this module only counts. Every update is O(1)
//! in the length of the game: a fixed-size array per side, no history scan.

use crate::game::ruleset::CxqLimits;
use crate::{Color, EndReason, Outcome};

/// A piece's identity for the series: assigned at the start of the game and following
/// the piece as it moves (`xiangqi.md` Interpretation: "a piece is identified by where it
/// stands and follows it as it moves"). At most 32 pieces exist.
pub type PieceId = u8;

/// A set of piece identities.
pub type PieceSet = u32;

/// What one move did, as far as the CXQ rules care.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveFacts {
    /// The pieces giving check after the move (empty: not a check). A discovered check is
    /// credited to the piece that gives it.
    pub checkers: PieceSet,
    /// The enemy pieces this move attacks while they are unprotected, each with the
    /// mover's pieces that attack it (the moved piece, or pieces whose attack the move
    /// discovered).
    pub chased: Vec<(PieceId, PieceSet)>,
    /// Whether the move attacked anything at all (protected or not): such a move is not
    /// effective ("CXQ automatic draws" 1).
    pub attacks: bool,
    /// Whether the move was a capture or a forward move of a soldier across the river
    /// ("CXQ automatic draws" 2).
    pub progress: bool,
}

impl MoveFacts {
    /// Whether the move gave check.
    pub fn is_check(&self) -> bool {
        self.checkers != 0
    }
}

/// One series: its length, the distinct pieces used, and the ply it began at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Series {
    length: u32,
    pieces: PieceSet,
    /// The 0-based ply of the series' first move (meaningless while `length` is 0).
    first_ply: u32,
}

impl Series {
    fn extend(&mut self, pieces: PieceSet, ply: u32) {
        if self.length == 0 {
            self.first_ply = ply;
        }
        self.length += 1;
        self.pieces |= pieces;
    }

    fn is_perpetual(&self, limits: &CxqLimits) -> bool {
        self.length > limits.series_allowance(self.pieces.count_ones())
    }

    fn has_used_allowance(&self, limits: &CxqLimits) -> bool {
        self.length > 0 && self.length >= limits.series_allowance(self.pieces.count_ones())
    }
}

/// Per-side state.
#[derive(Clone, Debug, Default)]
struct SideState {
    check: Series,
    /// Chase series per target piece identity.
    chase: [Series; 32],
    /// Effective moves made ("CXQ automatic draws" 1).
    effective_moves: u32,
    /// Moves made in the game.
    moves: u32,
}

impl SideState {
    /// The series for `kind`.
    fn series(&self, kind: SeriesKind) -> &Series {
        match kind {
            SeriesKind::Check => &self.check,
            SeriesKind::Chase(target) => &self.chase[usize::from(target)],
        }
    }

    /// The chase series that counts most for rule 5: the longest of those that `reached`
    /// accepts, if any.
    fn longest_chase(&self, reached: impl Fn(&Series) -> bool) -> Option<SeriesKind> {
        (0..32u8)
            .filter(|&t| reached(&self.chase[usize::from(t)]))
            .max_by_key(|&t| (self.chase[usize::from(t)].length, std::cmp::Reverse(t)))
            .map(SeriesKind::Chase)
    }
}

/// Which series of a side: its check series, or its chase series against one target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeriesKind {
    /// The check series.
    Check,
    /// The chase series against the target piece with this identity.
    Chase(PieceId),
}

/// A series as it stood when the game ended, for the ruling (issue 15 §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeriesState {
    /// The side making it.
    pub side: Color,
    /// Check or chase (and of which target).
    pub kind: SeriesKind,
    /// Consecutive moves in the series.
    pub length: u32,
    /// The distinct pieces used in it.
    pub pieces: PieceSet,
    /// The 0-based ply of its first move.
    pub first_ply: u32,
    /// The longest series allowed with that many pieces (rule 3: `6 x min(k, 3)`).
    pub allowance: u32,
}

impl SeriesState {
    /// Whether the series exceeds its allowance (Interpretation: "perpetual").
    pub fn is_perpetual(&self) -> bool {
        self.length > self.allowance
    }

    /// Whether the series has used its whole allowance (how rule 5 reads the opponent's
    /// series, see [`CxqJudge::record`]).
    pub fn has_used_allowance(&self) -> bool {
        self.length > 0 && self.length >= self.allowance
    }
}

/// Why the CXQ judge ended a game, with what a ruling needs to explain it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CxqEnding {
    /// Rules 1, 2 and 5: the ending move made `series` (the mover's) perpetual; the
    /// opponent's check series and its weightiest chase series as they stood then.
    Perpetual {
        /// The mover's series that became perpetual.
        series: SeriesState,
        /// The opponent's check series, if it had one running.
        opponent_check: Option<SeriesState>,
        /// The opponent's chase series that had used its allowance, else its longest
        /// running one, if any.
        opponent_chase: Option<SeriesState>,
    },
    /// "CXQ automatic draws": no chariot, horse, cannon or soldier left.
    DeadPosition,
    /// "CXQ automatic draws" 3: the moves each side made.
    MoveLimit300 {
        /// Moves made by each side (indexed by [`Color::index`]).
        moves: [u32; 2],
    },
    /// "CXQ automatic draws" 1: the effective moves each side made.
    MoveLimit120 {
        /// Effective moves made by each side (indexed by [`Color::index`]).
        effective_moves: [u32; 2],
    },
    /// "CXQ automatic draws" 2: plies since the last progress.
    NoProgress {
        /// Plies counted without progress.
        plies: u32,
        /// The 0-based ply of the last progress, `None` when there was none in the game.
        last_progress_ply: Option<u32>,
    },
}

/// The running CXQ judgement of a game.
#[derive(Clone, Debug)]
pub struct CxqJudge {
    limits: CxqLimits,
    sides: [SideState; 2],
    /// Whether the previous move (by the other side) was a check or an attack: the reply
    /// to it is not effective.
    previous_forcing: bool,
    /// Whether the last move recorded was effective.
    last_effective: bool,
    /// Plies since the last progress, by either side.
    plies_without_progress: u32,
    /// The 0-based ply of the last progress.
    last_progress_ply: Option<u32>,
    /// Moves recorded (the 0-based ply of the next move).
    plies: u32,
    /// Why the judge ended the game, once it has.
    ending: Option<CxqEnding>,
}

/// What the series of both sides say after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeriesReport {
    /// Current check-series length of each side.
    pub check_lengths: [u32; 2],
    /// The longest current chase series of each side.
    pub longest_chase: [u32; 2],
}

impl CxqJudge {
    /// A judge for a new game with these limits.
    pub fn new(limits: CxqLimits) -> CxqJudge {
        CxqJudge {
            limits,
            sides: [SideState::default(), SideState::default()],
            previous_forcing: false,
            last_effective: false,
            plies_without_progress: 0,
            last_progress_ply: None,
            plies: 0,
            ending: None,
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> &CxqLimits {
        &self.limits
    }

    /// Records a move by `mover` and returns the game's end if this move ends it by a
    /// CXQ rule. `dead_position` says whether neither side has a chariot, horse, cannon
    /// or soldier left after the move.
    pub fn record(&mut self, mover: Color, facts: &MoveFacts, dead_position: bool) -> Option<Outcome> {
        let ply = self.plies;
        self.plies += 1;
        let forcing = facts.is_check() || facts.attacks;
        let side = &mut self.sides[mover.index()];
        side.moves += 1;
        // "CXQ automatic draws" 1: a check, an attack, or a reply to one is not effective.
        self.last_effective = !forcing && !self.previous_forcing;
        if self.last_effective {
            side.effective_moves += 1;
        }
        self.previous_forcing = forcing;

        // Interpretation: a move that is not a check resets the check series.
        if facts.is_check() {
            side.check.extend(facts.checkers, ply);
        } else {
            side.check = Series::default();
        }
        // Interpretation: a move that does not attack an unprotected target resets that
        // target's series; every chased target's series grows.
        let mut chased_now: PieceSet = 0;
        for &(target, attackers) in &facts.chased {
            chased_now |= 1 << target;
            side.chase[target as usize].extend(attackers, ply);
        }
        for (target, series) in side.chase.iter_mut().enumerate() {
            if chased_now & (1 << target) == 0 {
                *series = Series::default();
            }
        }

        if facts.progress {
            self.plies_without_progress = 0;
            self.last_progress_ply = Some(ply);
        } else {
            self.plies_without_progress += 1;
        }

        let ended = self.perpetual_outcome(mover).or_else(|| self.automatic_draw(dead_position));
        if let Some((outcome, ending)) = ended {
            self.ending = Some(ending);
            return Some(outcome);
        }
        None
    }

    /// Whether the last move recorded was effective ("CXQ automatic draws" 1).
    pub fn last_move_effective(&self) -> bool {
        self.last_effective
    }

    /// Why the judge ended the game, once it has.
    pub fn ending(&self) -> Option<&CxqEnding> {
        self.ending.as_ref()
    }

    /// The state of one of `side`'s series now.
    fn state(&self, side: Color, kind: SeriesKind) -> SeriesState {
        let series = self.sides[side.index()].series(kind);
        SeriesState {
            side,
            kind,
            length: series.length,
            pieces: series.pieces,
            first_ply: series.first_ply,
            allowance: self.limits.series_allowance(series.pieces.count_ones()),
        }
    }

    /// Rule 5, judged when `mover`'s move made one of its series perpetual: on both
    /// sides' series as they stand after that move.
    ///
    /// Interpretation (the spec is silent on the timing): the opponent's series cannot
    /// have exceeded its allowance already (that move would have ended the game), so
    /// "both sides check (chase) perpetually" means the opponent's series has used its
    /// whole allowance over the same stretch: its length is at least the allowance.
    /// Without this reading the mutual outcomes of rule 5 could never happen.
    fn perpetual_outcome(&self, mover: Color) -> Option<(Outcome, CxqEnding)> {
        let limits = &self.limits;
        let me = &self.sides[mover.index()];
        let decisive = if me.check.is_perpetual(limits) {
            SeriesKind::Check
        } else {
            me.longest_chase(|s| s.is_perpetual(limits))?
        };
        let my_check = decisive == SeriesKind::Check;
        let opponent = mover.other();
        let them = &self.sides[opponent.index()];
        let their_check = them.check.has_used_allowance(limits);
        let their_chase = them.longest_chase(|s| s.has_used_allowance(limits));
        let ending = CxqEnding::Perpetual {
            series: self.state(mover, decisive),
            opponent_check: (them.check.length > 0).then(|| self.state(opponent, SeriesKind::Check)),
            opponent_chase: their_chase
                .or_else(|| them.longest_chase(|s| s.length > 0))
                .map(|kind| self.state(opponent, kind)),
        };
        let their_chase = their_chase.is_some();
        let outcome = if my_check {
            if their_check {
                Outcome::draw(EndReason::MutualPerpetualCheck)
            } else {
                // Alone, or against a perpetual chase: the checking side loses.
                Outcome::win(opponent, EndReason::PerpetualCheck)
            }
        } else if their_check {
            // The mover chases perpetually, the opponent checks perpetually: the checking
            // side loses.
            Outcome::win(mover, EndReason::PerpetualCheck)
        } else if their_chase {
            Outcome::draw(EndReason::MutualPerpetualChase)
        } else {
            Outcome::win(opponent, EndReason::PerpetualChase)
        };
        Some((outcome, ending))
    }

    /// "CXQ automatic draws".
    fn automatic_draw(&self, dead_position: bool) -> Option<(Outcome, CxqEnding)> {
        let limits = &self.limits;
        let [first, second] = &self.sides;
        let (reason, ending) = if dead_position {
            (EndReason::DeadPosition, CxqEnding::DeadPosition)
        } else if first.moves >= limits.moves_per_side && second.moves >= limits.moves_per_side {
            (EndReason::MoveLimit300, CxqEnding::MoveLimit300 { moves: [first.moves, second.moves] })
        } else if first.effective_moves >= limits.effective_moves
            && second.effective_moves >= limits.effective_moves
        {
            let effective_moves = [first.effective_moves, second.effective_moves];
            (EndReason::MoveLimit120, CxqEnding::MoveLimit120 { effective_moves })
        } else if self.plies_without_progress >= 2 * limits.moves_without_progress {
            // "each side has made 30 moves since the last progress": 60 plies.
            let ending = CxqEnding::NoProgress {
                plies: self.plies_without_progress,
                last_progress_ply: self.last_progress_ply,
            };
            (EndReason::NoProgress30, ending)
        } else {
            return None;
        };
        Some((Outcome::draw(reason), ending))
    }

    /// The current series lengths (for display and tests).
    pub fn report(&self) -> SeriesReport {
        SeriesReport {
            check_lengths: [self.sides[0].check.length, self.sides[1].check.length],
            longest_chase: [
                self.sides[0].chase.iter().map(|s| s.length).max().unwrap_or(0),
                self.sides[1].chase.iter().map(|s| s.length).max().unwrap_or(0),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOK_A: PieceId = 0;
    const ROOK_B: PieceId = 1;
    const HORSE: PieceId = 2;
    const TARGET: PieceId = 20;
    const OTHER_TARGET: PieceId = 21;

    fn check(by: PieceSet) -> MoveFacts {
        MoveFacts { checkers: by, ..MoveFacts::default() }
    }

    fn chase(target: PieceId, by: PieceSet) -> MoveFacts {
        MoveFacts { chased: vec![(target, by)], attacks: true, ..MoveFacts::default() }
    }

    fn quiet() -> MoveFacts {
        MoveFacts::default()
    }

    /// Plays `first` for Red and `second` for Black alternately, `n` times each, and
    /// returns the first outcome with the ply (1-based) it happened at.
    fn play_pairs(
        judge: &mut CxqJudge,
        n: u32,
        first: impl Fn(u32) -> MoveFacts,
        second: impl Fn(u32) -> MoveFacts,
    ) -> Option<(u32, Outcome)> {
        for i in 0..n {
            if let Some(o) = judge.record(Color::First, &first(i), false) {
                return Some((2 * i + 1, o));
            }
            if let Some(o) = judge.record(Color::Second, &second(i), false) {
                return Some((2 * i + 2, o));
            }
        }
        None
    }

    #[test]
    fn cxq_rule_3_one_piece_may_check_six_times_the_seventh_loses() {
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        let result = play_pairs(&mut judge, 10, |_| check(1 << ROOK_A), |_| quiet());
        assert_eq!(result, Some((13, Outcome::win(Color::Second, EndReason::PerpetualCheck))));
    }

    #[test]
    fn cxq_rule_3_two_pieces_allow_twelve_checks() {
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        let by = |i: u32| if i.is_multiple_of(2) { 1 << ROOK_A } else { 1 << ROOK_B };
        let result = play_pairs(&mut judge, 20, |i| check(by(i)), |_| quiet());
        assert_eq!(result, Some((25, Outcome::win(Color::Second, EndReason::PerpetualCheck))));
    }

    #[test]
    fn cxq_rule_4_one_check_and_one_quiet_move_is_allowed() {
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        let result = play_pairs(
            &mut judge,
            29,
            |i| if i.is_multiple_of(2) { check(1 << ROOK_A) } else { quiet() },
            |_| quiet(),
        );
        assert_eq!(result, None);
    }

    #[test]
    fn cxq_rule_4_checks_alternating_with_chases_are_allowed() {
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        let result = play_pairs(
            &mut judge,
            29,
            |i| if i.is_multiple_of(2) { check(1 << ROOK_A) } else { chase(TARGET, 1 << ROOK_A) },
            |_| quiet(),
        );
        assert_eq!(result, None);
    }

    #[test]
    fn cxq_rule_4_chasing_two_pieces_alternately_is_allowed() {
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        let result = play_pairs(
            &mut judge,
            29,
            |i| if i.is_multiple_of(2) { chase(TARGET, 1 << HORSE) } else { chase(OTHER_TARGET, 1 << HORSE) },
            |_| quiet(),
        );
        assert_eq!(result, None);
    }

    #[test]
    fn cxq_rule_2_chasing_one_unprotected_piece_seven_times_loses() {
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        let result = play_pairs(&mut judge, 10, |_| quiet(), |_| chase(TARGET, 1 << HORSE));
        assert_eq!(result, Some((14, Outcome::win(Color::First, EndReason::PerpetualChase))));
    }

    #[test]
    fn cxq_rule_5_both_sides_checking_perpetually_draw() {
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        let result = play_pairs(&mut judge, 10, |_| check(1 << ROOK_A), |_| check(1 << ROOK_B));
        assert_eq!(result, Some((13, Outcome::draw(EndReason::MutualPerpetualCheck))));
    }

    #[test]
    fn cxq_rule_5_both_sides_chasing_perpetually_draw() {
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        let result =
            play_pairs(&mut judge, 10, |_| chase(OTHER_TARGET, 1 << ROOK_A), |_| chase(TARGET, 1 << HORSE));
        assert_eq!(result, Some((13, Outcome::draw(EndReason::MutualPerpetualChase))));
    }

    #[test]
    fn cxq_rule_5_perpetual_check_against_perpetual_chase_loses_for_the_checker() {
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        let result = play_pairs(&mut judge, 10, |_| check(1 << ROOK_A), |_| chase(TARGET, 1 << HORSE));
        assert_eq!(result, Some((13, Outcome::win(Color::Second, EndReason::PerpetualCheck))));

        // The chaser makes the series perpetual, but the opponent has been checking
        // throughout: still the checking side loses.
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        let result = play_pairs(&mut judge, 10, |_| chase(TARGET, 1 << HORSE), |_| check(1 << ROOK_A));
        assert_eq!(result, Some((13, Outcome::win(Color::First, EndReason::PerpetualCheck))));
    }

    #[test]
    fn cxq_rule_5_the_ending_names_both_sides_series() {
        // The chaser makes its series perpetual at ply 13 while Black has checked six
        // times: the ending keeps both, with their first plies and allowances.
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        play_pairs(&mut judge, 10, |_| chase(TARGET, 1 << HORSE), |_| check(1 << ROOK_A));
        let Some(&CxqEnding::Perpetual { series, opponent_check, opponent_chase }) = judge.ending() else {
            panic!("{:?}", judge.ending())
        };
        assert_eq!(series.kind, SeriesKind::Chase(TARGET));
        assert_eq!((series.side, series.length, series.first_ply, series.allowance), (Color::First, 7, 0, 6));
        assert!(series.is_perpetual());
        let check = opponent_check.expect("Black's check series");
        assert_eq!((check.side, check.length, check.first_ply), (Color::Second, 6, 1));
        assert!(check.has_used_allowance() && !check.is_perpetual());
        assert_eq!(opponent_chase, None);
    }

    #[test]
    fn cxq_automatic_draw_no_progress_remembers_the_last_progress() {
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        let progress = MoveFacts { progress: true, ..MoveFacts::default() };
        assert_eq!(judge.record(Color::First, &progress, false), None);
        play_pairs(&mut judge, 40, |_| quiet(), |_| quiet());
        assert_eq!(judge.ending(), Some(&CxqEnding::NoProgress { plies: 60, last_progress_ply: Some(0) }));
    }

    #[test]
    fn cxq_rule_5_a_violator_against_a_shorter_series_loses_alone() {
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        // Black checks only every other move: its series never reaches the allowance.
        let result = play_pairs(
            &mut judge,
            10,
            |_| check(1 << ROOK_A),
            |i| if i.is_multiple_of(2) { check(1 << ROOK_B) } else { quiet() },
        );
        assert_eq!(result, Some((13, Outcome::win(Color::Second, EndReason::PerpetualCheck))));
    }

    #[test]
    fn cxq_automatic_draw_no_progress_after_thirty_moves_each() {
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        let result = play_pairs(&mut judge, 40, |_| quiet(), |_| quiet());
        assert_eq!(result, Some((60, Outcome::draw(EndReason::NoProgress30))));
    }

    #[test]
    fn cxq_automatic_draw_efficiency_after_120_effective_moves_each() {
        let limits = CxqLimits { moves_without_progress: 1000, ..CxqLimits::STANDARD };
        let mut judge = CxqJudge::new(limits);
        let result = play_pairs(&mut judge, 200, |_| quiet(), |_| quiet());
        assert_eq!(result, Some((240, Outcome::draw(EndReason::MoveLimit120))));
    }

    #[test]
    fn cxq_automatic_draw_replies_to_checks_are_not_effective() {
        let limits = CxqLimits { moves_without_progress: 1000, ..CxqLimits::STANDARD };
        let mut judge = CxqJudge::new(limits);
        // Red checks every other move with different pieces (never perpetual); Black's
        // replies to those checks do not count: 120 effective moves come later than 240.
        let result = play_pairs(
            &mut judge,
            400,
            |i| if i.is_multiple_of(2) { check(1 << (i % 30) as u8) } else { quiet() },
            |_| quiet(),
        );
        let (ply, outcome) = result.expect("a draw is reached");
        assert_eq!(outcome, Outcome::draw(EndReason::MoveLimit120));
        assert!(ply > 240, "replies to checks must not be effective (ended at {ply})");
    }

    #[test]
    fn cxq_automatic_draw_three_hundred_moves_each() {
        let limits =
            CxqLimits { moves_without_progress: 10_000, effective_moves: 10_000, ..CxqLimits::STANDARD };
        let mut judge = CxqJudge::new(limits);
        let result = play_pairs(&mut judge, 400, |_| quiet(), |_| quiet());
        assert_eq!(result, Some((600, Outcome::draw(EndReason::MoveLimit300))));
    }

    #[test]
    fn cxq_dead_position_is_drawn_at_once() {
        let mut judge = CxqJudge::new(CxqLimits::STANDARD);
        assert_eq!(judge.record(Color::First, &quiet(), true), Some(Outcome::draw(EndReason::DeadPosition)));
    }
}
