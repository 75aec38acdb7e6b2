//! Transaction writes with YNAB's rules: create, update (PUT or a bulk PATCH item), delete;
//! payees resolved from `payee_name`, transfers mirrored in the other account, splits.
//!
//! Each function works on a draft of the plan (see `crate::knowledge::commit`), so an error
//! half-way leaves the served plan untouched; the HTTP shapes live in `routes::transactions`.
//!
//! # Rules (YNAB's where documented, the sandbox's choice where marked *chosen*)
//!
//! - **Required on create:** `account_id`, `date`, `amount`. `cleared` defaults to `uncleared`,
//!   `approved` to false. A date after "today" is refused (use a scheduled transaction).
//! - **Ids** in the body must name live entities (a deleted or unknown account, payee or
//!   category is a 400 naming the field).
//! - **Payee:** `payee_id` wins; else `payee_name` resolves to the first live non-transfer payee
//!   of exactly that name, or creates one (no rename rules: the sandbox has none). A name such as
//!   `Transfer : Savings` is an ordinary payee, as in YNAB. On update, `payee_id: null` without a
//!   name clears the payee; `payee_name: null` alone changes nothing (*chosen*).
//! - **Import ids:** unique per account, deleted transactions included (YNAB will not re-import a
//!   deleted one, *chosen* reading). A duplicate is not created: a single `transaction` gets 409,
//!   a `transactions` array lists it in `duplicate_import_ids` (also for duplicates within the
//!   same array). On update, `import_id` only looks a transaction up; it is never changed. The
//!   ±10-day matching of imports against user-entered transactions is not modelled.
//! - **Transfers:** a payee that is an account's transfer payee makes the transaction a transfer:
//!   the other account gets a mirror row (amount negated, same date, the source's memo and
//!   approval, `uncleared`, the source account's transfer payee), both linked by
//!   `transfer_account_id`/`transfer_transaction_id`. Later amount and date changes follow to the
//!   mirror (memo, flag, cleared and approval do not, *chosen*); moving the transaction to another
//!   account or pointing it at another transfer payee replaces the mirror (a new id, as YNAB may
//!   do); a non-transfer payee unlinks it and deletes the mirror. Deleting either side deletes
//!   both. A transfer to the transaction's own account is a 400 (*chosen*).
//! - **Categories:** a transfer between two budget accounts takes none, and a tracking account's
//!   row takes none: a category sent there is dropped (*chosen*; YNAB's UI offers none). The
//!   budget side of a transfer to a tracking account keeps its category; the budget side created
//!   as a mirror of a tracking-account transfer starts uncategorised.
//! - **Splits:** `category_id: null` (or absent) plus `subtransactions` whose amounts sum exactly
//!   to `amount` (else 400); a non-null `category_id` alongside lines is a 400 (*chosen*). A
//!   one-line split becomes an ordinary transaction with that line's category, as YNAB does. An
//!   existing split keeps its lines (sending `subtransactions` is a 400), its category (a non-null
//!   `category_id` is a 400), and ignores new `amount` and `date` values, as the spec says. No split
//!   on a tracking account or on a transfer between budget accounts (1.87). A line may not be a
//!   transfer in the sandbox (a line's transfer payee is a 400) — a known gap.
//! - **Flags:** `flag_color` `null` or `""` removes the flag.

use crate::body::{Fields, IMPORT_ID_MAX, MEMO_MAX, PAYEE_NAME_MAX, Patch};
use crate::error::{ApiError, ApiResult};
use crate::state::PlanState;
use chrono::NaiveDate;
use ynab::models::{Payee, SubTransaction, Transaction};

/// `cleared` values.
pub const CLEARED: &[&str] = &["cleared", "uncleared", "reconciled"];
/// `flag_color` values (`""` = no flag).
pub const FLAG_COLORS: &[&str] = &["red", "orange", "yellow", "green", "blue", "purple", ""];

/// A split line as sent.
#[derive(Debug, Clone, Default)]
pub struct Line {
    pub amount: i64,
    pub payee_id: Option<String>,
    pub payee_name: Option<String>,
    pub category_id: Option<String>,
    pub memo: Option<String>,
}

/// A transaction as sent (`NewTransaction`, `ExistingTransaction`, or a bulk PATCH item).
#[derive(Debug, Clone, Default)]
pub struct Save {
    pub id: Patch<String>,
    pub account_id: Patch<String>,
    pub date: Patch<NaiveDate>,
    pub amount: Patch<i64>,
    pub payee_id: Patch<String>,
    pub payee_name: Patch<String>,
    pub category_id: Patch<String>,
    pub memo: Patch<String>,
    pub cleared: Patch<String>,
    pub approved: Patch<bool>,
    pub flag_color: Patch<String>,
    pub import_id: Patch<String>,
    /// `None` when absent or `null`.
    pub subtransactions: Option<Vec<Line>>,
    /// Ends every message about this save (` (index: N)` in bulk requests).
    pub suffix: String,
}

