//! mcpwire proptest.
