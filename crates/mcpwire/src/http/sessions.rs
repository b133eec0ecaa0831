//! The session table: bounded, with idle expiry (swept on a timer), least-recently-used
//! eviction of idle sessions and a cap on the sessions one client address holds (at which it
//! ends its own oldest idle session first).
//!
//! The lock only guards lookups and bookkeeping; no handler ever runs under it.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use super::FrameReceiver;
use super::event_store::StreamId;
use super::session_id::SessionId;

/// The client address sessions are counted by: an IPv4 address, or an IPv6 /64 prefix (one
/// host usually holds a whole /64); every loopback address (127.0.0.0/8, `::1`) is one client,
/// the machine itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PeerKey(IpAddr);

impl PeerKey {
    pub(crate) fn of(ip: IpAddr) -> PeerKey {
        let ip = ip.to_canonical();
        if ip.is_loopback() {
            return PeerKey(IpAddr::V4(std::net::Ipv4Addr::LOCALHOST));
        }
        match ip {
            IpAddr::V6(v6) => {
                let prefix = u128::from(v6) & !((1u128 << 64) - 1);
                PeerKey(IpAddr::V6(Ipv6Addr::from(prefix)))
            }
            v4 => PeerKey(v4),
        }
    }
}

/// Why a new session was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The client address already holds its share of sessions.
    PeerLimit(usize),
    /// Every slot holds a session in use.
    Full(usize),
}

/// The session's GET stream: the receiver of its unsolicited frames (taken while a GET
/// stream is open), and with an event store the stored stream the GET stream writes (what a
/// `Last-Event-ID` may resume).
pub(crate) struct GetStream {
    pub(crate) receiver: Option<FrameReceiver>,
    pub(crate) stored: Option<StreamId>,
}

/// A session's [`GetStream`], shared by its requests.
pub(crate) type Unsolicited = Arc<Mutex<GetStream>>;

/// A session whose `initialize` succeeded, to be registered.
pub(crate) struct Opened<H> {
    pub(crate) handler: Arc<H>,
    pub(crate) peer: PeerKey,
    pub(crate) unsolicited: Option<FrameReceiver>,
    /// Dropped with the entry: the handler learns that its session ended.
    pub(crate) ended: watch::Sender<()>,
    /// The protocol version `initialize` agreed, when its reply named one.
    pub(crate) protocol_version: Option<String>,
    /// The subject of the caller that opened it (with a [`Guard`](super::Guard)).
    pub(crate) owner: Option<Arc<str>>,
}

struct Entry<H> {
    handler: Arc<H>,
    protocol_version: Option<Arc<str>>,
    peer: PeerKey,
    last_used: Instant,
    busy: usize,
    unsolicited: Option<Unsolicited>,
    /// Dropped with the entry: a GET stream watching it ends with the session.
    ended: watch::Sender<()>,
    owner: Option<Arc<str>>,
}

struct Table<H> {
    map: HashMap<SessionId, Entry<H>>,
    per_peer: HashMap<PeerKey, usize>,
}

/// The sessions of one server.
pub(crate) struct Sessions<H> {
    table: Mutex<Table<H>>,
    max: usize,
    per_peer_max: usize,
    idle: Duration,
}

/// A session in use: while it lives the session is neither expired nor evicted.
pub(crate) struct Lease<H> {
    sessions: Arc<Sessions<H>>,
    id: SessionId,
}

impl<H> Drop for Lease<H> {
    fn drop(&mut self) {
        let mut table = self.sessions.lock();
        if let Some(entry) = table.map.get_mut(&self.id) {
            entry.busy = entry.busy.saturating_sub(1);
            entry.last_used = Instant::now();
        }
    }
}

/// A session found for a request.
pub(crate) struct Found<H> {
    pub(crate) handler: Arc<H>,
    pub(crate) lease: Lease<H>,
    pub(crate) unsolicited: Option<Unsolicited>,
    pub(crate) ended: watch::Receiver<()>,
    /// The protocol version the session agreed at `initialize`, when known.
    pub(crate) protocol_version: Option<Arc<str>>,
    /// The subject of the caller that opened it.
    pub(crate) owner: Option<Arc<str>>,
}

