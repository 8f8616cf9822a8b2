//! The resident input contract read from JSON text, as `zayavka draft --input FILE` and a
//! batch's JSONL rows read it: every problem reported, never a panic.
#![no_main]

#[path = "../checks/input_json.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
