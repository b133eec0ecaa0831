//! The handler table both routers keep: method → request handler, method → notification
//! handler, an optional fallback and an optional event handler. The handler types differ
//! (sync or async); the table does not.

use std::collections::HashMap;
use std::fmt;

pub(crate) struct Routes<R: ?Sized, N: ?Sized, F: ?Sized, E: ?Sized> {
    pub(crate) requests: HashMap<String, Box<R>>,
    pub(crate) notifications: HashMap<String, Box<N>>,
    pub(crate) fallback: Option<Box<F>>,
    pub(crate) on_event: Option<Box<E>>,
}

impl<R: ?Sized, N: ?Sized, F: ?Sized, E: ?Sized> Routes<R, N, F, E> {
    pub(crate) fn new() -> Self {
        Self {
            requests: HashMap::new(),
            notifications: HashMap::new(),
            fallback: None,
            on_event: None,
        }
    }

    /// Writes the table as a struct named `name`, methods sorted.
    pub(crate) fn fmt_as(&self, name: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut requests: Vec<_> = self.requests.keys().collect();
        requests.sort();
        let mut notifications: Vec<_> = self.notifications.keys().collect();
        notifications.sort();
        f.debug_struct(name)
            .field("requests", &requests)
            .field("notifications", &notifications)
            .field("fallback", &self.fallback.is_some())
            .field("on_event", &self.on_event.is_some())
            .finish()
    }
}
