//! Replay of a stored context record (`zayavka replay FILE`): the record read from JSON, then
//! its last response evaluated again against its input, offline.

use zayavka_engine::{ContextRecord, replay_record};

/// Checks one input.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(record) = serde_json::from_str::<ContextRecord>(text) {
        let _ = replay_record(&record);
    }
}
