//! The only code in the server that touches the disk (the YNAB layer keeps its token file and
//! pacing ledger): the JSON Lines journal of applied operations and its intents file.

pub mod journal;
