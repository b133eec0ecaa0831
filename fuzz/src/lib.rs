//! Oracles of the fuzz targets. Each `check` panics (which libFuzzer reports as a crash)
//! when the runtime breaks a wire rule on the input. The oracles never ask the runtime what
//! the answer should be: they use serde_json, an independent line splitter and the upstream
//! JSON Schemas.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod framing;
pub mod json;
#[cfg(feature = "typed")]
pub mod typed;
pub mod wire;

use mcpwire::{CallContext, Profile, Router, RpcError, Server};
use serde_json::Value;

/// The server every target drives: `echo` returns its params, `fail` answers an error with
/// data, `big` returns a string of the requested length (up to 4096), `note` is a
/// notification. Handlers never panic: libFuzzer's panic hook would abort even on a panic
/// the server catches.
pub fn server(profile: Profile) -> Server<()> {
    let router = Router::new()
        .request(
            "echo",
            |_: &(), params: Option<Value>, _: &mut CallContext<'_>| Ok::<_, RpcError>(params),
        )
        .request(
            "fail",
            |_: &(), _: Option<Value>, _: &mut CallContext<'_>| {
                Err::<(), _>(RpcError::new(-1, "failed\n").with_data(&[1, 2]))
            },
        )
        .request("big", |_: &(), len: [usize; 1], _: &mut CallContext<'_>| {
            Ok::<_, RpcError>("x".repeat(len[0].min(4096)))
        })
        .notification(
            "note",
            |_: &(), _: Option<Value>, _: &mut CallContext<'_>| {},
        );
    Server::new(profile, (), router)
}
