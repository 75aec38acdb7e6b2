//! `undo_operation` (`docs/contract/writes.md` §10, D5, D14, D25): revert the latest operation
//! still in effect, or the one named, never overwriting a later change; confirmed like every write.
//!
//! Kinds it reverts, whether this server or the Python one journaled them: `categorize`,
//! `budget`, `move`, `approve`, `category`, `create`, `flag`, `payee`, `reconcile`, and a
//! restorable `target`. The kinds journaled `"undoable": false` (`category_create`, `split`,
//! `import`, a target the journal cannot restore) are named with their reason.

use super::apply_categories::Recategorisation;
use super::apply_categories::RecategorisationDetails;
use super::undo_reverts::{Recovery, plan_undo};
use super::{ConfirmedTool, PlanId, ToolError, plan_or_last_used};
use crate::args::Text;
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Style, WriteFailure, WriteResult,
    WriteStatus, Written,
};
use crate::confirmations::Risk;
use crate::context::Context;
use crate::logic::undo::record::to_details;
use crate::logic::undo::reverting::UndoIntent;
use crate::logic::undo::schedules::ScheduleRevert;
use crate::logic::undo::{Kind, Revert};
use crate::money::MoneyFormat;
use crate::plan_store::PlanSnapshot;
use crate::store::journal::{Intent, Operation};
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// The arguments of `undo_operation`.
#[derive(Debug, Clone)]
pub struct Undo {
    plan_id: String,
    operation_id: Option<String>,
}

/// The undo proposed.
#[derive(Debug, Clone)]
pub struct UndoChange {
    pub operation_id: String,
    pub kind: Kind,
    pub revert: Revert,
    /// The plan's currency, for what the undo's writes say.
    pub fmt: MoneyFormat,
    pub conflicts: Vec<String>,
    pub unfinished: Vec<UnfinishedEntry>,
    /// Set when the operation is an unfinished intent rather than a journal line.
    pub from_intent: bool,
    /// The unfinished intents settled once the undo is written: the operation's own (an
    /// intent), and those of interrupted undos of it (D14).
    pub settle: Vec<String>,
}

crate::tool_args! {
    /// The arguments of `undo_operation`.
    pub struct UndoArgs {
        pub plan_id: Option<PlanId>,
        /// From a write's answer; omit for the latest.
        pub operation_id: Option<Text<1, 100>>,
    }
}

/// An operation interrupted before the journal recorded it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct UnfinishedEntry {
    pub operation_id: String,
    /// Its journal kind.
    pub kind: String,
}

// The fields of `undo_operation`'s answer after the status fields. (A plain comment: the struct
// is flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct UndoDetails {
    #[serde(flatten)]
    pub recategorisation: RecategorisationDetails,
    /// The operation this undo reverts.
    pub undone_operation_id: String,
    /// Operations interrupted before the journal recorded them.
    pub unfinished: Vec<UnfinishedEntry>,
}

impl ConfirmedTool for Undo {
    const TITLE: &'static str = "Undo an operation";
    const DESTRUCTIVE: bool = true;
    type Args = UndoArgs;
    type Details = UndoDetails;

    fn description(_writes: bool) -> String {
        "Undo a change made through this server: the plan's latest one still in effect, or \
operation_id's. Anything changed since is left alone and listed in conflicts. The user sees what \
reverts and confirms. An undo cannot be undone. Costs 1 request plus the revert's."
            .to_string()
    }

    fn from_args(args: UndoArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        Ok(Undo {
            plan_id: plan_or_last_used(&args.plan_id),
            operation_id: args.operation_id.map(|o| o.0),
        })
    }
}

fn e_u1() -> String {
    "Nothing to undo: no operation of this plan is still in effect.".to_string()
}

fn e_u2(id: &str) -> String {
    format!("Nothing to undo: no operation of this plan is still in effect with id {id}.")
}

