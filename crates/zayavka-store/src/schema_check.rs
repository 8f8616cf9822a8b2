//! A database file is input (issue 37): its schema is compared, object by object, with the one
//! its version defines before anything trusts it.
//!
//! The migrations define each version's schema exactly: every table, index, trigger, view and
//! full-text shadow table with its SQL. [`SCHEMA_HASHES`] pins the SHA-256 of each version's
//! normalised schema (a test rebuilds them from the migrations), so checking a database on every
//! open is one read of `sqlite_schema` and one hash. Only when the hash differs are the expected
//! objects built (the migrations run on an in-memory database) to say what differs: an object
//! added, one missing, one changed. A trigger or a view another program added could run SQL of
//! its own in Zayavka; a protective trigger removed takes away a guarantee the store gives (a
//! filed draft's text and evidence kept, the audit log append-only). Either refuses the file.
//!
//! Every connection the store opens also runs in SQLite's defensive mode with `trusted_schema`
//! off (SQLite's «Defense Against the Dark Arts»): no writable schema, no functions with side
//! effects from the schema.

use std::path::Path;
use std::sync::OnceLock;

use rusqlite::Connection;
use rusqlite::config::DbConfig;

use crate::error::{SchemaDifference, StoreError};
use crate::migrations::{self, SCHEMA_VERSION};

/// The SHA-256 of each schema version's normalised objects ([`normalised`]), version 1 first.
/// A test rebuilds every one from the migrations; a released migration never changes, so these
/// never change either (ADR 9).
pub(crate) const SCHEMA_HASHES: [&str; SCHEMA_VERSION as usize] = [
    "22fba8f4eb56bb7c5ec30440eb1ec71df7e98a49d77bb73e28f2c9c5e5645d5d",
    "d1cf89b93ed102c320d25adef5a50cfc0c80621716035b80ffe32c67c50ebb25",
    "751ee9c7b23afcd87b412147a6ec40353f93b74b2213668d2926fe00a925d390",
    "f7199d86d45b38362d34b7644b6079a0cc39538e7cd18a015415de8827bf9df8",
    "46cefa862fa18ceec9e0c29c5d4bcf7a857d32d5862742083a4c4441dca7eeb0",
    "43a9b6f252364f2ac1e33a298091eef549db937ba97ce0a407f203df4a59050c",
];

/// One object of a database's schema, as `sqlite_schema` lists it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct SchemaObject {
    /// `table`, `index`, `trigger` or `view`.
    pub(crate) kind: String,
    /// Its name.
    pub(crate) name: String,
    /// The table it belongs to.
    pub(crate) table: String,
    /// Its SQL, normalised: runs of white space as one space, double quotes dropped (SQLite's
    /// `ALTER TABLE … RENAME` quotes the new name), an index SQLite makes itself none.
    pub(crate) sql: String,
}

/// Turns on SQLite's defensive mode and turns off `trusted_schema` for `conn`, before anything
/// reads the schema of a file that may come from anywhere.
pub(crate) fn defend(conn: &Connection) -> Result<(), StoreError> {
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false)?;
    Ok(())
}

/// The objects of `conn`'s schema `schema` (`main`), sorted. `sqlite_stat*` tables are left
/// out: SQLite makes them for its own statistics, and they hold no SQL.
pub(crate) fn schema_objects(
    conn: &Connection,
    schema: &str,
) -> Result<Vec<SchemaObject>, StoreError> {
    let mut objects: Vec<SchemaObject> = conn
        .prepare(&format!(
            "SELECT type, name, tbl_name, sql FROM {schema}.sqlite_schema
             WHERE name NOT LIKE 'sqlite_stat%'"
        ))?
        .query_map([], |row| {
            let sql: Option<String> = row.get(3)?;
            Ok(SchemaObject {
                kind: row.get(0)?,
                name: row.get(1)?,
                table: row.get(2)?,
                sql: sql.as_deref().map(normalised_sql).unwrap_or_default(),
            })
        })?
        .collect::<Result<_, _>>()?;
    objects.sort();
    Ok(objects)
}

fn normalised_sql(sql: &str) -> String {
    sql.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('"', "")
}

/// The SHA-256 of a schema's objects, one line each.
pub(crate) fn schema_hash(objects: &[SchemaObject]) -> String {
    let mut text = String::new();
    for object in objects {
        text.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            object.kind, object.name, object.table, object.sql
        ));
    }
    crate::columns::sha256_hex(&text)
}

