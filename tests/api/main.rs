//! Integration tests of the server against a real PostgreSQL (one throwaway cluster per
//! run, a fresh database per test), through the REST API.

mod accounts;
mod admin;
mod anywhere;
mod archive;
mod challenges;
mod clocks;
mod collections;
mod concurrency;
mod cookies;
mod desk;
mod endings;
mod errors;
mod event_rules;
mod games;
mod imports;
mod instances;
mod live;
mod live_limits;
mod login_limits;
mod mail;
mod observability;
mod openapi;
mod operator;
mod outages;
mod preferences;
mod rated_events;
mod ratings;
mod rounds;
mod seats_and_series;
mod shutdown;
mod small_gaps;
mod support;
mod tournaments;
mod variants;
mod visitors;
