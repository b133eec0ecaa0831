//! Plain-text renderings of frames and oracles for reports.

use mcpwire_proptest::{Expected, ExpectedReply, ReplyId, Silence};
use mcpwire_types::ProfileFacts;

/// The most characters of a frame shown in a report.
pub const SHOWN: usize = 240;

/// A frame as text: UTF-8 as is, bytes that are not UTF-8 as `\xNN`; long frames cut with
/// their length.
///
/// ```
/// use mcpwire_cli::check::describe::show_frame;
/// assert_eq!(show_frame(b"{\"a\":\"\xff\"}"), r#"{"a":"\xff"}"#);
/// assert!(show_frame(&[b'x'; 1000]).ends_with("(1000 bytes)"));
/// ```
pub fn show_frame(frame: &[u8]) -> String {
    let mut text = String::with_capacity(frame.len());
    for chunk in frame.utf8_chunks() {
        text.push_str(chunk.valid());
        for byte in chunk.invalid() {
            text.push_str(&format!("\\x{byte:02x}"));
        }
    }
    if text.chars().count() <= SHOWN {
        return text;
    }
    let cut: String = text.chars().take(SHOWN).collect();
    format!("{cut}… ({} bytes)", frame.len())
}

/// What a correct server sends for an input with this oracle, in words; `http` words it for a
/// response body rather than stdout lines.
pub fn describe_expected(facts: &ProfileFacts, expected: &Expected, http: bool) -> String {
    match expected {
        Expected::NoReply(Silence::Notification) => "no reply (a notification)".into(),
        Expected::NoReply(Silence::Response) => "no reply (a response)".into(),
        Expected::NoReply(Silence::BlankLine) => "no reply (a blank line)".into(),
        Expected::Reply(reply) => format!("one reply: {}", describe_reply(facts, reply)),
        Expected::ReplyOptional(reply) => {
            format!("one reply or none: {}", describe_reply(facts, reply))
        }
        Expected::Batch(elements) => {
            let owed = elements
                .iter()
                .filter(|e| matches!(e, Expected::Reply(_)))
                .count();
            let replies: Vec<String> = elements
                .iter()
                .filter_map(|e| match e {
                    Expected::Reply(reply) => Some(describe_reply(facts, reply)),
                    Expected::ReplyOptional(reply) => Some(format!(
                        "{} or no reply (a later cancel in the batch names it)",
                        describe_reply(facts, reply)
                    )),
                    _ => None,
                })
                .collect();
            if replies.is_empty() {
                return format!(
                    "no reply (a batch of {} notifications/responses)",
                    elements.len()
                );
            }
            format!(
                "{}one array {}with {}{} replies: {}",
                if owed == 0 { "no reply or " } else { "" },
                if http { "" } else { "on one line " },
                if owed < replies.len() { "up to " } else { "" },
                replies.len(),
                replies.join("; ")
            )
        }
    }
}

fn describe_reply(facts: &ProfileFacts, reply: &ExpectedReply) -> String {
    let id = match &reply.id {
        ReplyId::Echo(text) => format!("id {}", show_frame(text.as_bytes())),
        ReplyId::Absent if facts.error_response_requires_id => "\"id\":null".to_owned(),
        ReplyId::Absent => "no id member".to_owned(),
    };
    format!("{id}, {}", reply.outcome)
}
