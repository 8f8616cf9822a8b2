//! Collective requests and one document per batch row (issue 9, item 5): the co-signers table
//! read back from the PDF with poppler, its pages rendered to PNGs kept under the target folder,
//! `batch export --format pdf|docx|txt` with the rows' own header columns, a clash in the folder,
//! a folder that takes no file, and the proof that neither the rows' header columns nor the
//! profile ever reach the model.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use zayavka_standin::{Reply, Script, StandIn};
use zayavka_store::Store;

use crate::documents::{drafted, export_draft, pages, pdf_text, poppler, words};
use crate::support::{run, zayavka};

/// Renders one page of `pdf` to `document-pages/<name>.png` under the target folder, to look at.
fn keep_page(pdf: &Path, page: u32, name: &str) -> PathBuf {
    let pages_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("document-pages");
    std::fs::create_dir_all(&pages_dir).unwrap();
    let prefix = pages_dir.join(name);
    let page = page.to_string();
    let status = poppler("pdftoppm")
        .args(["-png", "-r", "72", "-f", &page, "-l", &page, "-singlefile"])
        .arg(pdf)
        .arg(&prefix)
        .status()
        .unwrap();
    assert!(status.success());
    let png = prefix.with_extension("png");
    assert!(png.is_file());
    png
}

/// The text of one page of `pdf`; with `layout`, as poppler lays it out (a table's rows stay
/// rows).
fn page_text(pdf: &Path, page: u32, layout: bool) -> String {
    let page = page.to_string();
    let mut command = poppler("pdftotext");
    command.args(["-f", &page, "-l", &page]);
    if layout {
        command.arg("-layout");
    }
    let output = command.arg(pdf).arg("-").output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

/// The non-empty lines of one page laid out, each with its runs of white space made one space.
fn page_lines(pdf: &Path, page: u32) -> Vec<String> {
    page_text(pdf, page, true)
        .lines()
        .map(words)
        .filter(|line| !line.is_empty())
        .collect()
}

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: reads the PDF back with poppler, a Linux program that a Windows process under Wine cannot start; tests/windows checks that Windows writes the same document bytes"
)]
fn a_collective_pdf_is_the_request_then_a_sheet_of_signatures_and_its_pages_are_kept_as_pngs() {
    let (home, id) = drafted(
        "В подъезде № 2 неделю не горит свет на лестнице между третьим и четвёртым этажами; \
         жильцы «спотыкаются» в темноте.",
    );
    let plain_pdf = export_draft(home.path(), &id, "pdf", &[]);
    let plain_text = std::fs::read_to_string(export_draft(home.path(), &id, "txt", &[])).unwrap();
    let pdf = export_draft(home.path(), &id, "pdf", &["--collective"]);
    assert_eq!(pages(&plain_pdf), 1);
    assert_eq!(pages(&pdf), 2, "the request, then one sheet of signatures");
    // The first page is the request as the text export has it, up to the date.
    let (request, closing) = plain_text.split_once("1 декабря 2026 г.").unwrap();
    assert_eq!(words(&page_text(&pdf, 1, false)), words(request));
    // The second page, read line by line: the heading, the sentence, the header row, twenty
    // numbered rows, then the date and the signature.
    let lines = page_lines(&pdf, 2);
    let mut expected = vec![
        "Подписи жителей".to_owned(),
        "Заявку поддерживают жители дома:".to_owned(),
        "№ ФИО Квартира Подпись".to_owned(),
    ];
    expected.extend((1..=20).map(|n| n.to_string()));
    expected.push("1 декабря 2026 г.".to_owned());
    expected.push(words(closing.trim()));
    assert_eq!(lines, expected);
    // Determinism: the same draft and date give the same bytes, in another process too.
    let bytes = std::fs::read(&pdf).unwrap();
    let again = export_draft(home.path(), &id, "pdf", &["--collective"]);
    assert_eq!(std::fs::read(&again).unwrap(), bytes);
    assert_ne!(
        std::fs::read(&plain_pdf).unwrap(),
        std::fs::read(&pdf).unwrap()
    );
    eprintln!(
        "the first page of a collective request: {}",
        keep_page(&pdf, 1, "collective").display()
    );
    eprintln!(
        "its sheet of signatures: {}",
        keep_page(&pdf, 2, "collective-signatures").display()
    );
}

