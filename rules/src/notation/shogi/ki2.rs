//! KI2 game records: the KIF header (`手合割：`, names, a board diagram) and the moves
//! without origins, each after the mark of its side — `▲７六歩 △３四歩 ▲２二角成 △同　銀
//! ▲５八金右 △５五角打 ▲２三歩不成` — several to a line, told apart where needed by the
//! disambiguators 右 左 直 上 引 寄 (see the `japanese` module), the result in the `まで…`
//! summary line. Comments (`*`, `#`), variations (`変化：`, skipped) and Shift_JIS input
//! ([`read_bytes`]) as in KIF.

use crate::notation::record::Location;
use crate::shogi::{Position, Square};
use crate::Color;

use super::game::{decode, GameRecord, PartialRecord, RecordError, RecordFailure};
use super::japanese::{self, mark_color};
use super::kif::{self, failure_at, is_skipped, Header};

/// Whether `text` is a KI2 record rather than a KIF one: moves after side marks, no
/// numbered move lines.
pub fn looks_like_ki2(text: &str) -> bool {
    let mut marked = 0;
    for line in text.lines().map(|l| l.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')) {
        if line.starts_with(|c: char| c.is_ascii_digit()) && line.split_ascii_whitespace().nth(1).is_some() {
            return false;
        }
        if line.starts_with(|c| mark_color(c).is_some()) {
            marked += 1;
        }
    }
    marked > 0
}

/// Reads a KI2 record from bytes, UTF-8 or Shift_JIS (see [`decode`]).
///
/// # Errors
///
/// As [`read`].
pub fn read_bytes(bytes: &[u8]) -> Result<GameRecord, RecordError> {
    read(&decode(bytes))
}

/// Reads a KI2 record.
///
/// # Errors
///
/// A [`RecordError`] for an unreadable line or move, an unknown handicap, an illegal
/// start position or an illegal move.
pub fn read(text: &str) -> Result<GameRecord, RecordError> {
    PartialRecord::complete(read_partial(text))
}

/// Reads a KI2 record as far as it goes: the moves before the first bad one, and where it
/// is.
///
/// # Errors
///
/// A [`RecordFailure`] when the header is bad (there is no start position).
pub fn read_partial(text: &str) -> Result<PartialRecord, RecordFailure> {
    let mut header = Header::default();
    let mut pos: Option<Position> = None;
    let mut moves = Vec::new();
    let mut ending = None;
    let mut last_to: Option<Square> = None;
    let mut moves_at = Vec::new();
    'lines: for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        if is_skipped(line) {
            continue;
        }
        if line.starts_with("変化") {
            break;
        }
        if line.starts_with("まで") {
            if ending.is_none() {
                ending = kif::summary_ending_after(line, pos.as_ref());
            }
            continue;
        }
        if !line.starts_with(|c| mark_color(c).is_some()) {
            let error = RecordError::BadLine { line: line_no, detail: "unreadable line" };
            if pos.is_some() {
                // Among the moves, a line that is none of the above is an error, not the end.
                let failure = failure_at(error, line_no, raw, line);
                return Ok(finish(&mut header, moves, moves_at, ending, Some(failure)));
            }
            header.read_line(line, line_no).map_err(|error| failure_at(error, line_no, raw, line))?;
            continue;
        }
        let current = match &mut pos {
            Some(p) => p,
            None => pos.insert(header.start().map_err(|error| failure_at(error, line_no, raw, line))?),
        };
        // One move per mark: `▲７六歩    △３四歩`, `△同　銀` (a full-width space after 同).
        let marks: Vec<(usize, char)> =
            raw.char_indices().filter(|&(_, c)| mark_color(c).is_some()).collect();
        for (k, &(start, mark)) in marks.iter().enumerate() {
            let end = marks.get(k + 1).map_or(raw.len(), |&(next, _)| next);
            let token = raw[start..end].trim_end_matches(|c: char| c.is_whitespace());
            let word = token[mark.len_utf8()..].trim_matches(|c: char| c.is_whitespace());
            let column = raw[..start].chars().count() + 1;
            let fail = |error| RecordFailure {
                error,
                at: Location { line: line_no, column },
                token: token.to_owned(),
            };
            if let Some(e) = kif::ending_of(word, current.turn()) {
                ending = Some(e);
                break 'lines;
            }
            let ply = moves.len() + 1;
            if mark_color(mark) != Some(current.turn()) {
                let error =
                    RecordError::BadLine { line: line_no, detail: "the mark names the side not to move" };
                return Ok(finish(&mut header, moves, moves_at, ending, Some(fail(error))));
            }
            let m = match japanese::read_word(word).and_then(|w| japanese::resolve(current, &w, last_to)) {
                Some(Ok(m)) => m,
                Some(Err(kind)) => {
                    let error = RecordError::IllegalMove { line: line_no, ply, kind };
                    return Ok(finish(&mut header, moves, moves_at, ending, Some(fail(error))));
                }
                None => {
                    let error = RecordError::BadLine { line: line_no, detail: "unreadable move" };
                    return Ok(finish(&mut header, moves, moves_at, ending, Some(fail(error))));
                }
            };
            current.play_unchecked(m);
            last_to = Some(m.to());
            moves.push(m);
            moves_at.push((Location { line: line_no, column }, token.to_owned()));
        }
    }
    let start = header.start().map_err(|error| RecordFailure {
        error,
        at: Location { line: 1, column: 1 },
        token: String::new(),
    })?;
    let record = GameRecord { start, moves, ending, headers: header.into_headers() };
    Ok(PartialRecord { record, moves_at, error: None })
}

