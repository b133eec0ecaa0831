//! One frame's scan, kept so that nobody reads the frame again.
//!
//! The HTTP transport reads a POST body before any session sees it (to check the routing
//! headers and the era, and answer refusals with the request's id), and the session's
//! [`Peer`](crate::peer::Peer) then classifies it under the session's profile. The UTF-8
//! check, the scan and the envelope (where each JSON-RPC member lies, how deep the params
//! are, whether a string has escapes) do not depend on any profile: only [`classify`] does.
//! A [`FrameSplit`] is that profile-free part of a frame: its text (the frame's own bytes,
//! shared, with the proof that they are UTF-8), where each member lies as offsets (a batch's,
//! element by element), and where the params' `name`, `uri`, `taskId` and `_meta` protocol
//! version lie (`routed.rs`); of a frame that is not UTF-8 or not JSON, the error.
//! [`FrameSplit::decode`] is [`decode`] under any profile with neither the UTF-8 check nor the
//! scan run again. A broken batch is no exception: a profile without batches reads a text
//! opening with `[` as one value, and a scan of one value fails where a batch's scan fails,
//! with the same error (`a_broken_batch_fails_alike_as_a_batch_and_as_one_value`), so the
//! split's error is that profile's too. [`utf8_with`] gives the peer's single-pass path the
//! split's text, its UTF-8 not checked again.

use crate::decode::Decoded;
#[cfg(feature = "http")]
use crate::{
    decode::{
        BOM, BatchElement, JsonType, Rejection, batch_decoded, classify, decode, expect_end,
        scan_batch,
    },
    envelope::{self, Envelope, Field, RawMember},
    profile::Profile,
    routed::Routed,
    scan::{self, ScanError, ScanErrorKind},
};

/// Where one member lies in the frame's text.
#[cfg(feature = "http")]
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

#[cfg(feature = "http")]
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

    fn of_member(member: Option<RawMember<'_>>, text: &str) -> Span {
        Span::of(&member.map_or(Field::Absent, Field::Once), text)
    }

    /// The member again, from `text` (the text it was read from).
    fn field(self, text: &str) -> Field<'_> {
        match self {
            Span::Absent => Field::Absent,
            Span::Duplicated => Field::Duplicated,
            Span::Once {
                start,
                end,
                depth,
                has_escapes,
            } => Field::Once(RawMember {
                text: &text[start..end],
                depth,
                has_escapes,
            }),
        }
    }
}

/// `jsonrpc`, `id`, `method`, `params`, `result`, `error` of one object.
#[cfg(feature = "http")]
type Members = [Span; 6];

#[cfg(feature = "http")]
fn members(envelope: &Envelope<'_>, text: &str) -> Members {
    let e = envelope;
    [&e.jsonrpc, &e.id, &e.method, &e.params, &e.result, &e.error].map(|f| Span::of(f, text))
}

#[cfg(feature = "http")]
fn envelope_of<'a>(members: &Members, text: &'a str) -> Envelope<'a> {
    let [jsonrpc, id, method, params, result, error] = members.map(|s| s.field(text));
    Envelope {
        jsonrpc,
        id,
        method,
        params,
        result,
        error,
    }
}

/// One batch element, scanned.
#[cfg(feature = "http")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Element {
    Object(Members),
    Other(JsonType),
}

/// What the frame's JSON is.
#[cfg(feature = "http")]
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shape {
    /// One object: its members.
    Object(Members),
    /// A batch of `len` elements, the first `elements.len()` of them kept.
    Batch { len: usize, elements: Vec<Element> },
    /// Any other JSON value.
    Other,
    /// Not UTF-8 or not JSON: the error a decode under any profile finds (one without
    /// batches reads a text opening with `[` as one value, which fails with the same error).
    Rejected(ScanError),
}

/// Where the params' `name`, `uri`, `taskId` and `_meta`'s protocol version lie in a split's
/// text (`routed.rs`): the transport's, kept out of the split the session receives.
#[cfg(feature = "http")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RoutedSpans([Span; 4]);

#[cfg(feature = "http")]
impl Default for RoutedSpans {
    fn default() -> Self {
        RoutedSpans([Span::Absent; 4])
    }
}

/// A frame, scanned: its text, its UTF-8 checked, and its envelope (or its batch's envelopes)
/// as offsets into it, or why it is no JSON.
#[cfg(feature = "http")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FrameSplit {
    /// Where the frame lies and its length: a split is applied to its own frame only.
    at: usize,
    len: usize,
    /// The frame after its byte order mark: the frame's bytes, shared, not copied (empty
    /// when they are not UTF-8).
    text: bytestring::ByteString,
    shape: Shape,
}

