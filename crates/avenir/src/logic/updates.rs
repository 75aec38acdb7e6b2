//! Changes asked for on existing transactions (`docs/writes/update_transactions.md`): the checks
//! YNAB would make (a split's amount, date or category; a transfer's category between budget
//! accounts; a future date), the fields that really change, and each field's value as the journal
//! and the undo compare it.

use crate::logic::assignable::{CategoryIndex, Role};
use crate::logic::created::digest;
use crate::logic::flags::current_flag;
use crate::logic::names::{PlanNames, SplitLines};
use crate::money::MoneyFormat;
use crate::text::safe;
use serde_json::{Value, json};
use std::collections::HashMap;
use ynab::models::{Milliunits, PlanDetail, TransactionSummary};

/// At most this many transactions in one call.
pub const MAX_UPDATES: usize = 100;

/// The payee asked for: an existing payee, or one by name (found, or new).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayeeAsked {
    Id(String),
    Name(String),
}

/// One transaction's changes as asked: `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UpdateAsked {
    pub transaction_id: String,
    pub date: Option<String>,
    pub amount: Option<Milliunits>,
    pub payee: Option<PayeeAsked>,
    pub category_id: Option<String>,
    /// `Some(None)`: no memo.
    pub memo: Option<Option<String>>,
    pub account_id: Option<String>,
    pub cleared: Option<String>,
    pub approved: Option<bool>,
    /// `Some(None)`: no flag.
    pub flag: Option<Option<&'static str>>,
}

impl UpdateAsked {
    fn asks_nothing(&self) -> bool {
        self.date.is_none()
            && self.amount.is_none()
            && self.payee.is_none()
            && self.category_id.is_none()
            && self.memo.is_none()
            && self.account_id.is_none()
            && self.cleared.is_none()
            && self.approved.is_none()
            && self.flag.is_none()
    }
}

/// A field of a transaction this tool changes, by the name YNAB gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    Date,
    Amount,
    Payee,
    Category,
    Memo,
    Account,
    Cleared,
    Approved,
    Flag,
}

crate::logic::field_key::field_key!(Field, "a field update_transactions changes");

impl Field {
    pub const ALL: [Field; 9] = [
        Field::Date,
        Field::Amount,
        Field::Payee,
        Field::Category,
        Field::Memo,
        Field::Account,
        Field::Cleared,
        Field::Approved,
        Field::Flag,
    ];

    /// YNAB's name of the field (the journal's key).
    pub fn key(self) -> &'static str {
        match self {
            Field::Date => "date",
            Field::Amount => "amount",
            Field::Payee => "payee_id",
            Field::Category => "category_id",
            Field::Memo => "memo",
            Field::Account => "account_id",
            Field::Cleared => "cleared",
            Field::Approved => "approved",
            Field::Flag => "flag_color",
        }
    }

    pub fn from_key(key: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|f| f.key() == key)
    }

    /// How the question names it.
    pub fn label(self) -> &'static str {
        match self {
            Field::Date => "date",
            Field::Amount => "amount",
            Field::Payee => "payee",
            Field::Category => "category",
            Field::Memo => "memo",
            Field::Account => "account",
            Field::Cleared => "cleared",
            Field::Approved => "approved",
            Field::Flag => "flag",
        }
    }

    /// Plan data the journal's privacy rule keeps out of the intents file (D31): a transaction's
    /// date, amount and memo are held there only as salted digests.
    pub fn is_private(self) -> bool {
        matches!(self, Field::Date | Field::Amount | Field::Memo)
    }
}

/// What a field holds now, as the journal writes it: a string, an integer, a boolean or null.
pub fn value_of(t: &TransactionSummary, field: Field) -> Value {
    match field {
        Field::Date => json!(t.date),
        Field::Amount => json!(t.amount),
        Field::Payee => json!(t.payee_id),
        Field::Category => json!(t.category_id),
        Field::Memo => json!(t.memo.as_deref().filter(|m| !m.is_empty())),
        Field::Account => json!(t.account_id),
        Field::Cleared => json!(t.cleared),
        Field::Approved => json!(t.approved),
        Field::Flag => json!(current_flag(t.flag_color.as_deref())),
    }
}

