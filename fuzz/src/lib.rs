//! What the fuzz targets share: the positions they play from (the perft tables' positions)
//! and the checks every target makes on a game it could set up or a move it could read.
//!
//! The checks assert only contracts the rules crate documents: a legal move plays, a
//! position written reads back the same, a move a parser accepts is legal and, written in
//! the same notation, reads back as the same move. Everything else must merely not panic.

use std::borrow::Cow;
use std::sync::OnceLock;

use tavoliere_rules::variant::{AnyGame, Notation, Variant};

/// The perft tables: every `epd <FEN>` line is a start position for the move targets and a
/// seed of the position targets.
pub const XIANGQI_PERFT: &str = include_str!("../../rules/tests/data/xiangqi.perft");
/// Shogi perft table.
pub const SHOGI_PERFT: &str = include_str!("../../rules/tests/data/shogi.perft");
/// MiniShogi perft table.
pub const MINISHOGI_PERFT: &str = include_str!("../../rules/tests/data/minishogi.perft");
/// Orthodox chess perft table (the positions Flickering chess is played from).
pub const CHESS_PERFT: &str = include_str!("../../rules/tests/data/chess.perft");

/// At most this many lines of an input are played as moves.
pub const MAX_PLIES: usize = 32;

/// At most this many legal moves of the final position are played on copies of the game.
const MAX_BRANCHES: usize = 4;

/// The input as text, as a server or a file reader would see it after decoding.
pub fn text(data: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// The positions (`epd` lines) of a perft table.
pub fn perft_positions(table: &'static str) -> Vec<&'static str> {
    table.lines().filter_map(|line| line.strip_prefix("epd ")).map(str::trim).collect()
}

/// Splits an input into a selector byte (which position, which notation) and the rest.
pub fn split_selector(data: &[u8]) -> Option<(u8, &[u8])> {
    data.split_first().map(|(&selector, rest)| (selector, rest))
}

/// The games a move target starts from: the standard start, then every perft position
/// the game accepts (some perft positions lack a king, which a game does not allow); for
/// the Seven Kingdoms the standard starts of 3 to 7 players. Set up once per process.
fn start_games(variant: Variant) -> &'static [AnyGame] {
    static GAMES: [OnceLock<Vec<AnyGame>>; 5] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let index = Variant::ALL.iter().position(|&v| v == variant).expect("a variant of ALL");
    GAMES[index].get_or_init(|| {
        let table = match variant {
            Variant::Xiangqi => XIANGQI_PERFT,
            Variant::Shogi => SHOGI_PERFT,
            Variant::MiniShogi => MINISHOGI_PERFT,
            Variant::Flickering => CHESS_PERFT,
            Variant::SevenKingdoms => {
                return (3..=7)
                    .map(|seats| AnyGame::with_seats(variant, seats).expect("3 to 7 seats"))
                    .collect();
            }
        };
        let standard = AnyGame::new(variant, None).expect("the standard start");
        let perft =
            perft_positions(table).into_iter().filter_map(|fen| AnyGame::new(variant, Some(fen)).ok());
        std::iter::once(standard).chain(perft).collect()
    })
}

/// The game of `variant` from the start position chosen by `selector` (the standard start
/// for selector 0).
pub fn game_from_selector(variant: Variant, selector: u8) -> AnyGame {
    let games = start_games(variant);
    games[usize::from(selector) % games.len()].clone()
}

/// The lines of an input a move target plays, one move (or series) each.
pub fn move_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().take(MAX_PLIES)
}

/// Plays `line` as the server plays a move: resolved in every notation of the variant
/// (what resolves must resolve again from its canonical text, to itself), tried without
/// playing (`dry_run`), then played with the game laws.
pub fn play_as_server(game: &mut AnyGame, line: &str) {
    for &notation in game.variant().notations().iter().chain([&Notation::Auto]) {
        if let Ok(canonical) = game.resolve(line, notation) {
            let again = game.resolve(&canonical, Notation::Auto);
            assert_eq!(again.as_deref(), Ok(canonical.as_str()), "{line:?} in {notation:?}");
        }
    }
    let dry = game.dry_run(line);
    let played = game.play(line);
    assert_eq!(dry.is_ok(), played.is_ok(), "{line:?}: dry run and play disagree");
}

/// Everything a page or the API asks of a game: its position, legal moves, the move list in
/// every notation, the outcome, a claim, the record; and a few legal moves played on copies.
pub fn exercise(game: &AnyGame) {
    let _ = game.fen();
    let _ = game.is_check();
    let _ = game.outcome();
    let _ = game.seat_results();
    let _ = game.standings_now();
    let _ = game.end_reason();
    let _ = game.judge_claim();
    let _ = game.record_text(&[]);
    for &notation in game.variant().notations().iter().chain([&Notation::Auto]) {
        assert_eq!(game.display_moves(notation).len(), game.moves().len());
    }
    let legal = game.legal_moves();
    let step = legal.len().div_ceil(MAX_BRANCHES).max(1);
    for canonical in legal.iter().step_by(step) {
        // A listed move reads as itself (a Flickering first move may need the rest of its
        // series), and is played on a copy (the game laws or a handicap may refuse it).
        if game.variant() != Variant::Flickering {
            let resolved = game.resolve(canonical, Notation::Auto);
            assert_eq!(resolved.as_deref(), Ok(canonical.as_str()), "listed move {canonical}");
        }
        let _ = game.clone().play(canonical);
    }
}
