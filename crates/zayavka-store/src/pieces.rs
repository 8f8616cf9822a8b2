//! Large parts of context records that repeat from record to record — the system prompt and
//! the transport schema — stored once, by their SHA-256 (ADR 9).
//!
//! A record is stored with each such part replaced by a reference, `{"$piece":"<sha256>"}`,
//! and the part itself, as the JSON text it had in the record, in `record_pieces`. Reading the
//! record puts the same text back, so the record read is byte for byte the record written.
//! A part is only replaced when the result provably joins back to the original, so a record
//! of any shape is stored either split or whole, never changed.
//!
//! Only the system messages and the transport schema are split off: they are the same for
//! every draft of one version, and they hold nothing the resident wrote. A deleted draft's
//! pieces that no other record uses are deleted with it.

use rusqlite::{OptionalExtension, Transaction, params};

use crate::columns::sha256_hex;
use crate::error::StoreError;

/// The start of a reference; what follows is 64 hex digits and `"}`.
const REFERENCE_START: &str = "{\"$piece\":\"";
const REFERENCE_END: &str = "\"}";

/// Parts shorter than this stay in the record: a reference and a lookup would cost more.
const MIN_PIECE_BYTES: usize = 1024;

/// A record as stored: its text with references, and the pieces they name.
pub(crate) struct SplitRecord {
    pub(crate) stored: String,
    /// `(sha256, json text)` of each piece, in the order they occur.
    pub(crate) pieces: Vec<(String, String)>,
}

fn reference(sha256: &str) -> String {
    format!("{REFERENCE_START}{sha256}{REFERENCE_END}")
}

/// Splits the repeated parts off a record, or returns it whole when it has none or when its
/// text cannot be split and joined back exactly.
pub(crate) fn split(record_json: &str) -> SplitRecord {
    let whole = || SplitRecord {
        stored: record_json.to_owned(),
        pieces: Vec::new(),
    };
    // A record that already holds something shaped like a reference is stored as it is, so
    // that reading can never mistake its own text for a reference.
    if record_json.contains(REFERENCE_START) {
        return whole();
    }
    let Ok(document) = serde_json::from_str::<serde_json::Value>(record_json) else {
        return whole();
    };
    let mut candidates: Vec<&serde_json::Value> = Vec::new();
    if let Some(schema) = document.get("transport_schema").filter(|v| !v.is_null()) {
        candidates.push(schema);
    }
    if let Some(messages) = document.get("messages").and_then(|m| m.as_array()) {
        candidates.extend(
            messages
                .iter()
                .filter(|m| m.get("role").and_then(|r| r.as_str()) == Some("system"))
                .filter_map(|m| m.get("content")),
        );
    }
    let mut stored = record_json.to_owned();
    let mut pieces: Vec<(String, String)> = Vec::new();
    for candidate in candidates {
        let Ok(text) = serde_json::to_string(candidate) else {
            continue;
        };
        if text.len() < MIN_PIECE_BYTES || stored.matches(text.as_str()).count() != 1 {
            continue;
        }
        let sha256 = sha256_hex(&text);
        stored = stored.replacen(text.as_str(), &reference(&sha256), 1);
        pieces.push((sha256, text));
    }
    if pieces.is_empty() {
        return whole();
    }
    // The proof: the stored form joins back to exactly what was given.
    let joined = join_with(&stored, |sha256| {
        pieces
            .iter()
            .find(|(s, _)| s == sha256)
            .map(|(_, text)| text.clone())
    });
    if joined.as_deref() != Some(record_json) {
        return whole();
    }
    SplitRecord { stored, pieces }
}

/// Replaces every reference in `stored` with the text `lookup` gives for it; `None` when a
/// reference names no known piece.
fn join_with(stored: &str, mut lookup: impl FnMut(&str) -> Option<String>) -> Option<String> {
    let mut joined = String::with_capacity(stored.len());
    let mut rest = stored;
    while let Some(start) = rest.find(REFERENCE_START) {
        let after = &rest[start + REFERENCE_START.len()..];
        let sha256 = after.get(..64)?;
        if !after[64..].starts_with(REFERENCE_END) {
            return None;
        }
        joined.push_str(&rest[..start]);
        joined.push_str(&lookup(sha256)?);
        rest = &after[64 + REFERENCE_END.len()..];
    }
    joined.push_str(rest);
    Some(joined)
}

/// Writes a record's pieces (each once in the whole database) and the record's links to them.
pub(crate) fn store(
    tx: &Transaction<'_>,
    record_id: i64,
    pieces: &[(String, String)],
) -> Result<(), StoreError> {
    for (sha256, text) in pieces {
        let known = tx
            .prepare_cached("SELECT 1 FROM record_pieces WHERE sha256 = ?1")?
            .exists([sha256])?;
        if !known {
            tx.prepare_cached("INSERT INTO record_pieces (sha256, json) VALUES (?1, ?2)")?
                .execute(params![sha256, text])?;
        }
        tx.prepare_cached(
            "INSERT OR IGNORE INTO context_record_pieces (record_id, sha256) VALUES (?1, ?2)",
        )?
        .execute(params![record_id, sha256])?;
    }
    Ok(())
}