#[test]
fn collective_text_and_docx_carry_the_table_and_json_refuses_the_flag() {
    let (home, id) = drafted("В подъезде неделю не горит свет на лестнице между этажами.");
    let text =
        std::fs::read_to_string(export_draft(home.path(), &id, "txt", &["--collective"])).unwrap();
    assert!(
        text.contains("\nПодписи жителей\n\nЗаявку поддерживают жители дома:\n\n  № | ФИО"),
        "{text}"
    );
    assert!(text.contains("\n 20 | ____"), "{text}");
    assert!(!text.contains("\n 21 |"), "{text}");
    let docx = std::fs::read(export_draft(home.path(), &id, "docx", &["--collective"])).unwrap();
    assert!(docx.starts_with(b"PK"));
    // The package is compressed; unzip from Debian's `unzip` is not assumed, the engine's unit
    // tests read `word/document.xml`. Here: a collective DOCX differs from the plain one.
    let plain = std::fs::read(export_draft(home.path(), &id, "docx", &[])).unwrap();
    assert_ne!(docx, plain);

    let out = home.path().join("never.json");
    let (output, stdout, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home.path())
        .args([
            "drafts",
            "export",
            &id,
            "--format",
            "json",
            "--collective",
            "--out",
        ])
        .arg(&out));
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("--collective") && stderr.contains("txt, pdf или docx"),
        "{stderr}"
    );
    assert!(!out.exists(), "nothing is written");
}

fn valid_draft() -> Value {
    draft_about(
        "Не работает освещение на лестнице",
        "На лестнице неделю не горит свет",
    )
}

/// A well-formed answer with this title and problem and nothing more.
fn draft_about(title: &str, problem: &str) -> Value {
    json!({
        "outcome": "draft",
        "title": title,
        "problem": problem,
        "circumstances": null,
        "impact": null,
        "verification": null,
        "subject": null,
        "warnings": []
    })
}

/// One canary per profile field; the rows carry their own.
const PROFILE_CANARIES: [(&str, &str); 7] = [
    ("full_name", "Канареечкина Агата Прокловна"),
    ("address", "ул. Канареечная, д. 77"),
    ("apartment", "кв-канарейка-913"),
    ("phone", "+7 999 913-77-31"),
    ("email", "kanareika913@example.ru"),
    ("company_name", "ООО «Канарейка-Управдом»"),
    ("company_address", "пр. Канареечный, д. 913"),
];

/// The rows' header canaries: row 2 names a resident in full, row 3 only a flat, row 4 nobody.
const ROW_CANARIES: [&str; 4] = [
    "Щеглова Зоя Канареевна",
    "щегол-31",
    "+7 912 313-13-13",
    "щегол-44",
];

fn home_with_profile() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    for (field, value) in PROFILE_CANARIES {
        let (output, _, stderr) = run(zayavka()
            .env("ZAYAVKA_HOME", home.path())
            .args(["profile", "set", field, value]));
        assert_eq!(output.status.code(), Some(0), "{field}: {stderr}");
    }
    home
}

/// A batch file with the three header columns: row 2 names a resident in full, row 3 gives
/// only a flat, row 4 names nobody (the profile owner's own request), row 5 is invalid.
fn header_file(dir: &Path) -> PathBuf {
    let [name, flat, phone, other_flat] = ROW_CANARIES;
    let text = format!(
        "Описание;ФИО;Квартира;Телефон\n\
         В подъезде неделю не горит свет на лестнице между этажами.;{name};{flat};{phone}\n\
         На крыше течёт кровля, вода попадает на пятый этаж.;;{other_flat};\n\
         Сломан доводчик на входной двери, дверь громко хлопает.;;;\n\
         коротко;Кто-то;1;\n"
    );
    let path = dir.join("подъезд.csv");
    std::fs::write(&path, text).unwrap();
    path
}

