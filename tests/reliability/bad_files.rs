//! Bad files everywhere a resident hands one in (issue 19): a batch file of 2 GB, photos of
//! 100 megapixels in about 20 KB (PNG and JPEG), XLSX zip bombs, a symbolic-link loop as every
//! kind of path, and files on a removable disk that vanished. Each must be refused early, with a
//! Russian message that names the file and says what to do, and with bounded memory.
//!
//! The peak memory of every refusal is measured with GNU time (`/usr/bin/time -v`, Debian's
//! `time` package, installed by `.ci/run`): its «Maximum resident set size» is the child's
//! `VmHWM`, read by the kernel as the process exits. Each test asserts an upper bound and prints
//! what it measured, for docs/testing.md.
//!
//! The removable disk is a real one as far as the kernel is concerned: a tmpfs mounted for the
//! test (the tests run as root here and in CI), holding the files, then detached with
//! `umount -l` and its mount point removed, as a desktop does when a USB stick is pulled out.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use zayavka_standin::{Script, StandIn};

use crate::canary::{CANARY_KEY, Leftovers};
use crate::support::{clear_zayavka_variables, tests_dir};

/// The most memory (resident, in KiB) any refusal may take: the binary itself with its
/// database and runtime takes about 15 MB, and a refusal must stay near that whatever the file
/// claims to hold.
const REFUSAL_PEAK_KIB: u64 = 100 * 1024;

/// One run of the binary under GNU time.
struct Measured {
    output: Output,
    stdout: String,
    stderr: String,
    /// The peak resident memory, in KiB.
    /// The peak resident memory from GNU time; Windows has no `/usr/bin/time` to ask.
    peak_kib: Option<u64>,
}

/// A data folder, a scratch folder for the files handed in, and everything printed.
struct Session {
    home: tempfile::TempDir,
    scratch: tempfile::TempDir,
    leftovers: Leftovers,
    base_url: Option<String>,
}

impl Session {
    fn new() -> Session {
        let home = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let mut leftovers = Leftovers::new();
        leftovers.path(home.path()).path(scratch.path());
        Session {
            home,
            scratch,
            leftovers,
            base_url: None,
        }
    }

    fn file(&self, name: &str) -> PathBuf {
        self.scratch.path().join(name)
    }

    /// Runs `zayavka args…` with the canary key, under `/usr/bin/time -v` where there is one
    /// (every Unix CI machine): the refusals hold everywhere, their memory is measured on Linux.
    fn run(&mut self, args: &[&str]) -> Measured {
        let report = self.scratch.path().join(".time-report");
        let timed = cfg!(unix);
        let mut command = if timed {
            let mut command = Command::new("/usr/bin/time");
            command
                .arg("-v")
                .arg("-o")
                .arg(&report)
                .arg(env!("CARGO_BIN_EXE_zayavka"));
            command
        } else {
            Command::new(env!("CARGO_BIN_EXE_zayavka"))
        };
        clear_zayavka_variables(&mut command);
        command
            .args(args)
            .env("ZAYAVKA_HOME", self.home.path())
            .env("ZAYAVKA_API_KEY", CANARY_KEY)
            .env("ZAYAVKA_LOG", "warn");
        if let Some(base_url) = &self.base_url {
            command
                .env("ZAYAVKA_BASE_URL", base_url)
                .env("ZAYAVKA_MODEL", "stand-in-model");
        }
        let output = command
            .output()
            .expect("GNU time runs (Debian package `time`, see .ci/run)");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let peak_kib = timed.then(|| {
            let time_report = std::fs::read_to_string(&report).unwrap();
            std::fs::remove_file(&report).unwrap();
            time_report
                .lines()
                .find_map(|line| {
                    line.trim()
                        .strip_prefix("Maximum resident set size (kbytes): ")
                })
                .and_then(|kib| kib.trim().parse().ok())
                .unwrap_or_else(|| panic!("no peak in GNU time's report: {time_report}"))
        });
        self.leftovers
            .output(&format!("stdout of {args:?}"), &stdout)
            .output(&format!("stderr of {args:?}"), &stderr);
        Measured {
            output,
            stdout,
            stderr,
            peak_kib,
        }
    }

