//! KIF game records (Japanese text): header lines `key：value` (`手合割：二枚落ち` for
//! handicaps, `5五将棋` for MiniShogi), an optional board diagram (BOD) with hands and
//! `後手番`, moves `７六歩(77)`, `同　歩(77)`, `５五角打`, `２二角成(88)`, `不成`,
//! promoted names (成銀 全, 成桂 圭, 成香 杏, と, 龍/竜, 馬), comment lines `*` / `#`,
//! endings (投了, 中断, 千日手, 持将棋, 切れ負け, 反則負け, 詰み, 入玉勝ち) and the
//! `まで..` summary. Input in UTF-8 or Shift_JIS ([`read_bytes`]). Variations (`変化：`)
//! are not read: the main line ends there.

use crate::notation::record::Location;
use crate::shogi::{Hand, Handicap, Move, Piece, Position, Role, Setup, Square, Variant};
use crate::Color;

use super::game::{
    decode, Ending, GameRecord, PartialRecord, RecordError, RecordFailure, BLACK_NAME, WHITE_NAME,
};
use super::japanese::{self, digit_value, move_name, square_text, KANJI_DIGITS, NAMES, WIDE_DIGITS};
use super::NotationError;

const HANDICAP_KEY: &str = "手合割";
const MINI_NAME: &str = "5五将棋";

fn handicap_position(name: &str) -> Option<Position> {
    match name {
        "平手" | "平手（基本）" => Some(Position::startpos(Variant::Standard)),
        MINI_NAME => Some(Position::startpos(Variant::Mini)),
        "飛落ち" => handicap_position("飛車落ち"),
        _ => {
            let handicap = Handicap::ALL.into_iter().find(|h| h.kif_name() == name)?;
            Position::from_setup(Setup::handicap(handicap)).ok()
        }
    }
}

fn handicap_name(pos: &Position) -> Option<&'static str> {
    if pos.move_number() != 1 {
        return None;
    }
    if *pos == Position::startpos(Variant::Standard) {
        return Some("平手");
    }
    if *pos == Position::startpos(Variant::Mini) {
        return Some(MINI_NAME);
    }
    Handicap::ALL.into_iter().map(Handicap::kif_name).find(|n| handicap_position(n).as_ref() == Some(pos))
}

/// One-character names, for board diagrams.
fn diagram_role(c: char) -> Option<Role> {
    match c {
        '杏' => Some(Role::ProLance),
        '全' => Some(Role::ProSilver),
        '圭' => Some(Role::ProKnight),
        _ => NAMES.iter().find(|(n, _)| n.chars().count() == 1 && n.starts_with(c)).map(|&(_, r)| r),
    }
}

fn diagram_char(role: Role) -> char {
    match role {
        Role::ProSilver => '全',
        Role::ProKnight => '圭',
        Role::ProLance => '杏',
        other => move_name(other).chars().next().unwrap_or('歩'),
    }
}

/// `十八` → 18, `三` → 3, `十` → 10.
fn kanji_number(text: &str) -> Option<u8> {
    let mut chars = text.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some('十'), None, None) => Some(10),
        (Some('十'), Some(d), None) => Some(10 + digit_value(d)?),
        (Some(d), None, None) => digit_value(d),
        _ => None,
    }
}

fn kanji_count(n: u8) -> String {
    match n {
        1..=9 => KANJI_DIGITS[usize::from(n - 1)].to_string(),
        10 => "十".to_owned(),
        11..=19 => format!("十{}", KANJI_DIGITS[usize::from(n - 11)]),
        _ => n.to_string(),
    }
}

pub(crate) fn ending_of(word: &str, turn: Color) -> Option<Ending> {
    Some(match word {
        "投了" => Ending::Resignation,
        "中断" => Ending::Interrupted,
        "千日手" => Ending::Sennichite,
        "持将棋" => Ending::Jishogi,
        "切れ負け" | "時間切れ" => Ending::TimeUp,
        "反則負け" => Ending::IllegalMove,
        "反則勝ち" => Ending::IllegalAction(!turn),
        "詰み" => Ending::Checkmate,
        "入玉勝ち" => Ending::DeclarationWin,
        _ => return None,
    })
}

