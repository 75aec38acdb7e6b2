//! The layer rules of `ARCHITECTURE.md`, enforced by reading the sources from disk (like
//! rust-analyzer's tidy tests): logic is pure, only the confirmation path writes to YNAB, every
//! module opens with `//!`, every citation of the design resolves to a file and heading of the
//! repository. Each failure names the file and line.
//!
//! The scan is textual: whole-line comments are skipped, everything else is code. It is strict on
//! purpose; a rule that no longer fits the design is changed here, with its reason.

use std::path::{Path, PathBuf};

/// The workspace root (this crate is `crates/avenir`).
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A source file: its path from the workspace root and its lines.
struct Source {
    path: String,
    lines: Vec<String>,
}

impl Source {
    /// Lines with their 1-based numbers, whole-line comments left out.
    fn code(&self) -> impl Iterator<Item = (usize, &str)> {
        self.lines
            .iter()
            .enumerate()
            .map(|(i, line)| (i + 1, line.as_str()))
            .filter(|(_, line)| !line.trim_start().starts_with("//"))
    }
}

/// Every `.rs` file under `dir` (relative to the workspace root), sorted.
fn sources(dir: &str) -> Vec<Source> {
    let root = workspace();
    let mut files = Vec::new();
    let mut pending = vec![root.join(dir)];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{} cannot be listed: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()));
            let relative = path.strip_prefix(&root).unwrap_or(&path);
            Source {
                path: relative.to_string_lossy().replace('\\', "/"),
                lines: text.lines().map(str::to_string).collect(),
            }
        })
        .collect()
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `word` occurs in `line` as a whole identifier (or path, when it holds `::`).
fn mentions(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

fn assert_none(rule: &str, violations: Vec<String>) {
    assert!(
        violations.is_empty(),
        "{rule}\n{}",
        violations
            .iter()
            .map(|v| format!("  {v}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// (a) Logic is pure: no runtime, no HTTP, no disk, no network, no environment, no process, no
/// clock. (Undo's per-kind logic awaits what it reads, but only through the `Reads` trait its
/// caller implements: the I/O stays in the tool.)
#[test]
fn logic_does_no_io_and_reads_no_clock() {
    const FORBIDDEN: [(&str, &str); 12] = [
        ("tokio", "an async runtime"),
        ("reqwest", "HTTP"),
        ("std::fs", "the disk"),
        ("std::net", "the network"),
        ("std::env", "the environment"),
        ("std::process", "other processes"),
        ("SystemTime", "the clock"),
        ("Instant", "the clock"),
        ("Utc::now", "the clock"),
        ("Local::now", "the clock"),
        ("Utc::today", "the clock"),
        ("Local::today", "the clock"),
    ];
    let logic = sources("crates/avenir/src/logic");
    assert!(!logic.is_empty(), "crates/avenir/src/logic holds no file");
    let mut violations = Vec::new();
    for source in &logic {
        for (number, line) in source.code() {
            for (word, what) in FORBIDDEN {
                if mentions(line, word) {
                    violations.push(format!(
                        "{}:{number}: `{word}` reaches {what}; logic takes what it needs (\"today\" included) as arguments",
                        source.path
                    ));
                }
            }
        }
    }
    assert_none("logic/ must stay pure (no I/O, no clock):", violations);
}

/// `ynab::Client`'s operations that change a plan. `request` takes any method, so it counts as
/// one.
const WRITES: [&str; 14] = [
    "set_assigned",
    "create_account",
    "create_category",
    "update_category",
    "create_transactions",
    "update_transactions",
    "delete_transaction",
    "import_transactions",
    "rename_payee",
    "request",
    "create_scheduled_transaction",
    "update_scheduled_transaction",
    "delete_scheduled_transaction",
    "create_payee",
];

/// `ynab::Client`'s operations that only read.
const READS: [&str; 12] = [
    "plans",
    "plan",
    "plan_settings",
    "accounts",
    "categories",
    "payees",
    "transactions",
    "scheduled_transactions",
    "months",
    "month",
    "get",
    "scheduled_transactions_since",
];

/// A new operation of the client must be sorted into [`WRITES`] or [`READS`], so the write rule
/// cannot miss it.
#[test]
fn every_client_operation_is_a_read_or_a_write() {
    let client = sources("crates/ynab/src")
        .into_iter()
        .find(|s| s.path == "crates/ynab/src/client.rs")
        .expect("crates/ynab/src/client.rs");
    let mut violations = Vec::new();
    for (number, line) in client.code() {
        let Some(rest) = line.strip_prefix("    pub async fn ") else {
            continue;
        };
        let name: String = rest.chars().take_while(|c| is_ident(*c)).collect();
        if !WRITES.contains(&name.as_str()) && !READS.contains(&name.as_str()) {
            violations.push(format!(
                "{}:{number}: `Client::{name}` is neither in WRITES nor in READS of tests/layers.rs",
                client.path
            ));
        }
    }
    assert_none("every YNAB operation is classified:", violations);
}

/// The function a line sits in: its name, and the `impl` header above it when it is a method.
fn enclosing_fn(source: &Source, number: usize) -> Option<(String, Option<String>)> {
    let indent = |line: &str| line.len() - line.trim_start().len();
    let at = indent(&source.lines[number - 1]);
    let (fn_index, name, fn_indent) = source.lines[..number - 1]
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, line)| {
            let trimmed = line.trim_start();
            let rest = ["pub(crate) ", "pub(super) ", "pub "]
                .iter()
                .find_map(|p| trimmed.strip_prefix(p))
                .unwrap_or(trimmed);
            let rest = rest.strip_prefix("async ").unwrap_or(rest);
            let name = rest.strip_prefix("fn ")?;
            let name: String = name.chars().take_while(|c| is_ident(*c)).collect();
            (indent(line) < at).then_some((i, name, indent(line)))
        })?;
    let header = (fn_indent > 0)
        .then(|| {
            source.lines[..fn_index]
                .iter()
                .rev()
                .find(|line| {
                    [
                        "impl",
                        "fn ",
                        "async fn ",
                        "pub ",
                        "pub(",
                        "mod ",
                        "struct ",
                        "enum ",
                    ]
                    .iter()
                    .any(|item| line.starts_with(item))
                })
                .filter(|line| line.starts_with("impl"))
                .cloned()
        })
        .flatten();
    Some((name, header))
}

/// Whether `name` is a private free function of `source` (`fn name` at the file's top level, not
/// `pub`) that only its file's `ConfirmedWrite::write` calls: a part of that write, split out to
/// be read, that no other path can reach.
fn private_part_of_write(source: &Source, name: &str) -> bool {
    let defined = source.lines.iter().any(|line| {
        let line = line.strip_prefix("async ").unwrap_or(line);
        line.strip_prefix("fn ").is_some_and(|rest| {
            rest.starts_with(name) && rest[name.len()..].starts_with(['(', '<'])
        })
    });
    let call = format!("{name}(");
    let mut calls = source
        .code()
        .filter(|(_, line)| line.contains(&call) && mentions(line, name) && !line.contains("fn "))
        .peekable();
    defined
        && calls.peek().is_some()
        && calls.all(|(number, _)| {
            enclosing_fn(source, number)
                .is_some_and(|(caller, header)| is_confirmed_write(&caller, header.as_deref()))
        })
}

/// Whether the function is a `ConfirmedWrite::write`.
fn is_confirmed_write(name: &str, header: Option<&str>) -> bool {
    name == "write" && header.is_some_and(|h| h.starts_with("impl ConfirmedWrite for "))
}

/// Rollbacks of a two-part write, allowed to write because only `ConfirmedWrite::write` calls
/// them: (file, function).
const ROLLBACKS: [(&str, &str); 3] = [
    (
        "crates/avenir/src/tools/assigned_amounts.rs",
        "second_half_failed",
    ),
    // The undo of a schedule operation: its one write, called from `Undo`'s `write`.
    ("crates/avenir/src/tools/scheduled_writes.rs", "undo_write"),
    // The writes of an undo: `send`, the one public function of `tools/undo_sends.rs`, called
    // from `Undo`'s `write`; the file's other functions are private and reached through it.
    (UNDO_SENDS, "undo_sends::send"),
];

/// The file of an undo's YNAB writes (see [`ROLLBACKS`]).
const UNDO_SENDS: &str = "crates/avenir/src/tools/undo_sends.rs";

/// (b) Only the confirmation path writes to YNAB. Today's strictest rule: a client write is
/// called only inside a `ConfirmedWrite::write` impl, in `confirm/`, in `tools/approve_transactions.rs` (the
/// one immediate write), or in a rollback of [`ROLLBACKS`] that is itself called only from a
/// `ConfirmedWrite::write`.
#[test]
fn only_the_confirmation_path_writes_to_ynab() {
    let mut scanned = sources("crates/avenir/src");
    scanned.extend(sources("crates/avenir-mcp/src"));
    let mut violations = Vec::new();
    let mut calls = 0;
    for source in &scanned {
        for (number, line) in source.code() {
            for write in WRITES {
                let call = format!(".{write}(");
                let turbofish = format!(".{write}::<");
                if !line.contains(&call) && !line.contains(&turbofish) {
                    continue;
                }
                calls += 1;
                if source.path.starts_with("crates/avenir/src/confirm/")
                    || source.path == "crates/avenir/src/tools/approve_transactions.rs"
                    || source.path == UNDO_SENDS
                {
                    continue;
                }
                let (name, header) = enclosing_fn(source, number).unwrap_or_default();
                let rollback = ROLLBACKS.contains(&(source.path.as_str(), name.as_str()));
                if !is_confirmed_write(&name, header.as_deref())
                    && !rollback
                    && !private_part_of_write(source, &name)
                {
                    violations.push(format!(
                        "{}:{number}: `{call}` (a YNAB write) in `fn {name}`: only a `ConfirmedWrite::write` impl, confirm/ or tools/approve_transactions.rs may write",
                        source.path
                    ));
                }
            }
            for (_, rollback) in ROLLBACKS {
                let call = format!("{rollback}(");
                if !mentions(line, rollback) || !line.contains(&call) || line.contains("fn ") {
                    continue;
                }
                let (name, header) = enclosing_fn(source, number).unwrap_or_default();
                if !is_confirmed_write(&name, header.as_deref()) && source.path != UNDO_SENDS {
                    violations.push(format!(
                        "{}:{number}: `{rollback}` writes to YNAB and is called from `fn {name}`: only a `ConfirmedWrite::write` impl may call it",
                        source.path
                    ));
                }
            }
        }
    }
    assert!(calls > 0, "no YNAB write call found: the scan is broken");
    assert_none("YNAB writes only on the confirmation path:", violations);
}

/// (c) Every module of every crate opens with `//!` lines saying its job.
#[test]
fn every_module_opens_with_a_doc_comment() {
    let mut violations = Vec::new();
    let mut files = 0;
    for krate in ["ynab", "ynab-sandbox", "avenir", "avenir-mcp"] {
        for source in sources(&format!("crates/{krate}/src")) {
            files += 1;
            if !source
                .lines
                .first()
                .is_some_and(|line| line.starts_with("//!"))
            {
                violations.push(format!(
                    "{}:1: a module starts with `//!` lines saying its job in two sentences",
                    source.path
                ));
            }
        }
    }
    assert!(files > 0, "no source file found");
    assert_none("every module has a `//!` doc:", violations);
}

/// The scanner's own pieces, on small texts.
#[test]
fn the_scanner_finds_what_it_should() {
    assert!(mentions("use tokio::sync::Mutex;", "tokio"));
    assert!(!mentions("let tokio_like = 1;", "tokio"));
    assert!(mentions("let t = Instant::now();", "Instant"));
    assert!(!mentions("let t = Instantly;", "Instant"));
    let source = Source {
        path: "x.rs".into(),
        lines: [
            "impl ConfirmedWrite for X {",
            "    async fn write(&self) {",
            "        client",
            "            .set_assigned(a, b)",
            "    }",
            "}",
            "fn other() {",
            "    client.set_assigned(a, b);",
            "}",
        ]
        .map(str::to_string)
        .to_vec(),
    };
    let (name, header) = enclosing_fn(&source, 4).expect("inside a fn");
    assert!(is_confirmed_write(&name, header.as_deref()));
    let (name, header) = enclosing_fn(&source, 8).expect("inside a fn");
    assert_eq!(name, "other");
    assert!(!is_confirmed_write(&name, header.as_deref()));
    assert!(!private_part_of_write(&source, "other"), "never called");
}

#[test]
fn a_private_part_of_a_write_may_write_and_nothing_else_may() {
    let source = |part: &str, elsewhere: bool| {
        let mut lines = vec![
            "impl ConfirmedWrite for X {",
            "    async fn write(&self) {",
            "        send_months(client).await?;",
            "    }",
            "}",
        ];
        if elsewhere {
            lines.extend(["fn elsewhere() {", "    send_months(client).await?;", "}"]);
        }
        lines.extend([part, "    client.set_assigned(a, b);", "}"]);
        Source {
            path: "x.rs".into(),
            lines: lines.into_iter().map(str::to_string).collect(),
        }
    };
    let private = "async fn send_months(client: &C) {";
    assert!(private_part_of_write(
        &source(private, false),
        "send_months"
    ));
    assert!(
        !private_part_of_write(&source(private, true), "send_months"),
        "called outside write"
    );
    let public = "pub async fn send_months(client: &C) {";
    assert!(
        !private_part_of_write(&source(public, false), "send_months"),
        "public: reachable from anywhere"
    );
}

// ---- (d) Citations resolve inside the repository ------------------------------------------------

/// The kinds of tracked file whose citations are checked.
const CITING: [&str; 5] = ["rs", "md", "sh", "py", "mjs"];

/// The design documents the code was first written against, which a clone does not hold, by
/// stem (the `.md` is left out so that the citation rewrite leaves this list alone): a citation of
/// one of these must name `docs/contract/…` (or another file of the repository).
const OUTSIDE_STEMS: [&str; 6] = [
    "tools-write",
    "tools-read",
    "server",
    "confirmation",
    "ynab-api",
    "mcp-protocol",
];

/// The decisions record every `D<n>` resolves to.
const DECISIONS: &str = "docs/decisions.md";

/// The tracked files (`git ls-files`) of the kinds in [`CITING`], with their lines.
fn tracked_texts() -> Vec<Source> {
    let root = workspace();
    let listed = std::process::Command::new("git")
        .arg("-C")
        .arg(&root)
        .args(["ls-files", "-z"])
        .output()
        .expect("git lists the tracked files (the citation check reads them)");
    let mut names: Vec<String> = String::from_utf8_lossy(&listed.stdout)
        .split('\0')
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect();
    names.retain(|name| {
        Path::new(name)
            .extension()
            .is_some_and(|ext| CITING.iter().any(|kind| ext == *kind))
    });
    names.sort();
    names
        .into_iter()
        .filter_map(|path| {
            // A file deleted in the working copy but still in the index is not read.
            let text = std::fs::read_to_string(root.join(&path)).ok()?;
            let lines = text.lines().map(str::to_string).collect();
            Some(Source { path, lines })
        })
        .collect()
}

/// The text of each markdown heading of `text`, without its `#`s (nor a `§` before a number).
fn headings(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| line.starts_with('#'))
        .map(|line| {
            line.trim_start_matches('#')
                .trim()
                .trim_start_matches('§')
                .to_string()
        })
        .collect()
}

/// Whether `heading` opens with section number `section`: `9` matches `9. Other…` or `9 …`,
/// never `9.8 …` or `90 …`; `4.4.3` matches `4.4.3 Reading…`.
fn heading_opens_with(heading: &str, section: &str) -> bool {
    let Some(rest) = heading.strip_prefix(section) else {
        return false;
    };
    let mut after = rest.chars();
    match after.next() {
        None => true,
        Some('.') => !after.next().is_some_and(|c| c.is_ascii_alphanumeric()),
        Some(c) => !c.is_ascii_alphanumeric(),
    }
}

/// One citation of a markdown file: the path as written and the `§` sections that follow it.
#[derive(Debug, PartialEq)]
struct Citation {
    path: String,
    sections: Vec<String>,
    /// Where on its line the citation is written (path and sections), as byte offsets.
    span: (usize, usize),
}

fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')
}

/// The `.md` files cited on `line`, each with the sections after it — on `line`, or at the start
/// of `next` when the path ends the line (a citation wrapped in a comment).
fn citations(line: &str, next: Option<&str>) -> Vec<Citation> {
    let mut found = Vec::new();
    for (at, _) in line.match_indices(".md") {
        let end = at + 3;
        if line[end..].chars().next().is_some_and(is_ident) {
            continue;
        }
        let start = line[..at]
            .char_indices()
            .rev()
            .take_while(|&(_, c)| is_path_char(c))
            .last()
            .map_or(at, |(i, _)| i);
        if start == at {
            continue;
        }
        let rest = line[end..].trim_start_matches('`').trim_start();
        let (sections, span_end) = if rest.is_empty() {
            let next = next.map_or("", |next| next.trim_start().trim_start_matches(COMMENT));
            (sections(next.trim_start()).0, line.len())
        } else {
            let (sections, consumed) = sections(rest);
            (sections, line.len() - rest.len() + consumed)
        };
        found.push(Citation {
            path: line[start..end].to_string(),
            sections,
            span: (start, span_end),
        });
    }
    found
}

/// The sections `text` opens with: `§4.3, §4.4` → `["4.3", "4.4"]`; `§8–10` → `["8"]`; and
/// how many bytes of `text` they take.
fn sections(whole: &str) -> (Vec<String>, usize) {
    let mut found = Vec::new();
    let mut text = whole;
    let mut consumed = 0;
    while let Some(rest) = text.strip_prefix('§') {
        let rest = rest.trim_start();
        let length = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
            .unwrap_or(rest.len());
        let section = rest[..length].trim_end_matches('.');
        if section.is_empty() {
            break;
        }
        found.push(section.to_string());
        let after = &rest[length..];
        consumed = whole.len() - after.len();
        text = match after
            .strip_prefix(", ")
            .or_else(|| after.strip_prefix(" and "))
        {
            Some(more) => more,
            None => break,
        };
    }
    (found, consumed)
}

/// The characters that open a comment line, before its text.
const COMMENT: [char; 4] = ['/', '!', '#', '*'];

/// The sections cited on `line` with no file before them (`§15`): outside the citations `cited`
/// found on it, not an RFC's, and not the sections of a citation wrapped from the line before
/// (`wrapped`: that line ends with a `.md` path).
fn bare_sections(line: &str, cited: &[Citation], wrapped: bool) -> Vec<String> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(offset) = line[from..].find('§') {
        let at = from + offset;
        let (sections, consumed) = sections(&line[at..]);
        from = at + consumed.max('§'.len_utf8());
        let inside = cited.iter().any(|c| (c.span.0..c.span.1).contains(&at));
        let before = line[..at].trim_end();
        let rfc = before
            .rsplit(' ')
            .nth(1)
            .is_some_and(|w| w.ends_with("RFC"));
        let continued = wrapped
            && before
                .trim_start()
                .trim_start_matches(COMMENT)
                .trim()
                .is_empty();
        if !(inside || rfc || continued) {
            found.extend(sections);
        }
    }
    found
}

