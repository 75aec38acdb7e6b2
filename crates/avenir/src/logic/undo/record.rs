//! How an operation's details are journaled: each kind's details are one serde type, which the
//! writing tool builds and undo reads back, so what is written and what is read cannot drift
//! apart. The journal keeps them as a JSON object (its keys sorted, as every line this server and
//! the Python one have written); `tests/data/journal_golden.json` holds a line of every kind.
//!
//! A line whose details do not read as their kind's type is refused with the field that is wrong
//! (`changes.1.from`), never read with a default.

use super::details::Refusal;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// `record` as a journal line's (or an intent's) details.
pub fn to_details<T: Serialize>(record: &T) -> Value {
    // The records are structs of strings, integers, lists and options: serde_json turns any of
    // them into a value (it fails only on a map whose keys are not strings, which none has).
    serde_json::to_value(record).unwrap_or(Value::Null)
}

/// The details of a journal line read as their kind's record.
pub fn from_details<T: DeserializeOwned>(details: &Value) -> Result<T, Refusal> {
    serde_path_to_error::deserialize(details).map_err(|error| {
        let mut field = error
            .path()
            .iter()
            .map(|segment| match segment {
                serde_path_to_error::Segment::Seq { index } => index.to_string(),
                serde_path_to_error::Segment::Map { key } => key.clone(),
                serde_path_to_error::Segment::Enum { variant } => variant.clone(),
                serde_path_to_error::Segment::Unknown => "?".to_string(),
            })
            .collect::<Vec<_>>();
        let message = error.inner().to_string();
        let problem = match missing_field(&message) {
            Some(name) => {
                field.push(name.to_string());
                "is missing".to_string()
            }
            None => format!("is not {}", expected(&message)),
        };
        Refusal::Damaged {
            field: field.join("."),
            problem,
        }
    })
}

/// The field a "missing field `name`" error names.
fn missing_field(message: &str) -> Option<&str> {
    message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next())
}

/// What serde expected, in words: only the part of its message after "expected", which names a
/// type of ours and never repeats the value found (a name from the plan, say).
fn expected(message: &str) -> &str {
    let wanted = message
        .rsplit_once(", expected ")
        .map_or("of the type its kind holds", |(_, wanted)| wanted);
    match wanted {
        "i64" | "u64" | "i32" | "u32" | "usize" => "an integer",
        "a sequence" => "a list",
        "a map" => "an object",
        "a boolean" => "true or false",
        other if other.starts_with("struct ") => "an object",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Serialize, Deserialize, PartialEq)]
    struct Side {
        category_id: String,
        from: i64,
    }

    #[derive(Debug, Serialize, Deserialize, PartialEq)]
    struct Sides {
        changes: Vec<Side>,
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let record = Sides {
            changes: vec![Side {
                category_id: "c".into(),
                from: 5,
            }],
        };
        assert_eq!(from_details::<Sides>(&to_details(&record)), Ok(record));
    }

    #[test]
    fn a_damaged_detail_names_its_path_and_never_its_value() {
        let wrong = json!({"changes": [{"category_id": "c", "from": 1}, {"category_id": "c", "from": "RAIL CO"}]});
        let refused = from_details::<Sides>(&wrong);
        assert_eq!(
            refused,
            Err(Refusal::Damaged {
                field: "changes.1.from".into(),
                problem: "is not an integer".into()
            })
        );
        let missing = json!({"changes": [{"category_id": "c"}]});
        assert_eq!(
            from_details::<Sides>(&missing),
            Err(Refusal::Damaged {
                field: "changes.0.from".into(),
                problem: "is missing".into()
            })
        );
        assert_eq!(
            from_details::<Sides>(&json!({"changes": 3})),
            Err(Refusal::Damaged {
                field: "changes".into(),
                problem: "is not a list".into()
            })
        );
    }
}
