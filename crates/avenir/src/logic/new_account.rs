//! A new unlinked account (`create_account`, `docs/writes/create_account.md`): the account types
//! YNAB's API creates, whether each is on budget, what its balance's sign means, and the checks
//! of a name against the plan's open accounts.

use crate::logic::budget_plan::fits_decimals;
use crate::text::fold;
use ynab::models::{Account, Milliunits};

/// YNAB's `SaveAccountType`s (the only ones `POST /accounts` takes), on budget or tracking.
pub const TYPES: [(&str, bool); 6] = [
    ("checking", true),
    ("savings", true),
    ("cash", true),
    ("creditCard", true),
    ("otherAsset", false),
    ("otherLiability", false),
];

/// YNAB's account types its API cannot create (loans, mortgages, lines of credit).
pub const APP_ONLY_TYPES: [&str; 7] = [
    "lineOfCredit",
    "mortgage",
    "autoLoan",
    "studentLoan",
    "personalLoan",
    "medicalDebt",
    "otherDebt",
];

/// The most characters of a name (YNAB's app cuts account names well before this).
pub const MAX_NAME: usize = 200;

/// The account to create.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAccount {
    /// As given, trimmed.
    pub name: String,
    pub kind: &'static str,
    pub on_budget: bool,
    pub balance: Milliunits,
}

/// Why an account is refused: the tool words each (the messages are in the spec).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    EmptyName,
    LongName(usize),
    /// A type YNAB knows but its API does not create.
    AppOnly(String),
    UnknownType(String),
    TooPrecise(u32),
    /// An open account of that name (case-insensitive): its id and name.
    Duplicate {
        id: String,
        name: String,
    },
}

/// Whether an account of type `kind` owes money when its balance is negative: what the question
/// says of the sign.
pub fn sign_meaning(kind: &str) -> &'static str {
    match kind {
        "creditCard" => "a card's balance owed is negative: -500.00 means 500.00 owed",
        "otherLiability" => "a debt is negative: -500.00 means 500.00 owed",
        "otherAsset" => "an asset's value is positive",
        _ => "money in the account is positive, an overdraft negative",
    }
}

/// Check the account against the plan's `accounts` (closed and deleted ones may share the name).
pub fn check(
    name: &str,
    kind: &str,
    balance: Milliunits,
    digits: u32,
    accounts: &[Account],
) -> Result<NewAccount, Refusal> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Refusal::EmptyName);
    }
    let length = name.chars().count();
    if length > MAX_NAME {
        return Err(Refusal::LongName(length));
    }
    let Some((kind, on_budget)) = TYPES.iter().find(|(t, _)| *t == kind).copied() else {
        if APP_ONLY_TYPES.contains(&kind) {
            return Err(Refusal::AppOnly(kind.to_string()));
        }
        return Err(Refusal::UnknownType(kind.to_string()));
    };
    if !fits_decimals(balance, digits) {
        return Err(Refusal::TooPrecise(digits));
    }
    let folded = fold(name);
    if let Some(same) = accounts
        .iter()
        .find(|a| !a.deleted && !a.closed && fold(a.name.trim()) == folded)
    {
        return Err(Refusal::Duplicate {
            id: same.id.clone(),
            name: same.name.clone(),
        });
    }
    Ok(NewAccount {
        name: name.to_string(),
        kind,
        on_budget,
        balance,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;

    fn accounts() -> Vec<Account> {
        let mut f = Fixture::new();
        f.account("a-check", "Checking", true);
        f.account("a-old", "Old Card", true).closed = true;
        f.plan.accounts
    }

    #[test]
    fn a_new_account_on_budget_or_tracking() {
        let a = accounts();
        assert_eq!(
            check("  Visa  ", "creditCard", -120_000, 2, &a),
            Ok(NewAccount {
                name: "Visa".into(),
                kind: "creditCard",
                on_budget: true,
                balance: -120_000
            })
        );
        assert!(
            !check("House", "otherAsset", 0, 2, &a)
                .expect("ok")
                .on_budget
        );
        // A closed account's name is free again.
        assert!(check("old card", "creditCard", 0, 2, &a).is_ok());
    }

    #[test]
    fn every_refusal() {
        let a = accounts();
        assert_eq!(check(" ", "cash", 0, 2, &a), Err(Refusal::EmptyName));
        let long = "x".repeat(201);
        assert_eq!(check(&long, "cash", 0, 2, &a), Err(Refusal::LongName(201)));
        assert_eq!(
            check("Car", "autoLoan", 0, 2, &a),
            Err(Refusal::AppOnly("autoLoan".into()))
        );
        assert_eq!(
            check("Car", "loan", 0, 2, &a),
            Err(Refusal::UnknownType("loan".into()))
        );
        assert_eq!(
            check("Car", "cash", 1_005, 2, &a),
            Err(Refusal::TooPrecise(2))
        );
        assert_eq!(
            check("CHECKING", "savings", 0, 2, &a),
            Err(Refusal::Duplicate {
                id: "a-check".into(),
                name: "Checking".into()
            })
        );
    }

    #[test]
    fn the_sign_is_explained_per_type() {
        assert!(sign_meaning("creditCard").contains("owed is negative"));
        assert!(sign_meaning("otherLiability").contains("negative"));
        assert!(sign_meaning("checking").contains("positive"));
    }
}
