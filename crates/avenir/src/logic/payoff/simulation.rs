//! The month-by-month payoff simulation of `docs/contract/reads.md` §16 step 7: interest on every
//! balance, then each debt's minimum, then the rest of the budget in the strategy's order.
//!
//! Balances are integer milliunits held in `i128`; interest is a twelfth of the yearly rate on the
//! exact balance, rounded to the cent, ties to the even cent (`round_tens`, D8).

use crate::logic::exact::div_round_tens;

/// Highest balance tracked, in milliunits: a debt that grows past it (its interest outrunning every
/// payment) stays there, so `balance × rate` always fits in `i128`.
pub const BALANCE_CAP: i128 = i64::MAX as i128;

/// A yearly interest rate in thousandths of a percent, YNAB's own unit (4500 = 4.5 %).
pub type Rate = i64;

/// What the simulation needs of one debt, in account order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terms {
    /// What is owed at the start, in milliunits (positive).
    pub owed: i128,
    /// The yearly rate, never below 0.
    pub rate: Rate,
    /// The minimum payment, in milliunits, never below 0.
    pub minimum: i128,
}

/// One debt at the end of the simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DebtRun {
    /// The month (1 = the first month paid) its balance first reached 0.
    pub payoff: Option<u32>,
    /// Interest charged over the months simulated.
    pub interest: i128,
    /// Everything paid into it.
    pub paid: i128,
    /// What it still owes.
    pub balance: i128,
}

/// The outcome of one strategy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Simulation {
    /// Months simulated.
    pub months: u32,
    /// The first month's payments did not cover its interest: the debt never shrinks, and the
    /// simulation stopped after that month.
    pub never: bool,
    /// Per debt, in account order.
    pub debts: Vec<DebtRun>,
}

impl Simulation {
    /// Every balance reached 0.
    pub fn ended(&self) -> bool {
        self.debts.iter().all(|d| d.balance == 0)
    }

    /// The month every balance is 0, when that happened.
    pub fn months_to_debt_free(&self) -> Option<u32> {
        self.ended().then_some(self.months)
    }

    pub fn total_interest(&self) -> i128 {
        self.debts
            .iter()
            .fold(0i128, |sum, d| sum.saturating_add(d.interest))
    }

    pub fn total_paid(&self) -> i128 {
        self.debts
            .iter()
            .fold(0i128, |sum, d| sum.saturating_add(d.paid))
    }
}

/// A month's interest on `balance` at `rate`: `balance × rate / 100 / 12`, rounded to the cent.
pub fn monthly_interest(balance: i128, rate: Rate) -> i128 {
    // rate is in thousandths of a percent: / 1000 / 100 / 12 = / 1_200_000
    div_round_tens(balance.saturating_mul(i128::from(rate)), 1_200_000)
}

/// Simulate paying `debts` (account order) with `budget` a month, the rest after the minimums
/// going to the debts in `order` (indices into `debts`), for at most `max_months` months.
pub fn simulate(debts: &[Terms], order: &[usize], budget: i128, max_months: u32) -> Simulation {
    let mut runs: Vec<DebtRun> = debts
        .iter()
        .map(|d| DebtRun {
            balance: d.owed.clamp(0, BALANCE_CAP),
            ..DebtRun::default()
        })
        .collect();
    let total = |runs: &[DebtRun]| {
        runs.iter()
            .fold(0i128, |sum, r| sum.saturating_add(r.balance))
    };
    let mut month = 0u32;
    let mut never = false;
    while runs.iter().any(|r| r.balance > 0) && month < max_months && !never {
        month += 1;
        let before = total(&runs);
        for (run, terms) in runs.iter_mut().zip(debts) {
            let interest = monthly_interest(run.balance, terms.rate.max(0));
            let balance = run.balance.saturating_add(interest).clamp(0, BALANCE_CAP);
            run.interest = run.interest.saturating_add(balance - run.balance);
            run.balance = balance;
        }
        let mut left = budget.max(0);
        for (run, terms) in runs.iter_mut().zip(debts) {
            pay(run, &mut left, terms.minimum.max(0));
        }
        for &i in order {
            if let Some(run) = runs.get_mut(i) {
                pay(run, &mut left, budget);
            }
        }
        for run in runs.iter_mut() {
            if run.balance == 0 && run.payoff.is_none() {
                run.payoff = Some(month);
            }
        }
        never = month == 1 && total(&runs) >= before;
    }
    Simulation {
        months: month,
        never,
        debts: runs,
    }
}