    /// A draft made without a model, to attach photos to and export; its number.
    fn offline_draft(&mut self) -> String {
        let measured = self.run(&[
            "draft",
            "--offline",
            "--json",
            "--description",
            "В подъезде № 2 неделю не горит свет на лестнице между третьим и четвёртым этажами.",
        ]);
        assert_eq!(
            measured.output.status.code(),
            Some(0),
            "{}",
            measured.stderr
        );
        let report: Value = serde_json::from_str(&measured.stdout).unwrap();
        report["draft_id"].to_string()
    }

    fn attachments(&mut self, id: &str) -> Vec<Value> {
        let measured = self.run(&["drafts", "attachments", id, "--json"]);
        assert_eq!(
            measured.output.status.code(),
            Some(0),
            "{}",
            measured.stderr
        );
        serde_json::from_str::<Value>(&measured.stdout)
            .unwrap()
            .as_array()
            .unwrap()
            .clone()
    }

    /// How many batches the store holds.
    fn batches(&mut self) -> usize {
        let measured = self.run(&["batch", "list", "--json"]);
        assert_eq!(
            measured.output.status.code(),
            Some(0),
            "{}",
            measured.stderr
        );
        serde_json::from_str::<Value>(&measured.stdout)
            .unwrap()
            .as_array()
            .map_or(0, Vec::len)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // The sweep runs on every way out, so a failing assertion above still checks for the
        // canary; a panic here during another panic would abort, so it only runs on success.
        if !std::thread::panicking() {
            self.leftovers.assert_clean();
        }
    }
}

/// Asserts a refusal: exit code 2, the Russian message on standard error naming `file` and
/// containing every one of `words`, and a peak memory under [`REFUSAL_PEAK_KIB`]. Returns the
/// message.
fn assert_refused(measured: &Measured, file: &Path, words: &[&str], what: &str) -> String {
    let message = measured.stderr.trim();
    assert_eq!(
        measured.output.status.code(),
        Some(2),
        "{what}: {message}\n{}",
        measured.stdout
    );
    assert!(message.starts_with("zayavka: "), "{what}: {message}");
    let name = file.file_name().unwrap().to_string_lossy();
    assert!(
        message.contains(&*name),
        "{what}: «{name}» not in {message}"
    );
    for word in words {
        assert!(message.contains(word), "{what}: «{word}» not in {message}");
    }
    assert!(
        !message.contains("panicked") && !message.contains("error:"),
        "{what}: {message}"
    );
    if let Some(peak_kib) = measured.peak_kib {
        assert!(
            peak_kib <= REFUSAL_PEAK_KIB,
            "{what}: the refusal took {peak_kib} KiB"
        );
        eprintln!("{what}: refused with a peak of {peak_kib} KiB: {message}");
    }
    message.to_owned()
}

fn sparse_file(path: &Path, len: u64, head: &[u8]) {
    let mut file = std::fs::File::create(path).unwrap();
    file.write_all(head).unwrap();
    file.set_len(len).unwrap();
}

#[test]
fn a_batch_file_of_two_gigabytes_is_refused_by_its_size_before_a_byte_is_read() {
    let stand_in = StandIn::start(Script::new());
    let mut session = Session::new();
    session.base_url = Some(stand_in.base_url());
    const TWO_GB: u64 = 2 * 1024 * 1024 * 1024;
    let csv = session.file("весь дом.csv");
    sparse_file(&csv, TWO_GB, "Описание\n".as_bytes());
    let xlsx = session.file("весь дом.xlsx");
    sparse_file(&xlsx, TWO_GB, b"PK\x03\x04");
    for file in [&csv, &xlsx] {
        let path = file.to_str().unwrap();
        for args in [
            &["batch", "run", "-y", "--offline", path][..],
            &["batch", "run", "-y", path],
            &["batch", path, "--json", "-y"],
        ] {
            let measured = session.run(args);
            assert_refused(
                &measured,
                file,
                &[
                    "не удалось прочитать файл с пакетом заявок",
                    "его размер — 2,0 ГБ, а можно не больше 256 МБ (268\u{a0}435\u{a0}456 байт). \
                     Проверьте, тот ли это файл.",
                ],
                &format!("a 2 GB batch file, {args:?}"),
            );
        }
    }
    assert_eq!(stand_in.request_count(), 0, "nothing was sent");
    assert_eq!(session.batches(), 0, "no batch was started");
    // The test's own 2 GB of zeros are not for the canary sweep to read.
    std::fs::remove_file(&csv).unwrap();
    std::fs::remove_file(&xlsx).unwrap();
}

