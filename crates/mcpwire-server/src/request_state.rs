//! The `requestState` of an MCP 2026-07-28 input-required result: the answers a handler
//! already got in earlier rounds, carried by the client from one retry to the next because
//! a stateless server keeps nothing between requests.
//!
//! The state is sealed, not encrypted: `rs1.` + hex(JSON payload) + `.` + hex(HMAC-SHA256 of
//! the payload under the server's [`StateKey`]). The payload names the request it was issued
//! for (method, tool/prompt name or resource URI, and a digest of the arguments) and when it
//! expires. On the way back a state longer than [`MAX_REQUEST_STATE`], not in this shape,
//! whose seal does not verify, issued for another request, or expired is -32602 naming
//! `/requestState`, before any handler runs.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hmac::{Hmac, KeyInit, Mac};
use mcpwire::RpcError;
use mcpwire_types::JsonObject;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// The longest `requestState` this server writes or reads back, in bytes.
pub const MAX_REQUEST_STATE: usize = 64 * 1024;

/// How long a `requestState` stays valid after it was issued: long enough for a user to fill
/// in a form, short enough to bound a replay.
pub(crate) const STATE_LIFETIME: Duration = Duration::from_secs(60 * 60);

const PREFIX: &str = "rs1.";

/// The fewest bytes a shared `requestState` secret may have: HMAC-SHA256's key strength.
pub const MIN_STATE_SECRET: usize = 32;

/// The secret that seals `requestState`: random per server unless set with
/// [`McpServerBuilder::request_state_secret`](crate::McpServerBuilder::request_state_secret)
/// (needed when several server processes answer the same clients).
#[derive(Clone)]
pub(crate) struct StateKey([u8; 32]);

impl std::fmt::Debug for StateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StateKey(..)")
    }
}

impl StateKey {
    /// 256 bits from the operating system's random source; fails when it has none (the
    /// builder then asks for [`McpServerBuilder::request_state_secret`](crate::McpServerBuilder::request_state_secret)
    /// rather than seal with a guessable key).
    pub(crate) fn random() -> Result<Self, getrandom::Error> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key)?;
        Ok(StateKey(key))
    }

    /// The key derived from a secret shared by several server processes.
    pub(crate) fn from_secret(secret: &[u8]) -> Self {
        StateKey(Sha256::digest(secret).into())
    }

    /// The key derived from a secret shared by several server processes, which must be at
    /// least [`MIN_STATE_SECRET`] bytes; `Err` with its length otherwise.
    pub(crate) fn from_secret_checked(secret: &[u8]) -> Result<Self, usize> {
        if secret.len() < MIN_STATE_SECRET {
            return Err(secret.len());
        }
        Ok(Self::from_secret(secret))
    }

    /// HMAC-SHA256 (RFC 2104) under this key, ready for a message.
    fn mac(&self) -> Hmac<Sha256> {
        <Hmac<Sha256> as KeyInit>::new_from_slice(&self.0).expect("HMAC takes a key of any length")
    }

    /// HMAC-SHA256 of `message`.
    fn tag(&self, message: &[u8]) -> [u8; 32] {
        self.mac()
            .chain_update(message)
            .finalize()
            .into_bytes()
            .into()
    }

    /// Whether `tag` is the HMAC-SHA256 of `message`, compared in constant time.
    fn verifies(&self, message: &[u8], tag: &[u8]) -> bool {
        self.mac().chain_update(message).verify_slice(tag).is_ok()
    }
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

/// What a request's states are bound to ([`binding`]), worked out when first needed: to
/// open a carried state (so at once when the request carries one), or to seal a new one
/// (when its handler asks the client). Most requests do neither, so most never hash their
/// arguments: a `tools/call` hands its arguments over once its tool has decoded them.
#[derive(Debug)]
pub(crate) struct Binding {
    /// The request's method (`tools/call`, `prompts/get` or `resources/read`).
    method: &'static str,
    /// The tool or prompt name, or the resource URI.
    target: String,
    /// The arguments.
    arguments: Arguments,
    /// Once worked out.
    digest: Option<String>,
}

/// The arguments a [`Binding`] is worked out from.
#[derive(Debug)]
pub(crate) enum Arguments {
    /// The request has none (`resources/read`, or a call that sent none): bound as `null`.
    Absent,
    /// A tool's arguments, to be handed over once the tool has decoded them
    /// ([`Binding::arguments`]).
    Pending,
    /// The arguments' value.
    Value(Value),
    /// A tool's arguments, as sent.
    Object(JsonObject),
}

