//! Tests of the HTML interface: every page route (status, key content, escaping of
//! user-supplied text, CSRF, security headers) against a real PostgreSQL, and the
//! real-browser end-to-end game (headless Chromium over WebDriver).

mod admin;
mod browser;
mod browser_conditional;
mod browser_game_page;
mod browser_home;
mod browser_tournaments;
mod conditional;
mod desk_pages;
mod game_page;
mod game_study;
mod home;
mod import;
mod live_kingdoms;
mod pages;
mod settings;
mod small_things;
mod support;
mod tournaments;
