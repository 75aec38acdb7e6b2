//! avenir's [`SharedStore`] and ynab's [`LedgerStore`] on the database. Every method blocks: on
//! PostgreSQL it waits with `Handle::block_on` on the runtime the [`Db`] was opened in, which
//! panics on an async worker, so callers use tokio's blocking pool (`spawn_blocking`), as avenir
//! and the pacer do.

use super::error::{SqlError, StateError};
use super::handle::{Backend, Db};
use super::sql::{self, Statement, Value};
use avenir::store::shared::{CodeEntry, HeldLock, PageRow, SharedStore, StoreError, Stream};
use std::path::PathBuf;
use ynab::pacing::LedgerStore;

fn stream_text(stream: Stream) -> &'static str {
    match stream {
        Stream::Journal => "journal",
        Stream::Intents => "intents",
    }
}

/// One person's shared state.
#[derive(Debug)]
pub(crate) struct DbShared {
    db: Db,
    person: String,
}

impl DbShared {
    pub(crate) fn new(db: Db, person: String) -> DbShared {
        DbShared { db, person }
    }

    fn query(&self, sql: &str, values: Vec<Value>) -> Result<Vec<Vec<Value>>, SqlError> {
        match &self.db.backend {
            Backend::Postgres(pg) => {
                self.db
                    .handle
                    .block_on(super::sql::Sql::query(pg.as_ref(), sql, values))
            }
            Backend::Sqlite(lite) => lite.query_now(sql, values),
        }
    }

    fn execute_all(&self, statements: Vec<Statement>) -> Result<Vec<u64>, SqlError> {
        match &self.db.backend {
            Backend::Postgres(pg) => self
                .db
                .handle
                .block_on(super::sql::Sql::execute_all(pg.as_ref(), statements)),
            Backend::Sqlite(lite) => lite.execute_all_now(statements),
        }
    }

    fn lock_name(&self) -> String {
        format!("avenir-undo:{}", self.person)
    }

    /// The undo lock: an advisory lock on PostgreSQL, an `flock` beside a SQLite file.
    fn take_undo_lock(&self, exclusive: bool) -> Result<Box<dyn HeldLock>, StateError> {
        match &self.db.backend {
            Backend::Postgres(pg) => {
                let key = super::postgres::advisory_key(&self.lock_name());
                let lock = self.db.handle.block_on(pg.advisory_lock(key, exclusive))?;
                Ok(Box::new(lock))
            }
            Backend::Sqlite(lite) => {
                use std::os::unix::fs::OpenOptionsExt;
                let path = lock_path(lite.path(), &self.lock_name());
                let file = std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(false)
                    .mode(0o600)
                    .open(&path)
                    .map_err(|source| StateError::LockFile {
                        path: path.clone(),
                        source,
                    })?;
                let locked = if exclusive {
                    file.lock()
                } else {
                    file.lock_shared()
                };
                locked.map_err(|source| StateError::Lock { path, source })?;
                Ok(Box::new(FileLock { _file: file }))
            }
        }
    }
}

/// An undo lock on SQLite: an `flock` on a file beside the database, released when the file is
/// closed (dropped) or its process ends.
#[derive(Debug)]
struct FileLock {
    _file: std::fs::File,
}

impl HeldLock for FileLock {}

/// The lock file of `person` beside the database `db_path`: `<db>.undo-<32 hex of SHA-256>`.
fn lock_path(db_path: &std::path::Path, lock_name: &str) -> PathBuf {
    let digest = hex::encode(avenir::digest::sha256(lock_name.as_bytes()));
    let mut name = db_path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".undo-{}", &digest[..32]));
    db_path.with_file_name(name)
}

impl SharedStore for DbShared {
    fn append(&self, stream: Stream, lines: &[String]) -> Result<(), StoreError> {
        if lines.is_empty() {
            return Ok(());
        }
        let mut statements: Vec<Statement> = Vec::with_capacity(lines.len() + 1);
        if let Backend::Postgres(_) = self.db.backend {
            // Appends to one person's stream follow one another (SQLite's IMMEDIATE
            // transactions already do).
            let key = super::postgres::advisory_key(&format!(
                "avenir-journal:{}:{}",
                self.person,
                stream_text(stream)
            ));
            statements.push(("SELECT pg_advisory_xact_lock($1)", vec![key.into()]));
        }
        for line in lines {
            statements.push((
                "INSERT INTO journal_lines (person_id, stream, seq, line) \
                 SELECT $1, $2, COALESCE(MAX(seq), 0) + 1, $3 FROM journal_lines \
                 WHERE person_id = $1 AND stream = $2",
                vec![
                    self.person.as_str().into(),
                    stream_text(stream).into(),
                    line.as_str().into(),
                ],
            ));
        }
        self.execute_all(statements)
            .map(drop)
            .map_err(StoreError::of)
    }

    fn lines(&self, stream: Stream) -> Result<Vec<String>, StoreError> {
        self.query(
            "SELECT line FROM journal_lines WHERE person_id = $1 AND stream = $2 ORDER BY seq",
            vec![self.person.as_str().into(), stream_text(stream).into()],
        )
        .and_then(|rows| rows.iter().map(|row| sql::text(row, 0)).collect())
        .map_err(StoreError::of)
    }

