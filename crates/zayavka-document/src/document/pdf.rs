//! The PDF form of a [`FiledDocument`] (ADR 16): A4, printable margins, DejaVu Serif embedded as
//! a subset, the title and the language in the metadata, and the same bytes for the same
//! document.
//!
//! krilla writes the PDF; the layout is ours and deliberately plain: left-aligned lines broken
//! greedily at spaces over the font's advance widths (a word wider than the line is broken
//! between characters), the header in the right half of the page as on a paper request, and
//! a page break wherever the next line does not fit, with the date and signature kept together.
//!
//! A collective request's co-signers table starts on a page of its own: a heading, a sentence,
//! and ruled rows tall enough to write a name in by hand; where the rows run past a page, the
//! next page starts with the table's header row again.

use std::sync::Arc;

use krilla::Document;
use krilla::geom::{PathBuilder, Point};
use krilla::metadata::{DateTime, Metadata};
use krilla::page::PageSettings;
use krilla::paint::Stroke;
use krilla::text::{Font, TextDirection};

use super::page::{
    BODY_SIZE, CONTENT_WIDTH, LINE_HEIGHT, MARGIN_BOTTOM, MARGIN_LEFT, MARGIN_TOP, PAGE_HEIGHT,
    PAGE_WIDTH, PdfError, TITLE_SIZE,
};
use super::{
    CO_SIGNERS_COLUMNS, CO_SIGNERS_HEADING, CO_SIGNERS_SENTENCE, CoSigners, FiledDocument,
};

/// DejaVu Serif: full Cyrillic, «ё», «№», guillemets and dashes; its licence is in
/// `fonts/LICENSE-DejaVu.txt`.
static FONT_BYTES: &[u8] = include_bytes!("../../../../fonts/DejaVuSerif.ttf");

/// Where the header block starts, as on a paper request: the right part of the page.
const HEADER_LEFT: f32 = MARGIN_LEFT + CONTENT_WIDTH * 0.45;
const HEADER_WIDTH: f32 = CONTENT_WIDTH * 0.55;

/// A co-signer's row: 9 mm, room for a name written by hand.
const TABLE_ROW_HEIGHT: f32 = 25.51;
/// The table's header row.
const TABLE_HEADER_HEIGHT: f32 = 20.0;
/// The columns' shares of the text width: №, ФИО, Квартира, Подпись.
const TABLE_COLUMN_SHARES: [f32; 4] = [0.08, 0.50, 0.16, 0.26];
/// The ruling's width in points: thin, yet it prints and photocopies.
const RULE_WIDTH: f32 = 0.75;

/// Measures text in the embedded font.
struct Metrics<'a> {
    face: ttf_parser::Face<'a>,
}

impl Metrics<'_> {
    fn new() -> Metrics<'static> {
        Metrics {
            face: ttf_parser::Face::parse(FONT_BYTES, 0).expect("the embedded font parses"),
        }
    }

    /// The width of `text` at `size` points.
    fn width(&self, text: &str, size: f32) -> f32 {
        let units_per_em = f32::from(self.face.units_per_em());
        let units: f32 = text
            .chars()
            .map(|c| {
                self.face
                    .glyph_index(c)
                    .and_then(|glyph| self.face.glyph_hor_advance(glyph))
                    .map_or(0.0, f32::from)
            })
            .sum();
        units * size / units_per_em
    }

    /// `text` (one paragraph, no line breaks) broken into lines no wider than `max_width`.
    fn wrap(&self, text: &str, size: f32, max_width: f32) -> Vec<String> {
        let mut lines = Vec::new();
        let mut current = String::new();
        for word in text.split(' ') {
            let candidate = if current.is_empty() {
                word.to_owned()
            } else {
                format!("{current} {word}")
            };
            if self.width(&candidate, size) <= max_width {
                current = candidate;
                continue;
            }
            if !current.is_empty() {
                lines.push(std::mem::take(&mut current));
            }
            // A word wider than the line is broken between characters; no text is dropped.
            for c in word.chars() {
                let mut longer = current.clone();
                longer.push(c);
                if !current.is_empty() && self.width(&longer, size) > max_width {
                    lines.push(std::mem::replace(&mut current, c.to_string()));
                } else {
                    current = longer;
                }
            }
        }
        lines.push(current);
        lines
    }
}