/// The ending a summary line states (`まで64手で後手の勝ち`, `まで100手で千日手`),
/// seen from the side to move after the last move (`turn`).
pub(crate) fn summary_ending(line: &str, turn: Color) -> Option<Ending> {
    let rest = line.strip_prefix("まで")?;
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || digit_value(c).is_some());
    let rest = rest.strip_prefix("手で").or_else(|| rest.strip_prefix("手"))?.trim();
    let side = |name: &str| match name {
        "先手" | "下手" => Some(Color::First),
        "後手" | "上手" => Some(Color::Second),
        _ => None,
    };
    if let Some((who, what)) = rest.split_once('の') {
        let who = side(who)?;
        return Some(match what.trim_end_matches(['。', '.']) {
            // The loser resigned at its turn, or (a win at the winner's own turn) lost by
            // an illegal action the record does not show.
            "勝ち" if who == !turn => Ending::Resignation,
            "勝ち" | "反則勝ち" => Ending::IllegalAction(!who),
            "反則負け" => Ending::IllegalAction(who),
            "入玉勝ち" if who == turn => Ending::DeclarationWin,
            "入玉勝ち" => Ending::IllegalAction(!who),
            _ => return None,
        });
    }
    Some(match rest.trim_end_matches(['。', '.']) {
        "千日手" => Ending::Sennichite,
        "持将棋" => Ending::Jishogi,
        "中断" => Ending::Interrupted,
        "詰み" => Ending::Checkmate,
        "切れ負け" | "時間切れ" => Ending::TimeUp,
        _ => return None,
    })
}

/// The ending a summary line adds to the position after the last move (`None` at the
/// start): none when the board already ends the game that way (a mate: the summary only
/// names its winner).
pub(crate) fn summary_ending_after(line: &str, pos: Option<&Position>) -> Option<Ending> {
    let turn = pos.map_or(Color::First, Position::turn);
    let ending = summary_ending(line, turn)?;
    let on_board = pos.and_then(Position::outcome_by_basic_rules).and_then(|o| o.winner());
    match (ending, on_board) {
        (Ending::Resignation | Ending::Checkmate, Some(winner)) if winner == !turn => None,
        _ => Some(ending),
    }
}

fn ending_word(ending: Ending) -> &'static str {
    match ending {
        Ending::Resignation => "投了",
        Ending::Interrupted => "中断",
        Ending::Sennichite => "千日手",
        Ending::Jishogi | Ending::Draw => "持将棋",
        Ending::TimeUp => "切れ負け",
        Ending::IllegalMove => "反則負け",
        Ending::IllegalAction(_) => "反則勝ち",
        Ending::Checkmate => "詰み",
        Ending::DeclarationWin => "入玉勝ち",
    }
}

/// Reads a KIF record from bytes, UTF-8 or Shift_JIS (see [`decode`]).
///
/// # Errors
///
/// As [`read`].
pub fn read_bytes(bytes: &[u8]) -> Result<GameRecord, RecordError> {
    read(&decode(bytes))
}

/// Reads a KIF record.
///
/// # Errors
///
/// A [`RecordError`] for an unreadable line, an unknown handicap, an illegal start
/// position or an illegal move.
pub fn read(text: &str) -> Result<GameRecord, RecordError> {
    PartialRecord::complete(read_partial(text))
}

/// The header part of a KIF or KI2 record: `key：value` lines (handicap, names, hands),
/// a board diagram, the side to move of a diagram.
#[derive(Default)]
pub(crate) struct Header {
    headers: Vec<(String, String)>,
    start: Option<Position>,
    diagram_rows: Vec<Vec<Option<Piece>>>,
    hands: [Hand; 2],
    diagram_second_to_move: bool,
}

