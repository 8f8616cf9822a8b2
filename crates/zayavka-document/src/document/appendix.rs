//! The photos of a document (ADR 18): the «Приложения» list after the body, which every format
//! prints, and the PDF's pages with one photo each after the request.
//!
//! A document without photos is exactly what it was before photos existed: no list, no page.

use krilla::Document;
use krilla::geom::{Point, Size, Transform};
use krilla::image::Image;
use krilla::page::PageSettings;
use krilla::text::{Font, TextDirection};

use super::FiledDocument;
use super::page::{
    CAPTION_SIZE, CONTENT_WIDTH, LINE_HEIGHT, MARGIN_BOTTOM, MARGIN_LEFT, MARGIN_TOP, PAGE_HEIGHT,
    PdfError,
};
use crate::photo::{DocumentPhoto, PhotoFormat};

/// The heading of the list.
pub(crate) const APPENDIX_HEADING: &str = "Приложения:";

impl FiledDocument {
    /// The document with these photos attached, in their order.
    pub fn with_photos(mut self, photos: Vec<DocumentPhoto>) -> FiledDocument {
        self.attachments = photos;
        self
    }

    /// The lines of the «Приложения» list: the heading, then «1. Фото 1 (JPEG, 1,2 МБ)» for
    /// each photo; empty without photos.
    pub fn appendix_lines(&self) -> Vec<String> {
        if self.attachments.is_empty() {
            return Vec::new();
        }
        std::iter::once(APPENDIX_HEADING.to_owned())
            .chain(
                self.attachments
                    .iter()
                    .map(|photo| format!("{}. {}", photo.number, photo.label)),
            )
            .collect()
    }

    /// The list as one block of text, or `None` without photos.
    pub(crate) fn appendix_text(&self) -> Option<String> {
        let lines = self.appendix_lines();
        (!lines.is_empty()).then(|| lines.join("\n"))
    }
}

/// The caption over a photo's page.
fn caption(photo: &DocumentPhoto) -> String {
    format!("Приложение {}", photo.number)
}

/// Where a photo goes on its page: scaled to fit under the caption within the margins, its
/// aspect ratio kept, centred across the page. Returns the top-left corner and the size in
/// points.
pub(crate) fn photo_box(width: u32, height: u32) -> (f32, f32, f32, f32) {
    let top = MARGIN_TOP + CAPTION_SIZE * LINE_HEIGHT * 2.0;
    let available_width = CONTENT_WIDTH;
    let available_height = PAGE_HEIGHT - MARGIN_BOTTOM - top;
    let (width, height) = (width.max(1) as f32, height.max(1) as f32);
    let scale = (available_width / width).min(available_height / height);
    let (placed_width, placed_height) = (width * scale, height * scale);
    let left = MARGIN_LEFT + (available_width - placed_width) / 2.0;
    (left, top, placed_width, placed_height)
}

