//! The CXQ laws on real positions (`xiangqi.md` "CXQ supplementary rules" and "CXQ
//! automatic draws") and the FIX handicaps (`xiangqi.md` "Handicap games (FIX)").
//! Each test names the rule it checks.

use tavoliere_rules::game::handicap::{Handicap, XiangqiHandicap};
use tavoliere_rules::game::ruling::{Evidence, SeriesKind};
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
fn cxq_a_line_the_move_opens_does_not_make_the_piece_behind_it_an_attacker() {
    // Red's horse on a2 leaves the a-file and opens it for the chariot a0 onto the horse
    // a6: only the moved piece or a cannon through its new screen attacks (Interpretation,
    // "Who attacks"), so the move attacks nothing.
    assert_eq!(facts("4k4/9/9/n8/9/9/9/N8/9/R2K5 w - - 0 1", "a2c3"), (false, false, 0));
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
fn cxq_a_new_cannon_screen_credits_the_cannon_and_not_the_line_it_opens() {
    // Red's horse a2 -> c3 becomes the screen of the cannon c0 onto the horse c7, and opens
    // the a-file for the chariot a0 onto the horse a5. Only the cannon attacks.
    let g = game("4k4/9/2n6/9/n8/9/9/N8/9/R1CK5 w - - 0 1");
    let m = iccs::parse(g.position(), "a2c3").unwrap();
    let f = g.facts_of(m).unwrap();
    assert_eq!(f.chased.len(), 1, "one target: the horse c7, not the horse a5 ({f:?})");
    assert_eq!(f.chased[0].1.count_ones(), 1, "one attacker, the cannon");
    // Without the cannon the same move attacks nothing: the opened a-file does not count.
    assert_eq!(facts("4k4/9/2n6/9/n8/9/9/N8/9/R2K5 w - - 0 1", "a2c3"), (false, false, 0));
}

#[test]
fn cxq_a_soldier_that_becomes_a_cannon_screen_makes_an_attack() {
    // Interpretation (ours): the threat is the cannon's. Red's crossed soldier b5 -> c5
    // becomes the screen of the cannon c2 onto the horse c8.
    assert_eq!(facts("4k4/2n6/9/9/1P7/9/9/2C6/9/3K5 w - - 0 1", "b5c5"), (false, true, 1));
}

#[test]
fn cxq_a_screen_that_stays_a_screen_makes_no_new_cannon_attack() {
    // Interpretation (ours): "a new attack through the new screen". The soldier c5 already
    // screened the cannon c2 onto the horse c8 and steps to c6, still the screen.
    assert_eq!(facts("4k4/2n6/9/9/2P6/9/9/2C6/9/3K5 w - - 0 1", "c5c6"), (false, false, 0));
    // The soldier takes the Black soldier that was the screen and takes its place.
    assert_eq!(facts("4k4/2n6/9/9/1Pp6/9/9/2C6/9/3K5 w - - 0 1", "b5c5"), (false, false, 0));
}

#[test]
fn cxq_a_king_move_never_attacks_even_as_a_cannon_screen() {
    // Red's king e0 -> e1 stands between its cannon a1 and Black's horse h1.
    assert_eq!(facts("3k5/9/9/9/9/9/9/9/C6n1/4K4 w - - 0 1", "e0e1"), (false, false, 0));
}

#[test]
fn cxq_a_piece_unpinned_by_the_move_is_not_an_attacker() {
    // Red's chariot e3 is pinned to its king by Black's chariot e7. Red's horse c4 -> e5
    // blocks the pin: the chariot could now take the horse a3, but it did not move, so
    // the move makes no attack (and the moved horse attacks nothing).
    assert_eq!(facts("3k5/9/4r4/9/9/2N6/n3R4/9/9/4K4 w - - 0 1", "c4e5"), (false, false, 0));
}

/// issue 15: Red's king evades checks and its elephant and horse move; the old reading
/// counted every standing attack of an evading side as a new one and ruled a perpetual
/// chase against Red at ply 13.
#[test]
fn cxq_evading_checks_is_no_chase_the_issue_15_reproduction() {
    let mut g = game("2ba1ab2/4k4/9/8p/9/p2C5/1c2CnP2/2c1BA3/2N6/2BAK4 w - - 13 36");
    let moves = "e2c4 c2c0 e0e1 b3b1 c1b3 c0c1 e1e0 c1c0 e0e1 c0c1 e1e0 b1b0 e0e1";
    assert_eq!(play(&mut g, &moves.split(' ').collect::<Vec<_>>()), None);
    assert_eq!(g.ruling(), None);
    assert_eq!(g.judge().unwrap().report().longest_chase[0], 0, "Red made no chase series");
}

/// Red's two chariots check in turn (b9 and a8 / a7 and b8) while Black's king walks
/// d9-d8-d7-d8-d9; Black's horse h6 stands attacking Red's unprotected cannon g4
/// throughout.
const TWO_CHARIOT_CHECKS: &str = "3k5/1R7/R8/7n1/9/6C2/9/9/9/5K3 w - - 0 1";

#[test]
fn cxq_a_king_evading_perpetual_checks_does_not_chase_with_its_standing_pieces() {
    let mut g = game(TWO_CHARIOT_CHECKS);
    let moves = cycle(&["b8b9", "d9d8", "a7a8", "d8d7", "a8a7", "d7d8", "b9b8", "d8d9"], 40);
    // Two checking pieces are allowed 12 checks: the 13th (ply 25) loses. Black's horse
    // never attacked anything: its side only moved the king.
    let ended = play(&mut g, &moves);
    assert_eq!(ended, Some((25, Outcome::win(Color::Second, EndReason::PerpetualCheck))));
    let ruling = g.ruling().expect("a ruling");
    assert_eq!(ruling.against, Some(Color::First));
    let Evidence::CxqSeries(series) = &ruling.evidence else { panic!("{ruling:?}") };
    assert_eq!(series.series.kind, SeriesKind::Check);
    assert_eq!((series.series.side, series.series.length, series.series.pieces), (Color::First, 13, 2));
    assert_eq!(series.series.allowance, 12);
    assert_eq!(series.opponent_chase, None, "Black's standing horse made no chase");
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
