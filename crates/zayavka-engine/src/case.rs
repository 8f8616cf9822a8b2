//! After the request is filed (issue 30, ADR 34): marking a ready draft filed, the answer's
//! deadline, where each case stands, the answer and the closing, for both front ends.
//!
//! The deadline is never stored: it is counted from the case's dates, the answer term of the
//! addressee (the management company, or the housing inspectorate for a complaint) and the
//! production calendar, every time a case is shown ([`zayavka_core::deadlines`]). A date that
//! cannot be counted — a letter not yet delivered, a year the calendar lacks — gives no date
//! and says why.
//!
//! Today is the system's local date, or `ZAYAVKA_TODAY=YYYY-MM-DD` when set: for tests, and for
//! a resident checking a past case ([`today`]).

use jiff::civil::Date;
use jiff::tz::TimeZone;
use serde::Serialize;
use zayavka_core::{Deadline, NoDeadline, ReviewStatus, TermId, deadlines};
use zayavka_document::date_ru;
use zayavka_store::{
    Answer, AnswerResult, Case, DraftId, Filing, FilingMethod, FollowKind, FollowLink, Store,
    StoreError,
};

use crate::error::{EngineError, ErrorKind};

/// The variable that fixes the date the program takes as today.
pub const ENV_TODAY: &str = "ZAYAVKA_TODAY";

/// The longest incoming number kept, in characters.
pub const NUMBER_MAX: usize = 60;
/// The longest addressee kept, in characters.
pub const ADDRESSEE_MAX: usize = 300;

/// An incoming number as a sentence shows it after «входящий №»: the number as stored — as
/// the resident typed it from the stamp — without the «Вх.» and «№» the stamp often carries
/// too, so that «№ 27/б» does not come out as «входящий № № 27/б». What is stored does not
/// change.
pub fn bare_number(number: &str) -> &str {
    let mut rest = number.trim();
    for prefix in [
        "входящий",
        "Входящий",
        "вх.",
        "Вх.",
        "ВХ.",
        "вх",
        "Вх",
        "ВХ",
    ] {
        if let Some(after) = rest.strip_prefix(prefix) {
            rest = after.trim_start();
            break;
        }
    }
    for sign in ["№", "N", "No.", "No"] {
        if let Some(after) = rest.strip_prefix(sign)
            && !after.is_empty()
            && !after.starts_with(char::is_alphabetic)
        {
            rest = after.trim_start_matches(|c: char| c.is_whitespace() || c == '.');
            break;
        }
    }
    if rest.is_empty() { number.trim() } else { rest }
}

/// How many days before its deadline a case counts as due soon.
pub const DUE_SOON_DAYS: i32 = 3;

/// The date the program takes as today: `ZAYAVKA_TODAY` when set (an empty value counts as
/// unset), else the system's local date.
pub fn today() -> Result<Date, CaseError> {
    match std::env::var(ENV_TODAY) {
        Ok(text) if !text.trim().is_empty() => text
            .trim()
            .parse::<Date>()
            .map_err(|_| CaseError::BadToday(text)),
        _ => Ok(jiff::Zoned::now().date()),
    }
}

/// The facts of a filing as the resident gives them, before they are checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilingInput {
    /// The day the request was filed.
    pub filed_on: Date,
    /// How.
    pub method: FilingMethod,
    /// The incoming number, as written on the stamp; blank means none.
    pub number: Option<String>,
    /// To whom; blank means not given.
    pub addressee: Option<String>,
    /// For a letter, the day it was delivered.
    pub delivered_on: Option<Date>,
}

impl FilingInput {
    /// Refuses dates that cannot be: a delivery for anything but a letter, a filing before
    /// 2000, a filing or a delivery to come, a delivery before the filing.
    fn check_dates(&self, today: Date) -> Result<(), CaseError> {
        if self.delivered_on.is_some() && self.method != FilingMethod::Letter {
            return Err(CaseError::DeliveryNotALetter(self.method));
        }
        if self.filed_on.year() < 2000 {
            return Err(CaseError::TooEarly(self.filed_on));
        }
        not_in_future("filing", Some(self.filed_on), today)?;
        not_in_future("delivery", self.delivered_on, today)?;
        not_before_filing("delivery", self.delivered_on, self.filed_on)
    }

    /// The filing to store: its number and addressee kept whole on one line, or refused.
    fn filing(&self) -> Result<Filing, CaseError> {
        Ok(Filing {
            filed_on: self.filed_on,
            method: self.method,
            number: clean_text("number", self.number.as_deref(), NUMBER_MAX)?,
            addressee: clean_text("addressee", self.addressee.as_deref(), ADDRESSEE_MAX)?,
            delivered_on: self.delivered_on,
        })
    }
}

/// Why a case could not be changed or shown. [`CaseError::message_ru`] says it to a resident.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CaseError {
    /// The database refused.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// `ZAYAVKA_TODAY` is not a date.
    #[error("ZAYAVKA_TODAY is not a date: {0:?}")]
    BadToday(String),
    /// A date lies after today.
    #[error("the {what} date {date} is after today ({today})")]
    InFuture {
        /// Which date: `filing`, `delivery`, `answer` or `closing`.
        what: &'static str,
        /// The date given.
        date: Date,
        /// Today.
        today: Date,
    },
    /// The filing date lies before the draft was written.
    #[error("the filing date {date} is before the draft was written ({created})")]
    BeforeDraft {
        /// The date given.
        date: Date,
        /// The day the draft was written.
        created: Date,
    },
    /// A date of the case lies before the filing.
    #[error("the {what} date {date} is before the filing ({filed_on})")]
    BeforeFiling {
        /// Which date: `delivery`, `answer` or `closing`.
        what: &'static str,
        /// The date given.
        date: Date,
        /// The filing's day.
        filed_on: Date,
    },
    /// A follow-up letter was asked for before the answer is due.
    #[error("the answer is not due until {due}")]
    NotDueYet {
        /// The last day for the answer.
        due: Date,
    },
    /// A follow-up letter was asked for after an answer that solved the problem.
    #[error("the answer solved the problem")]
    Solved,
    /// The letter would be longer than a request may be.
    #[error("the letter would be {0} characters long")]
    TooLong(usize),
    /// The batch could not be read; the sentence is the batch error's own.
    #[error("the batch could not be read: {0}")]
    Batch(String),
    /// A delivery date was given for a request that was not sent as a letter.
    #[error("a delivery date is only for a letter, and this request was filed as {0}")]
    DeliveryNotALetter(FilingMethod),
    /// The text of a request filed before Zayavka does not fit the input contract; the
    /// sentence is the contract's own, field by field.
    #[error("the request's text is refused: {0}")]
    BroughtInText(String),
    /// A filing day before 2000, which no request recorded here can have.
    #[error("the filing date {0} is before 2000")]
    TooEarly(Date),
    /// A text field cannot be kept as it is.
    #[error("the {field} is refused: {reason}")]
    Text {
        /// `number` or `addressee`.
        field: &'static str,
        /// Why, for the log.
        reason: &'static str,
    },
}

