//! The DOCX form of a [`FiledDocument`] (ADR 16): real paragraphs with named styles on A4, so
//! the resident can edit the request in Word or LibreOffice before printing it.
//!
//! The font is named, not embedded (Times New Roman; LibreOffice maps it to the metric-compatible
//! Liberation Serif). The package's dates are the document's date, so the same document gives the
//! same bytes.
//!
//! A collective request's co-signers table is a real Word table (`w:tbl`) on a page of its own,
//! its first row marked as the header row (`w:tblHeader`), so Word and LibreOffice repeat it on
//! every page the table continues on, and rows tall enough to write a name in by hand.

use docx_rs::{
    Docx, HeightRule, LineSpacing, PageMargin, Paragraph, Run, RunFonts, Style, StyleType, Table,
    TableCell, TableRow, VAlignType, WidthType,
};

use super::{
    CO_SIGNERS_COLUMNS, CO_SIGNERS_HEADING, CO_SIGNERS_SENTENCE, CoSigners, FiledDocument,
};

/// A4 and the margins of the PDF, in twentieths of a point.
const PAGE_WIDTH: u32 = 11_906;
const PAGE_HEIGHT: u32 = 16_838;
const MARGIN_LEFT: i32 = 1_418;
const MARGIN_RIGHT: i32 = 850;
const MARGIN_TOP_BOTTOM: i32 = 1_134;
/// The header block starts where it does in the PDF: 45 % into the text width.
const HEADER_INDENT: i32 = (PAGE_WIDTH as i32 - MARGIN_LEFT - MARGIN_RIGHT) * 45 / 100;

const FONT: &str = "Times New Roman";

/// The text width, in twentieths of a point.
const TEXT_WIDTH: i32 = PAGE_WIDTH as i32 - MARGIN_LEFT - MARGIN_RIGHT;
/// A co-signer's row: 9 mm, as in the PDF.
const TABLE_ROW_HEIGHT: f32 = 510.0;
/// The columns' shares of the text width, as in the PDF: №, ФИО, Квартира, Подпись.
const TABLE_COLUMN_PERCENT: [i32; 4] = [8, 50, 16, 26];
/// docx-rs writes no `w:tblHeader`; the header row is the only one marked «can't split», and
/// that mark is where the header flag is added to the package's XML.
const HEADER_ROW_MARK: &str = "<w:cantSplit />";
const HEADER_ROW_FLAGS: &str = "<w:cantSplit /><w:tblHeader />";

const HEADER_STYLE: &str = "ZayavkaHeader";
const TITLE_STYLE: &str = "ZayavkaTitle";
const BODY_STYLE: &str = "ZayavkaBody";
const SIGNATURE_STYLE: &str = "ZayavkaSignature";

/// Why a DOCX could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DocxError {
    /// The package could not be written.
    #[error("не удалось составить DOCX: {0}")]
    Package(String),
}

fn paragraph(style: &str, text: &str) -> Paragraph {
    Paragraph::new()
        .add_run(Run::new().add_text(text))
        .style(style)
}

fn styles() -> [Style; 4] {
    [
        Style::new(HEADER_STYLE, StyleType::Paragraph)
            .name("Шапка")
            .indent(Some(HEADER_INDENT), None, None, None)
            .line_spacing(LineSpacing::new().after(0)),
        Style::new(TITLE_STYLE, StyleType::Paragraph)
            .name("Заголовок заявки")
            .size(28)
            .line_spacing(LineSpacing::new().before(480).after(240)),
        Style::new(BODY_STYLE, StyleType::Paragraph)
            .name("Текст заявки")
            .line_spacing(LineSpacing::new().after(120)),
        Style::new(SIGNATURE_STYLE, StyleType::Paragraph)
            .name("Подпись")
            .line_spacing(LineSpacing::new().before(360)),
    ]
}

