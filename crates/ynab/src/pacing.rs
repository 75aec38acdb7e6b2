//! Pacing under YNAB's limit of 200 requests per hour per token (`docs/contract/server.md` §5.4): a
//! rolling-hour budget shared by every avenir-mcp process using the same token, through a small
//! ledger file.
//!
//! The ledger holds request timestamps (UTC milliseconds, D36) and the end of a pause after a 429,
//! nothing else: no plan data, never the token. Its name is the first 16 hex digits of SHA-256 of
//! `avenir-mcp-ledger:` + token (D29); it is created with mode 0600 and every read-modify-write
//! holds an exclusive file lock, so two processes never both take the last slot.

use crate::config::Token;
use crate::error::Error;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// YNAB's own limit, per token and rolling hour.
pub const YNAB_LIMIT: u32 = 200;
/// The default budget: leaves 20 requests an hour for the person's other apps.
pub const DEFAULT_BUDGET: u32 = 180;
const HOUR_MS: i64 = 3_600_000;

/// Where the pacing state lives.
#[derive(Debug)]
pub enum Pacer {
    /// A ledger file per token in `dir`, shared with other processes.
    Ledger { dir: PathBuf, budget: u32 },
    /// In this process only (tests, tools that must not touch the disk).
    Memory {
        budget: u32,
        state: Mutex<LedgerState>,
    },
    /// A ledger kept in a database several instances share (the hosted mode), under `key`: one
    /// per YNAB identity, so a person's budget holds whichever access token is current.
    Shared {
        store: std::sync::Arc<dyn LedgerStore>,
        key: String,
        budget: u32,
    },
}

/// A place several processes keep ledgers in, each a short text (the ledger file's format) under
/// a key. Its method blocks: [`Pacer::admit_async`] calls it on tokio's blocking pool.
/// `change` is called exactly once per update (a database retry must not call it again).
pub trait LedgerStore: Send + Sync + std::fmt::Debug {
    /// Read the text under `key` (empty when none), hand it to `change`, and store what it
    /// returns, atomically with respect to every other update of `key` by any process.
    fn update_text(
        &self,
        key: &str,
        change: &mut dyn FnMut(&str) -> String,
    ) -> Result<(), LedgerStoreError>;
}

/// Why a [`LedgerStore`] could not update a ledger: the store's own error, kept whole as the
/// source.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct LedgerStoreError(#[source] Box<dyn std::error::Error + Send + Sync>);

impl LedgerStoreError {
    /// The store's failure `error`.
    pub fn of(error: impl std::error::Error + Send + Sync + 'static) -> LedgerStoreError {
        LedgerStoreError(Box::new(error))
    }
}

/// What the ledger records.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LedgerState {
    /// Send times of the requests of the last hour, UTC milliseconds.
    pub sent: Vec<i64>,
    /// After a 429: nothing leaves before this instant (UTC milliseconds).
    pub paused_until: Option<i64>,
}

impl LedgerState {
    fn parse(text: &str) -> LedgerState {
        let mut state = LedgerState::default();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("paused_until ") {
                state.paused_until = rest.trim().parse().ok();
            } else if let Ok(ms) = line.trim().parse::<i64>() {
                state.sent.push(ms);
            }
        }
        state
    }

    fn render(&self) -> String {
        let mut text = String::new();
        if let Some(until) = self.paused_until {
            text.push_str(&format!("paused_until {until}\n"));
        }
        for ms in &self.sent {
            text.push_str(&format!("{ms}\n"));
        }
        text
    }

    /// Forget what is more than an hour old. A timestamp in the future (the clock went back)
    /// is kept, so a clock jump never frees a slot early (D36).
    fn prune(&mut self, now: i64) {
        self.sent.retain(|ms| *ms > now - HOUR_MS);
        if self.paused_until.is_some_and(|until| until <= now) {
            self.paused_until = None;
        }
    }

    /// Take a slot for a request about to leave at `now`, or say why none is free.
    fn admit(&mut self, now: i64, budget: u32) -> Result<(), Error> {
        self.prune(now);
        if let Some(until) = self.paused_until {
            return Err(Error::Paused(seconds_until(now, until)));
        }
        if self.sent.len() >= budget as usize {
            let oldest = self.sent.iter().copied().min().unwrap_or(now);
            return Err(Error::BudgetSpent {
                sent: self.sent.len() as u32,
                seconds: seconds_until(now, oldest + HOUR_MS),
            });
        }
        self.sent.push(now);
        Ok(())
    }
}

