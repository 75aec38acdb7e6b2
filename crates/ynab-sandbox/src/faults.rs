//! Fault injection for tests: the next N requests (optionally only those of one route) are
//! answered with an error status, delayed before they are handled, applied and then held, or
//! applied and then cut off before any answer.
//!
//! YNAB's `POST /oauth/token` takes the rules that name it (`"route": "POST /oauth/token"`):
//! a renewal meeting a 429 or a 503.
//!
//! Faults are set through the control API (`POST /__sandbox/faults`) or [`crate::Sandbox`]'s
//! methods, and consumed in order: each request takes the first rule that matches it. The
//! requests a delay holds are counted ([`Held`]): a test sees one arrive, and sees its client
//! go away.

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;
use std::time::Duration;

/// What a fault does to a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum FaultKind {
    /// Answer this status (401, 429, 500, 503…) with YNAB's error body; `retry_after` sets the
    /// `Retry-After` header (seconds or an HTTP-date), as YNAB might on a 429.
    Status {
        status: u16,
        #[serde(default)]
        retry_after: Option<String>,
    },
    /// Wait this long, then handle the request and answer normally. The wait comes first: a
    /// client that goes away during it takes the request with it, and nothing is applied.
    Delay { ms: u64 },
    /// Apply the request (the write lands), then wait this long before answering normally.
    ApplyThenDelay { ms: u64 },
    /// Apply the request (a write lands), then drop the connection without an answer.
    ApplyThenDrop,
}

/// One rule: for the next `count` requests that match `route`, do `kind`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    /// How many matching requests it applies to.
    pub count: u32,
    /// `METHOD` and/or a route pattern as the router knows it, e.g. `GET /plans/{plan_id}`,
    /// `PATCH`, or `/plans/{plan_id}/transactions`; absent: every API request. YNAB's token
    /// endpoint takes only a rule naming it: `POST /oauth/token`.
    #[serde(default)]
    pub route: Option<String>,
    /// Matching requests let through untouched before the fault applies (the second of two
    /// writes to one route fails with `skip: 1`).
    #[serde(default)]
    pub skip: u32,
    #[serde(flatten)]
    pub kind: FaultKind,
}

impl Fault {
    /// `kind` for the next `count` requests matching `route` (every request when `None`).
    pub fn new(count: u32, route: Option<&str>, kind: FaultKind) -> Self {
        Fault {
            count,
            route: route.map(str::to_string),
            skip: 0,
            kind,
        }
    }

    /// Let the first `n` matching requests through.
    pub fn skipping(mut self, n: u32) -> Self {
        self.skip = n;
        self
    }

    /// `status` (with YNAB's error body) for the next `count` requests matching `route`.
    pub fn status(count: u32, route: Option<&str>, status: u16) -> Self {
        Fault::new(
            count,
            route,
            FaultKind::Status {
                status,
                retry_after: None,
            },
        )
    }

    fn matches(&self, method: &str, route: &str) -> bool {
        let Some(pattern) = self.route.as_deref().map(str::trim) else {
            return true;
        };
        self.matches_pattern(pattern, method, route)
    }

    /// Whether the rule names `route` itself (not only a method, not every request).
    fn names(&self, method: &str, route: &str) -> bool {
        self.route
            .as_deref()
            .map(str::trim)
            .is_some_and(|p| p.contains('/') && self.matches_pattern(p, method, route))
    }

    fn matches_pattern(&self, pattern: &str, method: &str, route: &str) -> bool {
        let (want_method, want_route) = match pattern.split_once(' ') {
            Some((m, r)) => (Some(m), Some(r.trim())),
            None if pattern.starts_with('/') => (None, Some(pattern)),
            None => (Some(pattern), None),
        };
        want_method.is_none_or(|m| m.eq_ignore_ascii_case(method))
            && want_route.is_none_or(|r| route == r || route == format!("/v1{r}"))
    }
}

/// The faults still to apply, and the requests their delays hold.
#[derive(Debug, Default)]
pub struct Faults {
    rules: Mutex<Vec<Fault>>,
    held: Mutex<Held>,
}

