//! Confirmation pages as the hosted server's page routes read them: by token, for the person
//! whose browser session asks, across people (the write side, one person's, is in `shared`).

use super::error::SqlError;
use super::handle::Db;
use super::sql::{self, Value};
use avenir::store::shared::PageRow;

pub(super) const COLUMNS: &str = "token, page_key, question, form, fingerprint, answer, opened_at";

/// A row of `COLUMNS`.
pub(super) fn page_from(row: &[Value]) -> Result<PageRow, SqlError> {
    Ok(PageRow {
        token: sql::text(row, 0)?,
        key: sql::text(row, 1)?,
        question: sql::text(row, 2)?,
        form: sql::text(row, 3)?,
        fingerprint: sql::text(row, 4)?,
        answer: sql::opt_boolean(row, 5)?,
        opened_at: sql::int(row, 6)?,
    })
}

impl Db {
    /// The page at `token`, if it is `person_id`'s.
    pub async fn page_of(&self, person_id: &str, token: &str) -> Result<Option<PageRow>, SqlError> {
        let rows = self
            .sql()
            .query(
                &format!(
                    "SELECT {COLUMNS} FROM confirmation_pages WHERE token = $1 AND person_id = $2"
                ),
                vec![token.into(), person_id.into()],
            )
            .await?;
        rows.first().map(|row| page_from(row)).transpose()
    }

    /// Record `person_id`'s answer on the page at `token`: true when this was its first answer
    /// (a page is answered once).
    pub async fn answer_page(
        &self,
        person_id: &str,
        token: &str,
        yes: bool,
    ) -> Result<bool, SqlError> {
        let changed = self
            .sql()
            .execute_all(vec![(
                "UPDATE confirmation_pages SET answer = $1 \
                 WHERE token = $2 AND person_id = $3 AND answer IS NULL",
                vec![yes.into(), token.into(), person_id.into()],
            )])
            .await?;
        Ok(changed.first().is_some_and(|n| *n == 1))
    }

    /// `person_id`'s unanswered pages opened at or after `since` (UTC seconds), newest first.
    pub async fn open_pages(&self, person_id: &str, since: i64) -> Result<Vec<PageRow>, SqlError> {
        let rows = self
            .sql()
            .query(
                &format!(
                    "SELECT {COLUMNS} FROM confirmation_pages WHERE person_id = $1 \
                     AND answer IS NULL AND opened_at >= $2 ORDER BY opened_at DESC"
                ),
                vec![person_id.into(), since.into()],
            )
            .await?;
        rows.iter().map(|row| page_from(row)).collect()
    }
}
