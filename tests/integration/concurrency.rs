//! The desktop app and the command line may have the drafts database open at the same time:
//! processes writing at once, and reading while a batch writes.

use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zayavka_standin::{Reply, Script, StandIn};

use crate::support::{run, zayavka};

#[test]
fn processes_drafting_at_once_each_store_their_own_draft() {
    let home = tempfile::tempdir().unwrap();
    let children: Vec<_> = (0..6)
        .map(|i| {
            zayavka()
                .env("ZAYAVKA_HOME", home.path())
                .args(["draft", "--offline", "--json", "--description"])
                .arg(format!(
                    "В подъезде номер {i} неделю не горит свет на лестнице"
                ))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut ids = std::collections::HashSet::new();
    for child in children {
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert!(
            ids.insert(report["draft_id"].as_i64().expect("stored")),
            "{report}"
        );
    }
    let (_, stdout, _) = run(zayavka()
        .env("ZAYAVKA_HOME", home.path())
        .args(["drafts", "list", "--json"]));
    let listed: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 6);
}

#[test]
fn the_drafts_can_be_read_and_written_while_a_batch_writes() {
    let draft = json!({
        "outcome": "draft", "title": "Не горит свет", "problem": "На лестнице не горит свет",
        "circumstances": null, "impact": null, "verification": null, "subject": null,
        "warnings": []
    });
    let slow = Reply::Delayed(
        Duration::from_millis(150),
        Box::new(Reply::completion(&draft.to_string())),
    );
    let stand_in = StandIn::start(Script::always(slow));
    let home = tempfile::tempdir().unwrap();
    let mut file = String::from("Описание\n");
    for row in 0..8 {
        file.push_str(&format!("Строка {row}: в подъезде неделю не горит свет\n"));
    }
    let csv = home.path().join("batch.csv");
    std::fs::write(&csv, file).unwrap();
    let batch = zayavka()
        .env("ZAYAVKA_HOME", home.path())
        .env("ZAYAVKA_API_KEY", "sk-concurrency-test-key")
        .arg("batch")
        .arg(&csv)
        .args([
            "--base-url",
            &stand_in.base_url(),
            "--model",
            "stand-in-model",
        ])
        .args(["--concurrency", "1", "--json", "--yes"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while stand_in.request_count() == 0 {
        assert!(Instant::now() < deadline, "the batch never sent a row");
        std::thread::sleep(Duration::from_millis(10));
    }
    // While the batch writes: list, search and a draft of one's own, each succeeds.
    for _ in 0..3 {
        for args in [
            vec!["drafts", "list", "--json"],
            vec!["drafts", "search", "подъезде", "--json"],
            vec![
                "draft",
                "--offline",
                "--json",
                "--description",
                "Во дворе не горит фонарь у подъезда",
            ],
        ] {
            let (output, stdout, stderr) =
                run(zayavka().env("ZAYAVKA_HOME", home.path()).args(&args));
            assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
            serde_json::from_str::<Value>(&stdout).expect("JSON while the batch writes");
        }
    }
    let output = batch.wait_with_output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let (_, stdout, _) = run(zayavka()
        .env("ZAYAVKA_HOME", home.path())
        .args(["drafts", "list", "--json"]));
    let listed: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 8 + 3);
    // Every draft a model wrote replays to a byte-identical request, with no network.
    drop(stand_in);
    let mut replayed = 0;
    for draft in listed.as_array().unwrap() {
        if draft["batch_id"].is_null() {
            continue; // drafted without a model: there is no response to replay
        }
        let id = draft["id"].to_string();
        let (output, stdout, stderr) = run(zayavka()
            .env("ZAYAVKA_HOME", home.path())
            .args(["replay", &id, "--json"]));
        assert_eq!(output.status.code(), Some(0), "{id}: {stderr}");
        let report: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(report["identical"], true, "{id}: {report}");
        replayed += 1;
    }
    assert_eq!(replayed, 8);
}
