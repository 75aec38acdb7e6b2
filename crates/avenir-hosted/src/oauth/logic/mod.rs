//! The authorization server's decisions as plain functions (no I/O): PKCE, scopes, redirect
//! URIs, client metadata (registered or fetched), what an `/authorize` request lacks, and the
//! addresses a metadata document may not be fetched from.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use subtle::ConstantTimeEq;
use url::Url;

use super::errors::{
    DocumentError, DuplicateParam, IssuerError, MetadataUrlError, NotUrl, RedirectUriError,
    UnknownScope,
};

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
pub fn parse_scope(scope: Option<&str>) -> Result<Option<&'static str>, UnknownScope> {
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
            other => return Err(UnknownScope(other.to_string())),
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
pub fn check_public_url(public_url: &str) -> Result<(), IssuerError> {
    let url = Url::parse(public_url).map_err(|source| IssuerError::NotUrl {
        given: public_url.to_string(),
        source,
    })?;
    if url.query().is_some()
        || url.fragment().is_some()
        || !url.username().is_empty()
        || url.password().is_some()
    {
        return Err(IssuerError::ExtraParts(public_url.to_string()));
    }
    match url.scheme() {
        "https" if url.host().is_some() => Ok(()),
        "http" if is_loopback_host(&url) => Ok(()),
        _ => Err(IssuerError::NotHttps(public_url.to_string())),
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
pub fn redirect_uri_acceptable(uri: &str) -> Result<(), RedirectUriError> {
    let url = Url::parse(uri).map_err(|source| RedirectUriError::NotUrl {
        uri: uri.to_string(),
        source,
    })?;
    if url.fragment().is_some() {
        return Err(RedirectUriError::Fragment(uri.to_string()));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(RedirectUriError::UserInfo(uri.to_string()));
    }
    match url.scheme() {
        "https" if url.host().is_some() => Ok(()),
        "http" if is_loopback_host(&url) => Ok(()),
        "http" => Err(RedirectUriError::PlainHttp(uri.to_string())),
        scheme if scheme.contains('.') => Ok(()),
        scheme => Err(RedirectUriError::Scheme {
            uri: uri.to_string(),
            scheme: scheme.to_string(),
        }),
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

/// The longest client_id URL of a metadata document.
pub const MAX_METADATA_URL: usize = 2000;

/// Check a metadata document URL before fetching it: at most [`MAX_METADATA_URL`] characters,
/// https, a host, a path other than `/`, no `.`/`..` segments, no query (the document is
/// cached under its exact URL: query variants would each be a row), no fragment, no user
/// information; an IP literal host must be public
/// unless `allow_private`. (A host name is checked when it resolves, see
/// [`ip_is_public`].)
pub fn metadata_document_url(
    client_id: &str,
    allow_private: bool,
) -> Result<Url, MetadataUrlError> {
    let url = Url::parse(client_id).map_err(|source| MetadataUrlError::NotUrl {
        client_id: client_id.to_string(),
        source,
    })?;
    if client_id.len() > MAX_METADATA_URL {
        return Err(MetadataUrlError::TooLong);
    }
    if url.scheme() != "https" {
        return Err(MetadataUrlError::NotHttps);
    }
    if url.query().is_some() {
        return Err(MetadataUrlError::Query);
    }
    if url.fragment().is_some() || !url.username().is_empty() || url.password().is_some() {
        return Err(MetadataUrlError::ExtraParts);
    }
    if url.path() == "/" || url.path().is_empty() {
        return Err(MetadataUrlError::NoPath);
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
        return Err(MetadataUrlError::NotNormal);
    }
    let literal = match url.host() {
        Some(url::Host::Ipv4(ip)) => Some(IpAddr::V4(ip)),
        Some(url::Host::Ipv6(ip)) => Some(IpAddr::V6(ip)),
        Some(url::Host::Domain(_)) => None,
        None => return Err(MetadataUrlError::NoHost),
    };
    if let Some(ip) = literal
        && !allow_private
        && !ip_is_public(ip)
    {
        return Err(MetadataUrlError::Private);
    }
    Ok(url)
}

/// Whether an address is one the server may fetch a client's document from: not loopback,
/// private, link-local, site-local, shared, documentation, multicast, broadcast or unspecified,
/// nor an IPv6 form that carries an IPv4 address (mapped, compatible `::/96`, NAT64, 6to4,
/// Teredo) (SSRF).
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
        || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated, still routed privately)
        || s[..6] == [0; 6] // IPv4-compatible ::/96 (deprecated): an IPv4 address in disguise
        || (s[0] == 0x2001 && s[1] == 0x0000) // Teredo, tunnels to any IPv4 address
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
) -> Result<serde_json::Value, DocumentError> {
    let doc: serde_json::Value = serde_json::from_slice(body).map_err(DocumentError::NotJson)?;
    if !doc.is_object() {
        return Err(DocumentError::NotObject);
    }
    match doc.get("client_id").and_then(|v| v.as_str()) {
        Some(id) if id == client_id => {}
        Some(_) => return Err(DocumentError::OtherClientId),
        None => return Err(DocumentError::NoClientId),
    }
    if doc.get("client_secret").is_some() || doc.get("client_secret_expires_at").is_some() {
        return Err(DocumentError::Secret);
    }
    match doc
        .get("token_endpoint_auth_method")
        .and_then(|v| v.as_str())
    {
        None | Some("none") | Some("private_key_jwt") => {}
        Some(other) => return Err(DocumentError::SharedSecret(other.to_string())),
    }
    let uris = declared_redirect_uris(&doc);
    if uris.is_empty() {
        return Err(DocumentError::NoRedirectUris);
    }
    for uri in &uris {
        redirect_uri_acceptable(uri)?;
    }
    Ok(doc)
}

/// A refusal of a registration or an authorization request: the RFC 6749 / RFC 7591 error code
/// and its description.
pub type Refusal = (&'static str, String);

type JsonObject = serde_json::Map<String, serde_json::Value>;

fn invalid_metadata(description: &str) -> Refusal {
    ("invalid_client_metadata", description.to_string())
}

fn invalid_redirect_uri(description: impl Into<String>) -> Refusal {
    ("invalid_redirect_uri", description.into())
}

/// Validate a Dynamic Client Registration request (RFC 7591 §2) for a public client and return
/// the metadata kept (what the server understood), or `(error, description)`.
pub fn validate_registration(request: &serde_json::Value) -> Result<serde_json::Value, Refusal> {
    let Some(obj) = request.as_object() else {
        return Err(invalid_metadata("the registration must be a JSON object"));
    };
    match obj.get("token_endpoint_auth_method") {
        None => {}
        Some(serde_json::Value::String(m)) if m == "none" => {}
        Some(_) => {
            return Err(invalid_metadata(
                "only public clients are registered here: token_endpoint_auth_method must be \
                 'none' (use PKCE)",
            ));
        }
    }
    let kept_uris = registered_redirect_uris(obj)?;
    let grant_types = string_list(obj, "grant_types", &["authorization_code", "refresh_token"])?;
    let response_types = string_list(obj, "response_types", &["code"])?;
    let mut kept = serde_json::Map::new();
    kept.insert("redirect_uris".into(), serde_json::Value::Array(kept_uris));
    kept.insert("token_endpoint_auth_method".into(), "none".into());
    kept.insert("grant_types".into(), grant_types.into());
    kept.insert("response_types".into(), response_types.into());
    keep_descriptions(obj, &mut kept)?;
    if let Some(scope) = obj.get("scope") {
        let scope = scope
            .as_str()
            .ok_or_else(|| invalid_metadata("scope must be a string"))?;
        let parsed = parse_scope(Some(scope)).map_err(|e| invalid_metadata(&e.to_string()))?;
        if let Some(parsed) = parsed {
            kept.insert("scope".into(), parsed.into());
        }
    }
    let kept = serde_json::Value::Object(kept);
    if kept.to_string().len() > MAX_CLIENT_METADATA {
        return Err(invalid_metadata(&format!(
            "the registration is too large: at most {MAX_CLIENT_METADATA} bytes of metadata are \
             kept (shorten or remove redirect URIs and names)"
        )));
    }
    Ok(kept)
}

/// A registration's `redirect_uris`: 1 to 10 acceptable URIs of at most 2,000 characters.
fn registered_redirect_uris(obj: &JsonObject) -> Result<Vec<serde_json::Value>, Refusal> {
    let Some(uris) = obj.get("redirect_uris").and_then(|v| v.as_array()) else {
        return Err(invalid_redirect_uri(
            "redirect_uris is required: a JSON array of the client's redirect URIs",
        ));
    };
    if uris.is_empty() || uris.len() > 10 {
        return Err(invalid_redirect_uri(
            "redirect_uris must list between 1 and 10 URIs",
        ));
    }
    let mut kept_uris = Vec::new();
    for uri in uris {
        let Some(uri) = uri.as_str() else {
            return Err(invalid_redirect_uri("every redirect URI must be a string"));
        };
        if uri.len() > 2000 {
            return Err(invalid_redirect_uri("a redirect URI is too long"));
        }
        redirect_uri_acceptable(uri).map_err(|e| invalid_redirect_uri(e.to_string()))?;
        kept_uris.push(serde_json::Value::String(uri.to_string()));
    }
    Ok(kept_uris)
}

/// A registration's list `key`, each item one of `allowed` (all of them when absent).
fn string_list(obj: &JsonObject, key: &str, allowed: &[&str]) -> Result<Vec<String>, Refusal> {
    match obj.get(key) {
        None => Ok(allowed.iter().map(|s| s.to_string()).collect()),
        Some(serde_json::Value::Array(items)) => {
            let mut out = Vec::new();
            for item in items {
                match item.as_str() {
                    Some(s) if allowed.contains(&s) => out.push(s.to_string()),
                    _ => {
                        return Err(invalid_metadata(&format!(
                            "{key} may contain only {}",
                            allowed.join(", ")
                        )));
                    }
                }
            }
            Ok(out)
        }
        Some(_) => Err(invalid_metadata(&format!(
            "{key} must be an array of strings"
        ))),
    }
}

/// The descriptive strings a registration may carry, kept when at most 200 characters.
fn keep_descriptions(obj: &JsonObject, kept: &mut JsonObject) -> Result<(), Refusal> {
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
                return Err(invalid_metadata(&format!(
                    "{key} must be a string of at most 200 characters"
                )));
            }
        }
    }
    Ok(())
}

