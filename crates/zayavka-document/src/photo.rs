//! One photo made safe to store: its format checked by its bytes, its metadata removed, its
//! rotation applied, its size bounded (ADR 18). Pure: bytes in, bytes out, no IO.
//!
//! The metadata goes by removing segments and chunks, not by decoding and encoding again, so
//! the stored photo keeps every pixel of the original: in a JPEG every APPn segment (EXIF with
//! its GPS tags and thumbnail, XMP, IPTC, ICC profiles, maker notes, MPF) and every comment,
//! wherever it stands, and everything after the end-of-image marker (the second image a phone
//! appends: a gain map or a depth map, with EXIF of its own); in a PNG every chunk but those
//! that draw the image. Only a photo whose EXIF says it is stored turned is decoded, turned
//! upright and encoded again, because the rotation lived in the metadata that is removed.

use std::io::Cursor;
use std::sync::Arc;

use image::codecs::jpeg::{JpegDecoder, JpegEncoder};
use image::codecs::png::{PngDecoder, PngEncoder};
use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, Limits};
use serde::Serialize;

/// The longest side, in pixels: a wide phone panorama fits, a made-up size does not.
pub const PHOTO_MAX_SIDE: u32 = 20_000;
/// The most pixels, so that decoding (which a turned photo needs) stays within a few hundred
/// megabytes of memory whatever the header claims.
pub const PHOTO_MAX_PIXELS: u64 = 50_000_000;
/// The most photos one draft carries: a paper request with ten pages of photos is already
/// thick, and the limit bounds the draft's size in the database.
pub const PHOTOS_PER_DRAFT: u32 = 10;

/// The quality of a JPEG encoded again after turning it upright: visually the same as the
/// phone's own, at a similar size.
const JPEG_QUALITY: u8 = 92;

/// The memory decoding one photo may use: 50 megapixels of 16-bit RGBA is 400 MB.
const DECODE_MAX_ALLOC: u64 = 512 * 1024 * 1024;

/// The formats a photo may have, told by its first bytes, never by the file's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum PhotoFormat {
    /// JPEG (what phone cameras save).
    Jpeg,
    /// PNG (screenshots).
    Png,
}

impl PhotoFormat {
    /// The media type the store keeps.
    pub const fn media_type(self) -> &'static str {
        match self {
            PhotoFormat::Jpeg => "image/jpeg",
            PhotoFormat::Png => "image/png",
        }
    }

    /// The format for a stored media type.
    pub fn from_media_type(media_type: &str) -> Option<PhotoFormat> {
        match media_type {
            "image/jpeg" => Some(PhotoFormat::Jpeg),
            "image/png" => Some(PhotoFormat::Png),
            _ => None,
        }
    }

    /// The format's name as a document prints it.
    pub const fn label(self) -> &'static str {
        match self {
            PhotoFormat::Jpeg => "JPEG",
            PhotoFormat::Png => "PNG",
        }
    }

    /// The format of these bytes by their signature, or `None`.
    pub fn sniff(bytes: &[u8]) -> Option<PhotoFormat> {
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(PhotoFormat::Jpeg)
        } else if bytes.starts_with(PNG_SIGNATURE) {
            Some(PhotoFormat::Png)
        } else {
            None
        }
    }
}

/// Why bytes cannot be stored as a photo. Exhaustive on purpose: the engine words every case
/// for the resident, and a new case should fail its build until it does.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhotoProblem {
    /// The bytes are neither a JPEG nor a PNG.
    #[error("not a JPEG or PNG image")]
    NotAnImage,
    /// The bytes are an image in a format a draft does not take (HEIC from an iPhone, WebP,
    /// GIF, TIFF, BMP), told by its signature so the message can say what to do.
    #[error("a {0} image, not JPEG or PNG")]
    OtherFormat(&'static str),
    /// The image ends before its end marker: a partial copy or download.
    #[error("the image is cut short")]
    Truncated,
    /// The image's structure or data is broken.
    #[error("the image is damaged")]
    Damaged,
    /// The image claims more pixels than a photo has (a decompression bomb, or a scan of a
    /// poster).
    #[error("the image is {width}×{height} pixels, over the limit")]
    TooManyPixels {
        /// The width the header claims.
        width: u32,
        /// The height the header claims.
        height: u32,
    },
}

/// A photo ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreparedPhoto {
    /// Its format, the same as the original's.
    pub format: PhotoFormat,
    /// Its width as shown, upright.
    pub width: u32,
    /// Its height as shown, upright.
    pub height: u32,
    /// The bytes: no metadata, upright.
    pub bytes: Vec<u8>,
    /// Whether the photo was turned upright (and so encoded again).
    pub turned: bool,
}

