//! GigaChat end to end through the `zayavka` binary (issue 15): a 20-row batch makes exactly one
//! token exchange, and a canary authorization key and the access tokens the stand-in issues
//! appear in no output, log, record, database, backup or export — even when the service echoes
//! them back in its error answers.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};
use zayavka_standin::{Reply, Script, Service, StandIn};

use crate::support::{files_under, run, zayavka};

/// The authorization key is Base64 of «client id:client secret»; both the key and the secret
/// inside it are canaries.
const AUTHORIZATION_KEY: &str = "Y2FuYXJ5LWdpZ2FjaGF0OmNhbmFyeS1zZWNyZXQtOTg3NjU0MzIxMA==";
const CLIENT_SECRET: &str = "canary-secret-9876543210";
/// Every access token the stand-in issues starts so.
const TOKEN_PREFIX: &str = "standin-gigachat-token-";

fn valid_draft(quote: &str) -> Value {
    json!({
        "outcome": "draft",
        "title": "Не работает освещение на лестнице",
        "problem": "На лестнице неделю не горит свет",
        "circumstances": null,
        "impact": "В темноте на лестнице плохо видно ступени",
        "verification": "Причину нужно установить при осмотре",
        "subject": {"kind": "common_area_premises_lighting", "evidence": [
            {"source_field": "description", "quote": quote}
        ]},
        "warnings": []
    })
}

fn function_call() -> Reply {
    let schema = zayavka_core::request_draft_schema().name;
    Reply::function_call(schema, valid_draft("неделю не горит свет на лестнице"))
}

fn gigachat(script: Script) -> StandIn {
    StandIn::start_as(
        Service::GigaChat {
            authorization_key: AUTHORIZATION_KEY.to_owned(),
            scope: "GIGACHAT_API_PERS".to_owned(),
            token_lifetime: std::time::Duration::from_secs(1800),
        },
        script,
    )
}

/// A data folder with the GigaChat profile pointed at `stand_in`, and every output kept.
struct Home {
    dir: tempfile::TempDir,
    outputs: Vec<String>,
}

