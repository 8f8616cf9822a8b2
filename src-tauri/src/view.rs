//! The values the page receives (their TypeScript in ui/js/ipc-contract.d.ts), built from the
//! engine's typed values. Nothing here decides anything: each field is read from the engine.
//! This module holds a draft's views; «Настройки» and «Пакет» have their own.

mod batch;
mod page_words;
mod settings;

pub use batch::{
    BatchExportView, BatchListView, BatchPlanView, BatchProgressView, BatchRowView,
    BatchSummaryView, SkippedRowView,
};
pub use settings::{EffectiveView, KeyStatusView, PresetView, ServiceFieldsView, SettingsView};

use serde::Serialize;
use zayavka_engine::{
    AttachmentSummary, CO_SIGNERS_COLUMNS, CO_SIGNERS_HEADING, CO_SIGNERS_SENTENCE, Check,
    CheckName, CheckStatus, DraftEvent, DraftListItem, DraftOutcome, DraftsError, FiledDocument,
    HeaderLine, NextStep, Outcome, Request, ResidentNote, StoredDraft, stored_notes,
    stored_outcome, stored_record,
};

/// What the page hears while a model call is under way.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct DraftProgress {
    /// The attempt under way, or the one that follows the wait.
    pub attempt: u32,
    /// Since the draft started.
    pub elapsed_ms: u64,
    /// Where the call stands.
    pub state: ProgressState,
    /// The pause before the next attempt, while `waiting_retry`.
    pub wait_ms: Option<u64>,
    /// The step in one Russian sentence, the same the command-line tool shows, such as
    /// «Сервис модели занят (HTTP 503), пробуем ещё раз через 2 с…».
    pub message: String,
}

/// Where a model call stands, as [`DraftProgress`] says.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ProgressState {
    /// The request is on its way.
    Sending,
    /// The service did not answer; another attempt follows after `wait_ms`.
    WaitingRetry,
    /// The model's answer did not pass the checks and it is asked again.
    Reasking,
}

impl DraftProgress {
    /// The message for an engine event; `None` for a kind this page contract does not know,
    /// which the page then does not hear about.
    pub fn of(event: DraftEvent, elapsed: std::time::Duration) -> Option<DraftProgress> {
        let elapsed_ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
        let message = event.message_ru();
        Some(match event {
            DraftEvent::Sending { attempt, reask } => DraftProgress {
                attempt,
                elapsed_ms,
                state: if reask {
                    ProgressState::Reasking
                } else {
                    ProgressState::Sending
                },
                wait_ms: None,
                message,
            },
            DraftEvent::Waiting { attempt, wait, .. } => DraftProgress {
                attempt: attempt + 1,
                elapsed_ms,
                state: ProgressState::WaitingRetry,
                wait_ms: Some(u64::try_from(wait.as_millis()).unwrap_or(u64::MAX)),
                message,
            },
            _ => return None,
        })
    }
}

/// A request as the page renders it: the engine's request with the resident's latest edit.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct RequestView {
    /// Title, body, sections, item, legal fields and warnings, as the engine serialises them.
    #[serde(flatten)]
    pub request: Request,
    /// The resident's latest edit, if any.
    pub edited: Option<Edited>,
    /// The legal paragraph's status in one Russian sentence, the same «Как получен результат»
    /// and the command-line tool give ([`Request::legal_status_ru`]).
    pub legal_status: String,
    /// The program's own notes on the resident's text (issue 36): `{kind, words, message}`,
    /// `kind` `relative_date` or `no_place`; shown apart from the model's warnings, never
    /// blocking.
    pub notes: Vec<ResidentNote>,
}

/// The resident's own text of a request.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct Edited {
    /// The title.
    pub title: String,
    /// The body.
    pub body: String,
    /// Whether it is a request filed before Zayavka, its text as it was filed (issue 38),
    /// rather than an edit.
    pub brought_in: bool,
}

/// One field error of refused input.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct FieldError {
    /// The form field.
    pub field: String,
    /// The core's stable code.
    #[ts(as = "zayavka_engine::InputErrorCode")]
    pub code: &'static str,
    /// The Russian message.
    pub message: String,
    /// The field's label on the form («Описание проблемы»), for a field of the resident's input
    /// that was refused; null for any other error.
    pub label: Option<&'static str>,
}

