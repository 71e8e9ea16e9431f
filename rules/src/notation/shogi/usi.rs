//! USI moves: `7g7f`, `8h2b+`, `P*5e`. MiniShogi uses files 1..5 and ranks a..e.

use crate::shogi::{Move, Position, Role, Square, Variant};

use super::NotationError;

/// Reads a USI move without looking at a position (squares checked against `variant`).
pub fn parse_move(text: &str, variant: Variant) -> Option<Move> {
    let b = text.as_bytes();
    let square = |file: u8, rank: u8| -> Option<Square> {
        let file = file.checked_sub(b'0')?;
        let rank = rank.checked_sub(b'a')? + 1;
        Square::new(file, rank).filter(|sq| sq.is_on(variant))
    };
    match b {
        [piece, b'*', f, r] => {
            let role = Role::from_letter(char::from(*piece)).filter(|r| r.is_hand_role())?;
            if !piece.is_ascii_uppercase() {
                return None;
            }
            Some(Move::Drop { role, to: square(*f, *r)? })
        }
        [f1, r1, f2, r2] => {
            Some(Move::Normal { from: square(*f1, *r1)?, to: square(*f2, *r2)?, promote: false })
        }
        [f1, r1, f2, r2, b'+'] => {
            Some(Move::Normal { from: square(*f1, *r1)?, to: square(*f2, *r2)?, promote: true })
        }
        _ => None,
    }
}

/// Reads a USI move and checks it is legal in `pos`.
///
/// # Errors
///
/// [`NotationError::Unreadable`] if it is not USI, [`NotationError::Illegal`] with the
/// reason if it is not legal.
pub fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let m = parse_move(text.trim(), pos.variant()).ok_or(NotationError::Unreadable)?;
    pos.check_move(m).map_err(|kind| NotationError::Illegal(Some(kind)))?;
    Ok(m)
}

/// Writes a move in USI (the position is not needed; the parameter keeps the notation
/// contract's shape).
pub fn write(_pos: &Position, m: Move) -> String {
    m.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::IllegalMoveKind;

    #[test]
    fn reads_board_moves_promotions_and_drops() {
        let pos = Position::startpos(Variant::Standard);
        let m = parse(&pos, "7g7f").unwrap();
        assert_eq!(write(&pos, m), "7g7f");
        assert_eq!(parse_move("8h2b+", Variant::Standard).unwrap().to_string(), "8h2b+");
        assert_eq!(parse_move("P*5e", Variant::Standard).unwrap().to_string(), "P*5e");
        assert_eq!(parse_move("p*5e", Variant::Standard), None);
        assert_eq!(parse_move("6a5a", Variant::Mini), None, "file 6 is off the minishogi board");
        assert_eq!(parse_move("5f5e", Variant::Mini), None, "rank f is off the minishogi board");
        assert_eq!(parse(&pos, "7g7e"), Err(NotationError::Illegal(Some(IllegalMoveKind::NotAMove))));
        assert_eq!(parse(&pos, "P*5e"), Err(NotationError::Illegal(Some(IllegalMoveKind::NotInHand))));
        assert_eq!(parse(&pos, "hello"), Err(NotationError::Unreadable));
    }
}
