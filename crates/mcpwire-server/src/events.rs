//! The source the changes a server announces ([`Change`]s, the model's) travel through to its
//! `subscriptions/listen` streams (MCP 2026-07-28): a trait, so that several processes behind
//! one endpoint can share one (a message bus), with a bounded in-process broadcast as the
//! default.

use mcpwire_model::Change;
use tokio::sync::broadcast;

/// Where a server's [`Change`]s travel from the code that changes something
/// ([`McpServer::add_tool`](crate::McpServer::add_tool),
/// [`McpServer::notify_resource_updated`](crate::McpServer::notify_resource_updated) ...) to
/// every open `subscriptions/listen` stream.
///
/// The default, [`InProcessEvents`], reaches the streams of this process. A backend shared by
/// several processes (a message bus) publishes to the bus and hands each listener a receiver
/// fed from it, typically by forwarding the bus into an [`InProcessEvents`] of its own.
pub trait EventSource: std::fmt::Debug + Send + Sync + 'static {
    /// Announces `event` to every listener. Never waits for a listener: a listener that does
    /// not keep up loses events and is told so ([`ReceiveError::Lagged`]).
    fn publish(&self, event: Change);

    /// A new listener, receiving every event published from now on.
    fn subscribe(&self) -> EventReceiver;

    /// Whether the source is shared by several processes (a message bus): a server built on
    /// one then needs [`McpServerBuilder::request_state_secret`](crate::McpServerBuilder::request_state_secret),
    /// so that a `requestState` issued by one process opens at the others.
    fn spans_processes(&self) -> bool {
        false
    }
}

/// The receiving end of one listener.
#[derive(Debug)]
pub struct EventReceiver {
    receiver: broadcast::Receiver<Change>,
}

/// Why an [`EventReceiver`] yields no event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReceiveError {
    /// The listener fell behind: this many events were dropped for it. Its stream ends (the
    /// client listens again and re-reads the lists), so that no listener is buffered without
    /// bound.
    Lagged(u64),
    /// The source is gone: no event will come any more.
    Closed,
}

impl std::fmt::Display for ReceiveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReceiveError::Lagged(lost) => write!(
                f,
                "the listener fell behind and lost {lost} events; listen again and re-read the lists"
            ),
            ReceiveError::Closed => f.write_str("the event source is closed"),
        }
    }
}

impl std::error::Error for ReceiveError {}

impl EventReceiver {
    /// A receiver fed by a tokio broadcast channel (what an [`EventSource`] built on one hands
    /// out).
    pub fn from_broadcast(receiver: broadcast::Receiver<Change>) -> Self {
        EventReceiver { receiver }
    }

    /// The next event.
    pub async fn next(&mut self) -> Result<Change, ReceiveError> {
        self.receiver.recv().await.map_err(|e| match e {
            broadcast::error::RecvError::Lagged(lost) => ReceiveError::Lagged(lost),
            broadcast::error::RecvError::Closed => ReceiveError::Closed,
        })
    }
}

/// The default [`EventSource`]: a bounded broadcast within this process. Each listener may
/// fall at most [`capacity`](Self::new) events behind; beyond that it is disconnected
/// ([`ReceiveError::Lagged`]), and the publisher never waits.
#[derive(Debug, Clone)]
pub struct InProcessEvents {
    sender: broadcast::Sender<Change>,
}

impl InProcessEvents {
    /// The number of events a listener may fall behind by default.
    pub const DEFAULT_CAPACITY: usize = 256;

    /// A source whose listeners may fall `capacity` events behind (at least 1).
    pub fn new(capacity: usize) -> Self {
        let (sender, _) = broadcast::channel(capacity.max(1));
        InProcessEvents { sender }
    }

    /// How many listeners are subscribed now.
    pub fn listeners(&self) -> usize {
        self.sender.receiver_count()
    }
}

impl Default for InProcessEvents {
    fn default() -> Self {
        InProcessEvents::new(Self::DEFAULT_CAPACITY)
    }
}

impl EventSource for InProcessEvents {
    fn publish(&self, event: Change) {
        // No listener: nothing to tell.
        let _ = self.sender.send(event);
    }

    fn subscribe(&self) -> EventReceiver {
        EventReceiver::from_broadcast(self.sender.subscribe())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpwire_model::ListKind;

    #[tokio::test]
    async fn a_listener_that_falls_behind_is_told_and_the_publisher_never_waits() {
        let source = InProcessEvents::new(2);
        let mut slow = source.subscribe();
        for _ in 0..5 {
            source.publish(Change::ListChanged(ListKind::Tools));
        }
        assert_eq!(slow.next().await, Err(ReceiveError::Lagged(3)));
        assert_eq!(source.listeners(), 1);
        drop(slow);
        assert_eq!(source.listeners(), 0);
    }
}
