//! Plan data for the tools: a delta-synced cache of whole plans (`docs/contract/server.md` §5.6).
//! The first read of a plan loads it with one request; every later read asks YNAB for one delta.
//!
//! `last-used` and `default` are resolved to a real plan id the first time the process meets
//! them and kept (D17). With `AVENIR_MCP_FRESH_SECONDS` > 0, reads within that many seconds of the
//! last sync are served with no request; the confirmation re-check never is (D18).
//!
//! Plan data stays in memory and nothing here writes to disk (D6), unless the person opts in
//! with `AVENIR_MCP_CACHE=1`: then each plan is also kept in `store::plan_cache` (after the first
//! load and after each delta that changed something, saved off the call's path), and the first
//! read of a process brings the kept copy up to date with one delta instead of a full export.

use crate::logic::assignable::CategoryIndex;
use crate::logic::classifier::Classifier;
use crate::logic::index::PlanIndex;
use crate::logic::payees::PayeeRanking;
use crate::logic::pending::PendingList;
use crate::store::plan_cache::{DiskCache, KeptPlan, PlanCache};
use crate::sync::merge_plan;
use std::collections::HashMap;
use std::sync::OnceLock;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use ynab::models::{Category, PlanDetail};
use ynab::{Client, TransactionFilter};

/// A plan as last synced, with the knowledge counter of that sync and what tools derive from
/// the whole plan (built at load, updated with each delta: `logic::index`).
#[derive(Debug, Clone)]
pub struct PlanSnapshot {
    pub plan: PlanDetail,
    pub server_knowledge: i64,
    pub index: PlanIndex,
    /// Figures of this version of the plan, each computed at its first use.
    memo: Memo,
}

/// What tools derive from one version of a plan, computed at first use and kept until a delta
/// brings a change (an empty delta keeps them): the payee ranking of `list_payees`, and the
/// classifier and pending list of `suggest_categories`.
#[derive(Debug, Clone, Default)]
struct Memo {
    payee_ranking: OnceLock<PayeeRanking>,
    classifier: OnceLock<Classifier>,
    pending: OnceLock<PendingList>,
}

/// What the plan cache keeps of a snapshot (the index and memos are rebuilt at load).
impl KeptPlan for PlanSnapshot {
    fn plan(&self) -> &PlanDetail {
        &self.plan
    }
    fn server_knowledge(&self) -> i64 {
        self.server_knowledge
    }
}

impl PlanSnapshot {
    /// A plan as loaded, its index built.
    pub fn new(plan: PlanDetail, server_knowledge: i64) -> Self {
        let index = PlanIndex::build(&plan);
        PlanSnapshot {
            plan,
            server_knowledge,
            index,
            memo: Memo::default(),
        }
    }

    /// The payees in `list_payees` order, with their uses.
    pub fn payee_ranking(&self) -> &PayeeRanking {
        self.memo.payee_ranking.get_or_init(|| {
            PayeeRanking::build(&self.plan.payees, &self.plan.transactions, |p| {
                self.index.payee_keys(p)
            })
        })
    }

    /// The transactions waiting for a category, newest first, with their probable transfer
    /// partners.
    pub fn pending(&self) -> &PendingList {
        self.memo.pending.get_or_init(|| {
            let categories = CategoryIndex::new(&self.plan.category_groups, &self.plan.categories);
            PendingList::build(&self.plan, &categories)
        })
    }

    /// The classifier learnt from the whole history.
    pub fn classifier(&self) -> &Classifier {
        self.memo.classifier.get_or_init(|| {
            let categories = CategoryIndex::new(&self.plan.category_groups, &self.plan.categories);
            Classifier::learn_indexed(&self.plan, &self.index, &categories)
        })
    }

    /// Merge a delta answer: the index first (it looks only at what the delta carries), then
    /// the plan.
    pub fn merge(&mut self, delta: PlanDetail, server_knowledge: i64) {
        if !crate::sync::is_empty(&delta) {
            self.memo = Memo::default();
        }
        self.index.apply(&delta);
        merge_plan(&mut self.plan, delta);
        self.server_knowledge = server_knowledge;
    }

