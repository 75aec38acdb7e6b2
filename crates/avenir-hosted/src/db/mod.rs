//! The hosted state on PostgreSQL or SQLite.
//!
//! [`Db::open`] connects (PostgreSQL when `AVENIR_MCP_DATABASE_URL` is set, else a SQLite file)
//! and applies the migrations embedded in the binary (`migrations/{postgres,sqlite}/*.sql`),
//! recorded in `schema_migrations(version, applied_at)`. A [`Db`] is the [`OAuthStore`] of the
//! authorization server, gives each person a [`SharedStore`] ([`Db::shared_store`]) and the
//! pacing ledgers a [`LedgerStore`] ([`Db::ledger_store`]). Every instance on one database sees
//! the same: taking a code, a pending sign-in or a refresh token is one `DELETE … RETURNING` or
//! `UPDATE … RETURNING`, so of two instances exactly one wins.
//!
//! The blocking stores ([`SharedStore`], [`LedgerStore`]) wait on the database on the calling
//! thread (`Handle::block_on` on the runtime [`Db::open`] ran in): call them from tokio's
//! blocking pool (`spawn_blocking`) or a thread of your own, never from an async worker, where
//! `block_on` panics.

mod postgres;
mod shared;
mod sql;
mod sqlite;

use crate::oauth_store::{
    ClientKind, ClientRecord, CodeGrant, OAuthStore, PendingSignIn, RefreshUse, StoreError,
    TokenKind, TokenRecord, YnabGrant,
};
use async_trait::async_trait;
use avenir::store::shared::SharedStore;
use sql::{Sql, Value};
use std::path::PathBuf;
use std::sync::Arc;
use ynab::pacing::LedgerStore;

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

/// Why the database could not be opened or migrated, as a sentence (never the URL's password).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DbError(pub String);

/// The migrations this binary knows, in order: (version, PostgreSQL, SQLite).
const MIGRATIONS: &[(i64, &str, &str)] = &[(
    1,
    include_str!("migrations/postgres/0001_init.sql"),
    include_str!("migrations/sqlite/0001_init.sql"),
)];

/// The newest schema version this binary knows.
pub const SCHEMA_VERSION: i64 = 1;

/// The error for a database migrated by a newer binary.
fn newer_schema(found: i64) -> DbError {
    DbError(format!(
        "The database is at schema version {found}, newer than the version {SCHEMA_VERSION} this \
         avenir-mcp knows: run the newer avenir-mcp that migrated it, or give this one a database \
         of its own."
    ))
}

/// The shared state, on one database; cheap to clone (clones share the connections).
#[derive(Clone, Debug)]
pub struct Db {
    backend: Backend,
    /// The runtime [`Db::open`] ran in: the blocking stores wait on it.
    handle: tokio::runtime::Handle,
}

#[derive(Clone, Debug)]
enum Backend {
    Postgres(Arc<postgres::PgDb>),
    Sqlite(sqlite::SqliteDb),
}

impl Db {
    /// Connect and apply the migrations this binary has and the database has not.
    pub async fn open(config: &DbConfig) -> Result<Db, DbError> {
        let backend = match config {
            DbConfig::Postgres(url) => {
                Backend::Postgres(Arc::new(postgres::PgDb::open(url).await?))
            }
            DbConfig::Sqlite(path) => Backend::Sqlite(sqlite::SqliteDb::open(path.clone()).await?),
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
            .await
            .map_err(DbError)?;
        first_int(&rows).map_err(DbError)
    }

    /// How many migrations are recorded (each applied once).
    pub async fn migrations_applied(&self) -> Result<i64, DbError> {
        let rows = self
            .sql()
            .query("SELECT COUNT(*) FROM schema_migrations", vec![])
            .await
            .map_err(DbError)?;
        first_int(&rows).map_err(DbError)
    }

    /// One person's journal, intents, undo lock and confirmation codes, and the global nonces.
    /// Its methods block (see the module's documentation): call them from tokio's blocking pool,
    /// never from an async worker.
    pub fn shared_store(&self, person_id: &str) -> Arc<dyn SharedStore> {
        Arc::new(shared::DbShared::new(self.clone(), person_id.to_owned()))
    }

    /// The pacing ledgers of YNAB's hourly budget, shared by every instance. Its method blocks:
    /// call it from tokio's blocking pool, never from an async worker.
    pub fn ledger_store(&self) -> Arc<dyn LedgerStore> {
        Arc::new(shared::DbLedger::new(self.clone()))
    }

    fn sql(&self) -> &dyn Sql {
        match &self.backend {
            Backend::Postgres(pg) => pg.as_ref(),
            Backend::Sqlite(lite) => lite,
        }
    }
}

fn first_int(rows: &[Vec<Value>]) -> Result<i64, String> {
    rows.first()
        .and_then(|row| row.first())
        .ok_or_else(|| "The database returned no row where one was expected.".to_owned())?
        .int()
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

fn store_error(e: String) -> StoreError {
    StoreError(e)
}

fn kind_text(kind: TokenKind) -> &'static str {
    match kind {
        TokenKind::Access => "access",
        TokenKind::Refresh => "refresh",
    }
}

fn client_kind_text(kind: ClientKind) -> &'static str {
    match kind {
        ClientKind::MetadataDocument => "metadata_document",
        ClientKind::Registered => "registered",
    }
}

