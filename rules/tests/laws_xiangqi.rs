//! The CXQ laws on real positions (`xiangqi.md` "CXQ supplementary rules" and "CXQ
//! automatic draws") and the FIX handicaps (`xiangqi.md` "Handicap games (FIX)").
//! Each test names the rule it checks.

use tavoliere_rules::game::handicap::{Handicap, XiangqiHandicap};
use tavoliere_rules::game::xiangqi::{GameError, XiangqiGame};
use tavoliere_rules::game::{CxqLimits, Ruleset};
use tavoliere_rules::notation::xiangqi::{fen, iccs};
use tavoliere_rules::{Color, EndReason, Outcome};

const CXQ: Ruleset = Ruleset::Cxq(CxqLimits::STANDARD);

fn game(start: &str) -> XiangqiGame {
    XiangqiGame::new(fen::parse(start).unwrap_or_else(|e| panic!("{start}: {e}")), CXQ, None)
}

fn play(game: &mut XiangqiGame, moves: &[&str]) -> Option<(usize, Outcome)> {
    for (i, text) in moves.iter().enumerate() {
        let m = iccs::parse(game.position(), text).unwrap_or_else(|e| panic!("ply {}: {text}: {e}", i + 1));
        if let Some(outcome) = game.play(m).unwrap_or_else(|e| panic!("ply {}: {text}: {e}", i + 1)) {
            return Some((i + 1, outcome));
        }
    }
    None
}