impl Save {
    /// Reads and checks the fields' types and lengths.
    pub fn read(f: &Fields<'_>) -> ApiResult<Save> {
        let subtransactions = match f.array("subtransactions")? {
            Patch::Set(items) => {
                let mut lines = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let l = f.nested(item, format!("subtransactions[{i}]."))?;
                    lines.push(Line {
                        amount: l.required("amount", l.int("amount")?)?,
                        payee_id: l.string("payee_id", usize::MAX)?.set(),
                        payee_name: l.string("payee_name", PAYEE_NAME_MAX)?.set(),
                        category_id: l.string("category_id", usize::MAX)?.set(),
                        memo: l.string("memo", MEMO_MAX)?.set(),
                    });
                }
                Some(lines)
            }
            _ => None,
        };
        Ok(Save {
            id: f.string("id", usize::MAX)?,
            account_id: f.string("account_id", usize::MAX)?,
            date: f.date("date")?,
            amount: f.int("amount")?,
            payee_id: f.string("payee_id", usize::MAX)?,
            payee_name: f.string("payee_name", PAYEE_NAME_MAX)?,
            category_id: f.string("category_id", usize::MAX)?,
            memo: f.string("memo", MEMO_MAX)?,
            cleared: f.choice("cleared", CLEARED)?,
            approved: f.boolean("approved")?,
            flag_color: f.choice("flag_color", FLAG_COLORS)?,
            import_id: f.string("import_id", IMPORT_ID_MAX)?,
            subtransactions,
            suffix: f.suffix().to_owned(),
        })
    }

    /// A 400 about `field` of this save.
    pub fn fail(&self, field: &str, rule: &str) -> ApiError {
        ApiError::bad(format!("{field} {rule}{}", self.suffix))
    }

    fn required<T: Clone>(&self, field: &str, value: &Patch<T>) -> ApiResult<T> {
        value
            .as_ref()
            .set()
            .cloned()
            .ok_or_else(|| self.fail(field, "is required"))
    }

    fn not_null<T: Clone>(&self, field: &str, value: &Patch<T>) -> ApiResult<Option<T>> {
        match value {
            Patch::Null => Err(self.fail(field, "must not be null")),
            other => Ok(other.as_ref().set().cloned()),
        }
    }
}

/// What a create did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Created {
    /// The new transaction's id.
    Saved(String),
    /// Not created: its `import_id` is already on the account.
    Duplicate(String),
}

/// The index of the live (non-deleted) transaction `id`.
pub fn live(plan: &PlanState, id: &str) -> Option<usize> {
    plan.transactions
        .iter()
        .position(|t| t.id == id && !t.deleted)
}

/// The live transaction carrying `import_id`: 409 when several do.
pub fn by_import_id(plan: &PlanState, import_id: &str, suffix: &str) -> ApiResult<Option<String>> {
    let found: Vec<&Transaction> = plan
        .transactions
        .iter()
        .filter(|t| !t.deleted && t.import_id.as_deref() == Some(import_id))
        .collect();
    match found.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one.id.clone())),
        _ => Err(ApiError::Conflict(format!(
            "import_id '{import_id}' matches {} transactions (on different accounts): update them by id{suffix}",
            found.len()
        ))),
    }
}

fn live_account<'a>(plan: &'a PlanState, id: &str) -> Option<&'a ynab::models::Account> {
    plan.accounts.iter().find(|a| a.id == id && !a.deleted)
}

fn on_budget(plan: &PlanState, account_id: &str) -> bool {
    live_account(plan, account_id).is_some_and(|a| a.on_budget)
}

fn live_payee<'a>(plan: &'a PlanState, id: &str) -> Option<&'a Payee> {
    plan.payees.iter().find(|p| p.id == id && !p.deleted)
}

fn check_account(plan: &PlanState, save: &Save, id: &str) -> ApiResult<()> {
    match live_account(plan, id) {
        Some(_) => Ok(()),
        None => Err(save.fail("account_id", &format!("'{id}' does not exist"))),
    }
}

fn check_category(plan: &PlanState, save: &Save, field: &str, id: &str) -> ApiResult<()> {
    if plan.categories.iter().any(|c| c.id == id && !c.deleted) {
        Ok(())
    } else {
        Err(save.fail(field, &format!("'{id}' does not exist")))
    }
}

