//! The integration tests of this crate, one binary: the sandbox's endpoints, deltas, rules and
//! OAuth. Each module is one file of `tests/`; a new test file is one more `mod` line here.

mod aliases;
mod cache;
mod common;
mod control;
mod deltas;
mod endpoints;
mod errors;
mod oauth;
mod openapi;
mod scheduled_rules;
