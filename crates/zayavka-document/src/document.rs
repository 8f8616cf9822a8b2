//! The document a resident files: the header from the profile («Кому», «От»), the title, the
//! body exactly as assembled (or as the resident last edited it), the date in Russian form and
//! a signature line.
//!
//! [`FiledDocument`] is the one model every format renders; [`FiledDocument::to_text`] is the
//! plain-text form, [`FiledDocument::to_pdf`] the PDF and [`FiledDocument::to_docx`] the DOCX
//! (ADR 16). A field missing from the profile becomes a marked blank to fill in by hand, never
//! an invented value. The date is an argument: nothing here reads the clock, so the same draft,
//! profile and date always give the same document.
//!
//! A collective request ([`FiledDocument::with_co_signers`]) adds, after the body and before
//! the date and signature, a heading, one sentence and a table «№ | ФИО | Квартира | Подпись»
//! of empty rows for neighbours to sign by hand ([`CoSigners`]). The rows are always empty: the
//! only personal data a document carries is its sender's.

mod appendix;
mod docx;
mod page;
mod pdf;

use jiff::civil::Date;
use serde::Serialize;

use crate::profile::{Profile, ProfileField};

pub use docx::DocxError;
pub use page::PdfError;

/// What a missing value is printed as: a line long enough to write on.
pub const BLANK: &str = "________________";

/// The heading of the co-signers part of a collective request.
pub const CO_SIGNERS_HEADING: &str = "Подписи жителей";

/// The sentence above the co-signers table: a plain statement of what the signatures mean.
pub const CO_SIGNERS_SENTENCE: &str = "Заявку поддерживают жители дома:";

/// The co-signers table's column headings, in order.
pub const CO_SIGNERS_COLUMNS: [&str; 4] = ["№", "ФИО", "Квартира", "Подпись"];

/// The empty rows a collective request has unless told otherwise: one entrance of a five-storey
/// building, the commonest block of flats (four flats a floor, five floors), one signature a
/// flat. At a row height a hand can write a name in, twenty rows and the table's heading fill
/// one A4 page with the date and the signature below them, so the collective request is the
/// request on its page(s) and one sheet of signatures; a larger entrance photocopies that
/// sheet (every page of the table repeats its header row).
pub const DEFAULT_CO_SIGNER_ROWS: u32 = 20;

/// The most empty rows a table may have: ten pages of signatures, far past any entrance.
pub const MAX_CO_SIGNER_ROWS: u32 = 250;

/// The co-signers table of a collective request: how many empty rows it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CoSigners {
    rows: u32,
}

impl CoSigners {
    /// A table of `rows` empty rows, between 1 and [`MAX_CO_SIGNER_ROWS`] (clamped there, so a
    /// table is never empty and never absurdly long).
    pub fn new(rows: u32) -> CoSigners {
        CoSigners {
            rows: rows.clamp(1, MAX_CO_SIGNER_ROWS),
        }
    }

    /// How many empty rows the table has.
    pub fn rows(self) -> u32 {
        self.rows
    }
}

impl Default for CoSigners {
    fn default() -> CoSigners {
        CoSigners::new(DEFAULT_CO_SIGNER_ROWS)
    }
}

/// The months in the genitive case, as a Russian date names them («1 декабря»).
const MONTHS_GENITIVE: [&str; 12] = [
    "января",
    "февраля",
    "марта",
    "апреля",
    "мая",
    "июня",
    "июля",
    "августа",
    "сентября",
    "октября",
    "ноября",
    "декабря",
];

/// `date` as a Russian document writes it: «1 декабря 2026 г.».
pub fn date_ru(date: Date) -> String {
    let month = MONTHS_GENITIVE[usize::from(date.month().unsigned_abs()) - 1];
    format!("{} {month} {} г.", date.day(), date.year())
}

/// One line of the header: a label and the profile's value, or a blank.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeaderLine {
    /// The label printed before the value («Кому», «Адрес», …).
    pub label: &'static str,
    /// The profile field the value comes from.
    pub field: ProfileField,
    /// The value; `None` prints as a blank to fill in by hand.
    pub value: Option<String>,
    /// What to write in the blank, when the label alone does not say it.
    pub blank_hint: Option<&'static str>,
}

impl HeaderLine {
    fn new(label: &'static str, field: ProfileField, profile: &Profile) -> HeaderLine {
        HeaderLine {
            label,
            field,
            value: profile.get(field).map(str::to_owned),
            blank_hint: None,
        }
    }

    fn hinted(mut self, hint: &'static str) -> HeaderLine {
        self.blank_hint = Some(hint);
        self
    }