fn check_payee(plan: &PlanState, save: &Save, field: &str, id: &str) -> ApiResult<()> {
    match live_payee(plan, id) {
        Some(_) => Ok(()),
        None => Err(save.fail(field, &format!("'{id}' does not exist"))),
    }
}

fn check_date(plan: &PlanState, save: &Save, date: NaiveDate) -> ApiResult<String> {
    if date > plan.today {
        return Err(save.fail(
            "date",
            "must not be in the future (use a scheduled transaction)",
        ));
    }
    Ok(date.format("%Y-%m-%d").to_string())
}

/// The live non-transfer payee named exactly `name`, created if there is none.
pub fn payee_by_name(plan: &mut PlanState, name: &str) -> String {
    if let Some(p) = plan
        .payees
        .iter()
        .find(|p| !p.deleted && p.transfer_account_id.is_none() && p.name == name)
    {
        return p.id.clone().into();
    }
    let id = plan.new_id("payee");
    plan.payees.push(Payee {
        id: id.clone().into(),
        name: name.to_owned().into(),
        transfer_account_id: None,
        deleted: false,
    });
    id
}

/// The payee a save asks for: absent (unchanged), `Null` (none) or an id (see the module doc).
pub fn resolve_payee(
    plan: &mut PlanState,
    save: &Save,
    payee_id: &Patch<String>,
    payee_name: &Patch<String>,
) -> ApiResult<Patch<String>> {
    match (payee_id, payee_name) {
        (Patch::Set(id), _) => {
            check_payee(plan, save, "payee_id", id)?;
            Ok(Patch::Set(id.clone()))
        }
        (_, Patch::Set(name)) => Ok(Patch::Set(payee_by_name(plan, name))),
        (Patch::Null, _) => Ok(Patch::Null),
        (Patch::Absent, _) => Ok(Patch::Absent),
    }
}

fn flag(value: &Patch<String>) -> Patch<String> {
    match value {
        Patch::Set(color) if color.is_empty() => Patch::Null,
        other => other.clone(),
    }
}

/// Creates the transaction `save` describes (see the module doc).
pub fn create(plan: &mut PlanState, save: &Save) -> ApiResult<Created> {
    let account_id = save.required("account_id", &save.account_id)?;
    check_account(plan, save, &account_id)?;
    let date = check_date(plan, save, save.required("date", &save.date)?)?;
    let amount = save.required("amount", &save.amount)?;
    if let Patch::Set(import_id) = &save.import_id
        && plan
            .transactions
            .iter()
            .any(|t| t.account_id == account_id && t.import_id.as_deref() == Some(import_id))
    {
        return Ok(Created::Duplicate(import_id.clone()));
    }
    let payee_id = resolve_payee(plan, save, &save.payee_id, &save.payee_name)?.set();
    let lines = save.subtransactions.as_deref().filter(|l| !l.is_empty());
    let category_id = match (&save.category_id, lines) {
        (Patch::Set(_), Some(_)) => {
            return Err(save.fail("category_id", "must be null when subtransactions are sent"));
        }
        (Patch::Set(c), None) => {
            check_category(plan, save, "category_id", c)?;
            Some(c.clone())
        }
        _ => None,
    };
    let id = plan.new_id("transaction");
    plan.transactions.push(Transaction {
        id: id.clone(),
        date,
        amount,
        memo: save.memo.clone().set(),
        cleared: save
            .cleared
            .clone()
            .set()
            .unwrap_or_else(|| "uncleared".into()),
        approved: save.approved.clone().set().unwrap_or(false),
        flag_color: flag(&save.flag_color).set(),
        flag_name: None,
        account_id,
        payee_id,
        category_id,
        transfer_account_id: None,
        transfer_transaction_id: None,
        matched_transaction_id: None,
        import_id: save.import_id.clone().set(),
        import_payee_name: None,
        import_payee_name_original: None,
        debt_transaction_type: None,
        deleted: false,
        account_name: None,
        payee_name: None,
        category_name: None,
        subtransactions: Vec::new(),
    });
    let index = plan.transactions.len() - 1;
    if let Some(lines) = lines {
        split(plan, save, index, lines)?;
    }
    settle(plan, save, index)?;
    Ok(Created::Saved(id))
}