const TOKEN_COLUMNS: &str =
    "kind, person_id, client_id, scope, resource, expires_at, family, revoked";

fn token_from(row: &[Value]) -> Result<TokenRecord, String> {
    let kind = match sql::text(row, 0)?.as_str() {
        "access" => TokenKind::Access,
        "refresh" => TokenKind::Refresh,
        other => {
            return Err(format!(
                "The database holds a token of unknown kind {other:?}."
            ));
        }
    };
    Ok(TokenRecord {
        kind,
        person_id: sql::text(row, 1)?,
        client_id: sql::text(row, 2)?,
        scope: sql::text(row, 3)?,
        resource: sql::text(row, 4)?,
        expires_at: sql::int(row, 5)?,
        family: sql::text(row, 6)?,
        revoked: sql::boolean(row, 7)?,
    })
}

fn grant_from(row: &[Value]) -> Result<YnabGrant, String> {
    Ok(YnabGrant {
        sealed: sql::bytes(row, 0)?,
        expires_at: sql::int(row, 1)?,
        scope: sql::text(row, 2)?,
        version: sql::int(row, 3)?,
        needs_sign_in: sql::boolean(row, 4)?,
    })
}

fn random_id() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut bytes)
        .map_err(|_| "The system's random generator failed: no id was made.".to_string())?;
    Ok(hex::encode(bytes))
}

#[async_trait]
impl OAuthStore for Db {
    async fn put_client(&self, client: &ClientRecord) -> Result<(), StoreError> {
        let metadata = serde_json::to_string(&client.metadata)
            .map_err(|e| StoreError(format!("A client's metadata could not be stored: {e}")))?;
        self.sql()
            .execute_all(vec![(
                "INSERT INTO oauth_clients (client_id, kind, metadata, updated_at) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (client_id) DO UPDATE SET \
                 kind = excluded.kind, metadata = excluded.metadata, \
                 updated_at = excluded.updated_at",
                vec![
                    client.client_id.as_str().into(),
                    client_kind_text(client.kind).into(),
                    metadata.into(),
                    client.updated_at.into(),
                ],
            )])
            .await
            .map_err(store_error)?;
        Ok(())
    }

    async fn client(&self, client_id: &str) -> Result<Option<ClientRecord>, StoreError> {
        let rows = self
            .sql()
            .query(
                "SELECT kind, metadata, updated_at FROM oauth_clients WHERE client_id = $1",
                vec![client_id.into()],
            )
            .await
            .map_err(store_error)?;
        let Some(row) = rows.first() else {
            return Ok(None);
        };
        let kind = match sql::text(row, 0).map_err(store_error)?.as_str() {
            "metadata_document" => ClientKind::MetadataDocument,
            "registered" => ClientKind::Registered,
            other => {
                return Err(StoreError(format!(
                    "The database holds a client of unknown kind {other:?}."
                )));
            }
        };
        let metadata = serde_json::from_str(&sql::text(row, 1).map_err(store_error)?)
            .map_err(|e| StoreError(format!("A client's stored metadata is not JSON: {e}")))?;
        Ok(Some(ClientRecord {
            client_id: client_id.to_owned(),
            kind,
            metadata,
            updated_at: sql::int(row, 2).map_err(store_error)?,
        }))
    }

