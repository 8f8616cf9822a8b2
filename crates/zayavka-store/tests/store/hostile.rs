//! Issue 37: a database file from anywhere — a backup on a memory stick, a neighbour's file, the
//! live database after another program touched it — is verified object by object before it is
//! trusted. Each changed file below is refused with nothing in place changed: a backup is not
//! put in place (the database there keeps every byte, nothing is set aside, no staging copy is
//! left, the backup itself is not touched), and a changed live database is not written to.

use std::path::{Path, PathBuf};

use rusqlite::Connection;
use zayavka_store::{BackupProblem, SchemaDifference, Store, StoreError};

use crate::{Scratch, input, ready};

/// A database with one finished draft in it, closed, and a backup of it beside.
fn made(scratch: &Scratch) -> (PathBuf, PathBuf) {
    let store = scratch.open();
    let id = store
        .create_draft(&input("В подъезде неделю не горит свет"))
        .unwrap();
    store
        .finish_draft(
            id,
            &ready("Не горит свет", "В подъезде неделю не горит свет."),
            None,
            &[],
        )
        .unwrap();
    let backup = scratch.dir.path().join("backup.sqlite3");
    store.backup_to(&backup).unwrap();
    drop(store);
    (scratch.db(), backup)
}

/// Runs SQL on `file` as another program would: no defensive mode, no trusted-schema guard.
fn tamper(file: &Path, sql: &str) {
    let conn = Connection::open(file).unwrap();
    conn.execute_batch(sql).unwrap();
    // Leave one file, as a copy carried on a stick would be.
    conn.execute_batch("PRAGMA journal_mode = DELETE").unwrap();
}

/// The ordinary tables the store writes (not the full-text index's own tables).
fn written_tables(file: &Path) -> Vec<String> {
    let conn = Connection::open(file).unwrap();
    conn.prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         AND name NOT LIKE 'draft_search%' ORDER BY name",
    )
    .unwrap()
    .query_map([], |row| row.get(0))
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

/// What each change does to a backup Zayavka wrote.
fn changes(backup: &Path) -> Vec<(String, String)> {
    let mut changes: Vec<(String, String)> = written_tables(backup)
        .into_iter()
        .map(|table| {
            (
                format!("a trigger on {table}"),
                format!(
                    "CREATE TRIGGER wipe_{table} AFTER INSERT ON {table}
                     BEGIN DELETE FROM drafts; END;"
                ),
            )
        })
        .collect();
    for trigger in [
        "audit_events_refuse_update",
        "audit_events_refuse_delete",
        "filed_drafts_keep_their_text",
        "filed_drafts_keep_their_evidence",
    ] {
        changes.push((
            format!("{trigger} dropped"),
            format!("DROP TRIGGER {trigger};"),
        ));
    }
    changes.extend(
        [
            (
                "a view added",
                "CREATE VIEW everything AS SELECT * FROM drafts;",
            ),
            (
                "a table replaced by a view",
                "DROP TABLE eval_cassettes; CREATE VIEW eval_cassettes AS SELECT 1 AS run_id;",
            ),
            (
                "a column added",
                "ALTER TABLE drafts ADD COLUMN extra TEXT;",
            ),
            ("an index dropped", "DROP INDEX drafts_by_created;"),
            (
                "a CHECK removed",
                "PRAGMA writable_schema = ON;
                 UPDATE sqlite_schema
                    SET sql = replace(sql, 'CHECK (number IS NULL OR number >= 1)', '')
                  WHERE name = 'batches';
                 PRAGMA writable_schema = OFF;",
            ),
        ]
        .map(|(name, sql)| (name.to_owned(), sql.to_owned())),
    );
    changes
}

fn bytes(file: &Path) -> Vec<u8> {
    std::fs::read(file).unwrap()
}

fn restore(backup: &Path, db: &Path) -> Result<Store, StoreError> {
    let aside = db.with_file_name("zayavka.sqlite3.before-restore");
    Store::restore_backup(backup, db, Some(&aside))
}

/// Refused, with the database in place, the backup and the folder exactly as they were.
fn assert_refused_unchanged(
    name: &str,
    backup: &Path,
    db: &Path,
    problem: impl Fn(&BackupProblem) -> bool,
) {
    let (before_db, before_backup) = (bytes(db), bytes(backup));
    let error = restore(backup, db).map(|_| ()).unwrap_err();
    match &error {
        StoreError::UnusableBackup {
            path,
            problem: found,
        } => {
            assert_eq!(path, backup, "{name}");
            assert!(problem(found), "{name}: {found:?}");
        }
        other => panic!("{name}: {other:?}"),
    }
    assert_eq!(
        bytes(db),
        before_db,
        "{name}: the database in place changed"
    );
    assert_eq!(bytes(backup), before_backup, "{name}: the backup changed");
    let mut left: Vec<String> = std::fs::read_dir(db.parent().unwrap())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["zayavka.sqlite3"],
        "{name}: something was left or set aside"
    );
    let message = error.message_ru();
    assert!(message.contains("Ничего не заменено"), "{name}: {message}");
}

