//! The API key and the redaction every outgoing message passes through.

use std::fmt;

/// What replaces a secret in any text that leaves this crate.
pub(crate) const REDACTED: &str = "[redacted]";

/// A provider's API key; it prints as `[redacted]` in `Debug` and `Display`.
///
/// It deliberately implements neither `Serialize` nor `PartialEq`, so it cannot slip into a
/// stored record or a log by way of a derive.
#[derive(Clone)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a key. Surrounding whitespace is removed because keys pasted from a terminal or
    /// a file often carry a trailing newline, which no provider accepts.
    pub fn new(key: String) -> ApiKey {
        let trimmed = key.trim();
        if trimmed.len() == key.len() {
            ApiKey(key)
        } else {
            ApiKey(trimmed.to_owned())
        }
    }

    /// The key itself.
    ///
    /// **Warning:** whatever receives this value must not log, store, print or put it into an
    /// error message; the product promises the key appears nowhere but the keyring and the
    /// `Authorization` header.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether the key is empty, which a provider would reject as missing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(REDACTED)
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(REDACTED)
    }
}

/// Removes every given secret, every `Authorization` header value and every `Bearer` or
/// `Api-Key` token from `text`, replacing each with `[redacted]`.
///
/// The header and token patterns catch credentials this crate was never told about, such as
/// a provider echoing a different key back in an error message. Empty secrets are ignored.
pub fn redact(text: &str, secrets: &[&str]) -> String {
    let mut redacted = text.to_owned();
    for secret in secrets.iter().filter(|secret| !secret.is_empty()) {
        if redacted.contains(secret) {
            redacted = redacted.replace(secret, REDACTED);
        }
    }
    let redacted = redact_authorization_values(&redacted);
    let redacted = redact_scheme_tokens(&redacted, b"bearer", 1);
    // GigaChat's authorization key travels as `Basic <key>`. Only a value long enough to be a
    // credential is taken, so that «Basic authentication failed» keeps its words.
    let redacted = redact_scheme_tokens(&redacted, b"basic", BASIC_CREDENTIAL_MIN_LEN);
    // Yandex AI Studio's scheme for service-account API keys.
    redact_scheme_tokens(&redacted, b"api-key", 1)
}

/// The shortest value after `Basic` that is taken for a credential: base64 of a user and a
/// password is longer than any English word that follows «Basic» in an error message.
const BASIC_CREDENTIAL_MIN_LEN: usize = 16;

/// [`redact`] for a provider's body, which stays JSON when it was JSON.
///
/// A body with nothing to remove is returned byte for byte, because the audit trail and
/// replay want the body exactly as received. Otherwise a JSON body is redacted string by
/// string (object keys included, and the value of any `authorization` member), which also
/// finds a key the provider wrote with JSON escapes, and is written out again so that replay
/// can still read it; text that is not JSON is redacted as text. Should a given secret still
/// show in the JSON text, the whole text goes through [`redact`] as well: secrecy comes before
/// the body staying parseable.
pub fn redact_body(body: &str, secrets: &[&str]) -> String {
    let Ok(mut value) = serde_json::from_str::<serde_json::Value>(body) else {
        return redact(body, secrets);
    };
    let rewritten = if redact_json_value(&mut value, secrets) {
        value.to_string()
    } else {
        body.to_owned()
    };
    // The `Authorization` and `Bearer` patterns have been applied inside each string, where
    // they belong; applied to the JSON text they would also match across its syntax (the
    // value of `"Authorization: …"` runs to the end of the line) and break the body. A
    // secret itself, though, must not survive in any form, such as split by JSON syntax.
    if secrets
        .iter()
        .any(|secret| !secret.is_empty() && rewritten.contains(secret))
    {
        return redact(&rewritten, secrets);
    }
    rewritten
}

