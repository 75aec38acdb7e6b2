//! `flag_transactions` (`docs/contract/writes.md` §9.3): give transactions a coloured flag, or
//! remove it, in one confirmed and undoable step.

use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::FlagColour;
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written,
};
use crate::context::Context;
use crate::digest::order_free;
use crate::logic::flags::{FlagAsked, FlagRefusal, check_request, plan_flags};
use crate::logic::names::PlanNames;
use crate::logic::undo::{FlagChange, details::Flagged, record::to_details};
use crate::money::{Amount, MoneyFormat};
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::Milliunits;
use ynab::writes::TransactionUpdate;

/// The arguments of `flag_transactions`.
#[derive(Debug, Clone)]
pub struct FlagTransactions {
    flags: Vec<FlagAsked>,
}

crate::tool_args! {
    /// The arguments of `flag_transactions`.
    pub struct FlagTransactionsArgs {
        pub plan_id: Option<PlanId>,
        #[give = "a list of {transaction_id, color}"]
        pub flags: Vec<FlagEntry>,
    }
}

crate::tool_args! {
    // One entry of `flags`. (A plain comment: a doc comment would become its schema's description.)
    pub struct FlagEntry {
        /// From find_transactions.
        #[give = "a transaction id from find_transactions"]
        pub transaction_id: String,
        pub color: FlagColour,
    }
}

/// One flag that changes.
#[derive(Debug, Clone)]
pub struct Reflagged {
    pub transaction_id: String,
    pub date: String,
    pub amount: Milliunits,
    pub payee: String,
    pub from: Option<&'static str>,
    pub to: Option<&'static str>,
}

// One flag that changes, as the answer shows it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FlagChangeEntry {
    pub transaction_id: String,
    pub date: String,
    pub payee: String,
    pub amount: Amount,
    pub from_color: Option<&'static str>,
    pub to_color: Option<&'static str>,
}

// The fields of `flag_transactions`' answer, whatever its status.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FlagDetails {
    pub changes: Vec<FlagChangeEntry>,
    /// Flags that were already as asked.
    pub unchanged_count: usize,
}

impl Reflagged {
    fn record(&self) -> FlagChangeEntry {
        FlagChangeEntry {
            transaction_id: self.transaction_id.clone(),
            date: self.date.clone(),
            payee: self.payee.clone(),
            amount: Amount(self.amount),
            from_color: self.from,
            to_color: self.to,
        }
    }

    /// `- {date} {payee} {amount}: {from or "none"} → {to or "none"}`.
    fn line(&self, fmt: &MoneyFormat) -> String {
        format!(
            "- {} {} {}: {} → {}",
            self.date,
            self.payee,
            fmt.plain(self.amount),
            self.from.unwrap_or("none"),
            self.to.unwrap_or("none")
        )
    }
}

/// What `flag_transactions` proposes.
#[derive(Debug, Clone)]
pub struct Reflagging {
    pub changes: Vec<Reflagged>,
    pub unchanged_count: usize,
}

impl ConfirmedTool for FlagTransactions {
    const TITLE: &'static str = "Flag transactions";
    const IDEMPOTENT: bool = true;
    const DESTRUCTIVE: bool = false;
    type Args = FlagTransactionsArgs;
    type Details = FlagDetails;

    fn description(_writes: bool) -> String {
        "Flag transactions for the user to check (a likely duplicate, an unknown charge), or \
unflag them. The user sees each change and confirms. undo_operation restores the flags."
            .to_string()
    }

    fn from_args(args: FlagTransactionsArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        let flags: Vec<FlagAsked> = args
            .flags
            .into_iter()
            .map(|entry| FlagAsked {
                transaction_id: entry.transaction_id,
                color: entry.color.0,
            })
            .collect();
        // Refused before any read when the request alone is wrong.
        check_request(&flags).map_err(refusal)?;
        Ok(FlagTransactions { flags })
    }
}

/// The exact message of a refused request (`docs/contract/writes.md` §9.3).
fn refusal(refused: FlagRefusal) -> String {
    match refused {
        FlagRefusal::Empty => "Give at least one flag.".to_string(),
        FlagRefusal::NamedTwice(ids) => format!(
            "Transaction {} is named twice: give one flag each.",
            ids.join(", ")
        ),
        FlagRefusal::NotInPlan(ids) => format!(
            "Transaction {} is not in this plan: use a transaction_id from find_transactions.",
            ids.join(", ")
        ),
    }
}

impl ConfirmedWrite for FlagTransactions {
    type Change = Reflagging;
    const TOOL: &'static str = "flag_transactions";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Flag;
    const APPLIED: &'static str = "Flagged.";
    const UNDO: Undoable = Undoable::Yes("puts them back");

