//! What a request handler answers with: the result's JSON text, which the reply is then
//! written around (one copy of the text), or a [`ResultReply`], the reply itself with the
//! result serialized straight after its head, so that the result is written once, into the
//! buffer that is sent.
//!
//! The typed handlers of a [`Router`](crate::Router) (`request`, `request_async`) answer with
//! a [`ResultReply`]; a fallback answers with either (`Box<RawValue>` or `ResultReply`, both
//! [`Into<Answer>`](Answer)).
//!
//! ```
//! use mcpwire::answer::ResultReply;
//! use mcpwire::Id;
//!
//! let id = Id::parse("9007199254740993").unwrap();
//! let reply = ResultReply::write(&id, &["a", "b"]).unwrap();
//! assert_eq!(reply.result(), r#"["a","b"]"#);
//! assert!(reply.answers(&id));
//! ```

use serde::Serialize;
use serde_json::value::RawValue;

use crate::context::CallContext;
use crate::id::Id;
use crate::reply::{self, RpcError};

/// A success reply whose result is already written: `{"jsonrpc":"2.0","id":…,"result":`
/// and the result's JSON text, in the buffer the reply is sent from. The peer closes it when
/// it answers the request with it (see [`Peer::reply_answer`](crate::peer::Peer::reply_answer)).
#[derive(Clone, PartialEq, Eq)]
pub struct ResultReply {
    /// The head, then the result (one line: its line breaks became spaces).
    bytes: Vec<u8>,
    /// Where the result starts.
    start: usize,
}

impl ResultReply {
    /// Serializes `result` as the result of the reply to `id`. A result that does not
    /// serialize (a map with non-string keys) is -32603, as for a typed handler.
    pub fn write<T: Serialize + ?Sized>(id: &Id<'_>, result: &T) -> Result<Self, RpcError> {
        Self::write_with(id, |out| serde_json::to_writer(out, result))
    }

    /// The reply to `id` whose result `write` writes as JSON text into the writer it is
    /// given: for a result whose type is known only to `write` (a boxed value that can write
    /// itself), so that serde's serializer need not be erased to reach it. What `write`
    /// writes must be one JSON value; its error is -32603, as for [`write`](Self::write).
    ///
    /// ```
    /// use mcpwire::answer::ResultReply;
    /// use mcpwire::Id;
    ///
    /// let id = Id::parse("7").unwrap();
    /// let reply = ResultReply::write_with(&id, |out| serde_json::to_writer(out, &[1, 2])).unwrap();
    /// assert_eq!(reply.result(), "[1,2]");
    /// ```
    pub fn write_with(
        id: &Id<'_>,
        write: impl FnOnce(&mut dyn std::io::Write) -> serde_json::Result<()>,
    ) -> Result<Self, RpcError> {
        // Room for a typical result, so that a small one is written without growing.
        let mut bytes = Vec::with_capacity(reply::reply_capacity(id, TYPICAL_RESULT));
        let start = reply::open_success(&mut bytes, id);
        write(&mut Growing(&mut bytes)).map_err(|e| unserializable(&e))?;
        reply::single_line(&mut bytes[start..]);
        // The buffer grew as the result was written, by doubling; a reply waiting to be sent
        // does not keep that room: it is cut to the line, its closing brace and a line end.
        // (The system allocator shrinks a block in place: the bytes are not copied.)
        let line = bytes.len() + 2;
        if bytes.capacity() > line + SLACK {
            bytes.shrink_to(line);
        }
        Ok(Self { bytes, start })
    }

    /// The result's JSON text.
    pub fn result(&self) -> &str {
        // Written by serde_json (UTF-8 always) and only ever changed from `\r`/`\n` to spaces.
        std::str::from_utf8(&self.bytes[self.start..]).expect("serde_json writes UTF-8")
    }

    /// Whether this is the reply to `id`: its head names `id` with the same text.
    pub fn answers(&self, id: &Id<'_>) -> bool {
        const OPEN: &[u8] = br#"{"jsonrpc":"2.0","id":"#;
        const RESULT: &[u8] = br#","result":"#;
        let head = &self.bytes[..self.start];
        let id = id.raw().as_bytes();
        head.len() == OPEN.len() + id.len() + RESULT.len()
            && head.starts_with(OPEN)
            && head.ends_with(RESULT)
            && &head[OPEN.len()..OPEN.len() + id.len()] == id
    }

