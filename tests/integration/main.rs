//! The integration tests.
