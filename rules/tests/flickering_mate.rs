//! Mate and stalemate over series (flickering-chess.md "End of the game"): the pruned
//! search against an unpruned enumeration, deep mates, near-mates with exactly one
//! saving series.

use std::collections::HashSet;

use tavoliere_rules::chess::{
    search_saving_series, Game, Move, Piece, Position, Role, SearchLimits, SearchResult, Series, Setup,
    Square,
};
use tavoliere_rules::notation::chess::{algebraic, fen};
use tavoliere_rules::{Color, EndReason, Outcome};

/// Whether some series ends with the king free: plain enumeration of every series, with
/// no pruning beyond skipping states already seen.
fn saving_series_exists(series: &Series, seen: &mut HashSet<(u64, u64)>) -> bool {
    if series.can_end() {
        return true;
    }
    if !seen.insert((series.current().zobrist(), series.frozen().0)) {
        return false;
    }
    series.legal_next_moves().into_iter().any(|m| {
        let mut next = series.clone();
        next.push(m).expect("generated moves are legal");
        saving_series_exists(&next, seen)
    })
}

/// Every series (as move lists) that may end, up to `limit` of them.
fn all_saving_series(series: &Series, out: &mut Vec<Vec<Move>>, limit: usize) {
    if out.len() > limit {
        return;
    }
    if series.can_end() {
        out.push(series.moves().to_vec());
    }
    for m in series.legal_next_moves() {
        let mut next = series.clone();
        next.push(m).expect("generated moves are legal");
        all_saving_series(&next, out, limit);
    }
}

fn search(fen_text: &str) -> SearchResult {
    let pos = fen::parse(fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"));
    search_saving_series(&pos, SearchLimits::default()).0
}

fn assert_mate(fen_text: &str) {
    let pos = fen::parse(fen_text).unwrap();
    assert!(
        matches!(search(fen_text), SearchResult::NoSaving { in_check: true, .. }),
        "{fen_text} should be mate"
    );
    assert_eq!(
        Game::from_position(pos.clone()).outcome(),
        Some(Outcome::win(!pos.turn(), EndReason::Checkmate))
    );
}

/// A deterministic pseudo-random generator (xorshift) for the cross-check positions.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_position(rng: &mut Rng) -> Option<Position> {
    let mut setup = Setup::start();
    setup.board = [None; 64];
    setup.castling = tavoliere_rules::chess::CastlingRights::NONE;
    let roles = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
    let mut place = |piece: Piece, rng: &mut Rng| {
        for _ in 0..20 {
            let sq = Square::from_index(rng.below(64) as usize)?;
            if setup.board[sq.index()].is_none()
                && !(piece.role == Role::Pawn && (sq.rank() == 0 || sq.rank() == 7))
            {
                setup.board[sq.index()] = Some(piece);
                return Some(());
            }
        }
        None
    };
    for color in Color::ALL {
        place(Piece { color, role: Role::King }, rng)?;
    }
    // The side to move gets up to 4 pieces (the enumeration must stay small), the
    // opponent up to 5 attackers.
    for _ in 0..rng.below(5) {
        let role = roles[rng.below(5) as usize];
        place(Piece { color: Color::First, role }, rng)?;
    }
    for _ in 0..1 + rng.below(5) {
        let role = roles[rng.below(5) as usize];
        place(Piece { color: Color::Second, role }, rng)?;
    }
    Position::from_setup(setup).ok()
}

#[test]
fn the_pruned_search_agrees_with_plain_enumeration_on_random_positions() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut checked, mut in_check, mut mates) = (0, 0, 0);
    while checked < 1500 {
        let Some(pos) = random_position(&mut rng) else { continue };
        checked += 1;
        in_check += usize::from(pos.is_check());
        let expected = saving_series_exists(&Series::new(pos.clone()), &mut HashSet::new());
        let (found, _) = search_saving_series(&pos, SearchLimits::default());
        match found {
            SearchResult::Saved(moves) => {
                assert!(expected, "{}: the search saved, enumeration did not", fen::write(&pos));
                assert!(
                    Series::play(&pos, &moves).is_ok(),
                    "{}: the saving series is legal",
                    fen::write(&pos)
                );
            }
            SearchResult::NoSaving { .. } => {
                mates += 1;
                assert!(
                    !expected,
                    "{}: the search found no saving series, enumeration did",
                    fen::write(&pos)
                );
            }
            SearchResult::Undecided => panic!("{}: undecided", fen::write(&pos)),
        }
    }
    assert!(in_check > 100, "enough positions in check: {in_check}");
    assert!(mates > 5, "enough mates: {mates}");
}

