//! «Данные» in «Настройки» (issue 31, item 3) against a temporary data folder: a backup, a
//! backup put back, and a damaged database recovered, with the guarantees the command line
//! gives — a backup whole or not at all, nothing written over a file, the database that was in
//! place kept beside byte for byte — and a damaged database met with the app's own way back,
//! never a command-line command.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use zayavka_desktop::backup;
use zayavka_desktop::commands::{self, ListFilter};
use zayavka_desktop::error::{CommandError, ErrorKind};
use zayavka_desktop::state::{AppState, Environment};
use zayavka_engine::{EnvironmentOverrides, MemoryStore, Paths, RawInput};

/// The reliability suite's tmpfs and database damage, so that «Данные» meets the same faults.
#[path = "../../tests/shared/damage.rs"]
mod damage;

use damage::{Mount, overwrite_drafts_root, overwrite_leaf_holding};

/// An installation in a temporary folder, with no model set up: drafts are written without one.
struct App {
    _home: tempfile::TempDir,
    state: AppState,
}

impl App {
    fn new() -> App {
        let home = tempfile::tempdir().unwrap();
        let state = AppState::new(
            Paths::under(home.path()),
            Arc::new(MemoryStore::new()),
            Environment::Fixed(EnvironmentOverrides::default()),
        );
        App { _home: home, state }
    }

    fn database(&self) -> PathBuf {
        self.state.engine.paths().database_file()
    }

    fn data_folder(&self) -> PathBuf {
        self.database().parent().unwrap().to_owned()
    }

    /// A draft written without a model from `description`; its id, when it was stored.
    fn draft(&self, description: &str) -> Option<i64> {
        self.offline(description).draft_id
    }

    fn offline(&self, description: &str) -> zayavka_desktop::view::DraftResult {
        commands::draft_run(&self.state, typed(description), "offline", true, &|_| {}).unwrap()
    }

    /// The descriptions of the listed drafts, newest first.
    fn descriptions(&self) -> Vec<String> {
        commands::drafts_list(&self.state, ListFilter::default())
            .unwrap()
            .iter()
            .map(|item| item.input["description"].as_str().unwrap().to_owned())
            .collect()
    }

    /// The names of the files in the data folder, sorted.
    fn data_files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.data_folder())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| !name.ends_with("-wal") && !name.ends_with("-shm"))
            .collect();
        names.sort();
        names
    }

    /// The file in the data folder whose name holds `part`.
    fn data_file(&self, part: &str) -> PathBuf {
        let name = self
            .data_files()
            .into_iter()
            .find(|name| name.contains(part))
            .unwrap_or_else(|| panic!("no file with «{part}» in {:?}", self.data_files()));
        self.data_folder().join(name)
    }
}

fn typed(description: &str) -> RawInput {
    RawInput {
        description: Some(description.to_owned()),
        location: None,
        consequences: None,
        desired_actions: Some("Прошу: заменить лампы на лестнице".to_owned()),
        confirmed_subject: None,
    }
}

fn description(number: u32) -> String {
    format!("Черновик № {number} : в подъезде неделю не горит свет на лестнице.")
}

/// Long descriptions, two or three to a database page, so that one damaged page costs only
/// its own drafts.
fn long(number: u32) -> String {
    format!(
        "Черновик № {number} : {}",
        "в подъезде неделю не горит свет на лестнице. ".repeat(30)
    )
}

fn app_with(descriptions: impl IntoIterator<Item = String>) -> App {
    let app = App::new();
    for description in descriptions {
        app.draft(&description).expect("the draft is stored");
    }
    app
}

/// The drafts in a database file, counted by SQLite itself.
fn drafts_in(database: &Path) -> i64 {
    rusqlite::Connection::open(database)
        .unwrap()
        .query_row("SELECT count(*) FROM drafts", [], |row| row.get(0))
        .unwrap()
}

fn integrity(database: &Path) -> String {
    rusqlite::Connection::open(database)
        .unwrap()
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .unwrap()
}

/// Whether a message names a command-line command or flag, which a resident in the app never
/// types.
fn names_a_command(message: &str) -> bool {
    message.split_whitespace().any(|word| {
        word.trim_matches(|c: char| !c.is_alphanumeric() && c != '-') == "zayavka"
            || word.starts_with("--")
    }) || message.contains("drafts restore")
        || message.contains("drafts recover")
        || message.contains("config path")
}

