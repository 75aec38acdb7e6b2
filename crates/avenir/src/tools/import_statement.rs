//! `import_statement` (`docs/writes/import_statement.md`): the lines of a bank statement that YNAB
//! lacks, created on the account under one question, as YNAB's own file import would create
//! them: the import id YNAB gives a file's line (`YNAB:<milliunits>:<date>:<n>`), so that a later
//! import of the same lines by YNAB recognises them; the bank's text as the payee; cleared, and
//! left uncategorised and unapproved for `suggest_categories` and `apply_categories`.
//!
//! The statement is read and compared again at every step (preview, re-check after the yes):
//! a file changed meanwhile changes the proposal, which is then refused as stale. Importing the
//! same statement twice finds nothing missing the second time (the lines match their import
//! ids). It is journaled as a creation: `undo_operation` deletes what it created. With
//! `reconcile` (`statement_reconcile.rs`) it is journaled as a reconciliation that imported
//! lines first: its undo deletes them and puts every mark back.

use super::create_transactions::{
    Creation, CreationDetails, NewItem, details, intent, propose, recognition,
};
use super::statement_input::{
    ColumnsArg, DateOrderArg, DecimalArg, Source, account, check, compared, read,
};
use super::statement_reconcile::{Closing, ReconcileEntry, half_done};
use super::{ConfirmedTool, PlanId, ToolError, create_transactions};
use crate::args::Flag;
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written,
};
use crate::context::Context;
use crate::logic::assignable::CategoryIndex;
use crate::logic::classifier::Suggestion;
use crate::logic::undo::{Kind, record::to_details};
use crate::money::MoneyFormat;
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
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
        /// true: then reconcile at the closing balance, if it agrees.
        pub reconcile: Flag<false>,
    }
}

/// `import_statement`, its arguments read (the statement itself is read at each step).
#[derive(Debug)]
pub struct ImportStatement {
    account_id: String,
    source: Source,
    reconcile: bool,
}

/// What importing will do: the lines to create and, asked, the reconciliation after them.
#[derive(Debug, Clone)]
pub struct Import {
    creation: Creation,
    closing: Option<Closing>,
    /// The category the plan's history gives each line, when clear enough (as the lines go).
    suggestions: Vec<Option<Suggestion>>,
    fmt: MoneyFormat,
}

// A category the plan's history gives an imported line, for apply_categories. (A plain comment:
// a doc comment would become the description of the list's items.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct SuggestedEntry {
    /// The line, as transactions lists it (0 first).
    pub line: usize,
    /// The created transaction; null until applied.
    pub transaction_id: Option<String>,
    pub category_id: String,
    pub category_name: String,
    /// Share of the payee's past transactions given it, 0 to 1.
    pub confidence: f64,
}

impl Import {
    /// The reconciliation it writes: asked, and the balances agree.
    fn reconciling(&self) -> Option<&Closing> {
        self.closing.as_ref().filter(|c| c.agrees())
    }
}

// The fields of `import_statement`'s answer, whatever its status. (A plain comment: the struct
// is flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct ImportDetails {
    #[serde(flatten)]
    pub creation: CreationDetails,
    /// With reconcile=true: the closing balance against YNAB after the import; null otherwise.
    pub reconcile: Option<ReconcileEntry>,
    /// For apply_categories once applied: the lines whose payee's history names a category.
    pub suggested_categories: Vec<SuggestedEntry>,
}

impl ConfirmedTool for ImportStatement {
    const TITLE: &'static str = "Import a bank statement's missing lines";
    const IDEMPOTENT: bool = true;
    const DESTRUCTIVE: bool = false;
    type Args = ImportStatementArgs;
    type Details = ImportDetails;

    fn description(_writes: bool) -> String {
        "Create the statement lines compare_statement found missing in YNAB, as YNAB's own file \
import would (its import ids; uncategorised, unapproved). The user sees every line and confirms; \
a second import of the same file adds nothing. reconcile=true also reconciles the account when \
the closing balance then agrees. undo_operation reverts it."
            .to_string()
    }

    fn from_args(args: ImportStatementArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        Ok(ImportStatement {
            account_id: args.account_id,
            source: Source {
                statement: args.statement,
                path: args.path,
                date_order: args.date_order,
                decimal: args.decimal,
                columns: args.columns,
            },
            reconcile: args.reconcile.0,
        })
    }
}

