//! What tools derive from the whole plan, built once when the plan is loaded and updated from
//! each delta with only what the delta touched: the merchant each payee's label normalises to
//! (payee normalisation: the key of the classifier, of recurring detection, of the merchant
//! search and of the payee list). The regular expressions of `merchant` run once per payee and
//! per change of its label, never per transaction and per call.
//!
//! Pure: the plan store keeps one [`PlanIndex`] beside each cached plan and calls
//! [`PlanIndex::apply`] with every delta before merging it; the property test below checks that
//! the index so updated equals the one built from scratch, after any sequence of deltas.

use super::merchant::merchant;
use super::payees::PayeeKeys;
use crate::text::{fold, safe, uncut};
use std::borrow::Cow;
use std::collections::HashMap;
use ynab::Str;
use ynab::models::{Payee, PlanDetail};

/// The derived state of one plan.
#[derive(Debug, Clone, Default)]
pub struct PlanIndex {
    /// Payee id → what its label normalises to, for every payee the plan holds (as
    /// `PlanNames` sees them: a payee a delta deleted is gone from both).
    payees: HashMap<Str, PayeeEntry>,
    /// Each merchant once: a plan's thousands of bank labels name a few dozen shops, and their
    /// payees share one copy of its text. (It only grows; a renamed shop leaves a few bytes.)
    shops: HashMap<Str, Str>,
}

impl PartialEq for PlanIndex {
    /// Two indexes are equal when they say the same of every payee (the shared texts are how
    /// it is stored, not what it says).
    fn eq(&self, other: &Self) -> bool {
        self.payees == other.payees
    }
}

impl Eq for PlanIndex {}

/// What one payee's label gives once normalised.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PayeeEntry {
    /// The merchant (`logic::merchant`).
    merchant: Str,
    /// The merchant as a search reads it (shown, case-folded), shared like the merchant.
    folded_merchant: Str,
    /// The shown label case-folded: the payee list's sort key and search text.
    folded_name: Str,
}

impl PlanIndex {
    fn entry(&mut self, label: &str) -> PayeeEntry {
        let shop = merchant(label);
        let (merchant, folded_merchant) = match self.shops.get_key_value(shop.as_str()) {
            Some((shared, folded)) => (shared.clone(), folded.clone()),
            None => {
                let folded: Str = Str::from(fold(&uncut(&shop)));
                let shared: Str = Str::from(shop);
                self.shops.insert(shared.clone(), folded.clone());
                (shared, folded)
            }
        };
        PayeeEntry {
            merchant,
            folded_merchant,
            folded_name: Str::from(fold(&safe(label))),
        }
    }
}

impl PlanIndex {
    /// The index of `plan`, from scratch.
    pub fn build(plan: &PlanDetail) -> Self {
        let mut index = PlanIndex {
            payees: HashMap::with_capacity(plan.payees.len()),
            shops: HashMap::new(),
        };
        for p in &plan.payees {
            let entry = index.entry(&p.name);
            index.payees.insert(p.id.clone(), entry);
        }
        index
    }

    /// Bring the index up to date with `delta`, the answer of a delta request, before or after
    /// it is merged into the plan: only the payees the delta carries are normalised again.
    pub fn apply(&mut self, delta: &PlanDetail) {
        for p in &delta.payees {
            if p.deleted {
                self.payees.remove(&*p.id);
            } else {
                let entry = self.entry(&p.name);
                self.payees.insert(p.id.clone(), entry);
            }
        }
    }

    /// The merchant of a payee; "" for none or an unknown id (a label that is not there
    /// normalises to nothing), as `merchant(names.payee(payee_id))` would say.
    pub fn merchant(&self, payee_id: Option<&str>) -> &str {
        payee_id
            .and_then(|id| self.payees.get(id))
            .map_or("", |e| &e.merchant)
    }

    /// A payee's keys for the payee list (computed for one the index does not hold).
    pub fn payee_keys(&self, payee: &Payee) -> PayeeKeys<'_> {
        match self.payees.get(&*payee.id) {
            Some(entry) => PayeeKeys {
                merchant: Cow::Borrowed(&entry.merchant),
                folded_merchant: Cow::Borrowed(&entry.folded_merchant),
                folded_name: Cow::Borrowed(&entry.folded_name),
            },
            None => PayeeKeys::of(&payee.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const LABELS: [&str; 5] = [
        "CB MARKET FRESH 12345",
        "Market Fresh",
        "VIR GARAGE",
        "",
        "Bakery 12/03",
    ];

    fn payee(n: u8, label: u8, deleted: bool) -> Payee {
        Payee {
            id: format!("p{n}").into(),
            name: LABELS[usize::from(label) % LABELS.len()].into(),
            transfer_account_id: None,
            deleted,
        }
    }

    fn plan(payees: Vec<Payee>) -> PlanDetail {
        let mut plan: PlanDetail =
            serde_json::from_value(serde_json::json!({"id": "plan", "name": "Plan"}))
                .unwrap_or_else(|e| panic!("an empty plan: {e}"));
        plan.payees = payees;
        plan
    }

    #[test]
    fn merchants_of_a_plan() {
        let index = PlanIndex::build(&plan(vec![payee(1, 0, false), payee(2, 3, false)]));
        assert_eq!(index.merchant(Some("p1")), "MARKET FRESH");
        assert_eq!(index.merchant(Some("p2")), "");
        assert_eq!(index.merchant(Some("nobody")), "");
        assert_eq!(index.merchant(None), "");
    }

    #[test]
    fn a_renamed_payee_is_normalised_again_and_a_deleted_one_forgotten() {
        let mut index = PlanIndex::build(&plan(vec![payee(1, 0, false), payee(2, 2, false)]));
        index.apply(&plan(vec![payee(1, 4, false), payee(2, 2, true)]));
        assert_eq!(index.merchant(Some("p1")), "BAKERY");
        assert_eq!(index.merchant(Some("p2")), "");
    }

    fn arb_payee() -> impl Strategy<Value = Payee> {
        (1u8..7, any::<u8>(), prop::bool::weighted(0.2)).prop_map(|(n, l, d)| payee(n, l, d))
    }

    proptest! {
        /// The index updated delta by delta equals the index built from the merged plan.
        #[test]
        fn incremental_equals_from_scratch(
            start in prop::collection::vec(arb_payee(), 0..6),
            deltas in prop::collection::vec(prop::collection::vec(arb_payee(), 0..4), 0..8),
        ) {
            let mut base = plan(Vec::new());
            crate::sync::merge_plan(&mut base, plan(start));
            let mut index = PlanIndex::build(&base);
            for payees in deltas {
                let delta = plan(payees);
                index.apply(&delta);
                crate::sync::merge_plan(&mut base, delta);
                prop_assert_eq!(&index, &PlanIndex::build(&base));
            }
        }
    }
}