    /// The resolved plan id.
    pub fn id(&self) -> &str {
        &self.plan.id
    }
}

/// How recent the data of a read must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Freshness {
    /// Within `AVENIR_MCP_FRESH_SECONDS` of the last sync, the cache answers alone.
    AllowCached,
    /// Always ask YNAB for the delta (the re-check after a person's answer, D18).
    AskYnab,
}

#[derive(Debug)]
struct Cached {
    snapshot: Arc<PlanSnapshot>,
    synced: Instant,
    /// A write was sent since the last sync: the next read asks YNAB, fresh or not.
    stale: bool,
}

type Slot = Arc<tokio::sync::Mutex<Option<Cached>>>;

/// Reads plans through the YNAB client, keeping each one in memory and syncing it by deltas.
#[derive(Debug)]
pub struct PlanStore {
    client: Arc<Client>,
    fresh_for: Duration,
    aliases: Mutex<HashMap<String, String>>,
    slots: Mutex<HashMap<String, Slot>>,
    /// The opt-in disk copy of each plan (`AVENIR_MCP_CACHE=1`); `None`: memory only (D6).
    disk: Option<DiskCache>,
}

fn is_alias(plan_id: &str) -> bool {
    plan_id == "last-used" || plan_id == "default"
}

impl PlanStore {
    /// `fresh_for`: how long after a sync reads may skip the delta (0: never).
    pub fn new(client: Arc<Client>, fresh_for: Duration) -> Self {
        PlanStore {
            client,
            fresh_for,
            aliases: Mutex::new(HashMap::new()),
            slots: Mutex::new(HashMap::new()),
            disk: None,
        }
    }

    /// Keep plans between runs in `cache` too (`AVENIR_MCP_CACHE=1`).
    pub fn with_cache(mut self, cache: PlanCache) -> Self {
        self.disk = Some(DiskCache::new(cache));
        self
    }

    /// Wait until the plan cache's queued saves are written (none without a cache).
    pub async fn cache_saved(&self) {
        if let Some(disk) = &self.disk {
            disk.saved().await;
        }
    }

    pub fn client(&self) -> &Arc<Client> {
        &self.client
    }

    /// The real id `plan_id` stands for, when known (an alias met before, or an id).
    pub fn resolved(&self, plan_id: &str) -> String {
        self.aliases
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(plan_id)
            .cloned()
            .unwrap_or_else(|| plan_id.to_string())
    }

    fn slot(&self, id: &str) -> Slot {
        self.slots
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(id.to_string())
            .or_default()
            .clone()
    }

    /// A write was sent to this plan: its answer changes derived figures (balances, month
    /// amounts) the write's own answer does not carry, so the next read asks YNAB for the delta
    /// even within `AVENIR_MCP_FRESH_SECONDS`.
    pub async fn wrote(&self, plan_id: &str) {
        let slot = self.slot(&self.resolved(plan_id));
        let mut cached = slot.lock().await;
        if let Some(entry) = cached.as_mut() {
            entry.stale = true;
        }
    }