impl CaseError {
    /// The sentence for the resident: what is wrong, and how to put it right.
    pub fn message_ru(&self) -> String {
        match self {
            CaseError::Store(error) => error.message_ru(),
            CaseError::Batch(message) => message.clone(),
            CaseError::BroughtInText(message) => format!(
                "Текст заявки не записан: {message} Ничего не записано; поправьте текст и \
                 повторите."
            ),
            CaseError::TooEarly(date) => format!(
                "Дата подачи {} слишком давняя: записать можно заявки, поданные с 2000 года. \
                 Ничего не записано. Проверьте дату.",
                date_ru(*date)
            ),
            CaseError::NotDueYet { due } => format!(
                "Срок ответа на эту заявку ещё не истёк: ответ должен прийти не позднее {} \
                 Повторную заявку или жалобу пишут, когда ответа нет после срока или ответ не \
                 решил проблему. Ничего не создано.",
                date_ru(*due)
            ),
            CaseError::Solved => "По этой заявке записан ответ «проблема решена», поэтому \
                 повторная заявка или жалоба не нужна. Ничего не создано. Если проблема на самом \
                 деле не решена, запишите ответ заново с другим итогом."
                .to_owned(),
            CaseError::TooLong(length) => format!(
                "Письмо получилось бы длиннее, чем допускает заявка ({length} знаков): описание \
                 проблемы в первой заявке слишком длинное. Ничего не создано. Составьте новую \
                 заявку с более коротким описанием."
            ),
            CaseError::BadToday(text) => format!(
                "Переменная {ENV_TODAY} задана, но «{text}» — не дата. Укажите дату в виде \
                 ГГГГ-ММ-ДД, например 2026-12-17, или уберите переменную, чтобы считать от \
                 сегодняшнего дня."
            ),
            CaseError::InFuture { what, date, today } => format!(
                "{} {} ещё не наступила (сегодня {}). Ничего не изменено. Проверьте дату: \
                 отметить можно только то, что уже произошло.",
                date_name(what),
                date_ru(*date),
                date_ru(*today)
            ),
            CaseError::BeforeFiling {
                what,
                date,
                filed_on,
            } => format!(
                "{} {} раньше дня подачи ({}). Ничего не изменено. Проверьте даты.",
                date_name(what),
                date_ru(*date),
                date_ru(*filed_on)
            ),
            CaseError::BeforeDraft { date, created } => format!(
                "Дата подачи {} раньше, чем был составлен этот черновик ({}). Ничего не \
                 изменено. Проверьте дату подачи.",
                date_ru(*date),
                date_ru(*created)
            ),
            CaseError::DeliveryNotALetter(method) => format!(
                "Дата вручения нужна только для заказного письма, а эта заявка подана иначе \
                 ({}). Ничего не изменено. Уберите дату вручения или укажите способ подачи \
                 «письмо».",
                method_ru(*method)
            ),
            CaseError::Text { field, reason } => format!(
                "{} не сохранён: {reason_ru}. Ничего не изменено.",
                if *field == "number" {
                    "Входящий номер"
                } else {
                    "Адресат"
                },
                reason_ru = match *reason {
                    "line break" => "в нём перенос строки или другой управляющий символ; \
                                     напишите его в одну строку"
                        .to_owned(),
                    _ => format!(
                        "он длиннее {} знаков; сократите его",
                        if *field == "number" {
                            NUMBER_MAX
                        } else {
                            ADDRESSEE_MAX
                        }
                    ),
                }
            ),
        }
    }
}

/// A batch's rows that could not be read: the database's own failure stays one, so that a front
/// end still knows a damaged database by its store code; any other keeps its sentence.
impl From<crate::batch::run::BatchError> for CaseError {
    fn from(error: crate::batch::run::BatchError) -> CaseError {
        match error {
            crate::batch::run::BatchError::Store(store) => CaseError::Store(store),
            other => CaseError::Batch(other.message_ru()),
        }
    }
}

impl EngineError for CaseError {
    fn kind(&self) -> ErrorKind {
        match self {
            CaseError::Store(StoreError::DraftNotFound(_)) => ErrorKind::NotFound,
            CaseError::Store(
                StoreError::DraftFiled(_)
                | StoreError::DraftNotReady { .. }
                | StoreError::NotFiled(_),
            ) => ErrorKind::InvalidRequest,
            CaseError::Store(StoreError::CaseDatesOutOfOrder { .. }) => ErrorKind::InvalidValue,
            CaseError::Store(_) => ErrorKind::Store,
            CaseError::BadToday(_)
            | CaseError::InFuture { .. }
            | CaseError::BeforeDraft { .. }
            | CaseError::BeforeFiling { .. }
            | CaseError::BroughtInText(_)
            | CaseError::TooEarly(_)
            | CaseError::Text { .. } => ErrorKind::InvalidValue,
            CaseError::DeliveryNotALetter(_) => ErrorKind::InvalidRequest,
            CaseError::Batch(_) => ErrorKind::Batch,
            CaseError::NotDueYet { .. } | CaseError::Solved | CaseError::TooLong(_) => {
                ErrorKind::InvalidRequest
            }
        }
    }

    fn message_ru(&self) -> String {
        CaseError::message_ru(self)
    }

    fn store_code(&self) -> Option<zayavka_store::StoreErrorCode> {
        match self {
            CaseError::Store(error) => Some(error.code()),
            _ => None,
        }
    }
}

/// A date's name at the start of a sentence.
fn date_name(what: &str) -> &'static str {
    match what {
        "filing" => "Дата подачи",
        "delivery" => "Дата вручения",
        "answer" => "Дата ответа",
        _ => "Дата закрытия",
    }
}

/// How a request was filed, in Russian.
pub fn method_ru(method: FilingMethod) -> &'static str {
    match method {
        FilingMethod::InPerson => "лично, с отметкой на втором экземпляре",
        FilingMethod::Letter => "заказным письмом с уведомлением о вручении",
        FilingMethod::Email => "по электронной почте",
        FilingMethod::Gis => "через ГИС ЖКХ или Госуслуги.Дом",
        FilingMethod::Site => "через сайт или приложение управляющей организации",
        FilingMethod::Other => "другим способом",
    }
}

