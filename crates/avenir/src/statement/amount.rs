//! Amounts as banks write them, turned into exact milliunits with integer arithmetic: a decimal
//! comma or point, grouping by `.`, `,`, spaces or `'`, a sign before or after, parentheses for
//! money out, a currency symbol or code around it. Never a float.
//!
//! Which mark is the decimal one is a property of the file, not of one amount: [`evidence`] says
//! what a single amount shows, and the caller decides for the whole file before [`parse`].

use super::Decimal;
use super::error::{Place, Shown, StatementError};
use std::borrow::Cow;
use ynab::models::Milliunits;

/// The largest amount accepted, in units.
pub const MAX_UNITS: u64 = 1_000_000_000;

/// Why a text is not an amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    NotAnAmount,
    TooPrecise,
    TooLarge,
}

/// Grouping marks besides `.` and `,`: spaces (plain, no-break, narrow no-break) and `'`.
const GROUPING: [char; 4] = [' ', '\u{a0}', '\u{202f}', '\''];

/// Currency symbols dropped around an amount.
const SYMBOLS: [char; 8] = ['€', '$', '£', '¥', '₣', '₹', '₺', '¤'];

/// `text` as milliunits, `decimal` being the file's decimal mark.
pub fn parse(text: &str, decimal: Decimal) -> Result<Milliunits, Problem> {
    let (negative, signed) = sign(strip_currency(text)).ok_or(Problem::NotAnAmount)?;
    // a symbol may also stand between the sign and the digits: `-$12.50`
    let digits = strip_currency(signed);
    let (point, group) = match decimal {
        Decimal::Comma => (',', '.'),
        Decimal::Point => ('.', ','),
    };
    let (whole, fraction) = match digits.split_once(point) {
        Some((whole, fraction)) => (whole, fraction),
        None => (digits, ""),
    };
    let whole = ungroup(whole, group).ok_or(Problem::NotAnAmount)?;
    if !fraction.chars().all(|c| c.is_ascii_digit()) || (whole.is_empty() && fraction.is_empty()) {
        return Err(Problem::NotAnAmount);
    }
    if fraction.len() > 3 {
        return Err(Problem::TooPrecise);
    }
    let magnitude = milliunits(&whole, fraction)?;
    Ok(if negative { -magnitude } else { magnitude })
}

/// [`parse`], a refusal told as the error for the field at `at`.
pub fn read(
    text: &str,
    decimal: Decimal,
    at: impl FnOnce() -> Place,
) -> Result<Milliunits, StatementError> {
    parse(text, decimal).map_err(|problem| {
        let (at, text) = (at(), Shown::new(text));
        match problem {
            Problem::NotAnAmount => StatementError::NotAnAmount { at, text },
            Problem::TooPrecise => StatementError::TooPrecise { at, text },
            Problem::TooLarge => StatementError::AmountTooLarge { at, text },
        }
    })
}

/// The decimal mark of a format that has no thousands separator (OFX, camt.053): a comma when the
/// amount has a comma and no point, else a point.
pub fn lone_decimal(text: &str) -> Decimal {
    if text.contains(',') && !text.contains('.') {
        Decimal::Comma
    } else {
        Decimal::Point
    }
}

/// What this amount alone shows of the decimal mark: both marks (the last is the decimal one), one
/// mark used twice (it groups), or one mark once not followed by exactly three digits (it is the
/// decimal one). `None` for `1.250`, `1,250` and amounts without a mark.
pub fn evidence(text: &str) -> Option<Decimal> {
    let core = strip_currency(text);
    let (comma, point) = (core.rfind(','), core.rfind('.'));
    match (comma, point) {
        (Some(c), Some(p)) => Some(if c > p {
            Decimal::Comma
        } else {
            Decimal::Point
        }),
        (Some(c), None) => lone_mark(core, ',', c, Decimal::Comma, Decimal::Point),
        (None, Some(p)) => lone_mark(core, '.', p, Decimal::Point, Decimal::Comma),
        (None, None) => None,
    }
}

/// Whether the amount has a mark whose role only the file can tell (`1.250`).
pub fn ambiguous(text: &str) -> bool {
    let core = strip_currency(text);
    (core.contains(',') || core.contains('.')) && evidence(text).is_none()
}

fn lone_mark(core: &str, mark: char, at: usize, once: Decimal, twice: Decimal) -> Option<Decimal> {
    if core.matches(mark).count() > 1 {
        return Some(twice);
    }
    let after = core[at + 1..]
        .chars()
        .take_while(char::is_ascii_digit)
        .count();
    (after != 3).then_some(once)
}

/// The text without a currency symbol or a three-letter code before or after it.
fn strip_currency(text: &str) -> &str {
    let mut core = text.trim();
    loop {
        let before = core;
        core = core.trim_matches(|c| SYMBOLS.contains(&c)).trim();
        for (i, c) in core.char_indices() {
            if !c.is_ascii_alphabetic() {
                let (code, rest) = core.split_at(i);
                if code.len() == 3 {
                    core = rest.trim();
                }
                break;
            }
        }
        if let Some((i, c)) = core
            .char_indices()
            .rev()
            .find(|(_, c)| !c.is_ascii_alphabetic())
            && core.len() - i - c.len_utf8() == 3
        {
            core = core[..i + c.len_utf8()].trim();
        }
        if core == before {
            return core;
        }
    }
}