/// The decision ids (`D22`) cited on `line`.
fn decision_ids(line: &str) -> Vec<&str> {
    line.match_indices('D')
        .filter_map(|(at, _)| {
            if line[..at].chars().next_back().is_some_and(is_ident) {
                return None;
            }
            let digits = line[at + 1..]
                .chars()
                .take_while(char::is_ascii_digit)
                .count();
            let end = at + 1 + digits;
            let bounded = !line[end..].chars().next().is_some_and(is_ident);
            ((1..=2).contains(&digits) && bounded).then(|| &line[at..end])
        })
        .collect()
}

/// The ids that open a heading of the decisions record (`## D22 — …`).
fn decided_ids(root: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root.join(DECISIONS)).unwrap_or_default();
    headings(&text)
        .iter()
        .filter_map(|heading| {
            let id = decision_ids(heading).into_iter().next()?;
            heading_opens_with(heading, id).then(|| id.to_string())
        })
        .collect()
}

/// The headings of each markdown file read so far.
type Headings = std::collections::HashMap<PathBuf, Vec<String>>;

/// The headings of `file`, read once.
fn headings_in<'a>(cache: &'a mut Headings, file: &Path) -> &'a [String] {
    cache
        .entry(file.to_path_buf())
        .or_insert_with(|| headings(&std::fs::read_to_string(file).unwrap_or_default()))
}

