//! Progress notifications for a call whose request carried a progress token: the bytes of a plan
//! received, then its building, and a beat every second of a longer wait. What to say and when is
//! decided by [`Pacing`] (pure, tested here); [`Reporter`] sends it.

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use ynab::progress::Progress;

/// The least share of an answer's size between two reports of bytes received.
const STEP_SHARE: u64 = 20;
/// The least number of bytes between two reports when the size is not known.
const STEP_BYTES: u64 = 256 * 1024;
/// Answers smaller than this are read without a word.
const QUIET_BELOW: u64 = 256 * 1024;
/// How long a call may go without a word before a beat says it is still working.
pub const BEAT: Duration = Duration::from_secs(1);

/// One notification to send: `progress` always above the one before it (the protocol's rule).
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub progress: f64,
    pub total: Option<f64>,
    pub message: String,
}

/// What has been said so far in one call, and what to say next.
///
/// Progress counts bytes received (across every answer of the call, each one added after the
/// last) and one more step for building the plan; the total, when YNAB gives an answer's size,
/// is that answer's end plus the building step.
#[derive(Debug, Default)]
pub struct Pacing {
    /// Progress said last (0: nothing yet).
    said: f64,
    /// When something was said last.
    at: Option<Instant>,
    /// Where the answer being received starts, in progress.
    base: u64,
    /// Bytes of that answer received at the last report heard.
    bytes: u64,
    /// Bytes of that answer at the last note sent.
    bytes_said: Option<u64>,
}

impl Pacing {
    /// The note `progress` calls for at `now`, if any (small steps are left out).
    pub fn heard(&mut self, progress: &Progress, now: Instant) -> Option<Note> {
        match *progress {
            Progress::Received { bytes, total } => {
                if bytes < self.bytes {
                    // A new answer: it counts on from where the last one ended.
                    self.base = self.said as u64;
                    self.bytes_said = None;
                }
                self.bytes = bytes;
                if self.bytes_said.is_none() && total.unwrap_or(bytes) < QUIET_BELOW {
                    // A small answer (a delta, a short list) comes too fast to be worth a word.
                    return None;
                }
                let step = total.map_or(STEP_BYTES, |t| (t / STEP_SHARE).max(1));
                let due = match self.bytes_said {
                    None => true,
                    Some(said) => {
                        bytes.saturating_sub(said) >= step || total.is_some_and(|t| bytes >= t)
                    }
                };
                if !due {
                    return None;
                }
                self.bytes_said = Some(bytes);
                let message = match total {
                    Some(t) => format!(
                        "Reading the plan from YNAB: {} of {}",
                        megabytes(bytes),
                        megabytes(t)
                    ),
                    None => format!("Reading the plan from YNAB: {}", megabytes(bytes)),
                };
                let total = total.map(|t| (self.base + t + 1) as f64);
                self.say((self.base + bytes) as f64, total, message, now)
            }
            Progress::Building { transactions } => {
                self.bytes_said?;
                let total = (self.said + 1.0).max((self.base + self.bytes + 1) as f64);
                let message = format!(
                    "Building the plan: {} transactions",
                    thousands(transactions)
                );
                self.say(total, Some(total), message, now)
            }
        }
    }

    /// The beat due at `now`, `started` being when the call began: one when a second has passed
    /// since the last note (or since the start, before any).
    pub fn beat(&mut self, started: Instant, now: Instant) -> Option<Note> {
        let since = self.at.unwrap_or(started);
        if now.duration_since(since) < BEAT {
            return None;
        }
        let seconds = now.duration_since(started).as_secs();
        self.say(
            self.said + 1.0,
            None,
            format!("Still working ({seconds} s)"),
            now,
        )
    }

    fn say(
        &mut self,
        progress: f64,
        total: Option<f64>,
        message: String,
        now: Instant,
    ) -> Option<Note> {
        let progress = if progress > self.said {
            progress
        } else {
            self.said + 1.0
        };
        self.said = progress;
        self.at = Some(now);
        Some(Note {
            progress,
            total: total.filter(|t| *t >= progress),
            message,
        })
    }
}

/// `n` with a comma every three digits ("9,000").
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// `bytes` as megabytes with one decimal ("7.4 MB"), or kilobytes below one megabyte.
fn megabytes(bytes: u64) -> String {
    if bytes < 1_000_000 {
        format!("{} kB", bytes.div_ceil(1000).min(999))
    } else {
        format!("{}.{} MB", bytes / 1_000_000, (bytes % 1_000_000) / 100_000)
    }
}

