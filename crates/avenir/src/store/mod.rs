//! The only code in the server that touches the disk (the YNAB layer keeps its token file and
//! pacing ledger): the JSON Lines journal of applied operations and its intents file, and the
//! opt-in plan cache (`AVENIR_MCP_CACHE=1`).

pub mod journal;
pub mod plan_cache;
pub mod shared;
