//! `seven-kingdoms.md` "Board, players, pieces" and "Start position (reconstruction)":
//! every piece's moves and blocks, the emperor, the diplomat's immunity, catapult screens,
//! and the start position with a hand-counted move list.

use std::collections::BTreeSet;

use tavoliere_rules::seven_kingdoms::{
    perft, Defeat, HorsemanRule, IllegalMoveKind, Kingdom, Move, Occupant, Piece, PieceKind, Point, Position,
    Setup,
};

use Kingdom::{Chu, Qin};
use PieceKind::*;

fn pt(x: u8, y: u8) -> Point {
    Point::new(x, y).expect("point on the board")
}

/// A position with the given pieces, the emperor at (9, 9), Qin to move. Qin's and Chu's
/// generals (and Han's, if Han has pieces) are added in far corners if missing; kingdoms
/// without pieces are out of the game.
fn position(pieces: &[(Kingdom, PieceKind, u8, u8)]) -> Position {
    let mut setup = Setup::empty();
    for &(kingdom, kind, x, y) in pieces {
        setup.set(pt(x, y), Some(Occupant::Piece(Piece { kingdom, kind })));
    }
    for (kingdom, corner) in [(Qin, pt(0, 18)), (Chu, pt(18, 0)), (Kingdom::Han, pt(18, 18))] {
        let listed = pieces.iter().any(|&(k, ..)| k == kingdom);
        let general = pieces.iter().any(|&(k, kind, ..)| k == kingdom && kind == General);
        if (listed || kingdom != Kingdom::Han) && !general {
            setup.set(corner, Some(Occupant::Piece(Piece { kingdom, kind: General })));
        }
    }
    for kingdom in Kingdom::ALL {
        let present =
            Point::all().any(|p| matches!(setup.get(p), Some(Occupant::Piece(q)) if q.kingdom == kingdom));
        if !present {
            setup.records[kingdom.index()].defeat = Some(Defeat::Resigned);
        }
    }
    Position::from_setup(setup).expect("valid test position")
}

/// The points the piece on (x, y) can move to.
fn targets(pos: &Position, x: u8, y: u8) -> BTreeSet<(u8, u8)> {
    pos.legal_moves().iter().filter(|m| m.from == pt(x, y)).map(|m| (m.to.x(), m.to.y())).collect()
}

fn illegal(pos: &Position, from: (u8, u8), to: (u8, u8)) -> IllegalMoveKind {
    pos.play(Move { from: pt(from.0, from.1), to: pt(to.0, to.1) })
        .expect_err("the move should be illegal")
        .kind
}

#[test]
fn pieces_general_slides_any_distance_in_eight_directions_and_the_emperor_blocks() {
    let pos = position(&[(Qin, General, 5, 5)]);
    let t = targets(&pos, 5, 5);
    // Orthogonal: 18 along the row + 18 along the column. Diagonal: NE (6,6),(7,7),(8,8) then
    // the emperor at (9,9); SW 5 to (0,0); NW 5 to (0,10); SE 5 to (10,0).
    assert_eq!(t.len(), 36 + 3 + 5 + 5 + 5);
    assert!(t.contains(&(5, 18)) && t.contains(&(18, 5)) && t.contains(&(0, 0)) && t.contains(&(8, 8)));
    assert!(!t.contains(&(9, 9)) && !t.contains(&(10, 10)), "the emperor blocks the diagonal");
}

#[test]
fn pieces_general_captures_the_first_enemy_and_stops_at_its_own_pieces() {
    let pos = position(&[(Qin, General, 5, 5), (Chu, Broadsword, 5, 8), (Qin, Broadsword, 8, 5)]);
    let t = targets(&pos, 5, 5);
    assert!(t.contains(&(5, 8)), "captures the enemy broadsword");
    assert!(!t.contains(&(5, 9)), "never jumps");
    assert!(t.contains(&(7, 5)) && !t.contains(&(8, 5)) && !t.contains(&(9, 5)));
    assert_eq!(illegal(&pos, (5, 5), (8, 5)), IllegalMoveKind::OwnPieceOnTarget);
}