    /// The value as printed: the profile's, or the blank with its hint.
    pub fn shown(&self) -> String {
        match (&self.value, self.blank_hint) {
            (Some(value), _) => value.clone(),
            (None, Some(hint)) => format!("{BLANK} ({hint})"),
            (None, None) => BLANK.to_owned(),
        }
    }
}

/// A request as it is filed: header, title, body, date and signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FiledDocument {
    /// To whom: the management company's name and address.
    pub recipient: Vec<HeaderLine>,
    /// From whom: the resident's name, address, apartment, phone and e-mail.
    pub sender: Vec<HeaderLine>,
    /// The request's title.
    pub title: String,
    /// The body exactly as assembled or as the resident last edited it; paragraphs are separated
    /// by a blank line.
    pub body: String,
    /// The date the document is dated.
    pub date: Date,
    /// The date as printed («1 декабря 2026 г.»).
    pub date_ru: String,
    /// The name under the signature line; `None` prints as a blank.
    pub signatory: Option<String>,
    /// The co-signers table of a collective request; `None` for a resident's own request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub co_signers: Option<CoSigners>,
    /// The photos attached to the draft, listed under «Приложения» after the body and placed
    /// one per page after the request in the PDF (ADR 18); none unless
    /// [`FiledDocument::with_photos`] adds them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<crate::photo::DocumentPhoto>,
}

impl FiledDocument {
    /// The document of a request with this title and body.
    pub fn new(title: &str, body: &str, profile: &Profile, date: Date) -> FiledDocument {
        FiledDocument {
            recipient: vec![
                HeaderLine::new("Кому", ProfileField::CompanyName, profile)
                    .hinted("название управляющей организации"),
                HeaderLine::new("Адрес", ProfileField::CompanyAddress, profile),
            ],
            sender: vec![
                HeaderLine::new("От", ProfileField::FullName, profile)
                    .hinted("фамилия, имя, отчество"),
                HeaderLine::new("Адрес", ProfileField::Address, profile),
                HeaderLine::new("Квартира", ProfileField::Apartment, profile),
                HeaderLine::new("Телефон", ProfileField::Phone, profile),
                HeaderLine::new("Эл. почта", ProfileField::Email, profile),
            ],
            title: title.to_owned(),
            body: body.to_owned(),
            date,
            date_ru: date_ru(date),
            signatory: profile.get(ProfileField::FullName).map(str::to_owned),
            co_signers: None,
            attachments: Vec::new(),
        }
    }

    /// The same document as a collective request: the co-signers table after the body.
    pub fn with_co_signers(mut self, co_signers: CoSigners) -> FiledDocument {
        self.co_signers = Some(co_signers);
        self
    }

    /// The document in `format`.
    pub fn render(&self, format: DocumentFormat) -> Result<Vec<u8>, RenderError> {
        Ok(match format {
            DocumentFormat::Txt => self.to_text().into_bytes(),
            DocumentFormat::Pdf => self.to_pdf()?,
            DocumentFormat::Docx => self.to_docx()?,
        })
    }

    /// The signature line: a line to sign on and the name it belongs to.
    pub fn signature_line(&self) -> String {
        let name = match &self.signatory {
            Some(name) => name.clone(),
            None => format!("{BLANK} (фамилия, имя, отчество)"),
        };
        format!("Подпись: {BLANK} / {name}")
    }

    /// The document as plain text, ending with a line break. The body is kept byte for byte:
    /// no line is wrapped or shortened, so the text pastes into a letter or a form as it is.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for block in [&self.recipient, &self.sender] {
            for line in block {
                text.push_str(&format!("{}: {}\n", line.label, line.shown()));
            }
            text.push('\n');
        }
        text.push_str(&self.title);
        text.push_str("\n\n");
        text.push_str(&self.body);
        text.push_str("\n\n");
        if let Some(appendix) = self.appendix_text() {
            text.push_str(&appendix);
            text.push_str("\n\n");
        }
        if let Some(co_signers) = self.co_signers {
            text.push_str(&co_signers_text(co_signers));
            text.push('\n');
        }
        text.push_str(&self.date_ru);
        text.push_str("\n\n");
        text.push_str(&self.signature_line());
        text.push('\n');
        text
    }
}

/// The widths, in characters, of the plain-text table's four columns.
const TEXT_COLUMN_WIDTHS: [usize; 4] = [3, 32, 10, 16];

