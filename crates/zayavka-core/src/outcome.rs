//! Typed outcomes and their stable reason codes.
//!
//! Every run ends in exactly one [`Outcome`]. The kinds never mix: a technical failure is never
//! reported as something wrong with the resident's problem, and «not enough information» is
//! never reported as a rejection.

use serde::{Serialize, Serializer};

use crate::assemble::Request;
use crate::input::InputErrors;

/// One thing found wrong with the model's output, for the record and for `--json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Where: a JSON pointer into the model's output, or empty for the reply as a whole.
    pub field: String,
    /// A stable code.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
}

impl Finding {
    /// A finding at `field`.
    pub fn new(field: impl Into<String>, code: &'static str, message: impl Into<String>) -> Self {
        Finding {
            field: field.into(),
            code,
            message: message.into(),
        }
    }
}

macro_rules! reason_codes {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $code:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            /// Every reason.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The stable snake_case code.
            pub const fn code(self) -> &'static str {
                match self {
                    $($name::$variant => $code,)*
                }
            }

            /// The reason with this code, if any.
            pub fn from_code(code: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|reason| reason.code() == code)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.code())
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.code())
            }
        }
    };
}

reason_codes! {
    /// Why the resident is asked to change the text; no partial request is produced.
    NeedsUserReason {
        /// The text holds several unrelated problems.
        MultipleProblems => "multiple_problems",
        /// The text holds too little to describe a problem.
        InsufficientInformation => "insufficient_information",
    }
}

reason_codes! {
    /// Why the model's output could not be used.
    RejectionReason {
        /// The model refused.
        Refusal => "refusal",
        /// The output was cut off (`finish_reason = length`).
        Truncated => "truncated",
        /// The provider's content filter stopped the output.
        ContentFilter => "content_filter",
        /// The reply had no content.
        EmptyResponse => "empty_response",
        /// The content is not JSON.
        InvalidJson => "invalid_json",
        /// The content does not match the registered schema.
        SchemaViolation => "schema_violation",
        /// The content breaks a semantic rule.
        SemanticViolation => "semantic_violation",
        /// The assembled body is longer than the limit; it is never cut.
        BodyTooLong => "body_too_long",
    }
}

impl RejectionReason {
    /// Whether asking the model again may give a usable answer: malformed output often is a
    /// one-off, while a refusal or a filtered answer will most likely repeat.
    pub fn may_reask(self) -> bool {
        matches!(
            self,
            RejectionReason::InvalidJson
                | RejectionReason::SchemaViolation
                | RejectionReason::EmptyResponse
        )
    }
}

reason_codes! {
    /// A technical failure: nothing was learned about the resident's problem.
    FailureReason {
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
    }
}

impl FailureReason {
    /// What happened and what to do, for the resident, in Russian. It speaks about the
    /// connection to the model only, never about the resident's problem or text.
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
                 сервиса в настройках (zayavka doctor), затем попробуйте снова."
            }
            FailureReason::Auth => {
                "Сервис модели не принял ключ доступа. Проверьте ключ и задайте его заново \
                 командой zayavka key set."
            }
            FailureReason::BadRequest => {
                "Сервис модели отклонил технические параметры запроса. Проверьте название \
                 модели и настройки сервиса (zayavka doctor)."
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
                "Ключ доступа к сервису модели не задан. Задайте его командой zayavka key set \
                 или переменной окружения ZAYAVKA_API_KEY."
            }
            FailureReason::BadConfig => {
                "Сервис модели не настроен или настроен неверно. Проверьте настройки: \
                 zayavka doctor."
            }
            FailureReason::Cancelled => "Запрос к сервису модели отменён.",
        }
    }
}

/// Model output that could not be used, with everything found wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// Why.
    pub reason: RejectionReason,
    /// What was found.
    pub findings: Vec<Finding>,
}

impl Rejection {
    /// A rejection with one finding.
    pub fn single(reason: RejectionReason, finding: Finding) -> Rejection {
        Rejection {
            reason,
            findings: vec![finding],
        }
    }
}

