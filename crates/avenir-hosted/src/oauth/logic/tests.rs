//! Tests of the authorization server's rules (`logic`): PKCE, scopes, redirect URIs, client
//! metadata, `/authorize` requests, public addresses.

use super::*;

#[test]
fn pkce_s256_matches_the_rfc_example() {
    // RFC 7636 appendix B.
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    assert!(pkce_s256_matches(verifier, challenge));
    assert!(!pkce_s256_matches(
        "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXj",
        challenge
    ));
    assert!(!pkce_s256_matches("short", challenge));
    assert!(!pkce_s256_matches(challenge, challenge));
    assert!(is_s256_challenge(challenge));
    assert!(!is_s256_challenge("plain-verifier"));
}

#[test]
fn scopes_are_normalised_and_unknown_ones_refused() {
    assert_eq!(parse_scope(None), Ok(None));
    assert_eq!(parse_scope(Some("")), Ok(None));
    assert_eq!(parse_scope(Some("read")), Ok(Some("read")));
    assert_eq!(parse_scope(Some("write")), Ok(Some("read write")));
    assert_eq!(parse_scope(Some("write  read")), Ok(Some("read write")));
    assert!(
        parse_scope(Some("read admin"))
            .unwrap_err()
            .to_string()
            .contains("admin")
    );
    assert!(scope_within("read", "read write"));
    assert!(!scope_within("read write", "read"));
    assert_eq!(granted_scope("", "write"), Some("read write"));
    assert_eq!(granted_scope("read", "write"), None);
    assert_eq!(granted_scope("read", "read"), Some("read"));
    assert_eq!(granted_scope("read write", "read"), Some("read"));
    assert_eq!(granted_scope("read write", "all"), None);
}

#[test]
fn redirect_uris_follow_rfc_8252() {
    assert!(redirect_uri_acceptable("https://app.example/cb").is_ok());
    assert!(redirect_uri_acceptable("http://127.0.0.1:3000/cb").is_ok());
    assert!(redirect_uri_acceptable("http://localhost/cb").is_ok());
    assert!(redirect_uri_acceptable("http://[::1]:9/cb").is_ok());
    assert!(redirect_uri_acceptable("com.example.app:/oauth").is_ok());
    assert!(redirect_uri_acceptable("http://app.example/cb").is_err());
    assert!(redirect_uri_acceptable("https://app.example/cb#x").is_err());
    assert!(redirect_uri_acceptable("javascript:alert(1)").is_err());
    assert!(redirect_uri_acceptable("data:text/html,x").is_err());
    assert!(redirect_uri_acceptable("https://u:p@app.example/cb").is_err());
    assert!(redirect_uri_acceptable("not a url").is_err());
}

#[test]
fn redirect_uris_match_exactly_except_a_loopback_port() {
    assert!(redirect_uri_matches(
        "https://a.example/cb",
        "https://a.example/cb"
    ));
    assert!(!redirect_uri_matches(
        "https://a.example/cb",
        "https://a.example/cb/"
    ));
    assert!(!redirect_uri_matches(
        "https://a.example/cb",
        "https://a.example:8443/cb"
    ));
    assert!(redirect_uri_matches(
        "http://127.0.0.1/cb",
        "http://127.0.0.1:53111/cb"
    ));
    assert!(redirect_uri_matches(
        "http://localhost:1/cb",
        "http://localhost:2/cb"
    ));
    assert!(!redirect_uri_matches(
        "http://127.0.0.1/cb",
        "http://127.0.0.1:5/other"
    ));
    assert!(!redirect_uri_matches(
        "http://127.0.0.1/cb",
        "http://127.0.0.2/cb"
    ));
}

