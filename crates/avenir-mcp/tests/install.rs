//! What installs avenir-mcp stays true to the server: every client configuration in the README's
//! Install section starts `avenir-mcp` and passes only variables the server reads, with the token
//! never written in; the MCPB manifest lists exactly the tools the server lists and wires the
//! token from a sensitive, required setting; `server.json` is valid under the MCP Registry's
//! published schema (a copy in `packaging/registry/`, no network) and names this version's
//! release bundles.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_avenir-mcp");
const VERSION: &str = env!("CARGO_PKG_VERSION");
const README: &str = include_str!("../../../README.md");
const MANIFEST: &str = include_str!("../../../packaging/mcpb/manifest.json");
const SERVER_JSON: &str = include_str!("../../../server.json");
const REGISTRY_SCHEMA: &str = include_str!("../../../packaging/registry/server.schema.json");

/// The source files that read the server's environment: a variable is one the server reads when
/// one of them asks for it by name.
const ENV_READERS: [&str; 7] = [
    include_str!("../../ynab/src/config.rs"),
    include_str!("../../ynab/src/pacing.rs"),
    include_str!("../../avenir/src/config.rs"),
    include_str!("../../avenir/src/store/journal.rs"),
    include_str!("../src/main.rs"),
    include_str!("../src/http.rs"),
    include_str!("../src/logging.rs"),
];

/// The variables that give the server its YNAB token.
const TOKEN_VARIABLES: [&str; 2] = ["YNAB_API_KEY", "YNAB_API_KEY_FILE"];

/// The five release platforms, as the bundles' file names spell them.
const PLATFORMS: [&str; 5] = [
    "linux-x86_64",
    "linux-aarch64",
    "macos-aarch64",
    "macos-x86_64",
    "windows-x86_64",
];

fn server_reads(variable: &str) -> bool {
    ENV_READERS.iter().any(|source| {
        source.contains(&format!("env::var(\"{variable}\")"))
            || source.contains(&format!("env::var_os(\"{variable}\")"))
    })
}

#[test]
fn the_token_variables_are_the_ones_the_server_reads() {
    for variable in TOKEN_VARIABLES
        .iter()
        .chain(&["AVENIR_MCP_WRITE", "AVENIR_MCP_TOOLSETS"])
    {
        assert!(server_reads(variable), "{variable}");
    }
    assert!(
        !server_reads("YNAB_TOKEN"),
        "the oracle tells a variable it does not read"
    );
}

// ---- the README's Install section ------------------------------------------------------------

/// The README from `## Install` to the next second-level heading.
fn install_section() -> &'static str {
    let start = README
        .find("\n## Install\n")
        .expect("the README has an Install section");
    let rest = &README[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    &rest[..end]
}

