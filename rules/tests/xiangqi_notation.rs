//! Round trips of every Xiangqi move notation over random playouts, and robustness of
//! every parser against hostile text.

use tavoliere_rules::notation::record::split_games;
use tavoliere_rules::notation::xiangqi::{chinese, fen, fix, iccs, parse_any, wxf, MoveParser};
use tavoliere_rules::xiangqi::{Move, Position};

type Writer = fn(&Position, Move) -> String;

const NOTATIONS: [(&str, Writer, MoveParser); 4] = [
    ("ICCS", iccs::write, iccs::parse),
    ("WXF", wxf::write, wxf::parse),
    ("FIX", fix::write, fix::parse),
    ("Chinese", chinese::write, chinese::parse),
];

/// A small deterministic generator for playouts.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Positions from random playouts, captures favoured so that endgames with tandem
/// pieces and crossed soldiers appear.
fn playout_positions() -> Vec<Position> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut positions = Vec::new();
    for _ in 0..30 {
        let mut pos = Position::new();
        for _ in 0..150 {
            positions.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            pos.play_unchecked(m);
        }
    }
    positions
}

#[test]
fn every_legal_move_round_trips_in_every_notation() {
    let positions = playout_positions();
    assert!(positions.len() > 2_000);
    let mut checked = 0;
    for pos in &positions {
        for m in pos.legal_moves() {
            for (name, write, parse) in NOTATIONS {
                let text = write(pos, m);
                assert_eq!(parse(pos, &text), Ok(m), "{name} {text:?} for {m} in {}", fen::write(pos));
                assert_eq!(parse_any(pos, &text), Ok(m), "parse_any {name} {text:?} in {}", fen::write(pos));
                checked += 1;
            }
        }
    }
    assert!(checked > 50_000, "{checked}");
}

#[test]
fn fen_round_trips_over_playouts() {
    for pos in playout_positions().iter().step_by(7) {
        let text = fen::write(pos);
        let back = fen::parse(&text).unwrap();
        assert_eq!(&back, pos, "{text}");
        assert_eq!(back.zobrist(), pos.zobrist());
    }
}

/// Text that has broken parsers before, or could.
fn nasty_strings() -> Vec<String> {
    let mut v: Vec<String> = [
        "",
        " ",
        "+",
        "-",
        "=",
        ".",
        "++",
        "+-=",
        "P",
        "P+",
        "P++",
        "P+++",
        "P++++",
        "+P",
        "+P+",
        "AP",
        "EP+1",
        "C+-",
        "R-=",
        "h2",
        "h2e",
        "h2-",
        "-e2",
        "h2e2e2",
        "h10g8",
        "h99e3",
        "Bh",
        "Bh1",
        "Bhxe3",
        "Th0e0",
        "炮",
        "炮二",
        "炮二平",
        "前",
        "前炮",
        "前炮平",
        "中兵二",
        "一二三四五",
        "进进进进",
        "马8进7马8进7",
        "é",
        "\u{0}",
        "\u{feff}h2e2",
        "ｈ２ｅ２",
        "Ｃ２＝５",
        "ﾟ",
        "𝔥2e2",
        "h2\u{301}e2",
        "\u{2028}",
        "1-0",
        "K9+9",
        "k0+0",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN9 w",
        "99999999999/9/9/9/9/9/9/9/9/9 w",
        "0/0/0/0/0/0/0/0/0/0",
        "/////////",
        "k",
        "[Event \"",
        "{{{{",
        "((((",
        ")))",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push("P".repeat(10_000));
    v.push("炮".repeat(1_000));
    v.push("9/".repeat(1_000));
    v
}

#[test]
fn no_parser_panics_on_hostile_text() {
    let positions = [Position::new(), fen::parse("3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/5K3 w").unwrap()];
    let mut rejected = 0;
    for text in nasty_strings() {
        for pos in &positions {
            for (_, _, parse) in NOTATIONS {
                if parse(pos, &text).is_err() {
                    rejected += 1;
                }
            }
            let _ = parse_any(pos, &text);
        }
        let _ = fen::parse(&text);
        let _ = split_games(&text);
    }
    assert!(rejected > 100, "hostile strings are rejected, not accepted: {rejected}");
}

#[test]
fn writers_do_not_panic_on_moves_that_are_not_legal() {
    let pos = Position::new();
    let squares = ["a0", "e4", "e9", "h2", "i9"];
    for from in squares {
        for to in squares {
            let m = Move::new(from.parse().unwrap(), to.parse().unwrap());
            for (name, write, _) in NOTATIONS {
                assert!(!write(&pos, m).is_empty(), "{name} {m}");
            }
        }
    }
}
