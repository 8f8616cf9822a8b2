//! Files the resident names: what Notepad saves, what is not a file at all, what is too big, and
//! what a provider or a record hands back that is not what it should be.

use serde_json::json;

use crate::support::{run, zayavka};

fn response() -> serde_json::Value {
    json!({
        "outcome": "draft",
        "title": "Не горит свет на лестнице",
        "problem": "На лестнице в подъезде неделю не горит свет",
        "circumstances": null, "impact": null, "verification": null,
        "subject": null, "warnings": []
    })
}

fn assemble_files(
    input: &std::path::Path,
    response: &std::path::Path,
) -> (Option<i32>, String, String) {
    let (output, stdout, stderr) = run(zayavka()
        .arg("assemble")
        .arg("--input")
        .arg(input)
        .arg("--response")
        .arg(response));
    (output.status.code(), stdout, stderr)
}

#[test]
fn an_input_file_saved_by_notepad_with_a_byte_order_mark_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("input.json");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(
        json!({"description": "В подъезде неделю не горит свет на лестнице."})
            .to_string()
            .as_bytes(),
    );
    std::fs::write(&input, bytes).unwrap();
    let response_file = dir.path().join("response.json");
    std::fs::write(&response_file, response().to_string()).unwrap();
    let (code, stdout, stderr) = assemble_files(&input, &response_file);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("Не горит свет на лестнице"), "{stdout}");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: FIFOs and /dev are Unix's; Windows has neither"
)]
fn a_fifo_a_device_and_a_folder_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let response_file = dir.path().join("response.json");
    std::fs::write(&response_file, response().to_string()).unwrap();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    for path in [
        fifo.as_path(),
        std::path::Path::new("/dev/zero"),
        dir.path(),
    ] {
        let started = std::time::Instant::now();
        let (code, stdout, stderr) = assemble_files(path, &response_file);
        assert_eq!(code, Some(2), "{path:?}: {stderr}");
        assert!(stdout.is_empty());
        assert!(
            stderr.contains("не удалось прочитать")
                || stderr.contains("не обычный файл")
                || stderr.contains("папка"),
            "{path:?}: {stderr}"
        );
        // A FIFO must never make the tool wait for a writer.
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{path:?}"
        );
    }
}

#[test]
fn an_oversized_input_file_is_refused_with_the_real_limit() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("input.json");
    std::fs::write(&input, vec![b' '; 64 * 1024 + 1]).unwrap();
    let response_file = dir.path().join("response.json");
    std::fs::write(&response_file, response().to_string()).unwrap();
    let (code, _, stderr) = assemble_files(&input, &response_file);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("64 КБ"), "{stderr}");
}

#[test]
fn a_file_in_another_encoding_is_called_an_encoding_problem() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("input.json");
    // «свет» in Windows-1251.
    std::fs::write(&input, b"{\"description\": \"\xf1\xe2\xe5\xf2\"}").unwrap();
    let response_file = dir.path().join("response.json");
    std::fs::write(&response_file, response().to_string()).unwrap();
    let (code, _, stderr) = assemble_files(&input, &response_file);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("UTF-8"), "{stderr}");
    assert!(!stderr.contains("прав доступа"), "{stderr}");
}

#[test]
fn a_file_that_is_not_a_record_is_explained_in_russian() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("record.json");
    std::fs::write(&record, "{\"app_version\": 1}").unwrap();
    let (output, _, stderr) = run(zayavka().arg("replay").arg(&record));
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("не запись команды"), "{stderr}");
    assert!(!stderr.contains("invalid type"), "{stderr}");
}

#[test]
fn a_model_answer_with_a_terminal_escape_is_refused_and_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("input.json");
    std::fs::write(
        &input,
        json!({"description": "В подъезде неделю не горит свет на лестнице."}).to_string(),
    )
    .unwrap();
    let mut hostile = response();
    hostile["problem"] = json!("Свет не горит\u{1b}[2J\u{1b}[31m, всё в порядке\u{202e}");
    let response_file = dir.path().join("response.json");
    std::fs::write(&response_file, hostile.to_string()).unwrap();
    let (code, stdout, stderr) = assemble_files(&input, &response_file);
    assert_eq!(code, Some(4), "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        !stderr.contains('\u{1b}') && !stderr.contains('\u{202e}'),
        "{stderr:?}"
    );
    assert!(stderr.contains("/problem"), "{stderr}");
    let (output, stdout, _) = run(zayavka()
        .arg("assemble")
        .arg("--json")
        .arg("--input")
        .arg(&input)
        .arg("--response")
        .arg(&response_file));
    assert_eq!(output.status.code(), Some(4));
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["reason"], "unsafe_text");
    assert_eq!(report["errors"][0]["code"], "unsafe_character");
}

