//! Full-text search: folding Russian text, building safe FTS5 queries, and keeping the index
//! row of each draft current.
//!
//! The same [`fold`] is applied to what is indexed and to what is searched, so the index never
//! depends on the tokenizer's own diacritics removal (which would also turn «й» into «и»).

use rusqlite::{OptionalExtension, Transaction, params};
use unicode_normalization::UnicodeNormalization;

use crate::DraftId;
use crate::error::StoreError;

/// The input fields that are indexed, by their names in the input documents.
const INPUT_FIELDS: [&str; 4] = ["description", "location", "consequences", "desired_actions"];

/// Folds text for search: Unicode NFC (so a decomposed «ё» is one character), lower case, and
/// «ё» as «е», since people type either.
pub fn fold(text: &str) -> String {
    text.nfc()
        .flat_map(char::to_lowercase)
        .map(|c| if c == 'ё' { 'е' } else { c })
        .collect()
}

/// Builds the FTS5 query for what a resident typed: every word must occur, each as the
/// beginning of a word, or `None` when nothing searchable is left.
///
/// Each term is a quoted string followed by `*`, so no character of the input, nor a word such
/// as `NEAR`, `OR` or `NOT`, can act as FTS5 syntax. Words are split as the `unicode61`
/// tokenizer splits them: on everything that is not a letter, a digit or a mark.
pub fn match_query(text: &str) -> Option<String> {
    let folded = fold(text);
    let terms: Vec<String> = folded
        .split(|c: char| !is_token_char(c))
        .filter(|term| !term.is_empty())
        .map(|term| format!("\"{}\"*", term.replace('"', "\"\"")))
        .collect();
    if terms.is_empty() {
        None
    } else {
        Some(terms.join(" "))
    }
}

fn is_token_char(c: char) -> bool {
    // Combining marks count as part of a word, as they do for unicode61 with diacritics kept.
    c.is_alphanumeric() || is_combining_mark(c)
}

fn is_combining_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

/// The stored columns of a draft that its index row is made from.
struct IndexedDraft {
    raw: String,
    checked: Option<String>,
    title: Option<String>,
    body: Option<String>,
}

/// Rewrites the index row of a draft from what is stored: the input's words (as checked when
/// valid, else as typed), the assembled title and body, and every version the resident wrote.
pub(crate) fn refresh(tx: &Transaction<'_>, id: DraftId) -> Result<(), StoreError> {
    tx.execute("DELETE FROM draft_search WHERE rowid = ?1", [id.get()])?;
    let draft = tx
        .query_row(
            "SELECT raw_input_json, checked_input_json, title, body FROM drafts WHERE id = ?1",
            [id.get()],
            |row| {
                Ok(IndexedDraft {
                    raw: row.get(0)?,
                    checked: row.get(1)?,
                    title: row.get(2)?,
                    body: row.get(3)?,
                })
            },
        )
        .optional()?;
    let Some(IndexedDraft {
        raw,
        checked,
        title,
        body,
    }) = draft
    else {
        return Ok(());
    };
    let input: serde_json::Value =
        serde_json::from_str(checked.as_deref().unwrap_or(&raw)).unwrap_or_default();
    let field = |name: &str| {
        input
            .get(name)
            .and_then(serde_json::Value::as_str)
            .map(fold)
            .unwrap_or_default()
    };
    let mut titles: Vec<String> = title.into_iter().collect();
    let mut bodies: Vec<String> = body.into_iter().collect();
    let mut versions = tx.prepare_cached(
        "SELECT title, body FROM draft_versions WHERE draft_id = ?1 ORDER BY version",
    )?;
    let mut rows = versions.query([id.get()])?;
    while let Some(row) = rows.next()? {
        titles.push(row.get(0)?);
        bodies.push(row.get(1)?);
    }
    tx.execute(
        "INSERT INTO draft_search
             (rowid, description, location, consequences, desired_actions, title, body)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            id.get(),
            field(INPUT_FIELDS[0]),
            field(INPUT_FIELDS[1]),
            field(INPUT_FIELDS[2]),
            field(INPUT_FIELDS[3]),
            fold(&titles.join("\n")),
            fold(&bodies.join("\n")),
        ],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rusqlite::Connection;

    #[test]
    fn fold_lowercases_and_turns_yo_into_ye() {
        assert_eq!(fold("ЁЛКА ёжик Подъезд"), "елка ежик подъезд");
        // A decomposed «ё» (е + combining diaeresis) folds the same way.
        assert_eq!(fold("е\u{0308}лка"), "елка");
        // «й» stays itself.
        assert_eq!(fold("Лампочка й"), "лампочка й");
    }

    #[test]
    fn queries_quote_every_term_as_a_prefix() {
        assert_eq!(
            match_query("Подъезд  ЁЛКА").as_deref(),
            Some("\"подъезд\"* \"елка\"*")
        );
        assert_eq!(
            match_query("a NEAR(b) OR -c").as_deref(),
            Some("\"a\"* \"near\"* \"b\"* \"or\"* \"c\"*")
        );
        assert_eq!(match_query(""), None);
        assert_eq!(match_query("\"*()-:^+. ,"), None);
    }

    fn search_table() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE t USING fts5(a, tokenize = 'unicode61 remove_diacritics 0');
             INSERT INTO t (a) VALUES ('в подъезде темно');",
        )
        .unwrap();
        conn
    }

    proptest! {
        #[test]
        fn no_query_text_is_an_sql_error(text in any::<String>()) {
            let conn = search_table();
            if let Some(query) = match_query(&text) {
                let result = conn
                    .prepare("SELECT count(*) FROM t WHERE t MATCH ?1")
                    .and_then(|mut s| s.query_row([&query], |row| row.get::<_, i64>(0)));
                prop_assert!(result.is_ok(), "{query:?}: {result:?}");
            }
        }

        #[test]
        fn no_query_of_fts_syntax_is_an_sql_error(
            text in "[\"*()\\-:^+{}\\[\\], .a-zа-яё]{0,40}|(NEAR|OR|AND|NOT|\\*|\"| )*"
        ) {
            let conn = search_table();
            if let Some(query) = match_query(&text) {
                let result = conn
                    .prepare("SELECT count(*) FROM t WHERE t MATCH ?1")
                    .and_then(|mut s| s.query_row([&query], |row| row.get::<_, i64>(0)));
                prop_assert!(result.is_ok(), "{query:?}: {result:?}");
            }
        }
    }
}
