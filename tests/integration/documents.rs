//! The PDF read back with poppler (`pdftotext`, `pdfinfo`, `pdftoppm` from Debian's
//! poppler-utils): its text is the header and the request exactly as the text export has them,
//! the longest request breaks onto a second page, and the first page is rendered to a PNG kept
//! under the target folder to look at.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::support::{run, zayavka};

pub(crate) fn poppler(tool: &str) -> Command {
    let found = Command::new(tool).arg("-v").output().is_ok();
    assert!(
        found,
        "`{tool}` is not installed: install Debian's poppler-utils (`.ci/run` is where CI gets it)"
    );
    Command::new(tool)
}

/// A draft made offline in a fresh home with a full profile; returns the home and the draft id.
pub(crate) fn drafted(description: &str) -> (tempfile::TempDir, String) {
    let home = tempfile::tempdir().unwrap();
    for (field, value) in [
        ("full_name", "Иванова Мария Петровна"),
        ("address", "г. Тверь, ул. Лётная, д. 5"),
        ("apartment", "12"),
        ("phone", "+7 900 000-00-00"),
        ("email", "maria@example.ru"),
        ("company_name", "ООО «Управляющая компания „Дом“»"),
        ("company_address", "г. Тверь, ул. Советская, д. 1"),
    ] {
        let (output, _, stderr) = run(zayavka()
            .env("ZAYAVKA_HOME", home.path())
            .args(["profile", "set", field, value]));
        assert_eq!(output.status.code(), Some(0), "{stderr}");
    }
    let (output, stdout, stderr) = run(zayavka().env("ZAYAVKA_HOME", home.path()).args([
        "draft",
        "--offline",
        "--json",
        "--description",
        description,
        "--desired-actions",
        "заменить лампы и проверить «щиток» на этаже",
    ]));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let id = report["draft_id"].as_i64().unwrap().to_string();
    (home, id)
}

/// Exports draft `id` as `format`, dated 1 December 2026, with `extra` arguments (such as
/// `--collective`), into a file of the home named after the format and the arguments.
pub(crate) fn export_draft(home: &Path, id: &str, format: &str, extra: &[&str]) -> PathBuf {
    let path = home.join(format!("заявка{}.{format}", extra.concat()));
    let (output, _, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home)
        .args([
            "drafts",
            "export",
            id,
            "--format",
            format,
            "--date",
            "2026-12-01",
        ])
        .args(extra)
        .arg("--out")
        .arg(&path));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    path
}

fn export(home: &Path, id: &str, format: &str) -> PathBuf {
    export_draft(home, id, format, &[])
}

pub(crate) fn pdf_text(pdf: &Path) -> String {
    let output = poppler("pdftotext").arg(pdf).arg("-").output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

pub(crate) fn pages(pdf: &Path) -> usize {
    let output = poppler("pdfinfo").arg(pdf).output().unwrap();
    let info = String::from_utf8(output.stdout).unwrap();
    info.lines()
        .find_map(|line| line.strip_prefix("Pages:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// Text with every run of white space made one space: lines wrap differently on paper.
pub(crate) fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: reads the PDF back with poppler, a Linux program that a Windows process under Wine cannot start; tests/windows checks that Windows writes the same document bytes"
)]
fn the_pdf_text_is_the_header_and_the_request_and_its_first_page_is_kept_as_a_png() {
    let (home, id) = drafted(
        "В подъезде № 2 неделю не горит свет на лестнице между третьим и четвёртым этажами; \
         жильцы «спотыкаются» в темноте, а ёлку у входа уже убрали.",
    );
    let pdf = export(home.path(), &id, "pdf");
    let text = std::fs::read_to_string(export(home.path(), &id, "txt")).unwrap();
    assert_eq!(words(&pdf_text(&pdf)), words(&text));
    assert_eq!(pages(&pdf), 1, "a typical request is one page");
    let info = poppler("pdfinfo").arg(&pdf).output().unwrap();
    let info = String::from_utf8(info.stdout).unwrap();
    assert!(
        info.contains("Page size:       595.28 x 841.89 pts (A4)"),
        "{info}"
    );
    let fonts = poppler("pdffonts").arg(&pdf).output().unwrap();
    let fonts = String::from_utf8(fonts.stdout).unwrap();
    assert!(
        fonts.contains("+DejaVuSerif"),
        "a subset is embedded: {fonts}"
    );
    // The first page as an image, kept to look at.
    let pages_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("document-pages");
    std::fs::create_dir_all(&pages_dir).unwrap();
    let prefix = pages_dir.join("typical");
    let status = poppler("pdftoppm")
        .args(["-png", "-r", "72", "-f", "1", "-l", "1", "-singlefile"])
        .arg(&pdf)
        .arg(&prefix)
        .status()
        .unwrap();
    assert!(status.success());
    let png = prefix.with_extension("png");
    assert!(png.is_file());
    eprintln!("the first page: {}", png.display());
}

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: reads the PDF back with poppler, a Linux program that a Windows process under Wine cannot start; tests/windows checks that Windows writes the same document bytes"
)]
fn the_longest_request_breaks_onto_a_second_page_with_nothing_lost() {
    let sentence = "Свет на лестнице между третьим и четвёртым этажами не горит уже неделю, \
                    жильцы «спотыкаются» в темноте. ";
    let mut description = sentence.repeat(12);
    description.truncate(description.char_indices().nth(900).unwrap().0);
    let description = format!(
        "{} Оченьдлинноесловобезединогопробелакотороеникакнепомещаетсяводнустрокустраницы.",
        description.trim_end()
    );
    let (home, id) = drafted(&description);
    let pdf = export(home.path(), &id, "pdf");
    let text = std::fs::read_to_string(export(home.path(), &id, "txt")).unwrap();
    assert_eq!(pages(&pdf), 2);
    // A word wider than the line is broken between characters, so compare without white space.
    let squeeze = |text: &str| text.split_whitespace().collect::<String>();
    assert_eq!(squeeze(&pdf_text(&pdf)), squeeze(&text));
}
