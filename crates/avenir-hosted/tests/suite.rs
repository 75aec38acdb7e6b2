//! The integration tests of this crate, one binary: the hosted mode: its database, its
//! authorization server and the whole flow. Each module is one file of `tests/`; a new test file is
//! one more `mod` line here.

mod bounded;
mod common;
mod confirm_pages;
mod db;
mod flood_oauth;
mod hosted_flow;
mod logs;
mod oauth;
mod postgres_tls;
mod storage;
mod support;