impl ImportStatement {
    /// The statement's lines the account lacks, as transactions to create, and the
    /// reconciliation after them when it was asked.
    fn missing(
        &self,
        context: &Context,
        snapshot: &PlanSnapshot,
    ) -> Result<(Vec<NewItem>, Option<Closing>), ToolError> {
        let statement = read(self.source.clone(), context.settings.hosted)?;
        let plan = &snapshot.plan;
        let account = account(&snapshot.plan, &self.account_id)?;
        check(&statement, account, plan)?;
        let compared = compared(statement, plan, &account.id);
        let closing = match self.reconcile {
            true => Some(Closing::of(&compared, plan, &account.id).ok_or_else(|| {
                ToolError::Refused(
                    "The statement gives no closing balance, so the account cannot be reconciled with it. Nothing was imported; import it without reconcile, then use reconcile_account with the balance the bank shows.".into(),
                )
            })?),
            false => None,
        };
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
        if let Some(future) = items.iter().find(|i| i.date > context.settings.today()) {
            return Err(ToolError::Refused(format!(
                "The statement has a line dated {}, after today: YNAB records only what happened. Nothing was imported; check the file's dates (date_order).",
                future.date.format("%Y-%m-%d")
            )));
        }
        Ok((items, closing))
    }
}

/// The bank's text as YNAB keeps it: the display rule, cut to YNAB's length.
fn cut(text: &str, most: usize) -> String {
    crate::text::uncut(text).chars().take(most).collect()
}

impl ConfirmedWrite for ImportStatement {
    type Change = Import;
    const TOOL: &'static str = "import_statement";
    const KIND: Kind = Kind::Create;
    const APPLIED: &'static str =
        "Imported. suggest_categories lists them for a category; they wait for approval in YNAB.";
    const UNDO: Undoable = Undoable::Yes("deletes them");

    fn kind(&self, change: &Import) -> Kind {
        match change.reconciling() {
            Some(_) => Kind::Reconcile,
            None => Kind::Create,
        }
    }

    fn items(&self, change: &Import) -> usize {
        change.creation.count() + change.reconciling().map_or(0, |c| c.marks().count())
    }