fn batch_id(home: &Path) -> String {
    let (output, stdout, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home)
        .args(["batch", "list", "--json"]));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let list: Vec<Value> = serde_json::from_str(&stdout).unwrap();
    list[0]["batch_id"].as_str().unwrap().to_owned()
}

fn batch_export(home: &Path, id: &str, format: &str, out: &Path, extra: &[&str]) -> Command {
    let mut command = zayavka();
    command
        .env("ZAYAVKA_HOME", home)
        .args([
            "batch",
            "export",
            id,
            "--format",
            format,
            "--date",
            "2026-12-01",
        ])
        .args(extra)
        .arg("--out")
        .arg(out);
    command
}

/// Issue 9: the batch file's header columns and the profile never reach the model — not the
/// requests the stand-in received, not the context records — while each row's document carries
/// that row's own header.
#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: reads the PDF back with poppler, a Linux program that a Windows process under Wine cannot start; tests/windows checks that Windows writes the same document bytes"
)]
fn batch_header_columns_go_into_each_rows_document_and_never_to_the_model() {
    let home = home_with_profile();
    let file = header_file(home.path());
    // One answer per row, in file order (one row at a time), each about its own row's
    // problem: an answer about another row's would be rejected (issue 31).
    let script = [
        valid_draft(),
        draft_about(
            "Течёт кровля",
            "На крыше течёт кровля, вода попадает на пятый этаж",
        ),
        draft_about(
            "Сломан доводчик входной двери",
            "Сломан доводчик на входной двери, дверь громко хлопает",
        ),
    ]
    .iter()
    .fold(Script::new(), |script, draft| {
        script.then(Reply::completion(&draft.to_string()))
    });
    let stand_in = StandIn::start(script);
    let (output, stdout, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home.path())
        .env("ZAYAVKA_API_KEY", "sk-test")
        .arg("batch")
        .arg(&file)
        .args([
            "--base-url",
            &stand_in.base_url(),
            "--model",
            "stand-in-model",
        ])
        .args(["--json", "--yes", "--concurrency", "1"]));
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    let summary: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(summary["ready"], 3, "{summary}");
    let requests = stand_in.requests();
    assert_eq!(requests.len(), 3);
    let canaries: Vec<&str> = PROFILE_CANARIES
        .iter()
        .map(|(_, canary)| *canary)
        .chain(ROW_CANARIES)
        .collect();
    for canary in &canaries {
        for request in &requests {
            assert!(
                !request.body.contains(canary) && !request.json().to_string().contains(canary),
                "{canary} was sent to the provider"
            );
            for (name, value) in &request.headers {
                assert!(!value.contains(canary), "{canary} in the {name} header");
            }
        }
    }
    let store = Store::open(&home.path().join("data").join("zayavka.sqlite3")).unwrap();
    let id = batch_id(home.path());
    let mut records = 0;
    for row in store.batch_rows(&id).unwrap() {
        let Some(draft_id) = row.draft_id else {
            continue;
        };
        let draft = store.get_draft(draft_id).unwrap().unwrap();
        for record in &draft.records {
            records += 1;
            for canary in &canaries {
                assert!(
                    !record.record.record_json.contains(canary),
                    "{canary} is in the context record of row {}",
                    row.row_number
                );
            }
        }
    }
    assert_eq!(records, 3, "every sent row has its context record");

    let out = home.path().join("документы");
    let (output, _, stderr) = run(&mut batch_export(home.path(), &id, "txt", &out, &[]));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("Записано документов: 3"), "{stderr}");
    assert!(
        stderr.contains("Строка 5 без документа: строка не прошла проверку"),
        "{stderr}"
    );
    let row =
        |number: u32| std::fs::read_to_string(out.join(format!("row-{number:04}.txt"))).unwrap();
    let [name, flat, phone, other_flat] = ROW_CANARIES;
    let resident = row(2);
    assert!(
        resident.starts_with(&format!(
            "Кому: ООО «Канарейка-Управдом»\nАдрес: пр. Канареечный, д. 913\n\n\
             От: {name}\nАдрес: ул. Канареечная, д. 77\nКвартира: {flat}\nТелефон: {phone}\n\
             Эл. почта: ________________\n"
        )),
        "{resident}"
    );
    assert!(resident.ends_with(&format!("Подпись: ________________ / {name}\n")));
    let only_flat = row(3);
    assert!(
        only_flat.contains(&format!("\nКвартира: {other_flat}\n")),
        "{only_flat}"
    );
    // A row that names anyone is not the profile owner's: none of the owner's own details.
    for (field, canary) in &PROFILE_CANARIES[..] {
        let owners = matches!(*field, "full_name" | "apartment" | "phone" | "email");
        for document in [&resident, &only_flat] {
            assert_eq!(!document.contains(canary), owners, "{field} in {document}");
        }
    }
    let owner = row(4);
    for (field, canary) in PROFILE_CANARIES {
        assert!(
            owner.contains(canary),
            "the owner's own request has their {field}"
        );
    }
    for canary in ROW_CANARIES {
        assert!(!owner.contains(canary), "another row's {canary}");
    }

    // The same in PDF, with the co-signers table, read back with poppler.
    let pdfs = home.path().join("pdf");
    let (output, _, stderr) = run(&mut batch_export(
        home.path(),
        &id,
        "pdf",
        &pdfs,
        &["--collective"],
    ));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let pdf = pdfs.join("row-0002.pdf");
    assert_eq!(pages(&pdf), 2);
    let text = words(&pdf_text(&pdf));
    for expected in [
        format!("От: {name}"),
        format!("Квартира: {flat}"),
        format!("Телефон: {phone}"),
        format!("/ {name}"),
    ] {
        assert!(text.contains(&expected), "{expected}: {text}");
    }
    let signatures = page_lines(&pdf, 2);
    assert_eq!(
        signatures[..3],
        [
            "Подписи жителей",
            "Заявку поддерживают жители дома:",
            "№ ФИО Квартира Подпись"
        ]
    );
    assert!(!text.contains("kanareika913"), "{text}");
    let mut names: Vec<String> = std::fs::read_dir(&pdfs)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["row-0002.pdf", "row-0003.pdf", "row-0004.pdf"]);
    let docs = home.path().join("docx");
    let (output, _, stderr) = run(&mut batch_export(home.path(), &id, "docx", &docs, &[]));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        std::fs::read(docs.join("row-0003.docx"))
            .unwrap()
            .starts_with(b"PK")
    );
}

