//! The authorization server's [`OAuthStore`] on the database: clients, pending sign-ins, codes
//! and tokens (taken once with `DELETE … RETURNING` or `UPDATE … RETURNING`), token families
//! (revoked as one row, which every token of the family reads), people and their versioned YNAB
//! grants.

use super::error::{SqlError, StateError};
use super::handle::Db;
use super::schema::now;
use super::sql::{self, Value};
use crate::oauth_store::{
    ClientKind, ClientRecord, CodeGrant, CodeUse, OAuthStore, PendingSignIn, RefreshUse,
    StoreError, TokenKind, TokenRecord, YnabGrant,
};
use async_trait::async_trait;

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

fn token_from(row: &[Value]) -> Result<TokenRecord, StateError> {
    let kind = match sql::text(row, 0)?.as_str() {
        "access" => TokenKind::Access,
        "refresh" => TokenKind::Refresh,
        other => return Err(StateError::UnknownTokenKind(other.to_string())),
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

fn grant_from(row: &[Value]) -> Result<YnabGrant, SqlError> {
    Ok(YnabGrant {
        sealed: sql::bytes(row, 0)?,
        expires_at: sql::int(row, 1)?,
        scope: sql::text(row, 2)?,
        version: sql::int(row, 3)?,
        needs_sign_in: sql::boolean(row, 4)?,
    })
}

fn random_id() -> Result<String, StateError> {
    let mut bytes = [0u8; 16];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut bytes)
        .map_err(|_| StateError::Random)?;
    Ok(hex::encode(bytes))
}

#[async_trait]
impl OAuthStore for Db {
    async fn put_client(&self, client: &ClientRecord) -> Result<(), StoreError> {
        let metadata =
            serde_json::to_string(&client.metadata).map_err(StateError::MetadataUnwritable)?;
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
            .await?;
        Ok(())
    }

    async fn client(&self, client_id: &str) -> Result<Option<ClientRecord>, StoreError> {
        let rows = self
            .sql()
            .query(
                "SELECT kind, metadata, updated_at FROM oauth_clients WHERE client_id = $1",
                vec![client_id.into()],
            )
            .await?;
        let Some(row) = rows.first() else {
            return Ok(None);
        };
        let kind = match sql::text(row, 0)?.as_str() {
            "metadata_document" => ClientKind::MetadataDocument,
            "registered" => ClientKind::Registered,
            other => return Err(StateError::UnknownClientKind(other.to_string()).into()),
        };
        let metadata =
            serde_json::from_str(&sql::text(row, 1)?).map_err(StateError::MetadataNotJson)?;
        Ok(Some(ClientRecord {
            client_id: client_id.to_owned(),
            kind,
            metadata,
            updated_at: sql::int(row, 2)?,
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
            .await?;
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
            .await?;
        let Some(row) = rows.first() else {
            return Ok(None);
        };
        let pending = (|| {
            Ok::<_, SqlError>(PendingSignIn {
                client_id: sql::text(row, 0)?,
                redirect_uri: sql::text(row, 1)?,
                code_challenge: sql::text(row, 2)?,
                client_state: sql::opt_text(row, 3)?,
                scope: sql::text(row, 4)?,
                resource: sql::text(row, 5)?,
                created_at: sql::int(row, 6)?,
            })
        })()?;
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
            .await?;
        Ok(())
    }

    async fn use_code(&self, code_hash: &str, family: &str) -> Result<CodeUse, StoreError> {
        let rows = self
            .sql()
            .query(
                "UPDATE oauth_codes SET used = TRUE, family = $2 WHERE code_hash = $1 \
                 AND used = FALSE RETURNING client_id, person_id, redirect_uri, code_challenge, \
                 scope, resource, expires_at",
                vec![code_hash.into(), family.into()],
            )
            .await?;
        if let Some(row) = rows.first() {
            let grant = (|| {
                Ok::<_, SqlError>(CodeGrant {
                    client_id: sql::text(row, 0)?,
                    person_id: sql::text(row, 1)?,
                    redirect_uri: sql::text(row, 2)?,
                    code_challenge: sql::text(row, 3)?,
                    scope: sql::text(row, 4)?,
                    resource: sql::text(row, 5)?,
                    expires_at: sql::int(row, 6)?,
                })
            })()?;
            return Ok(CodeUse::Fresh(grant));
        }
        let seen = self
            .sql()
            .query(
                "SELECT family FROM oauth_codes WHERE code_hash = $1",
                vec![code_hash.into()],
            )
            .await?;
        match seen.first() {
            Some(row) => Ok(CodeUse::Replayed {
                family: sql::opt_text(row, 0)?,
            }),
            None => Ok(CodeUse::Unknown),
        }
    }

    async fn put_token(&self, token_hash: &str, token: &TokenRecord) -> Result<(), StoreError> {
        self.sql()
            .execute_all(vec![
                (
                    // a family revoked before its first token is stored stays revoked
                    "INSERT INTO oauth_families (family, revoked) VALUES ($1, FALSE) \
                     ON CONFLICT (family) DO NOTHING",
                    vec![token.family.as_str().into()],
                ),
                (
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
                ),
            ])
            .await?;
        Ok(())
    }

    async fn token(&self, token_hash: &str) -> Result<Option<TokenRecord>, StoreError> {
        let rows = self
            .sql()
            .query(
                "SELECT t.kind, t.person_id, t.client_id, t.scope, t.resource, t.expires_at, \
                 t.family, t.revoked OR COALESCE(f.revoked, FALSE) FROM oauth_tokens t \
                 LEFT JOIN oauth_families f ON f.family = t.family WHERE t.token_hash = $1",
                vec![token_hash.into()],
            )
            .await?;
        rows.first()
            .map(|row| token_from(row))
            .transpose()
            .map_err(StoreError::from)
    }

    async fn use_refresh(&self, token_hash: &str) -> Result<RefreshUse, StoreError> {
        let fresh = self
            .sql()
            .query(
                &format!(
                    "UPDATE oauth_tokens SET used = TRUE WHERE token_hash = $1 AND kind = 'refresh' \
                     AND used = FALSE AND revoked = FALSE AND NOT EXISTS (SELECT 1 FROM \
                     oauth_families f WHERE f.family = oauth_tokens.family AND f.revoked) \
                     RETURNING {TOKEN_COLUMNS}"
                ),
                vec![token_hash.into()],
            )
            .await
            ?;
        if let Some(row) = fresh.first() {
            return Ok(RefreshUse::Fresh(token_from(row)?));
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
            .await?;
        match seen.first() {
            Some(row) => Ok(RefreshUse::Replayed(token_from(row)?)),
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
            .await?;
        Ok(counts.first().is_some_and(|n| *n > 0))
    }

    async fn revoke_family(&self, family: &str) -> Result<(), StoreError> {
        self.sql()
            .execute_all(vec![
                (
                    "INSERT INTO oauth_families (family, revoked) VALUES ($1, TRUE) \
                     ON CONFLICT (family) DO UPDATE SET revoked = TRUE",
                    vec![family.into()],
                ),
                (
                    "UPDATE oauth_tokens SET revoked = TRUE WHERE family = $1",
                    vec![family.into()],
                ),
            ])
            .await?;
        Ok(())
    }

    async fn revoke_person(&self, person_id: &str) -> Result<(), StoreError> {
        self.sql()
            .execute_all(vec![
                (
                    // their families too: a refresh rotating meanwhile issues revoked tokens
                    "UPDATE oauth_families SET revoked = TRUE WHERE family IN \
                     (SELECT family FROM oauth_tokens WHERE person_id = $1)",
                    vec![person_id.into()],
                ),
                (
                    "UPDATE oauth_tokens SET revoked = TRUE WHERE person_id = $1",
                    vec![person_id.into()],
                ),
            ])
            .await?;
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
        if let Some(row) = lookup().await?.first() {
            return Ok(sql::text(row, 0)?);
        }
        // Of two instances making the person at once, one inserts and both read its id.
        sql.execute_all(vec![(
            "INSERT INTO people (person_id, ynab_user_id, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (ynab_user_id) DO NOTHING",
            vec![random_id()?.into(), ynab_user_id.into(), now().into()],
        )])
        .await?;
        match lookup().await?.first() {
            Some(row) => Ok(sql::text(row, 0)?),
            None => Err(StateError::PersonLost.into()),
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
            .await?;
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
            .await?;
        rows.first()
            .map(|row| grant_from(row))
            .transpose()
            .map_err(StoreError::from)
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
            .await?;
        Ok(counts.first().is_some_and(|n| *n > 0))
    }

    async fn delete_person(&self, person_id: &str) -> Result<(), StoreError> {
        let p = || vec![Value::from(person_id)];
        self.sql()
            .execute_all(vec![
                (
                    "DELETE FROM oauth_families WHERE family IN \
                     (SELECT family FROM oauth_tokens WHERE person_id = $1)",
                    p(),
                ),
                ("DELETE FROM oauth_tokens WHERE person_id = $1", p()),
                ("DELETE FROM oauth_codes WHERE person_id = $1", p()),
                ("DELETE FROM ynab_grants WHERE person_id = $1", p()),
                ("DELETE FROM journal_lines WHERE person_id = $1", p()),
                ("DELETE FROM confirmation_codes WHERE person_id = $1", p()),
                ("DELETE FROM confirmation_pages WHERE person_id = $1", p()),
                ("DELETE FROM people WHERE person_id = $1", p()),
                (
                    "DELETE FROM pacing_ledgers WHERE key = $1",
                    vec![Value::from(crate::people::ledger_key(person_id))],
                ),
            ])
            .await?;
        Ok(())
    }
}
