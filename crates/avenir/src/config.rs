//! The server's settings, read once from the environment at start (`docs/contract/server.md` §1.1).
//! Anything that must be read at each request (token, base URL) stays in the YNAB layer.

use chrono::NaiveDate;

/// What the server was started with.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// `AVENIR_MCP_WRITE=1` exactly: the write gate is open.
    pub writes_enabled: bool,
    /// `AVENIR_MCP_TODAY=YYYY-MM-DD`: "today" pinned; otherwise the UTC date.
    pub today: Option<NaiveDate>,
    /// `AVENIR_MCP_FRESH_SECONDS` (default 0): reads within this many seconds of the last sync
    /// of a plan are answered from the cache with no YNAB request.
    pub fresh_seconds: u64,
    /// `AVENIR_MCP_CONFIDENCE_THRESHOLD` (default 0.90): the share of a payee's history that
    /// must agree before `suggest_categories` suggests a category.
    pub confidence_threshold: ConfidenceThreshold,
    /// What may confirm a write: `AVENIR_MCP_CONFIRM` (`answer`, `by-risk` — the default — or
    /// `codes`); `AVENIR_MCP_REQUIRE_ELICITATION=1` exactly means `answer`.
    pub confirm: crate::confirmations::ConfirmPolicy,
    /// Where the journal is; `None`: `AVENIR_MCP_JOURNAL` or the default, evaluated at each use.
    pub journal: Option<std::path::PathBuf>,
    /// `AVENIR_MCP_CACHE=1` exactly: the directory of the plan cache kept between runs
    /// (`$XDG_CACHE_HOME/avenir-mcp`, else `~/.cache/avenir-mcp`); `None`: plans stay in memory.
    pub cache: Option<std::path::PathBuf>,
    /// The toolsets whose tools are listed: `AVENIR_MCP_TOOLSETS` (names separated by commas,
    /// `default` or `all`; unset: the default toolsets).
    pub toolsets: crate::tools::toolsets::Toolsets,
    /// `AVENIR_MCP_DYNAMIC_TOOLSETS=1` exactly: a session of 2025-11-25 starts with a small core
    /// and enables toolsets as it needs them (`server::dynamic`).
    pub dynamic_toolsets: bool,
    /// `AVENIR_MCP_CONFORMANCE_FIXTURES=1` exactly, in a debug build: the official conformance
    /// suite's fixtures are served beside the product (`crate::conformance`). A release build
    /// has none, and refuses the variable rather than ignore it.
    pub conformance_fixtures: bool,
    /// The server runs for others (the hosted mode, `Context::hosted`): it reads no file of its
    /// own machine on a caller's behalf (`compare_statement`'s `path`).
    pub hosted: bool,
}

/// A share from 0 to 1; 0.90 unless `AVENIR_MCP_CONFIDENCE_THRESHOLD` says otherwise.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct ConfidenceThreshold(f64);

impl ConfidenceThreshold {
    /// The default of `docs/contract/server.md` §1.1.
    pub const DEFAULT: ConfidenceThreshold = ConfidenceThreshold(0.90);

    /// A threshold from 0 to 1 (inclusive); `None` for anything else (NaN included).
    pub fn new(share: f64) -> Option<Self> {
        (0.0..=1.0)
            .contains(&share)
            .then_some(ConfidenceThreshold(share))
    }

    pub fn get(self) -> f64 {
        self.0
    }
}

