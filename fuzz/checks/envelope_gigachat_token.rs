//! GigaChat's token answer (`{access_token, expires_at}`): read, turned into a header, its
//! refresh time computed. An error never quotes the answer: its message is one of the fixed
//! ones, whatever the answer held.

use std::sync::LazyLock;

use zayavka_llm::parse_token_answer;

static FIXED_MESSAGES: LazyLock<[String; 2]> = LazyLock::new(|| {
    let message = |body: &str| match parse_token_answer(body, 200) {
        Ok(_) => unreachable!("not a token answer"),
        Err(error) => error.to_string(),
    };
    [
        message("not json"),
        message(r#"{"access_token": "line\nbreak", "expires_at": 1}"#),
    ]
});

/// Checks one input.
pub fn check(data: &[u8]) {
    let Ok(body) = std::str::from_utf8(data) else {
        return;
    };
    match parse_token_answer(body, 200) {
        Ok(token) => {
            let _ = token.refresh_after();
            let _ = format!("{token:?}");
        }
        Err(error) => {
            let message = error.to_string();
            assert!(
                FIXED_MESSAGES.contains(&message),
                "the error quotes the answer: {message}"
            );
        }
    }
}