fn seconds_until(now: i64, until: i64) -> u64 {
    let ms = (until - now).max(0) as u64;
    ms.div_ceil(1000)
}

/// The wall clock in UTC milliseconds (shared between processes, D36).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The ledger's file name for `token`: never the token itself.
pub fn ledger_name(token: &Token) -> String {
    let digest = ring::digest::digest(
        &ring::digest::SHA256,
        format!("avenir-mcp-ledger:{}", token.expose()).as_bytes(),
    );
    hex::encode(&digest.as_ref()[..8])
}

/// The state directory: `$XDG_STATE_HOME/avenir-mcp`, else `~/.local/state/avenir-mcp`.
pub fn default_state_dir() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_STATE_HOME") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(std::env::var_os("HOME")?).join(".local/state"),
    };
    Some(base.join("avenir-mcp"))
}

/// `AVENIR_MCP_RATE_LIMIT`, or the default of 180. A value that is not a whole number from 1
/// to 200 is refused with a sentence naming the variable.
pub fn budget_from_env() -> Result<u32, String> {
    match std::env::var("AVENIR_MCP_RATE_LIMIT") {
        Ok(value) if !value.trim().is_empty() => match value.trim().parse::<u32>() {
            Ok(n) if (1..=YNAB_LIMIT).contains(&n) => Ok(n),
            _ => Err(format!(
                "AVENIR_MCP_RATE_LIMIT must be a whole number from 1 to {YNAB_LIMIT} (requests per hour), got {}.",
                crate::quote::quoted(&value)
            )),
        },
        _ => Ok(DEFAULT_BUDGET),
    }
}

impl Pacer {
    /// A pacer kept in memory only.
    pub fn memory(budget: u32) -> Pacer {
        Pacer::Memory {
            budget,
            state: Mutex::new(LedgerState::default()),
        }
    }

    /// A pacer whose ledgers live in `dir` (created when needed, mode 0700).
    pub fn ledger(dir: impl Into<PathBuf>, budget: u32) -> Pacer {
        Pacer::Ledger {
            dir: dir.into(),
            budget,
        }
    }

    pub fn budget(&self) -> u32 {
        match self {
            Pacer::Ledger { budget, .. }
            | Pacer::Memory { budget, .. }
            | Pacer::Shared { budget, .. } => *budget,
        }
    }

    /// Take a slot for one request about to be sent with `token`.
    pub fn admit(&self, token: &Token) -> Result<(), Error> {
        let budget = self.budget();
        self.update(token, |state| state.admit(now_ms(), budget))
    }

    /// [`Pacer::admit`] without blocking the async workers: a ledger is a file locked, read and
    /// rewritten, which waits on other processes and on the disk, so it runs on a blocking thread;
    /// the memory pacer answers at once.
    pub async fn admit_async(&self, token: &Token) -> Result<(), Error> {
        match self {
            Pacer::Memory { .. } => self.admit(token),
            Pacer::Ledger { dir, budget } => {
                let path = dir.join(ledger_name(token));
                let budget = *budget;
                let shown = path.display().to_string();
                tokio::task::spawn_blocking(move || {
                    update_file(&path, |state| state.admit(now_ms(), budget))
                })
                .await
                .map_err(|error| Error::Ledger(format!("{shown}: {error}")))?
            }
            Pacer::Shared { store, key, budget } => {
                let (store, key, budget) = (store.clone(), key.clone(), *budget);
                tokio::task::spawn_blocking(move || {
                    update_shared(&*store, &key, |state| state.admit(now_ms(), budget))
                })
                .await
                .map_err(|error| Error::Ledger(format!("the shared ledger: {error}")))?
            }
        }
    }

    /// After a 429: nothing leaves for `seconds`, in any process using this token.
    pub fn pause(&self, token: &Token, seconds: u64) {
        let until = now_ms() + (seconds as i64) * 1000;
        let result = self.update(token, |state| {
            state.paused_until = Some(state.paused_until.map_or(until, |u| u.max(until)));
            Ok(())
        });
        if let Err(error) = result {
            tracing::warn!("the pause after YNAB's 429 could not be recorded: {error}");
        }
    }

    /// Requests still allowed in the rolling hour for `token`.
    pub fn remaining(&self, token: &Token) -> Option<u32> {
        let budget = self.budget();
        let mut left = None;
        let _ = self.update(token, |state| {
            state.prune(now_ms());
            left = Some(budget.saturating_sub(state.sent.len() as u32));
            Ok(())
        });
        left
    }

