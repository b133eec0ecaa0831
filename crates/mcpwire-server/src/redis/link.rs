//! The command connection to Redis of one process: made on first use, dropped when a command
//! fails for a connection reason, made again after a backoff. While Redis is away, callers get
//! `None` at once (no command waits for a connection that is not there).

use std::time::{Duration, Instant};

use redis::aio::MultiplexedConnection;
use redis::{AsyncConnectionConfig, Client, RedisError};

use super::backoff::Backoff;
use super::bus_health::{BusHealth, Part};

/// How long connecting, and each command, may take before Redis counts as away.
const TIMEOUT: Duration = Duration::from_secs(1);

/// A reconnecting multiplexed connection (cheap to share: commands are pipelined on it).
#[derive(Debug)]
pub(crate) struct Link {
    client: Client,
    health: BusHealth,
    state: tokio::sync::Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    connection: Option<MultiplexedConnection>,
    /// No attempt before this instant (set after a failure).
    retry_at: Option<Instant>,
    backoff: Backoff,
}

impl Link {
    /// A link to the Redis `client` names; nothing is connected yet.
    pub(crate) fn new(client: Client, health: BusHealth) -> Self {
        Link {
            client,
            health,
            state: tokio::sync::Mutex::new(State::default()),
        }
    }

    /// The health this link reports to.
    pub(crate) fn health(&self) -> &BusHealth {
        &self.health
    }

    /// The connection, made now if there is none and the backoff allows; `None` while Redis
    /// is away.
    pub(crate) async fn connection(&self) -> Option<MultiplexedConnection> {
        let mut state = self.state.lock().await;
        if let Some(connection) = &state.connection {
            return Some(connection.clone());
        }
        if state.retry_at.is_some_and(|at| Instant::now() < at) {
            return None;
        }
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(TIMEOUT))
            .set_response_timeout(Some(TIMEOUT));
        match self
            .client
            .get_multiplexed_async_connection_with_config(&config)
            .await
        {
            Ok(connection) => {
                state.backoff.reset();
                state.retry_at = None;
                state.connection = Some(connection.clone());
                self.health.up(Part::Commands);
                Some(connection)
            }
            Err(error) => {
                state.retry_at = Some(Instant::now() + state.backoff.next_wait());
                self.health.down(Part::Commands, &error);
                None
            }
        }
    }

    /// Runs `command` (or a pipeline) on the connection; `None` when Redis is away or the
    /// command failed for a connection reason (the connection is then dropped and made again
    /// later). A command Redis refuses is `Some(Err)`.
    pub(crate) async fn run<T: redis::FromRedisValue>(
        &self,
        command: &impl Runnable,
    ) -> Option<Result<T, RedisError>> {
        let mut connection = self.connection().await?;
        match command.run_on(&mut connection).await {
            Err(error) if is_connection_error(&error) => {
                self.lost(&error).await;
                None
            }
            result => Some(result),
        }
    }

    /// Forgets the connection after `error`; the next use waits for the backoff.
    async fn lost(&self, error: &RedisError) {
        let mut state = self.state.lock().await;
        state.connection = None;
        state.retry_at = Some(Instant::now() + state.backoff.next_wait());
        self.health.down(Part::Commands, error);
    }
}

/// Whether `error` says the connection (not the command) failed.
pub(crate) fn is_connection_error(error: &RedisError) -> bool {
    error.is_io_error()
        || error.is_connection_dropped()
        || error.is_connection_refusal()
        || error.is_timeout()
        || error.is_unrecoverable_error()
}

/// A command or a pipeline.
pub(crate) trait Runnable: Sync {
    /// Sends it on `connection` and reads the reply.
    fn run_on<T: redis::FromRedisValue>(
        &self,
        connection: &mut MultiplexedConnection,
    ) -> impl std::future::Future<Output = Result<T, RedisError>> + Send;
}

impl Runnable for redis::Cmd {
    async fn run_on<T: redis::FromRedisValue>(
        &self,
        connection: &mut MultiplexedConnection,
    ) -> Result<T, RedisError> {
        self.query_async(connection).await
    }
}

impl Runnable for redis::Pipeline {
    async fn run_on<T: redis::FromRedisValue>(
        &self,
        connection: &mut MultiplexedConnection,
    ) -> Result<T, RedisError> {
        self.query_async(connection).await
    }
}