fn error_of<T: std::fmt::Debug>(result: Result<T, CommandError>) -> CommandError {
    result.expect_err("the command is refused")
}

#[test]
fn a_backup_is_written_whole_and_restored_with_the_database_in_place_kept_beside() {
    let app = app_with((1..=3).map(description));
    app.state.fix_today(jiff::civil::date(2026, 3, 5));
    assert_eq!(
        backup::backup_file_name(&app.state).unwrap(),
        "Заявка-резервная-копия-2026-03-05.sqlite3"
    );
    let copies = tempfile::tempdir().unwrap();
    let copy = copies
        .path()
        .join("Заявка-резервная-копия-2026-03-05.sqlite3");
    let written = backup::data_backup(&app.state, &copy).unwrap();
    assert_eq!(written.file, copy.display().to_string());
    assert!(
        written.message.contains(&copy.display().to_string()),
        "{}",
        written.message
    );
    assert_eq!(integrity(&copy), "ok");
    assert_eq!(drafts_in(&copy), 3);

    // A backup never goes over a file: the one there stays as it was.
    let before = std::fs::read(&copy).unwrap();
    let again = error_of(backup::data_backup(&app.state, &copy));
    assert_eq!(again.kind, ErrorKind::Store);
    assert!(
        again.message.contains("уже существует"),
        "{}",
        again.message
    );
    assert!(!names_a_command(&again.message), "{}", again.message);
    assert_eq!(std::fs::read(&copy).unwrap(), before);

    // Later work: one draft deleted, one added.
    commands::draft_delete(&app.state, 1).unwrap();
    app.draft(&description(4)).unwrap();
    let database_before = std::fs::read(app.database()).unwrap();

    // Only a file chosen in the open dialog is restored.
    let refused = error_of(backup::data_restore(&app.state, &copy));
    assert_eq!(refused.kind, ErrorKind::InvalidArgument);
    assert_eq!(
        app.descriptions(),
        [description(4), description(3), description(2)]
    );

    let shown = backup::chosen_backup(&app.state, copy.clone());
    let restored = backup::data_restore(&app.state, Path::new(&shown)).unwrap();
    assert_eq!(restored.drafts, 3);
    assert_eq!(
        app.descriptions(),
        [description(3), description(2), description(1)]
    );
    assert!(
        restored.message.contains("3 черновика"),
        "{}",
        restored.message
    );
    let aside = PathBuf::from(restored.set_aside.as_deref().expect("the database kept"));
    assert!(
        restored.message.contains(&aside.display().to_string()),
        "{}",
        restored.message
    );
    assert!(
        aside
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("zayavka.sqlite3.before-restore-"),
        "{}",
        aside.display()
    );
    assert_eq!(aside.parent(), Some(app.data_folder().as_path()));
    // The database that was in place is kept, with the later work in it; the backup itself
    // is copied, not moved.
    assert_eq!(std::fs::read(&aside).unwrap(), database_before);
    assert_eq!(drafts_in(&aside), 3);
    assert_eq!(std::fs::read(&copy).unwrap(), before);
    // And the app goes on working with the restored drafts, without a restart.
    app.draft(&description(5)).unwrap();
    assert_eq!(app.descriptions()[0], description(5));
}

#[test]
fn a_file_that_is_not_a_backup_replaces_nothing() {
    let app = app_with((1..=2).map(description));
    let database_before = std::fs::read(app.database()).unwrap();
    let files_before = app.data_files();
    let folder = tempfile::tempdir().unwrap();
    let shopping = folder.path().join("покупки.sqlite3");
    std::fs::write(&shopping, "Список покупок: хлеб, молоко.\n".repeat(300)).unwrap();
    let shown = backup::chosen_backup(&app.state, shopping.clone());
    let refused = error_of(backup::data_restore(&app.state, Path::new(&shown)));
    assert_eq!(refused.kind, ErrorKind::Read);
    assert!(
        refused.message.contains("не резервная копия Заявки")
            && refused.message.contains("Ничего не заменено")
            && refused.message.contains(&shopping.display().to_string()),
        "{}",
        refused.message
    );
    assert!(!names_a_command(&refused.message), "{}", refused.message);
    assert_eq!(std::fs::read(app.database()).unwrap(), database_before);
    assert_eq!(app.data_files(), files_before, "nothing half-made is left");
    assert_eq!(app.descriptions(), [description(2), description(1)]);
}

