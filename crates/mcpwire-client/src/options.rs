//! Per-call options: the timeout (which may restart at each progress notification, with
//! an overall bound) and where the call's progress goes (a callback or a stream).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;

use crate::notify::ProgressEvent;

/// How many progress events a [`ProgressStream`] holds before newer ones are dropped.
pub const PROGRESS_STREAM_CAPACITY: usize = 64;

/// Where a call's progress notifications go.
#[derive(Clone)]
pub(crate) enum ProgressSink {
    Callback(Arc<dyn Fn(ProgressEvent) + Send + Sync>),
    Channel(mpsc::Sender<ProgressEvent>),
}

impl ProgressSink {
    pub(crate) fn deliver(&self, event: ProgressEvent) {
        match self {
            ProgressSink::Callback(callback) => callback(event),
            // A reader that does not keep up loses events, never grows memory.
            ProgressSink::Channel(sender) => {
                let _ = sender.try_send(event);
            }
        }
    }
}

/// The progress notifications of one call, as a stream (see [`CallOptions::progress_stream`]).
/// It ends once the call is over and the [`CallOptions`] it came with are dropped.
#[derive(Debug)]
pub struct ProgressStream(mpsc::Receiver<ProgressEvent>);

impl ProgressStream {
    /// The next progress event; `None` once the call is over and every event was read.
    pub async fn recv(&mut self) -> Option<ProgressEvent> {
        self.0.recv().await
    }
}

/// The timeout of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Timeout {
    /// The client's default ([`ClientBuilder::request_timeout`](crate::ClientBuilder::request_timeout)).
    #[default]
    Default,
    /// None at all.
    Never,
    /// This long.
    After(Duration),
}

/// Options of one call: timeout and progress. `CallOptions::default()` uses the client's
/// default timeout and asks for no progress.
///
/// ```
/// use std::time::Duration;
/// use mcpwire_client::CallOptions;
///
/// // Give up after 5 s of silence, but let progress notifications keep a long call alive
/// // for up to 10 minutes.
/// let (options, mut progress) = CallOptions::new()
///     .timeout(Duration::from_secs(5))
///     .reset_timeout_on_progress(true)
///     .max_total_timeout(Duration::from_secs(600))
///     .progress_stream();
/// # let _ = (options, &mut progress);
/// ```
#[derive(Clone, Default)]
pub struct CallOptions {
    pub(crate) timeout: Timeout,
    pub(crate) reset_on_progress: bool,
    pub(crate) max_total: Option<Duration>,
    pub(crate) progress: Option<ProgressSink>,
}

impl std::fmt::Debug for CallOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallOptions")
            .field("timeout", &self.timeout)
            .field("reset_on_progress", &self.reset_on_progress)
            .field("max_total", &self.max_total)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl CallOptions {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Fails the call with [`ClientError::Timeout`](crate::ClientError::Timeout) (and sends
    /// `notifications/cancelled`) when no response came within `timeout`.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Timeout::After(timeout);
        self
    }

    /// Waits for the response however long it takes.
    pub fn no_timeout(mut self) -> Self {
        self.timeout = Timeout::Never;
        self
    }

    /// Restarts the timeout at each progress notification of the call (the call then asks
    /// for progress even without a callback or stream).
    pub fn reset_timeout_on_progress(mut self, reset: bool) -> Self {
        self.reset_on_progress = reset;
        self
    }

    /// Bounds the whole call, however often progress restarted its timeout.
    pub fn max_total_timeout(mut self, max: Duration) -> Self {
        self.max_total = Some(max);
        self
    }

    /// Hands each progress notification of the call to `callback` (on the client's reader
    /// task: keep it short).
    pub fn on_progress(mut self, callback: impl Fn(ProgressEvent) + Send + Sync + 'static) -> Self {
        self.progress = Some(ProgressSink::Callback(Arc::new(callback)));
        self
    }

    /// Delivers the call's progress notifications to the returned stream (at most
    /// [`PROGRESS_STREAM_CAPACITY`] unread; newer ones are dropped while it is full).
    pub fn progress_stream(mut self) -> (Self, ProgressStream) {
        let (sender, receiver) = mpsc::channel(PROGRESS_STREAM_CAPACITY);
        self.progress = Some(ProgressSink::Channel(sender));
        (self, ProgressStream(receiver))
    }

    /// Whether the call asks for progress (`_meta.progressToken`).
    pub(crate) fn wants_progress(&self) -> bool {
        self.progress.is_some() || self.reset_on_progress
    }
}
