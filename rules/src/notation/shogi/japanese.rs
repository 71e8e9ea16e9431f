//! The Japanese move words shared by KIF and KI2: `７六歩`, `同　歩`, `５五角打`,
//! `２二角成`, `２二角不成`, with KIF's origin `(88)` or KI2's disambiguators 右 左 直 上
//! 引 寄 (and the older 行 入 for 上), resolved against the legal moves.
//!
//! The disambiguators follow the Japan Shogi Association's rules for written records
//! (棋譜の表記方法): 上 the piece moves forward, 引 backward, 寄 sideways, 直 straight
//! forward; 右 / 左 the piece standing on the mover's right / left among those that could
//! make the move. Dragons and horses are told apart by 右 / 左 first.

use crate::shogi::{IllegalMoveKind, Move, Position, Role, Square};
use crate::Color;

/// Board and move names of the roles (the first name is the one written).
pub(crate) const NAMES: [(&str, Role); 19] = [
    ("成銀", Role::ProSilver),
    ("成桂", Role::ProKnight),
    ("成香", Role::ProLance),
    ("玉", Role::King),
    ("王", Role::King),
    ("飛", Role::Rook),
    ("角", Role::Bishop),
    ("金", Role::Gold),
    ("銀", Role::Silver),
    ("桂", Role::Knight),
    ("香", Role::Lance),
    ("歩", Role::Pawn),
    ("龍", Role::Dragon),
    ("竜", Role::Dragon),
    ("馬", Role::Horse),
    ("と", Role::Tokin),
    ("全", Role::ProSilver),
    ("圭", Role::ProKnight),
    ("杏", Role::ProLance),
];

/// The name written for a role in a move.
pub(crate) fn move_name(role: Role) -> &'static str {
    NAMES.iter().find(|(_, r)| *r == role).map_or("歩", |&(n, _)| n)
}

pub(crate) const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
pub(crate) const WIDE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The marks of the sides: ▲ ☗ for Black (sente, 下手), △ ▽ ☖ for White.
pub(crate) fn mark_color(c: char) -> Option<Color> {
    match c {
        '▲' | '☗' => Some(Color::First),
        '△' | '▽' | '☖' => Some(Color::Second),
        _ => None,
    }
}

/// 1..=9 for a kanji, full-width or ASCII digit.
pub(crate) fn digit_value(c: char) -> Option<u8> {
    let pos = |set: &[char; 9]| set.iter().position(|&d| d == c);
    pos(&KANJI_DIGITS)
        .or_else(|| pos(&WIDE_DIGITS))
        .or_else(|| c.to_digit(10).filter(|&d| d > 0).map(|d| d as usize - 1))
        .map(|i| i as u8 + 1)
}

/// `７六`: full-width file, kanji rank.
pub(crate) fn square_text(sq: Square) -> String {
    format!("{}{}", WIDE_DIGITS[usize::from(sq.file() - 1)], KANJI_DIGITS[usize::from(sq.rank() - 1)])
}

/// Which way a piece moves, as KI2 writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Motion {
    /// 上 (also 行, 入): forward.
    Up,
    /// 引: backward.
    Back,
    /// 寄: sideways.
    Sideways,
    /// 直: straight forward.
    Straight,
}

/// Which of the pieces that could move, as KI2 writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// 右: the one on the mover's right.
    Right,
    /// 左: the one on the mover's left.
    Left,
}

/// Where a move goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// A square.
    Square(Square),
    /// 同: the square of the previous move.
    Same,
}

/// A move word, read but not yet resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveWord {
    pub target: Target,
    pub role: Role,
    pub side: Option<Side>,
    pub motion: Option<Motion>,
    /// `Some(true)` 成, `Some(false)` 不成 (or the older 生), `None` neither.
    pub promotion: Option<bool>,
    /// 打: a drop.
    pub drop: bool,
    /// KIF's origin `(77)`.
    pub origin: Option<Square>,
}

