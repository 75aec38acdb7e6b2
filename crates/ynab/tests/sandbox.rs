//! The client against the project's YNAB sandbox: typed reads, YNAB's error mapping (401, 404),
//! the base URL rule and the token sources, with their exact messages.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use ynab::{BaseUrl, Client, Error, Token, TokenSource, TransactionFilter};
use ynab_sandbox::{Sandbox, SandboxOptions, demo, ids};

async fn sandbox() -> Sandbox {
    Sandbox::start(demo::demo_plan(demo::DEMO_TODAY), SandboxOptions::default())
        .await
        .expect("sandbox starts")
}

fn client(sandbox: &Sandbox, token: &str) -> Client {
    Client::new(
        BaseUrl::new(sandbox.base_url()),
        TokenSource::Fixed(Token::new(token)),
    )
    .expect("the HTTP client builds")
}

#[tokio::test]
async fn reads_the_demo_plan() {
    let sandbox = sandbox().await;
    let client = client(&sandbox, "any-token");
    let plans = client.plans().await.expect("plans");
    assert_eq!(plans.len(), 1);
    assert_eq!(plans[0].id, ids::id("demo-budget"));
    assert_eq!(plans[0].name, "Demo household");
    let currency = plans[0].currency_format.as_ref().expect("currency format");
    assert_eq!(currency.iso_code, "EUR");
    assert_eq!(currency.decimal_digits, 2);

    let accounts = client.accounts("last-used").await.expect("accounts");
    let checking = accounts
        .iter()
        .find(|a| a.id == ids::id("acc-checking"))
        .expect("checking");
    assert_eq!(checking.balance, 3_328_500);

    let settings = client.plan_settings("last-used").await.expect("settings");
    assert_eq!(
        settings.currency_format.map(|c| c.currency_symbol),
        Some("€".into())
    );

    let groups = client.categories("last-used").await.expect("categories");
    assert!(groups.iter().any(|g| g.group.name == "Everyday"));

    let payees = client.payees("last-used").await.expect("payees");
    assert!(payees.iter().any(|p| p.name == "RAIL CO"));

    let (transactions, knowledge) = client
        .transactions("last-used", &TransactionFilter::default())
        .await
        .expect("transactions");
    assert_eq!(transactions.len(), 226);
    assert!(knowledge > 0);
    let (uncategorized, _) = client
        .transactions(
            "last-used",
            &TransactionFilter {
                kind: Some("uncategorized".into()),
                since_date: Some("2026-09-01".into()),
                ..Default::default()
            },
        )
        .await
        .expect("filtered");
    assert_eq!(
        uncategorized.len(),
        6,
        "the six pending September transactions"
    );

    let (plan, _) = client.plan("default", None).await.expect("export");
    assert_eq!(plan.id, ids::id("demo-budget"));
    assert_eq!(plan.accounts.len(), 6);
    assert_eq!(plan.transactions.len(), 226);
    assert_eq!(sandbox.stats().total, 8, "one request per read");
}

#[tokio::test]
async fn a_missing_token_is_ynab_401() {
    let sandbox = sandbox().await;
    let error = client(&sandbox, "")
        .accounts("last-used")
        .await
        .expect_err("401");
    assert_eq!(error, Error::Unauthorized);
    assert_eq!(
        error.to_string(),
        "YNAB 401: the token is invalid or was revoked; create a new Personal Access Token in YNAB's settings."
    );
}

#[tokio::test]
async fn an_unknown_plan_is_ynab_404_with_its_detail() {
    let sandbox = sandbox().await;
    let error = client(&sandbox, "t")
        .accounts(&ids::id("another-plan"))
        .await
        .expect_err("404");
    assert_eq!(error.to_string(), "YNAB 404: Resource not found");
    assert_eq!(error.status(), Some(404));
}

#[tokio::test]
async fn bad_segments_and_base_urls_send_nothing() {
    let sandbox = sandbox().await;
    let c = client(&sandbox, "t");
    let error = c.accounts("../plans").await.expect_err("refused");
    assert_eq!(
        error.to_string(),
        "'../plans' is not a YNAB id: use the ids returned by list_plans, list_accounts or the other tools."
    );
    let remote = Client::new(
        BaseUrl::new("http://api.example.com/v1"),
        TokenSource::Fixed(Token::new("t")),
    )
    .expect("the HTTP client builds");
    assert_eq!(
        remote.plans().await.expect_err("refused").to_string(),
        "AVENIR_MCP_YNAB_URL must start with https:// (plain http only for 127.0.0.1 or localhost), got 'http://api.example.com/v1'."
    );
    assert_eq!(sandbox.stats().total, 0);
    assert_eq!(remote.requests_sent() + c.requests_sent(), 0);
}

#[tokio::test]
async fn nothing_listening_is_reported_after_three_tries() {
    // bind a port, then free it: nothing listens there any more
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    };
    let c = Client::new(
        BaseUrl::new(format!("http://127.0.0.1:{port}/v1")),
        TokenSource::Fixed(Token::new("t")),
    )
    .expect("the HTTP client builds");
    let error = c.plans().await.expect_err("unreachable");
    let text = error.to_string();
    assert!(
        text.starts_with("YNAB could not be reached after 3 attempts (ConnectError"),
        "{text}"
    );
    assert!(text.ends_with("Nothing was changed. Try again in a few minutes."));
}

