//! Replay of a stored context record (`zayavka replay FILE`): the record read from JSON, then
//! its last response evaluated again against its input, offline.
#![no_main]

#[path = "../checks/replay.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
