//! Named violations of the wire rules, each pointing at its rule in docs/wire-rules.md.

use std::fmt;

use crate::expected::{Cause, Outcome};

/// A rule of docs/wire-rules.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rule {
    /// The rule's number.
    pub number: u8,
    /// The rule's name.
    pub name: &'static str,
}

impl Rule {
    /// The rule of docs/wire-rules.md with this number and name.
    pub const fn new(number: u8, name: &'static str) -> Self {
        Self { number, name }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "wire rule {} ({})", self.number, self.name)
    }
}

/// The rules of docs/wire-rules.md, by number.
pub mod rules {
    use super::Rule;
    /// Rule 1: one message per line; the reply is a single line.
    pub const FRAMING: Rule = Rule::new(1, "framing");
    /// Rule 2: bytes that are not one JSON value get -32700 without an id.
    pub const PARSE: Rule = Rule::new(2, "parse");
    /// Rule 3: a top level that is neither an object nor an allowed batch gets -32600.
    pub const TOP_LEVEL: Rule = Rule::new(3, "top level");
    /// Rule 4: the id is recovered and echoed with its exact type and text.
    pub const ID_RECOVERY: Rule = Rule::new(4, "id recovery");
    /// Rule 5: method makes a call; result/error a response.
    pub const CLASSIFICATION: Rule = Rule::new(5, "classification");
    /// Rule 6: an invalid call gets -32600 with the recovered id.
    pub const CALL_VALIDITY: Rule = Rule::new(6, "call validity");
    /// Rule 7: a valid request is answered (-32601 for an unknown method); a notification never is.
    pub const REQUEST_DISPATCH: Rule = Rule::new(7, "request dispatch");
    /// Rule 8: a response never gets a reply; an object with an id and none of
    /// method/result/error gets -32600 with the id.
    pub const RESPONSES: Rule = Rule::new(8, "responses");
    /// Rule 9: batch replies are one array, one reply per element that replies.
    pub const BATCH: Rule = Rule::new(9, "batch");
    /// Rule 10: every reply's shape: jsonrpc, result xor error, the error object, no-id spelling.
    pub const REPLY_SHAPE: Rule = Rule::new(10, "reply shape");
}

/// How an id appeared in a reply.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SeenId {
    /// No `id` member.
    Omitted,
    /// The exact JSON text of the `id` member (possibly `null`).
    Text(String),
}

impl fmt::Display for SeenId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeenId::Omitted => f.write_str("no id member"),
            SeenId::Text(text) => write!(f, "id {}", shorten(text)),
        }
    }
}

/// Shortens long JSON text for messages.
pub(crate) fn shorten(text: &str) -> String {
    const MAX: usize = 120;
    if text.len() <= MAX {
        return text.to_owned();
    }
    let cut = (0..=MAX)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}… ({} bytes)", &text[..cut], text.len())
}

