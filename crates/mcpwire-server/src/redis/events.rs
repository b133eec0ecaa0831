//! [`RedisEvents`]: an [`EventSource`] shared by every process connected to one Redis, over
//! pub/sub. A change is announced to this process's listeners at once and published on the
//! channel; each process's subscriber hands what other processes publish to its own
//! listeners. While Redis is away, changes still reach this process's listeners; when the
//! subscriber connects again after an outage, every listener is told that every list may have
//! changed (it missed what other processes published meanwhile), so clients re-read them.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, watch};

use super::backoff::Backoff;
use super::bus_health::{BusHealth, Part};
use super::link::Link;
use mcpwire_model::{Change, ListKind};

use crate::events::{EventReceiver, EventSource, InProcessEvents};

/// Events waiting to be published before new ones are dropped (and counted).
pub(crate) const PUBLISH_QUEUE: usize = 1024;

/// How long subscribing may take before Redis counts as away.
const SUBSCRIBE_TIMEOUT: Duration = Duration::from_secs(2);

/// How often the subscriber asks Redis whether it is still there: a subscription only
/// receives, so without this a Redis that froze (or a connection dropped silently on the way)
/// would never be noticed.
const PING_EVERY: Duration = Duration::from_secs(1);

/// How long a `PING` may go unanswered before the connection counts as dead (it is then
/// dropped and made again with backoff).
const PING_TIMEOUT: Duration = Duration::from_secs(2);

/// What travels on the channel.
#[derive(Debug, Serialize, Deserialize)]
struct Envelope {
    /// The process that published it (it has told its own listeners already).
    origin: String,
    event: Change,
}

/// An [`EventSource`] whose events reach the `subscriptions/listen` streams of every process
/// connected to the same Redis channel (made by
/// [`RedisCluster::events`](super::RedisCluster::events)). Listeners are those of an
/// [`InProcessEvents`]: a listener that falls behind its bound is disconnected, never
/// buffered without bound. Its tasks end when it is dropped.
#[derive(Debug)]
pub struct RedisEvents {
    local: InProcessEvents,
    outgoing: mpsc::Sender<Change>,
    health: BusHealth,
    /// Dropped with this value: the subscriber stops.
    _stop: watch::Sender<()>,
}

impl RedisEvents {
    /// Starts the publisher and the subscriber (on the current tokio runtime) for `channel`.
    pub(crate) fn start(
        client: redis::Client,
        link: Arc<Link>,
        channel: String,
        origin: String,
        capacity: usize,
    ) -> Self {
        let local = InProcessEvents::new(capacity);
        let health = link.health().clone();
        let (outgoing, queue) = mpsc::channel(PUBLISH_QUEUE);
        let (stop, stopped) = watch::channel(());
        tokio::spawn(publish(link, channel.clone(), origin.clone(), queue));
        tokio::spawn(subscribe(
            client,
            channel,
            origin,
            local.clone(),
            health.clone(),
            stopped,
        ));
        RedisEvents {
            local,
            outgoing,
            health,
            _stop: stop,
        }
    }

    /// How many listeners this process has now.
    pub fn listeners(&self) -> usize {
        self.local.listeners()
    }
}

impl EventSource for RedisEvents {
    fn publish(&self, event: Change) {
        self.local.publish(event.clone());
        if self.outgoing.try_send(event).is_err() {
            // The queue is full (Redis slower than the changes) or the publisher is gone.
            self.health.dropped();
        }
    }

    fn subscribe(&self) -> EventReceiver {
        self.local.subscribe()
    }

    fn spans_processes(&self) -> bool {
        true
    }
}

/// Publishes the queued events, in order; an event that cannot be published (Redis away) is
/// counted and dropped, never held: the queue stays bounded.
async fn publish(
    link: Arc<Link>,
    channel: String,
    origin: String,
    mut queue: mpsc::Receiver<Change>,
) {
    // Connected at once, so that the health report says whether Redis is reachable before
    // the first change (and without an event store, whose heartbeat would connect it).
    let _ = link.connection().await;
    while let Some(event) = queue.recv().await {
        let envelope = Envelope {
            origin: origin.clone(),
            event,
        };
        let Ok(payload) = serde_json::to_string(&envelope) else {
            continue;
        };
        let command = redis::cmd("PUBLISH").arg(&channel).arg(payload).clone();
        if !matches!(link.run::<i64>(&command).await, Some(Ok(_))) {
            link.health().dropped();
        }
    }
}

/// Keeps a subscription to `channel`, handing other processes' events to `local`, until
/// `stopped` says the source is gone; pings Redis every [`PING_EVERY`] and counts the
/// connection dead when no answer comes within [`PING_TIMEOUT`]; reconnects with backoff.
async fn subscribe(
    client: redis::Client,
    channel: String,
    origin: String,
    local: InProcessEvents,
    health: BusHealth,
    mut stopped: watch::Receiver<()>,
) {
    let mut backoff = Backoff::default();
    // Whether events may have been missed since the last subscription (or before the first).
    let mut missed = false;
    loop {
        let attempt = tokio::time::timeout(SUBSCRIBE_TIMEOUT, async {
            let mut pubsub = client.get_async_pubsub().await?;
            pubsub.subscribe(&channel).await?;
            Ok::<_, redis::RedisError>(pubsub)
        });
        let subscribed = tokio::select! {
            _ = stopped.changed() => return,
            attempt = attempt => attempt,
        };
        match subscribed {
            Ok(Ok(pubsub)) => {
                backoff.reset();
                health.up(Part::PubSub);
                if std::mem::take(&mut missed) {
                    for kind in [ListKind::Tools, ListKind::Prompts, ListKind::Resources] {
                        local.publish(Change::ListChanged(kind));
                    }
                }
                let (mut sink, mut messages) = pubsub.split();
                let mut ping = tokio::time::interval(PING_EVERY);
                ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                ping.reset();
                let lost: &dyn std::fmt::Display = loop {
                    let message = tokio::select! {
                        _ = stopped.changed() => return,
                        message = messages.next() => message,
                        _ = ping.tick() => {
                            let pong = tokio::time::timeout(
                                PING_TIMEOUT,
                                sink.ping::<redis::Value>(),
                            );
                            match pong.await {
                                Ok(Ok(_)) => continue,
                                Ok(Err(_)) => break &"the subscription's connection failed",
                                Err(_) => break &"no answer to PING on the subscription within 2 s",
                            }
                        }
                    };
                    let Some(message) = message else {
                        break &"the subscription's connection closed";
                    };
                    let Ok(envelope) =
                        serde_json::from_slice::<Envelope>(message.get_payload_bytes())
                    else {
                        continue; // not ours: ignored
                    };
                    if envelope.origin != origin {
                        local.publish(envelope.event);
                    }
                };
                health.down(Part::PubSub, lost);
            }
            Ok(Err(error)) => health.down(Part::PubSub, &error),
            Err(_) => health.down(Part::PubSub, &"subscribing timed out"),
        }
        missed = true;
        tokio::select! {
            _ = stopped.changed() => return,
            () = tokio::time::sleep(backoff.next_wait()) => {}
        }
    }
}