/// Reads a move word; `None` if it is not one. Squares are checked against the board
/// when the word is resolved.
pub(crate) fn read_word(word: &str) -> Option<MoveWord> {
    let mut s = word;
    let target = if let Some(rest) = s.strip_prefix('同') {
        s = rest.trim_start_matches(['　', ' ']);
        Target::Same
    } else {
        let mut chars = s.chars();
        let file = digit_value(chars.next()?)?;
        let rank = digit_value(chars.next()?)?;
        s = chars.as_str();
        Target::Square(Square::new(file, rank)?)
    };
    let (name, role) = NAMES.iter().find(|(n, _)| s.starts_with(n))?;
    s = &s[name.len()..];
    let mut side = None;
    let mut motion = None;
    while let Some(c) = s.chars().next() {
        match c {
            '右' if side.is_none() => side = Some(Side::Right),
            '左' if side.is_none() => side = Some(Side::Left),
            '上' | '行' | '入' if motion.is_none() => motion = Some(Motion::Up),
            '引' if motion.is_none() => motion = Some(Motion::Back),
            '寄' if motion.is_none() => motion = Some(Motion::Sideways),
            '直' if motion.is_none() => motion = Some(Motion::Straight),
            _ => break,
        }
        s = &s[c.len_utf8()..];
    }
    let mut promotion = None;
    let mut drop = false;
    if let Some(rest) = s.strip_prefix("不成").or_else(|| s.strip_prefix('生')) {
        promotion = Some(false);
        s = rest;
    } else if let Some(rest) = s.strip_prefix('成') {
        promotion = Some(true);
        s = rest;
    } else if let Some(rest) = s.strip_prefix('打') {
        drop = true;
        s = rest;
    }
    // KIF's origin, `(77)`; typed by hand also `(７７)` or `（７７）`, never in kanji.
    let origin = if let Some(rest) = s.strip_prefix(['(', '（']) {
        let mut chars = rest.chars();
        let (file, rank, close) = (chars.next()?, chars.next()?, chars.next()?);
        if !matches!(close, ')' | '）')
            || chars.next().is_some()
            || KANJI_DIGITS.contains(&file)
            || KANJI_DIGITS.contains(&rank)
        {
            return None;
        }
        s = "";
        Some(Square::new(digit_value(file)?, digit_value(rank)?)?)
    } else {
        None
    };
    if !s.is_empty()
        || (drop && (!role.is_hand_role() || origin.is_some() || side.is_some() || motion.is_some()))
    {
        return None;
    }
    Some(MoveWord { target, role: *role, side, motion, promotion, drop, origin })
}

/// How `from` → `to` moves for `color`.
fn motion_of(color: Color, from: Square, to: Square) -> Motion {
    // Ranks count from White's side: Black moves forward to smaller ranks.
    let forward = match color {
        Color::First => i16::from(from.rank()) - i16::from(to.rank()),
        Color::Second => i16::from(to.rank()) - i16::from(from.rank()),
    };
    match forward {
        f if f > 0 && from.file() == to.file() => Motion::Straight,
        f if f > 0 => Motion::Up,
        0 => Motion::Sideways,
        _ => Motion::Back,
    }
}

fn fits_motion(wanted: Motion, actual: Motion) -> bool {
    // 上 covers every forward move, straight ahead included.
    wanted == actual || (wanted == Motion::Up && actual == Motion::Straight)
}

/// Files further to the mover's right have smaller numbers for Black, larger for White.
fn rightness(color: Color, sq: Square) -> i16 {
    match color {
        Color::First => -i16::from(sq.file()),
        Color::Second => i16::from(sq.file()),
    }
}

/// Resolves a read word in `pos`. `None` if the word cannot be a move there (a 同
/// without a previous move, a square off the board); `Some(Err(..))` if no legal move, or
/// more than one, fits (with the reason when the word names an exact move).
pub(crate) fn resolve(
    pos: &Position,
    word: &MoveWord,
    last_to: Option<Square>,
) -> Option<Result<Move, Option<IllegalMoveKind>>> {
    resolve_word(pos, word, last_to).map(|resolved| {
        resolved.map_err(|unresolved| match unresolved {
            Unresolved::Illegal(kind) => kind,
            Unresolved::Several => None,
        })
    })
}

/// Why a read word names no one legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unresolved {
    /// No legal move fits (the reason when the word names an exact move).
    Illegal(Option<IllegalMoveKind>),
    /// Several legal moves fit: a disambiguator or the origin is missing.
    Several,
}

