//! The harness of `tests/openapi.rs`: a [`Checker`] sends a call to the sandbox's router, checks
//! its status, and validates its body against the schema the spec declares, gathering failures.
//! `/budgets` answers are read under the `/plans` names the spec uses.

use super::spec::spec;
use crate::common::{Api, id};
use serde_json::Value;

/// The demo plan's id.
pub fn plan_id() -> String {
    id("demo-budget")
}

/// Calls the endpoints and gathers every body that fails its schema.
pub struct Checker {
    pub api: Api,
    failures: Vec<String>,
}

/// `template` with each `{…}` segment replaced by the next of `args`.
fn fill(template: &str, args: &[&str]) -> String {
    let mut out = Vec::new();
    let mut args = args.iter();
    for segment in template.split('/') {
        if segment.starts_with('{') && segment.ends_with('}') {
            let arg = args
                .next()
                .unwrap_or_else(|| panic!("{template} needs more arguments"));
            out.push((*arg).to_owned());
        } else {
            out.push(segment.to_owned());
        }
    }
    assert!(args.next().is_none(), "{template} takes fewer arguments");
    out.join("/")
}

/// A `/budgets` answer's plan members under their `/plans` names.
fn as_plans_naming(body: &mut Value) -> Result<(), String> {
    let Some(data) = body.get_mut("data").and_then(Value::as_object_mut) else {
        return Ok(());
    };
    for (old, new) in [
        ("budgets", "plans"),
        ("budget", "plan"),
        ("default_budget", "default_plan"),
    ] {
        if data.contains_key(new) {
            return Err(format!("the /budgets alias answered `{new}`, not `{old}`"));
        }
        if let Some(value) = data.remove(old) {
            data.insert(new.to_owned(), value);
        }
    }
    Ok(())
}

impl Checker {
    pub fn demo() -> Checker {
        Checker::over(Api::demo())
    }

    pub fn over(api: Api) -> Checker {
        Checker {
            api,
            failures: Vec::new(),
        }
    }

    /// Sends `method template` (filled with `args`, then `query`) and checks the answer's status
    /// is `status` and its body validates against the schema the spec declares for them (for an
    /// undeclared error status, `ErrorResponse`). Returns the body.
    pub async fn call(
        &mut self,
        method: &str,
        template: &str,
        args: &[&str],
        query: &str,
        body: Option<Value>,
        status: u16,
    ) -> Value {
        let uri = format!("/v1{}{query}", fill(template, args));
        let answer = self.api.raw(method, &uri, body, Some("any-token")).await;
        assert_eq!(
            answer.status, status,
            "{method} {uri} answered {} {}",
            answer.status, answer.body
        );
        self.check(method, template, &uri, status, answer.body.clone());
        answer.body
    }

    /// Checks `body`, the answer `status` to `method template` (sent as `uri`).
    fn check(&mut self, method: &str, template: &str, uri: &str, status: u16, mut body: Value) {
        let spec = spec();
        let operation = match template.strip_prefix("/budgets") {
            Some(rest) => {
                if let Err(e) = as_plans_naming(&mut body) {
                    self.failures.push(format!("{method} {uri}: {e}"));
                }
                format!("/plans{rest}")
            }
            None => template.to_owned(),
        };
        let schema = match spec.response_schema(method, &operation, status) {
            Some(name) => name,
            None if status >= 400 => "ErrorResponse".to_owned(),
            None => panic!("the spec declares no {status} for {method} {operation}"),
        };
        if let Err(errors) = spec.check(&schema, &body) {
            self.failures.push(format!(
                "{method} {uri} → {status} as {schema}:\n    {errors}"
            ));
        }
    }

    /// Sends `method uri` as is (no token when `token` is `None`) and checks the error body.
    pub async fn error(&mut self, method: &str, uri: &str, token: Option<&str>, status: u16) {
        let answer = self.api.raw(method, uri, None, token).await;
        assert_eq!(answer.status, status, "{method} {uri}: {}", answer.body);
        if let Err(errors) = spec().check("ErrorResponse", &answer.body) {
            self.failures.push(format!(
                "{method} {uri} → {status} as ErrorResponse:\n    {errors}"
            ));
        }
    }

    pub fn assert_clean(self) {
        assert!(
            self.failures.is_empty(),
            "{} bodies do not validate against the spec:\n{}",
            self.failures.len(),
            self.failures.join("\n")
        );
    }
}

/// The id in `body.data[member].id`.
pub fn id_in(body: &Value, member: &str) -> String {
    body["data"][member]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("no data.{member}.id in {body}"))
        .to_owned()
}