/// The file `path`, cited in `source`, names: from the workspace root, or beside `source`.
fn resolve(root: &Path, source: &Source, path: &str) -> Option<PathBuf> {
    let beside = Path::new(&source.path)
        .parent()
        .map_or_else(|| root.to_path_buf(), |dir| root.join(dir));
    [root.join(path), beside.join(path)]
        .into_iter()
        .find(|candidate| candidate.is_file())
}

/// What is wrong with `citation` in `source`, if anything: a file the repository does not hold,
/// or a section with no heading in it.
fn unresolved(
    root: &Path,
    source: &Source,
    citation: &Citation,
    headings_of: &mut Headings,
) -> Option<String> {
    let file = resolve(root, source, &citation.path);
    let path = &citation.path;
    let stem = path
        .rsplit('/')
        .next()
        .unwrap_or(path)
        .trim_end_matches(".md");
    let Some(file) = file else {
        if (OUTSIDE_STEMS.contains(&stem) && !path.starts_with("docs/")) || path.contains("../") {
            return Some(format!(
                "`{path}` is a design document outside the repository: cite \
                 `docs/contract/reads.md`, `docs/contract/writes.md` or \
                 `docs/contract/server.md` (same section numbers)"
            ));
        }
        return (!citation.sections.is_empty()).then(|| {
            format!("`{path}` is not a file of the repository: cite a file that holds the section")
        });
    };
    let headings = headings_in(headings_of, &file);
    let missing: Vec<&str> = citation
        .sections
        .iter()
        .filter(|section| !headings.iter().any(|h| heading_opens_with(h, section)))
        .map(String::as_str)
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "`{path}` has no heading starting with §{}: point the citation at an existing \
             heading of that file, or add the section there",
            missing.join(", §")
        )
    })
}

