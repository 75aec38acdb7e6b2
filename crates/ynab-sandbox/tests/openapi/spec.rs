//! YNAB's OpenAPI spec as the tests read it: `crates/ynab/openapi/open_api_spec.yaml` loaded from its YAML,
//! the response schema each operation declares for a status, and a JSON Schema 2020-12 check of a
//! body against it. Its one OpenAPI 3.0 leftover, `nullable`, is read as its authors meant it.
//!
//! # How the spec is read
//!
//! - `$ref`s point into `#/components/schemas`; each check compiles `{"$ref": …, "components":
//!   …}`, so they resolve inside the one document and nothing is fetched.
//! - OpenAPI 3.1 schemas are JSON Schema 2020-12, which has no `nullable`: `nullable: true` (the
//!   plan list's `default_plan`, an `allOf` of `PlanSummary`) becomes `anyOf: [schema, null]` and
//!   `nullable: false` is dropped, as OpenAPI 3.0 defined them.
//! - A member the schema does not declare fails the check too, though the spec never forbids one:
//!   the sandbox should answer only what YNAB documents.
//! - `format` is asserted: the sandbox's `uuid`, `date` and `date-time` values were checked to hold
//!   (ids are UUIDs, D26). The OpenAPI-only formats (`int32`, `int64`, `double`) are unknown to
//!   JSON Schema and ignored; `type: integer` still rejects a fraction.

use jsonschema::Validator;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// The spec and the validators compiled from it so far (one per component schema).
pub struct Spec {
    doc: Value,
    components: Value,
    validators: Mutex<HashMap<String, Arc<Validator>>>,
}

/// Where the repository keeps the spec: vendored in the `ynab` crate (D39).
fn spec_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../ynab/openapi/open_api_spec.yaml")
}

/// The spec, loaded once per test binary.
pub fn spec() -> &'static Spec {
    static SPEC: OnceLock<Spec> = OnceLock::new();
    SPEC.get_or_init(Spec::load)
}

impl Spec {
    fn load() -> Spec {
        let path = spec_path();
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "YNAB's OpenAPI spec is missing at {} ({e}): these tests need the vendored crates/ynab/openapi/open_api_spec.yaml",
                path.display()
            )
        });
        let doc: Value = serde_norway::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not YAML the tests can read: {e}", path.display()));
        let mut schemas = doc["components"]["schemas"].clone();
        assert!(
            schemas.as_object().is_some_and(|s| !s.is_empty()),
            "{} declares no components.schemas",
            path.display()
        );
        read_nullable(&mut schemas);
        Spec {
            components: json!({ "schemas": schemas }),
            doc,
            validators: Mutex::new(HashMap::new()),
        }
    }

    /// The component name of the JSON schema `method path` declares for `status`, where
    /// `path` is the spec's template (`/plans/{plan_id}/accounts`); `None` if it declares none.
    pub fn response_schema(&self, method: &str, path: &str, status: u16) -> Option<String> {
        let operation = self.doc["paths"]
            .get(path)?
            .get(method.to_ascii_lowercase())?;
        let declared = operation["responses"].get(status.to_string())?;
        let reference = declared["content"]["application/json"]["schema"]["$ref"].as_str()?;
        reference
            .strip_prefix("#/components/schemas/")
            .map(str::to_owned)
    }

    /// Checks `body` against the component schema `name`, and that it has no member the schema
    /// does not declare; the error lists every failure with where in the body it is.
    pub fn check(&self, name: &str, body: &Value) -> Result<(), String> {
        let validator = self.validator(name);
        let mut errors: Vec<String> = validator
            .iter_errors(body)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        let schema = json!({"$ref": format!("#/components/schemas/{name}")});
        self.undeclared(&schema, body, String::new(), &mut errors);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("\n    "))
        }
    }

    fn validator(&self, name: &str) -> Arc<Validator> {
        let mut cache = self
            .validators
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(v) = cache.get(name) {
            return v.clone();
        }
        assert!(
            self.components["schemas"].get(name).is_some(),
            "the spec has no schema {name}"
        );
        let root = json!({
            "$ref": format!("#/components/schemas/{name}"),
            "components": self.components,
        });
        let validator = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&root)
            .unwrap_or_else(|e| panic!("the spec's schema {name} does not compile: {e}"));
        let validator = Arc::new(validator);
        cache.insert(name.to_owned(), validator.clone());
        validator
    }
}

