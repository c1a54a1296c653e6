//! Shared helpers for the Tilesmith conformance tests.
