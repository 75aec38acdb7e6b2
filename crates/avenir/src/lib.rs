//! The avenir-mcp server: its MCP surface, tools, plan data, pure logic and text rules.
//! The binary `avenir-mcp` only reads its command line and environment, then serves this.

// A write tool's `details` names its own answer type where `ConfirmedWrite` says only
// `impl Serialize`: the narrower signature is what a reader of the tool wants to see.
#![allow(refining_impl_trait_reachable)]

pub mod args;
pub mod charts;
pub mod config;
pub mod confirm;
pub mod confirmations;
// The conformance suite's fixtures: compiled into debug builds only (the tests' and the suite's
// build), served only when `AVENIR_MCP_CONFORMANCE_FIXTURES=1` (`config::Settings`).
#[cfg(any(test, debug_assertions))]
pub mod conformance;
pub mod context;
pub mod digest;
pub mod http_transport;
pub mod logic;
pub mod money;
pub mod months;
pub mod plan_store;
pub mod random;
pub mod server;
pub mod statement;
pub mod store;
pub mod sync;
pub mod text;
pub mod tool_error;
pub mod tools;

pub use config::Settings;
pub use context::Context;
pub use server::AvenirServer;
