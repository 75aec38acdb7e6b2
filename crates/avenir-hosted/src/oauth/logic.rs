//! The authorization server's decisions as plain functions (no I/O): PKCE, scopes, redirect
//! URIs, client metadata (registered or fetched), what an `/authorize` request lacks, and the
//! addresses a metadata document may not be fetched from.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use subtle::ConstantTimeEq;
use url::Url;

/// SHA-256 of a secret (code, token, state) as lower-case hex: what the store keys it by.
pub fn sha256_hex(secret: &str) -> String {
    hex::encode(avenir::digest::sha256(secret.as_bytes()))
}

/// RFC 7636 §4.6: `BASE64URL(SHA256(code_verifier)) == code_challenge`, compared in constant
/// time. A verifier outside the RFC's alphabet or length (43–128 unreserved characters) fails.
pub fn pkce_s256_matches(code_verifier: &str, code_challenge: &str) -> bool {
    let len_ok = (43..=128).contains(&code_verifier.len());
    let alphabet_ok = code_verifier
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'));
    if !len_ok || !alphabet_ok {
        return false;
    }
    let computed = URL_SAFE_NO_PAD.encode(avenir::digest::sha256(code_verifier.as_bytes()));
    computed.as_bytes().ct_eq(code_challenge.as_bytes()).into()
}

/// An S256 challenge is the base64url (no padding) of 32 bytes: 43 characters.
pub fn is_s256_challenge(challenge: &str) -> bool {
    challenge.len() == 43
        && challenge
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// What a `scope` parameter asked for, normalised: `read` or `read write` (`write` implies
/// `read`: changing a plan needs reading it). Empty or absent is `Ok(None)`; a scope this server
/// does not know is an error naming it.
pub fn parse_scope(scope: Option<&str>) -> Result<Option<&'static str>, String> {
    let Some(scope) = scope else { return Ok(None) };
    let mut write = false;
    let mut any = false;
    for part in scope.split(' ').filter(|p| !p.is_empty()) {
        match part {
            "read" => any = true,
            "write" => {
                any = true;
                write = true;
            }
            other => {
                return Err(format!(
                    "unknown scope '{other}': ask for 'read' or 'read write'"
                ));
            }
        }
    }
    Ok(match (any, write) {
        (false, _) => None,
        (true, false) => Some(SCOPE_READ),
        (true, true) => Some(SCOPE_READ_WRITE),
    })
}

pub const SCOPE_READ: &str = "read";
pub const SCOPE_READ_WRITE: &str = "read write";

/// Whether every scope in `asked` is within `granted` (both space-separated).
pub fn scope_within(asked: &str, granted: &str) -> bool {
    asked
        .split(' ')
        .filter(|p| !p.is_empty())
        .all(|a| granted.split(' ').any(|g| g == a))
}

/// Check the server's public URL (the issuer): https, or http on loopback for a local trial;
/// no query, fragment or user information (RFC 8414 §2).
pub fn check_public_url(public_url: &str) -> Result<(), String> {
    let url = Url::parse(public_url)
        .map_err(|e| format!("the public URL '{public_url}' is not a URL ({e})"))?;
    if url.query().is_some()
        || url.fragment().is_some()
        || !url.username().is_empty()
        || url.password().is_some()
    {
        return Err(format!(
            "the public URL '{public_url}' must have no query, fragment or user information"
        ));
    }
    match url.scheme() {
        "https" if url.host().is_some() => Ok(()),
        "http" if is_loopback_host(&url) => Ok(()),
        _ => Err(format!(
            "the public URL '{public_url}' must be https (http only on 127.0.0.1 or localhost)"
        )),
    }
}