/// [`resolve`], telling a word that fits no legal move from one that fits several.
pub(crate) fn resolve_word(
    pos: &Position,
    word: &MoveWord,
    last_to: Option<Square>,
) -> Option<Result<Move, Unresolved>> {
    let illegal = |kind: IllegalMoveKind| Unresolved::Illegal(Some(kind));
    let to = match word.target {
        Target::Square(sq) => sq,
        Target::Same => last_to?,
    };
    if !to.is_on(pos.variant()) {
        return None;
    }
    if word.drop {
        let m = Move::Drop { role: word.role, to };
        return Some(pos.check_move(m).map(|()| m).map_err(illegal));
    }
    if let Some(from) = word.origin {
        let promote = word.promotion.unwrap_or(false);
        if pos.piece_at(from).map(|p| p.role) != Some(word.role) {
            return Some(Err(illegal(IllegalMoveKind::NoPiece)));
        }
        let m = Move::Normal { from, to, promote };
        return Some(pos.check_move(m).map(|()| m).map_err(illegal));
    }
    let color = pos.turn();
    let mut candidates: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| match *m {
            Move::Normal { from, to: t, promote } => {
                t == to
                    && pos.piece_at(from).map(|p| p.role) == Some(word.role)
                    && promote == word.promotion.unwrap_or(false)
                    && word.motion.is_none_or(|wanted| fits_motion(wanted, motion_of(color, from, to)))
            }
            Move::Drop { .. } => false,
        })
        .collect();
    if let Some(side) = word.side {
        let score = |m: &Move| match *m {
            Move::Normal { from, .. } => rightness(color, from),
            Move::Drop { .. } => 0,
        };
        let best = match side {
            Side::Right => candidates.iter().map(score).max(),
            Side::Left => candidates.iter().map(score).min(),
        };
        candidates.retain(|m| Some(score(m)) == best);
    }
    Some(match candidates.as_slice() {
        [m] => Ok(*m),
        // A drop may be written without 打 when no piece on the board can go there.
        [] if word.promotion.is_none()
            && word.side.is_none()
            && word.motion.is_none()
            && word.role.is_hand_role() =>
        {
            let m = Move::Drop { role: word.role, to };
            pos.check_move(m).map(|()| m).map_err(illegal)
        }
        [] => Err(Unresolved::Illegal(None)),
        _ => Err(Unresolved::Several),
    })
}

/// Writes `m` (legal in `pos`) as a KI2 move word, without the side's mark: the
/// disambiguators only where another piece of the kind could make the move, 打 only
/// where a piece on the board could go there too, 不成 where the move could promote.
pub(crate) fn write_ki2_word(pos: &Position, m: Move, last_to: Option<Square>) -> String {
    let to = m.to();
    let mut out = if last_to == Some(to) { "同".to_owned() } else { square_text(to) };
    let legal = pos.legal_moves();
    match m {
        Move::Drop { role, .. } => {
            out.push_str(move_name(role));
            let board_move_too = legal.iter().any(|o| {
                matches!(*o, Move::Normal { from, to: t, .. } if t == to && pos.piece_at(from).map(|p| p.role) == Some(role))
            });
            if board_move_too {
                out.push('打');
            }
        }
        Move::Normal { from, promote, .. } => {
            let role = pos.piece_at(from).map_or(Role::Pawn, |p| p.role);
            let name = move_name(role);
            if out == "同" && name.chars().count() == 1 {
                out.push('　');
            }
            out.push_str(name);
            let could_promote = legal.contains(&Move::Normal { from, to, promote: true });
            let promotion = if promote {
                Some(true)
            } else if could_promote {
                Some(false)
            } else {
                None
            };
            out.push_str(&disambiguation(pos, m, role, promotion, last_to));
            match promotion {
                Some(true) => out.push('成'),
                Some(false) => out.push_str("不成"),
                None => {}
            }
        }
    }
    out
}

