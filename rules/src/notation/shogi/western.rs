//! Western (English) shogi notation, `shogi.md` "Notation the project reads and writes":
//! hyphenated (`P-7f`, `Sx3c`, `B*4b`, `+R-2b`, `S-4d+`, `S-4d=`, `G6i-5h`) and the AISE
//! magazine style without hyphen (`S4d`, `Bx1d`, `R*3e`, `+S3a`, `S3b=`, `S4c-3b`,
//! `Sx3c+`), with a trailing `#` for mate (`minishogi.md` "Notation").

use crate::shogi::{Move, Position, Role, Square, Variant};

use super::NotationError;

/// How to write a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// `P-7f`, `Sx3c`, `G6i-5h`.
    Hyphenated,
    /// AISE magazine style: `P7f`, `Sx3c`, `G6i-5h` (the hyphen only after an origin).
    Aise,
}

/// What a western move text says, before it is matched against the legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parsed {
    promoted: bool,
    role: Role,
    origin: Option<Square>,
    separator: Option<u8>,
    dest: Square,
    promotion: Option<bool>,
}

fn square_at(b: &[u8], i: usize, variant: Variant) -> Option<Square> {
    let file = b.get(i)?.checked_sub(b'0')?;
    let rank = b.get(i + 1)?.checked_sub(b'a')?.checked_add(1)?;
    Square::new(file, rank).filter(|sq| sq.is_on(variant))
}

fn parse_text(text: &str, variant: Variant) -> Option<Parsed> {
    let text = text.trim().trim_end_matches(['#', '!', '?']);
    let b = text.as_bytes();
    let mut i = 0;
    let promoted = b.first() == Some(&b'+');
    if promoted {
        i += 1;
    }
    let letter = *b.get(i)?;
    if !letter.is_ascii_uppercase() {
        return None;
    }
    let role = Role::from_letter(char::from(letter))?;
    if promoted && role.promoted().is_none() {
        return None;
    }
    i += 1;
    let is_sep = |c: Option<&u8>| matches!(c, Some(b'-' | b'x' | b'*'));
    let (origin, separator, dest);
    if let Some(first) = square_at(b, i, variant) {
        i += 2;
        if is_sep(b.get(i)) {
            separator = Some(b[i]);
            i += 1;
            dest = square_at(b, i, variant)?;
            i += 2;
            origin = Some(first);
        } else if let Some(second) = square_at(b, i, variant) {
            i += 2;
            origin = Some(first);
            separator = None;
            dest = second;
        } else {
            origin = None;
            separator = None;
            dest = first;
        }
    } else if is_sep(b.get(i)) {
        separator = Some(b[i]);
        i += 1;
        dest = square_at(b, i, variant)?;
        i += 2;
        origin = None;
    } else {
        return None;
    }
    let promotion = match b.get(i) {
        Some(b'+') => {
            i += 1;
            Some(true)
        }
        Some(b'=') => {
            i += 1;
            Some(false)
        }
        _ => None,
    };
    if i != b.len() {
        return None;
    }
    if separator == Some(b'*')
        && (promoted || origin.is_some() || promotion.is_some() || !role.is_hand_role())
    {
        return None;
    }
    Some(Parsed { promoted, role, origin, separator, dest, promotion })
}

/// Reads a western move (hyphenated or AISE style) and resolves it against the legal moves.
///
/// # Errors
///
/// [`NotationError::Unreadable`] if the text is not western notation,
/// [`NotationError::Ambiguous`] if several legal moves fit (origin or `+`/`=` missing),
/// [`NotationError::Illegal`] if none does.
pub fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let p = parse_text(text, pos.variant()).ok_or(NotationError::Unreadable)?;
    let wanted = if p.promoted { p.role.promoted().unwrap_or(p.role) } else { p.role };
    let legal = pos.legal_moves();
    let board_matches = |m: &&Move| match **m {
        Move::Normal { from, to, promote } => {
            to == p.dest
                && pos.piece_at(from).map(|pc| pc.role) == Some(wanted)
                && p.origin.is_none_or(|o| o == from)
                && (p.separator != Some(b'x') || pos.piece_at(to).is_some())
                && p.promotion.is_none_or(|want| want == promote)
        }
        Move::Drop { .. } => false,
    };
    let drop_matches = |m: &&Move| matches!(**m, Move::Drop { role, to } if role == p.role && to == p.dest);
    let mut candidates: Vec<Move> = if p.separator == Some(b'*') {
        legal.iter().filter(drop_matches).copied().collect()
    } else {
        legal.iter().filter(board_matches).copied().collect()
    };
    // Lenient: a drop written without `*` when no piece on the board can go there.
    if candidates.is_empty()
        && p.separator.is_none()
        && !p.promoted
        && p.origin.is_none()
        && p.promotion.is_none()
    {
        candidates = legal.iter().filter(drop_matches).copied().collect();
    }
    match candidates.as_slice() {
        [m] => Ok(*m),
        [] => Err(NotationError::Illegal(illegal_reason(pos, &p, wanted))),
        _ => Err(NotationError::Ambiguous),
    }
}