    async fn prepare(
        &self,
        context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<Import>, ToolError> {
        let (items, closing) = self.missing(context, &snapshot)?;
        let account = account(&snapshot.plan, &self.account_id)?;
        let fmt = MoneyFormat::of(snapshot.plan.currency_format.as_ref());
        let title = format!(
            "Import {} statement line(s) missing from {}{}?",
            items.len(),
            safe(&account.name),
            match closing.as_ref().map(Closing::agrees) {
                Some(true) => " and reconcile it with the bank",
                _ => "",
            }
        );
        let proposal = match propose(&snapshot, account, &items, false, title) {
            Prepared::Change(p) => p,
            Prepared::NothingToDo { value, plan_id } => {
                return Ok(Prepared::NothingToDo { value, plan_id });
            }
        };
        let categories =
            CategoryIndex::new(&snapshot.plan.category_groups, &snapshot.plan.categories);
        let threshold = context.settings.confidence_threshold.get();
        let suggestions = items
            .iter()
            .map(|i| {
                let classifier = snapshot.classifier();
                classifier.suggest(&i.payee_name, i.amount, &categories, threshold)
            })
            .collect();
        let import = Import {
            creation: proposal.change,
            closing,
            suggestions,
            fmt,
        };
        Ok(self.proposal(
            import,
            proposal.plan_id,
            proposal.subject,
            proposal.question,
        ))
    }

    fn intent_details(&self, change: &Import) -> Value {
        match change.reconciling() {
            Some(closing) => to_details(&closing.intent(recognition(&change.creation))),
            None => intent(&change.creation),
        }
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<Import>,
    ) -> Result<Written<Import>, WriteFailure> {
        let change = &proposal.change;
        let created = match change.creation.count() {
            0 => JournalDraft::default().into(),
            _ => self.create(context, proposal).await?,
        };
        let creation = created.applied.unwrap_or_else(|| change.creation.clone());
        let Some(closing) = change.reconciling() else {
            let applied = Some(Import {
                creation,
                ..change.clone()
            });
            return Ok(Written {
                draft: created.draft,
                applied,
            });
        };
        if !creation.duplicate_import_ids().is_empty() {
            return Err(WriteFailure::Unknown(format!(
                "YNAB refused {} line(s) as already imported once (their import ids are in use, perhaps by transactions deleted since), so the account was not reconciled; the other lines were imported. Run compare_statement to see what is left, then reconcile_account.",
                creation.duplicate_import_ids().len()
            )));
        }
        let imported = creation.created_ids();
        let updates = closing.updates(imported);
        if !updates.is_empty() {
            let client = context.plans.client();
            client
                .update_transactions(&proposal.plan_id, &updates)
                .await
                .map_err(|e| half_done(imported.len(), e))?;
        }
        let draft = JournalDraft {
            details: to_details(&closing.written(&self.account_id, imported)),
            ..JournalDraft::default()
        };
        Ok(Written {
            draft,
            applied: Some(Import {
                creation,
                ..change.clone()
            }),
        })
    }

    fn details(&self, change: &Import) -> ImportDetails {
        let ids = change.creation.created_ids();
        let suggested_categories = (change.suggestions.iter().enumerate())
            .filter_map(|(line, s)| Some((line, s.as_ref()?)))
            .map(|(line, s)| SuggestedEntry {
                line,
                transaction_id: ids.get(line).cloned(),
                category_id: s.category_id.clone(),
                category_name: s.category_name.clone(),
                confidence: s.confidence,
            })
            .collect();
        ImportDetails {
            creation: details(&change.creation),
            reconcile: change.closing.as_ref().map(Closing::entry),
            suggested_categories,
        }
    }

    fn applied_message(&self, change: &Import, operation_id: Option<&str>) -> String {
        let mut done = match change.reconciling() {
            Some(c) => format!(
                "Imported, and the account reconciled at the bank's closing balance of {}. suggest_categories lists the new lines for a category; they wait for approval in YNAB.",
                change.fmt.plain(c.amount)
            ),
            None => Self::APPLIED.to_string(),
        };
        let suggested = change.suggestions.iter().flatten().count();
        if suggested > 0 {
            done.push_str(&format!(" suggested_categories already names one for {suggested} of them, for apply_categories (a change of its own, confirmed like any other)."));
        }
        if let Some(c) = change.closing.as_ref().filter(|c| !c.agrees()) {
            done.push_str(&format!(
                " The account was not reconciled: it still differs from the bank's closing balance by {} (reconcile shows the parts).",
                change.fmt.plain(c.left.after_import())
            ));
        }
        crate::confirm::applied(&done, Self::UNDO, operation_id)
    }
}

impl ImportStatement {
    /// The question for `import`: the creation's, with the reconciliation's line; or, when
    /// nothing would change, the `nothing_to_do` answer saying why.
    fn proposal(
        &self,
        import: Import,
        plan_id: String,
        mut subject: Value,
        mut question: String,
    ) -> Prepared<Import> {
        let marks: Vec<&String> = import
            .reconciling()
            .map_or(Vec::new(), |c| c.marks().collect());
        if import.creation.count() == 0 && marks.is_empty() {
            let message = match &import.closing {
                Some(c) if !c.agrees() => format!(
                    "Every line of the statement is already in YNAB, and the account was not reconciled: YNAB's cleared balance differs from the bank's closing balance by {} (reconcile shows the parts). Nothing was changed.",
                    import.fmt.plain(c.left.after_import())
                ),
                Some(_) => "Every line of the statement is already in YNAB, and the account is already reconciled at the bank's closing balance: nothing to do.".to_string(),
                None => "Every line of the statement is already in YNAB: nothing to import.".to_string(),
            };
            return self.nothing_to_do(&import, &message, &plan_id);
        }
        if let Some(closing) = &import.closing {
            question = format!("{question}\n{}", closing.line(&import.fmt));
            subject["reconcile"] = serde_json::json!({"marks": marks, "agrees": closing.agrees()});
        }
        Prepared::Change(Proposal {
            plan_id,
            subject,
            question,
            change: import,
        })
    }

    /// Create the lines, through `create_transactions`' own write.
    async fn create(
        &self,
        context: &Context,
        proposal: &Proposal<Import>,
    ) -> Result<Written<Creation>, WriteFailure> {
        let creating = Proposal {
            plan_id: proposal.plan_id.clone(),
            subject: proposal.subject.clone(),
            question: proposal.question.clone(),
            change: proposal.change.creation.clone(),
        };
        create_transactions::CreateTransactions::writer(&self.account_id)
            .write(context, &creating)
            .await
    }
}
