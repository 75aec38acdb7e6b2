//! `avenir-mcp tools` and `avenir-mcp call`: a person's command line on the same tools. It runs
//! the real server (`avenir::AvenirServer`) in this process and speaks MCP to it as a client
//! over an in-memory pipe, so every call takes the server's own dispatch, argument checks and
//! confirmation path: no tool is implemented twice.
//!
//! Exit status: 0 for an answer, 1 for a tool error (or a dismissed question, or an answer that
//! could not be written out), 2 for bad usage.

pub mod arguments;
pub mod names;
pub mod person;
pub mod present;
pub mod progress;
pub mod render;
pub mod served;
pub mod table;
pub mod words;

use anyhow::Context as _;
use person::Person;
use rmcp::ServiceExt as _;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, NumberOrString, ProgressToken, RequestParamsMeta as _,
    Tool,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt as _, RunningService};
use serde_json::{Map, Value};
use served::{Served, Target};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// Exit statuses.
pub const ANSWERED: u8 = 0;
pub const TOOL_ERROR: u8 = 1;
pub const BAD_USAGE: u8 = 2;

/// Where a call's plan comes from.
#[derive(Debug, clap::Args)]
pub struct Source {
    /// Run on the built-in demo plan, kept between calls in
    /// $XDG_STATE_HOME/avenir-mcp/cli/demo (else ~/.local/state/avenir-mcp/cli/demo) with its
    /// journal and codes, so a change made by one call can be undone by the next.
    #[arg(long, conflicts_with = "plan_file")]
    pub demo: bool,
    /// With --demo: start the demo plan over (its changes, journal and codes are forgotten).
    #[arg(long)]
    pub reset: bool,
    /// Run on the plan in FILE (YNAB's answer to GET /plans/{plan_id}, saved as JSON), served
    /// by an in-process sandbox. A write changes FILE itself.
    #[arg(long, value_name = "FILE")]
    pub plan_file: Option<PathBuf>,
}

/// `avenir-mcp call TOOL [NAME=VALUE …]`.
#[derive(Debug, clap::Args)]
#[command(disable_help_flag = true)]
pub struct CallArgs {
    /// The tool to run; `avenir-mcp tools` lists them.
    #[arg(value_parser = crate::shell::ToolName, hide_possible_values = true)]
    pub tool: Option<String>,
    /// Its arguments, typed by the tool's schema: text, numbers, true/false, and arrays or
    /// objects as JSON text (`ids='["a","b"]'`).
    #[arg(value_name = "NAME=VALUE")]
    pub pairs: Vec<String>,
    #[command(flatten)]
    pub source: Source,
    /// Print the structured answer as JSON, unchanged. With a value beginning with `{`, that
    /// JSON object is the arguments.
    #[arg(long, value_name = "{…}", num_args = 0..=1, default_missing_value = "")]
    pub json: Option<String>,
    /// Apply a change previewed by an earlier call: the confirmation code it printed (valid 10
    /// minutes, once). Same tool, same arguments. A code may begin with `-`: it is taken as the
    /// value all the same.
    #[arg(long, value_name = "CODE", allow_hyphen_values = true)]
    pub confirm: Option<String>,
    /// Ask the tool for its chart (chart=true) and write the answer's first image (PNG) to FILE.
    #[arg(long, value_name = "FILE")]
    pub chart: Option<PathBuf>,
    /// Show every id in the answer: those a name can stand for (categories, accounts, payees,
    /// scheduled payments) are left out otherwise, the others come last.
    #[arg(long)]
    pub ids: bool,
    /// Print the answer only: no note about the plan read, no line saying where a chart was
    /// written, no progress bar.
    #[arg(short, long)]
    pub quiet: bool,
    /// Show this help; after a tool, the tool's arguments.
    #[arg(short, long)]
    pub help: bool,
}

/// `avenir-mcp tools [TOOL]`.
#[derive(Debug, clap::Args)]
pub struct ToolsArgs {
    /// A tool whose arguments to show.
    #[arg(value_parser = crate::shell::ToolName, hide_possible_values = true)]
    pub tool: Option<String>,
}

/// A failure that ends the command with a status and a sentence.
struct Stop(u8, String);

