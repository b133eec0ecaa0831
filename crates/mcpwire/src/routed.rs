//! The params' members the HTTP transport reads for the routing headers and the era (MCP
//! 2026-07-28): `name`, `uri` and `taskId` (what `Mcp-Name` repeats) and `_meta`'s
//! `io.modelcontextprotocol/protocolVersion`, recorded by the envelope's one scan
//! ([`read_object_routed`](crate::envelope::read_object_routed)) as borrowed slices while it
//! walks the params, so that nothing reads the params' text again for them.
//!
//! The scan of the params here is [`scan_value`](crate::scan::scan_value)'s, member by
//! member: the same text is accepted, with the same depth and the same error at the same
//! offset. What is recorded reads the params as a structure of four optional members would:
//! keys compared after unescaping; a known member given twice, or a key naming no Unicode
//! string (an unpaired surrogate escape), leaves the whole structure unread; params given as
//! an array name the members by position (`[name, uri, taskId, _meta]`, at most four).
//! `_meta` is read the same way for its one member. A value counts when it is a JSON string
//! naming a Unicode string.

use std::borrow::Cow;

use crate::envelope::{RawMember, other_key, scan_member};
use crate::scan::{self, ScanError};

/// What the params say that the routing headers and the era need, as the scan found it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Routed<'a> {
    /// `name`, `uri`, `taskId` (in this order), when the params could be read.
    pub(crate) targets: [Option<RawMember<'a>>; 3],
    /// `_meta`'s protocol version member, when `_meta` could be read.
    pub(crate) version: Option<RawMember<'a>>,
}

/// The `targets` index of `name`, `uri` and `taskId`; `_meta` is the fourth member.
const NAME: usize = 0;
const URI: usize = 1;
const TASK_ID: usize = 2;
const META: usize = 3;

/// `_meta`'s member that states the protocol version (MCP 2026-07-28).
const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

impl<'a> Routed<'a> {
    /// `params.name` as a string.
    pub(crate) fn name(&self) -> Option<String> {
        string(self.targets[NAME])
    }

    /// `params.uri` as a string.
    pub(crate) fn uri(&self) -> Option<String> {
        string(self.targets[URI])
    }

    /// `params.taskId` as a string.
    pub(crate) fn task_id(&self) -> Option<String> {
        string(self.targets[TASK_ID])
    }

    /// `params._meta["io.modelcontextprotocol/protocolVersion"]` as a string.
    pub(crate) fn version(&self) -> Option<String> {
        string(self.version)
    }
}

/// A member's string, when it is a JSON string naming a Unicode string.
fn string(member: Option<RawMember<'_>>) -> Option<String> {
    let member = member.filter(|m| m.is_string())?;
    if member.has_escapes && scan::has_unpaired_surrogate(member.text) {
        return None;
    }
    member.string_value().map(Cow::into_owned)
}

/// How members are named: by key in an object, by position in an array.
trait Slots<'a> {
    /// How many slots there are (an array longer than this is not read).
    const LEN: usize;
    /// The slot of a key (raw text, quotes included).
    fn slot_of_key(raw: &str, has_escapes: bool) -> Result<Option<usize>, Unreadable>;
    /// Reads the member value at `pos` for `slot` (as any value, unless a slot says more).
    fn value(
        text: &'a str,
        pos: usize,
        slot: Option<usize>,
        found: &mut Found<'a>,
    ) -> Result<RawMember<'a>, ScanError> {
        let _ = (slot, found);
        scan_member(text, pos)
    }
}

/// The structure cannot be read (its members are all taken as absent).
struct Unreadable;

/// The members found in one container.
#[derive(Default)]
struct Found<'a> {
    members: [Option<RawMember<'a>>; 4],
    /// `_meta`'s version, read while `_meta` was scanned.
    version: Option<RawMember<'a>>,
    unreadable: bool,
}

impl<'a> Found<'a> {
    fn record(&mut self, slot: usize, member: RawMember<'a>) {
        if self.members[slot].replace(member).is_some() {
            self.unreadable = true;
        }
    }
}

/// The key's text without its quotes, unescaped; `Unreadable` when it names no Unicode string.
fn key_name(raw: &str, has_escapes: bool) -> Result<Cow<'_, str>, Unreadable> {
    if !has_escapes {
        return Ok(Cow::Borrowed(&raw[1..raw.len() - 1]));
    }
    if scan::has_unpaired_surrogate(raw) {
        return Err(Unreadable);
    }
    Ok(Cow::Owned(scan::unescape(raw)))
}

struct Params;

