//! Photos as evidence (issue 9, item 6; ADR 18), through the real binary: a photo with GPS,
//! camera and other metadata keeps none of it in the stored copy (read back from the database)
//! or in the exported ones (the images `pdfimages -all` pulls out of the PDF), each checked with
//! `exiftool` (Debian's libimage-exiftool-perl) and by a Rust check; the PDF has one page more per
//! photo; a sideways (orientation 6) photo ends up upright; bad files are refused with nothing
//! changed; removing a photo or its draft leaves no byte of it.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use zayavka_engine::metadata_left;
use zayavka_store::{DraftId, Store};

use crate::support::{run, tests_dir, zayavka};

/// Strings the fixtures carry in their metadata (made with exiftool, see
/// `tests/fixtures/photos/README.md`); none may be left in any copy.
const MARKERS: &[&str] = &[
    "ZAYAVKAGPSMETHOD",
    "ZAYAVKAMAKE",
    "ZAYAVKAMODEL",
    "ZAYAVKASERIAL",
    "ZAYAVKAXMPCREATOR",
    "ZAYAVKAIPTCBYLINE",
    "ZAYAVKACOMMENT",
];

fn fixture(name: &str) -> PathBuf {
    tests_dir().join("fixtures/photos").join(name)
}

fn tool(name: &str, package: &str) -> Command {
    let found = Command::new(name).arg("-ver").output().is_ok()
        || Command::new(name).arg("-v").output().is_ok();
    assert!(
        found,
        "`{name}` is not installed: install Debian's {package} (`.ci/run` is where CI gets it)"
    );
    Command::new(name)
}

/// Every tag exiftool reads from a file, as `group:tag` names, the file system's own aside.
fn exif_tags(path: &Path) -> Vec<String> {
    let output = tool("exiftool", "libimage-exiftool-perl")
        .args(["-j", "-a", "-G1", "-s"])
        .arg(path)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let parsed: Value = serde_json::from_slice(&output.stdout).unwrap();
    parsed[0]
        .as_object()
        .unwrap()
        .keys()
        .filter(|key| {
            !["SourceFile", "ExifTool:", "System:", "File:", "Composite:"]
                .iter()
                .any(|skip| key.starts_with(skip))
        })
        .cloned()
        .collect()
}

/// Fails if `bytes` (written to `path` for exiftool) keep any metadata: by exiftool's reading
/// (only the tags that describe how the pixels are coded may remain), by the engine's
/// structural check and by the fixtures' marker strings.
fn assert_clean(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap();
    let tags = exif_tags(path);
    let metadata: Vec<&String> = tags
        .iter()
        .filter(|tag| {
            !(tag.starts_with("JFIF:")
                || tag.starts_with("PNG:Image")
                || tag.starts_with("PNG:BitDepth")
                || tag.starts_with("PNG:ColorType")
                || tag.starts_with("PNG:Compression")
                || tag.starts_with("PNG:Filter")
                || tag.starts_with("PNG:Interlace")
                || tag.starts_with("PNG:Palette")
                || tag.starts_with("PNG:Gamma")
                || tag.starts_with("PNG:White")
                || tag.starts_with("PNG:Red")
                || tag.starts_with("PNG:Green")
                || tag.starts_with("PNG:Blue")
                || tag.starts_with("PNG:Background")
                || tag.starts_with("PNG:SRGB")
                // Pixel density, which poppler writes into the PNGs it extracts.
                || tag.starts_with("PNG-pHYs:"))
        })
        .collect();
    assert!(
        metadata.is_empty(),
        "{}: metadata left {metadata:?}",
        path.display()
    );
    for tag in &tags {
        for group in [
            "GPS",
            "IFD0",
            "IFD1",
            "ExifIFD",
            "XMP",
            "IPTC",
            "Photoshop",
            "ICC",
        ] {
            assert!(!tag.starts_with(group), "{}: {tag}", path.display());
        }
    }
    assert_eq!(
        metadata_left(bytes),
        Vec::<String>::new(),
        "{}",
        path.display()
    );
    assert!(!bytes.windows(6).any(|w| w == b"Exif\0\0"));
    for marker in MARKERS {
        assert!(
            !bytes.windows(marker.len()).any(|w| w == marker.as_bytes()),
            "{}: {marker}",
            path.display()
        );
    }
}

