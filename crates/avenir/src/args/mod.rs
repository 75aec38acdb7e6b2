//! Tool arguments, validated by our own code (decision D23): a wrong, missing or unknown argument
//! becomes a sentence naming the field by its dotted path and the rule it broke.

mod fields;

pub use fields::{
    ArgField, ArgObject, Date, Flag, Ids, Int, IntOr, MemberText, Money, Month, MovedAmount,
    StringMember, Text,
};
pub use fields::{MonthOrCurrent, NonNegativeMoney, PayoffStrategy, PositiveMoney, RatePercentArg};
// Field types of single tools (flag_transactions, set_category_target).
pub use fields::{FlagColour, Frequency};

use crate::months::MonthError;
use crate::text::quoted;
use chrono::NaiveDate;
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::{Decimal, RoundingStrategy};
use serde_json::{Map, Value};
use std::str::FromStr;
use ynab::models::Milliunits;

/// The largest amount an argument may give, in currency units (`server.md` §6.2).
pub const MAX_AMOUNT_UNITS: i64 = 1_000_000_000;

/// An argument that broke a rule. `Display` is the message the tool returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgError {
    pub path: String,
    pub rule: String,
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Argument {}: {}", self.path, self.rule)
    }
}

impl std::error::Error for ArgError {}

impl ArgError {
    /// The argument `path` broke `rule`.
    pub fn at(path: &str, rule: impl Into<String>) -> ArgError {
        ArgError {
            path: path.to_string(),
            rule: rule.into(),
        }
    }

    /// The same error, named inside `parent` (`one_offs.0` + `date` → `one_offs.0.date`).
    pub fn within(self, parent: &str) -> ArgError {
        ArgError {
            path: format!("{parent}.{}", self.path),
            rule: self.rule,
        }
    }
}