/// The salted digest of a field's value (D31).
pub fn value_digest(salt: Option<&str>, field: Field, value: &Value) -> String {
    digest(salt, &json!({"field": field.key(), "value": value}))
}

/// The salted digest of a new payee's name (D31).
pub fn payee_name_digest(salt: Option<&str>, name: &str) -> String {
    digest(salt, &json!({"payee_name": name}))
}

/// One field that changes: its value now and the one asked (`to` is `null` for a payee YNAB
/// will create from `new_payee`).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldChange {
    pub field: Field,
    pub from: Value,
    pub to: Value,
    pub new_payee: Option<String>,
}

/// One transaction whose fields change.
#[derive(Debug, Clone, PartialEq)]
pub struct TransactionChange<'t> {
    pub transaction: &'t TransactionSummary,
    pub fields: Vec<FieldChange>,
}

/// What a request would change, in request order, and how many transactions were already so.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdatePlan<'t> {
    pub changes: Vec<TransactionChange<'t>>,
    pub unchanged_count: usize,
}

/// The checks that need no plan data, with the exact refusal. `today` is `YYYY-MM-DD`.
pub fn check_request(asked: &[UpdateAsked], today: &str) -> Result<(), String> {
    if asked.is_empty() {
        return Err("Give at least one update.".into());
    }
    if asked.len() > MAX_UPDATES {
        return Err(format!(
            "Give at most {MAX_UPDATES} updates in one call ({} were given): send the rest in another call.",
            asked.len()
        ));
    }
    let twice = super::named_twice(asked.iter().map(|a| a.transaction_id.as_str()));
    if !twice.is_empty() {
        return Err(format!(
            "Transaction {} is named twice: give all the changes of a transaction in one update.",
            twice.join(", ")
        ));
    }
    for a in asked {
        let id = &a.transaction_id;
        if a.asks_nothing() {
            return Err(format!(
                "The update of transaction {id} changes nothing: give at least one of date, amount, payee_id, payee_name, category_id, memo, account_id, cleared, approved or flag."
            ));
        }
        if let Some(date) = &a.date
            && date.as_str() > today
        {
            return Err(format!(
                "Transaction {id}: the date {date} is in the future, and YNAB keeps future transactions as scheduled ones: give today ({today}) or earlier."
            ));
        }
    }
    Ok(())
}

/// Check `asked` against the plan and compute what changes. `describe` names a transaction in a
/// refusal (its date, payee and amount, made safe by the caller).
pub fn plan_updates<'t>(
    asked: &[UpdateAsked],
    plan: &'t PlanDetail,
    today: &str,
    describe: &dyn Fn(&TransactionSummary) -> String,
) -> Result<UpdatePlan<'t>, String> {
    check_request(asked, today)?;
    let live: HashMap<&str, &TransactionSummary> = plan
        .transactions
        .iter()
        .filter(|t| !t.deleted)
        .map(|t| (t.id.as_str(), t))
        .collect();
    let missing: Vec<&str> = asked
        .iter()
        .filter(|a| !live.contains_key(a.transaction_id.as_str()))
        .map(|a| a.transaction_id.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "Transaction {} is not in this plan: use a transaction_id from find_transactions.",
            missing.join(", ")
        ));
    }
    let checks = Checks {
        plan,
        splits: SplitLines::new(&plan.subtransactions),
        index: CategoryIndex::new(&plan.category_groups, &plan.categories),
    };
    let mut changes = Vec::new();
    for a in asked {
        let Some(t) = live.get(a.transaction_id.as_str()).copied() else {
            continue;
        };
        let named = || format!("Transaction {} ({})", t.id, describe(t));
        let payee = checks.check(a, t, &named)?;
        let fields = field_changes(a, t, payee);
        if !fields.is_empty() {
            changes.push(TransactionChange {
                transaction: t,
                fields,
            });
        }
    }
    Ok(UpdatePlan {
        unchanged_count: asked.len() - changes.len(),
        changes,
    })
}