/// What an answer did, in Russian.
pub fn result_ru(result: AnswerResult) -> &'static str {
    match result {
        AnswerResult::Solved => "проблема решена",
        AnswerResult::Partly => "проблема решена частично",
        AnswerResult::Refused => "отказ",
        AnswerResult::Unaddressed => "ответ не по существу",
    }
}

/// Keeps an optional text: trimmed, blank as none, one line, not too long.
fn clean_text(
    field: &'static str,
    text: Option<&str>,
    max: usize,
) -> Result<Option<String>, CaseError> {
    let Some(text) = text.map(str::trim).filter(|text| !text.is_empty()) else {
        return Ok(None);
    };
    if text.chars().any(char::is_control) {
        return Err(CaseError::Text {
            field,
            reason: "line break",
        });
    }
    if text.chars().count() > max {
        return Err(CaseError::Text {
            field,
            reason: "too long",
        });
    }
    Ok(Some(text.to_owned()))
}

/// Refuses a date after today.
fn not_in_future(what: &'static str, date: Option<Date>, today: Date) -> Result<(), CaseError> {
    match date {
        Some(date) if date > today => Err(CaseError::InFuture { what, date, today }),
        _ => Ok(()),
    }
}

/// Refuses a date of the case before the filing; the store refuses it too, in case another
/// program changed the case in between, but the resident reads this sentence.
fn not_before_filing(
    what: &'static str,
    date: Option<Date>,
    filed_on: Date,
) -> Result<(), CaseError> {
    match date {
        Some(date) if date < filed_on => Err(CaseError::BeforeFiling {
            what,
            date,
            filed_on,
        }),
        _ => Ok(()),
    }
}

/// Marks ready draft `id` filed, or changes its filing's facts, after checking them against
/// today and the day the draft was written.
pub(crate) fn file(
    store: &Store,
    id: DraftId,
    input: &FilingInput,
    today: Date,
) -> Result<CaseView, CaseError> {
    input.check_dates(today)?;
    if let Some(case) = store.case(id)? {
        let answered_on = case.answer.map(|answer| answer.answered_on);
        not_before_filing("answer", answered_on, input.filed_on)?;
        not_before_filing("closing", case.closed_on, input.filed_on)?;
    }
    let draft = store.get_draft(id)?.ok_or(StoreError::DraftNotFound(id))?;
    let created = draft.summary.created_at.to_zoned(TimeZone::system()).date();
    // A request brought in after it was filed (issue 38) was filed before it was recorded.
    let brought_in = draft
        .versions
        .iter()
        .any(|version| version.author == zayavka_store::BROUGHT_IN_AUTHOR);
    if input.filed_on < created && !brought_in {
        return Err(CaseError::BeforeDraft {
            date: input.filed_on,
            created,
        });
    }
    let filing = input.filing()?;
    let case = store.record_filing(id, &filing)?;
    Ok(CaseView::new(case, today))
}

/// Records a request the resident filed before using Zayavka (issue 38): `text` exactly as it
/// was filed, with its filing. No model is called and nothing is rewritten: the text is kept
/// as the draft's version by [`zayavka_store::BROUGHT_IN_AUTHOR`], which the documents print;
/// the request assembled from it without a model (the resident's words and the generic
/// «Прошу:» item) is what the follow-up letters quote. The filing day may precede today —
/// that is the point — but not lie in the future or before 2000. Everything is stored in one
/// transaction.
pub(crate) fn bring_in(
    store: &Store,
    text: &str,
    input: &FilingInput,
    today: Date,
) -> Result<CaseView, CaseError> {
    let prepared = prepare_bring_in(text, input, today)?;
    let id = store.bring_in(
        &prepared.draft,
        &prepared.finished,
        &prepared.text,
        &prepared.filing,
    )?;
    let case = store.case(id)?.ok_or(StoreError::NotFiled(id))?;
    Ok(CaseView::new(case, today))
}

/// A request filed before Zayavka, checked and ready to store.
struct PreparedBringIn {
    draft: zayavka_store::NewDraft,
    finished: zayavka_store::FinishedDraft,
    text: zayavka_store::NewVersion,
    filing: Filing,
}

/// Checks a request filed before Zayavka — its text against the input contract, its dates —
/// and writes, with no model, the request the follow-up letters quote.
fn prepare_bring_in(
    text: &str,
    input: &FilingInput,
    today: Date,
) -> Result<PreparedBringIn, CaseError> {
    let raw = zayavka_core::RawInput {
        description: Some(text.to_owned()),
        ..zayavka_core::RawInput::default()
    };
    let checked = zayavka_core::ResidentInput::parse(&raw).map_err(|errors| {
        CaseError::BroughtInText(
            errors
                .iter()
                .map(|error| zayavka_core::full_sentence(&error.message_ru()))
                .collect::<Vec<_>>()
                .join(" "),
        )
    })?;
    input.check_dates(today)?;
    let outcome = zayavka_core::offline_request(&checked, zayavka_core::legal_catalogue());
    let Some(request) = outcome.request() else {
        // The text fits the contract but not a request with its item.
        return Err(CaseError::TooLong(zayavka_core::char_count(text)));
    };
    let title = request.title().to_owned();
    let json = serde_json::to_string(&raw).expect("an input serialises");
    Ok(PreparedBringIn {
        draft: crate::database::new_draft(&json, Some(&checked)),
        finished: crate::draft::finished_draft(&outcome, false),
        text: zayavka_store::NewVersion {
            author: zayavka_store::BROUGHT_IN_AUTHOR.to_owned(),
            title,
            body: text.trim().to_owned(),
        },
        filing: input.filing()?,
    })
}

/// What `batch add` did with a file of requests filed before Zayavka, by row number.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct BroughtInRows {
    /// The rows recorded now, with their drafts.
    pub recorded: Vec<RecordedRow>,
    /// The rows recorded by an earlier run (the same text filed on the same day).
    pub already: Vec<u32>,
    /// The rows refused, each with why in Russian; when there is one, nothing is recorded.
    pub refused: Vec<RefusedRow>,
}

/// A row of `batch add` recorded as a draft.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RecordedRow {
    /// The row's number in the file.
    pub row: u32,
    /// The draft it became.
    pub draft_id: DraftId,
}

/// A row of `batch add` refused, with why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RefusedRow {
    /// The row's number in the file.
    pub row: u32,
    /// Why, in Russian, as a sentence.
    pub reason: String,
}

