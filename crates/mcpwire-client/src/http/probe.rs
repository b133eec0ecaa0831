//! The two things the transport must know about a frame without decoding it: whether a frame
//! the server sent answers a given request (so a stream that ends without the answer is
//! resumed, and a POST answered without it fails its call), and which request a
//! `notifications/cancelled` the client sends cancels (so the stream awaiting its answer is
//! closed).

use mcpwire::peer::OutgoingId;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;

/// The members of a message that say what it is.
#[derive(Deserialize)]
struct Probe<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(default)]
    method: Option<IgnoredAny>,
}

/// Whether `frame` (a message or a batch) holds a response whose id is `id`'s number.
pub(crate) fn answers(frame: &[u8], id: OutgoingId) -> bool {
    let is_answer = |probe: &Probe<'_>| {
        probe.method.is_none()
            && probe
                .id
                .is_some_and(|raw| raw.get() == id.get().to_string())
    };
    match frame.trim_ascii_start().first() {
        Some(b'{') => serde_json::from_slice::<Probe<'_>>(frame).is_ok_and(|p| is_answer(&p)),
        Some(b'[') => serde_json::from_slice::<Vec<Probe<'_>>>(frame)
            .is_ok_and(|batch| batch.iter().any(is_answer)),
        _ => false,
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CancelledParams {
    request_id: serde_json::Value,
}

#[derive(Deserialize)]
struct Cancelled {
    params: CancelledParams,
}

/// The request a `notifications/cancelled` frame of the client names, when it is one of
/// the client's numeric ids.
pub(crate) fn cancelled_request(frame: &[u8]) -> Option<u64> {
    serde_json::from_slice::<Cancelled>(frame)
        .ok()?
        .params
        .request_id
        .as_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_response_with_the_same_number_answers() {
        let id = mcpwire::peer::Peer::new(mcpwire::Profile::latest_mcp())
            .request::<mcpwire::peer::Ping>(&(), None)
            .expect("a request")
            .0;
        let n = id.get();
        let yes = format!(r#"{{"jsonrpc":"2.0","id":{n},"result":{{}}}}"#);
        assert!(answers(yes.as_bytes(), id));
        let batch = format!(r#"[{{"jsonrpc":"2.0","method":"x"}},{yes}]"#);
        assert!(answers(batch.as_bytes(), id));
        for no in [
            format!(r#"{{"jsonrpc":"2.0","id":"{n}","result":{{}}}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"ping"}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":{},"result":{{}}}}"#, n + 1),
            "not json".to_owned(),
        ] {
            assert!(!answers(no.as_bytes(), id), "{no}");
        }
        let cancel =
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}"#;
        assert_eq!(cancelled_request(cancel), Some(7));
        assert_eq!(cancelled_request(b"{}"), None);
    }
}
