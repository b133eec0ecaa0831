//! `mcpwire serve --http ADDR --redis URL`: the MCP reference server as one of several
//! processes behind one endpoint, sharing the Redis at URL (see [`mcpwire_server::redis`]):
//! list changes reach every process's `subscriptions/listen` streams, SSE streams resume at
//! any process, `GET /healthz` says whether Redis is reachable. The processes must seal
//! `requestState` with one secret, from `MCPWIRE_STATE_SECRET` or `--state-secret-file`;
//! without one the server refuses to start.

use std::io;
use std::time::Duration;

use mcpwire::Profile;
use mcpwire::http::HttpConfig;
use mcpwire_server::MIN_STATE_SECRET;
use mcpwire_server::redis::RedisCluster;

use crate::reference;

/// The settings of `mcpwire serve --http` for running several processes.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ClusterArgs {
    /// Join the processes sharing the Redis at URL (redis://[user:password@]host:port[/db]);
    /// also from MCPWIRE_REDIS_URL. Needs MCPWIRE_STATE_SECRET or --state-secret-file.
    #[arg(long = "redis", value_name = "URL")]
    pub redis: Option<String>,
    /// Read the secret that seals requestState (shared by every process, at least 32
    /// bytes) from PATH instead of MCPWIRE_STATE_SECRET.
    #[arg(long, value_name = "PATH")]
    pub state_secret_file: Option<String>,
    /// Start every session id this process mints with this byte (two hex digits), so that
    /// a load balancer routes sessions by their id (see scripts/cluster).
    #[arg(long, value_name = "HH", value_parser = parse_tag)]
    pub session_id_tag: Option<u8>,
    /// With --redis: events kept per resumable stream in Redis (the latest N). Give every
    /// process the same. Default: 1000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub redis_stream_events: Option<u32>,
    /// With --redis: seconds a resumable stream's event is kept in Redis (older ones are
    /// trimmed and cannot be resumed from). Give every process the same. Default: 300.
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    pub redis_stream_age: Option<u64>,
}

fn parse_tag(text: &str) -> Result<u8, String> {
    let mut tag = [0u8; 1];
    hex::decode_to_slice(text, &mut tag).map_err(|_| format!("two hex digits, not {text:?}"))?;
    Ok(tag[0])
}

impl ClusterArgs {
    /// The Redis URL: `--redis`, else a non-empty `MCPWIRE_REDIS_URL`.
    pub fn redis_url(&self) -> Option<String> {
        self.redis.clone().or_else(|| {
            std::env::var("MCPWIRE_REDIS_URL")
                .ok()
                .filter(|url| !url.is_empty())
        })
    }

    /// The `requestState` secret: the file's contents (trimmed), else `MCPWIRE_STATE_SECRET`;
    /// an error when neither gives one of at least [`MIN_STATE_SECRET`] bytes.
    pub fn state_secret(&self) -> io::Result<String> {
        let secret = match &self.state_secret_file {
            Some(path) => std::fs::read_to_string(path)
                .map_err(|e| invalid(format!("--state-secret-file {path}: {e}")))?
                .trim()
                .to_owned(),
            None => std::env::var("MCPWIRE_STATE_SECRET").unwrap_or_default(),
        };
        if secret.is_empty() {
            return Err(invalid(
                "--redis runs this process as one of several: they must seal requestState with \
                 one secret; set MCPWIRE_STATE_SECRET or --state-secret-file (a random key is \
                 never drawn per process in a cluster)"
                    .into(),
            ));
        }
        if secret.len() < MIN_STATE_SECRET {
            return Err(invalid(format!(
                "the requestState secret has {} bytes; give at least {MIN_STATE_SECRET} (e.g. `openssl rand -hex 32`)",
                secret.len()
            )));
        }
        Ok(secret)
    }
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// Serves the MCP reference server under `profile` with `config`, as a process of the
/// cluster on the Redis at `url`, until SIGTERM or Ctrl-C (then the requests in progress
/// finish, within `--shutdown-grace`).
pub fn serve(
    profile: Profile,
    config: HttpConfig,
    url: &str,
    http_args: &super::HttpArgs,
) -> io::Result<()> {
    let args = &http_args.cluster;
    let grace = http_args.shutdown_grace();
    if !reference::is_mcp(&profile) {
        return Err(invalid(format!(
            "--redis serves MCP profiles only, not {}",
            profile.name()
        )));
    }
    let secret = args.state_secret()?;
    let cluster = RedisCluster::new(url)
        .map_err(|e| invalid(e.to_string()))?
        .stream_bounds(
            args.redis_stream_events
                .map_or(RedisCluster::DEFAULT_STREAM_EVENTS, |n| {
                    usize::try_from(n).unwrap_or(usize::MAX)
                }),
            args.redis_stream_age
                .map_or(RedisCluster::DEFAULT_STREAM_AGE, Duration::from_secs),
        );
    tokio::runtime::Builder::new_multi_thread()
        .enable_io()
        .enable_time()
        .build()?
        .block_on(async move {
            let server = reference::mcp_server_builder(profile)
                .event_source(cluster.events())
                .shared_tasks(cluster.tasks())
                .request_state_secret(secret)
                .build()
                .map_err(|e| invalid(e.to_string()))?;
            let config = config
                .event_store(cluster.event_store())
                .health_check(cluster.health());
            let http = server.http_server(config)?;
            eprintln!(
                "mcpwire serve: listening on {} (process {} of the cluster sharing Redis)",
                http.url(),
                cluster.process_id()
            );
            http.run_graceful(mcpwire::http::shutdown_signal(), grace)
                .await
        })
}
