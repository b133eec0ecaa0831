//! Comparing ids as JSON values, on their exact text (never through f64 for equality). Value
//! equality and the 2^53 bound come from `mcpwire-proptest` (shared with its judging).

use mcpwire_proptest::json::unescape;

pub use mcpwire_proptest::findings::{is_big_integer, same_value};

/// Whether a reply's id text plausibly answers a request with id `sent`: the same value, or the
/// same number after a lossy conversion (f64 rounding, number ↔ string). Used to attribute a
/// reply to its case even when the server changed the id.
///
/// ```
/// use mcpwire_cli::check::ids::related;
/// assert!(related("9007199254740993", "9007199254740992"));
/// assert!(related("7", r#""7""#));
/// assert!(!related("7", "8"));
/// ```
pub fn related(sent: &str, got: &str) -> bool {
    if sent == got || same_value(sent, got) {
        return true;
    }
    let as_number = |t: &str| -> Option<f64> {
        let text = if t.starts_with('"') {
            unescape(t)
        } else {
            t.to_owned()
        };
        if !mcpwire_proptest::findings::is_number(text.trim()) {
            return None;
        }
        text.trim().parse::<f64>().ok().filter(|f| f.is_finite())
    };
    match (as_number(sent), as_number(got)) {
        (Some(a), Some(b)) => a == b || (a - b).abs() <= a.abs().max(b.abs()) * 1e-12,
        _ => false,
    }
}
