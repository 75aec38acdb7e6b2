//! The commit this binary is built from, for `--version`: `git rev-parse --short=12 HEAD` (with
//! `-modified` when the work tree has changes to tracked files), or `unknown` when the source is
//! not a git checkout or git is not installed (a crate downloaded from a registry).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    Some(text.trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).filter(|c| !c.is_empty());
    let modified = commit.is_some()
        && git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    let id = match commit {
        Some(commit) if modified => format!("{commit}-modified"),
        Some(commit) => commit,
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=AVENIR_MCP_COMMIT={id}");
    // Built again when HEAD moves (a commit, a checkout) or the index changes.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        for file in ["HEAD", "logs/HEAD", "index"] {
            println!("cargo:rerun-if-changed={dir}/{file}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
