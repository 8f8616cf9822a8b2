//! The chat-completions envelope (OpenAI-compatible services, Yandex AI Studio's compatible
//! endpoint, GigaChat's chat answer, local servers) and the dispatching reader.
#![no_main]

#[path = "../checks/envelope_chat.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
