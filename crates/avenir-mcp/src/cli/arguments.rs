//! `avenir-mcp call`'s arguments: `key=value` pairs typed by the tool's input schema, or one JSON
//! object; and the help a tool's schema gives (`avenir-mcp tools TOOL`). Pure functions: a
//! refusal is a sentence that says what to do, and the command exits 2 with it.

use serde_json::{Map, Value};

/// The JSON types a property of an input schema accepts, as its `type` says (a string or a
/// list); a property that states none accepts any.
fn types_of(property: &Value) -> Vec<&str> {
    match property.get("type") {
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// A property's type in words, for help and refusals.
pub fn type_words(property: &Value) -> String {
    let words: Vec<&str> = types_of(property)
        .into_iter()
        .filter(|t| *t != "null")
        .map(|t| match t {
            "string" => "text",
            "integer" => "a whole number",
            "number" => "a number",
            "boolean" => "true or false",
            "array" => "a JSON array",
            "object" => "a JSON object",
            other => other,
        })
        .collect();
    if words.is_empty() {
        "any JSON value".into()
    } else {
        words.join(" or ")
    }
}

fn properties(schema: &Map<String, Value>) -> Option<&Map<String, Value>> {
    schema.get("properties").and_then(Value::as_object)
}

fn names(schema: &Map<String, Value>) -> String {
    let names: Vec<&str> = properties(schema)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    if names.is_empty() {
        "no argument".into()
    } else {
        names.join(", ")
    }
}

fn see(tool: &str) -> String {
    format!("`avenir-mcp tools {tool}` shows its arguments.")
}

/// Type one raw `value` for `key` by its schema `property`. Text stays text; a number, a whole
/// number, `true`/`false`, `null` (where allowed), or a JSON array or object becomes that JSON
/// value. Where text is also allowed, whatever is not one of the other types is text.
pub fn typed(tool: &str, key: &str, property: &Value, raw: &str) -> Result<Value, String> {
    let value = typed_value(tool, key, property, raw)?;
    // A closed list of values: one of them (ranges and formats are the tool's own checks).
    if let Some(allowed) = property.get("enum").and_then(Value::as_array)
        && !allowed.contains(&value)
    {
        let names: Vec<String> = allowed
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .collect();
        return Err(format!(
            "{key}={raw}: {key} is one of {}. {}",
            names.join(", "),
            see(tool)
        ));
    }
    Ok(value)
}

fn typed_value(tool: &str, key: &str, property: &Value, raw: &str) -> Result<Value, String> {
    let types = types_of(property);
    let any = types.is_empty();
    let allows = |t: &str| any || types.contains(&t);
    let parsed = serde_json::from_str::<Value>(raw.trim()).ok();
    let fits = match &parsed {
        Some(Value::Bool(_)) => allows("boolean"),
        Some(Value::Number(n)) => {
            allows("number") || (allows("integer") && (n.is_i64() || n.is_u64()))
        }
        Some(Value::Array(_)) => allows("array"),
        Some(Value::Object(_)) => allows("object"),
        // `null` is text where text is allowed, unless a closed list names null itself.
        Some(Value::Null) => {
            allows("null")
                && (!allows("string")
                    || property
                        .get("enum")
                        .and_then(Value::as_array)
                        .is_some_and(|e| e.contains(&Value::Null)))
        }
        Some(Value::String(_)) | None => false,
    };
    if fits && let Some(value) = parsed {
        return Ok(value);
    }
    if allows("string") {
        return Ok(Value::String(raw.to_string()));
    }
    let example = match types.iter().find(|t| **t != "null") {
        Some(&"integer") => " (such as 6)",
        Some(&"number") => " (such as 150 or -22.5)",
        Some(&"boolean") => " (true or false)",
        Some(&"array") => " (such as '[\"id-1\", \"id-2\"]')",
        Some(&"object") => " (such as '{\"key\": \"value\"}')",
        _ => "",
    };
    Err(format!(
        "{key}={raw}: {key} takes {}{example}. {}",
        type_words(property),
        see(tool)
    ))
}

/// `key=value` pairs typed by `schema`: an unknown key, a pair without `=`, a key given twice or
/// a value that does not fit is refused.
pub fn from_pairs(
    tool: &str,
    schema: &Map<String, Value>,
    pairs: &[String],
) -> Result<Map<String, Value>, String> {
    let mut arguments = Map::new();
    for pair in pairs {
        let Some((key, raw)) = pair.split_once('=') else {
            return Err(format!(
                "{pair:?} is not key=value: write each argument as name=value (a JSON array or object as JSON text). {}",
                see(tool)
            ));
        };
        let key = key.trim();
        let Some(property) = properties(schema).and_then(|p| p.get(key)) else {
            return Err(unknown(tool, schema, key));
        };
        if arguments.contains_key(key) {
            return Err(format!("{key} is given twice: give it once."));
        }
        arguments.insert(key.to_string(), typed(tool, key, property, raw)?);
    }
    Ok(arguments)
}

fn unknown(tool: &str, schema: &Map<String, Value>, key: &str) -> String {
    format!(
        "{key} is not an argument of {tool}: it takes {}. {}",
        names(schema),
        see(tool)
    )
}

/// The arguments as one JSON object (`--json '{…}'`): its members must be the tool's.
pub fn from_json(
    tool: &str,
    schema: &Map<String, Value>,
    text: &str,
) -> Result<Map<String, Value>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        format!("--json takes the arguments as one JSON object ({e}): such as --json '{{\"month\": \"2026-09\"}}'.")
    })?;
    let Value::Object(arguments) = value else {
        return Err("--json takes the arguments as one JSON object, such as --json '{\"month\": \"2026-09\"}'.".into());
    };
    if let Some(key) = arguments
        .keys()
        .find(|key| properties(schema).is_none_or(|p| !p.contains_key(*key)))
    {
        return Err(unknown(tool, schema, key));
    }
    Ok(arguments)
}

