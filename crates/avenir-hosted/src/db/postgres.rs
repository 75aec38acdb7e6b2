//! PostgreSQL through tokio-postgres, with a small pool, and a bound on every wait: a connection
//! is made within the timeout, each statement runs within it (PostgreSQL's `statement_timeout`,
//! and the same bound on this side, for a server that does not answer at all), and a connection
//! that overran is closed rather than pooled. A request that cannot reach the database is
//! answered 503 at once rather than waiting on it.

use super::error::{DbError, SqlError};
use super::schema::{MIGRATIONS, SCHEMA_VERSION, now};
use super::sql::{Sql, Statement, Value};
use async_trait::async_trait;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::{Semaphore, SemaphorePermit};
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::{Client, Config, NoTls, Row};
use tokio_postgres_rustls::MakeRustlsConnect;

/// How many connections one instance keeps at most (the undo locks' connections aside).
const POOL_SIZE: usize = 8;

/// A 64-bit advisory lock key: the first 8 bytes of SHA-256 of `name`.
pub(crate) fn advisory_key(name: &str) -> i64 {
    let digest = avenir::digest::sha256(name.as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    i64::from_be_bytes(bytes)
}

/// How long an undo lock may be waited for (another undo of the same person holds it while it
/// asks YNAB).
const LOCK_WAIT: Duration = Duration::from_secs(60);

/// The database: its connection settings, a pool, and the bound on every wait.
pub(crate) struct PgDb {
    config: Config,
    /// TLS to the server, when the URL asks for it (`tls`).
    tls: Option<MakeRustlsConnect>,
    idle: Mutex<Vec<Client>>,
    permits: Semaphore,
    timeout: Duration,
}

impl std::fmt::Debug for PgDb {
    // The settings hold the password: only where the database is.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgDb")
            .field("dbname", &self.config.get_dbname())
            .finish_non_exhaustive()
    }
}

/// A pooled connection, back to the pool when dropped (unless it broke or overran).
pub(crate) struct Conn<'a> {
    client: Option<Client>,
    db: &'a PgDb,
    _permit: SemaphorePermit<'a>,
}

impl Conn<'_> {
    pub(crate) fn client(&mut self) -> Result<&mut Client, SqlError> {
        self.client.as_mut().ok_or(SqlError::ConnectionReturned)
    }

    /// Run `work` on this connection within the bound; one that overran is closed, not pooled.
    async fn within<T>(
        &mut self,
        work: impl AsyncFnOnce(&mut Client) -> Result<T, SqlError>,
    ) -> Result<T, SqlError> {
        let timeout = self.db.timeout;
        let client = self.client()?;
        match tokio::time::timeout(timeout, work(client)).await {
            Ok(result) => result,
            Err(_) => {
                self.client = None;
                Err(SqlError::Timeout(timeout))
            }
        }
    }
}

impl Drop for Conn<'_> {
    fn drop(&mut self) {
        if let Some(client) = self.client.take()
            && !client.is_closed()
        {
            self.db
                .idle
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(client);
        }
    }
}

/// The driver's settings from `url` (its TLS words taken off by `tls`), every wait bounded by
/// `timeout` unless the URL chose its own.
fn check_url(url: &str, timeout: Duration) -> Result<Config, DbError> {
    let mut config: Config = url.parse().map_err(DbError::BadUrl)?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(timeout);
    }
    if config.get_options().is_none() {
        // a statement that overruns is cancelled by the server, and a transaction left open by
        // an instance that stalled does not hold its locks for long
        let millis = timeout.as_millis();
        config.options(format!(
            "-c statement_timeout={millis} -c idle_in_transaction_session_timeout={}",
            millis * 2
        ));
    }
    config.keepalives(true);
    config.keepalives_idle(Duration::from_secs(30));
    if config.get_application_name().is_none() {
        config.application_name("avenir-mcp");
    }
    Ok(config)
}

impl PgDb {
    /// Connect (every wait bounded by `timeout`) and migrate.
    pub(crate) async fn open(url: &str, timeout: Duration) -> Result<PgDb, DbError> {
        let (url, wanted) = super::tls::split_url(url)?;
        let mut config = check_url(&url, timeout)?;
        let wanted = wanted.or_else(|| super::tls::wanted_by_driver(&config));
        let tls = match &wanted {
            Some(wanted) => {
                config.ssl_mode(tokio_postgres::config::SslMode::Require);
                Some(super::tls::connector(wanted)?)
            }
            None => None,
        };
        let db = PgDb {
            config,
            tls,
            idle: Mutex::new(Vec::new()),
            permits: Semaphore::new(POOL_SIZE),
            timeout,
        };
        let mut conn = db.get().await?;
        // migrations may take longer than a request's statement: the server's bound is lifted
        conn.client()?
            .batch_execute("SET statement_timeout = 0")
            .await
            .map_err(|e| SqlError::pg("Could not prepare the migration", e))?;
        migrate(conn.client()?).await?;
        conn.client = None; // its session settings are the migration's: not pooled
        drop(conn);
        Ok(db)
    }