impl Header {
    /// Reads a header line (trimmed, not empty, not a comment).
    pub(crate) fn read_line(&mut self, line: &str, line_no: usize) -> Result<(), RecordError> {
        let bad = |detail| RecordError::BadLine { line: line_no, detail };
        if line.starts_with('+') || line.contains("９ ８ ７") || line.contains("５ ４ ３") {
            return Ok(());
        }
        if let Some(row) = line.strip_prefix('|') {
            self.diagram_rows.push(read_diagram_row(row).ok_or(bad("unreadable board row"))?);
            return Ok(());
        }
        match line {
            "後手番" | "上手番" => self.diagram_second_to_move = true,
            "先手番" | "下手番" => self.diagram_second_to_move = false,
            _ => {
                let Some((key, value)) = line.split_once('：').or_else(|| line.split_once(':')) else {
                    return Err(bad("unreadable line"));
                };
                let (key, value) = (key.trim(), value.trim());
                match key {
                    // "Other": the board diagram that follows is the start.
                    HANDICAP_KEY if value == "その他" => {}
                    HANDICAP_KEY => {
                        self.start = Some(
                            handicap_position(value)
                                .ok_or_else(|| RecordError::UnknownHandicap(value.to_owned()))?,
                        );
                    }
                    "先手" | "下手" => self.headers.push((BLACK_NAME.to_owned(), value.to_owned())),
                    "後手" | "上手" => self.headers.push((WHITE_NAME.to_owned(), value.to_owned())),
                    "先手の持駒" | "下手の持駒" => {
                        self.hands[0] = read_hand(value).ok_or(bad("unreadable hand"))?
                    }
                    "後手の持駒" | "上手の持駒" => {
                        self.hands[1] = read_hand(value).ok_or(bad("unreadable hand"))?
                    }
                    _ => self.headers.push((key.to_owned(), value.to_owned())),
                }
            }
        }
        Ok(())
    }

    /// The start: a board diagram if there is one, else the handicap, else the standard
    /// start.
    pub(crate) fn start(&mut self) -> Result<Position, RecordError> {
        let turn = if self.diagram_second_to_move { Color::Second } else { Color::First };
        start_position(&mut self.start, &self.diagram_rows, self.hands, turn)
    }

    pub(crate) fn into_headers(self) -> Vec<(String, String)> {
        self.headers
    }
}

/// Whether a trimmed line carries nothing to read: empty, a comment (`#`, `*`), a
/// bookmark (`&`) or the move list's title line.
pub(crate) fn is_skipped(line: &str) -> bool {
    line.is_empty()
        || line.starts_with('#')
        || line.starts_with('*')
        || line.starts_with('&')
        || line.starts_with("手数")
}

/// Where `word` is in `raw`, line `line_no`.
pub(crate) fn locate(line_no: usize, raw: &str, word: &str) -> Location {
    let column = raw.find(word).map_or(1, |i| raw[..i].chars().count() + 1);
    Location { line: line_no, column }
}

/// `error` at `word` in `raw`, line `line_no`.
pub(crate) fn failure_at(error: RecordError, line_no: usize, raw: &str, word: &str) -> RecordFailure {
    RecordFailure { error, at: locate(line_no, raw, word), token: word.to_owned() }
}

