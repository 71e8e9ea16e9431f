//! The game page fitted to its variant and time control: the move field's examples, the
//! record formats and the claim button of each variant (issue 23 §1-3), and the live
//! game's page without JavaScript and its panel (issue 22).

use reqwest::StatusCode;

use crate::support::{attribute_after, element_text, Browser, TestApp};

/// `first` challenges `second_name` (in `second`'s browser) to `variant` with the form's
/// `time_control` fields, taking the first seat; `second` accepts → the game's path.
async fn game(
    first: &mut Browser,
    second: &mut Browser,
    second_name: &str,
    variant: &str,
    time_control: &[(&str, &str)],
) -> String {
    let mut fields = vec![("variant", variant), ("opponent", second_name), ("color", "first")];
    fields.extend_from_slice(time_control);
    let created = first.submit("/challenges/new", "/challenges", &fields).await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.body);
    let list = second.get("/challenges").await;
    let accept = attribute_after(&list.body, r#"<form method="post" action="/challenges/"#)
        .expect("an open challenge");
    let accepted = second.post(&format!("/challenges/{accept}"), &[("csrf", &list.csrf())]).await;
    assert_eq!(accepted.status, StatusCode::SEE_OTHER);
    accepted.location().to_owned()
}

const DAYS: [(&str, &str); 2] = [("tc_kind", "days-per-move"), ("days", "3")];

/// What the game page of a variant shows.
struct Case {
    variant: &'static str,
    /// An example the move field's hint gives.
    example: &'static str,
    /// Examples of other variants it must not give.
    foreign: &'static [&'static str],
    /// The record links' names.
    records: &'static [&'static str],
    /// The claim button's words, where there is one.
    claim: Option<&'static str>,
}

