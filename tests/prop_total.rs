//! Issue 16, item 7: every public function of the runtime crate is total. Arbitrary bytes,
//! strings and offsets (including ones past the end and `usize::MAX`) go to each function
//! that takes input; none may panic (in this debug build, arithmetic overflow panics too).

use mcpwire::envelope::{self, Envelope, Field, RawMember};
use mcpwire::framing::FrameReader;
use mcpwire::{
    Id, IdPolicy, MissingId, OwnedId, Profile, RawParams, RpcError, decode, reply, scan,
};
use proptest::prelude::*;

/// Text made mostly of JSON's structural characters, so that near-valid input is common.
fn jsonish() -> impl Strategy<Value = String> {
    prop_oneof![
        "[\\[\\]{}\"\\\\/u0-9a-fA-FdDtrunle:,. +\\-\u{e9}\u{1F600}]{0,24}",
        any::<String>(),
        Just("1e.".to_owned()),
        Just("\"\\ud800".to_owned()),
        Just("\"".to_owned()),
        Just(String::new()),
    ]
}

fn offset() -> impl Strategy<Value = usize> {
    prop_oneof![0usize..40, Just(usize::MAX), Just(usize::MAX - 1)]
}

fn member(text: &str, depth: u32, has_escapes: bool) -> RawMember<'_> {
    RawMember {
        text,
        depth,
        has_escapes,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn scanner_functions_are_total(text in jsonish(), bytes in proptest::collection::vec(any::<u8>(), 0..24), pos in offset()) {
        for input in [text.as_bytes(), &bytes[..]] {
            let _ = scan::validate(input);
            let _ = scan::scan_value(input, pos);
            let _ = scan::scan_number(input, pos);
            let _ = scan::scan_string(input, pos);
            let _ = scan::skip_whitespace(input, pos);
        }
        let _ = scan::unescape(&text);
        let _ = scan::has_unpaired_surrogate(&text);
        if let Err(error) = scan::validate(text.as_bytes()) {
            let _ = error.kind.describe();
            let _ = error.to_string();
        }
    }

    #[test]
    fn id_and_member_functions_are_total(text in jsonish(), depth in any::<u32>(), escapes in any::<bool>()) {
        let _ = mcpwire::id::number_is_integer(&text);
        if let Some(id) = Id::parse(&text) {
            let _ = id.as_string();
            let _ = IdPolicy { max_len: Some(3), allowed_chars: Some(|c| c.is_ascii()) }.allows(&id);
        }
        let _ = OwnedId::parse(&text);
        let _ = OwnedId::from_string(&text).as_id().as_string();
        let raw = member(&text, depth, escapes);
        let _ = (raw.first_byte(), raw.is_string(), raw.is_object(), raw.is_array(), raw.string_value());
        let _ = RawParams::parse(&text).map(|p| p.deserialize::<serde_json::Value>(8));
    }

    #[test]
    fn envelope_and_classify_are_total(text in jsonish(), other in jsonish(), pos in offset(), escapes in any::<bool>()) {
        let _ = envelope::read_object(&text, pos);
        let mut into = Envelope::default();
        let _ = envelope::read_object_into(&text, pos, &mut into);
        let _ = envelope::read_error_object(&text);
        // An envelope built by hand from arbitrary member texts.
        let field = |t| Field::Once(member(t, 1, escapes));
        let envelopes = [
            Envelope { jsonrpc: field(&other), id: field(&text), method: field(&other), params: field(&text), ..Envelope::default() },
            Envelope { jsonrpc: field("\"2.0\""), id: field(&text), error: field(&text), ..Envelope::default() },
            Envelope { jsonrpc: field("\"2.0\""), id: field(&other), result: field(&text), ..Envelope::default() },
            Envelope { id: field(&text), ..Envelope::default() },
        ];
        for profile in Profile::all() {
            for envelope in &envelopes {
                let message = mcpwire::decode::classify(envelope, &profile);
                let mut out = Vec::new();
                let _ = message.write_invalid_reply(&profile, &mut out);
                let _ = message.needs_reply();
            }
        }
    }

    #[test]
    fn decode_framing_and_replies_are_total(bytes in proptest::collection::vec(any::<u8>(), 0..48), text in jsonish(), max in 0usize..16) {
        for profile in Profile::all() {
            let profile = profile.with_error_details(true).with_max_batch_len(Some(2));
            let _ = decode(&bytes, &profile);
            let _ = decode(text.as_bytes(), &profile);
        }
        let mut frames = FrameReader::new(&bytes[..]);
        while let Ok(Some(_)) = frames.next_frame(max) {}
        let id = Id::parse("1").unwrap();
        let mut out = Vec::new();
        reply::write_success(&mut out, &id, &text);
        reply::write_error(&mut out, None, &RpcError::new(i64::MIN, text.clone()), MissingId::Omit);
    }
}