/// A stored batch drafted offline from a file without header columns: rows 2 and 3 have
/// requests, row 4 is invalid.
fn offline_batch() -> (tempfile::TempDir, String) {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("batch.csv");
    std::fs::write(
        &file,
        "Описание\n\
         В подъезде неделю не горит свет на лестнице между этажами.\n\
         На крыше течёт кровля, вода попадает на пятый этаж.\n\
         коротко\n",
    )
    .unwrap();
    let (output, _, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home.path())
        .arg("batch")
        .arg(&file)
        .arg("--offline"));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let id = batch_id(home.path());
    (home, id)
}

#[test]
fn a_clash_in_the_folder_writes_nothing_until_force_replaces_it() {
    let (home, id) = offline_batch();
    let out = home.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let foreign = out.join("row-0003.pdf");
    std::fs::write(&foreign, "чужой файл").unwrap();
    let (output, _, stderr) = run(&mut batch_export(home.path(), &id, "pdf", &out, &[]));
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr
            .contains("уже есть другие файлы с теми же именами: row-0003.pdf. Ничего не записано")
            && stderr.contains("--force"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&foreign).unwrap(), "чужой файл");
    assert!(
        !out.join("row-0002.pdf").exists(),
        "nothing is written on a clash"
    );

    let (output, _, stderr) = run(&mut batch_export(
        home.path(),
        &id,
        "pdf",
        &out,
        &["--force"],
    ));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("Записано документов: 2 (заменено: 1)"),
        "{stderr}"
    );
    assert!(std::fs::read(&foreign).unwrap().starts_with(b"%PDF-"));
    assert!(stderr.contains("Строка 4 без документа"), "{stderr}");
    // The same export again finds the same files: no clash, nothing rewritten.
    let (output, _, stderr) = run(&mut batch_export(home.path(), &id, "pdf", &out, &[]));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("Записано документов: 2 (уже были такими же и не менялись: 2)"),
        "{stderr}"
    );
    // Another date is another document: a clash again.
    let (output, _, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home.path())
        .args([
            "batch",
            "export",
            &id,
            "--format",
            "pdf",
            "--date",
            "2026-12-02",
            "--out",
        ])
        .arg(&out));
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("row-0002.pdf, row-0003.pdf"), "{stderr}");

    // --json: what was written and why the others were not, typed.
    let (output, stdout, stderr) = run(&mut batch_export(
        home.path(),
        &id,
        "pdf",
        &out,
        &["--json"],
    ));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["written"][0]["row"], 2);
    assert_eq!(report["written"][0]["status"], "unchanged");
    assert_eq!(
        report["skipped"],
        json!([{"row": 4, "reason": {"kind": "invalid_input"}}])
    );

    // A folder under a document's name is never replaced, not even with --force.
    let docx_out = home.path().join("docx");
    std::fs::create_dir_all(docx_out.join("row-0002.docx")).unwrap();
    let (output, _, stderr) = run(&mut batch_export(
        home.path(),
        &id,
        "docx",
        &docx_out,
        &["--force"],
    ));
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("уже есть папки или ссылки: row-0002.docx. Ничего не записано"),
        "{stderr}"
    );
    assert!(!docx_out.join("row-0003.docx").exists());

    // jsonl and csv keep writing one file for the batch, and refuse the document flags.
    let (output, _, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home.path())
        .args([
            "batch",
            "export",
            &id,
            "--format",
            "csv",
            "--collective",
            "--out",
        ])
        .arg(&out));
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr.contains("--collective относится к документам"),
        "{stderr}"
    );
    let (output, _, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home.path())
        .args(["batch", "export", &id, "--format", "jsonl", "--out"])
        .arg(&out));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(out.join("batch-1.jsonl").is_file());
}

