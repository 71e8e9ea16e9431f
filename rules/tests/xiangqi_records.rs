//! Replays the 1,125 games of `tests/data/records/liu-dahua-1125-iccs.pgn`: Liu Dahua's
//! games as published by the WXF, from the xqdb collection of the wukong-xiangqi
//! project, in ICCS coordinates (see `../shared/README.md`).

mod common;

use tavoliere_rules::notation::record::{split_games, GameText};
use tavoliere_rules::notation::xiangqi::{fen, iccs};
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
