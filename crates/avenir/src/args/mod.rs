//! Tool arguments, validated by our own code (decision D23): a wrong, missing or unknown argument
//! becomes a sentence naming the field by its dotted path and the rule it broke.

mod fields;

pub use fields::{
    ArgField, ArgObject, Date, Detail, Flag, Ids, Int, IntOr, MemberText, Money, Month,
    MovedAmount, StringMember, Text,
};
pub use fields::{MonthOrCurrent, NonNegativeMoney, PayoffStrategy, PositiveMoney, RatePercentArg};
// Field types of single tools (flag_transactions, set_category_target).
pub use fields::{FlagColour, Frequency};

use crate::months::MonthError;
use chrono::NaiveDate;
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::{Decimal, RoundingStrategy};
use serde_json::{Map, Value};
use std::str::FromStr;
use ynab::models::Milliunits;

/// The largest amount an argument may give, in currency units (`docs/contract/server.md` §6.2).
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

    fn message<T: ArgField + std::fmt::Debug>(value: Value, name: &'static str) -> String {
        match args(value).field::<T>(name, None) {
            Ok(v) => format!("accepted {v:?}"),
            Err(e) => e.to_string(),
        }
    }

    crate::tool_args! {
        /// One one-off, for the nested list tests.
        #[allow(dead_code)]
        struct OneOffArgs {
            #[give = "the date it is expected, YYYY-MM-DD"]
            date: Date,
            amount: Option<Money>,
            label: Option<String>,
        }
    }

    crate::tool_args! {
        /// A tool's arguments, for the unknown-field test.
        struct ListArgs {
            limit: IntOr<1, 200, 50>,
        }
    }

    #[test]
    fn required_and_types() {
        let mut a = args(json!({}));
        assert_eq!(
            a.field::<String>("plan_id", Some("a plan id"))
                .map_err(|e| e.to_string()),
            Err("Argument plan_id: is required: give a plan id.".to_string())
        );
        assert_eq!(
            message::<String>(json!({"plan_id": 3}), "plan_id"),
            "Argument plan_id: must be a string, got a number."
        );
        // null is absence
        assert_eq!(
            args(json!({"plan_id": null})).field::<Option<String>>("plan_id", None),
            Ok(None)
        );
    }

    #[test]
    fn bounds_and_unknown_fields() {
        assert_eq!(
            message::<IntOr<1, 200, 50>>(json!({"limit": 500}), "limit"),
            "Argument limit: must be an integer from 1 to 200, got 500."
        );
        assert_eq!(
            args(json!({"limit": 5, "extra": true}))
                .parse::<ListArgs>("list_payees")
                .map(|a| a.limit.0)
                .map_err(|e| e.to_string()),
            Err("Argument extra: is not an argument of list_payees: it takes limit.".to_string())
        );
        assert_eq!(
            args(json!({"limit": 2.0})).field::<IntOr<1, 200, 50>>("limit", None),
            Ok(IntOr(2))
        );
        assert_eq!(
            args(json!({})).field::<IntOr<1, 200, 50>>("limit", None),
            Ok(IntOr(50))
        );
        assert!(
            args(json!({"search": ""}))
                .field::<Text<1, 500>>("search", None)
                .is_err()
        );
        assert_eq!(
            message::<Text<1, 500>>(json!({"search": "a\u{0}"}), "search"),
            "Argument search: contains a NUL character (U+0000), which YNAB refuses: remove it"
        );
    }

    #[test]
    fn booleans() {
        assert_eq!(
            args(json!({"include_empty": true})).field::<Flag<false>>("include_empty", None),
            Ok(Flag(true))
        );
        assert_eq!(
            args(json!({})).field::<Flag<false>>("missing", None),
            Ok(Flag(false))
        );
        assert_eq!(
            message::<Flag<false>>(json!({"other": "yes"}), "other"),
            "Argument other: must be true or false, got a string."
        );
    }

    #[test]
    fn dates_are_strict() {
        assert_eq!(
            args(json!({"since_date": "2026-09-01"})).field::<Date>("since_date", None),
            Ok(Date(
                NaiveDate::from_ymd_opt(2026, 9, 1).unwrap_or_default()
            ))
        );
        assert_eq!(
            message::<Date>(json!({"until_date": "2026-9-1"}), "until_date"),
            "Argument until_date: must be a date as YYYY-MM-DD, got '2026-9-1'."
        );
        for bad in ["2026-02-30", "2026-09-01 ", "２０２６-09-01", "today", ""] {
            assert_eq!(parse_date(bad), None, "{bad:?}");
        }
        assert_eq!(
            message::<Date>(json!({"since_date": 20260901}), "since_date"),
            "Argument since_date: must be a date as YYYY-MM-DD, got a number."
        );
        assert_eq!(
            args(json!({}))
                .field::<Date>("since_date", Some("the first date, YYYY-MM-DD"))
                .map_err(|e| e.to_string()),
            Err("Argument since_date: is required: give the first date, YYYY-MM-DD.".to_string())
        );
    }

    #[test]
    fn nested_objects_refuse_unknown_members_and_name_paths() {
        assert_eq!(
            message::<Vec<OneOffArgs>>(
                json!({"one_offs": [{"date": "2026-10-01"}, {"date": 1, "x": 2, "b": 3}]}),
                "one_offs"
            ),
            "Argument one_offs.1.b: is not accepted here: give only date, amount and label."
        );
        assert_eq!(
            message::<Vec<OneOffArgs>>(
                json!({"one_offs": [{"date": "2026-13-01"}, 4]}),
                "one_offs"
            ),
            "Argument one_offs.1: must be an object with date, amount and label, got a number."
        );
        assert_eq!(
            message::<Vec<OneOffArgs>>(json!({"one_offs": [{"date": "2026-13-01"}]}), "one_offs"),
            "Argument one_offs.0.date: must be a date as YYYY-MM-DD, got '2026-13-01'."
        );
        assert_eq!(
            message::<Vec<OneOffArgs>>(json!({"one_offs": [{}]}), "one_offs"),
            "Argument one_offs.0.date: is required: give the date it is expected, YYYY-MM-DD."
        );
        assert!(matches!(
            args(json!({"one_offs": null})).field::<Option<Vec<OneOffArgs>>>("one_offs", None),
            Ok(None)
        ));
        assert_eq!(
            message::<Vec<OneOffArgs>>(json!({"other": {}}), "other"),
            "Argument other: must be an array of objects, got an object."
        );
    }

    #[test]
    fn ids_are_named_by_index() {
        assert_eq!(
            message::<Ids>(json!({"account_ids": ["a", 3]}), "account_ids"),
            "Argument account_ids.1: must be an id (a string), got a number."
        );
        assert_eq!(
            args(json!({"account_ids": []})).field::<Ids>("account_ids", None),
            Ok(Ids(Vec::new()))
        );
        assert!(
            args(json!({"account_ids": "a"}))
                .field::<Ids>("account_ids", None)
                .is_err()
        );
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
        assert_eq!(
            args(json!({"amount": -43.21})).field::<Money>("amount", None),
            Ok(Money(-43_210))
        );
        assert_eq!(
            message::<Money>(json!({"amount": 2e9}), "amount"),
            "Argument amount: must be a number in currency units, at most a billion either way, got 2000000000.0."
        );
        assert!(
            args(json!({"amount": "-43.21"}))
                .field::<Money>("amount", None)
                .is_err()
        );
    }
}
