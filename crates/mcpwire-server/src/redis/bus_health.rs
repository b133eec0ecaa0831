//! Whether this process reaches Redis: one flag per connection (the pub/sub subscriber, the
//! command connection), an outage logged once when it starts and once when it ends, and the
//! report `GET /healthz` serves.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use mcpwire::http::{Health, HealthCheck};

/// One of the connections a process keeps to Redis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    /// The subscriber that brings other processes' events.
    PubSub,
    /// The connection that publishes and stores stream events.
    Commands,
}

/// The state of this process's connections to Redis, shared by everything that uses them
/// (cheap to clone). It is a [`HealthCheck`]: give it to
/// [`HttpConfig::health_check`](mcpwire::http::HttpConfig::health_check) to serve
/// `GET /healthz`.
#[derive(Debug, Clone)]
pub struct BusHealth {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// Where Redis is, without credentials (for messages).
    url: String,
    pubsub: AtomicBool,
    commands: AtomicBool,
    /// Whether the outage now in progress (if any) was logged.
    logged_down: Mutex<Option<Instant>>,
    /// Events other processes could not be told (published while Redis was away, or beyond
    /// the bounded queue).
    dropped: AtomicU64,
}

impl BusHealth {
    /// Nothing connected yet; `url` names Redis in messages (its password is not shown).
    pub(crate) fn new(url: &str) -> Self {
        BusHealth {
            inner: Arc::new(Inner {
                url: without_password(url),
                pubsub: AtomicBool::new(false),
                commands: AtomicBool::new(false),
                logged_down: Mutex::new(None),
                dropped: AtomicU64::new(0),
            }),
        }
    }

    /// Whether both connections are up.
    pub fn is_up(&self) -> bool {
        self.inner.pubsub.load(Ordering::Acquire) && self.inner.commands.load(Ordering::Acquire)
    }

    /// How many events could not be sent to other processes so far.
    pub fn dropped_events(&self) -> u64 {
        self.inner.dropped.load(Ordering::Relaxed)
    }

    /// Counts an event other processes were not told.
    pub(crate) fn dropped(&self) {
        self.inner.dropped.fetch_add(1, Ordering::Relaxed);
    }

    /// Records that `part` connected; ends (and logs, once) an outage that all parts are back
    /// from.
    pub(crate) fn up(&self, part: Part) {
        self.flag(part).store(true, Ordering::Release);
        if !self.is_up() {
            return;
        }
        let mut logged = self.lock();
        if let Some(since) = logged.take() {
            tracing::info!(
                url = %self.inner.url,
                outage_secs = since.elapsed().as_secs_f64(),
                "redis reachable again; events flow between processes again"
            );
        }
    }

    /// Records that `part` lost (or could not make) its connection; logs the outage once.
    pub(crate) fn down(&self, part: Part, why: &dyn std::fmt::Display) {
        self.flag(part).store(false, Ordering::Release);
        let mut logged = self.lock();
        if logged.is_none() {
            *logged = Some(Instant::now());
            tracing::warn!(
                url = %self.inner.url,
                error = %why,
                "redis unreachable; serving on: requests that need no other process are answered, \
                 changes reach this process's listeners only, reconnecting with backoff"
            );
        }
    }

    fn flag(&self, part: Part) -> &AtomicBool {
        match part {
            Part::PubSub => &self.inner.pubsub,
            Part::Commands => &self.inner.commands,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Instant>> {
        self.inner
            .logged_down
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl HealthCheck for BusHealth {
    fn health(&self) -> Health {
        let state = |flag: &AtomicBool| {
            if flag.load(Ordering::Acquire) {
                "up"
            } else {
                "down"
            }
        };
        let down_for = self
            .lock()
            .map(|since| since.elapsed().as_secs_f64())
            .unwrap_or(0.0);
        Health {
            up: self.is_up(),
            checks: serde_json::json!({
                "redis": {
                    "pubsub": state(&self.inner.pubsub),
                    "commands": state(&self.inner.commands),
                    "downForSeconds": down_for,
                    "droppedEvents": self.dropped_events(),
                }
            }),
        }
    }
}

/// `url` with the password (between `:` and `@` after the scheme) replaced by `***`.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    match rest.split_once('@') {
        Some((credentials, host)) => {
            let user = credentials.split_once(':').map_or(credentials, |(u, _)| u);
            format!("{scheme}://{user}:***@{host}")
        }
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_says_which_connection_is_down() {
        let health = BusHealth::new("redis://user:secret@127.0.0.1:6379/0");
        assert_eq!(health.inner.url, "redis://user:***@127.0.0.1:6379/0");
        assert!(!health.health().up);
        health.up(Part::PubSub);
        health.up(Part::Commands);
        let report = health.health();
        assert!(report.up);
        assert_eq!(report.checks["redis"]["pubsub"], "up");
        health.down(Part::Commands, &"connection refused");
        let report = health.health();
        assert!(!report.up);
        assert_eq!(report.checks["redis"]["commands"], "down");
        assert_eq!(report.checks["redis"]["pubsub"], "up");
    }
}
