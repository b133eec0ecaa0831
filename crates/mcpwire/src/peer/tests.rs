use std::time::{Duration, Instant};

use serde::Deserialize;

use super::*;
use crate::decode::ResponseDefect;

/// A typed request whose result has a required integer member.
struct Sum;

#[derive(Debug, Deserialize, PartialEq)]
struct Total {
    total: i64,
}

impl Request for Sum {
    const METHOD: &'static str = "sum";
    type Params = Vec<i64>;
    type Result = Total;
}

fn mcp() -> Peer {
    Peer::new(Profile::latest_mcp())
}

fn only<'a>(received: Received<'a>) -> Event<'a> {
    assert_eq!(received.reply, None);
    let mut events = received.events;
    assert_eq!(events.len(), 1, "{events:?}");
    events.remove(0)
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

#[test]
fn a_result_is_decoded_as_the_type_its_request_named() {
    let mut peer = mcp();
    let (id, frame) = peer.request::<Sum>(&vec![1, 2], None).unwrap();
    assert_eq!(
        text(&frame),
        r#"{"jsonrpc":"2.0","id":1,"method":"sum","params":[1,2]}"#
    );
    let Event::Response {
        id: answered,
        method,
        outcome,
    } = only(peer.receive(br#"{"jsonrpc":"2.0","id":1,"result":{"total":3}}"#))
    else {
        panic!("a response")
    };
    assert_eq!((answered, &*method), (id, "sum"));
    assert_eq!(
        outcome.unwrap().downcast::<Total>().unwrap(),
        Total { total: 3 }
    );
    assert_eq!(peer.pending(), 0);
}

#[test]
fn a_result_of_the_wrong_shape_names_the_pointer() {
    let mut peer = mcp();
    peer.request::<Sum>(&vec![], None).unwrap();
    let event = only(peer.receive(br#"{"jsonrpc":"2.0","id":1,"result":{"total":"x"}}"#));
    let Event::InvalidResult { id, method, error } = event else {
        panic!("{event:?}")
    };
    assert_eq!((id.get(), &*method, &*error.pointer), (1, "sum", "/total"));
    assert!(error.reason.contains("expected i64"), "{}", error.reason);
    assert_eq!(peer.pending(), 0);
}

#[test]
fn an_error_response_and_a_malformed_one_end_the_pending_request() {
    let mut peer = mcp();
    peer.request::<Sum>(&vec![], None).unwrap();
    peer.request::<Sum>(&vec![], None).unwrap();
    let event = only(peer.receive(
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"no","data":{"k":1}}}"#,
    ));
    let Event::Response {
        outcome: Err(error),
        ..
    } = event
    else {
        panic!("{event:?}")
    };
    assert_eq!((error.code(), error.message()), (-32000, "no"));
    assert_eq!(error.data().unwrap().get(), r#"{"k":1}"#);
    let event = only(peer.receive(br#"{"jsonrpc":"2.0","id":2,"error":{"code":"x"}}"#));
    assert!(
        matches!(event, Event::MalformedResponse { id, defect: ResponseDefect::ErrorObject, .. } if id.get() == 2),
        "{event:?}"
    );
    assert_eq!(peer.pending(), 0);
}

#[test]
fn responses_to_ids_never_sent_are_unmatched() {
    let mut peer = mcp();
    peer.request::<Sum>(&vec![], None).unwrap();
    for frame in [
        &br#"{"jsonrpc":"2.0","id":2,"result":{}}"#[..],
        br#"{"jsonrpc":"2.0","id":"1","result":{}}"#,
        br#"{"jsonrpc":"2.0","id":1.0,"result":{}}"#,
        br#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#,
    ] {
        let event = only(peer.receive(frame));
        assert!(matches!(event, Event::UnmatchedResponse(_)), "{event:?}");
    }
    assert_eq!(peer.pending(), 1);
}

#[test]
fn cancelling_sends_the_notification_and_a_late_response_is_reported_as_late() {
    let mut peer = mcp();
    let (id, _) = peer.request::<Sum>(&vec![], None).unwrap();
    let line = peer.cancel(id, Some("user")).unwrap();
    assert_eq!(
        text(&line),
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}"#
    );
    assert_eq!(peer.cancel(id, None), None, "already forgotten");
    let event = only(peer.receive(br#"{"jsonrpc":"2.0","id":1,"result":{"total":1}}"#));
    assert!(
        matches!(event, Event::LateResponse { id: late, .. } if late == id),
        "{event:?}"
    );
    // Ids are never reused.
    let (next, _) = peer.request::<Sum>(&vec![], None).unwrap();
    assert_eq!(next.get(), 2);
}

#[test]
fn plain_json_rpc_has_no_cancellation_notification() {
    let mut peer = Peer::new(Profile::jsonrpc_2_0());
    let (id, _) = peer.request::<Sum>(&vec![], None).unwrap();
    assert_eq!(peer.cancel(id, None), None);
    assert_eq!(peer.pending(), 0);
    let event = only(peer.receive(
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
    ));
    assert!(matches!(event, Event::Notification { .. }), "{event:?}");
}

#[test]
fn the_pending_table_is_bounded() {
    let mut peer = mcp().with_max_pending(2);
    peer.request::<Sum>(&vec![], None).unwrap();
    peer.request::<Sum>(&vec![], None).unwrap();
    assert_eq!(
        peer.request::<Sum>(&vec![], None).unwrap_err(),
        SendError::TooManyPending { max: 2 }
    );
    assert_eq!(peer.pending(), 2);
    peer.receive(br#"{"jsonrpc":"2.0","id":1,"result":{"total":0}}"#);
    let (id, _) = peer.request::<Sum>(&vec![], None).unwrap();
    assert_eq!(id.get(), 3, "the refused request took no id");
}

#[test]
fn deadlines_expire_by_the_callers_clock() {
    let mut peer = mcp();
    let t0 = Instant::now();
    let (early, _) = peer
        .request::<Sum>(&vec![], Some(t0 + Duration::from_secs(1)))
        .unwrap();
    let (late, _) = peer
        .request::<Sum>(&vec![], Some(t0 + Duration::from_secs(3)))
        .unwrap();
    peer.request::<Sum>(&vec![], None).unwrap();
    assert_eq!(peer.next_deadline(), Some(t0 + Duration::from_secs(1)));
    assert!(peer.handle_timeout(t0).is_empty());
    let expired = peer.handle_timeout(t0 + Duration::from_secs(2));
    assert_eq!(expired.len(), 1);
    assert_eq!((expired[0].id, &*expired[0].method), (early, "sum"));
    assert_eq!(
        text(expired[0].cancel.as_deref().unwrap()),
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"timed out"}}"#
    );
    assert_eq!(peer.next_deadline(), Some(t0 + Duration::from_secs(3)));
    let event = only(peer.receive(br#"{"jsonrpc":"2.0","id":1,"result":{"total":0}}"#));
    assert!(matches!(event, Event::LateResponse { .. }), "{event:?}");
    assert_eq!(peer.handle_timeout(t0 + Duration::from_secs(9))[0].id, late);
    assert_eq!(peer.pending(), 1);
}

#[test]
fn an_incoming_cancellation_suppresses_the_reply() {
    let mut peer = mcp();
    let Event::Request { call, .. } =
        only(peer.receive(br#"{"jsonrpc":"2.0","id":"a","method":"tools/call"}"#))
    else {
        panic!()
    };
    let event = only(peer.receive(
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a","reason":"bored"}}"#,
    ));
    let Event::Cancelled { call: key, reason } = event else {
        panic!("{event:?}")
    };
    assert_eq!((key, reason.as_deref()), (call.key(), Some("bored")));
    assert!(peer.is_cancelled(key));
    assert_eq!(peer.reply(call, Ok("{}")), None);
    assert_eq!(peer.in_flight(), 0);
    // Once answered, the id names nothing in flight: the notification is passed on.
    let event = only(peer.receive(
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}"#,
    ));
    assert!(matches!(event, Event::Notification { .. }), "{event:?}");
}

#[test]
fn initialize_cannot_be_cancelled() {
    let mut peer = mcp();
    let Event::Request { call, .. } =
        only(peer.receive(br#"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#))
    else {
        panic!()
    };
    let event = only(peer.receive(
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}"#,
    ));
    assert!(matches!(event, Event::Notification { .. }), "{event:?}");
    assert_eq!(
        text(&peer.reply(call, Ok("{}")).unwrap()),
        r#"{"jsonrpc":"2.0","id":0,"result":{}}"#
    );
}

#[test]
fn a_cancellation_with_bad_params_is_an_invalid_notification() {
    let mut peer = mcp();
    for (frame, pointer) in [
        (&br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#[..], "/requestId"),
        (br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":[1]}}"#, "/requestId"),
        (br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":2}}"#, "/reason"),
    ] {
        let event = only(peer.receive(frame));
        let Event::InvalidNotification { method, error } = event else {
            panic!("{event:?}")
        };
        assert_eq!((&*method, error.code()), ("notifications/cancelled", -32602));
        let data: serde_json::Value = serde_json::from_str(error.data().unwrap().get()).unwrap();
        assert_eq!(data["pointer"], pointer, "{}", text(frame));
    }
}

#[test]
fn a_batch_is_answered_once_in_input_order_when_its_last_request_is() {
    let mut peer = Peer::new(Profile::jsonrpc_2_0());
    let received = peer.receive(
        br#"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"1.0","id":2,"method":"b"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":3,"method":"c"}]"#,
    );
    assert_eq!(received.reply, None);
    let mut calls: Vec<Call> = received
        .events
        .into_iter()
        .filter_map(|e| match e {
            Event::Request { call, .. } => Some(call),
            _ => None,
        })
        .collect();
    let third = calls.pop().unwrap();
    let first = calls.pop().unwrap();
    assert_eq!(peer.reply(third, Ok("3")), None);
    assert_eq!(
        text(
            &peer
                .reply(first, Err(&RpcError::method_not_found()))
                .unwrap()
        ),
        r#"[{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}},{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request"}},{"jsonrpc":"2.0","id":3,"result":3}]"#
    );
}

#[test]
fn a_batch_without_requests_is_answered_while_reading() {
    let mut peer = Peer::new(Profile::jsonrpc_2_0());
    let received = peer.receive(br#"[1,{"jsonrpc":"2.0","method":"n"}]"#);
    assert_eq!(
        text(&received.reply.unwrap()),
        r#"[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}]"#
    );
    assert_eq!(
        peer.receive(br#"[{"jsonrpc":"2.0","method":"n"}]"#).reply,
        None
    );
}

#[test]
fn a_rejected_frame_is_answered_at_once() {
    let mut peer = mcp();
    let received = peer.receive(b"{");
    assert!(received.events.is_empty());
    assert_eq!(
        text(&received.reply.unwrap()),
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#
    );
}

#[test]
fn notifications_and_raw_requests_are_exact_lines() {
    let mut peer = mcp();
    let line = peer
        .notify::<Progress>(&ProgressParams {
            progress_token: RawValue::from_string("\"t\"".into()).unwrap(),
            progress: 0.5,
            total: None,
            message: Some("half".into()),
        })
        .unwrap();
    assert_eq!(
        text(&line),
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":0.5,"message":"half"}}"#
    );
    let (_, line) = peer
        .request_raw("x/y", &serde_json::json!({"a": 1}), None)
        .unwrap();
    assert_eq!(
        text(&line),
        r#"{"jsonrpc":"2.0","id":1,"method":"x/y","params":{"a":1}}"#
    );
    let event = only(peer.receive(br#"{"jsonrpc":"2.0","id":1,"result":[ 1 ]}"#));
    let Event::Response { outcome, .. } = event else {
        panic!()
    };
    assert_eq!(
        outcome.unwrap().downcast::<Box<RawValue>>().unwrap().get(),
        "[ 1 ]"
    );
}

#[test]
fn a_cancellation_reaches_every_request_in_flight_with_that_id() {
    let mut peer = mcp();
    let mut calls = Vec::new();
    for _ in 0..2 {
        let Event::Request { call, .. } =
            only(peer.receive(br#"{"jsonrpc":"2.0","id":9,"method":"slow"}"#))
        else {
            panic!()
        };
        calls.push(call);
    }
    let received = peer.receive(
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}"#,
    );
    let keys: Vec<CallKey> = received
        .events
        .iter()
        .map(|e| match e {
            Event::Cancelled { call, .. } => *call,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(keys, [calls[0].key(), calls[1].key()]);
    for call in calls {
        assert_eq!(peer.reply(call, Ok("1")), None);
    }
}

#[test]
fn the_common_response_to_a_pending_request_takes_the_single_pass() {
    let mut peer = mcp();
    peer.request::<Sum>(&vec![1, 2], None).unwrap();
    peer.request::<Sum>(&vec![3], None).unwrap();
    // Every doubt leaves the frame and the pending table to the two-pass path.
    for doubtful in [
        &br#"{"jsonrpc":"2.0","id":1,"result":{"total":"3"}}"#[..],
        br#"{"jsonrpc":"2.0","id":1,"result":{"total":3},"x":1}"#,
        br#"{"jsonrpc":"2.0","id":1,"result":{"total":3}} x"#,
        br#"{"jsonrpc":"2.0","id":7,"result":{"total":3}}"#,
        br#"{"jsonrpc":"2.0","id":01,"result":{"total":3}}"#,
        br#"{"id":1,"jsonrpc":"2.0","result":{"total":3}}"#,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"total\":3,\"\xFF\":0}}",
    ] {
        assert!(
            peer.receive_single_pass(doubtful, None).is_none(),
            "{}",
            String::from_utf8_lossy(doubtful)
        );
        assert_eq!(peer.pending(), 2);
    }
    let small = peer.profile().clone().with_max_frame_bytes(20);
    let mut limited = Peer::new(small);
    limited.request::<Sum>(&vec![1], None).unwrap();
    assert!(
        limited
            .receive_single_pass(br#"{"jsonrpc":"2.0","id":1,"result":{"total":3}}"#, None)
            .is_none()
    );
    let frame = b"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"total\":3}\n}\r\n";
    let event = peer.receive_single_pass(frame, None);
    assert_total_of_2(event, "the common spelling is decoded in one pass");
    assert_eq!(peer.pending(), 1);
}

/// `event` is the response to request 2, of total 3; `why` otherwise.
fn assert_total_of_2(event: Option<Event<'_>>, why: &str) {
    let Some(Event::Response { id, outcome, .. }) = event else {
        panic!("{why}")
    };
    assert_eq!(id.get(), 2);
    assert_eq!(
        outcome.unwrap().downcast::<Total>().unwrap(),
        Total { total: 3 }
    );
}

/// With the transport's split of the frame, the single-pass path takes the split's text (its
/// UTF-8 checked once, by the split's read) and answers as without it; a frame the split
/// found not UTF-8 is left to the split's decode.
#[cfg(feature = "http")]
#[test]
fn the_single_pass_takes_the_text_of_the_frames_split() {
    use crate::split::FrameSplit;
    use hyper::body::Bytes;
    let mut peer = mcp();
    peer.request::<Sum>(&vec![1, 2], None).unwrap();
    peer.request::<Sum>(&vec![3], None).unwrap();
    let broken = Bytes::from_static(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"\xFF\":3}}");
    let (split, _) = FrameSplit::read(&broken, None);
    assert!(peer.receive_single_pass(&broken, Some(&split)).is_none());
    assert_eq!(peer.pending(), 2);
    let frame = Bytes::from_static(br#"{"jsonrpc":"2.0","id":2,"result":{"total":3}}"#);
    let (split, _) = FrameSplit::read(&frame, None);
    let event = peer.receive_single_pass(&frame, Some(&split));
    assert_total_of_2(event, "decoded in one pass, from the split's text");
    assert_eq!(peer.pending(), 1);
}

/// A reply a handler wrote for its request is sent as written (its buffer becomes the line);
/// one written for another id is not trusted: its result is copied into a reply to the
/// request's own id. `initialize`'s agreed version is read from a written result too.
#[test]
fn a_written_reply_is_closed_and_sent_for_its_own_request_only() {
    use crate::answer::{Answer, ResultReply};
    let mut peer = mcp();
    let Event::Request { call, .. } =
        only(peer.receive(br#"{"jsonrpc":"2.0","id":"a\u0062","method":"ping"}"#))
    else {
        panic!()
    };
    let written = ResultReply::write(&call.id().as_id(), &["x", "y"]).unwrap();
    let start = written.result().as_ptr();
    let frame = peer
        .reply_answer(call, Ok(Answer::Written(written)))
        .unwrap();
    assert_eq!(
        text(&frame),
        r#"{"jsonrpc":"2.0","id":"a\u0062","result":["x","y"]}"#
    );
    let result_at = text(&frame).find('[').unwrap();
    assert_eq!(
        frame[result_at..].as_ptr(),
        start,
        "the written buffer itself is sent"
    );
    assert!(frame.facts().is_result());

    let Event::Request { call, .. } =
        only(peer.receive(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#))
    else {
        panic!()
    };
    let other = ResultReply::write(&Id::parse("8").unwrap(), &1).unwrap();
    let frame = peer.reply_answer(call, Ok(Answer::Written(other))).unwrap();
    assert_eq!(text(&frame), r#"{"jsonrpc":"2.0","id":7,"result":1}"#);

    let Event::Request { call, .. } =
        only(peer.receive(br#"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#))
    else {
        panic!()
    };
    let agreed = serde_json::json!({ "protocolVersion": "2025-11-25" });
    let written = ResultReply::write(&call.id().as_id(), &agreed).unwrap();
    let frame = peer
        .reply_answer(call, Ok(Answer::Written(written)))
        .unwrap();
    assert_eq!(frame.facts().agreed_version.as_deref(), Some("2025-11-25"));
}