/// Checks and cleans one photo: the format by its signature, the structure segment by segment
/// (a cut-off file is refused), the dimensions from the header before any pixel is decoded,
/// then every pixel decoded from the cleaned bytes, so that what is stored is known to be a
/// whole, readable image.
pub fn prepare_photo(bytes: &[u8]) -> Result<PreparedPhoto, PhotoProblem> {
    let format = PhotoFormat::sniff(bytes).ok_or_else(|| match other_format(bytes) {
        Some(name) => PhotoProblem::OtherFormat(name),
        None => PhotoProblem::NotAnImage,
    })?;
    let cleaned = match format {
        PhotoFormat::Jpeg => strip_jpeg(bytes)?,
        PhotoFormat::Png => strip_png(bytes)?,
    };
    // The rotation is read from the original, whose EXIF still holds it.
    let orientation = match format {
        PhotoFormat::Jpeg => JpegDecoder::new(Cursor::new(bytes))
            .and_then(|mut decoder| decoder.orientation())
            .map_err(|_| PhotoProblem::Damaged)?,
        PhotoFormat::Png => PngDecoder::new(Cursor::new(bytes))
            .and_then(|mut decoder| decoder.orientation())
            .map_err(|_| PhotoProblem::Damaged)?,
    };
    let image = decode(format, &cleaned)?;
    if orientation == Orientation::NoTransforms {
        let (width, height) = (image.width(), image.height());
        return Ok(PreparedPhoto {
            format,
            width,
            height,
            bytes: cleaned,
            turned: false,
        });
    }
    let mut image = image;
    image.apply_orientation(orientation);
    let bytes = encode(format, &image)?;
    Ok(PreparedPhoto {
        format,
        width: image.width(),
        height: image.height(),
        bytes,
        turned: true,
    })
}

/// The name of an image format a draft does not take, by its signature.
fn other_format(bytes: &[u8]) -> Option<&'static str> {
    let brand = bytes.get(4..12);
    if brand.is_some_and(|b| b.starts_with(b"ftyp"))
        && let Some(kind) = bytes.get(8..12)
        && [
            b"heic", b"heix", b"hevc", b"heim", b"heis", b"mif1", b"msf1", b"avif",
        ]
        .iter()
        .any(|k| kind == *k)
    {
        return Some(if kind == b"avif" { "AVIF" } else { "HEIC" });
    }
    if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        return Some("WebP");
    }
    if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        return Some("GIF");
    }
    if bytes.starts_with(b"II*\0") || bytes.starts_with(b"MM\0*") {
        return Some("TIFF");
    }
    if bytes.starts_with(b"BM") && bytes.len() > 14 {
        return Some("BMP");
    }
    None
}

/// Decodes every pixel, refusing absurd dimensions before allocating anything for them.
fn decode(format: PhotoFormat, bytes: &[u8]) -> Result<DynamicImage, PhotoProblem> {
    let mut limits = Limits::default();
    limits.max_image_width = Some(PHOTO_MAX_SIDE);
    limits.max_image_height = Some(PHOTO_MAX_SIDE);
    limits.max_alloc = Some(DECODE_MAX_ALLOC);
    let check = |(width, height): (u32, u32)| {
        let pixels = u64::from(width) * u64::from(height);
        if width > PHOTO_MAX_SIDE || height > PHOTO_MAX_SIDE || pixels > PHOTO_MAX_PIXELS {
            Err(PhotoProblem::TooManyPixels { width, height })
        } else {
            Ok(())
        }
    };
    let decoded = match format {
        PhotoFormat::Jpeg => {
            let mut decoder =
                JpegDecoder::new(Cursor::new(bytes)).map_err(|_| PhotoProblem::Damaged)?;
            check(decoder.dimensions())?;
            decoder
                .set_limits(limits)
                .map_err(|_| PhotoProblem::Damaged)?;
            DynamicImage::from_decoder(decoder)
        }
        PhotoFormat::Png => {
            let mut decoder =
                PngDecoder::new(Cursor::new(bytes)).map_err(|_| PhotoProblem::Damaged)?;
            check(decoder.dimensions())?;
            decoder
                .set_limits(limits)
                .map_err(|_| PhotoProblem::Damaged)?;
            DynamicImage::from_decoder(decoder)
        }
    };
    decoded.map_err(|_| PhotoProblem::Damaged)
}

