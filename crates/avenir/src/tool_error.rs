//! Why a tool answered with an error, as a value: an argument that broke a rule, YNAB's own
//! failure, the journal's, or a refusal sentence from logic. It becomes the sentence the agent reads (D24) only at
//! the edge, when a tool's run ends.

use crate::args::{ArgError, InvalidArgument};

/// Why a tool answered with an error: each becomes the sentence the agent reads (D24) only at
/// the edge, when a tool's run ends.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// An argument broke a rule; nothing was read or sent.
    #[error(transparent)]
    Argument(#[from] InvalidArgument),
    /// YNAB (or the way to it) failed.
    #[error(transparent)]
    Ynab(#[from] ynab::Error),
    /// The journal could not be read (E-U3 and the like name the file and line).
    #[error(transparent)]
    Journal(#[from] crate::store::journal::JournalError),
    /// A bank statement could not be read; the sentence names where and what to do.
    #[error(transparent)]
    Statement(#[from] crate::statement::StatementError),
    /// The plan's data rules the request out; the sentence says what to do.
    #[error("{0}")]
    Refused(String),
}

impl From<ArgError> for ToolError {
    fn from(error: ArgError) -> Self {
        ToolError::Argument(error.into())
    }
}

impl From<String> for ToolError {
    fn from(sentence: String) -> Self {
        ToolError::Refused(sentence)
    }
}

impl From<&str> for ToolError {
    fn from(sentence: &str) -> Self {
        ToolError::Refused(sentence.to_string())
    }
}