    fn update(
        &self,
        token: &Token,
        change: impl FnOnce(&mut LedgerState) -> Result<(), Error>,
    ) -> Result<(), Error> {
        match self {
            Pacer::Memory { state, .. } => {
                let mut guard = state.lock().unwrap_or_else(|p| p.into_inner());
                change(&mut guard)
            }
            Pacer::Ledger { dir, .. } => {
                let path = dir.join(ledger_name(token));
                update_file(&path, change)
            }
            // pause and remaining are called from async code: a database wait there must leave
            // the worker (a multi-thread runtime, as the hosted mode runs on)
            Pacer::Shared { store, key, .. } => match tokio::runtime::Handle::try_current() {
                Ok(handle)
                    if handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread =>
                {
                    tokio::task::block_in_place(|| update_shared(&**store, key, change))
                }
                _ => update_shared(&**store, key, change),
            },
        }
    }
}

/// Read, change and write the ledger under `key` in `store`.
fn update_shared(
    store: &dyn LedgerStore,
    key: &str,
    change: impl FnOnce(&mut LedgerState) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut change = Some(change);
    let mut outcome = Ok(());
    store
        .update_text(key, &mut |text| {
            let mut state = LedgerState::parse(text);
            if let Some(change) = change.take() {
                outcome = change(&mut state);
            }
            state.render()
        })
        .map_err(|error| Error::Ledger(error.to_string()))?;
    outcome
}

/// Read, change and write the ledger at `path` under an exclusive lock.
fn update_file(
    path: &Path,
    change: impl FnOnce(&mut LedgerState) -> Result<(), Error>,
) -> Result<(), Error> {
    let io_error = |e: std::io::Error| Error::Ledger(format!("{}: {e}", path.display()));
    if let Some(parent) = path.parent() {
        create_private_dir(parent).map_err(io_error)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path).map_err(io_error)?;
    file.lock().map_err(io_error)?;
    let mut text = String::new();
    file.read_to_string(&mut text).map_err(io_error)?;
    let mut state = LedgerState::parse(&text);
    let outcome = change(&mut state);
    file.set_len(0).map_err(io_error)?;
    file.rewind().map_err(io_error)?;
    file.write_all(state.render().as_bytes())
        .map_err(io_error)?;
    file.flush().map_err(io_error)?;
    // the lock is released when `file` closes
    outcome
}

fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rolling_hour() {
        let mut state = LedgerState::default();
        let t0 = 1_000_000_000;
        for i in 0..3 {
            assert!(state.admit(t0 + i * 1000, 3).is_ok());
        }
        match state.admit(t0 + 10_000, 3) {
            Err(Error::BudgetSpent { sent: 3, seconds }) => assert_eq!(seconds, 3590),
            other => panic!("budget spent expected, got {other:?}"),
        }
        // an hour after the first, one slot frees
        assert!(state.admit(t0 + HOUR_MS + 1, 3).is_ok());
        assert!(state.admit(t0 + HOUR_MS + 2, 3).is_err());
    }

    #[test]
    fn a_clock_that_goes_back_frees_nothing() {
        let mut state = LedgerState::default();
        let t0 = 2_000_000_000;
        assert!(state.admit(t0, 2).is_ok());
        assert!(state.admit(t0 + 1, 2).is_ok());
        // the wall clock jumps two hours back
        assert!(state.admit(t0 - 2 * HOUR_MS, 2).is_err());
    }

    #[test]
    fn a_pause_holds_everything() {
        let mut state = LedgerState {
            sent: vec![],
            paused_until: Some(5_000),
        };
        assert_eq!(state.admit(1_000, 10), Err(Error::Paused(4)));
        assert!(state.admit(5_000, 10).is_ok());
    }

    #[test]
    fn the_file_round_trips_and_is_private() {
        let dir = std::env::temp_dir().join(format!("ynab-ledger-{}", std::process::id()));
        let pacer = Pacer::ledger(&dir, 2);
        let token = Token::new("secret-token");
        assert!(pacer.admit(&token).is_ok());
        assert!(pacer.admit(&token).is_ok());
        assert!(matches!(
            pacer.admit(&token),
            Err(Error::BudgetSpent { sent: 2, .. })
        ));
        let path = dir.join(ledger_name(&token));
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(text.lines().count(), 2);
        assert!(!text.contains("secret"));
        assert_eq!(ledger_name(&token).len(), 16);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).map(|m| m.permissions().mode() & 0o777);
            assert_eq!(mode.ok(), Some(0o600));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