/// Whether `host` names this machine: `localhost`, 127.0.0.0/8 or `[::1]`.
fn is_loopback_host(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// Whether a client may register this redirect URI: `https://…`; `http://` only on a loopback
/// host (RFC 8252 §7.3); or a private-use scheme of a native app in reverse-domain form such as
/// `com.example.app:/callback` (RFC 8252 §7.1). Never a fragment, never user information.
pub fn redirect_uri_acceptable(uri: &str) -> Result<(), String> {
    let url = Url::parse(uri).map_err(|e| format!("redirect URI '{uri}' is not a URL ({e})"))?;
    if url.fragment().is_some() {
        return Err(format!(
            "redirect URI '{uri}' has a fragment: remove the '#…' part"
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!(
            "redirect URI '{uri}' carries user information: remove it"
        ));
    }
    match url.scheme() {
        "https" if url.host().is_some() => Ok(()),
        "http" if is_loopback_host(&url) => Ok(()),
        "http" => Err(format!(
            "redirect URI '{uri}' is plain http on a host other than loopback: use https, or \
             http://127.0.0.1 for an app on this machine"
        )),
        scheme if scheme.contains('.') => Ok(()),
        scheme => Err(format!(
            "redirect URI '{uri}' uses the scheme '{scheme}': use https, http on loopback, or \
             a private-use scheme in reverse-domain form (com.example.app:/callback)"
        )),
    }
}

/// Whether the `redirect_uri` of a request is one the client declared: the same string, except
/// that an `http` loopback redirect may use any port (RFC 8252 §7.3: a native app's listening
/// port is chosen when it runs).
pub fn redirect_uri_matches(registered: &str, requested: &str) -> bool {
    if registered == requested {
        return true;
    }
    let (Ok(mut a), Ok(mut b)) = (Url::parse(registered), Url::parse(requested)) else {
        return false;
    };
    if a.scheme() != "http" || b.scheme() != "http" || !is_loopback_host(&a) {
        return false;
    }
    // Both set to no port: what remains (host, path, query) must be identical.
    if a.set_port(None).is_err() || b.set_port(None).is_err() {
        return false;
    }
    a.as_str() == b.as_str()
}

/// The `redirect_uris` a client's metadata declares (empty when it declares none).
pub fn declared_redirect_uris(metadata: &serde_json::Value) -> Vec<&str> {
    metadata
        .get("redirect_uris")
        .and_then(|v| v.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default()
}

/// Whether a `client_id` is the URL of a Client ID Metadata Document: https with a path.
pub fn is_metadata_document_id(client_id: &str) -> bool {
    client_id.starts_with("https://")
        && Url::parse(client_id)
            .map(|u| u.path() != "/" && !u.path().is_empty())
            .unwrap_or(false)
}

/// Check a metadata document URL before fetching it: https, a host, a path other than `/`, no
/// `.`/`..` segments, no fragment, no user information; an IP literal host must be public
/// unless `allow_private`. (A host name is checked when it resolves, see
/// [`ip_is_public`].)
pub fn metadata_document_url(client_id: &str, allow_private: bool) -> Result<Url, String> {
    let url =
        Url::parse(client_id).map_err(|e| format!("client_id '{client_id}' is not a URL ({e})"))?;
    if url.scheme() != "https" {
        return Err("a client_id URL must use https".into());
    }
    if url.fragment().is_some() || !url.username().is_empty() || url.password().is_some() {
        return Err("a client_id URL must have no fragment and no user information".into());
    }
    if url.path() == "/" || url.path().is_empty() {
        return Err("a client_id URL must have a path".into());
    }
    // Url normalises dot segments away: a client_id that had them is not what it says.
    if url.as_str() != client_id
        || client_id
            .split('?')
            .next()
            .unwrap_or("")
            .split('/')
            .any(|s| s == "." || s == "..")
    {
        return Err(
            "a client_id URL must be in its normal form (lower-case scheme and host, no '.' or \
             '..' segments)"
                .into(),
        );
    }
    let literal = match url.host() {
        Some(url::Host::Ipv4(ip)) => Some(IpAddr::V4(ip)),
        Some(url::Host::Ipv6(ip)) => Some(IpAddr::V6(ip)),
        Some(url::Host::Domain(_)) => None,
        None => return Err("a client_id URL must have a host".into()),
    };
    if let Some(ip) = literal
        && !allow_private
        && !ip_is_public(ip)
    {
        return Err(
            "a client_id URL must not point to a private, loopback or reserved address".into(),
        );
    }
    Ok(url)
}

/// Whether an address is one the server may fetch a client's document from: not loopback,
/// private, link-local, shared, documentation, multicast, broadcast or unspecified (SSRF).
pub fn ip_is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => ipv4_is_public(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return ipv4_is_public(v4);
            }
            ipv6_is_public(v6)
        }
    }
}

fn ipv4_is_public(ip: Ipv4Addr) -> bool {
    let [a, b, _, _] = ip.octets();
    !(ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_documentation()
        || ip.is_multicast()
        || a == 0
        || a >= 240
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0 && ip.octets()[2] == 0)
        || (a == 198 && (b == 18 || b == 19)))
}

fn ipv6_is_public(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    !(ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (s[0] & 0xfe00) == 0xfc00 // unique local
        || (s[0] & 0xffc0) == 0xfe80 // link-local
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
        || (s[0] == 0x0064 && s[1] == 0xff9b) // NAT64, may reach IPv4 private space
        || (s[0] == 0x2002)) // 6to4, likewise
}