/// The CRC-32 of a PNG chunk or a ZIP entry.
fn crc32(parts: &[&[u8]]) -> u32 {
    let mut crc = flate2::Crc::new();
    for part in parts {
        crc.update(part);
    }
    crc.sum()
}

fn png_chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    png.extend_from_slice(&(data.len() as u32).to_be_bytes());
    png.extend_from_slice(kind);
    png.extend_from_slice(data);
    png.extend_from_slice(&crc32(&[kind, data]).to_be_bytes());
}

/// A real PNG of `side × side` black pixels, one bit each, whose pixel data is deflated: a
/// decompression bomb whose every byte is valid, padded with a text chunk to `padded_to` bytes.
fn png_bomb(side: u32, padded_to: usize) -> Vec<u8> {
    let row = 1 + side.div_ceil(8) as usize;
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    let zeros = vec![0u8; row * 64];
    for _ in 0..side.div_ceil(64) {
        encoder.write_all(&zeros).unwrap();
    }
    let pixels = encoder.finish().unwrap();
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut header = Vec::new();
    header.extend_from_slice(&side.to_be_bytes());
    header.extend_from_slice(&side.to_be_bytes());
    header.extend_from_slice(&[1, 0, 0, 0, 0]);
    png_chunk(&mut png, b"IHDR", &header);
    let padding = padded_to.saturating_sub(png.len() + pixels.len() + 3 * 12 + 8);
    let mut text = b"Comment\0".to_vec();
    text.resize(8 + padding, b' ');
    png_chunk(&mut png, b"tEXt", &text);
    png_chunk(&mut png, b"IDAT", &pixels);
    png_chunk(&mut png, b"IEND", &[]);
    png
}

/// A real JPEG (a fixture of the photo tests) whose frame header claims `side × side`, padded
/// with a comment segment to about `padded_to` bytes.
fn jpeg_bomb(side: u16, padded_to: usize) -> Vec<u8> {
    let mut jpeg = std::fs::read(tests_dir().join("fixtures/photos/gps.jpg")).unwrap();
    // The main frame's header, found by walking the segments: the EXIF segment before it holds
    // a thumbnail with a frame header of its own.
    let mut sof = 2;
    while jpeg[sof + 1] != 0xC0 {
        sof += 2 + usize::from(u16::from_be_bytes([jpeg[sof + 2], jpeg[sof + 3]]));
    }
    jpeg[sof + 5..sof + 7].copy_from_slice(&side.to_be_bytes());
    jpeg[sof + 7..sof + 9].copy_from_slice(&side.to_be_bytes());
    let comment_len = padded_to.saturating_sub(jpeg.len()).clamp(2, 65_000) as u16;
    let mut comment = vec![0xFF, 0xFE];
    comment.extend_from_slice(&comment_len.to_be_bytes());
    comment.resize(2 + usize::from(comment_len), b' ');
    jpeg.splice(2..2, comment);
    jpeg
}

#[test]
fn a_hundred_megapixel_photo_in_twenty_kilobytes_is_refused_from_its_header() {
    let mut session = Session::new();
    let id = session.offline_draft();
    let png = session.file("подвал.png");
    std::fs::write(&png, png_bomb(10_000, 20 * 1024)).unwrap();
    let jpeg = session.file("крыша.jpg");
    std::fs::write(&jpeg, jpeg_bomb(10_000, 20 * 1024)).unwrap();
    for file in [&png, &jpeg] {
        let size = std::fs::metadata(file).unwrap().len();
        assert!((16 * 1024..=24 * 1024).contains(&size), "{size}");
        let measured = session.run(&["drafts", "attach", &id, file.to_str().unwrap()]);
        assert_refused(
            &measured,
            file,
            &[
                "слишком большой: 10 000 × 10 000 точек, а Заявка принимает снимки не больше \
                 20 000 точек по стороне и 50 миллионов точек всего. Ничего не добавлено.",
                "Уменьшите снимок",
            ],
            &format!("a 100-megapixel photo in {size} bytes"),
        );
    }
    assert!(session.attachments(&id).is_empty());
}

