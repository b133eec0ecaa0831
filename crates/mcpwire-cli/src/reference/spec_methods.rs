//! The methods used by the examples of JSON-RPC 2.0 specification section 7, served under the
//! `jsonrpc-2.0` profile so those examples can be replayed against `mcpwire serve` verbatim.

use mcpwire::{CallContext, Router, RpcError};
use serde::Deserialize;
use serde_json::{Number, Value};

use super::ReferenceState;

/// `subtract` takes its operands by position (`[42, 23]`) or by name
/// (`{"minuend": 42, "subtrahend": 23}`).
#[derive(Deserialize)]
#[serde(untagged)]
enum SubtractParams {
    Positional(Number, Number),
    Named { minuend: Number, subtrahend: Number },
}

/// Registers `subtract`, `sum`, `get_data` and the notifications `update`, `notify_hello`,
/// `notify_sum`; and `ping` (answered `{}`, any params), the method `mcpwire check` probes
/// with by default.
pub(crate) fn register(router: Router<ReferenceState>) -> Router<ReferenceState> {
    router
        .request(
            "ping",
            |_: &ReferenceState, _: Option<Value>, _: &mut CallContext<'_>| {
                Ok::<_, RpcError>(serde_json::json!({}))
            },
        )
        .request(
            "subtract",
            |_: &ReferenceState, p: SubtractParams, _: &mut CallContext<'_>| {
                let (a, b) = match p {
                    SubtractParams::Positional(a, b) => (a, b),
                    SubtractParams::Named {
                        minuend,
                        subtrahend,
                    } => (minuend, subtrahend),
                };
                arithmetic(&a, &b, i64::checked_sub, |x, y| x - y)
            },
        )
        .request(
            "sum",
            |_: &ReferenceState, p: Vec<Number>, _: &mut CallContext<'_>| {
                p.iter().try_fold(Number::from(0), |acc, n| {
                    arithmetic(&acc, n, i64::checked_add, |x, y| x + y)
                })
            },
        )
        .request(
            "get_data",
            |_: &ReferenceState, _: Value, _: &mut CallContext<'_>| {
                Ok(serde_json::json!(["hello", 5]))
            },
        )
        .notification("update", count_notification)
        .notification("notify_hello", count_notification)
        .notification("notify_sum", count_notification)
}

fn count_notification(state: &ReferenceState, _: Value, _: &mut CallContext<'_>) {
    state
        .notifications_seen
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// Integer arithmetic when both operands are integers and the result fits, else `f64`.
fn arithmetic(
    a: &Number,
    b: &Number,
    int_op: fn(i64, i64) -> Option<i64>,
    float_op: fn(f64, f64) -> f64,
) -> Result<Number, RpcError> {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64())
        && let Some(r) = int_op(x, y)
    {
        return Ok(Number::from(r));
    }
    let (x, y) = (
        a.as_f64().unwrap_or(f64::NAN),
        b.as_f64().unwrap_or(f64::NAN),
    );
    Number::from_f64(float_op(x, y))
        .ok_or_else(|| RpcError::invalid_params().with_data("result is not a finite number"))
}