/// Records every row of `file` as a request filed before Zayavka (issue 38, `batch add`): the
/// text in «Описание», the filing in «Дата подачи», «Способ подачи», «Входящий номер», «Кому»,
/// «Дата вручения». Every row is checked first; if any is refused, nothing is recorded and
/// each refusal is reported by its row, so the activist fixes the file and runs it again. Rows
/// recorded by an earlier run are skipped; the rest are recorded in one transaction.
pub(crate) fn bring_in_file(
    store: &Store,
    file: &crate::batch::BatchFile,
    today: Date,
) -> Result<BroughtInRows, CaseError> {
    let mut report = BroughtInRows::default();
    let mut prepared = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for row in file.rows() {
        let number = row.row_number();
        let facts = row.filing();
        let parsed = (|| -> Result<(String, FilingInput), &str> {
            let text = row
                .raw()
                .description
                .clone()
                .ok_or("нет текста заявки в столбце «Описание»")?;
            let filed_on = facts
                .filed
                .as_deref()
                .ok_or("нет даты подачи в столбце «Дата подачи»")
                .and_then(|text| {
                    parse_day(text)
                        .ok_or("дата подачи не читается: нужна ГГГГ-ММ-ДД или ДД.ММ.ГГГГ")
                })?;
            let method = facts
                .how
                .as_deref()
                .ok_or("не указан способ подачи в столбце «Способ подачи»")
                .and_then(|text| parse_method(text).ok_or("способ подачи не читается: лично, письмо, эл. почта, ГИС ЖКХ, сайт или другое"))?;
            let delivered_on = match facts.delivered.as_deref() {
                None => None,
                Some(text) => Some(
                    parse_day(text)
                        .ok_or("дата вручения не читается: нужна ГГГГ-ММ-ДД или ДД.ММ.ГГГГ")?,
                ),
            };
            Ok((
                text,
                FilingInput {
                    filed_on,
                    method,
                    number: facts.number.clone(),
                    addressee: facts.to.clone(),
                    delivered_on,
                },
            ))
        })();
        let (text, input) = match parsed {
            Ok(parsed) => parsed,
            Err(why) => {
                report.refused.push(RefusedRow {
                    row: number,
                    reason: zayavka_core::full_sentence(why),
                });
                continue;
            }
        };
        match prepare_bring_in(&text, &input, today) {
            Ok(ready) => {
                let key = (ready.text.body.clone(), ready.filing.filed_on);
                // The same request twice in one file is recorded once, as a rerun would.
                if !seen.insert(key)
                    || store.brought_in_exists(&ready.text.body, ready.filing.filed_on)?
                {
                    report.already.push(number);
                } else {
                    prepared.push((number, ready));
                }
            }
            Err(CaseError::Store(error)) => return Err(CaseError::Store(error)),
            Err(error) => report.refused.push(RefusedRow {
                row: number,
                reason: error.message_ru(),
            }),
        }
    }
    if !report.refused.is_empty() || prepared.is_empty() {
        return Ok(report);
    }
    let requests: Vec<zayavka_store::BroughtIn<'_>> = prepared
        .iter()
        .map(|(_, ready)| zayavka_store::BroughtIn {
            draft: &ready.draft,
            finished: &ready.finished,
            text: &ready.text,
            filing: &ready.filing,
        })
        .collect();
    let ids = store.bring_in_all(&requests)?;
    report.recorded = prepared
        .iter()
        .zip(ids)
        .map(|((row, _), draft_id)| RecordedRow {
            row: *row,
            draft_id,
        })
        .collect();
    Ok(report)
}

/// The store's way of filing as the core's letter says it: every way matched, so a way added to
/// one and not the other is a compile error, not a letter that says «подана».
fn filing_way(method: FilingMethod) -> zayavka_core::FilingWay {
    use zayavka_core::FilingWay;
    match method {
        FilingMethod::InPerson => FilingWay::InPerson,
        FilingMethod::Letter => FilingWay::Letter,
        FilingMethod::Email => FilingWay::Email,
        FilingMethod::Gis => FilingWay::Gis,
        FilingMethod::Site => FilingWay::Site,
        FilingMethod::Other => FilingWay::Other,
    }
}

/// A day as a file may write it: `ГГГГ-ММ-ДД`, `ДД.ММ.ГГГГ`, or a spreadsheet's day number
/// (days since 30 December 1899, as XLSX stores a date cell).
fn parse_day(text: &str) -> Option<Date> {
    let text = text.trim();
    if let Ok(day) = text.parse::<Date>() {
        return Some(day);
    }
    if let [day, month, year] = text.split('.').collect::<Vec<_>>()[..] {
        return Date::new(year.parse().ok()?, month.parse().ok()?, day.parse().ok()?).ok();
    }
    // A date cell with a time of day is a fraction past the day's number.
    let serial: f64 = text.parse().ok()?;
    if !(36_526.0..73_051.0).contains(&serial) {
        return None;
    }
    let serial = serial.floor() as i64;
    jiff::civil::date(1899, 12, 30)
        .checked_add(jiff::Span::new().days(serial))
        .ok()
}

/// A way of filing as a file may write it: the code or a Russian word.
fn parse_method(text: &str) -> Option<FilingMethod> {
    let key = text.trim().to_lowercase().replace('ё', "е");
    if let Some(method) = FilingMethod::from_code(&key) {
        return Some(method);
    }
    Some(match key.as_str() {
        "лично" | "на бумаге" | "бумага" => FilingMethod::InPerson,
        "письмо" | "письмом" | "почта" | "почтой" | "заказное письмо" => {
            FilingMethod::Letter
        }
        "эл. почта" | "электронная почта" | "e-mail" | "email" | "эл.почта" => {
            FilingMethod::Email
        }
        "гис" | "гис жкх" | "госуслуги" | "госуслуги.дом" => {
            FilingMethod::Gis
        }
        "сайт" | "приложение" => FilingMethod::Site,
        "другое" | "иначе" => FilingMethod::Other,
        _ => return None,
    })
}

/// What marking a batch's rows filed did, by the rows' numbers in the file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct BatchFiling {
    /// The rows marked filed now, with their drafts.
    pub filed: Vec<(u32, DraftId)>,
    /// The rows that were filed already; their filing was left as it was.
    pub already_filed: Vec<u32>,
    /// The rows with no ready request, which cannot be filed.
    pub not_ready: Vec<u32>,
    /// The rows asked for that the batch does not have.
    pub unknown: Vec<u32>,
}