/// Encodes a turned photo in its own format.
fn encode(format: PhotoFormat, image: &DynamicImage) -> Result<Vec<u8>, PhotoProblem> {
    let mut bytes = Vec::new();
    let written = match format {
        PhotoFormat::Jpeg => {
            // JPEG has no alpha and no 16-bit samples: grey stays grey, the rest becomes RGB.
            let flat = if image.color().has_color() {
                DynamicImage::ImageRgb8(image.to_rgb8())
            } else {
                DynamicImage::ImageLuma8(image.to_luma8())
            };
            flat.write_with_encoder(JpegEncoder::new_with_quality(&mut bytes, JPEG_QUALITY))
        }
        PhotoFormat::Png => image.write_with_encoder(PngEncoder::new(&mut bytes)),
    };
    written.map_err(|_| PhotoProblem::Damaged)?;
    match format {
        // The encoder writes a JFIF header; it goes like every APPn, so that a turned photo and
        // an untouched one follow the same rule.
        PhotoFormat::Jpeg => strip_jpeg(&bytes),
        PhotoFormat::Png => Ok(bytes),
    }
}

/// The JPEG markers.
mod marker {
    pub const TEM: u8 = 0x01;
    pub const RST0: u8 = 0xD0;
    pub const RST7: u8 = 0xD7;
    pub const SOI: u8 = 0xD8;
    pub const EOI: u8 = 0xD9;
    pub const SOS: u8 = 0xDA;
    pub const APP14: u8 = 0xEE;
}

/// One segment of a JPEG: its marker and its bytes in the file, marker included, with the
/// entropy-coded data after a start-of-scan counted into the scan's segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Segment {
    marker: u8,
    start: usize,
    end: usize,
}

/// The segments of a JPEG up to its end-of-image marker, and where that marker ends. Reading
/// goes marker by marker and through every scan, so a segment after the first scan (a
/// progressive JPEG's later scans, a comment between them) is seen like any other.
fn jpeg_segments(bytes: &[u8]) -> Result<(Vec<Segment>, usize), PhotoProblem> {
    if !bytes.starts_with(&[0xFF, marker::SOI]) {
        return Err(PhotoProblem::NotAnImage);
    }
    let mut segments = Vec::new();
    let mut pos = 2;
    loop {
        let start = pos;
        match bytes.get(pos) {
            None => return Err(PhotoProblem::Truncated),
            Some(0xFF) => {}
            Some(_) => return Err(PhotoProblem::Damaged),
        }
        // Fill bytes: any number of 0xFF before the marker's code.
        while bytes.get(pos) == Some(&0xFF) {
            pos += 1;
        }
        let code = *bytes.get(pos).ok_or(PhotoProblem::Truncated)?;
        pos += 1;
        match code {
            marker::EOI => return Ok((segments, pos)),
            marker::SOI | 0x00 => return Err(PhotoProblem::Damaged),
            marker::TEM | marker::RST0..=marker::RST7 => {
                segments.push(Segment {
                    marker: code,
                    start,
                    end: pos,
                });
                continue;
            }
            _ => {}
        }
        let length = bytes
            .get(pos..pos + 2)
            .map(|b| usize::from(u16::from_be_bytes([b[0], b[1]])))
            .ok_or(PhotoProblem::Truncated)?;
        if length < 2 {
            return Err(PhotoProblem::Damaged);
        }
        pos += length;
        if pos > bytes.len() {
            return Err(PhotoProblem::Truncated);
        }
        if code == marker::SOS {
            // The entropy-coded data runs to the next marker: 0xFF followed by anything but a
            // stuffed zero or a restart marker.
            loop {
                match bytes.get(pos..pos + 2) {
                    None => return Err(PhotoProblem::Truncated),
                    Some([0xFF, next])
                        if *next != 0x00
                            && *next != 0xFF
                            && !(marker::RST0..=marker::RST7).contains(next) =>
                    {
                        break;
                    }
                    Some([0xFF, 0xFF]) => pos += 1,
                    Some([0xFF, _]) => pos += 2,
                    Some(_) => pos += 1,
                }
            }
        }
        segments.push(Segment {
            marker: code,
            start,
            end: pos,
        });
    }
}

/// Whether a JPEG segment codes the image, by an allow-list: the frame headers, Huffman and
/// arithmetic-coding tables (`0xC0`–`0xCF`), the scans, the quantisation tables, the number of
/// lines, the restart interval and markers, the hierarchical headers (`0xDA`–`0xDF`,
/// `0xD0`–`0xD7`), and Adobe's APP14, which only says how the colours are coded. Everything
/// else is metadata or nothing a reader needs: every other APPn (EXIF, XMP, ICC, IPTC, MPF,
/// maker segments), comments, and reserved or extension markers, which a decoder skips and
/// could carry anything (the fuzz target `photo` found an EXIF block under marker `0x02`).
fn draws_jpeg(bytes: &[u8], segment: &Segment) -> bool {
    match segment.marker {
        0xC0..=0xCF | marker::RST0..=marker::RST7 | marker::SOS..=0xDF => true,
        marker::APP14 => bytes[segment.start..segment.end]
            .get(4..9)
            .is_some_and(|name| name == b"Adobe"),
        _ => false,
    }
}

