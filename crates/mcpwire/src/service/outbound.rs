//! Where outgoing lines go: a bounded channel the transport drains.

use tokio::sync::mpsc;

/// A sink for outgoing lines (each one JSON-RPC message or batch, without a line
/// terminator). Bounded: a sender waits while the transport is behind.
///
/// Over stdio every line goes to one sink. A transport with a stream per incoming message
/// (Streamable HTTP) makes one sink per incoming frame and passes it to
/// [`Session::receive`](super::Session::receive): everything that frame causes (the reply,
/// and whatever its handlers send meanwhile) goes there, and the receiver ends once the
/// last of them is sent and every clone of the sink is dropped.
#[derive(Debug, Clone)]
pub struct Outbound {
    sender: mpsc::Sender<Vec<u8>>,
}

/// The sink's receiving end.
pub type OutboundReceiver = mpsc::Receiver<Vec<u8>>;

impl Outbound {
    /// A sink holding at most `capacity` lines not yet taken by the transport.
    pub fn channel(capacity: usize) -> (Outbound, OutboundReceiver) {
        let (sender, receiver) = mpsc::channel(capacity.max(1));
        (Outbound { sender }, receiver)
    }

    /// Queues a line; fails when the receiver is gone (the transport closed).
    pub async fn send(&self, line: Vec<u8>) -> Result<(), Closed> {
        self.sender.send(line).await.map_err(|_| Closed)
    }

    /// Queues a line without waiting; fails when the sink is full or closed.
    pub(crate) fn try_send(&self, line: Vec<u8>) -> bool {
        self.sender.try_send(line).is_ok()
    }
}

/// The transport behind a sink is gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Closed;

impl std::fmt::Display for Closed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the connection is closed")
    }
}

impl std::error::Error for Closed {}