/// Redacts every string inside `value` in place; whether anything changed.
fn redact_json_value(value: &mut serde_json::Value, secrets: &[&str]) -> bool {
    use serde_json::Value;
    match value {
        Value::String(text) => {
            let redacted = redact(text, secrets);
            let changed = redacted != *text;
            *text = redacted;
            changed
        }
        Value::Array(items) => {
            // Every item is visited: stopping at the first change would leave the rest as
            // they were.
            let mut changed = false;
            for item in items {
                changed |= redact_json_value(item, secrets);
            }
            changed
        }
        Value::Object(members) => {
            let mut changed = false;
            let entries = std::mem::take(members);
            for (name, mut member) in entries {
                let redacted_name = redact(&name, secrets);
                changed |= redacted_name != name;
                if name.eq_ignore_ascii_case("authorization") && !member.is_null() {
                    changed |= member != Value::String(REDACTED.to_owned());
                    member = Value::String(REDACTED.to_owned());
                } else {
                    changed |= redact_json_value(&mut member, secrets);
                }
                members.insert(redacted_name, member);
            }
            changed
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => false,
    }
}

/// The start of a redacted body, at most `max_bytes` of it cut on a character boundary, with
/// [`CUT_MARKER`] appended when anything was left off.
pub(crate) fn cap_body(body: String, max_bytes: usize) -> String {
    if body.len() <= max_bytes {
        return body;
    }
    let mut end = max_bytes;
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    let mut capped = body;
    capped.truncate(end);
    capped.push_str(CUT_MARKER);
    capped
}

/// Appended to a body that [`cap_body`] shortened.
pub(crate) const CUT_MARKER: &str = "…[cut]";

/// Replaces the value after `Authorization:` or `Authorization=` (also in quoted JSON form):
/// a quoted value up to its closing quote, an unquoted one up to the end of the line.
fn redact_authorization_values(text: &str) -> String {
    const NAME: &[u8] = b"authorization";
    let bytes = text.as_bytes();
    let mut output = String::with_capacity(text.len());
    let mut copied = 0;
    let mut search_from = 0;
    while let Some(start) = find_ascii_case_insensitive(bytes, NAME, search_from) {
        search_from = start + NAME.len();
        let mut cursor = search_from;
        if matches!(bytes.get(cursor), Some(b'"' | b'\'')) {
            cursor += 1;
        }
        cursor = skip_blanks(bytes, cursor);
        if !matches!(bytes.get(cursor), Some(b':' | b'=')) {
            continue;
        }
        cursor = skip_blanks(bytes, cursor + 1);
        let (value_start, value_end) = match bytes.get(cursor) {
            Some(&quote @ (b'"' | b'\'')) => {
                let value_start = cursor + 1;
                let value_end = bytes[value_start..]
                    .iter()
                    .position(|&byte| byte == quote || byte == b'\n' || byte == b'\r')
                    .map_or(bytes.len(), |offset| value_start + offset);
                (value_start, value_end)
            }
            _ => {
                let value_end = bytes[cursor..]
                    .iter()
                    .position(|&byte| byte == b'\n' || byte == b'\r')
                    .map_or(bytes.len(), |offset| cursor + offset);
                (cursor, value_end)
            }
        };
        if value_end > value_start {
            // Every boundary used here sits next to an ASCII byte, so it is a char boundary.
            output.push_str(&text[copied..value_start]);
            output.push_str(REDACTED);
            copied = value_end;
        }
        search_from = search_from.max(value_end);
    }
    output.push_str(&text[copied..]);
    output
}

/// Replaces the token after the scheme word `word` (lower case), such as `Bearer` (RFC 6750
/// token characters), when it is at least `min_len` bytes long.
fn redact_scheme_tokens(text: &str, word: &[u8], min_len: usize) -> String {
    let bytes = text.as_bytes();
    let mut output = String::with_capacity(text.len());
    let mut copied = 0;
    let mut search_from = 0;
    while let Some(start) = find_ascii_case_insensitive(bytes, word, search_from) {
        search_from = start + word.len();
        let starts_a_word = start == 0 || !is_word_byte(bytes[start - 1]);
        let token_start = skip_blanks(bytes, search_from);
        if !starts_a_word || token_start == search_from {
            continue;
        }
        let token_end = bytes[token_start..]
            .iter()
            .position(|&byte| !is_token_byte(byte))
            .map_or(bytes.len(), |offset| token_start + offset);
        if token_end > token_start && token_end - token_start >= min_len {
            output.push_str(&text[copied..token_start]);
            output.push_str(REDACTED);
            copied = token_end;
            search_from = token_end;
        }
    }
    output.push_str(&text[copied..]);
    output
}

fn find_ascii_case_insensitive(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from >= haystack.len() {
        return None;
    }
    haystack[from..]
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle))
        .map(|offset| from + offset)
}

fn skip_blanks(bytes: &[u8], mut cursor: usize) -> usize {
    while matches!(bytes.get(cursor), Some(b' ' | b'\t')) {
        cursor += 1;
    }
    cursor
}

/// Bytes of non-ASCII characters count as word bytes, so `Bearer` inside a longer word in any
/// script is not mistaken for the scheme name.
fn is_word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80
}

