//! After the request is filed (issue 30): marking a draft filed, the answer's deadline, where
//! each case stands («Сроки»), the answer, closing, a corrected copy, the next letter, the
//! deadline for the resident's calendar, and the same for a batch — the engine calls behind
//! `zayavka drafts filed | answer | due | close | reopen | unfile | correct | follow-up |
//! calendar` and `zayavka batch filed | follow-up`, as plain functions over [`AppState`].
//!
//! Today is the system's date, or `ZAYAVKA_TODAY` ([`AppState::today`]), as in the CLI.
//! Every sentence here says what happened in the app's words; none names a command.

use std::path::Path;

use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use zayavka_engine::{
    Answer, AnswerResult, AttachmentRole, CaseCounts, CaseState, CaseView, DeadlineState,
    DocumentFormat, DraftId, DraftOutcome, FilingInput, FilingMethod, FollowKind, FollowUpKind,
    ProfileField, bare_number, date_ru, method_ru, result_ru,
};

use crate::error::{CommandError, ErrorKind};
use crate::state::AppState;
use crate::view::PhotoView;

fn checked_id(id: i64) -> Result<DraftId, CommandError> {
    DraftId::new(id).ok_or_else(|| CommandError::invalid_argument("номер черновика"))
}

/// A date from the page's date field (`ГГГГ-ММ-ДД`); `what` names it in the message.
fn date_field(text: &str, what: &str) -> Result<Date, CommandError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(CommandError::new(
            ErrorKind::InvalidSetting,
            format!("Укажите {what}. Ничего не изменено."),
        ));
    }
    text.parse().map_err(|_| {
        CommandError::new(
            ErrorKind::InvalidSetting,
            format!(
                "{} записана не полностью: выберите день, месяц и год. Ничего не изменено.",
                capitalised(what)
            ),
        )
    })
}

fn optional_date(text: Option<&str>, what: &str) -> Result<Option<Date>, CommandError> {
    match text.map(str::trim) {
        None | Some("") => Ok(None),
        Some(text) => date_field(text, what).map(Some),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The filing form as the page sends it: dates as `ГГГГ-ММ-ДД`, the method's code, and the
/// optional texts (blank is none).
#[derive(Debug, Clone, Deserialize, ts_rs::TS)]
pub struct FilingForm {
    /// The day it was filed.
    pub filed_on: String,
    /// `in_person`, `letter`, `email`, `gis`, `site` or `other`; checked here, so the page may
    /// send only those.
    #[ts(as = "zayavka_engine::FilingMethod")]
    pub method: String,
    /// The incoming number.
    #[serde(default)]
    pub number: Option<String>,
    /// To whom.
    #[serde(default)]
    pub addressee: Option<String>,
    /// For a letter, the day it was delivered.
    #[serde(default)]
    pub delivered_on: Option<String>,
}

impl FilingForm {
    fn input(&self) -> Result<FilingInput, CommandError> {
        let method = FilingMethod::from_code(self.method.trim())
            .ok_or_else(|| CommandError::invalid_argument("способ подачи"))?;
        Ok(FilingInput {
            filed_on: date_field(&self.filed_on, "дату подачи")?,
            method,
            number: self.number.clone(),
            addressee: self.addressee.clone(),
            delivered_on: optional_date(self.delivered_on.as_deref(), "дату вручения")?,
        })
    }
}

/// Another draft a case links to: the one this draft follows, or one written after it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct LinkView {
    /// The draft; `None` when it was deleted.
    pub draft_id: Option<i64>,
    /// `correction`, `repeat` or `complaint`.
    #[ts(as = "zayavka_engine::FollowKind")]
    pub kind: &'static str,
    /// «Исправленный черновик», «Повторная заявка», «Жалоба в жилищную инспекцию».
    pub label: &'static str,
}

impl LinkView {
    fn new(draft_id: Option<DraftId>, kind: FollowKind) -> LinkView {
        let (code, label) = match kind {
            FollowKind::Correction => ("correction", "Исправленный черновик"),
            FollowKind::Repeat => ("repeat", "Повторная заявка"),
            FollowKind::Complaint => ("complaint", "Жалоба в жилищную инспекцию"),
        };
        LinkView {
            draft_id: draft_id.map(DraftId::get),
            kind: code,
            label,
        }
    }
}

/// Everything the «Подача и ответ» part of an opened draft shows.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct CaseDetail {
    /// The draft.
    pub draft_id: i64,
    /// Whether the draft can be marked filed: a ready request not filed yet.
    pub can_file: bool,
    /// The case, once filed.
    pub case: Option<CaseView>,
    /// The facts of the case, one sentence each, in the order a resident reads them: filed
    /// when, how and to whom; delivered; answered.
    pub facts: Vec<String>,
    /// The deadline, or why there is none and what to do about it; `None` once answered or
    /// closed.
    pub deadline_line: Option<String>,
    /// Whether a repeat request or a complaint can be written now: overdue, or answered
    /// without solving the problem, and not closed.
    pub can_follow_up: bool,
    /// What this draft follows, when it is itself a later letter.
    pub follows: Option<LinkView>,
    /// The letters written after this one, oldest first.
    pub follow_ups: Vec<LinkView>,
    /// Photos of the stamped copy or the postal receipt.
    pub filing_photos: Vec<PhotoView>,
    /// Photos or a scan of the answer.
    pub answer_photos: Vec<PhotoView>,
    /// The management company from the resident's profile, offered as the addressee.
    pub profile_company: Option<String>,
    /// The filing form's values when the draft is not filed: today, and the profile's company.
    pub today: Date,
}

