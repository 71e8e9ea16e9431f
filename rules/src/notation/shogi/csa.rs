//! CSA V2.2 game records (computer shogi association): `V2.2`, `N+`/`N-` names, `$KEY:value`
//! information, `PI` (with removals such as `PI82HI22KA`), `P1`..`P9` board lines,
//! `P+`/`P-` placement lines (`00` = hand, `00AL` = all remaining pieces), the `+`/`-`
//! turn line, moves `+7776FU` / `+0055FU`, `T` time lines, `'` comments and `%` endings.
//! Standard shogi only: CSA has no MiniShogi board.

use crate::shogi::{Hand, Move, Piece, Position, Role, Setup, Square, Variant};
use crate::Color;

use super::game::{
    decode, Ending, GameRecord, PartialRecord, RecordError, RecordFailure, BLACK_NAME, WHITE_NAME,
};
use super::kif::locate;
use crate::notation::record::Location;

const CODES: [(&str, Role); 14] = [
    ("OU", Role::King),
    ("HI", Role::Rook),
    ("KA", Role::Bishop),
    ("KI", Role::Gold),
    ("GI", Role::Silver),
    ("KE", Role::Knight),
    ("KY", Role::Lance),
    ("FU", Role::Pawn),
    ("RY", Role::Dragon),
    ("UM", Role::Horse),
    ("NG", Role::ProSilver),
    ("NK", Role::ProKnight),
    ("NY", Role::ProLance),
    ("TO", Role::Tokin),
];

fn role_of(code: &str) -> Option<Role> {
    CODES.iter().find(|(c, _)| *c == code).map(|&(_, r)| r)
}

fn code_of(role: Role) -> &'static str {
    CODES.iter().find(|(_, r)| *r == role).map_or("FU", |&(c, _)| c)
}

fn color_of(sign: u8) -> Option<Color> {
    match sign {
        b'+' => Some(Color::First),
        b'-' => Some(Color::Second),
        _ => None,
    }
}

fn sign_of(color: Color) -> char {
    if color == Color::First {
        '+'
    } else {
        '-'
    }
}

/// `"77"` → square 7g; `"00"` → `None` (hand).
fn square_of(two: &[u8]) -> Option<Option<Square>> {
    match two {
        [b'0', b'0'] => Some(None),
        [f @ b'1'..=b'9', r @ b'1'..=b'9'] => Some(Some(Square::new(f - b'0', r - b'0')?)),
        _ => None,
    }
}

fn ending_of(text: &str) -> Option<Ending> {
    Some(match text {
        "%TORYO" => Ending::Resignation,
        "%CHUDAN" => Ending::Interrupted,
        "%SENNICHITE" => Ending::Sennichite,
        "%JISHOGI" => Ending::Jishogi,
        "%TIME_UP" => Ending::TimeUp,
        "%ILLEGAL_MOVE" => Ending::IllegalMove,
        "%+ILLEGAL_ACTION" => Ending::IllegalAction(Color::First),
        "%-ILLEGAL_ACTION" => Ending::IllegalAction(Color::Second),
        "%KACHI" => Ending::DeclarationWin,
        "%TSUMI" => Ending::Checkmate,
        "%HIKIWAKE" => Ending::Draw,
        _ => return None,
    })
}

fn ending_text(ending: Ending) -> &'static str {
    match ending {
        Ending::Resignation => "%TORYO",
        Ending::Interrupted => "%CHUDAN",
        Ending::Sennichite => "%SENNICHITE",
        Ending::Jishogi => "%JISHOGI",
        Ending::TimeUp => "%TIME_UP",
        Ending::IllegalMove => "%ILLEGAL_MOVE",
        Ending::IllegalAction(Color::First) => "%+ILLEGAL_ACTION",
        Ending::IllegalAction(Color::Second) => "%-ILLEGAL_ACTION",
        Ending::DeclarationWin => "%KACHI",
        Ending::Checkmate => "%TSUMI",
        Ending::Draw => "%HIKIWAKE",
    }
}

/// Reads a CSA record from bytes (UTF-8 or Shift_JIS, see [`decode`]).
///
/// # Errors
///
/// As [`read`].
pub fn read_bytes(bytes: &[u8]) -> Result<GameRecord, RecordError> {
    read(&decode(bytes))
}

