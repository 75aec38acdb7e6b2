//! The small rules of the request path: the path-segment guard, how long a 429 pauses, the
//! cause named by a transport failure, and the wait between tries.

use crate::error::Error;
use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

/// The path-segment guard of `docs/contract/server.md` §5.2: `^[A-Za-z0-9][A-Za-z0-9_-]*$`, ASCII
/// only.
pub fn check_segment(segment: &str) -> Result<(), Error> {
    let mut chars = segment.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphanumeric());
    if first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        Ok(())
    } else {
        Err(Error::BadSegment(segment.to_string()))
    }
}

/// How long a 429 pauses everything: `Retry-After` seconds or HTTP-date, clamped to
/// [60, 3600]; 600 when absent or unreadable.
pub fn pause_seconds(retry_after: Option<&str>) -> u64 {
    retry_after
        .and_then(retry_after_seconds)
        .map_or(600, |seconds| seconds.clamp(60, 3600))
}

/// The seconds a `Retry-After` value asks to wait: a number of seconds, or an HTTP-date (0 when
/// past); `None` when it is neither.
pub fn retry_after_seconds(value: &str) -> Option<u64> {
    let value = value.trim();
    value
        .parse::<u64>()
        .ok()
        .or_else(|| httpdate_seconds_from_now(value))
}

/// Seconds from now until an HTTP-date (IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, or the
/// obsolete RFC 850 and asctime forms RFC 9110 asks recipients to accept), 0 when past.
fn httpdate_seconds_from_now(value: &str) -> Option<u64> {
    let at = httpdate::parse_http_date(value).ok()?;
    Some(
        at.duration_since(std::time::SystemTime::now())
            .map_or(0, |ahead| ahead.as_secs()),
    )
}

/// `{ErrorKind}: {detail}` for the transport-failure messages.
pub(super) fn cause(error: &reqwest::Error) -> String {
    let kind = if error.is_connect() && error.is_timeout() {
        "ConnectTimeout"
    } else if error.is_connect() {
        "ConnectError"
    } else if error.is_timeout() {
        "ReadTimeout"
    } else {
        "RemoteProtocolError"
    };
    let mut detail = String::new();
    let mut source = std::error::Error::source(error);
    while let Some(inner) = source {
        detail = inner.to_string();
        source = inner.source();
    }
    if detail.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}: {detail}")
    }
}

/// Full jitter: uniform in [0, 0.5 × 2^(try−1)) seconds.
pub(super) async fn backoff(tries_done: u32) {
    let ceiling_ms = 500u64 << (tries_done.saturating_sub(1)).min(10);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(tries_done);
    let wait = hasher.finish() % ceiling_ms;
    tokio::time::sleep(Duration::from_millis(wait)).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments() {
        for ok in [
            "last-used",
            "default",
            "2026-09-01",
            "b8498266-6a15-4db1-b7cb-8e7d804711e2",
            "a_b",
        ] {
            assert!(check_segment(ok).is_ok(), "{ok}");
        }
        for bad in ["", ".", "..", "a/b", "a?b", "a%20", "a b", "-x", "é", "_x"] {
            assert_eq!(
                check_segment(bad),
                Err(Error::BadSegment(bad.into())),
                "{bad}"
            );
        }
    }

    #[test]
    fn retry_after() {
        assert_eq!(pause_seconds(None), 600);
        assert_eq!(pause_seconds(Some("5")), 60);
        assert_eq!(pause_seconds(Some("120")), 120);
        assert_eq!(pause_seconds(Some("99999")), 3600);
        assert_eq!(pause_seconds(Some("soon")), 600);
        // a date in the past clamps to the minimum
        assert_eq!(pause_seconds(Some("Sun, 06 Nov 1994 08:49:37 GMT")), 60);
        assert_eq!(pause_seconds(Some("Sun, 06 Nov 1994 08:49:37 PST")), 600);
        // a date 15 minutes ahead pauses about 15 minutes
        let ahead = std::time::SystemTime::now() + std::time::Duration::from_secs(900);
        let paused = pause_seconds(Some(&httpdate::fmt_http_date(ahead)));
        assert!((895..=900).contains(&paused), "{paused}");
        assert_eq!(retry_after_seconds(" 3 "), Some(3));
        assert_eq!(
            retry_after_seconds("Sun, 06 Nov 1994 08:49:37 GMT"),
            Some(0)
        );
        assert_eq!(retry_after_seconds("soon"), None);
        assert_eq!(retry_after_seconds("-1"), None);
    }
}
