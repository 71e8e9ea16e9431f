//! Boards drawn as SVG by the server: pure functions from a FEN/SFEN, the last move, the
//! orientation and the piece style to an SVG document. The same code serves the game page
//! and `GET /games/{id}/board.svg?ply=N` (for forums and mails).
//!
//! Xiangqi is drawn on the intersections with the river and the palace diagonals; Shogi and
//! MiniShogi on squares, with the pieces in hand beside the board. Coordinates follow the
//! canonical notations (ICCS files `a`–`i`, ranks `0`–`9`; USI files `9`–`1`, ranks `a`–`i`).

use std::fmt::Write as _;

use tavoliere_rules::variant::Variant;

/// How pieces are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PieceStyle {
    /// Traditional characters (帥仕相俥傌炮兵, 玉飛角金銀桂香歩...).
    #[default]
    Traditional,
    /// Westernised letters for players who do not read the characters.
    Western,
}

impl PieceStyle {
    /// `traditional` or `western` (the account setting's value).
    pub fn as_str(self) -> &'static str {
        match self {
            PieceStyle::Traditional => "traditional",
            PieceStyle::Western => "western",
        }
    }

    /// Reads an account setting value; anything unknown is traditional.
    pub fn from_setting(value: &str) -> PieceStyle {
        if value == "western" {
            PieceStyle::Western
        } else {
            PieceStyle::Traditional
        }
    }
}

/// What to draw besides the position.
#[derive(Debug, Clone, Copy, Default)]
pub struct BoardOptions<'a> {
    /// The last move in canonical notation (ICCS or USI), marked on the board.
    pub last_move: Option<&'a str>,
    /// Draw from the second player's side (board turned 180°).
    pub flipped: bool,
    /// Piece style.
    pub style: PieceStyle,
}

/// Why a board cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The placement field has the wrong number of ranks or files.
    #[error("the position has {found} ranks or files where {expected} are expected")]
    Shape {
        /// Expected count.
        expected: usize,
        /// Found count.
        found: usize,
    },
    /// A character that is no piece of the game.
    #[error("'{0}' is not a piece of this game")]
    UnknownPiece(char),
    /// No board drawing for this variant yet.
    #[error("no board drawing for {0}")]
    Unsupported(&'static str),
    /// The hands field cannot be read.
    #[error("the pieces in hand cannot be read: {0}")]
    Hands(String),
}

const CELL: i32 = 40;
const MARGIN: i32 = 30;
const HAND_BAND: i32 = 44;

/// A piece on the drawing: its letter in the FEN/SFEN (upper case = first player) and
/// whether it is promoted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Glyph {
    letter: char,
    promoted: bool,
}

impl Glyph {
    fn first(self) -> bool {
        self.letter.is_ascii_uppercase()
    }
}

/// Draws `fen` (FEN for Xiangqi, SFEN for Shogi and MiniShogi) as an SVG document.
///
/// # Errors
/// [`BoardError`] when the position text cannot be read.
pub fn render(variant: Variant, fen: &str, options: BoardOptions<'_>) -> Result<String, BoardError> {
    match variant {
        Variant::Xiangqi => render_xiangqi(fen, options),
        Variant::Shogi => render_shogi(fen, 9, options),
        Variant::MiniShogi => render_shogi(fen, 5, options),
        Variant::Flickering | Variant::SevenKingdoms => Err(BoardError::Unsupported(variant.name())),
    }
}