/// Reads a CSA record.
///
/// # Errors
///
/// A [`RecordError`] for an unreadable line, an illegal start position or an illegal move.
pub fn read(text: &str) -> Result<GameRecord, RecordError> {
    PartialRecord::complete(read_partial(text))
}

/// Reads a CSA record as far as it goes: the moves before the first bad statement, and
/// where it is (a record is never cut short silently, issue 15 §5).
///
/// # Errors
///
/// A [`RecordFailure`] for a bad line before the moves (there is no start position).
pub fn read_partial(text: &str) -> Result<PartialRecord, RecordFailure> {
    let mut headers = Vec::new();
    // Without any position line the game starts from the standard position.
    let mut setup = Setup::startpos(Variant::Standard);
    let mut saw_position_line = false;
    let mut all_to: Option<Color> = None;
    let mut position: Option<Position> = None;
    let mut moves = Vec::new();
    let mut moves_at = Vec::new();
    let mut ending = None;
    let mut failure = None;
    'lines: for (index, raw_line) in text.lines().enumerate() {
        let line_no = index + 1;
        // CSA allows several statements on one line, separated by commas.
        for statement in raw_line.trim_end_matches('\r').split(',') {
            let s = statement.trim();
            let fail = |error| RecordFailure { error, at: locate(line_no, raw_line, s), token: s.to_owned() };
            let bad = |detail| fail(RecordError::BadLine { line: line_no, detail });
            let b = s.as_bytes();
            if s.is_empty() || s.starts_with('\'') || s.starts_with('V') || s.starts_with('T') {
                continue;
            }
            let moves_started = position.is_some();
            let result = (|| {
                if let Some(name) = s.strip_prefix("N+") {
                    headers.push((BLACK_NAME.to_owned(), name.to_owned()));
                } else if let Some(name) = s.strip_prefix("N-") {
                    headers.push((WHITE_NAME.to_owned(), name.to_owned()));
                } else if let Some(info) = s.strip_prefix('$') {
                    let (k, v) = info.split_once(':').ok_or(bad("'$' line without ':'"))?;
                    headers.push((k.to_owned(), v.to_owned()));
                } else if s.starts_with('%') {
                    ending = Some(ending_of(s).ok_or(bad("unknown '%' ending"))?);
                } else if b[0] == b'P' {
                    if position.is_some() {
                        return Err(bad("position line after the moves started"));
                    }
                    if !saw_position_line && b.get(1) != Some(&b'I') {
                        // Board lines and placements describe the position from scratch.
                        setup = Setup { turn: setup.turn, ..Setup::empty(Variant::Standard) };
                    }
                    saw_position_line = true;
                    read_position_line(&mut setup, &mut all_to, b).ok_or(bad("unreadable position line"))?;
                } else if (s == "+" || s == "-") && position.is_none() {
                    setup.turn = color_of(b[0]).ok_or(bad("bad turn"))?;
                } else if b.len() == 7 && color_of(b[0]).is_some() {
                    let pos = match &mut position {
                        Some(p) => p,
                        None => position.insert(start_position(&mut setup, all_to).map_err(&fail)?),
                    };
                    let m = read_move(pos, b).ok_or(bad("unreadable move"))?;
                    let ply = moves.len() + 1;
                    if color_of(b[0]) != Some(pos.turn()) {
                        return Err(fail(RecordError::IllegalMove { line: line_no, ply, kind: None }));
                    }
                    pos.check_move(m).map_err(|kind| {
                        fail(RecordError::IllegalMove { line: line_no, ply, kind: Some(kind) })
                    })?;
                    pos.play_unchecked(m);
                    moves.push(m);
                    moves_at.push((locate(line_no, raw_line, s), s.to_owned()));
                } else {
                    return Err(bad("unreadable line"));
                }
                Ok(())
            })();
            match result {
                Ok(()) if ending.is_some() => break 'lines,
                Ok(()) => {}
                Err(f) if moves_started || !moves.is_empty() => {
                    failure = Some(f);
                    break 'lines;
                }
                Err(f) => return Err(f),
            }
        }
    }
    let start = {
        let mut s = setup.clone();
        start_position(&mut s, all_to).map_err(|error| RecordFailure {
            error,
            at: Location { line: 1, column: 1 },
            token: String::new(),
        })?
    };
    Ok(PartialRecord { record: GameRecord { start, moves, ending, headers }, moves_at, error: failure })
}