/// Folds the write-ahead log into the database file, so that the file holds every draft.
fn fold(database: &Path) {
    rusqlite::Connection::open(database)
        .unwrap()
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .unwrap();
}

#[test]
fn a_damaged_database_is_recovered_in_place_and_the_damaged_file_kept_beside() {
    let app = app_with((1..=16).map(long));
    let database = app.database();
    fold(&database);
    let lost = overwrite_leaf_holding(&database, "Черновик № 8 ");
    assert!(lost.contains(&8) && lost.len() < 5, "{lost:?}");
    let damaged_bytes = std::fs::read(&database).unwrap();

    // The app says what to press, in the app.
    let listed = error_of(commands::drafts_list(&app.state, ListFilter::default()));
    assert_eq!(listed.kind, ErrorKind::Store);
    assert!(
        listed.message.contains("«Настройки» → «Данные»")
            && listed.message.contains("«Восстановить повреждённую базу»"),
        "{}",
        listed.message
    );
    assert!(!names_a_command(&listed.message), "{}", listed.message);

    // While a draft is being written nothing is replaced.
    {
        let _running = app.state.start_task("task-1");
        let busy = error_of(backup::data_recover(&app.state));
        assert!(
            busy.message.contains("Ничего не заменено"),
            "{}",
            busy.message
        );
        assert_eq!(std::fs::read(&database).unwrap(), damaged_bytes);
        assert_eq!(app.data_files(), ["zayavka.sqlite3"]);
    }

    let recovered = backup::data_recover(&app.state).unwrap();
    let kept = 16 - lost.len();
    assert_eq!(recovered.drafts, kept);
    assert!(recovered.damage_found);
    assert!(
        recovered
            .message
            .contains(&format!("Спасено черновиков: {kept}."))
            && recovered.message.contains("повреждённые места"),
        "{}",
        recovered.message
    );
    assert!(
        !names_a_command(&recovered.message),
        "{}",
        recovered.message
    );
    // The damaged database is kept beside, byte for byte, and the message says where.
    let aside = PathBuf::from(recovered.set_aside.as_deref().unwrap());
    assert_eq!(aside, app.data_file(".before-restore-"));
    assert_eq!(std::fs::read(&aside).unwrap(), damaged_bytes);
    assert!(
        recovered.message.contains(&aside.display().to_string()),
        "{}",
        recovered.message
    );
    let copy = PathBuf::from(recovered.recovered.as_deref().unwrap());
    assert_eq!(copy, app.data_file("zayavka-recovered-"));
    assert_eq!(integrity(&database), "ok");

    let mut expected: Vec<String> = (1..=16)
        .filter(|number| !lost.contains(number))
        .map(long)
        .collect();
    expected.reverse();
    assert_eq!(app.descriptions(), expected);
    // Search works again: the index was rebuilt from what came through.
    assert_eq!(
        commands::drafts_search(&app.state, "лестнице")
            .unwrap()
            .len(),
        kept
    );
    // And a backup can be made of it now.
    let copies = tempfile::tempdir().unwrap();
    let backup_file = copies.path().join("копия.sqlite3");
    backup::data_backup(&app.state, &backup_file).unwrap();
    assert_eq!(drafts_in(&backup_file), i64::try_from(kept).unwrap());
}