#[test]
fn a_photo_just_under_the_pixel_limit_is_decoded_in_bounded_memory() {
    // 7000 × 7000 is 49 million pixels, under the limit of 50: the photo is taken, and proving
    // it whole means decoding every pixel, which must still stay within a bound.
    let mut session = Session::new();
    let id = session.offline_draft();
    let png = session.file("чертёж.png");
    std::fs::write(&png, png_bomb(7_000, 0)).unwrap();
    let measured = session.run(&["drafts", "attach", &id, png.to_str().unwrap()]);
    assert_eq!(
        measured.output.status.code(),
        Some(0),
        "{}",
        measured.stderr
    );
    if let Some(peak_kib) = measured.peak_kib {
        eprintln!(
            "a 49-megapixel PNG of {} bytes attached with a peak of {peak_kib} KiB",
            std::fs::metadata(&png).unwrap().len(),
        );
        assert!(peak_kib <= 256 * 1024, "{peak_kib} KiB");
    }
    assert_eq!(session.attachments(&id).len(), 1);
}

/// One entry of a hand-made ZIP archive.
struct Entry {
    name: &'static str,
    /// 0 for stored, 8 for deflated.
    method: u16,
    data: Vec<u8>,
    crc: u32,
    /// The uncompressed size the archive declares, which a bomb may lie about.
    declared_size: u32,
}

impl Entry {
    fn stored(name: &'static str, text: &str) -> Entry {
        Entry {
            name,
            method: 0,
            crc: crc32(&[text.as_bytes()]),
            declared_size: text.len() as u32,
            data: text.as_bytes().to_vec(),
        }
    }
}

/// A ZIP archive written byte by byte, so that an entry's declared size can differ from what
/// it inflates to.
fn zip_archive(entries: &[Entry]) -> Vec<u8> {
    let mut archive = Vec::new();
    let mut directory = Vec::new();
    for entry in entries {
        let offset = archive.len() as u32;
        let fields = |record: &mut Vec<u8>| {
            record.extend_from_slice(&20u16.to_le_bytes()); // version needed
            record.extend_from_slice(&0u16.to_le_bytes()); // flags
            record.extend_from_slice(&entry.method.to_le_bytes());
            record.extend_from_slice(&0u16.to_le_bytes()); // time
            record.extend_from_slice(&0x21u16.to_le_bytes()); // date: 1980-01-01
            record.extend_from_slice(&entry.crc.to_le_bytes());
            record.extend_from_slice(&(entry.data.len() as u32).to_le_bytes());
            record.extend_from_slice(&entry.declared_size.to_le_bytes());
            record.extend_from_slice(&(entry.name.len() as u16).to_le_bytes());
            record.extend_from_slice(&0u16.to_le_bytes()); // extra field length
        };
        archive.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        fields(&mut archive);
        archive.extend_from_slice(entry.name.as_bytes());
        archive.extend_from_slice(&entry.data);
        directory.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        directory.extend_from_slice(&20u16.to_le_bytes()); // version made by
        fields(&mut directory);
        directory.extend_from_slice(&[0; 6]); // comment length, disk, internal attributes
        directory.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        directory.extend_from_slice(&offset.to_le_bytes());
        directory.extend_from_slice(entry.name.as_bytes());
    }
    let directory_offset = archive.len() as u32;
    archive.extend_from_slice(&directory);
    archive.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    archive.extend_from_slice(&[0; 4]);
    let count = (entries.len() as u16).to_le_bytes();
    archive.extend_from_slice(&count);
    archive.extend_from_slice(&count);
    archive.extend_from_slice(&(directory.len() as u32).to_le_bytes());
    archive.extend_from_slice(&directory_offset.to_le_bytes());
    archive.extend_from_slice(&0u16.to_le_bytes());
    archive
}

/// A raw deflate stream of `text`, ending on a byte boundary and not final, with no reference
/// outside itself: such pieces can be laid one after another.
fn deflate_piece(text: &[u8]) -> Vec<u8> {
    let mut compress = flate2::Compress::new(flate2::Compression::best(), false);
    let mut piece = Vec::with_capacity(text.len() / 4 + 1024);
    compress
        .compress_vec(text, &mut piece, flate2::FlushCompress::Sync)
        .unwrap();
    assert_eq!(compress.total_in() as usize, text.len());
    piece
}

const SHEET_HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Описание</t></is></c></row>"#;
const SHEET_TAIL: &str = "</sheetData></worksheet>";

