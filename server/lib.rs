//! Tavoliere: the play server. `config` → `storage` (PostgreSQL) → `domain` (the
//! decisions) ← `http` (thin adapters); `startup` builds and runs it, `cli` is the binary.

pub mod analysis;
pub mod cli;
pub mod config;
pub mod domain;
pub mod http;
pub mod live;
pub mod mail;
pub mod startup;
pub mod storage;
pub mod tasks;
pub mod telemetry;
pub mod web;