#[test]
fn nothing_is_replaced_when_no_draft_can_be_read_and_a_backup_brings_every_draft_back() {
    let app = app_with((1..=3).map(description));
    let copies = tempfile::tempdir().unwrap();
    let copy = copies.path().join("копия.sqlite3");
    backup::data_backup(&app.state, &copy).unwrap();
    let database = app.database();
    fold(&database);
    overwrite_drafts_root(&database);
    let bytes = std::fs::read(&database).unwrap();

    let refused = error_of(backup::data_recover(&app.state));
    assert!(
        refused.message.contains("Ни одного черновика")
            && refused
                .message
                .contains("«Восстановить из резервной копии»"),
        "{}",
        refused.message
    );
    assert!(!names_a_command(&refused.message), "{}", refused.message);
    assert_eq!(std::fs::read(&database).unwrap(), bytes);
    assert!(
        !app.data_files()
            .iter()
            .any(|name| name.contains("before-restore")),
        "{:?}",
        app.data_files()
    );

    // A backup of a damaged database is refused, and no half-made copy is left.
    let second = copies.path().join("вторая.sqlite3");
    let not_written = error_of(backup::data_backup(&app.state, &second));
    assert!(
        !names_a_command(&not_written.message),
        "{}",
        not_written.message
    );
    assert!(!second.exists());

    let shown = backup::chosen_backup(&app.state, copy);
    let restored = backup::data_restore(&app.state, Path::new(&shown)).unwrap();
    assert_eq!(restored.drafts, 3);
    assert_eq!(
        app.descriptions(),
        [description(3), description(2), description(1)]
    );
    assert_eq!(
        std::fs::read(restored.set_aside.as_deref().unwrap()).unwrap(),
        bytes
    );
}

/// The ways a database file gets damaged or replaced, as the reliability suite applies them.
#[derive(Debug, Clone, Copy)]
enum Damage {
    Truncated,
    PageOverwritten,
    NotSqlite,
}

impl Damage {
    fn apply(self, database: &Path) {
        fold(database);
        match self {
            Damage::Truncated => {
                let length = std::fs::metadata(database).unwrap().len();
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(database)
                    .unwrap()
                    .set_len(length / 2)
                    .unwrap();
            }
            Damage::PageOverwritten => overwrite_drafts_root(database),
            Damage::NotSqlite => {
                std::fs::write(database, "Список покупок: хлеб, молоко.\n".repeat(300)).unwrap();
            }
        }
    }
}

/// Issue 31: whatever the page asks of a damaged or unreadable database, the message names no
/// command-line command and points to «Настройки» → «Данные».
#[test]
fn issue_31_no_message_for_a_damaged_database_names_a_command_line_command() {
    for damage in [
        Damage::Truncated,
        Damage::PageOverwritten,
        Damage::NotSqlite,
    ] {
        let app = app_with((1..=12).map(long));
        damage.apply(&app.database());
        let before = std::fs::read(app.database()).unwrap();
        let copies = tempfile::tempdir().unwrap();
        // Each command that fails: a table that is still whole may read (the filed requests,
        // the batches), but every draft-reading command meets the damage.
        let failed = |result: Result<(), CommandError>| result.err().map(|error| error.message);
        let messages: Vec<(&str, Option<String>)> = vec![
            (
                "drafts_list",
                failed(commands::drafts_list(&app.state, ListFilter::default()).map(drop)),
            ),
            (
                "drafts_search",
                failed(commands::drafts_search(&app.state, "лестнице").map(drop)),
            ),
            (
                "draft_open",
                failed(commands::draft_open(&app.state, 2).map(drop)),
            ),
            (
                "draft_edit",
                failed(commands::draft_edit(&app.state, 2, "Заголовок", "Текст.").map(drop)),
            ),
            (
                "draft_delete",
                failed(commands::draft_delete(&app.state, 2)),
            ),
            (
                "data_backup",
                failed(
                    backup::data_backup(&app.state, &copies.path().join("копия.sqlite3")).map(drop),
                ),
            ),
            (
                "stats_get",
                failed(
                    zayavka_desktop::stats::stats_get(
                        &app.state,
                        zayavka_desktop::stats::StatsRequest::default(),
                    )
                    .map(drop),
                ),
            ),
            (
                "cases_due",
                failed(zayavka_desktop::cases::cases_due(&app.state).map(drop)),
            ),
            (
                "batch_list",
                failed(commands::batch_list(&app.state).map(drop)),
            ),
        ];
        for command in ["drafts_list", "drafts_search", "draft_open", "data_backup"] {
            assert!(
                messages
                    .iter()
                    .any(|(name, message)| *name == command && message.is_some()),
                "{damage:?}: {command} read a damaged database"
            );
        }
        let mut messages: Vec<(&str, String)> = messages
            .into_iter()
            .filter_map(|(name, message)| Some((name, message?)))
            .collect();
        // A new draft is shown, and the resident is told it is not in «Черновики», and why.
        let offline = app.offline(&long(13));
        assert_eq!(offline.draft_id, None, "{damage:?}");
        messages.push(("draft_offline", offline.message));
        for (command, message) in &messages {
            assert!(!names_a_command(message), "{damage:?} {command}: {message}");
            assert!(
                message.contains("«Настройки» → «Данные»"),
                "{damage:?} {command}: {message}"
            );
        }
        assert_eq!(
            std::fs::read(app.database()).unwrap(),
            before,
            "{damage:?}: the damaged file changed"
        );
        assert!(!copies.path().join("копия.sqlite3").exists());
    }
}

