//! Test harness: the sandbox's router driven in-process (no socket), requests with a bearer
//! token, and answers as JSON; ids by their readable names (D26).

#![allow(dead_code)]

use axum::Router;
use axum::body::Body;
use axum::http::Request;
use serde_json::Value;
use tower::ServiceExt;
use ynab_sandbox::{PlanState, demo, ids, server};

/// The router over a plan.
pub struct Api {
    pub app: Router,
}

/// An answer: status and JSON body (`Value::Null` when empty).
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
}

impl Answer {
    /// `data` of a 2xx answer.
    pub fn data(&self) -> &Value {
        assert!(
            (200..300).contains(&self.status),
            "expected success, got {} {}",
            self.status,
            self.body
        );
        &self.body["data"]
    }

    /// The error's `(id, name, detail)`.
    pub fn error(&self) -> (u16, String, String, String) {
        let e = &self.body["error"];
        let s = |k: &str| e[k].as_str().unwrap_or("<missing>").to_owned();
        (self.status, s("id"), s("name"), s("detail"))
    }
}

/// The UUID of a readable id.
pub fn id(readable: &str) -> String {
    ids::id(readable)
}

/// `/plans/{demo plan id}` + `rest`.
pub fn plan(rest: &str) -> String {
    format!("/plans/{}{rest}", id("demo-budget"))
}

impl Api {
    pub fn demo() -> Api {
        Api::over(demo::demo_plan(demo::DEMO_TODAY))
    }

    pub fn over(plan: PlanState) -> Api {
        Api {
            app: server::app(plan),
        }
    }

    /// Sends `method path` (under `/v1`) with a token and, if any, a JSON body.
    pub async fn call(&self, method: &str, path: &str, body: Option<Value>) -> Answer {
        self.raw(method, &format!("/v1{path}"), body, Some("test-token"))
            .await
    }

    pub async fn raw(
        &self,
        method: &str,
        uri: &str,
        body: Option<Value>,
        token: Option<&str>,
    ) -> Answer {
        let mut request = Request::builder().method(method).uri(uri);
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let request = match body {
            Some(json) => request
                .header("content-type", "application/json")
                .body(Body::from(json.to_string())),
            None => request.body(Body::empty()),
        }
        .expect("a valid request");
        let response = self.app.clone().oneshot(request).await.expect("an answer");
        let status = response.status().as_u16();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a body");
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).expect("a JSON body")
        };
        Answer { status, body }
    }

    pub async fn get(&self, path: &str) -> Value {
        self.call("GET", path, None).await.data().clone()
    }
}

/// The ids of a list of entities.
pub fn ids_of(list: &Value) -> Vec<String> {
    list.as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|e| e["id"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The entity with `id` in a list.
pub fn find<'a>(list: &'a Value, id: &str) -> &'a Value {
    list.as_array()
        .and_then(|items| items.iter().find(|e| e["id"] == id))
        .unwrap_or_else(|| panic!("{id} not in the list"))
}