fn finish(
    header: &mut Header,
    moves: Vec<crate::shogi::Move>,
    moves_at: Vec<(Location, String)>,
    ending: Option<super::Ending>,
    error: Option<RecordFailure>,
) -> PartialRecord {
    // The moves were read from this start: it can be built.
    let start = header.start().unwrap_or_else(|_| Position::startpos(crate::shogi::Variant::Standard));
    let headers = std::mem::take(header).into_headers();
    PartialRecord { record: GameRecord { start, moves, ending, headers }, moves_at, error }
}

/// Writes a record in KI2 (UTF-8): the KIF header, the moves six to a line, the summary.
pub fn write(record: &GameRecord) -> String {
    let mut out = String::from("# KI2 written by Tavoliere\n");
    kif::write_header(&mut out, record);
    let mut pos = record.start.clone();
    let mut last_to = None;
    let mut line = String::new();
    for (i, &m) in record.moves.iter().enumerate() {
        let mark = if pos.turn() == Color::First { '▲' } else { '△' };
        let word = japanese::write_ki2_word(&pos, m, last_to);
        if !line.is_empty() {
            line.push_str("    ");
        }
        line.push(mark);
        line.push_str(&word);
        if (i + 1) % 6 == 0 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if pos.is_legal(m) {
            pos.play_unchecked(m);
        }
        last_to = Some(m.to());
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    kif::write_summary(&mut out, record);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::shogi::{sfen, Ending};

    #[test]
    fn reads_marks_same_square_drops_promotions_and_disambiguators() {
        let text = "手合割：平手\n先手：羽生\n後手：藤井\n▲７六歩    △３四歩    ▲２二角成  △同　銀\n▲５五角打  △４二玉\n*a comment\n▲５八金右\nまで7手で先手の勝ち\n";
        let record = read(text).unwrap();
        let usi: Vec<String> = record.moves.iter().map(ToString::to_string).collect();
        assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e", "5a4b", "4i5h"]);
        assert_eq!(record.ending, Some(Ending::Resignation));
        assert_eq!(record.outcome().and_then(|o| o.winner()), Some(Color::First));
        assert!(looks_like_ki2(text));
        assert!(!looks_like_ki2("手合割：平手\n   1 ７六歩(77)\n"));
    }

    #[test]
    fn a_wrong_mark_or_a_bad_move_is_named_with_its_place() {
        let partial = read_partial("▲７六歩  ▲３四歩\n").unwrap();
        assert_eq!(partial.record.moves.len(), 1);
        let failure = partial.error.unwrap();
        assert_eq!((failure.at.line, failure.at.column, failure.token.as_str()), (1, 7, "▲３四歩"));
        let partial = read_partial("▲７六歩\n△３四歩\n▲２二飛\n").unwrap();
        assert_eq!(partial.record.moves.len(), 2);
        let failure = partial.error.unwrap();
        assert!(matches!(failure.error, RecordError::IllegalMove { line: 3, ply: 3, .. }), "{failure:?}");
    }

    #[test]
    fn the_writer_reads_back() {
        let start =
            sfen::parse("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", None).unwrap();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for usi in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e", "5a4b", "4i5h", "6a5b", "6i7h"] {
            let m = crate::notation::shogi::usi::parse(&pos, usi).unwrap();
            pos.play_unchecked(m);
            moves.push(m);
        }
        let record = GameRecord { start, moves, ending: None, headers: vec![] };
        let written = write(&record);
        assert!(written.contains("△同　銀"), "{written}");
        assert_eq!(read(&written).unwrap(), record);
    }
}
