//! The one place where Tavoliere's notations meet Fairy-Stockfish's (issue 41 §2).
//!
//! Fairy-Stockfish speaks UCI for every variant, with chess-like coordinates:
//! - Xiangqi: files `a`–`i` as in ICCS, but ranks `1`–`10` where ICCS counts `0`–`9`
//!   (ICCS `h2e2` is the engine's `h3e3`). Its FEN is the Xiangqi FEN the rules write
//!   (`w` = Red to move, `n` horse, `b` elephant).
//! - Shogi and MiniShogi: files `a`… from sente's left (USI file 9, or 5 in MiniShogi, is
//!   `a`), ranks `1`… from sente's side (USI rank `i`, or `e`, is `1`); drops `P@e5` where
//!   USI writes `P*5e`; a promotion keeps USI's `+` suffix. Its FEN puts the hands in
//!   brackets after the board (`…/LNSGKGSNL[Pb]`), and calls the side that moves first
//!   (sente, upper case) `w`: the SFEN's `b` is its `w`.

use tavoliere_rules::variant::Variant;

/// A variant Fairy-Stockfish analyses, with its board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineVariant {
    /// Xiangqi (9 files, 10 ranks).
    Xiangqi,
    /// Shogi (9×9).
    Shogi,
    /// MiniShogi (5×5).
    MiniShogi,
}

/// A text that is not a move or position of the variant.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("'{text}' is not a {variant:?} {what}")]
pub struct CoordError {
    /// The text.
    pub text: String,
    /// The variant.
    pub variant: EngineVariant,
    /// What it should have been (`move`, `position`).
    pub what: &'static str,
}

impl EngineVariant {
    /// The engine's variant for a game's, `None` for the games it cannot play (Flickering
    /// chess, the Seven Kingdoms).
    pub fn of(variant: Variant) -> Option<EngineVariant> {
        match variant {
            Variant::Xiangqi => Some(EngineVariant::Xiangqi),
            Variant::Shogi => Some(EngineVariant::Shogi),
            Variant::MiniShogi => Some(EngineVariant::MiniShogi),
            _ => None,
        }
    }

