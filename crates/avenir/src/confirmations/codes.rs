//! Confirmation codes (seed, `docs/contract/writes.md` §4.5): 11 URL-safe characters from 8 CSPRNG
//! bytes, valid 600 s on a monotonic clock, spent on first use even when they do not match, bound
//! to the fingerprint of one subject in one plan, kept in memory only — except for the command line
//! (`avenir-mcp call`), whose process ends between the preview and `--confirm CODE`: its codes
//! live in a file of digests ([`CodeStore::on_disk`]).

use crate::digest::text_sha256_hex as digest;
use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
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
    /// Kept in this file instead of memory (the command line's codes).
    file: Option<PathBuf>,
    /// Kept in the hosted mode's database, shared by every instance (digests only, as the file).
    shared: Option<std::sync::Arc<dyn crate::store::shared::SharedStore>>,
}

/// A code store's file could not be read or written: the code cannot be issued or checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeFileError(pub String);

impl std::fmt::Display for CodeFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
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
            file: None,
            shared: None,
        }
    }

    /// Codes kept in the hosted mode's database (one person's), so that a code issued by one
    /// instance is redeemed by any, once: the same digests and UTC seconds as
    /// [`CodeStore::on_disk`], and the database takes a code atomically.
    pub fn shared(store: std::sync::Arc<dyn crate::store::shared::SharedStore>) -> Self {
        CodeStore {
            shared: Some(store),
            ..CodeStore::default()
        }
    }

    /// [`CodeStore::issue`] from async code: a database's wait runs on the blocking pool.
    pub async fn issue_async(
        &self,
        fingerprint: &str,
        call: &str,
    ) -> Result<String, CodeFileError> {
        let Some(store) = self.shared.clone() else {
            return self.issue(fingerprint, call);
        };
        let code = crate::random::base64url::<8>();
        let (key, entry) = (
            digest(&code),
            crate::store::shared::CodeEntry {
                fingerprint: fingerprint.to_string(),
                call_digest: digest(call),
                issued_at: unix_now(),
            },
        );
        tokio::task::spawn_blocking(move || {
            store.insert_code(&key, &entry, CODE_LIFETIME.as_secs() as i64)
        })
        .await
        .map_err(|e| CodeFileError(format!("the code could not be kept: {e}")))?
        .map_err(|e| CodeFileError(format!("the code could not be kept: {e}")))?;
        Ok(code)
    }

    /// [`CodeStore::redeem`] from async code: a database's wait runs on the blocking pool.
    pub async fn redeem_async(
        &self,
        code: &str,
        fingerprint: &str,
        call: &str,
    ) -> Result<Redeemed, CodeFileError> {
        let Some(store) = self.shared.clone() else {
            return self.redeem(code, fingerprint, call);
        };
        let key = digest(code);
        let taken = tokio::task::spawn_blocking(move || store.take_code(&key))
            .await
            .map_err(|e| CodeFileError(format!("the code could not be checked: {e}")))?
            .map_err(|e| CodeFileError(format!("the code could not be checked: {e}")))?;
        Ok(match taken {
            Some(entry) if alive(entry.issued_at, unix_now()) => judge(
                entry.fingerprint == fingerprint,
                entry.call_digest == digest(call),
            ),
            _ => Redeemed::Refused,
        })
    }

    /// Codes kept in `path` (mode 0600, its folder 0700), so that one process issues a code and
    /// a later one redeems it: `avenir-mcp call` prints a code and exits, and `--confirm CODE`
    /// comes back in a new process. The file holds digests only — SHA-256 of each code, of the
    /// call it was issued for, and the fingerprint — with the UTC second it was issued: a
    /// monotonic clock does not outlive a process, so the 600 s are measured on the wall clock
    /// (a clock set back makes a code expire, never live longer). Every issue and redeem holds
    /// the file's lock (`flock(2)`), so a code is spent once across processes.
    pub fn on_disk(path: PathBuf) -> Self {
        CodeStore {
            file: Some(path),
            ..CodeStore::default()
        }
    }

    /// A new code for `fingerprint`, asked by `call` (tool and canonical arguments). Expired
    /// codes are purged first. Only a store on disk can fail (its file).
    pub fn issue(&self, fingerprint: &str, call: &str) -> Result<String, CodeFileError> {
        if let Some(path) = &self.file {
            let code = crate::random::base64url::<8>();
            let entry = FileEntry {
                fingerprint: fingerprint.to_string(),
                call: digest(call),
                issued_at: unix_now(),
            };
            with_file(path, |entries| {
                purge(entries, entry.issued_at);
                entries.insert(digest(&code), entry);
            })?;
            return Ok(code);
        }
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
        Ok(code)
    }

    /// Present `code` for `fingerprint` in `call`: it is removed whatever the outcome. Only a
    /// store on disk can fail (its file).
    pub fn redeem(
        &self,
        code: &str,
        fingerprint: &str,
        call: &str,
    ) -> Result<Redeemed, CodeFileError> {
        if let Some(path) = &self.file {
            let now = unix_now();
            let removed = with_file(path, |entries| entries.remove(&digest(code)))?;
            return Ok(match removed {
                Some(entry) if alive(entry.issued_at, now) => {
                    judge(entry.fingerprint == fingerprint, entry.call == digest(call))
                }
                _ => Redeemed::Refused,
            });
        }
        let now = self.clock.now();
        let mut codes = self.codes.lock().unwrap_or_else(|p| p.into_inner());
        Ok(match codes.remove(code) {
            Some(issued) if now.duration_since(issued.at) <= CODE_LIFETIME => {
                judge(issued.fingerprint == fingerprint, issued.call == call)
            }
            _ => Redeemed::Refused,
        })
    }
}

