//! The HTTP status of a POST, from what the body was.

use mcpwire::{Decoded, Message, Profile};

/// The status of a POST whose `body` was handled under `profile` (the profile in force before
/// the body) and answered with a reply or not (`replied`), per the MCP Streamable HTTP transport:
/// 202 Accepted when there is nothing to answer; 200 OK when the body held a request whose id
/// the server read (its reply, success or error, carries that id) or a batch; 400 Bad Request
/// when the reply is an error without an id (the body is not JSON, not an object, an empty
/// batch, or a message whose id is unreadable or that is neither request, notification nor
/// response).
///
/// ```
/// use mcpwire::Profile;
/// use mcpwire_cli::http::status_for;
///
/// let p = Profile::jsonrpc_2_0();
/// assert_eq!(status_for(&p, br#"{"jsonrpc":"2.0","method":"n"}"#, false), 202);
/// assert_eq!(status_for(&p, br#"{"jsonrpc":"2.0","id":null,"method":"nope"}"#, true), 200);
/// assert_eq!(status_for(&p, br#"{"jsonrpc":"1.0","id":3,"method":"nope"}"#, true), 200);
/// assert_eq!(status_for(&p, br#"{"jsonrpc":"1.0","method":"nope"}"#, true), 400);
/// assert_eq!(status_for(&p, b"{", true), 400);
/// assert_eq!(status_for(&p, b"[1]", true), 200);
/// ```
pub fn status_for(profile: &Profile, body: &[u8], replied: bool) -> u16 {
    if !replied {
        return 202;
    }
    match mcpwire::decode(body, profile) {
        Decoded::Rejected(_) => 400,
        Decoded::Batch(_) => 200,
        Decoded::Single(Message::Invalid { id: None, .. }) => 400,
        Decoded::Single(_) => 200,
    }
}