impl Spec {
    /// `schema` with its `$ref`s followed, and the schemas its `allOf`/`anyOf`/`oneOf` join.
    fn parts<'a>(&'a self, schema: &'a Value, out: &mut Vec<&'a Value>) {
        let mut schema = schema;
        while let Some(target) = schema["$ref"].as_str() {
            let name = target.trim_start_matches("#/components/schemas/");
            schema = &self.components["schemas"][name];
        }
        out.push(schema);
        for key in ["allOf", "anyOf", "oneOf"] {
            for sub in schema[key].as_array().into_iter().flatten() {
                self.parts(sub, out);
            }
        }
    }

    /// Notes every member of an object in `body` that `schema` does not declare. The spec never
    /// forbids more members (no `additionalProperties: false`), but an answer of the sandbox
    /// that has one is not an answer YNAB documents, so the tests treat it as a failure.
    fn undeclared(&self, schema: &Value, body: &Value, at: String, errors: &mut Vec<String>) {
        let mut parts = Vec::new();
        self.parts(schema, &mut parts);
        match body {
            Value::Object(members) => {
                let extra = parts.iter().find_map(|p| p.get("additionalProperties"));
                for (key, value) in members {
                    let declared = parts.iter().find_map(|p| p["properties"].get(key));
                    match declared.or(extra.filter(|e| e.is_object())) {
                        Some(sub) => self.undeclared(sub, value, format!("{at}/{key}"), errors),
                        None if extra.is_none() => {
                            errors.push(format!("{at}/{key}: a member the spec does not declare"));
                        }
                        None => {}
                    }
                }
            }
            Value::Array(items) => {
                if let Some(sub) = parts.iter().find_map(|p| p.get("items")) {
                    for (i, item) in items.iter().enumerate() {
                        self.undeclared(sub, item, format!("{at}/{i}"), errors);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Rewrites OpenAPI 3.0's `nullable` into JSON Schema 2020-12 everywhere under `value`.
fn read_nullable(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for child in map.values_mut() {
                read_nullable(child);
            }
            match map.remove("nullable") {
                Some(Value::Bool(true)) => {
                    let schema = std::mem::take(map);
                    let mut wrapped = Map::new();
                    wrapped.insert(
                        "anyOf".into(),
                        json!([Value::Object(schema), {"type": "null"}]),
                    );
                    *map = wrapped;
                }
                Some(Value::Bool(false)) | None => {}
                Some(other) => panic!("nullable is {other}, not a boolean"),
            }
        }
        Value::Array(items) => items.iter_mut().for_each(read_nullable),
        _ => {}
    }
}

#[test]
fn nullable_becomes_any_of_null() {
    let mut schema = json!({"properties": {
        "a": {"allOf": [{"$ref": "#/x"}], "nullable": true},
        "b": {"type": "string", "nullable": false}
    }});
    read_nullable(&mut schema);
    assert_eq!(
        schema,
        json!({"properties": {
            "a": {"anyOf": [{"allOf": [{"$ref": "#/x"}]}, {"type": "null"}]},
            "b": {"type": "string"}
        }})
    );
}

#[test]
fn the_check_rejects_what_the_spec_forbids() {
    let spec = spec();
    let plan = |id: &str, first_month: &str| {
        json!({"id": id, "name": "Home", "first_month": first_month,
               "last_modified_on": "2026-09-25T08:00:00Z"})
    };
    let uuid = "82ddd286-4613-59e7-a476-989bad625d91";
    let list =
        |plans: Value, default: Value| json!({"data": {"plans": plans, "default_plan": default}});
    let good = [
        list(json!([plan(uuid, "2026-06-01")]), Value::Null),
        list(json!([]), plan(uuid, "2026-06-01")),
    ];
    for body in &good {
        assert_eq!(spec.check("PlanSummaryResponse", body), Ok(()), "{body}");
    }
    let bad = [
        (json!({"data": {}}), "a required member is missing"),
        (
            list(json!([]), json!({"name": "Home"})),
            "default_plan is no PlanSummary",
        ),
        (
            list(json!([plan("plan-1", "2026-06-01")]), Value::Null),
            "format uuid",
        ),
        (
            list(json!([plan(uuid, "June 2026")]), Value::Null),
            "format date",
        ),
        (
            list(json!([{"id": uuid, "name": 7}]), Value::Null),
            "a number for a string",
        ),
    ];
    for (body, why) in &bad {
        assert!(
            spec.check("PlanSummaryResponse", body).is_err(),
            "{why}: {body}"
        );
    }
    let extra = list(
        json!([{"id": uuid, "name": "Home", "colour": "blue"}]),
        Value::Null,
    );
    let said = spec.check("PlanSummaryResponse", &extra);
    assert!(
        said.as_ref()
            .is_err_and(|e| e.contains("/data/plans/0/colour")),
        "an undeclared member: {said:?}"
    );
    let error = json!({"error": {"id": "404.2", "name": "resource_not_found"}});
    assert!(
        spec.check("ErrorResponse", &error).is_err(),
        "detail is required"
    );
    let fraction = json!({"data": {"transaction_ids": [], "server_knowledge": 1.5}});
    assert!(
        spec.check("SaveTransactionsResponse", &fraction).is_err(),
        "integer"
    );
}