/// The case part of draft `id` as it stands today.
pub fn case_get(state: &AppState, id: i64) -> Result<CaseDetail, CommandError> {
    let id = checked_id(id)?;
    let today = state.today()?;
    let engine = &state.engine;
    let draft = engine.draft(id)?;
    let view = engine.case(id, today)?;
    let follows = engine
        .follow_link(id)?
        .map(|link| LinkView::new(link.draft_id, link.kind));
    let follow_ups = engine
        .follow_ups(id)?
        .into_iter()
        .map(|(draft, kind)| LinkView::new(Some(draft), kind))
        .collect();
    let photos = |role| -> Result<Vec<PhotoView>, CommandError> {
        Ok(PhotoView::list(engine.case_photos(id, role)?))
    };
    let profile_company = engine
        .profile()?
        .get(ProfileField::CompanyName)
        .map(str::to_owned);
    Ok(CaseDetail {
        draft_id: id.get(),
        can_file: view.is_none() && draft.summary.outcome == DraftOutcome::Ready,
        facts: view.as_ref().map(facts).unwrap_or_default(),
        deadline_line: view.as_ref().and_then(deadline_line),
        can_follow_up: view.as_ref().is_some_and(follow_up_possible),
        filing_photos: photos(AttachmentRole::Filing)?,
        answer_photos: photos(AttachmentRole::Answer)?,
        case: view,
        follows,
        follow_ups,
        profile_company,
        today,
    })
}

/// Whether the next letter can be written: overdue, or answered without solving, not closed.
fn follow_up_possible(view: &CaseView) -> bool {
    match view.state {
        CaseState::Overdue { .. } => true,
        CaseState::Answered { result, .. } => result != AnswerResult::Solved,
        _ => false,
    }
}

/// The case's facts as sentences.
fn facts(view: &CaseView) -> Vec<String> {
    let filing = &view.case.filing;
    let mut lines = vec![format!(
        "Подана {} ({}){}{}.",
        date_ru(filing.filed_on),
        method_ru(filing.method),
        filing
            .number
            .as_deref()
            .map(|number| format!(", входящий №\u{a0}{}", bare_number(number)))
            .unwrap_or_default(),
        filing
            .addressee
            .as_deref()
            .map(|to| format!(", адресат: {to}"))
            .unwrap_or_default()
    )];
    if let Some(delivered) = filing.delivered_on {
        lines.push(format!("Письмо вручено {}", sentence(&date_ru(delivered))));
    }
    if let Some(answer) = view.case.answer {
        lines.push(format!(
            "Ответ получен {}: {}.",
            date_ru(answer.answered_on),
            result_ru(answer.result)
        ));
        if let (
            CaseState::Answered {
                on_time: Some(false),
                ..
            },
            DeadlineState::Known(deadline),
        ) = (view.state, &view.deadline)
        {
            lines.push(format!(
                "Ответ пришёл позже срока ({}).",
                date_ru(deadline.due)
            ));
        }
    }
    if let Some(closed) = view.case.closed_on {
        lines.push(format!("Дело закрыто {}", sentence(&date_ru(closed))));
    }
    lines
}

