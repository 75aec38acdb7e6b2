//! Tool arguments, validated by our own code (decision D23): a wrong, missing or unknown argument
//! becomes a sentence naming the field by its dotted path and the rule it broke.

use serde_json::{Map, Value};

/// An argument that broke a rule. `Display` is the message the tool returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgError {
    pub path: String,
    pub rule: String,
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Argument {}: {}", self.path, self.rule)
    }
}

/// The arguments of one call, taken field by field; [`Args::finish`] refuses what was not taken.
#[derive(Debug)]
pub struct Args {
    fields: Map<String, Value>,
    taken: Vec<&'static str>,
}

impl Args {
    pub fn new(fields: Map<String, Value>) -> Self {
        Args {
            fields,
            taken: Vec::new(),
        }
    }

    fn take(&mut self, name: &'static str) -> Option<&Value> {
        self.taken.push(name);
        match self.fields.get(name) {
            None | Some(Value::Null) => None,
            Some(value) => Some(value),
        }
    }

    fn error(name: &str, rule: impl Into<String>) -> ArgError {
        ArgError {
            path: name.to_string(),
            rule: rule.into(),
        }
    }

    /// A required string. `what` completes "is required: give {what}.".
    pub fn required_string(&mut self, name: &'static str, what: &str) -> Result<String, ArgError> {
        match self.take(name) {
            None => Err(Self::error(name, format!("is required: give {what}."))),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => Err(Self::error(
                name,
                format!("must be a string, got {}.", kind(other)),
            )),
        }
    }

    /// An optional string of `min..=max` characters.
    pub fn optional_string(
        &mut self,
        name: &'static str,
        min: usize,
        max: usize,
    ) -> Result<Option<String>, ArgError> {
        match self.take(name) {
            None => Ok(None),
            Some(Value::String(s)) => {
                let n = s.chars().count();
                if n < min || n > max {
                    Err(Self::error(
                        name,
                        format!("must be {min} to {max} characters long, got {n}."),
                    ))
                } else if s.contains('\0') {
                    Err(Self::error(
                        name,
                        "contains a NUL character (U+0000), which YNAB refuses: remove it",
                    ))
                } else {
                    Ok(Some(s.clone()))
                }
            }
            Some(other) => Err(Self::error(
                name,
                format!("must be a string, got {}.", kind(other)),
            )),
        }
    }

    /// An optional integer in `min..=max`, `default` when absent.
    pub fn integer(
        &mut self,
        name: &'static str,
        default: i64,
        min: i64,
        max: i64,
    ) -> Result<i64, ArgError> {
        let rule = format!("must be an integer from {min} to {max}");
        match self.take(name) {
            None => Ok(default),
            Some(Value::Number(n)) => {
                let value = n
                    .as_i64()
                    .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64));
                match value {
                    Some(v) if (min..=max).contains(&v) => Ok(v),
                    _ => Err(Self::error(name, format!("{rule}, got {n}."))),
                }
            }
            Some(other) => Err(Self::error(name, format!("{rule}, got {}.", kind(other)))),
        }
    }

    /// Refuse every field no rule took.
    pub fn finish(self, tool: &str) -> Result<(), ArgError> {
        let mut unknown: Vec<&String> = self
            .fields
            .keys()
            .filter(|k| !self.taken.contains(&k.as_str()))
            .collect();
        unknown.sort();
        match unknown.first() {
            None => Ok(()),
            Some(name) => {
                let accepted = if self.taken.is_empty() {
                    "it takes no argument".to_string()
                } else {
                    format!("it takes {}", self.taken.join(", "))
                };
                Err(Self::error(
                    name,
                    format!("is not an argument of {tool}: {accepted}."),
                ))
            }
        }
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(value: Value) -> Args {
        match value {
            Value::Object(map) => Args::new(map),
            _ => Args::new(Map::new()),
        }
    }

    #[test]
    fn required_and_types() {
        let mut a = args(json!({}));
        assert_eq!(
            a.required_string("plan_id", "a plan id")
                .map_err(|e| e.to_string()),
            Err("Argument plan_id: is required: give a plan id.".to_string())
        );
        let mut a = args(json!({"plan_id": 3}));
        assert_eq!(
            a.required_string("plan_id", "x").map_err(|e| e.to_string()),
            Err("Argument plan_id: must be a string, got a number.".to_string())
        );
    }

    #[test]
    fn bounds_and_unknown_fields() {
        let mut a = args(json!({"limit": 500, "extra": true}));
        assert_eq!(
            a.integer("limit", 50, 1, 200).map_err(|e| e.to_string()),
            Err("Argument limit: must be an integer from 1 to 200, got 500.".to_string())
        );
        assert_eq!(
            a.finish("list_payees").map_err(|e| e.to_string()),
            Err("Argument extra: is not an argument of list_payees: it takes limit.".to_string())
        );
        let mut a = args(json!({"limit": 2.0}));
        assert_eq!(a.integer("limit", 50, 1, 200), Ok(2));
        let mut a = args(json!({"search": ""}));
        assert!(a.optional_string("search", 1, 500).is_err());
        let mut a = args(json!({"search": "a\u{0}"}));
        assert!(a.optional_string("search", 1, 500).is_err());
    }
}
