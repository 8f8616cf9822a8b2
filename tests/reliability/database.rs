//! The database held by another process, and damaged database files.
//!
//! A second `zayavka` holds the write lock for real: the store's debug-only pause hook
//! (`ZAYAVKA_PAUSE_AT`, `zayavka-store/src/faults.rs`) stops it inside a write transaction. A
//! foreign program is an SQLite connection in this test process holding `BEGIN EXCLUSIVE`. The
//! damaged files are made by cutting, overwriting and replacing the bytes of a real database.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::damage::{overwrite_drafts_root, overwrite_leaf_holding};
use crate::support::{run, zayavka};

/// The store's wait for the write lock (`BUSY_TIMEOUT` in `zayavka-store/src/store.rs`).
const BUSY_WAIT: Duration = Duration::from_secs(5);

/// A data folder of its own (`ZAYAVKA_HOME`) and the commands run in it.
pub(crate) struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    pub(crate) fn new() -> Home {
        Home {
            dir: tempfile::tempdir().expect("a temporary folder"),
        }
    }

    /// A home in `parent` (a mount point the test made).
    pub(crate) fn new_in(parent: &Path) -> Home {
        Home {
            dir: tempfile::tempdir_in(parent).expect("a temporary folder"),
        }
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn database(&self) -> PathBuf {
        self.path().join("data").join("zayavka.sqlite3")
    }

    pub(crate) fn command(&self) -> Command {
        let mut command = zayavka();
        command.env("ZAYAVKA_HOME", self.path());
        command
    }

    pub(crate) fn run(&self, args: &[&str]) -> (Output, String, String) {
        run(self.command().args(args))
    }

    /// Runs with an API key for the stand-in.
    pub(crate) fn run_with_key(&self, args: &[&str]) -> (Output, String, String) {
        run(self
            .command()
            .env("ZAYAVKA_API_KEY", "sk-reliability-kill")
            .args(args))
    }

    /// `zayavka draft --offline --json` with this description: the draft's number, or `None`
    /// when it was not stored.
    pub(crate) fn draft(&self, description: &str) -> (Option<i64>, Output, String) {
        let (output, stdout, stderr) =
            self.run(&["draft", "--offline", "--json", "--description", description]);
        let report: Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {stdout}\nstderr: {stderr}"));
        assert_eq!(report["outcome"], "ready", "{report}");
        (report["draft_id"].as_i64(), output, stderr)
    }

    /// A draft that must be stored.
    pub(crate) fn stored_draft(&self, description: &str) -> i64 {
        let (id, _, stderr) = self.draft(description);
        id.unwrap_or_else(|| panic!("the draft was stored: {stderr}"))
    }

    /// `zayavka drafts list --json`, which must succeed.
    pub(crate) fn listed(&self) -> Vec<Value> {
        let (output, stdout, stderr) = self.run(&["drafts", "list", "--json"]);
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        serde_json::from_str::<Value>(&stdout)
            .expect("a JSON list")
            .as_array()
            .expect("an array")
            .clone()
    }

    /// `zayavka drafts show ID --json`, which must succeed.
    pub(crate) fn shown(&self, id: i64) -> Value {
        let (output, stdout, stderr) = self.run(&["drafts", "show", &id.to_string(), "--json"]);
        assert_eq!(output.status.code(), Some(0), "draft {id}: {stderr}");
        serde_json::from_str(&stdout).expect("a JSON object")
    }

    /// A file holding an edit (title, blank line, body) for `drafts edit --body-file`.
    pub(crate) fn edit_file(&self, name: &str, body: &str) -> PathBuf {
        let path = self.path().join(name);
        std::fs::write(&path, format!("Исправленный заголовок\n\n{body}\n")).expect("written");
        path
    }
}

/// A description that names its draft, so that it can be looked for.
pub(crate) fn description(number: u32) -> String {
    format!("Черновик № {number} : в подъезде неделю не горит свет на лестнице.")
}

