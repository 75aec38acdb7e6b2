//! `import_statement` (`docs/writes/import_statement.md`): the lines of a bank statement that YNAB
//! lacks, created on the account under one question, as YNAB's own file import would create
//! them: the import id YNAB gives a file's line (`YNAB:<milliunits>:<date>:<n>`), so that a later
//! import of the same lines by YNAB recognises them; the bank's text as the payee; cleared, and
//! left uncategorised and unapproved for `suggest_categories` and `apply_categories`.
//!
//! The statement is read and compared again at every step (preview, re-check after the yes):
//! a file changed meanwhile changes the proposal, which is then refused as stale. Importing the
//! same statement twice finds nothing missing the second time (the lines match their import
//! ids). It is journaled as a creation: `undo_operation` deletes what it created.

use super::create_transactions::{Creation, CreationDetails, NewItem, details, intent, propose};
use super::statement_input::{
    ColumnsArg, DateOrderArg, DecimalArg, Source, account, check, compared, read,
};
use super::{ConfirmedTool, PlanId, ToolError, create_transactions};
use crate::confirm::{ConfirmedWrite, Prepared, Proposal, Undoable, WriteFailure, Written};
use crate::context::Context;
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use serde_json::Value;
use std::sync::Arc;

/// Longest payee name YNAB takes, in characters: a longer bank label is cut.
const MAX_PAYEE: usize = 200;
/// Longest memo YNAB takes.
const MAX_MEMO: usize = 500;

crate::tool_args! {
    /// The arguments of `import_statement`.
    pub struct ImportStatementArgs {
        pub plan_id: Option<PlanId>,
        /// From list_accounts.
        #[give = "the account's id, from list_accounts"]
        pub account_id: String,
        /// The file's text.
        pub statement: Option<String>,
        /// Or the file on this machine (not on a hosted server).
        pub path: Option<String>,
        /// day_first or month_first, when the file cannot tell.
        pub date_order: Option<DateOrderArg>,
        /// comma or point, when the file cannot tell.
        pub decimal: Option<DecimalArg>,
        /// As compare_statement's.
        pub columns: Option<ColumnsArg>,
    }
}

/// `import_statement`, its arguments read (the statement itself is read at each step).
#[derive(Debug)]
pub struct ImportStatement {
    account_id: String,
    statement: Option<String>,
    path: Option<String>,
    date_order: Option<DateOrderArg>,
    decimal: Option<DecimalArg>,
    columns: Option<ColumnsArg>,
}

impl ConfirmedTool for ImportStatement {
    const TITLE: &'static str = "Import a bank statement's missing lines";
    const IDEMPOTENT: bool = true;
    const DESTRUCTIVE: bool = false;
    type Args = ImportStatementArgs;
    type Details = CreationDetails;

    fn description(_writes: bool) -> String {
        "Create the statement lines compare_statement found missing in YNAB, as YNAB's own file \
import would (its import ids; uncategorised, unapproved). The user sees every line and confirms; \
a second import of the same file adds nothing. undo_operation deletes them."
            .to_string()
    }

    fn from_args(args: ImportStatementArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        Ok(ImportStatement {
            account_id: args.account_id,
            statement: args.statement,
            path: args.path,
            date_order: args.date_order,
            decimal: args.decimal,
            columns: args.columns,
        })
    }
}

impl ImportStatement {
    fn source(&self) -> Source {
        Source {
            statement: self.statement.clone(),
            path: self.path.clone(),
            date_order: self.date_order,
            decimal: self.decimal,
            columns: self.columns.clone(),
        }
    }

    /// The statement's lines the account lacks, as transactions to create.
    fn missing(
        &self,
        context: &Context,
        snapshot: &PlanSnapshot,
    ) -> Result<Vec<NewItem>, ToolError> {
        let statement = read(self.source(), context.settings.hosted)?;
        let plan = &snapshot.plan;
        let account = account(&snapshot.plan, &self.account_id)?;
        check(&statement, account, plan)?;
        let compared = compared(statement, plan, &account.id);
        let today = context.settings.today();
        let items: Vec<NewItem> = compared
            .comparison
            .missing_in_ynab
            .iter()
            .filter_map(|&l| {
                let line = compared.statement.lines.get(l)?;
                Some(NewItem {
                    date: line.date,
                    amount: line.amount,
                    payee_name: cut(&line.payee, MAX_PAYEE),
                    memo: line.memo.as_deref().map(|m| cut(m, MAX_MEMO)),
                    category_id: None,
                    import_id: compared.import_ids.get(l).cloned(),
                })
            })
            .collect();
        if let Some(future) = items.iter().find(|i| i.date > today) {
            return Err(ToolError::Refused(format!(
                "The statement has a line dated {}, after today: YNAB records only what happened. Nothing was imported; check the file's dates (date_order).",
                future.date.format("%Y-%m-%d")
            )));
        }
        Ok(items)
    }
}

/// The bank's text as YNAB keeps it: the display rule, cut to YNAB's length.
fn cut(text: &str, most: usize) -> String {
    crate::text::uncut(text).chars().take(most).collect()
}

impl ConfirmedWrite for ImportStatement {
    type Change = Creation;
    const TOOL: &'static str = "import_statement";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Create;
    const APPLIED: &'static str =
        "Imported. suggest_categories lists them for a category; they wait for approval in YNAB.";
    const UNDO: Undoable = Undoable::Yes("deletes them");

    fn items(&self, change: &Creation) -> usize {
        change.count()
    }

    async fn prepare(
        &self,
        context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<Creation>, ToolError> {
        let items = self.missing(context, &snapshot)?;
        let account = account(&snapshot.plan, &self.account_id)?;
        let title = format!(
            "Import {} statement line(s) missing from {}?",
            items.len(),
            safe(&account.name)
        );
        let proposal = propose(&snapshot, account, &items, false, title);
        match proposal {
            Prepared::Change(p) if items.is_empty() => Ok(self.nothing_to_do(
                &p.change,
                "Every line of the statement is already in YNAB: nothing to import.",
                &p.plan_id,
            )),
            other => Ok(other),
        }
    }

    fn intent_details(&self, change: &Creation) -> Value {
        intent(change)
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<Creation>,
    ) -> Result<Written<Creation>, WriteFailure> {
        create_transactions::CreateTransactions::writer(&self.account_id)
            .write(context, proposal)
            .await
    }

    fn details(&self, change: &Creation) -> CreationDetails {
        details(change)
    }
}