/// Marks the ready rows of a batch filed in one transaction: every row of `rows`, or the whole
/// batch when `chosen` is empty. Rows already filed keep their filing; rows without a ready
/// request are reported, not refused, so that an activist files what is ready.
pub(crate) fn file_batch(
    store: &Store,
    rows: &[(u32, Option<DraftId>, bool)],
    chosen: &[u32],
    input: &FilingInput,
    today: Date,
) -> Result<BatchFiling, CaseError> {
    input.check_dates(today)?;
    let filing = input.filing()?;
    let mut report = BatchFiling {
        unknown: chosen
            .iter()
            .copied()
            .filter(|number| !rows.iter().any(|(row, _, _)| row == number))
            .collect(),
        ..BatchFiling::default()
    };
    let mut filings = Vec::new();
    for &(row, draft, ready) in rows {
        if !chosen.is_empty() && !chosen.contains(&row) {
            continue;
        }
        match draft {
            Some(id) if ready => {
                if store.case(id)?.is_some() {
                    report.already_filed.push(row);
                    continue;
                }
                let created = store
                    .get_draft(id)?
                    .ok_or(StoreError::DraftNotFound(id))?
                    .summary
                    .created_at
                    .to_zoned(TimeZone::system())
                    .date();
                if input.filed_on < created {
                    return Err(CaseError::BeforeDraft {
                        date: input.filed_on,
                        created,
                    });
                }
                filings.push((id, filing.clone()));
                report.filed.push((row, id));
            }
            _ => report.not_ready.push(row),
        }
    }
    store.record_filings(&filings)?;
    Ok(report)
}

/// What writing a batch's follow-up letters did, by the rows' numbers in the file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct BatchFollowUps {
    /// The rows a letter was written for, with the letter's draft.
    pub written: Vec<(u32, DraftId)>,
    /// The rows that had a letter of this kind already, with its draft (not written again).
    pub existing: Vec<(u32, DraftId)>,
    /// Filed rows whose answer is not due yet.
    pub not_due: Vec<u32>,
    /// Filed rows whose answer solved the problem.
    pub solved: Vec<u32>,
}

/// How the cases of a set of drafts stand today, for a batch's status (issue 30).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CaseCounts {
    /// Filed.
    pub filed: u32,
    /// With an answer recorded.
    pub answered: u32,
    /// Past the deadline with no answer.
    pub overdue: u32,
    /// Answered as solved.
    pub solved: u32,
}

/// Counts the cases of `drafts` as they stand on `today`.
pub(crate) fn counts(
    store: &Store,
    drafts: &[DraftId],
    today: Date,
) -> Result<CaseCounts, CaseError> {
    let mut counts = CaseCounts::default();
    for case in store.cases()? {
        if !drafts.contains(&case.draft_id) {
            continue;
        }
        counts.filed += 1;
        if let Some(answer) = case.answer {
            counts.answered += 1;
            if answer.result == AnswerResult::Solved {
                counts.solved += 1;
            }
        }
        if matches!(CaseView::new(case, today).state, CaseState::Overdue { .. }) {
            counts.overdue += 1;
        }
    }
    Ok(counts)
}

/// Writes the letter of `kind` after filed draft `id` — a repeat request to the same company,
/// or a complaint to the housing inspectorate `addressee` — from what is recorded, with no
/// model, and stores it as a new ready draft linked to the first. Refused while the answer is
/// not due yet, and when the answer solved the problem.
pub(crate) fn write_follow_up(
    store: &Store,
    id: DraftId,
    kind: zayavka_core::FollowUpKind,
    addressee: Option<&str>,
    today: Date,
) -> Result<DraftId, CaseError> {
    use zayavka_core::{CasePhotos, FirstAnswer, FirstDeadline, FirstRequest, FollowUpKind};
    let draft = store.get_draft(id)?.ok_or(StoreError::DraftNotFound(id))?;
    let case = store.case(id)?.ok_or(StoreError::NotFiled(id))?;
    let view = CaseView::new(case.clone(), today);
    if let CaseState::Waiting { due, .. } = view.state {
        return Err(CaseError::NotDueYet { due });
    }
    let answer = match case.answer {
        Some(Answer {
            result: AnswerResult::Solved,
            ..
        }) => return Err(CaseError::Solved),
        Some(answer) => Some((
            answer.answered_on,
            match answer.result {
                AnswerResult::Partly => FirstAnswer::Partly,
                AnswerResult::Refused => FirstAnswer::Refused,
                _ => FirstAnswer::Unaddressed,
            },
        )),
        None => None,
    };
    let request = crate::drafts::stored_request(&draft)
        .map_err(|_| StoreError::DraftNotFound(id))?
        .ok_or(StoreError::DraftNotReady {
            draft_id: id,
            outcome: draft.summary.outcome.code(),
        })?;
    let input = crate::drafts::stored_input(&draft);
    // The title as filed: the resident's latest edit, or the assembled one.
    let title = draft.versions.last().map_or_else(
        || request.title().to_owned(),
        |version| version.title.clone(),
    );
    let legal = match (request.subject_module(), request.legal_omission()) {
        (Some(kind), _) => zayavka_core::LegalDecision::Included(kind),
        (None, reason) => zayavka_core::LegalDecision::Omitted(
            reason.unwrap_or(zayavka_core::OmissionReason::NotConfirmed),
        ),
    };
    let first = FirstRequest {
        title,
        description: input.description.clone().unwrap_or_default(),
        filed_on: case.filing.filed_on,
        way: filing_way(case.filing.method),
        delivered_on: case.filing.delivered_on,
        number: case.filing.number.clone(),
        company: case.filing.addressee.clone(),
        deadline: match &view.deadline {
            DeadlineState::Known(deadline) => Some(FirstDeadline {
                due: deadline.due,
                term: view.term_ru.clone(),
                verified: deadline.verified,
                provisional: view.provisional_ru.clone(),
            }),
            _ => None,
        },
        answer,
        item: request.item().clone(),
        legal,
    };
    let count = |role| -> Result<usize, StoreError> { Ok(store.attachments_as(id, role)?.len()) };
    let photos = CasePhotos {
        evidence: count(zayavka_store::AttachmentRole::Evidence)?,
        filing: count(zayavka_store::AttachmentRole::Filing)?,
        answer: count(zayavka_store::AttachmentRole::Answer)?,
    };
    let letter = zayavka_core::follow_up(
        kind,
        &first,
        photos,
        today,
        zayavka_core::legal_catalogue(),
        date_ru,
    )
    .map_err(|too_long| CaseError::TooLong(too_long.length))?;
    // A repeat request goes to the company the first was filed with, as the resident recorded
    // it (issue 38); the document's «Кому» names it. With none recorded, the profile's company
    // is used, and a blank only when neither exists.
    let addressee = match kind {
        FollowUpKind::Repeat => case.filing.addressee.clone(),
        FollowUpKind::Complaint => clean_text("addressee", addressee, ADDRESSEE_MAX)?,
    };
    let finished = crate::draft::finished_draft(&zayavka_core::Outcome::Ready(letter), false);
    let new = zayavka_store::NewDraft {
        raw_input_json: draft.summary.raw_input_json.clone(),
        checked_input_json: draft.summary.checked_input_json.clone(),
    };
    let follow = match kind {
        FollowUpKind::Repeat => FollowKind::Repeat,
        FollowUpKind::Complaint => FollowKind::Complaint,
    };
    Ok(store.create_follow_up(id, follow, addressee.as_deref(), &new, &finished)?)
}

