//! A photo handed in for a draft: format recognition, decoding within the limits, turning
//! upright and metadata stripping. What comes out carries no metadata and is accepted again.
#![no_main]

#[path = "../checks/photo.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