#[cfg(feature = "http")]
impl FrameSplit {
    /// Checks `frame`'s UTF-8 and scans it, once (after an optional byte order mark, JSON
    /// whitespace around): its split, and where the params' routed members lie. Of a batch,
    /// the first `keep` elements are kept (all with `None`).
    pub(crate) fn read(
        frame: &hyper::body::Bytes,
        keep: Option<usize>,
    ) -> (FrameSplit, RoutedSpans) {
        trace_read(Read::Scan, frame.len());
        let skipped = if frame.starts_with(BOM) { BOM.len() } else { 0 };
        trace_read(Read::Utf8, frame.len() - skipped);
        let (text, (shape, routed)) = match bytestring::ByteString::try_from(frame.slice(skipped..))
        {
            Ok(text) => {
                let scanned = scan_shape(&text, keep).unwrap_or_else(|mut error| {
                    error.offset += skipped;
                    (Shape::Rejected(error), RoutedSpans::default())
                });
                (text, scanned)
            }
            Err(e) => {
                let error = ScanError {
                    kind: ScanErrorKind::InvalidUtf8,
                    offset: skipped + e.valid_up_to(),
                };
                (
                    bytestring::ByteString::new(),
                    (Shape::Rejected(error), RoutedSpans::default()),
                )
            }
        };
        let split = FrameSplit {
            at: frame.as_ptr() as usize,
            len: frame.len(),
            text,
            shape,
        };
        (split, routed)
    }

    /// Whether this split was read from `frame` (the same bytes, not a copy of them).
    fn is_of(&self, frame: &[u8]) -> bool {
        (frame.as_ptr() as usize, frame.len()) == (self.at, self.len)
    }

    /// The text of `frame`, this split's own, as [`read`](Self::read) proved it UTF-8;
    /// `None` when it is not UTF-8 or opens with a byte order mark (the text is what follows
    /// it).
    fn whole_text(&self) -> Option<&str> {
        (self.text.len() == self.len).then_some(&*self.text)
    }

    /// The params' members the routing headers repeat, where [`read`](Self::read) found them
    /// in this split's text.
    pub(crate) fn routed(&self, spans: &RoutedSpans) -> Routed<'_> {
        let [name, uri, task_id, version] = spans.0.map(|s| s.field(&self.text).once());
        Routed {
            targets: [name, uri, task_id],
            version,
        }
    }

    /// [`decode`]`(frame, profile)`, where `frame` is this split's frame, from this split:
    /// the same result, with only the profile's rules run (the frame's size limit included).
    /// A `frame` that is not this split's own bytes is decoded in full.
    pub(crate) fn decode<'a>(&'a self, frame: &'a [u8], profile: &Profile) -> Decoded<'a> {
        if !self.is_of(frame) {
            return decode(frame, profile);
        }
        let max = profile.limits().max_frame_bytes;
        if frame.len() > max {
            return Decoded::Rejected(Rejection::FrameTooLarge {
                len: frame.len(),
                max,
            });
        }
        self.decode_text(profile)
            .unwrap_or_else(|| decode(frame, profile))
    }

    /// The frame decoded under `profile` from this split, its size aside; `None` when the
    /// split did not keep enough of a batch.
    pub(crate) fn decode_text(&self, profile: &Profile) -> Option<Decoded<'_>> {
        let text = &self.text;
        Some(match &self.shape {
            Shape::Object(members) => {
                Decoded::Single(classify(&envelope_of(members, text), profile))
            }
            Shape::Other => Decoded::Rejected(Rejection::NotAnObject),
            Shape::Rejected(error) => Decoded::Rejected(Rejection::Parse(*error)),
            Shape::Batch { .. } if !profile.facts().batches => {
                Decoded::Rejected(Rejection::NotAnObject)
            }
            Shape::Batch { len, elements } => {
                let max = profile.limits().max_batch_len;
                if max.is_none_or(|max| *len <= max) && elements.len() < *len {
                    return None;
                }
                batch_decoded(*len, max, || {
                    let element = |element: &Element| match element {
                        Element::Object(members) => {
                            BatchElement::Object(envelope_of(members, text))
                        }
                        Element::Other(json_type) => BatchElement::Other(*json_type),
                    };
                    elements
                        .iter()
                        .map(|e| element(e).classify(profile))
                        .collect()
                })
            }
        })
    }
}