    /// The plan with the categories of the months `wanted` accepts (labels `YYYY-MM-01`).
    ///
    /// The full export carries every month's categories; a plan loaded by kind (YNAB gave up on
    /// the export) has them for the current month only, so the others are fetched here, one
    /// `GET /months/{month}` each, the first time a tool needs them, and kept.
    pub async fn with_months(
        &self,
        snapshot: Arc<PlanSnapshot>,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<Arc<PlanSnapshot>, ynab::Error> {
        let missing: Vec<String> = snapshot
            .plan
            .months
            .iter()
            .filter(|m| !m.deleted && m.categories.is_none() && wanted(&m.month))
            .map(|m| m.month.clone())
            .collect();
        if missing.is_empty() {
            return Ok(snapshot);
        }
        let id = snapshot.id().to_string();
        let mut details = Vec::with_capacity(missing.len());
        for month in &missing {
            details.push(self.client.month(&id, month).await?);
        }
        let slot = self.slot(&id);
        let mut cached = slot.lock().await;
        let mut updated = match cached.as_ref() {
            Some(entry) if entry.snapshot.server_knowledge == snapshot.server_knowledge => {
                entry.snapshot.clone()
            }
            _ => snapshot,
        };
        let plan = &mut Arc::make_mut(&mut updated).plan;
        for detail in details {
            if let Some(month) = plan.months.iter_mut().find(|m| m.month == detail.month) {
                *month = detail;
            }
        }
        if let Some(entry) = cached.as_mut()
            && entry.snapshot.server_knowledge == updated.server_knowledge
        {
            entry.snapshot = updated.clone();
        }
        Ok(updated)
    }

    /// The name of a plan (resolved id), if loaded.
    pub async fn name_of(&self, plan_id: &str) -> Option<String> {
        let slot = self.slot(&self.resolved(plan_id));
        let cached = slot.lock().await;
        cached.as_ref().map(|c| c.snapshot.plan.name.clone())
    }

    /// The currency format of the cached copy of a plan (resolved id), if loaded and YNAB gave
    /// one: the chart view and the command line write amounts in it, with no request of their own.
    pub async fn currency_of(&self, plan_id: &str) -> Option<ynab::models::CurrencyFormat> {
        let slot = self.slot(&self.resolved(plan_id));
        let cached = slot.lock().await;
        cached
            .as_ref()
            .and_then(|c| c.snapshot.plan.currency_format.clone())
    }

    /// The `server_knowledge` of the cached copy of a plan (resolved id), if loaded.
    pub async fn cached_knowledge(&self, plan_id: &str) -> Option<i64> {
        let slot = self.slot(&self.resolved(plan_id));
        let cached = slot.lock().await;
        cached.as_ref().map(|c| c.snapshot.server_knowledge)
    }

    /// The whole plan, as recent as [`Freshness::AllowCached`] allows.
    pub async fn read(&self, plan_id: &str) -> Result<Arc<PlanSnapshot>, ynab::Error> {
        self.read_with(plan_id, Freshness::AllowCached).await
    }

    /// The whole plan, synced with YNAB now (one delta request once loaded).
    pub async fn read_fresh(&self, plan_id: &str) -> Result<Arc<PlanSnapshot>, ynab::Error> {
        self.read_with(plan_id, Freshness::AskYnab).await
    }

    /// The whole plan. `plan_id` is checked as one path segment before anything is sent.
    pub async fn read_with(
        &self,
        plan_id: &str,
        freshness: Freshness,
    ) -> Result<Arc<PlanSnapshot>, ynab::Error> {
        ynab::check_segment(plan_id)?;
        let id = self.resolved(plan_id);
        if is_alias(&id) {
            // First meeting with the alias: load under it, then remember the real id.
            let snapshot = self.first_load(&id).await?;
            let real = snapshot.id().to_string();
            self.aliases
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .entry(id.clone())
                .or_insert_with(|| real.clone());
            let slot = self.slot(&real);
            let mut cached = slot.lock().await;
            *cached = Some(Cached {
                snapshot: snapshot.clone(),
                synced: Instant::now(),
                stale: false,
            });
            return Ok(snapshot);
        }
        let slot = self.slot(&id);
        let mut cached = slot.lock().await;
        match cached.as_mut() {
            Some(entry) => {
                let fresh = freshness == Freshness::AllowCached
                    && !entry.stale
                    && !self.fresh_for.is_zero()
                    && entry.synced.elapsed() < self.fresh_for;
                if !fresh {
                    let knowledge = entry.snapshot.server_knowledge;
                    tracing::info!("Delta sync of plan {id} since knowledge={knowledge}");
                    let (delta, server_knowledge) = self.client.plan(&id, Some(knowledge)).await?;
                    Arc::make_mut(&mut entry.snapshot).merge(delta, server_knowledge);
                    entry.synced = Instant::now();
                    entry.stale = false;
                    if server_knowledge != knowledge {
                        self.keep(&entry.snapshot, None);
                    }
                }
                Ok(entry.snapshot.clone())
            }
            None => {
                let snapshot = self.first_load(&id).await?;
                *cached = Some(Cached {
                    snapshot: snapshot.clone(),
                    synced: Instant::now(),
                    stale: false,
                });
                Ok(snapshot)
            }
        }
    }

    /// Queue a save of `snapshot` in the plan cache, if there is one (`alias`: the name it was
    /// loaded under).
    fn keep(&self, snapshot: &Arc<PlanSnapshot>, alias: Option<&str>) {
        if let Some(disk) = &self.disk {
            disk.save(snapshot.clone(), alias.map(str::to_string));
        }
    }

    /// The first read of `name` (an id or an alias) in this process. With the plan cache: the
    /// copy kept there brought up to date by one delta — asked under `name`, so YNAB resolves an
    /// alias as it does today and the answer's id says whether it still names the kept plan —
    /// else (no copy, or one YNAB no longer serves) the full load, then kept. Without: the load.
    async fn first_load(&self, name: &str) -> Result<Arc<PlanSnapshot>, ynab::Error> {
        let Some(disk) = &self.disk else {
            return Ok(Arc::new(self.load(name).await?));
        };
        let alias = is_alias(name).then_some(name);
        if let Some(mut cached) = disk.restore(name).await {
            let known = cached.server_knowledge;
            let kept = cached.plan.id.to_string();
            tracing::info!("Plan {kept} read from the cache; delta sync since knowledge={known}");
            match self.client.plan(name, Some(known)).await {
                Ok((delta, server_knowledge)) if delta.id == kept => {
                    merge_plan(&mut cached.plan, delta);
                    let snapshot = Arc::new(PlanSnapshot::new(cached.plan, server_knowledge));
                    if server_knowledge != known {
                        self.keep(&snapshot, alias);
                    }
                    return Ok(snapshot);
                }
                Ok((delta, _)) => {
                    tracing::warn!(
                        "{name} now names plan {}, not the cached plan {kept}: loading it",
                        delta.id
                    );
                    let snapshot = Arc::new(self.load(&delta.id).await?);
                    self.keep(&snapshot, alias);
                    return Ok(snapshot);
                }
                Err(error) if refused(&error) => {
                    disk.forget(&kept, &format!("YNAB refused its delta ({error})"))
                        .await;
                }
                Err(error) => return Err(error),
            }
        }
        let snapshot = Arc::new(self.load(name).await?);
        self.keep(&snapshot, alias);
        Ok(snapshot)
    }

    /// The first load: the full export in one request; when YNAB gives up on it (a 5xx or a
    /// timeout, as it does for very large plans), the per-kind lists instead.
    async fn load(&self, plan_id: &str) -> Result<PlanSnapshot, ynab::Error> {
        tracing::info!("Loading plan {plan_id}");
        match self.client.plan(plan_id, None).await {
            Ok((plan, server_knowledge)) => {
                ynab::progress::report(ynab::progress::Progress::Building {
                    transactions: plan.transactions.len(),
                });
                Ok(PlanSnapshot::new(plan, server_knowledge))
            }
            Err(error) if gave_up(&error) => {
                tracing::warn!(
                    "the full export of plan {plan_id} failed ({error}); loading it by kind"
                );
                self.load_by_kind(plan_id).await
            }
            Err(error) => Err(error),
        }
    }

    /// The plan assembled from the per-kind endpoints (accounts, categories, payees, months,
    /// transactions, scheduled transactions, and the current month's detail).
    async fn load_by_kind(&self, plan_id: &str) -> Result<PlanSnapshot, ynab::Error> {
        let c = &self.client;
        let settings = c.plan_settings(plan_id).await?;
        let plans = c.plans().await?;
        let accounts = c.accounts(plan_id).await?;
        let groups = c.categories(plan_id).await?;
        let payees = c.payees(plan_id).await?;
        let (transactions, knowledge) = c
            .transactions(plan_id, &TransactionFilter::default())
            .await?;
        let scheduled = c.scheduled_transactions(plan_id).await?;
        let mut months = c.months(plan_id).await?;
        let current = c.month(plan_id, "current").await?;
        if let Some(month) = months.iter_mut().find(|m| m.month == current.month) {
            *month = current;
        }
        let summary = if is_alias(plan_id) {
            // The lists do not say which plan an alias named: only a token with one plan tells.
            match plans.as_slice() {
                [only] => only.clone(),
                _ => return Err(ynab::Error::AliasUnresolved(plan_id.to_string())),
            }
        } else {
            plans
                .into_iter()
                .find(|p| p.id == plan_id)
                .ok_or_else(|| ynab::Error::Status {
                    status: 404,
                    detail: "Resource not found".to_string(),
                })?
        };
        let mut plan = PlanDetail {
            id: summary.id,
            name: summary.name,
            last_modified_on: summary.last_modified_on,
            first_month: summary.first_month,
            last_month: summary.last_month,
            date_format: settings.date_format,
            currency_format: settings.currency_format,
            accounts,
            payees,
            payee_locations: Vec::new(),
            category_groups: Vec::new(),
            categories: Vec::new(),
            months,
            transactions: Vec::new(),
            subtransactions: Vec::new(),
            scheduled_transactions: Vec::new(),
            scheduled_subtransactions: Vec::new(),
        };
        for group in groups {
            let categories: Vec<Category> = group.categories;
            plan.category_groups.push(group.group);
            plan.categories.extend(categories);
        }
        for t in transactions {
            plan.subtransactions
                .extend(t.subtransactions.iter().cloned());
            plan.transactions.push(t.into());
        }
        for s in scheduled {
            plan.scheduled_subtransactions
                .extend(s.subtransactions.iter().cloned());
            plan.scheduled_transactions.push(s.into());
        }
        Ok(PlanSnapshot::new(plan, knowledge))
    }
}

/// YNAB refused the request itself (a 4xx other than 401 and 429, which have their own errors):
/// a kept plan it answers so for (gone, or not this token's) is not believed.
fn refused(error: &ynab::Error) -> bool {
    matches!(error, ynab::Error::Status { status, .. } if (400..500).contains(status))
}

/// A failure after which the per-kind endpoints are worth trying: YNAB answered 5xx, or no
/// answer came.
fn gave_up(error: &ynab::Error) -> bool {
    match error {
        ynab::Error::Status { status, .. } => *status >= 500,
        ynab::Error::Unreachable { .. } => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;

    fn delta_of(plan: &PlanDetail) -> PlanDetail {
        let mut delta = plan.clone();
        delta.accounts.clear();
        delta.payees.clear();
        delta.payee_locations.clear();
        delta.category_groups.clear();
        delta.categories.clear();
        delta.months.clear();
        delta.transactions.clear();
        delta.subtransactions.clear();
        delta.scheduled_transactions.clear();
        delta.scheduled_subtransactions.clear();
        delta
    }

    #[test]
    fn memos_last_through_an_empty_delta_and_are_dropped_by_a_change() {
        let mut f = Fixture::new();
        f.tx("t1", "2026-09-01", -1_000, "acc", "BAKERY ROSE", None);
        f.tx("t2", "2026-09-02", -1_000, "acc", "CORNER SHOP", None);
        f.tx("t3", "2026-09-03", -1_000, "acc", "CORNER SHOP", None);
        let mut snapshot = PlanSnapshot::new(f.plan.clone(), 10);
        let top = |s: &PlanSnapshot| {
            let list = s
                .payee_ranking()
                .list(&s.plan.payees, &s.plan.transactions, None, 1, |p| {
                    s.index.payee_keys(p)
                });
            (list.payees[0].name.clone(), list.payees[0].transactions)
        };
        assert_eq!(top(&snapshot), ("CORNER SHOP".to_string(), 2));

        snapshot.merge(delta_of(&f.plan), 11);
        assert!(
            snapshot.memo.payee_ranking.get().is_some(),
            "an empty delta keeps it"
        );
        assert_eq!(snapshot.server_knowledge, 11);

        let mut more = Fixture::new();
        more.tx("t4", "2026-09-04", -1_000, "acc", "BAKERY ROSE", None);
        more.tx("t5", "2026-09-05", -1_000, "acc", "BAKERY ROSE", None);
        let mut delta = delta_of(&f.plan);
        delta.transactions = more.plan.transactions;
        snapshot.merge(delta, 12);
        assert!(
            snapshot.memo.payee_ranking.get().is_none(),
            "a change drops it"
        );
        assert_eq!(top(&snapshot), ("BAKERY ROSE".to_string(), 3));
    }
}