/// Sends one call's notes to the client that asked, in order, without holding up the work.
pub struct Reporter {
    pacing: Mutex<Pacing>,
    started: Instant,
    /// Open until [`Reporter::finish`].
    notes: Mutex<Option<tokio::sync::mpsc::UnboundedSender<Note>>>,
    sending: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl Reporter {
    /// A reporter for the request with `token`; its notes go to `peer` from a task of their own.
    pub fn start(peer: Peer<RoleServer>, token: ProgressToken) -> Arc<Self> {
        let (notes, mut queue) = tokio::sync::mpsc::unbounded_channel::<Note>();
        let sending = tokio::spawn(async move {
            while let Some(note) = queue.recv().await {
                let mut param = ProgressNotificationParam::new(token.clone(), note.progress);
                param.total = note.total;
                param.message = Some(note.message);
                if peer.notify_progress(param).await.is_err() {
                    break;
                }
            }
        });
        Arc::new(Self {
            pacing: Mutex::new(Pacing::default()),
            started: Instant::now(),
            notes: Mutex::new(Some(notes)),
            sending: Mutex::new(Some(sending)),
        })
    }

    fn send(&self, note: Note) {
        if let Some(notes) = self
            .notes
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
        {
            let _ = notes.send(note);
        }
    }

    /// Send what is still queued, then stop: the notes of a call reach the client before its
    /// answer does.
    pub async fn finish(&self) {
        self.notes.lock().unwrap_or_else(|p| p.into_inner()).take();
        let sending = self
            .sending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(sending) = sending {
            let _ = sending.await;
        }
    }

    /// The listener the YNAB client and the plan store report to.
    pub fn listener(self: &Arc<Self>) -> ynab::progress::Listener {
        let reporter = self.clone();
        Arc::new(move |progress| {
            let note = reporter
                .pacing
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .heard(&progress, Instant::now());
            if let Some(note) = note {
                reporter.send(note);
            }
        })
    }

    /// Run `work`, with a beat each second it goes on without another note.
    pub async fn beating<F: std::future::Future>(self: &Arc<Self>, work: F) -> F::Output {
        let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + BEAT, BEAT / 4);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        tokio::pin!(work);
        loop {
            tokio::select! {
                output = &mut work => return output,
                _ = ticks.tick() => {
                    let note = self
                        .pacing
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .beat(self.started, Instant::now());
                    if let Some(note) = note {
                        self.send(note);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn received(bytes: u64, total: Option<u64>) -> Progress {
        Progress::Received { bytes, total }
    }

    #[test]
    fn bytes_are_reported_in_twentieths_of_the_answer_then_the_building() {
        let now = Instant::now();
        let mut pacing = Pacing::default();
        let total = Some(1_000_000);
        let mut notes = Vec::new();
        for bytes in (0..=1_000_000).step_by(10_000).skip(1) {
            notes.extend(pacing.heard(&received(bytes, total), now));
        }
        // The first chunk, then every 50,000 bytes after it, and the answer's end.
        assert_eq!(notes.len(), 21);
        assert_eq!(notes[1].progress, 60_000.0);
        assert_eq!(notes[0].progress, 10_000.0);
        assert_eq!(notes[0].total, Some(1_000_001.0));
        assert_eq!(
            notes[0].message,
            "Reading the plan from YNAB: 10 kB of 1.0 MB"
        );
        assert_eq!(notes[19].progress, 960_000.0);
        assert_eq!(notes[20].progress, 1_000_000.0);
        let building = pacing
            .heard(&Progress::Building { transactions: 9000 }, now)
            .expect("building is always said");
        assert_eq!(building.progress, 1_000_001.0);
        assert_eq!(building.total, Some(1_000_001.0));
        assert_eq!(building.message, "Building the plan: 9,000 transactions");
        assert!(
            notes
                .windows(2)
                .all(|pair| pair[1].progress > pair[0].progress)
        );
    }

    #[test]
    fn progress_only_rises_across_answers_and_beats() {
        let start = Instant::now();
        let mut pacing = Pacing::default();
        let mut said = Vec::new();
        said.extend(pacing.heard(&received(300_000, None), start));
        said.extend(pacing.heard(&received(600_000, None), start));
        // A second answer starts from zero bytes: it counts on from the first. Until it is big
        // enough to be worth a word, it goes unsaid, and so does the building of a small one.
        said.extend(pacing.heard(&received(2_000, None), start));
        assert!(
            pacing
                .heard(&Progress::Building { transactions: 3 }, start)
                .is_none()
        );
        said.extend(pacing.heard(&received(400_000, None), start));
        said.extend(pacing.heard(&Progress::Building { transactions: 3 }, start));
        said.extend(pacing.beat(start, start + Duration::from_millis(1500)));
        said.extend(pacing.beat(start, start + Duration::from_millis(1700)));
        said.extend(pacing.beat(start, start + Duration::from_millis(2600)));
        let progress: Vec<f64> = said.iter().map(|n| n.progress).collect();
        assert_eq!(
            progress,
            vec![
                300_000.0,
                600_000.0,
                1_000_000.0,
                1_000_001.0,
                1_000_002.0,
                1_000_003.0
            ]
        );
        assert_eq!(said[2].message, "Reading the plan from YNAB: 400 kB");
        assert_eq!(said[3].message, "Building the plan: 3 transactions");
        assert_eq!(said[4].message, "Still working (1 s)");
        assert_eq!(said[5].message, "Still working (2 s)");
        assert!(said[4].total.is_none());
        // An answer of known small size is read without a word.
        let mut quiet = Pacing::default();
        assert!(quiet.heard(&received(100, Some(200_000)), start).is_none());
    }

    #[test]
    fn no_beat_in_the_first_second_nor_within_a_second_of_a_note() {
        let start = Instant::now();
        let mut pacing = Pacing::default();
        assert!(
            pacing
                .beat(start, start + Duration::from_millis(900))
                .is_none()
        );
        pacing.heard(
            &received(10, Some(1_000_000)),
            start + Duration::from_millis(950),
        );
        assert!(
            pacing
                .beat(start, start + Duration::from_millis(1500))
                .is_none()
        );
        assert!(
            pacing
                .beat(start, start + Duration::from_millis(1960))
                .is_some()
        );
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(megabytes(1), "1 kB");
        assert_eq!(megabytes(999_999), "999 kB");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(megabytes(7_377_000), "7.3 MB");
    }
}
