//! Test helpers: an in-memory `OAuthStore` (take-once semantics under one lock), and
//! [`postgres::TestPostgres`], a throwaway PostgreSQL server. Both live in test code so that the
//! product's library and binary carry neither.

#![allow(dead_code)]

pub mod postgres;

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;
use avenir_hosted::oauth_store::{
    ClientRecord, CodeGrant, CodeUse, OAuthStore, PendingSignIn, RefreshUse, StoreError, TokenKind,
    TokenRecord, YnabGrant,
};

#[derive(Debug, Default)]
struct State {
    clients: HashMap<String, ClientRecord>,
    pending: HashMap<String, PendingSignIn>,
    codes: HashMap<String, CodeGrant>,
    /// Codes presented, with the family their tokens went to.
    used_codes: HashMap<String, String>,
    tokens: HashMap<String, TokenRecord>,
    revoked_families: std::collections::HashSet<String>,
    /// Refresh tokens already presented.
    used: std::collections::HashSet<String>,
    people: HashMap<String, String>,
    grants: HashMap<String, YnabGrant>,
}

#[derive(Debug, Default)]
pub struct MemoryStore {
    state: Mutex<State>,
    /// Client lookups fail (storage down).
    failing: std::sync::atomic::AtomicBool,
}

impl MemoryStore {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap()
    }

    pub fn token_count(&self) -> usize {
        self.lock().tokens.len()
    }

    pub fn pending_count(&self) -> usize {
        self.lock().pending.len()
    }

    /// From now on client lookups fail as a database that cannot be reached would.
    pub fn fail_client_lookups(&self) {
        self.failing
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

#[async_trait]
impl OAuthStore for MemoryStore {
    async fn put_client(&self, client: &ClientRecord) -> Result<(), StoreError> {
        self.lock()
            .clients
            .insert(client.client_id.clone(), client.clone());
        Ok(())
    }
    async fn client(&self, client_id: &str) -> Result<Option<ClientRecord>, StoreError> {
        if self.failing.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(StoreError::new(std::io::Error::other("storage down")));
        }
        Ok(self.lock().clients.get(client_id).cloned())
    }
    async fn put_pending(&self, key_hash: &str, pending: &PendingSignIn) -> Result<(), StoreError> {
        self.lock()
            .pending
            .insert(key_hash.to_string(), pending.clone());
        Ok(())
    }
    async fn take_pending(&self, key_hash: &str) -> Result<Option<PendingSignIn>, StoreError> {
        Ok(self.lock().pending.remove(key_hash))
    }
    async fn put_code(&self, code_hash: &str, grant: &CodeGrant) -> Result<(), StoreError> {
        self.lock()
            .codes
            .insert(code_hash.to_string(), grant.clone());
        Ok(())
    }
    async fn use_code(&self, code_hash: &str, family: &str) -> Result<CodeUse, StoreError> {
        let mut state = self.lock();
        if let Some(family) = state.used_codes.get(code_hash) {
            return Ok(CodeUse::Replayed {
                family: Some(family.clone()),
            });
        }
        match state.codes.remove(code_hash) {
            Some(grant) => {
                state
                    .used_codes
                    .insert(code_hash.to_string(), family.to_string());
                Ok(CodeUse::Fresh(grant))
            }
            None => Ok(CodeUse::Unknown),
        }
    }
    async fn put_token(&self, token_hash: &str, token: &TokenRecord) -> Result<(), StoreError> {
        self.lock()
            .tokens
            .insert(token_hash.to_string(), token.clone());
        Ok(())
    }
    async fn token(&self, token_hash: &str) -> Result<Option<TokenRecord>, StoreError> {
        let state = self.lock();
        Ok(state.tokens.get(token_hash).cloned().map(|mut t| {
            t.revoked |= state.revoked_families.contains(&t.family);
            t
        }))
    }
    async fn use_refresh(&self, token_hash: &str) -> Result<RefreshUse, StoreError> {
        let mut state = self.lock();
        let Some(record) = state.tokens.get(token_hash).cloned() else {
            return Ok(RefreshUse::Unknown);
        };
        if record.kind != TokenKind::Refresh {
            return Ok(RefreshUse::Unknown);
        }
        if record.revoked
            || state.revoked_families.contains(&record.family)
            || !state.used.insert(token_hash.to_string())
        {
            return Ok(RefreshUse::Replayed(record));
        }
        Ok(RefreshUse::Fresh(record))
    }
    async fn revoke_token(&self, token_hash: &str) -> Result<bool, StoreError> {
        Ok(match self.lock().tokens.get_mut(token_hash) {
            Some(t) => {
                t.revoked = true;
                true
            }
            None => false,
        })
    }
    async fn revoke_family(&self, family: &str) -> Result<(), StoreError> {
        let mut state = self.lock();
        state.revoked_families.insert(family.to_string());
        for t in state.tokens.values_mut() {
            if t.family == family {
                t.revoked = true;
            }
        }
        Ok(())
    }
    async fn revoke_person(&self, person_id: &str) -> Result<(), StoreError> {
        let mut state = self.lock();
        let families: Vec<String> = state
            .tokens
            .values()
            .filter(|t| t.person_id == person_id)
            .map(|t| t.family.clone())
            .collect();
        state.revoked_families.extend(families);
        for t in state.tokens.values_mut() {
            if t.person_id == person_id {
                t.revoked = true;
            }
        }
        Ok(())
    }
    async fn person_for(&self, ynab_user_id: &str) -> Result<String, StoreError> {
        let mut state = self.lock();
        let next = format!("person-{}", state.people.len() + 1);
        Ok(state
            .people
            .entry(ynab_user_id.to_string())
            .or_insert(next)
            .clone())
    }
    async fn put_ynab_grant(&self, person_id: &str, grant: &YnabGrant) -> Result<(), StoreError> {
        let mut grant = grant.clone();
        let mut state = self.lock();
        grant.version = state.grants.get(person_id).map_or(1, |g| g.version + 1);
        state.grants.insert(person_id.to_string(), grant);
        Ok(())
    }
    async fn ynab_grant(&self, person_id: &str) -> Result<Option<YnabGrant>, StoreError> {
        Ok(self.lock().grants.get(person_id).cloned())
    }
    async fn replace_ynab_grant(
        &self,
        person_id: &str,
        read_version: i64,
        grant: &YnabGrant,
    ) -> Result<bool, StoreError> {
        let mut state = self.lock();
        match state.grants.get(person_id) {
            Some(g) if g.version == read_version => {
                let mut grant = grant.clone();
                grant.version = read_version + 1;
                state.grants.insert(person_id.to_string(), grant);
                Ok(true)
            }
            _ => Ok(false),
        }
    }
    async fn delete_person(&self, person_id: &str) -> Result<(), StoreError> {
        let mut state = self.lock();
        state.tokens.retain(|_, t| t.person_id != person_id);
        state.codes.retain(|_, c| c.person_id != person_id);
        state.grants.remove(person_id);
        state.people.retain(|_, p| p != person_id);
        Ok(())
    }
}