/// Reads a KIF record as far as it goes: the moves before the first bad line, and where
/// that line is (issue 15 §5: a record is never cut short silently). Variations
/// (`変化：`) follow the main line in a KIF file and are skipped.
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
    let mut failure = None;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        let fail = |error, word: &str| failure_at(error, line_no, raw, word);
        if is_skipped(line) {
            continue;
        }
        if line.starts_with("変化") {
            break;
        }
        if line.starts_with("まで") {
            if ending.is_none() {
                ending = summary_ending_after(line, pos.as_ref());
            }
            continue;
        }
        if line.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            let current = match &mut pos {
                Some(p) => p,
                None => match header.start() {
                    Ok(start) => pos.insert(start),
                    Err(error) => return Err(fail(error, line)),
                },
            };
            let rest = line.trim_start_matches(|c: char| c.is_ascii_digit());
            let Some(word) = rest.split_ascii_whitespace().next() else {
                let error = RecordError::BadLine { line: line_no, detail: "move number without a move" };
                failure = Some(fail(error, line));
                break;
            };
            if let Some(e) = ending_of(word, current.turn()) {
                ending = Some(e);
                break;
            }
            let ply = moves.len() + 1;
            let resolved = japanese::read_word(word).and_then(|w| japanese::resolve(current, &w, last_to));
            let m = match resolved {
                None => {
                    failure =
                        Some(fail(RecordError::BadLine { line: line_no, detail: "unreadable move" }, word));
                    break;
                }
                Some(Err(kind)) => {
                    failure = Some(fail(RecordError::IllegalMove { line: line_no, ply, kind }, word));
                    break;
                }
                Some(Ok(m)) => m,
            };
            current.play_unchecked(m);
            last_to = Some(m.to());
            moves.push(m);
            moves_at.push((locate(line_no, raw, word), word.to_owned()));
            continue;
        }
        if pos.is_some() {
            // A line among the moves that is none of the above (a comment without its
            // mark, say) is an error, not the record's end.
            failure = Some(fail(RecordError::BadLine { line: line_no, detail: "unreadable line" }, line));
            break;
        }
        if let Err(error) = header.read_line(line, line_no) {
            return Err(fail(error, line));
        }
    }
    let start = header.start().map_err(|error| RecordFailure {
        error,
        at: Location { line: 1, column: 1 },
        token: String::new(),
    })?;
    let record = GameRecord { start, moves, ending, headers: header.into_headers() };
    Ok(PartialRecord { record, moves_at, error: failure })
}

/// Reads one move in the Japanese notation of KIF and KI2 records, as players type it:
/// `７六歩`, `７六歩(77)`, `同　歩` or `同歩` (to the square of `previous`, the move
/// before), `８八角成`, `８八角不成`, `５五角打`, KI2's disambiguators (`５八金右`), the
/// file and rank in full-width, ASCII or kanji digits (`７六`, `76`, `7六`), after an
/// optional mark of the side to move (▲ ☗ Black, △ ▽ ☖ White).
///
/// # Errors
///
/// [`NotationError::Unreadable`] if the text is not a Japanese move (or is a `同` without
/// a previous move); [`NotationError::WrongSide`] if its mark names the side not to move;
/// [`NotationError::Ambiguous`] if several legal moves fit; [`NotationError::Illegal`] if
/// none does.
///
/// ```
/// use tavoliere_rules::notation::shogi::{kif, NotationError};
/// use tavoliere_rules::shogi::{Position, Variant};
///
/// let start = Position::startpos(Variant::Standard);
/// assert_eq!(kif::parse_move(&start, "▲７六歩", None).unwrap().to_string(), "7g7f");
/// assert!(matches!(kif::parse_move(&start, "△３四歩", None), Err(NotationError::WrongSide(_))));
/// ```
pub fn parse_move(pos: &Position, text: &str, previous: Option<Move>) -> Result<Move, NotationError> {
    let text = text.trim();
    let mut chars = text.chars();
    let (marked, word) = match chars.next().and_then(japanese::mark_color) {
        Some(color) => (Some(color), chars.as_str().trim_start()),
        None => (None, text),
    };
    let read = japanese::read_word(word).ok_or(NotationError::Unreadable)?;
    // The mark is the player's statement of whose move this is (as in a KI2 record, where
    // a move after the other side's mark is refused).
    if let Some(color) = marked.filter(|&c| c != pos.turn()) {
        return Err(NotationError::WrongSide(color));
    }
    match japanese::resolve_word(pos, &read, previous.map(Move::to)) {
        None => Err(NotationError::Unreadable),
        Some(Ok(m)) => Ok(m),
        Some(Err(japanese::Unresolved::Several)) => Err(NotationError::Ambiguous),
        Some(Err(japanese::Unresolved::Illegal(kind))) => Err(NotationError::Illegal(kind)),
    }
}