/// The payee a change asks for: its id when it exists, else the name of a payee to create.
type PayeeAfter = (Option<ynab::Str>, Option<String>);

/// What one transaction's asked changes are checked against.
struct Checks<'t> {
    plan: &'t PlanDetail,
    splits: SplitLines<'t>,
    index: CategoryIndex<'t>,
}

impl Checks<'_> {
    fn account(&self, id: &str) -> Option<&ynab::models::Account> {
        self.plan.accounts.iter().find(|a| a.id == id && !a.deleted)
    }

    /// Refuse what YNAB would refuse of `a` on `t`, in the order the refusals are named; the
    /// payee the change asks for, when it asks for one.
    fn check(
        &self,
        a: &UpdateAsked,
        t: &TransactionSummary,
        named: &dyn Fn() -> String,
    ) -> Result<Option<PayeeAfter>, String> {
        if self.splits.is_split(&t.id) {
            for (asked_field, field) in [
                (a.amount.is_some(), "amount"),
                (a.date.is_some(), "date"),
                (a.category_id.is_some(), "category"),
            ] {
                if asked_field {
                    return Err(format!(
                        "{} is split: YNAB's API cannot change a split's {field}; change it in YNAB, or leave {field} out.",
                        named()
                    ));
                }
            }
        }
        if let Some(account_id) = &a.account_id {
            self.check_account(account_id, t, named)?;
        }
        let payee = self.payee_after(a)?;
        // The transfer the transaction will be, once changed: the payee's account, if any.
        let payee_id_after = match &payee {
            Some((id, _)) => id.clone(),
            None => t.payee_id.clone(),
        };
        let transfer_to = payee_id_after
            .as_deref()
            .and_then(|p| self.plan.payees.iter().find(|x| x.id == p && !x.deleted))
            .and_then(|p| p.transfer_account_id.clone());
        let account_after = a.account_id.as_deref().unwrap_or(&t.account_id);
        if transfer_to.as_deref() == Some(account_after) {
            return Err(format!(
                "{} would become a transfer to its own account: choose another payee or account.",
                named()
            ));
        }
        if let Some(category_id) = &a.category_id {
            self.check_category(category_id, account_after, transfer_to.as_deref(), named)?;
        }
        Ok(payee)
    }

    /// The account a transaction moves into: in the plan, open, not the one it transfers to.
    fn check_account(
        &self,
        account_id: &str,
        t: &TransactionSummary,
        named: &dyn Fn() -> String,
    ) -> Result<(), String> {
        match self.account(account_id) {
            None => Err(format!(
                "Account {account_id} is not in this plan: use an account_id from list_accounts."
            )),
            Some(acc) if acc.closed => Err(format!(
                "Account {account_id} is closed: reopen it in YNAB, or choose an open account from list_accounts."
            )),
            Some(_) if t.transfer_account_id.as_deref() == Some(account_id) => Err(format!(
                "{} is a transfer to account {account_id}: it cannot move into the account it transfers to.",
                named()
            )),
            Some(_) => Ok(()),
        }
    }

    /// The payee asked for: an existing one by id, by name (a transfer payee never), or a new name.
    fn payee_after(&self, a: &UpdateAsked) -> Result<Option<PayeeAfter>, String> {
        Ok(match &a.payee {
            None => None,
            Some(PayeeAsked::Id(id)) => {
                let Some(p) = self.plan.payees.iter().find(|p| &p.id == id && !p.deleted) else {
                    return Err(format!(
                        "Payee {id} is not in this plan: use a payee_id from list_payees, or give payee_name for a new payee."
                    ));
                };
                Some((Some(p.id.clone()), None))
            }
            Some(PayeeAsked::Name(name)) => {
                let found = self
                    .plan
                    .payees
                    .iter()
                    .find(|p| !p.deleted && p.transfer_account_id.is_none() && &p.name == name);
                Some(match found {
                    Some(p) => (Some(p.id.clone()), None),
                    None => (None, Some(name.clone())),
                })
            }
        })
    }

    /// A category a transaction can be given, on the account and transfer it will have.
    fn check_category(
        &self,
        category_id: &str,
        account_after: &str,
        transfer_to: Option<&str>,
        named: &dyn Fn() -> String,
    ) -> Result<(), String> {
        let on_budget = |id: &str| self.account(id).is_some_and(|acc| acc.on_budget);
        if let Some(other) = transfer_to
            && on_budget(account_after)
            && on_budget(other)
        {
            return Err(format!(
                "{} is a transfer between two budget accounts: YNAB gives it no category; leave category_id out.",
                named()
            ));
        }
        if !on_budget(account_after) {
            return Err(format!(
                "{} is on a tracking account: YNAB gives it no category; leave category_id out.",
                named()
            ));
        }
        if self.index.is_uncategorized(category_id) {
            return Err(format!(
                "Category {category_id} is YNAB's internal Uncategorized: choose a real category."
            ));
        }
        if self.index.visible_name(category_id).is_none() {
            return Err(format!(
                "Category {category_id} is not in this plan: use a category_id from get_category_balances."
            ));
        }
        if self.index.role(category_id) == Some(Role::CreditCardPayment) {
            return Err(format!(
                "Category {category_id} pays a credit card: YNAB ignores it on a transaction. Choose the category of what was paid for."
            ));
        }
        Ok(())
    }
}

