//! Typed outcomes, their stable reason codes, and the next steps a front end offers.
//!
//! Every run ends in exactly one [`Outcome`]. The kinds never mix: a technical failure is never
//! reported as something wrong with the resident's problem, and «not enough information» is
//! never reported as a rejection. Messages here say what happened in words that fit any
//! surface; what to do next is a typed [`NextStep`] that each front end words itself (the
//! command-line tool as a command, the desktop app as a button). Exit codes are the
//! command-line tool's own.

use serde::Serialize;

use crate::assemble::Request;
#[cfg(test)]
use crate::finding::{Finding, FindingCode};
use crate::finding::{Rejection, RejectionReason};
use crate::input::{BODY_LIMIT, InputErrors};
use crate::policy::OmissionReason;
use zayavka_codes::stable_codes;

stable_codes! {
    /// Which of its five ways a run ended.
    pub enum OutcomeKind {
        /// A request was assembled and may be shown.
        Ready => "ready",
        /// The resident is asked to change the text.
        NeedsUser => "needs_user",
        /// The model's output could not be used.
        Rejected => "rejected",
        /// A technical failure.
        Failed => "failed",
        /// The resident input was refused before any call.
        InvalidInput => "invalid_input",
    }
}

stable_codes! {
    /// Why the resident is asked to change the text; no partial request is produced.
    #[non_exhaustive]
    pub enum NeedsUserReason {
        /// The text holds several unrelated problems.
        MultipleProblems => "multiple_problems",
        /// The text holds too little to describe a problem.
        InsufficientInformation => "insufficient_information",
    }
}

stable_codes! {
    /// A technical failure: nothing was learned about the resident's problem.
    #[non_exhaustive]
    pub enum FailureReason {
        /// The provider did not answer in time.
        Timeout => "timeout",
        /// The provider limited the rate of requests.
        RateLimited => "rate_limited",
        /// The provider could not be reached or answered with a server error.
        Unavailable => "unavailable",
        /// The provider did not accept the API key.
        Auth => "auth",
        /// The provider refused the request as malformed.
        BadRequest => "bad_request",
        /// The provider does not take the requested response format (schema mode).
        SchemaModeUnsupported => "schema_mode_unsupported",
        /// The provider account has no quota left.
        InsufficientQuota => "insufficient_quota",
        /// The provider's response exceeded the size cap.
        ResponseTooLarge => "response_too_large",
        /// The provider's response was not a chat-completions answer.
        InvalidResponse => "invalid_response",
        /// No API key is configured for a provider that needs one.
        NoApiKey => "no_api_key",
        /// The configuration is incomplete or wrong.
        BadConfig => "bad_config",
        /// The resident cancelled.
        Cancelled => "cancelled",
        /// The request does not fit the model's context window (a local server's context
        /// size is too small for the prompt).
        ContextTooSmall => "context_too_small",
    }
}