fn usage(message: impl Into<String>) -> Stop {
    Stop(BAD_USAGE, message.into())
}

fn finish(result: Result<u8, Stop>) -> u8 {
    match result {
        Ok(status) => status,
        Err(Stop(status, message)) => {
            say(&format!("avenir-mcp: {message}"));
            status
        }
    }
}

/// The server, in this process, with a client connected to it.
struct Session {
    client: RunningService<rmcp::RoleClient, Person>,
    context: Arc<avenir::Context>,
}

impl Session {
    async fn start(context: avenir::Context, person: Person) -> anyhow::Result<Session> {
        let context = Arc::new(context);
        let server = avenir::AvenirServer::new(context.clone());
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            match server.serve(server_io).await {
                Ok(running) => {
                    let _ = running.waiting().await;
                }
                Err(error) => tracing::error!("the in-process server did not start: {error}"),
            }
        });
        let client = person
            .serve_with_lifecycle(client_io, ClientLifecycleMode::Initialize)
            .await
            .context("the in-process MCP session could not start")?;
        Ok(Session { client, context })
    }

    async fn tools(&self) -> Result<Vec<Tool>, Stop> {
        self.client
            .list_all_tools()
            .await
            .map_err(|e| Stop(TOOL_ERROR, format!("the tool list could not be read: {e}")))
    }

    async fn close(self) {
        let _ = self.client.cancel().await;
        // The plan cache's last saves (AVENIR_MCP_CACHE=1) are written before the process ends.
        self.context.plans.cache_saved().await;
    }
}

/// A session that only lists tools: every tool (writes included), no request to YNAB.
async fn listing() -> Result<Session, Stop> {
    let mut settings = avenir::Settings::from_env().map_err(usage)?;
    settings.writes_enabled = true;
    settings.toolsets = avenir::tools::toolsets::Toolsets::all();
    settings.cache = None;
    let client = ynab::Client::new(
        ynab::BaseUrl::from_env(),
        ynab::TokenSource::Fixed(ynab::Token::new("listing")),
    )
    .map_err(|e| Stop(TOOL_ERROR, e.to_string()))?
    .with_pacer(ynab::Pacer::memory(1));
    let context = avenir::Context::new(settings, Arc::new(client));
    Session::start(context, Person::new(false))
        .await
        .map_err(|e| Stop(TOOL_ERROR, format!("{e:#}")))
}

fn writes(tool: &Tool) -> bool {
    tool.annotations
        .as_ref()
        .and_then(|a| a.read_only_hint)
        .is_none_or(|read_only| !read_only)
}

/// Whether the tool draws a chart (it takes `chart`).
fn draws(tool: &Tool) -> bool {
    tool.input_schema
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| p.contains_key("chart"))
}

fn description(tool: &Tool) -> &str {
    tool.description.as_deref().unwrap_or("")
}

fn unknown_tool(name: &str) -> Stop {
    usage(format!(
        "there is no tool {:?}: `avenir-mcp tools` lists them.",
        render::clean(name)
    ))
}

fn help_of(tools: &[Tool], name: &str) -> Result<String, Stop> {
    let tool = tools
        .iter()
        .find(|t| t.name == name)
        .ok_or_else(|| unknown_tool(name))?;
    let help = arguments::tool_help(
        name,
        &words::description_for_people(description(tool)),
        writes(tool),
        &tool.input_schema,
    );
    Ok(match terminal_width() {
        Some(width) => fit(&help, width),
        None => help,
    })
}

/// `text` with each line wrapped within `width`, its next lines indented as it is.
fn fit(text: &str, width: usize) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.chars().count() <= width {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let room = width.saturating_sub(indent).max(20);
        for part in table::wrap(line.trim_start(), room) {
            out.push_str(&" ".repeat(indent));
            out.push_str(&part);
            out.push('\n');
        }
    }
    out
}

/// `avenir-mcp tools [TOOL]`.
pub async fn tools(args: ToolsArgs) -> u8 {
    finish(list_tools(args).await)
}

