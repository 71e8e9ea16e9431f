//! Game records for download: PGN (ICCS or WXF moves) for Xiangqi; KIF, CSA and USI for
//! Shogi and MiniShogi; the AISE notation for MiniShogi. Pure functions of a
//! [`RecordInput`]; the moves are replayed through the rules facade.

use std::fmt::Write as _;

use tavoliere_rules::game::{Handicap, Ruleset};
use tavoliere_rules::notation::shogi::{self as shogi_notation, Ending, GameRecord};
use tavoliere_rules::shogi::Variant as ShogiVariant;
use tavoliere_rules::variant::{AnyGame, Notation, Variant};
use tavoliere_rules::EndReason;

use crate::storage::endings::{GameReason, GameResult};

/// A downloadable record format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordFormat {
    /// PGN with ICCS moves (Xiangqi).
    PgnIccs,
    /// PGN with WXF moves (Xiangqi).
    PgnWxf,
    /// KIF (Shogi, MiniShogi).
    Kif,
    /// CSA (Shogi, MiniShogi).
    Csa,
    /// A USI `position` command (Shogi, MiniShogi).
    Usi,
    /// AISE magazine notation (MiniShogi).
    Aise,
    /// The variant's own record format, written by the rules facade with seat exits
    /// included: Flickering chess series, the Seven Kingdoms record (`seven-kingdoms.md`
    /// "Notation"). Written by `games::record_text`, not by [`write`].
    Record,
}

impl RecordFormat {
    /// The formats offered for `variant`.
    pub fn for_variant(variant: Variant) -> &'static [RecordFormat] {
        match variant {
            Variant::Xiangqi => &[RecordFormat::PgnIccs, RecordFormat::PgnWxf],
            Variant::Shogi => &[RecordFormat::Kif, RecordFormat::Csa, RecordFormat::Usi],
            Variant::MiniShogi => {
                &[RecordFormat::Kif, RecordFormat::Csa, RecordFormat::Usi, RecordFormat::Aise]
            }
            Variant::Flickering | Variant::SevenKingdoms => &[RecordFormat::Record],
        }
    }

    /// The name used in URLs (`pgn-iccs`, `kif`...).
    pub fn name(self) -> &'static str {
        match self {
            RecordFormat::PgnIccs => "pgn-iccs",
            RecordFormat::PgnWxf => "pgn-wxf",
            RecordFormat::Kif => "kif",
            RecordFormat::Csa => "csa",
            RecordFormat::Usi => "usi",
            RecordFormat::Aise => "aise",
            RecordFormat::Record => "record",
        }
    }

    /// Reads a URL name.
    pub fn from_name(name: &str) -> Option<RecordFormat> {
        [
            RecordFormat::PgnIccs,
            RecordFormat::PgnWxf,
            RecordFormat::Kif,
            RecordFormat::Csa,
            RecordFormat::Usi,
            RecordFormat::Aise,
            RecordFormat::Record,
        ]
        .into_iter()
        .find(|f| f.name() == name)
    }

    /// File extension of the download.
    pub fn extension(self) -> &'static str {
        match self {
            RecordFormat::PgnIccs | RecordFormat::PgnWxf => "pgn",
            RecordFormat::Kif => "kif",
            RecordFormat::Csa => "csa",
            RecordFormat::Usi => "usi",
            RecordFormat::Aise | RecordFormat::Record => "txt",
        }
    }
}

/// What a record is made from (the stored game).
#[derive(Debug, Clone)]
pub struct RecordInput<'a> {
    /// Game id (the PGN `Event`/`Site` tags).
    pub id: i64,
    /// Variant.
    pub variant: Variant,
    /// Ruleset name.
    pub ruleset: &'a str,
    /// Handicap name.
    pub handicap: Option<&'a str>,
    /// Start position, `None` for the standard (or handicap) start.
    pub start: Option<&'a str>,
    /// The first and the second player.
    pub players: [&'a str; 2],
    /// Canonical moves (ICCS / USI).
    pub moves: &'a [String],
    /// `1-0`, `0-1`, `1/2-1/2` once over.
    pub result: Option<&'a GameResult>,
    /// Why it ended.
    pub reason: Option<GameReason>,
}