impl FailureReason {
    /// What happened and what to do, for the resident, in Russian. It speaks about the
    /// connection to the model only, never about the resident's problem or text, and names no
    /// command or button: the front end adds its own wording of [`FailureReason::next_steps`].
    pub const fn message_ru(self) -> &'static str {
        match self {
            FailureReason::Timeout => {
                "Сервис модели не ответил вовремя. Попробуйте ещё раз чуть позже."
            }
            FailureReason::RateLimited => {
                "Сервис модели временно ограничил число запросов. Подождите минуту и \
                 попробуйте снова."
            }
            FailureReason::Unavailable => {
                "Сервис модели сейчас недоступен. Проверьте подключение к интернету и адрес \
                 сервиса в настройках, затем попробуйте снова."
            }
            FailureReason::Auth => {
                "Сервис модели не принял ключ доступа. Проверьте ключ и задайте его заново."
            }
            FailureReason::BadRequest => {
                "Сервис модели отклонил технические параметры запроса. Проверьте название \
                 модели и настройки сервиса."
            }
            FailureReason::SchemaModeUnsupported => {
                "Сервер модели не принимает выбранный режим ответа по схеме. Выберите в \
                 настройках другой режим."
            }
            FailureReason::InsufficientQuota => {
                "У учётной записи сервиса модели закончились средства или квота. Пополните \
                 баланс или выберите другой сервис в настройках."
            }
            FailureReason::ResponseTooLarge => {
                "Сервис модели прислал слишком большой ответ, и он не был принят. Попробуйте \
                 ещё раз или выберите другую модель."
            }
            FailureReason::InvalidResponse => {
                "Сервис модели прислал ответ в неожиданном формате. Попробуйте ещё раз позже \
                 или проверьте адрес сервиса в настройках."
            }
            FailureReason::NoApiKey => {
                "Ключ доступа к сервису модели не задан. Задайте ключ, чтобы составлять \
                 заявки с моделью."
            }
            FailureReason::BadConfig => {
                "Сервис модели не настроен или настроен неверно. Проверьте настройки."
            }
            FailureReason::Cancelled => "Запрос к сервису модели отменён.",
            FailureReason::ContextTooSmall => {
                "Запрос не помещается в контекст модели. Увеличьте размер контекста в \
                 настройках сервера модели или выберите модель с контекстом побольше."
            }
        }
    }

    /// Whether every further request to the same service would fail the same way (the key,
    /// the quota, the schema mode, the settings): a run of many requests (a batch, an
    /// evaluation) stops sending to that service after one of these.
    pub fn halts_further_requests(self) -> bool {
        matches!(
            self,
            FailureReason::Auth
                | FailureReason::NoApiKey
                | FailureReason::InsufficientQuota
                | FailureReason::SchemaModeUnsupported
                | FailureReason::BadConfig
        )
    }

    /// What the resident can do about this failure, the most useful first.
    pub fn next_steps(self) -> Vec<NextStep> {
        let first: &[NextStep] = match self {
            FailureReason::Timeout | FailureReason::ResponseTooLarge | FailureReason::Cancelled => {
                &[NextStep::Retry]
            }
            FailureReason::RateLimited => &[NextStep::RetryLater],
            FailureReason::Unavailable | FailureReason::InvalidResponse => {
                &[NextStep::Retry, NextStep::CheckProviderSettings]
            }
            FailureReason::Auth | FailureReason::NoApiKey => &[NextStep::StoreApiKey],
            FailureReason::BadRequest | FailureReason::ContextTooSmall => {
                &[NextStep::CheckProviderSettings]
            }
            FailureReason::SchemaModeUnsupported => &[NextStep::SwitchSchemaMode],
            FailureReason::InsufficientQuota => &[NextStep::CheckProviderAccount],
            FailureReason::BadConfig => &[NextStep::ConfigureProvider],
        };
        let mut steps = first.to_vec();
        steps.push(NextStep::DraftWithoutModel);
        steps
    }
}

stable_codes! {
    /// Something the resident can do next. Each front end words it itself: the command-line
    /// tool as a command to run, the desktop app as a button or a focused field.
    #[non_exhaustive]
    pub enum NextStep {
        /// Correct the fields the errors name.
        FixInput => "fix_input",
        /// Describe one problem per request.
        DescribeOneProblem => "describe_one_problem",
        /// Say more about what happened, where and since when.
        AddDetails => "add_details",
        /// Shorten the text so that the request fits.
        ShortenText => "shorten_text",
        /// Try the same request again now.
        Retry => "retry",
        /// Wait a little, then try again.
        RetryLater => "retry_later",
        /// Draft the request from the resident's own words, without a model.
        DraftWithoutModel => "draft_without_model",
        /// Choose and set up a model provider.
        ConfigureProvider => "configure_provider",
        /// Store (or replace) the provider's API key.
        StoreApiKey => "store_api_key",
        /// Check the provider's address and model.
        CheckProviderSettings => "check_provider_settings",
        /// Choose the other schema mode for this provider.
        SwitchSchemaMode => "switch_schema_mode",
        /// Check the balance or quota of the provider account.
        CheckProviderAccount => "check_provider_account",
        /// Say what the problem concerns, so that a legal paragraph can be added.
        ConfirmSubject => "confirm_subject",
    }
}

/// A technical failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Why.
    pub reason: FailureReason,
    /// Whether trying again later may help.
    pub retryable: bool,
    /// A technical detail for the record, in Russian, with every secret already removed.
    pub detail: String,
    /// What the service in use says to do about it, and what its server answered; empty where
    /// only the reason is known (ADR 24).
    pub advice: FailureAdvice,
}

/// The words of a failure that depend on the service in use, which only the engine knows: the
/// core keeps them so that every front end shows the same.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FailureAdvice {
    /// What happened and what to do, for this service, in Russian, naming no command or
    /// button: where in the service's personal account a new key is made, which setting to
    /// change and to what. Replaces [`FailureReason::message_ru`] when present.
    pub message_ru: Option<String>,
    /// The server's own reason for the last failed attempt, as one line: its error message,
    /// or the start of its body, with every key, token and `Authorization` value removed and
    /// bounded in length. Shown under «Подробности»; absent when no server answered.
    pub server_reason: Option<String>,
}

