//! `reconcile_account` (`docs/contract/writes.md` §9.6): compare an account with the balance the
//! bank shows, explain a gap without changing anything, and — confirmed — mark it reconciled.
//!
//! It asks only when it writes: a gap without `adjust` is explained (`difference_found`), an
//! account already reconciled is `nothing_to_do`. The adjustment goes to `Inflow: Ready to Assign`
//! by name (F3); a reconciliation half done (adjustment created, marking refused) is said as such
//! and its intent left unfinished (§13 #4).

use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::{Flag, Money};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, ReconcileStatus, Undoable, WriteFailure,
    WriteResult, Written,
};
use crate::context::Context;
use crate::logic::created::{digest, item};
use crate::logic::reconcile::{Analysis, Verdict, analyse, ready_to_assign};
use crate::logic::undo::{details::Reconciled, record::to_details};
use crate::money::{Amount, MoneyFormat};
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::Milliunits;
use ynab::writes::{NewTransaction, TransactionUpdate};

/// The payee and memo of a balance adjustment (§9.6).
const ADJUSTMENT_PAYEE: &str = "Balance adjustment";
const ADJUSTMENT_MEMO: &str = "Entered by reconcile_account";

/// The arguments of `reconcile_account`, validated.
#[derive(Debug, Clone)]
pub struct ReconcileAccount {
    account_id: String,
    bank_balance: Milliunits,
    adjust: bool,
    today: NaiveDate,
}

/// What reconciling will do.
#[derive(Debug, Clone)]
pub struct Reconciliation {
    account_id: String,
    account: String,
    /// The analysis as the result shows it.
    analysis: AnalysisEntry,
    bank_balance: Milliunits,
    cleared_before: Milliunits,
    /// The adjustment to record first (0: none).
    adjustment: Milliunits,
    /// The cleared transactions to mark reconciled, sorted.
    to_reconcile: Vec<String>,
    /// `Inflow: Ready to Assign`, when the plan has it.
    ready_to_assign: Option<String>,
    /// The plan's `server_knowledge` when read: a recovery reads what changed since (D31).
    knowledge: i64,
    fmt: MoneyFormat,
}

crate::tool_args! {
    /// The arguments of `reconcile_account`.
    pub struct ReconcileAccountArgs {
        pub plan_id: Option<PlanId>,
        /// From list_accounts.
        #[give = "an account id from list_accounts"]
        pub account_id: String,
        #[give = "the balance the bank shows today, in currency units"]
        pub bank_balance: Money,
        pub adjust: Flag<false>,
    }
}

// An uncleared transaction, as the answer shows it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct UnclearedEntry {
    pub transaction_id: String,
    pub date: String,
    pub amount: Amount,
    /// Payee name (bank-safe text).
    pub payee: String,
}

// The account against the bank's balance, as the answer shows it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AnalysisEntry {
    pub account_id: String,
    pub bank_balance: Amount,
    pub cleared_balance: Amount,
    pub working_balance: Amount,
    /// Bank minus cleared: negative when YNAB counts more money than the bank.
    pub difference: Amount,
    pub to_reconcile_count: usize,
    pub uncleared_count: usize,
    /// To go through with the user when there is a difference.
    pub uncleared: Vec<UnclearedEntry>,
    /// Uncleared transactions whose amount is exactly the difference.
    pub explained_by: Vec<String>,
    /// [older, newer] pairs that may be one charge imported twice.
    pub possible_duplicates: Vec<[String; 2]>,
}

// The fields of `reconcile_account`'s answer, whatever its status.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReconcileDetails {
    pub account: String,
    pub analysis: AnalysisEntry,
    /// The balance adjustment recorded (or to record).
    pub adjustment: Option<Amount>,
}

impl ConfirmedTool for ReconcileAccount {
    const TITLE: &'static str = "Reconcile an account with the bank";
    const DESTRUCTIVE: bool = true;
    type Args = ReconcileAccountArgs;
    type Details = ReconcileDetails;

    fn output_schema() -> Value {
        super::schema_value::<WriteResult<ReconcileDetails, ReconcileStatus>>()
    }

    fn description(_writes: bool) -> String {
        "Compare an account with the bank's balance today. A gap changes nothing: review it with \
the user, then call again, or with adjust=true to book it as an adjustment. On a match the user \
confirms; cleared ones become reconciled. undo_operation reverts it. Costs up to 3 requests."
            .to_string()
    }