impl<'a> Slots<'a> for Params {
    const LEN: usize = 4;

    fn slot_of_key(raw: &str, has_escapes: bool) -> Result<Option<usize>, Unreadable> {
        Ok(match &*key_name(raw, has_escapes)? {
            "name" => Some(NAME),
            "uri" => Some(URI),
            "taskId" => Some(TASK_ID),
            "_meta" => Some(META),
            _ => None,
        })
    }

    fn value(
        text: &'a str,
        pos: usize,
        slot: Option<usize>,
        found: &mut Found<'a>,
    ) -> Result<RawMember<'a>, ScanError> {
        if slot == Some(META) && matches!(text.as_bytes().get(pos), Some(b'{' | b'[')) {
            let (member, meta) = read_container::<Meta>(text, pos)?;
            found.version = (!meta.unreadable).then_some(meta.members[0]).flatten();
            return Ok(member);
        }
        scan_member(text, pos)
    }
}

struct Meta;

impl<'a> Slots<'a> for Meta {
    const LEN: usize = 1;

    fn slot_of_key(raw: &str, has_escapes: bool) -> Result<Option<usize>, Unreadable> {
        Ok((*key_name(raw, has_escapes)? == *VERSION_KEY).then_some(0))
    }
}

/// Scans the params value at `pos` (any JSON value), recording what `routed` needs.
pub(crate) fn read_params<'a>(
    text: &'a str,
    pos: usize,
    routed: &mut Routed<'a>,
) -> Result<RawMember<'a>, ScanError> {
    if !matches!(text.as_bytes().get(pos), Some(b'{' | b'[')) {
        *routed = Routed::default();
        return scan_member(text, pos);
    }
    let (member, found) = read_container::<Params>(text, pos)?;
    *routed = if found.unreadable {
        Routed::default()
    } else {
        let [name, uri, task_id, meta] = found.members;
        Routed {
            targets: [name, uri, task_id],
            version: meta.and(found.version),
        }
    };
    Ok(member)
}

/// Scans the object or array at `pos` as [`scan_value`](crate::scan::scan_value) does,
/// recording its members by `S`'s slots.
fn read_container<'a, S: Slots<'a>>(
    text: &'a str,
    start: usize,
) -> Result<(RawMember<'a>, Found<'a>), ScanError> {
    let bytes = text.as_bytes();
    let object = bytes[start] == b'{';
    let mut found = Found::default();
    let mut depth = 0u32;
    let mut index = 0usize;
    let mut pos = scan::skip_whitespace(bytes, start + 1);
    let close = if object { b'}' } else { b']' };
    if bytes.get(pos) != Some(&close) {
        loop {
            let slot = if object {
                if bytes.get(pos) != Some(&b'"') {
                    return Err(scan::unexpected(bytes, pos));
                }
                let key = other_key(bytes, pos)?;
                let slot = match S::slot_of_key(&text[key.start..key.end], key.has_escapes) {
                    Ok(slot) => slot,
                    Err(Unreadable) => {
                        found.unreadable = true;
                        None
                    }
                };
                let colon = scan::skip_whitespace(bytes, key.end);
                if bytes.get(colon) != Some(&b':') {
                    return Err(scan::unexpected(bytes, colon));
                }
                pos = scan::skip_whitespace(bytes, colon + 1);
                slot
            } else {
                (index < S::LEN).then_some(index)
            };
            index += 1;
            let member = S::value(text, pos, slot, &mut found)?;
            depth = depth.max(member.depth);
            if let Some(slot) = slot {
                found.record(slot, member);
            }
            pos = expect_value_end(bytes, pos + member.text.len(), close)?;
            if bytes[pos] == close {
                break;
            }
            pos = scan::skip_whitespace(bytes, pos + 1);
        }
    }
    if !object && index > S::LEN {
        found.unreadable = true;
    }
    let end = pos + 1;
    let member = RawMember {
        text: &text[start..end],
        depth: depth.saturating_add(1),
        has_escapes: false,
    };
    Ok((member, found))
}

/// After a value ending at `pos` inside a container closed by `close`: the offset of the `,`
/// or `close` that follows (after whitespace), or [`scan_value`](crate::scan::scan_value)'s
/// error.
fn expect_value_end(bytes: &[u8], pos: usize, close: u8) -> Result<usize, ScanError> {
    let pos = scan::skip_whitespace(bytes, pos);
    match bytes.get(pos) {
        Some(&b) if b == b',' || b == close => Ok(pos),
        _ => Err(scan::unexpected(bytes, pos)),
    }
}