/// Applies `save` to the live transaction `id` (see the module doc); `NotFound` if there is none.
pub fn update(plan: &mut PlanState, id: &str, save: &Save) -> ApiResult<()> {
    let index = live(plan, id).ok_or(ApiError::NotFound)?;
    let is_split = plan.transactions[index]
        .subtransactions
        .iter()
        .any(|s| !s.deleted);
    if let Some(account_id) = save.not_null("account_id", &save.account_id)? {
        check_account(plan, save, &account_id)?;
        plan.transactions[index].account_id = account_id;
    }
    if let Some(date) = save.not_null("date", &save.date)? {
        let date = check_date(plan, save, date)?;
        if !is_split {
            plan.transactions[index].date = date;
        }
    }
    if let Some(amount) = save.not_null("amount", &save.amount)?
        && !is_split
    {
        plan.transactions[index].amount = amount;
    }
    let payee = resolve_payee(plan, save, &save.payee_id, &save.payee_name)?;
    let t = &mut plan.transactions[index];
    t.payee_id = payee.apply(t.payee_id.take());
    let lines = save.subtransactions.as_deref();
    match (&save.category_id, lines) {
        (Patch::Set(_), Some(l)) if !l.is_empty() => {
            return Err(save.fail("category_id", "must be null when subtransactions are sent"));
        }
        (Patch::Set(c), _) => {
            if is_split {
                return Err(save.fail("category_id", "of a split cannot be changed"));
            }
            check_category(plan, save, "category_id", c)?;
            plan.transactions[index].category_id = Some(c.clone());
        }
        (Patch::Null, _) if !is_split => plan.transactions[index].category_id = None,
        _ => {}
    }
    if let Some(lines) = lines {
        if is_split {
            return Err(save.fail("subtransactions", "of an existing split cannot be changed"));
        }
        if !lines.is_empty() {
            split(plan, save, index, lines)?;
        }
    }
    let cleared = save.not_null("cleared", &save.cleared)?;
    let approved = save.not_null("approved", &save.approved)?;
    let t = &mut plan.transactions[index];
    t.memo = save.memo.clone().apply(t.memo.take());
    if let Some(cleared) = cleared {
        t.cleared = cleared;
    }
    if let Some(approved) = approved {
        t.approved = approved;
    }
    t.flag_color = flag(&save.flag_color).apply(t.flag_color.take());
    settle(plan, save, index)
}

/// Deletes the live transaction `id` and, for a transfer, its other side; `NotFound` if none.
pub fn delete(plan: &mut PlanState, id: &str) -> ApiResult<()> {
    let index = live(plan, id).ok_or(ApiError::NotFound)?;
    mark_deleted(plan, index);
    if let Some(other) = plan.transactions[index].transfer_transaction_id.clone()
        && let Some(j) = live(plan, &other)
    {
        mark_deleted(plan, j);
    }
    Ok(())
}

fn mark_deleted(plan: &mut PlanState, index: usize) {
    let t = &mut plan.transactions[index];
    t.deleted = true;
    for line in &mut t.subtransactions {
        line.deleted = true;
    }
}

/// Turns the transaction at `index` into a split of `lines` (or, for one line, into an ordinary
/// transaction with that line's category).
fn split(plan: &mut PlanState, save: &Save, index: usize, lines: &[Line]) -> ApiResult<()> {
    let amount = plan.transactions[index].amount;
    let sum: i128 = lines.iter().map(|l| i128::from(l.amount)).sum();
    if sum != i128::from(amount) {
        return Err(save.fail(
            "subtransactions",
            &format!("amounts must sum to the transaction's amount ({sum} ≠ {amount} milliunits)"),
        ));
    }
    let mut resolved = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let payee_id = match (&line.payee_id, &line.payee_name) {
            (Some(p), _) => {
                let field = format!("subtransactions[{i}].payee_id");
                check_payee(plan, save, &field, p)?;
                if live_payee(plan, p).is_some_and(|p| p.transfer_account_id.is_some()) {
                    return Err(save.fail(
                        &field,
                        "is a transfer payee: the sandbox does not support transfers in split lines",
                    ));
                }
                Some(p.clone())
            }
            (None, Some(name)) => Some(payee_by_name(plan, name)),
            (None, None) => None,
        };
        if let Some(c) = &line.category_id {
            check_category(plan, save, &format!("subtransactions[{i}].category_id"), c)?;
        }
        resolved.push((line, payee_id));
    }
    if let [(line, payee_id)] = resolved.as_slice() {
        let t = &mut plan.transactions[index];
        t.category_id = line.category_id.clone();
        t.memo = t.memo.take().or_else(|| line.memo.clone());
        t.payee_id = t.payee_id.take().or_else(|| payee_id.clone());
        return Ok(());
    }
    let parent = plan.transactions[index].id.clone();
    let mut subtransactions = Vec::with_capacity(resolved.len());
    for (line, payee_id) in resolved {
        subtransactions.push(SubTransaction {
            id: plan.new_id("subtransaction"),
            transaction_id: parent.clone(),
            amount: line.amount,
            memo: line.memo.clone(),
            payee_id,
            payee_name: None,
            category_id: line.category_id.clone(),
            category_name: None,
            transfer_account_id: None,
            transfer_transaction_id: None,
            deleted: false,
        });
    }
    let t = &mut plan.transactions[index];
    t.category_id = None;
    t.subtransactions = subtransactions;
    Ok(())
}

