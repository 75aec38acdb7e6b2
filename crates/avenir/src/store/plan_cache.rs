//! The opt-in plan cache (`AVENIR_MCP_CACHE=1`, issue 12): each synced plan kept between runs in
//! a file of its own, so that the next start catches up with one delta request instead of a full
//! export.
//!
//! `<dir>/<plan id>.json` is one line of JSON saying what the file holds — the format version, the
//! crate version, the plan id, `server_knowledge`, when it was saved — then the plan as YNAB sent
//! it (JSON). `<dir>/aliases.json` says which plan `last-used`/`default` named when they were last
//! resolved. Nothing derived from the token is stored: the delta request at the next start is
//! what checks the token may read the plan. Files are 0600 in a 0700 directory.
//!
//! A file of another version, or one that cannot be read (no header, bad JSON, another plan's
//! id), is discarded with a warning naming the file and why (never plan data), and the plan is
//! loaded from YNAB as without a cache. A save writes a temporary file and renames it over the
//! old one, so a reader sees the previous copy or the new one, never half of one, and a crash
//! mid-save leaves the previous copy. Saves take the directory's lock (`flock`), so two processes
//! take turns, and a save never replaces a copy that is as recent as itself or more. A save that
//! fails is a warning, never a failed call.
//!
//! This module knows plans only as [`KeptPlan`]: the plan store, which uses it, implements that
//! for its snapshots.
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use ynab::models::PlanDetail;

/// The layout of the files; a file of another format is discarded (1 was a SQLite file a plan).
pub const FORMAT: i64 = 2;
/// The crate version that wrote a file; a file of another version is discarded.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The index of aliases (`last-used`, `default`) to the plan ids they named.
const ALIASES: &str = "aliases.json";
const EXTENSION: &str = ".json";
/// The longest header line read (it is about 200 bytes).
const HEADER_LIMIT: u64 = 4096;
/// Files of format 1, removed by the next save.
const LEGACY_ALIASES: &str = "aliases.sqlite";
const LEGACY_EXTENSION: &str = ".sqlite";
const LEGACY_SUFFIXES: [&str; 4] = ["", "-journal", "-wal", "-shm"];

/// What the cache keeps of a plan: the plan as YNAB sent it and the knowledge of that sync.
pub trait KeptPlan: std::fmt::Debug + Send + Sync + 'static {
    fn plan(&self) -> &PlanDetail;
    fn server_knowledge(&self) -> i64;
}

/// A plan as read back from the cache.
#[derive(Debug, Clone, PartialEq)]
pub struct Kept {
    pub plan: PlanDetail,
    pub server_knowledge: i64,
}

impl KeptPlan for Kept {
    fn plan(&self) -> &PlanDetail {
        &self.plan
    }
    fn server_knowledge(&self) -> i64 {
        self.server_knowledge
    }
}

/// Why a save failed: a sentence for a warning.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SaveError(String);

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

/// The first line of a plan file.
#[derive(Debug, Serialize, Deserialize)]
struct Header {
    format: i64,
    crate_version: String,
    plan_id: String,
    server_knowledge: i64,
    saved_at: String,
}

/// The aliases file.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Aliases {
    format: i64,
    crate_version: String,
    aliases: BTreeMap<String, String>,
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
    pub fn restore(&self, name: &str) -> Option<Kept> {
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
            Ok(kept) => Some(kept),
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
        match read_aliases(&path) {
            Ok(aliases) => match aliases.aliases.get(alias) {
                Some(plan_id) if is_uuid(plan_id) => Some(plan_id.clone()),
                Some(_) => {
                    self.discard(&path, "an alias names something that is not a plan id");
                    None
                }
                None => None,
            },
            Err(why) => {
                self.discard(&path, &why);
                None
            }
        }
    }

    /// Save `kept` (and, when it was loaded under `alias`, which plan the alias named), each file
    /// replaced whole, under the directory's lock.
    pub fn save(&self, kept: &dyn KeptPlan, alias: Option<&str>) -> Result<Saved, SaveError> {
        let plan_id = kept.plan().id.as_str();
        let path = self.file_of(plan_id).ok_or_else(|| {
            SaveError(format!(
                "the plan id {plan_id:?} is not a UUID, so it names no file"
            ))
        })?;
        create_private_dir(&self.dir).map_err(|e| {
            SaveError(format!(
                "the directory {} cannot be made ({e})",
                self.dir.display()
            ))
        })?;
        let _lock = lock(&self.dir)?;
        let saved = write_plan(&path, kept)
            .map_err(|why| SaveError(format!("{}: {why}", path.display())))?;
        if let Some(alias) = alias {
            let index = self.dir.join(ALIASES);
            write_alias(&index, alias, plan_id)
                .map_err(|why| SaveError(format!("{}: {why}", index.display())))?;
        }
        self.remove_legacy(plan_id);
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

    /// Remove a file that cannot be believed.
    fn discard(&self, path: &Path, why: &str) {
        tracing::warn!(
            "discarding the plan cache file {}: {why}; the plan is loaded from YNAB instead",
            path.display()
        );
        remove_if_there(path);
    }

    /// The files a version that kept plans in SQLite left for this plan, and its aliases.
    fn remove_legacy(&self, plan_id: &str) {
        for base in [
            format!("{plan_id}{LEGACY_EXTENSION}"),
            LEGACY_ALIASES.to_string(),
        ] {
            for suffix in LEGACY_SUFFIXES {
                remove_if_there(&self.dir.join(format!("{base}{suffix}")));
            }
        }
    }
}