/// The fenced blocks of `text` under each `#### ` heading: (heading, language, body).
fn blocks_by_client(text: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut heading = String::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        match &mut open {
            Some((language, body)) => {
                if line.trim_start().starts_with("```") {
                    out.push((heading.clone(), language.clone(), body.clone()));
                    open = None;
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
            None => {
                if let Some(title) = line.strip_prefix("#### ") {
                    heading = title.trim().to_string();
                } else if let Some(language) = line.trim_start().strip_prefix("```") {
                    open = Some((language.trim().to_string(), String::new()));
                }
            }
        }
    }
    assert!(
        open.is_none(),
        "a code block of the Install section is not closed"
    );
    out
}

fn starts_avenir(command: &str) -> bool {
    let command = command.trim_matches('"');
    command.ends_with("/avenir-mcp") || command.ends_with("\\avenir-mcp.exe")
}

/// A token value written into a configuration must be a reference the client resolves (an input
/// prompt or a variable of the environment), never the token itself.
fn is_reference(value: &str) -> bool {
    value.starts_with("${") && value.ends_with('}') && value.matches("${").count() == 1
}

/// Checks one JSON configuration: `key` is the client's top-level member holding the servers.
fn check_json_config(client: &str, config: &Value, key: &str) -> usize {
    let servers = config[key]
        .as_object()
        .unwrap_or_else(|| panic!("{client}: the servers are under \"{key}\": {config}"));
    assert!(!servers.is_empty(), "{client}: no server");
    for (name, server) in servers {
        let command = server["command"]
            .as_str()
            .unwrap_or_else(|| panic!("{client} {name}: no command"));
        assert!(starts_avenir(command), "{client} {name}: starts {command}");
        if let Some(kind) = server.get("type") {
            assert_eq!(kind, "stdio", "{client} {name}");
        }
        let args: Vec<&str> = match server.get("args") {
            None => Vec::new(),
            Some(args) => args
                .as_array()
                .unwrap_or_else(|| panic!("{client} {name}: args is a list"))
                .iter()
                .map(|a| a.as_str().expect("each argument is a string"))
                .collect(),
        };
        assert!(
            args.iter().all(|a| *a == "--demo"),
            "{client} {name}: the server takes no argument but --demo: {args:?}"
        );
        let demo = args.contains(&"--demo");
        let empty = serde_json::Map::new();
        let env = match server.get("env") {
            None => &empty,
            Some(env) => env
                .as_object()
                .unwrap_or_else(|| panic!("{client} {name}: env is an object")),
        };
        for (variable, value) in env {
            assert!(
                server_reads(variable),
                "{client} {name}: avenir-mcp does not read {variable}"
            );
            assert!(value.is_string(), "{client} {name}: {variable} is a string");
        }
        let token_given = TOKEN_VARIABLES.iter().any(|v| env.contains_key(*v));
        assert_eq!(
            token_given, !demo,
            "{client} {name}: a token variable exactly when not the demo"
        );
        if let Some(token) = env.get("YNAB_API_KEY").and_then(Value::as_str) {
            assert!(
                is_reference(token),
                "{client} {name}: the token is written into the file: {token}"
            );
            // An input reference needs its input, declared as a password.
            if let Some(id) = token
                .strip_prefix("${input:")
                .and_then(|t| t.strip_suffix('}'))
            {
                let declared = config["inputs"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .find(|input| input["id"] == id)
                    .unwrap_or_else(|| panic!("{client} {name}: no input {id}"));
                assert_eq!(declared["type"], "promptString", "{client} {name}");
                assert_eq!(declared["password"], true, "{client} {name}");
            }
        }
    }
    servers.len()
}

/// Splits a shell line into words, honouring double quotes (enough for the README's commands).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut in_word = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    assert!(!quoted, "an unclosed quote in: {line}");
    if in_word {
        words.push(word);
    }
    words
}

/// Checks one `claude mcp add` command line.
fn check_claude_mcp_add(line: &str) {
    let words = shell_words(line);
    assert_eq!(words[..3], ["claude", "mcp", "add"], "{line}");
    let dash = words
        .iter()
        .position(|w| w == "--")
        .unwrap_or_else(|| panic!("the command follows --: {line}"));
    let (options, command) = (&words[3..dash], &words[dash + 1..]);
    assert!(
        command.first().is_some_and(|c| starts_avenir(c)),
        "starts avenir-mcp: {line}"
    );
    let demo = command[1..] == ["--demo"];
    assert!(demo || command.len() == 1, "no argument but --demo: {line}");
    // Options, then the server's name, just before `--`.
    let mut env = Vec::new();
    let mut i = 0;
    while i + 1 < options.len() {
        let (option, value) = (&options[i], &options[i + 1]);
        match option.as_str() {
            "--env" | "-e" => {
                let (variable, _) = value
                    .split_once('=')
                    .unwrap_or_else(|| panic!("{option} takes KEY=value: {line}"));
                assert!(
                    server_reads(variable),
                    "avenir-mcp does not read {variable}"
                );
                env.push(variable.to_string());
            }
            "--transport" | "-t" => assert_eq!(value, "stdio", "{line}"),
            "--scope" | "-s" => assert!(
                ["local", "project", "user"].contains(&value.as_str()),
                "{line}"
            ),
            other => panic!("an option the check does not know, {other}: {line}"),
        }
        i += 2;
    }
    assert_eq!(i + 1, options.len(), "the server's name comes last: {line}");
    assert!(
        !options[i].starts_with('-'),
        "a name, not an option: {line}"
    );
    let token_given = env.iter().any(|v| TOKEN_VARIABLES.contains(&v.as_str()));
    assert_eq!(
        token_given, !demo,
        "a token variable exactly when not the demo: {line}"
    );
    assert!(
        !env.iter().any(|v| v == "YNAB_API_KEY"),
        "the token itself on a command line lands in the shell's history: {line}"
    );
}

#[test]
fn every_client_configuration_in_the_readme_starts_avenir_mcp_with_a_token_it_reads() {
    let section = install_section();
    assert!(section.contains("cargo install --path crates/avenir-mcp"));
    let blocks = blocks_by_client(section);
    let mut checked = std::collections::BTreeMap::<&str, usize>::new();
    for (client, language, body) in &blocks {
        let client_key = [
            "Claude Desktop",
            "Claude Code",
            "Cursor",
            "VS Code",
            "Windsurf",
        ]
        .into_iter()
        .find(|c| client == c);
        let Some(client_key) = client_key else {
            continue;
        };
        let count = match language.as_str() {
            "json" => {
                let config: Value = serde_json::from_str(body)
                    .unwrap_or_else(|e| panic!("{client}: not JSON ({e}):\n{body}"));
                // VS Code's mcp.json keeps its servers under `servers`; the others under
                // `mcpServers`.
                let key = if client_key == "VS Code" {
                    "servers"
                } else {
                    "mcpServers"
                };
                assert!(
                    config
                        .get(if key == "servers" {
                            "mcpServers"
                        } else {
                            "servers"
                        })
                        .is_none(),
                    "{client}: the other clients' key"
                );
                check_json_config(client, &config, key)
            }
            "sh" => {
                let lines: Vec<&str> = body.lines().filter(|l| !l.trim().is_empty()).collect();
                for line in &lines {
                    check_claude_mcp_add(line);
                }
                lines.len()
            }
            other => panic!("{client}: a block of {other}"),
        };
        *checked.entry(client_key).or_default() += count;
    }
    assert_eq!(
        checked.keys().copied().collect::<Vec<_>>(),
        [
            "Claude Code",
            "Claude Desktop",
            "Cursor",
            "VS Code",
            "Windsurf"
        ],
        "{checked:?}"
    );
    // Claude Desktop: the token file and the demo; Claude Code: two commands and .mcp.json.
    assert_eq!(checked["Claude Desktop"], 2);
    assert_eq!(checked["Claude Code"], 3);
}

#[test]
fn the_configuration_check_refuses_what_it_should() {
    let good = json!({"mcpServers": {"avenir": {
        "command": "/Users/you/.cargo/bin/avenir-mcp",
        "env": {"YNAB_API_KEY_FILE": "/Users/you/.config/ynab-token"}}}});
    assert_eq!(check_json_config("good", &good, "mcpServers"), 1);
    let bad = [
        // another program
        json!({"mcpServers": {"a": {"command": "/usr/bin/python3",
            "env": {"YNAB_API_KEY_FILE": "/t"}}}}),
        // a variable the server does not read
        json!({"mcpServers": {"a": {"command": "/b/avenir-mcp", "env": {"YNAB_TOKEN": "x"}}}}),
        // no token and not the demo
        json!({"mcpServers": {"a": {"command": "/b/avenir-mcp"}}}),
        // the token itself in the file
        json!({"mcpServers": {"a": {"command": "/b/avenir-mcp",
            "env": {"YNAB_API_KEY": "0123456789abcdef"}}}}),
        // an input that is not declared as a password
        json!({"inputs": [{"type": "promptString", "id": "t"}],
            "mcpServers": {"a": {"command": "/b/avenir-mcp",
            "env": {"YNAB_API_KEY": "${input:t}"}}}}),
    ];
    for config in bad {
        let refused = std::panic::catch_unwind(|| check_json_config("bad", &config, "mcpServers"));
        assert!(refused.is_err(), "accepted {config}");
    }
    for line in [
        "claude mcp add avenir -- /b/avenir-mcp",
        "claude mcp add --env YNAB_API_KEY=abc avenir -- /b/avenir-mcp",
        "claude mcp add --env YNAB_API_KEY_FILE=/t avenir -- /b/other",
        "claude mcp add --env YNAB_API_KEY_FILE=/t -- /b/avenir-mcp",
    ] {
        let refused = std::panic::catch_unwind(|| check_claude_mcp_add(line));
        assert!(refused.is_err(), "accepted {line}");
    }
}

// ---- the MCPB manifest ---------------------------------------------------------------------

/// The demo's `tools/list` over stdio, every page.
fn demo_tools() -> Vec<Value> {
    let mut child = Command::new(BIN)
        .arg("--demo")
        // The manifest names every tool a person can turn on.
        .env("AVENIR_MCP_TOOLSETS", "all")
        .env_remove("YNAB_API_KEY")
        .env_remove("YNAB_API_KEY_FILE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    // Sends `message`; with an id, returns the answer to it (notifications in between skipped).
    let mut ask = |id: Option<i64>, message: Value| -> Value {
        writeln!(stdin, "{message}").expect("write");
        stdin.flush().expect("flush");
        let Some(id) = id else {
            return Value::Null;
        };
        loop {
            let mut line = String::new();
            let n = stdout.read_line(&mut line).expect("read");
            assert!(n > 0, "the server closed stdout before answering {id}");
            let answer: Value = serde_json::from_str(&line).expect("JSON-RPC");
            if answer["id"] == json!(id) {
                return answer;
            }
        }
    };
    let init = ask(
        Some(1),
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "install-test", "version": "0"}}}),
    );
    assert_eq!(init["result"]["serverInfo"]["version"], VERSION);
    ask(
        None,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    let mut tools = Vec::new();
    let mut cursor: Option<Value> = None;
    for id in 2.. {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        let page = ask(
            Some(id),
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params}),
        );
        tools.extend(page["result"]["tools"].as_array().expect("tools").clone());
        match page["result"].get("nextCursor") {
            Some(next) if !next.is_null() => cursor = Some(next.clone()),
            _ => break,
        }
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    tools
}

