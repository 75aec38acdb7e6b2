//! Per-address rate limits on the routes anyone may call without signing in: registration,
//! `/authorize` (the consent page and its answer) and the token endpoint (with revocation).
//! Each class of route has its own budget per client address (governor's GCRA: a burst, then
//! one request every period); past it the answer is 429 with `Retry-After`, before any storage
//! is touched.
//!
//! The client address is the connection's peer (the server must be served with its
//! `ConnectInfo`, as `start::serve` does). Behind a reverse proxy every request comes from the
//! proxy: with [`ClientAddress::Forwarded`] (`AVENIR_MCP_BEHIND_PROXY=1`) the address is the
//! last one of the last `X-Forwarded-For` header, the one the proxy itself appended. Never set
//! it without a proxy that sets that header: a client could then claim any address. A request
//! whose address is unknown counts against one shared budget. An IPv6 address counts as its /64.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde_json::json;

use super::pages;
use super::respond::no_store_json;

/// One class's budget per address: `burst` requests at once, then one every `every`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub burst: u32,
    pub every: Duration,
}

/// The budgets of the three classes of route. A hosted server starts with the defaults
/// [`scaled`](RateLimits::scaled) by `AVENIR_MCP_OAUTH_LIMIT_SCALE` (`crate::limits::Limits`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    /// `POST /register`: 20 at once, then one a minute. A client registers once.
    pub register: Limit,
    /// `GET`/`POST /authorize`: 30 at once, then one every 2 seconds. A sign-in is one of
    /// each.
    pub authorize: Limit,
    /// `POST /token` and `/revoke`: 60 at once, then two a second (many people behind one
    /// address refresh their tokens).
    pub token: Limit,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            register: Limit {
                burst: 20,
                every: Duration::from_secs(60),
            },
            authorize: Limit {
                burst: 30,
                every: Duration::from_secs(2),
            },
            token: Limit {
                burst: 60,
                every: Duration::from_millis(500),
            },
        }
    }
}

impl Limit {
    /// `factor` times the burst, one request `factor` times as often (a factor of 0 is 1).
    fn scaled(self, factor: u32) -> Limit {
        let factor = factor.max(1);
        Limit {
            burst: self.burst.saturating_mul(factor),
            every: self.every / factor,
        }
    }
}

impl RateLimits {
    /// Every class's budget `factor` times larger: `factor` times the burst, `factor` times as
    /// often (`AVENIR_MCP_OAUTH_LIMIT_SCALE`; a factor of 0 is 1).
    pub fn scaled(self, factor: u32) -> RateLimits {
        RateLimits {
            register: self.register.scaled(factor),
            authorize: self.authorize.scaled(factor),
            token: self.token.scaled(factor),
        }
    }
}

/// Where a request's client address is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClientAddress {
    /// The connection's peer.
    #[default]
    Socket,
    /// The last address of the last `X-Forwarded-For` header (a reverse proxy's), else the peer.
    Forwarded,
}

/// A limit that allows nothing (no burst, or no period).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a rate limit needs a burst of at least 1 and a period longer than zero")]
pub struct EmptyLimit;

/// The class of a limited route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    Register,
    Authorize,
    Token,
}

/// The limiters of every class, keyed by client address.
pub(super) struct Limiters {
    register: DefaultKeyedRateLimiter<IpAddr>,
    authorize: DefaultKeyedRateLimiter<IpAddr>,
    token: DefaultKeyedRateLimiter<IpAddr>,
    source: ClientAddress,
}

fn quota(limit: Limit) -> Result<Quota, EmptyLimit> {
    let burst = NonZeroU32::new(limit.burst).ok_or(EmptyLimit)?;
    Ok(Quota::with_period(limit.every)
        .ok_or(EmptyLimit)?
        .allow_burst(burst))
}

impl Limiters {
    pub(super) fn new(limits: RateLimits, source: ClientAddress) -> Result<Self, EmptyLimit> {
        Ok(Limiters {
            register: RateLimiter::keyed(quota(limits.register)?),
            authorize: RateLimiter::keyed(quota(limits.authorize)?),
            token: RateLimiter::keyed(quota(limits.token)?),
            source,
        })
    }

    fn of(&self, class: Class) -> &DefaultKeyedRateLimiter<IpAddr> {
        match class {
            Class::Register => &self.register,
            Class::Authorize => &self.authorize,
            Class::Token => &self.token,
        }
    }

    /// `Ok` when `address` may make one more request of `class`; else how long to wait.
    fn check(&self, class: Class, address: IpAddr) -> Result<(), Duration> {
        self.of(class)
            .check_key(&address)
            .map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()))
    }

    /// Forget the addresses whose budget is full again (run by the periodic sweep).
    pub(super) fn forget_idle(&self) {
        for limiter in [&self.register, &self.authorize, &self.token] {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }

    /// The addresses tracked now, all classes together.
    pub(super) fn tracked(&self) -> usize {
        self.register.len() + self.authorize.len() + self.token.len()
    }

    fn client_address(&self, request: &Request) -> IpAddr {
        let peer = request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(address)| address.ip());
        let forwarded = match self.source {
            ClientAddress::Forwarded => forwarded_for(request.headers()),
            ClientAddress::Socket => None,
        };
        budget_key(
            forwarded
                .or(peer)
                .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED)),
        )
    }
}