/// The shape of `text` (the frame's text after its byte order mark), scanned once: the same
/// scan as [`decode`]'s, with the params' routed members recorded.
#[cfg(feature = "http")]
fn scan_shape(text: &str, keep: Option<usize>) -> Result<(Shape, RoutedSpans), ScanError> {
    let bytes = text.as_bytes();
    let start = scan::skip_whitespace(bytes, 0);
    match bytes.get(start) {
        Some(b'{') => {
            let mut envelope = Envelope::default();
            let mut routed = Routed::default();
            let end = envelope::read_object_routed(text, start, &mut envelope, &mut routed)?;
            expect_end(text, end)?;
            let [name, uri, task_id] = routed.targets;
            let routed =
                [name, uri, task_id, routed.version].map(|member| Span::of_member(member, text));
            Ok((Shape::Object(members(&envelope, text)), RoutedSpans(routed)))
        }
        Some(b'[') => {
            let mut elements = Vec::new();
            let len = scan_batch(text, start, |position, element| {
                if keep.is_none_or(|keep| position <= keep) {
                    elements.push(match element {
                        BatchElement::Object(envelope) => Element::Object(members(&envelope, text)),
                        BatchElement::Other(json_type) => Element::Other(json_type),
                    });
                }
            })?;
            Ok((Shape::Batch { len, elements }, RoutedSpans::default()))
        }
        _ => {
            let info = scan::scan_value(bytes, start)?;
            expect_end(text, info.end)?;
            Ok((Shape::Other, RoutedSpans::default()))
        }
    }
}

/// Without the HTTP transport nothing splits a frame: no split exists.
#[cfg(not(feature = "http"))]
#[derive(Debug)]
pub(crate) enum FrameSplit {}

#[cfg(not(feature = "http"))]
impl FrameSplit {
    fn decode<'a>(&'a self, _: &'a [u8], _: &crate::profile::Profile) -> Decoded<'a> {
        match *self {}
    }

    fn is_of(&self, _: &[u8]) -> bool {
        match *self {}
    }

    fn whole_text(&self) -> Option<&str> {
        match *self {}
    }
}

/// What reads a frame's bytes, each recorded as a `trace` event with the length read, so that
/// a trace shows how often each frame's bytes are read.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Read {
    /// A scan of a frame's JSON (target `mcpwire::scan`).
    Scan,
    /// A UTF-8 check of a whole text (target `mcpwire::utf8`).
    Utf8,
    /// A decode of a message's params (target `mcpwire::params`).
    Params,
}

/// Records one `read` of `len` bytes (see [`Read`]).
#[inline]
pub(crate) fn trace_read(read: Read, len: usize) {
    #[cfg(feature = "tokio")]
    match read {
        Read::Scan => tracing::trace!(target: "mcpwire::scan", len, "frame scanned"),
        Read::Utf8 => tracing::trace!(target: "mcpwire::utf8", len, "text checked as UTF-8"),
        Read::Params => tracing::trace!(target: "mcpwire::params", len, "params decoded"),
    }
    #[cfg(not(feature = "tokio"))]
    let _ = (read, len);
}

/// `frame` as text, its UTF-8 checked once: by `split`'s read when `split` is `frame`'s own
/// (`None` when that read found it not UTF-8, or a byte order mark before it), else here.
pub(crate) fn utf8_with<'a>(frame: &'a [u8], split: Option<&'a FrameSplit>) -> Option<&'a str> {
    match split {
        Some(split) if split.is_of(frame) => split.whole_text(),
        _ => crate::scan::utf8(frame).ok(),
    }
}