    /// The value of the engine's `UCI_Variant` option.
    pub fn uci_name(self) -> &'static str {
        match self {
            EngineVariant::Xiangqi => "xiangqi",
            EngineVariant::Shogi => "shogi",
            EngineVariant::MiniShogi => "minishogi",
        }
    }

    /// Files and ranks of the board.
    fn size(self) -> (u8, u8) {
        match self {
            EngineVariant::Xiangqi => (9, 10),
            EngineVariant::Shogi => (9, 9),
            EngineVariant::MiniShogi => (5, 5),
        }
    }

    fn error(self, text: &str, what: &'static str) -> CoordError {
        CoordError { text: text.to_owned(), variant: self, what }
    }

    /// A canonical move (ICCS, USI) in the engine's notation.
    ///
    /// # Errors
    /// The text is not a move on this board.
    pub fn to_engine(self, canonical: &str) -> Result<String, CoordError> {
        let bad = || self.error(canonical, "move");
        let (files, ranks) = self.size();
        match self {
            EngineVariant::Xiangqi => {
                let b = canonical.as_bytes();
                if b.len() != 4 {
                    return Err(bad());
                }
                let square = |f: u8, r: u8| -> Option<String> {
                    let file = f.checked_sub(b'a').filter(|&f| f < files)?;
                    let rank = r.checked_sub(b'0').filter(|&r| r < ranks)?;
                    Some(format!("{}{}", char::from(b'a' + file), rank + 1))
                };
                Ok(format!("{}{}", square(b[0], b[1]).ok_or_else(bad)?, square(b[2], b[3]).ok_or_else(bad)?))
            }
            EngineVariant::Shogi | EngineVariant::MiniShogi => {
                // USI square: file digit 1..n, rank letter a.. (a = gote's back rank).
                let square = |f: u8, r: u8| -> Option<String> {
                    let file = f.checked_sub(b'0').filter(|&f| (1..=files).contains(&f))?;
                    let rank = r.checked_sub(b'a').filter(|&r| r < ranks)?;
                    Some(format!("{}{}", char::from(b'a' + (files - file)), ranks - rank))
                };
                let b = canonical.as_bytes();
                match b {
                    [piece, b'*', f, r] if piece.is_ascii_uppercase() => {
                        Ok(format!("{}@{}", char::from(*piece), square(*f, *r).ok_or_else(bad)?))
                    }
                    [f1, r1, f2, r2, rest @ ..] if rest.is_empty() || rest == b"+" => Ok(format!(
                        "{}{}{}",
                        square(*f1, *r1).ok_or_else(bad)?,
                        square(*f2, *r2).ok_or_else(bad)?,
                        if rest.is_empty() { "" } else { "+" }
                    )),
                    _ => Err(bad()),
                }
            }
        }
    }

    /// An engine move (a best move) in the canonical notation (ICCS, USI).
    ///
    /// # Errors
    /// The text is not a move on this board.
    pub fn from_engine(self, engine: &str) -> Result<String, CoordError> {
        let bad = || self.error(engine, "move");
        let (files, ranks) = self.size();
        // An engine square: a file letter then a rank number 1..=ranks.
        let square = |text: &str| -> Option<(u8, u8)> {
            let (&f, rank) = text.as_bytes().split_first()?;
            let file = f.checked_sub(b'a').filter(|&f| f < files)?;
            if rank.is_empty() || rank.len() > 2 || rank[0] == b'0' || !rank.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let rank: u8 = std::str::from_utf8(rank).ok()?.parse().ok()?;
            (1..=ranks).contains(&rank).then_some((file, rank))
        };
        let canonical_square = |(file, rank): (u8, u8)| match self {
            EngineVariant::Xiangqi => format!("{}{}", char::from(b'a' + file), rank - 1),
            _ => format!("{}{}", files - file, char::from(b'a' + (ranks - rank))),
        };
        if let Some((piece, to)) = engine.split_once('@') {
            let piece = piece.as_bytes();
            if self == EngineVariant::Xiangqi || piece.len() != 1 || !piece[0].is_ascii_uppercase() {
                return Err(bad());
            }
            return Ok(format!("{}*{}", char::from(piece[0]), canonical_square(square(to).ok_or_else(bad)?)));
        }
        let (body, promotes) = match engine.strip_suffix('+') {
            Some(body) if self != EngineVariant::Xiangqi => (body, true),
            _ => (engine, false),
        };
        // The second square starts at the second letter.
        let split = body.char_indices().skip(1).find(|(_, c)| c.is_ascii_lowercase()).map(|(i, _)| i);
        let (from, to) = body.split_at(split.ok_or_else(bad)?);
        let (from, to) = (square(from).ok_or_else(bad)?, square(to).ok_or_else(bad)?);
        Ok(format!("{}{}{}", canonical_square(from), canonical_square(to), if promotes { "+" } else { "" }))
    }

    /// A position as the rules write it (Xiangqi FEN, SFEN) in the engine's FEN.
    ///
    /// # Errors
    /// The text does not have the fields of a FEN or SFEN.
    pub fn engine_fen(self, position: &str) -> Result<String, CoordError> {
        let bad = || self.error(position, "position");
        let fields: Vec<&str> = position.split_whitespace().collect();
        match self {
            EngineVariant::Xiangqi => match fields.as_slice() {
                [board, side @ ("w" | "b"), ..] => {
                    let (half, full) = (fields.get(4).unwrap_or(&"0"), fields.get(5).unwrap_or(&"1"));
                    Ok(format!("{board} {side} - - {half} {full}"))
                }
                _ => Err(bad()),
            },
            EngineVariant::Shogi | EngineVariant::MiniShogi => match fields.as_slice() {
                [board, side @ ("b" | "w"), hands, rest @ ..] => {
                    let mut hand = String::new();
                    if *hands != "-" {
                        let mut count = 0u32;
                        for c in hands.chars() {
                            if let Some(d) = c.to_digit(10) {
                                count = count * 10 + d;
                            } else if c.is_ascii_alphabetic() {
                                for _ in 0..count.max(1) {
                                    hand.push(c);
                                }
                                count = 0;
                            } else {
                                return Err(bad());
                            }
                        }
                    }
                    // The engine's first player (sente) is its `w`.
                    let side = if *side == "b" { "w" } else { "b" };
                    let number = rest.first().and_then(|n| n.parse::<u32>().ok()).unwrap_or(1);
                    // SFEN counts plies, a FEN full moves.
                    Ok(format!("{board}[{hand}] {side} - - 0 {}", number.div_ceil(2).max(1)))
                }
                _ => Err(bad()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xiangqi_ranks_are_one_higher_for_the_engine_both_ways() {
        let x = EngineVariant::Xiangqi;
        for (iccs, engine) in [("h2e2", "h3e3"), ("h7h2", "h8h3"), ("a0a9", "a1a10"), ("i9i0", "i10i1")] {
            assert_eq!(x.to_engine(iccs).unwrap(), engine, "{iccs}");
            assert_eq!(x.from_engine(engine).unwrap(), iccs, "{engine}");
        }
        for bad in ["h2e", "j2e2", "h2e2+", "P*5e"] {
            assert!(x.to_engine(bad).is_err(), "{bad}");
        }
        for bad in ["h0e3", "h3e11", "P@e5", "h3e3+", "h03e3"] {
            assert!(x.from_engine(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shogi_squares_drops_and_promotions_map_both_ways() {
        let s = EngineVariant::Shogi;
        for (usi, engine) in
            [("7g7f", "c3c4"), ("8h2b+", "b2h8+"), ("P*5e", "P@e5"), ("9a1i", "a9i1"), ("3c3d", "g7g6")]
        {
            assert_eq!(s.to_engine(usi).unwrap(), engine, "{usi}");
            assert_eq!(s.from_engine(engine).unwrap(), usi, "{engine}");
        }
        assert!(s.to_engine("0a1b").is_err());
        assert!(s.from_engine("j1a1").is_err());
    }

    #[test]
    fn minishogi_squares_count_from_five() {
        let m = EngineVariant::MiniShogi;
        for (usi, engine) in [("5e4d", "a1b2"), ("1a1b", "e5e4"), ("2e3d+", "d1c2+"), ("G*3c", "G@c3")] {
            assert_eq!(m.to_engine(usi).unwrap(), engine, "{usi}");
            assert_eq!(m.from_engine(engine).unwrap(), usi, "{engine}");
        }
        assert!(m.to_engine("6a5a").is_err(), "file 6 is off the board");
        assert!(m.from_engine("f1e1").is_err());
    }

    #[test]
    fn positions_become_the_engines_fen() {
        assert_eq!(
            EngineVariant::Xiangqi
                .engine_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
                .unwrap(),
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
        );
        assert_eq!(
            EngineVariant::Shogi
                .engine_fen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
                .unwrap(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"
        );
        assert_eq!(
            EngineVariant::Shogi.engine_fen("4k4/9/9/9/9/9/9/9/4K4 w 2P10pb 12").unwrap(),
            "4k4/9/9/9/9/9/9/9/4K4[PPppppppppppb] b - - 0 6"
        );
        assert!(EngineVariant::MiniShogi.engine_fen("rbsgk/4p/5/P4/KGSBR").is_err());
    }
}
