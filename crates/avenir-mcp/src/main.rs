//! The `avenir-mcp` binary: reads the command line and environment, picks what to serve, starts.
//! Nothing else lives here: the server is the `avenir` crate, the sandbox `ynab-sandbox`.

mod cli;
mod http;
mod logging;
mod shell;

use anyhow::Context as _;
use clap::{CommandFactory, Parser, Subcommand};
use rmcp::ServiceExt;
use std::io::IsTerminal;
use std::net::SocketAddr;
use std::sync::Arc;

/// With the hosted mode built in, memory comes from jemalloc, its background thread giving freed
/// pages back to the system within seconds. A burst of people left glibc's allocator holding
/// what they freed, scattered among what was still in use (2,000 people: 272 MB resident 45 s
/// after they went idle, for about 4 MB still allocated; jemalloc: 90 MB). The one-person build
/// keeps the system allocator, its footprint measured on it (`scripts/peak_rss.py`).
#[cfg(all(feature = "hosted", not(target_env = "msvc")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// `avenir-mcp {version} (commit {id}, YNAB API v{api})`, as `--version` prints it; the commit
/// is `build.rs`'s (`unknown` outside a git checkout).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("AVENIR_MCP_COMMIT"),
    ", YNAB API v1.86.0)"
);

/// The environment `--help` and the man page list, one line each (README.md, "Configuration",
/// says more).
const ENVIRONMENT: &str = "Environment:
  YNAB_API_KEY                     your YNAB personal access token
  YNAB_API_KEY_FILE                a file holding only the token (mode 600)
  AVENIR_MCP_WRITE                 1 lets the tools change your plan (they ask first)
  AVENIR_MCP_CONFIRM               what confirms a write: by-risk (default), answer or codes
  AVENIR_MCP_REQUIRE_ELICITATION   1: only an answer to the question confirms a write
  AVENIR_MCP_TOOLSETS              the tools listed: default, all, or names with commas
  AVENIR_MCP_DYNAMIC_TOOLSETS      1: a session enables toolsets as it needs them
  AVENIR_MCP_JOURNAL               the journal's path (what undo_operation reverts)
  AVENIR_MCP_CACHE                 1 keeps each plan between runs (`cache clear` removes it)
  AVENIR_MCP_FRESH_SECONDS         reads this soon after a sync ask YNAB nothing (default 0)
  AVENIR_MCP_RATE_LIMIT            YNAB requests allowed per rolling hour (default 180)
  AVENIR_MCP_CONFIDENCE_THRESHOLD  agreement a suggestion needs (default 0.90)
  AVENIR_MCP_TODAY                 YYYY-MM-DD: pins today (demos, tests)
  AVENIR_MCP_YNAB_URL              YNAB's API base URL (default https://api.ynab.com/v1)
  AVENIR_MCP_TRANSPORT             http serves MCP over HTTP instead of stdio
  AVENIR_MCP_HOST, AVENIR_MCP_PORT where the HTTP transport listens
  AVENIR_MCP_HTTP_TOKEN            the bearer token the local HTTP transport requires
  AVENIR_MCP_PUBLIC_URL            the hosted mode's public https:// URL (`serve`)
  AVENIR_MCP_LOG_LEVEL             DEBUG, INFO, WARNING (default) or ERROR, on stderr
  AVENIR_MCP_LOG_FORMAT            json writes the log as JSON lines
  XDG_STATE_HOME, XDG_CACHE_HOME   where state (journal, demo) and the cache are kept
  COLUMNS                          the width `call` and `tools` fit their output to";

#[derive(Debug, Parser)]
#[command(
    name = "avenir-mcp",
    version = VERSION,
    about = "An MCP server that lets an AI agent read a YNAB plan and help act on it, safely.",
    long_about = "An MCP server that lets an AI agent read a YNAB plan and help act on it, safely.\n\n\
With no command it speaks MCP on stdin/stdout, reading the plan with the token in YNAB_API_KEY \
(or the file named by YNAB_API_KEY_FILE). An MCP client starts it; see README.md.",
    after_help = ENVIRONMENT
)]
struct Cli {
    /// Serve the built-in demo plan from an in-process YNAB sandbox: no token needed, writes
    /// enabled, "today" 2026-09-25 unless AVENIR_MCP_TODAY says otherwise.
    #[arg(long)]
    demo: bool,
    /// The toolsets whose tools the server lists, separated by commas: plans, setup, budget,
    /// transactions, statements, schedules, analysis, undo; `default` (plans, budget, transactions, undo) or
    /// `all`. The same as AVENIR_MCP_TOOLSETS, which it overrides.
    #[arg(long, value_name = "LIST", value_parser = parse_toolsets)]
    toolsets: Option<avenir::tools::toolsets::Toolsets>,
    #[command(subcommand)]
    command: Option<Command>,
}

