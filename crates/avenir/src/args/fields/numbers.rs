//! Integer fields: bounded, bounded with a default, and an interest rate in percent.

use super::ArgField;
use super::money::money_with_rule;
use crate::args::{ArgError, InvalidArgument, kind};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::Value;
use std::borrow::Cow;

/// An integer in `MIN..=MAX` (a JSON number with no fraction, `2.0` included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Int<const MIN: i64, const MAX: i64>(pub i64);

fn integer_in(name: &str, value: &Value, min: i64, max: i64) -> Result<i64, InvalidArgument> {
    let rule = format!("must be an integer from {min} to {max}");
    match value {
        Value::Number(n) => {
            let whole = n
                .as_i64()
                .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64));
            match whole {
                Some(v) if (min..=max).contains(&v) => Ok(v),
                _ => Err(ArgError::at(name, format!("{rule}, got {n}.")).into()),
            }
        }
        other => Err(ArgError::at(name, format!("{rule}, got {}.", kind(other))).into()),
    }
}

impl<const MIN: i64, const MAX: i64> ArgField for Int<MIN, MAX> {
    const GIVE: &'static str = "an integer";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        integer_in(name, value, MIN, MAX).map(Int)
    }
}

impl<const MIN: i64, const MAX: i64> JsonSchema for Int<MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Int".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "integer", "minimum": MIN, "maximum": MAX})
    }
}

/// An integer in `MIN..=MAX`, `DEFAULT` when absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntOr<const MIN: i64, const MAX: i64, const DEFAULT: i64>(pub i64);

impl<const MIN: i64, const MAX: i64, const DEFAULT: i64> ArgField for IntOr<MIN, MAX, DEFAULT> {
    fn absent(_name: &str, _give: Option<&str>) -> Result<Self, InvalidArgument> {
        Ok(IntOr(DEFAULT))
    }

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        integer_in(name, value, MIN, MAX).map(IntOr)
    }
}

impl<const MIN: i64, const MAX: i64, const DEFAULT: i64> JsonSchema for IntOr<MIN, MAX, DEFAULT> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "IntOr".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "integer", "minimum": MIN, "maximum": MAX, "default": DEFAULT})
    }
}

/// A yearly interest rate in percent, 0 to 100, kept in thousandths of a percent as YNAB keeps
/// it: the exact decimal given, half to even (D8) (`get_debt_payoff_plan`'s overrides).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatePercentArg(pub i64);

impl ArgField for RatePercentArg {
    const GIVE: &'static str = "a rate in percent a year";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        let rule = "must be a number from 0 to 100, percent a year";
        // An amount's milliunits are the rate's thousandths of a percent.
        match money_with_rule(name, value, rule)? {
            rate if !(0..=100_000).contains(&rate) => Err(ArgError::at(
                name,
                format!("{rule}, got {}.", crate::money::decimal(rate, 3)),
            )
            .into()),
            rate => Ok(RatePercentArg(rate)),
        }
    }
}

impl JsonSchema for RatePercentArg {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "RatePercentArg".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "number", "minimum": 0, "maximum": 100})
    }
}
