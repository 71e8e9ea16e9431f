//! Conditional moves clicked on the board in Chromium (#17 §3): the waiting player clicks
//! the opponent's move and the reply, the form's field fills, the line is stored, and the
//! opponent's matching move brings the reply at once.

use std::time::Duration;

use fantoccini::Locator;

use crate::browser::{click, script_on, type_move, wait_for_text, Stage};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conditional_line_is_clicked_on_the_board_in_chromium() {
    let Some(stage) = Stage::open("conditional").await else { return };
    let alice = stage.player("alice", true).await;
    let bob = stage.player("bob", false).await;
    let game_url = stage.game(&alice, &bob, "bob", "xiangqi").await;
    type_move(&alice, &game_url, "h2e2", 1).await;

    // Bob's horse, then Alice's: the legal targets of each come from the server.
    script_on(&alice, &game_url).await;
    click(&alice, r#"g.piece[data-square="h9"]"#).await;
    click(&alice, r#"circle.target[data-target="g7"]"#).await;
    click(&alice, r#"g.piece[data-square="h0"]"#).await;
    click(&alice, r#"circle.target[data-target="g2"]"#).await;
    let field = alice.find(Locator::Css("#conditional-line")).await.unwrap();
    assert_eq!(field.prop("value").await.unwrap().as_deref(), Some("h9g7 h0g2"));
    click(&alice, "#conditional-add").await;
    alice
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("#conditional-lines"))
        .await
        .expect("the line listed");

    // Bob (JavaScript off) plays the move: Alice's reply is in the list at once.
    bob.goto(&game_url).await.unwrap();
    crate::browser::fill(&bob, "#move", "h9g7").await;
    click(&bob, "#play").await;
    wait_for_text(&bob, "#moves", "H2+3").await;
    stage.close(vec![alice, bob]).await;
}