/// The co-signers part as plain text: the heading, the sentence and a table of at most 72
/// characters a line (an e-mail body does not wrap it). In a monospaced font the columns line
/// up; in a proportional one every row still reads as a number and three blanks in the
/// header's order, separated by « | », so nothing depends on the alignment.
fn co_signers_text(co_signers: CoSigners) -> String {
    let cell = |text: &str, width: usize, right: bool| {
        let pad = width.saturating_sub(text.chars().count());
        if right {
            format!("{}{text}", " ".repeat(pad))
        } else {
            format!("{text}{}", " ".repeat(pad))
        }
    };
    let row = |cells: [String; 4]| cells.join(" | ").trim_end().to_owned();
    let [number, name, flat, signature] = TEXT_COLUMN_WIDTHS;
    let mut text = format!("{CO_SIGNERS_HEADING}\n\n{CO_SIGNERS_SENTENCE}\n\n");
    text.push_str(&row([
        cell(CO_SIGNERS_COLUMNS[0], number, true),
        cell(CO_SIGNERS_COLUMNS[1], name, false),
        cell(CO_SIGNERS_COLUMNS[2], flat, false),
        cell(CO_SIGNERS_COLUMNS[3], signature, false),
    ]));
    text.push('\n');
    text.push_str(
        &TEXT_COLUMN_WIDTHS
            .map(|width| "-".repeat(width))
            .join("-+-"),
    );
    text.push('\n');
    for index in 1..=co_signers.rows() {
        text.push_str(&row([
            cell(&index.to_string(), number, true),
            "_".repeat(name),
            "_".repeat(flat),
            "_".repeat(signature),
        ]));
        text.push('\n');
    }
    text
}

/// The formats a filed document is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DocumentFormat {
    /// Plain text, UTF-8.
    Txt,
    /// PDF (ADR 16).
    Pdf,
    /// DOCX, for Word and LibreOffice (ADR 16).
    Docx,
}

impl DocumentFormat {
    /// Every format.
    pub const ALL: [DocumentFormat; 3] = [
        DocumentFormat::Txt,
        DocumentFormat::Pdf,
        DocumentFormat::Docx,
    ];

    /// The file name extension, which is also the format's name on the command line.
    pub fn extension(self) -> &'static str {
        match self {
            DocumentFormat::Txt => "txt",
            DocumentFormat::Pdf => "pdf",
            DocumentFormat::Docx => "docx",
        }
    }

    /// The format with this extension.
    pub fn from_extension(extension: &str) -> Option<DocumentFormat> {
        DocumentFormat::ALL
            .into_iter()
            .find(|format| format.extension() == extension)
    }
}