impl Binding {
    /// The binding of a `method` request on `target` with `arguments`.
    pub(crate) fn new(method: &'static str, target: String, arguments: Arguments) -> Self {
        Binding {
            method,
            target,
            arguments,
            digest: None,
        }
    }

    /// Hands over a tool's arguments (see [`Arguments::Pending`]).
    pub(crate) fn arguments(&mut self, arguments: JsonObject) {
        if matches!(self.arguments, Arguments::Pending) {
            self.arguments = Arguments::Object(arguments);
        }
    }

    /// The digest, worked out on the first call.
    pub(crate) fn digest(&mut self) -> &str {
        let Binding {
            method,
            target,
            arguments,
            digest,
        } = self;
        digest.get_or_insert_with(|| {
            debug_assert!(
                !matches!(arguments, Arguments::Pending),
                "a tool's arguments are handed over before its binding is needed"
            );
            match arguments {
                Arguments::Object(object) => binding(method, target, &arguments_value(object)),
                Arguments::Value(value) => binding(method, target, value),
                Arguments::Absent | Arguments::Pending => binding(method, target, &Value::Null),
            }
        })
    }
}

/// A tool's arguments as the value a binding digests: bound to the value, not its spelling,
/// since a client may re-encode them.
pub(crate) fn arguments_value(arguments: &JsonObject) -> Value {
    arguments
        .to_value()
        .unwrap_or_else(|_| Value::String(arguments.text().to_owned()))
}

/// What a state is bound to: a digest of the method, the target (tool or prompt name,
/// resource URI) and the arguments of the request it was issued for.
pub(crate) fn binding(method: &str, target: &str, arguments: &Value) -> String {
    let mut hashing = Hashing(
        Sha256::new()
            .chain_update(method)
            .chain_update([0])
            .chain_update(target)
            .chain_update([0]),
    );
    // The arguments' text streamed into the digest, never held as a string of its own.
    let written = serde_json::to_writer(&mut hashing, arguments);
    debug_assert!(written.is_ok(), "writing into a digest cannot fail");
    crate::hex::encode(&hashing.0.finalize()[..16])
}

/// A digest as an [`std::io::Write`], so that serde_json writes text straight into it.
struct Hashing(Sha256);

