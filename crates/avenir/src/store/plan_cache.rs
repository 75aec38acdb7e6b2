//! The opt-in plan cache (`AVENIR_MCP_CACHE=1`, issue 12): each synced plan kept between runs in
//! a SQLite file of its own, so that the next start catches up with one delta request instead of
//! a full export.
//!
//! `<dir>/<plan id>.sqlite` holds one row: the format version, the crate version, the plan id,
//! `server_knowledge`, when it was saved, and the plan as YNAB sent it (JSON). `<dir>/aliases.sqlite`
//! says which plan `last-used`/`default` named when they were last resolved. Nothing derived from
//! the token is stored: the delta request at the next start is what checks the token may read the
//! plan. Files are created 0600 in a 0700 directory.
//!
//! A file of another version, or one that cannot be read (not SQLite, no row, bad JSON, another
//! plan's id), is discarded with a warning naming the file and why (never plan data), and the
//! plan is loaded from YNAB as without a cache. A save is one SQLite transaction, so a crash
//! mid-save leaves the previous copy (SQLite rolls the transaction back); two processes take
//! turns through SQLite's locks and a busy timeout, and a save never replaces a copy that is as
//! recent as itself or more. A save that fails is a warning, never a failed call.

use crate::plan_store::PlanSnapshot;
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use ynab::models::PlanDetail;

/// The layout of the files; a file of another format is discarded.
pub const FORMAT: i64 = 1;
/// The crate version that wrote a file; a file of another version is discarded.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// How long a read or a save waits for another process's lock.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// The index of aliases (`last-used`, `default`) to the plan ids they named.
const ALIASES: &str = "aliases.sqlite";
const EXTENSION: &str = ".sqlite";