    /// A new connection of its own (not pooled), its task ending when the client is dropped.
    pub(crate) async fn connect(&self) -> Result<Client, SqlError> {
        let fail = |e| SqlError::pg("Could not connect to PostgreSQL", e);
        // The connection's task ends when the client is dropped (or the server goes away).
        match &self.tls {
            Some(tls) => {
                let (client, connection) = self.config.connect(tls.clone()).await.map_err(fail)?;
                tokio::spawn(drive(connection));
                Ok(client)
            }
            None => {
                let (client, connection) = self.config.connect(NoTls).await.map_err(fail)?;
                tokio::spawn(drive(connection));
                Ok(client)
            }
        }
    }

    /// A connection from the pool, waiting while all are in use (within the bound).
    pub(crate) async fn get(&self) -> Result<Conn<'_>, SqlError> {
        let permit = tokio::time::timeout(self.timeout, self.permits.acquire())
            .await
            .map_err(|_| SqlError::Timeout(self.timeout))?
            .map_err(|_| SqlError::PoolClosed)?;
        let idle = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let client = match idle {
            Some(client) if !client.is_closed() => client,
            _ => self.connect().await?,
        };
        Ok(Conn {
            client: Some(client),
            db: self,
            _permit: permit,
        })
    }
}

/// Drive a connection until it ends.
async fn drive<F: std::future::Future<Output = Result<(), tokio_postgres::Error>>>(connection: F) {
    if let Err(e) = connection.await {
        tracing::debug!("a PostgreSQL connection ended: {e}");
    }
}

/// Apply the missing migrations in one transaction, under an advisory lock so that instances
/// starting together apply each once.
async fn migrate(client: &mut Client) -> Result<(), DbError> {
    let fail = |what: &'static str, e: tokio_postgres::Error| DbError::Sql(SqlError::pg(what, e));
    let tx = client
        .transaction()
        .await
        .map_err(|e| fail("Could not begin the migration", e))?;
    tx.execute(
        "SELECT pg_advisory_xact_lock($1)",
        &[&advisory_key("avenir-migrations")],
    )
    .await
    .map_err(|e| fail("Could not take the migration lock", e))?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, \
         applied_at BIGINT NOT NULL)",
    )
    .await
    .map_err(|e| fail("Could not make the schema_migrations table", e))?;
    let current: i64 = tx
        .query_one(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
            &[],
        )
        .await
        .and_then(|row| row.try_get(0))
        .map_err(|e| fail("Could not read the schema version", e))?;
    if current > SCHEMA_VERSION {
        return Err(DbError::NewerSchema {
            found: current,
            known: SCHEMA_VERSION,
        });
    }
    for (version, sql, _) in MIGRATIONS.iter().filter(|(v, _, _)| *v > current) {
        tx.batch_execute(sql)
            .await
            .map_err(|e| SqlError::pg(format!("Migration {version} failed"), e))?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)",
            &[version, &now()],
        )
        .await
        .map_err(|e| SqlError::pg(format!("Migration {version} could not be recorded"), e))?;
    }
    tx.commit()
        .await
        .map_err(|e| fail("Could not commit the migrations", e))
}

static NULL_TEXT: Option<String> = None;

fn params(values: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    values
        .iter()
        .map(|v| match v {
            Value::Null => &NULL_TEXT as &(dyn ToSql + Sync),
            Value::Int(i) => i,
            Value::Text(t) => t,
            Value::Bytes(b) => b,
            Value::Bool(b) => b,
        })
        .collect()
}

fn row_values(row: &Row) -> Result<Vec<Value>, SqlError> {
    let get_error = |e| SqlError::pg("Could not read a row", e);
    let mut out = Vec::with_capacity(row.len());
    for (i, column) in row.columns().iter().enumerate() {
        let ty = column.type_();
        let value = if *ty == Type::INT8 {
            row.try_get::<_, Option<i64>>(i)
                .map_err(get_error)?
                .map(Value::Int)
        } else if *ty == Type::INT4 {
            row.try_get::<_, Option<i32>>(i)
                .map_err(get_error)?
                .map(|v| Value::Int(v.into()))
        } else if *ty == Type::TEXT || *ty == Type::VARCHAR {
            row.try_get::<_, Option<String>>(i)
                .map_err(get_error)?
                .map(Value::Text)
        } else if *ty == Type::BYTEA {
            row.try_get::<_, Option<Vec<u8>>>(i)
                .map_err(get_error)?
                .map(Value::Bytes)
        } else if *ty == Type::BOOL {
            row.try_get::<_, Option<bool>>(i)
                .map_err(get_error)?
                .map(Value::Bool)
        } else if *ty == Type::VOID {
            None
        } else {
            return Err(SqlError::UnreadableType(ty.to_string()));
        };
        out.push(value.unwrap_or(Value::Null));
    }
    Ok(out)
}

