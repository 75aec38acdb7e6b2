//! Loading a plan from a JSON file in the shape of YNAB's `GET /plans/{plan_id}` answer, so that a
//! person can serve a copy of their own plan from the sandbox and try every tool on it safely.
//!
//! # What is read
//!
//! The file holds YNAB's answer as it came, `{"data": {"plan": {…}, "server_knowledge": N}}`, or
//! only its `data` (`{"plan": {…}}`), or only the plan object (a `PlanDetail`). From the plan:
//! `id` and `name` (required); `last_modified_on`, `first_month`, `last_month`, `date_format`,
//! `currency_format` (optional: without them the builder's defaults hold, EUR and `YYYY-MM-DD`,
//! and the months span the data, or today's month); `accounts`, `category_groups`, `categories`
//! (their target settings kept), `payees`, `transactions` with `subtransactions` (linked by
//! `transaction_id`), `scheduled_transactions` with `scheduled_subtransactions` (linked by
//! `scheduled_transaction_id`), and `months[].categories[].budgeted`, which becomes the assigned
//! amount of each (month, category). A missing list counts as empty.
//!
//! # Rules
//!
//! - Only facts are kept: derived figures in the file (balances, month and category amounts,
//!   target figures, `*_name` fields) are dropped and recomputed by `compute`, so they may be
//!   absent. `deleted` and `hidden` default to false.
//! - Entities marked `deleted: true` are left out (with the lines of a deleted transaction), and so
//!   are assigned amounts of categories the file does not hold and zero amounts.
//! - Every other field YNAB always sends is required: ids, names, an account's `type`,
//!   `on_budget` and `closed`, a category's `category_group_id`, a transaction's `date`, `amount`,
//!   `cleared`, `approved` and `account_id`, and so on. A transaction or schedule must name an
//!   account of the file, a category a group of it, a line a transaction of it.
//! - An export made before YNAB marked its own groups `internal` has no such flag: the group named
//!   `Internal Master Category` and its categories are then marked internal, so that `Inflow: Ready
//!   to Assign` is recognised.
//! - "Today" is the caller's; the sandbox's own `server_knowledge` starts afresh (the file's value
//!   means nothing to it).
//!
//! Every error is a sentence that names the file, what is wrong (the entity and the field) and
//! what to do.

use crate::builder::{PlanBuilder, month_of};
use crate::compute::parse_month;
use crate::state::PlanState;
use chrono::NaiveDate;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use ynab::models::{
    Account, Category, CategoryGroup, CurrencyFormat, DateFormat, Payee, ScheduledSubTransaction,
    ScheduledTransaction, ScheduledTransactionSummary, SubTransaction, Transaction,
    TransactionSummary,
};

/// Why a plan file could not be loaded; its `Display` is the sentence to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanFileError {
    /// The file could not be read.
    Unreadable { path: PathBuf, reason: String },
    /// The file is not JSON.
    NotJson { path: PathBuf, reason: String },
    /// The JSON holds no plan.
    NoPlan { path: PathBuf },
    /// An entity (or the plan itself) lacks a required field or breaks a rule.
    Invalid { path: PathBuf, problem: String },
}

impl fmt::Display for PlanFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanFileError::Unreadable { path, reason } => write!(
                f,
                "Cannot read the plan file {}: {reason}. Check the path and that you may read it.",
                path.display()
            ),
            PlanFileError::NotJson { path, reason } => write!(
                f,
                "The plan file {} is not JSON ({reason}). Save the body of YNAB's answer to \
                 GET /plans/{{plan_id}} as it came.",
                path.display()
            ),
            PlanFileError::NoPlan { path } => write!(
                f,
                "The plan file {} holds no plan: expected YNAB's answer to GET /plans/{{plan_id}} \
                 ({{\"data\": {{\"plan\": {{...}}}}}}) or the plan object itself. Save that answer \
                 as it came.",
                path.display()
            ),
            PlanFileError::Invalid { path, problem } => write!(
                f,
                "The plan file {} is not a plan as YNAB exports it: {problem}. Fix that entry, or \
                 export the plan again.",
                path.display()
            ),
        }
    }
}

