//! Whole game texts: splitting a record (PGN tags, move numbers, comments, results) into move tokens.
//!
//! Generic over the games: the tokenizer knows nothing of any move notation. It returns
//! the move tokens raw (annotation marks such as `!?` left in place); the notation
//! parsers decide what a token means, with [`strip_annotation`] and
//! [`strip_check_mark`] as helpers. Inside a token `+ - = .` are kept: they are
//! meaningful in WXF (`C2=5`, `R+=3`, `+P+1`, `C+-1`).
//!
//! ```
//! use tavoliere_rules::notation::record::split_games;
//!
//! let games = split_games("[Event \"Test\"]\n1. h2e2 h9g7 {a comment} 2. h0g2 1-0\n");
//! assert_eq!(games.len(), 1);
//! assert_eq!(games[0].tags, vec![("Event".to_string(), "Test".to_string())]);
//! assert_eq!(games[0].tokens, ["h2e2", "h9g7", "h0g2"]);
//! assert_eq!(games[0].result.as_deref(), Some("1-0"));
//! ```

/// A place in a text: 1-based line and column (the column counts characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Location {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// Text the tokenizer could not read (an unterminated comment, variation or bracket),
/// at its place among the moves: a record is never cut short silently (issue 15 §5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextProblem {
    /// How many move tokens come before it.
    pub after_tokens: usize,
    /// Where it starts.
    pub at: Location,
    /// The text there (its first characters).
    pub token: String,
    /// What is wrong.
    pub reason: &'static str,
}

/// One game of a record file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameText {
    /// PGN tag pairs in file order (`[Event "..."]` gives `("Event", "...")`).
    pub tags: Vec<(String, String)>,
    /// The move tokens, raw, without move numbers, comments, NAGs and the result.
    pub tokens: Vec<String>,
    /// Where each move token starts, one per token.
    pub locations: Vec<Location>,
    /// The result token, if the game text ends with one (`1-0`, `0-1`, `1/2-1/2`, `*`,
    /// `先胜`, `先负`, `先和`).
    pub result: Option<String>,
    /// Text that could not be read, if any; the game's text ends there.
    pub problem: Option<TextProblem>,
}

impl GameText {
    /// The value of the first tag named `name` (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.tokens.is_empty() && self.result.is_none() && self.problem.is_none()
    }
}

/// The locations of a text's byte offsets.
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    fn locate(&self, offset: usize) -> Location {
        let line = self.starts.partition_point(|&start| start <= offset);
        let start = self.starts[line - 1];
        let column = self.text.get(start..offset).map_or(1, |before| before.chars().count() + 1);
        Location { line, column }
    }
}

/// The first characters of `text`, for naming a place in an error.
fn excerpt(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    let mut out: String = line.chars().take(20).collect();
    if line.chars().count() > 20 {
        out.push('…');
    }
    out
}

/// Whether a `;` is followed (on its line) by a move number `12.`: the FIX record style
/// `1.Bh3e3 Ch10g8; 2.Ch1g3 …` separates move pairs with it, where PGN starts a comment.
fn separates_move_pairs(after: &str) -> bool {
    let after = after.trim_start_matches([' ', '\t']);
    let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    digits > 0 && after[digits..].starts_with(['.', '…'])
}

/// Result tokens: PGN's and the Chinese "first player wins / loses / draws".
pub const RESULTS: [&str; 9] = ["1-0", "0-1", "1/2-1/2", "½-½", "*", "先胜", "先负", "先和", "0.5-0.5"];

/// Whether `token` is a game result.
pub fn is_result(token: &str) -> bool {
    RESULTS.contains(&token)
}

/// Strips trailing annotation marks `!`, `?` and `#` (mate mark) from a move token.
/// A trailing `+` is kept: see [`strip_check_mark`].
pub fn strip_annotation(token: &str) -> &str {
    token.trim_end_matches(['!', '?', '#', '！', '？'])
}

/// Strips annotation marks and then one trailing `+` check mark. Only for a notation
/// parser that knows its token is complete without it (a WXF or ICCS token ends with a
/// digit, so a `+` after it is a check mark).
pub fn strip_check_mark(token: &str) -> &str {
    let token = strip_annotation(token);
    strip_annotation(token.strip_suffix('+').unwrap_or(token))
}

/// Removes a leading move number (`12.`, `1...`, `3…`) from a token; returns `None`
/// when nothing else is left or the token is a bare number.
fn without_move_number(token: &str) -> Option<&str> {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return Some(token);
    }
    let rest = &token[digits..];
    let after = rest.trim_start_matches(['.', '…', '。', '、']);
    if after.len() == rest.len() {
        // Digits not followed by a dot: a bare number is a move number without its dot;
        // anything else (e.g. `1-0`, `0-1`) stays a token.
        return if rest.is_empty() { None } else { Some(token) };
    }
    if after.is_empty() {
        None
    } else {
        Some(after)
    }
}

