//! A SQLite file (WAL, a bounded busy timeout), on tokio's blocking pool: one connection per `Db`
//! handle for what writes, and a few read-only connections for what only reads (`SELECT`), so
//! that a long write — this process's or another's — never holds up a token lookup (WAL lets
//! readers read beside a writer). Several processes may share the file: SQLite's own locks
//! order their writes, and every transaction that writes begins `IMMEDIATE`.

use super::error::{DbError, SqlError};
use super::schema::{MIGRATIONS, SCHEMA_VERSION, now};
use super::sql::{Sql, Statement, Value};
use async_trait::async_trait;
use rusqlite::{Connection, TransactionBehavior, params_from_iter, types::ValueRef};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Read-only connections kept open for reuse (more are opened while all are busy).
const READERS_KEPT: usize = 4;

/// The file, this handle's writing connection and its idle readers.
#[derive(Clone, Debug)]
pub(crate) struct SqliteDb {
    path: Arc<PathBuf>,
    conn: Arc<Mutex<Connection>>,
    readers: Arc<Mutex<Vec<Connection>>>,
    /// How long a statement waits for another connection's write to finish, before it fails
    /// (and the request is answered 503).
    busy: Duration,
}

/// A statement that only reads: run on a reader.
fn reads_only(sql: &str) -> bool {
    sql.trim_start()
        .get(..6)
        .is_some_and(|word| word.eq_ignore_ascii_case("select"))
}

fn open_reader(path: &Path, busy: Duration) -> Result<Connection, SqlError> {
    use rusqlite::OpenFlags;
    let fail = |e| SqlError::lite("Could not open a reader of the database", path, e);
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(fail)?;
    conn.busy_timeout(busy).map_err(fail)?;
    Ok(conn)
}

/// PostgreSQL's `$1` placeholders as SQLite's `?1` (no SQL here has a literal `$`).
fn placeholders(sql: &str) -> String {
    sql.replace('$', "?")
}

fn to_lite(values: Vec<Value>) -> Vec<rusqlite::types::Value> {
    use rusqlite::types::Value as L;
    values
        .into_iter()
        .map(|v| match v {
            Value::Null => L::Null,
            Value::Int(i) => L::Integer(i),
            Value::Text(t) => L::Text(t),
            Value::Bytes(b) => L::Blob(b),
            Value::Bool(b) => L::Integer(b.into()),
        })
        .collect()
}

fn from_lite(value: ValueRef<'_>) -> Value {
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        // No column is REAL: read as text so that a stray one says so where it is used.
        ValueRef::Real(r) => Value::Text(r.to_string()),
        ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Value::Bytes(b.to_vec()),
    }
}

/// Make the file readable by its owner only, before SQLite opens it (its `-wal` and `-shm` files
/// take the same mode).
fn create_private(path: &Path) -> Result<(), DbError> {
    use std::os::unix::fs::OpenOptionsExt;
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        // a directory it makes is the owner's only, as the state directory of the local server
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(parent)
            .map_err(|source| DbError::Directory {
                path: parent.to_path_buf(),
                source,
            })?;
    }
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(path)
        .map(drop)
        .map_err(|source| DbError::File {
            path: path.to_path_buf(),
            source,
        })
}

fn open_blocking(path: &Path, busy: Duration) -> Result<Connection, DbError> {
    create_private(path)?;
    let fail = |what: &'static str, e: rusqlite::Error| DbError::Sql(SqlError::lite(what, path, e));
    let mut conn = Connection::open(path).map_err(|e| fail("Could not open the database", e))?;
    conn.busy_timeout(busy)
        .map_err(|e| fail("Could not set the busy timeout", e))?;
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(|e| fail("Could not switch the database to WAL", e))?;
    conn.pragma_update(None, "synchronous", "NORMAL")
        .map_err(|e| fail("Could not set synchronous", e))?;
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| fail("Could not begin the migration", e))?;
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, \
         applied_at INTEGER NOT NULL)",
    )
    .map_err(|e| fail("Could not make the schema_migrations table", e))?;
    let current: i64 = tx
        .query_row(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
            [],
            |r| r.get(0),
        )
        .map_err(|e| fail("Could not read the schema version", e))?;
    if current > SCHEMA_VERSION {
        return Err(DbError::NewerSchema {
            found: current,
            known: SCHEMA_VERSION,
        });
    }
    for (version, _, sql) in MIGRATIONS.iter().filter(|(v, _, _)| *v > current) {
        tx.execute_batch(sql)
            .map_err(|e| SqlError::lite(format!("Migration {version} failed"), path, e))?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_at) VALUES (?1, ?2)",
            rusqlite::params![version, now()],
        )
        .map_err(|e| {
            SqlError::lite(
                format!("Migration {version} could not be recorded"),
                path,
                e,
            )
        })?;
    }
    tx.commit()
        .map_err(|e| fail("Could not commit the migrations", e))?;
    Ok(conn)
}