#[test]
fn issue_37_every_changed_backup_is_refused_with_nothing_in_place_changed() {
    let template = Scratch::new();
    let (_, pristine) = made(&template);
    let changes = changes(&pristine);
    assert!(changes.len() >= 20, "{} changes", changes.len());
    for (name, sql) in changes {
        let scratch = Scratch::new();
        let (db, backup) = made(&scratch);
        tamper(&backup, &sql);
        assert_refused_unchanged(
            &name,
            &backup,
            &db,
            |problem| matches!(problem, BackupProblem::Changed(differences) if !differences.is_empty()),
        );
        // The copy as Zayavka wrote it is still restored.
        std::fs::copy(&pristine, &backup).unwrap();
        restore(&backup, &db).unwrap_or_else(|e| panic!("{name}: the true backup: {e:?}"));
    }
}

#[test]
fn issue_37_the_refusal_says_what_was_found_in_a_residents_words() {
    let scratch = Scratch::new();
    let (db, backup) = made(&scratch);
    tamper(
        &backup,
        "CREATE TRIGGER wipe AFTER INSERT ON drafts BEGIN DELETE FROM drafts; END;
         DROP TRIGGER audit_events_refuse_delete;",
    );
    let error = restore(&backup, &db).map(|_| ()).unwrap_err();
    let StoreError::UnusableBackup {
        problem: BackupProblem::Changed(differences),
        ..
    } = &error
    else {
        panic!("{error:?}");
    };
    assert_eq!(
        differences,
        &[
            SchemaDifference::Extra {
                kind: "trigger".into(),
                name: "wipe".into(),
                table: "drafts".into(),
            },
            SchemaDifference::Missing {
                kind: "trigger".into(),
                name: "audit_events_refuse_delete".into(),
                table: "audit_events".into(),
            },
        ]
    );
    assert_eq!(
        error.message_ru(),
        format!(
            "Файл {} нельзя восстановить: в файле есть то, чего Заявка не создаёт: файл изменён \
             другой программой (лишний триггер «wipe» у таблицы «drafts»; нет триггера \
             «audit_events_refuse_delete» у таблицы «audit_events»). Ничего не заменено и не \
             изменено. Выберите другую резервную копию.",
            backup.display()
        )
    );
}

/// Which refusal a broken file must get.
type Expected = fn(&BackupProblem) -> bool;

#[test]
fn issue_37_a_backup_that_is_no_zayavka_database_is_refused_as_such() {
    let scratch = Scratch::new();
    let (db, backup) = made(&scratch);
    let whole = bytes(&backup);
    let cases: [(&str, Vec<u8>, Expected); 4] = [
        ("zero bytes", Vec::new(), |p| {
            *p == BackupProblem::NotADatabase
        }),
        (
            "not SQLite",
            "ФИО;Квартира\nИванов;12\n".repeat(100).into_bytes(),
            |p| *p == BackupProblem::NotADatabase,
        ),
        // Cut in the middle of a page past the first: the header promises pages that are not
        // there.
        (
            "truncated mid-page",
            whole[..whole.len() / 2 + 100].to_vec(),
            |p| matches!(p, BackupProblem::Damaged | BackupProblem::NotADatabase),
        ),
        ("the first page only, cut", whole[..1000].to_vec(), |p| {
            matches!(p, BackupProblem::Damaged | BackupProblem::NotADatabase)
        }),
    ];
    for (name, content, problem) in cases {
        std::fs::write(&backup, content).unwrap();
        assert_refused_unchanged(name, &backup, &db, problem);
    }
    // Another program's SQLite database, and a Zayavka one whose application id was changed.
    std::fs::remove_file(&backup).unwrap();
    tamper(&backup, "CREATE TABLE contacts (name TEXT);");
    assert_refused_unchanged("another program's", &backup, &db, |p| {
        *p == BackupProblem::AnotherProgram
    });
    std::fs::remove_file(&backup).unwrap();
    Store::open(&scratch.db())
        .unwrap()
        .backup_to(&backup)
        .unwrap();
    tamper(&backup, "PRAGMA application_id = 1;");
    assert_refused_unchanged("the application id changed", &backup, &db, |p| {
        *p == BackupProblem::AnotherProgram
    });
}

