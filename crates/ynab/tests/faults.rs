//! The client under YNAB's failures, injected by the sandbox: 429 with and without Retry-After
//! (and the pause that follows), a 500 on a read (retried) and on a write (not retried, and not
//! taken as a refusal: it may have been applied), a write
//! whose answer never came, and two clients sharing one pacing ledger.

use ynab::{BaseUrl, Client, Error, Pacer, Token, TokenSource};
use ynab_sandbox::faults::{Fault, FaultKind};
use ynab_sandbox::{Sandbox, SandboxOptions, demo, ids};

async fn sandbox() -> Sandbox {
    Sandbox::start(demo::demo_plan(demo::DEMO_TODAY), SandboxOptions::default())
        .await
        .expect("sandbox starts")
}

fn client(sandbox: &Sandbox) -> Client {
    Client::new(
        BaseUrl::new(sandbox.base_url()),
        TokenSource::Fixed(Token::new("t")),
    )
    .expect("the HTTP client builds")
    .with_pacer(Pacer::memory(180))
}

fn status(count: u32, route: Option<&str>, status: u16, retry_after: Option<&str>) -> Fault {
    Fault::new(
        count,
        route,
        FaultKind::Status {
            status,
            retry_after: retry_after.map(str::to_string),
        },
    )
}

fn plan() -> String {
    ids::id("demo-budget")
}

#[tokio::test]
async fn a_429_is_never_retried_and_pauses_everything() {
    let sandbox = sandbox().await;
    let c = client(&sandbox);
    sandbox.inject(status(1, None, 429, None));
    let error = c.plans().await.expect_err("429");
    assert_eq!(
        error.to_string(),
        "YNAB 429: the limit of 200 requests per hour for this token is reached (other apps using the same token count too). avenir-mcp retries nothing and sends no request for 10 minutes. Tell the user; do not retry before then."
    );
    assert_eq!(sandbox.stats().total, 1, "not retried");
    let paused = c.accounts(&plan()).await.expect_err("paused");
    assert_eq!(
        paused.to_string(),
        "YNAB's limit of 200 requests per hour was reached. Nothing was sent: avenir-mcp calls YNAB again in 10 minutes. Tell the user; do not retry before then."
    );
    assert_eq!(sandbox.stats().total, 1, "nothing sent during the pause");
}

#[tokio::test]
async fn retry_after_sets_the_pause_in_seconds_or_as_a_date() {
    let sandbox = sandbox().await;
    let c = client(&sandbox);
    sandbox.inject(status(1, None, 429, Some("120")));
    assert!(
        c.plans()
            .await
            .expect_err("429")
            .to_string()
            .contains("no request for 2 minutes")
    );

    let sandbox = self::sandbox().await;
    let c = client(&sandbox);
    let in_five = std::time::SystemTime::now() + std::time::Duration::from_secs(299);
    sandbox.inject(status(1, None, 429, Some(&http_date(in_five))));
    let text = c.plans().await.expect_err("429").to_string();
    assert!(text.contains("no request for 5 minutes"), "{text}");
    assert!(matches!(c.plans().await, Err(Error::Paused(_))));
}

#[tokio::test]
async fn a_read_answered_500_is_retried() {
    let sandbox = sandbox().await;
    let c = client(&sandbox);
    sandbox.inject(status(1, Some("GET /plans/{plan_id}/accounts"), 500, None));
    let accounts = c
        .accounts(&plan())
        .await
        .expect("answered on the second try");
    assert_eq!(accounts.len(), 6);
    assert_eq!(sandbox.stats().total, 2);
    sandbox.inject(status(3, Some("GET /plans"), 503, None));
    let error = c.plans().await.expect_err("three 503s");
    assert_eq!(error.status(), Some(503));
    assert!(error.to_string().starts_with("YNAB 503: "), "{error}");
    assert_eq!(sandbox.stats().total, 5, "three tries in all");
}