/// Any argument a tool refuses before it reads plan data: a rule broken (D23), or a month that
/// is none of the four forms (D21, D35, whose message names the argument its own way).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidArgument {
    #[error("{0}")]
    Rule(#[from] ArgError),
    #[error("{0}")]
    Month(#[from] MonthError),
}

impl InvalidArgument {
    /// The same error, named inside `parent` (a month's message names its argument alone).
    pub fn within(self, parent: &str) -> InvalidArgument {
        match self {
            InvalidArgument::Rule(error) => InvalidArgument::Rule(error.within(parent)),
            InvalidArgument::Month(error) => InvalidArgument::Month(MonthError {
                argument: format!("{parent}.{}", error.argument),
                value: error.value,
            }),
        }
    }
}

/// The arguments of one call, taken field by field; [`Args::finish`] refuses what was not taken.
#[derive(Debug)]
pub struct Args {
    fields: Map<String, Value>,
    taken: Vec<&'static str>,
}

impl Args {
    pub fn new(fields: Map<String, Value>) -> Self {
        Args {
            fields,
            taken: Vec::new(),
        }
    }

    fn take(&mut self, name: &'static str) -> Option<&Value> {
        self.taken.push(name);
        match self.fields.get(name) {
            None | Some(Value::Null) => None,
            Some(value) => Some(value),
        }
    }

    fn error(name: &str, rule: impl Into<String>) -> ArgError {
        ArgError {
            path: name.to_string(),
            rule: rule.into(),
        }
    }

    /// Take the argument `name` as a `T` (absent and null alike are absence); `give` overrides
    /// what a required type's absence asks for.
    pub fn field<T: ArgField>(
        &mut self,
        name: &'static str,
        give: Option<&str>,
    ) -> Result<T, InvalidArgument> {
        match self.take(name) {
            None => T::absent(name, give),
            Some(value) => T::present(name, value),
        }
    }

    /// Read a whole argument struct and refuse every field it does not take (`tool`'s name in
    /// the message).
    pub fn parse<T: ArgObject>(mut self, tool: &str) -> Result<T, InvalidArgument> {
        let value = T::take(&mut self)?;
        self.finish(tool)?;
        Ok(value)
    }

    /// A required string. `what` completes "is required: give {what}.".
    pub fn required_string(&mut self, name: &'static str, what: &str) -> Result<String, ArgError> {
        match self.take(name) {
            None => Err(Self::error(name, format!("is required: give {what}."))),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => Err(Self::error(
                name,
                format!("must be a string, got {}.", kind(other)),
            )),
        }
    }

    /// An optional string of `min..=max` characters.
    pub fn optional_string(
        &mut self,
        name: &'static str,
        min: usize,
        max: usize,
    ) -> Result<Option<String>, ArgError> {
        match self.take(name) {
            None => Ok(None),
            Some(Value::String(s)) => {
                let n = s.chars().count();
                if n < min || n > max {
                    Err(Self::error(
                        name,
                        format!("must be {min} to {max} characters long, got {n}."),
                    ))
                } else if s.contains('\0') {
                    Err(Self::error(
                        name,
                        "contains a NUL character (U+0000), which YNAB refuses: remove it",
                    ))
                } else {
                    Ok(Some(s.clone()))
                }
            }
            Some(other) => Err(Self::error(
                name,
                format!("must be a string, got {}.", kind(other)),
            )),
        }
    }

    /// An optional integer in `min..=max`, `default` when absent.
    pub fn integer(
        &mut self,
        name: &'static str,
        default: i64,
        min: i64,
        max: i64,
    ) -> Result<i64, ArgError> {
        let rule = format!("must be an integer from {min} to {max}");
        match self.take(name) {
            None => Ok(default),
            Some(Value::Number(n)) => {
                let value = n
                    .as_i64()
                    .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64));
                match value {
                    Some(v) if (min..=max).contains(&v) => Ok(v),
                    _ => Err(Self::error(name, format!("{rule}, got {n}."))),
                }
            }
            Some(other) => Err(Self::error(name, format!("{rule}, got {}.", kind(other)))),
        }
    }

    /// An optional boolean, `default` when absent.
    pub fn boolean(&mut self, name: &'static str, default: bool) -> Result<bool, ArgError> {
        match self.take(name) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(Self::error(
                name,
                format!("must be true or false, got {}.", kind(other)),
            )),
        }
    }

    /// An optional string with no rule but its type (a search term, a cursor: never sent to YNAB).
    pub fn optional_text(&mut self, name: &'static str) -> Result<Option<String>, ArgError> {
        match self.take(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(Self::error(
                name,
                format!("must be a string, got {}.", kind(other)),
            )),
        }
    }

    /// An optional date, `YYYY-MM-DD` exactly.
    pub fn optional_date(&mut self, name: &'static str) -> Result<Option<NaiveDate>, ArgError> {
        match self.take(name) {
            None => Ok(None),
            Some(Value::String(s)) => parse_date(s).map(Some).ok_or_else(|| {
                Self::error(
                    name,
                    format!("must be a date as YYYY-MM-DD, got {}.", quoted(s)),
                )
            }),
            Some(other) => Err(Self::error(
                name,
                format!("must be a date as YYYY-MM-DD, got {}.", kind(other)),
            )),
        }
    }

    /// A required date, `YYYY-MM-DD` exactly. `what` completes "is required: give {what}.".
    pub fn required_date(&mut self, name: &'static str, what: &str) -> Result<NaiveDate, ArgError> {
        self.optional_date(name)?
            .ok_or_else(|| Self::error(name, format!("is required: give {what}.")))
    }

    /// An optional list of ids (strings); an element that is not a string is named by its index
    /// (`account_ids.1`). An empty list is kept: it selects nothing.
    pub fn optional_ids(&mut self, name: &'static str) -> Result<Option<Vec<String>>, ArgError> {
        match self.take(name) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(Self::error(
                        &format!("{name}.{i}"),
                        format!("must be an id (a string), got {}.", kind(other)),
                    )),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(other) => Err(Self::error(
                name,
                format!("must be an array of ids, got {}.", kind(other)),
            )),
        }
    }

    /// An optional amount in currency units, taken as the exact decimal the JSON number writes and
    /// converted to milliunits, ties to even (D8); at most a billion either way (`server.md` §6.2).
    pub fn optional_amount(&mut self, name: &'static str) -> Result<Option<Milliunits>, ArgError> {
        let rule = "must be a number in currency units, at most a billion either way";
        match self.take(name) {
            None => Ok(None),
            Some(Value::Number(n)) => milliunits_of(&n.to_string())
                .map(Some)
                .ok_or_else(|| Self::error(name, format!("{rule}, got {n}."))),
            Some(other) => Err(Self::error(name, format!("{rule}, got {}.", kind(other)))),
        }
    }

    /// A required list of objects whose members are the strings `keys`, all required; unknown
    /// members are refused. Errors name the member by its path (`assignments.0.category_id`).
    pub fn objects(
        &mut self,
        name: &'static str,
        keys: &[&str],
    ) -> Result<Vec<std::collections::HashMap<String, String>>, ArgError> {
        let items = match self.take(name) {
            None => {
                return Err(Self::error(
                    name,
                    "is required: give a list (it may be empty).",
                ));
            }
            Some(Value::Array(items)) => items.clone(),
            Some(other) => {
                return Err(Self::error(
                    name,
                    format!("must be an array of objects, got {}.", kind(other)),
                ));
            }
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let Value::Object(fields) = item else {
                return Err(Self::error(
                    &format!("{name}.{i}"),
                    format!(
                        "must be an object with {}, got {}.",
                        keys.join(" and "),
                        kind(item)
                    ),
                ));
            };
            if let Some(extra) = fields.keys().find(|k| !keys.contains(&k.as_str())) {
                return Err(Self::error(
                    &format!("{name}.{i}.{extra}"),
                    format!("is not accepted here: give only {}.", keys.join(" and ")),
                ));
            }
            let mut entry = std::collections::HashMap::new();
            for key in keys {
                match fields.get(*key) {
                    Some(Value::String(v)) => {
                        entry.insert((*key).to_string(), v.clone());
                    }
                    None | Some(Value::Null) => {
                        return Err(Self::error(&format!("{name}.{i}.{key}"), "is required."));
                    }
                    Some(other) => {
                        return Err(Self::error(
                            &format!("{name}.{i}.{key}"),
                            format!("must be a string, got {}.", kind(other)),
                        ));
                    }
                }
            }
            out.push(entry);
        }
        Ok(out)
    }

    /// An optional list of objects whose members are among `keys` (unknown members refused); each
    /// element comes back as its own [`Args`], whose errors [`ArgError::within`] names by path
    /// (`one_offs.0.date`). An empty list is kept.
    pub fn optional_objects(
        &mut self,
        name: &'static str,
        keys: &[&str],
    ) -> Result<Option<Vec<Args>>, ArgError> {
        let accepted = match keys {
            [] => String::from("nothing"),
            [only] => (*only).to_string(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        };
        let items = match self.take(name) {
            None => return Ok(None),
            Some(Value::Array(items)) => items.clone(),
            Some(other) => {
                return Err(Self::error(
                    name,
                    format!("must be an array of objects, got {}.", kind(other)),
                ));
            }
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            let Value::Object(fields) = item else {
                return Err(Self::error(
                    &format!("{name}.{i}"),
                    format!("must be an object with {accepted}, got {}.", kind(&item)),
                ));
            };
            let mut extra: Vec<&String> = fields
                .keys()
                .filter(|k| !keys.contains(&k.as_str()))
                .collect();
            extra.sort();
            if let Some(extra) = extra.first() {
                return Err(Self::error(
                    &format!("{name}.{i}.{extra}"),
                    format!("is not accepted here: give only {accepted}."),
                ));
            }
            out.push(Args::new(fields));
        }
        Ok(Some(out))
    }

    /// A required list of strings (ids).
    pub fn required_ids(&mut self, name: &'static str) -> Result<Vec<String>, ArgError> {
        self.optional_ids(name)?
            .ok_or_else(|| Self::error(name, "is required: give a list of ids."))
    }

    /// Refuse every field no rule took.
    pub fn finish(self, tool: &str) -> Result<(), ArgError> {
        let mut unknown: Vec<&String> = self
            .fields
            .keys()
            .filter(|k| !self.taken.contains(&k.as_str()))
            .collect();
        unknown.sort();
        match unknown.first() {
            None => Ok(()),
            Some(name) => {
                let accepted = if self.taken.is_empty() {
                    "it takes no argument".to_string()
                } else {
                    format!("it takes {}", self.taken.join(", "))
                };
                Err(Self::error(
                    name,
                    format!("is not an argument of {tool}: {accepted}."),
                ))
            }
        }
    }
}