#[test]
fn pieces_deputy_slides_orthogonally_only() {
    let pos = position(&[(Qin, Deputy, 5, 5), (Chu, Sword, 5, 2)]);
    let t = targets(&pos, 5, 5);
    // Row 18, column north 13, column south (5,4),(5,3) and the capture on (5,2).
    assert_eq!(t.len(), 18 + 13 + 3);
    assert!(t.contains(&(5, 2)) && !t.contains(&(5, 1)));
    assert!(!t.contains(&(6, 6)));
}

#[test]
fn pieces_officer_slides_diagonally_only() {
    let pos = position(&[(Qin, Officer, 5, 5)]);
    let t = targets(&pos, 5, 5);
    assert_eq!(t.len(), 3 + 5 + 5 + 5);
    assert!(t.contains(&(8, 8)) && !t.contains(&(9, 9)));
    assert!(!t.contains(&(5, 6)) && !t.contains(&(6, 5)));
}

#[test]
fn pieces_diplomat_moves_like_the_general_but_never_captures() {
    let pos = position(&[(Qin, Diplomat, 5, 5), (Chu, Sword, 5, 6)]);
    let t = targets(&pos, 5, 5);
    // The general's 54 points less the whole north column (13): the sword blocks and is not taken.
    assert_eq!(t.len(), 54 - 13);
    assert!(!t.contains(&(5, 6)));
    assert_eq!(illegal(&pos, (5, 5), (5, 6)), IllegalMoveKind::DiplomatNeverCaptures);
}

#[test]
fn pieces_diplomat_can_never_be_captured() {
    let pos = position(&[
        (Qin, General, 3, 3),
        (Chu, Diplomat, 3, 4),
        (Qin, Catapult, 12, 3),
        (Qin, Broadsword, 12, 5),
        (Kingdom::Han, Diplomat, 12, 7),
    ]);
    let general = targets(&pos, 3, 3);
    assert!(!general.contains(&(3, 4)) && !general.contains(&(3, 5)), "the diplomat blocks the general");
    assert_eq!(illegal(&pos, (3, 3), (3, 4)), IllegalMoveKind::DiplomatIsImmune);
    let catapult = targets(&pos, 12, 3);
    assert!(!catapult.contains(&(12, 7)), "a catapult cannot take a diplomat over a screen");
}

#[test]
fn pieces_diplomat_is_immune_to_the_horseman_and_the_sword() {
    let pos = position(&[
        (Qin, Horseman, 5, 5),
        (Chu, Diplomat, 8, 9),
        (Qin, Sword, 10, 3),
        (Chu, Broadsword, 11, 4),
    ]);
    assert!(!targets(&pos, 5, 5).contains(&(8, 9)));
    assert!(targets(&pos, 10, 3).contains(&(11, 4)), "the sword captures an ordinary piece");
    let pos = position(&[(Qin, Sword, 10, 3), (Chu, Diplomat, 11, 4)]);
    assert!(!targets(&pos, 10, 3).contains(&(11, 4)));
}

#[test]
fn pieces_catapult_moves_orthogonally_and_captures_only_over_exactly_one_screen() {
    let pos = position(&[
        (Qin, Catapult, 3, 16),
        (Qin, Broadsword, 5, 16),
        (Chu, Broadsword, 7, 16),
        (Chu, Sword, 9, 16),
        (Chu, Horseman, 3, 14),
    ]);
    let t = targets(&pos, 3, 16);
    assert!(t.contains(&(4, 16)), "quiet move up to the screen");
    assert!(!t.contains(&(6, 16)), "no quiet move beyond the screen");
    assert!(t.contains(&(7, 16)), "captures over one screen");
    assert!(!t.contains(&(9, 16)), "never over two screens");
    assert!(t.contains(&(3, 15)) && !t.contains(&(3, 14)), "no capture without a screen");
    assert!(!t.contains(&(4, 17)), "never diagonally");
}

#[test]
fn pieces_catapult_screens_over_the_emperor() {
    let pos = position(&[(Qin, Catapult, 9, 3), (Chu, Broadsword, 9, 14)]);
    let t = targets(&pos, 9, 3);
    assert!(t.contains(&(9, 8)) && !t.contains(&(9, 9)) && !t.contains(&(9, 10)));
    assert!(t.contains(&(9, 14)), "the emperor serves as a screen");
}

