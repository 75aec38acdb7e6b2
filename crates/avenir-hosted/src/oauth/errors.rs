//! The authorization server's errors, as types: each says what was refused or what failed, in
//! the sentence the client, the person's page or the log shows.

use super::logic::MAX_METADATA_URL;

/// Why the server's public URL cannot be its issuer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IssuerError {
    #[error("the public URL '{given}' is not a URL ({source})")]
    NotUrl {
        given: String,
        source: url::ParseError,
    },
    #[error("the public URL '{0}' must have no query, fragment or user information")]
    ExtraParts(String),
    #[error("the public URL '{0}' must be https (http only on 127.0.0.1 or localhost)")]
    NotHttps(String),
}

/// A `scope` parameter named a scope this server does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown scope '{0}': ask for 'read' or 'read write'")]
pub struct UnknownScope(pub String);

/// Why a client may not be sent back to a redirect URI.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RedirectUriError {
    #[error("redirect URI '{uri}' is not a URL ({source})")]
    NotUrl {
        uri: String,
        source: url::ParseError,
    },
    #[error("redirect URI '{0}' has a fragment: remove the '#…' part")]
    Fragment(String),
    #[error("redirect URI '{0}' carries user information: remove it")]
    UserInfo(String),
    #[error(
        "redirect URI '{0}' is plain http on a host other than loopback: use https, or \
         http://127.0.0.1 for an app on this machine"
    )]
    PlainHttp(String),
    #[error(
        "redirect URI '{uri}' uses the scheme '{scheme}': use https, http on loopback, or a \
         private-use scheme in reverse-domain form (com.example.app:/callback)"
    )]
    Scheme { uri: String, scheme: String },
}

/// Why a `client_id` URL is not one a metadata document may be fetched from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MetadataUrlError {
    #[error("client_id '{client_id}' is not a URL ({source})")]
    NotUrl {
        client_id: String,
        source: url::ParseError,
    },
    #[error("a client_id URL must use https")]
    NotHttps,
    #[error("a client_id URL must have no fragment and no user information")]
    ExtraParts,
    #[error("a client_id URL must have a path")]
    NoPath,
    #[error(
        "a client_id URL must be in its normal form (lower-case scheme and host, no '.' or '..' \
         segments)"
    )]
    NotNormal,
    #[error("a client_id URL must have a host")]
    NoHost,
    #[error(
        "a client_id URL must have no query: the metadata document is known by its exact URL \
         (put a version in the path instead)"
    )]
    Query,
    #[error("a client_id URL must be at most {MAX_METADATA_URL} characters")]
    TooLong,
    #[error("a client_id URL must not point to a private, loopback or reserved address")]
    Private,
}

/// Why a fetched client metadata document is refused.
#[derive(Debug, thiserror::Error)]
pub enum DocumentError {
    #[error("the client's metadata document is not JSON ({0})")]
    NotJson(#[source] serde_json::Error),
    #[error("the client's metadata document is not a JSON object")]
    NotObject,
    #[error("the client's metadata document names another client_id than its URL")]
    OtherClientId,
    #[error("the client's metadata document has no client_id")]
    NoClientId,
    #[error("a client metadata document must not contain a client secret")]
    Secret,
    #[error(
        "token_endpoint_auth_method '{0}' needs a shared secret: a metadata document client is \
         public ('none')"
    )]
    SharedSecret(String),
    #[error("the client's metadata document lists no redirect_uris")]
    NoRedirectUris,
    #[error(transparent)]
    RedirectUri(#[from] RedirectUriError),
}

/// A query or form gave one parameter twice (RFC 6749 §3.1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the parameter '{0}' is given more than once")]
pub struct DuplicateParam(pub String);

/// A URL to add query parameters to is not a URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{url}' is not a URL ({source})")]
pub struct NotUrl {
    pub url: String,
    pub source: url::ParseError,
}

/// Why the HTTP client for metadata documents could not be made.
#[derive(Debug, thiserror::Error)]
pub enum MetadataClientError {
    #[error("an extra root certificate is not PEM ({0})")]
    NotPem(#[source] reqwest::Error),
    #[error("the metadata HTTP client could not be built ({0})")]
    Build(#[source] reqwest::Error),
}

/// Why a client's metadata document cannot be used; the sentence is shown on the page.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error(transparent)]
    Url(#[from] MetadataUrlError),
    #[error(transparent)]
    Document(#[from] DocumentError),
    #[error("the client's metadata document could not be fetched ({0})")]
    Unreachable(#[source] reqwest::Error),
    #[error(
        "the client's metadata document answered HTTP {0} (expected 200, redirects are not \
         followed)"
    )]
    Status(u16),
    #[error("the client's metadata document is larger than 5 KB")]
    TooLarge,
    #[error("the client's metadata document could not be read ({0})")]
    Unreadable(#[source] reqwest::Error),
}

/// Why the authorization server could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum OAuthSetupError {
    #[error(transparent)]
    Issuer(#[from] IssuerError),
    #[error(transparent)]
    MetadataClient(#[from] MetadataClientError),
    #[error("the HTTP client for YNAB could not be built ({0})")]
    YnabClient(#[source] reqwest::Error),
    #[error(transparent)]
    Limit(#[from] super::limits::EmptyLimit),
}

/// Why the client of an `/authorize` request is not one to sign in for; the sentence is shown on
/// the page.
#[derive(Debug, thiserror::Error)]
pub(super) enum ClientError {
    #[error("the server cannot read its storage right now: try again in a minute")]
    Storage,
    #[error(
        "The application '{0}' is not known here. It must register (POST /register) or use the \
         URL of its client metadata document as client_id."
    )]
    Unknown(String),
    #[error(transparent)]
    Document(#[from] FetchError),
}

/// Why YNAB's code could not be exchanged for YNAB's tokens (for the logs).
#[derive(Debug, thiserror::Error)]
pub(super) enum ExchangeError {
    #[error("YNAB's token endpoint could not be reached ({0})")]
    Unreachable(#[source] reqwest::Error),
    #[error("YNAB's token endpoint refused the code (HTTP {0})")]
    Refused(u16),
    #[error("YNAB's token answer was not understood ({0})")]
    Unreadable(#[source] reqwest::Error),
}