/// The JPEG with only the segments that code the image, and nothing after its end-of-image
/// marker.
fn strip_jpeg(bytes: &[u8]) -> Result<Vec<u8>, PhotoProblem> {
    let (segments, _end) = jpeg_segments(bytes)?;
    if !segments.iter().any(|s| s.marker == marker::SOS) {
        return Err(PhotoProblem::Damaged);
    }
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(&[0xFF, marker::SOI]);
    for segment in segments.iter().filter(|s| draws_jpeg(bytes, s)) {
        out.extend_from_slice(&bytes[segment.start..segment.end]);
    }
    out.extend_from_slice(&[0xFF, marker::EOI]);
    Ok(out)
}

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// The PNG chunks that draw the image; every other chunk (text, EXIF, time, ICC profile,
/// private chunks, animation) is dropped.
const PNG_KEPT_CHUNKS: [&[u8; 4]; 11] = [
    b"IHDR", b"PLTE", b"IDAT", b"IEND", b"tRNS", b"gAMA", b"cHRM", b"sRGB", b"sBIT", b"bKGD",
    b"pHYs",
];

/// Whether a PNG's header says its pixels are palette indices (colour type 3).
fn indexed(bytes: &[u8]) -> bool {
    // The signature, IHDR's length and type, width and height, bit depth, then colour type.
    bytes.get(PNG_SIGNATURE.len() + 8 + 9) == Some(&3)
}

/// The chunks of a PNG up to IEND, each as (type, start, end) with its length and CRC.
fn png_chunks(bytes: &[u8]) -> Result<Vec<([u8; 4], usize, usize)>, PhotoProblem> {
    if !bytes.starts_with(PNG_SIGNATURE) {
        return Err(PhotoProblem::NotAnImage);
    }
    let mut chunks = Vec::new();
    let mut pos = PNG_SIGNATURE.len();
    loop {
        let header = bytes.get(pos..pos + 8).ok_or(PhotoProblem::Truncated)?;
        let length = u32::from_be_bytes([header[0], header[1], header[2], header[3]]);
        let kind = [header[4], header[5], header[6], header[7]];
        if length > i32::MAX as u32 || !kind.iter().all(u8::is_ascii_alphabetic) {
            return Err(PhotoProblem::Damaged);
        }
        if chunks.is_empty() && &kind != b"IHDR" {
            return Err(PhotoProblem::Damaged);
        }
        // A palette is 1 to 256 entries of three bytes (PNG § 11.2.3). The `png` crate does not
        // check it and panics on a palette whose length is not a multiple of three (found by
        // the fuzz target `photo`), so it is refused here, before any decoder sees it.
        if &kind == b"PLTE" && (length == 0 || length % 3 != 0 || length > 3 * 256) {
            return Err(PhotoProblem::Damaged);
        }
        // An indexed image's transparency has at most one entry per palette entry, after the
        // palette (§ 11.3.2.1); `png` indexes past its palette table on a longer one.
        if &kind == b"tRNS" && indexed(bytes) {
            let entries = chunks
                .iter()
                .find(|(kind, _, _)| kind == b"PLTE")
                .map_or(0, |(_, start, end)| (end - start - 12) / 3);
            if length as usize > entries {
                return Err(PhotoProblem::Damaged);
            }
        }
        let end = pos
            .checked_add(12 + length as usize)
            .ok_or(PhotoProblem::Damaged)?;
        if end > bytes.len() {
            return Err(PhotoProblem::Truncated);
        }
        chunks.push((kind, pos, end));
        pos = end;
        if &kind == b"IEND" {
            return Ok(chunks);
        }
    }
}

/// The PNG with only the chunks that draw it, and nothing after IEND.
fn strip_png(bytes: &[u8]) -> Result<Vec<u8>, PhotoProblem> {
    let chunks = png_chunks(bytes)?;
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(PNG_SIGNATURE);
    for (kind, start, end) in chunks {
        if PNG_KEPT_CHUNKS.contains(&&kind) {
            out.extend_from_slice(&bytes[start..end]);
        }
    }
    Ok(out)
}