/// The cache directory: `$XDG_CACHE_HOME/avenir-mcp`, else `~/.cache/avenir-mcp`.
pub fn location() -> Result<PathBuf, String> {
    location_from(std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME"))
}

/// [`location`] from the values of `XDG_CACHE_HOME` and `HOME`. A relative `XDG_CACHE_HOME` is
/// ignored, as the XDG base directory rules say.
pub fn location_from(
    xdg_cache_home: Option<OsString>,
    home: Option<OsString>,
) -> Result<PathBuf, String> {
    if let Some(dir) = xdg_cache_home
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
    {
        return Ok(dir.join("avenir-mcp"));
    }
    match home.filter(|h| !h.is_empty()) {
        Some(home) => Ok(PathBuf::from(home).join(".cache").join("avenir-mcp")),
        None => Err(
            "the plan cache lives in $XDG_CACHE_HOME/avenir-mcp, else ~/.cache/avenir-mcp, but neither XDG_CACHE_HOME (an absolute path) nor HOME is set".to_string(),
        ),
    }
}

/// Whether `id` has a UUID's shape (YNAB's plan ids do): 36 characters, hex digits and four
/// hyphens in place. Such an id is one path segment, so it can name a file.
pub fn is_uuid(id: &str) -> bool {
    id.len() == 36
        && id.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

/// The cache's files in one directory; every method is blocking (run it off the async path).
#[derive(Debug, Clone)]
pub struct PlanCache {
    dir: PathBuf,
}

/// What a save did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saved {
    Written,
    /// The file already holds this knowledge or a later one (another process saved it).
    AlreadyCurrent,
}

impl PlanCache {
    pub fn new(dir: PathBuf) -> Self {
        PlanCache { dir }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of plan `plan_id`; `None` for an id that is not a UUID (never cached).
    pub fn file_of(&self, plan_id: &str) -> Option<PathBuf> {
        is_uuid(plan_id).then(|| self.dir.join(format!("{plan_id}{EXTENSION}")))
    }

    /// The plan `name` (an id, or an alias recorded by an earlier save) as last saved, or `None`
    /// (never saved, or discarded now with a warning).
    pub fn restore(&self, name: &str) -> Option<PlanSnapshot> {
        let plan_id = if is_uuid(name) {
            name.to_string()
        } else {
            self.alias(name)?
        };
        let path = self.file_of(&plan_id)?;
        if !path.exists() {
            tracing::debug!("no cached copy of plan {plan_id}");
            return None;
        }
        match read_plan(&path, &plan_id) {
            Ok(snapshot) => Some(snapshot),
            Err(why) => {
                self.discard(&path, &why);
                None
            }
        }
    }

    /// The plan id `alias` named at its last save, if recorded (by this format and version).
    fn alias(&self, alias: &str) -> Option<String> {
        let path = self.dir.join(ALIASES);
        if !path.exists() {
            return None;
        }
        let found = open(&path, false).and_then(|conn| {
            conn.query_row(
                "SELECT plan_id FROM alias WHERE name = ?1 AND format = ?2 AND crate_version = ?3",
                params![alias, FORMAT, VERSION],
                |row| row.get::<_, String>(0),
            )
            .optional()
            .map_err(|e| e.to_string())
        });
        match found {
            Ok(Some(plan_id)) if is_uuid(&plan_id) => Some(plan_id),
            Ok(Some(_)) => {
                self.discard(&path, "an alias names something that is not a plan id");
                None
            }
            Ok(None) => None,
            Err(why) => {
                self.discard(&path, &format!("it cannot be read ({why})"));
                None
            }
        }
    }

    /// Save `snapshot` (and, when it was loaded under `alias`, which plan the alias named), in
    /// one transaction per file. An error is a sentence for a warning.
    pub fn save(&self, snapshot: &PlanSnapshot, alias: Option<&str>) -> Result<Saved, String> {
        let plan_id = snapshot.id();
        let path = self
            .file_of(plan_id)
            .ok_or_else(|| format!("the plan id {plan_id:?} is not a UUID, so it names no file"))?;
        create_private_dir(&self.dir)
            .map_err(|e| format!("the directory {} cannot be made ({e})", self.dir.display()))?;
        let saved =
            write_plan(&path, snapshot).map_err(|why| format!("{}: {why}", path.display()))?;
        if let Some(alias) = alias {
            let index = self.dir.join(ALIASES);
            write_alias(&index, alias, plan_id)
                .map_err(|why| format!("{}: {why}", index.display()))?;
        }
        Ok(saved)
    }

    /// Remove plan `plan_id`'s file, saying why in a warning.
    pub fn forget(&self, plan_id: &str, why: &str) {
        if let Some(path) = self.file_of(plan_id)
            && path.exists()
        {
            self.discard(&path, why);
        }
    }

    /// Remove a file that cannot be believed (and SQLite's journal files beside it).
    fn discard(&self, path: &Path, why: &str) {
        tracing::warn!(
            "discarding the plan cache file {}: {why}; the plan is loaded from YNAB instead",
            path.display()
        );
        for suffix in ["", "-journal", "-wal", "-shm"] {
            let mut name = path.as_os_str().to_os_string();
            name.push(suffix);
            match std::fs::remove_file(&name) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => tracing::warn!(
                    "the plan cache file {} could not be removed: {e}",
                    Path::new(&name).display()
                ),
            }
        }
    }
}

/// `avenir-mcp cache clear`: remove every file of the cache directory `dir` (then the directory,
/// if that left it empty). The files removed, sorted; none when there was no directory.
pub fn clear(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut removed = Vec::new();
    for entry in entries {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            continue;
        }
        let path = entry.path();
        std::fs::remove_file(&path)?;
        removed.push(path);
    }
    removed.sort();
    // Left in place when something else is in it.
    let _ = std::fs::remove_dir(dir);
    Ok(removed)
}

fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    // The directory is the cache's own: one made earlier by hand is made private too.
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
}

/// Open a cache file; `create`: make it first, mode 0600 (SQLite gives its journal the same).
fn open(path: &Path, create: bool) -> Result<Connection, String> {
    let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    if create {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)
            .map_err(|e| format!("it cannot be created ({e})"))?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| format!("it cannot be made private ({e})"))?;
        flags |= OpenFlags::SQLITE_OPEN_CREATE;
    }
    let conn = Connection::open_with_flags(path, flags).map_err(|e| e.to_string())?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| e.to_string())?;
    Ok(conn)
}

/// One row of a plan file.
struct Row {
    format: i64,
    crate_version: String,
    plan_id: String,
    server_knowledge: i64,
    plan: Vec<u8>,
}

