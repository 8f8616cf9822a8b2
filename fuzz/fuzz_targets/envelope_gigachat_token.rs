//! GigaChat's token answer (`{access_token, expires_at}`): read, turned into a header, its
//! refresh time computed. An error never quotes the answer: its message is one of the fixed
//! ones, whatever the answer held.
#![no_main]

#[path = "../checks/envelope_gigachat_token.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
