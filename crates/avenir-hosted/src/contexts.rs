//! The people's contexts one instance keeps in memory (their plans, YNAB client, settings),
//! bounded: at most a number of them, the least recently used dropped first, and any unused for
//! a while dropped by [`Contexts::sweep`]. A dropped person's next call makes their context
//! again (their plan read again from YNAB, in one request or a delta); nothing of theirs is lost,
//! since their journal, codes and grant live in the database.

use avenir::Context;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Kept {
    context: Arc<Context>,
    /// Larger is more recent.
    used: u64,
    at: Instant,
}

/// The contexts, by person id.
pub(crate) struct Contexts {
    kept: HashMap<String, Kept>,
    tick: u64,
    most: usize,
    idle: Duration,
}

impl Contexts {
    /// At most `most` contexts, each dropped after `idle` unused.
    pub(crate) fn new(most: usize, idle: Duration) -> Contexts {
        Contexts {
            kept: HashMap::new(),
            tick: 0,
            most: most.max(1),
            idle,
        }
    }

    /// `person`'s context, counted as used now.
    pub(crate) fn get(&mut self, person: &str) -> Option<Arc<Context>> {
        self.tick += 1;
        let kept = self.kept.get_mut(person)?;
        kept.used = self.tick;
        kept.at = Instant::now();
        Some(kept.context.clone())
    }

    /// Keep `context` as `person`'s, dropping the least recently used beyond the bound.
    pub(crate) fn insert(&mut self, person: &str, context: Arc<Context>) {
        self.tick += 1;
        let kept = Kept {
            context,
            used: self.tick,
            at: Instant::now(),
        };
        self.kept.insert(person.to_string(), kept);
        while self.kept.len() > self.most {
            let oldest = self
                .kept
                .iter()
                .min_by_key(|(_, kept)| kept.used)
                .map(|(person, _)| person.clone());
            match oldest {
                Some(person) => self.kept.remove(&person),
                None => break,
            };
        }
    }

    pub(crate) fn remove(&mut self, person: &str) {
        self.kept.remove(person);
    }

    /// Drop the contexts unused for longer than the limit; how many were dropped.
    pub(crate) fn sweep(&mut self) -> usize {
        let before = self.kept.len();
        self.kept.retain(|_, kept| kept.at.elapsed() <= self.idle);
        if self.kept.len() < self.kept.capacity() / 4 {
            self.kept.shrink_to_fit();
        }
        before - self.kept.len()
    }

    pub(crate) fn len(&self) -> usize {
        self.kept.len()
    }
}
