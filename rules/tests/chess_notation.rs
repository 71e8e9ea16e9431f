//! Chess notation: FEN, algebraic series (flickering-chess.md "Notation"), coordinate
//! moves and game records, with round trips over random games.

use tavoliere_rules::chess::{Game, Position, PositionError, Series};
use tavoliere_rules::notation::chess::{algebraic, fen, record, uci, NotationError};
use tavoliere_rules::Color;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A random legal series from `pos`, if one is found in a few tries.
fn random_series(pos: &Position, rng: &mut Rng) -> Option<Series> {
    for _ in 0..50 {
        let mut series = Series::new(pos.clone());
        loop {
            if series.can_end() && rng.below(3) == 0 {
                return Some(series);
            }
            let moves = series.legal_next_moves();
            if moves.is_empty() {
                break;
            }
            series.push(moves[rng.below(moves.len())]).unwrap();
        }
        if series.can_end() {
            return Some(series);
        }
    }
    None
}

/// A random game of up to `series` series.
fn random_game(seed: u64, series: usize) -> Game {
    let mut rng = Rng(seed);
    let mut game = Game::new();
    for _ in 0..series {
        if game.outcome().is_some() {
            break;
        }
        let Some(s) = random_series(game.position(), &mut rng) else { break };
        game.play_series(s.moves()).unwrap();
    }
    game
}

