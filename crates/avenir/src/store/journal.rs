//! The journal of applied operations (`docs/contract/writes.md` §5, D14, D31): JSON Lines in the
//! reference's exact format, so a person switching from the Python server keeps their history,
//! and beside it the intents file that makes every write crash-safe.
//!
//! Only ids, kinds, timestamps and the before/after values undo needs are written: never an
//! amount of a transaction, a payee of a transaction, a memo or the token (D6). Every
//! read-modify-append of both files holds the exclusive lock `<journal>.lock`.
//!
//! A second lock file, `<journal>.undo.lock`, orders undos against everything else across
//! processes sharing the journal (D5): every write holds it shared from its intent to its settle,
//! and an undo holds it exclusively from its check that the operation is still in effect to its
//! marker, so two undos of one operation never both revert it, and an undo never finds a write
//! still in flight "unfinished". It is a separate file because it is held across YNAB requests,
//! which `<journal>.lock` must never be.

use serde::Serialize;
use serde_json::{Value, json};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::shared::{HeldLock, SharedStore, Stream};

/// How a journal kept in the database is named in messages (it has no path).
const SHARED_NAME: &str = "your journal";

/// How a write holds `<journal>.undo.lock`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UndoLockMode {
    /// Any write but an undo: many at once, none while an undo runs.
    Writing,
    /// An undo: alone, from its check to its marker (D5).
    Undoing,
}

/// `<journal>.undo.lock`, held (shared or exclusive) until dropped: every path out of a write,
/// errors included, lets it go. The lock is `flock(2)`'s, which belongs to this open file, so
/// two tasks of one process exclude each other as two processes do.
#[derive(Debug)]
pub struct UndoLock {
    _held: Held,
}

#[derive(Debug)]
enum Held {
    File(#[allow(dead_code)] File),
    Shared(#[allow(dead_code)] Box<dyn HeldLock>),
}

/// Where the journal lives.
#[derive(Debug, Clone)]
pub enum JournalLocation {
    /// `AVENIR_MCP_JOURNAL`, else `$XDG_STATE_HOME/avenir-mcp/journal.jsonl`, else
    /// `~/.local/state/avenir-mcp/journal.jsonl`, evaluated at each use.
    Environment,
    /// A fixed path (`--demo`'s temporary directory, tests).
    Fixed(PathBuf),
    /// One person's journal in the hosted mode's database, shared by every instance: the same
    /// lines as the file's, and the undo lock taken there.
    Shared(Arc<dyn SharedStore>),
}

/// The journal and its intents file.
#[derive(Debug, Clone)]
pub struct Journal {
    location: JournalLocation,
}

/// One move of a `categorize` operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Move {
    pub transaction_id: String,
    pub from_category_id: Option<String>,
    pub to_category_id: Option<String>,
}

/// An operation line, keys in the reference's order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Operation {
    pub operation_id: String,
    pub plan_id: String,
    pub kind: String,
    pub applied_at: String,
    pub moves: Vec<Move>,
    pub details: Value,
    /// Present (false) for the kinds undo cannot revert (D25).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undoable: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// An intent: what will be written, before the first YNAB write (D14, D31).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Intent {
    pub id: String,
    pub kind: String,
    pub plan_id: String,
    pub details: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_knowledge: Option<i64>,
}

/// What a lookup finds in the journal.
#[derive(Debug, Clone, Default)]
pub struct JournalView {
    /// Operation lines in file order.
    pub operations: Vec<Operation>,
    /// The line number (from 1) of each operation, in the same order.
    pub lines: Vec<usize>,
    /// Ids named by undo markers.
    pub undone: std::collections::HashSet<String>,
}

impl JournalView {
    /// The latest operation of `plan_id` still in effect (optionally the one named), scanning
    /// from the end of the file.
    pub fn find<'a>(
        &'a self,
        plan_id: &'a str,
        operation_id: Option<&str>,
    ) -> Option<&'a Operation> {
        self.in_effect(plan_id)
            .find(|op| operation_id.is_none_or(|id| op.operation_id == id))
    }

    /// The line of the file that holds operation `operation_id` (its last line, if repeated).
    pub fn line_of(&self, operation_id: &str) -> Option<usize> {
        self.operations
            .iter()
            .zip(&self.lines)
            .rev()
            .find(|(op, _)| op.operation_id == operation_id)
            .map(|(_, line)| *line)
    }

    /// The operations of `plan_id` still in effect, latest first.
    pub fn in_effect<'a>(&'a self, plan_id: &'a str) -> impl Iterator<Item = &'a Operation> {
        self.operations
            .iter()
            .rev()
            .filter(move |op| op.plan_id == plan_id && !self.undone.contains(&op.operation_id))
    }
}