/// Query or form parameters, refusing a parameter given twice (RFC 6749 §3.1).
pub fn parse_params(raw: &str) -> Result<HashMap<String, String>, DuplicateParam> {
    let mut out = HashMap::new();
    for (k, v) in url::form_urlencoded::parse(raw.as_bytes()) {
        if out.insert(k.to_string(), v.to_string()).is_some() {
            return Err(DuplicateParam(k.to_string()));
        }
    }
    Ok(out)
}

/// The longest `state` an `/authorize` request may carry (it is kept until the sign-in ends).
pub const MAX_STATE: usize = 1024;

/// The most metadata a registration keeps, as JSON (redirect URIs, names, …).
pub const MAX_CLIENT_METADATA: usize = 4096;

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
) -> Result<AuthorizeRequest, Refusal> {
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
    let scope = parse_scope(params.get("scope").map(String::as_str))
        .map_err(|e| ("invalid_scope", e.to_string()))?;
    if params.get("state").is_some_and(|s| s.len() > MAX_STATE) {
        return Err((
            "invalid_request",
            format!("state is longer than {MAX_STATE} bytes: send a shorter one"),
        ));
    }
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
pub fn with_query(url: &str, params: &[(&str, &str)]) -> Result<String, NotUrl> {
    let mut url = Url::parse(url).map_err(|source| NotUrl {
        url: url.to_string(),
        source,
    })?;
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
/// two sign-ins in two tabs do not overwrite each other). On an https server it is a `__Host-`
/// cookie: `Secure`, `Path=/`, no `Domain`, so that no other host of the domain can set it.
pub fn consent_cookie_name(consent_id: &str, https: bool) -> String {
    let prefix = if https { "__Host-" } else { "" };
    format!("{prefix}avenir_consent_{}", &sha256_hex(consent_id)[..16])
}

/// The value of cookie `name` among `Cookie` header values.
pub fn cookie_value<'a>(headers: impl Iterator<Item = &'a str>, name: &str) -> Option<&'a str> {
    headers
        .flat_map(|h| h.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

pub use avenir::text::html_escape;

#[cfg(test)]
mod tests;
