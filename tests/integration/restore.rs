//! `zayavka drafts backup` and `drafts restore` through the real binary (issue 16, item 5):
//! moving drafts to a new computer. A backup restored into a fresh data folder holds every
//! draft and every photo byte for byte; a database already in place is never replaced
//! silently.

use std::path::{Path, PathBuf};

use serde_json::Value;
use zayavka_store::{DraftFilter, Store};

use crate::support::{run, tests_dir, zayavka};

fn database(home: &Path) -> PathBuf {
    home.join("data").join("zayavka.sqlite3")
}

fn zayavka_in(home: &Path, args: &[&str]) -> (std::process::Output, String, String) {
    run(zayavka().env("ZAYAVKA_HOME", home).args(args))
}

fn draft_offline(home: &Path, description: &str) -> String {
    let (output, stdout, stderr) = zayavka_in(
        home,
        &["draft", "--offline", "--json", "--description", description],
    );
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    report["draft_id"].as_i64().unwrap().to_string()
}

/// Every draft as `drafts show --json` prints it, and every photo's stored bytes, by draft.
fn everything(home: &Path) -> Vec<(Value, Vec<Vec<u8>>)> {
    let store = Store::open(&database(home)).unwrap();
    let mut drafts = store.list_drafts(&DraftFilter::default()).unwrap();
    drafts.sort_by_key(|draft| draft.id);
    drafts
        .iter()
        .map(|draft| {
            let id = draft.id.to_string();
            let (output, stdout, stderr) = zayavka_in(home, &["drafts", "show", &id, "--json"]);
            assert_eq!(output.status.code(), Some(0), "{stderr}");
            let photos = store
                .attachments_with_bytes(draft.id)
                .unwrap()
                .into_iter()
                .map(|(_, bytes)| bytes)
                .collect();
            (serde_json::from_str(&stdout).unwrap(), photos)
        })
        .collect()
}

/// The old computer: three drafts, two photos on the second, a resident's edit on the third.
fn old_computer() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    draft_offline(
        home.path(),
        "В подъезде № 2 неделю не горит свет на лестнице.",
    );
    let with_photos = draft_offline(
        home.path(),
        "Протекает крыша над квартирой 45, на потолке пятно.",
    );
    let photos = tests_dir().join("fixtures").join("photos");
    let (output, _, stderr) = run(zayavka().env("ZAYAVKA_HOME", home.path()).args([
        "drafts".as_ref(),
        "attach".as_ref(),
        with_photos.as_ref(),
        photos.join("gps.jpg").as_os_str(),
        photos.join("gps.png").as_os_str(),
    ]));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    draft_offline(
        home.path(),
        "Во дворе дома 7 не вывозят мусор с понедельника.",
    );
    home
}

