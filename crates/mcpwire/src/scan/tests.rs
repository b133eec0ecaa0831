//! The scanner against the RFC, serde_json and byte-at-a-time references.

use super::string::*;
use super::unescape::*;
use super::words::*;
use super::*;

#[test]
fn unpaired_surrogates_are_told_from_pairs_and_other_escapes() {
    for lone in [
        r#""\ud800""#,
        r#""\uDBFF""#,
        r#""\udc00""#,
        r#""a\ud800\u0041""#,
        r#""\ude00\ud83d""#,
        r#""\ud83d\ude00\ud800""#,
        r#""\\\ud800""#,
    ] {
        assert!(has_unpaired_surrogate(lone), "{lone}");
    }
    for fine in [
        r#""\ud83d\ude00""#,
        r#""\\ud800""#,
        r#""\uFFFD\u0041""#,
        r#""plain""#,
        r#""\n\"\/""#,
        r#""\ud8"#,
        "",
    ] {
        assert!(!has_unpaired_surrogate(fine), "{fine}");
    }
}

#[test]
fn unescape_is_total_on_text_the_scanner_never_saw() {
    assert_eq!(unescape("\""), "\"", "a lone quote is not a quoted string");
    assert_eq!(unescape(""), "");
    assert_eq!(unescape(r#""\u12""#), "\u{FFFD}12");
    assert_eq!(unescape(r#""\u00é9""#), "\u{FFFD}00é9");
    assert_eq!(unescape(r#""\ud83d\ude""#), "\u{FFFD}\u{FFFD}de");
    assert_eq!(unescape(r#""\ud83d\ude00""#), "\u{1F600}");
    assert_eq!(unescape("no quotes"), "no quotes");
}
use crate::test_support::{mutate, xorshift};
use proptest::prelude::*;

fn kind(input: &str) -> ScanErrorKind {
    validate(input.as_bytes()).unwrap_err().kind
}

#[test]
fn accepts_every_json_type_and_reports_depth() {
    for (input, depth) in [
        ("0", 0),
        ("-0.5e+10", 0),
        ("\"a\\u00e9\\n\"", 0),
        ("true", 0),
        ("null", 0),
        ("{}", 1),
        ("[]", 1),
        (" [ 1 , { \"a\" : [ ] } ] ", 3),
        ("{\"a\":{\"b\":{\"c\":[[]]}}}", 5),
        ("\"ünïcødé ✓ 😀\"", 0),
    ] {
        let info = validate(input.as_bytes()).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(info.depth, depth, "{input}");
    }
}

#[test]
fn rejects_what_rfc_8259_rejects() {
    assert_eq!(kind("NaN"), ScanErrorKind::UnexpectedByte);
    assert_eq!(kind("Infinity"), ScanErrorKind::UnexpectedByte);
    assert_eq!(kind("-Infinity"), ScanErrorKind::UnexpectedByte);
    assert_eq!(kind("01"), ScanErrorKind::LeadingZero);
    assert_eq!(kind("-01"), ScanErrorKind::LeadingZero);
    assert_eq!(kind("1."), ScanErrorKind::BadNumber);
    assert_eq!(kind("1e"), ScanErrorKind::BadNumber);
    assert_eq!(kind(".5"), ScanErrorKind::UnexpectedByte);
    assert_eq!(kind("+1"), ScanErrorKind::UnexpectedByte);
    assert_eq!(kind("[1,]"), ScanErrorKind::UnexpectedByte);
    assert_eq!(kind("{\"a\":1,}"), ScanErrorKind::UnexpectedByte);
    assert_eq!(kind("{\"a\" 1}"), ScanErrorKind::UnexpectedByte);
    assert_eq!(kind("{1:1}"), ScanErrorKind::UnexpectedByte);
    assert_eq!(kind("[1 2]"), ScanErrorKind::UnexpectedByte);
    assert_eq!(kind("[1}"), ScanErrorKind::UnexpectedByte);
    assert_eq!(kind("\"a\tb\""), ScanErrorKind::ControlCharacter);
    assert_eq!(kind("\"\\x\""), ScanErrorKind::BadEscape);
    assert_eq!(kind("\"\\u12g4\""), ScanErrorKind::BadEscape);
    assert_eq!(kind("{} x"), ScanErrorKind::TrailingCharacters);
    assert_eq!(kind("1 2"), ScanErrorKind::TrailingCharacters);
    assert_eq!(kind(""), ScanErrorKind::UnexpectedEnd);
    assert_eq!(kind("[[[1]]"), ScanErrorKind::UnexpectedEnd);
    assert_eq!(kind("\"abc"), ScanErrorKind::UnexpectedEnd);
    assert_eq!(kind("tru"), ScanErrorKind::UnexpectedEnd);
    assert_eq!(kind("trux"), ScanErrorKind::UnexpectedByte);
    assert_eq!(
        validate(b"\"ab\xff\xfecd\"").unwrap_err(),
        ScanError {
            kind: ScanErrorKind::InvalidUtf8,
            offset: 3
        }
    );
    assert_eq!(kind("\u{feff}{}"), ScanErrorKind::UnexpectedByte);
}

#[test]
fn invalid_utf8_is_found_by_validate_anywhere() {
    let mut long = b"\"0123456789abcdef".to_vec();
    long.extend_from_slice(b"\xc3\x28");
    long.extend_from_slice(b"0123456789\"");
    assert_eq!(
        validate(&long).unwrap_err().kind,
        ScanErrorKind::InvalidUtf8
    );
    assert_eq!(
        validate(b"[\xc3\xa9]").unwrap_err().kind,
        ScanErrorKind::UnexpectedByte
    );
}

#[test]
fn specials_in_every_chunk_position_are_found() {
    for at in 0..20 {
        let mut s = String::from("\"");
        s.push_str(&"a".repeat(at));
        s.push('\u{1}');
        s.push_str("bbbbbbbbbbbb\"");
        assert_eq!(kind(&s), ScanErrorKind::ControlCharacter, "control at {at}");
        let mut ok = String::from("\"");
        ok.push_str(&"é".repeat(at));
        ok.push_str("\\\"x\"");
        let info = scan_string(ok.as_bytes(), 0).unwrap();
        assert_eq!(info.end, ok.len(), "escape at {at}");
        assert!(info.has_escapes);
    }
}

#[test]
fn every_error_kind_is_described_differently() {
    use ScanErrorKind::*;
    let kinds = [
        UnexpectedEnd,
        UnexpectedByte,
        LeadingZero,
        BadNumber,
        ControlCharacter,
        BadEscape,
        InvalidUtf8,
        TrailingCharacters,
    ];
    let texts: Vec<&str> = kinds.iter().map(|k| k.describe()).collect();
    for (i, text) in texts.iter().enumerate() {
        assert!(text.len() > 8, "{:?} says too little: {text:?}", kinds[i]);
        assert!(!texts[..i].contains(text), "{text:?} is said twice");
    }
    let error = ScanError {
        kind: BadEscape,
        offset: 17,
    };
    assert_eq!(
        error.to_string(),
        format!("{} at byte 17", BadEscape.describe())
    );
}

#[test]
fn errors_point_at_the_offending_byte() {
    for (input, kind, offset) in [
        ("trux", ScanErrorKind::UnexpectedByte, 3),
        ("[fals]", ScanErrorKind::UnexpectedByte, 5),
        ("nul", ScanErrorKind::UnexpectedEnd, 3),
        ("01", ScanErrorKind::LeadingZero, 0),
        ("-01", ScanErrorKind::LeadingZero, 1),
        ("[1,00]", ScanErrorKind::LeadingZero, 3),
        ("\"\\", ScanErrorKind::UnexpectedEnd, 2),
        ("\"ab\\u12", ScanErrorKind::UnexpectedEnd, 7),
        ("\"ab\\u1", ScanErrorKind::UnexpectedEnd, 6),
        ("\"ab\\u12x4\"", ScanErrorKind::BadEscape, 3),
        ("[1] 2", ScanErrorKind::TrailingCharacters, 4),
    ] {
        assert_eq!(
            validate(input.as_bytes()),
            Err(ScanError { kind, offset }),
            "{input}"
        );
    }
}

/// Plain text past the first 128 bytes goes to the blocks where they beat the words
/// (AVX2, AVX-512): a quote, an escape (valid, `\u`, malformed) or a control byte at
/// every offset around that hand-over and the block edges after it ends the string, or
/// fails it, as the byte-at-a-time reading does, with the same escape flag.
#[test]
fn plain_runs_end_and_fail_like_the_reference_at_every_offset() {
    let specials: [&[u8]; 6] = [b"\"", b"\\n", b"\\u00e9", b"\\x", b"\x01", b"\\"];
    for len in [100, 127, 128, 129, 191, 192, 193, 200, 256, 300] {
        for at in 0..len {
            // The string's end in the input's last partial block, or in a whole block.
            for after in [
                &b"\",1]"[..],
                b"\",[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22]]",
            ] {
                for special in specials {
                    let mut bytes = vec![b'"'];
                    bytes.extend(std::iter::repeat_n(b'a', len));
                    let replaced = 1 + at..1 + at + special.len().min(len - at);
                    bytes.splice(replaced, special.iter().copied());
                    bytes.extend_from_slice(after);
                    let ours = scan_string(&bytes, 0).map(|info| (info.end, info.has_escapes));
                    assert_eq!(
                        ours,
                        reference_scan_string(&bytes, 0),
                        "{len} bytes, {:?} at {at}, {} after",
                        String::from_utf8_lossy(special),
                        after.len()
                    );
                }
            }
        }
    }
}

#[test]
fn long_runs_find_the_first_special_byte_at_every_position() {
    for len in [
        0, 7, 8, 9, 15, 16, 17, 31, 32, 33, 39, 40, 41, 47, 48, 64, 100, 257,
    ] {
        for at in 0..=len {
            for special in [b'"', b'\\', 0x00, 0x1f] {
                let mut bytes = vec![b'a'; len];
                bytes.extend_from_slice(b"tail");
                if at < len {
                    bytes[at] = special;
                }
                // The word search against a byte-at-a-time search, for every start: the
                // word found starts at `from` plus a multiple of eight, and its lowest
                // flagged byte is the first special one.
                for from in [0, 1, 3, at.saturating_sub(9), at.saturating_sub(33)] {
                    let found = special_word(&bytes, from).map(|(word, special)| {
                        assert_eq!((word - from) % 8, 0, "word at {word}");
                        word + (special.trailing_zeros() / 8) as usize
                    });
                    let expected = bytes[from..]
                        .iter()
                        .position(|&b| matches!(b, b'"' | b'\\' | 0x00..=0x1f))
                        .map(|offset| from + offset);
                    assert_eq!(
                        found, expected,
                        "len {len}, special {special} at {at}, from {from}"
                    );
                }
            }
        }
    }
}

#[test]
fn irregular_deep_nesting_closes_each_level_with_its_own_bracket() {
    // Container kinds from a pseudo-random sequence, so no block of 64 levels repeats.
    let n = 3_000;
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let kinds: Vec<bool> = (0..n).map(|_| next() & 1 == 1).collect();
    let mut open = String::new();
    for &is_object in &kinds {
        open.push_str(if is_object { "{\"k\":" } else { "[" });
    }
    let closers: Vec<u8> = kinds
        .iter()
        .rev()
        .map(|&is_object| if is_object { b'}' } else { b']' })
        .collect();
    let mut doc = open.clone().into_bytes();
    doc.push(b'0');
    doc.extend_from_slice(&closers);
    assert_eq!(validate(&doc).unwrap().depth, n);
    for level in [0, 63, 64, 65, 127, 128, 1000, n - 1] {
        // Close `level` (counted from the innermost) with the other bracket.
        let at = open.len() + 1 + level;
        let mut wrong = doc.clone();
        wrong[at] = if wrong[at] == b'}' { b']' } else { b'}' };
        assert_eq!(
            validate(&wrong),
            Err(ScanError {
                kind: ScanErrorKind::UnexpectedByte,
                offset: at
            }),
            "level {level}"
        );
    }
}

#[test]
fn nesting_is_not_limited_by_the_call_stack() {
    let n = 100_000;
    let mut deep = "[".repeat(n);
    deep.push_str(&"]".repeat(n));
    assert_eq!(validate(deep.as_bytes()).unwrap().depth, n);
    let mut mixed = String::new();
    for _ in 0..n / 2 {
        mixed.push_str("{\"k\":[");
    }
    mixed.push('0');
    for _ in 0..n / 2 {
        mixed.push_str("]}");
    }
    assert_eq!(validate(mixed.as_bytes()).unwrap().depth, n);
    let unbalanced = &deep[..deep.len() - 1];
    assert_eq!(kind(unbalanced), ScanErrorKind::UnexpectedEnd);
}

#[test]
fn scan_value_stops_at_the_value_end() {
    let input = br#"{"a":[1,{"b":"}"}]} ,rest"#;
    let info = scan_value(input, 0).unwrap();
    assert_eq!(&input[info.end..], b" ,rest");
}

#[test]
fn a_high_surrogate_pairs_only_with_a_following_low_surrogate_escape() {
    assert_eq!(unescape(r#""\ud83d\ude00""#), "\u{1F600}");
    assert_eq!(unescape(r#""\ud83dxxde00""#), "\u{FFFD}xxde00");
    assert_eq!(unescape(r#""\ud83d\u0041""#), "\u{FFFD}A");
    assert_eq!(unescape(r#""\ud83d""#), "\u{FFFD}");
    assert_eq!(unescape(r#""\"\\\/""#), "\"\\/");
}

#[test]
fn unescape_handles_every_escape_and_surrogates() {
    assert_eq!(unescape(r#""\u0069d""#), "id");
    assert_eq!(
        unescape(r#""a\"\\\/\b\f\n\r\tz""#),
        "a\"\\/\u{8}\u{c}\n\r\tz"
    );
    assert_eq!(unescape(r#""\ud83d\ude00""#), "😀");
    assert_eq!(unescape(r#""\ud83dx""#), "\u{FFFD}x");
    assert_eq!(unescape(r#""\ude00""#), "\u{FFFD}");
    assert_eq!(unescape(r#""é\u00e9""#), "éé");
}

/// Differential check against serde_json (plus a UTF-8 check, which serde_json skips for
/// ignored strings): random mutations of valid documents must be accepted or rejected
/// alike.
#[test]
fn agrees_with_serde_json_on_mutated_documents() {
    let mut seeds: Vec<Vec<u8>> = <[&[u8]; 6]>::into_iter([
        br#"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"a":[1,-2.5e3,true,null],"b":"x\u00e9\n"}}"#,
        br#"[{"k":{}},[],[[0.0]],"\ud83d\ude00",-0,1E+2]"#,
        "{\"ünï\":\"cødé ✓\",\"n\":[false, 10 ,{\"\":\"\"}]}".as_bytes(),
        b" 123.456e-7 ",
        br#""a\"b\\c\/d\be\ff\ng\rh\ti""#,
        b"[1,[2,[3,[4,{\"x\":[5]}]]]]",
    ])
    .map(<[u8]>::to_vec)
    .collect();
    // Long strings, so that mutations land in the word-at-a-time loops: escapes, multibyte
    // characters and plain runs of every length around the step sizes.
    seeds.push(long_text_document(0x5EED, 600).into_bytes());
    seeds.push(long_text_document(0xC0FFEE, 2_000).into_bytes());
    let alphabet = b"{}[],:\"\\/ -+.0123456789eEtrufalsn\t\r\nxu\x01\x7f\xc3\xa9\xff";
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let mut accepted = 0;
    for round in 0..30_000 {
        let mut doc = seeds[round % seeds.len()].clone();
        mutate(&mut doc, alphabet, 2, &mut next);
        let ours = validate(&doc).is_ok();
        let oracle = std::str::from_utf8(&doc).is_ok()
            && serde_json::from_slice::<serde::de::IgnoredAny>(&doc).is_ok();
        assert_eq!(
            ours,
            oracle,
            "disagreement on {:?}",
            String::from_utf8_lossy(&doc)
        );
        accepted += usize::from(ours);
    }
    // Both outcomes are well represented.
    assert!((3_000..27_000).contains(&accepted), "{accepted} accepted");
}

/// A byte-at-a-time string scanner written straight from RFC 8259 §7: the oracle for
/// the word-at-a-time [`scan_string`]. Returns the end offset and whether there were
/// escapes.
fn reference_scan_string(bytes: &[u8], pos: usize) -> Result<(usize, bool), ScanError> {
    assert_eq!(bytes[pos], b'"');
    let mut i = pos + 1;
    let mut escapes = false;
    loop {
        match bytes.get(i) {
            None => return Err(err(ScanErrorKind::UnexpectedEnd, i)),
            Some(b'"') => return Ok((i + 1, escapes)),
            Some(b'\\') => {
                escapes = true;
                match bytes.get(i + 1) {
                    None => return Err(err(ScanErrorKind::UnexpectedEnd, i + 1)),
                    Some(b'u') => {
                        for k in 0..4 {
                            match bytes.get(i + 2 + k) {
                                None => {
                                    return Err(err(ScanErrorKind::UnexpectedEnd, i + 2 + k));
                                }
                                Some(h) if h.is_ascii_hexdigit() => {}
                                Some(_) => return Err(err(ScanErrorKind::BadEscape, i)),
                            }
                        }
                        i += 6;
                    }
                    Some(e) if b"\"\\/bfnrt".contains(e) => i += 2,
                    Some(_) => return Err(err(ScanErrorKind::BadEscape, i)),
                }
            }
            Some(&b) if b < 0x20 => return Err(err(ScanErrorKind::ControlCharacter, i)),
            Some(_) => i += 1,
        }
    }
}

fn assert_scans_like_the_reference(bytes: &[u8], what: &str) {
    let ours = scan_string(bytes, 0).map(|info| (info.end, info.has_escapes));
    assert_eq!(
        ours,
        reference_scan_string(bytes, 0),
        "{what}: {:?}",
        String::from_utf8_lossy(bytes)
    );
}

/// Short strings at the end of the input and just before it, after prefixes of every
/// length (inputs shorter and longer than one word): the two-word quick path and the word
/// read from the input's last eight bytes agree with the reference, whatever the string's
/// first special byte is and wherever the input ends.
#[test]
fn short_strings_near_the_end_of_inputs_of_every_length_scan_like_the_reference() {
    let specials: [&[u8]; 6] = [b"\"", b"\\n", b"\\u00", b"\x01", b"\\", b"\xc3\xa9"];
    for prefix in 0..12 {
        for len in 0..20 {
            for special in specials {
                for suffix in [&b""[..], b"}", b"\"}", b",\"k\":1}"] {
                    for at in [None, Some(0), Some(len / 2), Some(len)] {
                        let mut bytes = vec![b' '; prefix];
                        let pos = bytes.len();
                        bytes.push(b'"');
                        let mut text = vec![b'a'; len];
                        if let Some(at) = at {
                            text.splice(at..at, special.iter().copied());
                        }
                        bytes.extend_from_slice(&text);
                        bytes.extend_from_slice(suffix);
                        let ours = scan_string(&bytes, pos)
                            .map(|info| (info.start, info.end, info.has_escapes));
                        let expected = reference_scan_string(&bytes, pos)
                            .map(|(end, escapes)| (pos, end, escapes));
                        assert_eq!(ours, expected, "{:?}", String::from_utf8_lossy(&bytes));
                    }
                }
            }
        }
    }
}

/// A JSON document whose one long string mixes words, every escape, multibyte characters
/// and runs of plain bytes of pseudo-random lengths (about `len` bytes of string text).
fn long_text_document(seed: u64, len: usize) -> String {
    let pieces = [
        "lorem",
        " ",
        "ipsum",
        "\\n",
        "\\\"",
        "\\\\",
        "\\/",
        "\\t",
        "\\r",
        "\\b",
        "\\f",
        "\\u00e9",
        "\\uD83D\\uDE00",
        "é",
        "✓",
        "😀",
        "consectetur adipiscing elit",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        ".",
    ];
    let mut next = xorshift(seed);
    let mut text = String::new();
    while text.len() < len {
        text.push_str(pieces[(next() % pieces.len() as u64) as usize]);
    }
    format!(r#"{{"jsonrpc":"2.0","id":3,"result":{{"text":"{text}","n":[1,2]}}}}"#)
}

#[test]
fn escapes_at_every_offset_of_long_strings_are_skipped_in_place() {
    let escapes = [
        "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u00e9", "\\uABCD",
    ];
    for fill in ["a", "é"] {
        for len in [7, 8, 9, 31, 32, 33, 40, 41, 70] {
            let plain = fill.repeat(len);
            for at in (0..=plain.len()).filter(|&at| plain.is_char_boundary(at)) {
                for escape in escapes {
                    for doubled in [false, true] {
                        let mut text = String::from("\"");
                        text.push_str(&plain[..at]);
                        text.push_str(escape);
                        if doubled {
                            text.push_str(escape);
                        }
                        text.push_str(&plain[at..]);
                        text.push('"');
                        let info = scan_string(text.as_bytes(), 0)
                            .unwrap_or_else(|e| panic!("{escape} at {at} of {len} × {fill}: {e}"));
                        assert_eq!(info.end, text.len(), "{text}");
                        assert!(info.has_escapes, "{text}");
                    }
                }
            }
        }
    }
}

#[test]
fn bad_escapes_and_controls_at_every_offset_are_reported_where_they_are() {
    let faults: [&[u8]; 9] = [
        b"\\x", b"\\u12g4", b"\\U0041", b"\\\x01", b"\x1f", b"\x00", b"\\", b"\\u12", b"\\ ",
    ];
    for len in [0, 5, 8, 16, 31, 32, 33, 50, 64, 65, 100] {
        for at in 0..=len {
            for fault in faults {
                for close in [true, false] {
                    let mut bytes = b"\"".to_vec();
                    bytes.extend(std::iter::repeat_n(b'a', at));
                    bytes.extend_from_slice(b"\\n");
                    bytes.extend_from_slice(fault);
                    bytes.extend(std::iter::repeat_n(b'b', len - at));
                    if close {
                        bytes.push(b'"');
                    }
                    let what = format!("fault {fault:?} at {at} of {len}");
                    assert_scans_like_the_reference(&bytes, &what);
                    // Where the fault cuts the string short, the error is exactly there.
                    if !close && len == at {
                        assert!(scan_string(&bytes, 0).is_err(), "{what}");
                    }
                }
            }
        }
    }
    // Bytes the word test may flag next to a special one (`#` after `"` or a control
    // byte, `]` after `\`) are ordinary.
    for text in [
        r##""\"#\"#""##,
        r#""\\]\\]]]]]]]]]]]]]]]]]]]""#,
        "\"a\\\"#b\\\\]c\"",
    ] {
        assert_eq!(
            scan_string(text.as_bytes(), 0).map(|info| info.end),
            Ok(text.len()),
            "{text}"
        );
    }
    // The exact offsets, for one placement, written out.
    assert_eq!(
        scan_string(b"\"0123456789abcdef\\n\\x\"", 0),
        Err(err(ScanErrorKind::BadEscape, 19))
    );
    assert_eq!(
        scan_string(b"\"0123456789abcdefghijklmnopqrstuvwxyz\x07\"", 0),
        Err(err(ScanErrorKind::ControlCharacter, 37))
    );
}

#[test]
fn random_long_strings_scan_like_the_byte_at_a_time_reference() {
    let alphabet: &[u8] = b"aaaaaaaaaaaaaaaabbbbbbbbbb    ##]]\"\\\\\\\\nnnnuu0123456789abcdefABCDEFxX/\x01\x1f\x7f\xc3\xa9\xe2\x9c\x93";
    let mut next = xorshift(0x1234_5678_9ABC_DEF1);
    let mut ended = 0;
    for round in 0..20_000 {
        let len = (next() % 160) as usize;
        let mut bytes = b"\"".to_vec();
        // Mostly plain text with sparse specials, so that many strings end at their quote.
        for _ in 0..len {
            let byte = if next().is_multiple_of(8) {
                alphabet[(next() as usize) % alphabet.len()]
            } else {
                b'a' + (next() % 26) as u8
            };
            bytes.push(byte);
        }
        if round % 2 == 0 {
            bytes.push(b'"');
        }
        assert_scans_like_the_reference(&bytes, "random string");
        ended += usize::from(scan_string(&bytes, 0).is_ok());
    }
    assert!((2_000..18_000).contains(&ended), "{ended} strings scanned");
}

/// Pieces of string contents, biased towards what the block scan has to get right:
/// quotes, backslash runs of every length, valid and malformed escapes, `\u` escapes
/// cut anywhere, control bytes, bytes the word test may flag wrongly (`#`, `]`), bytes of
/// 0x80 and above, and plain runs long enough to carry everything across block edges.
fn string_piece() -> impl Strategy<Value = Vec<u8>> {
    let hex = || prop::sample::select(b"0123456789abcdefABCDEF".to_vec());
    prop_oneof![
        30 => prop::collection::vec(prop::sample::select(b"abcdefghij klmn#]".to_vec()), 1..80),
        4 => prop::collection::vec(prop::sample::select(b"opqrstuvwxyz".to_vec()), 60..200),
        20 => prop::sample::select(vec!["\\n", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\t"])
            .prop_map(|escape| escape.as_bytes().to_vec()),
        10 => (1usize..10).prop_map(|n| vec![b'\\'; n]),
        8 => prop::array::uniform4(hex()).prop_map(|digits| [&b"\\u"[..], &digits[..]].concat()),
        3 => Just(b"\"".to_vec()),
        1 => (prop::collection::vec(hex(), 0..4), prop::sample::select(b"gG\"\\ x\x01\x1f\xc3".to_vec()))
            .prop_map(|(digits, bad)| [&b"\\u"[..], &digits[..], &[bad][..]].concat()),
        1 => prop::sample::select(b"xXuU0 a#\x00\x01\x1f\x7f\xc3".to_vec())
            .prop_map(|letter| vec![b'\\', letter]),
        1 => (0u8..0x20).prop_map(|control| vec![control]),
        5 => prop::sample::select(vec!["é", "✓", "😀", "\u{7f}", "\u{ff}"])
            .prop_map(|text| text.as_bytes().to_vec()),
        1 => (0x80u8..=0xff).prop_map(|byte| vec![byte]),
    ]
}

/// A string at a random offset of a frame: arbitrary bytes before its opening quote,
/// contents made of [`string_piece`]s, and, unless cut short, a closing quote and more
/// JSON after it (so that a block reads past the string).
fn string_in_frame() -> impl Strategy<Value = (Vec<u8>, usize)> {
    (
        prop::collection::vec(any::<u8>(), 0..70),
        prop::collection::vec(string_piece(), 0..24),
        prop::sample::select(vec!["", "\"", "\",\"k\":[1,\"\\\"\"]}", "\"}\\\\\\\"\\u12"]),
    )
        .prop_map(|(before, pieces, after)| {
            let mut bytes = before;
            let pos = bytes.len();
            bytes.push(b'"');
            bytes.extend(pieces.concat());
            bytes.extend_from_slice(after.as_bytes());
            (bytes, pos)
        })
}

/// Case count of the properties below: `MCPWIRE_PROPTEST_CASES` for a soak run.
fn soak_cases(default: u32) -> u32 {
    std::env::var("MCPWIRE_PROPTEST_CASES")
        .ok()
        .and_then(|n| n.trim().parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(soak_cases(3_000)))]

    /// `scan_string` (64-byte blocks on x86_64, words elsewhere and for the tail) gives
    /// the end, the escape flag, the error kind and the error offset of the byte-at-a-time
    /// reading of RFC 8259.
    #[test]
    fn scan_string_agrees_with_the_reference_on_generated_strings((bytes, pos) in string_in_frame()) {
        let ours = scan_string(&bytes, pos).map(|info| (info.start, info.end, info.has_escapes));
        let expected = reference_scan_string(&bytes, pos).map(|(end, escapes)| (pos, end, escapes));
        prop_assert_eq!(ours, expected, "{:?}", String::from_utf8_lossy(&bytes[pos..]));
    }

    /// The block scan on its own, from just past the opening quote (in `scan_string` it
    /// starts after an escape), with each classifier the CPU has (SSE2, AVX2, AVX-512):
    /// the same end and errors as the reference, or a hand-over to the words before
    /// anything the reference stops at.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[test]
    fn the_block_scan_agrees_with_the_reference_up_to_where_it_stops((bytes, pos) in string_in_frame()) {
        let expected = reference_scan_string(&bytes, pos).map(|(end, _)| end);
        let text = String::from_utf8_lossy(&bytes[pos..]);
        for classifier in blocks::EveryClassifier::available() {
            match classifier.scan(&bytes, pos + 1) {
                    Ok(blocks::Stop::Closed { quote, escapes }) => {
                    prop_assert_eq!(expected, Ok(quote + 1), "{:?}: {:?}", classifier, text);
                    prop_assert_eq!(escapes, bytes[pos + 1..quote].contains(&b'\\'), "{:?}: {:?}", classifier, text);
                }
                Err(error) => prop_assert_eq!(expected, Err(error), "{:?}: {:?}", classifier, text),
                Ok(blocks::Stop::Tail { from, escapes }) => {
                    prop_assert_eq!(escapes, bytes[pos + 1..from].contains(&b'\\'), "{:?}: {:?}", classifier, text);
                    prop_assert!(bytes.len() - from <= 64, "{:?}: {} bytes left", classifier, bytes.len() - from);
                    let stops_at = match expected {
                        Ok(end) => end - 1,
                        Err(error) => error.offset,
                    };
                    prop_assert!(stops_at >= from, "{:?}: stops at {} before {}: {:?}", classifier, stops_at, from, text);
                }
            }
        }
    }
}

/// The generated strings are not vacuous: they close, end early and fail in every way a
/// string can, both in the first block and beyond it.
#[test]
fn generated_strings_reach_every_outcome_within_and_beyond_the_first_block() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = string_in_frame();
    let mut outcomes = std::collections::HashMap::new();
    for _ in 0..3_000 {
        let (bytes, pos) = strategy.new_tree(&mut runner).unwrap().current();
        let outcome = reference_scan_string(&bytes, pos);
        let (kind, at) = match outcome {
            Ok((end, _)) => (None, end),
            Err(error) => (Some(error.kind), error.offset),
        };
        *outcomes.entry((kind, at - pos > 130)).or_insert(0) += 1;
    }
    for kind in [
        None,
        Some(ScanErrorKind::BadEscape),
        Some(ScanErrorKind::ControlCharacter),
        Some(ScanErrorKind::UnexpectedEnd),
    ] {
        for beyond in [false, true] {
            let count = outcomes.get(&(kind, beyond)).copied().unwrap_or(0);
            assert!(
                count >= 30,
                "{kind:?} beyond {beyond}: {count} of 3000 ({outcomes:?})"
            );
        }
    }
}

#[test]
fn multibyte_characters_split_across_words_are_accepted_and_broken_ones_found() {
    for character in ["é", "✓", "😀"] {
        for before in 0..40 {
            let text = format!("\"{}{character}{}\"", "a".repeat(before), "b".repeat(40));
            let info = validate(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(info.end, text.len());
            // Cut the character short, or stray one continuation byte: the error is at the
            // first byte that cannot be completed.
            let bytes = character.as_bytes();
            for cut in 1..bytes.len() {
                let mut broken = format!("\"{}", "a".repeat(before)).into_bytes();
                broken.extend_from_slice(&bytes[..cut]);
                broken.extend_from_slice(format!("{}\"", "b".repeat(40)).as_bytes());
                assert_eq!(
                    validate(&broken),
                    Err(err(ScanErrorKind::InvalidUtf8, before + 1)),
                    "{character} cut to {cut} bytes after {before}"
                );
            }
            let mut stray = format!("\"{}", "a".repeat(before)).into_bytes();
            stray.push(bytes[bytes.len() - 1]);
            stray.extend_from_slice(b"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\"");
            assert_eq!(
                validate(&stray),
                Err(err(ScanErrorKind::InvalidUtf8, before + 1)),
                "stray continuation byte after {before}"
            );
        }
    }
    // Overlong forms and encoded surrogates are invalid UTF-8 too.
    for bad in [
        &b"\xc0\xaf"[..],
        b"\xed\xa0\x80",
        b"\xf4\x90\x80\x80",
        b"\xff",
    ] {
        for before in [0, 7, 8, 31, 32, 33] {
            let mut doc = format!("[\"{}", "a".repeat(before)).into_bytes();
            doc.extend_from_slice(bad);
            doc.extend_from_slice(b"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\"]");
            assert_eq!(
                validate(&doc),
                Err(err(ScanErrorKind::InvalidUtf8, before + 2)),
                "{bad:?} after {before}"
            );
        }
    }
}

#[test]
fn the_word_test_flags_exactly_the_special_bytes_of_all_256() {
    for byte in 0..=255u8 {
        let special = matches!(byte, b'"' | b'\\' | 0x00..=0x1f);
        for at in 0..8 {
            // Every other byte ordinary, and every byte value below it too.
            for filler in [b'a', b'#', b']', b' ', 0xff] {
                let mut word = [filler; 8];
                word[at] = byte;
                let mask = special_bytes(u64::from_le_bytes(word));
                let lowest = (mask != 0).then(|| mask.trailing_zeros() / 8);
                assert_eq!(
                    lowest,
                    special.then_some(at as u32),
                    "byte {byte:#04x} at {at} among {filler:#04x}"
                );
            }
        }
    }
}