/// Writes `m` (legal in `pos`) as a Japanese move without a side mark, as KI2 writes it:
/// `７六歩`, `同　銀` (after `previous` to the same square), `５八金右`, `５五角打`.
pub fn write_move(pos: &Position, m: Move, previous: Option<Move>) -> String {
    japanese::write_ki2_word(pos, m, previous.map(Move::to))
}

/// The start: a board diagram if there is one, else the handicap, else the standard start.
fn start_position(
    start: &mut Option<Position>,
    rows: &[Vec<Option<Piece>>],
    hands: [Hand; 2],
    turn: Color,
) -> Result<Position, RecordError> {
    if rows.is_empty() {
        let pos = start.clone().unwrap_or_else(|| Position::startpos(Variant::Standard));
        *start = Some(pos.clone());
        return Ok(pos);
    }
    let variant = match (rows.len(), rows.iter().all(|r| r.len() == rows.len())) {
        (9, true) => Variant::Standard,
        (5, true) => Variant::Mini,
        _ => return Err(RecordError::BadLine { line: 0, detail: "the board diagram must be 9x9 or 5x5" }),
    };
    let size = variant.size();
    let mut setup = Setup { hands, turn, ..Setup::empty(variant) };
    for (r, row) in rows.iter().enumerate() {
        for (c, piece) in row.iter().enumerate() {
            if let Some(sq) = Square::new(size - c as u8, r as u8 + 1) {
                setup.board[sq.index()] = *piece;
            }
        }
    }
    let pos = Position::from_setup(setup)?;
    *start = Some(pos.clone());
    Ok(pos)
}

/// ` ・v飛 ・ ・ ・ ・ ・v角 ・|二`: two characters per square.
fn read_diagram_row(row: &str) -> Option<Vec<Option<Piece>>> {
    let cells: Vec<char> = row.split('|').next()?.chars().collect();
    if !cells.len().is_multiple_of(2) {
        return None;
    }
    cells
        .chunks(2)
        .map(|cell| match cell {
            [_, '・'] => Some(None),
            ['v', c] => Some(Some(Piece { color: Color::Second, role: diagram_role(*c)? })),
            [' ' | '^', c] => Some(Some(Piece { color: Color::First, role: diagram_role(*c)? })),
            _ => None,
        })
        .collect()
}

/// `銀二　歩三`, `なし`.
fn read_hand(text: &str) -> Option<Hand> {
    let mut hand = Hand::new();
    if text == "なし" {
        return Some(hand);
    }
    for item in text.split(|c: char| c == '　' || c.is_ascii_whitespace()).filter(|s| !s.is_empty()) {
        let mut chars = item.chars();
        let role = diagram_role(chars.next()?).filter(|r| r.is_hand_role())?;
        let rest = chars.as_str();
        let n = if rest.is_empty() { 1 } else { kanji_number(rest)? };
        hand.set(role, hand.count(role).checked_add(n)?);
    }
    Some(hand)
}

