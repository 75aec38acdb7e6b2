//! Small plans for the logic's unit tests, built entity by entity with readable ids.
//! Test-only: the shapes are YNAB's own (`PlanDetail`), so the logic is tested on what it reads.

use ynab::models::{
    Account, Category, CategoryGroup, Milliunits, Month, Payee, PlanDetail,
    ScheduledSubTransaction, ScheduledTransactionSummary, SubTransaction, TransactionSummary,
};

/// A plan under construction.
pub struct Fixture {
    pub plan: PlanDetail,
}

impl Fixture {
    pub fn new() -> Self {
        Fixture {
            plan: PlanDetail {
                id: "plan".into(),
                name: "Fixture".into(),
                last_modified_on: None,
                first_month: None,
                last_month: None,
                date_format: None,
                currency_format: None,
                accounts: Vec::new(),
                payees: Vec::new(),
                payee_locations: Vec::new(),
                category_groups: Vec::new(),
                categories: Vec::new(),
                months: Vec::new(),
                transactions: Vec::new(),
                subtransactions: Vec::new(),
                scheduled_transactions: Vec::new(),
                scheduled_subtransactions: Vec::new(),
            },
        }
    }

    pub fn account(&mut self, id: &str, name: &str, on_budget: bool) -> &mut Account {
        self.plan.accounts.push(Account {
            id: id.into(),
            name: name.into(),
            kind: "checking".into(),
            on_budget,
            closed: false,
            note: None,
            balance: 0,
            cleared_balance: 0,
            uncleared_balance: 0,
            transfer_payee_id: None,
            direct_import_linked: None,
            direct_import_in_error: None,
            last_reconciled_at: None,
            debt_original_balance: None,
            debt_interest_rates: None,
            debt_minimum_payments: None,
            debt_escrow_amounts: None,
            deleted: false,
        });
        self.plan.accounts.last_mut().expect("just pushed")
    }

    pub fn group(&mut self, id: &str, name: &str) -> &mut CategoryGroup {
        self.plan.category_groups.push(CategoryGroup {
            id: id.into(),
            name: name.into(),
            hidden: false,
            internal: name == "Internal Master Category",
            deleted: false,
        });
        self.plan.category_groups.last_mut().expect("just pushed")
    }

    pub fn category(&mut self, id: &str, group: &str, name: &str) -> &mut Category {
        let internal = self
            .plan
            .category_groups
            .iter()
            .any(|g| g.id == group && g.internal);
        self.plan.categories.push(Category {
            id: id.into(),
            category_group_id: group.into(),
            category_group_name: None,
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
        self.plan.categories.last_mut().expect("just pushed")
    }

    /// The id of the payee named `label`, created on first use.
    pub fn payee(&mut self, label: &str) -> String {
        let id = format!("payee:{label}");
        if !self.plan.payees.iter().any(|p| p.id == id) {
            self.plan.payees.push(Payee {
                id: id.clone().into(),
                name: label.into(),
                transfer_account_id: None,
                deleted: false,
            });
        }
        id
    }

    /// A cleared, approved transaction paid to `label` (no payee when `label` is empty).
    pub fn tx(
        &mut self,
        id: &str,
        date: &str,
        amount: Milliunits,
        account: &str,
        label: &str,
        category: Option<&str>,
    ) -> &mut TransactionSummary {
        let payee_id = (!label.is_empty()).then(|| self.payee(label));
        self.plan.transactions.push(TransactionSummary {
            id: id.into(),
            date: date.into(),
            amount,
            memo: None,
            cleared: "cleared".into(),
            approved: true,
            flag_color: None,
            flag_name: None,
            account_id: account.into(),
            payee_id: payee_id.map(Into::into),
            category_id: category.map(str::to_string).map(Into::into),
            transfer_account_id: None,
            transfer_transaction_id: None,
            matched_transaction_id: None,
            import_id: None,
            import_payee_name: None,
            import_payee_name_original: None,
            debt_transaction_type: None,
            deleted: false,
        });
        self.plan.transactions.last_mut().expect("just pushed")
    }

    /// A line of the split transaction `tx`.
    pub fn line(&mut self, tx: &str, amount: Milliunits, category: Option<&str>, deleted: bool) {
        let n = self.plan.subtransactions.len();
        self.plan.subtransactions.push(SubTransaction {
            id: format!("{tx}/{n}"),
            transaction_id: tx.into(),
            amount,
            memo: None,
            payee_id: None,
            payee_name: None,
            category_id: category.map(str::to_string),
            category_name: None,
            transfer_account_id: None,
            transfer_transaction_id: None,
            deleted,
        });
    }

    /// A schedule on `account` paid to `label`.
    #[allow(clippy::too_many_arguments)]
    pub fn schedule(
        &mut self,
        id: &str,
        first: &str,
        next: &str,
        frequency: &str,
        amount: Milliunits,
        account: &str,
        label: &str,
        category: Option<&str>,
    ) -> &mut ScheduledTransactionSummary {
        let payee_id = (!label.is_empty()).then(|| self.payee(label));
        self.plan
            .scheduled_transactions
            .push(ScheduledTransactionSummary {
                id: id.into(),
                date_first: first.into(),
                date_next: next.into(),
                frequency: frequency.into(),
                amount,
                memo: None,
                flag_color: None,
                flag_name: None,
                account_id: account.into(),
                payee_id: payee_id.map(Into::into),
                category_id: category.map(str::to_string).map(Into::into),
                transfer_account_id: None,
                deleted: false,
            });
        self.plan
            .scheduled_transactions
            .last_mut()
            .expect("just pushed")
    }

    /// A line of the split schedule `schedule`.
    pub fn schedule_line(&mut self, schedule: &str, amount: Milliunits, deleted: bool) {
        let n = self.plan.scheduled_subtransactions.len();
        self.plan
            .scheduled_subtransactions
            .push(ScheduledSubTransaction {
                id: format!("{schedule}/{n}"),
                scheduled_transaction_id: schedule.into(),
                amount,
                memo: None,
                payee_id: None,
                payee_name: None,
                category_id: None,
                category_name: None,
                transfer_account_id: None,
                deleted,
            });
    }

    /// A month summary `label` (`YYYY-MM-01`) with YNAB's Age of Money and no other figure.
    pub fn month(&mut self, label: &str, age_of_money: Option<i32>) -> &mut Month {
        self.plan.months.push(Month {
            month: label.into(),
            note: None,
            income: 0,
            budgeted: 0,
            activity: 0,
            to_be_budgeted: 0,
            age_of_money,
            deleted: false,
            categories: None,
        });
        self.plan.months.last_mut().expect("just pushed")
    }
}
