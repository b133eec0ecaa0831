//! The listener: binding (loopback unless allowed otherwise, with a listen backlog of its own),
//! the accept loop with a connection cap and a per-client share of it (reached, a connection
//! makes room: one waiting for its body, else the longest idle, else, within a client's
//! share, the client's own oldest request), back-off on errors, and each connection with its
//! header and idle timeouts.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::{Future, poll_fn};
use std::io;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::Poll;
use std::time::{Duration, Instant};

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, watch};

use super::config::HttpConfig;
use super::endpoint::Endpoint;
use super::handler::HttpService;
use super::race::{First, race};
use super::repoll::RepollSelfWakes;
use super::request_state::{RequestState, Stage};
use super::response_budget::{self, ResponseBudget, Unsent};
use super::sessions::PeerKey;
use super::write_timeout::{WriteLimits, WriteTimeout};

/// The largest request head: hyper's read buffer, and what [`HeadLimit`] lets a connection
/// read while no request is in progress.
const MAX_HEAD_BUFFER: usize = 64 * 1024;

/// The most bytes one read takes while a request head is on its way and hyper's buffer has
/// more room than the head has left (those bytes are zeroed first).
const HEAD_READ_CHUNK: usize = 8 * 1024;

/// The longest pause of the accept loop after errors (e.g. out of file descriptors).
const MAX_ACCEPT_BACKOFF: Duration = Duration::from_secs(1);

/// Threads of the blocking pool [`HttpServer::run_blocking`] gives synchronous handlers.
const BLOCKING_THREADS: usize = 64;

/// Where a graceful shutdown is ([`HttpServer::run_graceful`]), as each connection sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Serving.
    Serving,
    /// Finish the request in progress, then close.
    Draining,
    /// The grace has passed: close now.
    Closing,
}

/// Completes at the first SIGTERM (on Unix) or Ctrl-C (SIGINT) the process receives: the
/// `shutdown` of [`HttpServer::run_graceful`]. Once it is awaited, those signals no longer
/// end the process on their own. Pending forever if the handlers cannot be installed.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                terminate.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    let _ = race(ctrl_c, terminate).await;
}

/// A Streamable HTTP server, bound and ready to run.
pub struct HttpServer<S: HttpService> {
    listener: std::net::TcpListener,
    local: SocketAddr,
    endpoint: Arc<Endpoint<S>>,
}

impl<S: HttpService> std::fmt::Debug for HttpServer<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpServer")
            .field("local", &self.local)
            .finish_non_exhaustive()
    }
}

