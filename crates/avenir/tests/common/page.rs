//! A person's browser on the local confirmation page, as the test client sends them there: it
//! reads the page, and answers with the page's own form (optionally after a forged answer), then
//! tries the page again once answered.

use std::collections::BTreeMap;

/// What a visit of one page saw.
#[derive(Debug, Clone, Default)]
pub struct Visit {
    pub url: String,
    /// The page's text (HTML).
    pub html: String,
    /// Its response headers, by lower-case name.
    pub headers: BTreeMap<String, String>,
    /// The status of a forged answer (another form token), when one was sent first.
    pub forged: Option<u16>,
    /// The status of the person's answer.
    pub answered: u16,
    /// The status of the page read again after the answer.
    pub again: u16,
}

/// Open `url`, then answer yes or no with the page's form.
pub async fn visit(url: &str, yes: bool, forge_first: bool) -> Visit {
    let client = ynab::tls::http_client_builder()
        .build()
        .expect("an HTTP client");
    let shown = client.get(url).send().await.expect("the page answers");
    let headers = shown
        .headers()
        .iter()
        .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
        .collect();
    let html = shown.text().await.unwrap_or_default();
    let form = html
        .split("name=\"form\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or("")
        .to_string();
    let origin = url.split("/confirm/").next().unwrap_or("").to_string();
    let post = |token: String| {
        let answer = if yes { "yes" } else { "no" };
        client
            .post(url)
            .header("origin", origin.clone())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("form={token}&answer={answer}"))
            .send()
    };
    let forged = match forge_first {
        true => Some(
            post("forged".to_string())
                .await
                .map_or(0, |r| r.status().as_u16()),
        ),
        false => None,
    };
    let answered = post(form).await.map_or(0, |r| r.status().as_u16());
    let again = client
        .get(url)
        .send()
        .await
        .map_or(0, |r| r.status().as_u16());
    Visit {
        url: url.to_string(),
        html,
        headers,
        forged,
        answered,
        again,
    }
}