#[test]
fn algebraic_series_round_trip_over_random_games() {
    let mut written_moves = 0;
    for seed in 1..=12u64 {
        let game = random_game(seed * 0x9E37_79B9, 30);
        for (pos, moves) in game.positions().iter().zip(game.series()) {
            let text = algebraic::write_series(pos, moves).unwrap();
            let parsed = algebraic::parse_series(pos, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(parsed.moves(), &moves[..], "{text}");
            let with_x = algebraic::write_series_with(
                pos,
                moves,
                algebraic::Style { capture: 'x', cyrillic_labels: true },
            )
            .unwrap();
            assert_eq!(algebraic::parse_series(pos, &with_x).unwrap().moves(), &moves[..], "{with_x}");
            let coordinates = uci::write_series(moves);
            assert_eq!(uci::parse_series(pos, &coordinates).unwrap().moves(), &moves[..], "{coordinates}");
            written_moves += moves.len();
        }
    }
    assert!(written_moves > 300, "{written_moves} moves written");
}

#[test]
fn fen_round_trips_over_random_games() {
    for seed in 1..=6u64 {
        let game = random_game(seed * 0x0001_2345_6789, 30);
        for pos in game.positions() {
            let text = fen::write(pos);
            assert_eq!(fen::parse(&text).as_ref(), Ok(pos), "{text}");
        }
    }
}

#[test]
fn fen_errors_are_typed() {
    assert_eq!(
        fen::parse("8/8/8/8/8/8/8/8 w - - 0 1"),
        Err(fen::FenError::Position(PositionError::MissingKing(Color::First)))
    );
    assert_eq!(fen::parse("4k3/8/8/8/8/8/8/4K3 x - - 0 1"), Err(fen::FenError::Turn));
    assert_eq!(fen::parse("4k3/8/8/8/8/8/8/4K3 w"), Err(fen::FenError::FieldCount));
    assert_eq!(fen::parse("4k3/8/8/8/8/8/8/4K2 w - - 0 1"), Err(fen::FenError::Board));
    assert_eq!(
        fen::parse("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
        Err(fen::FenError::Position(PositionError::InvalidCastlingRights))
    );
    assert_eq!(
        fen::parse("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"),
        Err(fen::FenError::Position(PositionError::InvalidEnPassant("e6".parse().unwrap())))
    );
    assert_eq!(fen::parse("4k3/8/8/8/8/8/8/4K3 w - e6x 0 1"), Err(fen::FenError::EnPassant));
    assert_eq!(
        fen::parse("4k2R/8/8/8/8/8/8/4K3 w - - 0 1"),
        Err(fen::FenError::Position(PositionError::OpponentInCheck))
    );
    assert_eq!(
        fen::parse("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        Err(fen::FenError::Position(PositionError::PawnOnBackRank("a8".parse().unwrap())))
    );
    // Counters may be left out.
    assert_eq!(
        fen::write(&fen::parse("4k3/8/8/8/8/8/8/4K3 b - -").unwrap()),
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
    );
}

#[test]
fn algebraic_reading_is_lenient_and_errors_are_typed() {
    let start = Position::new();
    for text in
        ["a) e4, Nf3, d4", "1. a) e2-e4, Ng1-f3, d2d4", "а) e4, Nf3, d4", "e4,Nf3,d4", "a)e4 , Nf3!, d4?!"]
    {
        let series = algebraic::parse_series(&start, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(algebraic::write_series(&start, series.moves()).unwrap(), "a) e4, Nf3, d4", "{text}");
    }
    assert!(matches!(algebraic::parse_series(&start, "b) e4"), Err(NotationError::WrongPlayer(_))));
    assert!(matches!(algebraic::parse_series(&start, "б) e4"), Err(NotationError::WrongPlayer(_))));
    assert!(matches!(algebraic::parse_series(&start, "a) e5"), Err(NotationError::Illegal(_))));
    assert!(matches!(algebraic::parse_series(&start, "a) Zz9"), Err(NotationError::Unreadable(_))));
    assert!(matches!(algebraic::parse_series(&start, "a) "), Err(NotationError::Series(_))));
    // Disambiguation is judged where the move stands in the series: once the king has
    // left e1, both rooks can reach d1.
    let rooks = fen::parse("4k3/8/8/8/8/8/8/R3K2R w - - 0 1").unwrap();
    let series = algebraic::parse_series(&rooks, "a) Kf2, Rad1").unwrap();
    assert_eq!(algebraic::write_series(&rooks, series.moves()).unwrap(), "a) Kf2, Rad1");
    assert!(matches!(algebraic::parse_series(&rooks, "a) Kf2, Rd1"), Err(NotationError::Ambiguous(_))));
    // Castling, written with zeros too.
    let castle = fen::parse("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
    let series = algebraic::parse_series(&castle, "a) 0-0-0").unwrap();
    assert_eq!(algebraic::write_series(&castle, series.moves()).unwrap(), "a) O-O-O");
}

#[test]
fn a_record_reads_tags_labels_numbers_comments_and_the_result() {
    let text = r#"[Event "Test"]
[White "A"]
[Black "B"]

1. a) e4, Nf3, d4 b) e5, Nc6 {a comment}
2. a) d:e5, Bb5 ; a line comment
   b) N:e5, Nf6
*
"#;
    let rec = record::read(text).unwrap();
    assert_eq!(rec.tags[0], ("Event".to_owned(), "Test".to_owned()));
    assert_eq!(rec.series.len(), 4);
    assert_eq!(rec.series[2].len(), 2);
    assert_eq!(rec.result.as_deref(), Some("*"));
    let game = rec.to_game().unwrap();
    let written = record::write(&game, &rec.tags);
    assert!(written.contains("1. a) e4, Nf3, d4 b) e5, Nc6\n2. a) d:e5, Bb5 b) N:e5, Nf6"), "{written}");
    let again = record::read(&written).unwrap();
    assert_eq!(again.series, rec.series);
}

#[test]
fn a_record_with_a_fen_tag_and_russian_labels() {
    let text = "[FEN \"4k3/2p1p3/8/1P3P2/8/8/8/4K3 b - - 0 1\"]\n1... б) c5, e5 2. а) b:c6, f:e6\n";
    let rec = record::read(text).unwrap();
    assert_eq!(rec.series.len(), 2);
    let game = rec.to_game().unwrap();
    assert_eq!(fen::write(game.position()), "4k3/8/2P1P3/8/8/8/8/4K3 b - - 0 2");
    // Text before the first label is refused.
    assert!(matches!(record::read("e4 a) d4"), Err(record::RecordError::Stray(_))));
}

#[test]
fn a_record_reports_the_failing_series() {
    let err = record::read("1. a) e4 b) e5 2. a) Ke3").unwrap_err();
    assert!(matches!(err, record::RecordError::Series { index: 2, .. }), "{err:?}");
    let err = record::read("1. a) e4 a) d4").unwrap_err();
    assert!(
        matches!(err, record::RecordError::Series { index: 1, error: NotationError::WrongPlayer(_) }),
        "{err:?}"
    );
}