/// One line placed on a page.
#[derive(Debug, Clone, PartialEq)]
struct Placed {
    page: usize,
    x: f32,
    baseline: f32,
    size: f32,
    text: String,
}

/// One straight line of a table's ruling, from `(x1, y1)` to `(x2, y2)`, top-down coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rule {
    page: usize,
    x1: f32,
    y1: f32,
    x2: f32,
    y2: f32,
}

/// Places lines top to bottom, starting a page wherever the next one does not fit.
struct Pages {
    placed: Vec<Placed>,
    rules: Vec<Rule>,
    page: usize,
    y: f32,
}

impl Pages {
    fn new() -> Pages {
        Pages {
            placed: Vec::new(),
            rules: Vec::new(),
            page: 0,
            y: MARGIN_TOP,
        }
    }

    fn rule(&mut self, x1: f32, y1: f32, x2: f32, y2: f32) {
        self.rules.push(Rule {
            page: self.page,
            x1,
            y1,
            x2,
            y2,
        });
    }

    /// One table row of `height` at the current position: its cells' texts (left-aligned, the
    /// first centred), its bottom rule, its column rules, and its top rule when `top` is set.
    fn table_row(&mut self, height: f32, cells: [&str; 4], top: bool, metrics: &Metrics<'_>) {
        let row_top = self.y;
        let row_bottom = row_top + height;
        let mut edges = [MARGIN_LEFT; 5];
        for (index, share) in TABLE_COLUMN_SHARES.iter().enumerate() {
            edges[index + 1] = edges[index] + CONTENT_WIDTH * share;
        }
        // The last edge is the text's right margin exactly, whatever the rounding of the shares.
        edges[4] = MARGIN_LEFT + CONTENT_WIDTH;
        let baseline = row_top + height * 0.5 + BODY_SIZE * 0.35;
        for (index, text) in cells.iter().enumerate() {
            if text.is_empty() {
                continue;
            }
            let x = if index == 0 {
                let width = edges[1] - edges[0];
                edges[0] + (width - metrics.width(text, BODY_SIZE)) / 2.0
            } else {
                edges[index] + BODY_SIZE * 0.4
            };
            self.placed.push(Placed {
                page: self.page,
                x,
                baseline,
                size: BODY_SIZE,
                text: (*text).to_owned(),
            });
        }
        if top {
            self.rule(edges[0], row_top, edges[4], row_top);
        }
        self.rule(edges[0], row_bottom, edges[4], row_bottom);
        for edge in edges {
            self.rule(edge, row_top, edge, row_bottom);
        }
        self.y = row_bottom;
    }

    /// The co-signers part: on a page of its own, the heading, the sentence and the table, the
    /// header row repeated at the top of every page the rows continue on.
    fn co_signers(&mut self, co_signers: CoSigners, metrics: &Metrics<'_>) {
        let line_gap = BODY_SIZE * LINE_HEIGHT;
        self.new_page();
        for line in metrics.wrap(CO_SIGNERS_HEADING, TITLE_SIZE, CONTENT_WIDTH) {
            self.line(MARGIN_LEFT, TITLE_SIZE, line);
        }
        self.gap(line_gap);
        for line in metrics.wrap(CO_SIGNERS_SENTENCE, BODY_SIZE, CONTENT_WIDTH) {
            self.line(MARGIN_LEFT, BODY_SIZE, line);
        }
        self.gap(line_gap * 0.5);
        self.table_row(TABLE_HEADER_HEIGHT, CO_SIGNERS_COLUMNS, true, metrics);
        for index in 1..=co_signers.rows() {
            if self.remaining() < TABLE_ROW_HEIGHT {
                self.new_page();
                self.table_row(TABLE_HEADER_HEIGHT, CO_SIGNERS_COLUMNS, true, metrics);
            }
            let number = index.to_string();
            self.table_row(TABLE_ROW_HEIGHT, [&number, "", "", ""], false, metrics);
        }
    }

