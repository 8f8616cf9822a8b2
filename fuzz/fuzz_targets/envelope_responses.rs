//! The Responses API envelope.
#![no_main]

#[path = "../checks/envelope_responses.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