impl<S: HttpService> HttpServer<S> {
    /// Binds the configured address. A non-loopback address is refused unless
    /// [`HttpConfig::allow_remote`] is set, and then a warning is logged (`tracing`); a body
    /// limit above the in-flight body budget is refused too, and so is a
    /// [`HttpConfig::fresh_connection_grace`] of zero or longer than the header timeout.
    pub fn bind(config: HttpConfig, service: S) -> io::Result<HttpServer<S>> {
        let addr = config.bind;
        if !addr.ip().is_loopback() {
            if !config.allow_remote {
                return Err(io::Error::new(
                    io::ErrorKind::PermissionDenied,
                    format!(
                        "refusing to listen on {addr}: it is not a loopback address; allow remote \
                         clients explicitly (HttpConfig::allow_remote, mcpwire serve --allow-remote)"
                    ),
                ));
            }
            tracing::warn!(
                %addr,
                "the MCP endpoint listens on {addr}, reachable from the network; only the \
                 allowed hosts and origins are served, and there is no authentication"
            );
        }
        if config.max_body_bytes > config.body_budget_bytes {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "the body limit ({} bytes) exceeds the in-flight body budget ({} bytes): no \
                     body that large could ever be accepted; raise the budget",
                    config.max_body_bytes, config.body_budget_bytes
                ),
            ));
        }
        check_fresh_connection_grace(&config)?;
        let listener = listen(addr, config.listen_backlog)?;
        let local = listener.local_addr()?;
        Ok(HttpServer {
            listener,
            local,
            endpoint: Arc::new(Endpoint::new(config, service)),
        })
    }

    /// The bound address (with the port the system chose for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// The endpoint's URL, `http://ADDR/PATH`.
    pub fn url(&self) -> String {
        format!("http://{}{}", self.local, self.endpoint.config.path)
    }

    /// Serves until the process ends; must run inside a tokio runtime with I/O and time.
    pub async fn run(self) -> io::Result<()> {
        self.run_until(std::future::pending()).await
    }

    /// Serves until `shutdown` completes; then stops accepting (open connections finish on
    /// their own tasks).
    pub async fn run_until(self, shutdown: impl Future<Output = ()>) -> io::Result<()> {
        self.serve(shutdown, None).await
    }

    /// Serves until `shutdown` completes (e.g. [`shutdown_signal`]), then shuts down
    /// gracefully: stops accepting at once (new connections are refused), lets every request
    /// in progress finish and its answer be written, closes each connection as soon as it has
    /// no request in progress, and returns once all are closed or `grace` has passed,
    /// closing those still open then (a GET stream, a call that outlasts the grace).
    pub async fn run_graceful(
        self,
        shutdown: impl Future<Output = ()>,
        grace: Duration,
    ) -> io::Result<()> {
        self.serve(shutdown, Some(grace)).await
    }

    /// [`run_graceful`](Self::run_graceful) until SIGTERM or Ctrl-C ([`shutdown_signal`]) on
    /// a multi-threaded tokio runtime of its own; a way for a binary's `main` to serve and
    /// then exit cleanly.
    pub fn run_blocking_graceful(self, grace: Duration) -> io::Result<()> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_io()
            .enable_time()
            .max_blocking_threads(BLOCKING_THREADS)
            .build()?;
        let served = runtime.block_on(self.run_graceful(shutdown_signal(), grace));
        // Handlers still running on the blocking pool are not waited for past the grace.
        runtime.shutdown_timeout(Duration::from_millis(100));
        served
    }

    async fn serve(
        self,
        shutdown: impl Future<Output = ()>,
        grace: Option<Duration>,
    ) -> io::Result<()> {
        let listener = TcpListener::from_std(self.listener)?;
        let config = &self.endpoint.config;
        let connections = Arc::new(Semaphore::new(config.max_connections));
        let shares = Arc::new(Shares {
            held: Mutex::new(HashMap::new()),
            max: config.max_connections_per_peer,
        });
        let open = Arc::new(Open::new(config.effective_fresh_connection_grace()));
        let response_budget = ResponseBudget::new(config.response_budget_bytes);
        let mut shutdown = pin!(shutdown);
        let mut backoff = Duration::ZERO;
        let endpoint = Arc::clone(&self.endpoint);
        // Aborted when this function returns.
        let _sweeper = AbortOnDrop(tokio::spawn(async move { endpoint.sweep_sessions().await }));
        let (phase, _) = watch::channel(Phase::Serving);
        let stopped = loop {
            let accepted = match race(listener.accept(), shutdown.as_mut()).await {
                First::Left(accepted) => accepted,
                First::Right(()) => break Ok(()),
            };
            let (stream, peer) = match accepted {
                Ok(accepted) => accepted,
                Err(_) => {
                    // Out of descriptors and the like: wait before trying again, longer each
                    // time, rather than spin.
                    backoff = (backoff * 2).clamp(Duration::from_millis(5), MAX_ACCEPT_BACKOFF);
                    tokio::time::sleep(backoff).await;
                    continue;
                }
            };
            backoff = Duration::ZERO;
            let client = PeerKey::of(peer.ip());
            // A trusted proxy carries many clients: only the server's cap applies to it.
            let proxied = config.is_trusted_proxy(peer.ip());
            let share = match (!proxied).then(|| shares.take(client)) {
                None => None,
                Some(Some(share)) => Some(share),
                // At its share, one of the client's own connections makes room (as its
                // sessions do): one waiting for its body, else the one idle the longest, else
                // its oldest request, which ends with 429 and its id. It counts no more once
                // asked to close.
                Some(None) if open.make_room(Some(client), Busy::Shed) => {
                    Some(shares.take_over(client))
                }
                Some(None) => {
                    // Every connection of the client is already closing. Best effort: a
                    // client that cannot take these few bytes at once just sees the
                    // connection close.
                    let _ = stream.try_write(OVER_SHARE);
                    continue;
                }
            };
            let permit = match Arc::clone(&connections).try_acquire_owned() {
                Ok(permit) => permit,
                Err(_) => {
                    // Every slot is taken: a connection waiting for its body, else the one
                    // idle the longest (kept alive, or silent since it connected) is closed to
                    // make room; other clients' requests are not ended for it: with none
                    // waiting nor idle this one waits, and the rest in the backlog, until a
                    // connection ends.
                    open.make_room(None, Busy::Keep);
                    let waited =
                        race(Arc::clone(&connections).acquire_owned(), shutdown.as_mut()).await;
                    match waited {
                        First::Left(Ok(permit)) => permit,
                        First::Left(Err(_)) | First::Right(()) => break Ok(()),
                    }
                }
            };
            let endpoint = Arc::clone(&self.endpoint);
            let open = Arc::clone(&open);
            let unsent = Unsent::new(response_budget.clone());
            tokio::spawn(serve_connection(
                stream,
                (peer, client),
                endpoint,
                (open, unsent, phase.subscribe()),
                (permit, share),
            ));
        };
        let Some(grace) = grace else {
            return stopped;
        };
        // New connections are refused from here on.
        drop(listener);
        tracing::info!(?grace, "shutting down: finishing the requests in progress");
        phase.send_replace(Phase::Draining);
        let all = u32::try_from(config.max_connections).unwrap_or(u32::MAX);
        let closed = tokio::time::timeout(grace, connections.acquire_many(all)).await;
        if closed.is_err() {
            tracing::warn!(
                ?grace,
                "connections still open after the grace: closing them"
            );
            phase.send_replace(Phase::Closing);
            // Their tasks end at their next poll; give them that moment.
            let _ = tokio::time::timeout(Duration::from_millis(100), connections.acquire_many(all))
                .await;
        }
        stopped
    }

    /// Serves on a multi-threaded tokio runtime of its own until the process ends.
    pub fn run_blocking(self) -> io::Result<()> {
        tokio::runtime::Builder::new_multi_thread()
            .enable_io()
            .enable_time()
            .max_blocking_threads(BLOCKING_THREADS)
            .build()?
            .block_on(self.run())
    }
}