/// The sections `source` cites with no file before them (`§15`) that no heading answers: a bare
/// section belongs to this file when it is markdown, or to a contract (`docs/contract/…`) the file
/// cites somewhere (as a module's `//!` lines name the contract its comments then cite by number).
fn unresolved_bare(root: &Path, source: &Source, headings_of: &mut Headings) -> Vec<String> {
    let lines = &source.lines;
    let cited: Vec<Vec<Citation>> = (0..lines.len())
        .map(|i| citations(&lines[i], lines.get(i + 1).map(String::as_str)))
        .collect();
    let mut homes: Vec<PathBuf> = Vec::new();
    if source.path.ends_with(".md") {
        homes.push(root.join(&source.path));
    }
    for citation in cited.iter().flatten() {
        if let Some(file) = resolve(root, source, &citation.path)
            && citation.path.contains("docs/contract/")
            && !homes.contains(&file)
        {
            homes.push(file);
        }
    }
    let mut violations = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let wrapped = i > 0
            && lines[i - 1]
                .trim_end()
                .trim_end_matches('`')
                .ends_with(".md");
        for section in bare_sections(line, &cited[i], wrapped) {
            let known = homes.iter().any(|home| {
                let headings = headings_in(headings_of, home);
                headings.iter().any(|h| heading_opens_with(h, &section))
            });
            if !known {
                violations.push(format!(
                    "{}:{}: §{section} names no file, and no contract this file cites has a \
                     heading starting with it: write the file before it \
                     (`docs/contract/<reads|writes|server>.md` §{section})",
                    source.path,
                    i + 1
                ));
            }
        }
    }
    violations
}