/// The fields of `t` that `a` changes (a new payee's name always counts), in YNAB's order.
fn field_changes(
    a: &UpdateAsked,
    t: &TransactionSummary,
    payee: Option<PayeeAfter>,
) -> Vec<FieldChange> {
    let mut fields = Vec::new();
    let mut set = |field: Field, to: Value, new_payee: Option<String>| {
        let from = value_of(t, field);
        if from != to || new_payee.is_some() {
            fields.push(FieldChange {
                field,
                from,
                to,
                new_payee,
            });
        }
    };
    if let Some(date) = &a.date {
        set(Field::Date, json!(date), None);
    }
    if let Some(amount) = a.amount {
        set(Field::Amount, json!(amount), None);
    }
    if let Some((id, new_name)) = payee {
        set(Field::Payee, json!(id), new_name);
    }
    if let Some(category_id) = &a.category_id {
        set(Field::Category, json!(category_id), None);
    }
    if let Some(memo) = &a.memo {
        set(
            Field::Memo,
            json!(memo.as_deref().filter(|m| !m.is_empty())),
            None,
        );
    }
    if let Some(account_id) = &a.account_id {
        set(Field::Account, json!(account_id), None);
    }
    if let Some(cleared) = &a.cleared {
        set(Field::Cleared, json!(cleared), None);
    }
    if let Some(approved) = a.approved {
        set(Field::Approved, json!(approved), None);
    }
    if let Some(flag) = a.flag {
        set(Field::Flag, json!(flag), None);
    }
    fields
}

