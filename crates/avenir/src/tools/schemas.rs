//! The JSON Schemas a tool is listed with: its arguments (`inputSchema`) and its answer
//! (`outputSchema`), both draft 2020-12 with nested objects inline.
//!
//! A model reads every tool's input schema on every turn, so it is listed lean: it says what to
//! send, and the argument parser (`args`) stays the judge of what is accepted. An optional member
//! is one left out of `required`, not one typed `[T, "null"]`; unknown members, lengths and the
//! billion bound on amounts are refused by the parser with an error that names the argument, not
//! spelled out in every schema. What every tool shares (`plan_id`, `confirmation`, amounts in
//! currency units) is explained once in the instructions, so those members carry no description.

use schemars::JsonSchema;
use serde_json::{Map, Value, json};

/// The input schema of `T`: lean (module doc), a member with a default not required.
pub fn input_schema<T: JsonSchema>() -> Value {
    let mut value = root_schema::<T>(false);
    if let Some(object) = value.as_object_mut() {
        object.remove("description");
        // A tool with no argument (list_plans) still states its empty `properties`, as clients
        // that read the schema expect.
        object
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
    }
    defaults_not_required(&mut value);
    lean(&mut value);
    value
}

/// `T`'s input schema with the `confirmation` member every confirmed write takes.
pub fn confirmed_input_schema<T: JsonSchema>() -> Value {
    let mut value = input_schema::<T>();
    if let Some(properties) = value.get_mut("properties").and_then(Value::as_object_mut) {
        properties.insert("confirmation".into(), json!({"type": "string"}));
    }
    value
}

/// The JSON Schema (draft 2020-12) of `T` as a value, as it is serialised (an answer).
pub fn schema_value<T: JsonSchema>() -> Value {
    root_schema::<T>(true)
}

fn root_schema<T: JsonSchema>(serialized: bool) -> Value {
    let mut settings = schemars::generate::SchemaSettings::draft2020_12();
    if serialized {
        settings = settings.for_serialize();
    } else {
        settings.inline_subschemas = true;
    }
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut value = serde_json::to_value(schema).unwrap_or_else(|_| json!({"type": "object"}));
    if let Some(object) = value.as_object_mut() {
        object.remove("$schema");
        object.remove("title");
    }
    one_line_descriptions(&mut value);
    value
}

/// A doc comment's line breaks are its source's, not its meaning's: descriptions read as one line
/// (a blank line, a new paragraph, is kept).
fn one_line_descriptions(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(text)) = map.get_mut("description") {
                *text = text
                    .split("\n\n")
                    .map(|p| p.split('\n').map(str::trim).collect::<Vec<_>>().join(" "))
                    .collect::<Vec<_>>()
                    .join("\n\n");
            }
            map.values_mut().for_each(one_line_descriptions);
        }
        Value::Array(items) => items.iter_mut().for_each(one_line_descriptions),
        _ => {}
    }
}

/// Members that have a default are not required.
fn defaults_not_required(value: &mut Value) {
    match value {
        Value::Object(map) => {
            let defaulted: Vec<String> = map
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| {
                    p.iter()
                        .filter(|(_, v)| v.get("default").is_some())
                        .map(|(k, _)| k.clone())
                        .collect()
                })
                .unwrap_or_default();
            if let Some(Value::Array(required)) = map.get_mut("required") {
                required.retain(|r| r.as_str().is_none_or(|r| !defaulted.iter().any(|d| d == r)));
                if required.is_empty() {
                    map.remove("required");
                }
            }
            map.values_mut().for_each(defaults_not_required);
        }
        Value::Array(items) => items.iter_mut().for_each(defaults_not_required),
        _ => {}
    }
}

/// What the parser says better than a schema leaves the listing: `additionalProperties`, and the
/// `null` an optional member's type admits (an optional member is one not `required`).
fn lean(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("additionalProperties");
            if let Some(Value::Object(properties)) = map.get_mut("properties") {
                properties.values_mut().for_each(without_null_type);
            }
            map.values_mut().for_each(lean);
        }
        Value::Array(items) => items.iter_mut().for_each(lean),
        _ => {}
    }
}

/// `{"type": ["string", "null"]}` becomes `{"type": "string"}`; a type that names a `null` value
/// in its `enum` keeps it (`null` is then a choice, not an absence).
fn without_null_type(member: &mut Value) {
    let null_is_a_choice = member
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|choices| choices.contains(&Value::Null));
    let Some(Value::Array(types)) = member.get_mut("type") else {
        return;
    };
    if null_is_a_choice {
        return;
    }
    types.retain(|t| t != "null");
    if let [only] = types.as_slice() {
        let only = only.clone();
        member["type"] = only;
    }
}