/// How a draft came out, for the result card or panel.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct DraftResult {
    /// The stored draft; null when the drafts database could not be used.
    pub draft_id: Option<i64>,
    /// `ready`, `needs_user`, `rejected`, `failed`, `invalid_input`, or `pending` for a stored
    /// draft whose run was interrupted.
    #[ts(as = "DraftOutcome")]
    pub outcome: &'static str,
    /// The engine's reason code.
    pub reason: Option<String>,
    /// What happened and what to do next, in Russian.
    pub message: String,
    /// What the resident can do next.
    pub next_steps: Vec<NextStep>,
    /// The request, when the outcome is ready.
    pub request: Option<RequestView>,
    /// Refused input, field by field.
    pub errors: Vec<FieldError>,
    /// What to change, for `needs_user`.
    pub hints: Vec<String>,
    /// Whether trying again may help.
    pub retryable: bool,
    /// HTTP attempts made.
    pub attempts: u32,
    /// Whether a model wrote the description.
    pub model_used: bool,
    /// For a technical failure: what the page shows under «Подробности». Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub details: Option<FailureDetails>,
}

/// The technical side of a failure, for «Подробности»: the engine's detail in Russian and the
/// server's own reason, redacted and bounded by the engine (ADR 24).
#[derive(Debug, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct FailureDetails {
    /// What failed, in Russian, such as «сервер модели не принял ключ доступа (HTTP 401)»;
    /// null when there is nothing to add to the message.
    pub detail: Option<String>,
    /// What the server answered, such as «Payment Required»; null when no server answered.
    pub server_reason: Option<String>,
}

impl FailureDetails {
    fn of(outcome: &Outcome) -> Option<FailureDetails> {
        let Outcome::Failed(failure) = outcome else {
            return None;
        };
        let detail = (!failure.detail.is_empty()).then(|| failure.detail.clone());
        let server_reason = failure.advice.server_reason.clone();
        (detail.is_some() || server_reason.is_some()).then_some(FailureDetails {
            detail,
            server_reason,
        })
    }
}

impl DraftResult {
    /// The result of an outcome, for the stored draft `draft_id`.
    pub fn from_outcome(
        outcome: &Outcome,
        draft_id: Option<i64>,
        attempts: u32,
        retryable: bool,
        model_used: bool,
        edited: Option<Edited>,
    ) -> DraftResult {
        let report = outcome.report();
        DraftResult {
            draft_id,
            outcome: outcome.kind().code(),
            reason: outcome.reason().map(str::to_owned),
            message: outcome.message_ru(),
            next_steps: outcome.next_steps(),
            request: outcome.request().map(|request| RequestView {
                legal_status: request.legal_status_ru(),
                request: request.clone(),
                edited,
                notes: Vec::new(),
            }),
            errors: report
                .errors
                .into_iter()
                .map(|error| {
                    let field = error.field.trim_start_matches('/').to_owned();
                    FieldError {
                        label: input_label(outcome, &field),
                        field,
                        code: error.code,
                        message: error.message,
                    }
                })
                .collect(),
            hints: report.hints,
            retryable,
            attempts,
            model_used,
            details: FailureDetails::of(outcome),
        }
    }

    /// The result with the program's notes on the resident's text, for a ready request.
    pub fn with_notes(mut self, notes: Vec<ResidentNote>) -> DraftResult {
        if let Some(request) = &mut self.request {
            request.notes = notes;
        }
        self
    }

    /// A stored draft as it stands now, shown as its run was.
    pub fn from_stored(draft: &StoredDraft) -> Result<DraftResult, DraftsError> {
        let id = draft.summary.id.get();
        let attempts = draft.attempts.len() as u32;
        let edited = draft.versions.last().map(|version| Edited {
            title: version.title.clone(),
            body: version.body.clone(),
            brought_in: version.author == zayavka_engine::BROUGHT_IN_AUTHOR,
        });
        Ok(match stored_outcome(draft)? {
            Some(outcome) => DraftResult::from_outcome(
                &outcome,
                Some(id),
                attempts,
                draft.retryable.unwrap_or(false),
                draft.model_used,
                edited,
            )
            .with_notes(stored_notes(draft)),
            None => DraftResult {
                draft_id: Some(id),
                outcome: DraftOutcome::Pending.code(),
                reason: Some("interrupted".to_owned()),
                message: "Составление этой заявки прервалось: приложение закрылось, пока \
                          ждало ответа сервиса модели. Текст сохранён — откройте его в форме \
                          и отправьте снова."
                    .to_owned(),
                next_steps: vec![NextStep::Retry],
                request: None,
                errors: Vec::new(),
                hints: Vec::new(),
                retryable: true,
                attempts,
                model_used: draft.model_used,
                details: None,
            },
        })
    }
}

