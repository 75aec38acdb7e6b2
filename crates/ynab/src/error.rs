//! Every way a YNAB request can fail, each with the exact sentence a person is shown.
//! The wording is part of the interface (`docs/contract/server.md` §5, §7.2): tests compare it byte
//! for byte.

use crate::quote::quoted;

/// A failed YNAB request. `Display` is the message the tool returns as is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error(
        "YNAB_API_KEY environment variable is not set (nor YNAB_API_KEY_FILE, a file holding the token)"
    )]
    MissingToken,
    #[error(
        "The HTTP client cannot start ({0}): avenir-mcp cannot reach YNAB. Check the machine's TLS setup (certificates), then start again."
    )]
    ClientSetup(String),
    /// The hosted mode: the person's YNAB sign-in cannot be used (refresh refused, or never
    /// made); the sentence says where to sign in again.
    #[error("{0}")]
    SignIn(String),
    /// The hosted mode's YNAB 401: the person's sign-in is no longer accepted (revoked in YNAB).
    #[error("{0}")]
    SignInRefused(String),
    #[error("YNAB_API_KEY_FILE cannot be read: {0}")]
    TokenFileUnreadable(String),
    #[error("YNAB_API_KEY_FILE is readable by other users: run chmod 600 {0}")]
    TokenFileTooOpen(String),
    #[error(
        "AVENIR_MCP_YNAB_URL must start with https:// (plain http only for 127.0.0.1 or localhost), got {}.",
        quoted(.0)
    )]
    BadBaseUrl(String),
    #[error(
        "{} is not a YNAB id: use the ids returned by list_plans, list_accounts or the other tools.",
        quoted(.0)
    )]
    BadSegment(String),
    #[error(
        "YNAB 401: the token is invalid or was revoked; create a new Personal Access Token in YNAB's settings."
    )]
    Unauthorized,
    #[error(
        "YNAB 429: the limit of 200 requests per hour for this token is reached (other apps using the same token count too). avenir-mcp retries nothing and sends no request for {}. Tell the user; do not retry before then.",
        minutes(*.0)
    )]
    TooManyRequests(u64),
    #[error(
        "YNAB's limit of 200 requests per hour was reached. Nothing was sent: avenir-mcp calls YNAB again in {}. Tell the user; do not retry before then.",
        minutes(*.0)
    )]
    Paused(u64),
    #[error(
        "avenir-mcp sent {sent} requests to YNAB in the last hour, close to YNAB's limit of 200 per hour. Nothing was sent: the next request can leave in {}. Tell the user; do not retry before then.",
        minutes(*.seconds)
    )]
    BudgetSpent { sent: u32, seconds: u64 },
    #[error(
        "The request ledger {0} could not be used: nothing was sent to YNAB. Check that avenir-mcp's state directory is writable."
    )]
    Ledger(String),
    #[error(
        "YNAB could not send the whole plan {} at once, and this token reads several plans: pass the plan id from list_plans instead.",
        quoted(.0)
    )]
    AliasUnresolved(String),
    /// Any other status ≥ 400: `YNAB {status}: {detail}`.
    #[error("YNAB {status}: {detail}")]
    Status { status: u16, detail: String },
    /// A 2xx answer that is not JSON, or not the JSON YNAB documents.
    #[error("YNAB {status}: the answer was not JSON.")]
    NotJson { status: u16 },
    #[error(
        "The request reached YNAB but no answer came back ({cause}): the change may or may not be applied. Check with find_transactions / get_category_balances before trying again; do not repeat it blindly."
    )]
    MaybeApplied { cause: String },
    /// A change answered with a server error (5xx) or an answer that cannot be read: YNAB did not
    /// say it failed, so it may have been applied (D14).
    #[error(
        "YNAB answered {status} ({detail}) without confirming the change: it may or may not be applied. Check with find_transactions / get_category_balances before trying again; do not repeat it blindly."
    )]
    NotConfirmed { status: u16, detail: String },
    #[error(
        "YNAB could not be reached after {attempts} attempts ({cause}). Nothing was changed. Try again in a few minutes."
    )]
    Unreachable { attempts: u32, cause: String },
}

impl Error {
    /// The HTTP status YNAB answered, when the failure is one.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Unauthorized | Error::SignInRefused(_) => Some(401),
            Error::TooManyRequests(_) => Some(429),
            Error::Status { status, .. }
            | Error::NotJson { status }
            | Error::NotConfirmed { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// The request may have changed the plan: a change that left and got no answer that proves
    /// it failed (a timeout, a dropped connection, a 5xx, an answer that cannot be read).
    pub fn may_have_applied(&self) -> bool {
        matches!(
            self,
            Error::MaybeApplied { .. } | Error::NotConfirmed { .. }
        )
    }
}

/// `{minutes}` of the pacing messages: whole minutes rounded up, at least 1.
pub fn minutes(seconds: u64) -> String {
    let n = seconds.div_ceil(60).max(1);
    if n == 1 {
        "1 minute".to_string()
    } else {
        format!("{n} minutes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minutes_round_up_and_never_say_zero() {
        assert_eq!(minutes(0), "1 minute");
        assert_eq!(minutes(60), "1 minute");
        assert_eq!(minutes(61), "2 minutes");
        assert_eq!(minutes(600), "10 minutes");
    }

    #[test]
    fn messages_are_exact() {
        assert_eq!(
            Error::BadSegment("a/b".into()).to_string(),
            "'a/b' is not a YNAB id: use the ids returned by list_plans, list_accounts or the other tools."
        );
        assert_eq!(
            Error::BadBaseUrl("http://example.com/v1".into()).to_string(),
            "AVENIR_MCP_YNAB_URL must start with https:// (plain http only for 127.0.0.1 or localhost), got 'http://example.com/v1'."
        );
        assert_eq!(
            Error::Status {
                status: 404,
                detail: "Resource not found".into()
            }
            .to_string(),
            "YNAB 404: Resource not found"
        );
        assert_eq!(
            Error::ClientSetup("no TLS roots".into()).to_string(),
            "The HTTP client cannot start (no TLS roots): avenir-mcp cannot reach YNAB. Check the machine's TLS setup (certificates), then start again."
        );
    }
}
