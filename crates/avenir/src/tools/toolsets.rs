//! Toolsets: every tool belongs to one, and a process lists the tools of the toolsets it was
//! given (`AVENIR_MCP_TOOLSETS`, or `--toolsets`), so that an agent does not pay for the
//! definitions of tools a person does not use. The write gate still applies inside each.
//!
//! The default is what people ask a budgeting agent most: reading the plan, categorising and
//! fixing transactions, budgeting, and undo. Reorganising the plan (new categories and accounts,
//! merging payees), bank statement files, schedules and the longer analyses are one word away
//! (`default,statements`, or `all`).

/// A named group of tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Toolset {
    /// Plans, accounts, categories and payees: what there is, and their names.
    Plans,
    /// Creating, renaming and merging categories, payees and accounts.
    Setup,
    /// The month's budget: what is assigned, spent and available, and moving money.
    Budget,
    /// Finding, categorising, approving and fixing transactions.
    Transactions,
    /// The bank's own statement file: compared with an account, its missing lines imported.
    Statements,
    /// Scheduled transactions and recurring charges.
    Schedules,
    /// Trends, forecasts, debt payoff, net worth, runway, savings rate, age of money.
    Analysis,
    /// Undoing a change made through this server.
    Undo,
}

impl Toolset {
    /// Every toolset, in the order they are listed.
    pub const ALL: [Toolset; 8] = [
        Toolset::Plans,
        Toolset::Setup,
        Toolset::Budget,
        Toolset::Transactions,
        Toolset::Statements,
        Toolset::Schedules,
        Toolset::Analysis,
        Toolset::Undo,
    ];

    /// The toolsets a process lists when nothing says otherwise.
    pub const DEFAULT: [Toolset; 4] = [
        Toolset::Plans,
        Toolset::Budget,
        Toolset::Transactions,
        Toolset::Undo,
    ];

    /// The name a person writes in `AVENIR_MCP_TOOLSETS`.
    pub fn name(self) -> &'static str {
        match self {
            Toolset::Plans => "plans",
            Toolset::Setup => "setup",
            Toolset::Budget => "budget",
            Toolset::Transactions => "transactions",
            Toolset::Statements => "statements",
            Toolset::Schedules => "schedules",
            Toolset::Analysis => "analysis",
            Toolset::Undo => "undo",
        }
    }

    /// What it holds, in one line.
    pub fn summary(self) -> &'static str {
        match self {
            Toolset::Plans => "plans, accounts, categories and payees: what there is",
            Toolset::Setup => "creating, renaming and merging categories, payees and accounts",
            Toolset::Budget => "the month's budget: assigned, spent, available; moving money",
            Toolset::Transactions => "finding, categorising, approving and fixing transactions",
            Toolset::Statements => {
                "a bank statement file compared with an account, its missing lines imported"
            }
            Toolset::Schedules => "scheduled transactions and recurring charges",
            Toolset::Analysis => {
                "trends, forecasts, debt payoff, net worth, runway, savings rate, age of money"
            }
            Toolset::Undo => "undoing a change made through this server",
        }
    }

    fn named(name: &str) -> Option<Toolset> {
        Toolset::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The toolsets a process lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Toolsets([bool; Toolset::ALL.len()]);

/// `AVENIR_MCP_TOOLSETS` (or `--toolsets`) names no toolset this server has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "AVENIR_MCP_TOOLSETS: {given:?} is not a toolset. Give toolset names separated by commas, from: {known}; or `default` (plans, budget, transactions, undo), or `all`."
)]
pub struct UnknownToolset {
    given: String,
    known: String,
}

impl Default for Toolsets {
    fn default() -> Self {
        Toolsets::of(&Toolset::DEFAULT)
    }
}

impl Toolsets {
    /// Every toolset.
    pub fn all() -> Self {
        Toolsets::of(&Toolset::ALL)
    }

    /// Exactly these.
    pub fn of(sets: &[Toolset]) -> Self {
        let mut chosen = [false; Toolset::ALL.len()];
        for set in sets {
            chosen[*set as usize] = true;
        }
        Toolsets(chosen)
    }

    /// From a list such as `default,schedules` or `all`; empty means the default.
    pub fn parse(list: &str) -> Result<Self, UnknownToolset> {
        let mut chosen = Vec::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let name = name.to_ascii_lowercase();
            match name.as_str() {
                "all" => chosen.extend(Toolset::ALL),
                "default" => chosen.extend(Toolset::DEFAULT),
                other => chosen.push(Toolset::named(other).ok_or_else(|| UnknownToolset {
                    given: other.to_string(),
                    known: Toolset::ALL.map(Toolset::name).join(", "),
                })?),
            }
        }
        Ok(match chosen.is_empty() {
            true => Toolsets::default(),
            false => Toolsets::of(&chosen),
        })
    }

    /// These and `set`.
    pub fn with(self, set: Toolset) -> Self {
        let mut chosen = self.0;
        chosen[set as usize] = true;
        Toolsets(chosen)
    }

    pub fn contains(self, set: Toolset) -> bool {
        self.0[set as usize]
    }

    /// The chosen toolsets, in order.
    pub fn listed(self) -> impl Iterator<Item = Toolset> {
        Toolset::ALL.into_iter().filter(move |t| self.contains(*t))
    }

    /// `plans,budget,…`, as `AVENIR_MCP_TOOLSETS` would say it.
    pub fn names(self) -> String {
        self.listed()
            .map(Toolset::name)
            .collect::<Vec<_>>()
            .join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_read_as_a_person_writes_them() {
        assert_eq!(Toolsets::parse("").ok(), Some(Toolsets::default()));
        assert_eq!(Toolsets::parse(" ALL ").ok(), Some(Toolsets::all()));
        let widened = Toolsets::parse("default, schedules").expect("a list");
        assert_eq!(widened.names(), "plans,budget,transactions,schedules,undo");
        assert_eq!(
            Toolsets::parse("analysis")
                .map(Toolsets::names)
                .ok()
                .as_deref(),
            Some("analysis")
        );
        let error = Toolsets::parse("budget,reports").expect_err("no such toolset");
        let said = error.to_string();
        assert!(said.contains("\"reports\" is not a toolset"), "{said}");
        assert!(
            said.contains(
                "plans, setup, budget, transactions, statements, schedules, analysis, undo"
            )
        );
    }
}
