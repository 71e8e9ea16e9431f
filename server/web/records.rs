//! Game records for download: PGN (ICCS or WXF moves) for Xiangqi; KIF, CSA and USI for
//! Shogi and MiniShogi; the AISE notation for MiniShogi. Pure functions of a
//! [`RecordInput`]; the moves are replayed through the rules facade.

use std::fmt::Write as _;

use tavoliere_rules::game::{Handicap, Ruleset};
use tavoliere_rules::notation::shogi::{self as shogi_notation, Ending, GameRecord};
use tavoliere_rules::shogi::Variant as ShogiVariant;
use tavoliere_rules::variant::{AnyGame, Notation, Variant};
use tavoliere_rules::{Color, EndReason};

use crate::storage::endings::{GameReason, GameResult};

/// A downloadable record format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordFormat {
    /// PGN with ICCS moves (Xiangqi).
    PgnIccs,
    /// PGN with WXF moves (Xiangqi).
    PgnWxf,
    /// PGN with FIX western algebraic moves (Xiangqi), as Italian bulletins print them.
    PgnFix,
    /// PGN with Chinese moves and results (先胜 / 先负 / 先和) (Xiangqi).
    PgnChinese,
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
            Variant::Xiangqi => {
                &[RecordFormat::PgnIccs, RecordFormat::PgnWxf, RecordFormat::PgnFix, RecordFormat::PgnChinese]
            }
            Variant::Shogi => &[RecordFormat::Kif, RecordFormat::Csa, RecordFormat::Usi],
            // CSA has no MiniShogi board (its writer refuses the variant).
            Variant::MiniShogi => &[RecordFormat::Kif, RecordFormat::Usi, RecordFormat::Aise],
            Variant::Flickering | Variant::SevenKingdoms => &[RecordFormat::Record],
        }
    }

    /// The name used in URLs (`pgn-iccs`, `kif`...).
    pub fn name(self) -> &'static str {
        match self {
            RecordFormat::PgnIccs => "pgn-iccs",
            RecordFormat::PgnWxf => "pgn-wxf",
            RecordFormat::PgnFix => "pgn-fix",
            RecordFormat::PgnChinese => "pgn-chinese",
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
            RecordFormat::PgnFix,
            RecordFormat::PgnChinese,
            RecordFormat::Kif,
            RecordFormat::Csa,
            RecordFormat::Usi,
            RecordFormat::Aise,
            RecordFormat::Record,
        ]
        .into_iter()
        .find(|f| f.name() == name)
    }

    /// The download's file name for game `id` of `variant`: the PGN formats and AISE say
    /// which moves they hold (`tavoliere-7-wxf.pgn`), the others have their own extension
    /// (`tavoliere-7.kif`, `tavoliere-7.csa`, `tavoliere-7.usi`); the variant's own record
    /// is PGN for Flickering chess, text for the Seven Kingdoms.
    pub fn file_name(self, variant: Variant, id: i64) -> String {
        let notation = match self {
            RecordFormat::PgnIccs => "-iccs",
            RecordFormat::PgnWxf => "-wxf",
            RecordFormat::PgnFix => "-fix",
            RecordFormat::PgnChinese => "-chinese",
            RecordFormat::Aise => "-aise",
            _ => "",
        };
        let extension = match (self, variant) {
            (RecordFormat::Record, Variant::Flickering) => "pgn",
            _ => self.extension(),
        };
        format!("tavoliere-{id}{notation}.{extension}")
    }

    /// File extension of the download.
    pub fn extension(self) -> &'static str {
        match self {
            RecordFormat::PgnIccs
            | RecordFormat::PgnWxf
            | RecordFormat::PgnFix
            | RecordFormat::PgnChinese => "pgn",
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
        RecordFormat::PgnFix => Ok(pgn(input, &game, Notation::Fix, "FIX")),
        RecordFormat::PgnChinese => Ok(pgn(input, &game, Notation::Chinese, "Chinese")),
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
    // A Chinese record states the result from Red's side: 先胜, 先负, 先和.
    let ending = match (notation, input.result) {
        (Notation::Chinese, Some(GameResult::FirstWins)) => "先胜".to_owned(),
        (Notation::Chinese, Some(GameResult::SecondWins)) => "先负".to_owned(),
        (Notation::Chinese, Some(GameResult::Draw)) => "先和".to_owned(),
        _ => result.clone(),
    };
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
    out.push_str(&ending);
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
    let ending = kif_ending(input, game);
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

/// The closing line of a finished game's KIF or CSA record: the ending named as the
/// formats name it (a mate, a resignation, a time-out, sennichite, jishogi, a declared
/// win), so that every result reads back the same (issue 20 §4). The formats state an
/// ending from the side to move after the last move (`turn`): a loss of that side is a
/// resignation or an illegal move, a loss of the other side an illegal action of it.
fn kif_ending(input: &RecordInput<'_>, game: &AnyGame) -> Option<Ending> {
    let turn = if game.seat_to_move() == 0 { Color::First } else { Color::Second };
    let loser = match input.result? {
        GameResult::FirstWins => Some(Color::Second),
        GameResult::SecondWins => Some(Color::First),
        _ => None,
    };
    let Some(GameReason::Rules(reason)) = input.reason else {
        return loser
            .map(|loser| if loser == turn { Ending::Resignation } else { Ending::IllegalAction(loser) });
    };
    // A loss stated as what the rule did, where the formats have a word for it.
    let lost = |loser: Color| match reason {
        EndReason::Checkmate | EndReason::Stalemate if loser == turn => Ending::Checkmate,
        EndReason::Timeout | EndReason::TimeoutInsufficientMaterial if loser == turn => Ending::TimeUp,
        EndReason::ImpasseDeclaration | EndReason::Impasse24 | EndReason::JishogiCount if loser != turn => {
            Ending::DeclarationWin
        }
        // Perpetual check, a repetition lost by its initiator or the first player, a
        // forfeit, an adjudication: the loser broke a rule or was ruled against.
        EndReason::Resignation | EndReason::Adjudication | EndReason::Forfeit if loser == turn => {
            Ending::Resignation
        }
        _ if loser == turn => Ending::IllegalMove,
        _ => Ending::IllegalAction(loser),
    };
    Some(match loser {
        Some(loser) => lost(loser),
        None => match reason {
            EndReason::Sennichite | EndReason::Repetition => Ending::Sennichite,
            EndReason::Aborted => Ending::Interrupted,
            // Jishogi by count or by agreement, a move limit, an adjudicated draw.
            _ => Ending::Jishogi,
        },
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
    fn every_format_offered_for_a_variant_writes_its_games_under_its_own_name() {
        let games = [
            (Variant::Xiangqi, vec!["h2e2", "h9g7"]),
            (Variant::Shogi, vec!["7g7f", "3c3d", "8h2b+"]),
            (Variant::MiniShogi, vec!["1e1b", "1a1b"]),
        ];
        for (variant, moves) in games {
            let mut names = std::collections::HashSet::new();
            let moves: Vec<String> = moves.into_iter().map(str::to_owned).collect();
            let rules = ruleset(variant);
            for &format in RecordFormat::for_variant(variant) {
                let written = write(&input(variant, &rules, &moves), format);
                assert!(written.is_ok(), "{variant} in {}: {written:?}", format.name());
                assert!(names.insert(format.file_name(variant, 7)), "{variant}: two formats, one file name");
            }
        }
        assert_eq!(RecordFormat::PgnWxf.file_name(Variant::Xiangqi, 7), "tavoliere-7-wxf.pgn");
        assert_eq!(RecordFormat::Kif.file_name(Variant::Shogi, 7), "tavoliere-7.kif");
        assert_eq!(RecordFormat::Csa.file_name(Variant::Shogi, 7), "tavoliere-7.csa");
        assert_eq!(RecordFormat::Record.file_name(Variant::Flickering, 7), "tavoliere-7.pgn");
        assert!(!RecordFormat::for_variant(Variant::MiniShogi).contains(&RecordFormat::Csa), "no CSA board");
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

    /// Issue 20 §4: Xiangqi records in FIX algebraic and Chinese, the Chinese with its
    /// result from Red's side; each read back by the project's own reader.
    #[test]
    fn xiangqi_pgn_in_fix_and_chinese_read_back() {
        use tavoliere_rules::replay::{replay_text, ReplayOptions};
        let moves: Vec<String> = ["h2e2", "h9g7", "h0g2", "i9h9"].map(str::to_owned).to_vec();
        let rules = ruleset(Variant::Xiangqi);
        for (result, chinese) in
            [(GameResult::FirstWins, "先胜"), (GameResult::SecondWins, "先负"), (GameResult::Draw, "先和")]
        {
            let mut game = input(Variant::Xiangqi, &rules, &moves);
            game.result = Some(&result);
            let fix = write(&game, RecordFormat::PgnFix).unwrap();
            assert!(fix.contains("[Format \"FIX\"]") && fix.contains("Bh3e3"), "{fix}");
            let text = write(&game, RecordFormat::PgnChinese).unwrap();
            assert!(text.contains("炮二平五") && text.trim_end().ends_with(chinese), "{text}");
            for record in [&fix, &text] {
                let report = &replay_text(Variant::Xiangqi, record, &ReplayOptions::default())[0];
                assert_eq!(report.error, None, "{record}");
                assert_eq!(report.moves, moves, "{record}");
                assert_eq!(report.result, result.to_string(), "{record}");
            }
        }
    }

    /// Issue 20 §4: a KIF or CSA record closes every ending with a line its readers know,
    /// so that the result reads back the same; handicap games name 下手 and 上手.
    #[test]
    fn every_shogi_ending_reads_back_from_kif_and_csa() {
        use tavoliere_rules::replay::{replay_text, ReplayOptions};
        let rules = ruleset(Variant::Shogi);
        let moves: Vec<String> = ["7g7f", "3c3d", "2g2f"].map(str::to_owned).to_vec();
        let even: Vec<String> = moves[..2].to_vec();
        let r = |reason: EndReason| Some(GameReason::Rules(reason));
        let cases: [(&[String], GameResult, Option<GameReason>); 12] = [
            (&moves, GameResult::FirstWins, r(EndReason::Resignation)),
            (&even, GameResult::FirstWins, r(EndReason::Resignation)),
            (&moves, GameResult::FirstWins, r(EndReason::Timeout)),
            (&even, GameResult::SecondWins, r(EndReason::Timeout)),
            (&moves, GameResult::Draw, r(EndReason::Sennichite)),
            (&moves, GameResult::SecondWins, r(EndReason::PerpetualCheck)),
            (&even, GameResult::SecondWins, r(EndReason::RepetitionInitiatorLoses)),
            (&moves, GameResult::FirstWins, r(EndReason::ImpasseDeclaration)),
            (&moves, GameResult::Draw, r(EndReason::JishogiCount)),
            (&moves, GameResult::SecondWins, r(EndReason::Forfeit)),
            (&even, GameResult::Draw, r(EndReason::Adjudication)),
            (&even, GameResult::FirstWins, r(EndReason::Adjudication)),
        ];
        for (moves, result, reason) in cases {
            let mut game = input(Variant::Shogi, &rules, moves);
            game.result = Some(&result);
            game.reason = reason;
            for format in [RecordFormat::Kif, RecordFormat::Csa] {
                let text = write(&game, format).unwrap();
                let report = &replay_text(Variant::Shogi, &text, &ReplayOptions::default())[0];
                assert_eq!(report.error, None, "{text}");
                assert_eq!(report.plies as usize, moves.len(), "{text}");
                assert_eq!(report.result, result.to_string(), "{reason:?} in {}:\n{text}", format.name());
            }
        }
        // A handicap game: 下手 and 上手, and the summary names the winner so.
        let handicap: Vec<String> = ["5a4b", "7g7f", "5c5d"].map(str::to_owned).to_vec();
        let mut game = input(Variant::Shogi, &rules, &handicap);
        game.handicap = Some("two-pieces");
        let kif = write(&game, RecordFormat::Kif).unwrap();
        assert!(kif.contains("手合割：二枚落ち") || kif.contains("手合割：二枚落"), "{kif}");
        assert!(kif.contains("下手：alice") && kif.contains("上手：bob"), "{kif}");
        assert!(!kif.contains("先手：") && kif.contains("まで3手で下手の勝ち"), "{kif}");
        let report = &replay_text(Variant::Shogi, &kif, &ReplayOptions::default())[0];
        assert_eq!((report.error.as_ref(), report.result.as_str()), (None, "1-0"), "{kif}");
        assert_eq!(report.players, [Some("alice".to_owned()), Some("bob".to_owned())]);
    }
}
