//! Where the state is kept ([`DbConfig`]) and the handle on it ([`Db`]): which backend, the
//! runtime the blocking stores wait on, and the schema's version as the database records it.

use super::error::{DbError, SqlError};
use super::sql::{Sql, Value};
use super::{postgres, sqlite};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How long a request waits on the database at most, unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// Where the state is kept.
#[derive(Clone)]
pub enum DbConfig {
    /// A PostgreSQL URL (`postgres://user:password@host/db`, or with `?host=/run/postgresql`).
    Postgres(String),
    /// A SQLite file, made (mode 0600) when missing.
    Sqlite(PathBuf),
}

/// The environment variable naming the PostgreSQL database.
pub const DATABASE_URL_VAR: &str = "AVENIR_MCP_DATABASE_URL";

impl DbConfig {
    /// PostgreSQL when `AVENIR_MCP_DATABASE_URL` is set (and not empty), else the SQLite file
    /// `sqlite_file`.
    pub fn from_env(sqlite_file: PathBuf) -> DbConfig {
        Self::choose(std::env::var(DATABASE_URL_VAR).ok(), sqlite_file)
    }

    /// [`DbConfig::from_env`] on a given value of the variable.
    pub fn choose(database_url: Option<String>, sqlite_file: PathBuf) -> DbConfig {
        match database_url.filter(|url| !url.trim().is_empty()) {
            Some(url) => DbConfig::Postgres(url),
            None => DbConfig::Sqlite(sqlite_file),
        }
    }
}

impl std::fmt::Debug for DbConfig {
    // The URL may hold a password: never shown.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbConfig::Postgres(_) => f.write_str("Postgres(********)"),
            DbConfig::Sqlite(path) => f.debug_tuple("Sqlite").field(path).finish(),
        }
    }
}

/// The shared state, on one database; cheap to clone (clones share the connections).
#[derive(Clone, Debug)]
pub struct Db {
    pub(super) backend: Backend,
    /// The runtime [`Db::open`] ran in: the blocking stores wait on it.
    pub(super) handle: tokio::runtime::Handle,
}

#[derive(Clone, Debug)]
pub(super) enum Backend {
    Postgres(Arc<postgres::PgDb>),
    Sqlite(sqlite::SqliteDb),
}

impl Db {
    /// Connect and apply the migrations this binary has and the database has not; every wait
    /// on the database bounded by [`DEFAULT_TIMEOUT`].
    pub async fn open(config: &DbConfig) -> Result<Db, DbError> {
        Db::open_within(config, DEFAULT_TIMEOUT).await
    }

    /// The same, every wait on the database bounded by `timeout` (connecting, a statement, a
    /// lock held by another connection): past it, the operation fails rather than wait on.
    pub async fn open_within(config: &DbConfig, timeout: Duration) -> Result<Db, DbError> {
        let backend = match config {
            DbConfig::Postgres(url) => {
                Backend::Postgres(Arc::new(postgres::PgDb::open(url, timeout).await?))
            }
            DbConfig::Sqlite(path) => {
                Backend::Sqlite(sqlite::SqliteDb::open(path.clone(), timeout).await?)
            }
        };
        Ok(Db {
            backend,
            handle: tokio::runtime::Handle::current(),
        })
    }

    /// The schema version the database is at.
    pub async fn schema_version(&self) -> Result<i64, DbError> {
        let rows = self
            .sql()
            .query(
                "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
                vec![],
            )
            .await?;
        Ok(first_int(&rows)?)
    }

    /// How many migrations are recorded (each applied once).
    pub async fn migrations_applied(&self) -> Result<i64, DbError> {
        let rows = self
            .sql()
            .query("SELECT COUNT(*) FROM schema_migrations", vec![])
            .await?;
        Ok(first_int(&rows)?)
    }

    pub(super) fn sql(&self) -> &dyn Sql {
        match &self.backend {
            Backend::Postgres(pg) => pg.as_ref(),
            Backend::Sqlite(lite) => lite,
        }
    }
}

fn first_int(rows: &[Vec<Value>]) -> Result<i64, SqlError> {
    rows.first()
        .and_then(|row| row.first())
        .ok_or(SqlError::NoRow)?
        .int()
}