/// Why a record cannot be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordWriteError {
    /// The format does not exist for the variant.
    #[error("{0} records are not offered for this variant")]
    Unsupported(&'static str),
    /// The stored game cannot be replayed.
    #[error("the game cannot be replayed: {0}")]
    Replay(String),
}

fn replay(input: &RecordInput<'_>) -> Result<AnyGame, RecordWriteError> {
    let ruleset: Ruleset = input.ruleset.parse().map_err(|e| RecordWriteError::Replay(format!("{e}")))?;
    let handicap = input
        .handicap
        .map(|name| Handicap::parse(input.variant.name(), name))
        .transpose()
        .map_err(|e| RecordWriteError::Replay(format!("{e}")))?;
    // The rules' one replay of a stored game (one canonical text per turn here: these
    // formats are for two-seat games without series).
    AnyGame::replay(input.variant, ruleset, handicap, input.start, input.moves.iter().map(String::as_str))
        .map_err(|e| RecordWriteError::Replay(e.to_string()))
}

/// Writes the record of a game's view in `format` (a two-seat game's; the variant's own
/// record format is `games::record_text`'s).
///
/// # Errors
/// [`RecordWriteError::Unsupported`] when the format is not offered for the variant,
/// [`RecordWriteError::Replay`] when the stored moves cannot be replayed.
pub fn write_view(
    view: &crate::domain::games::GameView,
    format: RecordFormat,
) -> Result<String, RecordWriteError> {
    let variant: Variant =
        view.variant.parse().map_err(|_| RecordWriteError::Replay(format!("variant {}", view.variant)))?;
    if !RecordFormat::for_variant(variant).contains(&format) || format == RecordFormat::Record {
        return Err(RecordWriteError::Unsupported(format.name()));
    }
    let moves: Vec<String> = view.moves.iter().map(|m| m.canonical.clone()).collect();
    let name = |seat: usize| view.seats.get(seat).map(|s| s.username.as_str()).unwrap_or("");
    let input = RecordInput {
        id: view.id,
        variant,
        ruleset: &view.ruleset,
        handicap: view.handicap.as_deref(),
        start: view.start_position.as_deref(),
        players: [name(0), name(1)],
        moves: &moves,
        result: view.result.as_ref(),
        reason: view.reason,
    };
    write(&input, format)
}

/// Writes the record of `input` in `format`.
///
/// # Errors
/// [`RecordWriteError`] when the format is not offered for the variant or the stored moves
/// cannot be replayed.
pub fn write(input: &RecordInput<'_>, format: RecordFormat) -> Result<String, RecordWriteError> {
    if !RecordFormat::for_variant(input.variant).contains(&format) {
        return Err(RecordWriteError::Unsupported(format.name()));
    }
    let game = replay(input)?;
    match format {
        RecordFormat::PgnIccs => Ok(pgn(input, &game, Notation::Iccs, "ICCS")),
        RecordFormat::PgnWxf => Ok(pgn(input, &game, Notation::Wxf, "WXF")),
        RecordFormat::Usi => Ok(usi(&game)),
        RecordFormat::Aise => Ok(aise(input, &game)),
        RecordFormat::Kif => Ok(shogi_notation::kif::write(&shogi_record(input, &game)?)),
        RecordFormat::Csa => shogi_notation::csa::write(&shogi_record(input, &game)?)
            .map_err(|e| RecordWriteError::Replay(e.to_string())),
        RecordFormat::Record => Err(RecordWriteError::Unsupported(format.name())),
    }
}

fn numbered(moves: &[String]) -> String {
    let mut out = String::new();
    for (i, pair) in moves.chunks(2).enumerate() {
        let _ = write!(out, "{}. {}", i + 1, pair.join(" "));
        out.push(if (i + 1) % 6 == 0 { '\n' } else { ' ' });
    }
    out
}