/// A workbook whose one sheet is the header row, then `repeats` times `rows`, deflated piece by
/// piece; its directory declares `declared_size` for the sheet, or the truth when `None`.
fn xlsx_bomb(rows: &str, repeats: usize, declared_size: Option<u32>) -> Vec<u8> {
    let piece = deflate_piece(rows.as_bytes());
    let mut sheet = deflate_piece(SHEET_HEAD.as_bytes());
    for _ in 0..repeats {
        sheet.extend_from_slice(&piece);
    }
    sheet.extend_from_slice(&deflate_piece(SHEET_TAIL.as_bytes()));
    // The final block: fixed Huffman codes, nothing but its end.
    sheet.extend_from_slice(&[0x03, 0x00]);
    let true_size = (SHEET_HEAD.len() + rows.len() * repeats + SHEET_TAIL.len()) as u64;
    let sheet = Entry {
        name: "xl/worksheets/sheet1.xml",
        method: 8,
        data: sheet,
        // Left wrong on purpose: computing it would mean inflating the bomb in the test.
        crc: 0,
        declared_size: declared_size.unwrap_or(u32::try_from(true_size).unwrap_or(u32::MAX)),
    };
    zip_archive(&[
        Entry::stored(
            "[Content_Types].xml",
            r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#,
        ),
        Entry::stored(
            "_rels/.rels",
            r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#,
        ),
        Entry::stored(
            "xl/workbook.xml",
            r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Лист1" sheetId="1" r:id="rId1"/></sheets></workbook>"#,
        ),
        Entry::stored(
            "xl/_rels/workbook.xml.rels",
            r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#,
        ),
        sheet,
    ])
}

/// About a megabyte of rows with one short cell each, no row numbers: a reader counts them.
fn megabyte_of_rows() -> String {
    "<row><c t=\"inlineStr\"><is><t>x</t></is></c></row>".repeat(20_000)
}

#[test]
fn an_xlsx_zip_bomb_is_refused_before_it_is_unpacked_whatever_its_directory_says() {
    let mut session = Session::new();
    let rows = megabyte_of_rows();
    // 300 MB of sheet in a few hundred kilobytes; once with its true size in the archive's
    // directory, once with a directory that claims 20 KB.
    for (name, declared) in [
        ("честная бомба.xlsx", None),
        ("лживая бомба.xlsx", Some(20_000)),
    ] {
        let bytes = xlsx_bomb(&rows, 300, declared);
        let file = session.file(name);
        std::fs::write(&file, &bytes).unwrap();
        let measured = session.run(&["batch", "run", "-y", "--offline", file.to_str().unwrap()]);
        assert_refused(
            &measured,
            &file,
            &[
                "в распакованном виде книга Excel заняла бы больше 128 МБ",
                "сохраните заявки заново как «Книга Excel (.xlsx)» или как CSV",
            ],
            &format!("an XLSX bomb of {} bytes ({name})", bytes.len()),
        );
    }
    assert_eq!(session.batches(), 0);
}

#[test]
fn an_xlsx_with_millions_of_cells_is_refused_at_the_cell_limit() {
    // 2 million one-cell rows: 100 MB of sheet, under the unpacked limit, over the cell limit.
    let mut session = Session::new();
    let bytes = xlsx_bomb(&megabyte_of_rows(), 100, None);
    let file = session.file("миллион ячеек.xlsx");
    std::fs::write(&file, &bytes).unwrap();
    let measured = session.run(&["batch", "run", "-y", "--offline", file.to_str().unwrap()]);
    assert_refused(
        &measured,
        &file,
        &[
            "на первом листе больше 800\u{a0}008 заполненных ячеек",
            "Оставьте на первом листе только таблицу заявок или разделите её на несколько файлов",
        ],
        &format!("an XLSX of {} bytes with 2 million cells", bytes.len()),
    );
    assert_eq!(session.batches(), 0);
}