/// Reads the placement field into rows (top rank first) of `files` cells.
fn parse_placement(
    placement: &str,
    ranks: usize,
    files: usize,
) -> Result<Vec<Vec<Option<Glyph>>>, BoardError> {
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != ranks {
        return Err(BoardError::Shape { expected: ranks, found: rows.len() });
    }
    let mut board = Vec::with_capacity(ranks);
    for row in rows {
        let mut cells = Vec::with_capacity(files);
        let mut promoted = false;
        let mut digits = String::new();
        for c in row.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                let empty: usize = digits.parse().map_err(|_| BoardError::UnknownPiece(c))?;
                cells.extend(std::iter::repeat_n(None, empty.min(files + 1)));
                digits.clear();
            }
            if c == '+' {
                promoted = true;
            } else if c.is_ascii_alphabetic() {
                cells.push(Some(Glyph { letter: c, promoted }));
                promoted = false;
            } else {
                return Err(BoardError::UnknownPiece(c));
            }
        }
        if !digits.is_empty() {
            let empty: usize = digits.parse().map_err(|_| BoardError::Shape { expected: files, found: 0 })?;
            cells.extend(std::iter::repeat_n(None, empty.min(files + 1)));
        }
        if cells.len() != files {
            return Err(BoardError::Shape { expected: files, found: cells.len() });
        }
        board.push(cells);
    }
    Ok(board)
}

fn xiangqi_label(glyph: Glyph, style: PieceStyle) -> Result<&'static str, BoardError> {
    let first = glyph.first();
    let label = match (glyph.letter.to_ascii_lowercase(), style) {
        ('k', PieceStyle::Traditional) => ["將", "帥"][first as usize],
        ('a', PieceStyle::Traditional) => ["士", "仕"][first as usize],
        ('b' | 'e', PieceStyle::Traditional) => ["象", "相"][first as usize],
        ('r', PieceStyle::Traditional) => ["車", "俥"][first as usize],
        ('n' | 'h', PieceStyle::Traditional) => ["馬", "傌"][first as usize],
        ('c', PieceStyle::Traditional) => ["包", "炮"][first as usize],
        ('p', PieceStyle::Traditional) => ["卒", "兵"][first as usize],
        ('k', PieceStyle::Western) => "K",
        ('a', PieceStyle::Western) => "A",
        ('b' | 'e', PieceStyle::Western) => "E",
        ('r', PieceStyle::Western) => "R",
        ('n' | 'h', PieceStyle::Western) => "H",
        ('c', PieceStyle::Western) => "C",
        ('p', PieceStyle::Western) => "P",
        _ => return Err(BoardError::UnknownPiece(glyph.letter)),
    };
    Ok(label)
}

fn shogi_label(glyph: Glyph, style: PieceStyle) -> Result<&'static str, BoardError> {
    let label = match (glyph.letter.to_ascii_lowercase(), glyph.promoted, style) {
        ('k', _, PieceStyle::Traditional) => {
            if glyph.first() {
                "玉"
            } else {
                "王"
            }
        }
        ('r', false, PieceStyle::Traditional) => "飛",
        ('r', true, PieceStyle::Traditional) => "龍",
        ('b', false, PieceStyle::Traditional) => "角",
        ('b', true, PieceStyle::Traditional) => "馬",
        ('g', _, PieceStyle::Traditional) => "金",
        ('s', false, PieceStyle::Traditional) => "銀",
        ('s', true, PieceStyle::Traditional) => "全",
        ('n', false, PieceStyle::Traditional) => "桂",
        ('n', true, PieceStyle::Traditional) => "圭",
        ('l', false, PieceStyle::Traditional) => "香",
        ('l', true, PieceStyle::Traditional) => "杏",
        ('p', false, PieceStyle::Traditional) => "歩",
        ('p', true, PieceStyle::Traditional) => "と",
        ('k', _, PieceStyle::Western) => "K",
        ('r', false, PieceStyle::Western) => "R",
        ('r', true, PieceStyle::Western) => "+R",
        ('b', false, PieceStyle::Western) => "B",
        ('b', true, PieceStyle::Western) => "+B",
        ('g', _, PieceStyle::Western) => "G",
        ('s', false, PieceStyle::Western) => "S",
        ('s', true, PieceStyle::Western) => "+S",
        ('n', false, PieceStyle::Western) => "N",
        ('n', true, PieceStyle::Western) => "+N",
        ('l', false, PieceStyle::Western) => "L",
        ('l', true, PieceStyle::Western) => "+L",
        ('p', false, PieceStyle::Western) => "P",
        ('p', true, PieceStyle::Western) => "+P",
        _ => return Err(BoardError::UnknownPiece(glyph.letter)),
    };
    Ok(label)
}