fn remove_if_there(path: &Path) {
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => tracing::warn!(
            "the plan cache file {} could not be removed: {e}",
            path.display()
        ),
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

/// The directory's exclusive lock, held until the handle is dropped: another process's save
/// waits for it.
fn lock(dir: &Path) -> Result<File, SaveError> {
    let handle = File::open(dir)
        .and_then(|handle| handle.lock().map(|()| handle))
        .map_err(|e| SaveError(format!("{} cannot be locked ({e})", dir.display())))?;
    Ok(handle)
}

/// The header of the plan file at `path`, and a reader positioned at the plan.
fn open_plan(path: &Path) -> Result<(Header, BufReader<File>), String> {
    let file = File::open(path).map_err(|e| format!("it cannot be opened ({e})"))?;
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    (&mut reader)
        .take(HEADER_LIMIT)
        .read_until(b'\n', &mut line)
        .map_err(|e| format!("it cannot be read ({e})"))?;
    if line.is_empty() {
        return Err("it holds no plan".to_string());
    }
    let header: Header = serde_json::from_slice(&line).map_err(|_| {
        "it cannot be read (it does not start with a plan cache header)".to_string()
    })?;
    if header.format != FORMAT || header.crate_version != VERSION {
        return Err(format!(
            "it was written by another version (format {}, avenir-mcp {}; this is format {FORMAT}, avenir-mcp {VERSION})",
            header.format,
            crate::text::quoted(&header.crate_version)
        ));
    }
    Ok((header, reader))
}

/// The plan in `path`, or why it cannot be believed.
fn read_plan(path: &Path, plan_id: &str) -> Result<Kept, String> {
    let (header, reader) = open_plan(path)?;
    if header.plan_id != plan_id {
        return Err("it holds another plan than its name says".to_string());
    }
    // serde_json's messages can quote a value; only the place of the damage is logged.
    let plan: PlanDetail = serde_json::from_reader(reader).map_err(|e| {
        if e.is_eof() && e.line() == 1 && e.column() == 0 {
            return "it holds no plan".to_string();
        }
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
    Ok(Kept {
        plan,
        server_knowledge: header.server_knowledge,
    })
}

/// Replace `path` with `kept`, unless it holds the same knowledge or later (the caller holds the
/// directory's lock).
fn write_plan(path: &Path, kept: &dyn KeptPlan) -> Result<Saved, String> {
    if let Ok((header, _)) = open_plan(path)
        && header.server_knowledge >= kept.server_knowledge()
    {
        return Ok(Saved::AlreadyCurrent);
    }
    let header = Header {
        format: FORMAT,
        crate_version: VERSION.to_string(),
        plan_id: kept.plan().id.to_string(),
        server_knowledge: kept.server_knowledge(),
        saved_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    };
    replace(path, |out| {
        serde_json::to_writer(&mut *out, &header)?;
        out.write_all(b"\n")?;
        serde_json::to_writer(&mut *out, kept.plan())?;
        Ok(())
    })?;
    Ok(Saved::Written)
}

/// The aliases in `path`, or why they cannot be believed.
fn read_aliases(path: &Path) -> Result<Aliases, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("it cannot be read ({e})"))?;
    let aliases: Aliases =
        serde_json::from_slice(&bytes).map_err(|_| "it is not an aliases file".to_string())?;
    if aliases.format != FORMAT || aliases.crate_version != VERSION {
        return Err("it was written by another version".to_string());
    }
    Ok(aliases)
}

/// Record that `alias` named `plan_id` (the caller holds the directory's lock).
fn write_alias(path: &Path, alias: &str, plan_id: &str) -> Result<(), String> {
    let mut aliases = read_aliases(path).unwrap_or_default();
    aliases.format = FORMAT;
    aliases.crate_version = VERSION.to_string();
    aliases
        .aliases
        .insert(alias.to_string(), plan_id.to_string());
    replace(path, |out| Ok(serde_json::to_writer(out, &aliases)?))
}

/// Write `path` whole: `write` fills a temporary file beside it (mode 0600), which is flushed to
/// disk and renamed over `path`.
fn replace(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<(), String> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let mut temporary = path.as_os_str().to_os_string();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let written = (|| {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .mode(0o600)
            .open(&temporary)?;
        // A temporary file left by a crash may have had another mode.
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        let mut out = BufWriter::new(file);
        write(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    })();
    written.map_err(|e| {
        remove_if_there(&temporary);
        format!("it cannot be written ({e})")
    })
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
    snapshot: Arc<dyn KeptPlan>,
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
    pub async fn restore(&self, name: &str) -> Option<Kept> {
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
    pub fn save(&self, snapshot: Arc<dyn KeptPlan>, alias: Option<String>) {
        let id = snapshot.plan().id.to_string();
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
            match self
                .cache
                .save(next.snapshot.as_ref(), next.alias.as_deref())
            {
                Ok(Saved::Written) => tracing::debug!(
                    "plan {id} saved to the cache at knowledge={}",
                    next.snapshot.server_knowledge()
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