#[test]
fn metadata_document_urls_and_addresses() {
    assert!(is_metadata_document_id("https://client.example/oauth.json"));
    assert!(!is_metadata_document_id("https://client.example/"));
    assert!(!is_metadata_document_id("abc123"));
    assert!(metadata_document_url("https://client.example/c.json", false).is_ok());
    assert!(metadata_document_url("https://client.example/a/../c.json", false).is_err());
    assert!(metadata_document_url("https://client.example/c.json#f", false).is_err());
    assert!(metadata_document_url("https://127.0.0.1/c.json", false).is_err());
    assert!(metadata_document_url("https://127.0.0.1/c.json", true).is_ok());
    assert!(metadata_document_url("https://[::1]/c.json", false).is_err());
    assert!(metadata_document_url("https://10.1.2.3/c.json", false).is_err());
    // keyed by its exact URL: a query would let variants of one document multiply rows
    assert!(metadata_document_url("https://client.example/c.json?v=1", false).is_err());
    assert!(
        metadata_document_url(
            &format!("https://client.example/{}", "a".repeat(2100)),
            false
        )
        .is_err()
    );
    for private in [
        "127.0.0.1",
        "10.0.0.1",
        "172.16.3.4",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "::1",
        "fd00::1",
        "fe80::1",
        "::ffff:127.0.0.1",
        "64:ff9b::a00:1",
        "::a00:1",                              // IPv4-compatible ::/96 (10.0.0.1)
        "::7f00:1",                             // IPv4-compatible 127.0.0.1
        "fec0::1",                              // site-local
        "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
    ] {
        let ip: IpAddr = private.parse().unwrap();
        assert!(!ip_is_public(ip), "{private}");
    }
    for public in ["93.184.216.34", "2606:4700::1111", "8.8.8.8"] {
        let ip: IpAddr = public.parse().unwrap();
        assert!(ip_is_public(ip), "{public}");
    }
}

#[test]
fn metadata_documents_must_name_their_url_and_redirects() {
    let id = "https://client.example/c.json";
    let good = br#"{"client_id":"https://client.example/c.json","client_name":"C",
                    "redirect_uris":["http://127.0.0.1/cb"]}"#;
    assert!(validate_metadata_document(id, good).is_ok());
    let other = br#"{"client_id":"https://evil.example/c.json","redirect_uris":["https://e/cb"]}"#;
    assert!(
        validate_metadata_document(id, other)
            .unwrap_err()
            .to_string()
            .contains("another")
    );
    let no_uris = br#"{"client_id":"https://client.example/c.json"}"#;
    assert!(validate_metadata_document(id, no_uris).is_err());
    let secret = br#"{"client_id":"https://client.example/c.json","client_secret":"x",
                      "redirect_uris":["https://a.example/cb"]}"#;
    assert!(validate_metadata_document(id, secret).is_err());
    let bad_uri = br#"{"client_id":"https://client.example/c.json",
                       "redirect_uris":["http://a.example/cb"]}"#;
    assert!(validate_metadata_document(id, bad_uri).is_err());
    assert!(validate_metadata_document(id, b"<html>").is_err());
    assert!(validate_metadata_document(id, b"[1]").is_err());
}

#[test]
fn registrations_keep_a_public_clients_metadata() {
    let ok = serde_json::json!({"redirect_uris": ["http://127.0.0.1:9/cb"],
        "client_name": "Tool", "token_endpoint_auth_method": "none", "ignored": 1});
    let kept = validate_registration(&ok).unwrap();
    assert_eq!(kept["client_name"], "Tool");
    assert_eq!(
        kept["grant_types"],
        serde_json::json!(["authorization_code", "refresh_token"])
    );
    assert!(kept.get("ignored").is_none());
    let secret = serde_json::json!({"redirect_uris": ["https://a.example/cb"],
        "token_endpoint_auth_method": "client_secret_basic"});
    assert_eq!(
        validate_registration(&secret).unwrap_err().0,
        "invalid_client_metadata"
    );
    let none = serde_json::json!({"client_name": "x"});
    assert_eq!(
        validate_registration(&none).unwrap_err().0,
        "invalid_redirect_uri"
    );
    let http = serde_json::json!({"redirect_uris": ["http://evil.example/cb"]});
    assert_eq!(
        validate_registration(&http).unwrap_err().0,
        "invalid_redirect_uri"
    );
    let implicit = serde_json::json!({"redirect_uris": ["https://a.example/cb"],
        "response_types": ["token"]});
    assert_eq!(
        validate_registration(&implicit).unwrap_err().0,
        "invalid_client_metadata"
    );
    // every stored field is bounded: ten long redirect URIs exceed what is kept
    let long: Vec<String> = (0..10)
        .map(|i| format!("https://a.example/{i}/{}", "x".repeat(1500)))
        .collect();
    let (error, description) =
        validate_registration(&serde_json::json!({"redirect_uris": long})).unwrap_err();
    assert_eq!(error, "invalid_client_metadata");
    assert!(description.contains("at most 4096 bytes"), "{description}");
}