/// The sign and what is left: `-12`, `+12`, `−12`, `12-`, `(12)`. `None` for two signs.
fn sign(text: &str) -> Option<(bool, &str)> {
    let mut negative = false;
    let mut core = text;
    if let Some(inner) = core.strip_prefix('(').and_then(|c| c.strip_suffix(')')) {
        negative = true;
        core = inner.trim();
    }
    let leading = core.strip_prefix(['-', '\u{2212}', '+']);
    let trailing = core.strip_suffix(['-', '\u{2212}', '+']);
    let (minus, rest) = match (leading, trailing) {
        (Some(rest), None) => (core.starts_with(['-', '\u{2212}']), rest),
        (None, Some(rest)) => (core.ends_with(['-', '\u{2212}']), rest),
        (None, None) => (false, core),
        (Some(_), Some(_)) => return None,
    };
    if negative && minus {
        return None;
    }
    Some((negative || minus, rest.trim()))
}

/// The whole part's digits, grouping removed: groups after the first have three digits, and one
/// kind of mark groups them. Borrowed when there is no mark (most amounts).
fn ungroup(whole: &str, group: char) -> Option<Cow<'_, str>> {
    let is_mark = |c: char| c == group || GROUPING.contains(&c);
    let digits = |g: &str| g.chars().all(|c| c.is_ascii_digit());
    let mut marks = whole.chars().filter(|c| is_mark(*c));
    let Some(mark) = marks.next() else {
        return digits(whole).then_some(Cow::Borrowed(whole));
    };
    if marks.any(|c| c != mark) {
        return None;
    }
    let mut groups = whole.split(is_mark);
    let first = groups.next().unwrap_or_default();
    if !digits(first) || !(1..=3).contains(&first.len()) {
        return None;
    }
    let mut out = first.to_string();
    for g in groups {
        if g.len() != 3 || !digits(g) {
            return None;
        }
        out.push_str(g);
    }
    Some(Cow::Owned(out))
}

/// `whole` units and `fraction` (at most three digits) as milliunits, within [`MAX_UNITS`].
fn milliunits(whole: &str, fraction: &str) -> Result<Milliunits, Problem> {
    let mut units: u64 = 0;
    for d in whole.bytes() {
        units = units
            .checked_mul(10)
            .and_then(|u| u.checked_add(u64::from(d - b'0')))
            .filter(|u| *u <= MAX_UNITS)
            .ok_or(Problem::TooLarge)?;
    }
    let mut thousandths: u64 = 0;
    for d in fraction.bytes().chain(std::iter::repeat(b'0')).take(3) {
        thousandths = thousandths * 10 + u64::from(d - b'0');
    }
    let total = units * 1000 + thousandths;
    if total > MAX_UNITS * 1000 {
        return Err(Problem::TooLarge);
    }
    Milliunits::try_from(total).map_err(|_| Problem::TooLarge)
}

#[cfg(test)]
mod tests {
    use super::{Decimal, Problem, evidence, parse};

    #[test]
    fn the_ways_banks_write_amounts() {
        let comma = |t| parse(t, Decimal::Comma);
        let point = |t| parse(t, Decimal::Point);
        assert_eq!(comma("1.234,56"), Ok(1_234_560));
        assert_eq!(point("1,234.56"), Ok(1_234_560));
        assert_eq!(comma("1 234,56"), Ok(1_234_560));
        assert_eq!(comma("1\u{a0}234,56 €"), Ok(1_234_560));
        assert_eq!(point("1'234.56"), Ok(1_234_560));
        assert_eq!(comma("-12,50"), Ok(-12_500));
        assert_eq!(point("12.50-"), Ok(-12_500));
        assert_eq!(point("(12.50)"), Ok(-12_500));
        assert_eq!(point("$-12.50"), Ok(-12_500));
        assert_eq!(point("-$12.50"), Ok(-12_500));
        assert_eq!(point("(€ 12.50)"), Ok(-12_500));
        assert_eq!(comma("EUR -12,5"), Ok(-12_500));
        assert_eq!(comma("-12,50 EUR"), Ok(-12_500));
        assert_eq!(point("+0.005"), Ok(5));
        assert_eq!(point("\u{2212}3"), Ok(-3_000));
        assert_eq!(point(".5"), Ok(500));
        assert_eq!(point("1000000000"), Ok(1_000_000_000_000));
    }

    #[test]
    fn what_is_refused() {
        let point = |t| parse(t, Decimal::Point);
        assert_eq!(point("12,3x"), Err(Problem::NotAnAmount));
        assert_eq!(point(""), Err(Problem::NotAnAmount));
        assert_eq!(point("-"), Err(Problem::NotAnAmount));
        assert_eq!(point("--12"), Err(Problem::NotAnAmount));
        assert_eq!(point("-12-"), Err(Problem::NotAnAmount));
        assert_eq!(point("-(12)"), Err(Problem::NotAnAmount));
        assert_eq!(point("1,23.45"), Err(Problem::NotAnAmount));
        assert_eq!(point("12.3456"), Err(Problem::TooPrecise));
        assert_eq!(point("1000000000.001"), Err(Problem::TooLarge));
        assert_eq!(point("99999999999999999999999"), Err(Problem::TooLarge));
        assert_eq!(parse("1.234.56", Decimal::Comma), Err(Problem::NotAnAmount));
    }

    #[test]
    fn what_one_amount_shows_of_the_decimal_mark() {
        assert_eq!(evidence("1.234,56"), Some(Decimal::Comma));
        assert_eq!(evidence("1,234.56"), Some(Decimal::Point));
        assert_eq!(evidence("-12,50"), Some(Decimal::Comma));
        assert_eq!(evidence("12.5"), Some(Decimal::Point));
        assert_eq!(evidence("1.234.567"), Some(Decimal::Comma));
        assert_eq!(evidence("1,250"), None);
        assert_eq!(evidence("1.250 EUR"), None);
        assert_eq!(evidence("1250"), None);
    }
}
