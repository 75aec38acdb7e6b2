//! Why a statement's closing balance and YNAB's cleared balance differ, in parts a person can
//! check one by one.
//!
//! YNAB's cleared balance counts every cleared or reconciled transaction of the account, whatever
//! its date; the bank's closing balance counts what the bank posted up to the statement's last
//! day. Once the statement's lines are matched with the transactions, the gap splits exactly into:
//! lines YNAB lacks, lines YNAB has but not cleared yet, pairs whose amounts differ, cleared
//! transactions the statement does not show, cleared transactions dated after the statement, and
//! what is left — a difference older than the statement (its opening balance already disagreed).

use super::statement_match::Comparison;
use ynab::models::Milliunits;

/// What the gap is made of, each part signed as it moves YNAB towards the bank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    /// The statement's closing balance minus YNAB's cleared balance.
    pub total: Milliunits,
    /// The lines YNAB lacks.
    pub missing_in_ynab: Milliunits,
    /// Lines YNAB has, still uncleared there.
    pub not_cleared_in_ynab: Milliunits,
    /// Matched pairs whose amounts differ: the bank's amount less what YNAB counts as cleared.
    pub amounts_differ: Milliunits,
    /// Cleared transactions within the statement's dates that it does not show (negated).
    pub extra_cleared_in_ynab: Milliunits,
    /// Cleared transactions dated after the statement's last day (negated).
    pub cleared_after_statement: Milliunits,
    /// What none of the above explains: a difference from before the statement.
    pub older: Milliunits,
}

impl Gap {
    /// What is left of the gap once the missing lines are in YNAB and the matched ones cleared:
    /// 0 when the account then agrees with the bank's closing balance.
    pub fn after_import(&self) -> Milliunits {
        self.total - self.missing_in_ynab - self.not_cleared_in_ynab
    }
}

/// A transaction as the balance sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted {
    pub amount: Milliunits,
    /// Cleared or reconciled: YNAB's cleared balance counts it.
    pub cleared: bool,
}

/// The gap between `closing` and `cleared_balance`, given the statement's line amounts, the
/// transactions compared (`ledger`, indexed as in `comparison`) and the sum of the cleared
/// transactions dated after the statement that no line matched.
pub fn explain(
    closing: Milliunits,
    cleared_balance: Milliunits,
    lines: &[Milliunits],
    ledger: &[Counted],
    comparison: &Comparison,
    cleared_after: Milliunits,
) -> Gap {
    let line = |l: usize| lines.get(l).copied().unwrap_or(0);
    let counted = |t: usize| ledger.get(t).filter(|c| c.cleared).map_or(0, |c| c.amount);
    let missing_in_ynab = comparison.missing_in_ynab.iter().map(|&l| line(l)).sum();
    let not_cleared_in_ynab = comparison
        .matched
        .iter()
        .filter(|&&(_, t)| ledger.get(t).is_some_and(|c| !c.cleared))
        .map(|&(l, _)| line(l))
        .sum();
    let amounts_differ = comparison
        .mismatched
        .iter()
        .map(|&(l, t, _)| line(l) - counted(t))
        .sum();
    let extra_cleared_in_ynab = -comparison
        .extra_in_ynab
        .iter()
        .map(|&t| counted(t))
        .sum::<Milliunits>();
    let total = closing - cleared_balance;
    let explained: Milliunits =
        missing_in_ynab + not_cleared_in_ynab + amounts_differ + extra_cleared_in_ynab
            - cleared_after;
    Gap {
        total,
        missing_in_ynab,
        not_cleared_in_ynab,
        amounts_differ,
        extra_cleared_in_ynab,
        cleared_after_statement: -cleared_after,
        older: total - explained,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::statement_match::Disagreement;

    #[test]
    fn each_part_of_the_gap_is_named_and_the_parts_add_up() {
        // The bank: opening 1,000.00, then -50.00 (matched, cleared), -20.00 (matched, not
        // cleared in YNAB), -7.00 (a fee YNAB lacks), -30.00 (YNAB says -33.00, cleared).
        let lines = [-50_000, -20_000, -7_000, -30_000];
        let ledger = [
            Counted {
                amount: -50_000,
                cleared: true,
            },
            Counted {
                amount: -20_000,
                cleared: false,
            },
            Counted {
                amount: -33_000,
                cleared: true,
            },
            Counted {
                amount: -71_860,
                cleared: true,
            }, // a duplicate the bank does not show
        ];
        let comparison = Comparison {
            matched: vec![(0, 0), (1, 1)],
            mismatched: vec![(3, 2, Disagreement::Amount)],
            missing_in_ynab: vec![2],
            extra_in_ynab: vec![3],
        };
        // YNAB's cleared balance: the opening, the cleared ones, and 12.00 cleared after the
        // statement's last day.
        let cleared = 1_000_000 - 50_000 - 33_000 - 71_860 - 12_000;
        let closing = 1_000_000 - 50_000 - 20_000 - 7_000 - 30_000;
        let gap = explain(closing, cleared, &lines, &ledger, &comparison, -12_000);
        assert_eq!(gap.missing_in_ynab, -7_000);
        assert_eq!(gap.not_cleared_in_ynab, -20_000);
        assert_eq!(gap.amounts_differ, 3_000);
        assert_eq!(gap.extra_cleared_in_ynab, 71_860);
        assert_eq!(gap.cleared_after_statement, 12_000);
        assert_eq!(gap.older, 0);
        assert_eq!(gap.total, closing - cleared);
        // Importing the fee and clearing the -20.00 leaves the -33.00, the duplicate and what
        // was cleared after the statement.
        assert_eq!(gap.after_import(), 3_000 + 71_860 + 12_000);
    }

    #[test]
    fn a_difference_from_before_the_statement_is_what_is_left() {
        let comparison = Comparison::default();
        let gap = explain(500_000, 480_000, &[], &[], &comparison, 0);
        assert_eq!(gap.older, 20_000);
    }
}