#[tokio::test]
async fn the_move_field_the_records_and_the_claim_fit_each_variant() {
    let app = TestApp::spawn().await;
    let (mut alice, mut bob) = (app.browser(), app.browser());
    alice.sign_up("alice").await;
    bob.sign_up("bob").await;
    let cases = [
        Case {
            variant: "xiangqi",
            example: "C2=5",
            foreign: &["7g7f", "P-7f"],
            records: &["PGN (ICCS)", "PGN (WXF)"],
            claim: None,
        },
        Case {
            variant: "shogi",
            example: "P-7f",
            foreign: &["h2e2", "C2=5"],
            records: &["KIF", "CSA"],
            claim: Some("Ask for the impasse count"),
        },
        Case {
            variant: "minishogi",
            example: "5d5c",
            foreign: &["h2e2", "7g7f"],
            records: &["AISE"],
            claim: None,
        },
        Case {
            variant: "flickering",
            example: "e2e4, g1f3",
            foreign: &["h2e2", "7g7f"],
            records: &["PGN (Flickering chess series)"],
            claim: Some("Claim a draw"),
        },
    ];
    for Case { variant, example, foreign, records, claim } in cases {
        let path = game(&mut alice, &mut bob, "bob", variant, &DAYS).await;
        let page = alice.get(&path).await;
        let hint = element_text(&page.body, "move-hint");
        assert!(hint.contains(example), "{variant}: {hint}");
        for other in foreign {
            assert!(!hint.contains(other), "{variant}'s hint gives another game's move {other}: {hint}");
        }
        for record in records {
            assert!(page.body.contains(&format!(">{record}</a>")), "{variant} names its record {record}");
        }
        assert!(!page.body.contains("record.record"), "{variant}: a catalogue key shown");
        // Both players see the claim (the impasse count is anybody's, on any turn), with
        // what it claims.
        for body in [page.body, bob.get(&path).await.body] {
            match claim {
                Some(words) => {
                    assert!(element_text(&body, "claim").contains(words), "{variant}'s claim");
                    let help = attribute_after(&body, r#"id="claim" title=""#).unwrap_or_default();
                    assert!(!help.is_empty(), "{variant}: the claim says what it claims");
                }
                None => assert!(!body.contains(r#"id="claim""#), "{variant} has nothing to claim"),
            }
        }
    }
    // In the reader's language.
    alice.language = Some("it");
    let path = game(&mut alice, &mut bob, "bob", "flickering", &DAYS).await;
    let page = alice.get(&path).await;
    assert!(element_text(&page.body, "move-hint").starts_with("Una serie intera"));
    assert!(page.body.contains(">PGN (serie degli scacchi lampeggianti)</a>"));
    assert!(element_text(&page.body, "claim").contains("Reclama la patta"));
}

#[tokio::test]
async fn a_live_game_page_shows_its_clocks_and_works_without_javascript() {
    let app = TestApp::spawn().await;
    let (mut alice, mut bob) = (app.browser(), app.browser());
    alice.sign_up("alice").await;
    bob.sign_up("bob").await;
    // A live control out of its limits is refused by the field.
    let refused = alice
        .submit(
            "/challenges/new",
            "/challenges",
            &[
                ("variant", "xiangqi"),
                ("tc_kind", "live-fischer"),
                ("base_minutes", "0"),
                ("increment_seconds", "2"),
            ],
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.body.contains(r#"id="time-control-error""#));

    let fischer = [("tc_kind", "live-fischer"), ("base_minutes", "5"), ("increment_seconds", "5")];
    let path = game(&mut alice, &mut bob, "bob", "xiangqi", &fischer).await;
    let page = alice.get(&path).await;
    assert!(page.body.contains(r#"data-live="true""#), "live mode");
    assert!(
        element_text(&page.body, "live-needs-js").contains("need JavaScript"),
        "the note without JavaScript"
    );
    assert!(page.body.contains("live 5 min + 5 s"));
    let clock = attribute_after(&page.body, r#"data-live-clock="1" data-remaining-ms=""#).unwrap();
    assert_eq!(clock, "300000", "black's clock waits at 5 minutes");
    assert!(page.body.contains(r#"data-remaining-ms="300000">5:00</span>"#), "min:sec: {}", page.body);
    assert_eq!(element_text(&page.body, "status"), "Your move");
    assert_eq!(element_text(&bob.get(&path).await.body, "status"), "alice to move");

    // Without JavaScript: the form, then a reload shows the move.
    let ply = attribute_after(&page.body, r#"name="ply" value=""#).unwrap();
    let moved =
        alice.post(&format!("{path}/move"), &[("csrf", &page.csrf()), ("move", "h2e2"), ("ply", &ply)]).await;
    assert_eq!(moved.status, StatusCode::SEE_OTHER);
    let after = bob.get(&path).await;
    assert!(after.body.contains(r#"id="move-form""#) && after.body.contains("C2=5"));

    // The panel live mode swaps in: the same element #game, for this viewer.
    let panel = bob.get(&format!("{path}/panel")).await;
    assert_eq!(panel.status, StatusCode::OK);
    assert!(panel.body.starts_with(r#"<div class="game" id="game""#), "{}", panel.body);
    assert!(!panel.body.contains("<html") && !panel.body.contains("<script"));
    assert!(panel.body.contains(r#"id="board""#) && panel.body.contains(r#"data-square="e2""#));
    assert!(panel.body.contains(r#"name="move""#) && panel.body.contains(r#"data-flipped="true""#));
    let watcher = app.browser().get(&format!("{path}/panel")).await;
    assert!(!watcher.body.contains(r#"name="move""#) && !watcher.body.contains(r#"id="resign""#));
    assert_eq!(app.browser().get("/games/999999/panel").await.status, StatusCode::NOT_FOUND);

    // Abort until both sides have moved (issue 37 §5), then only resign.
    assert!(page.body.contains(r#"id="abort""#) && after.body.contains(r#"id="abort""#), "abort offered");
    let ply = attribute_after(&after.body, r#"name="ply" value=""#).unwrap();
    let replied =
        bob.post(&format!("{path}/move"), &[("csrf", &after.csrf()), ("move", "h9g7"), ("ply", &ply)]).await;
    assert_eq!(replied.status, StatusCode::SEE_OTHER);
    let both = alice.get(&path).await;
    assert!(!both.body.contains(r#"id="abort""#) && both.body.contains(r#"id="resign""#), "no abort now");

    // Byoyomi: the main time and the periods.
    let byoyomi =
        [("tc_kind", "byoyomi"), ("base_minutes", "0.5"), ("period_seconds", "10"), ("periods", "2")];
    let path = game(&mut alice, &mut bob, "bob", "shogi", &byoyomi).await;
    let page = bob.get(&path).await;
    assert!(page.body.contains(">0:30 + 2×10s</span>"), "{}", page.body);
    assert!(page.body.contains(r#"data-period-ms="10000" data-periods="2""#));
}

/// The file name a download's `Content-Disposition` gives.
fn file_name(page: &crate::support::Page) -> String {
    let disposition = page.headers["content-disposition"].to_str().unwrap();
    attribute_after(disposition, "filename=\"").unwrap_or_default()
}

#[tokio::test]
async fn every_record_link_offered_downloads_in_every_variant_and_no_other_format_is_served() {
    let app = TestApp::spawn().await;
    let (mut alice, mut bob) = (app.browser(), app.browser());
    alice.sign_up("alice").await;
    bob.sign_up("bob").await;
    let expected = |format: &str, variant: &str, id: &str| match format {
        "pgn-iccs" | "pgn-wxf" | "pgn-fix" | "pgn-chinese" => format!("tavoliere-{id}-{}.pgn", &format[4..]),
        "aise" => format!("tavoliere-{id}-aise.txt"),
        "record" if variant == "flickering" => format!("tavoliere-{id}.pgn"),
        "record" => format!("tavoliere-{id}.txt"),
        other => format!("tavoliere-{id}.{other}"),
    };
    let mut paths = Vec::new();
    for (variant, first_move) in
        [("xiangqi", "h2e2"), ("shogi", "7g7f"), ("minishogi", "5d5c"), ("flickering", "e2e4")]
    {
        let path = game(&mut alice, &mut bob, "bob", variant, &DAYS).await;
        let page = alice.get(&path).await;
        let ply = attribute_after(&page.body, r#"name="ply" value=""#).unwrap();
        let moved = alice
            .post(&format!("{path}/move"), &[("csrf", &page.csrf()), ("move", first_move), ("ply", &ply)])
            .await;
        assert_eq!(moved.status, StatusCode::SEE_OTHER, "{variant}: {}", moved.body);
        paths.push((variant, path));
    }
    // The Seven Kingdoms, three seats: an open challenge, two players take the seats.
    let mut carol = app.browser();
    carol.sign_up("carol").await;
    let fields = [
        ("variant", "seven-kingdoms"),
        ("seats", "3"),
        ("color", "first"),
        ("tc_kind", "days-per-move"),
        ("days", "3"),
    ];
    assert_eq!(alice.submit("/challenges/new", "/challenges", &fields).await.status, StatusCode::SEE_OTHER);
    let mut kingdoms = String::new();
    for browser in [&mut bob, &mut carol] {
        let list = browser.get("/challenges").await;
        let accept = attribute_after(&list.body, r#"<form method="post" action="/challenges/"#)
            .expect("the challenge");
        kingdoms = browser
            .post(&format!("/challenges/{accept}"), &[("csrf", &list.csrf())])
            .await
            .location()
            .to_owned();
    }
    assert!(kingdoms.starts_with("/games/"), "{kingdoms}");
    paths.push(("seven-kingdoms", kingdoms));

    for (variant, path) in &paths {
        let id = path.trim_start_matches("/games/");
        let page = alice.get(path).await;
        let marker = format!(r#"<a href="{path}/record/"#);
        let formats: Vec<String> = page
            .body
            .match_indices(&marker)
            .map(|(at, _)| page.body[at + marker.len()..].split('"').next().unwrap().to_owned())
            .collect();
        assert!(!formats.is_empty(), "{variant} offers records");
        let mut names = std::collections::HashSet::new();
        for format in &formats {
            let record = alice.get(&format!("{path}/record/{format}")).await;
            assert_eq!(record.status, StatusCode::OK, "{variant} in {format}: {}", record.body);
            assert!(!record.body.trim().is_empty(), "{variant} in {format}");
            assert_eq!(file_name(&record), expected(format, variant, id), "{variant} in {format}");
            assert!(names.insert(file_name(&record)), "{variant}: one file name per format");
        }
        assert!(!page.body.contains("record.pgn"), "{variant}: a catalogue key shown");
        if *variant == "minishogi" {
            assert!(!formats.contains(&"csa".to_owned()), "CSA has no MiniShogi board");
        }
        if *variant == "xiangqi" {
            assert_eq!(formats, ["pgn-iccs", "pgn-wxf", "pgn-fix", "pgn-chinese"]);
            assert!(page.body.contains(">PGN (FIX)</a>") && page.body.contains(">PGN (Chinese)</a>"));
        }
    }
    // A format the variant cannot be written in, an unknown one, an unknown game: 404 in
    // the one error shape, never 500.
    let minishogi = &paths[2].1;
    for path in [
        format!("{minishogi}/record/csa"),
        format!("{minishogi}/record/nonsense"),
        "/games/999999/record/kif".to_owned(),
    ] {
        let answer = alice.get(&path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        let errors: serde_json::Value = serde_json::from_str(&answer.body).expect("the error shape");
        assert_eq!(errors["errors"][0]["code"], "not-found", "{path}: {}", answer.body);
        assert!(errors["errors"][0]["detail"].as_str().is_some_and(|d| !d.is_empty()));
    }
}
