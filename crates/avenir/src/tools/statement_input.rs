//! What `compare_statement` and `import_statement` share: the statement they are given — as text,
//! or on the local server as a file path — read into lines and checked against the account and
//! the plan before anything is compared, and the comparison itself.

use super::ToolError;
use crate::args::{ArgError, ArgField, InvalidArgument};
use crate::logic::names::PlanNames;
use crate::logic::statement_balance::{Counted, Gap, explain};
use crate::logic::statement_match::{Comparison, DATE_MISMATCH_DAYS, Entry, compare};
use crate::statement::{
    AccountRef, AmountColumns, ColumnRef, Columns, DateOrder, Decimal, MAX_BYTES, ReadOptions,
    Statement, StatementLine, read_bytes, read_text,
};
use chrono::{Duration, NaiveDate};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::Value;
use std::borrow::Cow;
use ynab::models::{Account, Milliunits, PlanDetail, TransactionSummary as Transaction};

/// A reading choice the caller settles by a word (`date_order`, `decimal`), as the reader spells
/// it (`DateOrder::from_arg`, `Decimal::from_arg`).
pub trait Word: Copy {
    /// The words it takes, as a sentence lists them.
    const WORDS: &'static str;
    fn from_word(word: &str) -> Option<Self>;
}

impl Word for DateOrder {
    const WORDS: &'static str = "'day_first' or 'month_first'";
    fn from_word(word: &str) -> Option<Self> {
        DateOrder::from_arg(word)
    }
}

impl Word for Decimal {
    const WORDS: &'static str = "'comma' or 'point'";
    fn from_word(word: &str) -> Option<Self> {
        Decimal::from_arg(word)
    }
}

/// An argument that is one of `T`'s words. Its schema names no `enum`: the argument's description
/// gives the words, and an optional enum would list `null` among them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WordArg<T>(pub T);

/// How to read a CSV's dates such as 03/04/2026.
pub type DateOrderArg = WordArg<DateOrder>;
/// A CSV's decimal mark, when no amount of the file shows it.
pub type DecimalArg = WordArg<Decimal>;

impl<T: Word> ArgField for WordArg<T> {
    const GIVE: &'static str = T::WORDS;

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        let given = String::present(name, value)?;
        T::from_word(&given).map(WordArg).ok_or_else(|| {
            ArgError::at(
                name,
                format!("must be {}, got {}.", T::WORDS, crate::text::quoted(&given)),
            )
            .into()
        })
    }
}

impl<T: Word> JsonSchema for WordArg<T> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Word".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string"})
    }
}

/// Which CSV column holds what, when the header does not say it plainly, written as a person
/// would say it: `date=Datum; amount=Betrag; payee=Naam` — each role (`date`, `amount` or `debit`
/// and `credit`, `direction` beside an unsigned amount, `payee`, `memo`, `balance`) and its
/// header text, or its 0-based number. One string rather than an object: it says the same in a
/// fifth of the schema a model reads on every turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnsArg(pub Columns);

const COLUMNS_RULE: &str = "must read like \"date=Datum; amount=Betrag; payee=Naam\": date, then amount (or debit and credit, or amount with direction), optionally payee, memo and balance; each a header text or a 0-based column number";

impl ArgField for ColumnsArg {
    const GIVE: &'static str = "the columns, like \"date=Datum; amount=Betrag; payee=Naam\"";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        let text = String::present(name, value)?;
        let mut roles: std::collections::BTreeMap<&str, ColumnRef> =
            std::collections::BTreeMap::new();
        for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let (role, column) = part.split_once('=').ok_or_else(|| {
                ArgError::at(
                    name,
                    format!("{COLUMNS_RULE}; got {}.", crate::text::quoted(part)),
                )
            })?;
            let role = role.trim();
            let known = [
                "date",
                "amount",
                "debit",
                "credit",
                "direction",
                "payee",
                "memo",
                "balance",
            ];
            let Some(role) = known.iter().copied().find(|k| k.eq_ignore_ascii_case(role)) else {
                return Err(ArgError::at(
                    name,
                    format!(
                        "{COLUMNS_RULE}; {} is not one of them.",
                        crate::text::quoted(role)
                    ),
                )
                .into());
            };
            let column = column.trim();
            let column = match column.parse::<usize>() {
                Ok(index) => ColumnRef::Index(index),
                Err(_) => ColumnRef::Name(column.to_string()),
            };
            roles.insert(role, column);
        }
        columns(&mut roles)
            .map(ColumnsArg)
            .ok_or_else(|| ArgError::at(name, format!("{COLUMNS_RULE}.")).into())
    }
}

