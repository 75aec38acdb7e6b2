//! The hosted server's confirmation pages: kept in the database every instance shares (a page
//! opened by one instance is answered through any, and the write's next call may reach another),
//! shown at `{public URL}/confirm/{token}`. Who may see and answer them is the hosted server's
//! part (its routes check the person's browser session); this side opens pages, reads their
//! answers and closes them, for one person.

use super::{PAGE_LIFETIME, PageError, PageState};
use crate::store::shared::{PageRow, SharedStore};
use std::sync::Arc;

/// One person's pages on a hosted server.
#[derive(Debug, Clone)]
pub struct HostedPages {
    shared: Arc<dyn SharedStore>,
    /// The server's public URL, no trailing slash.
    base: String,
}

/// How often a write waiting in its call looks for the person's answer.
const POLL: std::time::Duration = std::time::Duration::from_millis(500);

impl HostedPages {
    pub fn new(shared: Arc<dyn SharedStore>, base: &str) -> Self {
        HostedPages {
            shared,
            base: base.trim_end_matches('/').to_string(),
        }
    }

    /// Where the person's open pages are listed.
    pub fn list_url(&self) -> String {
        format!("{}/confirm", self.base)
    }

    fn url(&self, token: &str) -> String {
        format!("{}/confirm/{token}", self.base)
    }

    pub(super) async fn open(
        &self,
        question: &str,
        key: &str,
        fp: &str,
    ) -> Result<String, PageError> {
        let row = PageRow {
            token: crate::random::base64url::<32>(),
            key: key.to_string(),
            question: question.to_string(),
            form: crate::random::base64url::<32>(),
            fingerprint: fp.to_string(),
            answer: None,
            opened_at: chrono::Utc::now().timestamp(),
        };
        let url = self.url(&row.token);
        let shared = Arc::clone(&self.shared);
        let lifetime = PAGE_LIFETIME.as_secs().cast_signed();
        tokio::task::spawn_blocking(move || shared.open_page(&row, lifetime)).await??;
        Ok(url)
    }

    pub(super) async fn state(&self, key: &str) -> Result<Option<PageState>, PageError> {
        let (shared, key) = (Arc::clone(&self.shared), key.to_string());
        let row = tokio::task::spawn_blocking(move || shared.page(&key)).await??;
        let now = chrono::Utc::now().timestamp();
        let lifetime = PAGE_LIFETIME.as_secs().cast_signed();
        Ok(row
            .filter(|row| now - row.opened_at <= lifetime)
            .map(|row| PageState {
                url: self.url(&row.token),
                answer: row.answer,
                fingerprint: row.fingerprint,
            }))
    }

    pub(super) async fn wait(&self, key: &str, timeout: std::time::Duration) -> Option<bool> {
        let waiting = async {
            loop {
                match self.state(key).await {
                    Ok(Some(PageState {
                        answer: Some(yes), ..
                    })) => return Some(yes),
                    Ok(Some(_)) => tokio::time::sleep(POLL).await,
                    Ok(None) => return None,
                    Err(error) => {
                        tracing::warn!("{error}");
                        return None;
                    }
                }
            }
        };
        tokio::time::timeout(timeout, waiting).await.ok().flatten()
    }

    pub(super) async fn close(&self, key: &str) {
        let (shared, key) = (Arc::clone(&self.shared), key.to_string());
        match tokio::task::spawn_blocking(move || shared.close_page(&key)).await {
            Ok(Ok(())) => {}
            Ok(Err(error)) => tracing::warn!("a confirmation page was not closed: {error}"),
            Err(error) => tracing::warn!("a confirmation page was not closed: {error}"),
        }
    }
}
