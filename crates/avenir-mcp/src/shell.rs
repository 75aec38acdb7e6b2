//! What a shell and `man` know of the command line, generated from the same clap definitions as
//! `--help`: `avenir-mcp completions SHELL` and `avenir-mcp man`. Tool names complete in every
//! shell (they are the `TOOL` argument's possible values, from the tool registry); in bash a
//! tool's own arguments complete too (`call set_category_budget cat<TAB>` → `category_id=`).

use clap::builder::{PossibleValue, TypedValueParser};
use std::io::Write;

/// The `TOOL` argument: any text (an unknown tool is `call`'s own refusal, with what to do), with
/// the registry's tool names as the values a shell completes.
#[derive(Debug, Clone, Copy)]
pub struct ToolName;

impl TypedValueParser for ToolName {
    type Value = String;

    fn parse_ref(
        &self,
        _command: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        Ok(value.to_string_lossy().into_owned())
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            avenir::tools::registry()
                .into_iter()
                .map(|spec| PossibleValue::new(spec.name)),
        ))
    }
}

/// Each tool's arguments as `name=` words (the input schema's properties).
fn arguments_of_tools() -> Vec<(&'static str, Vec<String>)> {
    avenir::tools::registry()
        .into_iter()
        .map(|spec| {
            let schema = (spec.input_schema)();
            let names = schema
                .get("properties")
                .and_then(serde_json::Value::as_object)
                .map(|p| p.keys().map(|k| format!("{k}=")).collect())
                .unwrap_or_default();
            (spec.name, names)
        })
        .collect()
}

/// The bash lines added after clap's script: after `call TOOL`, a word that is not an option
/// completes to one of TOOL's arguments; everything else is clap's completion.
fn bash_arguments(program: &str, clap_function: &str) -> String {
    let cases: String = arguments_of_tools()
        .into_iter()
        .map(|(tool, names)| format!("        {tool}) echo '{}' ;;\n", names.join(" ")))
        .collect();
    format!(
        r#"
# A tool's arguments after `{program} call TOOL`.
_avenir_mcp_tool_arguments() {{
    case "$1" in
{cases}    esac
}}

_avenir_mcp_complete() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" i tool=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ "${{COMP_WORDS[i]}}" == call ]]; then
            tool="${{COMP_WORDS[i + 1]}}"
            break
        fi
    done
    if [[ -n "$tool" && $COMP_CWORD -gt $((i + 1)) && "$cur" != -* && "$cur" != *=* ]]; then
        COMPREPLY=($(compgen -W "$(_avenir_mcp_tool_arguments "$tool")" -- "$cur"))
        compopt -o nospace 2>/dev/null
        return 0
    fi
    {clap_function} "$@"
}}

complete -F _avenir_mcp_complete -o bashdefault -o default {program}
"#
    )
}

/// `avenir-mcp completions SHELL`: the completion script on `out`.
pub fn completions(
    mut command: clap::Command,
    shell: clap_complete::Shell,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let program = command.get_name().to_string();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, program.clone(), &mut script);
    if shell != clap_complete::Shell::Bash {
        out.write_all(&script)?;
    }
    if shell == clap_complete::Shell::Bash {
        // clap_complete names a subcommand's case `avenir__subcmd__mcp__subcmd__call` where its
        // dispatch sets `avenir__mcp__subcmd__call` (a name with a dash): one spelling for both,
        // or no subcommand's options and tool names would complete.
        let text = String::from_utf8_lossy(&script).replace(
            &program.replace('-', "__subcmd__"),
            &program.replace('-', "__"),
        );
        out.write_all(text.as_bytes())?;
        // The function clap's script registers (`complete -F NAME … program`).
        let function = text
            .split_whitespace()
            .skip_while(|word| *word != "-F")
            .nth(1)
            .unwrap_or("_avenir__mcp");
        out.write_all(bash_arguments(&program, function).as_bytes())?;
    }
    if shell == clap_complete::Shell::Fish {
        // fish's script from clap offers no positional's values: the tool names after `call`
        // and `tools`.
        let names: Vec<&str> = avenir::tools::registry().iter().map(|s| s.name).collect();
        writeln!(
            out,
            "complete -c {program} -n \"__fish_seen_subcommand_from call tools\" -f -a \"{}\"",
            names.join(" ")
        )?;
    }
    out.flush()
}

/// `avenir-mcp man`: the man page (roff) on `out`, its subcommands' sections included.
pub fn man_page(command: clap::Command, out: &mut impl Write) -> std::io::Result<()> {
    clap_mangen::Man::new(command).render(out)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_is_a_completion_with_its_arguments() {
        let names: Vec<String> = ToolName
            .possible_values()
            .into_iter()
            .flatten()
            .map(|v| v.get_name().to_string())
            .collect();
        assert!(names.contains(&"set_category_budget".to_string()));
        let arguments = arguments_of_tools();
        let budget = arguments
            .iter()
            .find(|(tool, _)| *tool == "set_category_budget")
            .map(|(_, names)| names.clone())
            .unwrap_or_default();
        assert!(budget.contains(&"category_id=".to_string()), "{budget:?}");
        let mut script = Vec::new();
        let command = clap::Command::new("avenir-mcp").subcommand(clap::Command::new("call"));
        let written = completions(command, clap_complete::Shell::Bash, &mut script);
        assert!(written.is_ok());
        let script = String::from_utf8_lossy(&script);
        assert!(script.contains("    _avenir__mcp \"$@\"\n"), "{script}");
    }
}