/// (d) Every citation resolves inside the repository: each decision id to a heading of
/// `docs/decisions.md`, each `<file>.md §X` to a file with a heading numbered X, and no citation
/// names a design document the clone does not hold.
#[test]
fn every_citation_resolves_inside_the_repository() {
    let root = workspace();
    let texts = tracked_texts();
    assert!(
        texts.iter().any(|text| text.path == "ARCHITECTURE.md"),
        "the scan found no tracked file"
    );
    let decided = decided_ids(&root);
    let mut headings_of = Headings::new();
    let mut violations = Vec::new();
    for source in &texts {
        for (i, line) in source.lines.iter().enumerate() {
            let number = i + 1;
            for id in decision_ids(line) {
                if !decided.iter().any(|known| known == id) {
                    violations.push(format!(
                        "{}:{number}: `{id}` has no heading in {DECISIONS}: add `## {id} — …` \
                         there (the rule, why, what it replaced) or cite the decision meant",
                        source.path
                    ));
                }
            }
            let next = source.lines.get(i + 1).map(String::as_str);
            for citation in citations(line, next) {
                if let Some(what) = unresolved(&root, source, &citation, &mut headings_of) {
                    violations.push(format!("{}:{number}: {what}", source.path));
                }
            }
        }
        // This file spells out the citation syntax in its examples: its bare sections are not
        // citations.
        if !file!().ends_with(source.path.as_str()) {
            violations.extend(unresolved_bare(&root, source, &mut headings_of));
        }
    }
    assert_none(
        "every citation names a file and a heading of the repository:",
        violations,
    );
}