fn is_token_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'+' | b'/' | b'=')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_key_never_prints_itself() {
        let key = ApiKey::new("sk-very-secret\n".to_owned());
        assert_eq!(format!("{key:?}"), "[redacted]");
        assert_eq!(format!("{key}"), "[redacted]");
        assert_eq!(key.expose(), "sk-very-secret");
    }

    #[test]
    fn removes_every_occurrence_of_each_secret() {
        assert_eq!(
            redact(
                "key sk-abc, again sk-abc; other tok-1",
                &["sk-abc", "tok-1", ""]
            ),
            "key [redacted], again [redacted]; other [redacted]"
        );
    }

    #[test]
    fn removes_authorization_header_values() {
        assert_eq!(
            redact("Authorization: Basic dXNlcjpwYXNz\nnext line", &[]),
            "Authorization: [redacted]\nnext line"
        );
        assert_eq!(
            redact(r#"{"authorization": "Token abc def", "x": 1}"#, &[]),
            r#"{"authorization": "[redacted]", "x": 1}"#
        );
        assert_eq!(
            redact("the authorization failed", &[]),
            "the authorization failed"
        );
    }

    #[test]
    fn issue_15_removes_basic_credentials_but_keeps_the_word() {
        let text = "rejected Authorization Basic Y2xpZW50LWlkOmNsaWVudC1zZWNyZXQ= for scope";
        assert_eq!(
            redact(text, &[]),
            "rejected Authorization Basic [redacted] for scope"
        );
        assert_eq!(
            redact("Basic authentication failed", &[]),
            "Basic authentication failed"
        );
    }

    #[test]
    fn removes_bearer_tokens_anywhere() {
        assert_eq!(
            redact("sent bearer sk-proj_A1.b/c+d= to \"Bearer xyz\"", &[]),
            "sent bearer [redacted] to \"Bearer [redacted]\""
        );
        assert_eq!(
            redact("forbearer abc; Bearer", &[]),
            "forbearer abc; Bearer"
        );
    }

    #[test]
    fn removes_api_key_tokens_anywhere() {
        assert_eq!(
            redact("header Api-Key AQVN1-abc_def.x sent; API-KEY zz", &[]),
            "header Api-Key [redacted] sent; API-KEY [redacted]"
        );
        assert_eq!(
            redact("the api-key header is missing", &[]),
            "the api-key [redacted] is missing"
        );
        assert_eq!(redact("my-api-key: x", &[]), "my-api-key: x");
    }

    #[test]
    fn keeps_non_ascii_text_intact() {
        assert_eq!(
            redact("Ключ sk-abc неверен. Authorization: ключ", &["sk-abc"]),
            "Ключ [redacted] неверен. Authorization: [redacted]"
        );
    }

    const KEY: &str = "sk-canary-42";

    #[test]
    fn a_clean_body_is_returned_byte_for_byte() {
        let body = "{\"b\": 1,   \"a\": [\"x\"]}";
        assert_eq!(redact_body(body, &[KEY]), body);
        assert_eq!(redact_body("<html>502</html>", &[KEY]), "<html>502</html>");
    }

    #[test]
    fn a_json_body_stays_json_without_the_key() {
        let body = format!(
            r#"{{"content":"Authorization: Bearer {KEY}","{KEY}":1,"headers":{{"Authorization":"Token x"}},"n":[{{"k":"{KEY}"}}]}}"#
        );
        let redacted = redact_body(&body, &[KEY]);
        assert!(!redacted.contains(KEY), "{redacted}");
        assert!(!redacted.contains("Token x"), "{redacted}");
        let value: serde_json::Value = serde_json::from_str(&redacted).unwrap();
        assert_eq!(value["content"], "Authorization: [redacted]");
        assert_eq!(value["headers"]["Authorization"], "[redacted]");
        assert_eq!(value["n"][0]["k"], "[redacted]");
        assert_eq!(value["[redacted]"], 1);
    }

    #[test]
    fn a_key_written_with_json_escapes_is_found() {
        let key = "sk-a/b";
        let body = r#"{"echo":"sk-a\/b"}"#;
        let redacted = redact_body(body, &[key]);
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&redacted).unwrap()["echo"],
            "[redacted]"
        );
    }

    #[test]
    fn a_text_body_is_redacted_as_text() {
        assert_eq!(
            redact_body(&format!("oops {KEY}\nAuthorization: Bearer x"), &[KEY]),
            "oops [redacted]\nAuthorization: [redacted]"
        );
    }

    #[test]
    fn capping_cuts_on_a_character_boundary_and_says_so() {
        assert_eq!(cap_body("short".to_owned(), 10), "short");
        assert_eq!(cap_body("ёжик".to_owned(), 8), "ёжик");
        // "ё" and "ж" take two bytes each, so three bytes hold only "ё".
        assert_eq!(cap_body("ёжик".to_owned(), 3), format!("ё{CUT_MARKER}"));
        let long = "я".repeat(5000);
        let capped = cap_body(long, 4096);
        assert!(capped.ends_with(CUT_MARKER));
        assert_eq!(capped.len(), 4096 + CUT_MARKER.len());
    }
}