/// The reason the most plausible reading of an unmatched text is illegal.
fn illegal_reason(pos: &Position, p: &Parsed, wanted: Role) -> Option<crate::shogi::IllegalMoveKind> {
    if p.separator == Some(b'*') {
        return pos.check_move(Move::Drop { role: p.role, to: p.dest }).err();
    }
    let promote = p.promotion.unwrap_or(false);
    if let Some(from) = p.origin {
        return pos.check_move(Move::Normal { from, to: p.dest, promote }).err();
    }
    let mut first = None;
    for from in pos.pieces_of(pos.turn()).iter() {
        if pos.piece_at(from).map(|pc| pc.role) == Some(wanted) {
            if let Err(kind) = pos.check_move(Move::Normal { from, to: p.dest, promote }) {
                if pos.attacks_from(from).contains(p.dest) {
                    return Some(kind);
                }
                first.get_or_insert(kind);
            }
        }
    }
    first
}

/// Writes a legal move in western notation, with the origin only when another piece of the
/// same kind could also reach the square, `+`/`=` where promotion was optional or taken,
/// and `#` when the move mates.
pub fn write(pos: &Position, m: Move, style: Style) -> String {
    let mut out = String::with_capacity(10);
    let legal = pos.legal_moves();
    match m {
        Move::Drop { role, to } => {
            out.push(role.letter());
            out.push('*');
            out.push_str(&to.to_string());
        }
        Move::Normal { from, to, promote } => {
            let role = pos.piece_at(from).map_or(Role::Pawn, |pc| pc.role);
            if role.is_promoted() {
                out.push('+');
            }
            out.push(role.letter());
            let ambiguous = legal.iter().any(|other| {
                matches!(*other, Move::Normal { from: f, to: t, .. }
                    if t == to && f != from && pos.piece_at(f).map(|pc| pc.role) == Some(role))
            });
            let capture = pos.piece_at(to).is_some();
            if ambiguous {
                out.push_str(&from.to_string());
            }
            if capture {
                out.push('x');
            } else if ambiguous || style == Style::Hyphenated {
                out.push('-');
            }
            out.push_str(&to.to_string());
            let could_promote = legal.iter().any(
                |o| matches!(*o, Move::Normal { from: f, to: t, promote: true } if f == from && t == to),
            );
            let could_decline = legal.iter().any(
                |o| matches!(*o, Move::Normal { from: f, to: t, promote: false } if f == from && t == to),
            );
            if promote {
                out.push('+');
            } else if could_promote && could_decline {
                out.push('=');
            }
        }
    }
    let mut after = pos.clone();
    if after.check_move(m).is_ok() {
        after.play_unchecked(m);
        if after.is_check() && !after.has_legal_move() {
            out.push('#');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::shogi::sfen;

    fn pos(s: &str) -> Position {
        sfen::parse(s, None).unwrap()
    }

    #[test]
    fn reads_the_examples_of_the_rules() {
        let start = Position::startpos(Variant::Standard);
        assert_eq!(parse(&start, "P-7f").unwrap().to_string(), "7g7f");
        assert_eq!(parse(&start, "P7f").unwrap().to_string(), "7g7f");
        assert_eq!(parse(&start, "G6i-5h").unwrap().to_string(), "6i5h");
        assert_eq!(parse(&start, "G6i5h").unwrap().to_string(), "6i5h");
        assert_eq!(parse(&start, "G-5h"), Err(NotationError::Ambiguous));
        assert_eq!(
            parse(&start, "P-7e"),
            Err(NotationError::Illegal(Some(crate::shogi::IllegalMoveKind::NotAMove)))
        );
        assert_eq!(parse(&start, "Q-7e"), Err(NotationError::Unreadable));
        let mini = Position::startpos(Variant::Mini);
        assert_eq!(parse(&mini, "S4d").unwrap().to_string(), "3e4d");
        assert_eq!(write(&mini, parse(&mini, "S4d").unwrap(), Style::Aise), "S4d");
        assert_eq!(write(&mini, parse(&mini, "S4d").unwrap(), Style::Hyphenated), "S-4d");
    }

    #[test]
    fn promotion_marks_and_drops() {
        // After 7g7f 3c3d the bishops face each other: Bx2b+ / Bx2b=.
        let p = pos("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
        let promote = parse(&p, "Bx2b+").unwrap();
        assert_eq!(promote.to_string(), "8h2b+");
        assert_eq!(write(&p, promote, Style::Hyphenated), "Bx2b+");
        assert_eq!(write(&p, parse(&p, "Bx2b=").unwrap(), Style::Aise), "Bx2b=");
        assert_eq!(parse(&p, "Bx2b"), Err(NotationError::Ambiguous));
        let q = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1");
        assert_eq!(write(&q, parse(&q, "P*5e").unwrap(), Style::Aise), "P*5e");
    }

    #[test]
    fn marks_mate() {
        // Gold drop mate on 5b, supported by the pawn on 5c.
        let p = pos("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
        let m = parse(&p, "G*5b").unwrap();
        assert_eq!(write(&p, m, Style::Hyphenated), "G*5b#");
        assert_eq!(parse(&p, "G*5b#").unwrap(), m);
    }
}