/// Refuses a [`HttpConfig::fresh_connection_grace`] of zero or longer than the header
/// timeout, naming the setting.
fn check_fresh_connection_grace(config: &HttpConfig) -> io::Result<()> {
    let Some(grace) = config.fresh_connection_grace else {
        return Ok(());
    };
    let why = if grace.is_zero() {
        "must be more than zero: every connection would count as idle the moment it is \
         accepted, and be closed to make room before its request head could arrive"
            .to_owned()
    } else if grace > config.header_timeout {
        format!(
            "exceeds the header timeout ({:?}): a silent connection would never count as \
             idle, closed by the header timeout first",
            config.header_timeout
        )
    } else {
        return Ok(());
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "the fresh connection grace ({grace:?}; HttpConfig::fresh_connection_grace, \
             mcpwire serve --fresh-connection-grace-ms) {why}"
        ),
    ))
}

/// Binds `addr` with a listen backlog of `backlog` connections (std's `TcpListener::bind` fixes
/// it at 128), non-blocking, for tokio.
fn listen(addr: SocketAddr, backlog: u32) -> io::Result<std::net::TcpListener> {
    use socket2::{Domain, Protocol, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, Some(Protocol::TCP))?;
    #[cfg(unix)]
    socket.set_reuse_address(true)?; // as std does: a restarted server binds at once
    socket.bind(&addr.into())?;
    socket.listen(i32::try_from(backlog).unwrap_or(i32::MAX))?;
    socket.set_nonblocking(true)?;
    Ok(socket.into())
}

/// The answer to a connection beyond its client's share, before it is closed.
const OVER_SHARE: &[u8] = b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";

/// The connections each client holds, against [`HttpConfig::max_connections_per_peer`].
struct Shares {
    held: Mutex<HashMap<PeerKey, usize>>,
    max: usize,
}

/// One connection of a client's share; given back when dropped.
struct Share {
    shares: Arc<Shares>,
    peer: PeerKey,
}

impl Shares {
    /// A connection slot of `peer`'s share; `None` when it holds its share already.
    fn take(self: &Arc<Self>, peer: PeerKey) -> Option<Share> {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let count = held.entry(peer).or_insert(0);
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(Share {
            shares: Arc::clone(self),
            peer,
        })
    }

    /// The slot of one of `peer`'s connections that has just been asked to close, taken
    /// before that connection ends: the share is exceeded for as long as it takes to close,
    /// at most by the connections asked to close (each is asked once).
    fn take_over(self: &Arc<Self>, peer: PeerKey) -> Share {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        *held.entry(peer).or_insert(0) += 1;
        Share {
            shares: Arc::clone(self),
            peer,
        }
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut held = self
            .shares
            .held
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = held.get_mut(&self.peer) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.peer);
            }
        }
    }
}

