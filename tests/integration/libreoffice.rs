//! The DOCX opened by LibreOffice Writer (Debian's `libreoffice-writer-nogui`, headless): its
//! text, read back as LibreOffice sees it, is the header and the request of the text export
//! paragraph for paragraph — real paragraphs, not a text box — and a collective request's
//! signatures table is a real table LibreOffice lays out on a page of its own.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::documents::{drafted, export_draft, pages, poppler};

/// Converts `docx` with headless LibreOffice to `format` (`txt:Text`, `pdf`) in `out`, with a
/// private user profile so that parallel tests and a running LibreOffice never share one.
pub(crate) fn libreoffice(docx: &Path, format: &str, out: &Path) -> PathBuf {
    let profile = tempfile::tempdir().unwrap();
    let found = Command::new("soffice").arg("--version").output().is_ok();
    assert!(
        found,
        "`soffice` is not installed: install Debian's libreoffice-writer-nogui (`.ci/run` is \
         where CI gets it)"
    );
    let output = Command::new("soffice")
        .arg(format!(
            "-env:UserInstallation=file://{}",
            profile.path().display()
        ))
        .args([
            "--headless",
            "--norestore",
            "--convert-to",
            format,
            "--outdir",
        ])
        .arg(out)
        .arg(docx)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let extension = format.split(':').next().unwrap();
    let converted = out.join(docx.with_extension(extension).file_name().unwrap());
    assert!(
        converted.is_file(),
        "LibreOffice wrote no {}",
        converted.display()
    );
    converted
}

fn export(home: &Path, id: &str, format: &str, collective: bool) -> PathBuf {
    let extra: &[&str] = if collective { &["--collective"] } else { &[] };
    export_draft(home, id, format, extra)
}

/// The non-empty lines of a text, each trimmed, without a byte-order mark.
pub(crate) fn lines(text: &str) -> Vec<String> {
    text.trim_start_matches('\u{feff}')
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect()
}

const DESCRIPTION: &str = "На лестнице между третьим и четвёртым этажами неделю не горит свет, \
                           «ёлочные» гирлянды ни при чём; жильцы квартир 12–16 спотыкаются о \
                           ступени в темноте.";

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: opens the DOCX with LibreOffice, a Linux program that a Windows process under Wine cannot start; tests/windows checks that Windows writes the same document bytes"
)]
fn libreoffice_reads_the_docx_as_the_text_export_paragraph_for_paragraph() {
    let (home, id) = drafted(DESCRIPTION);
    let scratch = tempfile::tempdir().unwrap();
    let docx = export(home.path(), &id, "docx", false);
    let text = std::fs::read_to_string(export(home.path(), &id, "txt", false)).unwrap();
    let read = std::fs::read_to_string(libreoffice(&docx, "txt:Text", scratch.path())).unwrap();
    assert_eq!(lines(&read), lines(&text));
    assert!(read.contains("«ёлочные»"), "{read}");
    assert!(read.contains("Иванова Мария Петровна"), "{read}");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: opens the DOCX with LibreOffice, a Linux program that a Windows process under Wine cannot start; tests/windows checks that Windows writes the same document bytes"
)]
fn libreoffice_lays_out_the_collective_table_on_a_page_of_its_own() {
    let (home, id) = drafted(DESCRIPTION);
    let scratch = tempfile::tempdir().unwrap();
    let docx = export(home.path(), &id, "docx", true);
    let read = std::fs::read_to_string(libreoffice(&docx, "txt:Text", scratch.path())).unwrap();
    let read = lines(&read);
    let plain = std::fs::read_to_string(export(home.path(), &id, "txt", false)).unwrap();
    let plain = lines(&plain);
    // The request first, as in the resident's own document, up to the date.
    let date = plain
        .iter()
        .position(|line| line == "1 декабря 2026 г.")
        .unwrap();
    assert_eq!(read[..date], plain[..date]);
    // Then the table: its heading, the sentence, the header row's cells and twenty numbered rows,
    // one cell a line as LibreOffice writes a table as text.
    let rest = &read[date..];
    assert_eq!(rest[0], "Подписи жителей");
    assert_eq!(rest[1], "Заявку поддерживают жители дома:");
    assert_eq!(rest[2..6], ["№", "ФИО", "Квартира", "Подпись"]);
    let numbers: Vec<&str> = rest[6..26].iter().map(String::as_str).collect();
    let expected: Vec<String> = (1..=20).map(|n| n.to_string()).collect();
    assert_eq!(numbers, expected);
    assert_eq!(rest[26..], plain[date..]);

    // Laid out by LibreOffice: the table starts a page of its own.
    let pdf = libreoffice(&docx, "pdf", scratch.path());
    assert!(pages(&pdf) >= 2, "{} pages", pages(&pdf));
    let first = poppler("pdftotext")
        .args(["-f", "1", "-l", "1"])
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    let first = String::from_utf8(first.stdout).unwrap();
    assert!(first.contains("Прошу:"), "{first}");
    assert!(!first.contains("Подписи жителей"), "{first}");
}