/// Reads a tag line body (after `[`): `Name "value"]`. Returns the pair and the number
/// of bytes consumed, including the closing `]` when present.
fn read_tag(text: &str) -> ((String, String), usize) {
    let name_end = text.find(|c: char| c.is_whitespace() || c == '"' || c == ']').unwrap_or(text.len());
    let name = text[..name_end].to_owned();
    let mut value = String::new();
    let mut chars = text[name_end..].char_indices();
    let mut consumed = text.len();
    let mut in_quotes = false;
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => in_quotes = !in_quotes,
            '\\' if in_quotes => {
                if let Some((_, escaped)) = chars.next() {
                    value.push(escaped);
                }
            }
            ']' if !in_quotes => {
                consumed = name_end + i + 1;
                break;
            }
            '\n' if !in_quotes => {
                consumed = name_end + i;
                break;
            }
            _ if in_quotes => value.push(c),
            _ => {}
        }
    }
    ((name, value), consumed)
}

/// Splits a record file into games.
///
/// Tags are `[Name "value"]` at the start of a line; a tag block after moves, or moves
/// after a result, starts a new game. Brackets inside the move text are skipped. Move numbers
/// (`1.`, `1...`, `12.`), `...`, comments (`{...}`, `;` to the end of the line),
/// variations in parentheses, NAGs (`$1`) and `%` escape lines are dropped. A `;`
/// followed by a move number separates move pairs (the FIX style `1.Bh3e3 Ch10g8;
/// 2.Ch1g3`). Never panics; text that is none of these becomes move tokens (which the
/// reader of the moves refuses if they are not moves), and an unterminated comment,
/// variation or bracket is kept as the game's [`GameText::problem`].
pub fn split_games(text: &str) -> Vec<GameText> {
    let lines = Lines::new(text);
    let offset = |rest: &str| text.len() - rest.len();
    let mut games = Vec::new();
    let mut game = GameText::default();
    let mut rest = text;
    let mut line_start = true;
    // Marks the game's text as unreadable from `at` on and skips to the end of the text.
    let unterminated = |game: &mut GameText, at: &str, reason: &'static str| {
        if game.problem.is_none() {
            game.problem = Some(TextProblem {
                after_tokens: game.tokens.len(),
                at: lines.locate(text.len() - at.len()),
                token: excerpt(at),
                reason,
            });
        }
        ""
    };
    while let Some(c) = rest.chars().next() {
        let len = c.len_utf8();
        match c {
            '\n' => {
                line_start = true;
                rest = &rest[len..];
                continue;
            }
            c if c.is_whitespace() => {
                rest = &rest[len..];
                continue;
            }
            '%' if line_start => {
                rest = rest.find('\n').map_or("", |i| &rest[i..]);
            }
            // A bracket inside the move text (e.g. `[%clk 0:10:00]`) is not a tag.
            '[' if !line_start => {
                rest = match rest.find(']') {
                    Some(i) => &rest[i + 1..],
                    None => unterminated(&mut game, rest, "a '[' is never closed"),
                }
            }
            '[' => {
                if !game.tokens.is_empty() || game.result.is_some() {
                    games.push(std::mem::take(&mut game));
                }
                let (pair, consumed) = read_tag(&rest[len..]);
                game.tags.push(pair);
                rest = &rest[len + consumed..];
            }
            '{' => {
                rest = match rest.find('}') {
                    Some(i) => &rest[i + 1..],
                    None => unterminated(&mut game, rest, "a comment '{' is never closed"),
                }
            }
            ';' if separates_move_pairs(&rest[len..]) => rest = &rest[len..],
            ';' => rest = rest.find('\n').map_or("", |i| &rest[i..]),
            '(' => {
                let mut depth = 0usize;
                let mut end = None;
                for (i, c) in rest.char_indices() {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                end = Some(i + 1);
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                rest = match end {
                    Some(end) => &rest[end..],
                    None => unterminated(&mut game, rest, "a variation '(' is never closed"),
                };
            }
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || matches!(c, '{' | ';' | '(' | '['))
                    .unwrap_or(rest.len());
                let token = &rest[..end];
                let at = lines.locate(offset(rest));
                rest = &rest[end..];
                line_start = false;
                if is_result(token) {
                    game.result = Some(token.to_owned());
                    continue;
                }
                if token.starts_with('$') || token.trim_start_matches(['.', '…']).is_empty() {
                    continue;
                }
                if let Some(mv) = without_move_number(token) {
                    if is_result(mv) {
                        game.result = Some(mv.to_owned());
                        continue;
                    }
                    if game.result.is_some() {
                        games.push(std::mem::take(&mut game));
                    }
                    // The move's own column, after a move number glued to it (`1.Bh3e3`).
                    let column = at.column + token[..token.len() - mv.len()].chars().count();
                    game.tokens.push(mv.to_owned());
                    game.locations.push(Location { column, ..at });
                }
                continue;
            }
        }
        line_start = false;
    }
    if !game.is_empty() {
        games.push(game);
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_games_split_on_tags_and_results() {
        let text = "[Event \"A \\\"quoted\\\" name\"]\n[Red \"X\"]\n\n1. h2e2 h9g7 2. h0g2 1-0\n\n\
                    [Event \"B\"]\n1. C2=5 h8+7 2. H2+3 ; line comment\n{block\ncomment} 1/2-1/2\n\
                    1.炮二平五 马8进7 先胜\n";
        let games = split_games(text);
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].tag("event"), Some("A \"quoted\" name"));
        assert_eq!(games[0].tag("Red"), Some("X"));
        assert_eq!(games[0].tokens, ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(games[1].tokens, ["C2=5", "h8+7", "H2+3"]);
        assert_eq!(games[1].result.as_deref(), Some("1/2-1/2"));
        assert_eq!(games[2].tokens, ["炮二平五", "马8进7"]);
        assert_eq!(games[2].result.as_deref(), Some("先胜"));
    }

    #[test]
    fn move_numbers_nags_and_variations_are_dropped_but_wxf_signs_kept() {
        let games =
            split_games("1. P7+1 [%clk 0:10] 1... C+-1 $1 2.R-=5 (2. R1+1 (2. x)) 2... +P+1!? 3 P++1 ... *");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tokens, ["P7+1", "C+-1", "R-=5", "+P+1!?", "P++1"]);
        assert_eq!(games[0].result.as_deref(), Some("*"));
    }

    #[test]
    fn the_fix_record_style_separates_move_pairs_with_semicolons() {
        let games = split_games("1.Bh3e3 Ch10g8; 2.Ch1g3 Cb10c8; 3.Ti1h1 Ti10h10 ; 4.Th1h5\n");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tokens, ["Bh3e3", "Ch10g8", "Ch1g3", "Cb10c8", "Ti1h1", "Ti10h10", "Th1h5"]);
        // A `;` that is not followed by a move number is a PGN comment to the line's end.
        let games = split_games("1. h2e2 h9g7 ; Red opens with the central cannon\n2. h0g2\n");
        assert_eq!(games[0].tokens, ["h2e2", "h9g7", "h0g2"]);
    }

    #[test]
    fn tokens_know_their_line_and_column() {
        let games = split_games("[Event \"x\"]\n1.Bh3e3 Ch10g8;\n2. 炮二平五 h0g2\n");
        let at: Vec<(usize, usize)> = games[0].locations.iter().map(|l| (l.line, l.column)).collect();
        assert_eq!(at, [(2, 3), (2, 9), (3, 4), (3, 9)]);
    }

    #[test]
    fn unterminated_comments_and_variations_are_problems_not_the_end() {
        for (text, reason) in [
            ("1. h2e2 h9g7 {a comment never closed\n2. h0g2 1-0", "a comment '{' is never closed"),
            ("1. h2e2 (1. c3c4 h9g7\n2. h0g2", "a variation '(' is never closed"),
            ("1. h2e2 [%clk 0:10\n", "a '[' is never closed"),
        ] {
            let games = split_games(text);
            assert_eq!(games.len(), 1, "{text}");
            let problem = games[0].problem.as_ref().expect("a problem");
            assert_eq!(problem.reason, reason);
            assert_eq!(problem.after_tokens, games[0].tokens.len());
            assert_eq!(problem.at.line, 1);
        }
    }

    #[test]
    fn annotation_helpers_strip_only_suffixes() {
        assert_eq!(strip_annotation("+P+1!?"), "+P+1");
        assert_eq!(strip_annotation("Tc10c1+"), "Tc10c1+");
        assert_eq!(strip_check_mark("Tc10c1+!"), "Tc10c1");
        assert_eq!(strip_check_mark("R+=3"), "R+=3");
        assert_eq!(strip_check_mark("h2e2#"), "h2e2");
    }

    #[test]
    fn nasty_text_never_panics() {
        for text in [
            "",
            "[",
            "[Event",
            "[Event \"unterminated",
            "{",
            "(",
            "((",
            ")",
            "1.",
            "...",
            "$",
            "%x",
            "é[ü{",
            "1…",
        ] {
            let _ = split_games(text);
        }
        assert_eq!(split_games("[Event \"x\"]").len(), 1);
        assert!(split_games("  \n ").is_empty());
    }
}
