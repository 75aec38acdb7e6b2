//! Progress of the work a task is waiting on, for whoever asked to hear it: the bytes of a
//! YNAB answer received so far, then what is done with them. Reports go to the listener set
//! for the current task by [`reporting`]; without one they cost a check of a task-local.

use std::sync::Arc;

/// One step of a long wait.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// Bytes of an answer's body received so far, and its size when YNAB said it.
    Received { bytes: u64, total: Option<u64> },
    /// The answer is read; the plan it carries is being built (its transactions).
    Building { transactions: usize },
}

/// What hears the reports: called on the task that does the work, so it must not block.
pub type Listener = Arc<dyn Fn(Progress) + Send + Sync>;

tokio::task_local! {
    static LISTENER: Listener;
}

/// Run `future` with `listener` hearing the progress of the work done in it.
pub async fn reporting<F: std::future::Future>(listener: Listener, future: F) -> F::Output {
    LISTENER.scope(listener, future).await
}

/// Report `progress` to the current task's listener, if it has one.
pub fn report(progress: Progress) {
    let _ = LISTENER.try_with(|listener| listener(progress));
}

/// Whether the current task has a listener (so that callers can skip preparing a report).
pub fn is_heard() -> bool {
    LISTENER.try_with(|_| ()).is_ok()
}