impl std::io::Write for Hashing {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The sealed payload.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Payload {
    /// [`binding`] of the request.
    #[serde(rename = "for")]
    binding: String,
    /// Unix seconds after which the state is refused.
    expires: u64,
    /// The answers so far, by input key.
    answers: Map<String, Value>,
}

/// Seals `answers` for the request `binding` names. A state that would be longer than
/// [`MAX_REQUEST_STATE`] is -32603: the handler asked for more than a state can carry.
pub(crate) fn seal(
    key: &StateKey,
    binding: &str,
    answers: Map<String, Value>,
) -> Result<String, RpcError> {
    seal_at(key, binding, answers, now_secs())
}

/// [`seal`] as if it were `now` (Unix seconds).
fn seal_at(
    key: &StateKey,
    binding: &str,
    answers: Map<String, Value>,
    now: u64,
) -> Result<String, RpcError> {
    let payload = Payload {
        binding: binding.to_owned(),
        expires: now.saturating_add(STATE_LIFETIME.as_secs()),
        answers,
    };
    let bytes = serde_json::to_vec(&payload).map_err(|e| {
        RpcError::internal_error().with_data(&format!("requestState does not serialize: {e}"))
    })?;
    let state = format!(
        "{PREFIX}{}.{}",
        crate::hex::encode(&bytes),
        crate::hex::encode(&key.tag(&bytes))
    );
    if state.len() > MAX_REQUEST_STATE {
        return Err(RpcError::internal_error().with_data(&json!({
            "reason": format!(
                "the answers gathered need a requestState of {} bytes, over the {MAX_REQUEST_STATE}-byte bound",
                state.len()
            ),
        })));
    }
    Ok(state)
}

/// The answers a state carries, after checking its size, shape, seal, binding and expiry.
pub(crate) fn open(
    key: &StateKey,
    state: &str,
    binding: &str,
) -> Result<Map<String, Value>, RpcError> {
    if state.len() > MAX_REQUEST_STATE {
        return Err(refused(&format!(
            "{} bytes, over the {MAX_REQUEST_STATE}-byte bound",
            state.len()
        )));
    }
    let not_issued = || refused("not a requestState this server issued");
    let (payload, tag) = state
        .strip_prefix(PREFIX)
        .and_then(|rest| rest.split_once('.'))
        .ok_or_else(not_issued)?;
    let payload = crate::hex::decode(payload).ok_or_else(not_issued)?;
    let tag = crate::hex::decode(tag).ok_or_else(not_issued)?;
    if !key.verifies(&payload, &tag) {
        return Err(refused(
            "its seal does not verify (altered, or from another server)",
        ));
    }
    let payload: Payload = serde_json::from_slice(&payload).map_err(|_| not_issued())?;
    if payload.binding != binding {
        return Err(refused(
            "issued for another request (method, name or arguments differ)",
        ));
    }
    if now_secs() > payload.expires {
        return Err(refused("expired"));
    }
    Ok(payload.answers)
}

fn refused(reason: &str) -> RpcError {
    RpcError::invalid_params().with_data(&json!({
        "pointer": "/requestState",
        "reason": format!("requestState refused: {reason}"),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(error: &RpcError) -> String {
        let data: Value = serde_json::from_str(error.data().unwrap().get()).unwrap();
        assert_eq!(data["pointer"], "/requestState");
        assert_eq!(error.code(), -32602);
        data["reason"].as_str().unwrap().to_owned()
    }

    fn answers() -> Map<String, Value> {
        json!({ "elicitation-0-ab": { "action": "decline" } })
            .as_object()
            .unwrap()
            .clone()
    }

    #[test]
    fn hmac_matches_the_rfc_4231_vector() {
        // RFC 4231 test case 1: a 20-byte key, which HMAC pads with zeros as ours is.
        let mut key = [0u8; 32];
        key[..20].copy_from_slice(&[0x0b; 20]);
        let tag = StateKey(key).tag(b"Hi There");
        assert_eq!(
            crate::hex::encode(&tag),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
    }

    #[test]
    fn a_sealed_state_opens_only_for_its_request_and_key() {
        let key = StateKey::random().unwrap();
        let bound = binding("tools/call", "greet", &json!({}));
        let state = seal(&key, &bound, answers()).unwrap();
        assert_eq!(open(&key, &state, &bound).unwrap(), answers());

        let other = binding("tools/call", "greet", &json!({ "x": 1 }));
        assert!(reason(&open(&key, &state, &other).unwrap_err()).contains("another request"));
        let stranger = StateKey::from_secret(b"another server");
        assert!(reason(&open(&stranger, &state, &bound).unwrap_err()).contains("does not verify"));
        for garbage in ["", "rs1.", "rs1.zz.00", "hello", "rs1.00"] {
            assert!(
                reason(&open(&key, garbage, &bound).unwrap_err()).contains("not a requestState"),
                "{garbage}"
            );
        }
        let huge = "a".repeat(MAX_REQUEST_STATE + 1);
        assert!(reason(&open(&key, &huge, &bound).unwrap_err()).contains("-byte bound"));
    }

    #[test]
    fn an_expired_state_is_refused() {
        let key = StateKey::random().unwrap();
        let issued = now_secs() - STATE_LIFETIME.as_secs() - 5;
        let state = seal_at(&key, "b", answers(), issued).unwrap();
        assert!(reason(&open(&key, &state, "b").unwrap_err()).contains("expired"));
    }

    #[test]
    fn the_same_secret_gives_the_same_key() {
        let bound = binding("prompts/get", "p", &json!({}));
        let secret = b"0123456789abcdef0123456789abcdef";
        let state = seal(&StateKey::from_secret(secret), &bound, answers()).unwrap();
        assert!(open(&StateKey::from_secret(secret), &state, &bound).is_ok());
    }

    #[test]
    fn a_secret_shorter_than_32_bytes_is_refused() {
        assert_eq!(StateKey::from_secret_checked(b"short").err(), Some(5));
        let thirty_one = [7u8; 31];
        assert_eq!(StateKey::from_secret_checked(&thirty_one).err(), Some(31));
        assert!(StateKey::from_secret_checked(&[7u8; 32]).is_ok());
    }

    #[test]
    fn a_tag_one_bit_off_or_cut_short_does_not_verify() {
        let key = StateKey::random().unwrap();
        let tag = key.tag(b"payload");
        assert!(key.verifies(b"payload", &tag));
        let mut flipped = tag;
        flipped[31] ^= 1;
        assert!(!key.verifies(b"payload", &flipped));
        assert!(!key.verifies(b"payload", &tag[..31]));
        assert!(!key.verifies(b"payload", &[]));
    }

    #[test]
    fn answers_too_large_for_a_state_are_an_internal_error() {
        let mut big = Map::new();
        big.insert("k".into(), "x".repeat(MAX_REQUEST_STATE).into());
        let error = seal(&StateKey::random().unwrap(), "b", big).unwrap_err();
        assert_eq!(error.code(), -32603);
    }
}