/// A port nothing listens on, so a draft fails as «unavailable» without any server.
fn closed_port_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    format!(
        "http://127.0.0.1:{}/v1",
        listener.local_addr().unwrap().port()
    )
}

#[test]
fn text_that_cannot_be_kept_is_printed_and_never_called_saved() {
    let home = tempfile::tempdir().unwrap();
    // A file where the data folder should be: nothing can be written under it.
    std::fs::write(home.path().join("data"), "not a folder").unwrap();
    let (output, _, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home.path())
        .env("ZAYAVKA_API_KEY", "sk-test-files-0123456789")
        .args([
            "draft",
            "--base-url",
            &closed_port_url(),
            "--model",
            "m",
            "--attempts",
            "1",
        ])
        .args([
            "--description",
            "Уникальный текст: в подъезде не горит свет",
        ]));
    assert_eq!(output.status.code(), Some(5), "{stderr}");
    assert!(!stderr.contains("сохранён"), "{stderr}");
    assert!(stderr.contains("не удалось сохранить"), "{stderr}");
    assert!(
        stderr.contains("на месте нужной папки лежит файл"),
        "{stderr}"
    );
    assert!(
        stderr.contains("Уникальный текст: в подъезде не горит свет"),
        "{stderr}"
    );
}

#[test]
fn the_rerun_line_is_quoted_and_repeats_the_original_flags() {
    let home = tempfile::tempdir().unwrap();
    let base_url = closed_port_url();
    let (output, _, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home.path().join("дом с пробелом"))
        .env("ZAYAVKA_API_KEY", "sk-test-files-0123456789")
        .args(["draft", "--base-url", &base_url, "--model", "модель 1"])
        .args([
            "--attempts",
            "1",
            "--timeout",
            "3",
            "--schema-mode",
            "json_object",
        ])
        .args([
            "--description",
            "В подъезде неделю не горит свет на лестнице",
        ]));
    assert_eq!(output.status.code(), Some(5), "{stderr}");
    let line = stderr
        .lines()
        .find_map(|line| line.strip_prefix("— повторить: "))
        .unwrap_or_else(|| panic!("no rerun line: {stderr}"));
    let words = shell_words::split(line).unwrap();
    assert_eq!(&words[..3], ["zayavka", "drafts", "retry"]);
    assert!(words[3].parse::<u64>().is_ok(), "{words:?}");
    let rest = &words[4..];
    for expected in [
        ["--base-url", base_url.as_str()],
        ["--model", "модель 1"],
        ["--schema-mode", "json_object"],
        ["--timeout", "3"],
        ["--attempts", "1"],
    ] {
        assert!(
            rest.windows(2).any(|pair| pair == expected),
            "{expected:?} in {words:?}"
        );
    }
    let offline = stderr
        .lines()
        .find_map(|line| line.strip_prefix("— составить без модели: "))
        .unwrap();
    assert!(
        shell_words::split(offline)
            .unwrap()
            .contains(&"--offline".to_owned())
    );
}

#[test]
fn an_offline_request_too_long_for_one_page_is_refused_up_front_with_the_real_maximum() {
    let home = tempfile::tempdir().unwrap();
    let description = "В подъезде не горит свет. ".repeat(76);
    let (output, stdout, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home.path())
        .args([
            "draft",
            "--offline",
            "--json",
            "--description",
            description.trim(),
        ])
        .args(["--consequences", &"Темно. ".repeat(70)]));
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["outcome"], "invalid_input");
    assert_eq!(report["errors"][0]["code"], "too_long_for_request");
    assert_eq!(report["next_steps"], json!(["fix_input"]));
    let message = report["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("не больше"), "{message}");
}
