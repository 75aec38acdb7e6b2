//! The types a tool's argument struct is made of: each knows how to read its JSON value with the
//! exact message of D23 and what JSON Schema it shows, so a tool's parser and its input schema
//! come from one declaration and cannot drift.

use super::{ArgError, InvalidArgument, kind, milliunits_of, parse_date};
use crate::months::MonthArg;
use crate::text::quoted;
use chrono::NaiveDate;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::Value;
use std::borrow::Cow;
use ynab::models::Milliunits;

/// One argument's type: how it reads a present value and what its absence means.
pub trait ArgField: Sized {
    /// What "is required: give …." asks for when the argument is absent (or null) and the
    /// declaration names nothing more precise.
    const GIVE: &'static str = "a value";

    /// The argument is absent or null: required types refuse, optional and defaulted ones answer.
    fn absent(name: &str, give: Option<&str>) -> Result<Self, InvalidArgument> {
        Err(ArgError::at(
            name,
            format!("is required: give {}.", give.unwrap_or(Self::GIVE)),
        )
        .into())
    }

    /// The argument is present and not null.
    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument>;
}

impl<T: ArgField> ArgField for Option<T> {
    fn absent(_name: &str, _give: Option<&str>) -> Result<Self, InvalidArgument> {
        Ok(None)
    }

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        T::present(name, value).map(Some)
    }
}

impl ArgField for String {
    const GIVE: &'static str = "a string";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        match value {
            Value::String(s) => Ok(s.clone()),
            other => {
                Err(ArgError::at(name, format!("must be a string, got {}.", kind(other))).into())
            }
        }
    }
}

/// A string of `MIN..=MAX` characters without NUL (YNAB refuses it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text<const MIN: usize, const MAX: usize>(pub String);

impl<const MIN: usize, const MAX: usize> ArgField for Text<MIN, MAX> {
    const GIVE: &'static str = "a string";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        let s = String::present(name, value)?;
        let n = s.chars().count();
        if n < MIN || n > MAX {
            Err(ArgError::at(
                name,
                format!("must be {MIN} to {MAX} characters long, got {n}."),
            )
            .into())
        } else if s.contains('\0') {
            Err(ArgError::at(
                name,
                "contains a NUL character (U+0000), which YNAB refuses: remove it",
            )
            .into())
        } else {
            Ok(Text(s))
        }
    }
}

impl<const MIN: usize, const MAX: usize> JsonSchema for Text<MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Text".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "minLength": MIN, "maxLength": MAX})
    }
}

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

/// A list of ids (strings); an element that is not a string is named by its index
/// (`account_ids.1`). An empty list is kept: it selects nothing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ids(pub Vec<String>);

impl ArgField for Ids {
    const GIVE: &'static str = "a list of ids";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        match value {
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(ArgError::at(
                        &format!("{name}.{i}"),
                        format!("must be an id (a string), got {}.", kind(other)),
                    )
                    .into()),
                })
                .collect::<Result<Vec<_>, InvalidArgument>>()
                .map(Ids),
            other => Err(ArgError::at(
                name,
                format!("must be an array of ids, got {}.", kind(other)),
            )
            .into()),
        }
    }
}

impl JsonSchema for Ids {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Ids".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "array", "items": {"type": "string"}})
    }
}

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
        json_schema!({"type": "number", "minimum": -1_000_000_000, "maximum": 1_000_000_000})
    }
}

/// A list of nested argument objects (`one_offs`, `transactions`): each element refuses members
/// it does not take, and its errors are named by path (`one_offs.0.date`). An empty list is kept.
impl<T: ArgObject> ArgField for Vec<T> {
    const GIVE: &'static str = "a list (it may be empty)";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        let accepted = match T::FIELDS {
            [] => String::from("nothing"),
            [only] => (*only).to_string(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        };
        let Value::Array(items) = value else {
            return Err(ArgError::at(
                name,
                format!("must be an array of objects, got {}.", kind(value)),
            )
            .into());
        };
        // Every element's shape first, then each element's members (the order of the parsers
        // this replaced: `one_offs.1.b` is named before `one_offs.0.date`).
        let mut objects = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let Value::Object(fields) = item else {
                return Err(ArgError::at(
                    &format!("{name}.{i}"),
                    format!("must be an object with {accepted}, got {}.", kind(item)),
                )
                .into());
            };
            let mut extra: Vec<&String> = fields
                .keys()
                .filter(|k| !T::FIELDS.contains(&k.as_str()))
                .collect();
            extra.sort();
            if let Some(extra) = extra.first() {
                return Err(ArgError::at(
                    &format!("{name}.{i}.{extra}"),
                    format!("is not accepted here: give only {accepted}."),
                )
                .into());
            }
            objects.push(fields);
        }
        let mut out = Vec::with_capacity(objects.len());
        for (i, fields) in objects.into_iter().enumerate() {
            let mut args = super::Args::new(fields.clone());
            out.push(T::take(&mut args).map_err(|e| e.within(&format!("{name}.{i}")))?);
        }
        Ok(out)
    }
}