/// Pay `min(balance, left, most)` into `run`.
fn pay(run: &mut DebtRun, left: &mut i128, most: i128) {
    let payment = run.balance.min(*left).min(most).max(0);
    run.balance -= payment;
    run.paid = run.paid.saturating_add(payment);
    *left -= payment;
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Two debts at nearly the same rate: avalanche pays the 39.557 % one first and still pays one
    /// cent more than snowball, because each month's interest is rounded to the cent.
    #[test]
    fn rounding_can_tilt_a_near_tie_by_a_cent() {
        let terms = [
            Terms {
                owed: 18_726,
                rate: 39_192,
                minimum: 9_580,
            },
            Terms {
                owed: 1_970_429,
                rate: 39_557,
                minimum: 55_870,
            },
        ];
        let avalanche = simulate(&terms, &[1, 0], 175_925, 600);
        let snowball = simulate(&terms, &[0, 1], 175_925, 600);
        assert!(avalanche.ended() && snowball.ended());
        assert_eq!(avalanche.total_interest() - snowball.total_interest(), 10);
    }

    fn terms_strategy() -> impl Strategy<Value = (Vec<Terms>, i128)> {
        prop::collection::vec((1i128..5_000_000, 0i64..40_000, 0i128..100_000), 1..5).prop_flat_map(
            |debts| {
                let terms: Vec<Terms> = debts
                    .into_iter()
                    .map(|(owed, rate, minimum)| Terms {
                        owed,
                        rate,
                        minimum,
                    })
                    .collect();
                let minimums: i128 = terms.iter().map(|t| t.minimum).sum();
                (Just(terms), minimums..minimums + 2_000_000)
            },
        )
    }

    /// Avalanche's order (rate ↓, owed ↑) or snowball's (owed ↑, rate ↓), ties in account order.
    fn order_of(terms: &[Terms], avalanche: bool) -> Vec<usize> {
        let mut order: Vec<usize> = (0..terms.len()).collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (&terms[a], &terms[b]);
            let by_rate = y.rate.cmp(&x.rate);
            let by_owed = x.owed.cmp(&y.owed);
            if avalanche {
                by_rate.then(by_owed)
            } else {
                by_owed.then(by_rate)
            }
            .then(a.cmp(&b))
        });
        order
    }

    proptest! {
        #[test]
        fn balances_stay_at_or_above_zero_and_the_books_balance((terms, budget) in terms_strategy()) {
            for avalanche in [true, false] {
                let run = simulate(&terms, &order_of(&terms, avalanche), budget, 600);
                prop_assert!(run.months <= 600);
                prop_assert!(run.total_paid() <= budget * i128::from(run.months));
                for (d, t) in run.debts.iter().zip(&terms) {
                    prop_assert!(d.balance >= 0);
                    prop_assert!(d.interest >= 0);
                    // what was paid covers the interest and what was owed, less what is still owed
                    prop_assert_eq!(d.paid - d.interest, t.owed - d.balance);
                    prop_assert_eq!(d.payoff.is_some(), d.balance == 0);
                    prop_assert!(d.payoff.is_none_or(|m| m <= run.months));
                }
                if run.ended() {
                    prop_assert_eq!(run.months_to_debt_free(), Some(run.months));
                }
            }
        }

        #[test]
        fn avalanche_never_pays_more_interest_than_snowball((terms, budget) in terms_strategy()) {
            let avalanche = simulate(&terms, &order_of(&terms, true), budget, 600);
            let snowball = simulate(&terms, &order_of(&terms, false), budget, 600);
            prop_assert_eq!(avalanche.never, snowball.never, "month 1 pays the same in both");
            if avalanche.ended() && snowball.ended() && !avalanche.never {
                // Rounding each month's interest to the cent can tilt a near tie by a cent or so (see
                // `rounding_can_tilt_a_near_tie_by_a_cent`): at most a cent a month per debt.
                let months = i128::from(avalanche.months.max(snowball.months));
                let slack = 10 * months * terms.len() as i128;
                prop_assert!(
                    avalanche.total_interest() <= snowball.total_interest() + slack,
                    "avalanche {} > snowball {}", avalanche.total_interest(), snowball.total_interest()
                );
            }
        }
    }
}
