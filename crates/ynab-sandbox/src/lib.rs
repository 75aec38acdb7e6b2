//! A local server that speaks YNAB's API v1 over a plan held in memory: the invented demo plan,
//! used by `avenir-mcp --demo`, the tests and the benchmarks. It is never used by the server's logic.
//!
//! # What it serves
//!
//! Every plan-scoped operation of `docs/contract/server.md` §10.3 except money movements, under
//! `/v1/plans/…` and the legacy `/v1/budgets/…` (whose plan-level members keep the old names
//! `budgets`, `budget`, `default_budget`): the plan list and export (with deltas), settings,
//! accounts (list, one, create), categories and groups (list, one, create, update; a month's
//! category and its assigned amount), months, payees (list, one, create, rename) and their (always
//! empty) locations, transactions (lists by plan, account, category, payee and month; one; create,
//! PUT, bulk PATCH, delete, import) and scheduled transactions (list, one, create, PUT, delete).
//! Money movements are not recorded, so their routes answer 404.1 like any unknown route.
//!
//! # Where the rules are written
//!
//! The sandbox follows YNAB's documented behaviour. Where YNAB's behaviour is undocumented, the
//! rule the sandbox follows is written in the module that applies it, marked *chosen*:
//! - derived figures (balances, carry-over, Ready to Assign, targets, Age of Money): [`compute`];
//!   computed once per `server_knowledge` and shared by the reads at it: [`derived`];
//! - `server_knowledge`, what counts as a change, and deltas: [`knowledge`];
//! - transaction writes (payees from names, import ids, transfers and their mirrors, splits):
//!   [`ledger`]; category targets: [`targets`];
//! - request bodies, limits and error details: [`body`] and [`error`];
//! - each area's endpoints (filters, hybrid rows, defaults, what may not change): the modules of
//!   [`routes`]. One known difference: transaction lists do not default `since_date` to one year
//!   ago as YNAB 1.85+ does ([`routes::transactions`]).
//! - OAuth (users who see some plans, apps, codes, tokens, scopes, a clock): [`oauth`].

pub mod body;
pub mod builder;
pub mod compute;
pub mod demo;
pub mod derived;
pub mod error;
pub mod faults;
pub mod heavy;
pub mod ids;
pub mod knowledge;
pub mod ledger;
pub mod oauth;
pub mod planfile;
pub mod routes;
pub mod server;
pub mod state;
pub mod targets;

pub use server::{Sandbox, SandboxOptions};
pub use state::PlanState;