/// One broken wire rule, found by [`crate::check()`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// A reply frame contains a line break.
    ReplyNotOneLine {
        /// The frame, lossily decoded and shortened.
        frame: String,
    },
    /// A reply frame is not one JSON value.
    ReplyNotJson {
        /// The frame, lossily decoded and shortened.
        frame: String,
    },
    /// A reply (or batch reply element) is not a JSON object.
    ReplyNotAnObject {
        /// The reply's text, shortened.
        reply: String,
    },
    /// More than one frame was written for a single message.
    MoreThanOneReply {
        /// How many frames.
        count: usize,
    },
    /// `jsonrpc` is missing, duplicated or not exactly `"2.0"`.
    JsonrpcMissingOrWrong {
        /// The member's text, `None` when missing.
        got: Option<String>,
    },
    /// The reply does not have exactly one of `result` and `error`.
    ResultAndErrorNotExclusive {
        /// Whether `result` is present.
        has_result: bool,
        /// Whether `error` is present.
        has_error: bool,
    },
    /// `error` is not an object with an integer `code` and a string `message`.
    ErrorObjectMalformed {
        /// The `error` member's text, shortened.
        error: String,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// The reply is a result where an error was required, or has a code not allowed.
    UnexpectedCode {
        /// What was allowed.
        expected: Outcome,
        /// The error code, `None` for a result.
        got: Option<i64>,
        /// What the input was.
        cause: Cause,
    },
    /// The reply's id is not the request's id.
    IdNotEchoed {
        /// The request's id text.
        expected: String,
        /// What the reply carried.
        got: SeenId,
    },
    /// The reply's id is the request's id with a changed JSON type or number text
    /// (`1` → `"1"`, `1.5` → `1`, `9007199254740993` → `9007199254740992`, `1e3` → `1000`).
    IdTypeOrPrecisionChanged {
        /// The request's id text.
        expected: String,
        /// The reply's id text.
        got: String,
    },
    /// The reply has no id (`null` or omitted) although the request's id was readable.
    IdLostAlthoughRecoverable {
        /// The request's id text.
        expected: String,
        /// What the reply carried.
        got: SeenId,
    },
    /// The reply carries an id although the input's id was unrecoverable, and no id member
    /// of the input has it: the id was invented.
    FabricatedId {
        /// The invented id's text.
        got: String,
    },
    /// The reply echoes the input's id although that id was unrecoverable (of a type the
    /// profile forbids, such as `1.5` under MCP, or duplicated): an id no reply may carry.
    ForbiddenIdEchoed {
        /// The echoed id's text.
        got: String,
    },
    /// A reply without an id spells "no id" the wrong way for the profile.
    NoIdSpelledWrong {
        /// Whether the profile requires `"id":null` (else the id must be omitted).
        null_required: bool,
    },
    /// The reply has more than one `id` member.
    DuplicateIdInReply,
    /// A notification got a reply.
    ReplyToNotification,
    /// A response got a reply.
    ReplyToResponse,
    /// A blank line got a reply.
    ReplyToBlankLine,
    /// Something that needs a reply with its readable id got none: a client waiting on that
    /// id waits forever.
    MissingReply {
        /// What the input was.
        cause: Cause,
    },
    /// Input with no readable id (not JSON, not an object, an id missing, duplicated or of a
    /// forbidden type) that JSON-RPC 2.0 answers with an id-less error got no reply: nothing
    /// can be waiting on it, but the sender never learns it was refused.
    UnreadableInputUnanswered {
        /// What the input was.
        cause: Cause,
    },
    /// A batch's replies came as separate lines instead of one array.
    BatchRepliesAsLines {
        /// How many lines.
        lines: usize,
    },
    /// A batch's reply is not a JSON array.
    BatchReplyNotArray,
    /// A single message was answered with an array.
    ArrayReplyToSingleMessage,
    /// A batch reply has the wrong number of elements.
    BatchCountMismatch {
        /// Replies expected.
        expected: usize,
        /// Replies received.
        got: usize,
    },
    /// A batch of only notifications and responses got a reply.
    ReplyToBatchWithoutRequests,
}

/// The name of a [`Violation`] without its data, for matching in tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum ViolationKind {
    ReplyNotOneLine,
    ReplyNotJson,
    ReplyNotAnObject,
    MoreThanOneReply,
    JsonrpcMissingOrWrong,
    ResultAndErrorNotExclusive,
    ErrorObjectMalformed,
    UnexpectedCode,
    IdNotEchoed,
    IdTypeOrPrecisionChanged,
    IdLostAlthoughRecoverable,
    FabricatedId,
    ForbiddenIdEchoed,
    NoIdSpelledWrong,
    DuplicateIdInReply,
    ReplyToNotification,
    ReplyToResponse,
    ReplyToBlankLine,
    MissingReply,
    UnreadableInputUnanswered,
    BatchRepliesAsLines,
    BatchReplyNotArray,
    ArrayReplyToSingleMessage,
    BatchCountMismatch,
    ReplyToBatchWithoutRequests,
}

