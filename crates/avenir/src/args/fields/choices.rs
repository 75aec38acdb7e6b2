//! Flags and fixed choices: a flag with its default, a plain boolean, the payoff strategy, a
//! flag colour and a target's frequency.

use super::ArgField;
use crate::args::{ArgError, InvalidArgument, kind};
use crate::text::quoted;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::Value;
use std::borrow::Cow;

/// `true` or `false`, `DEFAULT` when absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag<const DEFAULT: bool>(pub bool);

impl<const DEFAULT: bool> ArgField for Flag<DEFAULT> {
    fn absent(_name: &str, _give: Option<&str>) -> Result<Self, InvalidArgument> {
        Ok(Flag(DEFAULT))
    }

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        match value {
            Value::Bool(b) => Ok(Flag(*b)),
            other => Err(ArgError::at(
                name,
                format!("must be true or false, got {}.", kind(other)),
            )
            .into()),
        }
    }
}

impl<const DEFAULT: bool> JsonSchema for Flag<DEFAULT> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Flag".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "boolean", "default": DEFAULT})
    }
}

/// `true` or `false`, with no default: `Option<bool>` is "leave it as it is" when absent.
impl ArgField for bool {
    const GIVE: &'static str = "true or false";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        Flag::<false>::present(name, value).map(|Flag(b)| b)
    }
}

/// Which debt payoff plans to make (`get_debt_payoff_plan`'s `strategy`): avalanche, snowball
/// or both, compared (the default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PayoffStrategy {
    Avalanche,
    Snowball,
    Both,
}

impl ArgField for PayoffStrategy {
    fn absent(_name: &str, _give: Option<&str>) -> Result<Self, InvalidArgument> {
        Ok(PayoffStrategy::Both)
    }

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        match String::present(name, value)?.as_str() {
            "both" => Ok(PayoffStrategy::Both),
            "avalanche" => Ok(PayoffStrategy::Avalanche),
            "snowball" => Ok(PayoffStrategy::Snowball),
            other => Err(ArgError::at(
                name,
                format!(
                    "must be 'avalanche', 'snowball' or 'both', got {}.",
                    quoted(other)
                ),
            )
            .into()),
        }
    }
}

impl JsonSchema for PayoffStrategy {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "PayoffStrategy".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "enum": ["avalanche", "snowball", "both"], "default": "both"})
    }
}

/// A transaction's flag: one of YNAB's six colours, or none (null or absent removes the flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlagColour(pub Option<&'static str>);

impl ArgField for FlagColour {
    fn absent(_name: &str, _give: Option<&str>) -> Result<Self, InvalidArgument> {
        Ok(FlagColour(None))
    }

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        let given = String::present(name, value)?;
        crate::logic::flags::COLOURS
            .iter()
            .copied()
            .find(|c| *c == given)
            .map(|c| FlagColour(Some(c)))
            .ok_or_else(|| {
                ArgError::at(
                    name,
                    format!(
                        "must be 'red', 'orange', 'yellow', 'green', 'blue' or 'purple', or null to remove the flag; got {}.",
                        quoted(&given)
                    ),
                )
                .into()
            })
    }
}

impl JsonSchema for FlagColour {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "FlagColour".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": ["string", "null"],
            "enum": ["red", "orange", "yellow", "green", "blue", "purple", null],
            "default": null
        })
    }
}

/// How often a target sets its amount aside: `monthly`, `weekly` or `yearly`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frequency(pub &'static str);

impl ArgField for Frequency {
    const GIVE: &'static str = "'monthly', 'weekly' or 'yearly'";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        let given = String::present(name, value)?;
        crate::logic::target_change::FREQUENCIES
            .iter()
            .map(|(f, _)| *f)
            .find(|f| *f == given)
            .map(Frequency)
            .ok_or_else(|| {
                ArgError::at(
                    name,
                    format!(
                        "must be 'monthly', 'weekly' or 'yearly', got {}.",
                        quoted(&given)
                    ),
                )
                .into()
            })
    }
}

impl JsonSchema for Frequency {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Frequency".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "enum": ["monthly", "weekly", "yearly"]})
    }
}

/// How much an answer shows (`detail`): `summary`, the default, counts and totals with what needs
/// the person's attention; `full`, every item behind them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Detail {
    #[default]
    Summary,
    Full,
}

impl ArgField for Detail {
    fn absent(_name: &str, _give: Option<&str>) -> Result<Self, InvalidArgument> {
        Ok(Detail::Summary)
    }

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        match String::present(name, value)?.as_str() {
            "summary" => Ok(Detail::Summary),
            "full" => Ok(Detail::Full),
            other => Err(ArgError::at(
                name,
                format!("must be 'summary' or 'full', got {}.", quoted(other)),
            )
            .into()),
        }
    }
}

impl JsonSchema for Detail {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Detail".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "enum": ["summary", "full"], "default": "summary"})
    }
}
