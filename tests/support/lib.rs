//! Shared helpers for the workspace-level tests.

pub mod golden;
