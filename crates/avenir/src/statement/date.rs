//! Dates of CSV and QIF files: `DD/MM/YYYY`, `MM/DD/YYYY`, `YYYY-MM-DD`, `DD.MM.YYYY`, `YYYYMMDD`,
//! two-digit years (read as 20xx, like QIF's `12/31'25`), a time after the date ignored.
//!
//! Which of day and month comes first is decided for the whole file by its own dates: a first
//! number over 12 can only be a day, a second one over 12 only a day too. When no date decides,
//! the caller's `date_order` is used, else day first with an [`Assumption`] saying so; dotted
//! dates are day first by convention and need no assumption.

use super::error::{Place, Shown, StatementError};
use super::{Assumption, DateOrder};
use chrono::NaiveDate;

/// What a date error says the file should have.
pub const EXPECTED: &str = "DD/MM/YYYY, MM/DD/YYYY, YYYY-MM-DD or DD.MM.YYYY";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Year, month, day.
    YearFirst,
    /// Day and month in either order, then the year, separated by `/` or `-`.
    YearLast,
    /// Like `YearLast`, separated by dots: day first unless a date says otherwise.
    Dotted,
}

/// A date split into its numbers, before the order of day and month is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Split {
    first: u32,
    second: u32,
    year: i32,
    layout: Layout,
}

impl Split {
    /// The order this date alone shows, if any.
    fn shows(self) -> Option<DateOrder> {
        if self.layout == Layout::YearFirst {
            return None;
        }
        match (self.first > 12, self.second > 12) {
            (true, false) => Some(DateOrder::DayFirst),
            (false, true) => Some(DateOrder::MonthFirst),
            _ => None,
        }
    }

    /// Whether reading it one way or the other gives two different days.
    fn ambiguous(self) -> bool {
        self.layout == Layout::YearLast && self.shows().is_none() && self.first != self.second
    }

    fn resolve(self, order: DateOrder) -> Option<NaiveDate> {
        let (month, day) = match (self.layout, order) {
            (Layout::YearFirst, _) | (_, DateOrder::MonthFirst) => (self.first, self.second),
            (_, DateOrder::DayFirst) => (self.second, self.first),
        };
        NaiveDate::from_ymd_opt(self.year, month, day)
    }
}

/// One date cell of the file: its text and where it is.
pub struct Cell<'a> {
    pub text: &'a str,
    pub at: Place,
}