#[test]
fn issue_37_an_older_backup_with_a_foreign_trigger_is_refused_before_migrating() {
    let scratch = Scratch::new();
    let (db, _) = made(&scratch);
    let backup = scratch.dir.path().join("v1.sqlite3");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v1.sqlite3");
    std::fs::copy(fixture, &backup).unwrap();
    tamper(
        &backup,
        "CREATE TRIGGER wipe AFTER INSERT ON drafts BEGIN DELETE FROM drafts; END;",
    );
    let version = |file: &Path| -> i64 {
        Connection::open(file)
            .unwrap()
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .unwrap()
    };
    assert_eq!(version(&backup), 1);
    assert_refused_unchanged("v1 with a trigger", &backup, &db, |p| {
        matches!(p, BackupProblem::Changed(_))
    });
    assert_eq!(version(&backup), 1, "never migrated");
}

#[test]
fn issue_37_a_live_database_changed_by_another_program_is_not_written_to() {
    let template = Scratch::new();
    let (_, pristine) = made(&template);
    for (name, sql) in changes(&pristine) {
        let scratch = Scratch::new();
        let (db, _) = made(&scratch);
        tamper(&db, &sql);
        let before = bytes(&db);
        match Store::open(&db) {
            Err(StoreError::ForeignSchema { path, differences }) => {
                assert_eq!(path, db, "{name}");
                assert!(!differences.is_empty(), "{name}");
            }
            other => panic!("{name}: {other:?}"),
        }
        assert!(
            matches!(
                Store::open_read_only(&db),
                Err(StoreError::ForeignSchema { .. })
            ),
            "{name}: read-only"
        );
        assert_eq!(bytes(&db), before, "{name}: the database changed");
        // The way back: every row comes over into a database with exactly the current schema.
        let recovered = scratch.dir.path().join("recovered.sqlite3");
        let recovery = Store::recover_into(&db, &recovered)
            .unwrap_or_else(|e| panic!("{name}: recover: {e:?}"));
        assert_eq!(recovery.drafts, 1, "{name}");
        let store = Store::open(&recovered).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(
            store.list_drafts(&Default::default()).unwrap().len(),
            1,
            "{name}"
        );
        assert_eq!(bytes(&db), before, "{name}: recover changed the original");
    }
}

#[test]
fn issue_37_the_message_for_a_changed_database_names_the_way_back() {
    let scratch = Scratch::new();
    let (db, _) = made(&scratch);
    tamper(&db, "CREATE VIEW everything AS SELECT * FROM drafts;");
    let error = Store::open(&db).unwrap_err();
    let message = error.message_ru();
    assert!(
        message.contains("есть то, чего Заявка не создаёт: файл изменён другой программой (лишнее представление «everything»)"),
        "{message}"
    );
    assert!(message.contains("zayavka drafts recover"), "{message}");
    assert!(
        message.contains("zayavka drafts restore ФАЙЛ --replace"),
        "{message}"
    );
    assert_eq!(error.code().to_string(), "foreign_schema");
}

#[test]
fn issue_37_recover_writes_exactly_the_current_schema_and_never_reads_a_view() {
    let scratch = Scratch::new();
    let (db, _) = made(&scratch);
    tamper(
        &db,
        "CREATE TRIGGER wipe AFTER INSERT ON drafts BEGIN DELETE FROM drafts; END;
         CREATE VIEW everything AS SELECT * FROM drafts;
         DROP TABLE eval_cassettes;
         CREATE VIEW eval_cassettes AS SELECT 'from the view' AS run_id;",
    );
    let recovered = scratch.dir.path().join("recovered.sqlite3");
    Store::recover_into(&db, &recovered).unwrap();
    let conn = Connection::open(&recovered).unwrap();
    let objects: Vec<(String, String)> = conn
        .prepare("SELECT type, name FROM sqlite_schema WHERE name IN ('wipe', 'everything', 'eval_cassettes')")
        .unwrap()
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(objects, [("table".to_owned(), "eval_cassettes".to_owned())]);
    let from_view: i64 = conn
        .query_row("SELECT count(*) FROM eval_cassettes", [], |row| row.get(0))
        .unwrap();
    assert_eq!(from_view, 0);
    // And the store opens it: its schema is exactly the current version's.
    drop(conn);
    Store::open(&recovered).unwrap();
}