/// What `PRAGMA integrity_check` says of the database (`ok` when sound), read by SQLite itself.
pub(crate) fn integrity(database: &Path) -> String {
    let conn =
        rusqlite::Connection::open_with_flags(database, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("the database opens for reading");
    conn.query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .expect("the check runs")
}

/// The descriptions of the listed drafts, newest first.
pub(crate) fn descriptions(listed: &[Value]) -> Vec<String> {
    listed
        .iter()
        .map(|draft| {
            draft["input"]["description"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        })
        .collect()
}

/// A `zayavka` stopped inside a write transaction by `ZAYAVKA_PAUSE_AT`.
struct Holder {
    child: Option<std::process::Child>,
    /// Kept open, so that what the holder writes after its pause does not meet a closed pipe.
    stderr: BufReader<std::process::ChildStderr>,
}

impl Holder {
    /// Starts `args` paused at `point` for `millis`, and returns once it holds the lock.
    fn start(home: &Home, point: &str, millis: u64, args: &[&str]) -> Holder {
        let mut child = home
            .command()
            .env("ZAYAVKA_PAUSE_AT", format!("{point}@{millis}"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut stderr = BufReader::new(child.stderr.take().expect("piped"));
        let mut line = String::new();
        stderr.read_line(&mut line).expect("stderr reads");
        assert_eq!(line.trim(), format!("zayavka: paused at {point}"));
        Holder {
            child: Some(child),
            stderr,
        }
    }

    /// Waits for the holder to end; returns its output, with the standard error after the
    /// pause line.
    fn finish(mut self) -> Output {
        let child = self.child.take().expect("running");
        let mut rest = Vec::new();
        std::io::Read::read_to_end(&mut self.stderr, &mut rest).expect("stderr reads");
        let mut output = child.wait_with_output().expect("the holder ends");
        output.stderr = rest;
        output
    }
}

impl Drop for Holder {
    fn drop(&mut self) {
        // A failed assertion must not leave the holder behind.
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
fn a_second_zayavka_holding_the_write_lock_is_waited_for_then_named_and_nothing_is_lost() {
    let home = Home::new();
    let first = home.stored_draft(&description(1));
    let second = home.stored_draft(&description(2));
    let edit_one = home.edit_file("one.txt", "Первая правка.");
    let edit_two = home.edit_file("two.txt", "Вторая правка.");
    let holder = Holder::start(
        &home,
        "draft_edit.version",
        BUSY_WAIT.as_millis() as u64 + 2500,
        &[
            "drafts",
            "edit",
            &first.to_string(),
            "--body-file",
            edit_one.to_str().unwrap(),
        ],
    );
    let started = Instant::now();
    // A new draft and an edit meet the lock at once; a reader does not wait at all.
    let drafting = std::thread::scope(|scope| {
        let drafting = scope.spawn(|| home.draft(&description(3)));
        let (output, _, stderr) = home.run(&[
            "drafts",
            "edit",
            &second.to_string(),
            "--body-file",
            edit_two.to_str().unwrap(),
        ]);
        let waited = started.elapsed();
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            waited >= BUSY_WAIT - Duration::from_millis(300) && waited < BUSY_WAIT * 2,
            "waited {waited:?}"
        );
        assert!(
            stderr.contains("База черновиков занята другой программой")
                && stderr.contains("ждала 5 секунд")
                && stderr.contains("ничего не изменено"),
            "{stderr}"
        );
        drafting.join().expect("the draft thread ends")
    });
    let (id, output, stderr) = drafting;
    assert_eq!((id, output.status.code()), (None, Some(6)), "{stderr}");
    assert!(
        stderr.contains("Черновик не записан в базу черновиков: База черновиков занята"),
        "{stderr}"
    );
    let holder = holder.finish();
    assert!(holder.status.success(), "{holder:?}");
    // The holder's edit is in; the refused edit, run again, goes in too.
    let (output, _, stderr) = home.run(&[
        "drafts",
        "edit",
        &second.to_string(),
        "--body-file",
        edit_two.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    for (id, body) in [(first, "Первая правка."), (second, "Вторая правка.")]
    {
        let shown = home.shown(id);
        let versions = shown["versions"].as_array().expect("versions");
        assert_eq!(versions.len(), 1, "{shown}");
        assert_eq!(versions[0]["body"], body, "{shown}");
    }
    assert_eq!(
        descriptions(&home.listed()),
        [description(2), description(1)]
    );
    assert_eq!(integrity(&home.database()), "ok");
}

#[test]
fn a_short_hold_is_waited_out_and_the_write_goes_through() {
    let home = Home::new();
    let first = home.stored_draft(&description(1));
    let edit = home.edit_file("one.txt", "Правка после ожидания.");
    let holder = Holder::start(
        &home,
        "draft_create.commit",
        1500,
        &["draft", "--offline", "--description", &description(2)],
    );
    let started = Instant::now();
    let (output, _, stderr) = home.run(&[
        "drafts",
        "edit",
        &first.to_string(),
        "--body-file",
        edit.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(started.elapsed() >= Duration::from_millis(1000));
    assert!(holder.finish().status.success());
    assert_eq!(
        descriptions(&home.listed()),
        [description(2), description(1)]
    );
}

#[test]
fn a_foreign_program_holding_the_database_exclusively_blocks_writes_not_reading() {
    let home = Home::new();
    let first = home.stored_draft(&description(1));
    let edit = home.edit_file("one.txt", "Правка.");
    let foreign = rusqlite::Connection::open(home.database()).expect("opens");
    foreign.execute_batch("BEGIN EXCLUSIVE").expect("locks");
    // The saved drafts stay readable while another program writes.
    assert_eq!(descriptions(&home.listed()), [description(1)]);
    let started = Instant::now();
    let (output, _, stderr) = home.run(&[
        "drafts",
        "edit",
        &first.to_string(),
        "--body-file",
        edit.to_str().unwrap(),
    ]);
    assert!(started.elapsed() >= BUSY_WAIT - Duration::from_millis(300));
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("программой, которая открыла файл базы"),
        "{stderr}"
    );
    foreign.execute_batch("ROLLBACK").expect("unlocks");
    drop(foreign);
    let (output, _, stderr) = home.run(&[
        "drafts",
        "edit",
        &first.to_string(),
        "--body-file",
        edit.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(home.shown(first)["versions"][0]["body"], "Правка.");
    assert_eq!(integrity(&home.database()), "ok");
}

/// The ways a database file gets damaged, each with what the resident must be told.
#[derive(Debug, Clone, Copy)]
enum Damage {
    /// Cut in half, as by a copy that stopped or a disk that filled during a copy.
    Truncated,
    /// The drafts table's first page overwritten with garbage.
    PageOverwritten,
    /// Replaced by a file that is not SQLite at all.
    NotSqlite,
    /// Written by a newer version of Zayavka.
    NewerVersion,
}

impl Damage {
    const ALL: [Damage; 4] = [
        Damage::Truncated,
        Damage::PageOverwritten,
        Damage::NotSqlite,
        Damage::NewerVersion,
    ];

    fn apply(self, database: &Path) {
        match self {
            Damage::Truncated => {
                let length = std::fs::metadata(database).unwrap().len();
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(database)
                    .unwrap();
                file.set_len(length / 2).unwrap();
            }
            Damage::PageOverwritten => overwrite_drafts_root(database),
            Damage::NotSqlite => {
                std::fs::write(database, "Список покупок: хлеб, молоко.\n".repeat(300)).unwrap();
            }
            Damage::NewerVersion => {
                rusqlite::Connection::open(database)
                    .unwrap()
                    .pragma_update(None, "user_version", 999)
                    .unwrap();
            }
        }
    }

    /// Words the message must hold: what happened and the way back.
    fn expected(self) -> &'static [&'static str] {
        match self {
            Damage::Truncated | Damage::PageOverwritten => &[
                "Файл базы черновиков повреждён",
                "не меняла и не «исправляла»",
                "zayavka drafts restore",
                "zayavka drafts recover",
            ],
            Damage::NotSqlite => &[
                "не является базой данных Заявки",
                "Файл не изменён",
                "zayavka drafts restore",
            ],
            Damage::NewerVersion => &["более новой версией Заявки", "не изменена", "Обновите"],
        }
    }
}

/// A home with three stored drafts, its database closed and folded (no write-ahead log).
fn home_with_three_drafts() -> Home {
    let home = Home::new();
    for number in 1..=3 {
        home.stored_draft(&description(number));
    }
    assert!(!home.database().with_extension("sqlite3-wal").exists());
    home
}

#[test]
fn a_damaged_database_is_refused_plainly_and_never_written_or_repaired() {
    for damage in Damage::ALL {
        let home = home_with_three_drafts();
        damage.apply(&home.database());
        let before = std::fs::read(home.database()).unwrap();
        let edit = home.edit_file("edit.txt", "Правка.");
        let copy = home.path().join("copy.sqlite3");
        let commands: [&[&str]; 4] = [
            &["drafts", "list"],
            &["drafts", "show", "1"],
            &["drafts", "edit", "1", "--body-file", edit.to_str().unwrap()],
            &["drafts", "backup", copy.to_str().unwrap()],
        ];
        for args in commands {
            let (output, stdout, stderr) = home.run(args);
            assert_eq!(
                output.status.code(),
                Some(2),
                "{damage:?} {args:?}: {stdout}"
            );
            for expected in damage.expected() {
                assert!(stderr.contains(expected), "{damage:?} {args:?}: {stderr}");
            }
            assert!(!stderr.contains("panicked"), "{stderr}");
        }
        assert!(!copy.exists(), "{damage:?}: no half-made backup is left");
        // A new draft is shown, and the resident is told it could not be stored and why.
        let (id, output, stderr) = home.draft(&description(4));
        assert_eq!((id, output.status.code()), (None, Some(6)), "{damage:?}");
        assert!(
            stderr.contains("Черновик не записан в базу черновиков"),
            "{damage:?}: {stderr}"
        );
        for expected in damage.expected() {
            assert!(stderr.contains(expected), "{damage:?} draft: {stderr}");
        }
        assert_eq!(
            std::fs::read(home.database()).unwrap(),
            before,
            "{damage:?}: the damaged file changed"
        );
    }
}

#[test]
fn recover_copies_what_can_be_read_into_a_new_database_and_restore_puts_it_in_place() {
    let home = Home::new();
    // Long descriptions, two or three to a page, so that one damaged page costs only its own.
    let long = |number: u32| {
        format!(
            "Черновик № {number} : {}",
            "в подъезде неделю не горит свет на лестнице. ".repeat(30)
        )
    };
    for number in 1..=16 {
        home.stored_draft(&long(number));
    }
    let database = home.database();
    let lost = overwrite_leaf_holding(&database, "Черновик № 8 ");
    assert!(lost.contains(&8) && lost.len() < 5, "{lost:?}");
    let damaged_bytes = std::fs::read(&database).unwrap();
    let (output, _, stderr) = home.run(&["drafts", "list"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("zayavka drafts recover"), "{stderr}");

    let (output, stdout, stderr) = home.run(&["drafts", "recover"]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.contains(&format!("Спасено черновиков: {}.", 16 - lost.len())),
        "{stdout}"
    );
    assert!(
        stdout.contains("В базе нашлись повреждённые места"),
        "{stdout}"
    );
    assert!(stdout.contains("не изменена"), "{stdout}");
    assert_eq!(std::fs::read(&database).unwrap(), damaged_bytes);
    let recovered = std::fs::read_dir(home.path().join("data"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("zayavka-recovered-")
        })
        .expect("the recovered database");
    assert!(stdout.contains(&format!(
        "zayavka drafts restore {} --replace",
        recovered.display()
    )));
    assert_eq!(integrity(&recovered), "ok");

    let (output, stdout, stderr) = home.run(&[
        "drafts",
        "restore",
        recovered.to_str().unwrap(),
        "--replace",
    ]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.contains("Прежняя база черновиков сохранена как"),
        "{stdout}"
    );
    let listed = home.listed();
    let mut expected: Vec<String> = (1..=16)
        .filter(|number| !lost.contains(number))
        .map(long)
        .collect();
    expected.reverse();
    assert_eq!(descriptions(&listed), expected);
    // Search works again: the index was rebuilt from what came through.
    let (_, found, _) = home.run(&["drafts", "search", "лестнице", "--json"]);
    let found: Value = serde_json::from_str(&found).unwrap();
    assert_eq!(found.as_array().unwrap().len(), expected.len());
    // The damaged original is kept beside, byte for byte.
    let aside = std::fs::read_dir(home.path().join("data"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.to_string_lossy().contains(".before-restore-"))
        .expect("the damaged database set aside");
    assert_eq!(std::fs::read(aside).unwrap(), damaged_bytes);
}

#[test]
fn recover_says_when_nothing_can_be_read_and_points_to_a_backup() {
    let home = home_with_three_drafts();
    let backup = home.path().join("backup.sqlite3");
    let (output, _, stderr) = home.run(&["drafts", "backup", backup.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    Damage::PageOverwritten.apply(&home.database());
    let (output, stdout, _) = home.run(&["drafts", "recover"]);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("Ни одного черновика") && stdout.contains("zayavka drafts restore"),
        "{stdout}"
    );
    for damage in [Damage::NotSqlite, Damage::NewerVersion] {
        let other = home_with_three_drafts();
        damage.apply(&other.database());
        let before = std::fs::read(other.database()).unwrap();
        let (output, _, stderr) = other.run(&["drafts", "recover"]);
        assert_eq!(output.status.code(), Some(2), "{damage:?}");
        for expected in damage.expected() {
            assert!(stderr.contains(expected), "{damage:?}: {stderr}");
        }
        assert_eq!(std::fs::read(other.database()).unwrap(), before);
        let left: Vec<_> = std::fs::read_dir(other.path().join("data"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(
            left,
            ["zayavka.sqlite3"],
            "{damage:?}: nothing half-made is left"
        );
    }
    // The backup is the way back: every draft returns, the damaged file is kept aside.
    let (output, stdout, stderr) =
        home.run(&["drafts", "restore", backup.to_str().unwrap(), "--replace"]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("3 шт."), "{stdout}");
    assert_eq!(
        descriptions(&home.listed()),
        [description(3), description(2), description(1)]
    );
}