fn parse_toolsets(list: &str) -> Result<avenir::tools::toolsets::Toolsets, String> {
    avenir::tools::toolsets::Toolsets::parse(list).map_err(|error| {
        error
            .to_string()
            .replace("AVENIR_MCP_TOOLSETS", "--toolsets")
    })
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the YNAB sandbox alone: a local server speaking YNAB's API v1. Its base URL is the
    /// first line printed; point AVENIR_MCP_YNAB_URL at it.
    ///
    /// "Today" is AVENIR_MCP_TODAY when set, else 2026-09-25 for the demo and heavy plans and the
    /// UTC date for a plan file.
    Sandbox(SandboxArgs),
    /// The plan cache kept between runs with AVENIR_MCP_CACHE=1 (in $XDG_CACHE_HOME/avenir-mcp,
    /// else ~/.cache/avenir-mcp).
    #[command(subcommand)]
    Cache(CacheCommand),
    /// List the tools, each with what it does and whether it reads or writes; with a TOOL, its
    /// arguments.
    Tools(cli::ToolsArgs),
    /// Run one tool and print its answer as readable tables (or, with --json, as JSON).
    ///
    /// On your YNAB plan (YNAB_API_KEY), on the demo plan (--demo) or on a plan file
    /// (--plan-file FILE). A write shows what it would change: at a terminal you type yes to
    /// apply it; in a pipe or a script it prints a confirmation code instead and changes nothing
    /// until the same command comes back with --confirm CODE. By default a delete, a merge or a
    /// change of many items needs the terminal's yes (AVENIR_MCP_CONFIRM: by-risk, answer — only
    /// the terminal's yes — or codes). The demo plan, its journal (for undo_operation) and its
    /// codes are kept between calls in $XDG_STATE_HOME/avenir-mcp/cli/demo (else
    /// ~/.local/state/avenir-mcp/cli/demo); --demo --reset starts it over.
    ///
    /// Exit status: 0 for an answer, 1 for a tool error, 2 for bad usage.
    Call(cli::CallArgs),
    /// The hosted mode: MCP over HTTP for people who sign in with YNAB (a phone, a web client),
    /// behind a reverse proxy that terminates TLS. avenir-mcp is its own OAuth authorization
    /// server; state is kept in PostgreSQL (AVENIR_MCP_DATABASE_URL) or a SQLite file.
    ///
    /// Needs AVENIR_MCP_PUBLIC_URL (https://…), AVENIR_MCP_SECRET_KEY (or _FILE),
    /// AVENIR_MCP_YNAB_CLIENT_ID and AVENIR_MCP_YNAB_CLIENT_SECRET (or _FILE) of your YNAB OAuth
    /// application. AVENIR_MCP_TRANSPORT=http with AVENIR_MCP_PUBLIC_URL set does the same.
    /// Its bounds and rate limits have variables too (AVENIR_MCP_MAX_SESSIONS,
    /// AVENIR_MCP_REQUESTS_PER_MINUTE, AVENIR_MCP_OAUTH_LIMIT_SCALE, …: docs/hosting.md, "Bounds").
    /// Only in a build with the cargo feature `hosted`. See README.md, "Host it for a household".
    Serve,
    /// Print a completion script for SHELL: tool names complete after `call` and `tools`, and in
    /// bash a tool's arguments after `call TOOL`. For bash:
    /// `avenir-mcp completions bash > ~/.local/share/bash-completion/completions/avenir-mcp`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `avenir-mcp man > avenir-mcp.1; man -l avenir-mcp.1`.
    Man,
}

