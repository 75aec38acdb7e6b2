//! The MCP sessions of one instance (2025-11-25's `Mcp-Session-Id`), bounded and bound to the
//! person who opened them.
//!
//! rmcp's `LocalSessionManager` keeps the sessions; this registry, fed by `/mcp`'s middleware,
//! knows whose each is and when it was last used:
//!
//! - A request naming a session that is not the caller's (another person's, or none this
//!   instance knows) is answered 404, the same answer for both, so that ids cannot be probed.
//! - A person holds at most [`Limits::sessions_per_person`] sessions, the instance at most
//!   [`Limits::sessions_total`]: opening one more closes the least recently used (the person's
//!   own first, else anyone's). Closing rather than refusing: a client that reconnects leaves
//!   its old session behind, and a closed session's next request gets 404, on which a client
//!   opens a new one (as the MCP specification asks of it).
//! - A session with no request for [`Limits::session_idle`] is closed by [`Sessions::sweep`].
//!
//! Session ids are bearer secrets of a kind: they are never logged.

use crate::limits::Limits;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// One session: whose, and when it was last used.
#[derive(Debug)]
struct Entry {
    person: String,
    /// Larger is more recent (a counter: two uses in one clock tick still order).
    used: u64,
    at: Instant,
}

#[derive(Debug, Default)]
struct Registry {
    sessions: HashMap<String, Entry>,
    /// Each person's session ids.
    people: HashMap<String, Vec<String>>,
    tick: u64,
}

impl Registry {
    fn remove(&mut self, id: &str) -> Option<Entry> {
        let entry = self.sessions.remove(id)?;
        if let Some(ids) = self.people.get_mut(&entry.person) {
            ids.retain(|i| i != id);
            if ids.is_empty() {
                self.people.remove(&entry.person);
            }
        }
        Some(entry)
    }

    /// The least recently used of `ids`.
    fn oldest<'a>(&self, ids: impl Iterator<Item = &'a String>) -> Option<String> {
        ids.filter_map(|id| Some((self.sessions.get(id)?.used, id)))
            .min()
            .map(|(_, id)| id.clone())
    }
}

/// The sessions of one instance.
#[derive(Debug)]
pub struct Sessions {
    manager: Arc<LocalSessionManager>,
    per_person: usize,
    total: usize,
    idle: Duration,
    registry: Mutex<Registry>,
}

impl Sessions {
    /// A registry over a new session manager whose own idle timeout is `limits.session_idle`.
    pub fn new(limits: &Limits) -> Sessions {
        let mut manager = LocalSessionManager::default();
        manager.session_config.keep_alive = Some(limits.session_idle);
        Sessions {
            manager: Arc::new(manager),
            per_person: limits.sessions_per_person,
            total: limits.sessions_total,
            idle: limits.session_idle,
            registry: Mutex::new(Registry::default()),
        }
    }

    /// The session manager rmcp's service keeps the sessions in.
    pub fn manager(&self) -> Arc<LocalSessionManager> {
        self.manager.clone()
    }