#[test]
fn the_manifest_lists_exactly_the_tools_the_server_lists() {
    let manifest: Value = serde_json::from_str(MANIFEST).expect("manifest.json is JSON");
    let listed: Vec<Value> = demo_tools()
        .iter()
        .map(|t| json!({"name": t["name"], "description": t["title"]}))
        .collect();
    // --demo opens the write gate: every tool of the build, read and write.
    assert_eq!(
        listed.len(),
        avenir::tools::tool_names::READ_TOOLS.len() + avenir::tools::tool_names::WRITE_TOOLS.len()
    );
    assert_eq!(
        manifest["tools"],
        Value::Array(listed.clone()),
        "packaging/mcpb/manifest.json's tools, in the server's order with each title, are:\n{}",
        serde_json::to_string_pretty(&listed).unwrap_or_default()
    );
}

#[test]
fn the_manifest_runs_the_bundled_binary_with_the_token_from_a_secret_setting() {
    let manifest: Value = serde_json::from_str(MANIFEST).expect("manifest.json is JSON");
    assert_eq!(manifest["manifest_version"], "0.4");
    assert_eq!(manifest["name"], "avenir-mcp");
    assert_eq!(manifest["version"], VERSION, "the crate's version");
    assert_eq!(manifest["license"], "MIT");
    let server = &manifest["server"];
    assert_eq!(server["type"], "binary");
    assert_eq!(server["entry_point"], "server/avenir-mcp");
    assert_eq!(
        server["mcp_config"]["command"],
        "${__dirname}/server/avenir-mcp"
    );
    assert_eq!(
        server["mcp_config"]["platform_overrides"]["win32"]["command"],
        "${__dirname}/server/avenir-mcp.exe"
    );
    let env = server["mcp_config"]["env"].as_object().expect("env");
    for variable in env.keys() {
        assert!(
            server_reads(variable),
            "avenir-mcp does not read {variable}"
        );
    }
    assert_eq!(env["YNAB_API_KEY"], "${user_config.ynab_api_key}");
    let token = &manifest["user_config"]["ynab_api_key"];
    assert_eq!(token["type"], "string");
    assert_eq!(token["sensitive"], true);
    assert_eq!(token["required"], true);
    // Writes: a number 0 or 1, substituted as the text AVENIR_MCP_WRITE compares with "1".
    assert_eq!(env["AVENIR_MCP_WRITE"], "${user_config.allow_writes}");
    let writes = &manifest["user_config"]["allow_writes"];
    assert_eq!(
        (
            &writes["type"],
            &writes["default"],
            &writes["min"],
            &writes["max"]
        ),
        (&json!("number"), &json!(0), &json!(0), &json!(1))
    );
    // Toolsets: a text setting whose default is the server's own default.
    assert_eq!(env["AVENIR_MCP_TOOLSETS"], "${user_config.toolsets}");
    let toolsets = &manifest["user_config"]["toolsets"];
    assert_eq!(
        (&toolsets["type"], &toolsets["default"]),
        (&json!("string"), &json!("default"))
    );
    assert_eq!(
        avenir::tools::toolsets::Toolsets::parse("default"),
        Ok(avenir::tools::toolsets::Toolsets::default())
    );
    assert_eq!(
        manifest["compatibility"]["platforms"],
        json!(["darwin", "win32", "linux"])
    );
}

