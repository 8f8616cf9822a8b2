//! The chat-completions envelope (OpenAI-compatible services, Yandex AI Studio's compatible
//! endpoint, GigaChat's chat answer, local servers) and the dispatching reader.

/// Checks one input.
pub fn check(data: &[u8]) {
    let Ok(body) = std::str::from_utf8(data) else {
        return;
    };
    let _ = zayavka_llm::parse_chat_completion(body);
    let _ = zayavka_llm::parse_completion(body);
}