/// The record as it was written, from its stored form.
pub(crate) fn join(tx: &Transaction<'_>, stored: String) -> Result<String, StoreError> {
    if !stored.contains(REFERENCE_START) {
        return Ok(stored);
    }
    let mut lookup = tx.prepare_cached("SELECT json FROM record_pieces WHERE sha256 = ?1")?;
    let mut failure = None;
    let joined = join_with(&stored, |sha256| {
        match lookup
            .query_row([sha256], |row| row.get::<_, String>(0))
            .optional()
        {
            Ok(text) => text,
            Err(error) => {
                failure = Some(error);
                None
            }
        }
    });
    if let Some(error) = failure {
        return Err(error.into());
    }
    // A reference whose piece is gone can only be a damaged file.
    joined.ok_or(StoreError::Corrupt)
}

/// The pieces a draft's records use, read before the draft is deleted.
pub(crate) fn of_draft(tx: &Transaction<'_>, draft_id: i64) -> Result<Vec<String>, StoreError> {
    let pieces = tx
        .prepare_cached(
            "SELECT DISTINCT p.sha256 FROM context_record_pieces AS p
             JOIN context_records AS r ON r.id = p.record_id
             WHERE r.draft_id = ?1",
        )?
        .query_map([draft_id], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(pieces)
}

/// Deletes those of `pieces` that no record uses any more.
pub(crate) fn delete_unused(tx: &Transaction<'_>, pieces: &[String]) -> Result<(), StoreError> {
    for sha256 in pieces {
        tx.prepare_cached(
            "DELETE FROM record_pieces WHERE sha256 = ?1
             AND NOT EXISTS (SELECT 1 FROM context_record_pieces WHERE sha256 = ?1)",
        )?
        .execute([sha256])?;
    }
    Ok(())
}

/// Splits the records stored whole by schema version 1, in the migration's transaction.
pub(crate) fn split_existing(tx: &Transaction<'_>) -> Result<(), StoreError> {
    let mut records = tx.prepare("SELECT id, record_json FROM context_records ORDER BY id")?;
    let mut rows = records.query([])?;
    while let Some(row) = rows.next()? {
        let id: i64 = row.get(0)?;
        let json: String = row.get(1)?;
        let split = split(&json);
        if split.pieces.is_empty() {
            continue;
        }
        store(tx, id, &split.pieces)?;
        tx.prepare_cached("UPDATE context_records SET record_json = ?2 WHERE id = ?1")?
            .execute(params![id, split.stored])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(system: &str, schema: serde_json::Value) -> String {
        serde_json::json!({
            "format_version": 2,
            "input": {"description": "Не горит свет"},
            "transport_schema": schema,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": "Не горит свет"}
            ],
            "responses": [],
            "temperature": 0.2
        })
        .to_string()
    }

    fn big_schema() -> serde_json::Value {
        let properties: serde_json::Map<_, _> = (0..60)
            .map(|n| (format!("field_{n}"), serde_json::json!({"type": "string"})))
            .collect();
        serde_json::json!({"type": "object", "properties": properties, "z": 1, "a": 0.1})
    }

    #[test]
    fn the_prompt_and_the_schema_are_split_off_and_joined_back_exactly() {
        let json = record(
            &"Ты пишешь заявку. \"Кавычки\" и \\ и \n.".repeat(40),
            big_schema(),
        );
        let split = split(&json);
        assert_eq!(split.pieces.len(), 2);
        assert!(split.stored.len() < json.len() / 4, "{}", split.stored);
        assert!(split.stored.contains("Не горит свет"));
        serde_json::from_str::<serde_json::Value>(&split.stored).unwrap();
        let joined = join_with(&split.stored, |sha| {
            split
                .pieces
                .iter()
                .find(|(s, _)| s == sha)
                .map(|(_, t)| t.clone())
        });
        assert_eq!(joined.as_deref(), Some(json.as_str()));
    }

    #[test]
    fn small_odd_or_reference_like_records_are_stored_whole() {
        let short = record("Коротко", serde_json::Value::Null);
        assert!(split(&short).pieces.is_empty());
        let not_json = "not json".to_owned();
        assert_eq!(split(&not_json).stored, not_json);
        // A record holding an object shaped like a reference is never split.
        let mut tricky: serde_json::Value =
            serde_json::from_str(&record(&"x".repeat(2000), big_schema())).unwrap();
        tricky["responses"] = serde_json::json!([{"$piece": "a".repeat(64)}]);
        let tricky = tricky.to_string();
        let split_tricky = split(&tricky);
        assert!(split_tricky.pieces.is_empty());
        assert_eq!(split_tricky.stored, tricky);
        // The same characters inside a string are escaped, so they are no reference.
        let in_text = record(
            &format!("{{\"$piece\":\"{}\"}}", "x".repeat(2000)),
            big_schema(),
        );
        let split_text = split(&in_text);
        assert_eq!(split_text.pieces.len(), 2);
        // The system prompt repeated elsewhere in the same text is left alone.
        let prompt = "Повтор. ".repeat(300);
        let twice = serde_json::json!({
            "messages": [{"role": "system", "content": prompt}],
            "responses": [prompt],
        })
        .to_string();
        assert!(split(&twice).pieces.is_empty());
    }

    #[test]
    fn an_unknown_reference_is_an_error_not_a_guess() {
        let stored = reference(&"a".repeat(64));
        assert_eq!(join_with(&stored, |_| None), None);
        assert_eq!(
            join_with("{\"$piece\":\"abc\"}", |_| Some("x".into())),
            None
        );
    }
}