// ---- server.json for the MCP Registry --------------------------------------------------------

/// The registry's current schema, of which `packaging/registry/server.schema.json` is a copy.
const SCHEMA_URL: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

fn registry_validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(REGISTRY_SCHEMA).expect("the schema is JSON");
    assert_eq!(schema["$id"], SCHEMA_URL);
    jsonschema::draft7::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|e| panic!("the registry's schema compiles: {e}"))
}

fn registry_errors(validator: &jsonschema::Validator, server: &Value) -> Vec<String> {
    validator
        .iter_errors(server)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// server.json as the release workflow publishes it: each bundle's hash filled in.
fn with_hashes(server: &Value) -> Value {
    let mut filled = server.clone();
    for package in filled["packages"].as_array_mut().expect("packages") {
        package["fileSha256"] =
            json!("c556bb93ccdf301c0f5713b76c575cef53f2d686318618c3bd7dabb72de2621a");
    }
    filled
}

#[test]
fn server_json_is_valid_under_the_registry_schema_and_names_this_version_s_bundles() {
    let validator = registry_validator();
    let server: Value = serde_json::from_str(SERVER_JSON).expect("server.json is JSON");
    assert_eq!(server["$schema"], SCHEMA_URL);
    assert_eq!(registry_errors(&validator, &server), Vec::<String>::new());
    assert_eq!(
        registry_errors(&validator, &with_hashes(&server)),
        Vec::<String>::new()
    );
    assert_eq!(server["name"], "io.github.avenir-mcp/avenir-mcp");
    assert_eq!(server["version"], VERSION, "the crate's version");
    assert_eq!(
        server["repository"],
        json!({"url": "https://github.com/avenir-mcp/avenir-mcp", "source": "github"})
    );
    let packages = server["packages"].as_array().expect("packages");
    let identifiers: Vec<&str> = packages
        .iter()
        .map(|p| p["identifier"].as_str().expect("identifier"))
        .collect();
    let expected: Vec<String> = PLATFORMS
        .iter()
        .map(|platform| {
            format!(
                "https://github.com/avenir-mcp/avenir-mcp/releases/download/v{VERSION}/avenir-mcp-{VERSION}-{platform}.mcpb"
            )
        })
        .collect();
    assert_eq!(identifiers, expected);
    for package in packages {
        assert_eq!(package["registryType"], "mcpb");
        assert_eq!(package["transport"], json!({"type": "stdio"}));
        assert!(
            package.get("fileSha256").is_none(),
            "the release workflow fills the hash of the bundle it built"
        );
        // The registry's own rules for an mcpb package, beyond the schema
        // (internal/validators/registries/mcpb.go): the version lives in the URL.
        for member in ["version", "registryBaseUrl"] {
            assert!(
                package.get(member).is_none(),
                "an mcpb package has no {member}"
            );
        }
        let env = package["environmentVariables"].as_array().expect("env");
        for variable in env {
            let name = variable["name"].as_str().expect("name");
            assert!(server_reads(name), "avenir-mcp does not read {name}");
        }
        let token = env
            .iter()
            .find(|v| v["name"] == "YNAB_API_KEY")
            .expect("the token variable");
        assert_eq!(
            (&token["isSecret"], &token["isRequired"]),
            (&json!(true), &json!(true))
        );
    }
}

fn remove(server: &mut Value, member: &str) {
    if let Some(object) = server.as_object_mut() {
        object.remove(member);
    }
}

/// A change that makes server.json invalid.
type Breakage = fn(&mut Value);

#[test]
fn the_registry_schema_refuses_broken_server_json() {
    let validator = registry_validator();
    let server: Value = serde_json::from_str(SERVER_JSON).expect("server.json is JSON");
    let broken: [(&str, Breakage); 6] = [
        ("no name", |s| remove(s, "name")),
        ("no version", |s| remove(s, "version")),
        ("a version that is a number", |s| s["version"] = json!(1.0)),
        ("a name without its namespace", |s| {
            s["name"] = json!("avenir-mcp")
        }),
        ("a description over 100 characters", |s| {
            s["description"] = json!("x".repeat(101))
        }),
        ("a hash that is not SHA-256 hex", |s| {
            s["packages"][0]["fileSha256"] = json!("C556BB93")
        }),
    ];
    for (what, breaks) in broken {
        let mut variant = with_hashes(&server);
        breaks(&mut variant);
        assert!(
            !registry_errors(&validator, &variant).is_empty(),
            "the schema accepts server.json with {what}"
        );
    }
}