/// The citation scanner's pieces, on small texts.
#[test]
fn the_citation_scanner_reads_what_is_written() {
    let line =
        "see (`docs/contract/writes.md` §4.3, §4.4) and README.md, then §9.5 (RFC 6749 §5.2)";
    let cited = citations(line, None);
    let found: Vec<(&str, &[String], &str)> = cited
        .iter()
        .map(|c| {
            (
                c.path.as_str(),
                c.sections.as_slice(),
                &line[c.span.0..c.span.1],
            )
        })
        .collect();
    assert_eq!(found[0].0, "docs/contract/writes.md");
    assert_eq!(found[0].1, ["4.3", "4.4"]);
    assert_eq!(found[0].2, "docs/contract/writes.md` §4.3, §4.4");
    assert_eq!((found[1].0, found[1].1.len()), ("README.md", 0));
    assert_eq!(bare_sections(line, &cited, false), ["9.5"]);
    assert_eq!(
        bare_sections("//! §8.5, §2 of it", &[], true),
        Vec::<String>::new()
    );
    assert_eq!(
        bare_sections("//! §8.5, §2 of it", &[], false),
        ["8.5", "2"]
    );
    let wrapped = citations(
        "//! the heavy plan (`docs/contract/server.md`",
        Some("//! §8.5, …"),
    );
    assert_eq!(wrapped[0].sections, ["8.5"]);
    assert_eq!(sections("§8–10 of it").0, ["8"]);
    assert_eq!(sections("§9.4.").0, ["9.4"]);
    assert!(heading_opens_with("9. Other write tools", "9"));
    assert!(heading_opens_with("4.4.3 Reading the answer", "4.4.3"));
    assert!(!heading_opens_with("9.8 `set_category_budget`", "9"));
    assert!(!heading_opens_with("10. Undo", "1"));
    assert_eq!(
        decision_ids("D5, (D22) and D40: not DD2, D123 or xD3"),
        ["D5", "D22", "D40"]
    );
}