/// The deadline while an answer is awaited, or why there is none and what to do.
fn deadline_line(view: &CaseView) -> Option<String> {
    if view.case.answer.is_some() || view.case.closed_on.is_some() {
        return None;
    }
    Some(match &view.deadline {
        DeadlineState::Known(deadline) => format!(
            "Ответ должен прийти не позднее {}: {}.{}",
            date_ru(deadline.due),
            view.term_ru,
            view.provisional_ru
                .as_deref()
                .map(|provisional| format!(" {}", sentence(&capitalised(provisional))))
                .unwrap_or_default()
        ),
        DeadlineState::AwaitingDelivery => "Срок ответа начнётся со дня вручения письма. Когда \
             узнаете дату из уведомления о вручении или по трек-номеру, впишите её в сведения о \
             подаче."
            .to_owned(),
        DeadlineState::Unknown { reason, .. } => format!("{}.", capitalised(reason)),
    })
}

fn sentence(text: &str) -> String {
    if text.ends_with('.') {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

/// Marks draft `id` filed, or changes its filing's facts.
pub fn case_file(state: &AppState, id: i64, form: &FilingForm) -> Result<CaseDetail, CommandError> {
    let input = form.input()?;
    state
        .engine
        .file_draft(checked_id(id)?, &input, state.today()?)?;
    case_get(state, id)
}

/// Records a request the resident filed before using Zayavka (issue 38): `text` as filed and
/// its filing, as a new draft that is filed already; the page opens it.
pub fn case_bring_in(
    state: &AppState,
    text: &str,
    form: &FilingForm,
) -> Result<CaseDetail, CommandError> {
    let input = form.input()?;
    let view = state.engine.bring_in(text, &input, state.today()?)?;
    case_get(state, view.case.draft_id.get())
}

/// Takes back a filing mark made by mistake: the filing, the answer and their photos go.
pub fn case_unfile(state: &AppState, id: i64) -> Result<CaseDetail, CommandError> {
    state.engine.withdraw_filing(checked_id(id)?)?;
    case_get(state, id)
}

/// The answer as the page sends it.
#[derive(Debug, Clone, Deserialize, ts_rs::TS)]
pub struct AnswerForm {
    /// The day it came, `ГГГГ-ММ-ДД`.
    pub answered_on: String,
    /// `solved`, `partly`, `refused` or `unaddressed`; checked here, so the page may send only
    /// those.
    #[ts(as = "zayavka_engine::AnswerResult")]
    pub result: String,
}

/// Records the answer to filed draft `id`.
pub fn case_answer(
    state: &AppState,
    id: i64,
    form: &AnswerForm,
) -> Result<CaseDetail, CommandError> {
    let answer = Answer {
        answered_on: date_field(&form.answered_on, "дату ответа")?,
        result: AnswerResult::from_code(form.result.trim())
            .ok_or_else(|| CommandError::invalid_argument("итог ответа"))?,
    };
    state
        .engine
        .record_answer(checked_id(id)?, answer, state.today()?)?;
    case_get(state, id)
}

/// Closes draft `id`'s case today, or opens it again.
pub fn case_close(state: &AppState, id: i64, close: bool) -> Result<CaseDetail, CommandError> {
    state
        .engine
        .close_case(checked_id(id)?, close, state.today()?)?;
    case_get(state, id)
}

/// Attaches photos of the filing or of the answer; gives the case afterwards.
pub fn case_attach(
    state: &AppState,
    id: i64,
    role: AttachmentRole,
    files: &[std::path::PathBuf],
) -> Result<CaseDetail, CommandError> {
    state
        .engine
        .attach_case_photos(checked_id(id)?, role, files)?;
    case_get(state, id)
}

/// The photo roles the page may name.
pub fn photo_role(role: &str) -> Result<AttachmentRole, CommandError> {
    match role {
        "filing" => Ok(AttachmentRole::Filing),
        "answer" => Ok(AttachmentRole::Answer),
        _ => Err(CommandError::invalid_argument("вид фотографий")),
    }
}

/// A new draft that copies filed draft `id`, to correct and file as a new request; its id.
pub fn draft_correct(state: &AppState, id: i64) -> Result<i64, CommandError> {
    Ok(state.engine.correct_draft(checked_id(id)?)?.get())
}

/// The next letter after filed draft `id`: `repeat` to the same company, or `complaint` to
/// the housing inspectorate `addressee`. Stored as a new draft; its id.
pub fn follow_up_write(
    state: &AppState,
    id: i64,
    kind: &str,
    addressee: Option<&str>,
) -> Result<i64, CommandError> {
    let (kind, addressee) = follow_up_kind(kind, addressee)?;
    Ok(state
        .engine
        .write_follow_up(checked_id(id)?, kind, addressee, state.today()?)?
        .get())
}

fn follow_up_kind<'a>(
    kind: &str,
    addressee: Option<&'a str>,
) -> Result<(FollowUpKind, Option<&'a str>), CommandError> {
    match kind {
        "repeat" => Ok((FollowUpKind::Repeat, None)),
        "complaint" => match addressee.map(str::trim).filter(|text| !text.is_empty()) {
            Some(addressee) => Ok((FollowUpKind::Complaint, Some(addressee))),
            None => Err(CommandError::new(
                ErrorKind::InvalidSetting,
                "Впишите, в какую инспекцию жалоба: например, «Государственная жилищная \
                 инспекция Московской области». Название и адрес есть на сайте инспекции вашего \
                 региона или на Госуслугах. Ничего не создано.",
            )),
        },
        _ => Err(CommandError::invalid_argument("вид письма")),
    }
}

/// One filed request as «Сроки» lists it.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct DueItem {
    /// The draft.
    pub draft_id: i64,
    /// Its title as filed, when it has one.
    pub title: Option<String>,
    /// Where it stands, as [`CaseState`] serialises it (`state` names which).
    pub state: CaseState,
    /// The same in plain Russian.
    pub state_ru: String,
    /// Overdue, or due within a few days.
    pub needs_attention: bool,
    /// «подана 3 декабря 2026 г., вх. № 15».
    pub filed_ru: String,
    /// What kind of letter it is, when it follows another.
    pub follows: Option<LinkView>,
}

