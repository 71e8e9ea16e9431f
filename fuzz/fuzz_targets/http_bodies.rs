//! The JSON request bodies of the REST API, read by the server's own `Json` extractor
//! (which answers a refusal in the one error shape). The first byte picks the request type;
//! the rest is the body. A refused body must answer a 4xx; a body that reads goes through
//! the checks the server makes before touching the database (a challenge's variant,
//! ruleset, handicap, start position, seats and time control; a preferences patch), and a
//! refusal there must be a 4xx too.
#![no_main]

use axum::body::Body;
use axum::extract::FromRequest;
use axum::http::{header, Request};
use libfuzzer_sys::fuzz_target;
use tavoliere::domain::challenges::NewChallenge;
use tavoliere::domain::preferences::{Preferences, PreferencesPatch};
use tavoliere::domain::rules_adapter;
use tavoliere::domain::tournaments::{NewSection, NewTournament, SectionPatch, TournamentPatch};
use tavoliere::domain::DomainError;
use tavoliere::http::accounts::Register;
use tavoliere::http::error::ApiError;
use tavoliere::http::extract::Json;
use tavoliere::http::games::{CheckRequest, MoveRequest};
use tavoliere::http::tokens::Credentials;
use tavoliere::http::tournaments::{DecisionBody, EntryRequest, ReasonBody, SeedRequest, UsernameBody};
use tavoliere::http::vacation::StartLeave;

/// Reads `body` as the server reads a JSON body of type `T`.
fn read<T: serde::de::DeserializeOwned>(body: &[u8]) -> Option<T> {
    let request = Request::builder()
        .method("POST")
        .uri("/api/fuzz")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_vec()))
        .expect("a valid request");
    match futures::executor::block_on(Json::<T>::from_request(request, &())) {
        Ok(Json(value)) => Some(value),
        Err(refusal) => {
            assert_client_error(refusal);
            None
        }
    }
}

fn assert_client_error(error: impl Into<ApiError>) {
    let error = error.into();
    assert!(error.status().is_client_error(), "{error:?}");
}

fn refused(error: DomainError) {
    assert_client_error(error);
}

/// The checks of `challenges::create` before the database: they decide 422 or go on.
fn check_challenge(new: NewChallenge) {
    let Ok(variant) = rules_adapter::parse_variant(&new.variant).map_err(refused) else { return };
    let (min, max) = variant.seat_range();
    let seats = new.seats.unwrap_or(max as i32);
    if !(min as i32..=max as i32).contains(&seats) {
        return;
    }
    let Ok(ruleset) = rules_adapter::ruleset_for(variant, new.ruleset.as_deref()).map_err(refused) else {
        return;
    };
    let start = new.start_position.as_deref().map(str::trim).filter(|s| !s.is_empty());
    let handicap = new.handicap.as_deref().filter(|h| !h.is_empty());
    if let Ok(game) = rules_adapter::new_game(variant, &ruleset, handicap, start, seats as usize) {
        tavoliere_fuzz::exercise(&game);
    }
    if let Ok(control) = new.time_control.validate().map_err(refused) {
        let initial = control.initial_ms();
        let _ = control.is_live();
        let _ = control.after_move(initial, 1);
        let _ = control.after_move(0, 200);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((selector, body)) = tavoliere_fuzz::split_selector(data) else { return };
    match selector % 16 {
        0 => {
            if let Some(new) = read::<NewChallenge>(body) {
                check_challenge(new);
            }
        }
        1 => {
            if let Some(patch) = read::<PreferencesPatch>(body) {
                let _ = Preferences::default().apply(&patch);
            }
        }
        2 => drop(read::<StartLeave>(body)),
        3 => drop(read::<MoveRequest>(body)),
        4 => drop(read::<CheckRequest>(body)),
        5 => drop(read::<Credentials>(body)),
        6 => drop(read::<Register>(body)),
        7 => drop(read::<NewTournament>(body)),
        8 => drop(read::<TournamentPatch>(body)),
        9 => drop(read::<UsernameBody>(body)),
        10 => drop(read::<NewSection>(body)),
        11 => drop(read::<SectionPatch>(body)),
        12 => drop(read::<EntryRequest>(body)),
        13 => drop(read::<SeedRequest>(body)),
        14 => drop(read::<ReasonBody>(body)),
        _ => drop(read::<DecisionBody>(body)),
    }
});
