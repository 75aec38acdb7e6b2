//! `rename_payee` (`docs/contract/writes.md` §9.7): give a payee a cleaner name for its whole
//! history, confirmed and undoable.

use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::Text;
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written,
};
use crate::context::Context;
use crate::logic::rename::{MAX_PAYEE_NAME, RenameRefusal, plan_rename};
use crate::logic::undo::{self, record::to_details};
use crate::plan_store::PlanSnapshot;
use crate::text::{quoted, safe};
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// The arguments of `rename_payee`.
#[derive(Debug, Clone)]
pub struct RenamePayee {
    payee_id: String,
    name: String,
}

/// The rename proposed.
#[derive(Debug, Clone)]
pub struct PayeeRename {
    pub payee_id: String,
    /// The name as YNAB holds it.
    pub from: String,
    /// The new name, trimmed.
    pub to: String,
    /// Transactions that name the payee.
    pub transactions: usize,
}

crate::tool_args! {
    /// The arguments of `rename_payee`.
    pub struct RenamePayeeArgs {
        pub plan_id: Option<PlanId>,
        /// From list_payees.
        #[give = "a payee id from list_payees"]
        pub payee_id: String,
        /// On one line; surrounding spaces are trimmed.
        #[give = "the payee's new name"]
        pub name: Text<1, MAX_PAYEE_NAME>,
    }
}

// The fields of `rename_payee`'s answer, whatever its status.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RenameDetails {
    pub payee_id: String,
    /// The name before.
    pub from_name: String,
    /// The name after.
    pub to_name: String,
    /// Transactions that name the payee.
    pub transactions: usize,
}

impl ConfirmedTool for RenamePayee {
    const TITLE: &'static str = "Rename a payee";
    const IDEMPOTENT: bool = true;
    const DESTRUCTIVE: bool = true;
    type Args = RenamePayeeArgs;
    type Details = RenameDetails;

    fn description(_writes: bool) -> String {
        "Rename a payee for its whole history. The user sees the old and new names and how many \
transactions use it, and confirms. Can be undone."
            .to_string()
    }

    fn from_args(args: RenamePayeeArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        Ok(RenamePayee {
            payee_id: args.payee_id,
            name: args.name.0,
        })
    }
}

/// The exact message of a refused rename (`docs/contract/writes.md` §9.7, §11.3).
fn refusal(payee_id: &str, refused: RenameRefusal) -> String {
    match refused {
        RenameRefusal::Transfer => format!(
            "Payee {payee_id} is a transfer's: YNAB names it after the account the money moves to. Rename the account in YNAB itself."
        ),
        RenameRefusal::NotInPlan => {
            format!("Payee {payee_id} is not in this plan: use a payee_id from list_payees.")
        }
        RenameRefusal::Empty => "The new name is empty: give the merchant's name.".to_string(),
        RenameRefusal::TooLong(n) => format!(
            "The new name is {n} characters: YNAB refuses a payee name longer than {MAX_PAYEE_NAME}."
        ),
        RenameRefusal::NotOneLine(name) => format!(
            "{} contains a line break, control or format character (such as a zero-width or direction mark): give the name on one line, with visible characters only.",
            quoted(&safe(&name))
        ),
        RenameRefusal::Taken(name) => format!(
            "{} is already the name of another payee: YNAB's API cannot merge two payees. Merge them in YNAB, or choose another name.",
            quoted(&safe(&name))
        ),
    }
}

impl ConfirmedWrite for RenamePayee {
    type Change = PayeeRename;
    const TOOL: &'static str = "rename_payee";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Payee;
    const APPLIED: &'static str = "Renamed.";
    const UNDO: Undoable = Undoable::Yes("puts the old name back");

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<PayeeRename>, ToolError> {
        let plan = &snapshot.plan;
        let rename = plan_rename(&plan.payees, &plan.transactions, &self.payee_id, &self.name)
            .map_err(|refused| refusal(&self.payee_id, refused))?;
        let unchanged = rename.changes_nothing();
        let change = PayeeRename {
            payee_id: rename.payee.id.clone().into(),
            from: rename.payee.name.clone().into(),
            to: rename.name,
            transactions: rename.transactions,
        };
        if unchanged {
            return Ok(self.nothing_to_do(
                &change,
                "Nothing to change: the payee is already called that.",
                snapshot.id(),
            ));
        }
        let question = format!(
            "Rename payee ‘{}’ to ‘{}’? {} transaction(s) name it.",
            safe(&change.from),
            safe(&change.to),
            change.transactions
        );
        let subject = json!({"payee_id": change.payee_id, "name_before": change.from,
                             "name": change.to});
        Ok(Prepared::Change(Proposal {
            plan_id: snapshot.id().to_string(),
            subject,
            question,
            change,
        }))
    }

    fn intent_details(&self, change: &PayeeRename) -> Value {
        details(change)
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<PayeeRename>,
    ) -> Result<Written<PayeeRename>, WriteFailure> {
        let c = &proposal.change;
        context
            .plans
            .client()
            .rename_payee(&proposal.plan_id, &c.payee_id, &c.to)
            .await?;
        Ok(JournalDraft {
            details: details(c),
            ..JournalDraft::default()
        }
        .into())
    }

    fn details(&self, change: &PayeeRename) -> RenameDetails {
        RenameDetails {
            payee_id: change.payee_id.clone(),
            from_name: safe(&change.from),
            to_name: safe(&change.to),
            transactions: change.transactions,
        }
    }
}

/// The journal's (and the intent's) details: `{payee_id, from, to}`, the names exactly as YNAB
/// held the old one and as sent for the new one — what the `payee` undo reads (§5.2, §10.2).
fn details(change: &PayeeRename) -> Value {
    to_details(&undo::PayeeRenamed {
        payee_id: change.payee_id.clone(),
        from: change.from.clone(),
        to: change.to.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_worded_as_the_catalogue_says() {
        assert_eq!(
            refusal("p1", RenameRefusal::TooLong(501)),
            "The new name is 501 characters: YNAB refuses a payee name longer than 500."
        );
        assert_eq!(
            refusal("p1", RenameRefusal::NotOneLine("a\u{2028}b".into())),
            "'a b' contains a line break, control or format character (such as a zero-width or direction mark): give the name on one line, with visible characters only."
        );
        assert_eq!(
            refusal("p1", RenameRefusal::Taken("Chez l'ami".into())),
            "\"Chez l'ami\" is already the name of another payee: YNAB's API cannot merge two payees. Merge them in YNAB, or choose another name."
        );
    }

    #[test]
    fn details_keep_the_names_undo_compares() {
        let change = PayeeRename {
            payee_id: "p1".into(),
            from: "RAIL  CO".into(),
            to: "Rail company".into(),
            transactions: 4,
        };
        assert_eq!(
            details(&change),
            json!({"payee_id": "p1", "from": "RAIL  CO", "to": "Rail company"})
        );
    }
}