#[test]
fn pieces_catapult_screens_over_a_diplomat() {
    let pos = position(&[(Qin, Catapult, 3, 12), (Chu, Diplomat, 6, 12), (Chu, Sword, 10, 12)]);
    assert!(targets(&pos, 3, 12).contains(&(10, 12)));
}

#[test]
fn board_the_emperor_never_moves_and_cannot_be_captured() {
    let pos = position(&[(Qin, Catapult, 9, 3), (Qin, Broadsword, 9, 6), (Qin, General, 9, 7)]);
    assert!(!targets(&pos, 9, 3).iter().any(|&(x, y)| x == 9 && y >= 9), "the catapult cannot take him");
    assert!(!targets(&pos, 9, 7).contains(&(9, 9)));
    assert_eq!(illegal(&pos, (9, 7), (9, 9)), IllegalMoveKind::EmperorIsImmune);
    assert_eq!(illegal(&pos, (9, 9), (9, 10)), IllegalMoveKind::EmperorNeverMoves);
}

#[test]
fn pieces_archer_goes_one_to_four_points_and_is_blocked() {
    let pos = position(&[(Qin, Archer, 5, 5)]);
    // Four points in seven directions; north-east stops before the emperor after three.
    assert_eq!(targets(&pos, 5, 5).len(), 7 * 4 + 3);
    let pos = position(&[(Qin, Archer, 5, 5), (Qin, Broadsword, 5, 7)]);
    let t = targets(&pos, 5, 5);
    assert_eq!(t.len(), 7 * 4 + 3 - 3);
    assert!(t.contains(&(5, 6)) && !t.contains(&(5, 8)), "never jumps");
    assert!(t.contains(&(1, 5)) && !t.contains(&(0, 5)), "at most four points");
}

#[test]
fn pieces_crossbow_goes_one_to_five_points() {
    let pos = position(&[(Qin, Crossbow, 5, 5), (Chu, Sword, 10, 10)]);
    let t = targets(&pos, 5, 5);
    // Five points in six directions (to the edge west and south), north-east three (emperor).
    assert_eq!(t.len(), 7 * 5 + 3);
    assert!(t.contains(&(10, 5)) && !t.contains(&(11, 5)));
    assert!(t.contains(&(0, 0)));
}

#[test]
fn pieces_sword_steps_one_point_diagonally() {
    let pos = position(&[(Qin, Sword, 5, 5), (Qin, Broadsword, 6, 6), (Chu, Broadsword, 4, 4)]);
    let t = targets(&pos, 5, 5);
    assert_eq!(t, BTreeSet::from([(4, 4), (4, 6), (6, 4)]));
}

#[test]
fn pieces_broadsword_steps_one_point_orthogonally() {
    let pos = position(&[(Qin, Broadsword, 5, 5), (Chu, Sword, 5, 6)]);
    assert_eq!(targets(&pos, 5, 5), BTreeSet::from([(5, 6), (5, 4), (4, 5), (6, 5)]));
}

#[test]
fn pieces_horseman_takes_one_straight_and_three_diagonal_steps() {
    let pos = position(&[(Qin, Horseman, 5, 5)]);
    let expected = BTreeSet::from([(8, 9), (2, 9), (8, 1), (2, 1), (9, 8), (9, 2), (1, 8), (1, 2)]);
    assert_eq!(targets(&pos, 5, 5), expected);
}

#[test]
fn pieces_horseman_is_blocked_by_any_piece_on_its_path() {
    // The straight step (5,6) is shared by the two northern targets.
    let pos = position(&[(Qin, Horseman, 5, 5), (Chu, Sword, 5, 6)]);
    let t = targets(&pos, 5, 5);
    assert!(!t.contains(&(8, 9)) && !t.contains(&(2, 9)));
    assert_eq!(t.len(), 6);
    // A piece on a diagonal point blocks that target only; an enemy on the target is taken.
    let pos = position(&[(Qin, Horseman, 5, 5), (Chu, Sword, 7, 8), (Chu, Broadsword, 9, 8)]);
    let t = targets(&pos, 5, 5);
    assert!(!t.contains(&(8, 9)) && t.contains(&(2, 9)));
    assert!(t.contains(&(9, 8)), "captures at the end of its path");
    // The emperor blocks as any piece does: (8,7) -> (8,8) -> (9,9) is barred.
    let pos = position(&[(Qin, Horseman, 8, 7)]);
    let t = targets(&pos, 8, 7);
    assert!(!t.contains(&(11, 11)) && t.contains(&(5, 11)));
}

