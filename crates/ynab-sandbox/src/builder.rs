//! A small builder of sandbox plans: accounts, groups, categories, payees, transactions, transfers,
//! assigned amounts and scheduled transactions, named by readable ids and stored under their UUIDs.
//!
//! Every entity gets the UUID of its readable id ([`crate::ids::id`]): accounts, groups and
//! categories take the readable id given; a payee is created the first time its name is used, with
//! the readable id `pay-` + [`slug`] of its name (`pay-…-2` if two names share a slug); each account
//! gets its transfer payee `Transfer : {account name}` (with `transfer_account_id` set), as YNAB does.
//! Transactions are numbered when the plan is built: within each series (`tx`, `nw`, …), the rows
//! without an explicit readable id are sorted by (date, payee name, amount, category name, account
//! name), ties kept in the order they were added, and numbered `{series}-000`, `{series}-001`, …
//! (numbers taken by explicit ids are skipped). A transfer is two rows, one per account, linked by
//! `transfer_account_id`/`transfer_transaction_id`, each with the other account's transfer payee.
//! A sub-transaction's readable id is `<transaction readable id>/<index>` (D26). A builder made with
//! [`PlanBuilder::with_id_prefix`] puts its prefix before every readable id when making UUIDs.
//!
//! Derived figures (balances, month amounts, target figures, `*_name` fields) are stored as 0 or
//! `None`: `crate::compute` recomputes them. The builder is meant for constant fixture data: it
//! panics, with a message naming the culprit, when given an unknown readable id or an invalid date.

use crate::ids;
use crate::state::PlanState;
use chrono::{Datelike, NaiveDate};
use std::collections::{BTreeMap, BTreeSet};
use ynab::models::{
    Account, Category, CategoryGroup, CurrencyFormat, DateFormat, Milliunits, Payee,
};

/// The series of budget-side transactions (`tx-000`, …).
pub const SERIES_TX: &str = "tx";

/// A date from constant data (`YYYY-MM-DD`).
///
/// # Panics
/// If `text` is not a valid date: fixture data only.
pub fn date(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .unwrap_or_else(|_| panic!("fixture date {text:?} is not YYYY-MM-DD"))
}

/// The first day of `day`'s month.
pub fn month_of(day: NaiveDate) -> NaiveDate {
    day.with_day(1).unwrap_or(day)
}

/// A month written as YNAB writes it, `YYYY-MM-01`.
pub fn month_label(day: NaiveDate) -> String {
    month_of(day).format("%Y-%m-%d").to_string()
}

/// The readable part of a payee id: lower-case letters and digits, every other run of characters
/// one `-`, none at either end (`CB MARKET FRESH FACT 050626 525130******1` →
/// `cb-market-fresh-fact-050626-525130-1`).
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    let mut gap = false;
    for c in name.chars() {
        if c.is_alphanumeric() {
            if gap && !out.is_empty() {
                out.push('-');
            }
            gap = false;
            out.extend(c.to_lowercase());
        } else {
            gap = true;
        }
    }
    out
}

/// The currency format of D16 (EUR, `123,456.78`, symbol after the amount): the builder's default.
pub fn euro_format() -> CurrencyFormat {
    CurrencyFormat {
        iso_code: "EUR".into(),
        example_format: "123,456.78".into(),
        decimal_digits: 2,
        decimal_separator: ".".into(),
        symbol_first: false,
        group_separator: ",".into(),
        currency_symbol: "€".into(),
        display_symbol: true,
    }
}

mod rows;
mod specs;

use rows::Row;
pub use specs::{Line, Scheduled, Transfer, Tx};

/// Builds a [`PlanState`] from readable ids.
pub struct PlanBuilder {
    plan: PlanState,
    accounts: BTreeMap<String, usize>,
    groups: BTreeMap<String, usize>,
    categories: BTreeMap<String, usize>,
    payees_by_name: BTreeMap<String, String>,
    payee_readables: BTreeSet<String>,
    rows: Vec<Row>,
    /// Put before every readable id when making its UUID (`heavy/<seed>/` for the heavy plan, D26).
    id_prefix: String,
}