#[test]
fn issue_16_a_backup_restored_on_a_fresh_data_folder_holds_every_draft_and_photo_byte_for_byte() {
    let old = old_computer();
    let before = everything(old.path());
    assert_eq!(before.len(), 3);
    assert_eq!(before[1].1.len(), 2, "the second draft has both photos");

    let carried = tempfile::tempdir().unwrap();
    let backup = carried.path().join("черновики.sqlite3");
    let (output, _, stderr) =
        zayavka_in(old.path(), &["drafts", "backup", backup.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let backup_bytes = std::fs::read(&backup).unwrap();

    let new = tempfile::tempdir().unwrap();
    let (output, stdout, stderr) =
        zayavka_in(new.path(), &["drafts", "restore", backup.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("3 шт."), "{stdout}");

    assert_eq!(everything(new.path()), before);
    assert_eq!(
        std::fs::read(&backup).unwrap(),
        backup_bytes,
        "the backup is copied, never changed"
    );
    // The restored database works on: a new draft gets the next number.
    let next = draft_offline(
        new.path(),
        "В лифте второго подъезда не работает кнопка 5 этажа.",
    );
    assert_eq!(next, "4");
}

#[test]
fn issue_16_restore_never_replaces_a_database_silently() {
    let old = old_computer();
    let carried = tempfile::tempdir().unwrap();
    let backup = carried.path().join("backup.sqlite3");
    let (output, _, stderr) =
        zayavka_in(old.path(), &["drafts", "backup", backup.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");

    // The new computer already has a draft of its own.
    let new = tempfile::tempdir().unwrap();
    draft_offline(new.path(), "На площадке третьего этажа разбито окно.");
    let own = everything(new.path());
    let (output, _, stderr) =
        zayavka_in(new.path(), &["drafts", "restore", backup.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--replace"), "{stderr}");
    assert_eq!(everything(new.path()), own, "refused with nothing changed");

    // With --replace the database in place is kept beside the restored one, whole.
    let (output, stdout, stderr) = zayavka_in(
        new.path(),
        &["drafts", "restore", "--replace", backup.to_str().unwrap()],
    );
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(everything(new.path()), everything(old.path()));
    let aside: Vec<PathBuf> = std::fs::read_dir(new.path().join("data"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.starts_with("zayavka.sqlite3.before-restore-")
                && !name.ends_with("-wal")
                && !name.ends_with("-shm")
        })
        .collect();
    assert_eq!(aside.len(), 1, "{stdout}");
    assert!(stdout.contains(&aside[0].display().to_string()), "{stdout}");
    let kept = Store::open(&aside[0]).unwrap();
    assert_eq!(kept.list_drafts(&DraftFilter::default()).unwrap().len(), 1);
}

#[test]
fn issue_16_a_file_that_is_not_a_backup_is_refused_and_nothing_is_left_behind() {
    let new = tempfile::tempdir().unwrap();
    let not_a_backup = new.path().join("заметки.txt");
    std::fs::write(&not_a_backup, "это не база черновиков").unwrap();
    let (output, _, stderr) = zayavka_in(
        new.path(),
        &["drafts", "restore", not_a_backup.to_str().unwrap()],
    );
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("нельзя восстановить: это не резервная копия Заявки"),
        "{stderr}"
    );
    assert!(!database(new.path()).exists());
    let left: Vec<_> = std::fs::read_dir(new.path().join("data"))
        .map(|entries| entries.map(|entry| entry.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
}

/// Runs SQL on `file` as another program would (issue 37).
fn tamper(file: &Path, sql: &str) {
    let conn = rusqlite::Connection::open(file).unwrap();
    conn.execute_batch(sql).unwrap();
    conn.execute_batch("PRAGMA journal_mode = DELETE").unwrap();
}

/// Issue 37: a backup another program changed is refused by `drafts restore` in plain Russian,
/// with nothing in place changed; and when the live database itself was changed between two
/// runs, the next run does not write to it, names what it found and the way back, and `drafts
/// recover` then `drafts restore --replace` brings every draft back into a database with no
/// foreign SQL.
#[test]
fn issue_37_a_changed_backup_or_database_is_refused_and_the_way_back_works() {
    let home = tempfile::tempdir().unwrap();
    draft_offline(
        home.path(),
        "В подъезде № 2 неделю не горит свет на лестнице.",
    );
    let backup = home.path().join("копия.sqlite3");
    let (output, _, stderr) =
        zayavka_in(home.path(), &["drafts", "backup", backup.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    tamper(
        &backup,
        "CREATE TRIGGER wipe AFTER INSERT ON drafts BEGIN DELETE FROM drafts; END;",
    );
    let before = std::fs::read(database(home.path())).unwrap();
    let (output, _, stderr) = zayavka_in(
        home.path(),
        &["drafts", "restore", backup.to_str().unwrap(), "--replace"],
    );
    assert_ne!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "нельзя восстановить: в файле есть то, чего Заявка не создаёт: файл изменён другой \
             программой (лишний триггер «wipe» у таблицы «drafts»)"
        ),
        "{stderr}"
    );
    assert_eq!(std::fs::read(database(home.path())).unwrap(), before);

    // The live database, changed between two runs.
    tamper(
        &database(home.path()),
        "CREATE TRIGGER wipe AFTER INSERT ON drafts BEGIN DELETE FROM drafts; END;",
    );
    let changed = std::fs::read(database(home.path())).unwrap();
    let (output, _, stderr) = zayavka_in(
        home.path(),
        &[
            "draft",
            "--offline",
            "--description",
            "Второй подъезд: не закрывается дверь.",
        ],
    );
    assert_ne!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("файл изменён другой программой"),
        "{stderr}"
    );
    assert!(stderr.contains("zayavka drafts recover"), "{stderr}");
    assert_eq!(std::fs::read(database(home.path())).unwrap(), changed);
    let (output, _, stderr) = zayavka_in(home.path(), &["drafts", "list"]);
    assert_ne!(
        output.status.code(),
        Some(0),
        "even reading refuses: {stderr}"
    );

    // The way back named in the message.
    let recovered = home.path().join("спасённое.sqlite3");
    let (output, stdout, stderr) = zayavka_in(
        home.path(),
        &["drafts", "recover", "--out", recovered.to_str().unwrap()],
    );
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    let (output, _, stderr) = zayavka_in(
        home.path(),
        &[
            "drafts",
            "restore",
            recovered.to_str().unwrap(),
            "--replace",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let (output, stdout, stderr) = zayavka_in(home.path(), &["drafts", "list", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("не горит свет"), "{stdout}");
    let conn = rusqlite::Connection::open(database(home.path())).unwrap();
    let foreign: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE name = 'wipe'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(foreign, 0);
}