#[derive(Debug, Subcommand)]
enum CacheCommand {
    /// Remove the cache's files (every kept plan) and say which were removed.
    Clear,
}

/// What `avenir-mcp sandbox` serves, and where. "Today" is AVENIR_MCP_TODAY when set, else
/// 2026-09-25 for the demo and heavy plans and the UTC date for a plan file.
#[derive(Debug, clap::Args)]
struct SandboxArgs {
    /// Address to listen on (loopback only).
    #[arg(long, default_value = "127.0.0.1:0")]
    listen: SocketAddr,
    /// The plan to serve: `demo`, the invented household of the documentation, or `heavy`, a
    /// generated plan of five years and 9,000 transactions (same seed, same plan).
    #[arg(long, default_value = "demo", value_parser = ["demo", "heavy"])]
    plan: String,
    /// Heavy plan: the seed of its generator [default: 1].
    #[arg(long, conflicts_with = "plan_file")]
    seed: Option<u64>,
    /// Heavy plan: months generated, ending with today's month [default: 60].
    #[arg(long, conflicts_with = "plan_file", value_parser = clap::value_parser!(u32).range(1..=240))]
    months: Option<u32>,
    /// Heavy plan: transactions in each month [default: 150].
    #[arg(long, conflicts_with = "plan_file", value_parser = clap::value_parser!(u32).range(1..=2000))]
    per_month: Option<u32>,
    /// Serve the plan in FILE instead: YNAB's answer to GET /plans/{plan_id}, saved as JSON
    /// (an export of your own plan, to try the tools on a copy of it).
    #[arg(long, value_name = "FILE", conflicts_with = "plan")]
    plan_file: Option<std::path::PathBuf>,
    /// Speak YNAB's OAuth for this application too (`/oauth/authorize`, `/oauth/token`), to try
    /// the hosted mode on one machine: CLIENT_ID:CLIENT_SECRET:REDIRECT_URI. The authorize page
    /// consents at once as the first --oauth-user.
    #[arg(long, value_name = "ID:SECRET:REDIRECT_URI")]
    oauth_app: Option<String>,
    /// A person who signs in through the sandbox's OAuth and reads its plan (repeatable).
    #[arg(long, value_name = "NAME", requires = "oauth_app")]
    oauth_user: Vec<String>,
}

/// The runtime a command runs on. The stdio server answers one client, one message after another:
/// one thread serves it, which keeps its memory low (one allocator arena, no worker stacks). The
/// HTTP transports, the sandbox and the command line run on two workers.
///
/// The hosted mode's storage is blocking work (SQLite, and PostgreSQL waited on from the blocking
/// pool): tokio would start up to 512 threads for a burst of people, each opening a SQLite reader
/// with its page cache and an allocator cache of its own. [`HOSTED_BLOCKING_THREADS`] bound them;
/// storage work beyond waits its turn.
fn runtime_for(cli: &Cli, hosted: bool) -> tokio::runtime::Builder {
    let http = std::env::var("AVENIR_MCP_TRANSPORT").as_deref() == Ok("http");
    if cli.command.is_none() && !http {
        // Blocking work on three threads at most — stdin's pending read, stdout's writes (the
        // progress of a long load among them) and a plan's parse or a file: each thread that
        // allocates gets an allocator arena of its own, whose freed memory stays resident.
        let mut builder = tokio::runtime::Builder::new_current_thread();
        builder.max_blocking_threads(3);
        return builder;
    }
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.worker_threads(2);
    if hosted {
        builder.max_blocking_threads(HOSTED_BLOCKING_THREADS);
    }
    builder
}

