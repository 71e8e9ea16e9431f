//! The Shogi and MiniShogi laws: sennichite, perpetual check, the AISE and modern
//! MiniShogi repetition rules, jishogi and impasse, handicap turns. Each test names the
//! section of `../shared/rules/*.md` it checks.

use tavoliere_rules::game::handicap::{Handicap, MiniShogiLevel};
use tavoliere_rules::game::shogi::{Claim, GameError, ShogiGame};
use tavoliere_rules::game::{ImpasseRule, MiniRepetitionRule, Ruleset};
use tavoliere_rules::notation::shogi::{sfen, usi};
use tavoliere_rules::shogi::{Position, Variant};
use tavoliere_rules::{Color, EndReason, Outcome};

const SHOGI_24: Ruleset = Ruleset::Shogi(ImpasseRule::TwentyFourPoints);
const SHOGI_27: Ruleset = Ruleset::Shogi(ImpasseRule::TwentySevenDeclaration);
const AISE: Ruleset = Ruleset::MiniShogi { repetition: MiniRepetitionRule::Aise, tournament: false };
const AISE_TOURNAMENT: Ruleset =
    Ruleset::MiniShogi { repetition: MiniRepetitionRule::Aise, tournament: true };
const MODERN: Ruleset = Ruleset::MiniShogi { repetition: MiniRepetitionRule::Modern, tournament: false };

fn game(start: &str, ruleset: Ruleset) -> ShogiGame {
    let variant =
        if matches!(ruleset, Ruleset::MiniShogi { .. }) { Variant::Mini } else { Variant::Standard };
    let position = sfen::parse(start, Some(variant)).unwrap_or_else(|e| panic!("{start}: {e}"));
    ShogiGame::new(position, ruleset, None)
}

/// Plays the USI moves and returns the 1-based ply and outcome of the first ending.
fn play(game: &mut ShogiGame, moves: &[&str]) -> Option<(usize, Outcome)> {
    for (i, text) in moves.iter().enumerate() {
        let m = usi::parse(game.position(), text).unwrap_or_else(|e| panic!("ply {}: {text}: {e}", i + 1));
        if let Some(outcome) = game.play(m).unwrap_or_else(|e| panic!("ply {}: {text}: {e}", i + 1)) {
            return Some((i + 1, outcome));
        }
    }
    None
}