fn cycle(moves: &[&'static str], plies: usize) -> Vec<&'static str> {
    moves.iter().copied().cycle().take(plies).collect()
}

/// The facts of one move: (gives check, attacks anything, number of chased targets).
fn facts(start: &str, mv: &str) -> (bool, bool, usize) {
    let g = game(start);
    let m = iccs::parse(g.position(), mv).unwrap();
    let f = g.facts_of(m).expect("legal move");
    (f.is_check(), f.attacks, f.chased.len())
}

/// Red's chariot checks along ranks 9 and 8 while Black's king steps between e9 and e8.
const CHARIOT_CHECKS: &str = "4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1";

#[test]
fn cxq_rule_1_perpetual_check_by_one_chariot_loses_on_the_seventh_check() {
    let mut g = game(CHARIOT_CHECKS);
    let mut moves = vec!["i0i9"];
    moves.extend(cycle(&["e9e8", "i9i8", "e8e9", "i8i9"], 20));
    assert_eq!(play(&mut g, &moves), Some((13, Outcome::win(Color::Second, EndReason::PerpetualCheck))));
}

#[test]
fn cxq_rule_4_six_checks_then_a_quiet_move_is_allowed() {
    let mut g = game(CHARIOT_CHECKS);
    let mut moves = vec!["i0i9"];
    moves.extend(cycle(&["e9e8", "i9i8", "e8e9", "i8i9"], 10));
    // Six checks made; Red now plays a quiet king move instead of the seventh check.
    moves.extend(["e8e9", "d0d1", "e9f9", "i8i9"]);
    assert_eq!(play(&mut g, &moves), None, "the quiet move reset Red's check series");
    assert_eq!(g.judge().unwrap().report().check_lengths[0], 1);
}

/// Red's chariot follows Black's unprotected horse between b7 and a5.
const HORSE_CHASE: &str = "4k4/9/1n7/9/9/9/9/9/9/R2K5 w - - 0 1";

#[test]
fn cxq_rule_2_perpetual_chase_of_an_unprotected_horse_loses() {
    let mut g = game(HORSE_CHASE);
    let moves = cycle(&["a0b0", "b7a5", "b0a0", "a5b7"], 30);
    assert_eq!(play(&mut g, &moves), Some((13, Outcome::win(Color::Second, EndReason::PerpetualChase))));
}

#[test]
fn cxq_chasing_a_protected_piece_is_not_a_violation() {
    // Black's chariots on i7 and i5 protect b7 and a5 along their ranks.
    let mut g = game("4k4/9/1n6r/9/8r/9/9/9/9/R2K5 w - - 0 1");
    let moves = cycle(&["a0b0", "b7a5", "b0a0", "a5b7"], 30);
    assert_eq!(play(&mut g, &moves), None);
}

#[test]
fn cxq_attack_on_a_protected_piece_is_an_attack_but_not_a_chase() {
    // The chariot attacks the horse on b7, which Black's chariot on i7 protects.
    assert_eq!(facts("4k4/9/1n6r/9/9/9/9/9/9/R2K5 w - - 0 1", "a0b0"), (false, true, 0));
    // Without the protector it is a chase.
    assert_eq!(facts(HORSE_CHASE, "a0b0"), (false, true, 1));
}

#[test]
fn cxq_chariot_threatened_by_a_horse_counts_as_unprotected() {
    // Red's horse goes from d5 to c7 and attacks the chariot on a8 (leg b7 empty), which
    // Black's chariot on a9 protects. Still a chase: the chariot exception.
    let start = "r3k4/r8/9/9/3N5/9/9/9/9/3K5 w - - 0 1";
    assert_eq!(facts(start, "d5c7"), (false, true, 1));
}

#[test]
fn cxq_a_pinned_piece_does_not_attack() {
    // Red's chariot e2 -> e3 would attack the horse on a3 along rank 3, but Black's chariot
    // on e7 pins it to Red's king on e0; the attack on e7 itself is a same-type exchange.
    assert_eq!(facts("3k5/9/4r4/9/9/9/n8/4R4/9/4K4 w - - 0 1", "e2e3"), (false, false, 0));
    // Unpinned (no Black chariot), the same move chases the horse.
    assert_eq!(facts("5k3/9/9/9/9/9/n8/4R4/9/3K5 w - - 0 1", "e2e3"), (false, true, 1));
}

#[test]
fn cxq_a_discovered_attack_counts_for_the_piece_that_attacks() {
    // Red's horse on a2 leaves the a-file and uncovers the chariot a0 on the horse a6.
    let g = game("4k4/9/9/n8/9/9/9/N8/9/R2K5 w - - 0 1");
    let m = iccs::parse(g.position(), "a2c3").unwrap();
    let f = g.facts_of(m).unwrap();
    assert_eq!(f.chased.len(), 1, "the uncovered chariot chases the horse");
}

#[test]
fn cxq_becoming_the_screen_of_ones_own_cannon_is_an_attack() {
    // Red's cannon on a0 faces the Black horse on a7 with no screen; Red's horse b2 -> a4
    // becomes the screen.
    let g = game("4k4/9/n8/9/9/9/9/1N7/9/C2K5 w - - 0 1");
    let m = iccs::parse(g.position(), "b2a4").unwrap();
    let f = g.facts_of(m).unwrap();
    assert_eq!(f.chased.len(), 1, "the cannon now attacks the horse through its new screen");
}

#[test]
fn cxq_same_type_exchange_is_not_an_attack() {
    // Red's chariot goes to b7, facing Black's chariot on b9, which can take back.
    assert_eq!(facts("1r2k4/9/9/9/9/9/9/9/9/1R1K5 w - - 0 1", "b0b7"), (false, false, 0));
}

#[test]
fn cxq_threats_by_soldiers_and_against_uncrossed_soldiers_are_not_attacks() {
    // A Red soldier across the river threatens a horse: not an attack (soldier threat).
    assert_eq!(facts("4k4/9/9/1n7/1P7/9/9/9/9/3K5 w - - 0 1", "b5b6"), (false, false, 0));
    // A chariot threatening a Black soldier that has not crossed the river.
    assert_eq!(facts("4k4/9/9/p8/9/9/9/9/9/1R1K5 w - - 0 1", "b0a0"), (false, false, 0));
}

#[test]
fn fix_chariot_odds_protects_the_unmoved_left_pieces() {
    let h = Handicap::Xiangqi(XiangqiHandicap::Chariot);
    let start = fen::parse(h.start_fen()).unwrap();
    let mut g = XiangqiGame::new(start, CXQ, Some(h));
    // Red 1. e3e4; Black's cannon b7 takes the b0 horse? It may not: b0 has not moved.
    play(&mut g, &["e3e4"]);
    let capture = iccs::parse(g.position(), "b7b0").unwrap();
    assert_eq!(g.check_move(capture), Err(GameError::HandicapCapture));
}

#[test]
fn fix_three_move_odds_red_moves_three_times_without_crossing_the_river() {
    let h = Handicap::Xiangqi(XiangqiHandicap::ThreeMoves);
    let start = fen::parse(h.start_fen()).unwrap();
    let mut g = XiangqiGame::new(start, CXQ, Some(h));
    play(&mut g, &["h2e2", "b2c2"]);
    assert_eq!(g.side_to_move(), Color::First, "Red's third move");
    let across = iccs::parse(g.position(), "a3a4").unwrap();
    assert!(g.check_move(across).is_ok(), "a4 is still Red's side");
    let rook_across = iccs::parse(g.position(), "i0i5");
    if let Ok(m) = rook_across {
        assert_eq!(g.check_move(m), Err(GameError::HandicapRiver));
    }
    play(&mut g, &["a3a4"]);
    assert_eq!(g.side_to_move(), Color::Second);
}

#[test]
fn a_checkmate_ends_the_game() {
    // The chariot on a8 holds rank 8, Red's king holds the e-file (flying general), the
    // second chariot checks on rank 9.
    let mut g = game("3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1");
    assert_eq!(play(&mut g, &["i0i9"]), Some((1, Outcome::win(Color::First, EndReason::Checkmate))));
}