/// What metadata these bytes still carry, by name: a JPEG's segments that do not code the image
/// (APPn, comments, reserved markers) and bytes after its end, a PNG's ancillary chunks beyond those that draw it, and the `Exif\0\0`
/// header anywhere outside the data that draws the image. Empty for every photo [`prepare_photo`]
/// returns; the engine checks that again before storing, and the tests use it on exported
/// copies.
pub fn metadata_left(bytes: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    if outside_image_data(bytes)
        .iter()
        .any(|range| bytes[range.clone()].windows(6).any(|w| w == b"Exif\0\0"))
    {
        found.push("Exif header".to_owned());
    }
    match PhotoFormat::sniff(bytes) {
        Some(PhotoFormat::Jpeg) => match jpeg_segments(bytes) {
            Ok((segments, end)) => {
                for segment in segments.iter().filter(|s| !draws_jpeg(bytes, s)) {
                    found.push(format!("JPEG segment 0x{:02X}", segment.marker));
                }
                if end < bytes.len() {
                    found.push("data after the end of the JPEG".to_owned());
                }
            }
            Err(problem) => found.push(format!("unreadable JPEG: {problem}")),
        },
        Some(PhotoFormat::Png) => match png_chunks(bytes) {
            Ok(chunks) => {
                for (kind, _, end) in &chunks {
                    if !PNG_KEPT_CHUNKS.contains(&kind) {
                        found.push(format!("PNG chunk {}", String::from_utf8_lossy(kind)));
                    }
                    if kind == b"IEND" && *end < bytes.len() {
                        found.push("data after the end of the PNG".to_owned());
                    }
                }
            }
            Err(problem) => found.push(format!("unreadable PNG: {problem}")),
        },
        None => found.push("not a JPEG or PNG".to_owned()),
    }
    found
}

/// The byte ranges of a photo that are not the data that draws it: a JPEG without the segments
/// [`draws_jpeg`] keeps (its tables, frame and scans with their entropy-coded data), a PNG
/// without the chunks it keeps (`PNG_KEPT_CHUNKS`: header, palette, pixels, colour facts), and
/// the whole file when it cannot be read. Those bytes are numbers — quantisation steps, Huffman
/// codes, chromaticities, compressed pixels — that can hold any six bytes by chance (the fuzz
/// target `photo` found `Exif\0\0` in a JPEG scan, a quantisation table and a PNG's `cHRM`),
/// and no reader takes metadata from them; everything else is searched.
fn outside_image_data(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let whole = std::iter::once(0..bytes.len()).collect();
    match PhotoFormat::sniff(bytes) {
        Some(PhotoFormat::Jpeg) => match jpeg_segments(bytes) {
            Ok((segments, end)) => {
                let mut ranges: Vec<_> = std::iter::once(0..2).collect();
                ranges.extend(
                    segments
                        .iter()
                        .filter(|s| !draws_jpeg(bytes, s))
                        .map(|s| s.start..s.end),
                );
                ranges.push(end..bytes.len());
                ranges
            }
            Err(_) => whole,
        },
        Some(PhotoFormat::Png) => match png_chunks(bytes) {
            Ok(chunks) => {
                let mut ranges: Vec<_> = std::iter::once(0..PNG_SIGNATURE.len()).collect();
                ranges.extend(
                    chunks
                        .iter()
                        .filter(|(kind, _, _)| !PNG_KEPT_CHUNKS.contains(&kind))
                        .map(|(_, start, end)| *start..*end),
                );
                ranges.push(chunks.last().map_or(bytes.len(), |(_, _, end)| *end)..bytes.len());
                ranges
            }
            Err(_) => whole,
        },
        None => whole,
    }
}

/// A photo with its stored bytes, for a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DocumentPhoto {
    /// Its number: «Приложение N».
    pub number: u32,
    /// JPEG or PNG.
    pub format: PhotoFormat,
    /// The width in pixels, upright.
    pub width: u32,
    /// The height in pixels, upright.
    pub height: u32,
    /// How the document lists it: «Фото 1 (JPEG, 1,2 МБ)».
    pub label: String,
    /// The stored bytes, without metadata; shared, since a photo is large.
    #[serde(skip)]
    pub bytes: Arc<Vec<u8>>,
}

/// A size as a Russian document prints it: «850 КБ», «1,2 МБ».
pub fn size_ru(bytes: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * 1024;
    if bytes < MIB {
        format!("{} КБ", bytes.div_ceil(KIB).max(1))
    } else {
        // Tenths of a megabyte, rounded half up, with a decimal comma.
        let tenths = (bytes * 10 + MIB / 2) / MIB;
        format!("{},{} МБ", tenths / 10, tenths % 10)
    }
}

/// How a document names photo `number` in short, the start of its label: «Фото 1».
pub fn photo_name(number: u32) -> String {
    format!("Фото {number}")
}