/// The dates of `cells`, in order, with the assumption made about their order if one was needed.
pub fn read_all(
    cells: &[Cell<'_>],
    asked: Option<DateOrder>,
) -> Result<(Vec<NaiveDate>, Option<Assumption>), StatementError> {
    let bad = |cell: &Cell<'_>| StatementError::BadDate {
        at: cell.at.clone(),
        text: Shown::new(cell.text),
        expected: EXPECTED,
    };
    let mut splits = Vec::with_capacity(cells.len());
    for cell in cells {
        splits.push(split(cell.text).ok_or_else(|| bad(cell))?);
    }
    let (order, assumption) = decide(cells, &splits, asked)?;
    let dates = cells
        .iter()
        .zip(&splits)
        .map(|(cell, s)| s.resolve(order).ok_or_else(|| bad(cell)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((dates, assumption))
}

fn decide(
    cells: &[Cell<'_>],
    splits: &[Split],
    asked: Option<DateOrder>,
) -> Result<(DateOrder, Option<Assumption>), StatementError> {
    let shown = |order| splits.iter().position(|s| s.shows() == Some(order));
    let (day, month) = (shown(DateOrder::DayFirst), shown(DateOrder::MonthFirst));
    if let (Some(d), Some(m)) = (day, month) {
        return Err(StatementError::DateOrderConflict {
            day_first: cells[d].at.clone(),
            day_first_text: Shown::new(cells[d].text),
            month_first: cells[m].at.clone(),
            month_first_text: Shown::new(cells[m].text),
        });
    }
    let file = match (day, month) {
        (Some(i), _) => Some((DateOrder::DayFirst, i)),
        (_, Some(i)) => Some((DateOrder::MonthFirst, i)),
        _ => None,
    };
    match (asked, file) {
        (Some(asked), Some((order, i))) if asked != order => {
            Err(StatementError::DateOrderContradicted {
                asked,
                at: cells[i].at.clone(),
                text: Shown::new(cells[i].text),
            })
        }
        (Some(asked), _) => Ok((asked, None)),
        (None, Some((order, _))) => Ok((order, None)),
        (None, None) if splits.iter().any(|s| s.ambiguous()) => Ok((
            DateOrder::DayFirst,
            Some(Assumption::DateOrder(DateOrder::DayFirst)),
        )),
        (None, None) => Ok((DateOrder::DayFirst, None)),
    }
}

/// Whether `text` has the shape of a date read here (the day itself is checked later).
pub fn is_date(text: &str) -> bool {
    split(text).is_some()
}

/// The numbers of a date, or `None` when the text is not one of the shapes read.
fn split(text: &str) -> Option<Split> {
    let token = text.trim().split([' ', 'T']).next().unwrap_or_default();
    if token.len() == 8 && token.bytes().all(|b| b.is_ascii_digit()) {
        return compact(token);
    }
    let parts: Vec<&str> = token.split(['/', '-', '.', '\'']).collect();
    let [a, b, c] = parts.as_slice() else {
        return None;
    };
    let number = |p: &str| {
        (!p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit()))
            .then(|| p.parse::<u32>().ok())
            .flatten()
    };
    let (na, nb, nc) = (number(a)?, number(b)?, number(c)?);
    let dotted = token.contains('.');
    match (a.len(), b.len(), c.len()) {
        (4, 1..=2, 1..=2) => Some(Split {
            first: nb,
            second: nc,
            year: i32::try_from(na).ok()?,
            layout: Layout::YearFirst,
        }),
        (1..=2, 1..=2, 2 | 4) => Some(Split {
            first: na,
            second: nb,
            year: i32::try_from(if c.len() == 2 { 2000 + nc } else { nc }).ok()?,
            layout: if dotted {
                Layout::Dotted
            } else {
                Layout::YearLast
            },
        }),
        _ => None,
    }
}

/// `YYYYMMDD`.
fn compact(token: &str) -> Option<Split> {
    Some(Split {
        first: token.get(4..6)?.parse().ok()?,
        second: token.get(6..8)?.parse().ok()?,
        year: token.get(0..4)?.parse().ok()?,
        layout: Layout::YearFirst,
    })
}

/// An OFX date, `YYYYMMDD` followed by a time and zone that do not matter here.
pub fn ofx(text: &str) -> Option<NaiveDate> {
    let head = text.trim().get(0..8)?;
    let s = compact(head).filter(|_| head.bytes().all(|b| b.is_ascii_digit()))?;
    s.resolve(DateOrder::MonthFirst)
}

/// An ISO 8601 date or date-time (`2026-09-19`, `2026-09-19T10:00:00+02:00`), as camt.053 writes.
pub fn iso(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text.trim().get(0..10)?, "%Y-%m-%d").ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str, order: DateOrder) -> Option<NaiveDate> {
        split(text)?.resolve(order)
    }

    fn day(y: i32, m: u32, d: u32) -> Option<NaiveDate> {
        NaiveDate::from_ymd_opt(y, m, d)
    }

    #[test]
    fn shapes() {
        let dm = DateOrder::DayFirst;
        let md = DateOrder::MonthFirst;
        assert_eq!(one("19/09/2026", dm), day(2026, 9, 19));
        assert_eq!(one("09/19/2026", md), day(2026, 9, 19));
        assert_eq!(one("2026-09-19", md), day(2026, 9, 19));
        assert_eq!(one("2026-09-19", dm), day(2026, 9, 19));
        assert_eq!(one("19.09.2026", dm), day(2026, 9, 19));
        assert_eq!(one("9/5/26", md), day(2026, 9, 5));
        assert_eq!(one("12/31'25", md), day(2025, 12, 31));
        assert_eq!(one("20260919", dm), day(2026, 9, 19));
        assert_eq!(one("2026-09-19T10:00:00", dm), day(2026, 9, 19));
        assert_eq!(one("19/09/2026 10:32", dm), day(2026, 9, 19));
        assert_eq!(one("19-09-2026", dm), day(2026, 9, 19));
        assert_eq!(one("31/02/2026", dm), None);
        assert_eq!(one("19 Sep 2026", dm), None);
        assert_eq!(one("19/09/226", dm), None);
        assert_eq!(one("", dm), None);
        assert_eq!(ofx("20260919120000.000[-5:EST]"), day(2026, 9, 19));
        assert_eq!(ofx("2026091"), None);
        assert_eq!(iso("2026-09-19T10:00:00+02:00"), day(2026, 9, 19));
    }
}