fn cannot_undo_reason(op: &Operation) -> Option<String> {
    let kind = Kind::from_name(&op.kind);
    // Earlier versions journaled splits and imports `undoable: false`; their lines hold what this
    // one needs to revert them (the transaction and its category before; the ids imported).
    let flag_outdated = matches!(kind, Some(Kind::Split | Kind::Import));
    if op.undoable == Some(false) && !flag_outdated {
        return Some(
            op.reason
                .clone()
                .unwrap_or_else(|| "YNAB's API cannot revert it".to_string()),
        );
    }
    let reverted = kind.is_some_and(Kind::reverted);
    (!reverted).then(|| {
        format!(
            "this version of avenir-mcp cannot revert a {} operation yet; change it back in YNAB",
            op.kind
        )
    })
}

/// An unfinished intent seen as the operation it was about to be.
/// Its moves stay in its details, which `logic::undo::parse` reads (a damaged one refuses).
fn operation_of_intent(intent: &Intent) -> Operation {
    Operation {
        operation_id: intent.id.clone(),
        plan_id: intent.plan_id.clone(),
        kind: intent.kind.clone(),
        applied_at: String::new(),
        moves: Vec::new(),
        details: intent.details.clone(),
        undoable: None,
        reason: None,
    }
}

/// The operation an undo's intent was undoing (`details.undo`).
fn undoing(intent: &Intent) -> Option<&str> {
    intent.details.get("undo").and_then(Value::as_str)
}

/// What finishing the interrupted undo `intent` undoes: the operation it was undoing, still in
/// effect in the journal or still unfinished. When that is gone (finished elsewhere), the
/// interrupted undo is settled and there is nothing to undo.
async fn interrupted_target(
    context: &Context,
    view: &crate::store::journal::JournalView,
    plan_id: &str,
    intent: &Intent,
    unfinished: &[Intent],
) -> Result<(Operation, bool), ToolError> {
    let Some(original) = undoing(intent) else {
        return Err(format!(
            "Operation {} (undo) cannot be finished here: its intent names no operation; it is left as it is.",
            intent.id
        )
        .into());
    };
    if let Some(op) = view.find(plan_id, Some(original)) {
        return Ok((op.clone(), false));
    }
    if let Some(op) = unfinished
        .iter()
        .find(|i| i.id == original && i.kind != Undo::KIND.name())
    {
        return Ok((operation_of_intent(op), true));
    }
    crate::confirm::settle(context, &intent.id, "recovered").await?;
    Err(format!(
        "Nothing to undo: operation {original}, which the interrupted undo {} was undoing, is no longer in effect. {} is no longer listed as unfinished.",
        intent.id, intent.id
    )
    .into())
}

/// E-U1, naming the unfinished operations of the plan when there are any.
fn nothing_in_effect(unfinished_intents: &[Intent]) -> String {
    if unfinished_intents.is_empty() {
        return e_u1();
    }
    let listed: Vec<String> = unfinished_intents
        .iter()
        .map(|i| format!("{} ({})", i.id, i.kind))
        .collect();
    format!(
        "{} Unfinished, interrupted before the journal recorded them: {}; call undo_operation with that operation_id to revert what was applied.",
        e_u1(),
        listed.join(", ")
    )
}