impl Default for ConfidenceThreshold {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// `AVENIR_MCP_CONFIDENCE_THRESHOLD`: a decimal number from 0 to 1.
pub fn parse_confidence_threshold(value: &str) -> Result<ConfidenceThreshold, String> {
    value
        .trim()
        .parse::<f64>()
        .ok()
        .and_then(ConfidenceThreshold::new)
        .ok_or_else(|| {
            format!(
                "AVENIR_MCP_CONFIDENCE_THRESHOLD must be a number from 0 to 1 (such as 0.90), got {}.",
                crate::text::quoted(value)
            )
        })
}

impl Settings {
    /// Read the environment. A malformed `AVENIR_MCP_TODAY` is a startup error naming the variable.
    pub fn from_env() -> Result<Self, String> {
        let writes_enabled = std::env::var("AVENIR_MCP_WRITE").as_deref() == Ok("1");
        let today = match std::env::var("AVENIR_MCP_TODAY") {
            Ok(value) if !value.is_empty() => Some(parse_today(&value)?),
            _ => None,
        };
        let fresh_seconds = match std::env::var("AVENIR_MCP_FRESH_SECONDS") {
            Ok(value) if !value.trim().is_empty() => value.trim().parse::<u64>().map_err(|_| {
                format!(
                    "AVENIR_MCP_FRESH_SECONDS must be a whole number of seconds (0 or more), got {}.",
                    crate::text::quoted(&value)
                )
            })?,
            _ => 0,
        };
        let confirm = crate::confirmations::ConfirmPolicy::from_env(
            std::env::var("AVENIR_MCP_CONFIRM").ok().as_deref(),
            std::env::var("AVENIR_MCP_REQUIRE_ELICITATION").as_deref() == Ok("1"),
        )
        .map_err(|error| error.to_string())?;
        let confidence_threshold = match std::env::var("AVENIR_MCP_CONFIDENCE_THRESHOLD") {
            Ok(value) if !value.trim().is_empty() => parse_confidence_threshold(&value)?,
            _ => ConfidenceThreshold::DEFAULT,
        };
        let cache = if std::env::var("AVENIR_MCP_CACHE").as_deref() == Ok("1") {
            Some(crate::store::plan_cache::location().map_err(|why| {
                format!("AVENIR_MCP_CACHE=1 asks for a plan cache on disk, but {why}: set one, or unset AVENIR_MCP_CACHE.")
            })?)
        } else {
            None
        };
        let toolsets = crate::tools::toolsets::Toolsets::parse(
            &std::env::var("AVENIR_MCP_TOOLSETS").unwrap_or_default(),
        )
        .map_err(|error| error.to_string())?;
        Ok(Settings {
            writes_enabled,
            today,
            fresh_seconds,
            confidence_threshold,
            confirm,
            toolsets,
            dynamic_toolsets: std::env::var("AVENIR_MCP_DYNAMIC_TOOLSETS").as_deref() == Ok("1"),
            journal: None,
            cache,
            conformance_fixtures: conformance_fixtures()?,
            hosted: false,
        })
    }

    /// "Today": the pinned date, or the UTC date.
    pub fn today(&self) -> NaiveDate {
        self.today
            .unwrap_or_else(|| chrono::Utc::now().date_naive())
    }
}

/// `AVENIR_MCP_CONFORMANCE_FIXTURES=1`: only a debug build has the fixtures to serve.
fn conformance_fixtures() -> Result<bool, String> {
    let asked = std::env::var("AVENIR_MCP_CONFORMANCE_FIXTURES").as_deref() == Ok("1");
    if asked && !cfg!(debug_assertions) {
        return Err("AVENIR_MCP_CONFORMANCE_FIXTURES=1 is for the MCP conformance suite, which runs a debug build (scripts/conformance/run.sh); this release build has no fixtures to serve: unset it.".to_string());
    }
    Ok(asked)
}

/// `YYYY-MM-DD`, strictly.
pub fn parse_today(value: &str) -> Result<NaiveDate, String> {
    let ok_shape = value.len() == 10
        && value.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    ok_shape
        .then(|| NaiveDate::parse_from_str(value, "%Y-%m-%d").ok())
        .flatten()
        .ok_or_else(|| {
            format!(
                "AVENIR_MCP_TODAY must be a date as YYYY-MM-DD, got {}.",
                crate::text::quoted(value)
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn today_is_strict() {
        assert_eq!(
            parse_today("2026-09-25"),
            NaiveDate::from_ymd_opt(2026, 9, 25).ok_or_else(String::new)
        );
        for bad in ["2026-9-25", "2026-02-30", "today", "2026-09-25 "] {
            assert!(parse_today(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn confidence_threshold_is_a_share() {
        assert_eq!(Settings::default().confidence_threshold.get(), 0.90);
        assert_eq!(
            parse_confidence_threshold(" 0.75 ").map(|t| t.get()),
            Ok(0.75)
        );
        assert_eq!(parse_confidence_threshold("1").map(|t| t.get()), Ok(1.0));
        assert_eq!(parse_confidence_threshold("0").map(|t| t.get()), Ok(0.0));
        for bad in ["abc", "1.5", "-0.1", "NaN", "inf", "90%"] {
            assert!(parse_confidence_threshold(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_confidence_threshold("high"),
            Err("AVENIR_MCP_CONFIDENCE_THRESHOLD must be a number from 0 to 1 (such as 0.90), got 'high'.".to_string())
        );
    }
}
