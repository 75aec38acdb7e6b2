//! The sealed `requestState` of the 2026-07-28 round trip (D9): the fingerprint the question was
//! asked for and a single-use nonce, sealed with rmcp's `RequestStateCodec` under a per-process
//! random key, bound to the tool and its canonical arguments, valid 600 s.
//!
//! Sealing stops tampering, not replay: spent nonces are kept in memory until they expire, so a
//! "yes" is spent once.

use super::codes::{Clock, SystemClock};
use rmcp::model::{RequestStateCodec, SealOptions};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a sealed state is valid.
pub const STATE_LIFETIME: Duration = Duration::from_secs(600);

/// What the state carries (signed, readable: no secret in it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sealed {
    pub fingerprint: String,
    pub nonce: String,
    /// When it was sealed: milliseconds after this process's answer states were made, on the
    /// monotonic clock (the codec's own TTL runs on the wall clock; this one cannot jump).
    pub issued_ms: u64,
}

/// Seals and opens answer states; remembers the spent nonces.
#[derive(Debug)]
pub struct AnswerStates {
    codec: RequestStateCodec,
    clock: Box<dyn Clock>,
    base: Instant,
    spent: Mutex<HashMap<String, Instant>>,
    /// The hosted mode: the key is shared by every instance, states are dated on the wall clock
    /// (UTC milliseconds, since instances share no monotonic clock) and nonces are spent in the
    /// database.
    shared: Option<std::sync::Arc<dyn crate::store::shared::SharedStore>>,
}

impl Default for AnswerStates {
    fn default() -> Self {
        AnswerStates::new(Box::new(SystemClock))
    }
}

impl AnswerStates {
    pub fn new(clock: Box<dyn Clock>) -> Self {
        let key = crate::random::bytes::<32>();
        AnswerStates {
            codec: RequestStateCodec::try_new(key.to_vec())
                .expect("32 random bytes make a valid signing key"),
            base: clock.now(),
            clock,
            spent: Mutex::new(HashMap::new()),
            shared: None,
        }
    }

    /// Answer states every instance can open: sealed under `key` (derived from the server's
    /// secret key), nonces spent in `store`. `None` when the key is refused by the codec.
    pub fn shared(
        key: [u8; 32],
        store: std::sync::Arc<dyn crate::store::shared::SharedStore>,
    ) -> Option<Self> {
        let clock: Box<dyn Clock> = Box::new(SystemClock);
        Some(AnswerStates {
            codec: RequestStateCodec::try_new(key.to_vec()).ok()?,
            base: clock.now(),
            clock,
            spent: Mutex::new(HashMap::new()),
            shared: Some(store),
        })
    }

    /// [`AnswerStates::spend`] from async code: a database's wait runs on the blocking pool. A
    /// nonce that cannot be checked counts as spent (the answer is refused, nothing written).
    pub async fn spend_async(&self, nonce: &str) -> bool {
        let Some(store) = self.shared.clone() else {
            return self.spend(nonce);
        };
        let nonce = nonce.to_string();
        let now = chrono::Utc::now().timestamp();
        let lifetime = STATE_LIFETIME.as_secs() as i64;
        match tokio::task::spawn_blocking(move || store.spend_nonce(&nonce, now, lifetime)).await {
            Ok(Ok(first)) => first,
            Ok(Err(error)) => {
                tracing::warn!("a sealed answer's nonce could not be checked: {error}");
                false
            }
            Err(error) => {
                tracing::warn!("a sealed answer's nonce could not be checked: {error}");
                false
            }
        }
    }

    /// A sealed state for `fingerprint`, bound to `associated` (tool and canonical arguments).
    pub fn seal(&self, associated: &[u8], fingerprint: &str) -> Option<String> {
        let sealed = Sealed {
            fingerprint: fingerprint.to_string(),
            nonce: crate::random::hex::<16>(),
            issued_ms: self.elapsed_ms(),
        };
        let options = SealOptions::new()
            .associated_data(associated)
            .ttl(STATE_LIFETIME);
        self.codec.seal_json_with(&sealed, &options).ok()
    }

    /// The state's content when it is authentic, unexpired and sealed for `associated`.
    pub fn open(&self, associated: &[u8], state: &str) -> Option<Sealed> {
        let sealed: Sealed = self.codec.open_json_with(state, associated).ok()?;
        let age = self.elapsed_ms().checked_sub(sealed.issued_ms)?;
        (age <= STATE_LIFETIME.as_millis() as u64).then_some(sealed)
    }

    fn elapsed_ms(&self) -> u64 {
        if self.shared.is_some() {
            return u64::try_from(chrono::Utc::now().timestamp_millis()).unwrap_or(0);
        }
        self.clock.now().duration_since(self.base).as_millis() as u64
    }

    /// Spend `nonce`: true the first time, false when it was already spent.
    pub fn spend(&self, nonce: &str) -> bool {
        let now = self.clock.now();
        let mut spent = self.spent.lock().unwrap_or_else(|p| p.into_inner());
        spent.retain(|_, at| now.duration_since(*at) <= STATE_LIFETIME);
        spent.insert(nonce.to_string(), now).is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_opens_only_for_its_arguments_and_unaltered() {
        let states = AnswerStates::default();
        let token = states.seal(b"tool|{\"a\":1}", "fp").unwrap_or_default();
        let opened = states.open(b"tool|{\"a\":1}", &token);
        assert_eq!(opened.as_ref().map(|s| s.fingerprint.as_str()), Some("fp"));
        assert!(
            states.open(b"tool|{\"a\":2}", &token).is_none(),
            "other arguments"
        );
        let mut altered = token.clone();
        altered.pop();
        altered.push(if token.ends_with('A') { 'B' } else { 'A' });
        assert!(
            states.open(b"tool|{\"a\":1}", &altered).is_none(),
            "altered"
        );
        let other_process = AnswerStates::default();
        assert!(
            other_process.open(b"tool|{\"a\":1}", &token).is_none(),
            "another key"
        );
    }

    #[test]
    fn a_nonce_is_spent_once() {
        let states = AnswerStates::default();
        assert!(states.spend("n1"));
        assert!(!states.spend("n1"));
        assert!(states.spend("n2"));
    }
}