#[test]
fn a_queen_protected_by_its_king_mates_a_lone_king() {
    assert_mate("7k/6Q1/5K2/8/8/8/8/8 b - - 0 1");
}

#[test]
fn mate_where_every_resource_is_walled_off_needs_no_enumeration() {
    // The rook g1 is stopped by g5 (a capture there freezes the capturer on g5), the
    // bishop a1 by the knight d4 and the pawn e5, the queen by e7: nothing reaches g7.
    assert_mate("r2q3k/pb2P1Q1/1p3K2/2p1P1P1/3n4/8/8/b5r1 b - - 0 1");
}

#[test]
fn a_check_answered_only_by_a_chain_of_moves_is_not_mate() {
    // Black is checked along the h-file; the white king covers g8 and g7, the g6 pawn
    // h7. The bishop can block on h6 only after the g-pawn clears g7, which it can do
    // only by capturing on f6.
    let fen_text = "5b1k/5Kp1/5NP1/8/8/8/8/7R b - - 0 1";
    match search(fen_text) {
        SearchResult::Saved(moves) => {
            let pos = fen::parse(fen_text).unwrap();
            assert!(Series::play(&pos, &moves).is_ok());
        }
        other => panic!("{fen_text}: {other:?}"),
    }
}

#[test]
fn near_mate_with_exactly_one_saving_series() {
    // The only save: the g-pawn captures on f6 (opening g7), then the bishop blocks on h6.
    let fen_text = "5b1k/5Kp1/5NP1/8/8/8/8/7R b - - 0 1";
    let pos = fen::parse(fen_text).unwrap();
    let mut saving = Vec::new();
    all_saving_series(&Series::new(pos.clone()), &mut saving, 10);
    let written: Vec<String> = saving.iter().map(|m| algebraic::write_series(&pos, m).unwrap()).collect();
    assert_eq!(written, ["b) g:f6, Bh6"], "{fen_text}");
    // Without the white knight to capture, the g-pawn is stuck: mate.
    assert_mate("5b1k/5Kp1/6P1/8/8/8/8/7R b - - 0 1");
}

#[test]
fn a_deep_mate_with_many_free_pieces_is_proved_within_the_limit() {
    // Found by a random hunt for positions the search finds hardest: White has eight
    // pieces that can move and open lines for each other; thousands of series states
    // must be refuted.
    for fen_text in [
        "7N/3p4/B3P3/6r1/n7/N1k1p3/PqP1PPpq/K7 w - - 0 1",
        "5rQ1/8/3P1P2/1k6/1P6/3b1p1P/1BqP1Q2/1rK5 w - - 0 1",
    ] {
        let pos = fen::parse(fen_text).unwrap();
        let (result, stats) = search_saving_series(&pos, SearchLimits::default());
        assert_eq!(
            result,
            SearchResult::NoSaving { no_legal_move: false, in_check: true },
            "{fen_text} {stats:?}"
        );
        assert!(stats.nodes > 1000, "{fen_text}: a deep search, {stats:?}");
    }
}

#[test]
fn stalemate_is_no_legal_move_with_the_king_free() {
    // The black king a8 has no move (a7, b7, b8 covered) and no other piece.
    let fen_text = "k7/8/1QK5/8/8/8/8/8 b - - 0 1";
    assert_eq!(search(fen_text), SearchResult::NoSaving { no_legal_move: true, in_check: false });
    let game = Game::from_position(fen::parse(fen_text).unwrap());
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Stalemate)));
}

#[test]
fn a_free_king_whose_every_series_ends_attacked_is_mated() {
    // flickering-chess.md "Mate": no series ends with the king free. The black king is
    // boxed in; its only piece, the knight, is pinned and every knight move exposes the king.
    let fen_text = "k7/n1K5/1Q6/8/8/8/R7/8 b - - 0 1";
    let pos = fen::parse(fen_text).unwrap();
    assert!(!pos.is_check());
    assert_eq!(search(fen_text), SearchResult::NoSaving { no_legal_move: false, in_check: false });
    assert_eq!(Game::from_position(pos).outcome(), Some(Outcome::win(Color::First, EndReason::Checkmate)));
}

#[test]
fn the_node_limit_makes_the_search_undecided() {
    let pos = fen::parse("rn1q3k/pbp1P1Q1/1p3K2/2p1P1P1/2Bn4/1P6/P7/b1r3r1 b - - 0 1").unwrap();
    let (result, stats) = search_saving_series(&pos, SearchLimits { max_nodes: 0 });
    assert_eq!(result, SearchResult::Undecided);
    assert!(stats.nodes >= 1);
}