#[test]
fn an_xlsx_with_two_cells_at_opposite_corners_is_read_without_a_dense_table() {
    // A1 and XFD1048576: a dense table of the sheet would be 17 billion cells.
    let mut session = Session::new();
    let rows = concat!(
        "<row r=\"2\"><c r=\"A2\" t=\"inlineStr\"><is><t>В подъезде неделю не горит свет.</t></is></c></row>",
        "<row r=\"1048576\"><c r=\"XFD1048576\" t=\"inlineStr\"><is><t>x</t></is></c></row>",
    );
    let bytes = xlsx_bomb(rows, 1, None);
    let file = session.file("углы.xlsx");
    std::fs::write(&file, &bytes).unwrap();
    let measured = session.run(&["batch", "run", "-y", "--offline", file.to_str().unwrap()]);
    assert_refused(
        &measured,
        &file,
        &[
            "в строке 1048576 заполнена ячейка XFD1048576, но у столбца XFD нет названия в \
             заголовке. Впишите название столбца или очистите ячейку.",
        ],
        &format!(
            "an XLSX of {} bytes with cells A1 and XFD1048576",
            bytes.len()
        ),
    );
}

#[cfg(unix)]
/// Two symbolic links that point at each other.
fn symlink_loop(dir: &Path, name: &str) -> PathBuf {
    let first = dir.join(name);
    let second = dir.join(format!("{name}.обратно"));
    std::os::unix::fs::symlink(&second, &first).unwrap();
    std::os::unix::fs::symlink(&first, &second).unwrap();
    first
}

// Windows gives the right to make symbolic links only to administrators and to developer mode,
// so a resident's files hold no such loop there.
#[cfg(unix)]
#[test]
fn a_symbolic_link_loop_is_refused_wherever_a_path_is_given() {
    let mut session = Session::new();
    let id = session.offline_draft();
    let batch = session.file("пакет.csv");
    std::fs::write(
        &batch,
        "Описание\nВ подъезде неделю не горит свет на лестнице.\n",
    )
    .unwrap();
    let measured = session.run(&["batch", "run", "-y", "--offline", batch.to_str().unwrap()]);
    assert_eq!(
        measured.output.status.code(),
        Some(0),
        "{}",
        measured.stderr
    );
    let scratch = session.scratch.path().to_path_buf();
    let looped = |name: &str| symlink_loop(&scratch, name);
    let read_advice = [
        "путь ведёт по кругу через символические ссылки",
        "Укажите путь к самому файлу, а не к ссылке",
    ];
    let input = looped("заявка.json");
    let batch_loop = looped("пакет-петля.csv");
    let photo = looped("фото.jpg");
    let cases: Vec<(Vec<String>, &PathBuf, &[&str])> = vec![
        (
            vec!["draft".into(), "--offline".into(), "--input".into()],
            &input,
            &read_advice,
        ),
        (
            vec![
                "batch".into(),
                "run".into(),
                "-y".into(),
                "--offline".into(),
            ],
            &batch_loop,
            &read_advice,
        ),
        (
            vec!["drafts".into(), "attach".into(), id.clone()],
            &photo,
            &read_advice,
        ),
    ];
    for (args, path, words) in &cases {
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.push(path.to_str().unwrap());
        let measured = session.run(&args);
        assert_refused(
            &measured,
            path,
            words,
            &format!("a symbolic-link loop, {args:?}"),
        );
    }
    // The paths the binary writes to: a backup target and export folders. These are refused,
    // name the path and write nothing; their wording is the store's and the exporters'.
    let backup = looped("копия.sqlite3");
    let export_folder = looped("выгрузка");
    let document = export_folder.join("заявка.pdf");
    for args in [
        vec!["drafts", "backup", backup.to_str().unwrap()],
        vec![
            "drafts",
            "export",
            &id,
            "--format",
            "pdf",
            "--out",
            document.to_str().unwrap(),
        ],
        vec![
            "batch",
            "export",
            "1",
            "--format",
            "txt",
            "--out",
            export_folder.to_str().unwrap(),
        ],
    ] {
        let measured = session.run(&args);
        let target = Path::new(args.last().unwrap());
        let message = assert_refused(
            &measured,
            target,
            &[],
            &format!("a symbolic-link loop, {args:?}"),
        );
        assert!(
            message.chars().any(|c| ('а'..='я').contains(&c)),
            "{message}"
        );
    }
    assert!(session.attachments(&id).is_empty());
}

/// A tmpfs mounted on a folder of its own for one test; dropping it detaches it if the test did
/// not, so no mount outlives the test, failed or not.
struct RemovableDisk {
    parent: tempfile::TempDir,
    mount_point: PathBuf,
    mounted: bool,
}