/// «Сроки»: every filed request, the overdue first, then the nearest deadlines.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct DueView {
    /// Today, `ГГГГ-ММ-ДД` (the app's today, `ZAYAVKA_TODAY`): the latest day a form may take.
    pub today: String,
    /// «4 декабря 2026 г.».
    pub today_ru: String,
    /// How many are overdue.
    pub overdue: u32,
    /// How many are due within a few days (not overdue).
    pub due_soon: u32,
    /// Every filed request.
    pub cases: Vec<DueItem>,
    /// When any deadline rests on data not yet checked against the official texts.
    pub notice: Option<String>,
}

/// Every filed request as it stands today.
pub fn cases_due(state: &AppState) -> Result<DueView, CommandError> {
    let today = state.today()?;
    let views = state.engine.due(today)?;
    let mut cases = Vec::with_capacity(views.len());
    let (mut overdue, mut due_soon) = (0, 0);
    for view in &views {
        let id = view.case.draft_id;
        match view.state {
            CaseState::Overdue { .. } => overdue += 1,
            CaseState::Waiting { .. } if view.state.needs_attention() => due_soon += 1,
            _ => {}
        }
        // A draft that does not read back still has its case listed, without a title.
        let title = state
            .engine
            .draft(id)
            .ok()
            .and_then(|draft| draft.summary.title);
        cases.push(DueItem {
            draft_id: id.get(),
            title,
            state: view.state,
            state_ru: view.state_ru.clone(),
            needs_attention: view.state.needs_attention(),
            filed_ru: format!(
                "подана {}{}",
                date_ru(view.case.filing.filed_on),
                view.case
                    .filing
                    .number
                    .as_deref()
                    .map(|number| format!(", вх. №\u{a0}{}", bare_number(number)))
                    .unwrap_or_default()
            ),
            follows: view
                .case
                .follows
                .map(|link| LinkView::new(link.draft_id, link.kind)),
        });
    }
    Ok(DueView {
        today: today.to_string(),
        today_ru: date_ru(today),
        overdue,
        due_soon,
        notice: views
            .iter()
            .any(|view| view.notice_ru.is_some())
            .then(|| zayavka_engine::DEADLINE_REVIEW_NOTICE.to_owned()),
        cases,
    })
}

/// The deadline of draft `id` as an iCalendar event, and the file name to suggest.
pub fn case_calendar(state: &AppState, id: i64) -> Result<(String, String), CommandError> {
    let draft_id = checked_id(id)?;
    let Some(view) = state.engine.case(draft_id, state.today()?)? else {
        return Err(CommandError::new(
            ErrorKind::InvalidArgument,
            "Этот черновик не отмечен как поданный, и срока ответа у него нет. Сначала отметьте \
             подачу.",
        ));
    };
    let title = state.engine.draft(draft_id)?.summary.title;
    zayavka_engine::deadline_event(&view, title.as_deref(), jiff::Timestamp::now())
        .map(|event| (format!("Срок-ответа-{id}.ics"), event))
        .ok_or_else(|| {
            CommandError::new(
                ErrorKind::InvalidArgument,
                format!(
                    "Событие для календаря не создано: {}",
                    deadline_line(&view).unwrap_or_else(|| "ответ уже получен.".to_owned())
                ),
            )
        })
}