#[test]
fn start_position_has_seventeen_pieces_per_army_and_the_emperor() {
    let pos = Position::new();
    for kingdom in Kingdom::ALL {
        let army: Vec<_> = pos.army(kingdom).collect();
        assert_eq!(army.len(), 17, "{kingdom}");
        for kind in PieceKind::ALL {
            let n = army.iter().filter(|(_, k)| *k == kind).count();
            assert_eq!(n, usize::from(kind.count_per_army()), "{kingdom} {kind:?}");
        }
    }
    assert_eq!(pos.piece_at(Point::CENTRE), Some(Occupant::Emperor));
    let generals = [
        (Qin, (0, 9)),
        (Chu, (5, 0)),
        (Kingdom::Han, (13, 0)),
        (Kingdom::Qi, (18, 5)),
        (Kingdom::Wei, (18, 13)),
        (Kingdom::Zhao, (13, 18)),
        (Kingdom::Yan, (5, 18)),
    ];
    for (kingdom, (x, y)) in generals {
        assert_eq!(
            pos.piece_at(pt(x, y)),
            Some(Occupant::Piece(Piece { kingdom, kind: General })),
            "{kingdom}"
        );
    }
    let diplomat =
        |x, y, kingdom| pos.piece_at(pt(x, y)) == Some(Occupant::Piece(Piece { kingdom, kind: Diplomat }));
    assert!(diplomat(4, 9, Qin) && diplomat(5, 4, Chu) && diplomat(13, 4, Kingdom::Han));
    assert!(diplomat(14, 5, Kingdom::Qi) && diplomat(14, 13, Kingdom::Wei));
    assert!(diplomat(13, 14, Kingdom::Zhao) && diplomat(5, 14, Kingdom::Yan));
    let at = |x, y| pos.piece_at(pt(x, y));
    let yan = |kind| Some(Occupant::Piece(Piece { kingdom: Kingdom::Yan, kind }));
    assert_eq!((at(4, 18), at(6, 18), at(5, 15)), (yan(Officer), yan(Deputy), yan(Archer)));
    let qi = |kind| Some(Occupant::Piece(Piece { kingdom: Kingdom::Qi, kind }));
    assert_eq!((at(18, 4), at(18, 6), at(15, 5)), (qi(Deputy), qi(Officer), qi(Archer)));
    assert_eq!(pos.turn(), Qin);
}

/// Qin's moves in the start position, counted by hand.
///
/// Qin: x=0, y=6..12: 騎 劍 裨 將 偏 劍 騎; x=1, y=7..11: 騎 劍 砲 劍 騎; x=2, y=8..10:
/// 刀 弩 刀; 弓 (3,9); 行人 (4,9). Neighbours: Chu at y<=4 (x 2..8; on y=4 only its
/// diplomat (5,4), on y=3 only its archer (5,3), on y=2 x 4..6), Yan mirrored at y>=14, Han
/// and Zhao 8 points east of them, the emperor at (9,9).
///
/// - 將 (0,9), 偏 (0,10), 裨 (0,8), 劍 x4, 砲 (1,9): every step lands on a Qin piece: 0.
///   The catapult has no quiet move; over each screen the next piece is Qin's
///   ((1,11), (1,7), (3,9)) or the edge: 0.
/// - 騎 (0,6): north step (0,7) taken; south (0,5),(1,4),(2,3) -> (3,2) empty: 1; east
///   (1,6),(2,5),(3,4) -> (4,3): 1; east-north (1,6),(2,7),(3,8) -> (4,9) own diplomat: 0. = 2
/// - 騎 (0,12): the mirror image: (3,16) and (4,15). = 2
/// - 騎 (1,7): north step (1,8) taken; south (1,6),(2,5),(3,4) -> (4,3): 1; east-north
///   (2,7),(3,8),(4,9) blocked by the diplomat; east-south (2,7),(3,6),(4,5) -> (5,4) is
///   Chu's diplomat, immune: 0; west targets off the board. = 1
/// - 騎 (1,11): the mirror image: (4,15). = 1
/// - 刀 (2,8): (3,7) only (the other three diagonal points are Qin's). 刀 (2,10): (3,11). = 2
/// - 弩 (2,9): orthogonal and west diagonals start on Qin pieces; NE (3,10)..(7,14) and SE
///   (3,8)..(7,4) are five empty points each. = 10
/// - 弓 (3,9): east (4,9) own diplomat, west and west diagonals own pieces; N, S, NE, SE four
///   empty points each. = 16
/// - 行人 (4,9): N (4,10)..(4,15) = 6 (Yan's sword on (4,16)); S (4,8)..(4,3) = 6 (Chu's
///   sword on (4,2)); E (5,9)..(8,9) = 4 (the emperor); W (3,9) own: 0; NE (5,10)..(11,16) = 7
///   (Zhao's broadsword on (12,17)); SE (5,8)..(11,2) = 7 (Han's broadsword on (12,1));
///   NW (3,10),(2,11),(1,12),(0,13) = 4; SW (3,8),(2,7),(1,6),(0,5) = 4. = 38
///
/// Total: 2 + 2 + 1 + 1 + 2 + 10 + 16 + 38 = 72.
#[test]
fn start_position_qin_has_72_moves_counted_by_hand() {
    let pos = Position::new();
    assert_eq!(pos.legal_moves().len(), 72);
    assert_eq!(perft(&pos, 1), 72);
    let from = |x, y| pos.legal_moves().iter().filter(|m| m.from == pt(x, y)).count();
    assert_eq!((from(0, 6), from(0, 12), from(1, 7), from(1, 11)), (2, 2, 1, 1));
    assert_eq!((from(2, 8), from(2, 10), from(2, 9), from(3, 9), from(4, 9)), (1, 1, 10, 16, 38));
}