fn start_position(setup: &mut Setup, all_to: Option<Color>) -> Result<Position, RecordError> {
    if let Some(color) = all_to {
        // `00AL`: every piece not on the board nor in a hand goes to `color`'s hand.
        for role in Role::HAND {
            let on_board = setup.board.iter().flatten().filter(|p| p.role.unpromoted() == role).count();
            let in_hands: usize = setup.hands.iter().map(|h| usize::from(h.count(role))).sum();
            let rest = usize::from(Variant::Standard.max_pieces(role)).saturating_sub(on_board + in_hands);
            let hand = &mut setup.hands[color.index()];
            hand.set(role, hand.count(role).saturating_add(rest as u8));
        }
    }
    Ok(Position::from_setup(setup.clone())?)
}

fn read_position_line(setup: &mut Setup, all_to: &mut Option<Color>, b: &[u8]) -> Option<()> {
    match b.get(1)? {
        b'I' => {
            *setup = Setup { hands: setup.hands, turn: setup.turn, ..Setup::startpos(Variant::Standard) };
            for chunk in b[2..].chunks(4) {
                let sq = square_of(chunk.get(..2)?)??;
                let role = role_of(std::str::from_utf8(chunk.get(2..4)?).ok()?)?;
                if setup.board[sq.index()].map(|p| p.role) != Some(role) {
                    return None;
                }
                setup.board[sq.index()] = None;
            }
        }
        r @ b'1'..=b'9' => {
            let rank = r - b'0';
            // A trailing " * " loses its last space when lines are trimmed.
            let mut cells = b[2..].to_vec();
            if !(25..=27).contains(&cells.len()) {
                return None;
            }
            cells.resize(27, b' ');
            for (i, cell) in cells.chunks(3).enumerate() {
                let sq = Square::new(9 - i as u8, rank)?;
                setup.board[sq.index()] = if cell == b" * " {
                    None
                } else {
                    let color = color_of(cell[0])?;
                    Some(Piece { color, role: role_of(std::str::from_utf8(&cell[1..]).ok()?)? })
                };
            }
        }
        sign @ (b'+' | b'-') => {
            let color = color_of(*sign)?;
            for chunk in b[2..].chunks(4) {
                let where_ = square_of(chunk.get(..2)?)?;
                let code = std::str::from_utf8(chunk.get(2..4)?).ok()?;
                match where_ {
                    None if code == "AL" => *all_to = Some(color),
                    None => {
                        let role = role_of(code).filter(|r| r.is_hand_role())?;
                        let hand = &mut setup.hands[color.index()];
                        hand.set(role, hand.count(role).checked_add(1)?);
                    }
                    Some(sq) => setup.board[sq.index()] = Some(Piece { color, role: role_of(code)? }),
                }
            }
        }
        _ => return None,
    }
    Some(())
}

/// `+7776FU`, `+0055FU`, `-8822UM`: the code names the piece after the move.
fn read_move(pos: &Position, b: &[u8]) -> Option<Move> {
    let from = square_of(&b[1..3])?;
    let to = square_of(&b[3..5])??;
    let role = role_of(std::str::from_utf8(&b[5..7]).ok()?)?;
    Some(match from {
        None => Move::Drop { role, to },
        Some(from) => {
            let before = pos.piece_at(from)?.role;
            let promote = before != role && before.promoted() == Some(role);
            Move::Normal { from, to, promote }
        }
    })
}