impl PlanBuilder {
    /// An empty plan `readable_id` named `name`, "today" `today`; months default to today's
    /// month, `last_modified_on` to today at midnight UTC, the date format to `YYYY-MM-DD`, the
    /// currency to [`euro_format`], `server_knowledge` to 1.
    pub fn new(readable_id: &str, name: &str, today: NaiveDate) -> Self {
        let month = month_of(today);
        PlanBuilder {
            plan: PlanState {
                id: ids::id(readable_id),
                name: name.into(),
                last_modified_on: format!("{}T00:00:00.000Z", today.format("%Y-%m-%d")),
                first_month: month,
                last_month: month,
                date_format: DateFormat {
                    format: "YYYY-MM-DD".into(),
                },
                currency_format: euro_format(),
                accounts: Vec::new(),
                groups: Vec::new(),
                categories: Vec::new(),
                payees: Vec::new(),
                transactions: Vec::new(),
                scheduled: Vec::new(),
                assigned: BTreeMap::new(),
                today,
                server_knowledge: 1,
                stamps: Default::default(),
                serial: 0,
            },
            accounts: BTreeMap::new(),
            groups: BTreeMap::new(),
            categories: BTreeMap::new(),
            payees_by_name: BTreeMap::new(),
            payee_readables: BTreeSet::new(),
            rows: Vec::new(),
            id_prefix: String::new(),
        }
    }

    /// As [`PlanBuilder::new`], but every UUID, the plan's included, is that of `id_prefix` +
    /// the readable id (the heavy plan's `heavy/<seed>/tx-00000`, D26).
    pub fn with_id_prefix(
        id_prefix: &str,
        readable_id: &str,
        name: &str,
        today: NaiveDate,
    ) -> Self {
        let mut b = PlanBuilder::new(readable_id, name, today);
        b.id_prefix = id_prefix.into();
        b.plan.id = b.uuid(readable_id);
        b
    }

    /// The UUID served for a readable id of this plan.
    fn uuid(&self, readable: &str) -> String {
        if self.id_prefix.is_empty() {
            ids::id(readable)
        } else {
            ids::id(&format!("{}{readable}", self.id_prefix))
        }
    }

    /// `last_modified_on`, as YNAB writes it (an ISO 8601 date-time).
    pub fn last_modified_on(&mut self, at: &str) -> &mut Self {
        self.plan.last_modified_on = at.into();
        self
    }
    /// The plan's first and last budget months (any day of each month).
    pub fn months(&mut self, first: NaiveDate, last: NaiveDate) -> &mut Self {
        self.plan.first_month = month_of(first);
        self.plan.last_month = month_of(last);
        self
    }
    pub fn date_format(&mut self, format: &str) -> &mut Self {
        self.plan.date_format = DateFormat {
            format: format.into(),
        };
        self
    }
    pub fn currency_format(&mut self, format: CurrencyFormat) -> &mut Self {
        self.plan.currency_format = format;
        self
    }

    /// Adds an open account with no bank link, and its transfer payee; returns it for the fields
    /// this builder has no method for (`closed`, `note`, bank link, `last_reconciled_at`).
    pub fn account(
        &mut self,
        readable_id: &str,
        name: &str,
        kind: &str,
        on_budget: bool,
    ) -> &mut Account {
        let id = self.uuid(readable_id);
        let transfer_name = format!("Transfer : {name}");
        let payee_id = self.new_payee(&transfer_name, Some(id.clone()));
        self.accounts
            .insert(readable_id.into(), self.plan.accounts.len());
        self.plan.accounts.push(Account {
            id,
            name: name.into(),
            kind: kind.into(),
            on_budget,
            closed: false,
            note: None,
            balance: 0,
            cleared_balance: 0,
            uncleared_balance: 0,
            transfer_payee_id: Some(payee_id),
            direct_import_linked: Some(false),
            direct_import_in_error: Some(false),
            last_reconciled_at: None,
            debt_original_balance: None,
            debt_interest_rates: None,
            debt_minimum_payments: None,
            debt_escrow_amounts: None,
            deleted: false,
        });
        let last = self.plan.accounts.len() - 1;
        &mut self.plan.accounts[last]
    }