/// Writes a record in KIF (UTF-8). Standard starts and handicaps are written as
/// `手合割`, other positions as a board diagram.
pub fn write(record: &GameRecord) -> String {
    let mut out = String::from("# KIF written by Tavoliere\n");
    write_header(&mut out, record);
    out.push_str("手数----指手---------消費時間--\n");
    let mut pos = record.start.clone();
    let mut last_to = None;
    for (i, &m) in record.moves.iter().enumerate() {
        let mut text = String::new();
        match m {
            Move::Normal { from, to, promote } => {
                text.push_str(&if last_to == Some(to) { "同　".to_owned() } else { square_text(to) });
                let role = pos.piece_at(from).map_or(Role::Pawn, |p| p.role);
                text.push_str(move_name(role));
                let could_promote = pos.is_legal(Move::Normal { from, to, promote: true });
                if promote {
                    text.push('成');
                } else if could_promote {
                    text.push_str("不成");
                }
                text.push_str(&format!("({}{})", from.file(), from.rank()));
            }
            Move::Drop { role, to } => {
                text.push_str(&square_text(to));
                text.push_str(move_name(role));
                text.push('打');
            }
        }
        out.push_str(&format!("{:>4} {text}\n", i + 1));
        if pos.is_legal(m) {
            pos.play_unchecked(m);
        }
        last_to = Some(m.to());
    }
    let n = record.moves.len();
    if let Some(ending) = record.ending {
        out.push_str(&format!("{:>4} {}\n", n + 1, ending_word(ending)));
    }
    write_summary(&mut out, record);
    out
}

/// The header of a KIF or KI2 record: the handicap (or a board diagram) and the fields.
pub(crate) fn write_header(out: &mut String, record: &GameRecord) {
    match handicap_name(&record.start) {
        Some(name) => out.push_str(&format!("{HANDICAP_KEY}：{name}\n")),
        None => write_diagram(out, &record.start),
    }
    // A handicap game names its players 下手 (the receiver, in the first player's place)
    // and 上手 (the giver, who moves first), as KIF records of handicap games do.
    let (first, second) = side_names(record);
    for (key, value) in &record.headers {
        let key = match key.as_str() {
            BLACK_NAME => first,
            WHITE_NAME => second,
            other => other,
        };
        out.push_str(&format!("{key}：{value}\n"));
    }
}

/// The names of the two sides in a record's header and summary: 先手 / 後手, or 下手 /
/// 上手 for a handicap start (not the even or MiniShogi start).
fn side_names(record: &GameRecord) -> (&'static str, &'static str) {
    match handicap_name(&record.start) {
        Some(name) if name != "平手" && name != MINI_NAME => ("下手", "上手"),
        _ => ("先手", "後手"),
    }
}

/// The `まで…` summary line of a KIF or KI2 record, when the game has a result.
pub(crate) fn write_summary(out: &mut String, record: &GameRecord) {
    let n = record.moves.len();
    let (first, second) = side_names(record);
    match record.outcome() {
        Some(outcome) => match outcome.winner() {
            Some(Color::First) => out.push_str(&format!("まで{n}手で{first}の勝ち\n")),
            Some(Color::Second) => out.push_str(&format!("まで{n}手で{second}の勝ち\n")),
            None => out.push_str(&format!(
                "まで{n}手で{}\n",
                ending_word(record.ending.unwrap_or(Ending::Sennichite))
            )),
        },
        None if record.ending == Some(Ending::Interrupted) => out.push_str(&format!("まで{n}手で中断\n")),
        None => {}
    }
}