/// How a document names photo `number`: «Фото 1 (JPEG, 1,2 МБ)». Never the file's name, which
/// may carry a name, an address or a place.
pub fn photo_label(number: u32, format: PhotoFormat, byte_size: u64) -> String {
    format!(
        "{} ({}, {})",
        photo_name(number),
        format.label(),
        size_ru(byte_size)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_labels_read_the_russian_way() {
        assert_eq!(size_ru(1), "1 КБ");
        assert_eq!(size_ru(870_000), "850 КБ");
        assert_eq!(size_ru(1_258_291), "1,2 МБ");
        assert_eq!(size_ru(10 * 1024 * 1024), "10,0 МБ");
        assert_eq!(
            photo_label(1, PhotoFormat::Jpeg, 1_258_291),
            "Фото 1 (JPEG, 1,2 МБ)"
        );
    }

    /// Found by the fuzz target `photo`: the bytes `Exif\0\0` by chance inside the data that
    /// draws an image — a JPEG scan's compressed pixels, a quantisation table, a PNG's
    /// chromaticities (`cHRM`) — are not metadata: the cleaned copy keeps them, counts as clean
    /// and is accepted again (each used to be refused as damaged by the engine's second check).
    #[test]
    fn exif_bytes_inside_the_data_that_draws_the_image_are_not_metadata() {
        let photos: [(&str, &[u8]); 3] = [
            (
                "scan",
                include_bytes!("../../../tests/fixtures/photos/exif-bytes-in-scan.jpg"),
            ),
            (
                "quantisation table",
                include_bytes!("../../../tests/fixtures/photos/exif-bytes-in-quant-table.jpg"),
            ),
            (
                "cHRM",
                include_bytes!("../../../tests/fixtures/photos/exif-bytes-in-chrm.png"),
            ),
        ];
        for (place, bytes) in photos {
            let prepared = prepare_photo(bytes).expect(place);
            assert!(
                prepared.bytes.windows(6).any(|w| w == b"Exif\0\0"),
                "{place}"
            );
            assert_eq!(
                metadata_left(&prepared.bytes),
                Vec::<String>::new(),
                "{place}"
            );
            assert!(prepare_photo(&prepared.bytes).is_ok(), "{place}");
        }
        // Before cleaning, the scan's photo still has its real EXIF segment, and it is reported.
        let (_, with_exif) = photos[0];
        assert!(metadata_left(with_exif).contains(&"Exif header".to_owned()));
    }

    /// Found by the fuzz target `photo`: an EXIF block under a reserved marker, which decoders
    /// skip, used to survive cleaning; only the segments that code the image are kept now.
    #[test]
    fn a_segment_under_a_reserved_marker_goes() {
        let bytes = include_bytes!("../../../tests/fixtures/photos/exif-under-reserved-marker.jpg");
        assert!(metadata_left(bytes).contains(&"JPEG segment 0x02".to_owned()));
        let prepared = prepare_photo(bytes).expect("the photo is accepted");
        assert_eq!(metadata_left(&prepared.bytes), Vec::<String>::new());
        for marker in [&b"ZAYAVKAMAKE"[..], b"Exif\0\0"] {
            assert!(!prepared.bytes.windows(marker.len()).any(|w| w == marker));
        }
    }

    /// Found by the fuzz target `photo`: a PNG whose palette is 38 bytes, not a whole number
    /// of three-byte entries, made the `png` crate panic while decoding; it is refused as
    /// damaged before decoding, and so is an empty or oversized palette.
    #[test]
    fn a_palette_that_is_not_whole_entries_is_refused_before_decoding() {
        let bytes = include_bytes!("../../../tests/fixtures/photos/palette-not-whole-entries.png");
        assert_eq!(prepare_photo(bytes), Err(PhotoProblem::Damaged));
        assert!(
            metadata_left(bytes)
                .iter()
                .any(|found| found.starts_with("unreadable PNG"))
        );
    }

    /// An indexed PNG with more transparency entries than palette entries would make the `png`
    /// crate index past its palette table; it is refused as damaged. As many as the palette
    /// has is a photo like any other.
    #[test]
    fn transparency_longer_than_the_palette_is_refused_before_decoding() {
        let gps = include_bytes!("../../../tests/fixtures/photos/gps.png");
        // gps.png is indexed with a two-entry palette; a tRNS goes after the palette.
        let plte = gps.windows(4).position(|w| w == b"PLTE").unwrap() - 4;
        let after_plte = plte + 12 + 6;
        let with_trns = |entries: &[u8]| {
            let mut bytes = gps[..after_plte].to_vec();
            bytes.extend_from_slice(&u32::try_from(entries.len()).unwrap().to_be_bytes());
            bytes.extend_from_slice(b"tRNS");
            bytes.extend_from_slice(entries);
            bytes.extend_from_slice(&crc(b"tRNS", entries).to_be_bytes());
            bytes.extend_from_slice(&gps[after_plte..]);
            bytes
        };
        assert_eq!(
            prepare_photo(&with_trns(&[0, 255, 255])),
            Err(PhotoProblem::Damaged)
        );
        assert!(prepare_photo(&with_trns(&[0, 255])).is_ok());
    }

    /// A small JPEG whose left half is red and right half blue, encoded here.
    fn jpeg(width: u32, height: u32) -> Vec<u8> {
        let image = image::RgbImage::from_fn(width, height, |x, _| {
            if x < width / 2 {
                image::Rgb([220, 20, 20])
            } else {
                image::Rgb([20, 20, 220])
            }
        });
        let mut bytes = Vec::new();
        DynamicImage::ImageRgb8(image)
            .write_with_encoder(JpegEncoder::new_with_quality(&mut bytes, 90))
            .unwrap();
        bytes
    }

    fn png(width: u32, height: u32) -> Vec<u8> {
        let image = image::RgbaImage::from_pixel(width, height, image::Rgba([1, 2, 3, 255]));
        let mut bytes = Vec::new();
        DynamicImage::ImageRgba8(image)
            .write_with_encoder(PngEncoder::new(&mut bytes))
            .unwrap();
        bytes
    }

    /// `jpeg` with segments inserted after SOI, in order.
    fn with_segments(jpeg: &[u8], segments: &[(u8, &[u8])]) -> Vec<u8> {
        let mut out = jpeg[..2].to_vec();
        for (code, payload) in segments {
            out.extend_from_slice(&[0xFF, *code]);
            out.extend_from_slice(&u16::try_from(payload.len() + 2).unwrap().to_be_bytes());
            out.extend_from_slice(payload);
        }
        out.extend_from_slice(&jpeg[2..]);
        out
    }

    /// A minimal EXIF block (big-endian TIFF) with one tag: Orientation, or a Make string.
    fn exif_orientation(value: u16) -> Vec<u8> {
        let mut exif = b"Exif\0\0MM\0\x2a\0\0\0\x08".to_vec();
        exif.extend_from_slice(&1u16.to_be_bytes()); // one entry
        exif.extend_from_slice(&0x0112u16.to_be_bytes()); // Orientation
        exif.extend_from_slice(&3u16.to_be_bytes()); // SHORT
        exif.extend_from_slice(&1u32.to_be_bytes()); // count
        exif.extend_from_slice(&value.to_be_bytes());
        exif.extend_from_slice(&[0, 0]);
        exif.extend_from_slice(&0u32.to_be_bytes()); // no next IFD
        exif
    }

    #[test]
    fn every_metadata_segment_and_trailer_goes_and_the_pixels_stay() {
        let plain = jpeg(32, 16);
        let marked = with_segments(
            &plain,
            &[
                (0xE1, b"Exif\0\0MM\0\x2a\0\0\0\x08GPSMARKER"),
                (0xE1, b"http://ns.adobe.com/xap/1.0/\0XMPMARKER"),
                (0xED, b"Photoshop 3.0\0IPTCMARKER"),
                (0xE2, b"ICC_PROFILE\0ICCMARKER"),
                (0xFE, b"COMMENTMARKER"),
            ],
        );
        // A comment after the scan, before the end marker, as between progressive scans.
        let mut marked = marked[..marked.len() - 2].to_vec();
        marked.extend_from_slice(b"\xFF\xFE\x00\x0ELATECOMMENT1");
        marked.extend_from_slice(&[0xFF, 0xD9]);
        marked.extend_from_slice(b"TRAILERMARKER appended after the end");
        let before = metadata_left(&marked);
        assert!(before.len() >= 7, "{before:?}");
        let prepared = prepare_photo(&marked).unwrap();
        assert_eq!(metadata_left(&prepared.bytes), Vec::<String>::new());
        for marker in [
            "GPSMARKER",
            "XMPMARKER",
            "IPTCMARKER",
            "ICCMARKER",
            "COMMENT",
            "TRAILER",
        ] {
            assert!(
                !prepared
                    .bytes
                    .windows(marker.len())
                    .any(|w| w == marker.as_bytes()),
                "{marker}"
            );
        }
        assert_eq!((prepared.width, prepared.height), (32, 16));
        assert!(!prepared.turned);
        // Without the JFIF header the rest is the original byte for byte: no pixel re-encoded.
        let plain_stripped = strip_jpeg(&plain).unwrap();
        assert_eq!(prepared.bytes, plain_stripped);
        assert_eq!(prepare_photo(&marked).unwrap(), prepared, "deterministic");
    }

    #[test]
    fn a_turned_photo_is_stored_upright() {
        let sideways = with_segments(&jpeg(40, 20), &[(0xE1, &exif_orientation(6))]);
        let prepared = prepare_photo(&sideways).unwrap();
        assert!(prepared.turned);
        assert_eq!((prepared.width, prepared.height), (20, 40));
        assert_eq!(metadata_left(&prepared.bytes), Vec::<String>::new());
        // Orientation 6 turns the picture a quarter clockwise: the red left half is now on top.
        let upright = image::load_from_memory(&prepared.bytes).unwrap().to_rgb8();
        let top = upright.get_pixel(10, 5);
        let bottom = upright.get_pixel(10, 35);
        assert!(top[0] > 150 && top[2] < 100, "{top:?}");
        assert!(bottom[2] > 150 && bottom[0] < 100, "{bottom:?}");
    }

    #[test]
    fn pngs_keep_only_the_chunks_that_draw_them() {
        let plain = png(8, 4);
        // A tEXt chunk after IHDR (its CRC is not checked by the stripper, which drops it).
        let mut marked = plain[..33].to_vec();
        for (kind, data) in [
            (b"tEXt", &b"Comment\0PNGTEXTMARKER"[..]),
            (b"eXIf", &b"MM\0\x2a\0\0\0\x08PNGEXIFMARKER"[..]),
        ] {
            marked.extend_from_slice(&u32::try_from(data.len()).unwrap().to_be_bytes());
            marked.extend_from_slice(kind);
            marked.extend_from_slice(data);
            marked.extend_from_slice(&crc(kind, data).to_be_bytes());
        }
        marked.extend_from_slice(&plain[33..]);
        assert_eq!(
            metadata_left(&marked).len(),
            2,
            "{:?}",
            metadata_left(&marked)
        );
        let prepared = prepare_photo(&marked).unwrap();
        assert_eq!(prepared.bytes, plain);
        assert_eq!(prepared.format, PhotoFormat::Png);
    }

    fn crc(kind: &[u8], data: &[u8]) -> u32 {
        // The PNG CRC-32 (ISO 3309), bit by bit: this test needs only a few short chunks.
        let mut crc = 0xFFFF_FFFFu32;
        for byte in kind.iter().chain(data) {
            crc ^= u32::from(*byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn not_images_cut_files_and_bombs_are_refused() {
        assert_eq!(
            prepare_photo(b"%PDF-1.7 not a photo"),
            Err(PhotoProblem::NotAnImage)
        );
        assert_eq!(prepare_photo(b""), Err(PhotoProblem::NotAnImage));
        assert_eq!(
            prepare_photo("Привет".as_bytes()),
            Err(PhotoProblem::NotAnImage)
        );
        let whole = jpeg(64, 64);
        for cut in [3, 20, whole.len() / 2, whole.len() - 2] {
            assert_eq!(
                prepare_photo(&whole[..cut]),
                Err(PhotoProblem::Truncated),
                "cut at {cut}"
            );
        }
        let whole_png = png(16, 16);
        for cut in [9, 20, whole_png.len() - 5] {
            assert_eq!(
                prepare_photo(&whole_png[..cut]),
                Err(PhotoProblem::Truncated)
            );
        }
        // A PNG header claiming 60000 × 60000 pixels, with a tiny body.
        let mut bomb = whole_png.clone();
        bomb[16..20].copy_from_slice(&60_000u32.to_be_bytes());
        bomb[20..24].copy_from_slice(&60_000u32.to_be_bytes());
        let ihdr_crc = crc(b"IHDR", &bomb[16..29]);
        bomb[29..33].copy_from_slice(&ihdr_crc.to_be_bytes());
        assert_eq!(
            prepare_photo(&bomb),
            Err(PhotoProblem::TooManyPixels {
                width: 60_000,
                height: 60_000
            })
        );
        // A JPEG frame header claiming 65000 × 65000.
        let mut jpeg_bomb = whole.clone();
        let sof = jpeg_bomb
            .windows(2)
            .position(|w| w == [0xFF, 0xC0])
            .unwrap();
        jpeg_bomb[sof + 5..sof + 7].copy_from_slice(&65_000u16.to_be_bytes());
        jpeg_bomb[sof + 7..sof + 9].copy_from_slice(&65_000u16.to_be_bytes());
        assert!(matches!(
            prepare_photo(&jpeg_bomb),
            Err(PhotoProblem::TooManyPixels { .. })
        ));
        let heic = b"\0\0\0\x18ftypheic\0\0\0\0mif1heic";
        assert_eq!(prepare_photo(heic), Err(PhotoProblem::OtherFormat("HEIC")));
        assert_eq!(
            prepare_photo(b"GIF89a\x01\0\x01\0"),
            Err(PhotoProblem::OtherFormat("GIF"))
        );
        // Garbage after a JPEG signature.
        let mut garbage = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10];
        garbage.extend_from_slice(&[0x42; 100]);
        assert!(prepare_photo(&garbage).is_err());
    }
}