    /// The finished reply line (without a line end; room for one is reserved when it fits).
    pub(crate) fn close(mut self) -> Vec<u8> {
        self.bytes.reserve_exact(2);
        self.bytes.push(b'}');
        self.bytes
    }
}

impl std::fmt::Debug for ResultReply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResultReply")
            .field("head", &String::from_utf8_lossy(&self.bytes[..self.start]))
            .field("result_len", &(self.bytes.len() - self.start))
            .finish()
    }
}

/// The bytes a reply's buffer first holds for its result.
const TYPICAL_RESULT: usize = 160;

/// The room a written reply may keep beyond its line (small replies are not reallocated).
const SLACK: usize = 4096;

/// The reply's buffer as serde_json writes into it. A write that fits neither in the room
/// left nor in the buffer's whole capacity (a large string, written as one run) reserves
/// what it needs and an eighth more for the result's tail, instead of the doubling the next
/// small write would then cost (twice the memory, and a copy where the allocator cannot grow
/// the block in place). Every other write grows the buffer as a `Vec` does: by doubling,
/// which at most doubles what the reply holds (the slack is cut when it is closed).
struct Growing<'a>(&'a mut Vec<u8>);

impl std::io::Write for Growing<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        let room = self.0.capacity() - self.0.len();
        if buf.len() > room && buf.len() > self.0.capacity() {
            let needed = self.0.len() + buf.len();
            self.0.reserve_exact(needed + needed / 8 - self.0.len());
        }
        self.0.extend_from_slice(buf);
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// -32603 for a result that does not serialize, naming why.
pub(crate) fn unserializable(error: &serde_json::Error) -> RpcError {
    RpcError::internal_error().with_data(&format!("result does not serialize: {error}"))
}

/// What a request handler answers with.
#[derive(Debug, Clone)]
pub enum Answer {
    /// The result's JSON text: the reply is written around a copy of it.
    Text(Box<RawValue>),
    /// The reply, result included, written where it is sent.
    Written(ResultReply),
}

impl From<Box<RawValue>> for Answer {
    fn from(text: Box<RawValue>) -> Self {
        Answer::Text(text)
    }
}

impl From<ResultReply> for Answer {
    fn from(reply: ResultReply) -> Self {
        Answer::Written(reply)
    }
}

impl Answer {
    /// `result` as the answer to the call `ctx` handles, as a typed handler's result is
    /// answered: for a request, the reply to its id with `result` written once, straight
    /// into the buffer it is sent from ([`ResultReply`]); for a notification, whose result
    /// no reply carries, its text. A result that does not serialize is -32603.
    pub fn to_call<R: Serialize + ?Sized>(
        ctx: &CallContext<'_>,
        result: &R,
    ) -> Result<Answer, RpcError> {
        match ctx.id() {
            Some(id) => ResultReply::write(&id, result).map(Answer::Written),
            None => serde_json::value::to_raw_value(result)
                .map(Answer::Text)
                .map_err(|e| unserializable(&e)),
        }
    }

    /// [`to_call`](Self::to_call) for a result that `write` writes as JSON text (see
    /// [`ResultReply::write_with`]).
    ///
    /// ```
    /// use mcpwire::answer::Answer;
    /// use mcpwire::{CallContext, Router, RpcError};
    ///
    /// let router = Router::<()>::new().fallback(|_: &(), _, ctx: &mut CallContext<'_>| {
    ///     Answer::to_call_with(ctx, |out| serde_json::to_writer(out, &"done"))
    /// });
    /// # let _ = router;
    /// ```
    pub fn to_call_with(
        ctx: &CallContext<'_>,
        write: impl FnOnce(&mut dyn std::io::Write) -> serde_json::Result<()>,
    ) -> Result<Answer, RpcError> {
        match ctx.id() {
            Some(id) => ResultReply::write_with(&id, write).map(Answer::Written),
            None => {
                let mut text = Vec::new();
                write(&mut text).map_err(|e| unserializable(&e))?;
                let text = String::from_utf8(text).map_err(|_| {
                    RpcError::internal_error().with_data(&"result is not UTF-8 text")
                })?;
                RawValue::from_string(text)
                    .map(Answer::Text)
                    .map_err(|e| unserializable(&e))
            }
        }
    }

