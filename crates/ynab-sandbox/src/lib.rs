//! A local server that speaks YNAB's API v1 over a plan held in memory: the invented demo plan,
//! used by `avenir-mcp --demo`, the tests and the benchmarks. It is never used by the server's logic.

pub mod builder;
pub mod compute;
pub mod demo;
pub mod ids;
pub mod server;
pub mod state;

pub use server::{Sandbox, SandboxOptions};
pub use state::PlanState;