impl std::error::Error for PlanFileError {}

/// Loads the plan in `path` (see the module doc), with "today" `today`.
pub fn plan_from_file(path: &Path, today: NaiveDate) -> Result<PlanState, PlanFileError> {
    let bytes = std::fs::read(path).map_err(|e| PlanFileError::Unreadable {
        path: path.to_owned(),
        reason: e.to_string(),
    })?;
    let root: Value = serde_json::from_slice(&bytes).map_err(|e| PlanFileError::NotJson {
        path: path.to_owned(),
        reason: e.to_string(),
    })?;
    let reader = Reader { path };
    let plan = find_plan(&root).ok_or_else(|| PlanFileError::NoPlan {
        path: path.to_owned(),
    })?;
    reader.plan(plan, today)
}

/// The plan object: `data.plan`, `plan`, or the root when it looks like a plan.
fn find_plan(root: &Value) -> Option<&Map<String, Value>> {
    let root = root.as_object()?;
    if let Some(data) = root.get("data") {
        return data.get("plan")?.as_object();
    }
    if let Some(plan) = root.get("plan") {
        return plan.as_object();
    }
    let looks_like_plan = root.contains_key("id")
        && ["accounts", "categories", "transactions", "name"]
            .iter()
            .any(|k| root.contains_key(*k));
    looks_like_plan.then_some(root)
}

/// An id for messages: the entity's `id`, quoted, when it has one.
fn id_of(value: &Value) -> String {
    match value.get("id").and_then(Value::as_str) {
        Some(id) => format!(" (id {id:?})"),
        None => String::new(),
    }
}

fn is_deleted(value: &Value) -> bool {
    value.get("deleted").and_then(Value::as_bool) == Some(true)
}

/// The text of a serde error about one entity, as the rest of a sentence.
fn describe(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text
        .strip_prefix("missing field `")
        .and_then(|r| r.split('`').next())
    {
        Some(field) => format!("lacks the required field `{field}`"),
        None => format!("has a field of the wrong kind ({text})"),
    }
}

struct Reader<'a> {
    path: &'a Path,
}