/// A valid, unexpired code: the same change is valid; the same call with another change means
/// the plan moved under it (E-C4); anything else is refused.
fn judge(same_fingerprint: bool, same_call: bool) -> Redeemed {
    if same_fingerprint {
        Redeemed::Valid
    } else if same_call {
        Redeemed::PlanChanged
    } else {
        Redeemed::Refused
    }
}

/// One code in a store's file: digests and the UTC second it was issued.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct FileEntry {
    fingerprint: String,
    /// SHA-256 of the call (tool and canonical arguments: they may name payees or amounts).
    call: String,
    issued_at: i64,
}

/// The file's content: code digest → entry.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct CodeFile {
    version: u32,
    codes: BTreeMap<String, FileEntry>,
}

const CODE_FILE_VERSION: u32 = 1;

fn unix_now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Issued at `issued_at`, still valid at `now` (UTC seconds): at most 600 s old, and never from
/// the future (a clock set back).
fn alive(issued_at: i64, now: i64) -> bool {
    let age = now.saturating_sub(issued_at);
    (0..=CODE_LIFETIME.as_secs() as i64).contains(&age)
}

fn purge(entries: &mut BTreeMap<String, FileEntry>, now: i64) {
    entries.retain(|_, entry| alive(entry.issued_at, now));
}

