//! Protocol events: input that is never answered but reported to the application:
//! response-shaped input (for its pending-request table, or as a peer defect) and
//! notifications whose params do not decode. A `ProtocolEvent` is the owned form of the peer
//! [`Event`](crate::peer::Event)s an application is told about
//! ([`Event::protocol_event`](crate::peer::Event::protocol_event)), kept after the frame is gone.

use crate::decode::{Response, ResponseBody, ResponseDefect};
use crate::id::OwnedId;
use crate::reply::RpcError;

/// Something the peer sent that gets no reply and no handler call: delivered to [`Router::on_event`](crate::Router::on_event).
///
/// Owned, unlike [`peer::Event`](crate::peer::Event): the hook may keep it, or move it into
/// a task, after the frame it came in is gone; and it holds no [`Call`](crate::peer::Call),
/// since nothing here is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProtocolEvent {
    /// A well-formed success response.
    Result {
        /// The id it answers.
        id: OwnedId,
        /// The raw `result` JSON text.
        result: String,
    },
    /// A well-formed error response.
    Error {
        /// The id it answers; `None` when the peer could not read the request's id.
        id: Option<OwnedId>,
        /// The error object.
        error: RpcError,
    },
    /// A notification whose params did not decode as its handler's params type (it is never
    /// answered, so this event is the only trace of it).
    InvalidNotification {
        /// The method.
        method: String,
        /// The -32602 error a request with these params would have been answered with
        /// (its `data` names the JSON pointer that failed).
        error: RpcError,
    },
    /// A malformed response (never answered, by rule 8).
    MalformedResponse {
        /// The id, when it could be recovered.
        id: Option<OwnedId>,
        /// What is wrong.
        defect: ResponseDefect,
    },
}

impl ProtocolEvent {
    /// Converts a decoded response into an owned event.
    pub fn from_response(response: &Response<'_>) -> Self {
        let id = response.id.map(|id| id.to_owned_id());
        match &response.body {
            ResponseBody::Result(result) => match id {
                Some(id) => ProtocolEvent::Result {
                    id,
                    result: (*result).to_owned(),
                },
                None => ProtocolEvent::MalformedResponse {
                    id: None,
                    defect: ResponseDefect::Id,
                },
            },
            ResponseBody::Error {
                code,
                message,
                data,
            } => ProtocolEvent::Error {
                id,
                error: error_object(*code, message, *data),
            },
            ResponseBody::Malformed(defect) => ProtocolEvent::MalformedResponse {
                id,
                defect: *defect,
            },
        }
    }
}

/// The [`RpcError`] an error response carries (its `data` kept as raw JSON text).
pub(crate) fn error_object(code: i64, message: &str, data: Option<&str>) -> RpcError {
    let error = RpcError::new(code, message);
    match data.and_then(|d| serde_json::value::RawValue::from_string(d.to_owned()).ok()) {
        Some(raw) => error.with_raw_data(raw),
        None => error,
    }
}