    fn items(&self, change: &Reflagging) -> usize {
        change.changes.len()
    }

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<Reflagging>, ToolError> {
        let plan = &snapshot.plan;
        let planned = plan_flags(&self.flags, &plan.transactions).map_err(refusal)?;
        let names = PlanNames::new(plan);
        let change = Reflagging {
            changes: planned
                .changes
                .iter()
                .map(|c| Reflagged {
                    transaction_id: c.transaction.id.clone().into(),
                    date: c.transaction.date.clone().into(),
                    amount: c.transaction.amount,
                    payee: safe(names.payee(c.transaction.payee_id.as_deref())),
                    from: c.from,
                    to: c.to,
                })
                .collect(),
            unchanged_count: planned.unchanged_count,
        };
        if change.changes.is_empty() {
            return Ok(self.nothing_to_do(
                &change,
                "Every flag is already as asked.",
                snapshot.id(),
            ));
        }
        let fmt = MoneyFormat::of(plan.currency_format.as_ref());
        let question = crate::confirm::question(
            format!(
                "Change the flag of {} transaction(s)?",
                change.changes.len()
            ),
            change.changes.iter().map(|c| c.line(&fmt)).collect(),
        );
        Ok(Prepared::change(
            snapshot.id(),
            subject(&change.changes),
            question,
            change,
        ))
    }

    fn intent_details(&self, change: &Reflagging) -> Value {
        details(&change.changes)
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<Reflagging>,
    ) -> Result<Written<Reflagging>, WriteFailure> {
        let updates: Vec<TransactionUpdate> = proposal
            .change
            .changes
            .iter()
            .map(|c| TransactionUpdate {
                id: c.transaction_id.clone(),
                flag_color: Some(c.to.map(str::to_string)),
                ..TransactionUpdate::default()
            })
            .collect();
        context
            .plans
            .client()
            .update_transactions(&proposal.plan_id, &updates)
            .await?;
        Ok(JournalDraft {
            details: details(&proposal.change.changes),
            ..JournalDraft::default()
        }
        .into())
    }

    fn details(&self, change: &Reflagging) -> FlagDetails {
        FlagDetails {
            changes: change.changes.iter().map(Reflagged::record).collect(),
            unchanged_count: change.unchanged_count,
        }
    }
}

/// D15: `{"flags": [[transaction_id, before, after], …]}`, an order-free list.
fn subject(changes: &[Reflagged]) -> Value {
    json!({"flags": order_free(
        changes.iter().map(|c| json!([c.transaction_id, c.from, c.to])).collect()
    )})
}

/// The journal's (and the intent's) details: `{"changes": [{transaction_id, from, to}]}`, in
/// request order — what the `flag` undo reads (`docs/contract/writes.md` §5.2, §10.2).
fn details(changes: &[Reflagged]) -> Value {
    to_details(&Flagged {
        changes: changes
            .iter()
            .map(|c| FlagChange {
                transaction_id: c.transaction_id.clone(),
                from: c.from.map(str::to_string),
                to: c.to.map(str::to_string),
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Args, InvalidArgument};

    fn change(id: &str, from: Option<&'static str>, to: Option<&'static str>) -> Reflagged {
        Reflagged {
            transaction_id: id.into(),
            date: "2026-09-18".into(),
            amount: -45_000,
            payee: "RAIL CO".into(),
            from,
            to,
        }
    }

    #[test]
    fn the_subject_ignores_the_order_of_the_flags() {
        let a = [
            change("t1", None, Some("red")),
            change("t2", Some("blue"), None),
        ];
        let b = [
            change("t2", Some("blue"), None),
            change("t1", None, Some("red")),
        ];
        assert_eq!(subject(&a), subject(&b));
        assert_eq!(
            subject(&a),
            json!({"flags": [["t1", null, "red"], ["t2", "blue", null]]})
        );
    }

    #[test]
    fn details_are_what_the_flag_undo_reads() {
        let a = [
            change("t2", Some("blue"), None),
            change("t1", None, Some("red")),
        ];
        assert_eq!(
            details(&a),
            json!({"changes": [{"transaction_id": "t2", "from": "blue", "to": null},
                               {"transaction_id": "t1", "from": null, "to": "red"}]})
        );
    }

    #[test]
    fn a_line_names_date_payee_amount_and_both_flags() {
        let fmt = MoneyFormat::new(2, ".");
        assert_eq!(
            change("t1", None, Some("red")).line(&fmt),
            "- 2026-09-18 RAIL CO -45.00: none → red"
        );
        assert_eq!(
            change("t1", Some("purple"), None).line(&fmt),
            "- 2026-09-18 RAIL CO -45.00: purple → none"
        );
    }

    #[test]
    fn a_colour_outside_the_six_is_refused_by_name() {
        let mut args = Args::new(
            json!({"color": "pink"})
                .as_object()
                .cloned()
                .unwrap_or_default(),
        );
        let error = args
            .field::<FlagColour>("color", None)
            .expect_err("pink")
            .within("flags.0");
        let InvalidArgument::Rule(error) = error else {
            panic!("a rule broken: {error}");
        };
        assert_eq!(error.path, "flags.0.color");
        assert!(
            error
                .rule
                .contains("'red', 'orange', 'yellow', 'green', 'blue' or 'purple'")
        );
        let mut none = Args::new(
            json!({"color": null})
                .as_object()
                .cloned()
                .unwrap_or_default(),
        );
        assert_eq!(
            none.field::<FlagColour>("color", None),
            Ok(FlagColour(None))
        );
    }
}