/// A fresh home with one offline draft; returns the home and the draft's id.
fn drafted() -> (tempfile::TempDir, String) {
    let home = tempfile::tempdir().unwrap();
    let (output, stdout, stderr) = run(zayavka().env("ZAYAVKA_HOME", home.path()).args([
        "draft",
        "--offline",
        "--json",
        "--description",
        "В подъезде № 2 неделю не горит свет на лестнице между третьим и четвёртым этажами.",
    ]));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    (home, report["draft_id"].as_i64().unwrap().to_string())
}

fn drafts(home: &Path, args: &[&str]) -> (std::process::Output, String, String) {
    run(zayavka().env("ZAYAVKA_HOME", home).arg("drafts").args(args))
}

fn attach(home: &Path, id: &str, files: &[PathBuf]) -> (std::process::Output, String, String) {
    run(zayavka()
        .env("ZAYAVKA_HOME", home)
        .args(["drafts", "attach", id])
        .args(files))
}

fn listed(home: &Path, id: &str) -> Vec<Value> {
    let (output, stdout, stderr) = drafts(home, &["attachments", id, "--json"]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    serde_json::from_str::<Value>(&stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn export(home: &Path, id: &str, format: &str) -> PathBuf {
    crate::documents::export_draft(home, id, format, &[])
}

fn pages(pdf: &Path) -> usize {
    let output = tool("pdfinfo", "poppler-utils").arg(pdf).output().unwrap();
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .find_map(|line| line.strip_prefix("Pages:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// The images of a PDF as `pdfimages -all` writes them, in page order.
fn pdf_images(pdf: &Path, folder: &Path) -> Vec<PathBuf> {
    let prefix = folder.join("image");
    let output = tool("pdfimages", "poppler-utils")
        .arg("-all")
        .arg(pdf)
        .arg(&prefix)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let mut images: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("image")
        })
        .collect();
    images.sort();
    images
}

/// `pdfimages -list`: page, width and height of every image.
fn pdf_image_list(pdf: &Path) -> Vec<(u32, u32, u32)> {
    let output = tool("pdfimages", "poppler-utils")
        .arg("-list")
        .arg(pdf)
        .output()
        .unwrap();
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .skip(2)
        .map(|line| {
            let columns: Vec<&str> = line.split_whitespace().collect();
            (
                columns[0].parse().unwrap(),
                columns[3].parse().unwrap(),
                columns[4].parse().unwrap(),
            )
        })
        .collect()
}

fn store(home: &Path) -> Store {
    Store::open(&home.join("data").join("zayavka.sqlite3")).unwrap()
}

/// The files of the data folder holding `marker` (the database, its log).
fn data_files_with(home: &Path, marker: &str) -> Vec<PathBuf> {
    std::fs::read_dir(home.join("data"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .filter(|path| {
            let bytes = std::fs::read(path).unwrap();
            bytes.windows(marker.len()).any(|w| w == marker.as_bytes())
        })
        .collect()
}

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: reads the photos back with exiftool and poppler, Linux programs that a Windows process under Wine cannot start; the engine's own metadata check runs in the other photo tests"
)]
fn issue_9_a_photo_with_gps_keeps_no_metadata_in_any_stored_or_exported_copy() {
    // The fixtures do carry what must go.
    let tags = exif_tags(&fixture("gps.jpg"));
    for expected in [
        "GPS:GPSLatitude",
        "IFD0:Make",
        "ExifIFD:SerialNumber",
        "IFD1:ThumbnailImage",
    ] {
        assert!(tags.iter().any(|t| t == expected), "{expected} in {tags:?}");
    }
    assert!(
        exif_tags(&fixture("gps.png"))
            .iter()
            .any(|t| t.starts_with("GPS:"))
    );

    let (home, id) = drafted();
    let before = pages(&export(home.path(), &id, "pdf"));
    let (output, stdout, stderr) =
        attach(home.path(), &id, &[fixture("gps.jpg"), fixture("gps.png")]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("1. Фото 1 (JPEG, "), "{stdout}");
    assert!(stdout.contains("2. Фото 2 (PNG, "), "{stdout}");
    assert!(
        !stdout.contains("gps"),
        "the file name is not shown back: {stdout}"
    );

    // The stored copies, read back from the database.
    let scratch = tempfile::tempdir().unwrap();
    let stored = store(home.path())
        .attachments_with_bytes(id.parse::<DraftId>().unwrap())
        .unwrap();
    assert_eq!(stored.len(), 2);
    assert_eq!(stored[0].0.media_type, "image/jpeg");
    assert_eq!((stored[0].0.width, stored[0].0.height), (64, 48));
    for (index, (attachment, bytes)) in stored.iter().enumerate() {
        let extension = if attachment.media_type == "image/png" {
            "png"
        } else {
            "jpg"
        };
        assert_clean(
            &scratch.path().join(format!("stored-{index}.{extension}")),
            bytes,
        );
    }
    // No file of the data folder holds the metadata either, nor the file's name.
    for marker in MARKERS.iter().chain(&["gps.jpg"]) {
        assert_eq!(
            data_files_with(home.path(), marker),
            Vec::<PathBuf>::new(),
            "{marker}"
        );
    }

    // The PDF: one page more per photo, and the images in it are the clean copies.
    let pdf = export(home.path(), &id, "pdf");
    assert_eq!(pages(&pdf), before + 2);
    let images_dir = scratch.path().join("pdf");
    std::fs::create_dir(&images_dir).unwrap();
    let images = pdf_images(&pdf, &images_dir);
    assert!(!images.is_empty());
    for image in &images {
        let bytes = std::fs::read(image).unwrap();
        let checked = scratch.path().join(format!(
            "exported-{}",
            image.file_name().unwrap().to_string_lossy()
        ));
        assert_clean(&checked, &bytes);
    }
    // The JPEG goes into the PDF as it is stored, byte for byte.
    let first = std::fs::read(
        images
            .iter()
            .find(|p| p.extension().unwrap() == "jpg")
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first, stored[0].1);
    let list = pdf_image_list(&pdf);
    assert_eq!(
        list.iter().map(|(page, ..)| *page).max(),
        Some(before as u32 + 2)
    );
    // The first photo's page as an image, kept beside the documents' pages to look at.
    let pages_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("document-pages");
    std::fs::create_dir_all(&pages_dir).unwrap();
    let first_photo_page = (before + 1).to_string();
    let output = tool("pdftoppm", "poppler-utils")
        .args(["-png", "-r", "60", "-singlefile"])
        .args(["-f", &first_photo_page, "-l", &first_photo_page])
        .arg(&pdf)
        .arg(pages_dir.join("photo-appendix"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(pages_dir.join("photo-appendix.png").is_file());

    // The text and the DOCX list them under «Приложения», by number, never by file name.
    let text = std::fs::read_to_string(export(home.path(), &id, "txt")).unwrap();
    let appendix = format!(
        "Приложения:\n1. {}\n2. {}\n",
        stored_label(&listed(home.path(), &id)[0]),
        stored_label(&listed(home.path(), &id)[1])
    );
    assert!(text.contains(&appendix), "{text}");
    assert!(!text.contains("gps"), "{text}");
    // The DOCX lists them (its text is checked by the engine's tests) and embeds none: a
    // package's part names are stored uncompressed, so a media part would show.
    let docx = std::fs::read(export(home.path(), &id, "docx")).unwrap();
    assert!(!docx.windows(10).any(|w| w == b"word/media"));
}

fn stored_label(item: &Value) -> String {
    item["label"].as_str().unwrap().to_owned()
}

/// The colour of a pixel of a binary PPM (`pdftoppm`'s default output).
fn ppm_pixel(ppm: &[u8], x: usize, y: usize) -> [u8; 3] {
    // Header: "P6\n<width> <height>\n255\n".
    let mut fields = Vec::new();
    let mut pos = 0;
    while fields.len() < 4 {
        while ppm[pos].is_ascii_whitespace() {
            pos += 1;
        }
        let start = pos;
        while !ppm[pos].is_ascii_whitespace() {
            pos += 1;
        }
        fields.push(String::from_utf8_lossy(&ppm[start..pos]).to_string());
    }
    let width: usize = fields[1].parse().unwrap();
    let offset = pos + 1 + (y * width + x) * 3;
    [ppm[offset], ppm[offset + 1], ppm[offset + 2]]
}

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: reads the PDF back with poppler, a Linux program that a Windows process under Wine cannot start; tests/windows checks that Windows writes the same document bytes"
)]
fn issue_9_an_orientation_6_photo_is_placed_upright() {
    let (home, id) = drafted();
    let (output, _, stderr) = attach(home.path(), &id, &[fixture("sideways6.jpg")]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    // Stored 64 × 48 with «turn a quarter clockwise»: upright it is 48 wide, 64 high.
    let item = &listed(home.path(), &id)[0];
    assert_eq!(
        (item["width"].as_u64(), item["height"].as_u64()),
        (Some(48), Some(64))
    );
    // The draft as JSON carries the same list, named by number, never by file.
    let (output, shown, stderr) = drafts(home.path(), &["show", &id, "--json"]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let shown: Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(&shown["attachments"][0], item);
    assert!(!shown.to_string().contains("sideways6"), "{shown}");
    let exported = std::fs::read_to_string(export(home.path(), &id, "json")).unwrap();
    let exported: Value = serde_json::from_str(&exported).unwrap();
    assert_eq!(exported["attachments"], shown["attachments"]);
    let pdf = export(home.path(), &id, "pdf");
    let last_page = pages(&pdf);
    assert_eq!(pdf_image_list(&pdf), vec![(last_page as u32, 48, 64)]);
    // On the rendered page the red half (the photo's left side as stored) is on top.
    let rendered = tempfile::tempdir().unwrap();
    let prefix = rendered.path().join("page");
    let output = tool("pdftoppm", "poppler-utils")
        .args([
            "-r",
            "36",
            "-f",
            &last_page.to_string(),
            "-l",
            &last_page.to_string(),
        ])
        .arg(&pdf)
        .arg(&prefix)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let page = std::fs::read_dir(rendered.path())
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let ppm = std::fs::read(page).unwrap();
    // A4 at 36 dpi is 298 × 421; the photo is centred across the text width, below the caption.
    let column = (70.87 + (595.28 - 70.87 - 42.52) / 2.0) / 2.0;
    let colour_at = |y_points: f64| ppm_pixel(&ppm, column as usize, (y_points / 2.0) as usize);
    let top = colour_at(150.0);
    let bottom = colour_at(700.0);
    assert!(top[0] > 150 && top[2] < 100, "top is red: {top:?}");
    assert!(
        bottom[2] > 150 && bottom[0] < 100,
        "bottom is blue: {bottom:?}"
    );
}

#[test]
fn issue_9_bad_files_are_refused_and_nothing_changes() {
    let (home, id) = drafted();
    let scratch = tempfile::tempdir().unwrap();
    let text = scratch.path().join("фото.jpg");
    std::fs::write(&text, "это не фотография, а текст").unwrap();
    let truncated = scratch.path().join("обрезано.jpg");
    let whole = std::fs::read(fixture("gps.jpg")).unwrap();
    std::fs::write(&truncated, &whole[..whole.len() / 2]).unwrap();
    let oversized = scratch.path().join("огромное.jpg");
    {
        let file = std::fs::File::create(&oversized).unwrap();
        std::io::Write::write_all(&mut &file, &whole[..4]).unwrap();
        file.set_len(16 * 1024 * 1024).unwrap();
    }
    let cases: [(&[PathBuf], &str); 5] = [
        (std::slice::from_ref(&text), "не фотография"),
        (std::slice::from_ref(&truncated), "обрывается"),
        (std::slice::from_ref(&oversized), "не больше"),
        (&[scratch.path().to_path_buf()], "папка"),
        // One good photo with a bad one: neither is attached.
        (&[fixture("gps.jpg"), text.clone()], "не фотография"),
    ];
    for (files, expected) in cases {
        let (output, stdout, stderr) = attach(home.path(), &id, files);
        assert_eq!(output.status.code(), Some(2), "{files:?}: {stdout}{stderr}");
        assert!(stderr.contains(expected), "{files:?}: {stderr}");
        assert!(
            stderr.contains("Ничего не добавлено"),
            "{files:?}: {stderr}"
        );
        assert!(listed(home.path(), &id).is_empty(), "{files:?}");
    }
    let events = store(home.path())
        .audit_events(Some(id.parse::<DraftId>().unwrap()))
        .unwrap();
    assert!(events.iter().all(|e| e.kind.code() != "attachment_added"));
    // Too many at once: refused before any file is read.
    let many: Vec<PathBuf> = (0..11).map(|_| fixture("gps.png")).collect();
    let (output, _, stderr) = attach(home.path(), &id, &many);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("не больше 10 фотографий"), "{stderr}");
    assert!(listed(home.path(), &id).is_empty());
    // A draft that does not exist.
    let (output, _, stderr) = attach(home.path(), "999", &[fixture("gps.jpg")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("черновика с номером 999 нет"), "{stderr}");
}

#[test]
fn issue_9_detaching_or_deleting_leaves_no_byte_of_the_photo() {
    let (home, id) = drafted();
    let (output, _, stderr) = attach(
        home.path(),
        &id,
        &[
            fixture("gps.png"),
            fixture("gps.jpg"),
            fixture("sideways6.jpg"),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let listed_before = listed(home.path(), &id);
    let jpeg_hash = listed_before[1]["sha256"].as_str().unwrap().to_owned();
    // A stretch of the stored JPEG's bytes stands for the photo in the files.
    let stored = store(home.path())
        .attachments_with_bytes(id.parse::<DraftId>().unwrap())
        .unwrap();
    let needle = stored[1].1[stored[1].1.len() / 2..][..48].to_vec();
    let files_with_needle = || {
        std::fs::read_dir(home.path().join("data"))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.is_file())
            .filter(|path| {
                std::fs::read(path)
                    .unwrap()
                    .windows(48)
                    .any(|w| w == needle)
            })
            .count()
    };
    drop(stored);
    assert!(files_with_needle() > 0);

    let (output, stdout, stderr) = drafts(home.path(), &["detach", &id, "2"]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("Фото 2 (JPEG"), "{stdout}");
    let after = listed(home.path(), &id);
    assert_eq!(after.len(), 2);
    assert_eq!(after[1]["number"], 2, "the numbers close up");
    assert_eq!(after[1]["sha256"], listed_before[2]["sha256"]);
    assert_eq!(files_with_needle(), 0);
    let events = store(home.path())
        .audit_events(Some(id.parse::<DraftId>().unwrap()))
        .unwrap();
    let removed = events.last().unwrap();
    assert_eq!(removed.kind.code(), "attachment_removed");
    assert_eq!(removed.sha256.as_deref(), Some(jpeg_hash.as_str()));

    let (output, _, stderr) = drafts(home.path(), &["detach", &id, "7"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("пронумерованы от 1 до 2"), "{stderr}");

    let (output, _, stderr) = drafts(home.path(), &["delete", &id]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    // Nothing of the PNG (its pixels compress to bytes that are its own) is left.
    let png = std::fs::read(fixture("gps.png")).unwrap();
    let idat = png.windows(4).position(|w| w == b"IDAT").unwrap();
    let png_needle = png[idat..idat + 24].to_vec();
    let left = std::fs::read_dir(home.path().join("data"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .filter(|path| {
            std::fs::read(path)
                .unwrap()
                .windows(24)
                .any(|w| w == png_needle)
        })
        .count();
    assert_eq!(left, 0);
}

/// Photos never go to the model: a draft that failed is given photos, then sent again; what the
/// provider receives is what it received before the photos, with no image, no reference to one
/// and no photo label.
#[test]
fn issue_9_photos_never_reach_the_model() {
    use zayavka_standin::{Reply, Script, StandIn};
    let valid = serde_json::json!({
        "outcome": "draft",
        "title": "Не работает освещение на лестнице",
        "problem": "На лестнице между третьим и четвёртым этажами неделю не горит свет",
        "circumstances": null,
        "impact": null,
        "verification": null,
        "subject": null,
        "warnings": []
    });
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::status(
                400,
                r#"{"error":{"message":"bad request","type":"invalid_request_error"}}"#,
            ))
            .then(Reply::completion(&valid.to_string()))
            .repeat_last(),
    );
    let home = tempfile::tempdir().unwrap();
    let send = |args: &[&str]| {
        run(zayavka()
            .env("ZAYAVKA_HOME", home.path())
            .env("ZAYAVKA_API_KEY", "sk-test")
            .args(args)
            .args(["--json", "--base-url", &stand_in.base_url()])
            .args(["--model", "stand-in-model"]))
    };
    let (output, stdout, stderr) = send(&[
        "draft",
        "--description",
        "В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.",
    ]);
    assert_eq!(output.status.code(), Some(5), "{stdout}{stderr}");
    let id = serde_json::from_str::<Value>(&stdout).unwrap()["draft_id"]
        .as_i64()
        .unwrap()
        .to_string();
    let (output, _, stderr) = attach(home.path(), &id, &[fixture("gps.jpg"), fixture("gps.png")]);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let (output, stdout, stderr) = send(&["drafts", "retry", &id]);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    let requests = stand_in.requests();
    assert_eq!(requests.len(), 2);
    // The request sent after attaching is the one sent before, byte for byte.
    assert_eq!(requests[0].body, requests[1].body);
    let stored = store(home.path())
        .attachments_with_bytes(id.parse::<DraftId>().unwrap())
        .unwrap();
    for request in &requests {
        let body = request.json().to_string();
        for word in ["image", "jpeg", "png", "base64", "Фото 1", "Приложения:"]
            .iter()
            .chain(MARKERS)
        {
            assert!(
                !body.to_lowercase().contains(&word.to_lowercase()),
                "{word} was sent"
            );
        }
        for (_, bytes) in &stored {
            let fragment = &bytes[bytes.len() / 2..][..16];
            assert!(!request.body.as_bytes().windows(16).any(|w| w == fragment));
        }
    }
}
