//! Named mutations of valid messages, each generated case carrying its oracle.
//!
//! A [`Case`] is built from small shrinkable parts (a valid message, a mutation with its
//! own small data), so a failing case shrinks to the smallest frame that still fails. The
//! oracle ([`Case::expected`]) is computed from the mutation applied to the valid message,
//! never by running the server under test, and independently of [`crate::derive_expected`]
//! (the crate's tests check that both agree).
//!
//! ```
//! use mcpwire_proptest::mutations::case;
//! use mcpwire_proptest::{check_expected, Vocabulary};
//! use mcpwire_proptest::facts::MCP_LATEST;
//! use proptest::prelude::*;
//!
//! fn my_server(frame: &[u8]) -> Vec<Vec<u8>> {
//!     mcpwire_proptest::faulty::reference_reply(&MCP_LATEST, frame)
//! }
//!
//! proptest!(|(case in case(&MCP_LATEST, Vocabulary::DEFAULT))| {
//!     let replies = my_server(&case.frame);
//!     let replies: Vec<&[u8]> = replies.iter().map(Vec::as_slice).collect();
//!     if let Err(violations) = check_expected(&MCP_LATEST, &case.expected, &replies) {
//!         panic!("{}: {}", case.mutation.name(), violations[0]);
//!     }
//! });
//! ```

mod apply;
mod strategy;
#[cfg(test)]
mod tests;

use std::fmt;

use proptest::sample::Index;

use crate::expected::Expected;
use crate::ids::GeneratedId;
use crate::message::{Call, Message};
use crate::violation::shorten;

pub use apply::{build_batch_case, build_case};
pub use strategy::{batch_mutation, batch_mutation_from, case, case_from, edit, frame_mutation};

/// An edit of a call's members that keeps the frame valid JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// `jsonrpc` set to another string, e.g. `"1.0"`.
    JsonrpcWrongVersion(String),
    /// `jsonrpc` removed.
    JsonrpcMissing,
    /// `jsonrpc` set to a non-string, e.g. `2.0`.
    JsonrpcNotString(String),
    /// `method` set to a non-string.
    MethodNotString(String),
    /// `method` set to an `rpc.`-prefixed name (possibly escaped).
    MethodRpcPrefixed(String),
    /// `method` removed.
    MethodMissing,
    /// A second `method` member appended.
    MethodDuplicated(String),
    /// The id replaced (or added) with a type the profile forbids.
    IdForbidden(GeneratedId),
    /// A second `id` member appended (of any type).
    IdDuplicated(GeneratedId),
    /// The id (added if missing) written under the escaped key `"\u0069d"`; still valid.
    IdKeyEscaped(GeneratedId),
    /// `params` set to a scalar.
    ParamsScalar(String),
    /// `params` set to `null`.
    ParamsNull,
    /// `params` set to an array (invalid for MCP, valid for JSON-RPC 2.0).
    ParamsArray(String),
    /// Both `result` and `error` added to the call.
    ResultAndError,
}

/// A named mutation of a valid message; [`Mutation::name`] is stable.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// No mutation: the valid message itself.
    Valid,
    /// A member-level edit of a call.
    Edit(Edit),
    /// The frame cut before its end.
    Truncated(Index),
    /// Non-whitespace bytes after the value.
    TrailingBytes(String),
    /// A UTF-8 byte order mark before the frame (skipped by the rules).
    LeadingBom,
    /// JSON whitespace (spaces, tabs) around every token and a `\r` at the end.
    Whitespace(String),
    /// A member nested `depth` arrays deep, before or after the id.
    DeepNesting {
        /// Nesting depth, up to 100,000.
        depth: usize,
        /// Whether the member precedes the id.
        before_id: bool,
    },
    /// Params replaced by an object holding arrays nested `depth` deep.
    DeepParams(usize),
    /// An extra member holding a string of `len` bytes.
    HugeString(usize),
    /// Bytes that are not UTF-8 inserted at some position.
    InvalidUtf8 {
        /// Where.
        at: Index,
        /// Which invalid bytes.
        bytes: Vec<u8>,
    },
    /// `[]`.
    BatchEmpty,
    /// A batch whose only element is an array of valid messages.
    BatchNested(Vec<Message>),
    /// A batch of valid messages, edited calls and non-object elements.
    BatchMixed(Vec<BatchElement>),
    /// A batch of notifications only.
    BatchAllNotifications(Vec<Call>),
}

/// One element of a mixed batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchElement {
    /// A valid message.
    Valid(Message),
    /// A call with an edit.
    Edited(Call, Edit),
    /// A non-object value.
    NotAnObject(String),
}

impl Edit {
    /// The edit's stable name.
    pub fn name(&self) -> &'static str {
        match self {
            Edit::JsonrpcWrongVersion(_) => "jsonrpc-wrong-version",
            Edit::JsonrpcMissing => "jsonrpc-missing",
            Edit::JsonrpcNotString(_) => "jsonrpc-not-string",
            Edit::MethodNotString(_) => "method-not-string",
            Edit::MethodRpcPrefixed(_) => "method-rpc-prefixed",
            Edit::MethodMissing => "method-missing",
            Edit::MethodDuplicated(_) => "method-duplicated",
            Edit::IdForbidden(_) => "id-forbidden-type",
            Edit::IdDuplicated(_) => "id-duplicated",
            Edit::IdKeyEscaped(_) => "id-key-escaped",
            Edit::ParamsScalar(_) => "params-scalar",
            Edit::ParamsNull => "params-null",
            Edit::ParamsArray(_) => "params-array",
            Edit::ResultAndError => "result-and-error",
        }
    }
}

impl Mutation {
    /// The mutation's stable name, e.g. `jsonrpc-missing`, `deep-nesting`, `batch-mixed`.
    pub fn name(&self) -> &'static str {
        match self {
            Mutation::Valid => "valid",
            Mutation::Edit(edit) => edit.name(),
            Mutation::Truncated(_) => "truncated",
            Mutation::TrailingBytes(_) => "trailing-bytes",
            Mutation::LeadingBom => "leading-bom",
            Mutation::Whitespace(_) => "whitespace",
            Mutation::DeepNesting {
                before_id: true, ..
            } => "deep-nesting-before-id",
            Mutation::DeepNesting {
                before_id: false, ..
            } => "deep-nesting-after-id",
            Mutation::DeepParams(_) => "deep-params",
            Mutation::HugeString(_) => "huge-string",
            Mutation::InvalidUtf8 { .. } => "invalid-utf8",
            Mutation::BatchEmpty => "batch-empty",
            Mutation::BatchNested(_) => "batch-nested",
            Mutation::BatchMixed(_) => "batch-mixed",
            Mutation::BatchAllNotifications(_) => "batch-all-notifications",
        }
    }
}

/// A generated input frame with its oracle.
#[derive(Clone)]
pub struct Case {
    /// The mutation applied.
    pub mutation: Mutation,
    /// The frame's bytes (one line, no line ending).
    pub frame: Vec<u8>,
    /// What a correct server must send back.
    pub expected: Expected,
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Case")
            .field("mutation", &self.mutation.name())
            .field("frame", &shorten(&String::from_utf8_lossy(&self.frame)))
            .field("frame_len", &self.frame.len())
            .field("expected", &self.expected)
            .finish()
    }
}