/// The shortest disambiguators that single out `m`, tried in the order of the JSA rules.
fn disambiguation(
    pos: &Position,
    m: Move,
    role: Role,
    promotion: Option<bool>,
    last_to: Option<Square>,
) -> String {
    let Move::Normal { from, to, .. } = m else { return String::new() };
    let color = pos.turn();
    let word = |side: Option<Side>, motion: Option<Motion>| MoveWord {
        target: Target::Square(to),
        role,
        side,
        motion,
        promotion,
        drop: false,
        origin: None,
    };
    let singles_out = |side, motion| resolve(pos, &word(side, motion), last_to) == Some(Ok(m));
    if singles_out(None, None) {
        return String::new();
    }
    let motion = motion_of(color, from, to);
    let vertical = if motion == Motion::Straight { Motion::Up } else { motion };
    let side = {
        let others_right = pos.legal_moves().iter().any(|o| match *o {
            Move::Normal { from: f, to: t, .. } => {
                t == to
                    && f != from
                    && pos.piece_at(f).map(|p| p.role) == Some(role)
                    && rightness(color, f) > rightness(color, from)
            }
            Move::Drop { .. } => false,
        });
        if others_right {
            Side::Left
        } else {
            Side::Right
        }
    };
    let mut tries: Vec<(Option<Side>, Option<Motion>)> = Vec::new();
    if matches!(role, Role::Dragon | Role::Horse) {
        tries.push((Some(side), None));
    }
    tries.push((None, Some(vertical)));
    if motion == Motion::Straight {
        tries.push((None, Some(Motion::Straight)));
    }
    tries.push((Some(side), None));
    tries.push((Some(side), Some(vertical)));
    for (side, motion) in tries {
        if singles_out(side, motion) {
            let mut marks = String::new();
            if let Some(side) = side {
                marks.push(if side == Side::Right { '右' } else { '左' });
            }
            if let Some(motion) = motion {
                marks.push(match motion {
                    Motion::Up => '上',
                    Motion::Back => '引',
                    Motion::Sideways => '寄',
                    Motion::Straight => '直',
                });
            }
            return marks;
        }
    }
    String::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::shogi::sfen;

    fn resolve_text(pos: &Position, text: &str) -> Option<Result<Move, Option<IllegalMoveKind>>> {
        resolve(pos, &read_word(text)?, None)
    }

    #[test]
    fn right_and_left_are_the_movers_right_and_left() {
        // Black golds on 4i and 6i can both go to 5h: 右 is 4i (Black's right), 左 is 6i.
        let pos = sfen::parse("4k4/9/9/9/9/9/9/9/3GKG3 b - 1", None).unwrap();
        let by = |text| resolve_text(&pos, text).and_then(Result::ok).map(|m| m.to_string());
        assert_eq!(by("５八金右").as_deref(), Some("4i5h"));
        assert_eq!(by("５八金左").as_deref(), Some("6i5h"));
        assert_eq!(resolve_text(&pos, "５八金"), Some(Err(None)), "two golds fit");
        // White golds on 4a and 6a going to 5b: White's right is the higher file.
        let pos = sfen::parse("3gkg3/9/9/9/9/9/9/9/4K4 w - 1", None).unwrap();
        let by = |text| resolve_text(&pos, text).and_then(Result::ok).map(|m| m.to_string());
        assert_eq!(by("５二金右").as_deref(), Some("6a5b"));
        assert_eq!(by("５二金左").as_deref(), Some("4a5b"));
    }

    #[test]
    fn up_back_sideways_and_straight() {
        // Black golds on 5i (below 5h), 4h (beside it) and 5g (above it).
        let pos = sfen::parse("4k4/9/9/9/9/9/4G4/5G3/4G3K b - 1", None).unwrap();
        let by = |text| resolve_text(&pos, text).and_then(Result::ok).map(|m| m.to_string());
        assert_eq!(by("５八金上").as_deref(), Some("5i5h"));
        assert_eq!(by("５八金直").as_deref(), Some("5i5h"));
        assert_eq!(by("５八金寄").as_deref(), Some("4h5h"));
        assert_eq!(by("５八金引").as_deref(), Some("5g5h"));
    }

    #[test]
    fn the_writer_picks_marks_that_single_out_the_move() {
        let written = |sfen_text: &str, usi: &str| {
            let pos = sfen::parse(sfen_text, None).unwrap();
            let m = pos.legal_moves().iter().copied().find(|m| m.to_string() == usi).unwrap();
            let word = write_ki2_word(&pos, m, None);
            assert_eq!(resolve_text(&pos, &word), Some(Ok(m)), "{word} reads back");
            word
        };
        let three = "4k4/9/9/9/9/9/4G4/5G3/4G3K b - 1";
        assert_eq!(written(three, "5i5h"), "５八金上");
        assert_eq!(written(three, "4h5h"), "５八金寄");
        assert_eq!(written(three, "5g5h"), "５八金引");
        // Golds on 4i and 5i both go up to 5h: straight ahead is 直, the other 右.
        let two = "4k4/9/9/9/9/9/9/9/4GG2K b - 1";
        assert_eq!(written(two, "5i5h"), "５八金直");
        assert_eq!(written(two, "4i5h"), "５八金右");
        let apart = "4k4/9/9/9/9/9/9/9/3GKG3 b - 1";
        assert_eq!(written(apart, "4i5h"), "５八金右");
        assert_eq!(written(apart, "6i5h"), "５八金左");
    }
}
