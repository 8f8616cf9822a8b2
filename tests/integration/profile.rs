//! `zayavka profile`: show, set, clear, refused values that change nothing, and the proof that
//! the profile never reaches the model — neither the request the provider receives nor the
//! context record nor any other file but the profile's own.

use std::path::Path;

use serde_json::{Value, json};
use zayavka_standin::{Reply, Script, StandIn};

use crate::support::{run, zayavka};

/// One canary per field: none may appear anywhere the model's side of the system can see.
const CANARIES: [(&str, &str); 7] = [
    ("full_name", "Канареечкина Агата Прокловна"),
    ("address", "ул. Канареечная, д. 77"),
    ("apartment", "кв-канарейка-913"),
    ("phone", "+7 999 913-77-31"),
    ("email", "kanareika913@example.ru"),
    ("company_name", "ООО «Канарейка-Управдом»"),
    ("company_address", "пр. Канареечный, д. 913"),
];

fn profile_in(home: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let (output, stdout, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home)
        .arg("profile")
        .args(args));
    (output.status.code(), stdout, stderr)
}

fn shown(home: &Path) -> Value {
    let (code, stdout, stderr) = profile_in(home, &["show", "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

#[test]
fn a_profile_is_set_shown_and_cleared() {
    let home = tempfile::tempdir().unwrap();
    let empty = json!({"full_name": null, "address": null, "apartment": null, "phone": null,
                       "email": null, "company_name": null, "company_address": null});
    assert_eq!(shown(home.path()), empty);
    let (code, stdout, stderr) = profile_in(
        home.path(),
        &["set", "full_name", " Иванова Мария Петровна "],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stdout,
        "ФИО: Иванова Мария Петровна — сохранено в профиле.\n"
    );
    let (code, _, stderr) = profile_in(home.path(), &["set", "apartment", "12"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(shown(home.path())["full_name"], "Иванова Мария Петровна");
    assert_eq!(shown(home.path())["apartment"], "12");
    let (code, stdout, _) = profile_in(home.path(), &["show"]);
    assert_eq!(code, Some(0));
    assert!(
        stdout.contains("ФИО (full_name): Иванова Мария Петровна\n"),
        "{stdout}"
    );
    assert!(stdout.contains("Телефон (phone): не указано\n"), "{stdout}");
    // An empty value removes one field.
    let (code, stdout, _) = profile_in(home.path(), &["set", "apartment", ""]);
    assert_eq!(code, Some(0));
    assert_eq!(stdout, "Квартира: удалено из профиля.\n");
    assert_eq!(shown(home.path())["apartment"], Value::Null);
    let (code, stdout, _) = profile_in(home.path(), &["clear"]);
    assert_eq!(code, Some(0));
    assert_eq!(stdout, "Профиль очищен.\n");
    assert_eq!(shown(home.path()), empty);
}

#[test]
fn a_wrong_value_gets_a_russian_error_and_changes_nothing() {
    let home = tempfile::tempdir().unwrap();
    let (code, _, _) = profile_in(home.path(), &["set", "email", "m@example.ru"]);
    assert_eq!(code, Some(0));
    let before = shown(home.path());
    let long_name = "Я".repeat(151);
    for (args, message) in [
        (
            ["set", "email", "m.example.ru"],
            "в поле «Эл. почта» не адрес электронной почты",
        ),
        (
            ["set", "address", "ул. Ленина\nд. 5"],
            "в поле «Адрес» на позиции 11 стоит служебный символ (U+000A)",
        ),
        (
            ["set", "company_name", "УК \u{202E}моД"],
            "в поле «Управляющая организация» на позиции 4 стоит невидимый символ (U+202E)",
        ),
        (
            ["set", "full_name", long_name.as_str()],
            "поле «ФИО» слишком длинное: можно не больше 150 символов, сейчас 151",
        ),
        (["set", "name", "x"], "в профиле нет поля «name»"),
    ] {
        let (code, stdout, stderr) = profile_in(home.path(), &args);
        assert_eq!(code, Some(2), "{args:?}: {stdout}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert_eq!(shown(home.path()), before, "{args:?} changed the profile");
    }
}

fn valid_draft() -> Value {
    json!({
        "outcome": "draft",
        "title": "Не работает освещение на лестнице",
        "problem": "На лестнице между третьим и четвёртым этажами неделю не горит свет",
        "circumstances": null,
        "impact": null,
        "verification": null,
        "subject": null,
        "warnings": []
    })
}

/// The profile's guarantee: with every field set to a canary, a draft's request to the provider,
/// its context record and every file but the profile itself hold none of them.
#[test]
fn the_profile_never_enters_the_models_context() {
    let home = tempfile::tempdir().unwrap();
    for (field, canary) in CANARIES {
        let (code, _, stderr) = profile_in(home.path(), &["set", field, canary]);
        assert_eq!(code, Some(0), "{field}: {stderr}");
    }
    let stand_in = StandIn::start(Script::always(Reply::completion(
        &valid_draft().to_string(),
    )));
    let record_file = home.path().join("record.json");
    let (output, stdout, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home.path())
        .env("ZAYAVKA_API_KEY", "sk-test")
        .env("ZAYAVKA_LOG", "trace")
        .args(["draft", "--json", "--base-url", &stand_in.base_url()])
        .args(["--model", "stand-in-model", "--record"])
        .arg(&record_file)
        .args([
            "--description",
            "В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.",
        ]));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let requests = stand_in.requests();
    assert_eq!(requests.len(), 1);
    let record = std::fs::read_to_string(&record_file).unwrap();
    let profile_file = home.path().join("profile.toml");
    assert!(profile_file.is_file());
    for (field, canary) in CANARIES {
        for request in &requests {
            // Both as sent and as decoded, in case a client escaped the Cyrillic.
            assert!(
                !request.body.contains(canary) && !request.json().to_string().contains(canary),
                "{field} was sent to the provider"
            );
            for (name, value) in &request.headers {
                assert!(!value.contains(canary), "{field} in the {name} header");
            }
        }
        let decoded: Value = serde_json::from_str(&record).unwrap();
        assert!(
            !record.contains(canary) && !decoded.to_string().contains(canary),
            "{field} is in the context record"
        );
        assert!(!stdout.contains(canary), "{field} is in the output");
        assert!(!stderr.contains(canary), "{field} is in the log");
        for file in crate::support::files_under(home.path()) {
            if file == profile_file {
                continue;
            }
            let bytes = std::fs::read(&file).unwrap();
            assert!(
                !String::from_utf8_lossy(&bytes).contains(canary),
                "{field} is in {}",
                file.display()
            );
        }
    }
}

/// `drafts export --format txt` files the draft as a document: the profile's header, the
/// request exactly as assembled, the date given, a signature line; what the profile lacks is a
/// marked blank.
#[test]
fn the_text_export_is_the_document_with_the_profiles_header() {
    let home = tempfile::tempdir().unwrap();
    for (field, value) in [
        ("full_name", "Иванова Мария Петровна"),
        ("address", "г. Тверь, ул. Лётная, д. 5"),
        ("company_name", "ООО «УК „Дом“»"),
    ] {
        let (code, _, stderr) = profile_in(home.path(), &["set", field, value]);
        assert_eq!(code, Some(0), "{stderr}");
    }
    let (output, stdout, stderr) = run(zayavka().env("ZAYAVKA_HOME", home.path()).args([
        "draft",
        "--offline",
        "--json",
        "--description",
        "В подъезде неделю не горит свет на лестнице, ёлки-палки.",
        "--desired-actions",
        "заменить лампы",
    ]));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let id = report["draft_id"].as_i64().unwrap().to_string();
    let export = |date: &str| {
        let (output, stdout, stderr) = run(zayavka()
            .env("ZAYAVKA_HOME", home.path())
            .args(["drafts", "export", &id, "--format", "txt", "--date", date]));
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        stdout
    };
    let text = export("2026-12-01");
    let expected = format!(
        "Кому: ООО «УК „Дом“»\n\
         Адрес: ________________\n\
         \n\
         От: Иванова Мария Петровна\n\
         Адрес: г. Тверь, ул. Лётная, д. 5\n\
         Квартира: ________________\n\
         Телефон: ________________\n\
         Эл. почта: ________________\n\
         \n\
         {}\n\
         \n\
         {}\n\
         \n\
         1 декабря 2026 г.\n\
         \n\
         Подпись: ________________ / Иванова Мария Петровна\n",
        report["request"]["title"].as_str().unwrap(),
        report["request"]["body"].as_str().unwrap(),
    );
    assert_eq!(text, expected);
    assert_eq!(
        export("2026-12-01"),
        text,
        "the same date gives the same bytes"
    );
    assert!(export("2027-03-08").contains("\n8 марта 2027 г.\n"));
    let (output, _, stderr) = run(zayavka().env("ZAYAVKA_HOME", home.path()).args([
        "drafts",
        "export",
        &id,
        "--format",
        "txt",
        "--date",
        "2026-13-01",
    ]));
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("ГГГГ-ММ-ДД"), "{stderr}");
}

/// `drafts export --format pdf|docx` writes the same document as a PDF or a DOCX: to a file only,
/// the same bytes for the same draft and date.
#[test]
fn the_pdf_and_docx_exports_go_to_a_file_and_are_the_same_for_the_same_date() {
    let home = tempfile::tempdir().unwrap();
    let (code, _, stderr) = profile_in(home.path(), &["set", "full_name", "Иванова Мария"]);
    assert_eq!(code, Some(0), "{stderr}");
    let (output, stdout, stderr) = run(zayavka().env("ZAYAVKA_HOME", home.path()).args([
        "draft",
        "--offline",
        "--json",
        "--description",
        "В подъезде неделю не горит свет на лестнице, ёлки-палки.",
    ]));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let id = report["draft_id"].as_i64().unwrap().to_string();
    let export = |file: &str, date: &str| {
        let path = home.path().join(file);
        let (output, _, stderr) = run(zayavka()
            .env("ZAYAVKA_HOME", home.path())
            .args([
                "drafts", "export", &id, "--format", "pdf", "--date", date, "--out",
            ])
            .arg(&path));
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        std::fs::read(path).unwrap()
    };
    let first = export("a.pdf", "2026-12-01");
    assert!(first.starts_with(b"%PDF-"));
    assert_eq!(
        export("b.pdf", "2026-12-01"),
        first,
        "same draft, same date, same bytes"
    );
    assert_ne!(export("c.pdf", "2026-12-02"), first);
    for format in ["pdf", "docx"] {
        let (output, stdout, stderr) = run(zayavka()
            .env("ZAYAVKA_HOME", home.path())
            .args(["drafts", "export", &id, "--format", format]));
        assert_eq!(output.status.code(), Some(2));
        assert!(stdout.is_empty(), "no {format} bytes on a terminal");
        assert!(stderr.contains("--out"), "{stderr}");
    }
    // The DOCX, likewise the same bytes for the same date, in another process.
    let docx = |file: &str| {
        let path = home.path().join(file);
        let (output, _, stderr) = run(zayavka()
            .env("ZAYAVKA_HOME", home.path())
            .args([
                "drafts",
                "export",
                &id,
                "--format",
                "docx",
                "--date",
                "2026-12-01",
            ])
            .arg("--out")
            .arg(&path));
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        std::fs::read(path).unwrap()
    };
    let first = docx("a.docx");
    assert!(first.starts_with(b"PK"));
    assert_eq!(docx("b.docx"), first);
}
