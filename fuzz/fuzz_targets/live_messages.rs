//! The WebSocket client messages of a live game (`server/live/protocol.rs`), read as the
//! socket reads them. A message that reads is answered as the socket answers it without a
//! database: a `ping` by a `pong` echoing its id (written and read back as JSON), a move by
//! playing its text in every variant; an unreadable one by an `error` message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavoliere::live::protocol::{ClientMessage, ServerMessage};
use tavoliere_rules::variant::{AnyGame, Variant};
use time::OffsetDateTime;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let answer = match serde_json::from_str::<ClientMessage>(text) {
        Ok(ClientMessage::Ping { id }) => {
            ServerMessage::Pong { id, server_time: OffsetDateTime::UNIX_EPOCH }.to_text()
        }
        Ok(ClientMessage::Move { text, ply }) => {
            for variant in Variant::ALL {
                let mut game = AnyGame::new(variant, None).expect("the standard start");
                if let Ok(played) = game.play(&text) {
                    assert!(!played.canonical.is_empty());
                    tavoliere_fuzz::exercise(&game);
                }
            }
            format!("{ply}")
        }
        Ok(other) => format!("{other:?}"),
        Err(e) => {
            ServerMessage::Error { code: "malformed", message: format!("unreadable message: {e}"), errors: None }
                .to_text()
        }
    };
    if answer.starts_with('{') {
        let _: serde_json::Value = serde_json::from_str(&answer).expect("the server's answer is JSON");
    }
});