/// What marking a batch filed did, in one sentence for the «Пакет» screen.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct BatchFilingView {
    /// Rows marked filed now.
    pub filed: u32,
    /// What happened to every row asked for.
    pub message: String,
    /// The batch's cases afterwards.
    pub cases: CaseCounts,
}

/// Rows as a message lists them: «2, 5, 7».
fn row_list(rows: &[u32]) -> String {
    rows.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Marks the ready rows of batch `number` filed in one step: `rows` (as numbered in the
/// file), or every ready row when empty.
pub fn batch_file(
    state: &AppState,
    number: u32,
    rows: &[u32],
    form: &FilingForm,
) -> Result<BatchFilingView, CommandError> {
    let input = form.input()?;
    let today = state.today()?;
    let batch_id = state.engine.find_batch(&number.to_string())?.id;
    let report = state.engine.file_batch(&batch_id, rows, &input, today)?;
    let mut message = format!(
        "Отмечено поданными {} ({}): {}.",
        date_ru(input.filed_on),
        method_ru(input.method),
        report.filed.len()
    );
    for (rows, what) in [
        (
            &report.already_filed,
            "уже были отмечены и остались как были",
        ),
        (&report.not_ready, "без готовой заявки, не отмечены"),
        (&report.unknown, "таких строк в пакете нет"),
    ] {
        if !rows.is_empty() {
            message.push_str(&format!(" Строки {}: {what}.", row_list(rows)));
        }
    }
    Ok(BatchFilingView {
        filed: u32::try_from(report.filed.len()).unwrap_or(u32::MAX),
        message,
        cases: state.engine.batch_cases(&batch_id, today)?,
    })
}

/// How a batch's filed rows stand today, and today (the filing form's default date).
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct BatchCasesView {
    /// Filed, answered, overdue, solved.
    #[serde(flatten)]
    pub counts: CaseCounts,
    /// The date the app takes as today.
    pub today: Date,
}

/// How the filed rows of batch `number` stand today.
pub fn batch_cases(state: &AppState, number: u32) -> Result<BatchCasesView, CommandError> {
    let batch_id = state.engine.find_batch(&number.to_string())?.id;
    let today = state.today()?;
    Ok(BatchCasesView {
        counts: state.engine.batch_cases(&batch_id, today)?,
        today,
    })
}

/// What writing a batch's letters did.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct BatchFollowUpView {
    /// The folder the documents went to.
    pub folder: String,
    /// Documents written (new letters and letters written before, saved again).
    pub written: u32,
    /// What happened to every filed row, in one paragraph.
    pub message: String,
}

/// Writes the repeat requests (`repeat`) or the complaints (`complaint`, to `addressee`) for
/// batch `number`'s overdue and unsolved rows, stores each as a draft and saves it as a
/// document of `format` into `folder` (`row-0004-repeat.pdf`, …).
pub fn batch_follow_up(
    state: &AppState,
    number: u32,
    kind: &str,
    addressee: Option<&str>,
    format: DocumentFormat,
    folder: &Path,
) -> Result<BatchFollowUpView, CommandError> {
    let (kind, addressee) = follow_up_kind(kind, addressee)?;
    let today = state.today()?;
    let batch_id = state.engine.find_batch(&number.to_string())?.id;
    let report = state
        .engine
        .batch_follow_ups(&batch_id, kind, addressee, today)?;
    let mut written = 0_u32;
    for (row, letter) in report.written.iter().chain(&report.existing) {
        let path = folder.join(format!(
            "row-{row:04}-{}.{}",
            kind.code(),
            format.extension()
        ));
        let bytes = state
            .engine
            .filed_document(*letter, today, false)?
            .render(format)
            .map_err(zayavka_engine::FilingError::Render)?;
        zayavka_engine::save_document(&path, &bytes)?;
        written += 1;
    }
    let mut message = if written == 0 {
        "Писать пока некому: ни по одной поданной строке срок ответа не истёк без ответа, и ни \
         один ответ не оставил проблему нерешённой."
            .to_owned()
    } else {
        format!(
            "Сохранено документов: {written} — в папке {}.",
            folder.display()
        )
    };
    let existing: Vec<u32> = report.existing.iter().map(|(row, _)| *row).collect();
    for (rows, what) in [
        (&existing, "письма были написаны раньше и сохранены снова"),
        (&report.not_due, "срок ответа ещё не истёк"),
        (&report.solved, "проблема решена"),
    ] {
        if !rows.is_empty() {
            message.push_str(&format!(" Строки {}: {what}.", row_list(rows)));
        }
    }
    Ok(BatchFollowUpView {
        folder: folder.display().to_string(),
        written,
        message,
    })
}