/// A journal problem, as the person is told it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JournalError {
    /// E-U3.
    #[error(
        "{path}, line {line}, is not a journal entry: fix or remove that line, or move the file aside to start a new journal."
    )]
    Damaged { path: String, line: usize },
    #[error("{0}")]
    Io(String),
}

impl Journal {
    pub fn new(location: JournalLocation) -> Self {
        Journal { location }
    }

    /// The journal's path now (a journal kept in the database has none: an error).
    pub fn path(&self) -> Result<PathBuf, JournalError> {
        match &self.location {
            JournalLocation::Fixed(path) => Ok(path.clone()),
            JournalLocation::Shared(_) => Err(JournalError::Io(format!(
                "{SHARED_NAME} is kept in the server's database, not in a file"
            ))),
            JournalLocation::Environment => {
                if let Some(path) = std::env::var_os("AVENIR_MCP_JOURNAL").filter(|p| !p.is_empty())
                {
                    return Ok(PathBuf::from(path));
                }
                let base = match std::env::var_os("XDG_STATE_HOME").filter(|p| !p.is_empty()) {
                    Some(dir) => PathBuf::from(dir),
                    None => std::env::var_os("HOME")
                        .map(|home| PathBuf::from(home).join(".local/state"))
                        .ok_or_else(|| {
                            JournalError::Io(
                                "no journal location: set AVENIR_MCP_JOURNAL or HOME".into(),
                            )
                        })?,
                };
                Ok(base.join("avenir-mcp").join("journal.jsonl"))
            }
        }
    }

    fn sibling(path: &Path, suffix: &str) -> PathBuf {
        let mut name = path.as_os_str().to_os_string();
        name.push(suffix);
        PathBuf::from(name)
    }

