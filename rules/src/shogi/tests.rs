use super::*;
use crate::Color;

#[test]
fn a_move_stays_small() {
    assert!(std::mem::size_of::<Move>() <= 4, "{}", std::mem::size_of::<Move>());
}

#[test]
fn start_positions_have_the_known_move_counts() {
    assert_eq!(Position::startpos(Variant::Standard).legal_moves().len(), 30);
    assert_eq!(Position::startpos(Variant::Mini).legal_moves().len(), 14);
    assert_eq!(perft(&Position::startpos(Variant::Standard), 3), 25470);
}

#[test]
fn a_setup_without_a_king_is_rejected() {
    let mut setup = Setup::startpos(Variant::Standard);
    setup.board[Square::new(5, 9).unwrap().index()] = None;
    assert_eq!(Position::from_setup(setup), Err(PositionError::MissingKing(Color::First)));
}

use crate::notation::shogi::sfen;
use crate::{EndReason, Outcome};

fn pos(text: &str) -> Position {
    sfen::parse(text, None).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn usi(text: &str, variant: Variant) -> Move {
    crate::notation::shogi::usi::parse_move(text, variant).unwrap_or_else(|| panic!("{text}"))
}

fn setup_error(text: &str) -> PositionError {
    let setup = sfen::parse_setup(text, None).expect("readable");
    Position::from_setup(setup).expect_err(text)
}

#[test]
fn invalid_setups_have_typed_errors() {
    let cases = [
        ("4k4/9/9/9/9/9/9/9/3KK4 b - 1", PositionError::TooManyKings(Color::First), "two black kings"),
        ("4k4/4R4/9/9/9/9/9/9/4K4 b - 1", PositionError::OppositeCheck, "white in check, black to move"),
        (
            "P3k4/9/9/9/9/9/9/9/4K4 b - 1",
            PositionError::StuckPiece(Square::new(9, 1).unwrap()),
            "pawn on rank a",
        ),
        (
            "4k4/N8/9/9/9/9/9/9/4K4 b - 1",
            PositionError::StuckPiece(Square::new(9, 2).unwrap()),
            "knight on rank b",
        ),
        (
            "4k4/9/9/9/9/9/9/9/l3K4 b - 1",
            PositionError::StuckPiece(Square::new(9, 9).unwrap()),
            "white lance on i",
        ),
        ("4k4/9/9/4P4/4P4/9/9/9/4K4 b - 1", PositionError::TwoPawns { color: Color::First, file: 5 }, "nifu"),
        ("4k4/9/9/9/9/9/9/9/4K4 b 3R 1", PositionError::TooManyPieces(Role::Rook), "three rooks"),
        ("4k4/9/9/9/9/9/9/9/4K4 b 19p 1", PositionError::TooManyPieces(Role::Pawn), "nineteen pawns"),
        ("rbsgk/4p/5/P4/KGSBN b - 1", PositionError::RoleNotInVariant(Role::Knight), "knight in minishogi"),
        (
            "rbsgk/4p/5/P4/KGSB1 b 2S 1",
            PositionError::TooManyPieces(Role::Silver),
            "three silvers in minishogi",
        ),
        ("4k/P4/5/5/K4 b - 1", PositionError::StuckPiece(Square::new(5, 2).unwrap()), "not stuck: rank b"),
    ];
    for (text, expected, message) in cases {
        if message.starts_with("not stuck") {
            assert!(sfen::parse(text, None).is_ok(), "{message}");
            continue;
        }
        assert_eq!(setup_error(text), expected, "{message}");
    }
    let mut off_board = Setup::startpos(Variant::Mini);
    let nine_i = Square::new(9, 9).unwrap();
    off_board.board[nine_i.index()] = Some(Piece { color: Color::First, role: Role::Gold });
    assert_eq!(Position::from_setup(off_board), Err(PositionError::PieceOffBoard(nine_i)));
}

#[test]
fn illegal_moves_have_typed_reasons() {
    use IllegalMoveKind::*;
    let v = Variant::Standard;
    let start = Position::startpos(v);
    let with_pawn = pos("lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1");
    let empty = pos("k8/9/9/9/9/9/9/9/4K4 b PNLG 1");
    let cases = [
        (&start, "5e5d", NoPiece, "empty origin"),
        (&start, "3c3d", NoPiece, "opponent's piece"),
        (&start, "8h7g", OwnPieceOnTarget, "own pawn on 7g"),
        (&start, "2h2c", Blocked, "rook blocked by its pawn"),
        (&start, "7g7e", NotAMove, "pawn two squares"),
        (&start, "7g7f+", CannotPromote, "outside the zone"),
        (&start, "P*5e", NotInHand, "empty hand"),
        (&with_pawn, "P*5e", TwoPawns, "nifu"),
        (&with_pawn, "P*5g", DropOnOccupied, "occupied"),
        (&empty, "P*5a", DropStuck, "pawn on the last rank"),
        (&empty, "L*5a", DropStuck, "lance on the last rank"),
        (&empty, "N*5b", DropStuck, "knight on the second-last rank"),
        (&empty, "G*5a+", NotInHand, "unreadable as a drop with promotion falls back"),
    ];
    for (position, text, kind, message) in cases {
        let Some(m) = crate::notation::shogi::usi::parse_move(text, v) else {
            assert_eq!(message, "unreadable as a drop with promotion falls back");
            continue;
        };
        assert_eq!(position.check_move(m), Err(kind), "{message}");
        assert!(!position.legal_moves().contains(&m), "{message}");
        let err = position.clone().play(m).expect_err(message);
        assert_eq!(err.kind, kind);
        assert_eq!(*err.position, *position, "the position is handed back");
    }
    assert!(empty.is_legal(usi("N*5c", v)));
    assert!(empty.is_legal(usi("G*5a", v)));

    let stuck = pos("k8/4P4/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(stuck.check_move(usi("5b5a", v)), Err(MoveStuck));
    assert!(stuck.is_legal(usi("5b5a+", v)));
    let gold = pos("k8/9/9/9/9/9/9/4G4/4K4 b - 1");
    assert_eq!(gold.check_move(usi("5h5g+", v)), Err(CannotPromote));

    let in_check = pos("4k4/9/9/9/9/9/8P/4r4/4K4 b - 1");
    assert_eq!(in_check.check_move(usi("1g1f", v)), Err(IgnoredCheck));
    assert!(in_check.is_check());
    assert_eq!(in_check.checkers().len(), 1);
    let pinned = pos("4k4/9/9/9/4r4/9/9/4G4/4K4 b - 1");
    assert_eq!(pinned.check_move(usi("5h6h", v)), Err(LeavesKingInCheck));
    assert!(pinned.is_legal(usi("5h5g", v)));
    assert_eq!(pinned.check_move(usi("5i4i", v)), Ok(()));
    assert!(pinned.is_attacked(Square::new(5, 6).unwrap(), Color::Second));
    assert_eq!(pinned.attackers(Square::new(5, 8).unwrap(), Color::Second).len(), 1);
}

#[test]
fn a_pawn_drop_mate_is_illegal_but_a_pawn_drop_check_is_not() {
    let v = Variant::Standard;
    // White king 1a, lance 2a; black gold 1c guards 1b and covers 2b.
    let mate = pos("7lk/9/8G/9/9/9/9/9/8K b P 1");
    assert_eq!(mate.check_move(usi("P*1b", v)), Err(IllegalMoveKind::DropPawnMate));
    assert!(!mate.legal_moves().contains(&usi("P*1b", v)));
    // Without the lance on 2h the king escapes to 2b: the drop is only a check.
    // With a knight on 2d guarding 1b instead, the king escapes to 2b.
    let check = pos("7lk/9/9/7N1/9/9/9/9/8K b P 1");
    assert!(check.is_legal(usi("P*1b", v)));
    // A pawn *moved* to give mate is legal (shogi.md "Drops": only drops are forbidden).
    let moved = pos("7lk/9/8P/7N1/9/9/9/9/8K b - 1");
    assert!(moved.is_legal(usi("1c1b", v)) || moved.is_legal(usi("1c1b+", v)));
    let after = moved.play(usi("1c1b+", v)).unwrap();
    assert_eq!(after.outcome_by_basic_rules(), Some(Outcome::win(Color::First, EndReason::Checkmate)));
}

#[test]
fn minishogi_promotes_on_the_last_rank_only() {
    let v = Variant::Mini;
    let silver = pos("4k/5/1S3/5/K4 b - 1");
    assert_eq!(
        silver.check_move(usi("4c4b+", v)),
        Err(IllegalMoveKind::CannotPromote),
        "rank b is outside the zone"
    );
    assert!(silver.is_legal(usi("4c4b", v)));
    // minishogi.md "Promotion": a piece may promote when it leaves the last rank.
    let leaving = pos("2S1k/5/5/5/K4 b - 1");
    assert!(leaving.is_legal(usi("3a4b+", v)));
    assert!(leaving.is_legal(usi("3a4b", v)));
    // The pawn must promote on reaching the last rank.
    let pawn = pos("4k/2P2/5/5/K4 b - 1");
    assert_eq!(pawn.check_move(usi("3b3a", v)), Err(IllegalMoveKind::MoveStuck));
    assert!(pawn.is_legal(usi("3b3a+", v)));
    let drop = pos("4k/5/5/5/K4 b P 1");
    assert_eq!(drop.check_move(usi("P*3a", v)), Err(IllegalMoveKind::DropStuck));
    assert_eq!(drop.check_move(usi("P*9i", Variant::Standard)), Err(IllegalMoveKind::OffBoard));
}

#[test]
fn no_legal_move_loses_with_or_without_check() {
    let mate = pos("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    assert_eq!(mate.outcome_by_basic_rules(), Some(Outcome::win(Color::First, EndReason::Checkmate)));
    // shogi.md "End of the game": no stalemate, the player without a legal move loses.
    let no_move = pos("8k/6G2/9/7N1/9/9/9/9/K8 w - 1");
    assert!(!no_move.is_check());
    assert_eq!(no_move.outcome_by_basic_rules(), Some(Outcome::win(Color::First, EndReason::Stalemate)));
    assert_eq!(Position::startpos(Variant::Standard).outcome_by_basic_rules(), None);
}

#[test]
fn the_zobrist_key_covers_hands_and_side_to_move() {
    let a = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1");
    let b = pos("4k4/9/9/9/9/9/9/9/4K4 b p 1");
    let c = pos("4k4/9/9/9/9/9/9/9/4K4 w P 1");
    let d = pos("4k4/9/9/9/9/9/9/9/4K4 b 2P 1");
    let keys = [a.zobrist(), b.zobrist(), c.zobrist(), d.zobrist()];
    for i in 0..keys.len() {
        for j in i + 1..keys.len() {
            assert_ne!(keys[i], keys[j], "{i} {j}");
        }
    }
    // Transposition: the same position by two move orders has the same key.
    let v = Variant::Standard;
    let start = Position::startpos(v);
    let one = start
        .clone()
        .play(usi("7g7f", v))
        .unwrap()
        .play(usi("3c3d", v))
        .unwrap()
        .play(usi("2g2f", v))
        .unwrap();
    let two = start.play(usi("2g2f", v)).unwrap().play(usi("3c3d", v)).unwrap().play(usi("7g7f", v)).unwrap();
    assert_eq!(one.zobrist(), two.zobrist());
}

#[test]
fn handicap_positions_are_legal_and_white_moves_first() {
    let two = Position::from_setup(Setup::handicap(Handicap::TwoPieces)).unwrap();
    assert_eq!(sfen::write(&two), "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    let six = Position::from_setup(Setup::handicap(Handicap::SixPieces)).unwrap();
    assert_eq!(sfen::write(&six), "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    for h in Handicap::ALL {
        assert_eq!(Position::from_setup(Setup::handicap(h)).map(|p| p.turn()), Ok(Color::Second), "{h:?}");
    }
    let rook = Position::from_setup(Setup::mini_handicap(MiniHandicap::PromotedRook)).unwrap();
    assert_eq!(sfen::write(&rook), "rbsgk/4p/5/P4/KGSB+R w - 1");
    let no_rook = Position::from_setup(Setup::mini_handicap(MiniHandicap::NoRook)).unwrap();
    assert_eq!(sfen::write(&no_rook), "1bsgk/4p/5/P4/KGSBR w - 1");
}