impl JsonSchema for ColumnsArg {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Columns".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string"})
    }
}

/// The columns `roles` name, when they name a date and one way of reading the amount.
fn columns(roles: &mut std::collections::BTreeMap<&str, ColumnRef>) -> Option<Columns> {
    let date = roles.remove("date")?;
    let amount = match (
        roles.remove("amount"),
        roles.remove("debit"),
        roles.remove("credit"),
        roles.remove("direction"),
    ) {
        (Some(amount), None, None, None) => AmountColumns::Signed(amount),
        (Some(amount), None, None, Some(direction)) => {
            AmountColumns::Directed { amount, direction }
        }
        (None, Some(debit), Some(credit), None) => AmountColumns::DebitCredit { debit, credit },
        _ => return None,
    };
    Some(Columns {
        date,
        amount,
        payee: roles.remove("payee"),
        memo: roles.remove("memo"),
        balance: roles.remove("balance"),
    })
}

/// Where the statement comes from and how to read it: the arguments both tools take.
#[derive(Debug, Clone)]
pub struct Source {
    pub statement: Option<String>,
    pub path: Option<String>,
    pub date_order: Option<DateOrderArg>,
    pub decimal: Option<DecimalArg>,
    pub columns: Option<ColumnsArg>,
}

/// The statement `source` gives, read. `hosted`: the server runs for others and reads no file of
/// its machine on a caller's behalf.
pub fn read(source: Source, hosted: bool) -> Result<Statement, ToolError> {
    let options = ReadOptions {
        date_order: source.date_order.map(|o| o.0),
        decimal: source.decimal.map(|d| d.0),
        columns: source.columns.map(|c| c.0),
        format: None,
    };
    let statement = match (source.statement, source.path) {
        (Some(text), None) => read_text(&text, &options)?,
        (None, Some(_)) if hosted => {
            return Err(ToolError::Refused(
                "This server reads no file from its own disk: pass the statement's text as statement instead of path.".into(),
            ));
        }
        (None, Some(path)) => read_bytes(&file_bytes(&path)?, &options)?,
        (Some(_), Some(_)) => {
            return Err(ArgError::at("path", "give statement or path, not both.").into());
        }
        (None, None) => {
            return Err(ArgError::at(
                "statement",
                "is missing: pass the statement's text as statement (or, on this machine, its file as path).",
            )
            .into());
        }
    };
    Ok(statement)
}

/// A regular file's bytes, refused before reading when it is larger than [`MAX_BYTES`].
fn file_bytes(path: &str) -> Result<Vec<u8>, ToolError> {
    let shown = crate::text::quoted(path);
    let meta = std::fs::metadata(path).map_err(|e| {
        ToolError::Refused(format!(
            "The file {shown} cannot be read ({e}): check the path."
        ))
    })?;
    if !meta.is_file() {
        return Err(ToolError::Refused(format!(
            "{shown} is not a regular file: give the path of the statement file itself."
        )));
    }
    if meta.len() > MAX_BYTES as u64 {
        return Err(crate::statement::StatementError::TooLarge {
            bytes: usize::try_from(meta.len()).unwrap_or(usize::MAX),
            cap: MAX_BYTES,
        }
        .into());
    }
    std::fs::read(path).map_err(|e| {
        ToolError::Refused(format!(
            "The file {shown} cannot be read ({e}): check the path."
        ))
    })
}

/// The account `account_id` names in the plan read, or the sentence that says to take one from
/// `list_accounts`.
pub fn account<'a>(
    plan: &'a PlanDetail,
    account_id: &str,
) -> Result<&'a ynab::models::Account, ToolError> {
    plan.accounts
        .iter()
        .find(|a| a.id == account_id && !a.deleted)
        .ok_or_else(|| {
            ToolError::Refused(format!(
                "No account {} in this plan: take an id from list_accounts.",
                crate::text::quoted(account_id)
            ))
        })
}

/// Refuses a statement of another currency than the plan's, or of another account than
/// `account` when the account's name or note carries a number the statement contradicts.
pub fn check(statement: &Statement, account: &Account, plan: &PlanDetail) -> Result<(), ToolError> {
    let currency = plan.currency_format.as_ref().map(|f| f.iso_code.as_str());
    if let (Some(theirs), Some(ours)) = (statement.currency.as_deref(), currency)
        && !theirs.eq_ignore_ascii_case(ours)
    {
        return Err(ToolError::Refused(format!(
            "The statement is in {}, the plan in {ours}: nothing was compared. Use a statement of an account in {ours}.",
            crate::text::safe(theirs)
        )));
    }
    if let Some(reference) = &statement.account
        && contradicts(reference, account)
    {
        return Err(ToolError::Refused(format!(
            "The statement is for account {}, which does not match the number in the name or note of {}: nothing was compared. Check that this is the right account and statement.",
            masked(reference),
            crate::text::safe(&account.name)
        )));
    }
    Ok(())
}

