//! The server's settings, read once from the environment at start (`server.md` §1.1).
//! Anything that must be read at each request (token, base URL) stays in the YNAB layer.

use chrono::NaiveDate;

/// What the server was started with.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `AVENIR_MCP_WRITE=1` exactly: the write gate is open.
    pub writes_enabled: bool,
    /// `AVENIR_MCP_TODAY=YYYY-MM-DD`: "today" pinned; otherwise the UTC date.
    pub today: Option<NaiveDate>,
}

impl Settings {
    /// Read the environment. A malformed `AVENIR_MCP_TODAY` is a startup error naming the variable.
    pub fn from_env() -> Result<Self, String> {
        let writes_enabled = std::env::var("AVENIR_MCP_WRITE").as_deref() == Ok("1");
        let today = match std::env::var("AVENIR_MCP_TODAY") {
            Ok(value) if !value.is_empty() => Some(parse_today(&value)?),
            _ => None,
        };
        Ok(Settings {
            writes_enabled,
            today,
        })
    }

    /// "Today": the pinned date, or the UTC date.
    pub fn today(&self) -> NaiveDate {
        self.today
            .unwrap_or_else(|| chrono::Utc::now().date_naive())
    }
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
}
