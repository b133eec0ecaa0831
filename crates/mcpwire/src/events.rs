//! Protocol events: response-shaped input, which is never answered but reported to the
//! application (for its pending-request table, or as a peer defect).

use crate::decode::{Response, ResponseBody, ResponseDefect};
use crate::id::OwnedId;
use crate::reply::RpcError;

/// Something the peer sent that is not a call: delivered to [`Router::on_event`](crate::Router::on_event).
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
            } => {
                let mut error = RpcError::new(*code, message.as_ref());
                if let Some(raw) =
                    data.and_then(|d| serde_json::value::RawValue::from_string(d.to_owned()).ok())
                {
                    error = error.with_raw_data(raw);
                }
                ProtocolEvent::Error { id, error }
            }
            ResponseBody::Malformed(defect) => ProtocolEvent::MalformedResponse {
                id,
                defect: *defect,
            },
        }
    }
}