/// The required arguments `arguments` leaves out are named, with what each is.
pub fn check_required(
    tool: &str,
    schema: &Map<String, Value>,
    arguments: &Map<String, Value>,
) -> Result<(), String> {
    let required = schema.get("required").and_then(Value::as_array);
    let missing: Vec<String> = required
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|key| !arguments.contains_key(*key))
        .map(|key| {
            let property = properties(schema).and_then(|p| p.get(key));
            let what = property
                .and_then(|p| p.get("description"))
                .and_then(Value::as_str)
                .map(|d| format!(" ({})", d.trim_end_matches('.')))
                .unwrap_or_default();
            format!("{key}=…{what}")
        })
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{tool} needs {}. {}",
            missing.join(", "),
            see(tool)
        ))
    }
}

/// The first sentence of a description, for one-line lists: up to the first `. ` followed by a
/// capital letter (so `e.g. a` does not end it).
pub fn first_sentence(description: &str) -> &str {
    let end = description.match_indices(". ").find(|(i, _)| {
        description[i + 2..]
            .chars()
            .next()
            .is_some_and(|c| c.is_uppercase() || c == '"')
    });
    match end {
        Some((i, _)) => &description[..=i],
        None => description,
    }
}

/// A tool's help: its description, then each argument with its type, whether it is required,
/// its default and what it is.
pub fn tool_help(
    name: &str,
    description: &str,
    writes: bool,
    schema: &Map<String, Value>,
) -> String {
    let mut out = format!(
        "{name} ({})\n\n{description}\n\nArguments (name=value):\n",
        if writes {
            "writes: asks before changing anything"
        } else {
            "reads"
        }
    );
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    match properties(schema) {
        Some(props) if !props.is_empty() => {
            for (key, property) in props {
                let need = if required.contains(&key.as_str()) {
                    "required"
                } else {
                    "optional"
                };
                let default = property
                    .get("default")
                    .filter(|d| !d.is_null())
                    .map(|d| format!(", default {d}"))
                    .unwrap_or_default();
                // The command line takes a name for these ids (`names`).
                let named = if super::names::Kind::of(key).is_some() {
                    " (or the name)"
                } else {
                    ""
                };
                out.push_str(&format!(
                    "  {key}  {}{named}, {need}{default}\n",
                    type_words(property)
                ));
                if let Some(text) = property.get("description").and_then(Value::as_str) {
                    out.push_str(&format!("      {text}\n"));
                }
            }
        }
        _ => out.push_str("  none\n"),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Map<String, Value> {
        match json!({
            "type": "object",
            "properties": {
                "month": {"type": "string", "description": "'current', 'last', YYYY-MM."},
                "amount": {"type": "number"},
                "limit": {"type": ["integer", "null"]},
                "include_empty": {"type": "boolean"},
                "plan_id": {"type": ["string", "null"]},
                "ids": {"type": ["array", "null"], "items": {"type": "string"}},
                "lines": {"type": "array", "items": {"type": "object"}}
            },
            "required": ["month", "amount"]
        }) {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    fn pairs(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn values_are_typed_by_the_schema() {
        let args = from_pairs(
            "t",
            &schema(),
            &pairs(&[
                "month=2026-09",
                "amount=-22.50",
                "limit=5",
                "include_empty=true",
                "plan_id=123",
                "ids=[\"a\",\"b\"]",
            ]),
        );
        assert_eq!(
            args,
            Ok(
                match json!({
                    "month": "2026-09", "amount": -22.5, "limit": 5, "include_empty": true,
                    "plan_id": "123", "ids": ["a", "b"]
                }) {
                    Value::Object(map) => map,
                    _ => Map::new(),
                }
            )
        );
        // Text stays text, even when it reads as another type.
        assert_eq!(
            typed("t", "month", &json!({"type": "string"}), "true"),
            Ok(json!("true"))
        );
        assert_eq!(
            typed("t", "limit", &json!({"type": ["integer", "null"]}), "null"),
            Ok(Value::Null)
        );
        assert_eq!(
            typed("t", "amount", &json!({"type": "number"}), "150"),
            Ok(json!(150))
        );
    }

    #[test]
    fn a_value_that_does_not_fit_says_what_the_argument_takes() {
        assert_eq!(
            from_pairs("set_category_budget", &schema(), &pairs(&["amount=lots"])),
            Err("amount=lots: amount takes a number (such as 150 or -22.5). `avenir-mcp tools set_category_budget` shows its arguments.".to_string())
        );
        let limit = from_pairs("t", &schema(), &pairs(&["limit=2.5"]));
        assert!(
            limit
                .as_ref()
                .is_err_and(|e| e.starts_with("limit=2.5: limit takes a whole number")),
            "{limit:?}"
        );
        let flag = from_pairs("t", &schema(), &pairs(&["include_empty=yes"]));
        assert!(flag.is_err_and(|e| e.contains("true or false")));
        let lines = from_pairs("t", &schema(), &pairs(&["lines={\"a\":1}"]));
        assert!(lines.is_err_and(|e| e.contains("a JSON array")));
        let strategy = json!({"type": "string", "enum": ["avalanche", "snowball", "both"]});
        assert_eq!(
            typed("t", "strategy", &strategy, "fastest"),
            Err("strategy=fastest: strategy is one of avalanche, snowball, both. `avenir-mcp tools t` shows its arguments.".to_string())
        );
        assert_eq!(typed("t", "strategy", &strategy, "both"), Ok(json!("both")));
        let frequency = json!({"type": ["string", "null"], "enum": ["monthly", null]});
        assert_eq!(
            typed("t", "frequency", &frequency, "monthly"),
            Ok(json!("monthly"))
        );
        assert_eq!(typed("t", "frequency", &frequency, "null"), Ok(Value::Null));
    }

    #[test]
    fn unknown_keys_pairs_without_equals_and_repeats_are_refused() {
        let unknown = from_pairs("t", &schema(), &pairs(&["mnth=2026-09"]));
        assert!(
            unknown
                .as_ref()
                .is_err_and(|e| e.starts_with("mnth is not an argument of t: it takes ")
                    && e.contains("month")
                    && e.ends_with("`avenir-mcp tools t` shows its arguments.")),
            "{unknown:?}"
        );
        assert!(
            from_pairs("t", &schema(), &pairs(&["month"]))
                .is_err_and(|e| e.starts_with("\"month\" is not key=value"))
        );
        assert_eq!(
            from_pairs("t", &schema(), &pairs(&["month=a", "month=b"])),
            Err("month is given twice: give it once.".to_string())
        );
    }

    #[test]
    fn a_json_object_is_checked_like_pairs() {
        assert_eq!(
            from_json("t", &schema(), r#"{"month": "2026-09", "amount": 5}"#).map(|m| m.len()),
            Ok(2)
        );
        assert!(
            from_json("t", &schema(), r#"{"nope": 1}"#)
                .is_err_and(|e| e.starts_with("nope is not an argument of t"))
        );
        assert!(from_json("t", &schema(), "[1]").is_err_and(|e| e.starts_with("--json takes")));
        assert!(from_json("t", &schema(), "{").is_err_and(|e| e.starts_with("--json takes")));
    }

    #[test]
    fn missing_required_arguments_are_named_with_what_they_are() {
        let given = from_pairs("t", &schema(), &pairs(&["amount=1"])).unwrap_or_default();
        assert_eq!(
            check_required("t", &schema(), &given),
            Err("t needs month=… ('current', 'last', YYYY-MM). `avenir-mcp tools t` shows its arguments.".to_string())
        );
    }

    #[test]
    fn help_lists_each_argument() {
        let help = tool_help("t", "Does things. More.", false, &schema());
        assert!(
            help.starts_with("t (reads)\n\nDoes things. More.\n"),
            "{help}"
        );
        assert!(
            help.contains("  month  text, required\n      'current', 'last', YYYY-MM.\n"),
            "{help}"
        );
        assert!(
            help.contains("  limit  a whole number, optional\n"),
            "{help}"
        );
        assert_eq!(first_sentence("Does things. More."), "Does things.");
        assert_eq!(first_sentence("One"), "One");
        assert_eq!(
            first_sentence("Delete them, e.g. a duplicate. Then more."),
            "Delete them, e.g. a duplicate."
        );
    }
}