    /// Run `work` on a blocking thread: the journal's file lock waits on other processes and
    /// every append is flushed to disk, which must not hold one of the async runtime's workers.
    pub async fn blocking<R: Send + 'static>(
        &self,
        work: impl FnOnce(&Journal) -> Result<R, JournalError> + Send + 'static,
    ) -> Result<R, JournalError> {
        let journal = self.clone();
        tokio::task::spawn_blocking(move || work(&journal))
            .await
            .map_err(|error| JournalError::Io(format!("the journal's task stopped: {error}")))?
    }

    /// Run `f` holding the journal's exclusive lock.
    pub fn locked<R>(
        &self,
        f: impl FnOnce(&Path) -> Result<R, JournalError>,
    ) -> Result<R, JournalError> {
        let path = self.path()?;
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            create_private_dir(parent).map_err(|e| io(&path, e))?;
        }
        let lock_path = Self::sibling(&path, ".lock");
        let lock = open_private(&lock_path, false).map_err(|e| io(&lock_path, e))?;
        lock.lock().map_err(|e| io(&lock_path, e))?;
        let result = f(&path);
        drop(lock);
        result
    }

    /// Take `<journal>.undo.lock` as `mode` says, waiting for it (blocking: see
    /// [`Journal::undo_lock`]).
    pub fn undo_lock_blocking(&self, mode: UndoLockMode) -> Result<UndoLock, JournalError> {
        if let Some(store) = self.shared() {
            let held = store
                .undo_lock(mode == UndoLockMode::Undoing)
                .map_err(|e| JournalError::Io(format!("{SHARED_NAME}'s undo lock: {e}")))?;
            return Ok(UndoLock {
                _held: Held::Shared(held),
            });
        }
        let path = self.path()?;
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            create_private_dir(parent).map_err(|e| io(&path, e))?;
        }
        let lock_path = Self::sibling(&path, ".undo.lock");
        let file = open_private(&lock_path, false).map_err(|e| io(&lock_path, e))?;
        match mode {
            UndoLockMode::Writing => file.lock_shared(),
            UndoLockMode::Undoing => file.lock(),
        }
        .map_err(|e| io(&lock_path, e))?;
        Ok(UndoLock {
            _held: Held::File(file),
        })
    }

    /// Take `<journal>.undo.lock` as `mode` says, waiting on a blocking thread so the async
    /// workers keep serving. A caller that gives up leaves nothing held: the lock, once taken,
    /// is dropped with the unclaimed result.
    pub async fn undo_lock(&self, mode: UndoLockMode) -> Result<UndoLock, JournalError> {
        let journal = self.clone();
        tokio::task::spawn_blocking(move || journal.undo_lock_blocking(mode))
            .await
            .map_err(|e| JournalError::Io(format!("the journal's undo lock: {e}")))?
    }

    /// The database this journal is kept in, if it is.
    fn shared(&self) -> Option<&Arc<dyn SharedStore>> {
        match &self.location {
            JournalLocation::Shared(store) => Some(store),
            _ => None,
        }
    }

    fn append_shared(
        store: &Arc<dyn SharedStore>,
        stream: Stream,
        lines: &[String],
    ) -> Result<(), JournalError> {
        store
            .append(stream, lines)
            .map_err(|e| JournalError::Io(format!("{SHARED_NAME}: {e}")))
    }

    fn shared_lines(store: &Arc<dyn SharedStore>, stream: Stream) -> Result<String, JournalError> {
        let lines = store
            .lines(stream)
            .map_err(|e| JournalError::Io(format!("{SHARED_NAME}: {e}")))?;
        Ok(lines.join("\n"))
    }

    /// Append and flush an intent before the first YNAB write.
    pub fn record_intent(&self, intent: &Intent) -> Result<(), JournalError> {
        if let Some(store) = self.shared() {
            let line = json!({ "intent": intent }).to_string();
            return Self::append_shared(store, Stream::Intents, &[line]);
        }
        self.locked(|path| {
            append_line(&Self::sibling(path, ".intents"), &json!({"intent": intent}))
        })
    }

    /// Settle an intent: `applied` or `failed`.
    pub fn settle(&self, intent_id: &str, outcome: &str) -> Result<(), JournalError> {
        if let Some(store) = self.shared() {
            let line = json!({"settled": intent_id, "outcome": outcome}).to_string();
            return Self::append_shared(store, Stream::Intents, &[line]);
        }
        self.locked(|path| {
            append_line(
                &Self::sibling(path, ".intents"),
                &json!({"settled": intent_id, "outcome": outcome}),
            )
        })
    }

    /// Append an operation line (keys in the reference's order).
    pub fn append(&self, operation: &Operation) -> Result<(), JournalError> {
        let line = operation_line(operation)?;
        self.append_all(&[line])
    }

    /// Append lines (compact JSON, one object each) in one locked step.
    pub fn append_all(&self, lines: &[String]) -> Result<(), JournalError> {
        if let Some(store) = self.shared() {
            return Self::append_shared(store, Stream::Journal, lines);
        }
        self.locked(|path| {
            for line in lines {
                append_text(path, line)?;
            }
            Ok(())
        })
    }

    /// Read the whole journal (no cache).
    pub fn read(&self) -> Result<JournalView, JournalError> {
        if let Some(store) = self.shared() {
            let text = Self::shared_lines(store, Stream::Journal)?;
            return view_of(text.as_bytes(), SHARED_NAME);
        }
        let path = self.path()?;
        read_view(&path)
    }

    /// Intents never settled, oldest first (D14).
    pub fn unfinished(&self) -> Result<Vec<Intent>, JournalError> {
        let (text, path) = match self.shared() {
            Some(store) => (
                Self::shared_lines(store, Stream::Intents)?,
                PathBuf::from(format!("{SHARED_NAME}'s intents")),
            ),
            None => {
                let path = Self::sibling(&self.path()?, ".intents");
                let text = match std::fs::read(&path) {
                    Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
                    Err(e) => return Err(io(&path, e)),
                };
                (text, path)
            }
        };
        let mut intents: Vec<Intent> = Vec::new();
        let mut settled = std::collections::HashSet::new();
        for (number, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let Ok(value) = serde_json::from_str::<Value>(line) else {
                // A line cut short by a crash mid-append: the intent it began was never
                // followed by a YNAB write (the write waits for the flush), so nothing is lost;
                // it is named, not silently passed over.
                tracing::warn!(
                    "{}, line {}, is not an intent: passed over",
                    path.display(),
                    number + 1
                );
                continue;
            };
            if let Some(id) = value.get("settled").and_then(Value::as_str) {
                settled.insert(id.to_string());
            } else if let Some(intent) = value
                .get("intent")
                .and_then(|i| serde_json::from_value::<Intent>(i.clone()).ok())
            {
                intents.push(intent);
            }
        }
        intents.retain(|i| !settled.contains(&i.id));
        Ok(intents)
    }
}

