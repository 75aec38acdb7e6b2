//! How much one hosted instance holds and how long it waits: the bounds that keep a stranger (or
//! a bad day) from exhausting it. Each has a default chosen for thousands of people on one
//! instance and an environment variable to change it ([`Limits::from_env`]).

use std::time::Duration;

/// The bounds of one instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// MCP sessions one person may hold open on this instance; opening one more closes their
    /// least recently used (`AVENIR_MCP_MAX_SESSIONS_PER_PERSON`, 8).
    pub sessions_per_person: usize,
    /// MCP sessions on this instance; opening one more closes the least recently used of anyone
    /// (`AVENIR_MCP_MAX_SESSIONS`, 2,000).
    pub sessions_total: usize,
    /// A session without a request for this long is closed (`AVENIR_MCP_SESSION_IDLE_SECONDS`,
    /// 300).
    pub session_idle: Duration,
    /// Requests to `/mcp` per minute and person, with bursts of a sixth of it
    /// (`AVENIR_MCP_REQUESTS_PER_MINUTE`, 600; 0: no limit). YNAB's hourly budget is apart.
    pub requests_per_minute: u32,
    /// People whose context (plans, settings, YNAB client) is kept in memory; beyond it the
    /// least recently used is dropped and made again on their next call
    /// (`AVENIR_MCP_MAX_PEOPLE_IN_MEMORY`, 256).
    pub people_in_memory: usize,
    /// A person's context unused for this long is dropped (`AVENIR_MCP_PERSON_IDLE_SECONDS`,
    /// 600).
    pub person_idle: Duration,
    /// The longest a request waits on the database before it is answered 503
    /// (`AVENIR_MCP_DATABASE_TIMEOUT_SECONDS`, 5).
    pub storage_timeout: Duration,
    /// The longest a client may take to send a request's headers, and a kept-alive connection may
    /// stay silent (`AVENIR_MCP_HEADER_TIMEOUT_SECONDS`, 15).
    pub header_timeout: Duration,
    /// The longest a client may take to send a request's body (`AVENIR_MCP_BODY_TIMEOUT_SECONDS`,
    /// 30).
    pub body_timeout: Duration,
    /// The per-address rate limits of registration, `/authorize` and the token endpoint
    /// (`oauth::limits::RateLimits`) multiplied by this: N times the burst, N times as often
    /// (`AVENIR_MCP_OAUTH_LIMIT_SCALE`, 1). For a load test signing many people in from one
    /// address, or many people behind one address the server cannot tell apart.
    pub oauth_limit_scale: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            sessions_per_person: 8,
            sessions_total: 2_000,
            session_idle: Duration::from_secs(300),
            requests_per_minute: 600,
            people_in_memory: 256,
            person_idle: Duration::from_secs(600),
            storage_timeout: Duration::from_secs(5),
            header_timeout: Duration::from_secs(15),
            body_timeout: Duration::from_secs(30),
            oauth_limit_scale: 1,
        }
    }
}

/// The largest `AVENIR_MCP_OAUTH_LIMIT_SCALE`: registration's one a minute becomes one every
/// 6 ms, the token endpoint's burst 600,000.
pub const OAUTH_LIMIT_SCALE_MAX: u64 = 10_000;

/// A limit's variable holds something other than a whole number in its range.
#[derive(Debug, thiserror::Error)]
#[error("{name} must be a whole number from {min} to {max}, got {given:?}.")]
pub struct LimitError {
    name: &'static str,
    given: String,
    min: u64,
    max: u64,
}

/// `name`'s value when set (and not empty), else `default`; refused outside `min..=max`.
fn number(name: &'static str, default: u64, min: u64, max: u64) -> Result<u64, LimitError> {
    within(name, std::env::var(name).ok(), default, min, max)
}

/// `given` (variable `name`'s value) as a whole number in `min..=max`; `default` when absent or
/// empty.
fn within(
    name: &'static str,
    given: Option<String>,
    default: u64,
    min: u64,
    max: u64,
) -> Result<u64, LimitError> {
    let Some(given) = given.filter(|v| !v.trim().is_empty()) else {
        return Ok(default);
    };
    match given.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(LimitError {
            name,
            given,
            min,
            max,
        }),
    }
}

fn seconds(name: &'static str, default: Duration, max: u64) -> Result<Duration, LimitError> {
    number(name, default.as_secs(), 1, max).map(Duration::from_secs)
}

impl Limits {
    /// The defaults, each changed by its variable when set.
    pub fn from_env() -> Result<Limits, LimitError> {
        let d = Limits::default();
        let count =
            |name, default: usize, max| number(name, default as u64, 1, max).map(|n| n as usize);
        Ok(Limits {
            sessions_per_person: count(
                "AVENIR_MCP_MAX_SESSIONS_PER_PERSON",
                d.sessions_per_person,
                1_000,
            )?,
            sessions_total: count("AVENIR_MCP_MAX_SESSIONS", d.sessions_total, 1_000_000)?,
            session_idle: seconds("AVENIR_MCP_SESSION_IDLE_SECONDS", d.session_idle, 86_400)?,
            requests_per_minute: number(
                "AVENIR_MCP_REQUESTS_PER_MINUTE",
                d.requests_per_minute.into(),
                0,
                1_000_000,
            )? as u32,
            people_in_memory: count(
                "AVENIR_MCP_MAX_PEOPLE_IN_MEMORY",
                d.people_in_memory,
                1_000_000,
            )?,
            person_idle: seconds("AVENIR_MCP_PERSON_IDLE_SECONDS", d.person_idle, 86_400)?,
            storage_timeout: seconds(
                "AVENIR_MCP_DATABASE_TIMEOUT_SECONDS",
                d.storage_timeout,
                300,
            )?,
            header_timeout: seconds("AVENIR_MCP_HEADER_TIMEOUT_SECONDS", d.header_timeout, 600)?,
            body_timeout: seconds("AVENIR_MCP_BODY_TIMEOUT_SECONDS", d.body_timeout, 600)?,
            oauth_limit_scale: number(
                "AVENIR_MCP_OAUTH_LIMIT_SCALE",
                d.oauth_limit_scale.into(),
                1,
                OAUTH_LIMIT_SCALE_MAX,
            )? as u32,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_out_of_range_says_what_to_give() {
        let e = LimitError {
            name: "AVENIR_MCP_MAX_SESSIONS",
            given: "lots".into(),
            min: 1,
            max: 1_000_000,
        };
        assert_eq!(
            e.to_string(),
            "AVENIR_MCP_MAX_SESSIONS must be a whole number from 1 to 1000000, got \"lots\"."
        );
    }

    #[test]
    fn the_oauth_limit_scale_is_a_whole_factor_from_1() {
        let name = "AVENIR_MCP_OAUTH_LIMIT_SCALE";
        let scale = |given: Option<&str>| {
            within(name, given.map(str::to_string), 1, 1, OAUTH_LIMIT_SCALE_MAX)
        };
        assert_eq!(scale(None).ok(), Some(1), "unset: the default");
        assert_eq!(scale(Some(" ")).ok(), Some(1), "empty: the default");
        assert_eq!(scale(Some("50")).ok(), Some(50));
        assert_eq!(scale(Some(" 10000 ")).ok(), Some(10_000));
        for bad in ["0", "10001", "2.5", "-3", "many"] {
            let refused = scale(Some(bad)).expect_err(bad);
            assert_eq!(
                refused.to_string(),
                format!(
                    "AVENIR_MCP_OAUTH_LIMIT_SCALE must be a whole number from 1 to 10000, got {bad:?}."
                )
            );
        }
    }
}