impl<H> Sessions<H> {
    pub(crate) fn new(max: usize, per_peer_max: usize, idle: Duration) -> Sessions<H> {
        Sessions {
            table: Mutex::new(Table {
                map: HashMap::new(),
                per_peer: HashMap::new(),
            }),
            max,
            per_peer_max,
            idle,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Table<H>> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether `peer` may open one more session (checked before `initialize` runs): it holds
    /// fewer than its share, or one of its sessions is idle and can make room.
    pub(crate) fn admit(&self, peer: PeerKey) -> Result<(), Refusal> {
        let mut table = self.lock();
        self.sweep(&mut table);
        if self.at_peer_limit(&table, peer) && Self::oldest_idle_of(&table, peer).is_none() {
            return Err(Refusal::PeerLimit(self.per_peer_max));
        }
        Ok(())
    }

    fn at_peer_limit(&self, table: &Table<H>, peer: PeerKey) -> bool {
        table.per_peer.get(&peer).copied().unwrap_or(0) >= self.per_peer_max
    }

    /// The least recently used idle session of `peer`.
    fn oldest_idle_of(table: &Table<H>, peer: PeerKey) -> Option<SessionId> {
        table
            .map
            .iter()
            .filter(|(_, entry)| entry.peer == peer && entry.busy == 0)
            .min_by_key(|(_, entry)| entry.last_used)
            .map(|(id, _)| id.clone())
    }

    /// Registers a session after its `initialize` succeeded. A client at its share of
    /// sessions makes room by ending its own least recently used idle session (a client that
    /// never sends DELETE does not lock itself out); with none idle it is refused. When the
    /// table is full an idle session is evicted from the client holding the most sessions (the
    /// least recently used of its idle ones), so a client flooding the table evicts its own
    /// sessions before anyone else's.
    pub(crate) fn insert(&self, id: SessionId, opened: Opened<H>) -> Result<(), Refusal> {
        let Opened {
            handler,
            peer,
            unsolicited,
            ended,
            protocol_version,
            owner,
        } = opened;
        let mut table = self.lock();
        self.sweep(&mut table);
        if self.at_peer_limit(&table, peer) {
            let Some(own) = Self::oldest_idle_of(&table, peer) else {
                return Err(Refusal::PeerLimit(self.per_peer_max));
            };
            Self::remove_locked(&mut table, &own);
        }
        if table.map.len() >= self.max {
            let held = |peer: &PeerKey| table.per_peer.get(peer).copied().unwrap_or(0);
            // Counting the newcomer's session too: it is the flood's, if anyone's.
            let held_after = |key: &PeerKey| held(key) + usize::from(*key == peer);
            let victim = table
                .map
                .iter()
                .filter(|(_, entry)| entry.busy == 0)
                .min_by_key(|(_, entry)| {
                    (std::cmp::Reverse(held_after(&entry.peer)), entry.last_used)
                })
                .map(|(id, _)| id.clone());
            match victim {
                Some(victim) => Self::remove_locked(&mut table, &victim),
                None => return Err(Refusal::Full(self.max)),
            };
        }
        *table.per_peer.entry(peer).or_insert(0) += 1;
        table.map.insert(
            id,
            Entry {
                handler,
                protocol_version: protocol_version.map(Arc::from),
                peer,
                last_used: Instant::now(),
                busy: 0,
                unsolicited: unsolicited.map(|receiver| {
                    Arc::new(Mutex::new(GetStream {
                        receiver: Some(receiver),
                        stored: None,
                    }))
                }),
                ended,
                owner,
            },
        );
        Ok(())
    }

    /// The session `id` names, leased for one request; `None` when unknown or expired.
    pub(crate) fn lease(self: &Arc<Self>, id: &SessionId) -> Option<Found<H>> {
        let mut table = self.lock();
        let expired = table
            .map
            .get(id)
            .is_some_and(|entry| entry.busy == 0 && entry.last_used.elapsed() > self.idle);
        if expired {
            Self::remove_locked(&mut table, id);
            return None;
        }
        let entry = table.map.get_mut(id)?;
        entry.busy += 1;
        entry.last_used = Instant::now();
        Some(Found {
            handler: Arc::clone(&entry.handler),
            unsolicited: entry.unsolicited.clone(),
            ended: entry.ended.subscribe(),
            protocol_version: entry.protocol_version.clone(),
            owner: entry.owner.clone(),
            lease: Lease {
                sessions: Arc::clone(self),
                id: id.clone(),
            },
        })
    }

    /// Ends a session opened by `owner`; whether there was one (a session of another owner
    /// stays, as if unknown).
    pub(crate) fn remove_owned(&self, id: &SessionId, owner: Option<&str>) -> bool {
        let owned = self
            .lock()
            .map
            .get(id)
            .is_some_and(|entry| entry.owner.as_deref() == owner);
        owned && self.remove(id)
    }

    /// Ends a session; whether it existed.
    pub(crate) fn remove(&self, id: &SessionId) -> bool {
        Self::remove_locked(&mut self.lock(), id)
    }

    /// The number of open sessions.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.lock().map.len()
    }

    fn remove_locked(table: &mut Table<H>, id: &SessionId) -> bool {
        let Some(entry) = table.map.remove(id) else {
            return false;
        };
        if let Some(count) = table.per_peer.get_mut(&entry.peer) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                table.per_peer.remove(&entry.peer);
            }
        }
        true
    }

    /// Ends every session unused for longer than the idle timeout (the server runs this on a
    /// timer, so expired sessions and their handlers go even when no new session arrives).
    pub(crate) fn sweep_expired(&self) {
        let mut table = self.lock();
        self.sweep(&mut table);
    }

    /// How often [`sweep_expired`](Self::sweep_expired) runs: a quarter of the idle timeout,
    /// between 10 ms and 60 s.
    pub(crate) fn sweep_period(&self) -> Duration {
        (self.idle / 4).clamp(Duration::from_millis(10), Duration::from_secs(60))
    }

    /// Drops every session unused for longer than the idle timeout.
    fn sweep(&self, table: &mut Table<H>) {
        let expired: Vec<SessionId> = table
            .map
            .iter()
            .filter(|(_, entry)| entry.busy == 0 && entry.last_used.elapsed() > self.idle)
            .map(|(id, _)| id.clone())
            .collect();
        for id in expired {
            Self::remove_locked(table, &id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn peer(last: u8) -> PeerKey {
        PeerKey::of(IpAddr::V4(Ipv4Addr::new(10, 0, 0, last)))
    }

    fn open(sessions: &Sessions<()>, peer: PeerKey) -> Result<SessionId, Refusal> {
        let id = SessionId::generate().unwrap();
        let opened = Opened {
            handler: Arc::new(()),
            peer,
            unsolicited: None,
            ended: watch::channel(()).0,
            protocol_version: None,
            owner: None,
        };
        sessions.insert(id.clone(), opened)?;
        Ok(id)
    }

    #[test]
    fn a_full_table_evicts_the_least_recently_used_idle_session() {
        let sessions = Arc::new(Sessions::new(2, 10, Duration::from_secs(60)));
        let a = open(&sessions, peer(1)).unwrap();
        let b = open(&sessions, peer(2)).unwrap();
        drop(sessions.lease(&a)); // a is now more recent than b
        let c = open(&sessions, peer(3)).unwrap();
        assert!(sessions.lease(&b).is_none(), "b was least recently used");
        assert!(sessions.lease(&a).is_some());
        assert!(sessions.lease(&c).is_some());
    }

    /// Issue 33, item 6: eviction takes from the client holding the most sessions, never
    /// from a client with fewer while the heavy one has an idle session.
    #[test]
    fn a_full_table_evicts_from_the_client_holding_the_most_sessions() {
        let sessions = Arc::new(Sessions::new(4, 10, Duration::from_secs(60)));
        let light = open(&sessions, peer(1)).unwrap(); // the oldest
        let heavy: Vec<SessionId> = (0..3).map(|_| open(&sessions, peer(2)).unwrap()).collect();
        drop(sessions.lease(&heavy[0])); // heavy[1] is now the heavy client's oldest
        open(&sessions, peer(2)).unwrap();
        assert!(
            sessions.lease(&light).is_some(),
            "the light client keeps its session"
        );
        assert!(
            sessions.lease(&heavy[1]).is_none(),
            "the heavy client's oldest went"
        );
        // A third client arriving takes from the heaviest too.
        open(&sessions, peer(3)).unwrap();
        assert!(sessions.lease(&light).is_some());
        assert_eq!(sessions.len(), 4);
    }

    /// Issue 33, item 6: every loopback address is one client, for the per-client cap too.
    #[test]
    fn loopback_addresses_share_one_clients_cap() {
        let sessions = Arc::new(Sessions::new(100, 2, Duration::from_secs(60)));
        let a = open(&sessions, PeerKey::of(ip("127.0.0.1"))).unwrap();
        let b = open(&sessions, PeerKey::of(ip("127.0.0.19"))).unwrap();
        // Both in use, so the client has no idle session of its own to give up.
        let _held = (sessions.lease(&a).unwrap(), sessions.lease(&b).unwrap());
        let third = open(&sessions, PeerKey::of(ip("::1")));
        assert_eq!(third, Err(Refusal::PeerLimit(2)));
    }

    #[test]
    fn sessions_in_use_are_never_evicted() {
        let sessions = Arc::new(Sessions::new(1, 10, Duration::from_secs(60)));
        let a = open(&sessions, peer(1)).unwrap();
        let held = sessions.lease(&a).unwrap();
        assert_eq!(open(&sessions, peer(2)), Err(Refusal::Full(1)));
        drop(held);
        assert!(open(&sessions, peer(2)).is_ok());
    }

    #[test]
    fn one_peer_holds_at_most_its_share_and_gets_it_back_when_sessions_end() {
        let sessions = Arc::new(Sessions::new(100, 2, Duration::from_secs(60)));
        let a = open(&sessions, peer(1)).unwrap();
        let b = open(&sessions, peer(1)).unwrap();
        // Both in use: nothing of its own to give up.
        let (held_a, held_b) = (sessions.lease(&a).unwrap(), sessions.lease(&b).unwrap());
        assert_eq!(sessions.admit(peer(1)), Err(Refusal::PeerLimit(2)));
        assert_eq!(open(&sessions, peer(1)), Err(Refusal::PeerLimit(2)));
        assert!(sessions.admit(peer(2)).is_ok());
        drop((held_a, held_b));
        assert!(sessions.remove(&a));
        assert!(open(&sessions, peer(1)).is_ok());
        assert_eq!(sessions.len(), 2);
    }

    /// Issue 28, item 7: a client at its share whose sessions are idle (it never sent DELETE)
    /// ends its own least recently used one instead of being refused; nobody else's goes.
    #[test]
    fn a_client_at_its_share_ends_its_own_oldest_idle_session() {
        let sessions = Arc::new(Sessions::new(100, 3, Duration::from_secs(60)));
        let other = open(&sessions, peer(2)).unwrap();
        let own: Vec<SessionId> = (0..3).map(|_| open(&sessions, peer(1)).unwrap()).collect();
        drop(sessions.lease(&own[0])); // own[1] is now its least recently used
        let busy = sessions.lease(&own[2]).unwrap();
        assert!(sessions.admit(peer(1)).is_ok());
        let fourth = open(&sessions, peer(1)).unwrap();
        assert!(
            sessions.lease(&own[1]).is_none(),
            "its oldest idle one went"
        );
        assert!(sessions.lease(&own[0]).is_some());
        assert!(sessions.lease(&fourth).is_some());
        assert!(sessions.lease(&other).is_some(), "another client's stays");
        // Again: own[2] is in use, so the oldest idle one is now own[0].
        open(&sessions, peer(1)).unwrap();
        assert!(sessions.lease(&own[0]).is_none());
        drop(busy);
        assert_eq!(sessions.len(), 4);
    }

    #[test]
    fn idle_sessions_expire() {
        let sessions = Arc::new(Sessions::new(10, 10, Duration::ZERO));
        let a = open(&sessions, peer(1)).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        assert!(sessions.lease(&a).is_none());
        assert_eq!(sessions.len(), 0);
    }

    #[test]
    fn peers_count_per_ipv6_64_prefix_and_loopback_as_one() {
        let a = ip("2001:db8:1:2:aaaa::1");
        let b = ip("2001:db8:1:2:bbbb::2");
        let c = ip("2001:db8:1:3::1");
        assert_eq!(PeerKey::of(a), PeerKey::of(b));
        assert_ne!(PeerKey::of(a), PeerKey::of(c));
        let mapped = ip("::ffff:10.0.0.1");
        assert_eq!(PeerKey::of(mapped), peer(1));
        // Issue 33, item 6: the machine itself is one client, whichever loopback address.
        let local = PeerKey::of(ip("127.0.0.1"));
        assert_eq!(PeerKey::of(ip("127.0.0.19")), local);
        assert_eq!(PeerKey::of(ip("::1")), local);
        assert_eq!(PeerKey::of(ip("::ffff:127.0.0.2")), local);
    }
}