fn cycle(moves: &[&'static str], times: usize) -> Vec<&'static str> {
    moves.iter().copied().cycle().take(moves.len() * times).collect()
}

const KINGS_SHUFFLE: [&str; 4] = ["5i5h", "5a5b", "5h5i", "5b5a"];

#[test]
fn shogi_sennichite_fourth_occurrence_is_a_draw() {
    // shogi.md "End of the game", Sennichite: the start position occurs at plies 0, 4, 8, 12.
    let mut g = game("4k4/9/9/9/9/9/9/9/4K4 b - 1", SHOGI_24);
    let result = play(&mut g, &cycle(&KINGS_SHUFFLE, 3));
    assert_eq!(result, Some((12, Outcome::draw(EndReason::Sennichite))));
}

#[test]
fn shogi_sennichite_third_occurrence_is_not_yet_a_draw() {
    // shogi.md "End of the game", Sennichite: the third occurrence (ply 8) ends nothing.
    let mut g = game("4k4/9/9/9/9/9/9/9/4K4 b - 1", SHOGI_24);
    let mut moves = cycle(&KINGS_SHUFFLE, 2);
    moves.extend(["5i5h", "5a5b", "5h5i"]);
    assert_eq!(play(&mut g, &moves), None);
    assert_eq!(g.outcome(), None);
}

/// Black's rook checks on ranks a and b while White's king steps between 5a and 5b.
const ROOK_CHECKS: [&str; 4] = ["1a1b", "5b5a", "1b1a", "5a5b"];

#[test]
fn shogi_perpetual_check_loses_for_the_checking_side() {
    // shogi.md "End of the game", Sennichite Interpretation: every move of Black between the
    // first and the fourth occurrence was a check, so Black loses.
    let mut g = game("4k4/9/9/9/9/9/9/9/4K3R b - 1", SHOGI_24);
    let mut moves = vec!["1i1a", "5a5b"];
    moves.extend(cycle(&ROOK_CHECKS, 3));
    let (ply, outcome) = play(&mut g, &moves).expect("the repetition ends the game");
    assert_eq!(outcome, Outcome::win(Color::Second, EndReason::PerpetualCheck));
    // The position after ply 1 (White to move, in check) recurs at plies 5, 9 and 13.
    assert_eq!(ply, 13);
}

#[test]
fn shogi_one_check_then_one_quiet_move_is_a_plain_sennichite() {
    // shogi.md "End of the game", Sennichite: not every move was a check -> a draw.
    let mut g = game("4k4/9/9/9/9/9/9/9/4K3R b - 1", SHOGI_24);
    let moves = cycle(&["1i1a", "5a5b", "1a1i", "5b5a"], 4);
    assert_eq!(play(&mut g, &moves), Some((12, Outcome::draw(EndReason::Sennichite))));
}

#[test]
fn minishogi_aise_repetition_loses_for_the_player_who_started_the_cycle() {
    // minishogi.md "End of the game", Repetition Interpretation: the side to move in the
    // repeated position made the first move of the cycle and loses. The start position
    // (Black to move) recurs at ply 12: Black loses.
    let mut g = game("k4/5/5/5/4K b - 1", AISE);
    let result = play(&mut g, &cycle(&["1e1d", "5a5b", "1d1e", "5b5a"], 3));
    assert_eq!(result, Some((12, Outcome::win(Color::Second, EndReason::RepetitionInitiatorLoses))));
}

#[test]
fn minishogi_aise_repetition_whose_cycle_began_with_the_other_side() {
    // minishogi.md "End of the game", Repetition: Black wastes one move first, so the
    // repeated position has White to move; White started the cycle and loses.
    // Black's first move 1e2e is never undone, so only positions after it repeat; the
    // position after ply 1 (White to move) recurs at plies 5, 9 and 13.
    let mut g = game("k4/5/5/5/4K b - 1", AISE);
    let mut moves = vec!["1e2e"];
    moves.extend(cycle(&["5a5b", "2e2d", "5b5a", "2d2e"], 3));
    let (ply, outcome) = play(&mut g, &moves).expect("repetition");
    assert_eq!(ply, 13);
    assert_eq!(outcome, Outcome::win(Color::First, EndReason::RepetitionInitiatorLoses));
}

#[test]
fn minishogi_modern_repetition_loses_for_the_first_player() {
    // minishogi.md "End of the game", Repetition: the modern option; the game's first
    // player (Black) loses even when White started the cycle.
    let mut g = game("k4/5/5/5/4K b - 1", MODERN);
    let mut moves = vec!["1e2e"];
    moves.extend(cycle(&["5a5b", "2e2d", "5b5a", "2d2e"], 3));
    let (_, outcome) = play(&mut g, &moves).expect("repetition");
    assert_eq!(outcome, Outcome::win(Color::Second, EndReason::RepetitionFirstPlayerLoses));
}

#[test]
fn minishogi_perpetual_check_loses_for_the_checker() {
    // minishogi.md "End of the game", Repetition: continuous checks -> the checker loses,
    // whoever started the cycle. Black's rook on 5e checks White's king on rank a / b.
    let mut g = game("2k2/5/5/5/K3R b - 1", AISE);
    let mut moves = vec!["1e1a", "3a3b"];
    moves.extend(cycle(&["1a1b", "3b3a", "1b1a", "3a3b"], 3));
    let (ply, outcome) = play(&mut g, &moves).expect("repetition");
    assert_eq!(ply, 13);
    assert_eq!(outcome, Outcome::win(Color::Second, EndReason::PerpetualCheck));
}

#[test]
fn minishogi_jishogi_is_a_draw_in_a_friendly_game() {
    // minishogi.md "End of the game", Jishogi: both kings on the opponent's last rank.
    let mut g = game("5/K4/5/4k/5 b - 1", AISE);
    assert_eq!(play(&mut g, &["5b5a"]), None, "only one king has arrived");
    assert_eq!(play(&mut g, &["1d1e"]), Some((1, Outcome::draw(EndReason::Jishogi))));
}

#[test]
fn minishogi_jishogi_counts_eleven_points_in_a_tournament_game() {
    // minishogi.md "End of the game", Jishogi: R, B 3; G, S 2; P 1; promoted as
    // unpromoted; board and hand. Black holds R B G (8 points), White the rest (14).
    let mut g = game("5/K4/5/4k/5 b RBGrbg2s2p 1", AISE_TOURNAMENT);
    play(&mut g, &["5b5a"]);
    let (_, outcome) = play(&mut g, &["1d1e"]).expect("jishogi");
    assert_eq!(outcome.reason(), EndReason::JishogiCount);
    assert_eq!(outcome.winner(), Some(Color::Second));
    assert_eq!(outcome.details().scores, Some([8, 14]));
}

#[test]
fn minishogi_jishogi_eleven_all_is_a_draw() {
    // minishogi.md "End of the game", Jishogi: 11-11 draws; each side holds one piece of
    // every kind, 3 + 3 + 2 + 2 + 1 = 11.
    let mut g = game("5/K4/5/4k/5 b RBGSPrbgsp 1", AISE_TOURNAMENT);
    play(&mut g, &["5b5a"]);
    let (_, outcome) = play(&mut g, &["1d1e"]).expect("jishogi");
    assert_eq!(
        outcome,
        Outcome::Draw {
            reason: EndReason::JishogiCount,
            details: tavoliere_rules::EndDetails { scores: Some([11, 11]) }
        }
    );
}

#[test]
fn shogi_impasse_24_point_claim_needs_both_kings_in_their_zones() {
    // shogi.md "End of the game", Impasse, 24-point rule.
    let g = game("4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1", SHOGI_24);
    assert!(matches!(g.judge_claim(Claim::Impasse), Err(GameError::ClaimNotAllowed(_))));
}

#[test]
fn shogi_impasse_24_point_count_decides() {
    // shogi.md "End of the game", Impasse, 24-point rule: Black has R B (10) + 8 small
    // pieces + 6 pawns = 24; White has 30. Both 24 or more: a draw. With one pawn less,
    // Black has 23 and loses.
    let both = game("4K4/9/9/9/9/9/9/9/4k4 b RB2G2S2N2L6Prb2g2s2n2l12p 1", SHOGI_24);
    let outcome = both.judge_claim(Claim::Impasse).expect("both kings in the zones");
    assert_eq!(
        outcome,
        Outcome::Draw {
            reason: EndReason::Impasse24,
            details: tavoliere_rules::EndDetails { scores: Some([24, 30]) }
        }
    );
    let short = game("4K4/9/9/9/9/9/9/9/4k4 b RB2G2S2N2L5Prb2g2s2n2l13p 1", SHOGI_24);
    let outcome = short.judge_claim(Claim::Impasse).expect("both kings in the zones");
    assert_eq!(outcome.winner(), Some(Color::Second));
    assert_eq!(outcome.details().scores, Some([23, 31]));
}

#[test]
fn shogi_impasse_27_point_declaration_valid_and_false() {
    // shogi.md "End of the game", Impasse, 27-point declaration: Black's king in the enemy
    // camp, ten tokins there, 10 + R B in hand (10) + 8 pawns in hand = 28 -> Black wins.
    let valid = game("+P+P+P+P+P4/+P+P+P+P+P1K2/9/9/9/9/9/9/4k4 b RB8P4g4s4n4l 1", SHOGI_27);
    let outcome = valid.judge_claim(Claim::Impasse).unwrap();
    assert_eq!(outcome.winner(), Some(Color::First));
    assert_eq!(outcome.reason(), EndReason::ImpasseDeclaration);
    // Without the bishop in hand only 23 points: the declaration is false and loses.
    let short = game("+P+P+P+P+P4/+P+P+P+P+P1K2/9/9/9/9/9/9/4k4 b R8Pb4g4s4n4l 1", SHOGI_27);
    assert_eq!(short.judge_claim(Claim::Impasse).unwrap().winner(), Some(Color::Second));
}

#[test]
fn minishogi_level_two_handicap_gives_two_non_capturing_moves_a_turn() {
    // minishogi.md "Handicaps" 2: White (stronger) moves first; Black then makes two moves.
    let level = Handicap::MiniShogi(MiniShogiLevel::TwoMoves);
    let start = sfen::parse(level.start_fen(), Some(Variant::Mini)).unwrap();
    let mut g = ShogiGame::new(start, AISE, Some(level));
    assert_eq!(g.side_to_move(), Color::Second);
    play(&mut g, &["1b1c"]);
    assert_eq!(g.side_to_move(), Color::First);
    play(&mut g, &["5d5c"]);
    assert_eq!(g.side_to_move(), Color::First, "Black's second move of the turn");
    play(&mut g, &["4e4d"]);
    assert_eq!(g.side_to_move(), Color::Second);
}

#[test]
fn minishogi_handicap_receiver_may_not_capture() {
    // minishogi.md "Handicaps" 2: neither move may be a capture.
    let level = Handicap::MiniShogi(MiniShogiLevel::TwoMoves);
    let start = sfen::parse(level.start_fen(), Some(Variant::Mini)).unwrap();
    let mut g = ShogiGame::new(start, AISE, Some(level));
    play(&mut g, &["1b1c"]);
    // Black's rook could take the pawn on 1c: a legal move of the position, banned here.
    let capture = usi::parse(g.position(), "1e1c").unwrap();
    assert_eq!(g.play(capture), Err(GameError::HandicapCapture));
    assert!(g.legal_moves().iter().all(|m| m.to().to_string() != "1c"));
    assert!(!g.legal_moves().is_empty());
}

#[test]
fn shogi_game_start_position_is_the_standard_one() {
    let g = ShogiGame::new(Position::startpos(Variant::Standard), SHOGI_24, None);
    assert_eq!(g.legal_moves().len(), 30);
}

#[test]
fn minishogi_level_five_handicap_gives_white_a_lance_for_its_rook() {
    // minishogi.md "Handicaps" 5: the stronger player's rook is replaced by a lance; the
    // lance moves straight forward only and must promote on the last rank.
    let level = Handicap::MiniShogi(MiniShogiLevel::RookToLance);
    let start = sfen::parse(level.start_fen(), Some(Variant::Mini)).expect("a lance is allowed here");
    let g = ShogiGame::new(start, AISE, Some(level));
    assert_eq!(g.side_to_move(), Color::Second);
    let lance_moves: Vec<String> = g
        .legal_moves()
        .iter()
        .filter(|m| m.from().is_some_and(|f| f.to_string() == "5a"))
        .map(ToString::to_string)
        .collect();
    // 5b, 5c, and 5d capturing Black's pawn; never past the 5x5 board.
    assert_eq!(lance_moves, ["5a5b", "5a5c", "5a5d"]);
    let g = game("4k/5/5/l4/1K3 w - 1", AISE);
    assert!(usi::parse(g.position(), "5d5e").is_err(), "the lance must promote on the last rank");
    assert!(usi::parse(g.position(), "5d5e+").is_ok());
}
