//! Snapshots of the SVG boards, every variant in both piece styles: start positions,
//! Shogi and MiniShogi hands, a Flickering series, a Seven Kingdoms legend with a defeated
//! kingdom. Each board is an `insta` binary snapshot: the SVG itself in
//! `snapshots/<name>.snap.svg` beside its `.snap` metadata. After an intended change run
//! `cargo insta test -p tavoliere --lib -- web::snapshots` and `cargo insta review` (or
//! `INSTA_UPDATE=always cargo test -p tavoliere --lib web::snapshots`) and review the diff.

use tavoliere_rules::variant::{AnyGame, Variant};

use super::board::{render, BoardOptions, PieceStyle};

/// Compares `svg` with the snapshot `name`.
fn check(name: &str, svg: String) {
    insta::with_settings!({ prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_binary_snapshot!(&format!("{name}.svg"), svg.into_bytes());
    });
}

fn start(variant: Variant) -> String {
    AnyGame::new(variant, None).expect("start position").fen()
}

#[test]
fn xiangqi_start_position() {
    let svg = render(Variant::Xiangqi, &start(Variant::Xiangqi), BoardOptions::default()).unwrap();
    assert_eq!(svg.matches(r#"class="piece""#).count(), 32);
    assert!(svg.contains("帥") && svg.contains("將") && svg.contains(r#"class="palace""#));
    check("xiangqi-start", svg);
}

#[test]
fn xiangqi_start_position_western_flipped_with_last_move() {
    let options = BoardOptions { last_move: Some("h2e2"), flipped: true, style: PieceStyle::Western };
    let svg = render(Variant::Xiangqi, &start(Variant::Xiangqi), options).unwrap();
    assert_eq!(svg.matches(r#"class="last-move""#).count(), 2);
    assert!(!svg.contains("帥"));
    check("xiangqi-start-western-flipped", svg);
}

#[test]
fn shogi_start_position() {
    let svg = render(Variant::Shogi, &start(Variant::Shogi), BoardOptions::default()).unwrap();
    assert_eq!(svg.matches(r#"class="piece""#).count(), 40);
    assert!(svg.contains("玉") && svg.contains("王") && svg.contains("歩"));
    check("shogi-start", svg);
}

#[test]
fn minishogi_start_position() {
    let svg = render(Variant::MiniShogi, &start(Variant::MiniShogi), BoardOptions::default()).unwrap();
    assert_eq!(svg.matches(r#"class="piece""#).count(), 12);
    check("minishogi-start", svg);
}

#[test]
fn shogi_position_with_pieces_in_hand() {
    // After 1.P-7f 2.P-3d 3.Bx2b+ 4.Sx2b: bishops in both hands.
    let mut game = AnyGame::new(Variant::Shogi, None).unwrap();
    for usi in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
        game.play(usi).expect("legal move");
    }
    let options = BoardOptions { last_move: Some("3a2b"), ..Default::default() };
    let svg = render(Variant::Shogi, &game.fen(), options).unwrap();
    assert!(svg.contains(r#"data-hand="B""#));
    assert_eq!(svg.matches(r#"data-hand="B""#).count(), 2, "one bishop in each hand");
    check("shogi-hands", svg);
    let western =
        render(Variant::Shogi, &game.fen(), BoardOptions { style: PieceStyle::Western, ..options }).unwrap();
    check("shogi-hands-western", western);
}

#[test]
fn minishogi_after_a_capture_and_a_drop_western_from_gotes_side() {
    // 1. Rx1b+ is no promotion (the zone is rank a), the king takes back, then a pawn drop:
    // a rook in gote's hand, the last move a drop.
    let mut game = AnyGame::new(Variant::MiniShogi, None).unwrap();
    for usi in ["1e1b", "1a1b", "P*3c"] {
        game.play(usi).expect("legal move");
    }
    let options = BoardOptions { last_move: Some("P*3c"), flipped: true, style: PieceStyle::Western };
    let svg = render(Variant::MiniShogi, &game.fen(), options).unwrap();
    assert_eq!(svg.matches(r#"class="last-move""#).count(), 1, "a drop marks its target only");
    assert!(svg.contains(r#"data-hand="R""#) && !svg.contains("飛"));
    check("minishogi-drop-western-flipped", svg);
}

#[test]
fn every_variant_is_drawn_in_both_piece_styles() {
    for variant in Variant::ALL {
        let [traditional, western] = PieceStyle::ALL.map(|style| {
            render(variant, &start(variant), BoardOptions { style, ..Default::default() }).unwrap()
        });
        assert_ne!(traditional, western, "{variant}: the styles draw different pieces");
    }
}

#[test]
fn flickering_start_position() {
    let svg = render(Variant::Flickering, &start(Variant::Flickering), BoardOptions::default()).unwrap();
    assert_eq!(svg.matches(r#"class="piece""#).count(), 32);
    assert!(svg.contains("♔") && svg.contains("♚") && svg.contains("♟"));
    assert_eq!(svg.matches(r#"class="coord""#).count(), 16, "a..h and 1..8");
    check("flickering-start", svg);
}

#[test]
fn flickering_after_a_series_western_from_blacks_side() {
    // White's first turn is the series e4, Nf3 (`flickering-chess.md`); Black answers e5,
    // then White plays a one-move series.
    let mut game = AnyGame::new(Variant::Flickering, None).unwrap();
    let mut last = String::new();
    for series in ["e2e4,g1f3", "e7e5", "f1c4,d2d4"] {
        last = game.play(series).expect("legal series").canonical;
    }
    assert_eq!(last, "f1c4,d2d4");
    let options = BoardOptions { last_move: Some(&last), flipped: true, style: PieceStyle::Western };
    let svg = render(Variant::Flickering, &game.fen(), options).unwrap();
    assert_eq!(svg.matches(r#"class="last-move""#).count(), 4, "f1, c4, d2 and d4 of the series");
    assert!(!svg.contains("♔") && svg.contains(">K</text>"));
    check("flickering-series-western-flipped", svg);
    let traditional = render(
        Variant::Flickering,
        &game.fen(),
        BoardOptions { last_move: Some(&last), ..Default::default() },
    )
    .unwrap();
    check("flickering-series", traditional);
}

#[test]
fn seven_kingdoms_start_position() {
    let svg =
        render(Variant::SevenKingdoms, &start(Variant::SevenKingdoms), BoardOptions::default()).unwrap();
    assert_eq!(svg.matches(r#"<g class="piece "#).count(), 7 * 17);
    assert_eq!(svg.matches(r#"class="emperor""#).count(), 1);
    assert!(svg.contains("周") && svg.contains("行人") && svg.contains("騎"));
    assert!(svg.contains("To move: Qin 秦"));
    assert_eq!(svg.matches(r#"<g class="kingdom""#).count(), 7, "seven kingdoms in the legend");
    assert_eq!(svg.matches(r#"class="coord""#).count(), 38, "a..s and 1..19");
    check("seven-kingdoms-start", svg);
}

#[test]
fn seven_kingdoms_mid_game_with_a_defeated_kingdom() {
    let mut game = AnyGame::new(Variant::SevenKingdoms, None).unwrap();
    let mut last = String::new();
    for _ in 0..3 {
        let first = game.legal_moves()[0].clone();
        last = game.play(&first).expect("legal move").canonical;
    }
    // Wei has lost eleven pieces to Qin and left the board (`seven-kingdoms.md` "Defeat of
    // a kingdom and victory").
    let mut text: String =
        game.fen().lines().filter(|line| !line.starts_with("Wei:")).map(|line| format!("{line}\n")).collect();
    text.push_str("Qin record: captured 11, generals 0, value 19, lost 0\n");
    text.push_str("Wei record: captured 0, generals 0, value 0, lost 11, defeated pieces-lost by Qin\n");
    let options = BoardOptions { last_move: Some(&last), ..Default::default() };
    let svg = render(Variant::SevenKingdoms, &text, options).unwrap();
    assert_eq!(svg.matches(r#"class="last-move""#).count(), 2);
    assert_eq!(svg.matches(r#"class="piece kingdom-wei""#).count(), 0);
    assert!(svg.contains(r#"<g class="kingdom defeated" data-kingdom="Wei""#));
    assert!(svg.contains("captured 11, generals 0, value 19</text>"));
    assert!(svg.contains("out: 11 pieces lost, last to Qin"));
    assert!(svg.contains("To move: Qi 齊"));
    check("seven-kingdoms-mid-game", svg);
    let western =
        render(Variant::SevenKingdoms, &text, BoardOptions { style: PieceStyle::Western, ..options })
            .unwrap();
    assert!(!western.contains("騎") && western.contains(">H</text>"));
    check("seven-kingdoms-mid-game-western", western);
}
