//! One transaction moved from one category to another, as a question shows it: what
//! `apply_categories` proposes and what undoing a `categorize` operation puts back.

use crate::money::MoneyFormat;
use ynab::models::Milliunits;

/// One change of a transaction's category.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recategorised {
    pub transaction_id: String,
    pub date: String,
    pub amount: Milliunits,
    /// Safe text.
    pub payee: String,
    /// The category it has now.
    pub from_category_id: Option<String>,
    pub from_category: Option<String>,
    /// The category it gets.
    pub to_category_id: Option<String>,
    pub to_category: Option<String>,
}

impl Recategorised {
    /// `- {date} {payee} {amount}: {from or "no category"} → {to or "no category"}`.
    pub fn line(&self, fmt: &MoneyFormat) -> String {
        format!(
            "- {} {} {}: {} → {}",
            self.date,
            self.payee,
            fmt.plain(self.amount),
            self.from_category.as_deref().unwrap_or("no category"),
            self.to_category.as_deref().unwrap_or("no category")
        )
    }
}
