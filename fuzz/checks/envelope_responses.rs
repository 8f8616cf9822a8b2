//! The Responses API envelope.

/// Checks one input.
pub fn check(data: &[u8]) {
    let Ok(body) = std::str::from_utf8(data) else {
        return;
    };
    let _ = zayavka_llm::parse_response(body);
}