/// The form's label of `field` when `outcome` refused the resident's input in that field.
fn input_label(outcome: &Outcome, field: &str) -> Option<&'static str> {
    let Outcome::InvalidInput(errors) = outcome else {
        return None;
    };
    errors
        .iter()
        .filter_map(|error| error.field)
        .find(|input_field| input_field.code() == field)
        .map(|input_field| input_field.label_ru())
}

/// One version of the request text.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct VersionView {
    /// From 1.
    pub version: u32,
    /// Who wrote it: `resident` (an edit) or `brought_in` (a request's text as it was filed
    /// before Zayavka, issue 38); the model's and the program's text are the draft's result,
    /// not versions.
    #[ts(type = r#""resident" | "brought_in""#)]
    pub author: String,
    /// The title.
    pub title: String,
    /// The body.
    pub body: String,
    /// RFC 3339.
    pub created_at: String,
}

/// One HTTP attempt, for «Как получен результат».
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct AttemptView {
    /// Its number.
    pub number: u32,
    /// The HTTP status, when an answer arrived.
    pub status: Option<u16>,
    /// What went wrong, as a stable code.
    pub error_kind: Option<String>,
    /// Why it was retried.
    pub retry_reason: Option<String>,
    /// How long it took.
    pub duration_ms: u64,
}

/// One message sent to the model.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct MessageView {
    /// `system`, `user` or `assistant`.
    pub role: String,
    /// Exactly what was sent.
    pub content: String,
}

/// How a result was reached.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct Explain {
    /// The model.
    pub model: Option<String>,
    /// The provider's host.
    pub provider_host: Option<String>,
    /// When the first attempt started, RFC 3339.
    pub started_at: Option<String>,
    /// From the first attempt's start to the last one's end.
    pub duration_ms: Option<u64>,
    /// Every attempt.
    pub attempts: Vec<AttemptView>,
    /// Every message sent, re-asks included.
    pub messages: Vec<MessageView>,
    /// The legal decision, one Russian sentence.
    pub legal_decision: String,
}

/// A stored draft in full.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct DraftDetail {
    /// As lists show it.
    pub summary: DraftListItem,
    /// As it stands now.
    pub result: DraftResult,
    /// The resident's versions, oldest first.
    pub versions: Vec<VersionView>,
    /// How it was reached; null when no model was used.
    pub explain: Option<Explain>,
}

impl DraftDetail {
    /// Everything about a stored draft.
    pub fn of(draft: &StoredDraft) -> Result<DraftDetail, DraftsError> {
        let result = DraftResult::from_stored(draft)?;
        let record = stored_record(draft)?;
        let explained = zayavka_engine::explanation(
            result.request.as_ref().map(|view| &view.request),
            record.as_ref(),
            draft.model_used,
        );
        let explain = explained.call.map(|call| Explain {
            model: Some(call.model),
            provider_host: Some(call.provider_host),
            started_at: call.started_at.map(|moment| moment.to_string()),
            duration_ms: call.duration_ms,
            attempts: call
                .attempts
                .iter()
                .map(|attempt| AttemptView {
                    number: attempt.number,
                    status: attempt.http_status,
                    error_kind: attempt.error_kind.map(|kind| kind.code().to_owned()),
                    retry_reason: attempt
                        .retry_reason
                        .map(|reason| reason.as_str().into_owned()),
                    duration_ms: attempt.duration_ms,
                })
                .collect(),
            messages: call
                .messages
                .into_iter()
                .map(|message| MessageView {
                    role: match message.role {
                        zayavka_engine::Role::System => "system",
                        zayavka_engine::Role::User => "user",
                        zayavka_engine::Role::Assistant => "assistant",
                    }
                    .to_owned(),
                    content: message.content,
                })
                .collect(),
            legal_decision: explained.legal_decision,
        });
        Ok(DraftDetail {
            summary: DraftListItem::from(&draft.summary),
            result,
            versions: draft
                .versions
                .iter()
                .map(|version| VersionView {
                    version: version.version,
                    author: version.author.clone(),
                    title: version.title.clone(),
                    body: version.body.clone(),
                    created_at: version.created_at.to_string(),
                })
                .collect(),
            explain,
        })
    }
}

