//! What can go wrong in the database layer, as types: [`DbError`] when opening and migrating,
//! [`SqlError`] when a statement, a row or a connection fails, and [`StateError`] when what is
//! stored cannot be read back or written as the hosted mode needs. The driver's own error stays
//! as the source; the sentences never hold the database URL's password.

use std::borrow::Cow;
use std::path::PathBuf;

/// A statement, a row or a connection failed.
#[derive(Debug, thiserror::Error)]
pub enum SqlError {
    /// PostgreSQL failed at `context`: the server's own message when it sent one.
    #[error("{context}: {}", pg_detail(.source))]
    Postgres {
        context: Cow<'static, str>,
        source: tokio_postgres::Error,
    },
    /// SQLite failed at `context` on the file `path`.
    #[error("{context} ({}): {source}", .path.display())]
    Sqlite {
        context: Cow<'static, str>,
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error(
        "The database returned {got} where {wanted} was expected: is its schema this version's?"
    )]
    Unexpected {
        wanted: &'static str,
        got: &'static str,
    },
    #[error("The database returned a row without column {0}.")]
    NoColumn(usize),
    #[error("The database returned no row where one was expected.")]
    NoRow,
    #[error("The database returned a column of type {0}, which this server does not read.")]
    UnreadableType(String),
    #[error("A database connection was used after it was returned.")]
    ConnectionReturned,
    #[error("The database pool was closed.")]
    PoolClosed,
    #[error("A database task stopped: {0}")]
    TaskStopped(#[source] tokio::task::JoinError),
    /// The database did not answer within the bound (`AVENIR_MCP_DATABASE_TIMEOUT_SECONDS`).
    #[error("The database did not answer within {} s.", .0.as_secs())]
    Timeout(std::time::Duration),
}

impl SqlError {
    /// PostgreSQL failed at `context`.
    pub(crate) fn pg(context: impl Into<Cow<'static, str>>, source: tokio_postgres::Error) -> Self {
        SqlError::Postgres {
            context: context.into(),
            source,
        }
    }

    /// SQLite failed at `context` on the file `path`.
    pub(crate) fn lite(
        context: impl Into<Cow<'static, str>>,
        path: &std::path::Path,
        source: rusqlite::Error,
    ) -> Self {
        SqlError::Sqlite {
            context: context.into(),
            path: path.to_path_buf(),
            source,
        }
    }
}

/// What PostgreSQL said, else the driver's own sentence.
fn pg_detail(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("PostgreSQL said: {}", db.message()),
        None => e.to_string(),
    }
}

/// Why the database could not be opened or migrated.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error(
        "AVENIR_MCP_DATABASE_URL asks for sslmode={0}, which this server does not know: give \
         sslmode=verify-full (or require) for TLS, or leave it out on a local socket or loopback."
    )]
    SslMode(String),
    #[error(
        "The roots to trust for the database's certificate (sslrootcert={}) cannot be used \
         ({why}): give a PEM file of the certificate authority that signed the server's \
         certificate.", .path.display()
    )]
    RootFile { path: PathBuf, why: String },
    #[error(
        "AVENIR_MCP_DATABASE_URL asks for TLS, but this system has no root certificates to check \
         the database's with: install the ca-certificates package, or name the database's \
         certificate authority with sslrootcert=/path/to/ca.pem."
    )]
    NoSystemRoots,
    #[error("TLS to the database cannot be set up: {0}")]
    TlsSetup(#[source] rustls::Error),
    /// Not a URL the driver understands (its error names no password).
    #[error(
        "AVENIR_MCP_DATABASE_URL is not a PostgreSQL URL this server understands ({0}): give one \
         like postgres://user:password@127.0.0.1/avenir or \
         postgres://user@/avenir?host=/run/postgresql."
    )]
    BadUrl(#[source] tokio_postgres::Error),
    /// Migrated by a newer binary: the database's version and the newest this binary knows.
    #[error(
        "The database is at schema version {found}, newer than the version {known} this \
         avenir-mcp knows: run the newer avenir-mcp that migrated it, or give this one a database \
         of its own."
    )]
    NewerSchema { found: i64, known: i64 },
    #[error("Could not make the directory {} for the database: {source}", .path.display())]
    Directory {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "Could not make the database file {}: {source}; give a path in a directory this server \
         can write.",
        .path.display()
    )]
    File {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("Opening the database stopped: {0}")]
    Stopped(#[source] tokio::task::JoinError),
    #[error(transparent)]
    Sql(#[from] SqlError),
}

/// What is stored cannot be read back or written as the hosted mode needs it.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error(transparent)]
    Sql(#[from] SqlError),
    #[error("The database holds a token of unknown kind {0:?}.")]
    UnknownTokenKind(String),
    #[error("The database holds a client of unknown kind {0:?}.")]
    UnknownClientKind(String),
    #[error("A client's metadata could not be stored: {0}")]
    MetadataUnwritable(#[source] serde_json::Error),
    #[error("A client's stored metadata is not JSON: {0}")]
    MetadataNotJson(#[source] serde_json::Error),
    #[error("The system's random generator failed: no id was made.")]
    Random,
    #[error("A person was stored but could not be read back: the database lost it.")]
    PersonLost,
    #[error("Could not open the undo lock file {}: {source}", .path.display())]
    LockFile {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("Could not take the undo lock on {}: {source}", .path.display())]
    Lock {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl From<SqlError> for crate::oauth_store::StoreError {
    fn from(e: SqlError) -> Self {
        crate::oauth_store::StoreError::new(e)
    }
}

impl From<StateError> for crate::oauth_store::StoreError {
    fn from(e: StateError) -> Self {
        crate::oauth_store::StoreError::new(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sentences people and operators read are the ones this layer always wrote.
    #[test]
    fn sentences() {
        assert_eq!(
            SqlError::Unexpected {
                wanted: "text",
                got: "NULL"
            }
            .to_string(),
            "The database returned NULL where text was expected: is its schema this version's?"
        );
        assert_eq!(
            SqlError::NoColumn(3).to_string(),
            "The database returned a row without column 3."
        );
        assert_eq!(
            DbError::NewerSchema { found: 7, known: 1 }.to_string(),
            "The database is at schema version 7, newer than the version 1 this avenir-mcp knows: \
             run the newer avenir-mcp that migrated it, or give this one a database of its own."
        );
        assert_eq!(
            DbError::SslMode("sometimes".into()).to_string(),
            "AVENIR_MCP_DATABASE_URL asks for sslmode=sometimes, which this server does not \
             know: give sslmode=verify-full (or require) for TLS, or leave it out on a local \
             socket or loopback."
        );
        let lite = SqlError::lite(
            "A database query failed",
            std::path::Path::new("/x/hosted.sqlite"),
            rusqlite::Error::QueryReturnedNoRows,
        );
        assert_eq!(
            lite.to_string(),
            format!(
                "A database query failed (/x/hosted.sqlite): {}",
                rusqlite::Error::QueryReturnedNoRows
            )
        );
        assert_eq!(
            StateError::UnknownTokenKind("id".into()).to_string(),
            "The database holds a token of unknown kind \"id\"."
        );
    }
}