impl Reader<'_> {
    fn invalid(&self, problem: String) -> PlanFileError {
        PlanFileError::Invalid {
            path: self.path.to_owned(),
            problem,
        }
    }

    /// The raw, non-deleted objects of the list `key` (none when absent or null).
    fn list<'v>(
        &self,
        plan: &'v Map<String, Value>,
        key: &str,
    ) -> Result<Vec<(usize, &'v Value)>, PlanFileError> {
        match plan.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => {
                let mut out = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    if !item.is_object() {
                        return Err(
                            self.invalid(format!("entry {} of `{key}` is not an object", i + 1))
                        );
                    }
                    if !is_deleted(item) {
                        out.push((i, item));
                    }
                }
                Ok(out)
            }
            Some(_) => Err(self.invalid(format!("`{key}` is not a list"))),
        }
    }

    /// Every non-deleted entity of the list `key`, read as `T` once the derived fields are reset
    /// to `reset` (and defaults filled where missing).
    fn entities<T: DeserializeOwned>(
        &self,
        plan: &Map<String, Value>,
        key: &str,
        noun: &str,
        defaults: &[(&str, Value)],
        reset: &[(&str, Value)],
    ) -> Result<Vec<T>, PlanFileError> {
        let mut out = Vec::new();
        for (i, raw) in self.list(plan, key)? {
            let mut object = raw.as_object().cloned().unwrap_or_default();
            for (field, value) in defaults {
                if object.get(*field).is_none_or(Value::is_null) {
                    object.insert((*field).to_owned(), value.clone());
                }
            }
            for (field, value) in reset {
                object.insert((*field).to_owned(), value.clone());
            }
            let entity = serde_json::from_value(Value::Object(object)).map_err(|e| {
                self.invalid(format!("{noun} {}{} {}", i + 1, id_of(raw), describe(&e)))
            })?;
            out.push(entity);
        }
        Ok(out)
    }

    fn plan(
        &self,
        plan: &Map<String, Value>,
        today: NaiveDate,
    ) -> Result<PlanState, PlanFileError> {
        let text = |key: &str| -> Result<String, PlanFileError> {
            plan.get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| self.invalid(format!("the plan lacks the required field `{key}`")))
        };
        let (id, name) = (text("id")?, text("name")?);
        let mut state = PlanBuilder::new("plan-file", &name, today).build();
        state.id = id;
        if let Some(at) = plan.get("last_modified_on").and_then(Value::as_str) {
            state.last_modified_on = at.to_owned();
        }
        if let Some(format) = self.optional::<DateFormat>(plan, "date_format")? {
            state.date_format = format;
        }
        if let Some(format) = self.optional::<CurrencyFormat>(plan, "currency_format")? {
            state.currency_format = format;
        }

        let no = Value::Bool(false);
        let zero = Value::from(0);
        let deleted = [("deleted", no.clone())];
        let account_figures = [
            ("balance", zero.clone()),
            ("cleared_balance", zero.clone()),
            ("uncleared_balance", zero.clone()),
        ];
        state.accounts =
            self.entities::<Account>(plan, "accounts", "account", &deleted, &account_figures)?;
        state.groups = self.entities::<CategoryGroup>(
            plan,
            "category_groups",
            "category group",
            &[("deleted", no.clone()), ("hidden", no.clone())],
            &[],
        )?;
        let category_figures = [
            ("budgeted", zero.clone()),
            ("activity", zero.clone()),
            ("balance", zero.clone()),
            ("goal_percentage_complete", Value::Null),
            ("goal_months_to_budget", Value::Null),
            ("goal_under_funded", Value::Null),
            ("goal_overall_funded", Value::Null),
            ("goal_overall_left", Value::Null),
        ];
        state.categories = self.entities::<Category>(
            plan,
            "categories",
            "category",
            &[("deleted", no.clone()), ("hidden", no.clone())],
            &category_figures,
        )?;
        state.payees = self.entities::<Payee>(plan, "payees", "payee", &deleted, &[])?;
        self.check_groups(&state)?;
        mark_internal(&mut state, plan);

        let accounts: BTreeSet<String> = state.accounts.iter().map(|a| a.id.clone()).collect();
        state.transactions = self.transactions(plan, &accounts)?;
        state.scheduled = self.scheduled(plan, &accounts)?;
        state.assigned = self.assigned(plan, &state)?;
        let (first, last) = self.months(plan, &state, today)?;
        state.first_month = first;
        state.last_month = last;
        state.today = today;
        Ok(state)
    }

    fn optional<T: DeserializeOwned>(
        &self,
        plan: &Map<String, Value>,
        key: &str,
    ) -> Result<Option<T>, PlanFileError> {
        match plan.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => serde_json::from_value(value.clone())
                .map(Some)
                .map_err(|e| self.invalid(format!("the plan's `{key}` {}", describe(&e)))),
        }
    }

    fn check_groups(&self, state: &PlanState) -> Result<(), PlanFileError> {
        let groups: BTreeSet<&str> = state.groups.iter().map(|g| g.id.as_str()).collect();
        match state
            .categories
            .iter()
            .find(|c| !groups.contains(c.category_group_id.as_str()))
        {
            Some(c) => Err(self.invalid(format!(
                "category {:?} (id {:?}) names the group {:?}, which is not among the file's \
                 category_groups",
                c.name, c.id, c.category_group_id
            ))),
            None => Ok(()),
        }
    }

    fn transactions(
        &self,
        plan: &Map<String, Value>,
        accounts: &BTreeSet<String>,
    ) -> Result<Vec<Transaction>, PlanFileError> {
        let deleted = [("deleted", Value::Bool(false))];
        let flat: Vec<TransactionSummary> =
            self.entities(plan, "transactions", "transaction", &deleted, &[])?;
        let lines: Vec<SubTransaction> = self.entities(
            plan,
            "subtransactions",
            "subtransaction",
            &deleted,
            &[("payee_name", Value::Null), ("category_name", Value::Null)],
        )?;
        let all_ids = self.all_ids(plan, "transactions");
        let mut by_parent: BTreeMap<String, Vec<SubTransaction>> = BTreeMap::new();
        for line in lines {
            if !all_ids.contains(&line.transaction_id) {
                return Err(self.invalid(format!(
                    "subtransaction {:?} names the transaction {:?}, which is not among the \
                     file's transactions",
                    line.id, line.transaction_id
                )));
            }
            by_parent
                .entry(line.transaction_id.clone())
                .or_default()
                .push(line);
        }
        flat.into_iter()
            .map(|t| {
                if !accounts.contains(t.account_id.as_str()) {
                    return Err(self.unknown_account("transaction", &t.id, &t.account_id));
                }
                let subtransactions = by_parent.remove(t.id.as_str()).unwrap_or_default();
                Ok(Transaction {
                    id: t.id.into(),
                    date: t.date.into(),
                    amount: t.amount,
                    memo: t.memo.map(Into::into),
                    cleared: t.cleared.into(),
                    approved: t.approved,
                    flag_color: t.flag_color.map(Into::into),
                    flag_name: t.flag_name.map(Into::into),
                    account_id: t.account_id.into(),
                    payee_id: t.payee_id.map(Into::into),
                    category_id: t.category_id.map(Into::into),
                    transfer_account_id: t.transfer_account_id.map(Into::into),
                    transfer_transaction_id: t.transfer_transaction_id.map(Into::into),
                    matched_transaction_id: t.matched_transaction_id.map(Into::into),
                    import_id: t.import_id.map(Into::into),
                    import_payee_name: t.import_payee_name.map(Into::into),
                    import_payee_name_original: t.import_payee_name_original.map(Into::into),
                    debt_transaction_type: t.debt_transaction_type.map(Into::into),
                    deleted: false,
                    account_name: None,
                    payee_name: None,
                    category_name: None,
                    subtransactions,
                })
            })
            .collect()
    }

    fn scheduled(
        &self,
        plan: &Map<String, Value>,
        accounts: &BTreeSet<String>,
    ) -> Result<Vec<ScheduledTransaction>, PlanFileError> {
        let deleted = [("deleted", Value::Bool(false))];
        let flat: Vec<ScheduledTransactionSummary> = self.entities(
            plan,
            "scheduled_transactions",
            "scheduled transaction",
            &deleted,
            &[],
        )?;
        let lines: Vec<ScheduledSubTransaction> = self.entities(
            plan,
            "scheduled_subtransactions",
            "scheduled subtransaction",
            &deleted,
            &[("payee_name", Value::Null), ("category_name", Value::Null)],
        )?;
        let all_ids = self.all_ids(plan, "scheduled_transactions");
        let mut by_parent: BTreeMap<String, Vec<ScheduledSubTransaction>> = BTreeMap::new();
        for line in lines {
            if !all_ids.contains(&line.scheduled_transaction_id) {
                return Err(self.invalid(format!(
                    "scheduled subtransaction {:?} names the scheduled transaction {:?}, which is \
                     not among the file's scheduled_transactions",
                    line.id, line.scheduled_transaction_id
                )));
            }
            by_parent
                .entry(line.scheduled_transaction_id.clone())
                .or_default()
                .push(line);
        }
        flat.into_iter()
            .map(|s| {
                if !accounts.contains(s.account_id.as_str()) {
                    return Err(self.unknown_account(
                        "scheduled transaction",
                        &s.id,
                        &s.account_id,
                    ));
                }
                let subtransactions = by_parent.remove(s.id.as_str()).unwrap_or_default();
                Ok(ScheduledTransaction {
                    id: s.id.into(),
                    date_first: s.date_first.into(),
                    date_next: s.date_next.into(),
                    frequency: s.frequency.into(),
                    amount: s.amount,
                    memo: s.memo.map(Into::into),
                    flag_color: s.flag_color.map(Into::into),
                    flag_name: s.flag_name.map(Into::into),
                    account_id: s.account_id.into(),
                    payee_id: s.payee_id.map(Into::into),
                    category_id: s.category_id.map(Into::into),
                    transfer_account_id: s.transfer_account_id.map(Into::into),
                    deleted: false,
                    account_name: None,
                    payee_name: None,
                    category_name: None,
                    subtransactions,
                })
            })
            .collect()
    }

    fn unknown_account(&self, noun: &str, id: &str, account: &str) -> PlanFileError {
        self.invalid(format!(
            "{noun} {id:?} names the account {account:?}, which is not among the file's accounts"
        ))
    }

    /// The ids of every entry of the list `key`, deleted ones included.
    fn all_ids(&self, plan: &Map<String, Value>, key: &str) -> BTreeSet<String> {
        plan.get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.get("id").and_then(Value::as_str).map(str::to_owned))
            .collect()
    }

    /// Assigned amounts from `months[].categories[].budgeted`.
    fn assigned(
        &self,
        plan: &Map<String, Value>,
        state: &PlanState,
    ) -> Result<BTreeMap<(String, String), i64>, PlanFileError> {
        let known: BTreeSet<&str> = state.categories.iter().map(|c| c.id.as_str()).collect();
        let mut out = BTreeMap::new();
        for (i, month) in self.list(plan, "months")? {
            let label = month
                .get("month")
                .and_then(Value::as_str)
                .and_then(parse_month)
                .ok_or_else(|| {
                    self.invalid(format!(
                        "month {} lacks the required field `month` (a date, YYYY-MM-01)",
                        i + 1
                    ))
                })?
                .format("%Y-%m-%d")
                .to_string();
            let categories = match month.get("categories") {
                None | Some(Value::Null) => continue,
                Some(Value::Array(list)) => list,
                Some(_) => {
                    return Err(self.invalid(format!("month {label}'s `categories` is not a list")));
                }
            };
            for (k, c) in categories
                .iter()
                .enumerate()
                .filter(|(_, c)| !is_deleted(c))
            {
                let place = || format!("category {} of month {label}{}", k + 1, id_of(c));
                let id = c.get("id").and_then(Value::as_str).ok_or_else(|| {
                    self.invalid(format!("{} lacks the required field `id`", place()))
                })?;
                let budgeted = c.get("budgeted").and_then(Value::as_i64).ok_or_else(|| {
                    self.invalid(format!(
                        "{} lacks the required field `budgeted` (integer milliunits)",
                        place()
                    ))
                })?;
                if budgeted != 0 && known.contains(id) {
                    out.insert((label.clone(), id.to_owned()), budgeted);
                }
            }
        }
        Ok(out)
    }

    /// The plan's first and last months: the file's, else those the data spans, else today's.
    fn months(
        &self,
        plan: &Map<String, Value>,
        state: &PlanState,
        today: NaiveDate,
    ) -> Result<(NaiveDate, NaiveDate), PlanFileError> {
        let mut spanned: Vec<NaiveDate> = state
            .transactions
            .iter()
            .filter_map(|t| parse_month(&t.date))
            .chain(state.assigned.keys().filter_map(|(m, _)| parse_month(m)))
            .collect();
        spanned.sort();
        let read = |key: &str, fallback: NaiveDate| -> Result<NaiveDate, PlanFileError> {
            match plan.get(key) {
                None | Some(Value::Null) => Ok(fallback),
                Some(value) => value.as_str().and_then(parse_month).ok_or_else(|| {
                    self.invalid(format!(
                        "the plan's `{key}` is {value}, which is not a date YYYY-MM-01"
                    ))
                }),
            }
        };
        let current = month_of(today);
        let first = read("first_month", spanned.first().copied().unwrap_or(current))?;
        let last = read("last_month", spanned.last().copied().unwrap_or(current))?;
        Ok((first, last))
    }
}

/// Marks YNAB's own group and its categories `internal` when the file flags no group at all.
fn mark_internal(state: &mut PlanState, plan: &Map<String, Value>) {
    let flagged = plan
        .get("category_groups")
        .and_then(Value::as_array)
        .is_some_and(|groups| groups.iter().any(|g| g.get("internal").is_some()));
    if flagged {
        return;
    }
    let mut internal = BTreeSet::new();
    for g in &mut state.groups {
        if g.name == "Internal Master Category" {
            g.internal = true;
            internal.insert(g.id.clone());
        }
    }
    for c in &mut state.categories {
        if internal.contains(c.category_group_id.as_str()) {
            c.internal = true;
        }
    }
}

#[cfg(test)]
mod tests;