fn token_file(contents: &str, mode: u32) -> (tempdir::Dir, std::path::PathBuf) {
    let dir = tempdir::Dir::new();
    let path = dir.path().join("token");
    let mut file = std::fs::File::create(&path).expect("create");
    file.write_all(contents.as_bytes()).expect("write");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    (dir, path)
}

#[tokio::test]
async fn token_file_permissions_are_checked() {
    let sandbox = sandbox().await;
    let base = BaseUrl::new(sandbox.base_url());

    let (_dir, open) = token_file("secret\n", 0o644);
    let c =
        Client::new(base.clone(), TokenSource::File(open.clone())).expect("the HTTP client builds");
    assert_eq!(
        c.plans().await.expect_err("too open").to_string(),
        format!(
            "YNAB_API_KEY_FILE is readable by other users: run chmod 600 {}",
            open.display()
        )
    );

    let (_dir2, private) = token_file("  secret  \n", 0o600);
    let c = Client::new(base.clone(), TokenSource::File(private)).expect("the HTTP client builds");
    assert_eq!(
        c.plans().await.expect("read with the file's token").len(),
        1
    );

    let (dir3, _) = token_file("x", 0o600);
    let missing = dir3.path().join("absent");
    let c = Client::new(base, TokenSource::File(missing)).expect("the HTTP client builds");
    assert_eq!(
        c.plans().await.expect_err("missing").to_string(),
        "YNAB_API_KEY_FILE cannot be read: No such file or directory"
    );
    assert_eq!(
        sandbox.stats().total,
        1,
        "only the good token reached the sandbox"
    );
}

#[test]
fn the_api_version_is_the_shipped_spec_s() {
    let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi/open_api_spec.yaml");
    let text = std::fs::read_to_string(&spec)
        .unwrap_or_else(|e| panic!("{} must be readable: {e}", spec.display()));
    let version = text
        .lines()
        .map(str::trim)
        .find_map(|line| line.strip_prefix("version: "))
        .expect("info.version");
    assert_eq!(version, ynab::YNAB_API_VERSION);
}

/// A temporary directory removed on drop (std only).
mod tempdir {
    pub struct Dir(std::path::PathBuf);

    impl Dir {
        pub fn new() -> Self {
            use std::sync::atomic::{AtomicU32, Ordering};
            static N: AtomicU32 = AtomicU32::new(0);
            let path = std::env::temp_dir().join(format!(
                "ynab-test-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::create_dir_all(&path).expect("temp dir");
            Dir(path)
        }

        pub fn path(&self) -> &std::path::Path {
            &self.0
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

#[tokio::test]
async fn creates_a_payee_and_replaces_a_schedule_with_the_full_object() {
    let sandbox = sandbox().await;
    let client = client(&sandbox, "any-token");
    let plan = ids::id("demo-budget");
    let saved = client
        .create_payee(&plan, "Market Fresh")
        .await
        .expect("created");
    assert_eq!(saved.payee.name, "Market Fresh");
    assert!(saved.payee.transfer_account_id.is_none());
    assert!(
        client
            .payees(&plan)
            .await
            .expect("payees")
            .iter()
            .any(|p| p.id == saved.payee.id)
    );

    let schedules = client
        .scheduled_transactions(&plan)
        .await
        .expect("schedules");
    let phone = schedules
        .iter()
        .find(|s| s.payee_name.as_deref() == Some("TELCO MOBILE - PRELEV"))
        .expect("the phone's schedule");
    let save = ynab::writes::ScheduleSave {
        account_id: phone.account_id.clone(),
        date: phone.date_next.clone(),
        amount: phone.amount,
        payee_id: Some(saved.payee.id.to_string()),
        payee_name: None,
        category_id: phone.category_id.clone(),
        memo: None,
        flag_color: None,
        frequency: phone.frequency.clone(),
    };
    let put = client
        .update_scheduled_transaction(&plan, &phone.id, &save)
        .await
        .expect("replaced");
    let s = put.scheduled_transaction;
    assert_eq!(s.payee_id.as_deref(), Some(saved.payee.id.as_str()));
    assert_eq!(
        (s.amount, s.frequency.as_str()),
        (phone.amount, phone.frequency.as_str())
    );
    assert_eq!(
        (s.date_next.as_str(), s.date_first.as_str()),
        (phone.date_next.as_str(), phone.date_first.as_str())
    );
    assert_eq!(s.category_id, phone.category_id);
}

#[tokio::test]
async fn create_account_answers_the_new_account_and_a_refusal_is_ynab_400() {
    let sandbox = sandbox().await;
    let client = client(&sandbox, "any-token");
    let plan = ids::id("demo-budget");
    let saved = client
        .create_account(&plan, "Visa", "creditCard", -500_000)
        .await
        .expect("created");
    assert_eq!(
        (
            saved.account.name.as_str(),
            saved.account.kind.as_str(),
            saved.account.balance,
            saved.account.on_budget
        ),
        ("Visa", "creditCard", -500_000, true)
    );
    assert!(saved.account.transfer_payee_id.is_some());
    let listed = client.accounts(&plan).await.expect("accounts");
    assert!(listed.iter().any(|a| a.id == saved.account.id));
    let refused = client
        .create_account(&plan, "Car", "autoLoan", 0)
        .await
        .expect_err("400");
    assert!(!refused.may_have_applied(), "a refusal: {refused}");
}
