//! What the hosted mode's logs leave out. Its own lines never hold a confirmation code, plan
//! data (amounts, payees, memos) or a session id, at any level; each write leaves one audit line
//! at INFO (`avenir::audit`: who — a tag of the person, not their id —, what kind, the operation
//! id). The libraries underneath are quieter than the rest, since their lines can hold what ours
//! leave out:
//!
//! - rmcp, never: at DEBUG it writes whole requests and answers (plans, codes), at INFO the id
//!   of every session it makes;
//! - tokio-postgres, WARN at most: at DEBUG it writes each statement's parameters (journal lines,
//!   sealed grants).
//!
//! `avenir-mcp serve` applies [`QUIETER`] over the level of `AVENIR_MCP_LOG_LEVEL`.

use tracing::level_filters::LevelFilter;

/// Targets logged at most at the given level, whatever the level asked for.
pub const QUIETER: &[(&str, LevelFilter)] = &[
    ("rmcp", LevelFilter::OFF),
    ("tokio_postgres", LevelFilter::WARN),
];