/// Decodes `frame` under `profile`, from `split` when there is one.
pub(crate) fn decode_with<'a>(
    frame: &'a [u8],
    split: Option<&'a FrameSplit>,
    profile: &crate::profile::Profile,
) -> Decoded<'a> {
    match split {
        Some(split) => split.decode(frame, profile),
        None => crate::decode::decode(frame, profile),
    }
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::*;
    use crate::test_support::{mutate, xorshift};
    use hyper::body::Bytes;

    /// Over generated frames and every profile, a split decodes to exactly what the full
    /// decode gives (a batch's too, with or without a batch limit), and a frame that is not
    /// split is rejected as the full decode rejects it.
    #[test]
    fn a_split_decodes_as_the_frame_does() {
        let seeds: [&[u8]; 7] = [
            br#"{"jsonrpc":"2.0","id":"a\"b","method":"m","params":{"x":[1,{"y":null}]}}"#,
            br#" {"jsonrpc":"2.0","id":1e3,"method":"tools/call","params":{"name":"t","_meta":{}}} "#,
            br#"{"jsonrpc":"2.0","id":-0,"error":{"code":-32600,"message":"m","data":[1]}}"#,
            b"\xEF\xBB\xBF{\"\\u0069d\":7,\"jsonrpc\":\"2.0\",\"method\":\"rpc.x\"}",
            br#"[{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","method":"n"},3]"#,
            br#"[{"jsonrpc":"2.0","id":2,"result":{}},"x"]"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"m","params":[{"a":[]},"n",{}]}"#,
        ];
        let alphabet = b"{}[],:\"\\ -.019eidmethodjsonrpcresultparamserror\xff\xc3\xa9";
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let profiles = Profile::all();
        let plain = Profile::jsonrpc_2_0();
        let (mut objects, mut batches, mut rejected) = (0, 0, 0);
        for round in 0..20_000 {
            let mut frame = seeds[round % seeds.len()].to_vec();
            if round >= seeds.len() {
                mutate(&mut frame, alphabet, 3, &mut next);
            }
            let frame = Bytes::from(frame);
            let profile = &profiles[round % profiles.len()];
            let keep = (round % 3 == 0).then_some(1);
            let limited = profile.clone().with_max_batch_len(keep);
            let (split, _) = FrameSplit::read(&frame, keep);
            let shown = String::from_utf8_lossy(&frame);
            assert_eq!(
                split.decode(&frame, &limited),
                decode(&frame, &limited),
                "{shown}"
            );
            if let Some(decoded) = split.decode_text(&plain) {
                assert_eq!(decoded, decode(&frame, &plain), "{shown}");
            }
            match split.shape {
                Shape::Object(..) => objects += 1,
                Shape::Batch { .. } => batches += 1,
                Shape::Rejected(..) => rejected += 1,
                Shape::Other => {}
            }
        }
        assert!(
            objects > 2_000 && batches > 1_000 && rejected > 2_000,
            "{objects} objects, {batches} batches, {rejected} rejected"
        );
    }

    /// A broken batch (a text opening with `[` that is not JSON) fails alike read as a batch
    /// and read as one value: the same error kind at the same offset. So a profile without
    /// batches, which reads `[` as one value, rejects it with the error the split found (the
    /// reply, whose details name the error, is the same bytes), and the split decides it
    /// without a second read. Every prefix of a few batches, each with
    /// every byte replaced, deleted or doubled.
    #[test]
    fn a_broken_batch_fails_alike_as_a_batch_and_as_one_value() {
        let batches: [&[u8]; 3] = [
            br#"[{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1,"x\"y",{}]}},{"jsonrpc":"2.0","method":"n"},3,"s",[],{}]"#,
            b" [ { \"id\" : -1.5e3 , \"x\" : [ true , false , null ] } , 0 ] ",
            b"\xEF\xBB\xBF[{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}},{\"id\":3,\"error\":{\"code\":1}}]",
        ];
        let mut frames = Vec::new();
        for batch in batches {
            for end in 1..=batch.len() {
                frames.push(batch[..end].to_vec());
            }
            for at in 0..batch.len() {
                for byte in b"{}[],:\" x0-.e\\\xff" {
                    let mut frame = batch.to_vec();
                    frame[at] = *byte;
                    frames.push(frame);
                }
                let mut deleted = batch.to_vec();
                deleted.remove(at);
                frames.push(deleted);
                let mut doubled = batch.to_vec();
                doubled.insert(at, batch[at]);
                frames.push(doubled);
            }
        }
        let with_batches = Profile::jsonrpc_2_0().with_error_details(true);
        let without = Profile::latest_mcp().with_error_details(true);
        assert!(with_batches.facts().batches && !without.facts().batches);
        let mut broken = 0;
        for frame in frames {
            let shown = String::from_utf8_lossy(&frame).into_owned();
            let frame = Bytes::from(frame);
            let Decoded::Rejected(Rejection::Parse(error)) = decode(&frame, &with_batches) else {
                continue;
            };
            let opens_a_batch = frame
                .strip_prefix(BOM)
                .unwrap_or(&frame)
                .trim_ascii_start()
                .starts_with(b"[");
            if !opens_a_batch {
                continue;
            }
            broken += 1;
            let rejection = Rejection::Parse(error);
            assert_eq!(
                decode(&frame, &without),
                Decoded::Rejected(rejection),
                "{shown}"
            );
            let (split, _) = FrameSplit::read(&frame, None);
            for profile in [&with_batches, &without] {
                let decoded = split.decode(&frame, profile);
                assert_eq!(decoded, Decoded::Rejected(rejection), "{shown}");
                assert_eq!(
                    split.decode_text(profile),
                    Some(decoded),
                    "decided by the split: {shown}"
                );
            }
        }
        assert!(broken > 1_000, "{broken} broken batches");
    }

    /// A split is applied to its own frame only: the same text in other bytes is decoded in
    /// full, and so is a batch whose elements the split did not all keep.
    #[test]
    fn a_split_reads_its_own_frame_only() {
        let frame = Bytes::from_static(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#);
        let (split, _) = FrameSplit::read(&frame, Some(1));
        let profile = Profile::jsonrpc_2_0();
        assert_eq!(split.decode_text(&profile), None, "one element of two kept");
        let Decoded::Batch(messages) = split.decode(&frame, &profile) else {
            panic!("decoded in full");
        };
        assert_eq!(messages.len(), 2);
        let copy = frame.to_vec();
        let (split, _) = FrameSplit::read(&frame, None);
        assert_eq!(split.decode(&copy, &profile), decode(&copy, &profile));
        assert!(split.decode_text(&profile).is_some());
    }
}