/// The latest operation of the plan still in effect, when undo can revert it; else the refusal
/// that says why and names the latest one it can revert, with its question.
async fn latest_to_undo(
    context: &Context,
    snapshot: &Arc<PlanSnapshot>,
    view: &crate::store::journal::JournalView,
    unfinished_intents: &[Intent],
    unfinished: &[UnfinishedEntry],
) -> Result<Operation, ToolError> {
    let plan_id = snapshot.id();
    let latest = view
        .find(plan_id, None)
        .ok_or_else(|| nothing_in_effect(unfinished_intents))?;
    let Some(reason) = cannot_undo_reason(latest) else {
        return Ok(latest.clone());
    };
    let next = view
        .in_effect(plan_id)
        .find(|op| cannot_undo_reason(op).is_none());
    let Some(next) = next else {
        return Err(nothing_in_effect(unfinished_intents).into());
    };
    let recovery = Recovery::default();
    let next_question = match plan_undo(
        context,
        snapshot,
        next.clone(),
        &recovery,
        unfinished.to_vec(),
    )
    .await
    {
        Ok(Prepared::Change(p)) => p.question,
        _ => format!("undo its {} operation", next.kind),
    };
    Err(format!(
        "The latest change ({}, {}) cannot be undone here: {reason}. The latest one that can is {} ({next_question}); call undo_operation with that operation_id.",
        latest.kind, latest.operation_id, next.operation_id
    )
    .into())
}

impl ConfirmedWrite for Undo {
    type Change = UndoChange;
    const TOOL: &'static str = "undo_operation";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Undo;

    fn plan_id(&self) -> &str {
        &self.plan_id
    }

    /// An undo runs alone: its preview reads the plan and the journal, and its apply goes from
    /// the re-check in `write` through the marker and the settle, holding the exclusive undo
    /// lock (D5).
    fn exclusive(&self) -> bool {
        true
    }

    fn style(&self, change: &UndoChange) -> Style {
        if matches!(change.revert, Revert::Categorize { .. }) {
            Style::Plan
        } else {
            Style::Gate
        }
    }

    /// An undo restores what an operation changed; it is a delete when it deletes what the
    /// operation created (transactions, imported ones, a schedule).
    fn risk(&self, change: &UndoChange) -> Risk {
        match &change.revert {
            Revert::Create { .. } | Revert::Schedule(ScheduleRevert::Delete { .. }) => Risk::Delete,
            _ => Risk::Low,
        }
    }

