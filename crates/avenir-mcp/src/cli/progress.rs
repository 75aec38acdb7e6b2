//! A line on stderr that moves while a call waits on a long load: the server's own progress
//! notifications (the bytes of a plan received, its building, a beat each second of a longer
//! wait), which it sends because the call asks with a progress token. Shown only when stderr is a
//! terminal and `--quiet` was not given; cleared before a question and before the answer. A
//! fast call (a small plan) hears nothing and shows nothing.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Mutex;
use std::time::Duration;

/// The line, drawn from the first notification on.
#[derive(Debug)]
pub struct Progress {
    enabled: bool,
    bar: Mutex<Option<ProgressBar>>,
}

impl Progress {
    /// `enabled`: stderr is a terminal and the person did not ask for quiet.
    pub fn new(enabled: bool) -> Progress {
        Progress {
            enabled,
            bar: Mutex::new(None),
        }
    }

    /// A notification: the server's `message` ("Reading the plan from YNAB: 2.1 MB of 7.4 MB",
    /// "Building the plan: 90,000 transactions", "Still working (3 s)") shown on the line.
    pub fn heard(&self, message: &str) {
        if !self.enabled {
            return;
        }
        let mut bar = self.bar.lock().unwrap_or_else(|p| p.into_inner());
        let shown = bar.get_or_insert_with(|| {
            let line = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            line.set_style(
                ProgressStyle::with_template("{spinner} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            line.enable_steady_tick(Duration::from_millis(120));
            line
        });
        shown.set_message(super::render::clean(message));
    }

    /// The line removed, before anything else is written to the terminal.
    pub fn clear(&self) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|p| p.into_inner()).take() {
            bar.finish_and_clear();
        }
    }
}
