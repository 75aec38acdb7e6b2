//! Dates and months: a `YYYY-MM-DD` date, a month argument, and a month that defaults to the
//! current one.

use super::ArgField;
use crate::args::{ArgError, InvalidArgument, kind, parse_date};
use crate::months::MonthArg;
use crate::text::quoted;
use chrono::NaiveDate;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::Value;
use std::borrow::Cow;

/// A date written `YYYY-MM-DD` exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Date(pub NaiveDate);

impl ArgField for Date {
    const GIVE: &'static str = "a date, YYYY-MM-DD";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        match value {
            Value::String(s) => parse_date(s).map(Date).ok_or_else(|| {
                ArgError::at(
                    name,
                    format!("must be a date as YYYY-MM-DD, got {}.", quoted(s)),
                )
                .into()
            }),
            other => Err(ArgError::at(
                name,
                format!("must be a date as YYYY-MM-DD, got {}.", kind(other)),
            )
            .into()),
        }
    }
}

impl JsonSchema for Date {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Date".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "format": "date"})
    }
}

/// A month: `current`, `last`, `YYYY-MM` or `YYYY-MM-01` (D7, D21, D35), resolved by the tool
/// against "today".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Month(pub MonthArg);

impl ArgField for Month {
    const GIVE: &'static str = "a month: 'current', 'last', YYYY-MM or YYYY-MM-01";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        let text = String::present(name, value)?;
        MonthArg::parse(name, &text)
            .map(Month)
            .map_err(InvalidArgument::from)
    }
}

impl JsonSchema for Month {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Month".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string"})
    }
}

// For the month tools and get_underfunded_targets: their `month`, which
// reads 'current' when left out.

/// A month (`current`, `last`, `YYYY-MM` or `YYYY-MM-01`, as [`Month`]), `current` when absent
/// or null.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonthOrCurrent(pub MonthArg);

impl ArgField for MonthOrCurrent {
    fn absent(_name: &str, _give: Option<&str>) -> Result<Self, InvalidArgument> {
        Ok(MonthOrCurrent(MonthArg::Current))
    }

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        Month::present(name, value).map(|m| MonthOrCurrent(m.0))
    }
}

impl JsonSchema for MonthOrCurrent {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "MonthOrCurrent".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "default": "current"})
    }
}
