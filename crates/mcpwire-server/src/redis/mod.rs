//! Several server processes behind one endpoint, sharing one Redis (feature `redis`).
//!
//! - [`RedisCluster::events`]: an [`EventSource`](crate::EventSource) over pub/sub, so a
//!   change made at one process (a tool added, a resource updated) reaches the
//!   `subscriptions/listen` streams of all (MCP 2026-07-28).
//! - [`RedisCluster::event_store`]: an [`EventStore`](mcpwire::http::EventStore) over Redis
//!   Streams, so a client resumes a broken SSE stream with `Last-Event-ID` at whichever
//!   process it reaches, even when the process that wrote it was killed.
//! - [`RedisCluster::tasks`]: the records of the Tasks extension, so that a task created at
//!   one process is read, cancelled and answered at any other.
//! - [`RedisCluster::health`]: whether this process reaches Redis, for `GET /healthz`
//!   ([`HttpConfig::health_check`](mcpwire::http::HttpConfig::health_check)).
//!
//! While Redis is away the processes serve on: what needs no other process is answered, a
//! change reaches the listeners of the process that made it, the outage is logged once when
//! it starts and once when it ends, and the connections are made again with backoff (100 ms
//! doubling to 5 s). A Redis that stops answering without closing its connections (frozen,
//! or a connection dropped silently on the way) is noticed too: every command has 1 s to be
//! answered, and the subscription is pinged every second, dead when a `PING` goes 2 s
//! unanswered. Nothing queues without bound: events waiting to be published are at most 1024
//! (beyond, dropped and counted in the health report), a listener that falls behind is
//! disconnected, and each resumable stream keeps its latest 1000 events, none older than
//! 5 minutes (by default; [`RedisCluster::stream_bounds`]).
//!
//! The `requestState` of 2026-07-28 input-required results must open at every process: a
//! server built with a shared event source refuses to build without
//! [`McpServerBuilder::request_state_secret`](crate::McpServerBuilder::request_state_secret).

mod backoff;
mod bus_health;
mod cluster;
mod event_store;
mod events;
mod link;
mod stream_ages;
mod tasks;

pub use bus_health::BusHealth;
pub use cluster::{ClusterError, RedisCluster};
pub use event_store::RedisEventStore;
pub use events::RedisEvents;
pub use tasks::RedisTasks;