/// A task that ends with its owner.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The open connections, so that the one idle the longest can be asked to close when every
/// connection slot is taken.
struct Open {
    connections: Mutex<HashMap<u64, (PeerKey, Arc<Activity>)>>,
    next: AtomicU64,
    /// How many connections are open (the entries of `connections`), kept beside the map so
    /// that a connection asking whether it is alone, after each wake of its own, takes no lock.
    count: AtomicUsize,
    /// [`HttpConfig::fresh_connection_grace`] in force.
    fresh: Duration,
}

/// A connection's place in [`Open`]; removed when dropped.
struct Registered {
    open: Arc<Open>,
    key: u64,
}

impl Open {
    fn new(fresh: Duration) -> Open {
        Open {
            connections: Mutex::default(),
            next: AtomicU64::new(0),
            count: AtomicUsize::new(0),
            fresh,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, (PeerKey, Arc<Activity>)>> {
        self.connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn register(self: &Arc<Self>, client: PeerKey, activity: &Arc<Activity>) -> Registered {
        let key = self.next.fetch_add(1, Ordering::Relaxed);
        self.lock().insert(key, (client, Arc::clone(activity)));
        self.count.fetch_add(1, Ordering::Relaxed);
        Registered {
            open: Arc::clone(self),
            key,
        }
    }

    /// Asks one connection (of `client`'s, or of all) to close to make room, the first of:
    /// the one whose request body has waited the longest (its head came, its body has not),
    /// the one idle the longest, with [`Busy::Shed`] the one whose request began first
    /// (ended with [`RequestState::shed_answer`], or its stream cut), and last the one made
    /// the longest ago among those made within [`HttpConfig::fresh_connection_grace`] that
    /// have sent no request yet. `false` when none qualifies.
    fn make_room(&self, client: Option<PeerKey>, busy: Busy) -> bool {
        let connections = self.lock();
        let chosen = connections
            .values()
            .filter(|(owner, _)| client.is_none_or(|client| *owner == client))
            .map(|(_, activity)| activity)
            .filter(|activity| !activity.asked_to_close.load(Ordering::SeqCst))
            .filter_map(|activity| {
                let rank = match activity.idle_since() {
                    // Made a moment ago: not idle, its first request is on its way.
                    Some(since)
                        if !activity.used.load(Ordering::SeqCst)
                            && since.elapsed() < self.fresh =>
                    {
                        (3, since)
                    }
                    Some(since) => (1, since),
                    None => match activity.request.stage() {
                        (Stage::AwaitingBody, began) => (0, began),
                        (Stage::Handling, began) if busy == Busy::Shed => (2, began),
                        (Stage::Handling, _) => return None,
                    },
                };
                Some((rank, activity))
            })
            .min_by_key(|(rank, _)| *rank);
        let Some((rank, activity)) = chosen else {
            return false;
        };
        activity.asked_to_close.store(true, Ordering::SeqCst);
        if rank.0 == 0 || rank.0 == 2 {
            activity.request.shed();
        }
        activity.close.notify_one();
        true
    }
}

/// Whether making room may end a request whose body has arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Busy {
    /// Yes, the oldest: within one client's share, its own requests give way to its newer
    /// connection rather than lock it out.
    Shed,
    /// No: at the server's cap, one client's requests never end for another's connection.
    Keep,
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.open.lock().remove(&self.key);
        self.open.count.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Whether a connection has a request in progress, and since when it has not.
struct Activity {
    in_flight: AtomicUsize,
    last: Mutex<Instant>,
    /// Notified when the connection is to close to make room for another.
    close: Notify,
    asked_to_close: AtomicBool,
    /// Bytes read since the last request began or ended: the next request head, so far.
    head_bytes: AtomicUsize,
    /// Whether a request has begun on the connection, so that something may have been
    /// written to it.
    used: AtomicBool,
    /// The request in progress, or the last one.
    request: RequestState,
}

/// One request in progress; dropped with its response body.
struct InFlight(Arc<Activity>);

impl Activity {
    fn begin(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        self.used.store(true, Ordering::SeqCst);
        self.head_bytes.store(0, Ordering::SeqCst);
        self.request.begin();
        InFlight(Arc::clone(self))
    }

    /// Since when the connection has been idle; `None` while a request is in progress.
    fn idle_since(&self) -> Option<Instant> {
        let last = *self.last.lock().unwrap_or_else(PoisonError::into_inner);
        (self.in_flight.load(Ordering::SeqCst) == 0).then_some(last)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        *self.0.last.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
        self.0.head_bytes.store(0, Ordering::SeqCst);
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A connection's reads, capped so that while no request is in progress (a request head is
/// on its way) at most [`MAX_HEAD_BUFFER`] bytes are read: hyper answers 431 when its buffer
/// holds that much without a complete head. Its own check comes only after a read, which can
/// carry a head well past the limit (about 112 KiB were accepted).
struct HeadLimit {
    io: WriteTimeout,
    activity: Arc<Activity>,
}

impl tokio::io::AsyncRead for HeadLimit {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let activity = &this.activity;
        if activity.in_flight.load(Ordering::SeqCst) > 0 {
            return std::pin::Pin::new(&mut this.io).poll_read(cx, buf);
        }
        let room = MAX_HEAD_BUFFER.saturating_sub(activity.head_bytes.load(Ordering::SeqCst));
        if room == 0 {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the request head is larger than 64 KiB",
            )));
        }
        let io = std::pin::Pin::new(&mut this.io);
        let (polled, read) = if buf.remaining() <= room {
            // The common case: the whole buffer fits the room left, so the read goes straight
            // into it (no bytes zeroed or copied).
            let before = buf.filled().len();
            let polled = io.poll_read(cx, buf);
            (polled, buf.filled().len() - before)
        } else {
            // Read into the part of the buffer that fits, initialized first (at most
            // `HEAD_READ_CHUNK` bytes), and count what the read filled.
            let want = room.min(HEAD_READ_CHUNK);
            let mut limited = tokio::io::ReadBuf::new(buf.initialize_unfilled_to(want));
            let polled = io.poll_read(cx, &mut limited);
            let read = limited.filled().len();
            buf.advance(read);
            (polled, read)
        };
        if let Poll::Ready(Ok(())) = polled {
            activity.head_bytes.fetch_add(read, Ordering::SeqCst);
        }
        polled
    }
}

impl tokio::io::AsyncWrite for HeadLimit {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        std::pin::Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        std::pin::Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> Poll<io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> Poll<io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

/// `phase` once it has changed; never when the server has returned without a graceful
/// shutdown (the sender is gone).
async fn next_phase(mut phase: watch::Receiver<Phase>) -> watch::Receiver<Phase> {
    if phase.changed().await.is_err() {
        std::future::pending::<()>().await;
    }
    phase
}

async fn serve_connection<S: HttpService>(
    stream: TcpStream,
    (peer, client): (SocketAddr, PeerKey),
    endpoint: Arc<Endpoint<S>>,
    (open, unsent, phase): (Arc<Open>, Arc<Unsent>, watch::Receiver<Phase>),
    _slots: (OwnedSemaphorePermit, Option<Share>),
) {
    // An answer goes out as soon as it is written, not held back by Nagle's algorithm until
    // the client acknowledges the previous segment (which, with delayed ACKs, is ~40 ms on a
    // keep-alive connection whose answer takes more than one write). Best effort: a socket
    // that refuses the option is served as it is.
    let _ = stream.set_nodelay(true);
    let activity = Arc::new(Activity {
        in_flight: AtomicUsize::new(0),
        last: Mutex::new(Instant::now()),
        close: Notify::new(),
        asked_to_close: AtomicBool::new(false),
        head_bytes: AtomicUsize::new(0),
        used: AtomicBool::new(false),
        request: RequestState::default(),
    });
    let _registered = open.register(client, &activity);
    let idle = endpoint.config.idle_timeout;
    let header_timeout = endpoint.config.header_timeout;
    // A connection whose request gave way ends once its 429 is written (hyper closes it at
    // once: the answer says `Connection: close`); should the client not take those bytes,
    // this is as long as any write may make no progress.
    let give_way_linger = endpoint.config.write_timeout;
    let limits = WriteLimits {
        timeout: endpoint.config.write_timeout,
        min_rate: endpoint.config.min_write_rate,
    };
    let service = {
        let activity = Arc::clone(&activity);
        let unsent = Arc::clone(&unsent);
        service_fn(move |request| {
            let endpoint = Arc::clone(&endpoint);
            let unsent = Arc::clone(&unsent);
            let mark = activity.begin();
            let activity = Arc::clone(&activity);
            let (mut head, body) = request.into_parts();
            async move {
                let state = &activity.request;
                // Asked to make room before the answer began: the request ends here (its
                // handler is dropped with `respond` where the mode cancels on leaving).
                let respond = std::pin::pin!(endpoint.respond(&mut head, body, &peer, Some(state)));
                let response = match race(respond, state.shed_signal()).await {
                    First::Left(response) => response,
                    First::Right(()) => state.shed_answer(),
                };
                state.answered();
                // The answer's bytes count against the response budget until written.
                let mut response = response_budget::admit(response, &unsent, limits.timeout);
                response.body_mut().keep(vec![Box::new(mark)]);
                Ok::<_, Infallible>(response)
            }
        })
    };
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .max_buf_size(MAX_HEAD_BUFFER);
    let mut connection = pin!(builder.serve_connection(
        TokioIo::new(HeadLimit {
            io: WriteTimeout::new(stream, limits, unsent),
            activity: Arc::clone(&activity),
        }),
        service
    ));
    let mut watchdog = Box::pin(tokio::time::sleep(idle));
    let mut asked_to_close = pin!(activity.close.notified());
    let mut closing = false;
    // Set when a request gives way: the connection ends when this passes.
    let mut linger: Option<std::pin::Pin<Box<tokio::time::Sleep>>> = None;
    let mut draining = false;
    let mut phase_changed = Box::pin(next_phase(phase));
    let serve = poll_fn(|cx| {
        if connection.as_mut().poll(cx).is_ready() {
            return Poll::Ready(());
        }
        if let Poll::Ready(mut seen) = phase_changed.as_mut().poll(cx) {
            let now = *seen.borrow_and_update();
            if now == Phase::Closing {
                return Poll::Ready(());
            }
            if now == Phase::Draining && !draining {
                // The request in progress finishes and is answered; the connection closes
                // after it (at once when idle).
                draining = true;
                if !closing {
                    connection.as_mut().graceful_shutdown();
                    closing = true;
                }
            }
            phase_changed = Box::pin(next_phase(seen));
            cx.waker().wake_by_ref();
        }
        if linger
            .as_mut()
            .is_some_and(|at| at.as_mut().poll(cx).is_ready())
        {
            return Poll::Ready(());
        }
        if !closing && asked_to_close.as_mut().poll(cx).is_ready() {
            if activity.idle_since().is_some() && !activity.used.load(Ordering::SeqCst) {
                // Nothing was ever written to it, and hyper's graceful shutdown would wait
                // for the rest of a head begun (slowloris) until the header timeout.
                return Poll::Ready(());
            }
            if activity.idle_since().is_none() && activity.request.is_answered() {
                // Its request gives way after its answer began (a stream): cut it.
                return Poll::Ready(());
            }
            if activity.request.is_shed() {
                // Its request gives way before its answer began: the answer is 429, and
                // the connection ends after it whatever the client does: within the write
                // timeout even if the client neither reads the 429 nor sends the rest of a
                // withheld body.
                let mut at = Box::pin(tokio::time::sleep(give_way_linger));
                let _ = at.as_mut().poll(cx);
                linger = Some(at);
            }
            // Idle: closed at once; a request that started meanwhile is answered first.
            connection.as_mut().graceful_shutdown();
            closing = true;
            cx.waker().wake_by_ref();
        }
        while !closing && watchdog.as_mut().poll(cx).is_ready() {
            match activity.idle_since() {
                Some(since) if since.elapsed() >= idle => {
                    connection.as_mut().graceful_shutdown();
                    closing = true;
                    cx.waker().wake_by_ref();
                }
                Some(since) => watchdog.as_mut().reset((since + idle).into()),
                None => watchdog.as_mut().reset((Instant::now() + idle).into()),
            }
        }
        Poll::Pending
    });
    // While it is the only connection open, its own wakes (hyper's body reader waking its
    // dispatcher, an exchange's queue closing) poll it again here, not through the runtime's
    // queue and another worker; beside other connections it yields as tokio has it.
    let alone = {
        let open = Arc::clone(&open);
        move || open.count.load(Ordering::Relaxed) == 1
    };
    RepollSelfWakes::new(alone, serve).await;
}
