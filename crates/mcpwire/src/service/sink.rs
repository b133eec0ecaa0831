//! Where a session's outgoing messages go: a bounded queue of typed [`Outgoing`] items that
//! the transport drains ([`super::queue`]: nothing is allocated until a message is sent).

use super::queue;

use crate::peer::ReplyFrame;

/// One outgoing JSON-RPC message (or batch), serialized without a line terminator, typed by
/// what it is to the transport, so that no transport has to decode it again to tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outgoing {
    /// The answer to an incoming frame: a response, an id-less error, or a batch's array.
    /// A frame gets at most one. It carries what it is (one success, one error and its
    /// code, a batch's array), so that no transport decodes it again to tell. Boxed: the
    /// channel's slots stay the size of a message's buffer.
    Reply(Box<ReplyFrame>),
    /// A request or notification this side sends: a handler's output, a cancellation, or
    /// what the session sends on its own.
    Message(Vec<u8>),
}

impl Outgoing {
    /// The serialized message.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Outgoing::Reply(reply) => reply.bytes(),
            Outgoing::Message(bytes) => bytes,
        }
    }

    /// The serialized message, owned.
    pub fn into_bytes(self) -> Vec<u8> {
        match self {
            Outgoing::Reply(reply) => (*reply).into_bytes(),
            Outgoing::Message(bytes) => bytes,
        }
    }

    /// Whether this is the answer to an incoming frame.
    pub fn is_reply(&self) -> bool {
        matches!(self, Outgoing::Reply(_))
    }
}

/// A sink for a session's [`Outgoing`] messages. Bounded: a sender waits while the transport
/// is behind. Cheap to clone.
///
/// Over stdio every message goes to one sink. A transport with a stream per incoming message
/// (Streamable HTTP) makes one sink per incoming frame and passes it to
/// [`Session::receive`](super::Session::receive): everything that frame causes (its
/// [`Outgoing::Reply`], and the [`Outgoing::Message`]s its handlers send meanwhile) goes
/// there, and the receiver ends once the last of them is sent and every clone of the sink is
/// dropped.
#[derive(Debug, Clone)]
pub struct Sink {
    sender: queue::Sender<Outgoing>,
    /// Set by a transport whose stream for this sink can be closed early and resumed.
    closable: bool,
}

/// The sink's receiving end: [`recv`](queue::Receiver::recv) and
/// [`try_recv`](queue::Receiver::try_recv).
pub type SinkReceiver = queue::Receiver<Outgoing>;

impl Sink {
    /// A sink holding at most `capacity` messages not yet taken by the transport.
    pub fn channel(capacity: usize) -> (Sink, SinkReceiver) {
        let (sender, receiver) = queue::channel(capacity.max(1));
        (
            Sink {
                sender,
                closable: false,
            },
            receiver,
        )
    }

    /// Queues a message; fails when the receiver is gone (the transport closed).
    pub async fn send(&self, message: Outgoing) -> Result<(), Closed> {
        self.sender.send(message).await.map_err(|_| Closed)
    }

    /// Queues a message without waiting; fails when the sink is full or closed.
    #[cfg(feature = "tokio")]
    pub(crate) fn try_send(&self, message: Outgoing) -> bool {
        self.sender.try_send(message).is_ok()
    }

    /// This sink, whose [`close_connection`](Self::close_connection) the transport honours.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn closable(mut self, closable: bool) -> Self {
        self.closable = closable;
        self
    }

    /// Asks the transport to close the client's connection of this sink's stream early, the
    /// stream staying resumable (Streamable HTTP with an event store: the client reconnects
    /// with `Last-Event-ID` and gets what was sent meanwhile). What was sent before is
    /// delivered first. Returns whether the transport can; otherwise (stdio, no event store)
    /// nothing happens.
    pub async fn close_connection(&self) -> bool {
        // In order with the messages: an empty message, which no JSON-RPC message is, marks
        // the point (the transport that made this sink closable takes it out).
        self.closable
            && self
                .sender
                .send(Outgoing::Message(Vec::new()))
                .await
                .is_ok()
    }
}

/// The stream behind a sink (or an HTTP [`Outbound`](crate::http::Outbound)) is gone: the
/// message was not sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Closed;

impl std::fmt::Display for Closed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the connection is closed")
    }
}

impl std::error::Error for Closed {}