    fn from_args(args: ReconcileAccountArgs, today: NaiveDate) -> Result<Self, ToolError> {
        Ok(ReconcileAccount {
            account_id: args.account_id,
            bank_balance: args.bank_balance.0,
            adjust: args.adjust.0,
            today,
        })
    }
}

impl ReconcileAccount {
    /// The transaction a balance adjustment is.
    fn adjustment(&self, change: &Reconciliation) -> NewTransaction {
        NewTransaction {
            account_id: change.account_id.clone(),
            date: self.today.format("%Y-%m-%d").to_string(),
            amount: change.adjustment,
            payee_name: Some(ADJUSTMENT_PAYEE.into()),
            memo: Some(ADJUSTMENT_MEMO.into()),
            category_id: change.ready_to_assign.clone(),
            cleared: Some("cleared".into()),
            approved: Some(true),
            ..NewTransaction::default()
        }
    }
}

/// The analysis as the result shows it (currency units, payees safe).
fn analysis_entry(account_id: &str, a: &Analysis<'_>) -> AnalysisEntry {
    AnalysisEntry {
        account_id: account_id.to_string(),
        bank_balance: Amount(a.bank_balance),
        cleared_balance: Amount(a.cleared_balance),
        working_balance: Amount(a.working_balance),
        difference: Amount(a.difference),
        to_reconcile_count: a.to_reconcile.len(),
        uncleared_count: a.uncleared_count,
        uncleared: a
            .uncleared
            .iter()
            .map(|u| UnclearedEntry {
                transaction_id: u.transaction_id.to_string(),
                date: u.date.to_string(),
                amount: Amount(u.amount),
                payee: safe(u.payee),
            })
            .collect(),
        explained_by: a.explained_by.clone(),
        possible_duplicates: a.possible_duplicates.clone(),
    }
}

/// An answer given without asking (`difference_found`, `nothing_to_do`): the frame's fields with
/// the reconciliation's own status.
fn not_asked(
    details: ReconcileDetails,
    status: ReconcileStatus,
    message: String,
    plan_id: &str,
) -> Prepared<Reconciliation> {
    let value = WriteResult {
        status,
        message,
        confirmation: None,
        operation_id: None,
        details,
    };
    Prepared::NothingToDo {
        value: value.into_value(),
        plan_id: plan_id.to_string(),
    }
}

impl ConfirmedWrite for ReconcileAccount {
    type Change = Reconciliation;
    const TOOL: &'static str = "reconcile_account";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Reconcile;
    const APPLIED: &'static str = "Reconciled.";
    const UNDO: Undoable = Undoable::Yes("reverts it");

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<Reconciliation>, ToolError> {
        let plan = &snapshot.plan;
        let plan_id = snapshot.id().to_string();
        let Some(account) = plan
            .accounts
            .iter()
            .find(|a| a.id == self.account_id && !a.deleted)
        else {
            return Err(format!(
                "Account {} is not in this plan: use an id from list_accounts.",
                self.account_id
            )
            .into());
        };
        let analysis = analyse(plan, &account.id, self.bank_balance, self.today);
        let fmt = MoneyFormat::of(plan.currency_format.as_ref());
        let mut change = Reconciliation {
            account_id: account.id.clone(),
            account: safe(&account.name),
            analysis: analysis_entry(&self.account_id, &analysis),
            bank_balance: self.bank_balance,
            cleared_before: analysis.cleared_balance,
            adjustment: 0,
            to_reconcile: analysis.to_reconcile.clone(),
            ready_to_assign: None,
            knowledge: snapshot.server_knowledge,
            fmt,
        };
        let not_asked = |status: ReconcileStatus, message: String| {
            not_asked(self.details(&change), status, message, &plan_id)
        };
        let adjustment = match analysis.verdict(self.adjust) {
            Verdict::DifferenceFound => {
                return Ok(not_asked(
                    ReconcileStatus::DifferenceFound,
                    format!(
                        "YNAB's cleared balance differs from the bank by {}. Nothing was changed. Check explained_by, uncleared and possible_duplicates with the user; call again once fixed, or with adjust=true to record the gap as an adjustment.",
                        change.fmt.plain(analysis.difference)
                    ),
                ));
            }
            Verdict::AlreadyReconciled => {
                return Ok(not_asked(
                    ReconcileStatus::NothingToDo,
                    "Already reconciled: nothing to do.".into(),
                ));
            }
            Verdict::Reconcile { adjustment } => adjustment,
        };
        change.adjustment = adjustment;
        change.ready_to_assign = ready_to_assign(plan);
        let count = change.to_reconcile.len();
        let question = if adjustment == 0 {
            format!(
                "Reconcile {}: mark {count} cleared transaction(s) reconciled?",
                change.account
            )
        } else {
            format!(
                "Reconcile {}: mark {count} cleared transaction(s) reconciled and add a balance adjustment of {}?",
                change.account,
                change.fmt.plain(adjustment)
            )
        };
        let subject = json!({"account": change.account_id, "balance": change.bank_balance,
                             "adjust": adjustment, "cleared_before": change.cleared_before,
                             "transactions": change.to_reconcile});
        Ok(Prepared::Change(Proposal {
            plan_id,
            subject,
            question,
            change,
        }))
    }

