//! `list_accounts` (`docs/contract/reads.md` §3): accounts with today's balances, bank-link health
//! and the date of the last reconciliation.

use super::month_figures::write_pointer;
use super::{AnswerTool, Answered, ListOf, PlanArgs, ToolError};
use crate::context::Context;
use crate::logic::accounts::{BankLink, bank_link, last_reconciled};
use crate::money::Amount;
use crate::text::safe;
use schemars::JsonSchema;
use serde::Serialize;

/// One account.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AccountEntry {
    /// Account id (the account_ids other tools take).
    pub id: String,
    /// Account name (bank-safe text).
    pub name: String,
    /// YNAB type: checking, savings, cash, creditCard, lineOfCredit, otherAsset, otherLiability,
    /// mortgage, autoLoan, studentLoan, personalLoan, medicalDebt, otherDebt.
    #[serde(rename = "type")]
    pub kind: String,
    /// False for a tracking account (its transactions take no category).
    pub on_budget: bool,
    /// Closed in YNAB.
    pub closed: bool,
    /// Balance of all its transactions, today.
    pub balance: Amount,
    /// The part the bank has shown.
    pub cleared_balance: Amount,
    /// The part the bank has not shown yet.
    pub uncleared_balance: Amount,
    /// healthy, broken (linked but in error: nothing new comes in until fixed in YNAB) or none.
    pub bank_link: BankLink,
    /// YYYY-MM-DD of the last reconciliation; null if never.
    pub last_reconciled: Option<String>,
}

/// `list_accounts`.
pub struct ListAccounts;

impl AnswerTool for ListAccounts {
    const NAME: &'static str = "list_accounts";
    const TITLE: &'static str = "List accounts";
    type Args = PlanArgs;
    type Answer = ListOf<AccountEntry>;

    fn description(writes: bool) -> String {
        let reconcile = write_pointer(
            writes,
            &["reconcile_account"],
            "Reconciling: reconcile_account.",
        );
        format!(
            "A plan's accounts, closed ones included, with today's balances, bank-link health and \
last reconciliation: spots a broken bank link or an account not reconciled for months.{reconcile}"
        )
    }

    async fn run(context: &Context, args: PlanArgs) -> Result<Answered<Self::Answer>, ToolError> {
        let snapshot = context.plans.read(&args.plan()).await?;
        let result = snapshot
            .plan
            .accounts
            .iter()
            .filter(|a| !a.deleted)
            .map(|a| AccountEntry {
                id: a.id.clone(),
                name: safe(&a.name),
                kind: a.kind.clone(),
                on_budget: a.on_budget,
                closed: a.closed,
                balance: Amount(a.balance),
                cleared_balance: Amount(a.cleared_balance),
                uncleared_balance: Amount(a.uncleared_balance),
                bank_link: bank_link(a),
                last_reconciled: last_reconciled(a),
            })
            .collect();
        Ok(Answered::new(ListOf { result }, snapshot.id().to_string()))
    }
}
