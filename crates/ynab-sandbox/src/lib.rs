//! A local server that speaks YNAB's API v1 over a plan held in memory: the invented demo plan,
//! used by `avenir-mcp --demo`, the tests and the benchmarks. It is never used by the server's logic.

pub mod body;
pub mod builder;
pub mod compute;
pub mod demo;
pub mod error;
pub mod faults;
pub mod heavy;
pub mod ids;
pub mod knowledge;
pub mod ledger;
pub mod planfile;
pub mod routes;
pub mod server;
pub mod state;
pub mod targets;

pub use server::{Sandbox, SandboxOptions};
pub use state::PlanState;