impl Home {
    fn new(stand_in: &StandIn) -> Home {
        let mut home = Home {
            dir: tempfile::tempdir().unwrap(),
            outputs: Vec::new(),
        };
        for (key, value) in [
            ("profiles.gigachat.base_url", stand_in.base_url()),
            ("profiles.gigachat.auth_url", stand_in.auth_url()),
            ("profiles.gigachat.attempts", "3".to_owned()),
            ("active_profile", "gigachat".to_owned()),
        ] {
            let (code, _) = home.run(&["config", "set", key, &value]);
            assert_eq!(code, Some(0), "config set {key}");
        }
        home
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn command(&self) -> Command {
        let mut command = zayavka();
        command
            .env("ZAYAVKA_HOME", self.path())
            .env("ZAYAVKA_API_KEY", AUTHORIZATION_KEY)
            // Every log line the program can write goes to standard error, which is kept.
            .env("ZAYAVKA_LOG", "trace");
        command
    }

    /// Runs `zayavka` with `args`; keeps both outputs and returns the exit code and stdout.
    fn run(&mut self, args: &[&str]) -> (Option<i32>, String) {
        let (output, stdout, stderr) = run(self.command().args(args));
        self.outputs.push(stdout.clone());
        self.outputs.push(stderr);
        (output.status.code(), stdout)
    }

    fn json(&mut self, args: &[&str]) -> Value {
        let (code, stdout) = self.run(args);
        serde_json::from_str(&stdout)
            .unwrap_or_else(|error| panic!("{args:?} (exit {code:?}): {error}: {stdout}"))
    }

    /// The canaries are nowhere: not in any output kept, nor in any byte of any file under the
    /// data folder (configuration, database with its journal, backups, exports, logs).
    fn assert_no_canary(&self, canaries: &[&str]) {
        for (number, text) in self.outputs.iter().enumerate() {
            for canary in canaries {
                assert!(
                    !text.contains(canary),
                    "output {number} holds {canary}:\n{text}"
                );
            }
        }
        let files = files_under(self.path());
        assert!(files.len() >= 10, "the artefacts exist: {files:?}");
        for file in files {
            let bytes = std::fs::read(&file).unwrap();
            for canary in canaries {
                assert!(
                    !bytes
                        .windows(canary.len())
                        .any(|window| window == canary.as_bytes()),
                    "{} holds {canary}",
                    file.display()
                );
            }
        }
    }
}

fn batch_file(dir: &Path, rows: u32) -> std::path::PathBuf {
    let mut text = String::from("ФИО;Квартира;Описание\n");
    for row in 1..=rows {
        text.push_str(&format!(
            "Жилец {row};{row};Квартира {row:02}: в подъезде неделю не горит свет на лестнице.\n"
        ));
    }
    let path = dir.join("дом.csv");
    std::fs::write(&path, text).unwrap();
    path
}

fn chat_requests(stand_in: &StandIn) -> usize {
    stand_in
        .requests()
        .iter()
        .filter(|request| request.path.ends_with("/chat/completions"))
        .count()
}

#[test]
fn issue_15_a_20_row_batch_makes_exactly_one_token_exchange() {
    let stand_in = gigachat(Script::always(function_call()));
    let mut home = Home::new(&stand_in);
    let file = batch_file(home.path(), 20);
    let file = file.to_str().unwrap();
    let summary = home.json(&["batch", file, "--yes", "--json"]);
    assert_eq!(summary["ready"], 20, "{summary}");
    assert_eq!(chat_requests(&stand_in), 20);
    assert_eq!(
        stand_in.token_exchanges(),
        1,
        "one token for the whole batch"
    );
    // GigaChat's individuals have one stream: the rows went one at a time.
    assert_eq!(stand_in.most_in_flight(), 1);
}

#[test]
fn issue_15_the_key_and_the_access_token_are_in_no_artefact() {
    // The service misbehaves on purpose: its error answers echo the authorization key, the
    // client secret and the bearer token back, as a careless proxy would.
    let echo = format!(
        "Authorization: Bearer {TOKEN_PREFIX}1; Basic {AUTHORIZATION_KEY}; secret {CLIENT_SECRET}"
    );
    let stand_in = gigachat(
        Script::new()
            // The first draft: a server error, then a rejected token (exchanged again), then
            // the answer.
            .then(Reply::json(500, json!({"message": echo})))
            .then(Reply::json(401, json!({"message": echo})))
            .then(function_call())
            // The second draft: a request refused with the secrets in its message.
            .then(Reply::json(400, json!({"message": echo})))
            // Then the batch's rows.
            .then(function_call())
            .repeat_last(),
    );
    let mut home = Home::new(&stand_in);
    let description = "В подъезде неделю не горит свет на лестнице между этажами.";
    let draft = |home: &mut Home| {
        home.json(&[
            "draft",
            "--json",
            "--description",
            description,
            "--subject",
            "common_area_premises_lighting",
        ])
    };
    let ready = draft(&mut home);
    assert_eq!(ready["outcome"], "ready", "{ready}");
    assert_eq!(
        stand_in.token_exchanges(),
        2,
        "the rejected token was exchanged again"
    );
    let failed = draft(&mut home);
    assert_eq!(failed["outcome"], "failed", "{failed}");

    let file = batch_file(home.path(), 3);
    let summary = home.json(&["batch", file.to_str().unwrap(), "--yes", "--json"]);
    assert_eq!(summary["ready"], 3, "{summary}");

    // Every way out of the program that may carry what the service said.
    let id = ready["draft_id"].to_string();
    let failed_id = failed["draft_id"].to_string();
    let out = home.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    for draft in [&id, &failed_id] {
        home.run(&["drafts", "show", draft]);
        home.run(&["drafts", "show", draft, "--json"]);
        home.run(&["drafts", "show", draft, "--explain"]);
    }
    for format in ["txt", "pdf", "docx", "json"] {
        let target = out.join(format!("draft.{format}"));
        let (code, _) = home.run(&[
            "drafts",
            "export",
            &id,
            "--format",
            format,
            "--out",
            target.to_str().unwrap(),
        ]);
        assert_eq!(code, Some(0), "export {format}");
    }
    let target = out.join("failed.json");
    home.run(&[
        "drafts",
        "export",
        &failed_id,
        "--format",
        "json",
        "--out",
        target.to_str().unwrap(),
    ]);
    home.run(&["drafts", "list"]);
    home.run(&["drafts", "list", "--json"]);
    let backup = out.join("backup.sqlite3");
    let (code, _) = home.run(&["drafts", "backup", backup.to_str().unwrap()]);
    assert_eq!(code, Some(0), "backup");
    home.run(&["batch", "status", "1"]);
    home.run(&["batch", "status", "1", "--json"]);
    for format in ["txt", "jsonl", "csv"] {
        let folder = out.join(format!("batch-{format}"));
        let (code, _) = home.run(&[
            "batch",
            "export",
            "1",
            "--format",
            format,
            "--out",
            folder.to_str().unwrap(),
        ]);
        assert_eq!(code, Some(0), "batch export {format}");
    }
    home.run(&["config", "show"]);
    home.run(&["config", "show", "--json"]);
    home.run(&["doctor"]);
    home.run(&["doctor", "--json"]);

    // The echo did arrive, and what was kept of it is the redacted answer: in the failed
    // draft's report and in its stored record (exported as JSON).
    let reason = failed["server_reason"].as_str().unwrap_or_default();
    assert!(reason.contains("[redacted]"), "{failed}");
    let exported = std::fs::read_to_string(out.join("failed.json")).unwrap();
    assert!(exported.contains("[redacted]"), "{exported}");
    home.assert_no_canary(&[AUTHORIZATION_KEY, CLIENT_SECRET, TOKEN_PREFIX]);
}