/// After a save: the split and category rules, and the transfer's mirror (see the module doc).
fn settle(plan: &mut PlanState, save: &Save, index: usize) -> ApiResult<()> {
    let t = &plan.transactions[index];
    let own_on_budget = on_budget(plan, &t.account_id);
    let is_split = t.subtransactions.iter().any(|s| !s.deleted);
    if is_split && !own_on_budget {
        return Err(save.fail("subtransactions", "are not allowed on a tracking account"));
    }
    let target = t
        .payee_id
        .as_deref()
        .and_then(|p| live_payee(plan, p))
        .and_then(|p| p.transfer_account_id.clone())
        .filter(|a| live_account(plan, a).is_some());
    match target {
        Some(other) if other == t.account_id => Err(save.fail(
            "payee_id",
            "is the transfer payee of the transaction's own account",
        )),
        Some(other) => {
            let other_on_budget = on_budget(plan, &other);
            if own_on_budget && other_on_budget {
                if is_split {
                    return Err(save.fail(
                        "subtransactions",
                        "are not allowed on a transfer between budget accounts",
                    ));
                }
                plan.transactions[index].category_id = None;
            }
            if !own_on_budget {
                plan.transactions[index].category_id = None;
            }
            mirror(plan, save, index, &other)
        }
        None => {
            if !own_on_budget {
                plan.transactions[index].category_id = None;
            }
            unlink(plan, index);
            Ok(())
        }
    }
}

/// Creates or updates the other side of the transfer at `index`, into account `other`.
fn mirror(plan: &mut PlanState, save: &Save, index: usize, other: &str) -> ApiResult<()> {
    let t = plan.transactions[index].clone();
    let own_payee = live_account(plan, &t.account_id).and_then(|a| a.transfer_payee_id.clone());
    let mirror_takes_category = on_budget(plan, other) && !on_budget(plan, &t.account_id);
    let existing = t
        .transfer_transaction_id
        .as_deref()
        .and_then(|m| live(plan, m));
    match existing {
        Some(j) if plan.transactions[j].account_id == other => {
            let m = &mut plan.transactions[j];
            let is_split = m.subtransactions.iter().any(|s| !s.deleted);
            if is_split && m.amount != -t.amount {
                return Err(save.fail(
                    "amount",
                    "cannot change: the other side of this transfer is a split",
                ));
            }
            m.amount = -t.amount;
            m.date = t.date.clone();
            m.payee_id = own_payee;
            m.transfer_account_id = Some(t.account_id.clone());
            m.transfer_transaction_id = Some(t.id.clone());
            if !mirror_takes_category {
                m.category_id = None;
            }
        }
        stale => {
            if let Some(j) = stale {
                mark_deleted(plan, j);
            }
            let id = plan.new_id("transaction");
            plan.transactions.push(Transaction {
                id: id.clone(),
                date: t.date.clone(),
                amount: -t.amount,
                memo: t.memo.clone(),
                cleared: "uncleared".into(),
                approved: t.approved,
                flag_color: None,
                flag_name: None,
                account_id: other.to_owned(),
                payee_id: own_payee,
                category_id: None,
                transfer_account_id: Some(t.account_id.clone()),
                transfer_transaction_id: Some(t.id.clone()),
                matched_transaction_id: None,
                import_id: None,
                import_payee_name: None,
                import_payee_name_original: None,
                debt_transaction_type: None,
                deleted: false,
                account_name: None,
                payee_name: None,
                category_name: None,
                subtransactions: Vec::new(),
            });
            plan.transactions[index].transfer_transaction_id = Some(id);
        }
    }
    plan.transactions[index].transfer_account_id = Some(other.to_owned());
    Ok(())
}

/// No longer a transfer: the other side goes.
fn unlink(plan: &mut PlanState, index: usize) {
    if let Some(other) = plan.transactions[index].transfer_transaction_id.take()
        && let Some(j) = live(plan, &other)
    {
        mark_deleted(plan, j);
    }
    plan.transactions[index].transfer_account_id = None;
}