/// How a field's value reads in a question: names for ids, quoted memos and payees, `none` for
/// nothing; every name made safe.
pub fn shown(plan: &PlanDetail, fmt: &MoneyFormat, field: Field, value: &Value) -> String {
    let names = PlanNames::new(plan);
    let text = value.as_str();
    match (field, value) {
        (_, Value::Null) => "none".to_string(),
        (Field::Amount, v) => v.as_i64().map(|m| fmt.plain(m)).unwrap_or_default(),
        (Field::Approved, Value::Bool(b)) => if *b { "yes" } else { "no" }.to_string(),
        (Field::Payee, _) => format!("‘{}’", safe(names.payee(text))),
        (Field::Category, _) => {
            let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
            text.and_then(|id| index.visible_name(id))
                .map_or_else(|| "none".to_string(), safe)
        }
        (Field::Account, _) => safe(names.account(text.unwrap_or_default())),
        (Field::Memo, _) => format!("‘{}’", safe(text.unwrap_or_default())),
        (_, v) => safe(text.map_or_else(|| v.to_string(), str::to_string).as_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;
    use ynab::models::Payee;

    fn plan() -> PlanDetail {
        let mut f = Fixture::new();
        f.account("acc", "Checking", true);
        f.account("sav", "Savings", true);
        f.account("loan", "Car loan", false);
        for (account, payee) in [
            ("acc", "p-to-acc"),
            ("sav", "p-to-sav"),
            ("loan", "p-to-loan"),
        ] {
            f.plan.payees.push(Payee {
                id: payee.into(),
                name: format!("Transfer : {account}").into(),
                transfer_account_id: Some(account.into()),
                deleted: false,
            });
        }
        f.group("g", "Everyday");
        f.category("c-food", "g", "Food");
        f.category("c-fun", "g", "Fun");
        f.tx("t1", "2026-09-18", -45_000, "acc", "Shop", Some("c-food"));
        f.tx("t2", "2026-09-19", -10_000, "acc", "Shop", None);
        f.line("t2", -4_000, Some("c-food"), false);
        f.line("t2", -6_000, Some("c-fun"), false);
        let t3 = f.tx("t3", "2026-09-20", -100_000, "acc", "", None);
        t3.payee_id = Some("p-to-sav".into());
        t3.transfer_account_id = Some("sav".into());
        let t4 = f.tx("t4", "2026-09-20", -50_000, "acc", "", None);
        t4.payee_id = Some("p-to-loan".into());
        t4.transfer_account_id = Some("loan".into());
        f.plan
    }

    fn ask(id: &str) -> UpdateAsked {
        UpdateAsked {
            transaction_id: id.into(),
            ..UpdateAsked::default()
        }
    }

    type Planned = Vec<(String, Vec<(Field, Value, Value)>)>;

    fn run(asked: &[UpdateAsked]) -> Result<Planned, String> {
        let plan = plan();
        let planned = plan_updates(asked, &plan, "2026-09-30", &|t| t.date.clone().into())?;
        Ok(planned
            .changes
            .iter()
            .map(|c| {
                (
                    c.transaction.id.to_string(),
                    c.fields
                        .iter()
                        .map(|f| (f.field, f.from.clone(), f.to.clone()))
                        .collect(),
                )
            })
            .collect())
    }

    #[test]
    fn the_request_alone_is_checked_first() {
        assert_eq!(
            check_request(&[], "2026-09-30"),
            Err("Give at least one update.".into())
        );
        let many: Vec<UpdateAsked> = (0..101)
            .map(|i| UpdateAsked {
                approved: Some(true),
                ..ask(&format!("t{i}"))
            })
            .collect();
        assert!(check_request(&many, "2026-09-30").is_err_and(|e| e.contains("at most 100")));
        let twice = [
            UpdateAsked {
                approved: Some(true),
                ..ask("a")
            },
            UpdateAsked {
                approved: Some(true),
                ..ask("a")
            },
        ];
        assert!(check_request(&twice, "2026-09-30").is_err_and(|e| e.contains("a is named twice")));
        assert!(
            check_request(&[ask("a")], "2026-09-30")
                .is_err_and(|e| e.contains("transaction a changes nothing"))
        );
        let future = UpdateAsked {
            date: Some("2026-10-01".into()),
            ..ask("a")
        };
        assert_eq!(
            check_request(&[future], "2026-09-30"),
            Err("Transaction a: the date 2026-10-01 is in the future, and YNAB keeps future transactions as scheduled ones: give today (2026-09-30) or earlier.".into())
        );
    }

    #[test]
    fn only_the_fields_that_differ_change() {
        let asked = [UpdateAsked {
            memo: Some(Some("Lunch".into())),
            date: Some("2026-09-18".into()),
            category_id: Some("c-fun".into()),
            ..ask("t1")
        }];
        assert_eq!(
            run(&asked),
            Ok(vec![(
                "t1".into(),
                vec![
                    (Field::Category, json!("c-food"), json!("c-fun")),
                    (Field::Memo, Value::Null, json!("Lunch")),
                ]
            )])
        );
        let same = [UpdateAsked {
            memo: Some(Some(String::new())),
            flag: Some(None),
            ..ask("t1")
        }];
        assert_eq!(run(&same), Ok(vec![]));
    }

    #[test]
    fn a_payee_by_name_is_an_existing_one_when_it_exists() {
        let existing = [UpdateAsked {
            payee: Some(PayeeAsked::Name("Shop".into())),
            ..ask("t3")
        }];
        let planned = run(&existing).expect("valid");
        assert_eq!(planned[0].1[0].2, json!("payee:Shop"));
        let new = [UpdateAsked {
            payee: Some(PayeeAsked::Name("Bakery".into())),
            ..ask("t1")
        }];
        let plan = plan();
        let planned =
            plan_updates(&new, &plan, "2026-09-30", &|t| t.date.clone().into()).expect("valid");
        let change = &planned.changes[0].fields[0];
        assert_eq!(change.to, Value::Null);
        assert_eq!(change.new_payee.as_deref(), Some("Bakery"));
    }

    #[test]
    fn what_ynab_refuses_is_refused_naming_transaction_and_field() {
        let split_amount = [UpdateAsked {
            amount: Some(-1_000),
            ..ask("t2")
        }];
        assert_eq!(
            run(&split_amount),
            Err("Transaction t2 (2026-09-19) is split: YNAB's API cannot change a split's amount; change it in YNAB, or leave amount out.".into())
        );
        let split_category = [UpdateAsked {
            category_id: Some("c-food".into()),
            ..ask("t2")
        }];
        assert!(run(&split_category).is_err_and(|e| e.contains("split's category")));
        let split_memo = [UpdateAsked {
            memo: Some(Some("ok".into())),
            ..ask("t2")
        }];
        assert!(run(&split_memo).is_ok());
        let transfer_category = [UpdateAsked {
            category_id: Some("c-food".into()),
            ..ask("t3")
        }];
        assert_eq!(
            run(&transfer_category),
            Err("Transaction t3 (2026-09-20) is a transfer between two budget accounts: YNAB gives it no category; leave category_id out.".into())
        );
        let to_tracking = [UpdateAsked {
            category_id: Some("c-food".into()),
            ..ask("t4")
        }];
        assert!(run(&to_tracking).is_ok());
        let unknown = [UpdateAsked {
            approved: Some(true),
            ..ask("zz")
        }];
        assert!(run(&unknown).is_err_and(|e| e.contains("Transaction zz is not in this plan")));
        let own = [UpdateAsked {
            account_id: Some("sav".into()),
            ..ask("t3")
        }];
        assert!(run(&own).is_err_and(|e| e.contains("into the account it transfers to")));
        let bad_payee = [UpdateAsked {
            payee: Some(PayeeAsked::Id("p-zz".into())),
            ..ask("t1")
        }];
        assert!(run(&bad_payee).is_err_and(|e| e.contains("Payee p-zz is not in this plan")));
    }

    #[test]
    fn private_fields_are_digested_with_the_salt() {
        let a = value_digest(Some("s1"), Field::Memo, &json!("Lunch"));
        assert_ne!(a, value_digest(Some("s2"), Field::Memo, &json!("Lunch")));
        assert_ne!(a, value_digest(Some("s1"), Field::Memo, &json!("Lunch!")));
        assert!(Field::Memo.is_private() && Field::Amount.is_private() && Field::Date.is_private());
        assert!(!Field::Category.is_private());
        assert_eq!(Field::from_key("flag_color"), Some(Field::Flag));
    }
}
