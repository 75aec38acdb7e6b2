//! State that several server instances share (the hosted mode, `avenir-hosted`): one person's
//! journal and intents, their confirmation codes and pages, and the spent nonces of sealed
//! answer states.
//!
//! The local server keeps these in files and memory (`journal.rs`, `confirm/codes.rs`,
//! `confirm/answer_state.rs`); a hosted instance gives each person a [`SharedStore`] backed by
//! PostgreSQL or SQLite, so that a code issued by one instance is redeemed once by any, and two
//! undos of one operation never both revert it.
//!
//! Every method blocks: callers run them on tokio's blocking pool (the journal already does), and
//! an implementation may wait there on its database (`Handle::block_on`).

use std::fmt::Debug;

/// Why the shared store could not do what was asked: the database's own error, kept whole as the
/// source (callers say what they were doing; its text never holds a person's data).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StoreError(#[source] Box<dyn std::error::Error + Send + Sync>);

impl StoreError {
    /// The store's failure `error`.
    pub fn of(error: impl std::error::Error + Send + Sync + 'static) -> StoreError {
        StoreError(Box::new(error))
    }
}

/// Which of a person's two append-only logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stream {
    /// The journal's operation lines and undo markers (`journal.jsonl`'s lines).
    Journal,
    /// The intents and their settlements (`journal.jsonl.intents`' lines).
    Intents,
}

/// A confirmation code as stored: digests and the UTC second it was issued, never the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeEntry {
    /// The fingerprint of the subject the code confirms.
    pub fingerprint: String,
    /// SHA-256 hex of the call (tool and canonical arguments).
    pub call_digest: String,
    /// UTC seconds.
    pub issued_at: i64,
}

/// A lock held until dropped (see [`SharedStore::undo_lock`]).
pub trait HeldLock: Send + Sync + Debug {}

/// One person's shared state. Implementations are scoped to one person, except the nonces,
/// which are global (a nonce is random and spent once by anyone).
pub trait SharedStore: Send + Sync + Debug {
    /// Append `lines` (compact JSON, one object each) to `stream`, in order, in one transaction.
    fn append(&self, stream: Stream, lines: &[String]) -> Result<(), StoreError>;

    /// Every line of `stream`, in the order appended.
    fn lines(&self, stream: Stream) -> Result<Vec<String>, StoreError>;

    /// The undo lock (D5): shared (`exclusive == false`) for every write, exclusive for an undo,
    /// across every instance on the same database; waits until granted; released when the
    /// returned value is dropped (or its holder's connection dies).
    fn undo_lock(&self, exclusive: bool) -> Result<Box<dyn HeldLock>, StoreError>;

    /// Keep a code (by the SHA-256 hex of the code). Codes issued more than `lifetime_s` before
    /// `entry.issued_at` may be purged at the same time.
    fn insert_code(
        &self,
        code_digest: &str,
        entry: &CodeEntry,
        lifetime_s: i64,
    ) -> Result<(), StoreError>;

    /// Remove the code and return what it was issued for: atomically, so that of two instances
    /// presenting it at once, exactly one gets `Some`.
    fn take_code(&self, code_digest: &str) -> Result<Option<CodeEntry>, StoreError>;

    /// Spend `nonce` at `now` (UTC seconds): true the first time anywhere, false after. Nonces
    /// spent more than `lifetime_s` before `now` may be purged.
    fn spend_nonce(&self, nonce: &str, now: i64, lifetime_s: i64) -> Result<bool, StoreError>;

    /// Keep a confirmation page of this person's (`confirmations::pages::hosted`), replacing one
    /// kept under the same key. Anyone's pages opened more than `lifetime_s` before
    /// `page.opened_at` are removed at the same time (a preview holds plan data).
    fn open_page(&self, page: &PageRow, lifetime_s: i64) -> Result<(), StoreError>;

    /// The page kept under `key`, answered or not.
    fn page(&self, key: &str) -> Result<Option<PageRow>, StoreError>;

    /// Forget the page kept under `key`.
    fn close_page(&self, key: &str) -> Result<(), StoreError>;
}

/// A confirmation page as a hosted server keeps it. The server's page routes show it to its
/// owner's browser session only, and record the answer once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageRow {
    /// The page's path segment: 32 random bytes, base64url.
    pub token: String,
    /// Who asks for the answer: a sealed state's nonce, or the digest of a call.
    pub key: String,
    /// The preview, as the person reads it.
    pub question: String,
    /// The token the page's form carries back.
    pub form: String,
    /// The fingerprint of the subject the page shows.
    pub fingerprint: String,
    /// `None` until the person answers; then yes or no.
    pub answer: Option<bool>,
    /// UTC seconds.
    pub opened_at: i64,
}
