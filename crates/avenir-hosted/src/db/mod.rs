//! The hosted state on PostgreSQL or SQLite.
//!
//! [`Db::open`] connects (PostgreSQL when `AVENIR_MCP_DATABASE_URL` is set, else a SQLite file)
//! and applies the migrations embedded in the binary (`migrations/{postgres,sqlite}/*.sql`),
//! recorded in `schema_migrations(version, applied_at)`. A [`Db`] is the
//! [`OAuthStore`](crate::oauth_store::OAuthStore) of the
//! authorization server, gives each person a [`SharedStore`] ([`Db::shared_store`]) and the
//! pacing ledgers a [`LedgerStore`] ([`Db::ledger_store`]). Every instance on one database sees
//! the same: taking a code, a pending sign-in or a refresh token is one `DELETE … RETURNING` or
//! `UPDATE … RETURNING`, so of two instances exactly one wins.
//!
//! The blocking stores ([`SharedStore`], [`LedgerStore`]) wait on the database on the calling
//! thread (`Handle::block_on` on the runtime [`Db::open`] ran in): call them from tokio's
//! blocking pool (`spawn_blocking`) or a thread of your own, never from an async worker, where
//! `block_on` panics.

mod error;
mod handle;
mod oauth;
mod pages;
mod postgres;
mod schema;
mod shared;
mod sql;
mod sqlite;
mod sweep;
mod tls;

use avenir::store::shared::SharedStore;
use std::sync::Arc;
use ynab::pacing::LedgerStore;

pub use error::{DbError, SqlError, StateError};
pub use handle::{DATABASE_URL_VAR, Db, DbConfig};
pub use schema::SCHEMA_VERSION;
pub use sweep::{CODE_KEPT, SWEPT_TABLES, SweepTtls, Swept, UNUSED_CLIENT_KEPT};

impl Db {
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
}