/// Open `path` under its exclusive lock, let `change` edit its codes, write them back.
fn with_file<R>(
    path: &Path,
    change: impl FnOnce(&mut BTreeMap<String, FileEntry>) -> R,
) -> Result<R, CodeFileError> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    let failed = |what: &str, error: std::io::Error| {
        CodeFileError(format!(
            "the confirmation codes' file {} could not be {what}: {error}",
            path.display()
        ))
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| failed("created", e))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(path)
        .map_err(|e| failed("opened", e))?;
    file.lock().map_err(|e| failed("locked", e))?;
    let mut text = String::new();
    file.read_to_string(&mut text)
        .map_err(|e| failed("read", e))?;
    let mut codes = match serde_json::from_str::<CodeFile>(&text) {
        Ok(codes) if codes.version == CODE_FILE_VERSION => codes.codes,
        // Empty (new), damaged or of another version: its codes are lost, which only means a
        // new preview is needed; say so.
        _ => {
            if !text.trim().is_empty() {
                tracing::warn!(
                    "the confirmation codes' file {} was unreadable: its codes are forgotten",
                    path.display()
                );
            }
            BTreeMap::new()
        }
    };
    let out = change(&mut codes);
    let body = serde_json::to_vec(&CodeFile {
        version: CODE_FILE_VERSION,
        codes,
    })
    .map_err(|e| CodeFileError(format!("the confirmation codes could not be written: {e}")))?;
    file.set_len(0).map_err(|e| failed("written", e))?;
    file.seek(std::io::SeekFrom::Start(0))
        .map_err(|e| failed("written", e))?;
    file.write_all(&body).map_err(|e| failed("written", e))?;
    file.sync_all().map_err(|e| failed("written", e))?;
    Ok(out)
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

    fn issue(store: &CodeStore, fingerprint: &str, call: &str) -> String {
        store.issue(fingerprint, call).expect("a code is issued")
    }

    fn redeem(store: &CodeStore, code: &str, fingerprint: &str, call: &str) -> Redeemed {
        store
            .redeem(code, fingerprint, call)
            .expect("the code is checked")
    }

    /// A file in a directory of the test's own, removed at the end.
    struct TempPath(PathBuf);

    impl TempPath {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir().join(format!(
                "avenir-codes-{}-{name}-{}",
                std::process::id(),
                crate::random::hex::<6>()
            ));
            TempPath(dir.join("codes.json"))
        }
    }

    impl Drop for TempPath {
        fn drop(&mut self) {
            if let Some(dir) = self.0.parent() {
                let _ = std::fs::remove_dir_all(dir);
            }
        }
    }

    #[test]
    fn a_code_on_disk_is_redeemed_by_another_store_once() {
        let path = TempPath::new("once");
        let code = issue(&CodeStore::on_disk(path.0.clone()), "fp", "call");
        assert_eq!(code.len(), 11);
        // Another process: a new store on the same file.
        let later = CodeStore::on_disk(path.0.clone());
        assert_eq!(redeem(&later, &code, "fp", "call"), Redeemed::Valid);
        assert_eq!(
            redeem(&later, &code, "fp", "call"),
            Redeemed::Refused,
            "spent"
        );
        let code = issue(&later, "fp", "call");
        assert_eq!(
            redeem(&later, &code, "fp-moved", "call"),
            Redeemed::PlanChanged
        );
        let code = issue(&later, "fp", "call");
        assert_eq!(
            redeem(&later, &code, "fp-b", "other call"),
            Redeemed::Refused
        );
        assert_eq!(
            redeem(&later, &code, "fp", "call"),
            Redeemed::Refused,
            "spent even when it did not match"
        );
    }

    #[test]
    fn the_file_holds_digests_only_and_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let path = TempPath::new("private");
        let store = CodeStore::on_disk(path.0.clone());
        let code = issue(&store, "fp", "set_category_budget\n{\"memo\":\"Rent\"}");
        let text = std::fs::read_to_string(&path.0).expect("the file exists");
        assert!(!text.contains(&code), "{text}");
        assert!(!text.contains("Rent"), "{text}");
        assert!(text.contains(&digest(&code)), "{text}");
        let mode = std::fs::metadata(&path.0)
            .expect("metadata")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_code_on_disk_lives_600_seconds_of_wall_clock() {
        assert!(alive(1_000, 1_000));
        assert!(alive(1_000, 1_600));
        assert!(!alive(1_000, 1_601), "expired");
        assert!(
            !alive(1_000, 999),
            "issued in the future: the clock was set back"
        );
        let mut entries = BTreeMap::new();
        let entry = |at| FileEntry {
            fingerprint: "fp".into(),
            call: "c".into(),
            issued_at: at,
        };
        entries.insert("old".to_string(), entry(100));
        entries.insert("new".to_string(), entry(800));
        purge(&mut entries, 800);
        assert_eq!(entries.keys().collect::<Vec<_>>(), vec!["new"]);
    }

    #[test]
    fn a_damaged_file_forgets_its_codes_and_keeps_working() {
        let path = TempPath::new("damaged");
        let store = CodeStore::on_disk(path.0.clone());
        let code = issue(&store, "fp", "call");
        std::fs::write(&path.0, "{not json").expect("written");
        assert_eq!(redeem(&store, &code, "fp", "call"), Redeemed::Refused);
        let code = issue(&store, "fp", "call");
        assert_eq!(redeem(&store, &code, "fp", "call"), Redeemed::Valid);
    }

    #[test]
    fn a_code_is_eleven_url_safe_characters() {
        let store = CodeStore::default();
        let code = issue(&store, "fp", "call");
        assert_eq!(code.len(), 11);
        assert!(
            code.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
        assert_ne!(issue(&store, "fp", "call"), code);
    }

    #[test]
    fn a_code_is_spent_on_first_use_even_when_it_does_not_match() {
        let store = CodeStore::default();
        let code = issue(&store, "fp-a", "call-a");
        assert_eq!(
            redeem(&store, &code, "fp-b", "call-b"),
            Redeemed::Refused,
            "other changes"
        );
        assert_eq!(
            redeem(&store, &code, "fp-a", "call-a"),
            Redeemed::Refused,
            "already spent"
        );
        let code = issue(&store, "fp-a", "call-a");
        assert_eq!(redeem(&store, &code, "fp-a", "call-a"), Redeemed::Valid);
        assert_eq!(
            redeem(&store, &code, "fp-a", "call-a"),
            Redeemed::Refused,
            "used once"
        );
        assert_eq!(
            redeem(&store, "unknown-cod", "fp-a", "call-a"),
            Redeemed::Refused
        );
        let code = issue(&store, "fp-a", "call-a");
        assert_eq!(
            redeem(&store, &code, "fp-changed", "call-a"),
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
        let code = issue(
            &store,
            &fingerprint("plan-a", &subject),
            "tool\n{\"plan_id\":\"plan-a\"}",
        );
        assert_eq!(
            redeem(
                &store,
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
        let code = issue(&store, "fp", "c");
        clock.advance(Duration::from_secs(600));
        assert_eq!(
            redeem(&store, &code, "fp", "c"),
            Redeemed::Valid,
            "valid at 600 s"
        );
        let code = issue(&store, "fp", "c");
        clock.advance(Duration::from_secs(601));
        assert_eq!(
            redeem(&store, &code, "fp", "c"),
            Redeemed::Refused,
            "expired"
        );
    }
}