/// A folder nothing can be written to: mode 0555 refuses writes to an ordinary user; the
/// superuser ignores modes, so then the test uses `/sys`, which refuses new files to everyone
/// (as the store's tests do) and needs no file-system attribute a container may not support.
#[cfg(unix)]
fn unwritable_folder(base: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = base.join("только-чтение");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    if tempfile::tempfile_in(&dir).is_ok() {
        return PathBuf::from("/sys");
    }
    dir
}

#[cfg(unix)]
fn documents_in(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|entry| {
            entry
                .as_ref()
                .is_ok_and(|entry| entry.file_name().to_string_lossy().starts_with("row-"))
        })
        .count()
}

#[cfg(unix)]
#[test]
fn a_folder_that_takes_no_file_gets_a_clear_error_and_nothing_is_written() {
    let (home, id) = offline_batch();
    // Under the target folder rather than /tmp, which may be a file system without attributes.
    let base = tempfile::tempdir().unwrap();
    let locked = unwritable_folder(base.path());
    for (out, format) in [(locked.clone(), "pdf"), (locked.join("новая"), "txt")] {
        let (output, _, stderr) = run(&mut batch_export(home.path(), &id, format, &out, &[]));
        assert_eq!(output.status.code(), Some(2), "{}: {stderr}", out.display());
        assert!(
            stderr.contains("не удалось записать") && stderr.contains("Укажите другую папку"),
            "{stderr}"
        );
    }
    assert_eq!(documents_in(&locked), 0);
    assert!(!locked.join("новая").exists());
    // A file where the folder should be.
    let file = home.path().join("файл");
    std::fs::write(&file, "x").unwrap();
    let (output, _, stderr) = run(&mut batch_export(home.path(), &id, "docx", &file, &[]));
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("лежит файл"), "{stderr}");
    let _ = std::fs::set_permissions(base.path().join("только-чтение"), {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::Permissions::from_mode(0o755)
    });
}
