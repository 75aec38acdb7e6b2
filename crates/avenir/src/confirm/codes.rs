//! Confirmation codes (seed, `tools-write.md` §4.5): 11 URL-safe characters from 8 CSPRNG bytes,
//! valid 600 s on a monotonic clock, spent on first use even when they do not match, bound to the
//! fingerprint of one subject in one plan, kept in memory only.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a code is valid.
pub const CODE_LIFETIME: Duration = Duration::from_secs(600);

/// A monotonic clock, injectable in tests.
pub trait Clock: Send + Sync + std::fmt::Debug {
    fn now(&self) -> Instant;
}

/// The real monotonic clock.
#[derive(Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// What presenting a code found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redeemed {
    /// Issued for this very change, still valid.
    Valid,
    /// Issued for the same call, but the plan has changed since the preview (E-C4).
    PlanChanged,
    /// Unknown, expired, already used, or issued for other changes (E-C1).
    Refused,
}

#[derive(Debug)]
struct Issued {
    fingerprint: String,
    /// The tool and its canonical arguments.
    call: String,
    at: Instant,
}

/// The codes issued and not yet presented.
#[derive(Debug)]
pub struct CodeStore {
    clock: Box<dyn Clock>,
    codes: Mutex<HashMap<String, Issued>>,
}

impl Default for CodeStore {
    fn default() -> Self {
        CodeStore::new(Box::new(SystemClock))
    }
}

impl CodeStore {
    pub fn new(clock: Box<dyn Clock>) -> Self {
        CodeStore {
            clock,
            codes: Mutex::new(HashMap::new()),
        }
    }

    /// A new code for `fingerprint`, asked by `call` (tool and canonical arguments). Expired
    /// codes are purged first.
    pub fn issue(&self, fingerprint: &str, call: &str) -> String {
        let now = self.clock.now();
        let mut codes = self.codes.lock().unwrap_or_else(|p| p.into_inner());
        codes.retain(|_, issued| now.duration_since(issued.at) <= CODE_LIFETIME);
        let code = crate::random::base64url::<8>();
        codes.insert(
            code.clone(),
            Issued {
                fingerprint: fingerprint.to_string(),
                call: call.to_string(),
                at: now,
            },
        );
        code
    }

    /// Present `code` for `fingerprint` in `call`: it is removed whatever the outcome.
    pub fn redeem(&self, code: &str, fingerprint: &str, call: &str) -> Redeemed {
        let now = self.clock.now();
        let mut codes = self.codes.lock().unwrap_or_else(|p| p.into_inner());
        match codes.remove(code) {
            Some(issued) if now.duration_since(issued.at) <= CODE_LIFETIME => {
                if issued.fingerprint == fingerprint {
                    Redeemed::Valid
                } else if issued.call == call {
                    Redeemed::PlanChanged
                } else {
                    Redeemed::Refused
                }
            }
            _ => Redeemed::Refused,
        }
    }
}

/// A clock moved by hand (tests): starts at the real now.
#[derive(Debug, Clone)]
pub struct ManualClock(std::sync::Arc<Mutex<Instant>>);

impl Default for ManualClock {
    fn default() -> Self {
        ManualClock(std::sync::Arc::new(Mutex::new(Instant::now())))
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Instant {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl ManualClock {
    /// Move the clock forward.
    pub fn advance(&self, by: Duration) {
        let mut now = self.0.lock().unwrap_or_else(|p| p.into_inner());
        *now += by;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_eleven_url_safe_characters() {
        let store = CodeStore::default();
        let code = store.issue("fp", "call");
        assert_eq!(code.len(), 11);
        assert!(
            code.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
        assert_ne!(store.issue("fp", "call"), code);
    }

    #[test]
    fn a_code_is_spent_on_first_use_even_when_it_does_not_match() {
        let store = CodeStore::default();
        let code = store.issue("fp-a", "call-a");
        assert_eq!(
            store.redeem(&code, "fp-b", "call-b"),
            Redeemed::Refused,
            "other changes"
        );
        assert_eq!(
            store.redeem(&code, "fp-a", "call-a"),
            Redeemed::Refused,
            "already spent"
        );
        let code = store.issue("fp-a", "call-a");
        assert_eq!(store.redeem(&code, "fp-a", "call-a"), Redeemed::Valid);
        assert_eq!(
            store.redeem(&code, "fp-a", "call-a"),
            Redeemed::Refused,
            "used once"
        );
        assert_eq!(
            store.redeem("unknown-cod", "fp-a", "call-a"),
            Redeemed::Refused
        );
        let code = store.issue("fp-a", "call-a");
        assert_eq!(
            store.redeem(&code, "fp-changed", "call-a"),
            Redeemed::PlanChanged,
            "same call, the plan moved under it"
        );
    }

    #[test]
    fn a_code_for_one_plan_does_not_confirm_the_same_change_in_another() {
        use crate::confirm::fingerprint::fingerprint;
        let subject =
            serde_json::json!({"category": "c", "month": "2026-09-01", "from": 1, "to": 2});
        let store = CodeStore::default();
        let code = store.issue(
            &fingerprint("plan-a", &subject),
            "tool\n{\"plan_id\":\"plan-a\"}",
        );
        assert_eq!(
            store.redeem(
                &code,
                &fingerprint("plan-b", &subject),
                "tool\n{\"plan_id\":\"plan-b\"}"
            ),
            Redeemed::Refused
        );
    }

    #[test]
    fn a_code_lives_600_seconds_on_the_monotonic_clock() {
        let clock = ManualClock::default();
        let store = CodeStore::new(Box::new(clock.clone()));
        let code = store.issue("fp", "c");
        clock.advance(Duration::from_secs(600));
        assert_eq!(
            store.redeem(&code, "fp", "c"),
            Redeemed::Valid,
            "valid at 600 s"
        );
        let code = store.issue("fp", "c");
        clock.advance(Duration::from_secs(601));
        assert_eq!(store.redeem(&code, "fp", "c"), Redeemed::Refused, "expired");
    }
}
