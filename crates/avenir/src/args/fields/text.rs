//! Text fields and lists of ids: any string, a string of bounded length (at the top level or as
//! a member of a nested object) and a list of ids.

use super::ArgField;
use crate::args::{ArgError, InvalidArgument, kind};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::Value;
use std::borrow::Cow;

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
        json_schema!({"type": "string"})
    }
}

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
