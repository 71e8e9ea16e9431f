//! Shogi and MiniShogi game records judged by their laws: sennichite and perpetual check
//! (`shogi.md` "End of the game"), the AISE and modern MiniShogi repetition rules and
//! jishogi (`minishogi.md` "End of the game"), impasse claims and declarations, and the
//! multi-move turns of the MiniShogi handicaps (`minishogi.md` "Handicaps").

use std::collections::HashMap;
use std::fmt;

use crate::game::handicap::{Handicap, HandicapRules};
use crate::game::ruleset::{ImpasseRule, MiniRepetitionRule, Ruleset};
use crate::game::ruling::{
    Citation, CountedPiece, Declaration, Evidence, NoLegalMove, PieceAt, PointCount, Repetition, Ruling,
    SideCount,
};
use crate::notation::shogi::sfen;
use crate::shogi::{IllegalMoveKind, Move, Position, Role, Square, Variant};
use crate::{Color, EndDetails, EndReason, Outcome};

/// Why a move or a claim was refused by the game (as opposed to the position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game is over.
    GameOver,
    /// The move is illegal in the position.
    Illegal(IllegalMoveKind),
    /// A handicap forbids this capture (`minishogi.md` "Handicaps" 2 and 6).
    HandicapCapture,
    /// The claim is not available under this ruleset or in this position.
    ClaimNotAllowed(&'static str),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver => f.write_str("the game is over"),
            GameError::Illegal(kind) => write!(f, "{kind}"),
            GameError::HandicapCapture => {
                f.write_str("the handicap forbids captures by the receiving player")
            }
            GameError::ClaimNotAllowed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for GameError {}

/// A claim a player may make instead of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// Shogi impasse: the 24-point count (ruleset `shogi-24`) or the 27-point
    /// declaration (ruleset `shogi-27`), whichever the ruleset uses.
    Impasse,
}

/// What the game record keeps for each ply.
#[derive(Clone, Copy, Debug)]
struct PlyFacts {
    mover: Color,
    check: bool,
}

/// A Shogi or MiniShogi game: the start, the moves, and the laws' running state.
#[derive(Clone, Debug)]
pub struct ShogiGame {
    ruleset: Ruleset,
    handicap: HandicapRules,
    start: Position,
    position: Position,
    moves: Vec<Move>,
    facts: Vec<PlyFacts>,
    /// For each position key: the ply of its first occurrence and how often it occurred.
    occurrences: HashMap<u64, (u32, u8)>,
    /// The position key after each ply (index 0: the start), for naming the plies of a
    /// repetition in its ruling.
    keys: Vec<u64>,
    /// `non_checks[c][i]`: how many of the first `i` plies were non-check moves by `c`.
    non_checks: [Vec<u32>; 2],
    /// Moves the side to move has still to make in the current turn, after this one.
    moves_left_in_turn: u8,
    outcome: Option<Outcome>,
    /// Why a law (or a claim) ended the game, once one has.
    ruling: Option<Ruling>,
}

/// Piece values of a jishogi or impasse count.
#[derive(Clone, Copy, Debug)]
struct PieceValues {
    /// Rook and bishop, promoted or not.
    big: u32,
    /// Gold and silver (promoted pieces count as their unpromoted kind).
    gold_silver: u32,
}

/// `shogi.md` "Impasse": R and B 5 points, every other piece 1.
const IMPASSE_VALUES: PieceValues = PieceValues { big: 5, gold_silver: 1 };
/// `shogi.md` "Impasse", 24-point rule: fewer points lose.
const IMPASSE_POINTS: u32 = 24;
/// `shogi.md` "Impasse", 27-point declaration: other pieces needed in the enemy camp.
const DECLARATION_PIECES: u32 = 10;
/// `minishogi.md` "Jishogi": R and B 3, G and S 2, P 1.
const MINI_JISHOGI_VALUES: PieceValues = PieceValues { big: 3, gold_silver: 2 };
/// `minishogi.md` "Jishogi": fewer points lose.
const MINI_JISHOGI_POINTS: u32 = 11;

/// `shogi.md` "Impasse", 27-point declaration: the points a declarer needs, 28 for Black
/// and 27 for White.
fn declaration_points(declarer: Color) -> u32 {
    match declarer {
        Color::First => 28,
        Color::Second => 27,
    }
}

impl PieceValues {
    fn of(self, role: Role) -> u32 {
        match role.unpromoted() {
            Role::King => 0,
            Role::Rook | Role::Bishop => self.big,
            Role::Gold | Role::Silver => self.gold_silver,
            _ => 1,
        }
    }
}