impl RemovableDisk {
    fn plug_in() -> RemovableDisk {
        let parent = tempfile::tempdir().unwrap();
        let mount_point = parent.path().join("ФЛЕШКА");
        std::fs::create_dir(&mount_point).unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=16m", "zayavka-test-usb"])
            .arg(&mount_point)
            .status()
            .expect("mount runs");
        assert!(
            status.success(),
            "mounting a tmpfs needs root, as the tests have here and in CI"
        );
        RemovableDisk {
            parent,
            mount_point,
            mounted: true,
        }
    }

    /// Pulls the disk out: a lazy unmount (files still open stay readable, new opens fail),
    /// then the mount point goes, as a desktop removes it.
    fn pull_out(&mut self) {
        let status = Command::new("umount")
            .arg("-l")
            .arg(&self.mount_point)
            .status()
            .unwrap();
        assert!(status.success());
        self.mounted = false;
        std::fs::remove_dir(&self.mount_point).unwrap();
    }
}

impl Drop for RemovableDisk {
    fn drop(&mut self) {
        if self.mounted {
            let _ = Command::new("umount")
                .arg("-l")
                .arg(&self.mount_point)
                .status();
        }
        let _ = &self.parent;
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: the «removable disk» is a tmpfs, which needs Linux's mount"
)]
fn files_on_a_removable_disk_that_was_pulled_out_are_refused_plainly() {
    let mut session = Session::new();
    let id = session.offline_draft();
    let mut disk = RemovableDisk::plug_in();
    let batch = disk.mount_point.join("заявки дома.csv");
    std::fs::write(
        &batch,
        "Описание\nВ подъезде неделю не горит свет на лестнице.\n",
    )
    .unwrap();
    let photo = disk.mount_point.join("лестница.jpg");
    std::fs::copy(tests_dir().join("fixtures/photos/gps.jpg"), &photo).unwrap();
    let input = disk.mount_point.join("заявка.json");
    std::fs::write(
        &input,
        r#"{"description": "В подъезде неделю не горит свет на лестнице."}"#,
    )
    .unwrap();
    // While the disk is in, the files are taken.
    let measured = session.run(&["batch", "run", "-y", "--offline", batch.to_str().unwrap()]);
    assert_eq!(
        measured.output.status.code(),
        Some(0),
        "{}",
        measured.stderr
    );
    disk.pull_out();
    let missing = [
        "такого файла нет. Проверьте путь и имя файла; если файл на флешке, съёмном или \
         сетевом диске, проверьте, что диск подключён.",
    ];
    for args in [
        vec!["batch", "run", "-y", "--offline", batch.to_str().unwrap()],
        vec!["drafts", "attach", &id, photo.to_str().unwrap()],
        vec!["draft", "--offline", "--input", input.to_str().unwrap()],
    ] {
        let measured = session.run(&args);
        let file = Path::new(args.last().unwrap());
        assert_refused(
            &measured,
            file,
            &missing,
            &format!("a pulled-out disk, {args:?}"),
        );
    }
    assert!(session.attachments(&id).is_empty());
    assert_eq!(
        session.batches(),
        1,
        "the batch run before is kept, nothing added"
    );

    // Exports aimed at the pulled-out disk are refused, and its path is not made again on the
    // system disk (it was, with `create_dir_all`, and the export said it had succeeded).
    let export_folder = disk.mount_point.join("выгрузка");
    let table_folder = disk.mount_point.join("таблица");
    let document = disk.mount_point.join("заявка.pdf");
    for args in [
        vec![
            "batch",
            "export",
            "1",
            "--format",
            "csv",
            "--out",
            table_folder.to_str().unwrap(),
        ],
        vec![
            "batch",
            "export",
            "1",
            "--format",
            "txt",
            "--out",
            export_folder.to_str().unwrap(),
        ],
        vec![
            "drafts",
            "export",
            &id,
            "--format",
            "pdf",
            "--out",
            document.to_str().unwrap(),
        ],
    ] {
        let measured = session.run(&args);
        let target = Path::new(args.last().unwrap());
        let message = assert_refused(
            &measured,
            target,
            &["проверьте, что он подключён"],
            &format!("an export to a pulled-out disk, {args:?}"),
        );
        assert!(!message.contains("(os error"), "{message}");
        assert!(
            !disk.mount_point.exists(),
            "the pulled-out disk's folder was made again on the system disk by {args:?}"
        );
    }
}
