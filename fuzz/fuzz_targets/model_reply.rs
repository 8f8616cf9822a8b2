//! The model's reply, decoded, validated and assembled against a fixed resident input: the
//! structural and semantic checks, the legal decision, the faithfulness checks. Whatever the
//! model writes, the «Прошу:» item is the resident's own words or the generic item.
#![no_main]

#[path = "../checks/model_reply.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
