//! [`RedisCluster`]: one process's membership in a group of server processes sharing one
//! Redis: where Redis is, the key prefix and channel they share, this process's id, and the
//! connection state they all report to.

use std::sync::Arc;
use std::time::Duration;

use super::bus_health::BusHealth;
use super::event_store::{RedisEventStore, StreamBounds};
use super::events::RedisEvents;
use super::link::Link;
use super::tasks::RedisTasks;
use crate::events::InProcessEvents;

/// Why a [`RedisCluster`] cannot be made.
#[derive(Debug)]
pub struct ClusterError(String);

impl std::fmt::Display for ClusterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ClusterError {}

/// The Redis that several server processes behind one endpoint share. Nothing is connected
/// until [`events`](Self::events) or [`event_store`](Self::event_store) start their tasks;
/// connections are made again with backoff whenever Redis goes away.
///
/// ```no_run
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use mcpwire_server::redis::RedisCluster;
/// use mcpwire_server::{HttpConfig, McpServer};
///
/// let cluster = RedisCluster::new("redis://127.0.0.1:6379/")?;
/// let server = McpServer::builder("demo", "1.0.0")
///     .event_source(cluster.events())
///     // Every process seals `requestState` with the same secret.
///     .request_state_secret(std::env::var("MCPWIRE_STATE_SECRET")?)
///     .build()?;
/// let config = HttpConfig::default()
///     .event_store(cluster.event_store())
///     .health_check(cluster.health());
/// server.http_server(config)?.run().await?;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct RedisCluster {
    client: redis::Client,
    link: Arc<Link>,
    health: BusHealth,
    prefix: String,
    process: String,
    listener_capacity: usize,
    bounds: StreamBounds,
}

impl RedisCluster {
    /// The default prefix of every key and channel.
    pub const DEFAULT_PREFIX: &str = "mcpwire";
    /// The default number of events kept per stream.
    pub const DEFAULT_STREAM_EVENTS: usize = 1000;
    /// The default age after which a stream's events are forgotten.
    pub const DEFAULT_STREAM_AGE: Duration = Duration::from_secs(5 * 60);

    /// The cluster of the Redis at `url` (`redis://[user:password@]host:port[/db]`);
    /// fails only when the URL is not one. Connects later, in the background.
    pub fn new(url: &str) -> Result<Self, ClusterError> {
        let client = redis::Client::open(url)
            .map_err(|e| ClusterError(format!("{url:?} is not a Redis URL: {e}")))?;
        let health = BusHealth::new(url);
        let mut process = [0u8; 8];
        getrandom::fill(&mut process)
            .map_err(|e| ClusterError(format!("no random source for the process id: {e}")))?;
        Ok(RedisCluster {
            link: Arc::new(Link::new(client.clone(), health.clone())),
            client,
            health,
            prefix: Self::DEFAULT_PREFIX.to_owned(),
            process: crate::hex::encode(&process),
            listener_capacity: InProcessEvents::DEFAULT_CAPACITY,
            bounds: StreamBounds {
                max_events: Self::DEFAULT_STREAM_EVENTS,
                max_age: Self::DEFAULT_STREAM_AGE,
            },
        })
    }

    /// Sets the prefix of the keys and the channel (default [`Self::DEFAULT_PREFIX`]): the
    /// processes of one server share it; another server on the same Redis takes another.
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Sets how many events each listener may fall behind before it is disconnected
    /// (default [`InProcessEvents::DEFAULT_CAPACITY`]).
    pub fn listener_capacity(mut self, events: usize) -> Self {
        self.listener_capacity = events.max(1);
        self
    }

    /// Sets the bounds of each resumable stream's events in Redis (defaults
    /// [`Self::DEFAULT_STREAM_EVENTS`] and [`Self::DEFAULT_STREAM_AGE`]): the latest
    /// `max_events` are kept (`XADD MAXLEN ~`: Redis may keep up to about a hundred more until
    /// it can drop a whole node), and no event older than `max_age`: older ones are trimmed
    /// as the stream is written (`XTRIM MINID`), a stream no longer written expires whole,
    /// and a resume from before an event that is gone or too old is refused (the client
    /// cannot resume without a gap). Every process of a cluster must be given the same
    /// bounds (a reader judges age by its own).
    pub fn stream_bounds(mut self, max_events: usize, max_age: Duration) -> Self {
        self.bounds = StreamBounds {
            max_events: max_events.max(1),
            max_age,
        };
        self
    }

    /// This process's id among the cluster's processes (16 hex digits, random).
    pub fn process_id(&self) -> &str {
        &self.process
    }

    /// The state of this process's connections to Redis (a
    /// [`HealthCheck`](mcpwire::http::HealthCheck) for `GET /healthz`).
    pub fn health(&self) -> BusHealth {
        self.health.clone()
    }

    /// The event source for [`McpServerBuilder::event_source`](crate::McpServerBuilder::event_source):
    /// starts its publisher and subscriber on the current tokio runtime.
    pub fn events(&self) -> RedisEvents {
        RedisEvents::start(
            self.client.clone(),
            Arc::clone(&self.link),
            format!("{}:events", self.prefix),
            self.process.clone(),
            self.listener_capacity,
        )
    }

    /// The shared task records for
    /// [`McpServerBuilder::shared_tasks`](crate::McpServerBuilder::shared_tasks): starts
    /// their writer and this process's signal subscriber on the current tokio runtime.
    pub fn tasks(&self) -> RedisTasks {
        RedisTasks::start(
            self.client.clone(),
            Arc::clone(&self.link),
            self.prefix.clone(),
            self.process.clone(),
        )
    }

    /// The event store for [`HttpConfig::event_store`](mcpwire::http::HttpConfig::event_store):
    /// starts this process's heartbeat on the current tokio runtime.
    pub fn event_store(&self) -> RedisEventStore {
        RedisEventStore::start(
            Arc::clone(&self.link),
            self.prefix.clone(),
            self.process.clone(),
            self.bounds,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_that_is_not_one_is_refused_with_its_text() {
        let error = RedisCluster::new("http://example.com").unwrap_err();
        assert!(
            error
                .to_string()
                .contains("\"http://example.com\" is not a Redis URL")
        );
        let cluster = RedisCluster::new("redis://127.0.0.1:1/").unwrap();
        assert_eq!(cluster.process_id().len(), 16);
        assert!(!cluster.health().is_up(), "nothing connected yet");
    }
}