    async fn prepare(
        &self,
        context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<UndoChange>, ToolError> {
        let plan_id = snapshot.id().to_string();
        let (view, all_unfinished) = context
            .journal
            .blocking(|journal| Ok((journal.read()?, journal.unfinished()?)))
            .await?;
        let unfinished_intents: Vec<Intent> = all_unfinished
            .into_iter()
            .filter(|i| i.plan_id == plan_id)
            .collect();
        let unfinished: Vec<UnfinishedEntry> = unfinished_intents
            .iter()
            .map(|i| UnfinishedEntry {
                operation_id: i.id.clone(),
                kind: i.kind.clone(),
            })
            .collect();
        let (op, from_intent) = match &self.operation_id {
            Some(id) => match view.find(&plan_id, Some(id)) {
                Some(op) => (op.clone(), false),
                // Undone already: its intent, if one is still open, is not a second chance.
                None if view.undone.contains(id) => return Err(e_u2(id).into()),
                None => match unfinished_intents.iter().find(|i| &i.id == id) {
                    // An interrupted undo: finishing it is undoing what it was undoing (D14).
                    Some(intent) if intent.kind == Self::KIND.name() => {
                        interrupted_target(context, &view, &plan_id, intent, &unfinished_intents)
                            .await?
                    }
                    Some(intent) => (operation_of_intent(intent), true),
                    None => return Err(e_u2(id).into()),
                },
            },
            None => {
                let latest =
                    latest_to_undo(context, &snapshot, &view, &unfinished_intents, &unfinished);
                (latest.await?, false)
            }
        };
        // An intent's kind is read by `logic::undo::parse`: those YNAB's API cannot revert are
        // looked for in the plan, to settle or journal them as they landed (D14).
        if !from_intent && let Some(reason) = cannot_undo_reason(&op) {
            return Err(format!(
                "Operation {} ({}) cannot be undone here: {reason}.",
                op.operation_id, op.kind
            )
            .into());
        }
        let recovery = Recovery {
            from_intent,
            interrupted: unfinished_intents
                .iter()
                .filter(|i| {
                    i.kind == Self::KIND.name() && undoing(i) == Some(op.operation_id.as_str())
                })
                .map(|i| i.id.clone())
                .collect(),
        };
        plan_undo(context, &snapshot, op, &recovery, unfinished).await
    }

    /// The undo's intent: the operation it undoes, and what it is about to send, ids and amounts
    /// only (D31): [`Revert::reverting`].
    fn intent_details(&self, change: &UndoChange) -> Value {
        to_details(&UndoIntent {
            undo: change.operation_id.clone(),
            reverting: change.revert.reverting(&crate::random::hex::<16>()),
        })
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<UndoChange>,
    ) -> Result<Written<UndoChange>, WriteFailure> {
        let change = &proposal.change;
        let plan = proposal.plan_id.as_str();
        // Two undos of one operation never both run (D5): `apply` holds the exclusive undo
        // lock (every process sharing the journal) until the marker is appended and the intent
        // settled, so what is read here is still so when the marker lands. Another undo that
        // got there first has left its marker (or settled the intent): already undone.
        if !still_to_undo(context, plan, change).await? {
            return Err(WriteFailure::NothingChanged(e_u2(&change.operation_id)));
        }
        let marker = json!({"undone": change.operation_id});
        let mut draft = JournalDraft {
            markers_only: true,
            after: if change.from_intent {
                vec![]
            } else {
                vec![marker.clone()]
            },
            ..JournalDraft::default()
        };
        super::undo_sends::send(context, plan, (&change.revert, &change.fmt), &mut draft).await?;
        for intent in &change.settle {
            if let Err(error) = crate::confirm::settle(context, intent, "undone").await {
                tracing::warn!("intent {intent} could not be settled: {error}");
            }
        }
        Ok(draft.into())
    }

    fn result(
        &self,
        change: &UndoChange,
        status: WriteStatus,
        message: String,
        confirmation: Option<String>,
        _operation_id: Option<String>,
    ) -> Value {
        undo_result(change, status, message, confirmation)
    }

    fn applied_message(&self, change: &UndoChange, _operation_id: Option<&str>) -> String {
        change.revert.undone(change.kind).to_string()
    }
}

/// Whether `change`'s operation is still to be undone, read now: a journal operation still in
/// effect, or an intent still unfinished and not marked undone.
async fn still_to_undo(
    context: &Context,
    plan: &str,
    change: &UndoChange,
) -> Result<bool, WriteFailure> {
    let failed =
        |e: crate::store::journal::JournalError| WriteFailure::NothingChanged(e.to_string());
    let (view, unfinished) = context
        .journal
        .blocking(|journal| Ok((journal.read()?, journal.unfinished()?)))
        .await
        .map_err(failed)?;
    let id = change.operation_id.as_str();
    if !change.from_intent {
        return Ok(view.find(plan, Some(id)).is_some());
    }
    Ok(!view.undone.contains(id)
        && unfinished
            .iter()
            .any(|intent| intent.id == id && intent.plan_id == plan))
}

/// The `WriteResult` of an undo. F1: an undo names no operation (it cannot itself be undone).
pub(crate) fn undo_result(
    change: &UndoChange,
    status: WriteStatus,
    message: String,
    confirmation: Option<String>,
) -> Value {
    let recategorisation = match &change.revert {
        Revert::Categorize { changes } => Recategorisation {
            changes: changes.clone(),
            unchanged_count: 0,
            conflicts: change.conflicts.clone(),
        }
        .details(),
        _ => RecategorisationDetails {
            changes: Vec::new(),
            unchanged_count: 0,
            conflicts: change.conflicts.clone(),
        },
    };
    WriteResult {
        status,
        message,
        confirmation,
        operation_id: None,
        details: UndoDetails {
            recategorisation,
            undone_operation_id: change.operation_id.clone(),
            unfinished: change.unfinished.clone(),
        },
    }
    .into_value()
}