impl Failure {
    /// A failure with no service-specific advice: the reason's own message is shown.
    pub fn new(reason: FailureReason, retryable: bool, detail: String) -> Failure {
        Failure {
            reason,
            retryable,
            detail,
            advice: FailureAdvice::default(),
        }
    }

    /// What happened and what to do, in Russian: the service's advice when there is one,
    /// otherwise the reason's generic message.
    pub fn message_ru(&self) -> &str {
        self.advice
            .message_ru
            .as_deref()
            .unwrap_or(self.reason.message_ru())
    }
}

/// How one run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A request was assembled.
    Ready(Request),
    /// The resident is asked to change the text.
    NeedsUser {
        /// Why.
        reason: NeedsUserReason,
        /// The model's short notes on what to change (which problems to split, what is
        /// missing), when they pass the same checks as a draft's warnings.
        hints: Vec<String>,
    },
    /// The model's output could not be used.
    Rejected(Rejection),
    /// A technical failure.
    Failed(Failure),
    /// The resident input was refused before any call.
    InvalidInput(InputErrors),
}

impl Outcome {
    /// The outcome's kind, serialised as its stable name.
    pub fn kind(&self) -> OutcomeKind {
        match self {
            Outcome::Ready(_) => OutcomeKind::Ready,
            Outcome::NeedsUser { .. } => OutcomeKind::NeedsUser,
            Outcome::Rejected(_) => OutcomeKind::Rejected,
            Outcome::Failed(_) => OutcomeKind::Failed,
            Outcome::InvalidInput(_) => OutcomeKind::InvalidInput,
        }
    }

    /// The stable reason code, if the kind has reasons.
    pub fn reason(&self) -> Option<&'static str> {
        match self {
            Outcome::Ready(_) => None,
            Outcome::NeedsUser { reason, .. } => Some(reason.code()),
            Outcome::Rejected(rejection) => Some(rejection.reason().code()),
            Outcome::Failed(failure) => Some(failure.reason.code()),
            Outcome::InvalidInput(_) => Some("invalid_input"),
        }
    }

    /// The request, when one was assembled.
    pub fn request(&self) -> Option<&Request> {
        match self {
            Outcome::Ready(request) => Some(request),
            _ => None,
        }
    }

    /// Whether trying the same request again may help: only a retryable technical failure.
    pub fn retryable(&self) -> bool {
        matches!(self, Outcome::Failed(failure) if failure.retryable)
    }

    /// What the resident can do next, the most useful first.
    pub fn next_steps(&self) -> Vec<NextStep> {
        match self {
            // A letter written from the recorded facts (a repeat request, a complaint) keeps
            // the first request's legal decision: it has no model answer to assemble again.
            Outcome::Ready(request)
                if request.title_source() == crate::assemble::TitleSource::RecordedFacts =>
            {
                Vec::new()
            }
            Outcome::Ready(request) => match request.legal_omission() {
                Some(OmissionReason::NotConfirmed | OmissionReason::SubjectMismatch) => {
                    vec![NextStep::ConfirmSubject]
                }
                _ => Vec::new(),
            },
            Outcome::NeedsUser {
                reason: NeedsUserReason::MultipleProblems,
                ..
            } => vec![NextStep::DescribeOneProblem],
            Outcome::NeedsUser { .. } => vec![NextStep::AddDetails],
            Outcome::Rejected(rejection) if rejection.reason() == RejectionReason::BodyTooLong => {
                vec![NextStep::ShortenText]
            }
            Outcome::Rejected(_) => vec![NextStep::Retry, NextStep::DraftWithoutModel],
            Outcome::Failed(failure) => failure.reason.next_steps(),
            Outcome::InvalidInput(_) => vec![NextStep::FixInput],
        }
    }

    /// The machine-readable report: `{outcome, reason, request, errors, next_steps}`.
    pub fn report(&self) -> Report<'_> {
        let errors = match self {
            Outcome::Rejected(rejection) => rejection
                .findings()
                .iter()
                .map(|f| ReportError {
                    field: f.field().to_owned(),
                    code: f.code().code(),
                    message: f.message().to_owned(),
                })
                .collect(),
            Outcome::InvalidInput(errors) => errors
                .iter()
                .map(|e| ReportError {
                    field: e.field_name(),
                    code: e.code().code(),
                    message: e.message_ru(),
                })
                .collect(),
            Outcome::Failed(failure) => vec![ReportError {
                field: String::new(),
                code: failure.reason.code(),
                message: failure.detail.clone(),
            }],
            Outcome::Ready(_) | Outcome::NeedsUser { .. } => Vec::new(),
        };
        Report {
            outcome: self.kind(),
            reason: self.reason(),
            request: self.request(),
            errors,
            hints: match self {
                Outcome::NeedsUser { hints, .. } => hints.clone(),
                _ => Vec::new(),
            },
            next_steps: self.next_steps(),
            retryable: match self {
                Outcome::Failed(failure) => Some(failure.retryable),
                _ => None,
            },
            attempts: None,
            server_reason: match self {
                Outcome::Failed(failure) => failure.advice.server_reason.clone(),
                _ => None,
            },
        }
    }

    /// What happened, for the resident, in Russian, in words that fit any surface.
    pub fn message_ru(&self) -> String {
        match self {
            Outcome::Ready(_) => "Заявка готова. Проверьте текст перед отправкой.".to_owned(),
            Outcome::NeedsUser {
                reason: NeedsUserReason::MultipleProblems,
                ..
            } => "В тексте описано несколько разных проблем. Опишите, пожалуйста, одну проблему \
                 в одной заявке — для остальных можно составить отдельные заявки."
                .to_owned(),
            Outcome::NeedsUser { .. } => {
                "Из текста пока не понятно, в чём проблема. Допишите, что именно случилось, \
                 где и как давно — и попробуйте снова."
                    .to_owned()
            }
            Outcome::Rejected(rejection) if rejection.reason() == RejectionReason::BodyTooLong => {
                format!(
                    "Текст заявки получился длиннее {} символов, а сокращать его без вас Заявка \
                     не будет. Это не оценка вашей проблемы: заявка просто должна помещаться на \
                     страницу. Сократите описание или последствия и попробуйте снова.",
                    limit_ru(BODY_LIMIT)
                )
            }
            Outcome::Rejected(rejection)
                if rejection.reason() == RejectionReason::UnrelatedDraft =>
            {
                "Модель описала другую проблему, а не ту, о которой написали вы, поэтому \
                 черновик не показан. Так бывает с небольшими моделями. Это не оценка вашей \
                 проблемы: попробуйте ещё раз, выберите в настройках модель побольше или \
                 составьте заявку без модели."
                    .to_owned()
            }
            Outcome::Rejected(rejection) => format!(
                "Ответ модели не прошёл проверку ({}), поэтому черновик не показан. Это \
                 техническая неудача, а не оценка вашей проблемы.",
                rejection_ru(rejection.reason())
            ),
            Outcome::Failed(failure) => format!(
                "{} Это техническая неудача, а не оценка вашей проблемы.",
                failure.message_ru()
            ),
            Outcome::InvalidInput(errors) => {
                let mut message = "Заявку нельзя составить, пока не исправлены поля:".to_owned();
                for error in errors.iter() {
                    message.push_str("\n— ");
                    message.push_str(&error.message_ru());
                }
                message
            }
        }
    }
}