/// `YYYY-MM-DD` exactly (ASCII digits, a real date).
pub fn parse_date(value: &str) -> Option<NaiveDate> {
    let shape = value.len() == 10
        && value.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    shape
        .then(|| NaiveDate::parse_from_str(value, "%Y-%m-%d").ok())
        .flatten()
}

/// Milliunits of a decimal number's text (`-43.21`, `5`, `1e-3`): × 1000, ties to even, within
/// a billion units either way; `None` for anything else. Never goes through a float.
pub fn milliunits_of(text: &str) -> Option<Milliunits> {
    let exact = if text.contains(['e', 'E']) {
        Decimal::from_scientific(text).ok()?
    } else {
        Decimal::from_str(text).ok()?
    };
    let bound = Decimal::from(MAX_AMOUNT_UNITS);
    if exact.abs() > bound {
        return None;
    }
    (exact * Decimal::from(1000))
        .round_dp_with_strategy(0, RoundingStrategy::MidpointNearestEven)
        .to_i64()
}

pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(value: Value) -> Args {
        match value {
            Value::Object(map) => Args::new(map),
            _ => Args::new(Map::new()),
        }
    }

    #[test]
    fn required_and_types() {
        let mut a = args(json!({}));
        assert_eq!(
            a.required_string("plan_id", "a plan id")
                .map_err(|e| e.to_string()),
            Err("Argument plan_id: is required: give a plan id.".to_string())
        );
        let mut a = args(json!({"plan_id": 3}));
        assert_eq!(
            a.required_string("plan_id", "x").map_err(|e| e.to_string()),
            Err("Argument plan_id: must be a string, got a number.".to_string())
        );
    }

    #[test]
    fn bounds_and_unknown_fields() {
        let mut a = args(json!({"limit": 500, "extra": true}));
        assert_eq!(
            a.integer("limit", 50, 1, 200).map_err(|e| e.to_string()),
            Err("Argument limit: must be an integer from 1 to 200, got 500.".to_string())
        );
        assert_eq!(
            a.finish("list_payees").map_err(|e| e.to_string()),
            Err("Argument extra: is not an argument of list_payees: it takes limit.".to_string())
        );
        let mut a = args(json!({"limit": 2.0}));
        assert_eq!(a.integer("limit", 50, 1, 200), Ok(2));
        let mut a = args(json!({"search": ""}));
        assert!(a.optional_string("search", 1, 500).is_err());
        let mut a = args(json!({"search": "a\u{0}"}));
        assert!(a.optional_string("search", 1, 500).is_err());
    }

    #[test]
    fn booleans() {
        let mut a = args(json!({"include_empty": true, "other": "yes"}));
        assert_eq!(a.boolean("include_empty", false), Ok(true));
        assert_eq!(a.boolean("missing", false), Ok(false));
        assert_eq!(
            a.boolean("other", false).map_err(|e| e.to_string()),
            Err("Argument other: must be true or false, got a string.".to_string())
        );
    }

    #[test]
    fn dates_are_strict() {
        let mut a = args(json!({"since_date": "2026-09-01", "until_date": "2026-9-1"}));
        assert_eq!(
            a.optional_date("since_date"),
            Ok(NaiveDate::from_ymd_opt(2026, 9, 1))
        );
        assert_eq!(
            a.optional_date("until_date").map_err(|e| e.to_string()),
            Err("Argument until_date: must be a date as YYYY-MM-DD, got '2026-9-1'.".to_string())
        );
        for bad in ["2026-02-30", "2026-09-01 ", "２０２６-09-01", "today", ""] {
            assert_eq!(parse_date(bad), None, "{bad:?}");
        }
        let mut a = args(json!({"since_date": 20260901}));
        assert_eq!(
            a.required_date("since_date", "the first date")
                .map_err(|e| e.to_string()),
            Err("Argument since_date: must be a date as YYYY-MM-DD, got a number.".to_string())
        );
        let mut a = args(json!({}));
        assert_eq!(
            a.required_date("since_date", "the first date, YYYY-MM-DD")
                .map_err(|e| e.to_string()),
            Err("Argument since_date: is required: give the first date, YYYY-MM-DD.".to_string())
        );
    }

    #[test]
    fn nested_objects_refuse_unknown_members_and_name_paths() {
        let mut a =
            args(json!({"one_offs": [{"date": "2026-10-01"}, {"date": 1, "x": 2, "b": 3}]}));
        assert_eq!(
            a.optional_objects("one_offs", &["date", "amount", "label"])
                .map(|o| o.map(|l| l.len()))
                .map_err(|e| e.to_string()),
            Err(
                "Argument one_offs.1.b: is not accepted here: give only date, amount and label."
                    .to_string()
            )
        );
        let mut a = args(json!({"one_offs": [{"date": "2026-13-01"}, 4]}));
        assert_eq!(
            a.optional_objects("one_offs", &["date"])
                .map(|o| o.map(|l| l.len()))
                .map_err(|e| e.to_string()),
            Err("Argument one_offs.1: must be an object with date, got a number.".to_string())
        );
        let mut a = args(json!({"one_offs": [{"date": "2026-13-01"}]}));
        let mut items = a
            .optional_objects("one_offs", &["date"])
            .ok()
            .flatten()
            .unwrap_or_default();
        assert_eq!(
            items[0]
                .optional_date("date")
                .map_err(|e| e.within("one_offs.0").to_string()),
            Err(
                "Argument one_offs.0.date: must be a date as YYYY-MM-DD, got '2026-13-01'."
                    .to_string()
            )
        );
        let mut a = args(json!({"one_offs": null, "other": {}}));
        assert_eq!(
            a.optional_objects("one_offs", &["date"])
                .map(|o| o.is_none()),
            Ok(true)
        );
        assert!(a.optional_objects("other", &["date"]).is_err());
    }

    #[test]
    fn ids_are_named_by_index() {
        let mut a = args(json!({"account_ids": ["a", 3]}));
        assert_eq!(
            a.optional_ids("account_ids").map_err(|e| e.to_string()),
            Err("Argument account_ids.1: must be an id (a string), got a number.".to_string())
        );
        let mut a = args(json!({"account_ids": []}));
        assert_eq!(a.optional_ids("account_ids"), Ok(Some(Vec::new())));
        let mut a = args(json!({"account_ids": "a"}));
        assert!(a.optional_ids("account_ids").is_err());
    }

    #[test]
    fn amounts_are_exact_decimals_ties_to_even() {
        for (text, expected) in [
            ("-43.21", Some(-43_210)),
            ("111.32", Some(111_320)),
            ("0.0005", Some(0)),
            ("0.0015", Some(2)),
            ("2.0005", Some(2_000)),
            ("-2.0015", Some(-2_002)),
            ("5", Some(5_000)),
            ("1e-3", Some(1)),
            ("1E9", Some(1_000_000_000_000)),
            ("1000000000", Some(1_000_000_000_000)),
            ("-1000000000.0", Some(-1_000_000_000_000)),
            ("1000000000.001", None),
            ("1e300", None),
            ("abc", None),
        ] {
            assert_eq!(milliunits_of(text), expected, "{text}");
        }
        let mut a = args(json!({"amount": -43.21}));
        assert_eq!(a.optional_amount("amount"), Ok(Some(-43_210)));
        let mut a = args(json!({"amount": 2e9}));
        assert_eq!(
            a.optional_amount("amount").map_err(|e| e.to_string()),
            Err(
                "Argument amount: must be a number in currency units, at most a billion either way, got 2000000000.0."
                    .to_string()
            )
        );
        let mut a = args(json!({"amount": "-43.21"}));
        assert!(a.optional_amount("amount").is_err());
    }
}
