//! The few SQL operations both databases are used through, with values of either.

use super::error::SqlError;
use async_trait::async_trait;

/// A parameter or a column's value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Int(i64),
    Text(String),
    Bytes(Vec<u8>),
    Bool(bool),
}

impl Value {
    pub(crate) fn int(&self) -> Result<i64, SqlError> {
        match self {
            Value::Int(i) => Ok(*i),
            other => Err(unexpected("an integer", other)),
        }
    }
}

fn unexpected(wanted: &'static str, got: &Value) -> SqlError {
    let got = match got {
        Value::Null => "NULL",
        Value::Int(_) => "an integer",
        Value::Text(_) => "text",
        Value::Bytes(_) => "bytes",
        Value::Bool(_) => "a boolean",
    };
    SqlError::Unexpected { wanted, got }
}

fn column(row: &[Value], i: usize) -> Result<&Value, SqlError> {
    row.get(i).ok_or(SqlError::NoColumn(i))
}

pub(crate) fn int(row: &[Value], i: usize) -> Result<i64, SqlError> {
    column(row, i)?.int()
}

pub(crate) fn text(row: &[Value], i: usize) -> Result<String, SqlError> {
    match column(row, i)? {
        Value::Text(t) => Ok(t.clone()),
        other => Err(unexpected("text", other)),
    }
}

pub(crate) fn opt_text(row: &[Value], i: usize) -> Result<Option<String>, SqlError> {
    match column(row, i)? {
        Value::Null => Ok(None),
        Value::Text(t) => Ok(Some(t.clone())),
        other => Err(unexpected("text", other)),
    }
}

pub(crate) fn bytes(row: &[Value], i: usize) -> Result<Vec<u8>, SqlError> {
    match column(row, i)? {
        Value::Bytes(b) => Ok(b.clone()),
        other => Err(unexpected("bytes", other)),
    }
}

/// A boolean: PostgreSQL's, or SQLite's integer 0 or 1.
pub(crate) fn boolean(row: &[Value], i: usize) -> Result<bool, SqlError> {
    match column(row, i)? {
        Value::Bool(b) => Ok(*b),
        Value::Int(i) => Ok(*i != 0),
        other => Err(unexpected("a boolean", other)),
    }
}

/// A boolean or NULL.
pub(crate) fn opt_boolean(row: &[Value], i: usize) -> Result<Option<bool>, SqlError> {
    match column(row, i)? {
        Value::Null => Ok(None),
        _ => boolean(row, i).map(Some),
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_owned())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl From<Option<&str>> for Value {
    fn from(v: Option<&str>) -> Value {
        v.map_or(Value::Null, Value::from)
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}

impl From<Vec<u8>> for Value {
    fn from(v: Vec<u8>) -> Value {
        Value::Bytes(v)
    }
}

/// One statement: SQL with PostgreSQL's `$1` placeholders (SQLite is given `?1`), and its
/// parameters.
pub(crate) type Statement = (&'static str, Vec<Value>);

/// What both backends do.
#[async_trait]
pub(crate) trait Sql: Send + Sync {
    /// Run one statement and return its rows (`SELECT`, or `… RETURNING`), in autocommit.
    async fn query(&self, sql: &str, params: Vec<Value>) -> Result<Vec<Vec<Value>>, SqlError>;
    /// Run the statements in one transaction; the number of rows each changed.
    async fn execute_all(&self, statements: Vec<Statement>) -> Result<Vec<u64>, SqlError>;
}
