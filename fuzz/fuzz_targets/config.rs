//! The configuration file (`config.toml`): parsed, and every profile it names resolved to
//! provider settings or a clear error.
#![no_main]

#[path = "../checks/config.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