/// The budget an address draws on: an IPv4 address its own (an IPv4-mapped IPv6 address as
/// that IPv4 address), an IPv6 address its /64, the block one subscriber is usually given, so
/// that rotating through it does not buy a new budget each time.
fn budget_key(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The address a reverse proxy appended: the last of the last `X-Forwarded-For` header.
fn forwarded_for(headers: &HeaderMap) -> Option<IpAddr> {
    let last = headers.get_all("x-forwarded-for").iter().next_back()?;
    let address = last.to_str().ok()?.rsplit(',').next()?.trim();
    address
        .parse::<IpAddr>()
        .ok()
        .or_else(|| address.parse::<SocketAddr>().ok().map(|s| s.ip()))
}

/// The middleware of one class: 429 with `Retry-After` past the address's budget.
pub(super) async fn limit(
    State((limiters, class)): State<(Arc<Limiters>, Class)>,
    request: Request,
    next: Next,
) -> Response {
    let address = limiters.client_address(&request);
    match limiters.check(class, address) {
        Ok(()) => next.run(request).await,
        Err(wait) => too_many(class, wait),
    }
}

/// 429: a page for a person's browser, RFC 6749-shaped JSON for a program.
fn too_many(class: Class, wait: Duration) -> Response {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    let seconds = seconds.max(1);
    let mut response = match class {
        Class::Authorize => pages::error_page(
            StatusCode::TOO_MANY_REQUESTS,
            &format!(
                "Too many sign-in requests came from your address. Wait {seconds} seconds, \
                 then start again from your application."
            ),
        ),
        Class::Register | Class::Token => no_store_json(
            StatusCode::TOO_MANY_REQUESTS,
            json!({
                "error": "too_many_requests",
                "error_description": format!(
                    "too many requests from this address: try again in {seconds} seconds"
                ),
            }),
        ),
    };
    if let Ok(value) = HeaderValue::from_str(&seconds.to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_proxys_own_address_is_the_last_forwarded_one() {
        let mut headers = HeaderMap::new();
        headers.append(
            "x-forwarded-for",
            HeaderValue::from_static("1.1.1.1, 2.2.2.2"),
        );
        headers.append(
            "x-forwarded-for",
            HeaderValue::from_static("9.9.9.9, 203.0.113.7"),
        );
        assert_eq!(
            forwarded_for(&headers),
            Some(IpAddr::V4(Ipv4Addr::new(203, 0, 113, 7)))
        );
        assert_eq!(forwarded_for(&HeaderMap::new()), None);
        let mut junk = HeaderMap::new();
        junk.insert("x-forwarded-for", HeaderValue::from_static("unknown"));
        assert_eq!(forwarded_for(&junk), None);
    }

    #[test]
    fn an_ipv6_subscriber_is_one_budget() {
        let key = |s: &str| budget_key(s.parse().expect("an address"));
        assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:bbbb::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::ffff:203.0.113.7"), key("203.0.113.7"));
        assert_ne!(key("203.0.113.7"), key("203.0.113.8"));
    }

    #[test]
    fn a_scale_multiplies_each_burst_and_rate() {
        let scaled = RateLimits::default().scaled(50);
        assert_eq!(
            scaled.register,
            Limit {
                burst: 1_000,
                every: Duration::from_millis(1_200),
            }
        );
        assert_eq!(
            scaled.authorize,
            Limit {
                burst: 1_500,
                every: Duration::from_millis(40),
            }
        );
        assert_eq!(
            scaled.token,
            Limit {
                burst: 3_000,
                every: Duration::from_millis(10),
            }
        );
        assert_eq!(RateLimits::default().scaled(1), RateLimits::default());
        assert_eq!(RateLimits::default().scaled(0), RateLimits::default());
        let largest = RateLimits::default().scaled(10_000);
        assert!(Limiters::new(largest, ClientAddress::Socket).is_ok());
    }

    #[test]
    fn a_burst_then_one_per_period_per_address() {
        let limits = RateLimits {
            register: Limit {
                burst: 2,
                every: Duration::from_secs(3600),
            },
            ..RateLimits::default()
        };
        let limiters = Limiters::new(limits, ClientAddress::Socket).expect("limits");
        let (a, b) = (
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V4(Ipv4Addr::BROADCAST),
        );
        assert_eq!(limiters.check(Class::Register, a), Ok(()));
        assert_eq!(limiters.check(Class::Register, a), Ok(()));
        let wait = limiters.check(Class::Register, a).expect_err("over budget");
        assert!(wait > Duration::from_secs(3000), "{wait:?}");
        assert_eq!(
            limiters.check(Class::Register, b),
            Ok(()),
            "another address"
        );
        assert_eq!(limiters.check(Class::Token, a), Ok(()), "another class");
        let empty = Limit {
            burst: 0,
            every: Duration::from_secs(1),
        };
        assert!(
            Limiters::new(
                RateLimits {
                    token: empty,
                    ..RateLimits::default()
                },
                ClientAddress::Socket
            )
            .is_err()
        );
    }
}
