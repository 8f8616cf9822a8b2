//! The data folder on a full disk, made read-only, and an unwritable configuration folder.
//!
//! Each case mounts a small tmpfs of its own (`mount -t tmpfs -o size=…`) and puts the data
//! folder on it; the guard unmounts it however the test ends. Mounting needs root, which the
//! development machine and CI (a fresh Debian 12 machine, as root) both have. Where mount is not
//! permitted the case prints why and passes without running: a file-size limit (`ulimit -f`)
//! is no substitute, since SQLite sees `EFBIG` rather than `ENOSPC` and the shared-memory file
//! is not limited at all, so it would test a different fault (docs/testing.md).
//!
//! A filesystem cannot be remounted read-only while a program has a file on it open for
//! writing (the kernel answers `EBUSY`), so «read-only mid-session» is what a resident meets:
//! the disk turns read-only between two commands of a session — after drafts were written and
//! before the next write.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::damage::Mount;
use crate::database::{Home, description, integrity};
use crate::support::tests_dir;

fn photo(name: &str) -> PathBuf {
    tests_dir().join("fixtures/photos").join(name)
}

/// A batch file with three valid rows.
fn batch_file(folder: &Path) -> PathBuf {
    let path = folder.join("batch.csv");
    let mut text = String::from("Описание;Место\n");
    for row in 2..=4 {
        text.push_str(&format!(
            "Строка {row:02}: в подъезде неделю не горит свет на лестнице.;Подъезд 1\n"
        ));
    }
    std::fs::write(&path, text).unwrap();
    path
}

/// Each stored draft's `drafts show --json` and photos, to compare after the fault.
fn snapshot(home: &Home) -> Vec<(i64, Value, String)> {
    home.listed()
        .iter()
        .map(|draft| {
            let id = draft["id"].as_i64().unwrap();
            let (_, photos, _) = home.run(&["drafts", "attachments", &id.to_string(), "--json"]);
            (id, home.shown(id), photos)
        })
        .collect()
}

/// A message about the disk, not about the resident's problem, that says what to do.
fn assert_plain(stderr: &str, expected: &[&str], what: &str) {
    for words in expected {
        assert!(stderr.contains(words), "{what}: {words:?} in {stderr}");
    }
    for wrong in [
        "panicked",
        "сообщите о ней разработчикам",
        "отклон",
        "error",
        "Error",
    ] {
        assert!(!stderr.contains(wrong), "{what}: {wrong:?} in {stderr}");
    }
}