    /// A loan's terms from `since` (`YYYY-MM-DD`): yearly rate in thousandths of a percent
    /// (4500 = 4.5 %), minimum payment and escrow in milliunits.
    pub fn loan_terms(
        &mut self,
        account: &str,
        since: &str,
        rate: i64,
        minimum_payment: Milliunits,
        escrow: Milliunits,
    ) -> &mut Self {
        let since = date(since).format("%Y-%m-%d").to_string();
        let index = self.account_index(account);
        let a = &mut self.plan.accounts[index];
        a.debt_interest_rates = Some(BTreeMap::from([(since.clone(), rate)]));
        a.debt_minimum_payments = Some(BTreeMap::from([(since.clone(), minimum_payment)]));
        a.debt_escrow_amounts = Some(BTreeMap::from([(since, escrow)]));
        self
    }

    /// Adds a visible category group.
    pub fn group(&mut self, readable_id: &str, name: &str) -> &mut CategoryGroup {
        self.groups
            .insert(readable_id.into(), self.plan.groups.len());
        self.plan.groups.push(CategoryGroup {
            id: self.uuid(readable_id),
            name: name.into(),
            hidden: false,
            internal: false,
            deleted: false,
        });
        let last = self.plan.groups.len() - 1;
        &mut self.plan.groups[last]
    }

    /// Adds a group managed by YNAB (`internal`), such as `Internal Master Category`.
    pub fn internal_group(&mut self, readable_id: &str, name: &str) -> &mut CategoryGroup {
        let group = self.group(readable_id, name);
        group.internal = true;
        group
    }

    /// Adds a category to the group `group` (readable id); it is internal when its group is.
    pub fn category(&mut self, readable_id: &str, group: &str, name: &str) -> &mut Category {
        let g = &self.plan.groups[self.group_index(group)];
        let (group_id, group_name, internal) = (g.id.clone(), g.name.clone(), g.internal);
        self.categories
            .insert(readable_id.into(), self.plan.categories.len());
        self.plan.categories.push(Category {
            id: self.uuid(readable_id).into(),
            category_group_id: group_id.into(),
            category_group_name: Some(group_name.into()),
            name: name.into(),
            hidden: false,
            internal,
            original_category_group_id: None,
            note: None,
            budgeted: 0,
            activity: 0,
            balance: 0,
            deleted: false,
            ..Category::default()
        });
        let last = self.plan.categories.len() - 1;
        &mut self.plan.categories[last]
    }

    /// A "set aside another `amount` each month" target (NEED, `goal_cadence` 1, whole amount),
    /// created in the month of `since` (`YYYY-MM-DD`).
    pub fn need_monthly(&mut self, category: &str, amount: Milliunits, since: &str) -> &mut Self {
        let created = month_label(date(since));
        let c = self.category_mut(category);
        c.goal_type = Some("NEED".into());
        c.goal_target = Some(amount);
        c.goal_cadence = Some(1);
        c.goal_cadence_frequency = Some(1);
        c.goal_needs_whole_amount = Some(true);
        c.goal_target_date = None;
        c.goal_target_month = None;
        c.goal_creation_month = Some(created.into());
        self
    }

    /// A "need `amount` by `due`" target (NEED, `goal_cadence` 0, `goal_target_date`), created
    /// in the month of `since`.
    pub fn need_by_date(
        &mut self,
        category: &str,
        amount: Milliunits,
        due: &str,
        since: &str,
    ) -> &mut Self {
        let due = date(due).format("%Y-%m-%d").to_string();
        let created = month_label(date(since));
        let c = self.category_mut(category);
        c.goal_type = Some("NEED".into());
        c.goal_target = Some(amount);
        c.goal_cadence = Some(0);
        c.goal_cadence_frequency = None;
        c.goal_needs_whole_amount = None;
        c.goal_target_month = Some(due.clone().into());
        c.goal_target_date = Some(due.into());
        c.goal_creation_month = Some(created.into());
        self
    }

    /// Assigns `amount` to `category` (readable id) in the month of `month` (any day of it).
    pub fn assign(&mut self, month: &str, category: &str, amount: Milliunits) -> &mut Self {
        let month = month_label(date(month));
        let id = self.plan.categories[self.category_index(category)]
            .id
            .to_string();
        self.plan.assigned.insert((month, id), amount);
        self
    }

    /// The id of the payee named `name`, created (readable id `pay-` + slug) on first use.
    pub fn payee(&mut self, name: &str) -> String {
        match self.payees_by_name.get(name) {
            Some(id) => id.clone(),
            None => self.new_payee(name, None),
        }
    }