/// A technical failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Why.
    pub reason: FailureReason,
    /// Whether trying again later may help.
    pub retryable: bool,
    /// A technical detail for the record, with every secret already removed.
    pub detail: String,
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
    /// The stable name of the outcome kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Outcome::Ready(_) => "ready",
            Outcome::NeedsUser { .. } => "needs_user",
            Outcome::Rejected(_) => "rejected",
            Outcome::Failed(_) => "failed",
            Outcome::InvalidInput(_) => "invalid_input",
        }
    }

    /// The stable reason code, if the kind has reasons.
    pub fn reason(&self) -> Option<&'static str> {
        match self {
            Outcome::Ready(_) => None,
            Outcome::NeedsUser { reason, .. } => Some(reason.code()),
            Outcome::Rejected(rejection) => Some(rejection.reason.code()),
            Outcome::Failed(failure) => Some(failure.reason.code()),
            Outcome::InvalidInput(_) => Some("invalid_input"),
        }
    }

    /// The process exit code the command-line tool uses for this outcome.
    pub fn exit_code(&self) -> u8 {
        match self {
            Outcome::Ready(_) => 0,
            Outcome::InvalidInput(_) => 2,
            Outcome::NeedsUser { .. } => 3,
            Outcome::Rejected(_) => 4,
            Outcome::Failed(_) => 5,
        }
    }

    /// The request, when one was assembled.
    pub fn request(&self) -> Option<&Request> {
        match self {
            Outcome::Ready(request) => Some(request),
            _ => None,
        }
    }

    /// The machine-readable report: `{outcome, reason, request, errors}`.
    pub fn report(&self) -> Report<'_> {
        let errors = match self {
            Outcome::Rejected(rejection) => rejection
                .findings
                .iter()
                .map(|f| ReportError {
                    field: f.field.clone(),
                    code: f.code,
                    message: f.message.clone(),
                })
                .collect(),
            Outcome::InvalidInput(errors) => errors
                .0
                .iter()
                .map(|e| ReportError {
                    field: e.field_name(),
                    code: e.code(),
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
            retryable: match self {
                Outcome::Failed(failure) => Some(failure.retryable),
                _ => None,
            },
            attempts: None,
        }
    }

    /// What happened and what to do next, for the resident, in Russian.
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
            Outcome::Rejected(rejection) if rejection.reason == RejectionReason::BodyTooLong => {
                "Текст заявки получился длиннее 2 500 символов, а сокращать его без вас Заявка \
                 не будет. Это не оценка вашей проблемы: заявка просто должна помещаться на \
                 страницу. Ваш текст сохранён: сократите описание или последствия и \
                 попробуйте снова."
                    .to_owned()
            }
            Outcome::Rejected(rejection) => format!(
                "Ответ модели не прошёл проверку ({}), поэтому черновик не показан. Это \
                 техническая неудача, а не оценка вашей проблемы. Ваш текст сохранён: \
                 попробуйте ещё раз или составьте заявку без модели (--offline).",
                rejection_ru(rejection.reason)
            ),
            Outcome::Failed(failure) => format!(
                "{} Это техническая неудача, а не оценка вашей проблемы. Ваш текст сохранён; \
                 без модели заявку можно составить с --offline.",
                failure.reason.message_ru()
            ),
            Outcome::InvalidInput(errors) => {
                let mut message = "Заявку нельзя составить, пока не исправлены поля:".to_owned();
                for error in &errors.0 {
                    message.push_str("\n— ");
                    message.push_str(&error.message_ru());
                }
                message
            }
        }
    }
}

fn rejection_ru(reason: RejectionReason) -> &'static str {
    match reason {
        RejectionReason::Refusal => "модель отказалась отвечать",
        RejectionReason::Truncated => "ответ оборвался",
        RejectionReason::ContentFilter => "ответ остановил фильтр провайдера",
        RejectionReason::EmptyResponse => "ответ пустой",
        RejectionReason::InvalidJson | RejectionReason::SchemaViolation => "ответ не в том формате",
        RejectionReason::SemanticViolation => "ответ нарушает правила составления заявки",
        RejectionReason::BodyTooLong => "текст заявки длиннее 2 500 символов",
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
    pub outcome: &'static str,
    /// The reason code, or null for `ready`.
    pub reason: Option<&'static str>,
    /// The request, when one was assembled.
    pub request: Option<&'a Request>,
    /// What was found wrong.
    pub errors: Vec<ReportError>,
    /// For `needs_user`: the model's notes on what to change.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<String>,
    /// For runs that called a model: whether retrying may help.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retryable: Option<bool>,
    /// For runs that called a model: how many HTTP attempts were made.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_codes_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for code in NeedsUserReason::ALL
            .iter()
            .map(|r| r.code())
            .chain(RejectionReason::ALL.iter().map(|r| r.code()))
            .chain(FailureReason::ALL.iter().map(|r| r.code()))
        {
            assert!(seen.insert(code), "duplicate reason code {code}");
            assert!(code.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        }
        for reason in FailureReason::ALL {
            assert_eq!(FailureReason::from_code(reason.code()), Some(*reason));
        }
    }

    #[test]
    fn technical_failures_never_read_as_a_verdict_on_the_problem() {
        for reason in FailureReason::ALL {
            let outcome = Outcome::Failed(Failure {
                reason: *reason,
                retryable: true,
                detail: String::new(),
            });
            let message = outcome.message_ru();
            assert!(message.contains("техническая неудача"), "{message}");
            assert!(message.contains("текст сохранён"), "{message}");
        }
        for reason in RejectionReason::ALL {
            let outcome = Outcome::Rejected(Rejection {
                reason: *reason,
                findings: vec![],
            });
            assert!(outcome.message_ru().contains("не оценка вашей проблемы"));
        }
    }

    #[test]
    fn exit_codes_are_stable() {
        let failed = Outcome::Failed(Failure {
            reason: FailureReason::Timeout,
            retryable: true,
            detail: String::new(),
        });
        assert_eq!(failed.exit_code(), 5);
        let needs_user = Outcome::NeedsUser {
            reason: NeedsUserReason::MultipleProblems,
            hints: vec!["Опишите качели отдельно.".into()],
        };
        assert_eq!(needs_user.exit_code(), 3);
        assert_eq!(
            serde_json::to_value(needs_user.report()).unwrap()["hints"],
            serde_json::json!(["Опишите качели отдельно."])
        );
        assert_eq!(
            serde_json::to_value(failed.report()).unwrap(),
            serde_json::json!({
                "outcome": "failed", "reason": "timeout", "request": null, "retryable": true,
                "errors": [{"field": "", "code": "timeout", "message": ""}],
            })
        );
    }
}