fn pgn(input: &RecordInput<'_>, game: &AnyGame, notation: Notation, format: &str) -> String {
    let result = input.result.map_or_else(|| "*".to_owned(), ToString::to_string);
    let mut out = String::new();
    let tags = [
        ("Game", "Chinese Chess".to_owned()),
        ("Event", format!("Tavoliere game {}", input.id)),
        ("Red", input.players[0].to_owned()),
        ("Black", input.players[1].to_owned()),
        ("Result", result.clone()),
        ("Format", format.to_owned()),
    ];
    for (name, value) in tags {
        let _ = writeln!(out, "[{name} \"{}\"]", value.replace('\\', "\\\\").replace('"', "\\\""));
    }
    if input.start.is_some() || input.handicap.is_some() {
        let _ = writeln!(out, "[FEN \"{}\"]", game.start_fen());
    }
    if let Some(reason) = input.reason {
        let _ = writeln!(out, "[Termination \"{reason}\"]");
    }
    out.push('\n');
    out.push_str(&numbered(&game.display_moves(notation)));
    out.push_str(&result);
    out.push('\n');
    out
}

fn usi(game: &AnyGame) -> String {
    let mut out = format!("position sfen {}", game.start_fen());
    if !game.moves().is_empty() {
        out.push_str(" moves ");
        out.push_str(&game.moves().join(" "));
    }
    out.push('\n');
    out
}

fn aise(input: &RecordInput<'_>, game: &AnyGame) -> String {
    let mut out = format!("{} - {}\n", input.players[0], input.players[1]);
    out.push_str(&numbered(&game.display_moves(Notation::Aise)));
    out.push_str(&input.result.map_or_else(|| "*".to_owned(), ToString::to_string));
    out.push('\n');
    out
}