/// The co-signers table: a header row repeated on every page, then the numbered empty rows.
fn co_signers_table(co_signers: CoSigners) -> Table {
    let widths: Vec<usize> = TABLE_COLUMN_PERCENT
        .iter()
        .map(|percent| usize::try_from(TEXT_WIDTH * percent / 100).unwrap_or(0))
        .collect();
    let cell = |index: usize, text: &str| {
        TableCell::new()
            .width(widths[index], WidthType::Dxa)
            .vertical_align(VAlignType::Center)
            .add_paragraph(Paragraph::new().add_run(Run::new().add_text(text)))
    };
    let header = TableRow::new(
        CO_SIGNERS_COLUMNS
            .iter()
            .enumerate()
            .map(|(index, text)| cell(index, text))
            .collect(),
    )
    .cant_split();
    let mut rows = vec![header];
    for number in 1..=co_signers.rows() {
        let number = number.to_string();
        rows.push(
            TableRow::new(
                [number.as_str(), "", "", ""]
                    .iter()
                    .enumerate()
                    .map(|(index, text)| cell(index, text))
                    .collect(),
            )
            .row_height(TABLE_ROW_HEIGHT)
            .height_rule(HeightRule::AtLeast),
        );
    }
    Table::new(rows)
        .set_grid(widths.clone())
        .width(widths.iter().sum(), WidthType::Dxa)
}

impl FiledDocument {
    /// The document as DOCX: one Word paragraph per header line and per line of the body, and
    /// for a collective request the co-signers heading, sentence and table.
    pub fn to_docx(&self) -> Result<Vec<u8>, DocxError> {
        let date = format!("{}T00:00:00Z", self.date);
        let mut docx = Docx::new()
            .page_size(PAGE_WIDTH, PAGE_HEIGHT)
            .page_margin(
                PageMargin::new()
                    .top(MARGIN_TOP_BOTTOM)
                    .bottom(MARGIN_TOP_BOTTOM)
                    .left(MARGIN_LEFT)
                    .right(MARGIN_RIGHT),
            )
            .default_fonts(
                RunFonts::new()
                    .ascii(FONT)
                    .hi_ansi(FONT)
                    .cs(FONT)
                    .east_asia(FONT),
            )
            .default_size(24)
            .created_at(&date)
            .updated_at(&date);
        for style in styles() {
            docx = docx.add_style(style);
        }
        for (index, block) in [&self.recipient, &self.sender].iter().enumerate() {
            if index > 0 {
                docx = docx.add_paragraph(paragraph(HEADER_STYLE, ""));
            }
            for line in block.iter() {
                let text = format!("{}: {}", line.label, line.shown());
                docx = docx.add_paragraph(paragraph(HEADER_STYLE, &text));
            }
        }
        docx = docx.add_paragraph(paragraph(TITLE_STYLE, &self.title));
        for line in self.body.split('\n').filter(|line| !line.trim().is_empty()) {
            docx = docx.add_paragraph(paragraph(BODY_STYLE, line));
        }
        // The «Приложения» list only: the photos themselves are in the PDF (ADR 18).
        for line in self.appendix_lines() {
            docx = docx.add_paragraph(paragraph(BODY_STYLE, &line));
        }
        if let Some(co_signers) = self.co_signers {
            docx = docx
                .add_paragraph(paragraph(TITLE_STYLE, CO_SIGNERS_HEADING).page_break_before(true))
                .add_paragraph(paragraph(BODY_STYLE, CO_SIGNERS_SENTENCE))
                .add_table(co_signers_table(co_signers));
        }
        docx = docx
            .add_paragraph(paragraph(SIGNATURE_STYLE, &self.date_ru))
            .add_paragraph(paragraph(SIGNATURE_STYLE, &self.signature_line()));
        let mut bytes = std::io::Cursor::new(Vec::new());
        if self.co_signers.is_none() {
            docx.pack(&mut bytes)
                .map_err(|error| DocxError::Package(error.to_string()))?;
            return Ok(bytes.into_inner());
        }
        let mut package = docx.build();
        let document = String::from_utf8(std::mem::take(&mut package.document))
            .map_err(|error| DocxError::Package(error.to_string()))?;
        if document.matches(HEADER_ROW_MARK).count() != 1 {
            return Err(DocxError::Package(
                "строка заголовка таблицы не найдена".to_owned(),
            ));
        }
        package.document = document
            .replacen(HEADER_ROW_MARK, HEADER_ROW_FLAGS, 1)
            .into_bytes();
        package
            .pack(&mut bytes)
            .map_err(|error| DocxError::Package(error.to_string()))?;
        Ok(bytes.into_inner())
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::io::Read as _;

    use super::*;
    use crate::profile::{Profile, ProfileField};

    fn document() -> FiledDocument {
        let profile = Profile::default()
            .with_value(
                ProfileField::FullName,
                Some("Иванова Мария Петровна".to_owned()),
            )
            .with_value(
                ProfileField::CompanyName,
                Some("ООО «УК „Дом“» & Ко <1>".to_owned()),
            );
        FiledDocument::new(
            "Не работает освещение на лестнице",
            "На лестнице между третьим и четвёртым этажами неделю не горит свет.\n\n\
             Прошу:\n1. Заменить лампы на лестнице.",
            &profile,
            jiff::civil::date(2026, 12, 1),
        )
    }

    /// The text of every `<w:t>` in `word/document.xml`, one line per paragraph.
    fn paragraphs(docx: &[u8]) -> Vec<String> {
        document_xml(docx)
            .split("</w:p>")
            .filter(|part| part.contains("<w:p"))
            .map(|part| {
                let mut text = String::new();
                for piece in part.split("<w:t").skip(1) {
                    let start = piece.find('>').unwrap() + 1;
                    let end = piece.find("</w:t>").unwrap_or(start);
                    text.push_str(&piece[start..end]);
                }
                text.replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&apos;", "'")
                    .replace("&amp;", "&")
            })
            .collect()
    }

    #[test]
    fn the_docx_holds_the_header_and_the_request_as_paragraphs() {
        let document = document();
        let docx = document.to_docx().unwrap();
        let paragraphs: Vec<String> = paragraphs(&docx)
            .into_iter()
            .filter(|text| !text.is_empty())
            .collect();
        let expected: Vec<String> = document
            .to_text()
            .lines()
            .filter(|line| !line.is_empty())
            .map(str::to_owned)
            .collect();
        assert_eq!(paragraphs, expected);
    }

    #[test]
    fn the_same_document_gives_the_same_docx_bytes() {
        let first = document().to_docx().unwrap();
        assert_eq!(first, document().to_docx().unwrap());
        assert!(first.starts_with(b"PK"));
    }

    /// The package's `word/document.xml`, for the tests of every part a document may have.
    pub(crate) fn document_xml(docx: &[u8]) -> String {
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(docx)).unwrap();
        let mut xml = String::new();
        archive
            .by_name("word/document.xml")
            .unwrap()
            .read_to_string(&mut xml)
            .unwrap();
        xml
    }

