//! What the authorization server keeps (`oauth`), as an interface: the clients, the sign-ins in
//! progress, authorization codes, MCP tokens, the people and their YNAB grants. `db::Db`
//! implements it on PostgreSQL or SQLite, so that every instance on one database sees the same.
//!
//! Secrets are never stored: codes and tokens by their SHA-256 hex (`hash`), YNAB's tokens
//! sealed with AES-GCM by the caller (`crypto`). Times are UTC seconds.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

/// A storage failure: the backend's own error (its sentence never holds a secret).
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct StoreError(Box<dyn std::error::Error + Send + Sync>);

impl StoreError {
    /// A backend's error as a storage failure.
    pub fn new(e: impl std::error::Error + Send + Sync + 'static) -> StoreError {
        StoreError(Box::new(e))
    }
}

/// How a client came to be known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientKind {
    /// Its `client_id` is the HTTPS URL of its Client ID Metadata Document.
    MetadataDocument,
    /// Registered with `POST /register` (RFC 7591).
    Registered,
}

/// A client, with the metadata it declared (for a metadata document: as fetched, cached).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientRecord {
    pub client_id: String,
    pub kind: ClientKind,
    /// The client's metadata JSON (redirect_uris, client_name, …).
    pub metadata: serde_json::Value,
    /// When it was registered or its document last fetched.
    pub updated_at: i64,
}

/// A sign-in between our `/authorize` and YNAB's answer to our callback.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingSignIn {
    pub client_id: String,
    pub redirect_uri: String,
    /// PKCE S256 challenge.
    pub code_challenge: String,
    /// The MCP client's own `state`, returned to it unchanged.
    pub client_state: Option<String>,
    /// Scopes granted (space-separated), `read` or `read write`.
    pub scope: String,
    /// The canonical resource URI the token will be for (RFC 8707).
    pub resource: String,
    pub created_at: i64,
}

/// An authorization code's grant, taken once at the token endpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CodeGrant {
    pub client_id: String,
    pub person_id: String,
    pub redirect_uri: String,
    pub code_challenge: String,
    pub scope: String,
    pub resource: String,
    pub expires_at: i64,
}

/// Access or refresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenKind {
    Access,
    Refresh,
}

/// An MCP token issued by this server (stored by its hash).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TokenRecord {
    pub kind: TokenKind,
    pub person_id: String,
    pub client_id: String,
    pub scope: String,
    /// The audience: the canonical resource URI.
    pub resource: String,
    pub expires_at: i64,
    /// Every token descending from one authorization code shares a family: reuse of a rotated
    /// refresh token revokes the family.
    pub family: String,
    pub revoked: bool,
}

/// What presenting a refresh token found.
#[derive(Debug, Clone, PartialEq)]
pub enum RefreshUse {
    /// Unused until now (now marked used): rotate it.
    Fresh(TokenRecord),
    /// Already used or revoked: a replay (the caller revokes its family).
    Replayed(TokenRecord),
    /// Not a refresh token this server issued.
    Unknown,
}

/// What presenting an authorization code found.
#[derive(Debug, Clone, PartialEq)]
pub enum CodeUse {
    /// Unused until now (now marked used, its family recorded): check it, then issue.
    Fresh(CodeGrant),
    /// Already presented: the family its tokens went to, if it issued any (the caller revokes
    /// it, OAuth 2.1 section 4.1.3).
    Replayed { family: Option<String> },
    /// Not a code this server issued (or swept since).
    Unknown,
}

/// A person's YNAB grant: YNAB's tokens sealed together, with what is needed to refresh them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct YnabGrant {
    /// AES-GCM sealed JSON `{"access_token", "refresh_token"}` (`crypto::SecretKey::seal`).
    pub sealed: Vec<u8>,
    /// When YNAB's access token expires.
    pub expires_at: i64,
    /// `read-only` or empty (read and write), as YNAB granted.
    pub scope: String,
    /// Incremented by every replacement: a refresh stores its result only over the version it
    /// read ([`OAuthStore::replace_ynab_grant`]), so two instances never both rotate one token.
    pub version: i64,
    /// Refresh failed: the person must sign in again.
    pub needs_sign_in: bool,
}

#[async_trait]
pub trait OAuthStore: Send + Sync + std::fmt::Debug {
    async fn put_client(&self, client: &ClientRecord) -> Result<(), StoreError>;
    async fn client(&self, client_id: &str) -> Result<Option<ClientRecord>, StoreError>;

    /// Keep a sign-in under the hash of the `state` sent to YNAB.
    async fn put_pending(&self, key_hash: &str, pending: &PendingSignIn) -> Result<(), StoreError>;
    /// Remove and return it (once, across instances).
    async fn take_pending(&self, key_hash: &str) -> Result<Option<PendingSignIn>, StoreError>;

    async fn put_code(&self, code_hash: &str, grant: &CodeGrant) -> Result<(), StoreError>;
    /// Mark the code used, once across instances, recording the `family` its tokens will be
    /// issued in (see [`CodeUse`]). A used code is kept until the sweep, so that presenting it
    /// again revokes what it issued.
    async fn use_code(&self, code_hash: &str, family: &str) -> Result<CodeUse, StoreError>;

    /// Store a token; its family is made when it is the first of it.
    async fn put_token(&self, token_hash: &str, token: &TokenRecord) -> Result<(), StoreError>;
    /// The token with this hash; `revoked` when it or its family is.
    async fn token(&self, token_hash: &str) -> Result<Option<TokenRecord>, StoreError>;
    /// Mark a refresh token used, atomically (see [`RefreshUse`]).
    async fn use_refresh(&self, token_hash: &str) -> Result<RefreshUse, StoreError>;
    /// Revoke one token (by hash); false when unknown.
    async fn revoke_token(&self, token_hash: &str) -> Result<bool, StoreError>;
    /// Revoke every token of a family, those issued into it later included: a refresh that
    /// rotated a token just before its replay revoked the family cannot leave its new tokens
    /// alive (RFC 9700 §4.14.2).
    async fn revoke_family(&self, family: &str) -> Result<(), StoreError>;
    /// Revoke every token of a person (their YNAB sign-in ended: their clients must sign them in
    /// again, which a revoked refresh token makes them do), and their families, so that a
    /// rotation finishing afterwards issues revoked tokens.
    async fn revoke_person(&self, person_id: &str) -> Result<(), StoreError>;

    /// The person signed in as this YNAB user (`GET /user`'s id), made on first sign-in. The
    /// person id is random, never derived from YNAB's.
    async fn person_for(&self, ynab_user_id: &str) -> Result<String, StoreError>;
    /// Store a grant at version 1, or replace any grant unconditionally (a new sign-in); a
    /// replaced grant's version is the stored one plus 1, so that a refresh which read the old
    /// grant cannot overwrite the new one. `grant.version` is ignored.
    async fn put_ynab_grant(&self, person_id: &str, grant: &YnabGrant) -> Result<(), StoreError>;
    async fn ynab_grant(&self, person_id: &str) -> Result<Option<YnabGrant>, StoreError>;
    /// Store `grant` (its version is set to `read_version + 1`) only when the stored grant is
    /// still at `read_version`; false when another instance replaced it first.
    async fn replace_ynab_grant(
        &self,
        person_id: &str,
        read_version: i64,
        grant: &YnabGrant,
    ) -> Result<bool, StoreError>;

    /// Remove everything of the person: tokens, codes, pending sign-ins are theirs by id,
    /// the YNAB grant, the journal and intents, confirmation codes, the person.
    async fn delete_person(&self, person_id: &str) -> Result<(), StoreError>;
}
