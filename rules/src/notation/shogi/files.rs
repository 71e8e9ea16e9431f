//! Files of several Shogi records: where each game of a KIF, KI2 or CSA file begins.
//!
//! CSA separates the games of one file by a line holding `/` alone (CSA standard V2.2,
//! "複数の棋譜の区切り"). KIF and KI2 have no separator: a file of several games (as
//! shogi databases and Kifu for Windows export them) starts each game with its header
//! again (`開始日時：`, `先手：`, `手合割：`...) after the moves of the one before.

/// The games of a KIF or KI2 (`csa` false) or CSA (`csa` true) file: each game's text and
/// the number of the file's lines before it (the reader's line numbers are the game's;
/// add it for the file's). Blank stretches between games are no game.
pub fn split_games(text: &str, csa: bool) -> Vec<(usize, &str)> {
    let mut games = Vec::new();
    let mut start_line = 0;
    let mut start_byte = 0;
    let mut moves_seen = false;
    let mut offset = 0;
    for (index, raw) in text.split_inclusive('\n').enumerate() {
        let line = raw.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        let (ends_before, next_starts_after) = if csa {
            // The separator ends the game before it and belongs to none.
            (line == "/", true)
        } else if starts_moves(line) {
            moves_seen = true;
            (false, false)
        } else {
            // A header line after the moves: the next game's header begins here.
            (moves_seen && is_header(line), false)
        };
        if ends_before {
            games.push((start_line, &text[start_byte..offset]));
            moves_seen = false;
            if next_starts_after {
                start_line = index + 1;
                start_byte = offset + raw.len();
            } else {
                start_line = index;
                start_byte = offset;
            }
        }
        offset += raw.len();
    }
    games.push((start_line, &text[start_byte..]));
    games.retain(|(_, game)| !game.trim().is_empty());
    games
}

/// A move line of KIF (`   1 ７六歩(77)`) or KI2 (`▲７六歩 △３四歩`).
fn starts_moves(line: &str) -> bool {
    line.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '▲' | '☗' | '△' | '▽' | '☖'))
}

/// A header line `key：value` (never a variation's `変化：`, a comment or a move).
fn is_header(line: &str) -> bool {
    if super::kif::is_skipped(line) || line.starts_with("変化") || starts_moves(line) {
        return false;
    }
    line.split_once('：').or_else(|| line.split_once(':')).is_some_and(|(key, _)| !key.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csa_games_are_cut_at_their_separator_lines() {
        let text = "V2.2\nPI\n+\n+7776FU\n%TORYO\n/\nV2.2\nPI\n+\n+2726FU\n%CHUDAN\n/\n\n";
        let games = split_games(text, true);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0], (0, "V2.2\nPI\n+\n+7776FU\n%TORYO\n"));
        assert_eq!(games[1], (6, "V2.2\nPI\n+\n+2726FU\n%CHUDAN\n"));
        assert_eq!(split_games("V2.2\n+7776FU\n", true), vec![(0, "V2.2\n+7776FU\n")]);
    }

    #[test]
    fn kif_games_begin_at_a_header_after_moves_and_variations_stay_with_their_game() {
        let first = "先手：甲\n後手：乙\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\nまで1手で先手の勝ち\n\n変化：1手\n   1 ２六歩(27)\n";
        let second = "# ---- 二局目 ----\n開始日時：2026/01/02\n先手：丙\n   1 ２六歩(27)\n";
        let text = format!("{first}{second}");
        let games = split_games(&text, false);
        assert_eq!(games.len(), 2, "{games:?}");
        let comment = format!("{first}# ---- 二局目 ----\n");
        assert_eq!(games[0], (0, comment.as_str()), "a comment line before a header stays behind");
        assert_eq!(games[1], (10, "開始日時：2026/01/02\n先手：丙\n   1 ２六歩(27)\n"));
        let ki2 = "先手：甲\n▲７六歩 △３四歩\nまで2手で中断\n先手：丙\n▲２六歩\n";
        let games = split_games(ki2, false);
        assert_eq!(games.iter().map(|(line, _)| *line).collect::<Vec<_>>(), vec![0, 3]);
    }
}
