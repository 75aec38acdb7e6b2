//! The hosted confirmation pages, with codes turned off (`AVENIR_MCP_CONFIRM=answer`): a client
//! that cannot ask is given a page on the server that only the person's own browser session
//! opens, from any device they signed in on; the MCP token alone cannot answer it.

use crate::hosted_flow::{budget_args, postgres_db, restaurants, sqlite_db};
use crate::support::{self, World, call, form, hidden, structured};
use avenir::confirmations::ConfirmPolicy;
use serde_json::json;

fn codes_off() -> avenir::Settings {
    avenir::Settings {
        confirm: ConfirmPolicy::Answer,
        ..support::settings()
    }
}

/// The page URL a `confirmation_required` answer names.
fn page_url(answer: &serde_json::Value, public: &str) -> String {
    let message = answer["message"].as_str().expect("message");
    let at = message
        .find(&format!("{public}/confirm/"))
        .unwrap_or_else(|| panic!("no page URL in {message:?}"));
    message[at..]
        .split_whitespace()
        .next()
        .expect("URL")
        .to_string()
}

/// GET `url` with these headers: status and body.
async fn get(url: &str, headers: &[(&str, &str)]) -> (u16, String, reqwest::header::HeaderMap) {
    let mut request = support::browser().get(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let answer = request.send().await.expect("GET");
    let (status, headers) = (answer.status().as_u16(), answer.headers().clone());
    (status, answer.text().await.expect("body"), headers)
}

/// POST the page's form to `url` with these headers: status and body.
async fn answer(url: &str, fields: &[(&str, &str)], headers: &[(&str, &str)]) -> (u16, String) {
    let mut request = support::browser()
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let answer = request.body(form(fields)).send().await.expect("POST");
    (answer.status().as_u16(), answer.text().await.expect("body"))
}

/// The agent asks to budget `amount` for Restaurants; the person opens the page the answer names
/// in their signed-in browser and answers `yes` or `no` there: the answer's status.
async fn asked_and_answered(
    world: &World,
    person: &support::SignedIn,
    amount: f64,
    said: &str,
) -> u16 {
    let cookie = person.browser_session.clone().expect("a browser session");
    let asked = call(&person.client, "set_category_budget", budget_args(amount)).await;
    let url = page_url(&structured(&asked), &world.public);
    let (_, page, _) = get(&url, &[("cookie", &cookie)]).await;
    let token = hidden(&page, "form").expect("the form's token");
    let fields = [("answer", said), ("form", token.as_str())];
    answer(&url, &fields, &[("cookie", &cookie)]).await.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_codes_off_only_the_persons_browser_answers_the_page_from_any_device() {
    let (db, dir) = sqlite_db();
    let world = World::start_with(db, 2, codes_off()).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let cookie = alice
        .browser_session
        .clone()
        .expect("a browser session at sign-in");
    let before = restaurants(&world).await;

    // The agent asks; its client shows no form: no code, the answer names the page.
    let asked = structured(&call(&alice.client, "set_category_budget", budget_args(150.0)).await);
    assert_eq!(asked["status"], "confirmation_required", "{asked}");
    assert!(
        asked["confirmation"].is_null(),
        "no code under codes off: {asked}"
    );
    let url = page_url(&asked, &world.public);
    assert!(
        asked["message"]
            .as_str()
            .unwrap_or_default()
            .contains("call again with the same arguments"),
        "{asked}"
    );
    // A code the agent makes up is refused, and changes nothing.
    let mut forged = budget_args(150.0);
    forged["confirmation"] = json!("123456");
    let refused = call(&alice.client, "set_category_budget", forged).await;
    assert!(
        refused.is_error == Some(true) || structured(&refused)["status"] != "applied",
        "{refused:?}"
    );

    // The MCP token alone opens nothing and answers nothing.
    let bearer = format!("Bearer {}", alice.access_token);
    let (status, body, _) = get(&url, &[("authorization", &bearer)]).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        !body.contains("Restaurants"),
        "the preview is not shown: {body}"
    );
    let (status, _) = answer(
        &url,
        &[("answer", "yes"), ("form", "x")],
        &[("authorization", &bearer)],
    )
    .await;
    assert_eq!(status, 403);
    // Someone else's session finds no page.
    let bob = world.sign_in("bob", "write", 0).await;
    let bobs = bob.browser_session.clone().expect("Bob's session");
    let (status, _, _) = get(&url, &[("cookie", &bobs)]).await;
    assert_eq!(status, 404);

    // Alice's browser sees the preview, escaped, never framed.
    let (status, page, headers) = get(&url, &[("cookie", &cookie)]).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Restaurants"), "{page}");
    assert_eq!(headers["x-frame-options"], "DENY");
    assert!(
        headers["content-security-policy"]
            .to_str()
            .unwrap_or("")
            .contains("frame-ancestors 'none'")
    );
    let token = hidden(&page, "form").expect("the form's token");
    // Still nothing changed; the agent calling again is told the same page.
    let again = structured(&call(&alice.client, "set_category_budget", budget_args(150.0)).await);
    assert_eq!(page_url(&again, &world.public), url);
    assert_eq!(restaurants(&world).await, before);

    // On another device: Alice signs in there (a browser of its own), and answers through the
    // other instance (every instance reads every instance's sessions and pages).
    let phone = world.sign_in("alice", "write", 0).await;
    let phone_cookie = phone.browser_session.clone().expect("the phone's session");
    assert_ne!(phone_cookie, cookie);
    let other = url.replacen(&world.public, &world.instances[1].url, 1);
    let list = get(
        &format!("{}/confirm", world.instances[1].url),
        &[("cookie", &phone_cookie)],
    )
    .await;
    assert_eq!(list.0, 200);
    assert!(
        list.1.contains(url.rsplit('/').next().unwrap_or("-")),
        "listed: {}",
        list.1
    );
    let (status, _) = answer(
        &other,
        &[("answer", "yes"), ("form", "forged")],
        &[("cookie", &phone_cookie)],
    )
    .await;
    assert_eq!(status, 403, "a forged form token");
    let (status, _) = answer(
        &other,
        &[("answer", "yes"), ("form", &token)],
        &[
            ("cookie", &phone_cookie),
            ("origin", "https://elsewhere.example"),
        ],
    )
    .await;
    assert_eq!(status, 403, "another site's form");
    let (status, body) = answer(
        &other,
        &[("answer", "yes"), ("form", &token)],
        &[("cookie", &phone_cookie), ("origin", &world.public)],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = answer(
        &url,
        &[("answer", "no"), ("form", &token)],
        &[("cookie", &cookie)],
    )
    .await;
    assert_eq!(status, 404, "answered once");

    // The agent's next call applies it, once.
    let applied = structured(&call(&alice.client, "set_category_budget", budget_args(150.0)).await);
    assert_eq!(applied["status"], "applied", "{applied}");
    assert_eq!(restaurants(&world).await, 150_000);

    // A no: nothing changes.
    let status = asked_and_answered(&world, &alice, 99.0, "no").await;
    assert_eq!(status, 200);
    let declined = structured(&call(&alice.client, "set_category_budget", budget_args(99.0)).await);
    assert_eq!(declined["status"], "declined", "{declined}");
    assert_eq!(restaurants(&world).await, 150_000);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_yes_given_to_an_older_preview_writes_nothing_on_postgresql() {
    let world = World::start_with(postgres_db(), 1, codes_off()).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let status = asked_and_answered(&world, &alice, 150.0, "yes").await;
    assert_eq!(status, 200);
    // Another app changes Restaurants meanwhile.
    let other = ynab::Client::new(
        ynab::config::BaseUrl::new(world.sandbox.base_url()),
        ynab::config::TokenSource::Fixed(ynab::config::Token::new("another-app")),
    )
    .expect("client");
    other
        .set_assigned(
            &world.alice_plan,
            "2026-09-01",
            &ynab_sandbox::ids::id("cat-restaurants"),
            42_000,
        )
        .await
        .expect("another app's change");
    let stale = call(&alice.client, "set_category_budget", budget_args(150.0)).await;
    let stale_text = support::text(&stale);
    assert!(
        stale.is_error == Some(true) && stale_text.contains("changed"),
        "{stale_text}"
    );
    assert_eq!(restaurants(&world).await, 42_000);
}

/// `tools/call` of `set_category_budget` with `amount` for Restaurants in September.
fn budget_call(amount: f64) -> rmcp::model::CallToolRequestParams {
    let mut params = rmcp::model::CallToolRequestParams::new("set_category_budget".to_string());
    params.arguments = budget_args(amount).as_object().cloned();
    params
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_with_url_elicitation_sends_the_person_to_their_page_in_the_call() {
    use support::page_client::PageClient;
    let (db, dir) = sqlite_db();
    let world = World::start_with(db, 1, codes_off()).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let cookie = alice.browser_session.clone().expect("a browser session");
    let before = restaurants(&world).await;

    // A browser that never signed in is refused the page; nothing is written meanwhile.
    let stranger = PageClient::answering_yes(None);
    let visits = stranger.visits.clone();
    let client = stranger.connect(&world, &alice.access_token, 0).await;
    let pending = tokio::spawn(async move { client.call_tool(budget_call(150.0)).await });
    let refused = loop {
        if let Some(visit) = visits
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .first()
            .cloned()
        {
            break visit;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!(refused.shown, 403, "{}", refused.html);
    assert!(
        refused
            .url
            .starts_with(&format!("{}/confirm/", world.public))
    );
    assert_eq!(refused.answered, None);
    pending.abort();
    assert_eq!(restaurants(&world).await, before);

    // The person's own browser answers yes: applied in the same call.
    let person = PageClient::answering_yes(Some(cookie));
    let visits = person.visits.clone();
    let client = person.connect(&world, &alice.access_token, 0).await;
    let applied = client
        .call_tool(budget_call(150.0))
        .await
        .expect("tools/call");
    let applied = structured(&applied);
    assert_eq!(applied["status"], "applied", "{applied}");
    assert_eq!(restaurants(&world).await, 150_000);
    let visits = visits.lock().unwrap_or_else(|p| p.into_inner()).clone();
    assert_eq!(visits.len(), 1, "{visits:?}");
    assert_eq!((visits[0].shown, visits[0].answered), (200, Some(200)));
    assert!(visits[0].html.contains("Restaurants"), "{}", visits[0].html);
    let _ = std::fs::remove_dir_all(dir);
}