fn io(path: &Path, error: std::io::Error) -> JournalError {
    JournalError::Io(format!("{}: {error}", path.display()))
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

fn open_private(path: &Path, append: bool) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true);
    if append {
        options.append(true);
    } else {
        options.write(true).truncate(false);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

/// An operation as its journal line: compact JSON, keys in the reference's order.
pub fn operation_line(operation: &Operation) -> Result<String, JournalError> {
    serde_json::to_string(operation).map_err(|e| JournalError::Io(e.to_string()))
}

/// An undo marker line.
pub fn undone_line(operation_id: &str) -> String {
    json!({ "undone": operation_id }).to_string()
}

fn append_line(path: &Path, value: &Value) -> Result<(), JournalError> {
    append_text(path, &value.to_string())
}

/// Write one complete line in one `write` call, then flush it to the disk.
fn append_text(path: &Path, text: &str) -> Result<(), JournalError> {
    let mut line = text.to_string();
    line.push('\n');
    let mut file = open_private(path, true).map_err(|e| io(path, e))?;
    file.write_all(line.as_bytes()).map_err(|e| io(path, e))?;
    file.sync_data().map_err(|e| io(path, e))?;
    Ok(())
}

fn read_view(path: &Path) -> Result<JournalView, JournalError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(JournalView::default()),
        Err(e) => return Err(io(path, e)),
    };
    view_of(&bytes, &path.display().to_string())
}

/// The view of a journal's text; `name` is how a damaged line's message names it.
fn view_of(bytes: &[u8], name: &str) -> Result<JournalView, JournalError> {
    let damaged = |line: usize| JournalError::Damaged {
        path: name.to_string(),
        line,
    };
    let mut view = JournalView::default();
    for (index, raw) in bytes.split(|b| *b == b'\n').enumerate() {
        let line_no = index + 1;
        let text = std::str::from_utf8(raw).map_err(|_| damaged(line_no))?;
        if text.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(text).map_err(|_| damaged(line_no))?;
        if let Some(id) = value.get("undone").and_then(Value::as_str) {
            view.undone.insert(id.to_string());
            continue;
        }
        view.operations
            .push(parse_operation(&value).ok_or_else(|| damaged(line_no))?);
        view.lines.push(line_no);
    }
    Ok(view)
}

fn parse_operation(value: &Value) -> Option<Operation> {
    let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_string);
    let moves = value
        .get("moves")?
        .as_array()?
        .iter()
        .map(|m| serde_json::from_value::<Move>(m.clone()).ok())
        .collect::<Option<Vec<_>>>()?;
    let details = match value.get("details") {
        None | Some(Value::Null) => json!({}),
        Some(d @ Value::Object(_)) => d.clone(),
        Some(_) => return None,
    };
    Some(Operation {
        operation_id: text("operation_id")?,
        plan_id: text("plan_id").or_else(|| text("budget_id"))?,
        kind: text("kind")?,
        applied_at: text("applied_at")?,
        moves,
        details,
        undoable: value.get("undoable").and_then(Value::as_bool),
        reason: text("reason"),
    })
}

/// 12 lower-case hex characters from 6 CSPRNG bytes.
pub fn new_operation_id() -> String {
    crate::random::hex::<6>()
}