/// A struct of arguments: the tool's own (checked whole with [`super::Args::finish`]) or the
/// elements of a nested list. Declared with [`crate::tool_args!`], which derives its schema too.
pub trait ArgObject: Sized {
    /// Its members, in the order they are read (the order "it takes …" names them).
    const FIELDS: &'static [&'static str];

    /// Read every member from `args` (each marked taken).
    fn take(args: &mut super::Args) -> Result<Self, InvalidArgument>;
}

/// Declare an argument struct: its fields' types give both the parser and the schema (schemars),
/// each field's doc comment its description, `#[give = "…"]` what a required field's absence
/// asks for.
///
/// ```ignore
/// tool_args! {
///     /// The arguments of forecast_balance.
///     pub struct ForecastArgs {
///         /// Last month to project.
///         #[give = "the last month to project: 'current', YYYY-MM or YYYY-MM-01"]
///         pub until: Month,
///         /// Accounts to project together.
///         pub account_ids: Option<Ids>,
///     }
/// }
/// ```
#[macro_export]
macro_rules! tool_args {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $(#[give = $give:literal])?
                $fvis:vis $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, schemars::JsonSchema)]
        #[schemars(deny_unknown_fields)]
        $vis struct $name {
            $( $(#[doc = $doc])* $fvis $field: $ty, )*
        }

        impl $crate::args::ArgObject for $name {
            const FIELDS: &'static [&'static str] = &[$(stringify!($field)),*];

            // A struct with no field (list_plans) reads nothing from `args`.
            #[allow(unused_variables)]
            fn take(
                args: &mut $crate::args::Args,
            ) -> Result<Self, $crate::args::InvalidArgument> {
                Ok($name {
                    $( $field: args.field::<$ty>(
                        stringify!($field),
                        $crate::tool_args!(@give $($give)?),
                    )?, )*
                })
            }
        }
    };
    (@give) => { None };
    (@give $give:literal) => { Some($give) };
}

// ---- get_debt_payoff_plan ------------------------------------------------------------------

/// An amount in currency units whose JSON number is read as [`Money`] reads it, with `rule` as
/// the message of a value that is not one.
fn money_with_rule(name: &str, value: &Value, rule: &str) -> Result<Milliunits, InvalidArgument> {
    match value {
        Value::Number(n) => milliunits_of(&n.to_string())
            .ok_or_else(|| ArgError::at(name, format!("{rule}, got {n}.")).into()),
        other => Err(ArgError::at(name, format!("{rule}, got {}.", kind(other))).into()),
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
        json_schema!({"type": "number", "exclusiveMinimum": 0, "maximum": 1_000_000_000})
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
        json_schema!({"type": "number", "minimum": 0, "maximum": 1_000_000_000})
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

// ---- move_money ----------------------------------------------------------------------------

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
        json_schema!({"type": "number", "exclusiveMinimum": 0, "maximum": 1_000_000_000})
    }
}

// ---- apply_categories ----------------------------------------------------------------------

/// A string member of a nested object (`assignments.0.category_id`) whose absence says only
/// "is required.": the member's name says what to give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringMember(pub String);

impl ArgField for StringMember {
    fn absent(name: &str, _give: Option<&str>) -> Result<Self, InvalidArgument> {
        Err(ArgError::at(name, "is required.").into())
    }

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        String::present(name, value).map(StringMember)
    }
}

impl JsonSchema for StringMember {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "StringMember".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string"})
    }
}

// ---- create_transactions -------------------------------------------------------------------

/// A text member of a transaction to create (`payee_name`, `memo`): `MIN..=MAX` code points,
/// no NUL, each rule with its own sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberText<const MIN: usize, const MAX: usize>(pub String);

impl<const MIN: usize, const MAX: usize> ArgField for MemberText<MIN, MAX> {
    const GIVE: &'static str = "a string";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        let text = String::present(name, value)?;
        let n = text.chars().count();
        if n < MIN {
            Err(ArgError::at(name, format!("must have at least {MIN} character.")).into())
        } else if n > MAX {
            Err(ArgError::at(
                name,
                format!("must have at most {MAX} characters, got {n}."),
            )
            .into())
        } else if text.contains('\0') {
            Err(ArgError::at(
                name,
                "contains a NUL character (U+0000), which YNAB refuses: remove it.",
            )
            .into())
        } else {
            Ok(MemberText(text))
        }
    }
}

impl<const MIN: usize, const MAX: usize> JsonSchema for MemberText<MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "MemberText".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "minLength": MIN, "maxLength": MAX})
    }
}

// ---- flag_transactions ---------------------------------------------------------------------

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

// ---- set_category_target -------------------------------------------------------------------

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