/// One connection check, in the words of the settings screen.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct CheckView {
    /// The engine's stable name.
    pub id: CheckName,
    /// `ok`, `warning` or `problem`.
    pub status: CheckStatus,
    /// What was checked, in Russian.
    pub title: &'static str,
    /// What was found.
    pub message: String,
    /// The most useful next step.
    pub next_step: Option<NextStep>,
}

impl From<Check> for CheckView {
    fn from(check: Check) -> CheckView {
        CheckView {
            id: check.name,
            status: check.status,
            title: check.title_ru(),
            next_step: check.next_steps.first().copied(),
            message: check.message,
        }
    }
}

/// All connection checks.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct DoctorReport {
    /// In the order they ran.
    pub checks: Vec<CheckView>,
}

/// A photo of a draft as the page lists it: the engine's summary, and the photo's short name.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct PhotoView {
    /// Number, format, size, hash and label («Фото 1 (JPEG, 1,2 МБ)»), as the engine
    /// serialises them.
    #[serde(flatten)]
    pub photo: AttachmentSummary,
    /// How the document names the photo in short, the start of its label: «Фото 1».
    pub name: String,
}

impl PhotoView {
    /// A draft's photos, in their order.
    pub fn list(photos: Vec<AttachmentSummary>) -> Vec<PhotoView> {
        photos
            .into_iter()
            .map(|photo| PhotoView {
                name: zayavka_engine::photo_name(photo.number),
                photo,
            })
            .collect()
    }
}

/// One line of a document's header as printed: its label and the value or the marked blank.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct DocumentLine {
    /// «Кому», «Адрес», «От», …
    pub label: &'static str,
    /// The profile's value, or the blank to fill in by hand.
    pub value: String,
    /// Whether the value is a blank.
    pub blank: bool,
}

/// A filed document as «Печать» lays it out: the same parts, in the same order and with the
/// same text, as the saved PDF.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct DocumentView {
    /// To whom.
    pub recipient: Vec<DocumentLine>,
    /// From whom.
    pub sender: Vec<DocumentLine>,
    /// The request's title.
    pub title: String,
    /// The body's paragraphs, split at blank lines; line breaks inside a paragraph are kept.
    pub paragraphs: Vec<String>,
    /// The «Приложения» list: its heading, then one line per attached photo; empty without
    /// photos. (The photos themselves are on the saved PDF's last pages.)
    pub appendix: Vec<String>,
    /// The table for neighbours' signatures of a collective request, printed after the text.
    pub co_signers: Option<CoSignersView>,
    /// The date as printed («1 декабря 2026 г.»).
    pub date: String,
    /// The signature line.
    pub signature: String,
}

/// The signatures table of a collective request: its heading, the sentence above it, the
/// column headings and the number of empty rows, as in the saved document.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct CoSignersView {
    /// «Подписи жителей».
    pub heading: &'static str,
    /// «Заявку поддерживают жители дома:».
    pub sentence: &'static str,
    /// «№», «ФИО», «Квартира», «Подпись».
    pub columns: [&'static str; 4],
    /// How many empty rows to sign on.
    pub rows: u32,
}