async fn list_tools(args: ToolsArgs) -> Result<u8, Stop> {
    let session = listing().await?;
    let tools = session.tools().await;
    session.close().await;
    let tools = tools?;
    let mut out = std::io::stdout().lock();
    if let Some(name) = args.tool {
        let help = help_of(&tools, &name)?;
        let _ = write!(out, "{help}");
        return Ok(ANSWERED);
    }
    let width = tools.iter().map(|t| t.name.len()).max().unwrap_or(0);
    // At a terminal too narrow for a description beside the name, it goes under it.
    let terminal = terminal_width();
    let beside = terminal.is_none_or(|w| w >= width + 16 + 50);
    let indent = if beside { width + 16 } else { 4 };
    for tool in &tools {
        let kind = match (writes(tool), draws(tool)) {
            (true, _) => "writes",
            (false, true) => "reads, chart",
            (false, false) => "reads",
        };
        let said = words::description_for_people(description(tool));
        let first = arguments::first_sentence(&said);
        let lines = match terminal {
            Some(w) => table::wrap(first, w.saturating_sub(indent).max(20)),
            None => vec![first.to_string()],
        };
        if beside {
            let _ = writeln!(out, "{:width$}  {kind:12}  {}", tool.name, lines[0]);
        } else {
            let _ = writeln!(out, "{}  ({kind})", tool.name);
            let _ = writeln!(out, "{}{}", " ".repeat(indent), lines[0]);
        }
        for line in lines.iter().skip(1) {
            let _ = writeln!(out, "{}{line}", " ".repeat(indent));
        }
    }
    let footer = "A write shows what it would change and asks first. On your own YNAB plan, writes \
need AVENIR_MCP_WRITE=1; --demo and --plan-file always allow them. `reads, chart`: --chart FILE \
writes its chart as a PNG.\n`avenir-mcp tools TOOL` shows a tool's arguments; `avenir-mcp call \
TOOL name=value …` runs it.";
    let _ = writeln!(out);
    for paragraph in footer.lines() {
        match terminal_width() {
            Some(w) => table::wrap(paragraph, w)
                .iter()
                .for_each(|l| drop(writeln!(out, "{l}"))),
            None => drop(writeln!(out, "{paragraph}")),
        }
    }
    Ok(ANSWERED)
}

/// `avenir-mcp call …`; `demo` is the top-level `--demo` (`avenir-mcp --demo call …`), and
/// `call_help` the subcommand's own help.
pub async fn call(args: CallArgs, demo: bool, call_help: String) -> u8 {
    finish(run_call(args, demo, call_help).await)
}

/// The arguments given as one JSON object, if `--json` carried one; `--json` followed by a
/// `name=value` pair takes that pair back.
fn split_json(args: &mut CallArgs) -> Option<String> {
    match args.json.as_deref() {
        Some(value) if value.trim_start().starts_with('{') => Some(value.to_string()),
        Some(value) if !value.is_empty() => {
            args.pairs.insert(0, value.to_string());
            None
        }
        _ => None,
    }
}

async fn run_call(mut args: CallArgs, demo: bool, call_help: String) -> Result<u8, Stop> {
    let demo = demo || args.source.demo;
    if args.source.reset && !demo {
        return Err(usage(
            "--reset starts the demo plan over: use it with --demo.",
        ));
    }
    if demo && args.source.plan_file.is_some() {
        return Err(usage("--demo and --plan-file name two plans: give one."));
    }
    let Some(name) = args.tool.clone() else {
        if args.help {
            print!("{call_help}");
            return Ok(ANSWERED);
        }
        return Err(usage(
            "name a tool: avenir-mcp call TOOL name=value … (`avenir-mcp tools` lists them).",
        ));
    };
    if args.help {
        let session = listing().await?;
        let tools = session.tools().await;
        session.close().await;
        print!("{}", help_of(&tools?, &name)?);
        return Ok(ANSWERED);
    }
    let json_arguments = split_json(&mut args);
    if json_arguments.is_some() && !args.pairs.is_empty() {
        return Err(usage(
            "give the arguments either as name=value pairs or as one --json object, not both.",
        ));
    }
    let target = match (&args.source.plan_file, demo) {
        (Some(file), _) => Target::PlanFile(file.clone()),
        (None, true) => Target::Demo {
            reset: args.source.reset,
        },
        (None, false) => Target::Token,
    };
    let served = Served::open(&target)
        .await
        .map_err(|e| usage(format!("{e:#}")))?;
    let mut context = avenir::Context::new(served.settings.clone(), served.client.clone());
    context.confirmations.codes = avenir::confirm::codes::CodeStore::on_disk(served.codes.clone());
    crate::report_unfinished(&context);
    let at_terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let person =
        Person::new(at_terminal).with_progress(std::io::stderr().is_terminal() && !args.quiet);
    let session = Session::start(context, person.clone())
        .await
        .map_err(|e| Stop(TOOL_ERROR, format!("{e:#}")))?;
    let notes = Notes {
        quiet: args.quiet,
        once: matches!(target, Target::Demo { .. }).then(|| served.state_dir().join("plan-noted")),
    };
    let outcome = call_in(
        &session,
        &args,
        &name,
        json_arguments.as_deref(),
        &person,
        &notes,
    )
    .await;
    session.close().await;
    // Whatever the outcome, a local plan keeps what the call did to it.
    let saved = served.save();
    let status = outcome?;
    saved.map_err(|e| Stop(TOOL_ERROR, format!("{e:#}")))?;
    Ok(status)
}