/// Records the answer to filed draft `id`.
pub(crate) fn answer(
    store: &Store,
    id: DraftId,
    answer: Answer,
    today: Date,
) -> Result<CaseView, CaseError> {
    not_in_future("answer", Some(answer.answered_on), today)?;
    let case = store.case(id)?.ok_or(StoreError::NotFiled(id))?;
    not_before_filing("answer", Some(answer.answered_on), case.filing.filed_on)?;
    Ok(CaseView::new(store.record_answer(id, &answer)?, today))
}

/// Closes filed draft `id`'s case today, or opens it again.
pub(crate) fn close(
    store: &Store,
    id: DraftId,
    close: bool,
    today: Date,
) -> Result<CaseView, CaseError> {
    let case = store.close_case(id, close.then_some(today))?;
    Ok(CaseView::new(case, today))
}

/// Every case as it stands today: what is overdue first (the longest overdue first), then what
/// is due, the nearest deadline first, then what has no deadline yet, then the answered and the
/// closed, the latest filing first.
pub(crate) fn due(store: &Store, today: Date) -> Result<Vec<CaseView>, CaseError> {
    let mut views: Vec<CaseView> = store
        .cases()?
        .into_iter()
        .map(|case| CaseView::new(case, today))
        .collect();
    views.sort_by(|a, b| {
        a.state
            .rank()
            .cmp(&b.state.rank())
            .then_with(|| match (&a.state, &b.state) {
                (CaseState::Overdue { due: x, .. }, CaseState::Overdue { due: y, .. })
                | (CaseState::Waiting { due: x, .. }, CaseState::Waiting { due: y, .. }) => {
                    x.cmp(y)
                }
                _ => b.case.filing.filed_on.cmp(&a.case.filing.filed_on),
            })
            .then_with(|| a.case.draft_id.cmp(&b.case.draft_id))
    });
    Ok(views)
}

/// The answer term a case is counted by: a complaint is the inspectorate's, everything else
/// the management company's.
pub fn term_of(follows: Option<FollowLink>) -> TermId {
    match follows {
        Some(FollowLink {
            kind: FollowKind::Complaint,
            ..
        }) => TermId::Inspectorate,
        _ => TermId::ManagementCompany,
    }
}

/// The day the addressee received the request, from which the term runs: the delivery day of
/// a letter (unknown until the resident enters it), the filing day otherwise.
pub fn received_on(filing: &Filing) -> Option<Date> {
    match filing.method {
        FilingMethod::Letter => filing.delivered_on,
        _ => Some(filing.filed_on),
    }
}

/// The deadline of a case, or why there is none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum DeadlineState {
    /// Counted.
    Known(Deadline),
    /// A letter not yet delivered: the term has not started.
    AwaitingDelivery,
    /// The calendar does not cover the count.
    Unknown {
        /// Why, in Russian.
        reason: String,
        /// The year missing.
        year: i16,
    },
}

/// Where a case stands today, as the list and the «Сроки» view show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum CaseState {
    /// The answer is not due yet.
    Waiting {
        /// The last day for the answer.
        due: Date,
        /// Days from today to it (0: today).
        days_left: i32,
    },
    /// The deadline passed with no answer recorded.
    Overdue {
        /// The last day that was allowed.
        due: Date,
        /// Days since it.
        days_over: i32,
    },
    /// A letter not yet delivered.
    AwaitingDelivery,
    /// No deadline can be counted.
    NoDeadline,
    /// The answer came.
    Answered {
        /// What it did.
        result: AnswerResult,
        /// Whether it came by the deadline; `None` when there was none to compare with.
        on_time: Option<bool>,
    },
    /// The resident closed the case.
    Closed {
        /// When.
        closed_on: Date,
    },
}

impl CaseState {
    /// Sort order in the «Сроки» view.
    fn rank(&self) -> u8 {
        match self {
            CaseState::Overdue { .. } => 0,
            CaseState::Waiting { .. } => 1,
            CaseState::AwaitingDelivery | CaseState::NoDeadline => 2,
            CaseState::Answered { .. } => 3,
            CaseState::Closed { .. } => 4,
        }
    }

    /// Whether the case needs the resident's attention: overdue, or due within
    /// [`DUE_SOON_DAYS`].
    pub fn needs_attention(&self) -> bool {
        match self {
            CaseState::Overdue { .. } => true,
            CaseState::Waiting { days_left, .. } => *days_left <= DUE_SOON_DAYS,
            _ => false,
        }
    }

    /// The state in plain Russian, as a list shows it: «ждём ответа до 17 декабря», «срок
    /// ответа истёк 3 дня назад», «ответ получен», «решено».
    pub fn phrase_ru(&self, today: Date) -> String {
        match *self {
            CaseState::Waiting { due, days_left: 0 } => {
                format!("срок ответа — сегодня, {}", short_date(due, today))
            }
            CaseState::Waiting { due, .. } => {
                format!("ждём ответа до {}", short_date(due, today))
            }
            CaseState::Overdue { days_over, .. } => format!(
                "срок ответа истёк {days_over} {} назад",
                days_word(days_over)
            ),
            CaseState::AwaitingDelivery => {
                "письмо ещё не вручено: срок ответа начнётся со дня вручения".to_owned()
            }
            CaseState::NoDeadline => "срок ответа не рассчитан".to_owned(),
            CaseState::Answered {
                result: AnswerResult::Solved,
                ..
            } => "решено".to_owned(),
            CaseState::Answered { result, .. } => format!("ответ получен: {}", result_ru(result)),
            CaseState::Closed { closed_on } => {
                format!("закрыто {}", short_date(closed_on, today))
            }
        }
    }
}

/// «17 декабря», with the year when it is not this year's («11 января 2027 г.»).
pub fn short_date(date: Date, today: Date) -> String {
    let full = date_ru(date);
    if date.year() == today.year() {
        full.rsplitn(3, ' ')
            .nth(2)
            .map_or(full.clone(), str::to_owned)
    } else {
        full
    }
}