/// A home on `mount` with two drafts, the second with a photo.
fn home_with_drafts(mount: &Mount) -> Home {
    let home = Home::new_in(mount.path());
    home.stored_draft(&description(1));
    let id = home.stored_draft(&description(2));
    let (output, _, stderr) = home.run(&[
        "drafts",
        "attach",
        &id.to_string(),
        photo("gps.jpg").to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    home
}

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: puts the data on a tmpfs, which needs Linux's mount"
)]
fn a_full_disk_refuses_each_write_plainly_and_every_saved_draft_is_kept() {
    let Some(mount) = Mount::tmpfs(4 * 1024 * 1024) else {
        return;
    };
    let home = home_with_drafts(&mount);
    let before = snapshot(&home);
    let outside = tempfile::tempdir().unwrap();
    let batch = batch_file(outside.path());
    let filler = mount.fill();
    let full = ["закончилось место", "Освободите место на диске"];

    // A new draft: the request is shown (nothing typed is lost), and the resident is told it
    // was not stored, why, and what to do.
    let new = "Протечка крыши над третьим подъездом после каждого дождя.";
    let (output, stdout, stderr) =
        home.run(&["draft", "--offline", "--json", "--description", new]);
    // A script tells an unstored draft from a stored one by the exit code (issue 31).
    assert_eq!(output.status.code(), Some(6), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert!(report["draft_id"].is_null(), "{report}");
    assert_eq!(report["stored"], false, "{report}");
    // SQLite meets the full disk writing its log or shared memory: a disk_io (or disk_full).
    assert!(
        ["disk_io", "disk_full"].contains(&report["store_error"].as_str().unwrap_or_default()),
        "{report}"
    );
    assert!(
        report["request"]["body"]
            .as_str()
            .unwrap()
            .contains("Протечка крыши"),
        "{report}"
    );
    assert!(
        stderr.contains("Черновик не записан в базу черновиков"),
        "{stderr}"
    );
    assert_plain(&stderr, &full, "draft");

    let copy = mount.path().join("copy.sqlite3");
    let png = photo("gps.png");
    let edit = outside.path().join("edit.txt");
    std::fs::write(&edit, "Заголовок\n\nПравка.\n").unwrap();
    let writes: [(&str, Vec<&str>); 4] = [
        (
            "attach",
            vec!["drafts", "attach", "1", png.to_str().unwrap()],
        ),
        (
            "batch",
            vec!["batch", batch.to_str().unwrap(), "--offline", "--yes"],
        ),
        ("backup", vec!["drafts", "backup", copy.to_str().unwrap()]),
        (
            "edit",
            vec!["drafts", "edit", "1", "--body-file", edit.to_str().unwrap()],
        ),
    ];
    for (what, args) in &writes {
        let (output, _, stderr) = home.run(args);
        assert_eq!(output.status.code(), Some(2), "{what}: {stderr}");
        assert_plain(&stderr, &full, what);
    }
    assert!(!copy.exists(), "no half-written backup is left");

    // Space freed: everything saved before is there as it was, and the same commands work.
    std::fs::remove_file(filler).unwrap();
    assert_eq!(integrity(&home.database()), "ok");
    assert_eq!(snapshot(&home), before);
    for (what, args) in &writes {
        let (output, _, stderr) = home.run(args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{what} after freeing space: {stderr}"
        );
    }
    assert_eq!(home.listed().len(), before.len() + 3);
    assert_eq!(integrity(&copy), "ok");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: puts the data on a tmpfs, which needs Linux's mount"
)]
fn a_disk_that_fills_during_a_batch_keeps_the_rows_done_and_the_rerun_finishes_the_rest() {
    let Some(mount) = Mount::tmpfs(2 * 1024 * 1024) else {
        return;
    };
    let home = home_with_drafts(&mount);
    let before = snapshot(&home);
    let outside = tempfile::tempdir().unwrap();
    let batch = batch_file(outside.path());
    // Room for the database to open and take a row or two, not for the whole batch.
    let filler = mount.fill();
    let length = std::fs::metadata(&filler).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&filler)
        .unwrap()
        .set_len(length.saturating_sub(80 * 1024))
        .unwrap();
    let args = [
        "batch",
        batch.to_str().unwrap(),
        "--offline",
        "--yes",
        "--json",
    ];
    let (output, _, stderr) = home.run(&args);
    assert_ne!(
        output.status.code(),
        Some(0),
        "the batch fit after all: {stderr}"
    );
    assert_plain(&stderr, &["закончилось место"], "batch");
    std::fs::remove_file(filler).unwrap();
    assert_eq!(integrity(&home.database()), "ok");
    // Whatever rows went in before the disk filled are whole; none is there twice.
    let listed = home.listed();
    for draft in listed.iter().filter(|d| !d["batch_row"].is_null()) {
        assert_eq!(draft["outcome"], "ready", "{draft}");
    }
    let (output, stdout, stderr) = home.run(&args);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let summary: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(summary["ready"], 3, "{summary}");
    let mut rows: Vec<u64> = home
        .listed()
        .iter()
        .filter_map(|d| d["batch_row"].as_u64())
        .collect();
    rows.sort_unstable();
    assert_eq!(rows, [2, 3, 4]);
    let after = snapshot(&home);
    for kept in &before {
        assert!(after.contains(kept), "draft {} changed", kept.0);
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: puts the data on a tmpfs, which needs Linux's mount"
)]
fn a_data_folder_turned_read_only_refuses_writes_plainly_and_loses_nothing() {
    let Some(mount) = Mount::tmpfs(8 * 1024 * 1024) else {
        return;
    };
    let home = home_with_drafts(&mount);
    let before = snapshot(&home);
    let database = std::fs::read(home.database()).unwrap();
    let outside = tempfile::tempdir().unwrap();
    let batch = batch_file(outside.path());
    let edit = outside.path().join("edit.txt");
    std::fs::write(&edit, "Заголовок\n\nПравка.\n").unwrap();
    mount.remount("ro");
    let read_only = ["нельзя записывать", "только для чтения"];

    let (output, stdout, stderr) = home.run(&[
        "draft",
        "--offline",
        "--json",
        "--description",
        &description(3),
    ]);
    assert_eq!(output.status.code(), Some(6), "{stderr}");
    assert!(
        stdout.contains("Черновик № 3"),
        "the request is shown: {stdout}"
    );
    assert!(
        stderr.contains("Черновик не записан в базу черновиков"),
        "{stderr}"
    );
    assert_plain(&stderr, &read_only, "draft");
    let copy = home.path().join("copy.sqlite3");
    let png = photo("gps.png");
    for (what, args) in [
        (
            "edit",
            vec!["drafts", "edit", "1", "--body-file", edit.to_str().unwrap()],
        ),
        (
            "attach",
            vec!["drafts", "attach", "1", png.to_str().unwrap()],
        ),
        (
            "batch",
            vec!["batch", batch.to_str().unwrap(), "--offline", "--yes"],
        ),
        ("backup", vec!["drafts", "backup", copy.to_str().unwrap()]),
        ("delete", vec!["drafts", "delete", "1"]),
    ] {
        let (output, _, stderr) = home.run(&args);
        assert_eq!(output.status.code(), Some(2), "{what}: {stderr}");
        assert_plain(&stderr, &read_only, what);
    }
    assert_eq!(std::fs::read(home.database()).unwrap(), database);
    // The saved drafts stay readable there, and can be copied to a disk that can be written.
    assert_eq!(snapshot(&home), before);
    let (output, _, stderr) = home.run(&["drafts", "list"]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("Папка данных доступна только для чтения: черновики можно смотреть"),
        "{stderr}"
    );
    let rescue = outside.path().join("rescue.sqlite3");
    let (output, _, stderr) = home.run(&["drafts", "backup", rescue.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(integrity(&rescue), "ok");
    let (output, _, stderr) = home.run(&["drafts", "search", "Черновик", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    // Statistics only read, so they are counted on a read-only disk too.
    let (output, stdout, stderr) = home.run(&["stats", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("\"drafts\""), "{stdout}");

    mount.remount("rw");
    assert_eq!(snapshot(&home), before);
    let (output, _, stderr) =
        home.run(&["drafts", "edit", "1", "--body-file", edit.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(integrity(&home.database()), "ok");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: puts the data on a tmpfs, which needs Linux's mount"
)]
fn an_unwritable_configuration_folder_refuses_settings_plainly_and_drafting_goes_on() {
    let Some(mount) = Mount::tmpfs(1024 * 1024) else {
        return;
    };
    // The operating system's layout: configuration and data in separate folders, the
    // configuration on the mount.
    let data = tempfile::tempdir().unwrap();
    let command = |args: &[&str]| {
        let mut command = crate::support::zayavka();
        command
            .env("HOME", data.path())
            .env("XDG_CONFIG_HOME", mount.path())
            .env("XDG_DATA_HOME", data.path().join("share"))
            .env("XDG_STATE_HOME", data.path().join("state"))
            .args(args);
        crate::support::run(&mut command)
    };
    for args in [
        &["config", "set", "active_profile", "ollama"][..],
        &["profile", "set", "full_name", "Иванова Анна Петровна"],
    ] {
        let (output, _, stderr) = command(args);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
    }
    let config_dir = mount.path().join("zayavka");
    let files: Vec<(PathBuf, Vec<u8>)> = ["config.toml", "profile.toml"]
        .iter()
        .map(|name| {
            let path = config_dir.join(name);
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path, bytes)
        })
        .collect();
    mount.remount("ro");

    let (output, _, stderr) = command(&["config", "set", "active_profile", "openai"]);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_plain(
        &stderr,
        &[
            "Не удалось записать файл настроек",
            "только для чтения",
            "Прежний файл не изменён",
        ],
        "config set",
    );
    let (output, _, stderr) = command(&["profile", "set", "apartment", "12"]);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_plain(
        &stderr,
        &[
            "не удалось сохранить профиль",
            "только для чтения",
            "прежний профиль не изменён",
            "дайте права на запись в эту папку и сохраните профиль ещё раз",
        ],
        "profile set",
    );
    for (path, bytes) in &files {
        assert_eq!(&std::fs::read(path).unwrap(), bytes, "{}", path.display());
    }
    // The settings still read, and drafting, which writes only to the data folder, goes on.
    let (output, stdout, stderr) = command(&["profile", "show"]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("Иванова Анна Петровна"), "{stdout}");
    let (output, stdout, stderr) = command(&[
        "draft",
        "--offline",
        "--json",
        "--description",
        &description(1),
    ]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert!(report["draft_id"].is_i64(), "{report}\n{stderr}");
}