/// The tool's arguments, from pairs or JSON, with `--chart` and `--confirm` added.
fn build_arguments(
    tool: &Tool,
    args: &CallArgs,
    json_arguments: Option<&str>,
) -> Result<Map<String, Value>, Stop> {
    let name = tool.name.as_ref();
    let schema = &tool.input_schema;
    let mut arguments = match json_arguments {
        Some(text) => arguments::from_json(name, schema, text),
        None => arguments::from_pairs(name, schema, &args.pairs),
    }
    .map_err(usage)?;
    let takes = |key: &str| {
        schema
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| p.contains_key(key))
    };
    if args.chart.is_some() {
        if !takes("chart") {
            return Err(usage(format!(
                "{name} draws no chart: --chart works with the tools `avenir-mcp tools` marks `reads, chart`."
            )));
        }
        arguments.insert("chart".into(), Value::Bool(true));
    }
    if let Some(code) = &args.confirm {
        if !takes("confirmation") {
            return Err(usage(format!(
                "{name} asks no confirmation: --confirm is for the write tools."
            )));
        }
        arguments.insert("confirmation".into(), Value::String(code.clone()));
    }
    arguments::check_required(name, schema, &arguments).map_err(usage)?;
    Ok(arguments)
}

async fn call_in(
    session: &Session,
    args: &CallArgs,
    name: &str,
    json_arguments: Option<&str>,
    person: &Person,
    notes: &Notes,
) -> Result<u8, Stop> {
    let tools = session.tools().await?;
    let tool = listed_tool(&tools, name)?;
    let mut arguments = build_arguments(tool, args, json_arguments)?;
    named(session, tool, &mut arguments).await?;
    person.reads(session.context.clone(), plan_named(&arguments));
    let mut params = CallToolRequestParams::new(name.to_string()).with_arguments(arguments);
    // The server says how a long load goes (`progress`), when asked with a token.
    params.set_progress_token(ProgressToken(NumberOrString::Number(1)));
    let result = session.client.call_tool(params).await;
    person.progress.clear();
    let result = result.map_err(|e| match e {
        rmcp::ServiceError::McpError(error) => usage(words::for_people(&error.message)),
        other => Stop(TOOL_ERROR, format!("the call failed: {other}")),
    })?;
    let answer = answer_of(&result, person)?;
    print_answer(session, args, tool, &result, answer, notes).await?;
    if let Some(file) = &args.chart {
        write_chart(file, &result)?;
        if !notes.quiet {
            say(&format!("The chart is in {}.", file.display()));
        }
    }
    Ok(ANSWERED)
}

/// The plan a call reads: its `plan_id`, else the one last used in YNAB.
fn plan_named(arguments: &Map<String, Value>) -> String {
    arguments
        .get("plan_id")
        .and_then(Value::as_str)
        .unwrap_or("last-used")
        .to_string()
}