#[test]
fn an_authorize_state_is_bounded() {
    let params = |state: String| -> HashMap<String, String> {
        [
            ("response_type", "code".to_string()),
            (
                "code_challenge",
                "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM".to_string(),
            ),
            ("code_challenge_method", "S256".to_string()),
            ("state", state),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    };
    let resource = "https://budget.example.org/mcp";
    assert!(check_authorize(&params("s".repeat(MAX_STATE)), resource).is_ok());
    let (error, description) =
        check_authorize(&params("s".repeat(MAX_STATE + 1)), resource).unwrap_err();
    assert_eq!(error, "invalid_request");
    assert!(description.contains("state is longer than 1024 bytes"));
}

#[test]
fn authorize_requests_need_pkce_s256_and_our_resource() {
    let resource = "https://budget.example.org/mcp";
    let base = |extra: &[(&str, &str)]| {
        let mut p: HashMap<String, String> = [
            ("response_type", "code"),
            (
                "code_challenge",
                "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            ),
            ("code_challenge_method", "S256"),
            ("state", "s1"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        for (k, v) in extra {
            if v.is_empty() {
                p.remove(*k);
            } else {
                p.insert(k.to_string(), v.to_string());
            }
        }
        p
    };
    let ok = check_authorize(&base(&[]), resource).unwrap();
    assert_eq!(ok.scope, None);
    assert_eq!(ok.state.as_deref(), Some("s1"));
    let err = |p| check_authorize(&p, resource).unwrap_err().0;
    assert_eq!(err(base(&[("code_challenge", "")])), "invalid_request");
    assert_eq!(
        err(base(&[("code_challenge_method", "plain")])),
        "invalid_request"
    );
    assert_eq!(
        err(base(&[("code_challenge_method", "")])),
        "invalid_request"
    );
    assert_eq!(
        err(base(&[("response_type", "token")])),
        "unsupported_response_type"
    );
    assert_eq!(
        err(base(&[("resource", "https://other.example/mcp")])),
        "invalid_target"
    );
    assert_eq!(err(base(&[("scope", "admin")])), "invalid_scope");
    let scoped = check_authorize(
        &base(&[("scope", "read"), ("resource", resource)]),
        resource,
    );
    assert_eq!(scoped.unwrap().scope, Some("read"));
}

#[test]
fn public_urls_are_https_issuers() {
    assert!(check_public_url("https://budget.example.org").is_ok());
    assert!(check_public_url("http://127.0.0.1:8080").is_ok());
    assert!(check_public_url("http://budget.example.org").is_err());
    assert!(check_public_url("https://budget.example.org/?x=1").is_err());
    assert!(check_public_url("budget.example.org").is_err());
}

#[test]
fn cookies_and_random_tokens() {
    let headers = ["a=1; avenir_consent_x=v1", "b=2"];
    assert_eq!(
        cookie_value(headers.into_iter(), "avenir_consent_x"),
        Some("v1")
    );
    assert_eq!(cookie_value(headers.into_iter(), "b"), Some("2"));
    assert_eq!(cookie_value(headers.into_iter(), "c"), None);
    assert!(consent_cookie_name("id", false).starts_with("avenir_consent_"));
    assert!(consent_cookie_name("id", true).starts_with("__Host-avenir_consent_"));
    assert!(is_random_token(&"a".repeat(43)));
    assert!(!is_random_token(&format!("consent:{}", "a".repeat(35))));
    assert!(!is_random_token("short"));
}

#[test]
fn params_refuse_duplicates_and_html_is_escaped() {
    assert!(parse_params("a=1&a=2").is_err());
    assert_eq!(parse_params("a=1+2&b=%26").unwrap()["b"], "&");
    assert_eq!(
        html_escape(r#"<script>"x"&'y'</script>"#),
        "&lt;script&gt;&quot;x&quot;&amp;&#39;y&#39;&lt;/script&gt;"
    );
    assert_eq!(
        with_query(
            "https://a.example/cb?x=1",
            &[("code", "a b"), ("state", "&")]
        )
        .unwrap(),
        "https://a.example/cb?x=1&code=a+b&state=%26"
    );
}