impl Violation {
    /// This violation's name.
    pub fn kind(&self) -> ViolationKind {
        use Violation as V;
        use ViolationKind as K;
        match self {
            V::ReplyNotOneLine { .. } => K::ReplyNotOneLine,
            V::ReplyNotJson { .. } => K::ReplyNotJson,
            V::ReplyNotAnObject { .. } => K::ReplyNotAnObject,
            V::MoreThanOneReply { .. } => K::MoreThanOneReply,
            V::JsonrpcMissingOrWrong { .. } => K::JsonrpcMissingOrWrong,
            V::ResultAndErrorNotExclusive { .. } => K::ResultAndErrorNotExclusive,
            V::ErrorObjectMalformed { .. } => K::ErrorObjectMalformed,
            V::UnexpectedCode { .. } => K::UnexpectedCode,
            V::IdNotEchoed { .. } => K::IdNotEchoed,
            V::IdTypeOrPrecisionChanged { .. } => K::IdTypeOrPrecisionChanged,
            V::IdLostAlthoughRecoverable { .. } => K::IdLostAlthoughRecoverable,
            V::FabricatedId { .. } => K::FabricatedId,
            V::ForbiddenIdEchoed { .. } => K::ForbiddenIdEchoed,
            V::NoIdSpelledWrong { .. } => K::NoIdSpelledWrong,
            V::DuplicateIdInReply => K::DuplicateIdInReply,
            V::ReplyToNotification => K::ReplyToNotification,
            V::ReplyToResponse => K::ReplyToResponse,
            V::ReplyToBlankLine => K::ReplyToBlankLine,
            V::MissingReply { .. } => K::MissingReply,
            V::UnreadableInputUnanswered { .. } => K::UnreadableInputUnanswered,
            V::BatchRepliesAsLines { .. } => K::BatchRepliesAsLines,
            V::BatchReplyNotArray => K::BatchReplyNotArray,
            V::ArrayReplyToSingleMessage => K::ArrayReplyToSingleMessage,
            V::BatchCountMismatch { .. } => K::BatchCountMismatch,
            V::ReplyToBatchWithoutRequests => K::ReplyToBatchWithoutRequests,
        }
    }

    /// The rule of docs/wire-rules.md this violation breaks.
    pub fn rule(&self) -> Rule {
        use Violation as V;
        match self {
            V::ReplyNotOneLine { .. } | V::MoreThanOneReply { .. } | V::ReplyToBlankLine => {
                rules::FRAMING
            }
            V::ReplyNotJson { .. }
            | V::ReplyNotAnObject { .. }
            | V::JsonrpcMissingOrWrong { .. }
            | V::ResultAndErrorNotExclusive { .. }
            | V::ErrorObjectMalformed { .. }
            | V::NoIdSpelledWrong { .. }
            | V::DuplicateIdInReply => rules::REPLY_SHAPE,
            V::UnexpectedCode { cause, .. } | V::MissingReply { cause } => cause_rule(*cause),
            V::IdNotEchoed { .. }
            | V::IdTypeOrPrecisionChanged { .. }
            | V::IdLostAlthoughRecoverable { .. }
            | V::FabricatedId { .. }
            | V::ForbiddenIdEchoed { .. }
            | V::UnreadableInputUnanswered { .. } => rules::ID_RECOVERY,
            V::ReplyToNotification => rules::REQUEST_DISPATCH,
            V::ReplyToResponse => rules::RESPONSES,
            V::BatchRepliesAsLines { .. }
            | V::BatchReplyNotArray
            | V::ArrayReplyToSingleMessage
            | V::BatchCountMismatch { .. }
            | V::ReplyToBatchWithoutRequests => rules::BATCH,
        }
    }
}

fn missing_reply_fix(cause: Cause) -> &'static str {
    match cause {
        Cause::Request => "answer every request, with a result or an error carrying its id",
        Cause::ParseError => "answer it with -32700 without an id; never drop bad input silently",
        Cause::UnreadableId => {
            "answer it with -32600 without an id; an unreadable id does not make a notification"
        }
        Cause::InvalidCall | Cause::NeitherCallNorResponse => {
            "answer it with -32600 and its id when readable; never drop invalid requests silently"
        }
        Cause::NotAnObject | Cause::EmptyBatch | Cause::BatchElementNotAnObject => {
            "answer it with -32600 without an id"
        }
    }
}