/// The objects the migrations create for each version, built once on an in-memory database.
fn expected(version: u32) -> Result<&'static [SchemaObject], StoreError> {
    static EXPECTED: OnceLock<Vec<Vec<SchemaObject>>> = OnceLock::new();
    if let Some(all) = EXPECTED.get() {
        return Ok(&all[version as usize - 1]);
    }
    let mut all = Vec::new();
    for version in 1..=SCHEMA_VERSION {
        let mut conn = Connection::open_in_memory()?;
        migrations::apply_up_to(&mut conn, version)?;
        all.push(schema_objects(&conn, "main")?);
    }
    let all = EXPECTED.get_or_init(|| all);
    Ok(&all[version as usize - 1])
}

/// Refuses a database whose schema is not exactly the one its version defines
/// ([`StoreError::ForeignSchema`]). Reads only. A new, empty file (version 0) has nothing to
/// compare; a version this code does not know is refused before by `check_version`.
pub(crate) fn check_schema(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    let version = migrations::user_version(conn)?;
    if version == 0 || version > SCHEMA_VERSION {
        return Ok(());
    }
    let found = schema_objects(conn, "main")?;
    if schema_hash(&found) == SCHEMA_HASHES[version as usize - 1] {
        return Ok(());
    }
    let differences = differences(expected(version)?, &found);
    Err(StoreError::ForeignSchema {
        path: path.to_owned(),
        differences,
    })
}

/// What `found` has that `expected` lacks, lacks that it has, or has with other SQL.
fn differences(expected: &[SchemaObject], found: &[SchemaObject]) -> Vec<SchemaDifference> {
    let mut differences = Vec::new();
    for object in found {
        match expected
            .iter()
            .find(|e| e.kind == object.kind && e.name == object.name)
        {
            None => differences.push(SchemaDifference::Extra {
                kind: object.kind.clone(),
                name: object.name.clone(),
                table: object.table.clone(),
            }),
            Some(known) if known != object => differences.push(SchemaDifference::Changed {
                kind: object.kind.clone(),
                name: object.name.clone(),
            }),
            Some(_) => {}
        }
    }
    for object in expected {
        if !found
            .iter()
            .any(|f| f.kind == object.kind && f.name == object.name)
        {
            differences.push(SchemaDifference::Missing {
                kind: object.kind.clone(),
                name: object.name.clone(),
                table: object.table.clone(),
            });
        }
    }
    if differences.is_empty() {
        // The same objects in another order cannot hash differently; this is only reached when
        // the pinned hash itself is wrong, which a test prevents.
        differences.push(SchemaDifference::Changed {
            kind: "table".to_owned(),
            name: "sqlite_schema".to_owned(),
        });
    }
    differences
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pinned hashes are the migrations' own: rebuilt here from an in-memory database at
    /// each version.
    #[test]
    fn the_pinned_hashes_are_what_the_migrations_create() {
        let built: Vec<String> = (1..=SCHEMA_VERSION)
            .map(|version| schema_hash(expected(version).unwrap()))
            .collect();
        assert_eq!(built, SCHEMA_HASHES, "pin these hashes in SCHEMA_HASHES");
    }

    #[test]
    fn every_version_holds_the_protective_triggers_it_gives() {
        let current = expected(SCHEMA_VERSION).unwrap();
        for trigger in [
            "audit_events_refuse_update",
            "audit_events_refuse_delete",
            "filed_drafts_keep_their_text",
            "filed_drafts_keep_their_evidence",
        ] {
            assert!(
                current
                    .iter()
                    .any(|object| object.kind == "trigger" && object.name == trigger),
                "{trigger}"
            );
        }
    }

    #[test]
    fn differences_are_said_in_a_residents_words() {
        let extra = SchemaDifference::Extra {
            kind: "trigger".into(),
            name: "wipe".into(),
            table: "drafts".into(),
        };
        assert_eq!(
            extra.message_ru(),
            "лишний триггер «wipe» у таблицы «drafts»"
        );
        let view = SchemaDifference::Extra {
            kind: "view".into(),
            name: "v".into(),
            table: "v".into(),
        };
        assert_eq!(view.message_ru(), "лишнее представление «v»");
        let missing = SchemaDifference::Missing {
            kind: "trigger".into(),
            name: "audit_events_refuse_delete".into(),
            table: "audit_events".into(),
        };
        assert_eq!(
            missing.message_ru(),
            "нет триггера «audit_events_refuse_delete» у таблицы «audit_events»"
        );
        let changed = SchemaDifference::Changed {
            kind: "table".into(),
            name: "drafts".into(),
        };
        assert_eq!(changed.message_ru(), "изменена таблица «drafts»");
    }
}
