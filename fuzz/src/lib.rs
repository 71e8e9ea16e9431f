//! What the fuzz targets share: the positions they play from (the perft tables' positions)
//! and the checks every target makes on a game it could set up or a move it could read.
//!
//! The checks assert only contracts the rules crate documents: a legal move plays, a
//! position written reads back the same, a move a parser accepts is legal and, written in
//! the same notation, reads back as the same move. Everything else must merely not panic.

use std::borrow::Cow;

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

/// At most this many moves of a game are played per input: enough to reach the repetition
/// and series laws, few enough to keep an execution in the tens of microseconds.
pub const MAX_PLIES: usize = 48;

/// At most this many legal moves of one position are played on copies of the game.
const MAX_BRANCHES: usize = 12;

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

/// The game of `variant` from the perft position chosen by `selector` (the standard start
/// for selector 0).
pub fn game_from_selector(variant: Variant, selector: u8) -> AnyGame {
    let table = match variant {
        Variant::Xiangqi => XIANGQI_PERFT,
        Variant::Shogi => SHOGI_PERFT,
        Variant::MiniShogi => MINISHOGI_PERFT,
        Variant::Flickering => CHESS_PERFT,
        Variant::SevenKingdoms => {
            let seats = 3 + usize::from(selector) % 5;
            return AnyGame::with_seats(variant, seats).expect("3 to 7 seats");
        }
    };
    let positions = perft_positions(table);
    let index = usize::from(selector) % (positions.len() + 1);
    let start = index.checked_sub(1).map(|i| positions[i]);
    AnyGame::new(variant, start).expect("the perft positions are legal")
}

/// Plays each line of `text` as a move (resolved in every notation of the variant, then
/// played as the server plays it, with any notation), stopping at `MAX_PLIES` or the end of
/// the game, and exercises the game after each move. `before` sees the game and the line
/// before the line is played (the targets run the notation parsers there).
pub fn play_lines(game: &mut AnyGame, text: &str, mut before: impl FnMut(&AnyGame, &str)) {
    for line in text.lines().take(MAX_PLIES) {
        if game.is_over() {
            break;
        }
        before(game, line);
        for &notation in game.variant().notations().iter().chain([&Notation::Auto]) {
            if let Ok(canonical) = game.resolve(line, notation) {
                // What resolves must also resolve from its canonical text, to itself.
                let again = game.resolve(&canonical, Notation::Auto);
                assert_eq!(again.as_deref(), Ok(canonical.as_str()), "{line:?} in {notation:?}");
            }
        }
        let _ = game.dry_run(line);
        if game.play(line).is_ok() {
            exercise(game);
        }
    }
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
        let mut copy = game.clone();
        let played = copy.play(canonical);
        // A listed move of a two-player game plays (game laws may end the game with it, a
        // handicap may ban it); a Flickering first move may need the rest of its series.
        if let Err(e) = played {
            let explained = matches!(game.variant(), Variant::Flickering)
                || !matches!(e.kind, tavoliere_rules::variant::MoveErrorKind::Unreadable);
            assert!(explained, "listed move {canonical} unreadable: {e}");
        }
    }
}