    /// The journal's details as far as they are known before writing (D14): the adjustment's id
    /// is YNAB's to give, so the intent keeps a digest of it instead, as `create` intents do, and
    /// the knowledge to read what changed since (D31): undo recognises it by that digest.
    fn intent_details(&self, change: &Reconciliation) -> Value {
        let mut record = Reconciled {
            account_id: Some(change.account_id.clone()),
            reconciled_ids: change.to_reconcile.clone(),
            adjustment_id: None,
            ..Reconciled::default()
        };
        if change.adjustment != 0 {
            let adjustment = self.adjustment(change);
            let salt = crate::random::hex::<16>();
            let digest = digest(
                Some(&salt),
                &item(
                    &adjustment.date,
                    adjustment.amount,
                    ADJUSTMENT_PAYEE,
                    Some(ADJUSTMENT_MEMO),
                    adjustment.category_id.as_deref(),
                ),
            );
            record.item_digests = Some(vec![digest]);
            record.digest_salt = Some(salt);
            record.server_knowledge = Some(change.knowledge);
        }
        to_details(&record)
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<Reconciliation>,
    ) -> Result<Written<Reconciliation>, WriteFailure> {
        let change = &proposal.change;
        let plan = proposal.plan_id.as_str();
        let client = context.plans.client();
        let mut reconciled = change.to_reconcile.clone();
        let mut adjustment_id = None;
        if change.adjustment != 0 {
            let saved = client
                .create_transactions(plan, &[self.adjustment(change)])
                .await?;
            let id = saved
                .transaction_ids
                .first()
                .cloned()
                .or_else(|| saved.transaction.as_ref().map(|t| t.id.clone()))
                .or_else(|| saved.transactions.first().map(|t| t.id.clone()));
            let Some(id) = id else {
                return Err(WriteFailure::Unknown(format!(
                    "YNAB recorded the balance adjustment of {} without naming it, and no transaction was marked reconciled. Find the adjustment with find_transactions, then call reconcile_account again.",
                    change.fmt.plain(change.adjustment)
                )));
            };
            reconciled.push(id.clone());
            adjustment_id = Some(id);
        }
        let updates: Vec<TransactionUpdate> = reconciled
            .iter()
            .map(|id| TransactionUpdate {
                id: id.clone(),
                cleared: Some("reconciled".into()),
                ..TransactionUpdate::default()
            })
            .collect();
        if !updates.is_empty()
            && let Err(error) = client.update_transactions(plan, &updates).await
        {
            return Err(match &adjustment_id {
                None => error.into(),
                Some(id) => WriteFailure::Unknown(format!(
                    "Half done: the balance adjustment of {} was recorded (transaction {id}), then marking the transactions reconciled failed ({error}). Call reconcile_account again with the same bank balance to finish, or undo it (that deletes the adjustment).",
                    change.fmt.plain(change.adjustment)
                )),
            });
        }
        Ok(JournalDraft {
            details: to_details(&Reconciled {
                account_id: Some(change.account_id.clone()),
                reconciled_ids: reconciled,
                adjustment_id,
                ..Reconciled::default()
            }),
            ..JournalDraft::default()
        }
        .into())
    }

    fn details(&self, change: &Reconciliation) -> ReconcileDetails {
        ReconcileDetails {
            account: change.account.clone(),
            analysis: change.analysis.clone(),
            adjustment: (change.adjustment != 0).then_some(Amount(change.adjustment)),
        }
    }
}