    fn remaining(&self) -> f32 {
        PAGE_HEIGHT - MARGIN_BOTTOM - self.y
    }

    fn new_page(&mut self) {
        self.page += 1;
        self.y = MARGIN_TOP;
    }

    fn line(&mut self, x: f32, size: f32, text: String) {
        let height = size * LINE_HEIGHT;
        if self.remaining() < height {
            self.new_page();
        }
        self.y += height;
        // The baseline sits a fifth of the line height above the line's bottom.
        let baseline = self.y - height * 0.2;
        if !text.is_empty() {
            self.placed.push(Placed {
                page: self.page,
                x,
                baseline,
                size,
                text,
            });
        }
    }

    /// Vertical space, dropped at the top of a page.
    fn gap(&mut self, height: f32) {
        if self.y > MARGIN_TOP {
            self.y = (self.y + height).min(PAGE_HEIGHT - MARGIN_BOTTOM);
        }
    }
}

/// Lays the document out: every line with its page and position.
fn layout(document: &FiledDocument, metrics: &Metrics<'_>) -> Pages {
    let mut pages = Pages::new();
    let line_gap = BODY_SIZE * LINE_HEIGHT;
    for (index, block) in [&document.recipient, &document.sender].iter().enumerate() {
        if index > 0 {
            pages.gap(line_gap * 0.5);
        }
        for header in block.iter() {
            let text = format!("{}: {}", header.label, header.shown());
            for line in metrics.wrap(&text, BODY_SIZE, HEADER_WIDTH) {
                pages.line(HEADER_LEFT, BODY_SIZE, line);
            }
        }
    }
    pages.gap(line_gap * 2.0);
    for line in metrics.wrap(&document.title, TITLE_SIZE, CONTENT_WIDTH) {
        pages.line(MARGIN_LEFT, TITLE_SIZE, line);
    }
    pages.gap(line_gap);
    for paragraph_line in document.body.split('\n') {
        if paragraph_line.trim().is_empty() {
            pages.gap(line_gap * 0.6);
            continue;
        }
        for line in metrics.wrap(paragraph_line, BODY_SIZE, CONTENT_WIDTH) {
            pages.line(MARGIN_LEFT, BODY_SIZE, line);
        }
    }
    // The «Приложения» list follows the body, as on a paper request (ADR 18).
    let appendix = document.appendix_lines();
    if !appendix.is_empty() {
        pages.gap(line_gap * 0.6);
        for item in appendix {
            for line in metrics.wrap(&item, BODY_SIZE, CONTENT_WIDTH) {
                pages.line(MARGIN_LEFT, BODY_SIZE, line);
            }
        }
    }
    if let Some(co_signers) = document.co_signers {
        pages.co_signers(co_signers, metrics);
    }
    // The date and the signature stay together, on the body's last page when they fit.
    let signature = document.signature_line();
    let signature_lines = metrics.wrap(&signature, BODY_SIZE, CONTENT_WIDTH);
    let closing_height = line_gap * (3.5 + signature_lines.len() as f32);
    if pages.remaining() < closing_height {
        pages.new_page();
    }
    pages.gap(line_gap * 1.5);
    pages.line(MARGIN_LEFT, BODY_SIZE, document.date_ru.clone());
    pages.gap(line_gap);
    for line in signature_lines {
        pages.line(MARGIN_LEFT, BODY_SIZE, line);
    }
    pages
}