fn cause_rule(cause: Cause) -> Rule {
    match cause {
        Cause::ParseError => rules::PARSE,
        Cause::NotAnObject => rules::TOP_LEVEL,
        Cause::EmptyBatch | Cause::BatchElementNotAnObject => rules::BATCH,
        Cause::UnreadableId => rules::ID_RECOVERY,
        Cause::InvalidCall => rules::CALL_VALIDITY,
        Cause::NeitherCallNorResponse => rules::RESPONSES,
        Cause::Request => rules::REQUEST_DISPATCH,
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Violation as V;
        write!(f, "[{}] ", self.rule())?;
        match self {
            V::ReplyNotOneLine { frame } => write!(
                f,
                "the reply {frame} spans several lines; write each reply as one line (no raw line breaks, escape them inside strings)"
            ),
            V::ReplyNotJson { frame } => {
                write!(f, "the reply {frame} is not one JSON value; serialize the reply with a JSON writer")
            }
            V::ReplyNotAnObject { reply } => {
                write!(f, "the reply {reply} is not a JSON object; every reply is an object with jsonrpc, id and result or error")
            }
            V::MoreThanOneReply { count } => {
                write!(f, "{count} frames were written for one message; write exactly one reply line")
            }
            V::JsonrpcMissingOrWrong { got: None } => {
                f.write_str("the reply has no \"jsonrpc\" member; add \"jsonrpc\":\"2.0\" to every reply")
            }
            V::JsonrpcMissingOrWrong { got: Some(got) } => write!(
                f,
                "the reply's \"jsonrpc\" is {}; it must be exactly the string \"2.0\", once",
                shorten(got)
            ),
            V::ResultAndErrorNotExclusive { has_result, has_error } => write!(
                f,
                "the reply has {}; a reply carries exactly one of \"result\" and \"error\"",
                match (has_result, has_error) {
                    (true, true) => "both \"result\" and \"error\"",
                    _ => "neither \"result\" nor \"error\"",
                }
            ),
            V::ErrorObjectMalformed { error, problem } => write!(
                f,
                "the reply's error {error} is malformed ({problem}); write an object with an integer \"code\", a string \"message\" and optional \"data\""
            ),
            V::UnexpectedCode { expected, got, cause } => {
                let got = got.map_or("a result".to_owned(), |code| format!("error code {code}"));
                write!(f, "{cause} was answered with {got}; it must get {expected}")
            }
            V::IdNotEchoed { expected, got } => write!(
                f,
                "the request's id {} came back as {got}; echo the id exactly as received",
                shorten(expected)
            ),
            V::IdTypeOrPrecisionChanged { expected, got } => write!(
                f,
                "the request's id {} came back as {}: its type or number text changed; keep the id's raw JSON text (never convert it through f64, i64 or a string)",
                shorten(expected),
                shorten(got)
            ),
            V::IdLostAlthoughRecoverable { expected, got } => write!(
                f,
                "the reply has {got} although the request's id {} was readable; read the id before validating the rest of the envelope and echo it",
                shorten(expected)
            ),
            V::FabricatedId { got } => write!(
                f,
                "the reply carries id {} although the input had no readable id; write \"id\":null or omit the id as the profile says, never invent one",
                shorten(got)
            ),
            V::ForbiddenIdEchoed { got } => write!(
                f,
                "the reply echoes the input's id {}, which this profile does not admit as an id (or which the input duplicated), so it was unreadable; write \"id\":null or omit the id as the profile says",
                shorten(got)
            ),
            V::NoIdSpelledWrong { null_required: true } => f.write_str(
                "the reply omits the id; this profile's schema requires \"id\":null in an error reply when the id is unreadable",
            ),
            V::NoIdSpelledWrong { null_required: false } => f.write_str(
                "the reply has \"id\":null; this profile's schema makes the id optional, so omit it when the id is unreadable",
            ),
            V::DuplicateIdInReply => f.write_str("the reply has more than one \"id\" member; write it once"),
            V::ReplyToNotification => {
                f.write_str("a notification (a call without an id) got a reply; never reply to notifications, not even with an error")
            }
            V::ReplyToResponse => {
                f.write_str("a response got a reply; route responses to the pending-request table and never answer them")
            }
            V::ReplyToBlankLine => f.write_str("a blank line got a reply; skip blank lines"),
            V::MissingReply { cause } => write!(f, "{cause} got no reply; {}", missing_reply_fix(*cause)),
            V::UnreadableInputUnanswered { cause } => write!(
                f,
                "{cause}, whose id cannot be read, got no reply (no client can be waiting on it, but the sender never learns it was refused); JSON-RPC 2.0 §5 and §7: {}",
                missing_reply_fix(*cause)
            ),
            V::BatchRepliesAsLines { lines } => write!(
                f,
                "a batch was answered with {lines} separate lines; collect the batch's replies into one JSON array on one line"
            ),
            V::BatchReplyNotArray => {
                f.write_str("a batch was answered with something other than an array; answer a batch with one array of replies")
            }
            V::ArrayReplyToSingleMessage => {
                f.write_str("a single message was answered with an array; only a batch gets an array")
            }
            V::BatchCountMismatch { expected, got } => write!(
                f,
                "the batch reply has {got} element(s) but {expected} batch element(s) need a reply; answer each request and invalid element exactly once, and nothing else"
            ),
            V::ReplyToBatchWithoutRequests => f.write_str(
                "a batch of only notifications and responses got a reply; send nothing at all for it",
            ),
        }
    }
}
