//! Golden-file snapshots of the SVG boards: the three start positions and a Shogi position
//! with pieces in hand. `UPDATE_SNAPSHOTS=1 cargo test -p tavoliere --lib snapshots`
//! rewrites them after an intended change (review the diff).

use std::path::PathBuf;

use tavoliere_rules::variant::{AnyGame, Variant};

use super::board::{render, BoardOptions, PieceStyle};

fn check(name: &str, svg: &str) {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("server/web/snapshots").join(format!("{name}.svg"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, svg).expect("write snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing snapshot {}; run with UPDATE_SNAPSHOTS=1", path.display()));
    assert_eq!(svg, expected, "snapshot {name} differs; run with UPDATE_SNAPSHOTS=1 and review");
}

fn start(variant: Variant) -> String {
    AnyGame::new(variant, None).expect("start position").fen()
}

#[test]
fn xiangqi_start_position() {
    let svg = render(Variant::Xiangqi, &start(Variant::Xiangqi), BoardOptions::default()).unwrap();
    assert_eq!(svg.matches(r#"class="piece""#).count(), 32);
    assert!(svg.contains("帥") && svg.contains("將") && svg.contains(r#"class="palace""#));
    check("xiangqi-start", &svg);
}

#[test]
fn xiangqi_start_position_western_flipped_with_last_move() {
    let options = BoardOptions { last_move: Some("h2e2"), flipped: true, style: PieceStyle::Western };
    let svg = render(Variant::Xiangqi, &start(Variant::Xiangqi), options).unwrap();
    assert_eq!(svg.matches(r#"class="last-move""#).count(), 2);
    assert!(!svg.contains("帥"));
    check("xiangqi-start-western-flipped", &svg);
}

#[test]
fn shogi_start_position() {
    let svg = render(Variant::Shogi, &start(Variant::Shogi), BoardOptions::default()).unwrap();
    assert_eq!(svg.matches(r#"class="piece""#).count(), 40);
    assert!(svg.contains("玉") && svg.contains("王") && svg.contains("歩"));
    check("shogi-start", &svg);
}

#[test]
fn minishogi_start_position() {
    let svg = render(Variant::MiniShogi, &start(Variant::MiniShogi), BoardOptions::default()).unwrap();
    assert_eq!(svg.matches(r#"class="piece""#).count(), 12);
    check("minishogi-start", &svg);
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
    check("shogi-hands", &svg);
    let western =
        render(Variant::Shogi, &game.fen(), BoardOptions { style: PieceStyle::Western, ..options }).unwrap();
    check("shogi-hands-western", &western);
}
