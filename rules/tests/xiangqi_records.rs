//! Replays the 1,125 games of `tests/data/records/liu-dahua-1125-iccs.pgn`: Liu Dahua's
//! games as published by the WXF, from the xqdb collection of the wukong-xiangqi
//! project, in ICCS coordinates (see `../shared/README.md`).

mod common;

use tavoliere_rules::notation::record::{split_games, GameText};
use tavoliere_rules::notation::xiangqi::{chinese, fen, fix, iccs, wxf, MoveParser};
use tavoliere_rules::xiangqi::{Move, Position};

fn games() -> Vec<GameText> {
    let path = common::data_path("records/liu-dahua-1125-iccs.pgn");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    split_games(&text)
}

/// Replays a game's ICCS tokens; returns the moves with the position before each.
fn replay(game_no: usize, game: &GameText) -> (Vec<(Position, Move)>, Position) {
    let mut pos = Position::new();
    let mut played = Vec::with_capacity(game.tokens.len());
    for (ply, token) in game.tokens.iter().enumerate() {
        let m = iccs::parse(&pos, token)
            .unwrap_or_else(|e| panic!("game {game_no} ply {ply} {token}: {e} in {}", fen::write(&pos)));
        played.push((pos.clone(), m));
        pos.play_unchecked(m);
    }
    (played, pos)
}

#[test]
fn all_1125_games_replay_to_the_end() {
    let games = games();
    assert_eq!(games.len(), 1125);
    let mut plies = 0;
    for (i, game) in games.iter().enumerate() {
        assert!(game.tag("Event").is_some(), "game {i} has its tags");
        assert!(!game.tokens.is_empty(), "game {i} has moves");
        let (played, _) = replay(i, game);
        plies += played.len();
    }
    assert!(plies > 50_000, "{plies} plies");
}

/// Writes every move of every game in a notation, reads the text back in a fresh
/// replay, and checks the final FEN.
fn round_trip_all_games(name: &str, write: fn(&Position, Move) -> String, parse: MoveParser) {
    let games = games();
    assert_eq!(games.len(), 1125);
    for (i, game) in games.iter().enumerate() {
        let (played, end) = replay(i, game);
        let texts: Vec<String> = played.iter().map(|(pos, m)| write(pos, *m)).collect();
        let mut pos = Position::new();
        for (ply, text) in texts.iter().enumerate() {
            let m = parse(&pos, text).unwrap_or_else(|e| {
                panic!("{name}: game {i} ply {ply} {text:?}: {e} in {}", fen::write(&pos))
            });
            pos = pos.play(m).unwrap_or_else(|e| panic!("{name}: game {i} ply {ply}: {e}"));
        }
        assert_eq!(fen::write(&pos), fen::write(&end), "{name}: game {i}");
    }
}

#[test]
fn every_game_round_trips_through_wxf() {
    round_trip_all_games("WXF", wxf::write, wxf::parse);
}

#[test]
fn every_game_round_trips_through_fix() {
    round_trip_all_games("FIX", fix::write, fix::parse);
}

#[test]
fn every_game_round_trips_through_chinese() {
    round_trip_all_games("Chinese", chinese::write, chinese::parse);
}