fn write_diagram(out: &mut String, pos: &Position) {
    let size = pos.variant().size();
    let hand_text = |color: Color| {
        let items: Vec<String> = pos
            .hand(color)
            .iter()
            .map(|(role, n)| {
                format!("{}{}", diagram_char(role), if n > 1 { kanji_count(n) } else { String::new() })
            })
            .collect();
        if items.is_empty() {
            "なし".to_owned()
        } else {
            items.join("　")
        }
    };
    out.push_str(&format!("後手の持駒：{}\n", hand_text(Color::Second)));
    let header: Vec<String> = (1..=size).rev().map(|f| WIDE_DIGITS[usize::from(f - 1)].to_string()).collect();
    out.push_str(&format!("  {}\n", header.join(" ")));
    out.push_str(&format!("+{}+\n", "-".repeat(usize::from(size) * 3)));
    for rank in 1..=size {
        out.push('|');
        for file in (1..=size).rev() {
            match Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                Some(p) => {
                    out.push(if p.color == Color::Second { 'v' } else { ' ' });
                    out.push(diagram_char(p.role));
                }
                None => out.push_str(" ・"),
            }
        }
        out.push('|');
        out.push(KANJI_DIGITS[usize::from(rank - 1)]);
        out.push('\n');
    }
    out.push_str(&format!("+{}+\n", "-".repeat(usize::from(size) * 3)));
    out.push_str(&format!("先手の持駒：{}\n", hand_text(Color::First)));
    if pos.turn() == Color::Second {
        out.push_str("後手番\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::shogi::sfen;

    #[test]
    fn reads_a_kifu_for_windows_game() {
        let text = "# ---- Kifu for Windows ----\n開始日時：2024/01/01\n手合割：平手\n先手：羽生\n後手：藤井\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:01/00:00:01)\n*comment\n   3 ２二角成(88)   ( 0:01/00:00:02)\n   4 同　銀(31)   ( 0:01/00:00:02)\n   5 ５五角打   ( 0:01/00:00:03)\n   6 投了\nまで5手で先手の勝ち\n";
        let record = read(text).unwrap();
        let usi: Vec<String> = record.moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]);
        assert_eq!(record.ending, Some(Ending::Resignation));
        assert_eq!(record.header(BLACK_NAME), Some("羽生"));
        assert_eq!(record.header("開始日時"), Some("2024/01/01"));
        assert_eq!(record.outcome().and_then(|o| o.winner()), Some(Color::First));
        let written = write(&record);
        assert!(written.contains("同　銀(31)"), "{written}");
        assert_eq!(read(&written).unwrap(), record);
    }

    #[test]
    fn reads_shift_jis() {
        let text = "手合割：平手\n   1 ７六歩(77)\n   2 投了\n";
        let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(text);
        let record = read_bytes(&bytes).unwrap();
        assert_eq!(record.moves.len(), 1);
        assert_eq!(record.ending, Some(Ending::Resignation));
    }

    #[test]
    fn reads_handicaps_and_diagrams() {
        let record = read("手合割：二枚落ち\n   1 ５二玉(51)\n").unwrap();
        assert_eq!(sfen::write(&record.start), "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
        assert_eq!(record.moves[0].to_string(), "5a5b");
        assert_eq!(read(&write(&record)).unwrap(), record);
        assert_eq!(read("手合割：百枚落ち\n"), Err(RecordError::UnknownHandicap("百枚落ち".to_owned())));
        let tsume = sfen::parse("7lk/9/8S/9/9/9/9/7L1/8K b Pr2b4g3s4n2l17p 1", None).unwrap();
        let record = GameRecord { start: tsume, moves: vec![], ending: None, headers: vec![] };
        let written = write(&record);
        assert!(written.contains("後手の持駒：飛　角二"), "{written}");
        assert_eq!(read(&written).unwrap(), record);
        let mini = GameRecord {
            start: Position::startpos(Variant::Mini),
            moves: vec![],
            ending: None,
            headers: vec![],
        };
        assert_eq!(read(&write(&mini)).unwrap(), mini);
    }

    #[test]
    fn promoted_pieces_and_refusals() {
        assert_eq!(kanji_number("十八"), Some(18));
        assert_eq!(read_hand("歩十七　銀"), {
            let mut h = Hand::new();
            h.set(Role::Pawn, 17);
            h.set(Role::Silver, 1);
            Some(h)
        });
        assert!(matches!(read("   1 ７五歩(77)\n"), Err(RecordError::IllegalMove { ply: 1, .. })));
        assert!(matches!(read("   1 ７六飛(77)\n"), Err(RecordError::IllegalMove { ply: 1, .. })));
        assert!(matches!(read("   1 同　歩(77)\n"), Err(RecordError::BadLine { line: 1, .. })));
    }
}
