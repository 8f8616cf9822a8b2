//! How values are written into the database's columns and read back: moments as RFC 3339
//! text that sorts in time order, hashes as lower-case hex, a batch row's input as the key that
//! matches it again. A leaf: every other module may use it, and it uses none of them.

use jiff::Timestamp;
use sha2::{Digest, Sha256};

/// The current moment as stored: RFC 3339 in UTC with milliseconds, always the same width so
/// that text order is time order.
pub(crate) fn now_text() -> String {
    timestamp_text(now())
}

/// The variable that, in a debug build only, fixes the moment the store writes (RFC 3339,
/// e.g. `2026-11-30T09:00:00Z`): a test of cases (issue 30) needs a draft written before the
/// days it is filed on, whatever day the test runs. A release build reads no such variable.
#[cfg(debug_assertions)]
const NOW_VARIABLE: &str = "ZAYAVKA_STORE_NOW";

/// The current moment, or in a debug build the one `ZAYAVKA_STORE_NOW` fixes.
fn now() -> Timestamp {
    #[cfg(debug_assertions)]
    if let Ok(text) = std::env::var(NOW_VARIABLE)
        && let Ok(moment) = text.parse::<Timestamp>()
    {
        return moment;
    }
    Timestamp::now()
}

/// The stored text of a moment.
pub(crate) fn timestamp_text(moment: Timestamp) -> String {
    moment.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// Reads a stored timestamp.
pub(crate) fn parse_timestamp(text: &str) -> rusqlite::Result<Timestamp> {
    text.parse::<Timestamp>().map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, e.into())
    })
}

/// The lower-case hex SHA-256 of a stored document.
pub(crate) fn sha256_hex(text: &str) -> String {
    sha256_hex_bytes(text.as_bytes())
}

/// The lower-case hex SHA-256 of stored bytes.
pub(crate) fn sha256_hex_bytes(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for byte in digest {
        hex.push_str(&format!("{byte:02x}"));
    }
    hex
}

/// The key a batch row's input is matched by: the SHA-256 of its JSON with line ends as `\n`.
pub(crate) fn input_key(json: &str) -> String {
    fn normalise(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::String(text) if text.contains('\r') => {
                *text = text.replace("\r\n", "\n").replace('\r', "\n");
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(normalise),
            serde_json::Value::Object(map) => map.values_mut().for_each(normalise),
            _ => {}
        }
    }
    match serde_json::from_str::<serde_json::Value>(json) {
        Ok(mut value) => {
            normalise(&mut value);
            sha256_hex(&value.to_string())
        }
        Err(_) => sha256_hex(json),
    }
}