/// The names typed for ids replaced by the ids they stand for (`names`), in the plan the call
/// reads: the same load the tool itself then answers from.
async fn named(
    session: &Session,
    tool: &Tool,
    arguments: &mut Map<String, Value>,
) -> Result<(), Stop> {
    if !names::any_named(arguments) {
        return Ok(());
    }
    let plan_id = plan_named(arguments);
    let snapshot = session
        .context
        .plans
        .read(&plan_id)
        .await
        .map_err(|e| Stop(TOOL_ERROR, format!("the plan could not be read: {e}")))?;
    let words = names::Words::of(&tool.input_schema);
    names::resolve(&snapshot.plan, arguments, &words)
        .map_err(|e| usage(render::clean(&e.to_string())))
}

/// The listed tool `name`; a write tool that writes being off hides is named as such.
fn listed_tool<'t>(tools: &'t [Tool], name: &str) -> Result<&'t Tool, Stop> {
    tools.iter().find(|t| t.name == name).ok_or_else(|| {
        let gated = avenir::tools::registry()
            .iter()
            .any(|spec| spec.name == name && !spec.read_only);
        if gated {
            return usage(format!(
                "{name} changes the plan, and writes are off: set AVENIR_MCP_WRITE=1 to let the command line write to your YNAB plan (it asks you first), or try it with --demo."
            ));
        }
        unknown_tool(name)
    })
}

/// The structured answer of a call that got one: a dismissed question, an error, or a code
/// where a terminal should have been asked stops here.
fn answer_of<'r>(result: &'r CallToolResult, person: &Person) -> Result<&'r Value, Stop> {
    if person.was_dismissed() {
        return Err(Stop(
            TOOL_ERROR,
            "the question was dismissed: nothing changed.".into(),
        ));
    }
    if result.is_error == Some(true) {
        return Err(Stop(TOOL_ERROR, error_text(result)));
    }
    // At a terminal a code only comes when the question got no answer in time (the server gave
    // up waiting): like a dismissal, it is not shown.
    let code_instead_of_question = result
        .structured_content
        .as_ref()
        .and_then(|a| a.get("status"))
        .and_then(Value::as_str)
        == Some("confirmation_required");
    if person.at_terminal && code_instead_of_question {
        return Err(Stop(
            TOOL_ERROR,
            "the question got no answer in time: nothing changed. Run the command again to be asked again.".into(),
        ));
    }
    result
        .structured_content
        .as_ref()
        .ok_or_else(|| Stop(TOOL_ERROR, "the tool gave no structured answer.".into()))
}

/// The answer on stdout, as JSON or rendered (amounts in the plan's currency), notes on stderr,
/// and how to confirm when the answer asks for a confirmation.
async fn print_answer(
    session: &Session,
    args: &CallArgs,
    tool: &Tool,
    result: &CallToolResult,
    answer: &Value,
    notes: &Notes,
) -> Result<(), Stop> {
    let mut out = std::io::stdout().lock();
    if args.json.is_some() {
        let text = serde_json::to_string_pretty(answer)
            .map_err(|e| Stop(TOOL_ERROR, format!("the answer could not be written: {e}")))?;
        let _ = writeln!(out, "{text}");
    } else {
        let money = match plan_of(result) {
            Some(plan_id) => session.context.plans.currency_of(&plan_id).await,
            None => None,
        };
        let money = money.as_ref().map(render::Money::of);
        let schema = tool
            .output_schema
            .as_ref()
            .map(|s| Value::Object((**s).clone()));
        let layout = render::Layout {
            width: terminal_width(),
            ids: args.ids || tool.name == "list_plans",
        };
        let said = said_to_people(answer, money.as_ref());
        let text = present::special(&tool.name, &said, money.as_ref(), schema.as_ref(), layout)
            .unwrap_or_else(|| render::render(&said, money.as_ref(), schema.as_ref(), layout));
        let _ = write!(out, "{text}");
        if let Some(more) = present::more(answer) {
            notes.show(&more);
        }
        // Notes after the answer's own text (the plan a call that left plan_id out was read from).
        for note in result.content.iter().skip(1).filter_map(|c| c.as_text()) {
            notes.show(&note.text);
        }
    }
    let _ = out.flush();
    if answer.get("status").and_then(Value::as_str) == Some("confirmation_required")
        && let Some(code) = answer.get("confirmation").and_then(Value::as_str)
    {
        say(&format!(
            "Nothing changed yet. To apply it, run the same command again with --confirm {}",
            render::clean(code)
        ));
    }
    Ok(())
}