/// The hosted mode's blocking threads, storage's among them.
const HOSTED_BLOCKING_THREADS: usize = 32;

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let hosted = matches!(cli.command, Some(Command::Serve))
        || (cli.command.is_none()
            && std::env::var("AVENIR_MCP_TRANSPORT").as_deref() == Ok("http")
            && std::env::var_os("AVENIR_MCP_PUBLIC_URL").is_some_and(|v| !v.is_empty()));
    if let Err(message) = logging::init(hosted) {
        eprintln!("avenir-mcp: {message}");
        return std::process::ExitCode::from(2);
    }
    let runtime = match runtime_for(&cli, hosted).enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("avenir-mcp: cannot start: {error}");
            return std::process::ExitCode::FAILURE;
        }
    };
    // `call` may leave a read of the terminal pending (a question the server stopped waiting
    // for): the process ends without waiting for it.
    let leave_pending = matches!(cli.command, Some(Command::Call(_)));
    let result = runtime.block_on(async move {
        match cli.command {
            Some(Command::Tools(args)) => Ok(cli::tools(args).await),
            Some(Command::Call(args)) => {
                let mut command = Cli::command();
                // Built, so that the usage line names `avenir-mcp call`.
                command.build();
                let help = command
                    .find_subcommand_mut("call")
                    .map(|c| c.render_long_help().to_string())
                    .unwrap_or_default();
                Ok(cli::call(args, cli.demo, help).await)
            }
            Some(Command::Completions { shell }) => {
                shell::completions(Cli::command(), shell, &mut std::io::stdout().lock())
                    .map(|()| 0)
                    .context("the completion script could not be written")
            }
            Some(Command::Man) => shell::man_page(Cli::command(), &mut std::io::stdout().lock())
                .map(|()| 0)
                .context("the man page could not be written"),
            Some(Command::Sandbox(args)) => run_sandbox(args).await.map(|()| 0),
            Some(Command::Cache(CacheCommand::Clear)) => clear_cache().map(|()| 0),
            Some(Command::Serve) => run_hosted().await.map(|()| 0),
            None if cli.demo => run_demo(cli.toolsets).await.map(|()| 0),
            None => run_server(cli.toolsets).await.map(|()| 0),
        }
    });
    if leave_pending {
        runtime.shutdown_background();
    }
    match result {
        Ok(status) => std::process::ExitCode::from(status),
        Err(error) => {
            eprintln!("avenir-mcp: {error:#}");
            std::process::ExitCode::from(2)
        }
    }
}

/// The hosted mode (`avenir-mcp serve`), in a build with the cargo feature `hosted`.
#[cfg(feature = "hosted")]
async fn run_hosted() -> anyhow::Result<()> {
    let mut settings = avenir::Settings::from_env().map_err(anyhow::Error::msg)?;
    // nothing of anyone's plan on the server's disk but what the database keeps
    settings.cache = None;
    let config =
        avenir_hosted::start::HostedConfig::from_env(settings).map_err(anyhow::Error::msg)?;
    avenir_hosted::start::serve(config).await
}

/// The default build serves one person on stdio (or the local HTTP transport): the hosted mode's
/// code (OAuth, its databases' clients) is left out of it.
#[cfg(not(feature = "hosted"))]
async fn run_hosted() -> anyhow::Result<()> {
    anyhow::bail!(
        "this avenir-mcp was built without the hosted mode: build it with `cargo build --release -p avenir-mcp --features hosted` (docs/hosting.md)"
    )
}

/// The server over stdio, on the person's own YNAB; `toolsets`: `--toolsets`, when given.
async fn run_server(toolsets: Option<avenir::tools::toolsets::Toolsets>) -> anyhow::Result<()> {
    if std::env::var("AVENIR_MCP_TRANSPORT").as_deref() == Ok("http")
        && std::env::var_os("AVENIR_MCP_PUBLIC_URL").is_some_and(|v| !v.is_empty())
    {
        return run_hosted().await;
    }
    let mut settings = avenir::Settings::from_env().map_err(anyhow::Error::msg)?;
    settings.toolsets = toolsets.unwrap_or(settings.toolsets);
    let client = Arc::new(ynab::Client::from_env().map_err(anyhow::Error::msg)?);
    serve(settings, client).await
}

