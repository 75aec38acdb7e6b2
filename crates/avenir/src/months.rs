//! Months as tools take them and answers write them: `current`, `last`, `YYYY-MM` or `YYYY-MM-01`
//! in (D7, D21, D35), `YYYY-MM-01` out. "Today" is always passed in, so every rule here is pure.

use crate::text::quoted;
use chrono::{Datelike, NaiveDate};
use std::fmt;

/// A calendar month (year and month number), ordered in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CalendarMonth {
    year: i32,
    month: u32,
}

impl CalendarMonth {
    /// The month `month` (1–12) of `year`; `None` for another month number.
    pub fn new(year: i32, month: u32) -> Option<Self> {
        (1..=12)
            .contains(&month)
            .then_some(CalendarMonth { year, month })
    }

    /// The month `date` falls in.
    pub fn of(date: NaiveDate) -> Self {
        CalendarMonth {
            year: date.year(),
            month: date.month(),
        }
    }

    pub fn year(self) -> i32 {
        self.year
    }

    pub fn month(self) -> u32 {
        self.month
    }

    /// The month before this one.
    pub fn previous(self) -> Self {
        if self.month == 1 {
            CalendarMonth {
                year: self.year - 1,
                month: 12,
            }
        } else {
            CalendarMonth {
                year: self.year,
                month: self.month - 1,
            }
        }
    }

    /// The month after this one.
    pub fn next(self) -> Self {
        if self.month == 12 {
            CalendarMonth {
                year: self.year + 1,
                month: 1,
            }
        } else {
            CalendarMonth {
                year: self.year,
                month: self.month + 1,
            }
        }
    }

    /// The month as YNAB writes it and every answer does (D7): `YYYY-MM-01`.
    pub fn label(self) -> String {
        format!("{:04}-{:02}-01", self.year, self.month)
    }

    /// `YYYY-MM`.
    pub fn key(self) -> String {
        format!("{:04}-{:02}", self.year, self.month)
    }

    /// Its first day, when chrono can represent it.
    pub fn first_day(self) -> Option<NaiveDate> {
        NaiveDate::from_ymd_opt(self.year, self.month, 1)
    }

    /// A month as YNAB sends it (`YYYY-MM-01`, or any valid `YYYY-MM-DD` of that month).
    pub fn from_ynab(text: &str) -> Option<Self> {
        let month = ascii_year_month(text.get(..7)?)?;
        let rest = text.get(7..)?;
        let valid_day = match rest.len() {
            0 => true,
            3 => {
                rest.starts_with('-')
                    && text.parse::<NaiveDate>().is_ok()
                    && rest.bytes().skip(1).all(|b| b.is_ascii_digit())
            }
            _ => false,
        };
        valid_day.then_some(month)
    }
}

impl fmt::Display for CalendarMonth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// `YYYY-MM` in ASCII digits with a month 01–12.
fn ascii_year_month(text: &str) -> Option<CalendarMonth> {
    let bytes = text.as_bytes();
    let shape = bytes.len() == 7
        && bytes[4] == b'-'
        && bytes
            .iter()
            .enumerate()
            .all(|(i, b)| i == 4 || b.is_ascii_digit());
    if !shape {
        return None;
    }
    let year = text.get(..4)?.parse::<i32>().ok()?;
    let month = text.get(5..7)?.parse::<u32>().ok()?;
    CalendarMonth::new(year, month)
}

/// A month argument as given, before "today" resolves it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MonthArg {
    /// `current`: today's month.
    Current,
    /// `last`: the month before today's (D21).
    Last,
    /// `YYYY-MM` or `YYYY-MM-01`.
    Given(CalendarMonth),
}