/// Whether the account's name or note carries a number of four digits or more and none of the
/// statement's references (IBAN, number, last four digits) appears in them.
fn contradicts(reference: &AccountRef, account: &Account) -> bool {
    let text = format!("{} {}", account.name, account.note.as_deref().unwrap_or(""));
    let has_number = text
        .split(|c: char| !c.is_ascii_digit())
        .any(|run| run.len() >= 4);
    if !has_number {
        return false;
    }
    let haystack = AccountRef::normalise(&text);
    !reference
        .needles()
        .iter()
        .any(|n| haystack.contains(n.as_str()))
}

/// The statement's account as the answer shows it: only its last four digits.
pub fn masked(reference: &AccountRef) -> String {
    reference
        .last_four()
        .map_or_else(|| "(no number)".to_string(), |four| format!("…{four}"))
}

/// A statement compared with an account's transactions.
#[derive(Debug)]
pub struct Compared<'a> {
    pub statement: Statement,
    /// The account's transactions compared, as `comparison` indexes them.
    pub ledger: Vec<&'a Transaction>,
    /// Each of them's payee as the bank wrote it (else its payee's name in YNAB).
    pub payees: Vec<&'a str>,
    pub comparison: Comparison,
    /// Each line's import id, as `import_statement` gives it (`YNAB:<milliunits>:<date>:<n>`).
    pub import_ids: Vec<String>,
    /// The first and last day the statement covers.
    pub period: (NaiveDate, NaiveDate),
    /// Why the closing balance differs from YNAB's cleared balance, when the statement has one.
    pub gap: Option<Gap>,
}

/// `statement` compared with the transactions of `account_id` in `plan`: those dated from a
/// month before the statement to a month after it (a pair further apart is no pair).
pub fn compared<'a>(statement: Statement, plan: &'a PlanDetail, account_id: &str) -> Compared<'a> {
    let first = statement.lines.iter().map(|l| l.date).min();
    let last = statement
        .lines
        .iter()
        .map(|l| l.date)
        .chain(statement.closing.as_ref().map(|c| c.date))
        .max();
    let period = match (first, last) {
        (Some(first), Some(last)) => (first, last),
        _ => (NaiveDate::MIN, NaiveDate::MIN),
    };
    let margin = Duration::days(DATE_MISMATCH_DAYS);
    let account: Vec<&Transaction> = plan
        .transactions
        .iter()
        .filter(|t| t.account_id == account_id && !t.deleted)
        .collect();
    // YNAB's dates are YYYY-MM-DD, whose text sorts as the days do: the window is compared as
    // text, and only the transactions within it are parsed.
    let (from, to) = (
        (period.0 - margin).to_string(),
        (period.1 + margin).to_string(),
    );
    let ledger: Vec<&Transaction> = account
        .iter()
        .copied()
        .filter(|t| (from.as_str()..=to.as_str()).contains(&t.date.as_ref()))
        .filter(|t| date_of(t).is_some())
        .collect();
    let import_ids = import_ids(&statement.lines);
    let lines: Vec<Entry> = statement
        .lines
        .iter()
        .zip(&import_ids)
        .map(|(line, id)| Entry {
            date: line.date,
            amount: line.amount,
            payee: &line.payee,
            import_id: Some(id),
        })
        .collect();
    let names = PlanNames::new(plan);
    let payees: Vec<&str> = ledger
        .iter()
        .map(|t| {
            t.import_payee_name_original
                .as_deref()
                .unwrap_or_else(|| names.payee(t.payee_id.as_deref()))
        })
        .collect();
    // Every transaction of the ledger has a date (kept above only if it parsed).
    let entries: Vec<Entry> = ledger
        .iter()
        .zip(&payees)
        .filter_map(|(t, payee)| {
            Some(Entry {
                date: date_of(t)?,
                amount: t.amount,
                payee,
                import_id: t.import_id.as_deref(),
            })
        })
        .collect();
    let comparison = compare(&lines, &entries, period);
    let gap = statement.closing.as_ref().map(|closing| {
        gap(
            closing.amount,
            &statement,
            &account,
            &ledger,
            &comparison,
            period,
        )
    });
    Compared {
        statement,
        ledger,
        payees,
        comparison,
        import_ids,
        period,
        gap,
    }
}

