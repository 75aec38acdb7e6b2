//! The per-person limit on `/mcp` requests (governor's GCRA, keyed by person id): a signed-in
//! person cannot keep one instance busy alone. YNAB's own hourly budget (the pacing ledger) is
//! apart and still applies to what reaches YNAB.

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::num::NonZeroU32;
use std::time::Duration;

/// Requests per minute and person; `None` when the limit is off.
#[derive(Debug)]
pub struct PersonLimit {
    limiter: Option<DefaultKeyedRateLimiter<String>>,
    clock: DefaultClock,
}

impl PersonLimit {
    /// `per_minute` requests a minute, in bursts of up to a sixth of it (at least 10); 0: off.
    pub fn new(per_minute: u32) -> PersonLimit {
        let limiter = NonZeroU32::new(per_minute).map(|rate| {
            let burst = NonZeroU32::new((per_minute / 6).max(10)).unwrap_or(rate);
            RateLimiter::keyed(Quota::per_minute(rate).allow_burst(burst))
        });
        PersonLimit {
            limiter,
            clock: DefaultClock::default(),
        }
    }

    /// `Err(wait)` when `person` is over the limit: how long until the next request is allowed.
    pub fn check(&self, person: &str) -> Result<(), Duration> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        limiter
            .check_key(&person.to_string())
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }

    /// Forget the people whose allowance is full again (memory stays bounded by the active).
    pub fn forget_rested(&self) {
        if let Some(limiter) = &self.limiter {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_person_beyond_the_burst_waits_and_others_do_not() {
        let limit = PersonLimit::new(60);
        for _ in 0..10 {
            assert!(limit.check("alice").is_ok());
        }
        let wait = limit.check("alice").expect_err("over the burst");
        assert!(wait <= Duration::from_secs(1), "{wait:?}");
        assert!(limit.check("bob").is_ok());
        assert!(PersonLimit::new(0).check("alice").is_ok());
    }
}