#[async_trait]
impl Sql for PgDb {
    async fn query(&self, sql: &str, values: Vec<Value>) -> Result<Vec<Vec<Value>>, SqlError> {
        let mut conn = self.get().await?;
        let rows = conn
            .within(async |client| {
                client
                    .query(sql, &params(&values))
                    .await
                    .map_err(|e| SqlError::pg("A database query failed", e))
            })
            .await?;
        rows.iter().map(row_values).collect()
    }

    async fn execute_all(&self, statements: Vec<Statement>) -> Result<Vec<u64>, SqlError> {
        let mut conn = self.get().await?;
        conn.within(async |client| execute_in_transaction(client, &statements).await)
            .await
    }
}

/// `statements` in one transaction: how many rows each changed.
async fn execute_in_transaction(
    client: &mut Client,
    statements: &[Statement],
) -> Result<Vec<u64>, SqlError> {
    let tx = client
        .transaction()
        .await
        .map_err(|e| SqlError::pg("Could not begin a transaction", e))?;
    let mut counts = Vec::with_capacity(statements.len());
    for (sql, values) in statements {
        counts.push(
            tx.execute(*sql, &params(values))
                .await
                .map_err(|e| SqlError::pg("A database update failed", e))?,
        );
    }
    tx.commit()
        .await
        .map_err(|e| SqlError::pg("Could not commit a transaction", e))?;
    Ok(counts)
}

/// An undo lock held on a connection of its own: dropping it drops the client, whose connection
/// task then closes the connection, and the server releases the lock with the session.
#[derive(Debug)]
pub(crate) struct PgLock {
    _client: Client,
}

impl avenir::store::shared::HeldLock for PgLock {}

impl PgDb {
    /// Take the advisory lock `key` (shared or exclusive) on a new connection, waiting for it.
    pub(crate) async fn advisory_lock(
        &self,
        key: i64,
        exclusive: bool,
    ) -> Result<PgLock, SqlError> {
        let client = self.connect().await?;
        let sql = if exclusive {
            "SET statement_timeout = 0; SELECT pg_advisory_lock($1)"
        } else {
            "SET statement_timeout = 0; SELECT pg_advisory_lock_shared($1)"
        };
        let sql = sql.replace("$1", &key.to_string());
        tokio::time::timeout(LOCK_WAIT, client.batch_execute(&sql))
            .await
            .map_err(|_| SqlError::Timeout(LOCK_WAIT))?
            .map_err(|e| SqlError::pg("Could not take the undo lock", e))?;
        Ok(PgLock { _client: client })
    }

    /// The ledger's read-change-write in one transaction, the row locked (`FOR UPDATE`) so that
    /// updates of one key by any instance follow one another; `change` is called once.
    pub(crate) async fn update_ledger(
        &self,
        key: &str,
        change: &mut dyn FnMut(&str) -> String,
    ) -> Result<(), SqlError> {
        let mut conn = self.get().await?;
        conn.within(async |client| ledger_transaction(client, key, change).await)
            .await
    }
}

/// The ledger's read-change-write, the row locked.
async fn ledger_transaction(
    client: &mut Client,
    key: &str,
    change: &mut dyn FnMut(&str) -> String,
) -> Result<(), SqlError> {
    let tx = client
        .transaction()
        .await
        .map_err(|e| SqlError::pg("Could not begin a ledger transaction", e))?;
    let fail = |e: tokio_postgres::Error| SqlError::pg("A pacing ledger update failed", e);
    tx.execute(
        "INSERT INTO pacing_ledgers (key, text) VALUES ($1, '') ON CONFLICT (key) DO NOTHING",
        &[&key],
    )
    .await
    .map_err(fail)?;
    let text: String = tx
        .query_one(
            "SELECT text FROM pacing_ledgers WHERE key = $1 FOR UPDATE",
            &[&key],
        )
        .await
        .and_then(|row| row.try_get(0))
        .map_err(fail)?;
    let changed = change(&text);
    tx.execute(
        "UPDATE pacing_ledgers SET text = $2 WHERE key = $1",
        &[&key, &changed],
    )
    .await
    .map_err(fail)?;
    tx.commit().await.map_err(fail)
}