/// The width answers fit in: `COLUMNS` when set, else the terminal's when stdout is one; none
/// in a pipe (a line per row, whatever its length).
fn terminal_width() -> Option<usize> {
    terminal_width_of(std::io::stdout())
}

/// `COLUMNS` when set, else the width of the terminal `stream` is, if it is one.
fn terminal_width_of(stream: impl std::os::fd::AsFd) -> Option<usize> {
    let columns = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|c| *c > 0);
    columns.or_else(|| {
        terminal_size::terminal_size_of(stream)
            .map(|(terminal_size::Width(w), _)| usize::from(w))
            .filter(|w| *w > 0)
    })
}

/// The notes a call prints on stderr: none with `--quiet`; the plan a call read (plan_id left
/// out) once per demo state, whose file `once` records that it was said.
struct Notes {
    quiet: bool,
    once: Option<PathBuf>,
}

impl Notes {
    fn show(&self, note: &str) {
        if self.quiet {
            return;
        }
        let plan_note = note.contains("plan_id was left out");
        if plan_note && let Some(marker) = &self.once {
            if marker.exists() {
                return;
            }
            // Said once: a marker that cannot be written only means it is said again.
            let _ = std::fs::write(marker, b"");
        }
        say(&words::for_people(&render::clean(note)));
    }
}

/// A sentence on stderr: wrapped to the terminal's width when stderr is a terminal, one line
/// (for a script to read) otherwise.
fn say(text: &str) {
    let width = std::io::stderr()
        .is_terminal()
        .then(|| terminal_width_of(std::io::stderr()))
        .flatten();
    match width {
        Some(width) => {
            for line in text.lines() {
                for part in table::wrap(line, width) {
                    eprintln!("{part}");
                }
            }
        }
        None => eprintln!("{text}"),
    }
}

/// The answer's own sentences (its top-level text and lists of text: message, notes) in a
/// person's words; the data beneath them (names, payees) as it came.
fn said_to_people(answer: &Value, money: Option<&render::Money>) -> Value {
    let Value::Object(map) = answer else {
        return answer.clone();
    };
    let say = |text: &str| {
        let said = words::for_people(text);
        match money {
            // A sentence's amounts in the plan's format.
            Some(money) if said.contains(' ') => render::amounts_in(&said, money),
            _ => said,
        }
    };
    let said = map
        .iter()
        .map(|(key, value)| {
            let value = match value {
                Value::String(text) => Value::String(say(text)),
                Value::Array(items) if items.iter().all(Value::is_string) => Value::Array(
                    items
                        .iter()
                        .map(|i| Value::String(say(i.as_str().unwrap_or_default())))
                        .collect(),
                ),
                other => other.clone(),
            };
            (key.clone(), value)
        })
        .collect();
    Value::Object(said)
}

/// The chart image of the result written to `file`.
fn write_chart(file: &std::path::Path, result: &CallToolResult) -> Result<(), Stop> {
    let value = serde_json::to_value(result)
        .map_err(|e| Stop(TOOL_ERROR, format!("the answer could not be read: {e}")))?;
    let png = render::first_image(&value).map_err(|e| Stop(TOOL_ERROR, e))?;
    std::fs::write(file, png).map_err(|e| {
        Stop(
            TOOL_ERROR,
            format!("the chart could not be written to {}: {e}", file.display()),
        )
    })?;
    Ok(())
}

/// The plan a result was read from (`_meta["avenir-mcp/plan_id"]`).
fn plan_of(result: &CallToolResult) -> Option<String> {
    result
        .meta
        .as_ref()
        .and_then(|meta| meta.0.get(avenir::server::META_PLAN_ID))
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// An error result's sentences, made safe for the terminal.
fn error_text(result: &CallToolResult) -> String {
    let texts: Vec<String> = result
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .map(|t| words::for_people(&render::clean(&t.text)))
        .collect();
    if texts.is_empty() {
        "the tool failed and said nothing more.".into()
    } else {
        texts.join("\n")
    }
}