    #[test]
    fn a_collective_docx_has_a_word_table_with_a_repeated_header_row() {
        let plain = document().to_docx().unwrap();
        assert!(
            !document_xml(&plain).contains("<w:tbl>"),
            "no table without co-signers"
        );
        let collective = document().with_co_signers(CoSigners::default());
        let docx = collective.to_docx().unwrap();
        let xml = document_xml(&docx);
        assert_eq!(xml.matches("<w:tbl>").count(), 1);
        assert_eq!(
            xml.matches("<w:tr>").count() + xml.matches("<w:tr ").count(),
            21
        );
        assert_eq!(xml.matches("<w:tblHeader />").count(), 1);
        let header_row = xml.split("</w:tr>").next().unwrap();
        assert!(
            header_row.contains("<w:tblHeader />"),
            "the first row is the header"
        );
        let texts = paragraphs(&docx);
        for heading in [
            "Подписи жителей",
            "Заявку поддерживают жители дома:",
            "№",
            "ФИО",
            "Квартира",
            "Подпись",
            "1",
            "20",
        ] {
            assert!(
                texts.iter().any(|text| text == heading),
                "{heading}: {texts:?}"
            );
        }
        assert!(
            xml.contains("<w:pageBreakBefore />"),
            "the table starts a page"
        );
        // The request itself is what the plain document has.
        let plain_texts = paragraphs(&plain);
        let request = plain_texts
            .iter()
            .position(|text| text == "1 декабря 2026 г.")
            .unwrap();
        assert_eq!(texts[..request], plain_texts[..request]);
        assert_eq!(texts[request], "Подписи жителей");
        assert_eq!(docx, collective.to_docx().unwrap(), "the same bytes");
    }
}
