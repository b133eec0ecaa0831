//! How deep the decode of a union's captured text may go.
//!
//! A generated union decodes its chosen variant from the text it captured (or, for a union of
//! objects, each raw member from its text), with a serde_json deserializer of its own, which
//! does not know the limits of the deserializer the whole message is decoded with. By default
//! it keeps serde_json's 128-level recursion limit (counted from the union's value, or from
//! the member's), as a plain `serde_json::from_str` of the message applies one, and which keeps
//! the native stack safe.
//!
//! A caller that decodes without that limit, on a stack that grows as needed (serde_json's
//! `unbounded_depth` with `serde_stacker`, as the `mcpwire` runtime does for typed params
//! and results once it has bounded their depth), runs the decode inside
//! [`with_unbounded_depth`]: every union decoded on the way (on this thread) then lifts the
//! limit too and decodes on a growing stack, so no 128-level limit comes back and no stack
//! overflows.
//!
//! Members the schema leaves free (`_meta`, `arguments`, anything kept as a
//! [`crate::Json`]) are captured as text without recursion and take any depth either way: the
//! limit matters for typed members nested in one another (a recursive schema).
//!
//! ```
//! use mcpwire_types::mcp::v2026_07_28::ContentBlock;
//! use mcpwire_support::with_unbounded_depth;
//!
//! let deep = format!(
//!     r#"{{"type":"resource_link","uri":"a:b","name":"n","_meta":{{"x":{}{}}}}}"#,
//!     "[".repeat(200),
//!     "]".repeat(200)
//! );
//! // `_meta` is kept as text: even a plain decode takes it.
//! let plain: ContentBlock = serde_json::from_str(&deep).unwrap();
//! assert_eq!(plain.variant_name(), "ResourceLink");
//! // Lifted, on a growing stack (as `mcpwire` decodes).
//! let block = with_unbounded_depth(|| {
//!     let mut deserializer = serde_json::Deserializer::from_str(&deep);
//!     deserializer.disable_recursion_limit();
//!     serde::Deserialize::deserialize(serde_stacker::Deserializer::new(&mut deserializer))
//! });
//! let block: ContentBlock = block.unwrap();
//! assert_eq!(block.variant_name(), "ResourceLink");
//! ```

use std::cell::Cell;

use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer};

thread_local! {
    static UNBOUNDED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `decode` with every union decoded inside it (on this thread) lifting serde_json's
/// recursion limit and decoding on a stack that grows as needed (see the module
/// documentation). The setting before the call is restored after it, even on a panic.
pub fn with_unbounded_depth<R>(decode: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            UNBOUNDED.with(|flag| flag.set(self.0));
        }
    }
    let _restore = Restore(UNBOUNDED.with(|flag| flag.replace(true)));
    decode()
}

/// Decodes one JSON text as `T` under the depth rules of the module documentation, with the
/// JSON pointer (relative to the text) of a failure (see [`decode_tracked`]).
pub(super) fn decode_text<T: DeserializeOwned>(
    text: &str,
) -> Result<T, (String, serde_json::Error)> {
    decode_tracked(|seed| decode_member(text, seed))
}

/// Decodes one captured member's raw text with `seed`, under the depth rules of the module
/// documentation (the limit counted from the member's value).
pub(super) fn decode_member<'de, S: DeserializeSeed<'de>>(
    text: &'de str,
    seed: S,
) -> Result<S::Value, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    if UNBOUNDED.with(Cell::get) {
        deserializer.disable_recursion_limit();
        seed.deserialize(serde_stacker::Deserializer::new(&mut deserializer))
    } else {
        seed.deserialize(&mut deserializer)
    }
}

/// Runs `decode` with a seed decoding `T`; when it fails, runs it once more with the seed
/// tracking the path, for the JSON pointer of where it failed (relative to the decoded
/// value). A decode that succeeds (the common case) pays nothing for the tracking.
pub(super) fn decode_tracked<T: DeserializeOwned>(
    decode: impl Fn(Tracked<'_, T>) -> Result<T, serde_json::Error>,
) -> Result<T, (String, serde_json::Error)> {
    let error = match decode(Tracked(None, PhantomData)) {
        Ok(decoded) => return Ok(decoded),
        Err(error) => error,
    };
    let mut track = serde_path_to_error::Track::new();
    Err(match decode(Tracked(Some(&mut track), PhantomData)) {
        Ok(_) => (String::new(), error),
        Err(tracked) => (super::json_pointer(&track.path()), tracked),
    })
}

/// The seed of [`decode_tracked`]: decodes `T`, recording the path of a failure in the track
/// when it has one.
pub(super) struct Tracked<'t, T>(Option<&'t mut serde_path_to_error::Track>, PhantomData<T>);

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for Tracked<'_, T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        match self.0 {
            None => T::deserialize(deserializer),
            Some(track) => {
                T::deserialize(serde_path_to_error::Deserializer::new(deserializer, track))
            }
        }
    }
}

/// A serde_json error without the " at line L column C" of the inner text: the position
/// that means something to the reader is the outer deserializer's, which it adds itself.
pub(super) fn message_without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    if error.line() == 0 {
        return text;
    }
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    match text.strip_suffix(&suffix) {
        Some(message) => message.to_owned(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_is_scoped_and_restored() {
        let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
        assert!(decode_text::<serde_json::Value>(&deep).is_err());
        let lifted = with_unbounded_depth(|| decode_text::<serde_json::Value>(&deep).is_ok());
        assert!(lifted);
        assert!(!UNBOUNDED.with(Cell::get));
        let after_panic = std::panic::catch_unwind(|| with_unbounded_depth(|| panic!("x")));
        assert!(after_panic.is_err());
        assert!(!UNBOUNDED.with(Cell::get));
    }

    /// Arrays of arrays: recursion as deep as the input, refusing any other value.
    #[derive(Debug, serde::Deserialize)]
    struct Nested(#[allow(dead_code)] Vec<Nested>);

    #[test]
    fn lifted_the_decode_grows_the_stack_instead_of_overflowing() {
        // 100,000 levels on a 256 KiB stack: only a growing stack survives this. The value
        // fails at the bottom, so nothing deep is kept or dropped.
        let text = format!("{}\"x\"{}", "[".repeat(100_000), "]".repeat(100_000));
        let pointer_len = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let (pointer, _) =
                    with_unbounded_depth(|| decode_text::<Nested>(&text)).unwrap_err();
                pointer.len()
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(pointer_len, "/0".len() * 100_000);
    }

    #[test]
    fn inner_positions_are_dropped() {
        let error = serde_json::from_str::<u8>("300").unwrap_err();
        assert!(error.to_string().contains(" at line 1"), "{error}");
        assert!(!message_without_position(&error).contains(" at line"));
        let custom = <serde_json::Error as serde::de::Error>::custom("plain");
        assert_eq!(message_without_position(&custom), "plain");
    }
}