    /// The result's JSON text.
    pub fn result(&self) -> &str {
        match self {
            Answer::Text(text) => text.get(),
            Answer::Written(reply) => reply.result(),
        }
    }
}

#[cfg(feature = "tokio")]
pub(crate) use futures::{AnswerOf, IntoAnswer};

/// Futures that turn a handler's output into its [`Answer`] in place: an `async` block
/// around the handler's future would hold that future twice in its state (once captured,
/// once awaited), and boxing the handler's future first would allocate twice.
#[cfg(feature = "tokio")]
mod futures {
    use std::future::Future;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use serde::Serialize;

    use super::Answer;
    use crate::reply::RpcError;
    use crate::service::AsyncCallContext;

    pin_project_lite::pin_project! {
        /// A fallback's future, its output as an [`Answer`].
        pub(crate) struct IntoAnswer<F> {
            #[pin]
            future: F,
        }
    }

    impl<F> IntoAnswer<F> {
        pub(crate) fn new(future: F) -> Self {
            Self { future }
        }
    }

    impl<F, R> Future for IntoAnswer<F>
    where
        F: Future<Output = Result<R, RpcError>>,
        R: Into<Answer>,
    {
        type Output = Result<Answer, RpcError>;

        fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
            self.project()
                .future
                .poll(cx)
                .map(|out| out.map(Into::into))
        }
    }

    pin_project_lite::pin_project! {
        /// A typed async handler's future, its result written as the reply to its call.
        pub(crate) struct AnswerOf<F> {
            #[pin]
            future: F,
            call: AsyncCallContext,
        }
    }

    impl<F> AnswerOf<F> {
        pub(crate) fn new(future: F, call: AsyncCallContext) -> Self {
            Self { future, call }
        }
    }

    impl<F, R> Future for AnswerOf<F>
    where
        F: Future<Output = Result<R, RpcError>>,
        R: Serialize,
    {
        type Output = Result<Answer, RpcError>;

        fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
            let this = self.project();
            this.future
                .poll(cx)
                .map(|out| out.and_then(|result| Answer::to_call(this.call, &result)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reply::write_success;

    #[test]
    fn a_written_reply_is_the_reply_write_success_gives() {
        let id = Id::parse("9007199254740993").unwrap();
        let raw = RawValue::from_string("{\r\n \"k\" :\n[1,\r2] }".to_owned()).unwrap();
        for (result, text) in [
            (
                serde_json::json!({"a": [1, "b"]}),
                r#"{"a":[1,"b"]}"#.to_owned(),
            ),
            (
                serde_json::json!("x".repeat(100_000)),
                format!("\"{}\"", "x".repeat(100_000)),
            ),
        ] {
            let mut expected = Vec::new();
            write_success(&mut expected, &id, &text);
            let written = ResultReply::write(&id, &result).unwrap();
            assert_eq!(written.result(), text);
            assert_eq!(written.close(), expected);
        }
        // A raw result with line breaks still gives one line.
        let mut expected = Vec::new();
        write_success(&mut expected, &id, raw.get());
        assert_eq!(ResultReply::write(&id, &raw).unwrap().close(), expected);
    }

    #[test]
    fn a_written_reply_keeps_no_more_room_than_its_line_needs() {
        let id = Id::parse("1").unwrap();
        let large = "x".repeat(1 << 20);
        let line = ResultReply::write(&id, &large).unwrap().close();
        assert!(line.capacity() > line.len(), "room for the line end");
        assert!(
            line.capacity() <= line.len() + SLACK,
            "capacity {}",
            line.capacity()
        );
    }

    #[test]
    fn a_written_reply_answers_only_its_id() {
        let reply = ResultReply::write(&Id::parse(r#""a""#).unwrap(), &1).unwrap();
        assert!(reply.answers(&Id::parse(r#""a""#).unwrap()));
        // The same string spelled otherwise is another text: the peer writes the reply anew.
        assert!(!reply.answers(&Id::parse(r#""\u0061""#).unwrap()));
        assert!(!reply.answers(&Id::parse("1").unwrap()));
    }

    #[test]
    fn a_result_that_does_not_serialize_is_an_internal_error() {
        let mut map = std::collections::HashMap::new();
        map.insert(vec![1u8], 1);
        let error = ResultReply::write(&Id::parse("1").unwrap(), &map).unwrap_err();
        assert_eq!(error.code(), crate::code::INTERNAL_ERROR);
    }
}