/// Validate a fetched Client ID Metadata Document: JSON object, `client_id` exactly the URL it
/// was fetched from, at least one acceptable `redirect_uris`, a public client (no secret, no
/// `client_secret_*` authentication).
pub fn validate_metadata_document(
    client_id: &str,
    body: &[u8],
) -> Result<serde_json::Value, String> {
    let doc: serde_json::Value = serde_json::from_slice(body)
        .map_err(|e| format!("the client's metadata document is not JSON ({e})"))?;
    if !doc.is_object() {
        return Err("the client's metadata document is not a JSON object".into());
    }
    match doc.get("client_id").and_then(|v| v.as_str()) {
        Some(id) if id == client_id => {}
        Some(_) => {
            return Err(
                "the client's metadata document names another client_id than its URL".into(),
            );
        }
        None => return Err("the client's metadata document has no client_id".into()),
    }
    if doc.get("client_secret").is_some() || doc.get("client_secret_expires_at").is_some() {
        return Err("a client metadata document must not contain a client secret".into());
    }
    match doc
        .get("token_endpoint_auth_method")
        .and_then(|v| v.as_str())
    {
        None | Some("none") | Some("private_key_jwt") => {}
        Some(other) => {
            return Err(format!(
                "token_endpoint_auth_method '{other}' needs a shared secret: a metadata document \
                 client is public ('none')"
            ));
        }
    }
    let uris = declared_redirect_uris(&doc);
    if uris.is_empty() {
        return Err("the client's metadata document lists no redirect_uris".into());
    }
    for uri in &uris {
        redirect_uri_acceptable(uri)?;
    }
    Ok(doc)
}

/// Validate a Dynamic Client Registration request (RFC 7591 §2) for a public client and return
/// the metadata kept (what the server understood), or `(error, description)`.
pub fn validate_registration(
    request: &serde_json::Value,
) -> Result<serde_json::Value, (&'static str, String)> {
    let meta = |d: &str| ("invalid_client_metadata", d.to_string());
    let Some(obj) = request.as_object() else {
        return Err(meta("the registration must be a JSON object"));
    };
    match obj.get("token_endpoint_auth_method") {
        None => {}
        Some(serde_json::Value::String(m)) if m == "none" => {}
        Some(_) => {
            return Err(meta(
                "only public clients are registered here: token_endpoint_auth_method must be \
                 'none' (use PKCE)",
            ));
        }
    }
    let Some(uris) = obj.get("redirect_uris").and_then(|v| v.as_array()) else {
        return Err((
            "invalid_redirect_uri",
            "redirect_uris is required: a JSON array of the client's redirect URIs".into(),
        ));
    };
    if uris.is_empty() || uris.len() > 10 {
        return Err((
            "invalid_redirect_uri",
            "redirect_uris must list between 1 and 10 URIs".into(),
        ));
    }
    let mut kept_uris = Vec::new();
    for uri in uris {
        let Some(uri) = uri.as_str() else {
            return Err((
                "invalid_redirect_uri",
                "every redirect URI must be a string".into(),
            ));
        };
        if uri.len() > 2000 {
            return Err(("invalid_redirect_uri", "a redirect URI is too long".into()));
        }
        redirect_uri_acceptable(uri).map_err(|e| ("invalid_redirect_uri", e))?;
        kept_uris.push(serde_json::Value::String(uri.to_string()));
    }
    let strings = |key: &str, allowed: &[&str]| -> Result<Vec<String>, (&'static str, String)> {
        match obj.get(key) {
            None => Ok(allowed.iter().map(|s| s.to_string()).collect()),
            Some(serde_json::Value::Array(items)) => {
                let mut out = Vec::new();
                for item in items {
                    match item.as_str() {
                        Some(s) if allowed.contains(&s) => out.push(s.to_string()),
                        _ => {
                            return Err(meta(&format!(
                                "{key} may contain only {}",
                                allowed.join(", ")
                            )));
                        }
                    }
                }
                Ok(out)
            }
            Some(_) => Err(meta(&format!("{key} must be an array of strings"))),
        }
    };
    let grant_types = strings("grant_types", &["authorization_code", "refresh_token"])?;
    let response_types = strings("response_types", &["code"])?;
    let mut kept = serde_json::Map::new();
    kept.insert("redirect_uris".into(), serde_json::Value::Array(kept_uris));
    kept.insert("token_endpoint_auth_method".into(), "none".into());
    kept.insert("grant_types".into(), grant_types.into());
    kept.insert("response_types".into(), response_types.into());
    for key in [
        "client_name",
        "client_uri",
        "logo_uri",
        "software_id",
        "software_version",
    ] {
        match obj.get(key) {
            None => {}
            Some(serde_json::Value::String(s)) if s.chars().count() <= 200 => {
                kept.insert(key.into(), s.clone().into());
            }
            Some(_) => {
                return Err(meta(&format!(
                    "{key} must be a string of at most 200 characters"
                )));
            }
        }
    }
    if let Some(scope) = obj.get("scope") {
        let scope = scope
            .as_str()
            .ok_or_else(|| meta("scope must be a string"))?;
        let parsed = parse_scope(Some(scope)).map_err(|e| meta(&e))?;
        if let Some(parsed) = parsed {
            kept.insert("scope".into(), parsed.into());
        }
    }
    Ok(serde_json::Value::Object(kept))
}

