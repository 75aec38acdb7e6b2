//! The logic layer stays pure (ARCHITECTURE.md, Invariants): no file under `src/logic/` names
//! tokio, reqwest, the file system, the environment, the network or a clock.

use std::path::{Path, PathBuf};

/// What a pure module never names.
const FORBIDDEN: [&str; 10] = [
    "tokio",
    "reqwest",
    "std::fs",
    "std::env",
    "std::net",
    "std::process",
    "SystemTime",
    "Instant::now",
    "Utc::now",
    "Local::now",
];

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|x| x == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn logic_files_do_no_io_and_read_no_clock() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/logic");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(files.len() > 10, "the logic files are found: {files:?}");
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{e}"));
        for (n, line) in text.lines().enumerate() {
            for word in FORBIDDEN.iter().filter(|w| line.contains(*w)) {
                offences.push(format!("{}:{}: {word}", file.display(), n + 1));
            }
        }
    }
    assert!(offences.is_empty(), "{offences:#?}");
}
