//! `kill -9` at every write point of a draft, an edit, an attachment, a batch and a case (the
//! filing, the answer, the closing, the withdrawal, the correction: issue 30).
//!
//! The store passes a named point inside each write transaction, just before each commit and
//! just after it (`zayavka-store/src/faults.rs`); a debug build run with
//! `ZAYAVKA_CRASH_AT=<point>` has itself killed there by a real `SIGKILL` from `kill -9`. Each
//! case starts from a copy of one data folder with finished drafts (one edited, one with a
//! photo), kills a command at one point, and then, as the next program to open the database:
//! the finished drafts are exactly as they were, nothing half-written is shown as finished,
//! nothing is there twice, the search index agrees with the drafts, SQLite finds the file
//! sound, and running the command again finishes the work.
//!
//! The existing kills this builds on: `a_draft_killed_during_the_call_is_stored_as_pending`
//! (tests/integration/draft.rs) kills during the model's call, and
//! `a_batch_killed_at_any_point_resumes_without_duplicates_or_resends`
//! (tests/integration/batch.rs) kills a batch after so many requests; here every kill lands
//! on a named write of the store.

use std::path::{Path, PathBuf};
use std::process::ExitStatus;

use serde_json::Value;

use crate::database::{Home, description, integrity};
use crate::support::tests_dir;

/// What a killed command must have left of the thing it was writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Left {
    /// Nothing: the transaction never committed.
    Nothing,
    /// The resident's input, as a pending draft that can be sent again.
    Pending,
    /// All of it.
    Finished,
}

/// A data folder with finished drafts, and how each one reads back.
struct Template {
    home: Home,
    /// Each draft's `drafts show --json` and `drafts attachments --json`.
    drafts: Vec<(i64, Value, Value)>,
}

