//! Full-text search: folding Russian text, building safe FTS5 queries, and keeping the index
//! row of each draft current.
//!
//! The same [`fold`] is applied to what is indexed and to what is searched, so the index never
//! depends on the tokenizer's own diacritics removal (which would also turn «й» into «и»).

use rusqlite::{Connection, OptionalExtension, Transaction, params};
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

/// A search that matches at most this many drafts returns them best first (bm25); one that
/// matches more returns them newest first. Ranking costs a few microseconds per match, so a
/// word in every one of 100,000 drafts would take far longer than the 30 ms a search may take,
/// and among that many matches of a common word bm25 tells little apart (ADR 9).
pub const RANK_WINDOW: u32 = 1_000;

/// A word that begins more indexed words than this is searched as an FTS5 prefix term rather
/// than as the list of the words it begins.
const MAX_EXPANSION: usize = 64;

/// The words of what a resident typed, folded, split as the `unicode61` tokenizer splits: on
/// everything that is not a letter, a digit or a mark.
pub(crate) fn words(text: &str) -> Vec<String> {
    fold(text)
        .split(|c: char| !is_token_char(c))
        .filter(|term| !term.is_empty())
        .map(str::to_owned)
        .collect()
}

/// An FTS5 string: quoted, with its quotes doubled, so that no character of it, nor a word such
/// as `NEAR`, `OR` or `NOT`, acts as FTS5 syntax.
fn quoted(term: &str) -> String {
    format!("\"{}\"", term.replace('"', "\"\""))
}

/// Builds the FTS5 query for what a resident typed: every word must occur, each as the
/// beginning of a word, or `None` when nothing searchable is left.
///
/// Each term is a quoted string followed by `*`, so no character of the input, nor a word such
/// as `NEAR`, `OR` or `NOT`, can act as FTS5 syntax. Words are split as the `unicode61`
/// tokenizer splits them: on everything that is not a letter, a digit or a mark.
pub fn match_query(text: &str) -> Option<String> {
    let terms: Vec<String> = words(text)
        .iter()
        .map(|word| format!("{}*", quoted(word)))
        .collect();
    if terms.is_empty() {
        None
    } else {
        Some(terms.join(" "))
    }
}

/// The same query as [`match_query`], with each word's prefix term replaced by the indexed words
/// it begins, joined by `OR` (`("подъезд" OR "подъезде" OR …)`), read from the index's
/// vocabulary.
///
/// Both match the same drafts, but FTS5 answers a prefix term by merging the lists of every
/// word it begins before it returns the first row, which over a word in every one of 100,000
/// drafts takes longer than the whole search may. An `OR` of plain terms is read lazily, so the
/// newest matches come at once. A word that begins no indexed word, or more than
/// [`MAX_EXPANSION`], keeps its prefix term.
pub(crate) fn expanded_query(conn: &Connection, text: &str) -> Result<Option<String>, StoreError> {
    let words = words(text);
    if words.is_empty() {
        return Ok(None);
    }
    let mut vocabulary = conn.prepare_cached(
        "SELECT term FROM temp.draft_search_vocab WHERE term >= ?1 AND term < ?1 || char(1114111)
         ORDER BY term LIMIT ?2",
    )?;
    let mut groups = Vec::with_capacity(words.len());
    for word in &words {
        let mut terms = Vec::new();
        let mut rows = vocabulary.query(params![word, MAX_EXPANSION as i64 + 1])?;
        while let Some(row) = rows.next()? {
            let term: String = row.get(0)?;
            if !term.starts_with(word.as_str()) {
                break;
            }
            terms.push(quoted(&term));
        }
        groups.push(if terms.is_empty() || terms.len() > MAX_EXPANSION {
            format!("{}*", quoted(word))
        } else {
            format!("({})", terms.join(" OR "))
        });
    }
    Ok(Some(groups.join(" AND ")))
}

/// Makes the connection's view of the index's vocabulary (a temporary table, so the schema
/// does not change), which [`expanded_query`] reads.
pub(crate) fn create_vocabulary(conn: &Connection) -> Result<(), StoreError> {
    conn.execute_batch(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.draft_search_vocab
             USING fts5vocab(main, draft_search, 'row');",
    )?;
    Ok(())
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

    /// A table named as the store's, with its vocabulary, holding `rows` folded as the store
    /// folds them.
    fn store_table(rows: &[&str]) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE draft_search USING fts5(
                 description, tokenize = 'unicode61 remove_diacritics 0');",
        )
        .unwrap();
        create_vocabulary(&conn).unwrap();
        for row in rows {
            conn.execute(
                "INSERT INTO draft_search (description) VALUES (?1)",
                [fold(row)],
            )
            .unwrap();
        }
        conn
    }

    fn matches(conn: &Connection, query: &str) -> Vec<i64> {
        conn.prepare("SELECT rowid FROM draft_search WHERE draft_search MATCH ?1 ORDER BY rowid")
            .unwrap()
            .query_map([query], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn expanded_queries_list_the_words_a_word_begins() {
        let conn = store_table(&["в подъезде темно", "подъезд закрыт", "подъём"]);
        let query = expanded_query(&conn, "Подъезд").unwrap().unwrap();
        assert_eq!(query, "(\"подъезд\" OR \"подъезде\")");
        assert_eq!(matches(&conn, &query), [1, 2]);
        // Every word must occur; a word that begins nothing indexed keeps its prefix term.
        let query = expanded_query(&conn, "подъ ТЕМ лифт").unwrap().unwrap();
        assert_eq!(
            query,
            "(\"подъезд\" OR \"подъезде\" OR \"подъем\") AND (\"темно\") AND \"лифт\"*"
        );
        assert!(matches(&conn, &query).is_empty());
        assert_eq!(expanded_query(&conn, " *() ").unwrap(), None);
    }

    #[test]
    fn a_word_beginning_too_many_words_stays_a_prefix_term() {
        let words: Vec<String> = (0..=MAX_EXPANSION).map(|n| format!("слово{n}")).collect();
        let rows: Vec<&str> = words.iter().map(String::as_str).collect();
        let conn = store_table(&rows);
        let query = expanded_query(&conn, "слово").unwrap().unwrap();
        assert_eq!(query, "\"слово\"*");
        assert_eq!(matches(&conn, &query).len(), MAX_EXPANSION + 1);
        // One word fewer is listed.
        let query = expanded_query(&conn, "слово1").unwrap().unwrap();
        assert!(query.starts_with("(\"слово1\" OR \"слово10\""), "{query}");
        assert_eq!(matches(&conn, &query), matches(&conn, "\"слово1\"*"));
    }

    proptest! {
        #[test]
        fn expanded_queries_are_never_an_sql_error_and_match_as_prefixes(
            text in "[\"*()\\-:^+{}\\[\\], .a-zа-яё]{0,40}|(NEAR|OR|AND|NOT|\\*|\"| )*"
        ) {
            let conn = store_table(&[
                "кабель near щитка or-провод \"оголен\" (опасно) - срочно*",
                "a b c ab abc and or not near",
            ]);
            if let Some(query) = expanded_query(&conn, &text).unwrap() {
                let plain = match_query(&text).unwrap();
                prop_assert_eq!(matches(&conn, &query), matches(&conn, &plain), "{}", query);
            }
        }

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