    async fn put_pending(&self, key_hash: &str, pending: &PendingSignIn) -> Result<(), StoreError> {
        self.sql()
            .execute_all(vec![(
                "INSERT INTO oauth_pending_sign_ins (key_hash, client_id, redirect_uri, \
                 code_challenge, client_state, scope, resource, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                vec![
                    key_hash.into(),
                    pending.client_id.as_str().into(),
                    pending.redirect_uri.as_str().into(),
                    pending.code_challenge.as_str().into(),
                    pending.client_state.as_deref().into(),
                    pending.scope.as_str().into(),
                    pending.resource.as_str().into(),
                    pending.created_at.into(),
                ],
            )])
            .await
            .map_err(store_error)?;
        Ok(())
    }

    async fn take_pending(&self, key_hash: &str) -> Result<Option<PendingSignIn>, StoreError> {
        let rows = self
            .sql()
            .query(
                "DELETE FROM oauth_pending_sign_ins WHERE key_hash = $1 RETURNING client_id, \
                 redirect_uri, code_challenge, client_state, scope, resource, created_at",
                vec![key_hash.into()],
            )
            .await
            .map_err(store_error)?;
        let Some(row) = rows.first() else {
            return Ok(None);
        };
        let pending = (|| {
            Ok::<_, String>(PendingSignIn {
                client_id: sql::text(row, 0)?,
                redirect_uri: sql::text(row, 1)?,
                code_challenge: sql::text(row, 2)?,
                client_state: sql::opt_text(row, 3)?,
                scope: sql::text(row, 4)?,
                resource: sql::text(row, 5)?,
                created_at: sql::int(row, 6)?,
            })
        })()
        .map_err(store_error)?;
        Ok(Some(pending))
    }

    async fn put_code(&self, code_hash: &str, grant: &CodeGrant) -> Result<(), StoreError> {
        self.sql()
            .execute_all(vec![(
                "INSERT INTO oauth_codes (code_hash, client_id, person_id, redirect_uri, \
                 code_challenge, scope, resource, expires_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                vec![
                    code_hash.into(),
                    grant.client_id.as_str().into(),
                    grant.person_id.as_str().into(),
                    grant.redirect_uri.as_str().into(),
                    grant.code_challenge.as_str().into(),
                    grant.scope.as_str().into(),
                    grant.resource.as_str().into(),
                    grant.expires_at.into(),
                ],
            )])
            .await
            .map_err(store_error)?;
        Ok(())
    }

    async fn take_code(&self, code_hash: &str) -> Result<Option<CodeGrant>, StoreError> {
        let rows = self
            .sql()
            .query(
                "DELETE FROM oauth_codes WHERE code_hash = $1 RETURNING client_id, person_id, \
                 redirect_uri, code_challenge, scope, resource, expires_at",
                vec![code_hash.into()],
            )
            .await
            .map_err(store_error)?;
        let Some(row) = rows.first() else {
            return Ok(None);
        };
        let grant = (|| {
            Ok::<_, String>(CodeGrant {
                client_id: sql::text(row, 0)?,
                person_id: sql::text(row, 1)?,
                redirect_uri: sql::text(row, 2)?,
                code_challenge: sql::text(row, 3)?,
                scope: sql::text(row, 4)?,
                resource: sql::text(row, 5)?,
                expires_at: sql::int(row, 6)?,
            })
        })()
        .map_err(store_error)?;
        Ok(Some(grant))
    }

    async fn put_token(&self, token_hash: &str, token: &TokenRecord) -> Result<(), StoreError> {
        self.sql()
            .execute_all(vec![(
                "INSERT INTO oauth_tokens (token_hash, kind, person_id, client_id, scope, \
                 resource, expires_at, family, revoked, used) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, FALSE)",
                vec![
                    token_hash.into(),
                    kind_text(token.kind).into(),
                    token.person_id.as_str().into(),
                    token.client_id.as_str().into(),
                    token.scope.as_str().into(),
                    token.resource.as_str().into(),
                    token.expires_at.into(),
                    token.family.as_str().into(),
                    token.revoked.into(),
                ],
            )])
            .await
            .map_err(store_error)?;
        Ok(())
    }

    async fn token(&self, token_hash: &str) -> Result<Option<TokenRecord>, StoreError> {
        let rows = self
            .sql()
            .query(
                &format!("SELECT {TOKEN_COLUMNS} FROM oauth_tokens WHERE token_hash = $1"),
                vec![token_hash.into()],
            )
            .await
            .map_err(store_error)?;
        rows.first()
            .map(|row| token_from(row))
            .transpose()
            .map_err(store_error)
    }

    async fn use_refresh(&self, token_hash: &str) -> Result<RefreshUse, StoreError> {
        let fresh = self
            .sql()
            .query(
                &format!(
                    "UPDATE oauth_tokens SET used = TRUE WHERE token_hash = $1 AND kind = 'refresh' \
                     AND used = FALSE AND revoked = FALSE RETURNING {TOKEN_COLUMNS}"
                ),
                vec![token_hash.into()],
            )
            .await
            .map_err(store_error)?;
        if let Some(row) = fresh.first() {
            return Ok(RefreshUse::Fresh(token_from(row).map_err(store_error)?));
        }
        let seen = self
            .sql()
            .query(
                &format!(
                    "SELECT {TOKEN_COLUMNS} FROM oauth_tokens WHERE token_hash = $1 \
                     AND kind = 'refresh'"
                ),
                vec![token_hash.into()],
            )
            .await
            .map_err(store_error)?;
        match seen.first() {
            Some(row) => Ok(RefreshUse::Replayed(token_from(row).map_err(store_error)?)),
            None => Ok(RefreshUse::Unknown),
        }
    }

    async fn revoke_token(&self, token_hash: &str) -> Result<bool, StoreError> {
        let counts = self
            .sql()
            .execute_all(vec![(
                "UPDATE oauth_tokens SET revoked = TRUE WHERE token_hash = $1",
                vec![token_hash.into()],
            )])
            .await
            .map_err(store_error)?;
        Ok(counts.first().is_some_and(|n| *n > 0))
    }

    async fn revoke_family(&self, family: &str) -> Result<(), StoreError> {
        self.sql()
            .execute_all(vec![(
                "UPDATE oauth_tokens SET revoked = TRUE WHERE family = $1",
                vec![family.into()],
            )])
            .await
            .map_err(store_error)?;
        Ok(())
    }

    async fn revoke_person(&self, person_id: &str) -> Result<(), StoreError> {
        self.sql()
            .execute_all(vec![(
                "UPDATE oauth_tokens SET revoked = TRUE WHERE person_id = $1",
                vec![person_id.into()],
            )])
            .await
            .map_err(store_error)?;
        Ok(())
    }

    async fn person_for(&self, ynab_user_id: &str) -> Result<String, StoreError> {
        let sql = self.sql();
        let lookup = || {
            sql.query(
                "SELECT person_id FROM people WHERE ynab_user_id = $1",
                vec![ynab_user_id.into()],
            )
        };
        if let Some(row) = lookup().await.map_err(store_error)?.first() {
            return sql::text(row, 0).map_err(store_error);
        }
        // Of two instances making the person at once, one inserts and both read its id.
        sql.execute_all(vec![(
            "INSERT INTO people (person_id, ynab_user_id, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (ynab_user_id) DO NOTHING",
            vec![
                random_id().map_err(store_error)?.into(),
                ynab_user_id.into(),
                now().into(),
            ],
        )])
        .await
        .map_err(store_error)?;
        match lookup().await.map_err(store_error)?.first() {
            Some(row) => sql::text(row, 0).map_err(store_error),
            None => Err(StoreError(
                "A person was stored but could not be read back: the database lost it.".into(),
            )),
        }
    }

    async fn put_ynab_grant(&self, person_id: &str, grant: &YnabGrant) -> Result<(), StoreError> {
        self.sql()
            .execute_all(vec![(
                "INSERT INTO ynab_grants (person_id, sealed, expires_at, scope, version, \
                 needs_sign_in) VALUES ($1, $2, $3, $4, 1, $5) ON CONFLICT (person_id) DO UPDATE \
                 SET sealed = excluded.sealed, expires_at = excluded.expires_at, \
                 scope = excluded.scope, version = ynab_grants.version + 1, \
                 needs_sign_in = excluded.needs_sign_in",
                vec![
                    person_id.into(),
                    grant.sealed.clone().into(),
                    grant.expires_at.into(),
                    grant.scope.as_str().into(),
                    grant.needs_sign_in.into(),
                ],
            )])
            .await
            .map_err(store_error)?;
        Ok(())
    }

    async fn ynab_grant(&self, person_id: &str) -> Result<Option<YnabGrant>, StoreError> {
        let rows = self
            .sql()
            .query(
                "SELECT sealed, expires_at, scope, version, needs_sign_in FROM ynab_grants \
                 WHERE person_id = $1",
                vec![person_id.into()],
            )
            .await
            .map_err(store_error)?;
        rows.first()
            .map(|row| grant_from(row))
            .transpose()
            .map_err(store_error)
    }

    async fn replace_ynab_grant(
        &self,
        person_id: &str,
        read_version: i64,
        grant: &YnabGrant,
    ) -> Result<bool, StoreError> {
        let counts = self
            .sql()
            .execute_all(vec![(
                "UPDATE ynab_grants SET sealed = $3, expires_at = $4, scope = $5, \
                 needs_sign_in = $6, version = version + 1 WHERE person_id = $1 AND version = $2",
                vec![
                    person_id.into(),
                    read_version.into(),
                    grant.sealed.clone().into(),
                    grant.expires_at.into(),
                    grant.scope.as_str().into(),
                    grant.needs_sign_in.into(),
                ],
            )])
            .await
            .map_err(store_error)?;
        Ok(counts.first().is_some_and(|n| *n > 0))
    }

    async fn delete_person(&self, person_id: &str) -> Result<(), StoreError> {
        let p = || vec![Value::from(person_id)];
        self.sql()
            .execute_all(vec![
                ("DELETE FROM oauth_tokens WHERE person_id = $1", p()),
                ("DELETE FROM oauth_codes WHERE person_id = $1", p()),
                ("DELETE FROM ynab_grants WHERE person_id = $1", p()),
                ("DELETE FROM journal_lines WHERE person_id = $1", p()),
                ("DELETE FROM confirmation_codes WHERE person_id = $1", p()),
                ("DELETE FROM people WHERE person_id = $1", p()),
            ])
            .await
            .map_err(store_error)?;
        Ok(())
    }
}