/// The snapshot in `path`, or why it cannot be believed.
fn read_plan(path: &Path, plan_id: &str) -> Result<PlanSnapshot, String> {
    let conn = open(path, false).map_err(|e| format!("it cannot be opened ({e})"))?;
    let row = conn
        .query_row(
            "SELECT format, crate_version, plan_id, server_knowledge, plan FROM plan",
            [],
            |row| {
                Ok(Row {
                    format: row.get(0)?,
                    crate_version: row.get(1)?,
                    plan_id: row.get(2)?,
                    server_knowledge: row.get(3)?,
                    plan: row.get(4)?,
                })
            },
        )
        .optional()
        .map_err(|e| format!("it cannot be read ({e})"))?
        .ok_or("it holds no plan")?;
    if row.format != FORMAT || row.crate_version != VERSION {
        return Err(format!(
            "it was written by another version (format {}, avenir-mcp {}; this is format {FORMAT}, avenir-mcp {VERSION})",
            row.format,
            crate::text::quoted(&row.crate_version)
        ));
    }
    if row.plan_id != plan_id {
        return Err("it holds another plan than its name says".to_string());
    }
    // serde_json's messages can quote a value; only the place of the damage is logged.
    let plan: PlanDetail = serde_json::from_slice(&row.plan).map_err(|e| {
        format!(
            "its plan is not the JSON this version reads ({:?} error at line {}, column {})",
            e.classify(),
            e.line(),
            e.column()
        )
    })?;
    if plan.id != plan_id {
        return Err("its plan has another id than its name says".to_string());
    }
    Ok(PlanSnapshot::new(plan, row.server_knowledge))
}

/// Replace the row of `path` with `snapshot`, unless it holds the same knowledge or later.
fn write_plan(path: &Path, snapshot: &PlanSnapshot) -> Result<Saved, String> {
    let json = serde_json::to_vec(&snapshot.plan)
        .map_err(|e| format!("the plan cannot be written as JSON ({e})"))?;
    let mut conn = open(path, true)?;
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| e.to_string())?;
    // A table this format cannot read (another version's, or none yet) is replaced.
    let on_disk: Option<(i64, i64)> = tx
        .query_row("SELECT format, server_knowledge FROM plan", [], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .ok();
    if let Some((format, knowledge)) = on_disk
        && format == FORMAT
        && knowledge >= snapshot.server_knowledge
    {
        return Ok(Saved::AlreadyCurrent);
    }
    tx.execute_batch(
        "DROP TABLE IF EXISTS plan;
         CREATE TABLE plan (
             format INTEGER NOT NULL,
             crate_version TEXT NOT NULL,
             plan_id TEXT NOT NULL,
             server_knowledge INTEGER NOT NULL,
             saved_at TEXT NOT NULL,
             plan BLOB NOT NULL
         );",
    )
    .map_err(|e| e.to_string())?;
    tx.execute(
        "INSERT INTO plan (format, crate_version, plan_id, server_knowledge, saved_at, plan)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            FORMAT,
            VERSION,
            snapshot.id(),
            snapshot.server_knowledge,
            chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            json
        ],
    )
    .map_err(|e| e.to_string())?;
    tx.commit().map_err(|e| e.to_string())?;
    Ok(Saved::Written)
}

/// Record that `alias` named `plan_id`.
fn write_alias(path: &Path, alias: &str, plan_id: &str) -> Result<(), String> {
    let mut conn = open(path, true)?;
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| e.to_string())?;
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS alias (
             name TEXT PRIMARY KEY,
             plan_id TEXT NOT NULL,
             format INTEGER NOT NULL,
             crate_version TEXT NOT NULL
         );",
    )
    .map_err(|e| e.to_string())?;
    tx.execute(
        "INSERT OR REPLACE INTO alias (name, plan_id, format, crate_version) VALUES (?1, ?2, ?3, ?4)",
        params![alias, plan_id, FORMAT, VERSION],
    )
    .map_err(|e| e.to_string())?;
    tx.commit().map_err(|e| e.to_string())
}

/// The cache as the plan store uses it: reads awaited on the blocking pool; saves queued there,
/// one writer per plan in this process, the latest copy written last (a copy superseded while
/// waiting is skipped).
#[derive(Debug, Clone)]
pub struct DiskCache {
    cache: PlanCache,
    /// Plans with a writer running: the copy it writes next, if any.
    pending: Arc<Mutex<HashMap<String, Option<Queued>>>>,
}