#[test]
fn recovering_with_no_database_says_there_is_nothing_to_recover() {
    let app = App::new();
    let refused = error_of(backup::data_recover(&app.state));
    assert_eq!(refused.kind, ErrorKind::Store);
    assert!(
        refused.message.contains("спасать нечего"),
        "{}",
        refused.message
    );
    assert!(!names_a_command(&refused.message), "{}", refused.message);
}

#[test]
fn a_backup_from_another_computer_is_restored_where_there_is_no_database_yet() {
    let old = app_with((1..=2).map(description));
    let copies = tempfile::tempdir().unwrap();
    let copy = copies.path().join("копия.sqlite3");
    backup::data_backup(&old.state, &copy).unwrap();

    let new = App::new();
    assert!(!new.database().exists());
    let shown = backup::chosen_backup(&new.state, copy);
    let restored = backup::data_restore(&new.state, Path::new(&shown)).unwrap();
    assert_eq!((restored.drafts, restored.set_aside), (2, None));
    assert!(
        !restored.message.contains("Прежняя база"),
        "{}",
        restored.message
    );
    assert_eq!(new.descriptions(), [description(2), description(1)]);
}

/// A backup onto a full or read-only disk is refused and leaves nothing behind: the copy is
/// whole or not there at all.
#[test]
fn a_backup_onto_a_full_or_read_only_disk_is_refused_and_leaves_nothing() {
    let app = app_with((1..=12).map(long));
    let Some(full) = Mount::tmpfs(256 * 1024) else {
        return;
    };
    full.fill();
    let before = full.files();
    let target = full.path().join("копия.sqlite3");
    let refused = error_of(backup::data_backup(&app.state, &target));
    assert_eq!(refused.kind, ErrorKind::Store);
    assert!(
        refused.message.contains("закончилось место"),
        "{}",
        refused.message
    );
    assert!(!names_a_command(&refused.message), "{}", refused.message);
    assert_eq!(full.files(), before, "no half-made copy is left");

    let Some(read_only) = Mount::tmpfs(4 * 1024 * 1024) else {
        return;
    };
    read_only.remount("ro");
    let target = read_only.path().join("копия.sqlite3");
    let refused = error_of(backup::data_backup(&app.state, &target));
    assert!(
        refused.message.contains("нельзя записывать"),
        "{}",
        refused.message
    );
    assert!(!names_a_command(&refused.message), "{}", refused.message);
    assert_eq!(read_only.files(), Vec::<PathBuf>::new());
    // The drafts are as they were.
    assert_eq!(app.descriptions().len(), 12);
}

/// With the data folder on a full or read-only disk, neither a restore nor a recovery changes
/// the database in place, and nothing half-made is left beside it.
#[test]
fn a_restore_or_recovery_on_a_full_or_read_only_data_disk_changes_nothing() {
    let Some(disk) = Mount::tmpfs(2 * 1024 * 1024) else {
        return;
    };
    let state = AppState::new(
        Paths::under(disk.path()),
        Arc::new(MemoryStore::new()),
        Environment::Fixed(EnvironmentOverrides::default()),
    );
    let app = App {
        _home: tempfile::tempdir().unwrap(),
        state,
    };
    for number in 1..=6 {
        app.draft(&long(number)).unwrap();
    }
    // A backup larger than what is left once the disk is nearly full.
    let other = app_with((1..=40).map(long));
    let copies = tempfile::tempdir().unwrap();
    let copy = copies.path().join("копия.sqlite3");
    backup::data_backup(&other.state, &copy).unwrap();
    fold(&app.database());
    let database = std::fs::read(app.database()).unwrap();

    disk.fill();
    let files = disk.files();
    let shown = backup::chosen_backup(&app.state, copy.clone());
    // The disk is named as full, not the path as wrong (the store's own wording, which the
    // command line shows too).
    for refused in [
        error_of(backup::data_restore(&app.state, Path::new(&shown))),
        error_of(backup::data_recover(&app.state)),
    ] {
        assert!(
            refused.message.contains("закончилось место"),
            "{}",
            refused.message
        );
        assert!(!names_a_command(&refused.message), "{}", refused.message);
        assert_eq!(std::fs::read(app.database()).unwrap(), database);
        assert_eq!(disk.files(), files, "{}", refused.message);
    }

    std::fs::remove_file(disk.path().join("filler")).unwrap();
    let files = disk.files();
    disk.remount("ro");
    for refused in [
        error_of(backup::data_restore(&app.state, Path::new(&shown))),
        error_of(backup::data_recover(&app.state)),
    ] {
        assert!(
            refused.message.contains("только для чтения"),
            "{}",
            refused.message
        );
        assert!(!names_a_command(&refused.message), "{}", refused.message);
        assert_eq!(std::fs::read(app.database()).unwrap(), database);
        assert_eq!(disk.files(), files, "{}", refused.message);
    }
    // Readable still: the drafts are all there.
    assert_eq!(app.descriptions().len(), 6);
}