impl MonthArg {
    /// Read `value`, strictly: the whole string, ASCII only (D21, D22). `argument` names the
    /// argument in the error (`month`, `until`, D35).
    pub fn parse(argument: &str, value: &str) -> Result<Self, MonthError> {
        let given = match value {
            "current" => Some(MonthArg::Current),
            "last" => Some(MonthArg::Last),
            _ if value.len() == 7 => ascii_year_month(value).map(MonthArg::Given),
            _ if value.len() == 10 && value.ends_with("-01") => value
                .get(..7)
                .and_then(ascii_year_month)
                .map(MonthArg::Given),
            _ => None,
        };
        given.ok_or_else(|| MonthError {
            argument: argument.to_string(),
            value: value.to_string(),
        })
    }

    /// The month this argument names, "today" being `today` (the server resolves `current` and
    /// `last` itself, D21).
    pub fn resolve(self, today: NaiveDate) -> CalendarMonth {
        match self {
            MonthArg::Current => CalendarMonth::of(today),
            MonthArg::Last => CalendarMonth::of(today).previous(),
            MonthArg::Given(month) => month,
        }
    }
}

/// Parse and resolve a month argument in one step.
pub fn resolve_month(
    argument: &str,
    value: &str,
    today: NaiveDate,
) -> Result<CalendarMonth, MonthError> {
    MonthArg::parse(argument, value).map(|arg| arg.resolve(today))
}

/// A month argument that is none of the four forms. `Display` is the exact message of D21/D35.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonthError {
    pub argument: String,
    pub value: String,
}

impl fmt::Display for MonthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} must be 'current', 'last', YYYY-MM or YYYY-MM-01, got {}.",
            self.argument,
            quoted(&self.value)
        )
    }
}

impl std::error::Error for MonthError {}

/// The `n` calendar months before today's month (today's excluded), oldest first, crossing years
/// (`docs/contract/reads.md` §1.4).
pub fn full_months_before(today: NaiveDate, n: usize) -> Vec<CalendarMonth> {
    let mut months = Vec::with_capacity(n);
    let mut month = CalendarMonth::of(today);
    for _ in 0..n {
        month = month.previous();
        months.push(month);
    }
    months.reverse();
    months
}

/// The dates (`YYYY-MM-DD` text) that can fall in one of `months`, as a half-open range of
/// text `[from, to)`: a date outside it is in none of them, so a caller skips it without parsing.
/// `None` for no months.
pub fn date_range(months: &[CalendarMonth]) -> Option<(String, String)> {
    let first = months.iter().min()?.first_day()?;
    let end = months.iter().max()?.next().first_day()?;
    Some((first.to_string(), end.to_string()))
}

/// The month of the earliest of `dates` that is a YNAB date (`from_ynab`), parsing only a date
/// earlier than the earliest found so far (text order is date order for `YYYY-MM-DD`).
pub fn earliest_month<'a>(dates: impl IntoIterator<Item = &'a str>) -> Option<CalendarMonth> {
    let mut earliest: Option<(&str, CalendarMonth)> = None;
    for date in dates {
        if earliest.is_some_and(|(text, _)| date >= text) {
            continue;
        }
        if let Some(month) = CalendarMonth::from_ynab(date) {
            earliest = Some((date, month));
        }
    }
    earliest.map(|(_, month)| month)
}

/// The last `n` months YNAB holds up to today's month (§1.4 `held_months`): deleted months,
/// months budgeted ahead and labels that are not months are dropped; oldest first. Gaps stay.
pub fn held_months(
    months: &[ynab::models::Month],
    today: NaiveDate,
    n: usize,
) -> Vec<(CalendarMonth, &ynab::models::Month)> {
    let now = CalendarMonth::of(today);
    let mut held: Vec<(CalendarMonth, &ynab::models::Month)> = months
        .iter()
        .filter(|m| !m.deleted)
        .filter_map(|m| CalendarMonth::from_ynab(&m.month).map(|label| (label, m)))
        .filter(|(label, _)| *label <= now)
        .collect();
    held.sort_by_key(|(label, _)| *label);
    held.dedup_by_key(|(label, _)| *label);
    let skip = held.len().saturating_sub(n);
    held.split_off(skip)
}