/// «день», «дня» or «дней» after `count`.
pub fn days_word(count: i32) -> &'static str {
    let count = count.unsigned_abs();
    match (count % 10, count % 100) {
        (1, rest) if rest != 11 => "день",
        (2..=4, rest) if !(12..=14).contains(&rest) => "дня",
        _ => "дней",
    }
}

/// A case with its deadline and its state today.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CaseView {
    /// The stored case.
    pub case: Case,
    /// Whose answer term it is counted by.
    pub term: TermId,
    /// The term as a resident reads it («10 рабочих дней со дня получения обращения»).
    pub term_ru: String,
    /// The acts the term rests on, each «title, provisions».
    pub term_sources: Vec<String>,
    /// How far the term has been checked against the official texts.
    pub term_review: ReviewStatus,
    /// The day the addressee received it, when known.
    pub received_on: Option<Date>,
    /// The deadline, or why there is none.
    pub deadline: DeadlineState,
    /// Where it stands today.
    pub state: CaseState,
    /// The state in plain Russian.
    pub state_ru: String,
    /// When the deadline rests on data not yet checked against the official text, the notice
    /// to show beside it.
    pub notice_ru: Option<String>,
    /// When the deadline was counted through a year the data hold no calendar for yet, why the
    /// date is provisional (issue 38): shown wherever the date appears.
    pub provisional_ru: Option<String>,
}

/// What a resident is told beside a deadline counted from data not yet checked against the
/// official texts.
pub const DEADLINE_REVIEW_NOTICE: &str = "Срок посчитан по сроку ответа и производственному \
     календарю, которые ещё не сверены с официальными текстами: перед тем как ссылаться на него, \
     проверьте дату по документам.";

impl CaseView {
    /// The case as it stands on `today`.
    pub fn new(case: Case, today: Date) -> CaseView {
        let term = term_of(case.follows);
        let received = received_on(&case.filing);
        let data = deadlines();
        let deadline = match received.map(|day| data.answer_due(term, day)) {
            None => DeadlineState::AwaitingDelivery,
            Some(Ok(deadline)) => DeadlineState::Known(deadline),
            Some(Err(error @ NoDeadline::CalendarMissing { year })) => DeadlineState::Unknown {
                reason: error.message_ru(),
                year,
            },
            Some(Err(error)) => DeadlineState::Unknown {
                reason: error.message_ru(),
                year: today.year(),
            },
        };
        let due = match &deadline {
            DeadlineState::Known(deadline) => Some(deadline.due),
            _ => None,
        };
        let state = match (case.closed_on, case.answer, due) {
            (Some(closed_on), _, _) => CaseState::Closed { closed_on },
            (None, Some(answer), due) => CaseState::Answered {
                result: answer.result,
                on_time: due.map(|due| answer.answered_on <= due),
            },
            (None, None, Some(due)) if due >= today => CaseState::Waiting {
                due,
                days_left: days_between(today, due),
            },
            (None, None, Some(due)) => CaseState::Overdue {
                due,
                days_over: days_between(due, today),
            },
            (None, None, None) => match deadline {
                DeadlineState::AwaitingDelivery => CaseState::AwaitingDelivery,
                _ => CaseState::NoDeadline,
            },
        };
        let notice_ru = match &deadline {
            DeadlineState::Known(deadline) if !deadline.verified => {
                Some(DEADLINE_REVIEW_NOTICE.to_owned())
            }
            _ => None,
        };
        let provisional_ru = match &deadline {
            DeadlineState::Known(deadline) => deadline.provisional_ru(),
            _ => None,
        };
        let term_data = data.term(term);
        // Wherever the state is shown in a line («Черновики», «Сроки», `drafts due`), a
        // provisional date says so (issue 38); the whole reason goes with the deadline.
        let mut state_ru = state.phrase_ru(today);
        if provisional_ru.is_some()
            && matches!(state, CaseState::Waiting { .. } | CaseState::Overdue { .. })
        {
            state_ru.push_str(" (срок предварительный)");
        }
        CaseView {
            provisional_ru,
            state_ru,
            term_ru: term_data.summary.clone(),
            term_sources: term_data
                .sources
                .iter()
                .map(|source| format!("{}, {}", source.title, source.provisions))
                .collect(),
            term_review: term_data.review.status,
            term,
            received_on: received,
            deadline,
            state,
            notice_ru,
            case,
        }
    }
}