impl FiledDocument {
    /// The document as a PDF. The same document gives the same bytes: the only date written is
    /// the document's own, and nothing comes from the clock or a random source.
    pub fn to_pdf(&self) -> Result<Vec<u8>, PdfError> {
        let metrics = Metrics::new();
        let pages = layout(self, &metrics);
        let font = Font::new(Arc::new(FONT_BYTES.to_vec()).into(), 0)
            .ok_or_else(|| PdfError::Render("шрифт не читается".to_owned()))?;
        let mut pdf = Document::new();
        let settings =
            PageSettings::from_wh(PAGE_WIDTH, PAGE_HEIGHT).expect("A4 is a valid page size");
        for page_index in 0..=pages.page {
            let mut page = pdf.start_page_with(settings.clone());
            let mut surface = page.surface();
            for placed in pages.placed.iter().filter(|p| p.page == page_index) {
                surface.draw_text(
                    Point::from_xy(placed.x, placed.baseline),
                    font.clone(),
                    placed.size,
                    &placed.text,
                    false,
                    TextDirection::Auto,
                );
            }
            let mut ruling = PathBuilder::new();
            for rule in pages.rules.iter().filter(|r| r.page == page_index) {
                ruling.move_to(rule.x1, rule.y1);
                ruling.line_to(rule.x2, rule.y2);
            }
            // A page with no table draws nothing here, so a resident's own request keeps the
            // bytes it had before tables existed.
            if let Some(path) = ruling.finish() {
                surface.set_stroke(Some(Stroke {
                    width: RULE_WIDTH,
                    ..Stroke::default()
                }));
                surface.draw_path(&path);
                surface.set_stroke(None);
            }
            surface.finish();
            page.finish();
        }
        super::appendix::add_photo_pages(&mut pdf, &font, &settings, &self.attachments)?;
        let date = DateTime::new(self.date.year().unsigned_abs())
            .month(self.date.month().unsigned_abs())
            .day(self.date.day().unsigned_abs());
        pdf.set_metadata(
            Metadata::new()
                .title(self.title.clone())
                .language("ru".to_owned())
                .creator("Заявка".to_owned())
                .creation_date(date),
        );
        pdf.finish()
            .map_err(|error| PdfError::Render(format!("{error:?}")))
    }