/// Now, as the journal writes it: `2026-09-25T09:12:04+00:00`.
pub fn applied_at_now() -> String {
    chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S+00:00")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_journal(name: &str) -> (Journal, PathBuf) {
        let dir = std::env::temp_dir().join(format!(
            "avenir-journal-{name}-{}-{}",
            std::process::id(),
            new_operation_id()
        ));
        let path = dir.join("journal.jsonl");
        (Journal::new(JournalLocation::Fixed(path.clone())), dir)
    }

    fn operation(id: &str, plan: &str) -> Operation {
        Operation {
            operation_id: id.into(),
            plan_id: plan.into(),
            kind: "budget".into(),
            applied_at: "2026-09-25T09:20:00+00:00".into(),
            moves: vec![],
            details: json!({"month": "2026-09-01", "category_id": "c", "from": 1, "to": 2}),
            undoable: None,
            reason: None,
        }
    }

    #[test]
    fn the_reference_line_format_and_privacy() {
        let (journal, dir) = temp_journal("format");
        journal
            .append(&operation("a1b2c3d4e5f6", "p"))
            .unwrap_or_else(|e| panic!("{e}"));
        let path = journal.path().unwrap_or_default();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            text,
            "{\"operation_id\":\"a1b2c3d4e5f6\",\"plan_id\":\"p\",\"kind\":\"budget\",\"applied_at\":\"2026-09-25T09:20:00+00:00\",\"moves\":[],\"details\":{\"category_id\":\"c\",\"from\":1,\"month\":\"2026-09-01\",\"to\":2}}\n"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).map(|m| m.permissions().mode() & 0o777);
            assert_eq!(mode.ok(), Some(0o600));
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn find_takes_the_latest_in_effect_of_the_plan() {
        let (journal, dir) = temp_journal("find");
        for (id, plan) in [("o1", "p"), ("o2", "p"), ("o3", "q")] {
            journal
                .append(&operation(id, plan))
                .unwrap_or_else(|e| panic!("{e}"));
        }
        journal
            .append_all(&[undone_line("o2")])
            .unwrap_or_else(|e| panic!("{e}"));
        let view = journal.read().unwrap_or_default();
        assert_eq!(
            view.find("p", None).map(|o| o.operation_id.as_str()),
            Some("o1")
        );
        assert!(view.find("p", Some("o2")).is_none());
        assert_eq!(
            view.find("q", None).map(|o| o.operation_id.as_str()),
            Some("o3")
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn each_operation_knows_its_line() {
        let (journal, dir) = temp_journal("lines");
        journal
            .append(&operation("o1", "p"))
            .unwrap_or_else(|e| panic!("{e}"));
        journal
            .append_all(&[undone_line("o1")])
            .unwrap_or_else(|e| panic!("{e}"));
        journal
            .append(&operation("o2", "p"))
            .unwrap_or_else(|e| panic!("{e}"));
        let view = journal.read().unwrap_or_default();
        assert_eq!(view.line_of("o1"), Some(1));
        assert_eq!(view.line_of("o2"), Some(3));
        assert_eq!(view.line_of("o3"), None);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_damaged_line_names_the_file_and_line() {
        let (journal, dir) = temp_journal("damaged");
        journal
            .append(&operation("o1", "p"))
            .unwrap_or_else(|e| panic!("{e}"));
        let path = journal.path().unwrap_or_default();
        let mut text = std::fs::read_to_string(&path).unwrap_or_default();
        text.push_str("\nnot json\n");
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            journal.read().err(),
            Some(JournalError::Damaged {
                path: path.display().to_string(),
                line: 3
            })
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn intents_settle_and_unfinished_ones_remain() {
        let (journal, dir) = temp_journal("intents");
        for id in ["i1", "i2"] {
            journal
                .record_intent(&Intent {
                    id: id.into(),
                    kind: "budget".into(),
                    plan_id: "p".into(),
                    details: json!({}),
                    server_knowledge: Some(7),
                })
                .unwrap_or_else(|e| panic!("{e}"));
        }
        journal
            .settle("i1", "applied")
            .unwrap_or_else(|e| panic!("{e}"));
        let unfinished = journal.unfinished().unwrap_or_default();
        assert_eq!(unfinished.len(), 1);
        assert_eq!(unfinished[0].id, "i2");
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Whether another open of `<journal>.undo.lock` could take it now, shared or exclusive.
    fn free_for(journal: &Journal, shared: bool) -> bool {
        let path = Journal::sibling(&journal.path().unwrap_or_default(), ".undo.lock");
        let Ok(file) = File::open(&path) else {
            return false;
        };
        if shared {
            file.try_lock_shared().is_ok()
        } else {
            file.try_lock().is_ok()
        }
    }

    #[test]
    fn the_undo_lock_excludes_across_opens_and_is_released_on_drop() {
        let (journal, dir) = temp_journal("undo-lock");
        let writing = journal
            .undo_lock_blocking(UndoLockMode::Writing)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(free_for(&journal, true), "writes share it");
        assert!(
            !free_for(&journal, false),
            "an undo waits for writes in flight"
        );
        drop(writing);
        let undoing = journal
            .undo_lock_blocking(UndoLockMode::Undoing)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!free_for(&journal, true), "a write waits for the undo");
        assert!(!free_for(&journal, false), "a second undo waits");
        drop(undoing);
        assert!(free_for(&journal, false), "dropped: free again");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let path = Journal::sibling(&journal.path().unwrap_or_default(), ".undo.lock");
            let mode = std::fs::metadata(&path).map(|m| m.permissions().mode() & 0o777);
            assert_eq!(mode.ok(), Some(0o600));
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}