/// Opens the document. `geometry` is the screen centre of the top-left point (intersection
/// or square) in the first player's view, for the click-to-move script.
fn svg_open(out: &mut String, width: i32, height: i32, class: &str, geometry: (i32, i32), flipped: bool) {
    let (x0, y0) = geometry;
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="board {class}" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" font-family="serif" data-cell="{CELL}" data-x0="{x0}" data-y0="{y0}" data-flipped="{flipped}">"##
    );
    let _ = write!(out, r##"<rect width="{width}" height="{height}" fill="#f2d9a0"/>"##);
}

/// Squares named by the canonical move, as (file index from the left of the first
/// player, rank index from the top of the first player's view).
fn xiangqi_move_squares(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut squares = Vec::new();
    for pair in [bytes.get(0..2), bytes.get(2..4)].into_iter().flatten() {
        let (file, rank) = (pair[0].to_ascii_lowercase(), pair[1]);
        if (b'a'..=b'i').contains(&file) && rank.is_ascii_digit() {
            squares.push(((file - b'a') as usize, 9 - (rank - b'0') as usize));
        }
    }
    squares
}

fn render_xiangqi(fen: &str, options: BoardOptions<'_>) -> Result<String, BoardError> {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let board = parse_placement(placement, 10, 9)?;
    let width = 8 * CELL + 2 * MARGIN;
    let height = 9 * CELL + 2 * MARGIN;
    // Screen position of an intersection given as (file from the left, rank from the top)
    // in the first player's view.
    let at = |file: usize, rank: usize| -> (i32, i32) {
        let (f, r) = if options.flipped { (8 - file, 9 - rank) } else { (file, rank) };
        (MARGIN + f as i32 * CELL, MARGIN + r as i32 * CELL)
    };
    let mut out = String::new();
    svg_open(&mut out, width, height, "xiangqi", (MARGIN, MARGIN), options.flipped);
    out.push_str(r##"<g stroke="#5a3d1e" stroke-width="1.5" fill="none">"##);
    // Ranks.
    for rank in 0..10 {
        let y = MARGIN + rank * CELL;
        let _ = write!(out, r#"<line x1="{MARGIN}" y1="{y}" x2="{}" y2="{y}"/>"#, MARGIN + 8 * CELL);
    }
    // Files: the edge files cross the river, the others stop at it.
    for file in 0..9 {
        let x = MARGIN + file * CELL;
        if file == 0 || file == 8 {
            let _ = write!(out, r#"<line x1="{x}" y1="{MARGIN}" x2="{x}" y2="{}"/>"#, MARGIN + 9 * CELL);
        } else {
            let _ = write!(out, r#"<line x1="{x}" y1="{MARGIN}" x2="{x}" y2="{}"/>"#, MARGIN + 4 * CELL);
            let _ = write!(
                out,
                r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}"/>"#,
                MARGIN + 5 * CELL,
                MARGIN + 9 * CELL
            );
        }
    }
    // Palace diagonals (files d–f, three ranks at each end).
    for (top, bottom) in [(0, 2), (7, 9)] {
        let (x1, y1) = (MARGIN + 3 * CELL, MARGIN + top * CELL);
        let (x2, y2) = (MARGIN + 5 * CELL, MARGIN + bottom * CELL);
        let _ = write!(out, r#"<line class="palace" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>"#);
        let _ = write!(out, r#"<line class="palace" x1="{x2}" y1="{y1}" x2="{x1}" y2="{y2}"/>"#);
    }
    out.push_str("</g>");
    let river_y = MARGIN + 4 * CELL + CELL / 2 + 6;
    let _ = write!(
        out,
        r##"<text class="river" x="{}" y="{river_y}" text-anchor="middle" font-size="18" fill="#5a3d1e">{}</text>"##,
        width / 2,
        match options.style {
            PieceStyle::Traditional => "楚 河　　漢 界",
            PieceStyle::Western => "~ ~ ~",
        }
    );
    // Coordinates: ICCS files and ranks.
    for file in 0..9 {
        let (x, _) = at(file, 0);
        let name = (b'a' + file as u8) as char;
        let _ = write!(
            out,
            r##"<text class="coord" x="{x}" y="{}" text-anchor="middle" font-size="11" fill="#5a3d1e">{name}</text>"##,
            height - 6
        );
    }
    for rank in 0..10 {
        let (_, y) = at(0, rank);
        let _ = write!(
            out,
            r##"<text class="coord" x="8" y="{}" text-anchor="middle" font-size="11" fill="#5a3d1e">{}</text>"##,
            y + 4,
            9 - rank
        );
    }
    // Last move.
    if let Some(last) = options.last_move {
        for (file, rank) in xiangqi_move_squares(last) {
            let (x, y) = at(file, rank);
            let _ = write!(
                out,
                r##"<rect class="last-move" x="{}" y="{}" width="{}" height="{}" fill="#7fbf7f" fill-opacity="0.6"/>"##,
                x - CELL / 2 + 1,
                y - CELL / 2 + 1,
                CELL - 2,
                CELL - 2
            );
        }
    }
    // Pieces.
    for (rank, row) in board.iter().enumerate() {
        for (file, cell) in row.iter().enumerate() {
            let Some(glyph) = cell else { continue };
            let label = xiangqi_label(*glyph, options.style)?;
            let (x, y) = at(file, rank);
            let colour = if glyph.first() { "#b22222" } else { "#1a1a1a" };
            let square = format!("{}{}", (b'a' + file as u8) as char, 9 - rank);
            let _ = write!(
                out,
                r##"<g class="piece" data-square="{square}"><circle cx="{x}" cy="{y}" r="17" fill="#fbeccb" stroke="{colour}" stroke-width="2"/><text x="{x}" y="{}" text-anchor="middle" font-size="{}" fill="{colour}">{label}</text></g>"##,
                y + 7,
                if options.style == PieceStyle::Traditional { 20 } else { 18 }
            );
        }
    }
    out.push_str("</svg>");
    Ok(out)
}

/// Squares named by a USI move on a `size` board as (file index from the left of the first
/// player, rank index from the top); a drop names only its destination.
fn usi_move_squares(text: &str, size: usize) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let square = |pair: &[u8]| -> Option<(usize, usize)> {
        let file = pair[0].checked_sub(b'1')? as usize;
        let rank = pair[1].checked_sub(b'a')? as usize;
        (file < size && rank < size).then(|| (size - 1 - file, rank))
    };
    let mut squares = Vec::new();
    if bytes.get(1) == Some(&b'*') {
        squares.extend(bytes.get(2..4).and_then(square));
    } else {
        squares.extend(bytes.get(0..2).and_then(square));
        squares.extend(bytes.get(2..4).and_then(square));
    }
    squares
}

/// Reads the SFEN hands field (`-`, or e.g. `2P3pR`) as (letter, count) in text order.
fn parse_hands(hands: &str) -> Result<Vec<(char, u32)>, BoardError> {
    if hands == "-" || hands.is_empty() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    let mut count = String::new();
    for c in hands.chars() {
        if c.is_ascii_digit() {
            count.push(c);
        } else if "rbgsnlpRBGSNLP".contains(c) {
            let n = if count.is_empty() {
                1
            } else {
                count.parse().map_err(|_| BoardError::Hands(hands.to_owned()))?
            };
            count.clear();
            out.push((c, n));
        } else {
            return Err(BoardError::Hands(hands.to_owned()));
        }
    }
    if !count.is_empty() {
        return Err(BoardError::Hands(hands.to_owned()));
    }
    Ok(out)
}

fn shogi_piece(
    out: &mut String,
    x: i32,
    y: i32,
    glyph: Glyph,
    upside_down: bool,
    style: PieceStyle,
    extra: &str,
) -> Result<(), BoardError> {
    let label = shogi_label(glyph, style)?;
    let half = CELL / 2 - 3;
    let rotate = if upside_down { format!(r#" transform="rotate(180 {x} {y})""#) } else { String::new() };
    let colour = if glyph.promoted { "#b22222" } else { "#1a1a1a" };
    let size = if label.chars().count() > 1 { 14 } else { 20 };
    let _ = write!(
        out,
        r##"<g class="piece"{extra}{rotate}><path d="M{x} {} L{} {} L{} {} L{} {} L{} {} Z" fill="#fbeccb" stroke="#5a3d1e"/><text x="{x}" y="{}" text-anchor="middle" font-size="{size}" fill="{colour}">{label}</text></g>"##,
        y - half,
        x + half - 4,
        y - half + 6,
        x + half,
        y + half,
        x - half,
        y + half,
        x - half + 4,
        y - half + 6,
        y + 8,
    );
    Ok(())
}

fn render_shogi(sfen: &str, size: usize, options: BoardOptions<'_>) -> Result<String, BoardError> {
    let mut fields = sfen.split_whitespace();
    let board = parse_placement(fields.next().unwrap_or(""), size, size)?;
    let _side = fields.next();
    let hands = parse_hands(fields.next().unwrap_or("-"))?;
    let n = size as i32;
    let width = n * CELL + 2 * MARGIN;
    let board_top = HAND_BAND + MARGIN;
    let height = n * CELL + 2 * MARGIN + 2 * HAND_BAND;
    let cell_origin = |file: usize, rank: usize| -> (i32, i32) {
        let (f, r) = if options.flipped { (size - 1 - file, size - 1 - rank) } else { (file, rank) };
        (MARGIN + f as i32 * CELL, board_top + r as i32 * CELL)
    };
    let mut out = String::new();
    svg_open(
        &mut out,
        width,
        height,
        if size == 5 { "minishogi" } else { "shogi" },
        (MARGIN + CELL / 2, board_top + CELL / 2),
        options.flipped,
    );
    let _ = write!(
        out,
        r##"<rect x="{MARGIN}" y="{board_top}" width="{}" height="{}" fill="#f5d88e" stroke="#5a3d1e" stroke-width="2"/>"##,
        n * CELL,
        n * CELL
    );
    out.push_str(r##"<g stroke="#5a3d1e" stroke-width="1">"##);
    for i in 1..n {
        let x = MARGIN + i * CELL;
        let y = board_top + i * CELL;
        let _ = write!(out, r#"<line x1="{x}" y1="{board_top}" x2="{x}" y2="{}"/>"#, board_top + n * CELL);
        let _ = write!(out, r#"<line x1="{MARGIN}" y1="{y}" x2="{}" y2="{y}"/>"#, MARGIN + n * CELL);
    }
    out.push_str("</g>");
    // Coordinates: USI files (numbers) above, ranks (letters) on the right.
    for file in 0..size {
        let (x, _) = cell_origin(file, 0);
        let _ = write!(
            out,
            r##"<text class="coord" x="{}" y="{}" text-anchor="middle" font-size="11" fill="#5a3d1e">{}</text>"##,
            x + CELL / 2,
            board_top - 8,
            size - file
        );
    }
    for rank in 0..size {
        let (_, y) = cell_origin(0, rank);
        let _ = write!(
            out,
            r##"<text class="coord" x="{}" y="{}" text-anchor="middle" font-size="11" fill="#5a3d1e">{}</text>"##,
            MARGIN + n * CELL + 12,
            y + CELL / 2 + 4,
            (b'a' + rank as u8) as char
        );
    }
    if let Some(last) = options.last_move {
        for (file, rank) in usi_move_squares(last, size) {
            let (x, y) = cell_origin(file, rank);
            let _ = write!(
                out,
                r##"<rect class="last-move" x="{}" y="{}" width="{}" height="{}" fill="#7fbf7f" fill-opacity="0.6"/>"##,
                x + 1,
                y + 1,
                CELL - 2,
                CELL - 2
            );
        }
    }
    for (rank, row) in board.iter().enumerate() {
        for (file, cell) in row.iter().enumerate() {
            let Some(glyph) = cell else { continue };
            let (x, y) = cell_origin(file, rank);
            // The pieces of the player at the top of the drawing point down.
            let upside_down = glyph.first() == options.flipped;
            let square = format!(r#" data-square="{}{}""#, size - file, (b'a' + rank as u8) as char);
            shogi_piece(&mut out, x + CELL / 2, y + CELL / 2, *glyph, upside_down, options.style, &square)?;
        }
    }
    // Hands: the player at the bottom has theirs below the board, the other above.
    for first in [true, false] {
        let at_bottom = first != options.flipped;
        let y = if at_bottom { height - HAND_BAND / 2 } else { HAND_BAND / 2 };
        let mut x = MARGIN + CELL / 2;
        let class = if first { "hand hand-first" } else { "hand hand-second" };
        let _ = write!(out, r#"<g class="{class}">"#);
        for &(letter, count) in hands.iter().filter(|(c, _)| c.is_ascii_uppercase() == first) {
            let glyph = Glyph { letter, promoted: false };
            shogi_piece(
                &mut out,
                x,
                y,
                glyph,
                !at_bottom,
                options.style,
                &format!(r#" data-hand="{}""#, letter.to_ascii_uppercase()),
            )?;
            if count > 1 {
                let _ = write!(
                    out,
                    r##"<text class="count" x="{}" y="{}" font-size="13" fill="#1a1a1a">{count}</text>"##,
                    x + CELL / 2 - 4,
                    y + CELL / 2 - 4
                );
            }
            x += CELL + 6;
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_rank_count_is_a_typed_error() {
        let error = render(Variant::Xiangqi, "9/9 w", BoardOptions::default()).unwrap_err();
        assert_eq!(error, BoardError::Shape { expected: 10, found: 2 });
    }

    #[test]
    fn unknown_piece_is_a_typed_error() {
        let error =
            render(Variant::MiniShogi, "rbsgk/4p/5/P4/KGSBQ b - 1", BoardOptions::default()).unwrap_err();
        assert_eq!(error, BoardError::UnknownPiece('Q'));
    }

    #[test]
    fn unreadable_hands_are_a_typed_error() {
        let error =
            render(Variant::MiniShogi, "rbsgk/4p/5/P4/KGSBR b 2 1", BoardOptions::default()).unwrap_err();
        assert_eq!(error, BoardError::Hands("2".into()));
    }

    #[test]
    fn usi_squares_of_moves_and_drops() {
        assert_eq!(usi_move_squares("7g7f", 9), vec![(2, 6), (2, 5)]);
        assert_eq!(usi_move_squares("P*5e", 9), vec![(4, 4)]);
        assert_eq!(usi_move_squares("9z9a", 9), vec![(0, 0)]);
    }

    #[test]
    fn iccs_squares() {
        assert_eq!(xiangqi_move_squares("h2e2"), vec![(7, 7), (4, 7)]);
    }

    #[test]
    fn shogi_pieces_of_the_top_player_point_down() {
        let sfen = "rbsgk/4p/5/P4/KGSBR b - 1";
        let plain = render(Variant::MiniShogi, sfen, BoardOptions::default()).unwrap();
        assert!(plain.contains(r#"<g class="piece" data-square="5e"><path"#), "sente's king upright");
        assert!(
            plain.contains(r#"<g class="piece" data-square="1a" transform="rotate(180"#),
            "gote's king turned"
        );
        let flipped =
            render(Variant::MiniShogi, sfen, BoardOptions { flipped: true, ..Default::default() }).unwrap();
        assert!(flipped.contains(r#"<g class="piece" data-square="5e" transform="rotate(180"#));
        assert!(flipped.contains(r#"<g class="piece" data-square="1a"><path"#));
    }

    #[test]
    fn flipping_moves_the_first_players_king_to_the_top() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let plain = render(Variant::Xiangqi, fen, BoardOptions::default()).unwrap();
        let flipped =
            render(Variant::Xiangqi, fen, BoardOptions { flipped: true, ..Default::default() }).unwrap();
        assert!(plain.contains(r#"data-square="e0"><circle cx="190" cy="390""#));
        assert!(flipped.contains(r#"data-square="e0"><circle cx="190" cy="30""#));
    }
}