    /// The UUID of an account, group or category added earlier, by its readable id.
    pub fn id_of(&self, readable_id: &str) -> String {
        if let Some(&i) = self.accounts.get(readable_id) {
            return self.plan.accounts[i].id.clone();
        }
        if let Some(&i) = self.groups.get(readable_id) {
            return self.plan.groups[i].id.clone();
        }
        self.plan.categories[self.category_index(readable_id)]
            .id
            .to_string()
    }

    fn new_payee(&mut self, name: &str, transfer_account_id: Option<String>) -> String {
        let base = format!("pay-{}", slug(name));
        let mut readable = base.clone();
        let mut n = 2;
        while self.payee_readables.contains(&readable) {
            readable = format!("{base}-{n}");
            n += 1;
        }
        let id = self.uuid(&readable);
        self.payee_readables.insert(readable);
        self.payees_by_name.insert(name.into(), id.clone());
        self.plan.payees.push(Payee {
            id: id.clone().into(),
            name: name.into(),
            transfer_account_id: transfer_account_id.map(Into::into),
            deleted: false,
        });
        id
    }

    fn readable_account(&self, index: usize) -> String {
        self.accounts
            .iter()
            .find(|(_, i)| **i == index)
            .map(|(r, _)| r.clone())
            .unwrap_or_default()
    }

    fn account_index(&self, readable_id: &str) -> usize {
        *self
            .accounts
            .get(readable_id)
            .unwrap_or_else(|| panic!("unknown account {readable_id:?}: add it first"))
    }

    fn group_index(&self, readable_id: &str) -> usize {
        *self
            .groups
            .get(readable_id)
            .unwrap_or_else(|| panic!("unknown category group {readable_id:?}: add it first"))
    }

    fn category_index(&self, readable_id: &str) -> usize {
        *self
            .categories
            .get(readable_id)
            .unwrap_or_else(|| panic!("unknown category {readable_id:?}: add it first"))
    }