/// Why a document could not be written in a format.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The PDF could not be written.
    #[error("{0}")]
    Pdf(#[from] PdfError),
    /// The DOCX could not be written.
    #[error("{0}")]
    Docx(#[from] DocxError),
}

#[cfg(test)]
mod tests {
    use super::*;

    const TITLE: &str = "Не работает освещение на лестнице";
    const BODY: &str = "На лестнице между третьим и четвёртым этажами неделю не горит свет.\n\n\
                        Прошу:\n1. Заменить лампы на лестнице.";

    fn date() -> Date {
        jiff::civil::date(2026, 12, 1)
    }

    fn full_profile() -> Profile {
        [
            (ProfileField::FullName, "Иванова Мария Петровна"),
            (ProfileField::Address, "г. Тверь, ул. Лётная, д. 5"),
            (ProfileField::Apartment, "12"),
            (ProfileField::Phone, "+7 900 000-00-00"),
            (ProfileField::Email, "maria@example.ru"),
            (
                ProfileField::CompanyName,
                "ООО «Управляющая компания „Дом“»",
            ),
            (
                ProfileField::CompanyAddress,
                "г. Тверь, ул. Советская, д. 1",
            ),
        ]
        .into_iter()
        .fold(Profile::default(), |profile, (field, value)| {
            profile.with_value(field, Some(value.to_owned()))
        })
    }

    #[test]
    fn dates_are_written_the_russian_way() {
        assert_eq!(date_ru(date()), "1 декабря 2026 г.");
        assert_eq!(date_ru(jiff::civil::date(2027, 1, 31)), "31 января 2027 г.");
        assert_eq!(
            date_ru(jiff::civil::date(2028, 2, 29)),
            "29 февраля 2028 г."
        );
        for (month, name) in MONTHS_GENITIVE.iter().enumerate() {
            let month = i8::try_from(month + 1).unwrap();
            assert!(date_ru(jiff::civil::date(2026, month, 1)).contains(name));
        }
    }

    #[test]
    fn a_full_profile_fills_the_header() {
        let document = FiledDocument::new(TITLE, BODY, &full_profile(), date());
        insta::assert_snapshot!(document.to_text());
    }

    #[test]
    fn missing_fields_are_marked_blanks_never_invented() {
        let profile = Profile::default().with_value(ProfileField::Apartment, Some("12".to_owned()));
        let document = FiledDocument::new(TITLE, BODY, &profile, date());
        insta::assert_snapshot!(document.to_text());
        let empty = FiledDocument::new(TITLE, BODY, &Profile::default(), date()).to_text();
        // Seven header lines, the line to sign on and the name under it.
        assert_eq!(empty.matches(BLANK).count(), 9, "{empty}");
    }

    #[test]
    fn the_body_is_kept_byte_for_byte_with_yo_quotes_and_long_lines() {
        let long_line = format!(
            "Жильцы квартир «12», «14» и «16» сообщают: {}ёлочные гирлянды не при чём.",
            "свет на лестнице не горит уже неделю, ".repeat(20)
        );
        let body = format!("{long_line}\n\nПрошу:\n1. Проверить «щиток» и заменить лампы.");
        let document = FiledDocument::new(
            "Темно на лестнице — «ёлка» ни при чём",
            &body,
            &full_profile(),
            date(),
        );
        let text = document.to_text();
        assert!(text.contains(&format!("\n{body}\n")), "{text}");
        assert!(
            text.contains(&format!("\n{long_line}\n")),
            "a long line is never wrapped"
        );
        insta::assert_snapshot!(text);
    }

    #[test]
    fn the_same_draft_profile_and_date_give_the_same_text() {
        let first = FiledDocument::new(TITLE, BODY, &full_profile(), date()).to_text();
        let second = FiledDocument::new(TITLE, BODY, &full_profile(), date()).to_text();
        assert_eq!(first, second);
        let next_day =
            FiledDocument::new(TITLE, BODY, &full_profile(), jiff::civil::date(2026, 12, 2));
        assert_ne!(first, next_day.to_text());
    }

    #[test]
    fn a_collective_request_adds_the_co_signers_table_before_the_date() {
        let document = FiledDocument::new(TITLE, BODY, &full_profile(), date())
            .with_co_signers(CoSigners::new(3));
        let text = document.to_text();
        insta::assert_snapshot!(text);
        let plain = FiledDocument::new(TITLE, BODY, &full_profile(), date()).to_text();
        let (before_date, after_body) = plain.split_once("1 декабря 2026 г.").unwrap();
        assert!(text.starts_with(before_date), "the request is unchanged");
        assert!(text.ends_with(&format!("1 декабря 2026 г.{after_body}")));
        let table = &text[before_date.len()..];
        assert!(table.starts_with("Подписи жителей\n\nЗаявку поддерживают жители дома:\n"));
        // The owner's details appear exactly as often as in the plain request: the rows are
        // empty.
        for value in ["Иванова Мария Петровна", "12", "+7 900 000-00-00"] {
            assert_eq!(text.matches(value).count(), plain.matches(value).count());
        }
    }

    #[test]
    fn the_text_table_lines_up_in_a_monospaced_font_and_fits_an_email_line() {
        let text = co_signers_text(CoSigners::default());
        let table: Vec<&str> = text
            .lines()
            .filter(|line| line.contains('|') || line.contains('+'))
            .collect();
        assert_eq!(table.len(), 2 + DEFAULT_CO_SIGNER_ROWS as usize);
        let columns = |line: &str| -> Vec<usize> {
            line.chars()
                .enumerate()
                .filter(|(_, c)| *c == '|' || *c == '+')
                .map(|(index, _)| index)
                .collect()
        };
        let first = columns(table[0]);
        assert_eq!(first.len(), 3);
        for line in &table {
            assert_eq!(columns(line), first, "{line}");
            assert!(line.chars().count() <= 72, "{line}");
        }
        assert!(table[0].contains("№") && table[0].contains("ФИО"));
        assert!(table.last().unwrap().starts_with(" 20 | ___"));
    }

    #[test]
    fn a_table_has_at_least_one_row_and_at_most_the_limit() {
        assert_eq!(CoSigners::new(0).rows(), 1);
        assert_eq!(CoSigners::new(u32::MAX).rows(), MAX_CO_SIGNER_ROWS);
        assert_eq!(CoSigners::default().rows(), DEFAULT_CO_SIGNER_ROWS);
    }

    #[test]
    fn every_format_renders_and_names_its_extension() {
        let document = FiledDocument::new(TITLE, BODY, &full_profile(), date())
            .with_co_signers(CoSigners::default());
        for format in DocumentFormat::ALL {
            assert_eq!(
                DocumentFormat::from_extension(format.extension()),
                Some(format)
            );
            assert!(!document.render(format).unwrap().is_empty());
        }
        assert_eq!(DocumentFormat::from_extension("json"), None);
        assert_eq!(
            document.render(DocumentFormat::Txt).unwrap(),
            document.to_text().into_bytes()
        );
    }
}
