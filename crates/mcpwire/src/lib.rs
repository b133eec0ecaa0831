//! mcpwire runtime.