impl SqliteDb {
    pub(crate) async fn open(path: PathBuf, busy: Duration) -> Result<SqliteDb, DbError> {
        let opened = path.clone();
        let conn = tokio::task::spawn_blocking(move || open_blocking(&opened, busy))
            .await
            .map_err(DbError::Stopped)??;
        Ok(SqliteDb {
            path: Arc::new(path),
            conn: Arc::new(Mutex::new(conn)),
            readers: Arc::new(Mutex::new(Vec::new())),
            busy,
        })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Run `f` on this handle's connection, on the calling thread (a blocking one).
    pub(crate) fn blocking<T>(
        &self,
        f: impl FnOnce(&mut Connection, &Path) -> Result<T, SqlError>,
    ) -> Result<T, SqlError> {
        let mut conn = self.conn.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut conn, &self.path)
    }

    /// Run the read-only `sql` on an idle reader (or a new one), on the calling thread.
    fn read(&self, sql: &str, values: Vec<Value>) -> Result<Vec<Vec<Value>>, SqlError> {
        let idle = self
            .readers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let conn = match idle {
            Some(conn) => conn,
            None => open_reader(&self.path, self.busy)?,
        };
        let rows = query_blocking(&conn, &self.path, sql, values);
        let mut readers = self.readers.lock().unwrap_or_else(PoisonError::into_inner);
        if readers.len() < READERS_KEPT {
            readers.push(conn);
        }
        rows
    }

    /// Run `f` on this handle's connection, on tokio's blocking pool.
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection, &Path) -> Result<T, SqlError> + Send + 'static,
    ) -> Result<T, SqlError> {
        let this = self.clone();
        tokio::task::spawn_blocking(move || this.blocking(f))
            .await
            .map_err(SqlError::TaskStopped)?
    }

    /// The ledger's read-change-write in one `IMMEDIATE` transaction; `change` is called once.
    pub(crate) fn update_ledger(
        &self,
        key: &str,
        change: &mut dyn FnMut(&str) -> String,
    ) -> Result<(), SqlError> {
        self.blocking(|conn, path| {
            let fail =
                |e: rusqlite::Error| SqlError::lite("A pacing ledger update failed", path, e);
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(fail)?;
            let text: Option<String> = tx
                .query_row(
                    "SELECT text FROM pacing_ledgers WHERE key = ?1",
                    [key],
                    |r| r.get(0),
                )
                .map(Some)
                .or_else(|e| match e {
                    rusqlite::Error::QueryReturnedNoRows => Ok(None),
                    e => Err(e),
                })
                .map_err(fail)?;
            let changed = change(text.as_deref().unwrap_or(""));
            tx.execute(
                "INSERT INTO pacing_ledgers (key, text) VALUES (?1, ?2) \
                 ON CONFLICT (key) DO UPDATE SET text = excluded.text",
                [key, changed.as_str()],
            )
            .map_err(fail)?;
            tx.commit().map_err(fail)
        })
    }
}

fn query_blocking(
    conn: &Connection,
    path: &Path,
    sql: &str,
    values: Vec<Value>,
) -> Result<Vec<Vec<Value>>, SqlError> {
    let fail = |e: rusqlite::Error| SqlError::lite("A database query failed", path, e);
    let mut statement = conn.prepare_cached(&placeholders(sql)).map_err(fail)?;
    let width = statement.column_count();
    let mut rows = statement
        .query(params_from_iter(to_lite(values)))
        .map_err(fail)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(fail)? {
        let mut values = Vec::with_capacity(width);
        for i in 0..width {
            values.push(from_lite(row.get_ref(i).map_err(fail)?));
        }
        out.push(values);
    }
    Ok(out)
}

fn execute_all_blocking(
    conn: &mut Connection,
    path: &Path,
    statements: Vec<Statement>,
) -> Result<Vec<u64>, SqlError> {
    let fail = |e: rusqlite::Error| SqlError::lite("A database update failed", path, e);
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(fail)?;
    let mut counts = Vec::with_capacity(statements.len());
    for (sql, values) in statements {
        let mut statement = tx.prepare_cached(&placeholders(sql)).map_err(fail)?;
        let changed = statement
            .execute(params_from_iter(to_lite(values)))
            .map_err(fail)?;
        counts.push(changed as u64);
    }
    tx.commit().map_err(fail)?;
    Ok(counts)
}

#[async_trait]
impl Sql for SqliteDb {
    async fn query(&self, sql: &str, values: Vec<Value>) -> Result<Vec<Vec<Value>>, SqlError> {
        let sql = sql.to_owned();
        if reads_only(&sql) {
            let this = self.clone();
            return tokio::task::spawn_blocking(move || this.read(&sql, values))
                .await
                .map_err(SqlError::TaskStopped)?;
        }
        self.run(move |conn, path| query_blocking(conn, path, &sql, values))
            .await
    }

    async fn execute_all(&self, statements: Vec<Statement>) -> Result<Vec<u64>, SqlError> {
        self.run(move |conn, path| execute_all_blocking(conn, path, statements))
            .await
    }
}

/// The blocking forms, for the shared store (already on a blocking thread).
impl SqliteDb {
    pub(crate) fn query_now(
        &self,
        sql: &str,
        values: Vec<Value>,
    ) -> Result<Vec<Vec<Value>>, SqlError> {
        if reads_only(sql) {
            return self.read(sql, values);
        }
        self.blocking(|conn, path| query_blocking(conn, path, sql, values))
    }

    pub(crate) fn execute_all_now(&self, statements: Vec<Statement>) -> Result<Vec<u64>, SqlError> {
        self.blocking(|conn, path| execute_all_blocking(conn, path, statements))
    }
}