#[tokio::test]
async fn a_write_answered_500_is_not_retried() {
    let sandbox = sandbox().await;
    let c = client(&sandbox);
    sandbox.inject(status(
        1,
        Some("PATCH /plans/{plan_id}/months/{month}/categories/{category_id}"),
        500,
        None,
    ));
    let error = c
        .set_assigned(&plan(), "2026-09-01", &ids::id("cat-restaurants"), 150_000)
        .await
        .expect_err("500");
    // A server error does not prove the change failed (D14): it may have been applied.
    assert!(error.may_have_applied());
    assert_eq!(
        error.to_string(),
        "YNAB answered 500 (An unexpected error occurred) without confirming the change: it may or may not be applied. Check with find_transactions / get_category_balances before trying again; do not repeat it blindly."
    );
    assert_eq!(sandbox.stats().total, 1, "a write is never sent twice");
    // A refusal (4xx) proves nothing changed.
    sandbox.inject(status(1, Some("PATCH"), 400, None));
    let refused = c
        .set_assigned(&plan(), "2026-09-01", &ids::id("cat-restaurants"), 150_000)
        .await
        .expect_err("400");
    assert!(!refused.may_have_applied(), "{refused}");
    assert!(refused.to_string().starts_with("YNAB 400: "), "{refused}");
}

#[tokio::test]
async fn a_write_whose_answer_never_came_may_be_applied() {
    let sandbox = sandbox().await;
    let c = client(&sandbox);
    sandbox.inject(Fault::new(1, Some("PATCH"), FaultKind::ApplyThenDrop));
    let error = c
        .set_assigned(&plan(), "2026-09-01", &ids::id("cat-restaurants"), 150_000)
        .await
        .expect_err("no answer");
    let text = error.to_string();
    assert!(
        text.starts_with("The request reached YNAB but no answer came back ("),
        "{text}"
    );
    assert!(text.ends_with("the change may or may not be applied. Check with find_transactions / get_category_balances before trying again; do not repeat it blindly."));
    assert_eq!(sandbox.stats().total, 1, "not retried");
    let month = c.month(&plan(), "2026-09-01").await.expect("month");
    let restaurants = month
        .categories
        .unwrap_or_default()
        .into_iter()
        .find(|c| c.id == ids::id("cat-restaurants"))
        .map(|c| c.budgeted);
    assert_eq!(restaurants, Some(150_000), "YNAB did apply it");
}

#[tokio::test]
async fn two_clients_share_one_ledger() {
    let sandbox = sandbox().await;
    let dir = std::env::temp_dir().join(format!("ynab-shared-ledger-{}", std::process::id()));
    let make = || {
        Client::new(
            BaseUrl::new(sandbox.base_url()),
            TokenSource::Fixed(Token::new("shared-token")),
        )
        .expect("the HTTP client builds")
        .with_pacer(Pacer::ledger(&dir, 5))
    };
    let (a, b) = (make(), make());
    for _ in 0..3 {
        a.plans().await.expect("a's requests");
    }
    b.plans().await.expect("b's first");
    b.plans().await.expect("b's second");
    let refused = b.plans().await.expect_err("the shared budget is spent");
    assert!(
        refused
            .to_string()
            .starts_with("avenir-mcp sent 5 requests to YNAB in the last hour"),
        "{refused}"
    );
    assert!(matches!(a.plans().await, Err(Error::BudgetSpent { .. })));
    assert_eq!(sandbox.stats().total, 5);
    assert_eq!(a.requests_left(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// An IMF-fixdate for `at` (`Sun, 06 Nov 1994 08:49:37 GMT`).
fn http_date(at: std::time::SystemTime) -> String {
    let secs = at
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // civil from days (Howard Hinnant)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][days.rem_euclid(7) as usize];
    let month = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ][(m - 1) as usize];
    format!(
        "{weekday}, {d:02} {month} {y} {:02}:{:02}:{:02} GMT",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
