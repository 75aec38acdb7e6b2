//! The expiry sweep: what the authorization server and the answer states leave behind once it
//! has expired, deleted in one transaction (both databases). Run periodically by every instance
//! (`crate::sweeper`); two instances sweeping at once delete each row once.

use super::error::DbError;
use super::handle::Db;
use super::schema::now as now_real;
use super::sql::Value;

/// How long a used or expired authorization code is kept after its expiry: presented again
/// within that time, it still revokes what it issued (OAuth 2.1 section 4.1.3).
pub const CODE_KEPT: i64 = 24 * 3600;
/// How long a registered client that never signed anyone in is kept.
pub const UNUSED_CLIENT_KEPT: i64 = 24 * 3600;

/// How long each kind of row lives (seconds), from the modules that decide it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepTtls {
    /// A sign-in between `/authorize` and YNAB's answer (`oauth::PENDING_TTL`).
    pub pending: i64,
    /// A cached client metadata document (`oauth::METADATA_CACHE_TTL`).
    pub metadata: i64,
    /// A spent nonce of a sealed answer state (the state's lifetime).
    pub nonce: i64,
}

/// What one sweep deleted, table by table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    pub pending_sign_ins: u64,
    pub codes: u64,
    pub tokens: u64,
    pub families: u64,
    pub unused_clients: u64,
    pub metadata_documents: u64,
    pub spent_nonces: u64,
}

impl Swept {
    pub fn total(&self) -> u64 {
        self.pending_sign_ins
            + self.codes
            + self.tokens
            + self.families
            + self.unused_clients
            + self.metadata_documents
            + self.spent_nonces
    }
}

/// The tables the sweep keeps small, in the order [`Db::row_counts`] gives them.
pub const SWEPT_TABLES: [&str; 6] = [
    "oauth_pending_sign_ins",
    "oauth_codes",
    "oauth_tokens",
    "oauth_families",
    "oauth_clients",
    "spent_nonces",
];

impl Db {
    /// Delete, as of `now` (UTC seconds): sign-ins in progress older than `ttls.pending`, codes
    /// [`CODE_KEPT`] past their expiry, expired tokens (a used refresh token is kept until it
    /// expires: presented again, it is a replay), families left with neither a token nor a code,
    /// registered clients [`UNUSED_CLIENT_KEPT`] old that hold no token, code or sign-in,
    /// metadata documents cached longer than `ttls.metadata`, nonces spent longer than
    /// `ttls.nonce` ago (by the real clock, which stamps them).
    pub async fn sweep(&self, now: i64, ttls: SweepTtls) -> Result<Swept, DbError> {
        let at = |seconds: i64| vec![Value::from(now.saturating_sub(seconds))];
        let counts = self
            .sql()
            .execute_all(vec![
                (
                    "DELETE FROM oauth_pending_sign_ins WHERE created_at < $1",
                    at(ttls.pending),
                ),
                (
                    "DELETE FROM oauth_codes WHERE expires_at < $1",
                    at(CODE_KEPT),
                ),
                ("DELETE FROM oauth_tokens WHERE expires_at < $1", at(0)),
                (
                    "DELETE FROM oauth_families WHERE NOT EXISTS (SELECT 1 FROM oauth_tokens t \
                     WHERE t.family = oauth_families.family) AND NOT EXISTS (SELECT 1 FROM \
                     oauth_codes c WHERE c.family = oauth_families.family)",
                    vec![],
                ),
                (
                    "DELETE FROM oauth_clients WHERE kind = 'registered' AND updated_at < $1 \
                     AND NOT EXISTS (SELECT 1 FROM oauth_tokens t \
                     WHERE t.client_id = oauth_clients.client_id) \
                     AND NOT EXISTS (SELECT 1 FROM oauth_codes c \
                     WHERE c.client_id = oauth_clients.client_id) \
                     AND NOT EXISTS (SELECT 1 FROM oauth_pending_sign_ins p \
                     WHERE p.client_id = oauth_clients.client_id)",
                    at(UNUSED_CLIENT_KEPT),
                ),
                (
                    "DELETE FROM oauth_clients WHERE kind = 'metadata_document' \
                     AND updated_at < $1",
                    at(ttls.metadata),
                ),
                (
                    // stamped by the real clock, whatever clock the caller runs on
                    "DELETE FROM spent_nonces WHERE spent_at < $1",
                    vec![Value::from(now_real().saturating_sub(ttls.nonce))],
                ),
            ])
            .await?;
        let n = |i: usize| counts.get(i).copied().unwrap_or(0);
        Ok(Swept {
            pending_sign_ins: n(0),
            codes: n(1),
            tokens: n(2),
            families: n(3),
            unused_clients: n(4),
            metadata_documents: n(5),
            spent_nonces: n(6),
        })
    }

    /// The rows of each table the sweep keeps small ([`SWEPT_TABLES`], in that order).
    pub async fn row_counts(&self) -> Result<Vec<(&'static str, i64)>, DbError> {
        let mut out = Vec::with_capacity(SWEPT_TABLES.len());
        for table in SWEPT_TABLES {
            let rows = self
                .sql()
                .query(&format!("SELECT COUNT(*) FROM {table}"), vec![])
                .await?;
            let count = rows
                .first()
                .and_then(|row| row.first())
                .ok_or(super::error::SqlError::NoRow)?
                .int()?;
            out.push((table, count));
        }
        Ok(out)
    }
}
