//! One frame's envelope, kept after its one scan so that nobody scans the frame again.
//!
//! The HTTP transport reads a POST body before any session sees it (to check the routing
//! headers and answer refusals with the request's id), and the session's
//! [`Peer`](crate::peer::Peer) then classifies it under the session's profile. The scan and
//! the envelope (where each JSON-RPC member lies, how deep the params are, whether a string
//! has escapes) do not depend on any profile: only [`classify`] does. A [`FrameSplit`] is that
//! profile-free part of a frame that is exactly one object, as offsets (it owns nothing of the
//! frame, so it travels to the session's task beside the frame's bytes), and
//! [`FrameSplit::decode`] is [`decode`] under any profile without scanning the JSON again.
//!
//! Only a frame that is one well-formed object is split; a batch, a frame that is not JSON,
//! or any other top level is decoded in full by whoever reads it.

use crate::decode::{BOM, Decoded, classify, decode};
use crate::envelope::{self, Envelope, Field, RawMember};
use crate::profile::Profile;
use crate::scan;

/// Where one envelope member lies in the frame's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Span {
    Absent,
    Once {
        start: usize,
        end: usize,
        depth: u32,
        has_escapes: bool,
    },
    Duplicated,
}

impl Span {
    fn of(field: &Field<'_>, text: &str) -> Span {
        match field {
            Field::Absent => Span::Absent,
            Field::Duplicated => Span::Duplicated,
            Field::Once(member) => {
                // A member's text is a slice of `text`: its offset is the pointers' distance.
                let start = member.text.as_ptr() as usize - text.as_ptr() as usize;
                Span::Once {
                    start,
                    end: start + member.text.len(),
                    depth: member.depth,
                    has_escapes: member.has_escapes,
                }
            }
        }
    }

    fn field<'a>(self, text: &'a str) -> Option<Field<'a>> {
        Some(match self {
            Span::Absent => Field::Absent,
            Span::Duplicated => Field::Duplicated,
            Span::Once {
                start,
                end,
                depth,
                has_escapes,
            } => Field::Once(RawMember {
                text: text.get(start..end)?,
                depth,
                has_escapes,
            }),
        })
    }
}

/// A frame that is exactly one JSON object, scanned: its envelope as offsets into the frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FrameSplit {
    /// The frame's length, so that a split is never applied to another frame's bytes.
    len: usize,
    /// Bytes of byte order mark before the text.
    skipped: usize,
    /// `jsonrpc`, `id`, `method`, `params`, `result`, `error`.
    members: [Span; 6],
}

impl FrameSplit {
    /// Scans `frame` once: its split and envelope when it is exactly one well-formed object
    /// (after an optional byte order mark, with JSON whitespace around), `None` otherwise.
    pub(crate) fn read(frame: &[u8]) -> Option<(FrameSplit, Envelope<'_>)> {
        trace_scan(frame.len());
        let (skipped, body) = match frame.strip_prefix(BOM) {
            Some(rest) => (BOM.len(), rest),
            None => (0, frame),
        };
        let text = scan::utf8(body).ok()?;
        let start = scan::skip_whitespace(text.as_bytes(), 0);
        if text.as_bytes().get(start) != Some(&b'{') {
            return None;
        }
        let mut envelope = Envelope::default();
        let end = envelope::read_object_into(text, start, &mut envelope).ok()?;
        if scan::skip_whitespace(text.as_bytes(), end) != text.len() {
            return None;
        }
        let e = &envelope;
        let split = FrameSplit {
            len: frame.len(),
            skipped,
            members: [&e.jsonrpc, &e.id, &e.method, &e.params, &e.result, &e.error]
                .map(|field| Span::of(field, text)),
        };
        Some((split, envelope))
    }

