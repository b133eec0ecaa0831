//! The `tracing` spans a server's sessions open, captured by a subscriber of the test's own
//! (a `tracing-subscriber` layer recording every span's fields): one `mcp_session` per
//! session, and inside it one `mcp_request` per request with its method, id as sent, version,
//! outcome and duration.

use crate::add_tool;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use add_tool::add;
use mcpwire::service::{Session, Sink};
use mcpwire_server::McpServer;
use serde_json::{Value, json};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Subscriber, subscriber};
use tracing_subscriber::layer::{Context as LayerContext, Layer, SubscriberExt};
use tracing_subscriber::registry::{LookupSpan, Registry};

/// One span as captured: its name, its fields, its parent's name.
#[derive(Debug, Clone, Default)]
struct Captured {
    name: String,
    fields: BTreeMap<String, String>,
    parent: Option<String>,
    closed: bool,
}

/// Records every span's fields as they are set.
#[derive(Clone, Default)]
struct Capture {
    spans: Arc<Mutex<BTreeMap<u64, Captured>>>,
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Capture {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: LayerContext<'_, S>) {
        let mut captured = Captured {
            name: attrs.metadata().name().to_owned(),
            ..Captured::default()
        };
        attrs.record(&mut Fields(&mut captured.fields));
        captured.parent = ctx
            .span(id)
            .and_then(|span| span.parent())
            .map(|parent| parent.name().to_owned());
        self.spans.lock().unwrap().insert(id.into_u64(), captured);
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: LayerContext<'_, S>) {
        if let Some(captured) = self.spans.lock().unwrap().get_mut(&id.into_u64()) {
            values.record(&mut Fields(&mut captured.fields));
        }
    }

    fn on_close(&self, id: Id, _: LayerContext<'_, S>) {
        if let Some(captured) = self.spans.lock().unwrap().get_mut(&id.into_u64()) {
            captured.closed = true;
        }
    }
}

impl Capture {
    fn named(&self, name: &str) -> Vec<Captured> {
        let spans = self.spans.lock().unwrap();
        spans.values().filter(|s| s.name == name).cloned().collect()
    }
}

async fn call<S: Send + Sync + 'static>(session: &Session<S>, frame: &Value) -> Value {
    let (sink, mut out) = Sink::channel(4);
    session.receive(frame.to_string().as_bytes(), &sink).await;
    drop(sink);
    let reply = tokio::time::timeout(Duration::from_secs(10), out.recv())
        .await
        .unwrap()
        .unwrap();
    serde_json::from_slice(reply.bytes()).unwrap()
}

#[tokio::test]
async fn a_tools_call_has_a_request_span_with_its_method_id_version_outcome_and_duration() {
    let capture = Capture::default();
    let _guard = subscriber::set_default(Registry::default().with(capture.clone()));
    let server = McpServer::builder("t", "1")
        .tool("add", "Adds", add)
        .build()
        .unwrap();
    let session = server.session();
    let init = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": { "name": "t", "version": "1" },
        },
    });
    call(&session, &init).await;
    let add_call = json!({
        "jsonrpc": "2.0", "id": "call-7", "method": "tools/call",
        "params": { "name": "add", "arguments": { "a": 2, "b": 3 } },
    });
    let reply = call(&session, &add_call).await;
    assert_eq!(reply["result"]["structuredContent"]["sum"], 5);
    let unknown = json!({
        "jsonrpc": "2.0", "id": 8, "method": "tools/call",
        "params": { "name": "nope", "arguments": {} },
    });
    let reply = call(&session, &unknown).await;
    assert_eq!(reply["error"]["code"], -32602);
    drop(session);

    let sessions = capture.named("mcp_session");
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    // Opened under the server's default profile, switched by `initialize`.
    assert_eq!(sessions[0].fields["version"], "2025-11-25", "{sessions:?}");
    assert!(sessions[0].fields.contains_key("session"));

    let requests = capture.named("mcp_request");
    let find = |method: &str, id: &str| {
        requests
            .iter()
            .find(|r| r.fields["method"] == method && r.fields["id"] == id)
            .unwrap_or_else(|| panic!("no span of {method} {id}: {requests:?}"))
            .clone()
    };
    let init = find("initialize", "1");
    assert_eq!(init.fields["outcome"], "result", "{init:?}");
    let added = find("tools/call", "\"call-7\"");
    assert_eq!(added.parent.as_deref(), Some("mcp_session"), "{added:?}");
    assert_eq!(added.fields["version"], "2025-11-25", "{added:?}");
    assert_eq!(added.fields["outcome"], "result", "{added:?}");
    let micros: u64 = added.fields["duration_us"].parse().unwrap();
    assert!(micros < 10_000_000, "{added:?}");
    assert!(added.closed, "{added:?}");
    let refused = find("tools/call", "8");
    assert_eq!(refused.fields["outcome"], "error", "{refused:?}");
    assert_eq!(refused.fields["error_code"], "-32602", "{refused:?}");
}

/// A synchronous handler answers in place; its span's outcome is what its reply is, as for
/// an async handler: `result`, or `error` with the code.
#[tokio::test]
async fn a_synchronous_handlers_span_has_its_replys_outcome() {
    let capture = Capture::default();
    let _guard = subscriber::set_default(Registry::default().with(capture.clone()));
    #[derive(serde::Deserialize)]
    struct Number {
        n: i64,
    }
    let router = mcpwire::Router::<()>::new().request(
        "half",
        |_: &(), Number { n }: Number, _: &mut mcpwire::CallContext<'_>| {
            if n % 2 == 0 {
                Ok(n / 2)
            } else {
                Err(mcpwire::RpcError::invalid_params())
            }
        },
    );
    let session = Session::new(mcpwire::Profile::latest_mcp(), (), router);
    let even = call(
        &session,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "half", "params": {"n": 8}}),
    )
    .await;
    assert_eq!(even["result"], 4, "{even}");
    let odd = call(
        &session,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "half", "params": {"n": 7}}),
    )
    .await;
    assert_eq!(odd["error"]["code"], -32602, "{odd}");
    drop(session);

    let requests = capture.named("mcp_request");
    let outcome = |id: &str| {
        let span = requests
            .iter()
            .find(|r| r.fields["id"] == id)
            .unwrap_or_else(|| panic!("no span of request {id}: {requests:?}"));
        (
            span.fields["outcome"].clone(),
            span.fields.get("error_code").cloned(),
        )
    };
    assert_eq!(outcome("1"), ("result".to_owned(), None));
    assert_eq!(
        outcome("2"),
        ("error".to_owned(), Some("-32602".to_owned()))
    );
}