    /// How many pages the PDF has: the request's, then one per photo.
    pub fn pdf_page_count(&self) -> usize {
        layout(self, &Metrics::new()).page + 1 + self.attachments.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::page::MARGIN_RIGHT;
    use crate::profile::{Profile, ProfileField};

    fn document(body: &str) -> FiledDocument {
        let profile = Profile::default()
            .with_value(
                ProfileField::FullName,
                Some("Иванова Мария Петровна".to_owned()),
            )
            .with_value(
                ProfileField::CompanyName,
                Some("ООО «Управляющая компания „Дом“»".to_owned()),
            );
        FiledDocument::new(
            "Не работает освещение на лестнице",
            body,
            &profile,
            jiff::civil::date(2026, 12, 1),
        )
    }

    const BODY: &str = "На лестнице между третьим и четвёртым этажами неделю не горит свет.\n\n\
                        Прошу:\n1. Заменить лампы на лестнице.";

    #[test]
    fn lines_break_at_spaces_and_a_long_word_between_characters() {
        let metrics = Metrics::new();
        let text = "свет на лестнице не горит уже неделю ".repeat(10);
        let lines = metrics.wrap(text.trim_end(), BODY_SIZE, CONTENT_WIDTH);
        assert!(lines.len() > 3, "{lines:?}");
        for line in &lines {
            assert!(metrics.width(line, BODY_SIZE) <= CONTENT_WIDTH, "{line}");
        }
        assert_eq!(lines.join(" "), text.trim_end(), "no text is lost or added");
        let word = "ё".repeat(200);
        let lines = metrics.wrap(&word, BODY_SIZE, CONTENT_WIDTH);
        assert!(lines.len() > 1);
        assert_eq!(lines.concat(), word);
    }

    #[test]
    fn a_typical_request_is_one_page_and_the_same_document_gives_the_same_bytes() {
        let document = document(BODY);
        assert_eq!(document.pdf_page_count(), 1);
        let first = document.to_pdf().unwrap();
        assert!(first.starts_with(b"%PDF-"));
        assert_eq!(first, document.to_pdf().unwrap());
        let mut next_day = document.clone();
        next_day.date = jiff::civil::date(2026, 12, 2);
        next_day.date_ru = super::super::date_ru(next_day.date);
        assert_ne!(first, next_day.to_pdf().unwrap());
    }

    #[test]
    fn the_longest_request_breaks_pages_and_keeps_every_line() {
        // 2,500 characters of body, the assembled maximum, in short paragraphs.
        let paragraph = "Свет на лестнице между третьим и четвёртым этажами не горит уже неделю, \
                         жильцы спотыкаются.";
        let mut body = String::new();
        while body.chars().count() + paragraph.len() / 2 < 2_400 {
            body.push_str(paragraph);
            body.push_str("\n\n");
        }
        body.push_str("Прошу:\n1. Заменить лампы.");
        let document = document(&body);
        let pages = layout(&document, &Metrics::new());
        assert!(
            pages.page >= 1,
            "the longest request takes more than a page"
        );
        for placed in &pages.placed {
            assert!(placed.baseline <= PAGE_HEIGHT - MARGIN_BOTTOM, "{placed:?}");
            assert!(placed.baseline >= MARGIN_TOP, "{placed:?}");
        }
        let last = pages.placed.last().unwrap();
        let date = &pages.placed[pages.placed.len() - 2];
        assert_eq!(date.text, "1 декабря 2026 г.");
        assert_eq!(
            date.page, last.page,
            "the date and the signature stay together"
        );
        document.to_pdf().unwrap();
    }

    #[test]
    fn a_collective_request_puts_the_table_on_the_next_page_and_the_date_after_it() {
        let plain = document(BODY);
        assert!(
            layout(&plain, &Metrics::new()).rules.is_empty(),
            "no ruling without a table"
        );
        let collective = plain.clone().with_co_signers(CoSigners::default());
        let pages = layout(&collective, &Metrics::new());
        assert_eq!(pages.page, 1, "the request, then one sheet of signatures");
        assert_eq!(collective.pdf_page_count(), 2);
        let heading = pages
            .placed
            .iter()
            .find(|placed| placed.text == CO_SIGNERS_HEADING)
            .unwrap();
        assert_eq!(heading.page, 1);
        let numbers: Vec<&Placed> = pages
            .placed
            .iter()
            .filter(|placed| placed.text.parse::<u32>().is_ok())
            .collect();
        assert_eq!(numbers.len(), 20);
        let date = &pages.placed[pages.placed.len() - 2];
        assert_eq!(date.text, "1 декабря 2026 г.");
        assert!(
            date.baseline > numbers.last().unwrap().baseline,
            "the date follows the table"
        );
        for rule in &pages.rules {
            for x in [rule.x1, rule.x2] {
                assert!((MARGIN_LEFT - 0.01..=PAGE_WIDTH - MARGIN_RIGHT + 0.01).contains(&x));
            }
            for y in [rule.y1, rule.y2] {
                assert!(
                    (MARGIN_TOP..=PAGE_HEIGHT - MARGIN_BOTTOM).contains(&y),
                    "{rule:?}"
                );
            }
        }
        let bytes = collective.to_pdf().unwrap();
        assert_eq!(bytes, collective.to_pdf().unwrap(), "the same bytes");
        assert_ne!(bytes, plain.to_pdf().unwrap());
    }

    #[test]
    fn a_long_table_breaks_pages_and_repeats_its_header_row_on_each() {
        let document = document(BODY).with_co_signers(CoSigners::new(60));
        let pages = layout(&document, &Metrics::new());
        assert!(
            pages.page >= 3,
            "60 rows take more than two pages: {}",
            pages.page
        );
        for page in 1..=pages.page {
            let on_page: Vec<&Placed> = pages
                .placed
                .iter()
                .filter(|placed| placed.page == page)
                .collect();
            let has_rows = on_page
                .iter()
                .any(|placed| placed.text.parse::<u32>().is_ok());
            if has_rows {
                assert_eq!(
                    on_page.iter().filter(|placed| placed.text == "ФИО").count(),
                    1,
                    "page {page} starts with the header row"
                );
            }
        }
        let numbers: Vec<u32> = pages
            .placed
            .iter()
            .filter_map(|placed| placed.text.parse().ok())
            .collect();
        assert_eq!(
            numbers,
            (1..=60).collect::<Vec<u32>>(),
            "every row, once, in order"
        );
        for placed in &pages.placed {
            assert!(placed.baseline <= PAGE_HEIGHT - MARGIN_BOTTOM, "{placed:?}");
        }
        document.to_pdf().unwrap();
    }
}
