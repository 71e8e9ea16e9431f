//! Replays the lishogi games of `tests/data/records/lishogi-usi-games.txt` (source:
//! WandererXII/scalashogi, `src/test/scala/format/usi/Fixtures.scala`, MIT licence),
//! then writes each in western notation, reads it back and compares the final SFEN.

use tavoliere_rules::notation::shogi::western::{self, Style};
use tavoliere_rules::notation::shogi::{sfen, usi};
use tavoliere_rules::shogi::{Move, Position, Variant};

mod common;

/// One game per line of USI moves; `#` lines are comments.
fn games() -> Vec<Vec<String>> {
    let path = common::data_path("records/lishogi-usi-games.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_ascii_whitespace().map(str::to_owned).collect())
        .collect()
}

fn replay(moves: &[String]) -> (Position, Vec<Move>) {
    let mut pos = Position::startpos(Variant::Standard);
    let mut played = Vec::new();
    for (ply, text) in moves.iter().enumerate() {
        let m = usi::parse(&pos, text)
            .unwrap_or_else(|e| panic!("ply {ply} {text}: {e} in {}", sfen::write(&pos)));
        pos = pos.play(m).expect("checked move");
        played.push(m);
    }
    (pos, played)
}

#[test]
fn all_lishogi_games_replay_to_the_end() {
    let games = games();
    assert_eq!(games.len(), 504);
    let plies: usize = games.iter().map(|g| replay(g).1.len()).sum();
    assert!(plies > 10_000, "{plies}");
}

#[test]
fn lishogi_games_round_trip_through_western_notation() {
    for (index, game) in games().iter().enumerate() {
        let (end, moves) = replay(game);
        for style in [Style::Hyphenated, Style::Aise] {
            let mut pos = Position::startpos(Variant::Standard);
            let mut texts = Vec::with_capacity(moves.len());
            for &m in &moves {
                texts.push(western::write(&pos, m, style));
                pos.play_unchecked(m);
            }
            let mut reread = Position::startpos(Variant::Standard);
            for text in &texts {
                let m = western::parse(&reread, text).unwrap_or_else(|e| panic!("game {index} {text}: {e}"));
                reread = reread.play(m).expect("resolved moves are legal");
            }
            assert_eq!(sfen::write(&reread), sfen::write(&end), "game {index} {style:?}");
        }
    }
}

#[test]
fn lishogi_games_round_trip_through_kif_and_csa() {
    use tavoliere_rules::notation::shogi::game::{BLACK_NAME, WHITE_NAME};
    use tavoliere_rules::notation::shogi::{csa, kif, Ending, GameRecord};
    for (index, game) in games().iter().enumerate() {
        let (end, moves) = replay(game);
        let record = GameRecord {
            start: Position::startpos(Variant::Standard),
            moves,
            ending: if index % 2 == 0 { Some(Ending::Resignation) } else { None },
            headers: vec![
                (BLACK_NAME.to_owned(), format!("black {index}")),
                (WHITE_NAME.to_owned(), format!("white {index}")),
            ],
        };
        let kif_text = kif::write(&record);
        let from_kif = kif::read(&kif_text).unwrap_or_else(|e| panic!("game {index}: {e}\n{kif_text}"));
        assert_eq!(from_kif, record, "game {index} through KIF");
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(&kif_text);
        assert_eq!(kif::read_bytes(&sjis).as_ref(), Ok(&record), "game {index} through Shift_JIS KIF");
        let csa_text = csa::write(&record).expect("standard shogi");
        let from_csa = csa::read(&csa_text).unwrap_or_else(|e| panic!("game {index}: {e}\n{csa_text}"));
        assert_eq!(from_csa, record, "game {index} through CSA");
        assert_eq!(sfen::write(&from_csa.final_position()), sfen::write(&end));
    }
}
