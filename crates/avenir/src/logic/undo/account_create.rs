//! An interrupted `account_create` (D14): whether the account landed, recognised among the
//! plan's open accounts by its name's salted digest (the intent keeps no name, D31).

use super::Landing;
use crate::logic::created::name_digest;
use ynab::models::PlanDetail;

/// Applied, with the account's id, when an open account's name has the intent's digest; not
/// applied otherwise (YNAB's API deletes no account, so a created one is still there).
pub fn landing(digest: &str, salt: Option<&str>, plan: &PlanDetail) -> (Landing, Option<String>) {
    let found = plan
        .accounts
        .iter()
        .find(|a| !a.deleted && name_digest(salt, &a.name) == digest);
    match found {
        Some(a) => (Landing::Applied, Some(a.id.clone())),
        None => (Landing::NotApplied, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;

    #[test]
    fn found_by_its_name_s_digest() {
        let mut f = Fixture::new();
        f.account("a-visa", "Visa", true);
        let digest = name_digest(Some("salt"), "Visa");
        assert_eq!(
            landing(&digest, Some("salt"), &f.plan),
            (Landing::Applied, Some("a-visa".into()))
        );
        let other = name_digest(Some("salt"), "Amex");
        assert_eq!(
            landing(&other, Some("salt"), &f.plan),
            (Landing::NotApplied, None)
        );
    }
}
