//! What `avenir-mcp call` runs against, and the state that outlives one invocation: the person's
//! YNAB (the token), the demo plan (`--demo`) or a plan file (`--plan-file FILE`).
//!
//! Each process starts afresh, so whatever a later call needs is on disk, under the state
//! directory the project already uses (`$XDG_STATE_HOME/avenir-mcp`, else
//! `~/.local/state/avenir-mcp`), in `cli/`:
//!
//! | What | Token | `--demo` | `--plan-file FILE` |
//! |---|---|---|---|
//! | plan | YNAB | `cli/demo/plan.json` | FILE itself |
//! | journal (undo) | the server's own | `cli/demo/journal.jsonl` | `cli/plan-files/<digest>/journal.jsonl` |
//! | confirmation codes | `cli/codes.json` | `cli/demo/codes.json` | `cli/plan-files/<digest>/codes.json` |
//!
//! A demo or plan-file call holds `lock` in its directory for its whole run, so two calls never
//! interleave their load and save. The plan is served by an in-process sandbox loaded from the
//! file (`ynab_sandbox::planfile`, with the file's `server_knowledge` kept so that the journal's
//! knowledge stays behind the plan's), and saved back as the sandbox's own export when a call
//! changed it. What a save loses: deleted entities (YNAB's tombstones), so undoing a deletion,
//! a link or a split edit in a later call cannot find what was removed.

use anyhow::Context as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where the plan comes from.
#[derive(Debug, Clone)]
pub enum Target {
    /// The person's YNAB, through the configured token.
    Token,
    /// The built-in demo plan, kept between calls; `reset` starts it over.
    Demo { reset: bool },
    /// A plan file (YNAB's export), changed in place by writes.
    PlanFile(PathBuf),
}

/// A plan served from a file by an in-process sandbox.
struct Local {
    sandbox: ynab_sandbox::Sandbox,
    file: PathBuf,
    knowledge: i64,
    /// Held for the whole call (dropped last).
    _lock: std::fs::File,
}

/// The settings, client and code file of one call, and the local plan to save after it.
pub struct Served {
    pub settings: avenir::Settings,
    pub client: Arc<ynab::Client>,
    pub codes: PathBuf,
    local: Option<Local>,
}

/// `$XDG_STATE_HOME/avenir-mcp/cli`, else `~/.local/state/avenir-mcp/cli`.
pub fn cli_dir() -> anyhow::Result<PathBuf> {
    ynab::pacing::default_state_dir()
        .map(|dir| dir.join("cli"))
        .ok_or_else(|| {
            anyhow::anyhow!("no state directory for the command line: set XDG_STATE_HOME or HOME.")
        })
}

fn private_dir(dir: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("cannot create the state directory {}", dir.display()))
}

fn lock(dir: &Path) -> anyhow::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let path = dir.join("lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => return Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => eprintln!(
            "avenir-mcp: another call is using this plan ({}): waiting for it to end…",
            dir.display()
        ),
        Err(std::fs::TryLockError::Error(error)) => {
            return Err(error).with_context(|| format!("cannot lock {}", path.display()));
        }
    }
    file.lock()
        .with_context(|| format!("cannot lock {}", path.display()))?;
    Ok(file)
}

/// The `server_knowledge` a saved answer carries, if any.
fn saved_knowledge(file: &Path) -> Option<i64> {
    let text = std::fs::read_to_string(file).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value
        .get("data")
        .and_then(|d| d.get("server_knowledge"))
        .and_then(serde_json::Value::as_i64)
}

/// The directory of a plan file's journal and codes: 16 hex digits of SHA-256 of its absolute
/// path (so that the path itself is not a file name).
fn plan_file_dir(file: &Path) -> anyhow::Result<PathBuf> {
    let absolute = std::fs::canonicalize(file).map_err(|e| {
        anyhow::anyhow!(
            "cannot read the plan file {}: {e}. Check the path.",
            file.display()
        )
    })?;
    let digest = avenir::digest::sha256_hex(&serde_json::Value::String(
        absolute.to_string_lossy().into_owned(),
    ));
    Ok(cli_dir()?
        .join("plan-files")
        .join(digest.get(..16).unwrap_or(&digest)))
}