/// Writes a record in CSA V2.2.
///
/// # Errors
///
/// [`RecordError::UnsupportedVariant`] for MiniShogi.
pub fn write(record: &GameRecord) -> Result<String, RecordError> {
    if record.start.variant() != Variant::Standard {
        return Err(RecordError::UnsupportedVariant);
    }
    let mut out = String::from("V2.2\n");
    for (key, value) in &record.headers {
        match key.as_str() {
            BLACK_NAME => out.push_str(&format!("N+{value}\n")),
            WHITE_NAME => out.push_str(&format!("N-{value}\n")),
            k if !k.is_empty() && k.bytes().all(|c| c.is_ascii_uppercase() || c == b'_') => {
                out.push_str(&format!("${k}:{value}\n"))
            }
            _ => out.push_str(&format!("'{key}:{value}\n")),
        }
    }
    let setup = record.start.to_setup();
    let standard = Setup::startpos(Variant::Standard);
    if setup.board == standard.board && setup.hands == standard.hands {
        out.push_str("PI\n");
    } else {
        for rank in 1..=9u8 {
            out.push_str(&format!("P{rank}"));
            for file in (1..=9u8).rev() {
                match Square::new(file, rank).and_then(|sq| setup.board[sq.index()]) {
                    Some(p) => {
                        out.push(sign_of(p.color));
                        out.push_str(code_of(p.role));
                    }
                    None => out.push_str(" * "),
                }
            }
            out.push('\n');
        }
        for color in Color::ALL {
            let hand: &Hand = &setup.hands[color.index()];
            if !hand.is_empty() {
                out.push('P');
                out.push(sign_of(color));
                for (role, n) in hand.iter() {
                    for _ in 0..n {
                        out.push_str("00");
                        out.push_str(code_of(role));
                    }
                }
                out.push('\n');
            }
        }
    }
    out.push(sign_of(setup.turn));
    out.push('\n');
    let mut pos = record.start.clone();
    for &m in &record.moves {
        let color = pos.turn();
        let (from, to, role) = match m {
            Move::Normal { from, to, promote } => {
                let role = pos.piece_at(from).map_or(Role::Pawn, |p| p.role);
                let role = if promote { role.promoted().unwrap_or(role) } else { role };
                (format!("{}{}", from.file(), from.rank()), to, role)
            }
            Move::Drop { role, to } => ("00".to_owned(), to, role),
        };
        out.push_str(&format!("{}{from}{}{}{}\n", sign_of(color), to.file(), to.rank(), code_of(role)));
        if pos.is_legal(m) {
            pos.play_unchecked(m);
        }
    }
    if let Some(ending) = record.ending {
        out.push_str(ending_text(ending));
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::shogi::sfen;

    #[test]
    fn reads_a_short_game_with_names_times_and_resignation() {
        let text = "V2.2\nN+Sente\nN-Gote\n$EVENT:test\nPI\n+\n+7776FU\nT3\n-3334FU\n'a comment\n+8822UM\n-3122GI\n+0055KA,T1\n%TORYO\n";
        let record = read(text).unwrap();
        assert_eq!(record.moves.len(), 5);
        assert_eq!(record.header(BLACK_NAME), Some("Sente"));
        assert_eq!(record.header("EVENT"), Some("test"));
        assert_eq!(record.ending, Some(Ending::Resignation));
        assert_eq!(record.moves[2].to_string(), "8h2b+");
        assert_eq!(record.moves[4].to_string(), "B*5e");
        assert_eq!(read(&write(&record).unwrap()).unwrap(), record);
        assert_eq!(record.outcome().map(|o| o.result_str()), Some("1-0"));
    }

    #[test]
    fn reads_handicaps_and_board_diagrams() {
        let two_pieces = read("PI82HI22KA\n-\n-5142OU\n").unwrap();
        assert_eq!(
            sfen::write(&two_pieces.start),
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        let written = write(&two_pieces).unwrap();
        assert!(written.contains("P2 *  *  *  *  *  *  *  *  * "), "{written}");
        assert_eq!(read(&written).unwrap(), two_pieces);
        let tsume = read("P1 *  *  *  *  *  *  * -KY-OU\nP3 *  *  *  *  *  *  * +GI * \nP9 *  *  *  *  *  *  *  * +OU\nP+00FU\nP-00AL\n+\n").unwrap();
        assert_eq!(tsume.start.hand(Color::Second).count(Role::Pawn), 17);
        assert_eq!(tsume.start.hand(Color::First).count(Role::Pawn), 1);
    }

    #[test]
    fn rejects_bad_records_with_typed_errors() {
        assert!(matches!(read("PI\n+\n+7775FU\n"), Err(RecordError::IllegalMove { ply: 1, .. })));
        assert!(matches!(read("PI\n+\n-3334FU\n"), Err(RecordError::IllegalMove { ply: 1, kind: None, .. })));
        assert!(matches!(read("PI\n+\n%NONSENSE\n"), Err(RecordError::BadLine { line: 3, .. })));
        assert!(matches!(read("PI82KA\n"), Err(RecordError::BadLine { line: 1, .. })));
        assert_eq!(read("+7776FU\n").map(|r| r.moves.len()), Ok(1), "no position line: standard start");
    }
}