#[test]
fn start_position_move_counts_of_every_kingdom_regression() {
    // Figures of this implementation (not hand-counted apart from Qin's 72), so that any
    // change of move generation is noticed. Chu and Yan, Han, Qi, Wei and Zhao each mirror
    // one another, as the layout does.
    let pos = Position::new();
    let counts: Vec<usize> = Kingdom::ALL.iter().map(|&k| pos.moves_of(k).len()).collect();
    assert_eq!(counts, [72, 73, 67, 67, 67, 67, 73]);
    assert_eq!(perft(&pos, 2), 5125);
    assert_eq!(perft(&pos, 3), 344_908);
}

#[test]
fn move_stays_small() {
    assert!(std::mem::size_of::<Move>() <= 4);
}

#[test]
fn pieces_horseman_ruleset_option_allows_one_to_three_diagonal_steps() {
    let with_option = |pos: Position| {
        let mut setup = pos.to_setup();
        setup.horseman = HorsemanRule::UpToThreeDiagonal;
        Position::from_setup(setup).unwrap()
    };
    let pos = with_option(position(&[(Qin, Horseman, 5, 5)]));
    let t = targets(&pos, 5, 5);
    // North step (5,6), then north-east (6,7), (7,8), (8,9).
    assert!(t.contains(&(6, 7)) && t.contains(&(7, 8)) && t.contains(&(8, 9)));
    // East step (6,5), then north-east (7,6), (8,7), (9,8).
    assert!(t.contains(&(7, 6)) && t.contains(&(8, 7)) && t.contains(&(9, 8)));
    assert!(!t.contains(&(5, 6)), "the straight step alone is no move");
    assert_eq!(t.len(), 24, "eight directions, three points each, nothing in the way");
    let pos = with_option(position(&[(Qin, Horseman, 5, 5), (Chu, Sword, 7, 8)]));
    let t = targets(&pos, 5, 5);
    assert!(t.contains(&(6, 7)) && t.contains(&(7, 8)), "captures on its second diagonal step");
    assert!(!t.contains(&(8, 9)), "and is blocked beyond it");
    assert_eq!(Position::new().horseman_rule(), HorsemanRule::ThreeDiagonal);
}

#[test]
fn legality_is_legal_agrees_with_the_move_list_for_every_origin_and_target() {
    let mut pos = Position::new();
    for _ in 0..7 {
        let list = pos.legal_moves();
        for from in Point::all() {
            for to in Point::all() {
                let m = Move { from, to };
                assert_eq!(pos.is_legal(m), list.contains(&m), "{m:?} for {}", pos.turn());
            }
        }
        let next = list[list.len() / 3];
        pos.play_unchecked(next);
    }
}