    fn registry(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `person` uses session `id`: `true` (and it counts as used now) when it is theirs.
    pub fn use_session(&self, person: &str, id: &str) -> bool {
        let mut registry = self.registry();
        registry.tick += 1;
        let tick = registry.tick;
        match registry.sessions.get_mut(id) {
            Some(entry) if entry.person == person => {
                entry.used = tick;
                entry.at = Instant::now();
                true
            }
            _ => false,
        }
    }

    /// `person` opened session `id`; the sessions closed to keep within the bounds.
    pub async fn opened(&self, person: &str, id: &str) -> usize {
        let evicted = self.register(person, id);
        let count = evicted.len();
        for (id, why) in evicted {
            tracing::info!("an MCP session was closed: {why}");
            self.close(&id).await;
        }
        count
    }

    fn register(&self, person: &str, id: &str) -> Vec<(String, &'static str)> {
        let mut registry = self.registry();
        registry.tick += 1;
        let entry = Entry {
            person: person.to_string(),
            used: registry.tick,
            at: Instant::now(),
        };
        registry.sessions.insert(id.to_string(), entry);
        registry
            .people
            .entry(person.to_string())
            .or_default()
            .push(id.to_string());
        let mut evicted = Vec::new();
        while registry.people.get(person).map_or(0, Vec::len) > self.per_person {
            let ids = registry.people.get(person).into_iter().flatten();
            let Some(oldest) = registry.oldest(ids) else {
                break;
            };
            registry.remove(&oldest);
            evicted.push((oldest, "its person opened more than their limit"));
        }
        while registry.sessions.len() > self.total {
            let Some(oldest) = registry.oldest(registry.sessions.keys()) else {
                break;
            };
            registry.remove(&oldest);
            evicted.push((oldest, "the instance holds as many sessions as it may"));
        }
        evicted
    }

    /// Session `id` ended (its person closed it with `DELETE`).
    pub fn closed(&self, id: &str) {
        self.registry().remove(id);
    }

    async fn close(&self, id: &str) {
        if let Err(e) = self.manager.close_session(&Arc::from(id)).await {
            tracing::warn!("an MCP session could not be closed cleanly: {e}");
        }
    }

    /// Close the sessions idle for longer than the limit, and forget those rmcp already ended;
    /// how many were closed.
    pub async fn sweep(&self) -> usize {
        let live: std::collections::HashSet<String> = self
            .manager
            .sessions
            .read()
            .await
            .keys()
            .map(|id| id.to_string())
            .collect();
        let idle: Vec<String> = {
            let mut registry = self.registry();
            let gone: Vec<String> = registry
                .sessions
                .iter()
                .filter(|(id, entry)| !live.contains(*id) || entry.at.elapsed() > self.idle)
                .map(|(id, _)| id.clone())
                .collect();
            for id in &gone {
                registry.remove(id);
            }
            gone.into_iter().filter(|id| live.contains(id)).collect()
        };
        for id in &idle {
            self.close(id).await;
        }
        idle.len()
    }

    /// How many sessions the instance holds, and how many of them are `person`'s.
    pub fn count(&self, person: &str) -> (usize, usize) {
        let registry = self.registry();
        (
            registry.sessions.len(),
            registry.people.get(person).map_or(0, Vec::len),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(per_person: usize, total: usize) -> Limits {
        Limits {
            sessions_per_person: per_person,
            sessions_total: total,
            ..Limits::default()
        }
    }

    #[test]
    fn a_person_beyond_their_limit_loses_their_least_recently_used_session() {
        let sessions = Sessions::new(&limits(2, 100));
        assert!(sessions.register("alice", "a1").is_empty());
        assert!(sessions.register("alice", "a2").is_empty());
        assert!(sessions.use_session("alice", "a1"));
        let evicted = sessions.register("alice", "a3");
        assert_eq!(evicted.len(), 1);
        assert_eq!(evicted[0].0, "a2");
        assert_eq!(sessions.count("alice"), (2, 2));
    }

    #[test]
    fn the_instance_beyond_its_limit_loses_the_least_recently_used_of_anyone() {
        let sessions = Sessions::new(&limits(5, 2));
        sessions.register("alice", "a1");
        sessions.register("bob", "b1");
        let evicted = sessions.register("carol", "c1");
        assert_eq!(evicted[0].0, "a1");
        assert_eq!(sessions.count("alice"), (2, 0));
    }

    #[test]
    fn a_session_is_its_openers_only() {
        let sessions = Sessions::new(&limits(5, 5));
        sessions.register("alice", "a1");
        assert!(sessions.use_session("alice", "a1"));
        assert!(!sessions.use_session("bob", "a1"));
        assert!(!sessions.use_session("alice", "unknown"));
        sessions.closed("a1");
        assert!(!sessions.use_session("alice", "a1"));
    }
}
