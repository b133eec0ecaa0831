//! The oracle: what a correct server must send back for one input frame.

use std::fmt;

/// Error codes with a fixed meaning in the wire rules.
pub mod codes {
    /// Parse error: the bytes are not one JSON value.
    pub const PARSE_ERROR: i64 = -32700;
    /// Invalid request: the envelope breaks a rule.
    pub const INVALID_REQUEST: i64 = -32600;
    /// The method is not known to the server.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// The method rejected its params.
    pub const INVALID_PARAMS: i64 = -32602;
    /// The handler failed internally.
    pub const INTERNAL_ERROR: i64 = -32603;
}

/// What a correct server sends back for one input frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// Nothing at all.
    NoReply(Silence),
    /// Exactly one reply object.
    Reply(ExpectedReply),
    /// A request that a later `notifications/cancelled` of the same batch names: the
    /// reply may be left out, and when it is sent it must be this one (see
    /// [`crate::batch_cancel`]). Only ever an element of a `Batch`.
    ReplyOptional(ExpectedReply),
    /// The input is a non-empty batch: one expectation per element, in input order
    /// (never a nested `Batch`). The reply is one array holding one reply per `Reply`
    /// element and at most one per `ReplyOptional` element, in any order. When that array
    /// would be empty, nothing is sent; when it could be, sending nothing is correct too.
    Batch(Vec<Expected>),
}

/// Why a correct server stays silent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Silence {
    /// The input is a valid notification.
    Notification,
    /// The input is a response (valid or not); it belongs to the caller's pending table.
    Response,
    /// The frame is blank.
    BlankLine,
}

/// One reply a correct server must send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectedReply {
    /// The id the reply must carry.
    pub id: ReplyId,
    /// Result or error codes allowed.
    pub outcome: Outcome,
    /// What the input was, for messages.
    pub cause: Cause,
}

/// The id a reply must carry.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ReplyId {
    /// The request's id, as its exact JSON text.
    Echo(String),
    /// No id: `"id":null` where the profile requires an id in error responses,
    /// omitted where it does not.
    Absent,
}

/// What the body of a reply may be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// An error with one of these codes; no result.
    Error(Vec<i64>),
    /// A result, or an error with any code not listed.
    ResultOrErrorExcept(Vec<i64>),
}

impl Outcome {
    /// Whether a reply with this body is allowed: `None` is a result, `Some(code)` an error.
    ///
    /// ```
    /// use mcpwire_proptest::{Outcome, codes};
    /// let parse = Outcome::Error(vec![codes::PARSE_ERROR]);
    /// assert!(parse.allows(Some(-32700)));
    /// assert!(!parse.allows(None));
    /// ```
    pub fn allows(&self, got: Option<i64>) -> bool {
        match (self, got) {
            (Outcome::Error(codes), Some(code)) => codes.contains(&code),
            (Outcome::Error(_), None) => false,
            (Outcome::ResultOrErrorExcept(_), None) => true,
            (Outcome::ResultOrErrorExcept(codes), Some(code)) => !codes.contains(&code),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |codes: &[i64]| {
            codes
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(" or ")
        };
        match self {
            Outcome::Error(codes) => write!(f, "an error with code {}", list(codes)),
            Outcome::ResultOrErrorExcept(codes) => {
                write!(
                    f,
                    "a result or an error with any code except {}",
                    list(codes)
                )
            }
        }
    }
}

/// What made a reply necessary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cause {
    /// The bytes are not UTF-8 or not exactly one JSON value.
    ParseError,
    /// The top level is neither an object nor (where batches exist) an array.
    NotAnObject,
    /// An empty batch `[]`.
    EmptyBatch,
    /// A batch element that is not an object.
    BatchElementNotAnObject,
    /// A call (it has `method`) whose id is duplicated or of a forbidden type.
    UnreadableId,
    /// A call (it has `method`) that breaks an envelope rule.
    InvalidCall,
    /// An object that is neither a call nor a response.
    NeitherCallNorResponse,
    /// A valid request.
    Request,
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Cause::ParseError => "a frame that is not JSON",
            Cause::NotAnObject => "a top-level value that is not an object",
            Cause::EmptyBatch => "an empty batch",
            Cause::BatchElementNotAnObject => "a batch element that is not an object",
            Cause::UnreadableId => "a call whose id is duplicated or of a type the profile forbids",
            Cause::InvalidCall => "an invalid request",
            Cause::NeitherCallNorResponse => "an object with none of method/result/error",
            Cause::Request => "a valid request",
        })
    }
}

impl Expected {
    /// An error reply without an id.
    pub fn error_without_id(code: i64, cause: Cause) -> Expected {
        Expected::Reply(ExpectedReply {
            id: ReplyId::Absent,
            outcome: Outcome::Error(vec![code]),
            cause,
        })
    }

    /// Whether a correct server must write something.
    pub fn expects_output(&self) -> bool {
        match self {
            Expected::NoReply(_) | Expected::ReplyOptional(_) => false,
            Expected::Reply(_) => true,
            Expected::Batch(elements) => elements.iter().any(Expected::expects_output),
        }
    }

    /// Whether a correct server may write something: a reply is owed, or a reply that a
    /// same-batch cancel made optional may be sent. `false` only for input that gets no
    /// reply at all (a notification, a response, blank input, a batch of those): the input
    /// a transport treats as holding no request.
    pub fn may_reply(&self) -> bool {
        match self {
            Expected::NoReply(_) => false,
            Expected::Reply(_) | Expected::ReplyOptional(_) => true,
            Expected::Batch(elements) => elements.iter().any(Expected::may_reply),
        }
    }
}