#[derive(Debug)]
struct Queued {
    snapshot: Arc<PlanSnapshot>,
    alias: Option<String>,
}

impl DiskCache {
    pub fn new(cache: PlanCache) -> Self {
        DiskCache {
            cache,
            pending: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    pub fn cache(&self) -> &PlanCache {
        &self.cache
    }

    /// [`PlanCache::restore`] on the blocking pool.
    pub async fn restore(&self, name: &str) -> Option<PlanSnapshot> {
        let cache = self.cache.clone();
        let name = name.to_string();
        tokio::task::spawn_blocking(move || cache.restore(&name))
            .await
            .unwrap_or_else(|error| {
                tracing::warn!("reading the plan cache stopped: {error}");
                None
            })
    }

    /// [`PlanCache::forget`] on the blocking pool.
    pub async fn forget(&self, plan_id: &str, why: &str) {
        let cache = self.cache.clone();
        let (plan_id, why) = (plan_id.to_string(), why.to_string());
        if let Err(error) = tokio::task::spawn_blocking(move || cache.forget(&plan_id, &why)).await
        {
            tracing::warn!("discarding a plan cache file stopped: {error}");
        }
    }

    /// Queue a save of `snapshot` (loaded under `alias`, if so); the call goes on at once.
    pub fn save(&self, snapshot: Arc<PlanSnapshot>, alias: Option<String>) {
        let id = snapshot.id().to_string();
        {
            let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(next) = pending.get_mut(&id) {
                // A writer is running for this plan: it writes this copy after its own.
                let alias = alias.or_else(|| next.take().and_then(|q| q.alias));
                *next = Some(Queued { snapshot, alias });
                return;
            }
            pending.insert(id.clone(), Some(Queued { snapshot, alias }));
        }
        let this = self.clone();
        drop(tokio::task::spawn_blocking(move || this.drain(&id)));
    }

    fn drain(&self, id: &str) {
        loop {
            let next = {
                let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
                match pending.get_mut(id).and_then(Option::take) {
                    Some(next) => next,
                    None => {
                        pending.remove(id);
                        return;
                    }
                }
            };
            match self.cache.save(&next.snapshot, next.alias.as_deref()) {
                Ok(Saved::Written) => tracing::debug!(
                    "plan {id} saved to the cache at knowledge={}",
                    next.snapshot.server_knowledge
                ),
                Ok(Saved::AlreadyCurrent) => {
                    tracing::debug!("plan {id}: the cache already holds this knowledge or later")
                }
                Err(why) => tracing::warn!("the plan cache was not saved: {why}"),
            }
        }
    }

    /// Wait until every queued save is written (the end of a session; tests).
    pub async fn saved(&self) {
        loop {
            let idle = self
                .pending
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .is_empty();
            if idle {
                return;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_location_follows_xdg_then_home() {
        assert_eq!(
            location_from(Some("/x/cache".into()), Some("/home/a".into())),
            Ok(PathBuf::from("/x/cache/avenir-mcp"))
        );
        assert_eq!(
            location_from(Some("relative".into()), Some("/home/a".into())),
            Ok(PathBuf::from("/home/a/.cache/avenir-mcp"))
        );
        assert_eq!(
            location_from(None, Some("/home/a".into())),
            Ok(PathBuf::from("/home/a/.cache/avenir-mcp"))
        );
        let missing = location_from(Some("".into()), None);
        assert!(
            missing
                .as_ref()
                .is_err_and(|m| m.contains("neither XDG_CACHE_HOME")),
            "{missing:?}"
        );
    }

    #[test]
    fn only_a_uuid_names_a_file() {
        assert!(is_uuid("3f2c1a9e-0b7d-5e4f-8a6b-1c2d3e4f5a6b"));
        for bad in [
            "last-used",
            "../../etc/passwd",
            "3f2c1a9e-0b7d-5e4f-8a6b-1c2d3e4f5a6",
            "3f2c1a9e/0b7d-5e4f-8a6b-1c2d3e4f5a6b",
            "3f2c1a9e-0b7d-5e4f-8a6b-1c2d3e4f5a6g",
        ] {
            assert!(!is_uuid(bad), "{bad}");
        }
        let cache = PlanCache::new(PathBuf::from("/c"));
        assert_eq!(cache.file_of("last-used"), None);
    }
}
