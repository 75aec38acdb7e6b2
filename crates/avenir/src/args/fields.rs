//! The types a tool's argument struct is made of: each knows how to read its JSON value with the
//! exact message of D23 and what JSON Schema it shows, so a tool's parser and its input schema
//! come from one declaration and cannot drift.

use super::{ArgError, InvalidArgument, kind};
use serde_json::Value;

mod choices;
mod dates;
mod money;
mod numbers;
mod text;

pub use choices::{Detail, Flag, FlagColour, Frequency, PayoffStrategy};
pub use dates::{Date, Month, MonthOrCurrent};
pub use money::{Money, MovedAmount, NonNegativeMoney, PositiveMoney};
pub use numbers::{Int, IntOr, RatePercentArg};
pub use text::{Ids, MemberText, StringMember, Text};

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

/// A list of nested argument objects (`one_offs`, `transactions`): each element refuses members
/// it does not take, and its errors are named by path (`one_offs.0.date`). An empty list is kept.
impl<T: ArgObject> ArgField for Vec<T> {
    const GIVE: &'static str = "a list (it may be empty)";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        let Value::Array(items) = value else {
            return Err(ArgError::at(
                name,
                format!("must be an array of objects, got {}.", kind(value)),
            )
            .into());
        };
        // Every element's shape first, then each element's members (the order of the parsers
        // this replaced: `one_offs.1.b` is named before `one_offs.0.date`).
        let objects = items
            .iter()
            .enumerate()
            .map(|(i, item)| members_of::<T>(&format!("{name}.{i}"), item))
            .collect::<Result<Vec<_>, _>>()?;
        objects
            .into_iter()
            .enumerate()
            .map(|(i, fields)| object_from(&format!("{name}.{i}"), fields))
            .collect()
    }
}

/// `value` as an object whose members are all `T`'s; errors are named at `path`.
fn members_of<'v, T: ArgObject>(
    path: &str,
    value: &'v Value,
) -> Result<&'v serde_json::Map<String, Value>, InvalidArgument> {
    let accepted = match T::FIELDS {
        [] => String::from("nothing"),
        [only] => (*only).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let Value::Object(fields) = value else {
        return Err(ArgError::at(
            path,
            format!("must be an object with {accepted}, got {}.", kind(value)),
        )
        .into());
    };
    let mut extra: Vec<&String> = fields
        .keys()
        .filter(|k| !T::FIELDS.contains(&k.as_str()))
        .collect();
    extra.sort();
    match extra.first() {
        Some(extra) => Err(ArgError::at(
            &format!("{path}.{extra}"),
            format!("is not accepted here: give only {accepted}."),
        )
        .into()),
        None => Ok(fields),
    }
}

/// `T` read from `fields`, its errors named under `path`.
fn object_from<T: ArgObject>(
    path: &str,
    fields: &serde_json::Map<String, Value>,
) -> Result<T, InvalidArgument> {
    let mut args = super::Args::new(fields.clone());
    T::take(&mut args).map_err(|e| e.within(path))
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