/// Query or form parameters, refusing a parameter given twice (RFC 6749 §3.1).
pub fn parse_params(raw: &str) -> Result<HashMap<String, String>, String> {
    let mut out = HashMap::new();
    for (k, v) in url::form_urlencoded::parse(raw.as_bytes()) {
        if out.insert(k.to_string(), v.to_string()).is_some() {
            return Err(format!("the parameter '{k}' is given more than once"));
        }
    }
    Ok(out)
}

/// An `/authorize` request's parameters once its client and redirect URI are known good.
#[derive(Debug, Clone, PartialEq)]
pub struct AuthorizeRequest {
    pub code_challenge: String,
    pub state: Option<String>,
    /// Normalised; `None` when the client left the choice to the person.
    pub scope: Option<&'static str>,
}

/// What is wrong with an `/authorize` request after its client and redirect URI were validated:
/// `(error, description)`, sent back to the client's redirect URI.
pub fn check_authorize(
    params: &HashMap<String, String>,
    canonical_resource: &str,
) -> Result<AuthorizeRequest, (&'static str, String)> {
    match params.get("response_type").map(String::as_str) {
        Some("code") => {}
        None => return Err(("invalid_request", "response_type=code is required".into())),
        Some(other) => {
            return Err((
                "unsupported_response_type",
                format!("response_type '{other}' is not supported: use 'code'"),
            ));
        }
    }
    let Some(challenge) = params.get("code_challenge") else {
        return Err((
            "invalid_request",
            "code_challenge is required (PKCE with code_challenge_method=S256)".into(),
        ));
    };
    match params.get("code_challenge_method").map(String::as_str) {
        Some("S256") => {}
        None => {
            return Err((
                "invalid_request",
                "code_challenge_method=S256 is required (plain is not accepted)".into(),
            ));
        }
        Some(other) => {
            return Err((
                "invalid_request",
                format!("code_challenge_method '{other}' is not accepted: use S256"),
            ));
        }
    }
    if !is_s256_challenge(challenge) {
        return Err((
            "invalid_request",
            "code_challenge must be the base64url SHA-256 of the verifier (43 characters)".into(),
        ));
    }
    if let Some(resource) = params.get("resource")
        && resource != canonical_resource
    {
        return Err((
            "invalid_target",
            format!("this server issues tokens for the resource {canonical_resource} only"),
        ));
    }
    let scope =
        parse_scope(params.get("scope").map(String::as_str)).map_err(|e| ("invalid_scope", e))?;
    Ok(AuthorizeRequest {
        code_challenge: challenge.clone(),
        state: params.get("state").cloned(),
        scope,
    })
}

/// The scope granted by the person's choice on the consent page (`read` or `write`), within
/// what the client asked for (`None`: anything). `None` when the choice exceeds the request.
pub fn granted_scope(asked: &str, access: &str) -> Option<&'static str> {
    let allows_write = asked.is_empty() || scope_within("write", asked);
    match access {
        "read" => Some(SCOPE_READ),
        "write" if allows_write => Some(SCOPE_READ_WRITE),
        _ => None,
    }
}

/// `url` with query parameters appended (keeping any it has).
pub fn with_query(url: &str, params: &[(&str, &str)]) -> Result<String, String> {
    let mut url = Url::parse(url).map_err(|e| format!("'{url}' is not a URL ({e})"))?;
    {
        let mut q = url.query_pairs_mut();
        for (k, v) in params {
            q.append_pair(k, v);
        }
    }
    Ok(url.to_string())
}

/// Whether `s` has the shape of the random values this server makes (32 bytes in base64url):
/// a YNAB `state` or a consent id is nothing else.
pub fn is_random_token(s: &str) -> bool {
    s.len() == 43
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The cookie binding a consent page to the browser it was shown in (one per page, so that
/// two sign-ins in two tabs do not overwrite each other).
pub fn consent_cookie_name(consent_id: &str) -> String {
    format!("avenir_consent_{}", &sha256_hex(consent_id)[..16])
}

/// The value of cookie `name` among `Cookie` header values.
pub fn cookie_value<'a>(headers: impl Iterator<Item = &'a str>, name: &str) -> Option<&'a str> {
    headers
        .flat_map(|h| h.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// Escape text for HTML content and attribute values.
pub fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
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
        let other =
            br#"{"client_id":"https://evil.example/c.json","redirect_uris":["https://e/cb"]}"#;
        assert!(
            validate_metadata_document(id, other)
                .unwrap_err()
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
        assert!(consent_cookie_name("id").starts_with("avenir_consent_"));
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
}