/// A transaction's date (YNAB writes `YYYY-MM-DD`, which `NaiveDate` reads without a pattern).
fn date_of(t: &Transaction) -> Option<NaiveDate> {
    t.date.parse().ok()
}

fn is_cleared(t: &Transaction) -> bool {
    t.cleared == "cleared" || t.cleared == "reconciled"
}

fn gap(
    closing: Milliunits,
    statement: &Statement,
    account: &[&Transaction],
    ledger: &[&Transaction],
    comparison: &Comparison,
    period: (NaiveDate, NaiveDate),
) -> Gap {
    let cleared_balance: Milliunits = account
        .iter()
        .filter(|t| is_cleared(t))
        .map(|t| t.amount)
        .sum();
    let paired: std::collections::HashSet<&str> = comparison
        .matched
        .iter()
        .map(|&(_, t)| t)
        .chain(comparison.mismatched.iter().map(|&(_, t, _)| t))
        .filter_map(|t| ledger.get(t).map(|t| t.id.as_str()))
        .collect();
    // Dates compared as text (YYYY-MM-DD sorts as the days do), the cheapest test first.
    let last = period.1.to_string();
    let cleared_after: Milliunits = account
        .iter()
        .filter(|t| t.date.as_ref() > last.as_str() && is_cleared(t))
        .filter(|t| !paired.contains(t.id.as_str()))
        .map(|t| t.amount)
        .sum();
    let lines: Vec<Milliunits> = statement.lines.iter().map(|l| l.amount).collect();
    let counted: Vec<Counted> = ledger
        .iter()
        .map(|t| Counted {
            amount: t.amount,
            cleared: is_cleared(t),
        })
        .collect();
    explain(
        closing,
        cleared_balance,
        &lines,
        &counted,
        comparison,
        cleared_after,
    )
}

/// Each line's import id as YNAB's file import writes it: `YNAB:<milliunits>:<date>:<n>`, `n`
/// counting the lines of the same amount and date in the statement's order, from 1.
pub fn import_ids(lines: &[StatementLine]) -> Vec<String> {
    let mut seen: std::collections::HashMap<(Milliunits, NaiveDate), usize> =
        std::collections::HashMap::new();
    lines
        .iter()
        .map(|line| {
            let n = seen.entry((line.amount, line.date)).or_insert(0);
            *n += 1;
            // A date displays as YYYY-MM-DD.
            format!("YNAB:{}:{}:{n}", line.amount, line.date)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statement::StatementLine;

    fn line(date: &str, amount: Milliunits) -> StatementLine {
        StatementLine {
            date: NaiveDate::parse_from_str(date, "%Y-%m-%d").unwrap_or(NaiveDate::MIN),
            amount,
            payee: "SHOP".into(),
            memo: None,
            bank_id: None,
            source_line: 1,
        }
    }

    #[test]
    fn import_ids_count_the_same_amount_and_date_in_file_order() {
        let lines = [
            line("2026-09-19", -71_860),
            line("2026-09-19", -71_860),
            line("2026-09-20", -71_860),
            line("2026-09-19", 5_000),
        ];
        assert_eq!(
            import_ids(&lines),
            [
                "YNAB:-71860:2026-09-19:1",
                "YNAB:-71860:2026-09-19:2",
                "YNAB:-71860:2026-09-20:1",
                "YNAB:5000:2026-09-19:1",
            ]
        );
    }

    fn account(name: &str, note: Option<&str>) -> Account {
        let value = serde_json::json!({
            "id": "a", "name": name, "type": "checking", "on_budget": true, "closed": false,
            "note": note, "balance": 0, "cleared_balance": 0, "uncleared_balance": 0,
            "transfer_payee_id": null, "deleted": false
        });
        serde_json::from_value(value).unwrap_or_else(|e| panic!("an account: {e}"))
    }

    #[test]
    fn only_a_number_the_account_carries_can_contradict_the_statement() {
        let iban = AccountRef::from_identifier("FR76 3000 4000 0312 3456 7890 143");
        let Some(iban) = iban else {
            panic!("an IBAN");
        };
        assert!(!contradicts(&iban, &account("Checking", None)));
        assert!(!contradicts(&iban, &account("Checking …0143", None)));
        assert!(!contradicts(
            &iban,
            &account("Joint", Some("IBAN FR76 3000 4000 0312 3456 7890 143"))
        ));
        assert!(contradicts(&iban, &account("Checking 9999", None)));
        assert_eq!(masked(&iban), "…0143");
    }
}
