//! The JSON request bodies of the REST API, read by the server's own `Json` extractor
//! (which answers a refusal in the one error shape). The first byte picks the request type;
//! the rest is the body. A refused body must answer a 4xx; a body that reads goes through
//! the checks the server makes before touching the database (a challenge's variant,
//! ruleset, handicap, start position, seats and time control; a preferences patch), and a
//! refusal there must be a 4xx too.
//!
//! Text parameters too (issue 36 §6): the rest read as any JSON body, as a query string
//! and as a path parameter by the server's extractors must either be refused with a 4xx or
//! give text without NUL, the one character PostgreSQL text cannot hold.
#![no_main]

use axum::body::Body;
use std::collections::HashMap;

use axum::extract::{FromRequest, FromRequestParts};
use axum::http::{header, Request};
use libfuzzer_sys::fuzz_target;
use tavoliere::domain::challenges::NewChallenge;
use tavoliere::domain::preferences::{Preferences, PreferencesPatch};
use tavoliere::domain::rules_adapter;
use tavoliere::domain::tournaments::{NewSection, NewTournament, SectionPatch, TournamentPatch};
use tavoliere::domain::DomainError;
use tavoliere::http::accounts::Register;
use tavoliere::http::error::ApiError;
use tavoliere::http::extract::{Json, Path, Query};
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

/// Whether a JSON value holds NUL in a string or a key.
fn holds_nul(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::String(text) => text.contains('\0'),
        serde_json::Value::Array(items) => items.iter().any(holds_nul),
        serde_json::Value::Object(fields) => fields.iter().any(|(key, v)| key.contains('\0') || holds_nul(v)),
        _ => false,
    }
}

/// `raw` as a query string, then as a path parameter (`/fuzz/{name}`), read by the
/// server's extractors: refused with a 4xx, or text without NUL.
fn check_parameters(raw: &[u8]) {
    let Ok(raw) = std::str::from_utf8(raw) else { return };
    if let Ok(request) = Request::builder().uri(format!("/fuzz?{raw}")).body(()) {
        let (mut parts, ()) = request.into_parts();
        match futures::executor::block_on(Query::<HashMap<String, String>>::from_request_parts(&mut parts, &())) {
            Ok(Query(fields)) => {
                assert!(fields.iter().all(|(k, v)| !k.contains('\0') && !v.contains('\0')), "{raw:?}")
            }
            Err(refusal) => assert_client_error(refusal),
        }
    }
    let Ok(uri) = format!("/fuzz/{raw}").parse::<axum::http::Uri>() else { return };
    let router = axum::Router::new().route(
        "/fuzz/{name}",
        axum::routing::get(|Path(name): Path<String>| async move {
            assert!(!name.contains('\0'), "{name:?}");
        }),
    );
    let request = Request::builder().uri(uri).body(Body::empty()).expect("a valid request");
    let response = futures::executor::block_on(tower::ServiceExt::oneshot(router, request)).expect("infallible");
    assert!(response.status().is_success() || response.status().is_client_error(), "{raw:?}");
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
    match selector % 18 {
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
        15 => drop(read::<DecisionBody>(body)),
        16 => {
            if let Some(value) = read::<serde_json::Value>(body) {
                assert!(!holds_nul(&value), "{value}");
            }
        }
        _ => check_parameters(body),
    }
});