impl Served {
    /// Prepare `target`: settings from the environment, the state directories, the sandbox.
    pub async fn open(target: &Target) -> anyhow::Result<Served> {
        let mut settings = avenir::Settings::from_env().map_err(anyhow::Error::msg)?;
        // A person at the command line reaches every tool: toolsets spare an agent's context.
        settings.toolsets = avenir::tools::toolsets::Toolsets::all();
        let (dir, plan_file, today) = match target {
            Target::Token => {
                let dir = cli_dir()?;
                private_dir(&dir)?;
                let client = Arc::new(ynab::Client::from_env().map_err(anyhow::Error::msg)?);
                return Ok(Served {
                    settings,
                    client,
                    codes: dir.join("codes.json"),
                    local: None,
                });
            }
            Target::Demo { .. } => {
                let dir = cli_dir()?.join("demo");
                let today = settings.today.unwrap_or(ynab_sandbox::demo::DEMO_TODAY);
                (dir.clone(), dir.join("plan.json"), today)
            }
            Target::PlanFile(file) => (plan_file_dir(file)?, file.clone(), settings.today()),
        };
        private_dir(&dir)?;
        let held = lock(&dir)?;
        if let Target::Demo { reset: true } = target {
            forget_all_but_the_lock(&dir)?;
        }
        let demo = matches!(target, Target::Demo { .. });
        let plan = if demo && !plan_file.exists() {
            ynab_sandbox::demo::demo_plan(today)
        } else {
            let mut plan =
                ynab_sandbox::planfile::plan_from_file(&plan_file, today).map_err(|e| {
                    if demo {
                        anyhow::anyhow!("{e} (--demo --reset starts the demo plan over)")
                    } else {
                        anyhow::anyhow!("{e}")
                    }
                })?;
            if let Some(knowledge) = saved_knowledge(&plan_file) {
                plan.server_knowledge = plan.server_knowledge.max(knowledge);
            }
            plan
        };
        let sandbox = ynab_sandbox::Sandbox::start(plan, ynab_sandbox::SandboxOptions::default())
            .await
            .context("cannot start the in-process YNAB sandbox")?;
        settings.today = Some(today);
        settings.writes_enabled = true;
        // D30: nothing of a local plan in the person's own plan cache or journal.
        settings.cache = None;
        settings.journal = Some(dir.join("journal.jsonl"));
        let client = Arc::new(
            ynab::Client::new(
                ynab::BaseUrl::new(sandbox.base_url()),
                ynab::TokenSource::Fixed(ynab::Token::new("local")),
            )?
            .with_pacer(ynab::Pacer::ledger(
                dir.join("ledger"),
                ynab::pacing::budget_from_env().map_err(anyhow::Error::msg)?,
            )),
        );
        let knowledge = sandbox.server_knowledge();
        Ok(Served {
            settings,
            client,
            codes: dir.join("codes.json"),
            local: Some(Local {
                sandbox,
                file: plan_file,
                knowledge,
                _lock: held,
            }),
        })
    }

    /// The directory of this plan's journal and codes.
    pub fn state_dir(&self) -> PathBuf {
        self.codes
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    }

    /// After the call: a local plan the call changed is saved to its file (a temporary file
    /// renamed over it, so a crash leaves the old plan or the new one).
    pub fn save(self) -> anyhow::Result<()> {
        let Some(local) = self.local else {
            return Ok(());
        };
        if local.sandbox.server_knowledge() == local.knowledge {
            return Ok(());
        }
        let answer = local
            .sandbox
            .export_answer()
            .context("the plan could not be exported")?;
        let body = serde_json::to_vec(&answer)?;
        let name = local
            .file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "plan.json".into());
        let temporary = local.file.with_file_name(format!(".{name}.saving"));
        write_private(&temporary, &body)
            .and_then(|()| std::fs::rename(&temporary, &local.file))
            .with_context(|| {
                format!(
                    "the change was made in the served plan but could not be saved to {}",
                    local.file.display()
                )
            })?;
        Ok(())
    }
}

/// `--reset`: remove the demo's plan, journal, codes and ledger, under the lock this call holds.
fn forget_all_but_the_lock(dir: &Path) -> anyhow::Result<()> {
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the demo's state in {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        let path = entry.path();
        if entry.file_name() == "lock" {
            continue;
        }
        let removed = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        removed.with_context(|| format!("cannot remove {}", path.display()))?;
    }
    Ok(())
}

fn write_private(path: &Path, body: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(body)?;
    file.sync_all()
}