fn shogi_record(input: &RecordInput<'_>, game: &AnyGame) -> Result<GameRecord, RecordWriteError> {
    let variant =
        if input.variant == Variant::MiniShogi { ShogiVariant::Mini } else { ShogiVariant::Standard };
    let start = shogi_notation::sfen::parse(&game.start_fen(), Some(variant))
        .map_err(|e| RecordWriteError::Replay(e.to_string()))?;
    let moves = game
        .moves()
        .iter()
        .map(|text| {
            shogi_notation::usi::parse_move(text, variant)
                .ok_or_else(|| RecordWriteError::Replay(format!("stored move {text}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let ending = match input.reason {
        Some(GameReason::Rules(reason)) => match reason {
            EndReason::Resignation => Some(Ending::Resignation),
            EndReason::Sennichite => Some(Ending::Sennichite),
            EndReason::Timeout => Some(Ending::TimeUp),
            EndReason::Jishogi
            | EndReason::JishogiCount
            | EndReason::Impasse24
            | EndReason::ImpasseDeclaration => Some(Ending::Jishogi),
            _ => None,
        },
        _ => None,
    };
    Ok(GameRecord {
        start,
        moves,
        ending,
        headers: vec![
            (shogi_notation::game::BLACK_NAME.to_owned(), input.players[0].to_owned()),
            (shogi_notation::game::WHITE_NAME.to_owned(), input.players[1].to_owned()),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'a>(variant: Variant, ruleset: &'a str, moves: &'a [String]) -> RecordInput<'a> {
        RecordInput {
            id: 7,
            variant,
            ruleset,
            handicap: None,
            start: None,
            players: ["alice", "bob"],
            moves,
            result: Some(&GameResult::FirstWins),
            reason: Some(GameReason::Rules(EndReason::Resignation)),
        }
    }

    fn ruleset(variant: Variant) -> String {
        variant.default_ruleset().to_string()
    }

    #[test]
    fn xiangqi_pgn_in_iccs_and_wxf() {
        let moves = vec!["h2e2".to_owned(), "h9g7".to_owned()];
        let rules = ruleset(Variant::Xiangqi);
        let iccs = write(&input(Variant::Xiangqi, &rules, &moves), RecordFormat::PgnIccs).unwrap();
        assert!(iccs.contains("[Red \"alice\"]") && iccs.contains("[Format \"ICCS\"]"));
        assert!(iccs.contains("1. H2-E2 H9-G7") || iccs.contains("1. h2e2 h9g7"), "{iccs}");
        let wxf = write(&input(Variant::Xiangqi, &rules, &moves), RecordFormat::PgnWxf).unwrap();
        assert!(wxf.contains("C2=5") && wxf.trim_end().ends_with("1-0"), "{wxf}");
        for text in [&iccs, &wxf] {
            let report =
                &tavoliere_rules::replay::replay_text(Variant::Xiangqi, text, &Default::default())[0];
            assert_eq!(
                (report.plies, report.error.as_ref(), report.result.as_str()),
                (2, None, "1-0"),
                "{text}"
            );
        }
        assert_eq!(
            write(&input(Variant::Xiangqi, &rules, &moves), RecordFormat::Kif),
            Err(RecordWriteError::Unsupported("kif"))
        );
    }

    #[test]
    fn shogi_kif_csa_usi() {
        let moves = vec!["7g7f".to_owned(), "3c3d".to_owned()];
        let rules = ruleset(Variant::Shogi);
        let game = input(Variant::Shogi, &rules, &moves);
        let usi = write(&game, RecordFormat::Usi).unwrap();
        assert!(usi.starts_with("position sfen ") && usi.trim_end().ends_with("moves 7g7f 3c3d"), "{usi}");
        let kif = write(&game, RecordFormat::Kif).unwrap();
        assert!(kif.contains("alice") && kif.contains("７六歩"), "{kif}");
        let csa = write(&game, RecordFormat::Csa).unwrap();
        assert!(csa.contains("+7776FU") && csa.contains("-3334FU"), "{csa}");
    }

    /// The server's KIF and CSA exports replay to the same game (issue 15 §5): real games
    /// (the lishogi games of the rules crate's test data), a handicap game, MiniShogi.
    #[test]
    fn kif_and_csa_exports_replay_to_the_same_game() {
        use tavoliere_rules::replay::{replay_text, ReplayOptions};
        let lishogi = include_str!("../../rules/tests/data/records/lishogi-usi-games.txt");
        let mut cases: Vec<(Variant, Option<&str>, Vec<String>)> = lishogi
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .take(60)
            .map(|l| (Variant::Shogi, None, l.split_whitespace().map(str::to_owned).collect()))
            .collect();
        let handicap = "7a6b 7g7f 5c5d 2g2f 6b5c 2f2e 5a4b 2e2d 2c2d 2h2d";
        cases.push((Variant::Shogi, Some("two-pieces"), handicap.split(' ').map(str::to_owned).collect()));
        cases.push((
            Variant::MiniShogi,
            None,
            ["5e4d", "1a2b", "4e3d", "1b1c", "3d3c", "2b1b"].map(str::to_owned).to_vec(),
        ));
        for (index, (variant, handicap, moves)) in cases.iter().enumerate() {
            let rules = ruleset(*variant);
            let game = AnyGame::replay(
                *variant,
                variant.default_ruleset(),
                handicap.map(|h| Handicap::parse(variant.name(), h).unwrap()),
                None,
                moves.iter().map(String::as_str),
            )
            .unwrap();
            // The side that moved last won: the other resigned.
            let result = if game.side_to_move() == tavoliere_rules::Color::First {
                GameResult::SecondWins
            } else {
                GameResult::FirstWins
            };
            let stored = RecordInput {
                variant: *variant,
                ruleset: &rules,
                handicap: *handicap,
                moves,
                result: Some(&result),
                ..input(*variant, &rules, moves)
            };
            let formats: &[RecordFormat] = if *variant == Variant::Shogi {
                &[RecordFormat::Kif, RecordFormat::Csa]
            } else {
                &[RecordFormat::Kif]
            };
            for &format in formats {
                let text = write(&stored, format).unwrap();
                let reports = replay_text(*variant, &text, &ReplayOptions::default());
                let report = &reports[0];
                assert_eq!(report.error, None, "case {index} {format:?}:\n{text}");
                assert_eq!(report.plies as usize, moves.len(), "case {index} {format:?}");
                assert_eq!(report.fen, game.fen(), "case {index} {format:?}");
                assert_eq!(report.result, result.to_string(), "case {index} {format:?}:\n{text}");
            }
        }
    }

    #[test]
    fn minishogi_aise() {
        let moves = vec!["5e4d".to_owned()];
        let rules = ruleset(Variant::MiniShogi);
        let aise = write(&input(Variant::MiniShogi, &rules, &moves), RecordFormat::Aise).unwrap();
        assert!(aise.starts_with("alice - bob") && aise.contains("1. K4d"), "{aise}");
    }

    #[test]
    fn unreplayable_moves_are_a_typed_error() {
        let moves = vec!["z9z9".to_owned()];
        let rules = ruleset(Variant::Shogi);
        assert!(matches!(
            write(&input(Variant::Shogi, &rules, &moves), RecordFormat::Usi),
            Err(RecordWriteError::Replay(_))
        ));
    }
}