impl From<&FiledDocument> for DocumentView {
    fn from(document: &FiledDocument) -> DocumentView {
        let lines = |lines: &[HeaderLine]| {
            lines
                .iter()
                .map(|line| DocumentLine {
                    label: line.label,
                    value: line.shown(),
                    blank: line.value.is_none(),
                })
                .collect()
        };
        DocumentView {
            recipient: lines(&document.recipient),
            sender: lines(&document.sender),
            title: document.title.clone(),
            paragraphs: document
                .body
                .split("\n\n")
                .filter(|paragraph| !paragraph.trim().is_empty())
                .map(str::to_owned)
                .collect(),
            appendix: document.appendix_lines(),
            co_signers: document.co_signers.map(|co_signers| CoSignersView {
                heading: CO_SIGNERS_HEADING,
                sentence: CO_SIGNERS_SENTENCE,
                columns: CO_SIGNERS_COLUMNS,
                rows: co_signers.rows(),
            }),
            date: document.date_ru.clone(),
            signature: document.signature_line(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 15: a failed draft's «Подробности» carry the engine's detail and the server's
    /// reason; the message is the service's advice; other outcomes have no details at all.
    #[test]
    fn issue_15_a_failure_sends_its_details_and_the_service_s_advice() {
        let mut failure = zayavka_engine::Failure::new(
            zayavka_engine::FailureReason::InsufficientQuota,
            false,
            "на счёте у провайдера закончилась квота (HTTP 402)".to_owned(),
        );
        failure.advice = zayavka_engine::FailureAdvice {
            message_ru: Some("В GigaChat закончились токены (HTTP 402).".to_owned()),
            server_reason: Some("Payment Required".to_owned()),
        };
        let result =
            DraftResult::from_outcome(&Outcome::Failed(failure), Some(7), 1, false, true, None);
        let json = serde_json::to_value(&result).unwrap();
        assert_eq!(
            json["details"],
            serde_json::json!({
                "detail": "на счёте у провайдера закончилась квота (HTTP 402)",
                "server_reason": "Payment Required",
            })
        );
        assert!(
            result
                .message
                .starts_with("В GigaChat закончились токены (HTTP 402)."),
            "{}",
            result.message
        );
        let plain = zayavka_engine::Failure::new(
            zayavka_engine::FailureReason::Cancelled,
            false,
            String::new(),
        );
        let plain =
            DraftResult::from_outcome(&Outcome::Failed(plain), Some(7), 0, false, true, None);
        assert!(
            serde_json::to_value(&plain)
                .unwrap()
                .get("details")
                .is_none()
        );
    }

    /// Issue 18: a refused field comes with its label on the form, so the page names it in the
    /// engine's words instead of keeping a copy; an error that names no form field has none.
    #[test]
    fn issue_18_refused_input_names_each_field_by_its_label_on_the_form() {
        let errors = zayavka_core::ResidentInput::from_json_str(
            r#"{"description": "Темно", "confirmed_subject": "yard", "colour": "красный"}"#,
        )
        .expect_err("the input is refused");
        let result =
            DraftResult::from_outcome(&Outcome::InvalidInput(errors), None, 0, false, false, None);
        let labels: Vec<(&str, Option<&str>)> = result
            .errors
            .iter()
            .map(|error| (error.field.as_str(), error.label))
            .collect();
        assert_eq!(
            labels,
            [
                ("description", Some("Описание проблемы")),
                ("confirmed_subject", Some("К чему относится проблема")),
                ("colour", None),
            ]
        );
        let json = serde_json::to_value(&result).unwrap();
        assert_eq!(json["errors"][0]["label"], "Описание проблемы");
        assert_eq!(json["errors"][2]["label"], serde_json::Value::Null);
    }

    /// Regression (issue 14): «Проверить подключение» spoke to residents in internal module ids
    /// («…сопровождающими: common, common_area_roof»). The app now shows one plain line; the ids
    /// stay in the detail that `zayavka doctor` prints, which never reaches the page.
    #[test]
    fn issue_14_the_connection_check_shows_the_legal_review_in_one_plain_line() {
        let checks = zayavka_engine::legal_module_checks(jiff::civil::date(2026, 12, 1));
        let views: Vec<CheckView> = checks.into_iter().map(Into::into).collect();
        let review = views
            .iter()
            .find(|view| view.id == CheckName::LegalModulesReview)
            .expect("the catalogue has modules awaiting review");
        assert_eq!(review.title, "Сверка нормативных абзацев");
        assert_eq!(
            review.message,
            "Не все нормативные абзацы приложения пока сверены с официальным текстом законов: \
             перед отправкой перечитайте абзац с пометкой «нормативный текст»."
        );
        let sent = serde_json::to_string(&views).unwrap();
        for module in zayavka_engine::legal_catalogue().awaiting_verification() {
            assert!(
                !sent.contains(&format!("{} (", module.id)),
                "{}: {sent}",
                module.id
            );
        }
        assert!(!sent.contains("detail"), "{sent}");
        assert!(!sent.contains("legal-maintenance"), "{sent}");
    }
}
