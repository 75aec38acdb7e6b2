//! Where the client sends its requests and which token it sends: the base URL rule and the token
//! sources (`YNAB_API_KEY`, `YNAB_API_KEY_FILE`). The token is a secret type that never prints.

use crate::error::Error;
use std::fmt;
use std::path::PathBuf;

/// YNAB's own address.
pub const DEFAULT_BASE_URL: &str = "https://api.ynab.com/v1";

/// A YNAB Personal Access Token. `Debug` and `Display` show a mask, never the token.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    pub fn new(token: impl Into<String>) -> Self {
        Token(token.into())
    }

    /// The token itself, for the `Authorization` header and for nothing else.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(****)")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("****")
    }
}

/// Where the token comes from. It is read again at every request, so a rotated token file is
/// picked up without a restart.
#[derive(Clone)]
pub enum TokenSource {
    /// `YNAB_API_KEY` when non-empty, else the file named by `YNAB_API_KEY_FILE`.
    Environment,
    /// A file holding only the token (mode must grant nothing to group or others).
    File(PathBuf),
    /// A token given directly (the demo, tests).
    Fixed(Token),
    /// A token that changes (the hosted mode: a person's YNAB OAuth access token, refreshed
    /// before it expires), asked for before each request.
    Provided(std::sync::Arc<dyn ProvideToken>),
}

/// Where a [`TokenSource::Provided`] token comes from.
pub trait ProvideToken: Send + Sync + std::fmt::Debug {
    /// The token to send now (refreshed first when it is about to expire).
    fn current(
        &self,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<Token, Error>> + Send + '_>>;

    /// What a 401 from YNAB means for this token (by default, the personal token's sentence).
    fn unauthorized(&self) -> Error {
        Error::Unauthorized
    }
}

impl std::fmt::Debug for TokenSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenSource::Environment => f.write_str("Environment"),
            TokenSource::File(path) => f.debug_tuple("File").field(path).finish(),
            TokenSource::Fixed(token) => f.debug_tuple("Fixed").field(token).finish(),
            TokenSource::Provided(provider) => f.debug_tuple("Provided").field(provider).finish(),
        }
    }
}

impl TokenSource {
    /// The token to send now, asking a provider when there is one.
    pub async fn current(&self) -> Result<Token, Error> {
        match self {
            TokenSource::Provided(provider) => provider.current().await,
            _ => self.token(),
        }
    }

    /// The token to send now, or the exact error of `docs/contract/server.md` §7.2 (a provided
    /// token is only known through [`TokenSource::current`]).
    pub fn token(&self) -> Result<Token, Error> {
        match self {
            TokenSource::Fixed(token) => Ok(token.clone()),
            TokenSource::Provided(_) => Err(Error::SignIn(
                "this server's YNAB token is only known when a request is about to leave".into(),
            )),
            TokenSource::File(path) => read_token_file(path),
            TokenSource::Environment => {
                if let Some(value) = std::env::var_os("YNAB_API_KEY") {
                    let value = value.to_string_lossy().into_owned();
                    if !value.is_empty() {
                        return Ok(Token(value));
                    }
                }
                match std::env::var_os("YNAB_API_KEY_FILE") {
                    Some(path) if !path.is_empty() => read_token_file(&PathBuf::from(path)),
                    _ => Err(Error::MissingToken),
                }
            }
        }
    }
}

fn read_token_file(path: &PathBuf) -> Result<Token, Error> {
    let metadata = std::fs::metadata(path).map_err(|e| Error::TokenFileUnreadable(strerror(&e)))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if metadata.permissions().mode() & 0o077 != 0 {
            return Err(Error::TokenFileTooOpen(path.display().to_string()));
        }
    }
    #[cfg(not(unix))]
    let _ = metadata;
    let bytes = std::fs::read(path).map_err(|e| Error::TokenFileUnreadable(strerror(&e)))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::TokenFileUnreadable("the file is not UTF-8 text".to_string()))?;
    Ok(Token(text.trim().to_string()))
}

/// The OS's own text for an I/O error, without Rust's ` (os error N)` suffix.
fn strerror(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// The API base URL, kept as given (trailing `/` removed) and checked before each request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrl(String);

impl BaseUrl {
    pub fn new(url: impl Into<String>) -> Self {
        let url = url.into();
        BaseUrl(url.trim_end_matches('/').to_string())
    }

    /// `AVENIR_MCP_YNAB_URL` when set and non-empty, else YNAB's own address.
    pub fn from_env() -> Self {
        match std::env::var("AVENIR_MCP_YNAB_URL") {
            Ok(url) if !url.is_empty() => BaseUrl::new(url),
            _ => BaseUrl::new(DEFAULT_BASE_URL),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `https://…`, or `http://` only when the host is `127.0.0.1`, `localhost` or `::1`.
    pub fn check(&self) -> Result<&str, Error> {
        let url = self.0.as_str();
        let lower = url.to_ascii_lowercase();
        let allowed = match (
            lower.strip_prefix("https://"),
            lower.strip_prefix("http://"),
        ) {
            (Some(rest), _) => !host_of(rest).is_empty(),
            (None, Some(rest)) => is_loopback_host(host_of(rest)),
            (None, None) => false,
        };
        if allowed {
            Ok(url)
        } else {
            Err(Error::BadBaseUrl(url.to_string()))
        }
    }

    /// Whether the URL names this machine (proxies are never used for it).
    pub fn is_loopback(&self) -> bool {
        let lower = self.0.to_ascii_lowercase();
        let rest = lower
            .strip_prefix("http://")
            .or_else(|| lower.strip_prefix("https://"))
            .unwrap_or("");
        is_loopback_host(host_of(rest))
    }
}

/// The host part of `host[:port][/path…]`, without IPv6 brackets.
fn host_of(rest: &str) -> &str {
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        // user-info is never legitimate here; make the host unrecognisable
        return "";
    }
    if let Some(inner) = authority.strip_prefix('[') {
        return inner.split(']').next().unwrap_or("");
    }
    authority.split(':').next().unwrap_or("")
}

fn is_loopback_host(host: &str) -> bool {
    matches!(host, "127.0.0.1" | "localhost" | "::1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_url_rule() {
        assert!(BaseUrl::new("https://api.ynab.com/v1/").check().is_ok());
        assert_eq!(
            BaseUrl::new("https://api.ynab.com/v1/").as_str(),
            "https://api.ynab.com/v1"
        );
        assert!(BaseUrl::new("http://127.0.0.1:8765/v1").check().is_ok());
        assert!(BaseUrl::new("http://localhost/v1").check().is_ok());
        assert!(BaseUrl::new("http://[::1]:9/v1").check().is_ok());
        for bad in [
            "http://example.com/v1",
            "http://127.0.0.1.evil.com/v1",
            "http://localhost@evil.com/v1",
            "ftp://127.0.0.1/v1",
            "api.ynab.com/v1",
            "",
        ] {
            assert_eq!(
                BaseUrl::new(bad).check(),
                Err(Error::BadBaseUrl(bad.trim_end_matches('/').to_string())),
                "{bad}"
            );
        }
    }

    #[test]
    fn token_never_prints() {
        let token = Token::new("secret-value");
        assert!(!format!("{token:?} {token}").contains("secret"));
    }
}
