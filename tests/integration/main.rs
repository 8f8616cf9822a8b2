//! The workspace's one integration-test binary.
//!
//! - `cases`: the data-driven assembly cases in `tests/cases/assemble/`, each checked against its
//!   stated expectation and a golden snapshot, twice for determinism, and through the real
//!   `zayavka assemble` binary.
//! - `cli`: the command-line contract (exit codes, output forms, error messages).

mod cases;
mod cli;
mod draft;
mod support;