/// The requests a [`FaultKind::Delay`] or [`FaultKind::ApplyThenDelay`] holds.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Held {
    /// Waiting now.
    pub waiting: u64,
    /// Whose client went away during the wait: the connection closed, and the request was
    /// dropped there (after a `delay`, unhandled; after an `apply_then_delay`, applied).
    pub abandoned: u64,
}

/// One request held: counted as waiting until the wait ends, as abandoned if it is dropped
/// before.
struct Hold<'a> {
    held: &'a Mutex<Held>,
    done: bool,
}

impl Drop for Hold<'_> {
    fn drop(&mut self) {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        held.waiting = held.waiting.saturating_sub(1);
        if !self.done {
            held.abandoned += 1;
        }
    }
}

impl Faults {
    pub fn add(&self, fault: Fault) {
        if fault.count > 0 {
            self.lock().push(fault);
        }
    }

    pub fn clear(&self) {
        self.lock().clear();
    }

    pub fn pending(&self) -> Vec<Fault> {
        self.lock().clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Fault>> {
        self.rules.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The requests held now, and those abandoned so far.
    pub fn held(&self) -> Held {
        *self.held.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Hold a request for `ms` milliseconds. If the future is dropped first (its client went
    /// away and the server dropped the request), the request counts as abandoned.
    pub async fn hold(&self, ms: u64) {
        self.held.lock().unwrap_or_else(|p| p.into_inner()).waiting += 1;
        let mut hold = Hold {
            held: &self.held,
            done: false,
        };
        tokio::time::sleep(Duration::from_millis(ms)).await;
        hold.done = true;
    }

    /// The fault this request takes, if any (its count goes down by one).
    pub fn take(&self, method: &str, route: &str) -> Option<FaultKind> {
        self.take_where(|f| f.matches(method, route))
    }

    /// The fault a request outside `/v1` takes (YNAB's `POST /oauth/token`): only a rule that
    /// names its route, so that a rule for every request keeps meaning every API request.
    pub fn take_named(&self, method: &str, route: &str) -> Option<FaultKind> {
        self.take_where(|f| f.names(method, route))
    }

    fn take_where(&self, matches: impl Fn(&Fault) -> bool) -> Option<FaultKind> {
        let mut rules = self.lock();
        let index = rules.iter().position(matches)?;
        if rules[index].skip > 0 {
            rules[index].skip -= 1;
            return None;
        }
        let kind = rules[index].kind.clone();
        rules[index].count -= 1;
        if rules[index].count == 0 {
            rules.remove(index);
        }
        Some(kind)
    }
}

/// The answer of a [`FaultKind::Status`] fault, in YNAB's error shape.
pub fn status_response(status: u16, retry_after: Option<&str>) -> Response {
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let (id, name, detail) = match status {
        400 => ("400", "bad_request", "Bad Request"),
        401 => ("401", "unauthorized", "Unauthorized"),
        404 => ("404.2", "resource_not_found", "Resource not found"),
        409 => ("409", "conflict", "Conflict"),
        429 => (
            "429",
            "too_many_requests",
            "Too many requests have been made. Please try again later.",
        ),
        503 => (
            "503",
            "service_unavailable",
            "We are currently unavailable. Please try again later.",
        ),
        _ => (
            "500",
            "internal_server_error",
            "An unexpected error occurred",
        ),
    };
    let mut response = (
        code,
        axum::Json(serde_json::json!({"error": {"id": id, "name": name, "detail": detail}})),
    )
        .into_response();
    if let Some(value) = retry_after.and_then(|v| HeaderValue::from_str(v).ok()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

/// A response whose body fails at once: the connection is cut before an answer arrives.
pub fn dropped_response() -> Response {
    let stream = failing_body();
    let mut response = Response::new(Body::from_stream(stream));
    *response.status_mut() = StatusCode::OK;
    response
}

/// A stream that yields one I/O error.
fn failing_body()
-> impl futures_core::Stream<Item = Result<axum::body::Bytes, std::io::Error>> + Send {
    ErrorStream(false)
}

struct ErrorStream(bool);

impl futures_core::Stream for ErrorStream {
    type Item = Result<axum::body::Bytes, std::io::Error>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        if self.0 {
            std::task::Poll::Ready(None)
        } else {
            self.0 = true;
            std::task::Poll::Ready(Some(Err(std::io::Error::new(
                std::io::ErrorKind::ConnectionAborted,
                "connection dropped by fault injection",
            ))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fault(count: u32, route: Option<&str>) -> Fault {
        Fault {
            count,
            skip: 0,
            route: route.map(str::to_string),
            kind: FaultKind::Status {
                status: 500,
                retry_after: None,
            },
        }
    }

    #[test]
    fn rules_match_by_method_and_route_and_run_out() {
        let faults = Faults::default();
        faults.add(fault(2, Some("PATCH /plans/{plan_id}/transactions")));
        assert_eq!(faults.take("GET", "/v1/plans/{plan_id}/transactions"), None);
        assert!(
            faults
                .take("PATCH", "/v1/plans/{plan_id}/transactions")
                .is_some()
        );
        assert!(
            faults
                .take("patch", "/v1/plans/{plan_id}/transactions")
                .is_some()
        );
        assert_eq!(
            faults.take("PATCH", "/v1/plans/{plan_id}/transactions"),
            None
        );
        faults.add(fault(1, Some("GET")));
        assert!(faults.take("GET", "/v1/plans").is_some());
        faults.add(fault(1, None));
        assert!(faults.take("DELETE", "/v1/anything").is_some());
        assert!(faults.pending().is_empty());
        let mut second = fault(1, Some("PATCH"));
        second.skip = 1;
        faults.add(second);
        assert_eq!(faults.take("PATCH", "/v1/x"), None, "the first one passes");
        assert!(faults.take("PATCH", "/v1/x").is_some(), "the second fails");
        faults.add(fault(1, None));
        faults.add(fault(1, Some("POST")));
        assert_eq!(
            faults.take_named("POST", "/oauth/token"),
            None,
            "YNAB's token endpoint takes only a rule that names it"
        );
        faults.clear();
        faults.add(fault(1, Some("POST /oauth/token")));
        assert!(faults.take_named("POST", "/oauth/token").is_some());
        assert!(faults.pending().is_empty());
    }

    #[test]
    fn the_control_api_shape() {
        let parsed: Fault = serde_json::from_value(serde_json::json!({
            "count": 1, "route": "GET /plans/{plan_id}", "kind": "status", "status": 429,
            "retry_after": "120"
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            parsed.kind,
            FaultKind::Status {
                status: 429,
                retry_after: Some("120".into())
            }
        );
        let parsed: Fault =
            serde_json::from_value(serde_json::json!({"count": 3, "kind": "apply_then_drop"}))
                .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parsed.kind, FaultKind::ApplyThenDrop);
        let parsed: Fault = serde_json::from_value(serde_json::json!({
            "count": 1, "route": "PATCH /plans/{plan_id}/transactions",
            "kind": "apply_then_delay", "ms": 60000
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parsed.kind, FaultKind::ApplyThenDelay { ms: 60_000 });
        assert_eq!(
            serde_json::to_value(&parsed).ok(),
            Some(
                serde_json::json!({"count": 1, "route": "PATCH /plans/{plan_id}/transactions",
                                    "skip": 0, "kind": "apply_then_delay", "ms": 60000})
            )
        );
        let parsed: Fault =
            serde_json::from_value(serde_json::json!({"count": 1, "kind": "delay", "ms": 5}))
                .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parsed.kind, FaultKind::Delay { ms: 5 });
        assert!(
            serde_json::from_value::<Fault>(
                serde_json::json!({"count": 1, "kind": "apply_then_delay"})
            )
            .is_err(),
            "apply_then_delay needs ms"
        );
    }

    #[tokio::test]
    async fn a_hold_counts_while_it_waits_and_when_it_is_dropped() {
        let faults = Faults::default();
        faults.hold(1).await;
        assert_eq!(
            faults.held(),
            Held {
                waiting: 0,
                abandoned: 0
            }
        );
        tokio::select! {
            biased;
            () = faults.hold(600_000) => panic!("a ten-minute hold ended"),
            () = async {
                tokio::task::yield_now().await;
                assert_eq!(faults.held(), Held { waiting: 1, abandoned: 0 });
            } => {}
        }
        assert_eq!(
            faults.held(),
            Held {
                waiting: 0,
                abandoned: 1
            },
            "dropped before its end"
        );
    }
}