/// The Shogi role's name in rulings.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Gold => "gold",
        Role::Silver => "silver",
        Role::Knight => "knight",
        Role::Lance => "lance",
        Role::Pawn => "pawn",
        Role::Dragon => "dragon",
        Role::Horse => "horse",
        Role::ProSilver => "promoted-silver",
        Role::ProKnight => "promoted-knight",
        Role::ProLance => "promoted-lance",
        Role::Tokin => "promoted-pawn",
    }
}

impl ShogiGame {
    /// A game from `start` under `ruleset`, with the extra rules of `handicap`.
    ///
    /// The ruleset must be [`Ruleset::Shogi`] for Shogi and [`Ruleset::MiniShogi`] for
    /// MiniShogi; other rulesets fall back to the variant's default.
    pub fn new(start: Position, ruleset: Ruleset, handicap: Option<Handicap>) -> ShogiGame {
        let ruleset = match (start.variant(), ruleset) {
            (Variant::Standard, r @ Ruleset::Shogi(_)) => r,
            (Variant::Standard, _) => Ruleset::Shogi(ImpasseRule::default()),
            (Variant::Mini, r @ Ruleset::MiniShogi { .. }) => r,
            (Variant::Mini, _) => {
                Ruleset::MiniShogi { repetition: MiniRepetitionRule::default(), tournament: false }
            }
        };
        let handicap = handicap.map(|h| h.rules()).unwrap_or_default();
        let mut game = ShogiGame {
            ruleset,
            handicap,
            position: start.clone(),
            start,
            moves: Vec::new(),
            facts: Vec::new(),
            occurrences: HashMap::new(),
            keys: Vec::new(),
            non_checks: [vec![0], vec![0]],
            moves_left_in_turn: 0,
            outcome: None,
            ruling: None,
        };
        game.moves_left_in_turn = game.extra_moves_for(game.position.turn());
        game.occurrences.insert(game.key(), (0, 1));
        game.keys.push(game.key());
        game.outcome = game.position.outcome_by_basic_rules();
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

    /// The outcome, once the game has ended by rule.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Why a law or a claim ended the game (no legal move, sennichite, repetition,
    /// jishogi, impasse), once one has.
    pub fn ruling(&self) -> Option<&Ruling> {
        self.ruling.as_ref()
    }

    /// Whether the given ply (0-based index into [`ShogiGame::moves`]) gave check.
    pub fn was_check(&self, ply: usize) -> bool {
        self.facts.get(ply).is_some_and(|f| f.check)
    }

    /// The side that makes the next move.
    pub fn side_to_move(&self) -> Color {
        self.position.turn()
    }

    /// Moves the side to move still makes in this turn after the next one (multi-move
    /// handicap turns); 0 in ordinary play.
    pub fn moves_left_in_turn(&self) -> u8 {
        self.moves_left_in_turn
    }

    /// The repetition key: board, hands and side to move, plus the position inside a
    /// multi-move turn.
    fn key(&self) -> u64 {
        self.position.zobrist() ^ (u64::from(self.moves_left_in_turn)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn extra_moves_for(&self, color: Color) -> u8 {
        match (self.handicap.receiver, self.handicap.receiver_moves_per_turn) {
            (Some(receiver), Some(n)) if receiver == color && n > 1 => n - 1,
            _ => 0,
        }
    }

    fn is_receiver(&self, color: Color) -> bool {
        self.handicap.receiver == Some(color) && self.handicap.receiver_moves_per_turn.is_some()
    }

    /// The legal moves now, with the handicap's bans applied.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let mover = self.position.turn();
        let ban_captures = self.handicap.extra_moves_no_capture && self.is_receiver(mover);
        self.position
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| !(ban_captures && self.is_capture(m)))
            .collect()
    }

    fn is_capture(&self, m: Move) -> bool {
        matches!(m, Move::Normal { to, .. } if self.position.piece_at(to).is_some())
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
        self.position.check_move(m).map_err(GameError::Illegal)?;
        // minishogi.md "Handicaps" 2 and 6: none of the receiver's moves may capture.
        if self.handicap.extra_moves_no_capture
            && self.is_receiver(self.position.turn())
            && self.is_capture(m)
        {
            return Err(GameError::HandicapCapture);
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
        let mover = self.position.turn();
        self.position.play_unchecked(m);
        let check = self.position.is_check();
        self.moves.push(m);
        self.facts.push(PlyFacts { mover, check });
        for color in Color::ALL {
            let previous = *self.non_checks[color.index()].last().expect("starts with 0");
            let add = u32::from(color == mover && !check);
            self.non_checks[color.index()].push(previous + add);
        }
        self.continue_turn(mover, check);
        self.keys.push(self.key());
        self.outcome = self.judge();
        self.ruling = self.outcome.map(|outcome| self.explain(outcome));
        Ok(self.outcome)
    }

    /// Multi-move turns (`minishogi.md` "Handicaps" 2 and 6). Interpretation: a move that
    /// gives check ends the turn (a check must be answered at once), and so does having no
    /// further non-capturing move.
    fn continue_turn(&mut self, mover: Color, check: bool) {
        if self.moves_left_in_turn > 0 && !check {
            let mut setup = self.position.to_setup();
            setup.turn = mover;
            if let Ok(again) = Position::from_setup(setup) {
                let has_quiet_move = again
                    .legal_moves()
                    .iter()
                    .any(|&m| !matches!(m, Move::Normal { to, .. } if again.piece_at(to).is_some()));
                if has_quiet_move {
                    self.position = again;
                    self.moves_left_in_turn -= 1;
                    return;
                }
            }
        }
        self.moves_left_in_turn = self.extra_moves_for(self.position.turn());
    }

    fn judge(&mut self) -> Option<Outcome> {
        if let Some(outcome) = self.position.outcome_by_basic_rules() {
            return Some(outcome);
        }
        let ply = self.moves.len() as u32;
        let key = self.key();
        let entry = self.occurrences.entry(key).or_insert((ply, 0));
        entry.1 += 1;
        let (first_ply, count) = *entry;
        if count >= 4 {
            return Some(self.repetition_outcome(first_ply));
        }
        if let Ruleset::MiniShogi { tournament, .. } = self.ruleset {
            return self.minishogi_jishogi(tournament);
        }
        None
    }

    /// Whether every move of `color` after ply `first_ply` up to now was a check (and it
    /// made at least one).
    fn checked_throughout(&self, color: Color, first_ply: u32) -> bool {
        let non_checks = &self.non_checks[color.index()];
        let now = self.moves.len();
        let made = self.facts[first_ply as usize..now].iter().filter(|f| f.mover == color).count();
        made > 0 && non_checks[now] == non_checks[first_ply as usize]
    }

    /// The fourth occurrence of a position.
    fn repetition_outcome(&self, first_ply: u32) -> Outcome {
        let first_checks = self.checked_throughout(Color::First, first_ply);
        let second_checks = self.checked_throughout(Color::Second, first_ply);
        match self.ruleset {
            Ruleset::MiniShogi { repetition, .. } => {
                // minishogi.md "End of the game", Repetition (Interpretation): the perpetual
                // checker loses; otherwise the side to move in the repeated position (who
                // made the first move of the cycle) loses, or under the modern rule the
                // player who moved first in the game. Never a draw.
                if first_checks != second_checks {
                    let checker = if first_checks { Color::First } else { Color::Second };
                    return Outcome::win(!checker, EndReason::PerpetualCheck);
                }
                match repetition {
                    MiniRepetitionRule::Aise => {
                        Outcome::win(!self.position.turn(), EndReason::RepetitionInitiatorLoses)
                    }
                    MiniRepetitionRule::Modern => {
                        Outcome::win(!self.start.turn(), EndReason::RepetitionFirstPlayerLoses)
                    }
                }
            }
            _ => {
                // shogi.md "End of the game", Sennichite (Interpretation): continuous check
                // by one side means every one of its moves since the first occurrence was
                // a check; that side loses. Both checking throughout: a draw.
                match (first_checks, second_checks) {
                    (true, false) => Outcome::win(Color::Second, EndReason::PerpetualCheck),
                    (false, true) => Outcome::win(Color::First, EndReason::PerpetualCheck),
                    _ => Outcome::draw(EndReason::Sennichite),
                }
            }
        }
    }

    /// The points of `color`, piece by piece, over board (only the enemy camp, when
    /// asked) and hand.
    fn side_count(&self, color: Color, values: PieceValues, only_enemy_camp: bool) -> SideCount {
        let pos = &self.position;
        let mut pieces: Vec<CountedPiece> = pos
            .pieces_of(color)
            .iter()
            .filter(|&sq| !only_enemy_camp || pos.in_promotion_zone(sq, color))
            .filter_map(|sq| pos.piece_at(sq).map(|p| (sq, p.role)))
            .filter(|&(_, role)| role != Role::King)
            .map(|(sq, role)| CountedPiece {
                piece: role_name(role),
                square: Some(sq.to_string()),
                count: 1,
                points: values.of(role),
            })
            .collect();
        pieces.extend(pos.hand(color).iter().filter(|&(_, n)| n > 0).map(|(role, n)| CountedPiece {
            piece: role_name(role),
            square: None,
            count: u32::from(n),
            points: values.of(role) * u32::from(n),
        }));
        SideCount { side: color, points: pieces.iter().map(|p| p.points).sum(), pieces }
    }

    fn king_in_enemy_camp(&self, color: Color) -> bool {
        self.position.king_square(color).is_some_and(|king| self.position.in_promotion_zone(king, color))
    }

    /// minishogi.md "End of the game", Jishogi: when both kings stand on the opponent's
    /// last rank the game ends; a draw in a friendly game, the 11-point count in a
    /// tournament game.
    fn minishogi_jishogi(&self, tournament: bool) -> Option<Outcome> {
        if !(self.king_in_enemy_camp(Color::First) && self.king_in_enemy_camp(Color::Second)) {
            return None;
        }
        if !tournament {
            return Some(Outcome::draw(EndReason::Jishogi));
        }
        let scores = Color::ALL.map(|c| self.side_count(c, MINI_JISHOGI_VALUES, false).points);
        let details = EndDetails { scores: Some(scores) };
        Some(match (scores[0] < MINI_JISHOGI_POINTS, scores[1] < MINI_JISHOGI_POINTS) {
            (true, false) => {
                Outcome::Decisive { winner: Color::Second, reason: EndReason::JishogiCount, details }
            }
            (false, true) => {
                Outcome::Decisive { winner: Color::First, reason: EndReason::JishogiCount, details }
            }
            _ => Outcome::Draw { reason: EndReason::JishogiCount, details },
        })
    }

    /// What a claim would decide, without changing the game.
    ///
    /// # Errors
    ///
    /// [`GameError::ClaimNotAllowed`] when the claim is not available now.
    pub fn judge_claim(&self, claim: Claim) -> Result<Outcome, GameError> {
        if self.outcome.is_some() {
            return Err(GameError::GameOver);
        }
        let Claim::Impasse = claim;
        let Ruleset::Shogi(rule) = self.ruleset else {
            return Err(GameError::ClaimNotAllowed("impasse claims exist only in Shogi"));
        };
        match rule {
            ImpasseRule::TwentyFourPoints => {
                // shogi.md "Impasse", 24-point rule: when both kings are in their zones
                // either player may ask for the count; R and B 5 points, others 1, board
                // and hand; fewer than 24 loses, both 24 or more draw.
                if !(self.king_in_enemy_camp(Color::First) && self.king_in_enemy_camp(Color::Second)) {
                    return Err(GameError::ClaimNotAllowed(
                        "the 24-point count needs both kings in their promotion zones",
                    ));
                }
                let scores = Color::ALL.map(|c| self.side_count(c, IMPASSE_VALUES, false).points);
                let details = EndDetails { scores: Some(scores) };
                Ok(match (scores[0] < IMPASSE_POINTS, scores[1] < IMPASSE_POINTS) {
                    (true, false) => {
                        Outcome::Decisive { winner: Color::Second, reason: EndReason::Impasse24, details }
                    }
                    (false, true) => {
                        Outcome::Decisive { winner: Color::First, reason: EndReason::Impasse24, details }
                    }
                    _ => Outcome::Draw { reason: EndReason::Impasse24, details },
                })
            }
            ImpasseRule::TwentySevenDeclaration => {
                // shogi.md "Impasse", 27-point declaration: on one's own turn, king in the
                // enemy camp and not in check, ten other pieces in the enemy camp, points
                // (pieces in the camp plus hand) at least 28 for Black, 27 for White. A
                // declaration that does not meet the conditions loses.
                let me = self.position.turn();
                let pieces_in_camp = self
                    .position
                    .pieces_of(me)
                    .iter()
                    .filter(|&sq| self.position.in_promotion_zone(sq, me))
                    .filter(|&sq| self.position.piece_at(sq).is_some_and(|p| p.role != Role::King))
                    .count();
                let points = self.side_count(me, IMPASSE_VALUES, true).points;
                let needed = declaration_points(me);
                let valid = self.king_in_enemy_camp(me)
                    && !self.position.is_check()
                    && pieces_in_camp >= DECLARATION_PIECES as usize
                    && points >= needed;
                let mut scores = [0; 2];
                scores[me.index()] = points;
                let details = EndDetails { scores: Some(scores) };
                let winner = if valid { me } else { !me };
                Ok(Outcome::Decisive { winner, reason: EndReason::ImpasseDeclaration, details })
            }
        }
    }

    /// Makes a claim; the game ends with the judged outcome.
    ///
    /// # Errors
    ///
    /// As [`ShogiGame::judge_claim`].
    pub fn claim(&mut self, claim: Claim) -> Result<Outcome, GameError> {
        let outcome = self.judge_claim(claim)?;
        self.outcome = Some(outcome);
        self.ruling = Some(self.explain(outcome));
        Ok(outcome)
    }

    /// The ruling for `outcome`, reached now.
    fn explain(&self, outcome: Outcome) -> Ruling {
        let spec = match self.position.variant() {
            Variant::Standard => "shogi.md",
            Variant::Mini => "minishogi.md",
        };
        let end_of_the_game =
            |interpretation| Citation { spec, section: "End of the game", items: &[], interpretation };
        let reason = outcome.reason();
        let (citation, evidence) = match reason {
            EndReason::Checkmate | EndReason::Stalemate => {
                let side = self.position.turn();
                let checkers = self.position.checkers().iter().filter_map(|sq| self.piece_at(sq)).collect();
                let evidence = Evidence::NoLegalMove(NoLegalMove {
                    side,
                    in_check: self.position.is_check(),
                    checkers,
                    legal_moves: 0,
                });
                (end_of_the_game(false), evidence)
            }
            EndReason::Jishogi | EndReason::JishogiCount | EndReason::Impasse24 => {
                let (threshold, counts) = match reason {
                    EndReason::Jishogi => (None, Vec::new()),
                    EndReason::JishogiCount => (
                        Some(MINI_JISHOGI_POINTS),
                        Color::ALL.map(|c| self.side_count(c, MINI_JISHOGI_VALUES, false)).to_vec(),
                    ),
                    _ => (
                        Some(IMPASSE_POINTS),
                        Color::ALL.map(|c| self.side_count(c, IMPASSE_VALUES, false)).to_vec(),
                    ),
                };
                let kings = Color::ALL
                    .iter()
                    .filter_map(|&c| self.position.king_square(c).and_then(|sq| self.piece_at(sq)))
                    .collect();
                (end_of_the_game(false), Evidence::PointCount(PointCount { kings, threshold, counts }))
            }
            EndReason::ImpasseDeclaration => {
                let declarer = self.position.turn();
                let counted = self.side_count(declarer, IMPASSE_VALUES, true);
                let pieces_in_camp = counted.pieces.iter().filter(|p| p.square.is_some()).count() as u32;
                let king = self.position.king_square(declarer).and_then(|sq| self.piece_at(sq));
                let evidence = Evidence::Declaration(Declaration {
                    declarer,
                    king: king.unwrap_or(PieceAt { piece: "king", side: declarer, square: None }),
                    king_in_camp: self.king_in_enemy_camp(declarer),
                    in_check: self.position.is_check(),
                    pieces_in_camp,
                    pieces_needed: DECLARATION_PIECES,
                    points: counted.points,
                    points_needed: declaration_points(declarer),
                    valid: outcome.winner() == Some(declarer),
                    pieces: counted.pieces,
                });
                (end_of_the_game(false), evidence)
            }
            // Sennichite, perpetual check, the MiniShogi repetition laws.
            _ => {
                let key = self.key();
                let first_ply = self.occurrences.get(&key).map_or(0, |&(first, _)| first);
                let evidence = Evidence::Repetition(Repetition {
                    position: sfen::write(&self.position),
                    occurrences: (0..self.keys.len() as u32)
                        .filter(|&p| self.keys[p as usize] == key)
                        .collect(),
                    cycle_started_by: self.position.turn(),
                    checking_throughout: Color::ALL
                        .into_iter()
                        .filter(|&c| self.checked_throughout(c, first_ply))
                        .collect(),
                });
                (end_of_the_game(true), evidence)
            }
        };
        Ruling {
            law: reason.as_str(),
            citation,
            ply: self.moves.len() as u32,
            against: outcome.winner().map(|winner| !winner),
            evidence,
        }
    }

    fn piece_at(&self, square: Square) -> Option<PieceAt> {
        let piece = self.position.piece_at(square)?;
        Some(PieceAt { piece: role_name(piece.role), side: piece.color, square: Some(square.to_string()) })
    }
}