/// The demo: the same server, on the built-in demo plan served by an in-process sandbox.
async fn run_demo(toolsets: Option<avenir::tools::toolsets::Toolsets>) -> anyhow::Result<()> {
    let mut settings = avenir::Settings::from_env().map_err(anyhow::Error::msg)?;
    settings.toolsets = toolsets.unwrap_or(settings.toolsets);
    let today = settings.today.unwrap_or(ynab_sandbox::demo::DEMO_TODAY);
    settings.today = Some(today);
    settings.writes_enabled = true;
    // D30: nothing of the demo in the person's own cache.
    settings.cache = None;
    let sandbox = ynab_sandbox::Sandbox::start(
        ynab_sandbox::demo::demo_plan(today),
        ynab_sandbox::SandboxOptions::default(),
    )
    .await
    .context("cannot start the demo's YNAB sandbox")?;
    if std::io::stdin().is_terminal() {
        eprintln!(
            "avenir-mcp --demo speaks MCP on stdin/stdout: an MCP client starts it, it is not typed at."
        );
        eprintln!(
            "Connect a client with {{\"command\": \"avenir-mcp\", \"args\": [\"--demo\"]}} (README.md, \"Use it in an MCP client\"); Ctrl-C stops it."
        );
    }
    // D30: the demo's state (pacing ledger, journal) lives in a directory of its own, never in
    // the person's real state directory, and goes with the process.
    let state = DemoState::create().context("cannot create the demo's state directory")?;
    settings.journal = Some(state.path().join("journal.jsonl"));
    let client = Arc::new(
        ynab::Client::new(
            ynab::BaseUrl::new(sandbox.base_url()),
            ynab::TokenSource::Fixed(ynab::Token::new("demo")),
        )?
        .with_pacer(ynab::Pacer::ledger(
            state.path().join("ledger"),
            ynab::pacing::budget_from_env().map_err(anyhow::Error::msg)?,
        )),
    );
    let result = serve(settings, client).await;
    drop(sandbox);
    drop(state);
    result
}

/// D14: operations interrupted between their intent and the journal are named at start (ids and
/// kinds only); `undo_operation` lists them and can revert them.
pub(crate) fn report_unfinished(context: &avenir::Context) {
    match context.journal.unfinished() {
        Ok(unfinished) if !unfinished.is_empty() => {
            for intent in &unfinished {
                tracing::warn!(
                    "unfinished operation {} ({}) in plan {}: it may be partly applied; undo_operation lists it",
                    intent.id,
                    intent.kind,
                    intent.plan_id
                );
            }
        }
        Ok(_) => {}
        Err(error) => tracing::warn!("the journal's intents could not be read: {error}"),
    }
}

/// A private temporary directory, removed when dropped.
struct DemoState(std::path::PathBuf);

impl DemoState {
    fn create() -> std::io::Result<DemoState> {
        use std::os::unix::fs::DirBuilderExt;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let path =
            std::env::temp_dir().join(format!("avenir-mcp-demo-{}-{nanos}", std::process::id()));
        std::fs::DirBuilder::new().mode(0o700).create(&path)?;
        Ok(DemoState(path))
    }

    fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for DemoState {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

async fn serve(settings: avenir::Settings, client: Arc<ynab::Client>) -> anyhow::Result<()> {
    // `AVENIR_MCP_TRANSPORT=http` exactly selects HTTP; anything else means stdio
    // (`docs/contract/server.md` §1.1).
    let http = if std::env::var("AVENIR_MCP_TRANSPORT").as_deref() == Ok("http") {
        Some(http::HttpOptions::from_env().map_err(anyhow::Error::msg)?)
    } else {
        None
    };
    let context = Arc::new(avenir::Context::new(settings, client));
    report_unfinished(&context);
    let server = avenir::AvenirServer::new(context.clone());
    let result = match http {
        Some(options) => http::serve(server, options).await,
        None => serve_stdio(server).await,
    };
    // The plan cache's last saves are written before the process ends.
    context.plans.cache_saved().await;
    result
}

async fn serve_stdio(server: avenir::AvenirServer) -> anyhow::Result<()> {
    let running = server
        .serve(rmcp::transport::stdio())
        .await
        .context("the MCP session could not start")?;
    running.waiting().await.context("the MCP session failed")?;
    Ok(())
}

/// `avenir-mcp cache clear`: removes the plan cache's files, naming each, whether or not
/// AVENIR_MCP_CACHE is set now.
fn clear_cache() -> anyhow::Result<()> {
    let dir = avenir::store::plan_cache::location()
        .map_err(|why| anyhow::anyhow!("there is no plan cache to clear: {why}."))?;
    let removed = avenir::store::plan_cache::clear(&dir)
        .with_context(|| format!("the plan cache in {} could not be cleared", dir.display()))?;
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if removed.is_empty() {
        writeln!(
            out,
            "The plan cache in {} holds no file: nothing removed.",
            dir.display()
        )?;
    } else {
        let files = if removed.len() == 1 { "file" } else { "files" };
        writeln!(
            out,
            "Removed {} {files} from the plan cache in {}:",
            removed.len(),
            dir.display()
        )?;
        for path in &removed {
            writeln!(out, "  {}", path.display())?;
        }
    }
    out.flush()?;
    Ok(())
}

/// The standalone sandbox: prints its base URL first, then serves until stopped.
async fn run_sandbox(args: SandboxArgs) -> anyhow::Result<()> {
    let listen = args.listen;
    if !listen.ip().is_loopback() {
        anyhow::bail!(
            "the sandbox accepts any token, so it only listens on loopback: use --listen 127.0.0.1:PORT, got {listen}."
        );
    }
    let settings = avenir::Settings::from_env().map_err(anyhow::Error::msg)?;
    let heavy_options = args.seed.is_some() || args.months.is_some() || args.per_month.is_some();
    let plan_state = match (&args.plan_file, args.plan.as_str()) {
        (Some(file), _) => ynab_sandbox::planfile::plan_from_file(file, settings.today())?,
        (None, "heavy") => {
            use ynab_sandbox::heavy;
            heavy::heavy_plan(
                args.seed.unwrap_or(heavy::DEFAULT_SEED),
                args.months.unwrap_or(heavy::DEFAULT_MONTHS),
                args.per_month.unwrap_or(heavy::DEFAULT_PER_MONTH),
                settings.today.unwrap_or(heavy::HEAVY_TODAY),
            )
        }
        (None, "demo") if heavy_options => anyhow::bail!(
            "--seed, --months and --per-month shape the heavy plan: add --plan heavy, or drop them."
        ),
        (None, "demo") => {
            ynab_sandbox::demo::demo_plan(settings.today.unwrap_or(ynab_sandbox::demo::DEMO_TODAY))
        }
        (None, other) => anyhow::bail!("unknown plan {other:?}: use --plan demo or --plan heavy."),
    };
    let sandbox = ynab_sandbox::Sandbox::start(plan_state, ynab_sandbox::SandboxOptions { listen })
        .await
        .with_context(|| format!("cannot listen on {listen}"))?;
    if let Some(app) = &args.oauth_app {
        let mut parts = app.splitn(3, ':');
        let (Some(id), Some(secret), Some(redirect)) = (parts.next(), parts.next(), parts.next())
        else {
            anyhow::bail!("--oauth-app takes CLIENT_ID:CLIENT_SECRET:REDIRECT_URI, got {app:?}.");
        };
        sandbox.add_oauth_app(id, secret, redirect);
        let users = if args.oauth_user.is_empty() {
            vec!["person".to_string()]
        } else {
            args.oauth_user.clone()
        };
        for user in &users {
            sandbox
                .add_user(user, &[sandbox.plan_id()])
                .map_err(|e| anyhow::anyhow!("{e}"))?;
        }
    }
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", sandbox.base_url())?;
        out.flush()?;
    }
    eprintln!(
        "YNAB sandbox serving plan {} at {} (any Bearer token is accepted); Ctrl-C stops it.",
        sandbox.plan_id(),
        sandbox.base_url()
    );
    tokio::signal::ctrl_c().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes are drawn from an alphabet with `-`: one that begins with it is still the code, not
    /// an unknown flag (a pipe's second call failed one time in 64 before).
    #[test]
    fn a_confirmation_code_may_begin_with_a_hyphen() {
        let parsed = Cli::try_parse_from([
            "avenir-mcp",
            "call",
            "set_category_budget",
            "--demo",
            "amount=150",
            "--confirm",
            "-Pq3x9",
        ]);
        let Ok(Cli {
            command: Some(Command::Call(args)),
            ..
        }) = parsed
        else {
            panic!("not parsed as a call: {parsed:?}");
        };
        assert_eq!(args.confirm.as_deref(), Some("-Pq3x9"));
        assert_eq!(args.pairs, vec!["amount=150".to_string()]);
    }
}
