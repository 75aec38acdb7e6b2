//! avenir-mcp's hosted mode (`avenir-mcp serve`): reachable over HTTPS through a reverse proxy,
//! each person signed in with YNAB's OAuth, and state that several instances share.
//!
//! - `config`: the settings a hosted server starts with (`HostedConfig`, `PublicUrl`).
//! - `oauth_store`: what the authorization server keeps, as an interface.
//! - `db`: that interface and avenir's shared state (journal, codes, nonces, pacing ledger) on
//!   PostgreSQL (`AVENIR_MCP_DATABASE_URL`) or a SQLite file, with migrations.
//! - `crypto`: YNAB's tokens sealed at rest (AES-GCM, `AVENIR_MCP_SECRET_KEY` or a key file).
//! - `oauth`: the authorization server for MCP clients (metadata, registration, authorize, token,
//!   revocation, delete), rate limited per client address.
//! - `sweeper`: the periodic deletion of what has expired (sign-ins, codes, tokens, unused
//!   clients, spent nonces).
//! - `limits`: what one instance holds at most and how long it waits; `sessions` (MCP sessions
//!   bound to their person, bounded), `contexts` (people's contexts kept in memory, bounded) and
//!   `throttle` (requests per person on `/mcp`) keep them.

pub mod config;
pub mod confirm_pages;
mod contexts;
pub mod crypto;
pub mod db;
pub mod limits;
pub mod logs;
pub mod oauth;
pub mod oauth_store;
pub mod people;
pub mod serve;
pub mod sessions;
pub mod start;
pub mod sweeper;
pub mod throttle;
