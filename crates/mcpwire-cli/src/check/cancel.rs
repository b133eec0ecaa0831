//! `mcpwire check --protocol`: a request cancelled while in flight. Over stdio the
//! `notifications/cancelled` is written right behind the call. Over Streamable HTTP to
//! 2025-11-25 ("To cancel, the client SHOULD explicitly send an MCP `CancelledNotification`")
//! it is POSTed on a connection of its own while the call's POST awaits its answer, and an
//! answer counts only if it came after the server acknowledged the cancel with `202`. Under
//! 2026-07-28 over HTTP a disconnect is the cancel, after which nothing the server does for
//! the request can be seen, so no call is cancelled there.
//!
//! The call cancelled is the listed tool whose call took longest in the progress pass, if it
//! took at least [`IN_FLIGHT_MIN`]. Over stdio its `notifications/cancelled` and a sentinel follow it at
//! once on the same stream. Silence after the cancel is a SHOULD, so a response is
//! `reply-after-cancel` (strict), and the response is then judged like any reply to the
//! request. Only a response that comes after the sentinel's reply counts: the server had read
//! the cancel (it precedes the sentinel) while the call was unanswered. A response before it
//! may be a call that completed before its cancel was read, which receivers "MAY ignore"
//! ("Processing has already completed"). The sentinel behind the cancel must still be
//! answered: the session keeps serving (else the liveness findings).

use std::time::Duration;

use mcpwire_proptest::{Expected, Silence};
use serde_json::{Map, Value, json};

use super::caller::{Caller, request_id};
use super::finding::{Finding, RuleId};
use super::handshake::handshake_expected;
use super::http_client::is_media;

/// The shortest call that counts as still in flight when its cancellation follows at once.
pub const IN_FLIGHT_MIN: Duration = Duration::from_millis(200);

/// The sentence the finding rests on.
pub const SENTENCE: &str = "MCP cancellation (2024-11-05 to 2026-07-28), Behavior Requirements: \"Receivers of cancellation notifications SHOULD: Stop processing the cancelled request; Free associated resources; Not send a response for the cancelled request\"";

/// A cancelled call, to be settled once the run's replies are in: its case index and id.
#[derive(Debug, Clone)]
pub struct Cancelled {
    index: usize,
    id: String,
    tool: String,
}

/// The `notifications/cancelled` of request `id`.
pub fn cancel_frame(id: &str) -> Vec<u8> {
    json!({
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": { "requestId": id, "reason": "mcpwire check: cancelled in flight" }
    })
    .to_string()
    .into_bytes()
}

/// Calls `tool` with `arguments` and cancels the call at once; `None` where the transport
/// cannot (Streamable HTTP under 2026-07-28). The case owes no reply (a reply with its id is still kept
/// with it); [`settle`] judges what came.
pub fn cancel_in_flight(
    caller: &mut Caller<'_>,
    tool: &str,
    arguments: Value,
    took: Duration,
) -> Option<Cancelled> {
    let mut params = Map::new();
    params.insert("name".into(), json!(tool));
    params.insert("arguments".into(), arguments);
    let label = format!(
        "tool {tool}: cancelled right after the call (its call took {} ms)",
        took.as_millis()
    );
    let mut case = caller.request("cancel", label, "tools/call", params);
    let id = request_id(&case);
    case.expected = Expected::NoReply(Silence::Notification);
    let index = caller.results.len();
    let exchange = caller
        .target
        .exchange_followed(index, &case, &cancel_frame(&id))?;
    super::exchange::attribute_late(caller.results, &exchange.late);
    caller.results.push((case, exchange));
    Some(Cancelled {
        index,
        id,
        tool: tool.to_owned(),
    })
}

/// Judges a cancelled call once the run's replies are in (after the final drain): a reply to
/// it makes the case one owed that reply (so the envelope rules and the schema judge it as a
/// reply to the request). It is `reply-after-cancel` only when it came after the server had
/// answered the sentinel sent behind the cancel: the server had then read the cancel while the
/// call was still unanswered. A reply before that may be a call that completed before its
/// cancel was read, which the receiver "MAY ignore": how long an earlier call took is no proof
/// of the contrary (a loaded machine makes an instant tool look slow).
pub fn settle(
    results: &mut [(super::cases::CheckCase, super::exchange::Exchange)],
    findings: &mut super::caller::CallFindings,
    cancelled: &Cancelled,
) {
    let Some((case, exchange)) = results.get_mut(cancelled.index) else {
        return;
    };
    if exchange.replies.is_empty() {
        // Over HTTP the call's POST is a request's: "the server MUST either return
        // `Content-Type: text/event-stream` … or `Content-Type: application/json`" (MCP
        // transports to 2025-11-25), and only a stream can end without the response. (The
        // case owes no reply, so it is not judged as a notification's POST either.)
        let Some(http) = exchange.http.take() else {
            return;
        };
        if http.status != 200 || !is_media(http.content_type.as_deref(), "text/event-stream") {
            let finding = Finding::new(
                "http-status",
                RuleId::Http,
                format!(
                    "tool {}: the cancelled call's POST was answered with HTTP {} ({}) and no response; a POSTed request is answered with application/json (its one response) or text/event-stream, and only a stream can end without the response",
                    cancelled.tool,
                    http.status,
                    http.content_type.as_deref().unwrap_or("no Content-Type")
                ),
            );
            findings.entry(cancelled.index).or_default().push(finding);
        }
        return;
    }
    case.expected = handshake_expected(&cancelled.id);
    let how = if exchange.http.is_some() {
        if exchange.answered_before_follow {
            // Over HTTP the answer came before the server acknowledged the cancel: the work
            // may have been done before the cancel came ("MAY ignore … Processing has already
            // completed"), so the answer is judged only as a reply to the call.
            return;
        }
        "the call's notifications/cancelled was POSTed while the call's POST awaited its answer and was acknowledged with 202 before the answer came"
    } else {
        if exchange.arrived_late == 0 {
            return;
        }
        "the call's notifications/cancelled followed it at once, and the server answered the request sent behind the cancel before the call"
    };
    let finding = Finding::new(
        "reply-after-cancel",
        RuleId::Protocol,
        format!(
            "tool {}: {how}, yet the call then got a response; {SENTENCE}. Receivers \"MAY ignore cancellation notifications if: ... Processing has already completed\", which a black box cannot rule out: strict. (MCP 2026-07-28 stdio reads \"Servers SHOULD stop work on a cancelled request as soon as practical and MUST NOT send any further messages for it\", while its cancellation page keeps the SHOULD and the MAY; the race makes it strict under both readings)",
            cancelled.tool,
        ),
    );
    findings.entry(cancelled.index).or_default().push(finding);
}