/// Adds one page per photo to the PDF: «Приложение N» at the top and the photo under it. The
/// stored bytes go in as they are (a JPEG is embedded without decoding), so the photo on the
/// page is the stored copy, with no metadata.
pub(crate) fn add_photo_pages(
    pdf: &mut Document,
    font: &Font,
    settings: &PageSettings,
    photos: &[DocumentPhoto],
) -> Result<(), PdfError> {
    for photo in photos {
        // Shared, not copied: ten photos can be 150 MB.
        let shared: std::sync::Arc<dyn AsRef<[u8]> + Send + Sync> = photo.bytes.clone();
        let data = krilla::Data::from(shared);
        let image = match photo.format {
            PhotoFormat::Jpeg => Image::from_jpeg(data, true),
            PhotoFormat::Png => Image::from_png(data, true),
        }
        .map_err(|error| PdfError::Render(format!("фото {}: {error}", photo.number)))?;
        let (left, top, width, height) = photo_box(photo.width, photo.height);
        let size = Size::from_wh(width, height)
            .ok_or_else(|| PdfError::Render(format!("фото {}: размер", photo.number)))?;
        let mut page = pdf.start_page_with(settings.clone());
        let mut surface = page.surface();
        surface.draw_text(
            Point::from_xy(MARGIN_LEFT, MARGIN_TOP + CAPTION_SIZE * LINE_HEIGHT * 0.8),
            font.clone(),
            CAPTION_SIZE,
            &caption(photo),
            false,
            TextDirection::Auto,
        );
        surface.push_transform(&Transform::from_translate(left, top));
        surface.draw_image(image, size);
        surface.pop();
        surface.finish();
        page.finish();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::photo::{photo_label, prepare_photo};
    use crate::profile::Profile;

    /// A real photo as the store would hold it: encoded here, then cleaned.
    fn photo(number: u32, width: u32, height: u32) -> DocumentPhoto {
        let image = image::RgbImage::from_pixel(width, height, image::Rgb([200, 120, 40]));
        let mut bytes = Vec::new();
        image::DynamicImage::ImageRgb8(image)
            .write_with_encoder(image::codecs::jpeg::JpegEncoder::new(&mut bytes))
            .unwrap();
        let prepared = prepare_photo(&bytes).unwrap();
        DocumentPhoto {
            number,
            format: prepared.format,
            width: prepared.width,
            height: prepared.height,
            label: photo_label(number, prepared.format, prepared.bytes.len() as u64),
            bytes: Arc::new(prepared.bytes),
        }
    }

    fn document() -> FiledDocument {
        FiledDocument::new(
            "Не работает освещение на лестнице",
            "На лестнице неделю не горит свет.\n\nПрошу:\n1. Заменить лампы.",
            &Profile::default(),
            jiff::civil::date(2026, 12, 1),
        )
    }

    #[test]
    fn photos_are_listed_after_the_body_and_before_the_date() {
        let plain = document();
        assert!(plain.appendix_lines().is_empty());
        assert!(!plain.to_text().contains(APPENDIX_HEADING));
        let with_photos = document().with_photos(vec![photo(1, 40, 30), photo(2, 30, 40)]);
        let text = with_photos.to_text();
        let expected = format!(
            "1. Заменить лампы.\n\n{APPENDIX_HEADING}\n1. {}\n2. {}\n\n1 декабря 2026 г.",
            with_photos.attachments[0].label, with_photos.attachments[1].label
        );
        assert!(text.contains(&expected), "{text}");
        assert!(
            with_photos.attachments[0]
                .label
                .starts_with("Фото 1 (JPEG, ")
        );
    }

    #[test]
    fn each_photo_adds_one_page_and_the_same_photos_give_the_same_bytes() {
        let plain = document();
        let with_photos = document().with_photos(vec![photo(1, 64, 48), photo(2, 48, 64)]);
        assert_eq!(with_photos.pdf_page_count(), plain.pdf_page_count() + 2);
        let first = with_photos.to_pdf().unwrap();
        assert_eq!(first, with_photos.to_pdf().unwrap());
        let again = document().with_photos(vec![photo(1, 64, 48), photo(2, 48, 64)]);
        assert_eq!(first, again.to_pdf().unwrap());
        assert_ne!(first, plain.to_pdf().unwrap());
    }

    #[test]
    fn a_photo_fills_the_printable_area_with_its_aspect_ratio() {
        for (width, height) in [(4000, 3000), (3000, 4000), (100, 100), (20_000, 500)] {
            let (left, top, placed_width, placed_height) = photo_box(width, height);
            assert!(left >= MARGIN_LEFT - 0.01 && top >= MARGIN_TOP);
            assert!(left + placed_width <= MARGIN_LEFT + CONTENT_WIDTH + 0.01);
            assert!(top + placed_height <= PAGE_HEIGHT - MARGIN_BOTTOM + 0.01);
            let ratio = placed_width / placed_height;
            let expected = width as f32 / height as f32;
            assert!(
                (ratio - expected).abs() / expected < 0.001,
                "{width}×{height}"
            );
            // One side touches the area's edge: the photo is as large as the page allows.
            let fills_width = (placed_width - CONTENT_WIDTH).abs() < 0.01;
            let fills_height = (top + placed_height - (PAGE_HEIGHT - MARGIN_BOTTOM)).abs() < 0.01;
            assert!(fills_width || fills_height, "{width}×{height}");
        }
    }
}

#[cfg(test)]
mod docx_tests {
    use super::tests_support::document_with_photos;

    #[test]
    fn the_docx_lists_the_photos_after_the_body() {
        let document = document_with_photos();
        let docx = document.to_docx().unwrap();
        let xml = super::super::docx::tests::document_xml(&docx);
        let archive = zip::ZipArchive::new(std::io::Cursor::new(docx)).unwrap();
        let heading = xml.find("Приложения:").unwrap();
        let item = xml.find(&document.attachments[0].label).unwrap();
        let date = xml.find("1 декабря 2026 г.").unwrap();
        assert!(xml.find("Заменить лампы").unwrap() < heading);
        assert!(heading < item && item < date);
        assert!(
            archive
                .file_names()
                .all(|name| !name.starts_with("word/media"))
        );
    }
}

#[cfg(test)]
mod tests_support {
    use std::sync::Arc;

    use super::*;
    use crate::photo::photo_label;
    use crate::profile::Profile;

    pub(super) fn document_with_photos() -> FiledDocument {
        let bytes = Arc::new(vec![0xFF, 0xD8, 0xFF, 0xD9]);
        FiledDocument::new(
            "Не работает освещение на лестнице",
            "На лестнице неделю не горит свет.\n\nПрошу:\n1. Заменить лампы.",
            &Profile::default(),
            jiff::civil::date(2026, 12, 1),
        )
        .with_photos(vec![DocumentPhoto {
            number: 1,
            format: PhotoFormat::Jpeg,
            width: 4,
            height: 3,
            label: photo_label(1, PhotoFormat::Jpeg, 1_258_291),
            bytes,
        }])
    }
}