    fn category_mut(&mut self, readable_id: &str) -> &mut Category {
        let index = self.category_index(readable_id);
        &mut self.plan.categories[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> PlanBuilder {
        let mut b = PlanBuilder::new("p", "Plan", date("2026-09-25"));
        b.account("acc-a", "A", "checking", true);
        b.account("acc-b", "B", "savings", true);
        b.account("acc-t", "Tracked", "otherAsset", false);
        b.internal_group("grp-internal", "Internal Master Category");
        b.category("cat-inflow", "grp-internal", "Inflow: Ready to Assign");
        b.group("grp-bills", "Bills");
        b.category("cat-rent", "grp-bills", "Rent");
        b
    }

    #[test]
    fn slugs_are_lower_case_and_dashed() {
        assert_eq!(
            slug("CB MARKET FRESH FACT 050626 525130******1"),
            "cb-market-fresh-fact-050626-525130-1"
        );
        assert_eq!(slug("Transfer : Checking"), "transfer-checking");
        assert_eq!(slug("  --Café du Port-- "), "café-du-port");
    }

    #[test]
    fn accounts_get_transfer_payees() {
        let plan = small().build();
        let a = &plan.accounts[0];
        let payee = plan
            .payees
            .iter()
            .find(|p| Some(p.id.as_str()) == a.transfer_payee_id.as_deref())
            .expect("transfer payee");
        assert_eq!(payee.name, "Transfer : A");
        assert_eq!(payee.transfer_account_id.as_deref(), Some(a.id.as_str()));
        assert_eq!(payee.id, ids::id("pay-transfer-a"));
        assert_eq!(a.id, ids::id("acc-a"));
        assert!(plan.categories[0].internal);
        assert!(!plan.categories[1].internal);
    }

    #[test]
    fn payees_are_created_once_and_slugs_never_collide() {
        let mut b = small();
        let x = b.payee("Corner Shop");
        assert_eq!(x, b.payee("Corner Shop"));
        assert_eq!(x, ids::id("pay-corner-shop"));
        let y = b.payee("CORNER SHOP");
        assert_eq!(y, ids::id("pay-corner-shop-2"));
    }

    #[test]
    fn transactions_are_numbered_in_sorted_order() {
        let mut b = small();
        b.transaction(Tx::new(date("2026-09-03"), "acc-a", "Z shop", -5_000).category("cat-rent"));
        b.transaction(Tx::new(date("2026-09-01"), "acc-a", "Y shop", -1_000));
        b.transaction(Tx::new(date("2026-09-03"), "acc-a", "A shop", -7_000));
        b.transaction(Tx::new(date("2026-01-01"), "acc-t", "Old", 9_000).series("nw"));
        b.transaction(Tx::new(date("2026-09-02"), "acc-a", "Mine", -2_000).readable_id("tx-001"));
        let plan = b.build();
        let by = |readable: &str| {
            plan.transactions
                .iter()
                .find(|t| t.id == ids::id(readable))
                .unwrap_or_else(|| panic!("{readable} missing"))
        };
        assert_eq!(by("tx-000").amount, -1_000);
        assert_eq!(by("tx-001").amount, -2_000);
        assert_eq!(by("tx-002").amount, -7_000);
        assert_eq!(by("tx-003").amount, -5_000);
        assert_eq!(by("nw-000").amount, 9_000);
        assert_eq!(plan.transactions[0].id, ids::id("nw-000"));
        assert_eq!(plan.transactions[1].id, ids::id("tx-000"));
    }

    #[test]
    fn transfers_are_two_linked_rows() {
        let mut b = small();
        b.transfer(
            Transfer::new(date("2026-09-29"), "acc-a", "acc-b", 200_000).category("cat-rent"),
        );
        b.transfer(
            Transfer::new(date("2026-09-30"), "acc-a", "acc-t", 50_000).category("cat-rent"),
        );
        let plan = b.build();
        let (a, bb, t) = (ids::id("acc-a"), ids::id("acc-b"), ids::id("acc-t"));
        let out = plan
            .transactions
            .iter()
            .find(|x| x.account_id == a && x.amount == -200_000)
            .expect("out");
        let into = plan
            .transactions
            .iter()
            .find(|x| x.account_id == bb)
            .expect("in");
        assert_eq!(into.amount, 200_000);
        assert_eq!(out.transfer_transaction_id.as_ref(), Some(&into.id));
        assert_eq!(into.transfer_transaction_id.as_ref(), Some(&out.id));
        assert_eq!(out.transfer_account_id.as_ref(), Some(&bb));
        assert_eq!(into.transfer_account_id.as_ref(), Some(&a));
        assert_eq!(out.payee_id, Some(ids::id("pay-transfer-b")));
        assert_eq!(into.payee_id, Some(ids::id("pay-transfer-a")));
        assert_eq!(out.category_id, None, "on budget to on budget: no category");
        let leaving = plan
            .transactions
            .iter()
            .find(|x| x.account_id == a && x.amount == -50_000)
            .expect("to tracking");
        assert_eq!(leaving.category_id, Some(ids::id("cat-rent")));
        let arriving = plan
            .transactions
            .iter()
            .find(|x| x.account_id == t)
            .expect("tracking side");
        assert_eq!(arriving.category_id, None);
    }

    #[test]
    fn splits_get_line_ids_and_no_parent_category() {
        let mut b = small();
        b.transaction(
            Tx::new(date("2026-09-10"), "acc-a", "Shop", -10_000)
                .category("cat-rent")
                .line(-6_000, Some("cat-rent"), None)
                .line(-4_000, None, Some("soap")),
        );
        let plan = b.build();
        let t = &plan.transactions[0];
        assert_eq!(t.category_id, None);
        assert_eq!(t.subtransactions.len(), 2);
        assert_eq!(t.subtransactions[1].id, ids::id("tx-000/1"));
        assert_eq!(t.subtransactions[1].transaction_id, t.id);
        assert_eq!(t.subtransactions[0].category_id, Some(ids::id("cat-rent")));
    }

    #[test]
    fn assigned_amounts_and_targets_are_stored() {
        let mut b = small();
        b.assign("2026-09-01", "cat-rent", 950_000)
            .need_monthly("cat-rent", 950_000, "2026-06-01");
        let plan = b.build();
        let rent = ids::id("cat-rent");
        assert_eq!(
            plan.assigned.get(&("2026-09-01".to_owned(), rent)),
            Some(&950_000)
        );
        let c = &plan.categories[1];
        assert_eq!(c.goal_type.as_deref(), Some("NEED"));
        assert_eq!(c.goal_cadence, Some(1));
        assert_eq!(c.goal_creation_month.as_deref(), Some("2026-06-01"));
    }
}
