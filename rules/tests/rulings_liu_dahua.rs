//! The CXQ rulings on real games (issue 15 §3): the games of
//! `tests/data/records/liu-dahua-1125-iccs.pgn` (Liu Dahua's games as published by the
//! WXF, from the xqdb collection of the wukong-xiangqi project, in ICCS coordinates; see
//! `../shared/README.md`) replayed under the CXQ rules. The games were played under other
//! rules (AXF/WXF), so a CXQ law may end one before the players did; every such ruling was
//! checked by hand against `xiangqi.md` and is written up in `docs/rulings-audit.md`. Each
//! row below is one audited game.

mod common;

use tavoliere_rules::game::ruling::{Evidence, Ruling, SeriesKind};
use tavoliere_rules::game::xiangqi::XiangqiGame;
use tavoliere_rules::game::{CxqLimits, Ruleset};
use tavoliere_rules::notation::record::{split_games, GameText};
use tavoliere_rules::notation::xiangqi::iccs;
use tavoliere_rules::xiangqi::Position;
use tavoliere_rules::Color::{self, First, Second};

fn games() -> Vec<GameText> {
    let path = common::data_path("records/liu-dahua-1125-iccs.pgn");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    split_games(&text)
}

/// Replays a game under CXQ until a law ends it; the ruling, if one does before the
/// record's last move.
fn early_ruling(game: &GameText) -> Option<Ruling> {
    let mut replay = XiangqiGame::new(Position::new(), Ruleset::Cxq(CxqLimits::STANDARD), None);
    for token in &game.tokens[..game.tokens.len() - 1] {
        let m = iccs::parse(replay.position(), token).expect("a legal record move");
        if replay.play(m).expect("a legal record move").is_some() {
            return replay.ruling().cloned();
        }
    }
    None
}

/// What the audit expects of a game: the law, the ply, the side ruled against, and for a
/// series the kind, the violator's piece, the target and the number of distinct pieces.
struct Audited {
    game: usize,
    expected: Option<Expected>,
    why: &'static str,
}

struct Expected {
    law: &'static str,
    ply: u32,
    against: Option<Color>,
    series: Option<(SeriesKind, &'static str, &'static str, u32)>,
}

const fn series(
    law: &'static str,
    ply: u32,
    against: Color,
    kind: SeriesKind,
    by: &'static str,
    target: &'static str,
) -> Option<Expected> {
    Some(Expected { law, ply, against: Some(against), series: Some((kind, by, target, 1)) })
}

const fn no_progress(ply: u32) -> Option<Expected> {
    Some(Expected { law: "no-progress-30", ply, against: None, series: None })
}

const AUDIT: &[Audited] = &[
    Audited {
        game: 71,
        expected: series("perpetual-chase", 102, Second, SeriesKind::Chase, "chariot", "soldier"),
        why: "Black's chariot i6/f6 attacks Red's crossed, unprotected soldier e6 seven moves running \
              (every other one also a check: still an attack, rule 4's last sentence)",
    },
    Audited {
        game: 95,
        expected: no_progress(185),
        why: "60 plies (126-185) without a capture or a crossed soldier's forward move",
    },
    Audited {
        game: 100,
        expected: None,
        why: "old ruling wrong: Red's king moves evading Black's checks were credited to Red's standing horse d5",
    },
    Audited { game: 192, expected: no_progress(106), why: "60 plies (47-106) without progress" },
    Audited {
        game: 198,
        expected: series("perpetual-chase", 55, First, SeriesKind::Chase, "chariot", "cannon"),
        why: "Red's chariot h6/g6 follows Black's unprotected cannon g8/h8 seven moves running",
    },
    Audited {
        game: 282,
        expected: None,
        why: "old ruling wrong: Red's king moves evading cannon checks were credited to the standing cannon d2",
    },
    Audited {
        game: 283,
        expected: None,
        why: "old ruling wrong: Red's king moves evading horse checks were credited to the standing cannon e5",
    },
    Audited { game: 605, expected: no_progress(109), why: "60 plies (50-109) without progress" },
    Audited { game: 724, expected: no_progress(131), why: "60 plies (72-131) without progress" },
    Audited {
        game: 770,
        expected: None,
        why: "old ruling wrong: standing attacks of Black's chariot (g4, then e4) were credited on cannon and \
              king moves; by the spec only every other Black move attacked the horse",
    },
    Audited {
        game: 881,
        expected: series("perpetual-check", 136, Second, SeriesKind::Check, "cannon", "king"),
        why: "Black's cannon d6 checks seven moves running, its screen changing (horse d5, Red's cannon d1, \
              cannon d5); a discovered check is credited to the cannon: one piece, allowance 6",
    },
    Audited {
        game: 935,
        expected: series("perpetual-chase", 92, Second, SeriesKind::Chase, "chariot", "cannon"),
        why: "Black's chariot b4/b5 follows Red's unprotected cannon a4/a5 seven moves running",
    },
    Audited { game: 1016, expected: no_progress(143), why: "60 plies (84-143) without progress" },
    Audited {
        game: 1101,
        expected: series("perpetual-chase", 103, First, SeriesKind::Chase, "chariot", "soldier"),
        why: "Red's chariot f6/g6 follows Black's crossed, unprotected soldier f3/g3 seven moves running",
    },
    Audited {
        game: 1115,
        expected: series("perpetual-chase", 95, First, SeriesKind::Chase, "chariot", "horse"),
        why: "Red's chariot g4/g6 follows Black's unprotected horse e4/f6 seven moves running",
    },
];

#[test]
fn every_audited_liu_dahua_game_is_ruled_as_the_audit_found() {
    let games = games();
    for row in AUDIT {
        let ruling = early_ruling(&games[row.game - 1]);
        let context = format!("game {}: {}", row.game, row.why);
        let Some(expected) = &row.expected else {
            assert_eq!(ruling, None, "{context}");
            continue;
        };
        let ruling = ruling.unwrap_or_else(|| panic!("{context}: no ruling"));
        assert_eq!(
            (ruling.law, ruling.ply, ruling.against),
            (expected.law, expected.ply, expected.against),
            "{context}"
        );
        if let Some((kind, by, target, pieces)) = expected.series {
            let Evidence::CxqSeries(evidence) = &ruling.evidence else { panic!("{context}: {ruling:?}") };
            let series = &evidence.series;
            assert_eq!((series.kind, series.pieces, series.length), (kind, pieces, 7), "{context}");
            assert!(series.plies.iter().all(|p| p.by.iter().all(|b| b.piece == by)), "{context}: {series:?}");
            assert_eq!(series.target.piece, target, "{context}");
            assert_eq!(evidence.opponent_check, None, "{context}: the opponent made no check series");
        }
    }
}

#[test]
fn no_other_liu_dahua_game_is_ended_early_by_a_law() {
    let games = games();
    assert_eq!(games.len(), 1125);
    let ended_early: Vec<usize> =
        (1..=games.len()).filter(|&n| early_ruling(&games[n - 1]).is_some()).collect();
    let audited: Vec<usize> = AUDIT.iter().filter(|row| row.expected.is_some()).map(|row| row.game).collect();
    assert_eq!(ended_early, audited, "every early ruling must be audited in docs/rulings-audit.md");
}