    fn undo_lock(&self, exclusive: bool) -> Result<Box<dyn HeldLock>, StoreError> {
        self.take_undo_lock(exclusive).map_err(StoreError::of)
    }

    fn insert_code(
        &self,
        code_digest: &str,
        entry: &CodeEntry,
        lifetime_s: i64,
    ) -> Result<(), StoreError> {
        self.execute_all(vec![
            (
                "DELETE FROM confirmation_codes WHERE person_id = $1 AND issued_at < $2",
                vec![
                    self.person.as_str().into(),
                    entry.issued_at.saturating_sub(lifetime_s).into(),
                ],
            ),
            (
                "INSERT INTO confirmation_codes (person_id, code_digest, fingerprint, \
                 call_digest, issued_at) VALUES ($1, $2, $3, $4, $5) \
                 ON CONFLICT (person_id, code_digest) DO UPDATE SET \
                 fingerprint = excluded.fingerprint, call_digest = excluded.call_digest, \
                 issued_at = excluded.issued_at",
                vec![
                    self.person.as_str().into(),
                    code_digest.into(),
                    entry.fingerprint.as_str().into(),
                    entry.call_digest.as_str().into(),
                    entry.issued_at.into(),
                ],
            ),
        ])
        .map(drop)
        .map_err(StoreError::of)
    }

    fn take_code(&self, code_digest: &str) -> Result<Option<CodeEntry>, StoreError> {
        let rows = self
            .query(
                "DELETE FROM confirmation_codes WHERE person_id = $1 AND code_digest = $2 \
             RETURNING fingerprint, call_digest, issued_at",
                vec![self.person.as_str().into(), code_digest.into()],
            )
            .map_err(StoreError::of)?;
        rows.first()
            .map(|row| {
                Ok::<_, SqlError>(CodeEntry {
                    fingerprint: sql::text(row, 0)?,
                    call_digest: sql::text(row, 1)?,
                    issued_at: sql::int(row, 2)?,
                })
            })
            .transpose()
            .map_err(StoreError::of)
    }

    fn spend_nonce(&self, nonce: &str, now: i64, lifetime_s: i64) -> Result<bool, StoreError> {
        let counts = self
            .execute_all(vec![
                (
                    "DELETE FROM spent_nonces WHERE spent_at < $1",
                    vec![now.saturating_sub(lifetime_s).into()],
                ),
                (
                    "INSERT INTO spent_nonces (nonce, spent_at) VALUES ($1, $2) \
                 ON CONFLICT (nonce) DO NOTHING",
                    vec![nonce.into(), now.into()],
                ),
            ])
            .map_err(StoreError::of)?;
        Ok(counts.get(1).is_some_and(|n| *n == 1))
    }

    fn open_page(&self, page: &PageRow, lifetime_s: i64) -> Result<(), StoreError> {
        self.execute_all(vec![
            // Everyone's expired pages go (a preview holds plan data), and this person's page
            // under the same key.
            (
                "DELETE FROM confirmation_pages WHERE opened_at < $1",
                vec![page.opened_at.saturating_sub(lifetime_s).into()],
            ),
            (
                "DELETE FROM confirmation_pages WHERE person_id = $1 AND page_key = $2",
                vec![self.person.as_str().into(), page.key.as_str().into()],
            ),
            (
                "INSERT INTO confirmation_pages (token, person_id, page_key, question, form, \
                 fingerprint, answer, opened_at) VALUES ($1, $2, $3, $4, $5, $6, NULL, $7)",
                vec![
                    page.token.as_str().into(),
                    self.person.as_str().into(),
                    page.key.as_str().into(),
                    page.question.as_str().into(),
                    page.form.as_str().into(),
                    page.fingerprint.as_str().into(),
                    page.opened_at.into(),
                ],
            ),
        ])
        .map(drop)
        .map_err(StoreError::of)
    }

    fn page(&self, key: &str) -> Result<Option<PageRow>, StoreError> {
        let rows = self
            .query(
                &format!(
                    "SELECT {} FROM confirmation_pages WHERE person_id = $1 AND page_key = $2",
                    super::pages::COLUMNS
                ),
                vec![self.person.as_str().into(), key.into()],
            )
            .map_err(StoreError::of)?;
        rows.first()
            .map(|row| super::pages::page_from(row))
            .transpose()
            .map_err(StoreError::of)
    }

    fn close_page(&self, key: &str) -> Result<(), StoreError> {
        self.execute_all(vec![(
            "DELETE FROM confirmation_pages WHERE person_id = $1 AND page_key = $2",
            vec![self.person.as_str().into(), key.into()],
        )])
        .map(drop)
        .map_err(StoreError::of)
    }
}

/// The pacing ledgers.
#[derive(Debug)]
pub(crate) struct DbLedger {
    db: Db,
}

impl DbLedger {
    pub(crate) fn new(db: Db) -> DbLedger {
        DbLedger { db }
    }
}

impl LedgerStore for DbLedger {
    fn update_text(
        &self,
        key: &str,
        change: &mut dyn FnMut(&str) -> String,
    ) -> Result<(), ynab::pacing::LedgerStoreError> {
        match &self.db.backend {
            Backend::Postgres(pg) => self.db.handle.block_on(pg.update_ledger(key, change)),
            Backend::Sqlite(lite) => lite.update_ledger(key, change),
        }
        .map_err(ynab::pacing::LedgerStoreError::of)
    }
}