/// Whole days from `from` to `to`.
fn days_between(from: Date, to: Date) -> i32 {
    (to - from).get_days()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_typed_with_its_stamp_s_sign_is_shown_once_with_it() {
        for (typed, shown) in [
            ("27/б", "27/б"),
            ("№ 27/б", "27/б"),
            ("№27/б", "27/б"),
            ("Вх. № 17/А", "17/А"),
            ("вх.№ 17", "17"),
            ("входящий № 5", "5"),
            ("N 12", "12"),
            ("No. 12", "12"),
            ("  15-к ", "15-к"),
            // A number that only looks like a sign, or is nothing but one, stays as typed.
            ("Nord-7", "Nord-7"),
            ("№", "№"),
            ("Вх.", "Вх."),
        ] {
            assert_eq!(bare_number(typed), shown, "{typed:?}");
        }
    }

    #[test]
    fn a_file_s_day_is_read_as_iso_russian_or_a_spreadsheet_s_number() {
        let day = jiff::civil::date(2026, 11, 20);
        assert_eq!(parse_day("2026-11-20"), Some(day));
        assert_eq!(parse_day(" 20.11.2026 "), Some(day));
        assert_eq!(parse_day("46346"), Some(day));
        assert_eq!(parse_day("46346.75"), Some(day));
        for unreadable in [
            "",
            "20/11/2026",
            "31.11.2026",
            "20.11",
            "12",
            "99999",
            "NaN",
            "завтра",
        ] {
            assert_eq!(parse_day(unreadable), None, "{unreadable}");
        }
    }

    #[test]
    fn a_file_s_way_of_filing_is_read_as_a_code_or_a_russian_word() {
        assert_eq!(parse_method("in_person"), Some(FilingMethod::InPerson));
        assert_eq!(parse_method(" Лично "), Some(FilingMethod::InPerson));
        assert_eq!(parse_method("Заказное письмо"), Some(FilingMethod::Letter));
        assert_eq!(parse_method("ГИС ЖКХ"), Some(FilingMethod::Gis));
        assert_eq!(parse_method("Электронная почта"), Some(FilingMethod::Email));
        assert_eq!(parse_method("голубиная почта"), None);
    }
    use jiff::civil::date;

    fn case(filing: Filing, answer: Option<Answer>, closed_on: Option<Date>) -> Case {
        Case {
            draft_id: DraftId::new(1).unwrap(),
            filing,
            answer,
            closed_on,
            follows: None,
            created_at: jiff::Timestamp::UNIX_EPOCH,
            updated_at: jiff::Timestamp::UNIX_EPOCH,
        }
    }

    fn in_person(filed_on: Date) -> Filing {
        Filing {
            filed_on,
            method: FilingMethod::InPerson,
            number: None,
            addressee: None,
            delivered_on: None,
        }
    }

    /// Issue 38: a request filed on 24 December 2027 gets a deadline across the 2028 New Year,
    /// counted by the Labour Code's provisional calendar and marked so in its state and beside
    /// its date.
    #[test]
    fn issue_38_a_deadline_in_a_year_without_a_reviewed_calendar_is_provisional() {
        let view = CaseView::new(
            case(in_person(date(2027, 12, 24)), None, None),
            date(2028, 1, 10),
        );
        let DeadlineState::Known(deadline) = &view.deadline else {
            panic!("{:?}", view.deadline);
        };
        assert_eq!(deadline.due, date(2028, 1, 17));
        assert_eq!(
            view.state_ru,
            "ждём ответа до 17 января (срок предварительный)"
        );
        assert_eq!(
            view.provisional_ru.as_deref(),
            Some(
                "срок предварительный: постановление о переносе выходных дней на 2028 год в \
                 программе ещё не учтено"
            )
        );
        let reviewed = CaseView::new(
            case(in_person(date(2026, 12, 7)), None, None),
            date(2026, 12, 8),
        );
        assert_eq!(reviewed.provisional_ru, None);
        assert!(!reviewed.state_ru.contains("предварительный"));
    }

    #[test]
    fn a_case_reads_as_the_issue_words_it() {
        // Filed on Monday 7 December 2026: the answer is due on 21 December.
        let filed = in_person(date(2026, 12, 7));
        let view = |today| CaseView::new(case(filed.clone(), None, None), today);
        assert_eq!(
            view(date(2026, 12, 8)).state_ru,
            "ждём ответа до 21 декабря"
        );
        assert_eq!(
            view(date(2026, 12, 21)).state_ru,
            "срок ответа — сегодня, 21 декабря"
        );
        assert_eq!(
            view(date(2026, 12, 24)).state_ru,
            "срок ответа истёк 3 дня назад"
        );
        assert_eq!(
            view(date(2026, 12, 22)).state_ru,
            "срок ответа истёк 1 день назад"
        );
        assert_eq!(
            view(date(2027, 1, 5)).state_ru,
            "срок ответа истёк 15 дней назад"
        );
        assert!(view(date(2026, 12, 18)).state.needs_attention());
        assert!(!view(date(2026, 12, 8)).state.needs_attention());
        let answered = |result| {
            let answer = Answer {
                answered_on: date(2026, 12, 23),
                result,
            };
            CaseView::new(case(filed.clone(), Some(answer), None), date(2026, 12, 24))
        };
        assert_eq!(answered(AnswerResult::Solved).state_ru, "решено");
        assert_eq!(
            answered(AnswerResult::Refused).state_ru,
            "ответ получен: отказ"
        );
        assert_eq!(
            answered(AnswerResult::Solved).state,
            CaseState::Answered {
                result: AnswerResult::Solved,
                on_time: Some(false)
            }
        );
        let closed = CaseView::new(
            case(filed.clone(), None, Some(date(2026, 12, 30))),
            date(2027, 1, 2),
        );
        assert_eq!(closed.state_ru, "закрыто 30 декабря 2026 г.");
        // The shipped data await their check: the deadline carries the notice.
        assert_eq!(
            view(date(2026, 12, 8)).notice_ru.as_deref(),
            Some(DEADLINE_REVIEW_NOTICE)
        );
    }

    #[test]
    fn a_letter_counts_from_its_delivery_and_a_complaint_by_the_inspectorate_term() {
        let letter = Filing {
            method: FilingMethod::Letter,
            ..in_person(date(2026, 11, 25))
        };
        let waiting = CaseView::new(case(letter.clone(), None, None), date(2026, 12, 1));
        assert_eq!(waiting.state, CaseState::AwaitingDelivery);
        assert_eq!(waiting.deadline, DeadlineState::AwaitingDelivery);
        assert_eq!(waiting.notice_ru, None);
        let delivered = Filing {
            delivered_on: Some(date(2026, 12, 7)),
            ..letter
        };
        let view = CaseView::new(case(delivered.clone(), None, None), date(2026, 12, 8));
        assert_eq!(view.received_on, Some(date(2026, 12, 7)));
        assert_eq!(
            view.state,
            CaseState::Waiting {
                due: date(2026, 12, 21),
                days_left: 13
            }
        );
        let mut complaint = case(delivered, None, None);
        complaint.follows = Some(FollowLink {
            draft_id: None,
            kind: FollowKind::Complaint,
        });
        let view = CaseView::new(complaint, date(2026, 12, 8));
        assert_eq!(view.term, TermId::Inspectorate);
        // 7 December + 3 + 30 days = 9 January 2027, a Saturday after the holidays: Monday 11.
        assert_eq!(
            view.state,
            CaseState::Waiting {
                due: date(2027, 1, 11),
                days_left: 34
            }
        );
        assert_eq!(view.state_ru, "ждём ответа до 11 января 2027 г.");
    }

    #[test]
    fn days_take_the_right_russian_form() {
        for (count, word) in [
            (0, "дней"),
            (1, "день"),
            (2, "дня"),
            (4, "дня"),
            (5, "дней"),
            (11, "дней"),
            (12, "дней"),
            (14, "дней"),
            (21, "день"),
            (22, "дня"),
            (101, "день"),
            (111, "дней"),
        ] {
            assert_eq!(days_word(count), word, "{count}");
        }
    }

    #[test]
    fn texts_are_trimmed_kept_whole_and_refused_only_for_breaks_and_length() {
        assert_eq!(clean_text("number", Some("  "), 10).unwrap(), None);
        assert_eq!(
            clean_text("number", Some(" № 12/А \"x\" "), 60)
                .unwrap()
                .as_deref(),
            Some("№ 12/А \"x\"")
        );
        assert!(matches!(
            clean_text("number", Some("12\n13"), 60),
            Err(CaseError::Text {
                reason: "line break",
                ..
            })
        ));
        let long = "я".repeat(NUMBER_MAX + 1);
        let error = clean_text("number", Some(&long), NUMBER_MAX).unwrap_err();
        assert!(error.message_ru().contains("60"), "{}", error.message_ru());
    }
}