impl Template {
    /// Draft 1, edited once; draft 2, with a photo.
    fn new() -> Template {
        let home = Home::new();
        let edited = home.stored_draft(&description(1));
        let edit = home.edit_file("template-edit.txt", "Первая правка жильца.");
        let (output, _, stderr) = home.run(&[
            "drafts",
            "edit",
            &edited.to_string(),
            "--body-file",
            edit.to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        let with_photo = home.stored_draft(&description(2));
        let (output, _, stderr) = home.run(&[
            "drafts",
            "attach",
            &with_photo.to_string(),
            photo("sideways6.jpg").to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        let drafts = [edited, with_photo]
            .into_iter()
            .map(|id| (id, home.shown(id), attachments(&home, id)))
            .collect();
        Template { home, drafts }
    }

    /// A fresh copy of the data folder, for one kill.
    fn copy(&self) -> Home {
        let home = Home::new();
        copy_folder(&self.home.path().join("data"), &home.path().join("data"));
        home
    }

    /// What must hold after any kill, checked by the next program to open the database: the
    /// finished drafts unchanged, no draft twice, nothing shown as finished that is not, and a
    /// sound file.
    fn check_after_restart(&self, home: &Home, point: &str) -> Vec<Value> {
        let listed = home.listed();
        for (id, shown, photos) in &self.drafts {
            assert_eq!(&home.shown(*id), shown, "{point}: draft {id} changed");
            assert_eq!(
                &attachments(home, *id),
                photos,
                "{point}: draft {id}'s photos"
            );
        }
        let mut ids: Vec<i64> = listed.iter().map(|d| d["id"].as_i64().unwrap()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), listed.len(), "{point}: a draft is listed twice");
        for draft in &listed {
            match draft["outcome"].as_str() {
                Some("ready") => {
                    let id = draft["id"].as_i64().unwrap();
                    let shown = home.shown(id);
                    assert!(
                        shown["request"]["body"]
                            .as_str()
                            .is_some_and(|b| !b.is_empty()),
                        "{point}: draft {id} is shown as ready without its text: {shown}"
                    );
                }
                Some("pending") => {}
                other => panic!("{point}: unexpected outcome {other:?}"),
            }
        }
        assert_eq!(integrity(&home.database()), "ok", "{point}");
        listed
    }
}

fn photo(name: &str) -> PathBuf {
    tests_dir().join("fixtures/photos").join(name)
}

fn attachments(home: &Home, id: i64) -> Value {
    let (output, stdout, stderr) = home.run(&["drafts", "attachments", &id.to_string(), "--json"]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    serde_json::from_str(&stdout).expect("a JSON list")
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Whether a command ended the way the store's crash point ends it: a `SIGKILL` on Unix, and
/// on Windows `__fastfail`, whose exit code is `STATUS_STACK_BUFFER_OVERRUN`.
fn killed(status: ExitStatus) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt as _;
        status.signal() == Some(9)
    }
    #[cfg(windows)]
    {
        status.code() == Some(0xC000_0409_u32 as i32)
    }
}

/// Runs `args` with `ZAYAVKA_CRASH_AT=point` and asserts that it was killed there.
fn kill_at(home: &Home, point: &str, args: &[&str]) {
    let mut command = home.command();
    command.env("ZAYAVKA_CRASH_AT", point).args(args);
    let output = crate::support::start_retrying(|| command.output()).expect("the binary runs");
    assert!(
        killed(output.status),
        "{point} was never reached: {:?}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

/// How many drafts `drafts search` finds for `word`: the index must agree with the drafts.
fn found(home: &Home, word: &str) -> usize {
    let (output, stdout, stderr) = home.run(&["drafts", "search", word, "--json"]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    serde_json::from_str::<Value>(&stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .len()
}

/// The points a new draft passes, and what each kill must leave.
const DRAFT_POINTS: &[(&str, Left)] = &[
    ("draft_insert.row", Left::Nothing),
    ("draft_insert.index", Left::Nothing),
    ("draft_create.commit", Left::Nothing),
    ("draft_create.committed", Left::Pending),
    ("draft_finish.result", Left::Pending),
    ("draft_finish.record", Left::Pending),
    ("draft_finish.attempts", Left::Pending),
    ("draft_finish.indexed", Left::Pending),
    ("draft_finish.commit", Left::Pending),
    ("draft_finish.committed", Left::Finished),
];

const NEW_DRAFT: &str = "Протечка крыши над третьим подъездом после каждого дождя.";

#[test]
fn a_draft_killed_at_any_write_point_is_absent_pending_or_whole() {
    let template = Template::new();
    for &(point, left) in DRAFT_POINTS {
        let home = template.copy();
        kill_at(
            &home,
            point,
            &["draft", "--offline", "--description", NEW_DRAFT],
        );
        let listed = template.check_after_restart(&home, point);
        let new: Vec<&Value> = listed
            .iter()
            .filter(|d| d["input"]["description"] == NEW_DRAFT)
            .collect();
        assert_eq!(found(&home, "протечка"), new.len(), "{point}: the index");
        match left {
            Left::Nothing => assert!(new.is_empty(), "{point}: {new:?}"),
            Left::Pending | Left::Finished => {
                assert_eq!(new.len(), 1, "{point}: {new:?}");
                let expected = if left == Left::Pending {
                    "pending"
                } else {
                    "ready"
                };
                assert_eq!(new[0]["outcome"], expected, "{point}");
            }
        }
        if left == Left::Pending {
            // The kept input is sent again under the same number, and nothing is doubled.
            let id = new[0]["id"].as_i64().unwrap().to_string();
            let (output, _, stderr) = home.run(&["drafts", "retry", &id, "--offline"]);
            assert_eq!(output.status.code(), Some(0), "{point}: {stderr}");
            let listed = template.check_after_restart(&home, point);
            assert_eq!(listed.len(), template.drafts.len() + 1, "{point}");
            assert_eq!(home.shown(id.parse().unwrap())["draft"]["outcome"], "ready");
        }
    }
}

/// The points where a draft made with a model writes its context record and its attempts.
#[test]
fn a_model_draft_killed_while_its_record_is_written_keeps_no_half_record() {
    let stand_in = zayavka_standin::StandIn::start(zayavka_standin::Script::always(
        zayavka_standin::Reply::completion(&zayavka_standin::lighting_draft().to_string()),
    ));
    let template = Template::new();
    let description = "В подъезде неделю не горит свет на лестнице между третьим и \
                       четвёртым этажами.";
    for (point, left) in [
        ("draft_finish.record", Left::Pending),
        ("draft_finish.attempts", Left::Pending),
        ("draft_finish.commit", Left::Pending),
        ("draft_finish.committed", Left::Finished),
    ] {
        let home = template.copy();
        let args = [
            "draft",
            "--base-url",
            &stand_in.base_url(),
            "--model",
            "stand-in-model",
            "--subject",
            "common_area_premises_lighting",
            "--description",
            description,
        ];
        let output = home
            .command()
            .env("ZAYAVKA_API_KEY", "sk-reliability-kill")
            .env("ZAYAVKA_CRASH_AT", point)
            .args(args)
            .output()
            .unwrap();
        assert!(killed(output.status), "{point}: {output:?}");
        let listed = template.check_after_restart(&home, point);
        let new: Vec<&Value> = listed
            .iter()
            .filter(|d| d["input"]["description"] == description)
            .collect();
        assert_eq!(new.len(), 1, "{point}");
        let id = new[0]["id"].as_i64().unwrap();
        let shown = home.shown(id);
        if left == Left::Pending {
            // Neither the record nor an attempt of the killed run is left half-written.
            assert_eq!(shown["draft"]["outcome"], "pending", "{point}");
            assert_eq!(shown["attempts"], 0, "{point}: {shown}");
            let (output, _, stderr) = home.run_with_key(&[
                "drafts",
                "retry",
                &id.to_string(),
                "--base-url",
                &stand_in.base_url(),
                "--model",
                "stand-in-model",
            ]);
            assert_eq!(output.status.code(), Some(0), "{point}: {stderr}");
            let shown = home.shown(id);
            assert_eq!(shown["draft"]["outcome"], "ready", "{point}");
            assert_eq!(shown["attempts"], 1, "{point}: {shown}");
        } else {
            assert_eq!(shown["draft"]["outcome"], "ready", "{point}");
            assert_eq!(shown["attempts"], 1, "{point}: {shown}");
        }
        template.check_after_restart(&home, point);
    }
}

#[test]
fn an_edit_or_a_photo_killed_at_any_write_point_is_all_there_or_not_at_all() {
    let template = Template::new();
    let (edited, _, _) = &template.drafts[0];
    let edited = edited.to_string();
    let edits: &[(&str, Left)] = &[
        ("draft_edit.version", Left::Nothing),
        ("draft_edit.index", Left::Nothing),
        ("draft_edit.commit", Left::Nothing),
        ("draft_edit.committed", Left::Finished),
    ];
    for &(point, left) in edits {
        let home = template.copy();
        let edit = home.edit_file("edit.txt", "Заменить светильники на лестнице.");
        // The template's own drafts are compared below, so the edit goes to a new one.
        let id = home.stored_draft(&description(3)).to_string();
        kill_at(
            &home,
            point,
            &["drafts", "edit", &id, "--body-file", edit.to_str().unwrap()],
        );
        template.check_after_restart(&home, point);
        let versions = home.shown(id.parse().unwrap())["versions"]
            .as_array()
            .unwrap()
            .len();
        let expected = usize::from(left == Left::Finished);
        assert_eq!(versions, expected, "{point}");
        assert_eq!(found(&home, "светильники"), expected, "{point}: the index");
        assert_eq!(
            home.shown(edited.parse().unwrap())["versions"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
    }
    let photos: &[(&str, Left)] = &[
        ("draft_attach.photo", Left::Nothing),
        ("draft_attach.audit", Left::Nothing),
        ("draft_attach.photo#2", Left::Nothing),
        ("draft_attach.audit#2", Left::Nothing),
        ("draft_attach.commit", Left::Nothing),
        ("draft_attach.committed", Left::Finished),
    ];
    for &(point, left) in photos {
        let home = template.copy();
        let id = home.stored_draft(&description(3));
        kill_at(
            &home,
            point,
            &[
                "drafts",
                "attach",
                &id.to_string(),
                photo("gps.jpg").to_str().unwrap(),
                photo("gps.png").to_str().unwrap(),
            ],
        );
        template.check_after_restart(&home, point);
        let attached = attachments(&home, id);
        let count = attached.as_array().unwrap().len();
        match left {
            Left::Finished => assert_eq!(count, 2, "{point}: {attached}"),
            _ => assert_eq!(count, 0, "{point}: photos are attached all or none"),
        }
        // Attaching again after the kill gives each photo once.
        if left == Left::Nothing {
            let (output, _, stderr) = home.run(&[
                "drafts",
                "attach",
                &id.to_string(),
                photo("gps.jpg").to_str().unwrap(),
                photo("gps.png").to_str().unwrap(),
            ]);
            assert_eq!(output.status.code(), Some(0), "{point}: {stderr}");
            assert_eq!(attachments(&home, id).as_array().unwrap().len(), 2);
        }
    }
}

/// The case of draft `id` as `drafts show --json` gives it: `null` when it is not filed.
fn case_of(home: &Home, id: i64) -> Value {
    home.shown(id).get("case").cloned().unwrap_or(Value::Null)
}

/// Runs `args`, which must succeed.
fn succeeds(home: &Home, args: &[&str]) {
    let (output, _, stderr) = home.run(args);
    assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
}

/// The days the case tests give: the drafts are written today, so they are filed today.
fn today() -> String {
    jiff::Zoned::now().date().to_string()
}

#[test]
fn a_case_change_killed_at_any_write_point_is_all_there_or_not_at_all() {
    let template = Template::new();
    let today = today();
    let file = |id: &str| {
        [
            "drafts",
            "filed",
            id,
            "--date",
            &today,
            "--how",
            "in_person",
            "--number",
            "17/А",
        ]
        .map(str::to_owned)
        .to_vec()
    };
    type Check = fn(&Value, &Value) -> bool;
    /// One change: the points it passes, whether the draft is filed first, the command (empty:
    /// the filing itself), and what the case must be when the change is whole.
    struct Change<'a> {
        operation: &'a str,
        steps: &'a [&'a str],
        prefiled: bool,
        command: Vec<String>,
        whole: Check,
    }
    let filed: Check = |_, case| case["case"]["filing"]["number"] == "17/А";
    let answered: Check = |_, case| case["case"]["answer"]["result"] == "solved";
    let closed: Check = |_, case| case["case"]["closed_on"].is_string();
    let withdrawn: Check = |_, case| case.is_null();
    let changes = [
        Change {
            operation: "case_file",
            steps: &["row", "commit", "committed"],
            prefiled: false,
            command: Vec::new(),
            whole: filed,
        },
        Change {
            operation: "case_answer",
            steps: &["row", "commit", "committed"],
            prefiled: true,
            command: [
                "drafts", "answer", "ID", "--date", &today, "--result", "solved",
            ]
            .map(str::to_owned)
            .to_vec(),
            whole: answered,
        },
        Change {
            operation: "case_close",
            steps: &["row", "commit", "committed"],
            prefiled: true,
            command: ["drafts", "close", "ID"].map(str::to_owned).to_vec(),
            whole: closed,
        },
        Change {
            operation: "case_withdraw",
            steps: &["row", "commit", "committed"],
            prefiled: true,
            command: ["drafts", "unfile", "ID"].map(str::to_owned).to_vec(),
            whole: withdrawn,
        },
        Change {
            operation: "draft_correct",
            steps: &["row", "copy", "commit", "committed"],
            prefiled: true,
            command: ["drafts", "correct", "ID"].map(str::to_owned).to_vec(),
            whole: |_, _| true,
        },
    ];
    for Change {
        operation,
        steps,
        prefiled,
        command,
        whole,
    } in changes
    {
        for step in steps {
            let point = format!("{operation}.{step}");
            let home = template.copy();
            let id = home.stored_draft(&description(3));
            let id_text = id.to_string();
            if prefiled {
                let args = file(&id_text);
                succeeds(&home, &args.iter().map(String::as_str).collect::<Vec<_>>());
            }
            let before = case_of(&home, id);
            let drafts_before = home.listed().len();
            let args: Vec<String> = if command.is_empty() {
                file(&id_text)
            } else {
                command
                    .iter()
                    .map(|arg| {
                        if arg == "ID" {
                            id_text.clone()
                        } else {
                            arg.clone()
                        }
                    })
                    .collect()
            };
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            kill_at(&home, &point, &args);
            template.check_after_restart(&home, &point);
            let after = case_of(&home, id);
            let drafts_after = home.listed().len();
            if *step == "committed" {
                assert!(
                    whole(&before, &after),
                    "{point}: the change is lost: {after}"
                );
                if operation == "draft_correct" {
                    assert_eq!(drafts_after, drafts_before + 1, "{point}");
                }
            } else {
                assert_eq!(after, before, "{point}: half a change is visible");
                assert_eq!(
                    drafts_after, drafts_before,
                    "{point}: half a copy is visible"
                );
                // The same command, run again, does the whole change.
                succeeds(&home, &args);
                assert!(
                    whole(&before, &case_of(&home, id)),
                    "{point}: not done on the rerun"
                );
            }
        }
    }
}

#[test]
fn a_follow_up_killed_at_any_write_point_is_a_whole_linked_draft_or_nothing() {
    let template = Template::new();
    let today = today();
    for point in [
        "draft_insert.row",
        "draft_finish.result",
        "follow_up_create.row",
        "follow_up_create.commit",
        "follow_up_create.committed",
    ] {
        let home = template.copy();
        let id = home.stored_draft(&description(3)).to_string();
        succeeds(
            &home,
            &[
                "drafts",
                "filed",
                &id,
                "--date",
                &today,
                "--how",
                "in_person",
            ],
        );
        // A refusal lets the letter be written before the deadline.
        succeeds(
            &home,
            &[
                "drafts", "answer", &id, "--date", &today, "--result", "refused",
            ],
        );
        let before = home.listed().len();
        kill_at(
            &home,
            point,
            &["drafts", "follow-up", &id, "--to", "company"],
        );
        template.check_after_restart(&home, point);
        let listed = home.listed();
        if point.ends_with("committed") {
            assert_eq!(listed.len(), before + 1, "{point}");
            let letter = listed[0]["id"].as_i64().unwrap();
            assert_eq!(home.shown(letter)["follows"]["kind"], "repeat", "{point}");
        } else {
            assert_eq!(listed.len(), before, "{point}: half a letter is visible");
            succeeds(&home, &["drafts", "follow-up", &id, "--to", "company"]);
            assert_eq!(
                home.listed().len(),
                before + 1,
                "{point}: not written on the rerun"
            );
        }
    }
}

/// Issue 38: `drafts add` killed at any write point leaves either nothing or the whole request
/// filed before Zayavka — its draft, its text as filed and its filing — never a draft without
/// its case; and added again after a kill that left nothing, it is there once.
#[test]
fn a_request_brought_in_killed_at_any_write_point_is_whole_or_absent() {
    let template = Template::new();
    let filed_on = jiff::Zoned::now()
        .date()
        .checked_sub(jiff::Span::new().days(14))
        .unwrap()
        .to_string();
    let text = "Прошу заменить лампу на площадке 4 этажа, поданная на бумаге две недели назад.";
    let add = [
        "drafts",
        "add",
        "--text",
        text,
        "--filed",
        &filed_on,
        "--how",
        "in_person",
    ];
    for point in [
        "draft_insert.row",
        "draft_finish.result",
        "draft_bring_in.version",
        "draft_bring_in.index",
        "draft_bring_in.filed",
        "draft_bring_in.commit",
        "draft_bring_in.committed",
    ] {
        let home = template.copy();
        let before = home.listed().len();
        kill_at(&home, point, &add);
        template.check_after_restart(&home, point);
        let listed = home.listed();
        if point.ends_with("committed") {
            assert_eq!(listed.len(), before + 1, "{point}");
        } else {
            assert_eq!(listed.len(), before, "{point}: half a request is visible");
            succeeds(&home, &add);
            assert_eq!(
                home.listed().len(),
                before + 1,
                "{point}: not added on the rerun"
            );
        }
        let id = home.listed()[0]["id"].as_i64().unwrap();
        let case = case_of(&home, id);
        assert_eq!(
            case["case"]["filing"]["filed_on"],
            filed_on.as_str(),
            "{point}: {case}"
        );
        assert_eq!(
            found(&home, "бумаге"),
            1,
            "{point}: the text as filed, once"
        );
    }
}

/// Three valid rows (2, 3 and 5) and one too short to be a draft (4).
fn batch_file(home: &Home) -> PathBuf {
    let path = home.path().join("batch.csv");
    let mut text = String::from("Описание;Место\n");
    for row in 2..=5 {
        if row == 4 {
            text.push_str("коротко;Подъезд 1\n");
        } else {
            text.push_str(&format!(
                "Строка {row:02}: в подъезде неделю не горит свет на лестнице.;Подъезд 1\n"
            ));
        }
    }
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_batch_killed_at_any_write_point_finishes_on_the_next_run_with_one_draft_per_row() {
    let template = Template::new();
    let points = [
        "batch_create.rows",
        "batch_create.commit",
        "batch_create.committed",
        "batch_row.commit",
        "batch_row.committed",
        "batch_claim.commit",
        "batch_claim.committed#2",
        "draft_insert.row#3",
        "batch_finish.commit#2",
        "batch_finish.committed",
        "batch_finish.committed#3",
    ];
    for point in points {
        let home = template.copy();
        let file = batch_file(&home);
        let args = [
            "batch",
            file.to_str().unwrap(),
            "--offline",
            "--yes",
            "--json",
            "--concurrency",
            "1",
        ];
        kill_at(&home, point, &args);
        template.check_after_restart(&home, point);
        let (output, stdout, stderr) = home.run(&args);
        assert_eq!(output.status.code(), Some(0), "{point}: {stderr}");
        let summary: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(summary["ready"], 3, "{point}: {summary}");
        assert_eq!(summary["batch_number"], 1, "{point}: one batch, not two");
        let listed = template.check_after_restart(&home, point);
        let mut rows: Vec<u64> = listed
            .iter()
            .filter_map(|d| d["batch_row"].as_u64())
            .collect();
        rows.sort_unstable();
        assert_eq!(rows, [2, 3, 5], "{point}: one draft per valid row");
        assert!(
            listed
                .iter()
                .filter(|d| !d["batch_row"].is_null())
                .all(|d| d["outcome"] == "ready"),
            "{point}"
        );
        assert_eq!(found(&home, "Строка"), 3, "{point}: the index");
    }
}

#[test]
fn a_delete_killed_around_its_commit_leaves_the_draft_whole_or_leaves_no_trace_of_it() {
    let template = Template::new();
    for (point, deleted) in [
        ("draft_delete.commit", false),
        ("draft_delete.committed", true),
    ] {
        let home = template.copy();
        let secret = "Черновик с приметным словом бергамот: в подъезде не горит свет.";
        let id = home.stored_draft(secret);
        kill_at(&home, point, &["drafts", "delete", &id.to_string()]);
        let listed = template.check_after_restart(&home, point);
        let there = listed.iter().any(|d| d["id"] == id);
        assert_eq!(there, !deleted, "{point}");
        assert_eq!(found(&home, "бергамот"), usize::from(!deleted), "{point}");
        if deleted {
            // The killed delete never emptied the write-ahead log; the next program to close
            // the database does, and then no byte of the text is left in any file.
            let needle = "бергамот".as_bytes();
            for file in crate::support::files_under(&home.path().join("data")) {
                let bytes = std::fs::read(&file).unwrap();
                assert!(
                    !bytes.windows(needle.len()).any(|window| window == needle),
                    "{point}: {} still holds the deleted text",
                    file.display()
                );
            }
        }
    }
}