/// A number of characters grouped by thousands as Russian writes it: `2 500`.
fn limit_ru(limit: usize) -> String {
    let digits = limit.to_string();
    let mut grouped = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(' ');
        }
        grouped.push(digit);
    }
    grouped
}

fn rejection_ru(reason: RejectionReason) -> &'static str {
    match reason {
        RejectionReason::Refusal => "модель отказалась отвечать",
        RejectionReason::Truncated => "ответ оборвался",
        RejectionReason::ContentFilter => "ответ остановил фильтр провайдера",
        RejectionReason::EmptyResponse => "ответ пустой",
        RejectionReason::InvalidJson | RejectionReason::SchemaViolation => "ответ не в том формате",
        RejectionReason::UnsafeText => "в ответе есть невидимые или управляющие символы",
        RejectionReason::SemanticViolation => "ответ нарушает правила составления заявки",
        RejectionReason::BodyTooLong => "текст заявки слишком длинный",
        RejectionReason::UnrelatedDraft => "модель описала другую проблему",
    }
}

/// One entry of the report's `errors` list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportError {
    /// The field or JSON pointer concerned.
    pub field: String,
    /// A stable code.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
}

/// The machine-readable form of an outcome, printed by `--json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report<'a> {
    /// `ready`, `needs_user`, `rejected`, `failed` or `invalid_input`.
    pub outcome: OutcomeKind,
    /// The reason code, or null for `ready`.
    pub reason: Option<&'static str>,
    /// The request, when one was assembled.
    pub request: Option<&'a Request>,
    /// What was found wrong.
    pub errors: Vec<ReportError>,
    /// For `needs_user`: the model's notes on what to change.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<String>,
    /// What the resident can do next.
    pub next_steps: Vec<NextStep>,
    /// For runs that called a model: whether retrying may help.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retryable: Option<bool>,
    /// For runs that called a model: how many HTTP attempts were made.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u32>,
    /// For a technical failure: the server's own reason, redacted and bounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_reason: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use zayavka_codes::check_stable_codes;

    #[test]
    fn reason_codes_are_unique_and_round_trip() {
        check_stable_codes::<OutcomeKind>().unwrap();
        check_stable_codes::<NeedsUserReason>().unwrap();
        check_stable_codes::<FailureReason>().unwrap();
        check_stable_codes::<NextStep>().unwrap();
        let mut seen = std::collections::HashSet::new();
        for code in NeedsUserReason::ALL
            .iter()
            .map(|r| r.code())
            .chain(RejectionReason::ALL.iter().map(|r| r.code()))
            .chain(FailureReason::ALL.iter().map(|r| r.code()))
        {
            assert!(seen.insert(code), "duplicate reason code {code}");
        }
    }

    fn failed(reason: FailureReason) -> Outcome {
        Outcome::Failed(Failure::new(reason, true, String::new()))
    }

    #[test]
    fn technical_failures_never_read_as_a_verdict_on_the_problem() {
        for reason in FailureReason::ALL {
            let message = failed(*reason).message_ru();
            assert!(message.contains("техническая неудача"), "{message}");
        }
        for reason in RejectionReason::ALL {
            let finding = Finding::new("", FindingCode::Schema, "x");
            let outcome = Outcome::Rejected(Rejection::single(*reason, finding));
            assert!(outcome.message_ru().contains("не оценка вашей проблемы"));
        }
    }

    #[test]
    fn no_message_names_a_command_a_flag_or_a_variable() {
        let mut messages: Vec<String> = FailureReason::ALL
            .iter()
            .map(|r| failed(*r).message_ru())
            .collect();
        for reason in RejectionReason::ALL {
            let finding = Finding::new("", FindingCode::Schema, "x");
            messages.push(Outcome::Rejected(Rejection::single(*reason, finding)).message_ru());
        }
        for reason in NeedsUserReason::ALL {
            messages.push(
                Outcome::NeedsUser {
                    reason: *reason,
                    hints: vec![],
                }
                .message_ru(),
            );
        }
        for message in messages {
            for word in ["zayavka", "--", "ZAYAVKA_", "doctor", "key set", "сохранён"] {
                assert!(!message.contains(word), "{word:?} in {message}");
            }
            assert!(!message.contains(".."), "doubled full stop in {message}");
        }
    }

    #[test]
    fn every_failure_offers_a_way_forward_and_drafting_without_a_model() {
        for reason in FailureReason::ALL {
            let steps = reason.next_steps();
            assert!(steps.len() >= 2, "{reason}");
            assert_eq!(steps.last(), Some(&NextStep::DraftWithoutModel), "{reason}");
        }
        assert_eq!(
            FailureReason::NoApiKey.next_steps()[0],
            NextStep::StoreApiKey
        );
        assert_eq!(
            FailureReason::BadConfig.next_steps()[0],
            NextStep::ConfigureProvider
        );
        assert_eq!(
            FailureReason::SchemaModeUnsupported.next_steps()[0],
            NextStep::SwitchSchemaMode
        );
        assert_eq!(
            FailureReason::RateLimited.next_steps()[0],
            NextStep::RetryLater
        );
    }

    #[test]
    fn the_report_carries_next_steps_and_hints() {
        let needs_user = Outcome::NeedsUser {
            reason: NeedsUserReason::MultipleProblems,
            hints: vec!["Опишите качели отдельно.".into()],
        };
        assert_eq!(
            serde_json::to_value(needs_user.report()).unwrap(),
            serde_json::json!({
                "outcome": "needs_user", "reason": "multiple_problems", "request": null,
                "errors": [], "hints": ["Опишите качели отдельно."],
                "next_steps": ["describe_one_problem"],
            })
        );
        assert_eq!(
            serde_json::to_value(failed(FailureReason::Timeout).report()).unwrap(),
            serde_json::json!({
                "outcome": "failed", "reason": "timeout", "request": null, "retryable": true,
                "errors": [{"field": "", "code": "timeout", "message": ""}],
                "next_steps": ["retry", "draft_without_model"],
            })
        );
    }

    #[test]
    fn limits_are_written_as_russian_typography_does() {
        assert_eq!(limit_ru(2_500), "2 500");
        assert_eq!(limit_ru(120), "120");
    }
}