/// Runs SQL on `file` as another program would (issue 37).
fn tamper(file: &Path, sql: &str) {
    let conn = rusqlite::Connection::open(file).unwrap();
    conn.execute_batch(sql).unwrap();
    conn.execute_batch("PRAGMA journal_mode = DELETE").unwrap();
}

/// Issue 37 in the app: a backup another program changed replaces nothing and says what was
/// found; the live database changed by another program is not written to, the app points to
/// «Данные», and «Восстановить повреждённую базу» brings every draft back into a database with
/// no foreign SQL, the changed file kept beside.
#[test]
fn issue_37_a_changed_backup_or_database_is_met_in_the_app_with_its_way_back() {
    let app = app_with((1..=3).map(description));
    let copies = tempfile::tempdir().unwrap();
    let backup_file = copies.path().join("копия.sqlite3");
    backup::data_backup(&app.state, &backup_file).unwrap();
    tamper(
        &backup_file,
        "CREATE TRIGGER wipe AFTER INSERT ON drafts BEGIN DELETE FROM drafts; END;",
    );
    let database_before = std::fs::read(app.database()).unwrap();
    let files_before = app.data_files();
    let shown = backup::chosen_backup(&app.state, backup_file.clone());
    let refused = error_of(backup::data_restore(&app.state, Path::new(&shown)));
    assert_eq!(refused.kind, ErrorKind::Read);
    assert!(
        refused
            .message
            .contains("в файле есть то, чего Заявка не создаёт: файл изменён другой программой")
            && refused.message.contains("Ничего не заменено"),
        "{}",
        refused.message
    );
    assert!(!names_a_command(&refused.message), "{}", refused.message);
    assert_eq!(std::fs::read(app.database()).unwrap(), database_before);
    assert_eq!(app.data_files(), files_before);

    // The live database, changed by another program between two runs.
    let database = app.database();
    fold(&database);
    tamper(&database, "DROP TRIGGER filed_drafts_keep_their_text;");
    let changed = std::fs::read(&database).unwrap();
    let listed = error_of(commands::drafts_list(&app.state, ListFilter::default()));
    assert_eq!(listed.kind, ErrorKind::Store);
    assert!(
        listed.message.contains("изменена другой программой")
            && listed.message.contains("«Настройки» → «Данные»")
            && listed.message.contains("«Восстановить повреждённую базу»"),
        "{}",
        listed.message
    );
    assert!(!names_a_command(&listed.message), "{}", listed.message);
    assert!(app.draft("Не закрывается дверь подъезда.").is_none());
    assert_eq!(std::fs::read(&database).unwrap(), changed, "not written to");

    let recovered = backup::data_recover(&app.state).unwrap();
    assert_eq!(recovered.drafts, 3);
    let aside = PathBuf::from(recovered.set_aside.as_deref().unwrap());
    assert_eq!(std::fs::read(&aside).unwrap(), changed);
    assert_eq!(
        app.descriptions(),
        [description(3), description(2), description(1)]
    );
    let triggers: i64 = rusqlite::Connection::open(&database)
        .unwrap()
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE name = 'filed_drafts_keep_their_text'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(triggers, 1, "the protective trigger is back");
}
