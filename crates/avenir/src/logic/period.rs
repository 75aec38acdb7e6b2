//! A period between two dates, both included, as `find_transactions` and
//! `list_scheduled_transactions` take it: the end not before the start, at most 366 days apart.

use chrono::{Days, NaiveDate};

/// The longest span accepted, in days between the two dates.
pub const MAX_SPAN_DAYS: i64 = 366;

/// Days `list_scheduled_transactions` looks ahead when no end date is given.
pub const DEFAULT_LOOKAHEAD_DAYS: u64 = 30;

/// `since + 30 days`, the default end of a schedule window.
pub fn default_until(since: NaiveDate) -> NaiveDate {
    since
        .checked_add_days(Days::new(DEFAULT_LOOKAHEAD_DAYS))
        .unwrap_or(NaiveDate::MAX)
}

/// Check a period; the error is the sentence the tool returns (`docs/contract/reads.md` §6, §7).
pub fn check(since: NaiveDate, until: NaiveDate) -> Result<(), String> {
    if until < since {
        return Err(format!(
            "until_date {until} is before since_date {since}: swap them."
        ));
    }
    if (until - since).num_days() > MAX_SPAN_DAYS {
        return Err("The dates span more than 366 days: search a shorter period.".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> NaiveDate {
        crate::args::parse_date(text).expect("a date")
    }

    #[test]
    fn order_and_span() {
        assert_eq!(
            check(d("2026-09-15"), d("2026-09-09")),
            Err("until_date 2026-09-09 is before since_date 2026-09-15: swap them.".into())
        );
        assert_eq!(check(d("2025-09-14"), d("2026-09-15")), Ok(()));
        assert_eq!(
            check(d("2025-09-13"), d("2026-09-15")),
            Err("The dates span more than 366 days: search a shorter period.".into())
        );
        assert_eq!(check(d("2026-09-15"), d("2026-09-15")), Ok(()));
        assert_eq!(default_until(d("2026-09-24")), d("2026-10-24"));
    }
}