/// Journaled as YNAB writes a month, `YYYY-MM-01`.
impl serde::Serialize for CalendarMonth {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.label())
    }
}

/// Read as YNAB writes a month (`YYYY-MM-01`, or `YYYY-MM`); anything else is refused.
impl<'de> serde::Deserialize<'de> for CalendarMonth {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        CalendarMonth::from_ynab(&text).ok_or_else(|| {
            serde::de::Error::invalid_value(serde::de::Unexpected::Other("text"), &"a month")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_date_range_of_months_and_the_earliest_month() {
        let today = NaiveDate::from_ymd_opt(2026, 1, 10).unwrap_or_default();
        let months = full_months_before(today, 3);
        assert_eq!(
            date_range(&months),
            Some(("2025-10-01".to_string(), "2026-01-01".to_string()))
        );
        assert_eq!(date_range(&[]), None);
        let dates = [
            "2026-03-02",
            "2025-13-01",
            "2025-12-31",
            "2025-11-30",
            "garbage",
            "2025-11",
        ];
        assert_eq!(
            earliest_month(dates),
            CalendarMonth::from_ynab("2025-11-01")
        );
        assert_eq!(earliest_month(["x", "2025-02-30"]), None);
    }

    proptest! {
        /// The earliest month is the least month of the dates that are dates.
        #[test]
        fn earliest_month_is_the_least_valid_month(dates in prop::collection::vec("20[0-9]{2}-[01][0-9]-[0-3][0-9]|[0-9x-]{0,10}", 0..12)) {
            let expected = dates.iter().filter_map(|d| CalendarMonth::from_ynab(d)).min();
            prop_assert_eq!(earliest_month(dates.iter().map(String::as_str)), expected);
        }
    }

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
    }

    fn month(y: i32, m: u32) -> CalendarMonth {
        CalendarMonth { year: y, month: m }
    }

    #[test]
    fn the_four_forms_resolve_against_today() {
        let today = day(2026, 9, 25);
        let resolve = |v: &str| resolve_month("month", v, today).map(CalendarMonth::label);
        assert_eq!(resolve("current"), Ok("2026-09-01".into()));
        assert_eq!(resolve("last"), Ok("2026-08-01".into()));
        assert_eq!(resolve("2026-09"), Ok("2026-09-01".into()));
        assert_eq!(resolve("2026-08-01"), Ok("2026-08-01".into()));
        assert_eq!(resolve("2031-12"), Ok("2031-12-01".into()));
        let january = day(2027, 1, 3);
        assert_eq!(
            resolve_month("month", "last", january).map(CalendarMonth::label),
            Ok("2026-12-01".into())
        );
    }

    #[test]
    fn anything_else_gets_the_exact_message() {
        for bad in [
            "2026-09-15",
            "previous",
            "",
            "2026-13",
            "2026-00-01",
            "2026-9",
            "2026-09-01\n",
            " 2026-09",
            "Current",
            "２０２６-09",
            "2026-09-1",
            "+026-09",
            "2026_09",
        ] {
            assert!(MonthArg::parse("month", bad).is_err(), "{bad:?} accepted");
        }
        let message = |v: &str| MonthArg::parse("month", v).map_err(|e| e.to_string());
        assert_eq!(
            message("2026-09-15"),
            Err("month must be 'current', 'last', YYYY-MM or YYYY-MM-01, got '2026-09-15'.".into())
        );
        assert_eq!(
            message("2026-09-01\n"),
            Err(
                "month must be 'current', 'last', YYYY-MM or YYYY-MM-01, got '2026-09-01\\n'."
                    .into()
            )
        );
        assert_eq!(
            message("it's"),
            Err("month must be 'current', 'last', YYYY-MM or YYYY-MM-01, got \"it's\".".into())
        );
        assert_eq!(
            MonthArg::parse("until", "soon").map_err(|e| e.to_string()),
            Err("until must be 'current', 'last', YYYY-MM or YYYY-MM-01, got 'soon'.".into())
        );
    }

    #[test]
    fn ynab_labels() {
        assert_eq!(CalendarMonth::from_ynab("2026-09-01"), Some(month(2026, 9)));
        assert_eq!(CalendarMonth::from_ynab("2026-09-17"), Some(month(2026, 9)));
        assert_eq!(CalendarMonth::from_ynab("2026-09"), Some(month(2026, 9)));
        assert_eq!(CalendarMonth::from_ynab("2026-02-30"), None);
        assert_eq!(CalendarMonth::from_ynab("current"), None);
        assert_eq!(month(2026, 9).key(), "2026-09");
        assert_eq!(month(2026, 9).to_string(), "2026-09-01");
    }

    #[test]
    fn full_months_before_cross_years() {
        let labels: Vec<String> = full_months_before(day(2026, 2, 10), 3)
            .into_iter()
            .map(CalendarMonth::key)
            .collect();
        assert_eq!(labels, ["2025-11", "2025-12", "2026-01"]);
        assert!(full_months_before(day(2026, 2, 10), 0).is_empty());
    }

    fn ynab_month(label: &str, deleted: bool) -> ynab::models::Month {
        ynab::models::Month {
            month: label.into(),
            note: None,
            income: 0,
            budgeted: 0,
            activity: 0,
            to_be_budgeted: 0,
            age_of_money: None,
            deleted,
            categories: None,
        }
    }

    /// Worked example 1 of `docs/contract/reads.md` §11.
    #[test]
    fn held_months_skip_deleted_and_future_months() {
        let months = vec![
            ynab_month("2026-11-01", false),
            ynab_month("2026-10-01", false),
            ynab_month("2026-09-01", false),
            ynab_month("2026-08-01", false),
            ynab_month("2026-07-01", true),
            ynab_month("2026-06-01", false),
            ynab_month("2026-05-01", false),
        ];
        let today = day(2026, 9, 24);
        let labels = |n| -> Vec<String> {
            held_months(&months, today, n)
                .into_iter()
                .map(|(m, _)| m.label())
                .collect()
        };
        assert_eq!(labels(3), ["2026-06-01", "2026-08-01", "2026-09-01"]);
        assert_eq!(
            labels(24),
            ["2026-05-01", "2026-06-01", "2026-08-01", "2026-09-01"]
        );
        assert!(held_months(&[], today, 3).is_empty());
    }

    proptest! {
        #[test]
        fn written_months_read_back(year in 0i32..=9999, m in 1u32..=12) {
            let given = month(year, m);
            prop_assert_eq!(MonthArg::parse("month", &given.key()), Ok(MonthArg::Given(given)));
            prop_assert_eq!(MonthArg::parse("month", &given.label()), Ok(MonthArg::Given(given)));
            prop_assert_eq!(CalendarMonth::from_ynab(&given.label()), Some(given));
            prop_assert_eq!(given.next().previous(), given);
            prop_assert!(given.previous() < given && given < given.next());
        }

        #[test]
        fn last_is_the_month_before_current(days in 0i64..3_000_000) {
            let today = day(1, 1, 1) + chrono::Duration::days(days);
            let current = MonthArg::Current.resolve(today);
            prop_assert_eq!(MonthArg::Last.resolve(today), current.previous());
            prop_assert_eq!(current.first_day().map(CalendarMonth::of), Some(current));
        }

        #[test]
        fn full_months_before_are_consecutive(days in 400i64..3_000_000, n in 0usize..40) {
            let today = day(1, 1, 1) + chrono::Duration::days(days);
            let months = full_months_before(today, n);
            prop_assert_eq!(months.len(), n);
            for pair in months.windows(2) {
                prop_assert_eq!(pair[0].next(), pair[1]);
            }
            if let Some(last) = months.last() {
                prop_assert_eq!(last.next(), CalendarMonth::of(today));
            }
        }

        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,12}") {
            let _ = MonthArg::parse("month", &text);
            let _ = CalendarMonth::from_ynab(&text);
        }
    }
}