    /// The envelope of `frame`, this split's frame, without scanning its JSON (its UTF-8 is
    /// checked again: the text is borrowed from the bytes). `None` when `frame` cannot be the
    /// frame this split was read from.
    fn envelope<'a>(&self, frame: &'a [u8]) -> Option<Envelope<'a>> {
        if frame.len() != self.len {
            return None;
        }
        let text = scan::utf8(frame.get(self.skipped..)?).ok()?;
        let [jsonrpc, id, method, params, result, error] = self.members.map(|s| s.field(text));
        Some(Envelope {
            jsonrpc: jsonrpc?,
            id: id?,
            method: method?,
            params: params?,
            result: result?,
            error: error?,
        })
    }

    /// [`decode`]`(frame, profile)`, the frame's envelope taken from this split: the same
    /// result, with only [`classify`] run under `profile` (the frame's size limit included).
    pub(crate) fn decode<'a>(&self, frame: &'a [u8], profile: &Profile) -> Decoded<'a> {
        if frame.len() <= profile.limits().max_frame_bytes
            && let Some(envelope) = self.envelope(frame)
        {
            return Decoded::Single(classify(&envelope, profile));
        }
        decode(frame, profile)
    }
}

/// Records one scan of a frame's JSON as a `trace` event (target `mcpwire::scan`, with the
/// frame's length), so that a trace shows how often each frame's bytes are read.
#[inline]
pub(crate) fn trace_scan(len: usize) {
    #[cfg(feature = "tokio")]
    tracing::trace!(target: "mcpwire::scan", len, "frame scanned");
    #[cfg(not(feature = "tokio"))]
    let _ = len;
}

/// Decodes `frame` under `profile`, from `split` when there is one.
pub(crate) fn decode_with<'a>(
    frame: &'a [u8],
    split: Option<&FrameSplit>,
    profile: &Profile,
) -> Decoded<'a> {
    match split {
        Some(split) => split.decode(frame, profile),
        None => decode(frame, profile),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{mutate, xorshift};

    /// Over generated frames and every profile, a split decodes to exactly what the full
    /// decode gives, and only single objects are split.
    #[test]
    fn a_split_decodes_as_the_frame_does() {
        let seeds: [&[u8]; 5] = [
            br#"{"jsonrpc":"2.0","id":"a\"b","method":"m","params":{"x":[1,{"y":null}]}}"#,
            br#" {"jsonrpc":"2.0","id":1e3,"method":"tools/call","params":{"name":"t"}} "#,
            br#"{"jsonrpc":"2.0","id":-0,"error":{"code":-32600,"message":"m","data":[1]}}"#,
            b"\xEF\xBB\xBF{\"\\u0069d\":7,\"jsonrpc\":\"2.0\",\"method\":\"rpc.x\"}",
            br#"[{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","method":"n"}]"#,
        ];
        let alphabet = b"{}[],:\"\\ -.019eidmethodjsonrpcresultparamserror\xff\xc3\xa9";
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let profiles = Profile::all();
        let mut split_count = 0;
        for round in 0..20_000 {
            let mut frame = seeds[round % seeds.len()].to_vec();
            if round >= seeds.len() {
                mutate(&mut frame, alphabet, 3, &mut next);
            }
            let profile = &profiles[round % profiles.len()];
            let full = decode(&frame, profile);
            let Some((split, _)) = FrameSplit::read(&frame) else {
                assert!(
                    !matches!(full, Decoded::Single(_)),
                    "a single message not split: {}",
                    String::from_utf8_lossy(&frame)
                );
                continue;
            };
            split_count += 1;
            assert_eq!(split.decode(&frame, profile), full, "{profile:?}");
        }
        assert!(split_count > 2_000, "{split_count} frames split");
    }

    /// The decode from a split reads the envelope where the scan found it, never the JSON
    /// again: a frame of the same length whose closing brace is gone still decodes as the
    /// split says (which the full decode refuses), so no second scan ran.
    #[test]
    fn a_split_is_not_scanned_again() {
        let frame = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        let (split, _) = FrameSplit::read(frame).unwrap();
        let mut broken = frame.to_vec();
        *broken.last_mut().unwrap() = b' ';
        let profile = Profile::latest_mcp();
        assert!(matches!(decode(&broken, &profile), Decoded::Rejected(_)));
        let Decoded::Single(crate::decode::Message::Request { id, method, .. }) =
            split.decode(&broken, &profile)
        else {
            panic!("decoded from the split");
        };
        assert_eq!((id.raw(), &*method), ("1", "ping"));
        // Another length is another frame: decoded in full.
        assert!(matches!(
            split.decode(&broken[1..], &profile),
            Decoded::Rejected(_)
        ));
    }
}
