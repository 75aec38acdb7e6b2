//! Amounts of money in currency units, read exactly (D8): any amount, a positive one, one that
//! is not negative, and the amount moved between categories.

use super::ArgField;
use crate::args::{ArgError, InvalidArgument, kind, milliunits_of};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::Value;
use std::borrow::Cow;
use ynab::models::Milliunits;

/// An amount in currency units, read as the exact decimal the JSON number writes and kept in
/// milliunits, ties to even (D8); at most a billion either way (`docs/contract/server.md` §6.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Money(pub Milliunits);

impl ArgField for Money {
    const GIVE: &'static str = "an amount in currency units";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        let rule = "must be a number in currency units, at most a billion either way";
        match value {
            Value::Number(n) => milliunits_of(&n.to_string())
                .map(Money)
                .ok_or_else(|| ArgError::at(name, format!("{rule}, got {n}.")).into()),
            other => Err(ArgError::at(name, format!("{rule}, got {}.", kind(other))).into()),
        }
    }
}

impl JsonSchema for Money {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Money".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "number"})
    }
}

/// An amount in currency units whose JSON number is read as [`Money`] reads it, with `rule` as
/// the message of a value that is not one.
pub(super) fn money_with_rule(
    name: &str,
    value: &Value,
    rule: &str,
) -> Result<Milliunits, InvalidArgument> {
    match value {
        Value::Number(n) => milliunits_of(&n.to_string())
            .ok_or_else(|| ArgError::at(name, format!("{rule}, got {n}.")).into()),
        other => Err(ArgError::at(name, format!("{rule}, got {}.", kind(other))).into()),
    }
}

/// A monthly budget in currency units, above 0 and at most a billion (`get_debt_payoff_plan`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PositiveMoney(pub Milliunits);

impl ArgField for PositiveMoney {
    const GIVE: &'static str = "an amount in currency units, above 0";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        let rule = "must be a number above 0 and at most 1000000000, in currency units";
        match money_with_rule(name, value, rule)? {
            m if m <= 0 => {
                Err(ArgError::at(name, format!("{rule}, got {}.", crate::money::units(m))).into())
            }
            m => Ok(PositiveMoney(m)),
        }
    }
}

impl JsonSchema for PositiveMoney {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "PositiveMoney".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "number", "exclusiveMinimum": 0})
    }
}

/// An amount in currency units from 0 to a billion (`get_debt_payoff_plan`'s minimum payment).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NonNegativeMoney(pub Milliunits);

impl ArgField for NonNegativeMoney {
    const GIVE: &'static str = "an amount in currency units, 0 or more";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        let rule = "must be a number from 0 to 1000000000, in currency units";
        match money_with_rule(name, value, rule)? {
            m if m < 0 => {
                Err(ArgError::at(name, format!("{rule}, got {}.", crate::money::units(m))).into())
            }
            m => Ok(NonNegativeMoney(m)),
        }
    }
}

impl JsonSchema for NonNegativeMoney {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "NonNegativeMoney".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "number", "minimum": 0})
    }
}

/// What `move_money` moves: an amount in currency units (as [`Money`]) greater than 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MovedAmount(pub Milliunits);

impl ArgField for MovedAmount {
    const GIVE: &'static str = "what moves, in currency units";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        match Money::present(name, value)? {
            Money(amount) if amount > 0 => Ok(MovedAmount(amount)),
            Money(_) => Err(ArgError::at(name, "must be greater than 0: it is what moves.").into()),
        }
    }
}

impl JsonSchema for MovedAmount {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "MovedAmount".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "number", "exclusiveMinimum": 0})
    }
}
