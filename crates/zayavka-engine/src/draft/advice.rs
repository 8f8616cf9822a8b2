//! What a resident can do about a failed model call with the service they use (ADR 24).
//!
//! The core's [`FailureReason`] says what kind of failure it was in words that fit every
//! service. Where to get a new key, which setting to change and to what, or whether the
//! account needs money depends on the service, which only the engine knows: this module words
//! that for GigaChat, Yandex AI Studio and the local servers, and keeps the server's own reason
//! (redacted, bounded, one line) beside it. Both front ends show the same [`FailureAdvice`].
//!
//! The words follow `docs/providers.md`, the resident's guide to the same services; change
//! both together.

use zayavka_core::{Failure, FailureAdvice, FailureReason, escape_invisible};
use zayavka_llm::{ApiKey, Attempt, ErrorKind, LlmError};

use crate::config::ProviderKind;

/// How many characters of the server's reason are shown: enough for any service's error
/// message, short enough for one line under «Подробности».
pub const SERVER_REASON_MAX_CHARS: usize = 300;

/// The smallest context Zayavka's prompt fits in with room for the answer, as
/// `docs/providers.md` says: a real llama.cpp server needed 6,834 tokens for it.
const SMALLEST_USEFUL_CONTEXT: u64 = 8_192;

/// The failure of a model call with the service of `kind`: the core's reason, with this
/// service's advice and the server's own reason from the last failed attempt.
///
/// A Yandex refusal that names the folder is reported as [`FailureReason::BadConfig`]: the
/// folder id in the settings is wrong, and a new key would not help.
pub fn failure_for(
    error: &LlmError,
    kind: ProviderKind,
    attempts: &[Attempt],
    api_key: Option<&ApiKey>,
) -> Failure {
    tracing::debug!(%error, "model call failed");
    let folder_refused = kind == ProviderKind::Yandex && refuses_the_folder(error);
    let reason = if folder_refused {
        FailureReason::BadConfig
    } else {
        failure_reason(error.kind())
    };
    Failure {
        reason,
        retryable: error.is_retryable(),
        detail: detail_ru(error),
        advice: FailureAdvice {
            message_ru: if folder_refused {
                Some(yandex_folder_advice())
            } else {
                advice_ru(error, kind)
            },
            server_reason: server_reason(attempts, api_key),
        },
    }
}

/// Whether a Yandex answer blames the folder rather than the key: the service's «Specified
/// folder ID does not match with service account folder ID» (`400`), a `403` «Permission
/// denied» to a folder, or a folder that does not exist.
fn refuses_the_folder(error: &LlmError) -> bool {
    let blames_folder = |message: &str| message.to_lowercase().contains("folder");
    match error {
        LlmError::Auth {
            status: 403,
            message,
        }
        | LlmError::BadRequest { message, .. } => blames_folder(message),
        _ => false,
    }
}

/// The HTTP status stays in the failure's detail, under «Подробности»: the advice is for the
/// resident and carries no status code.
fn yandex_folder_advice() -> String {
    "Yandex AI Studio не принимает идентификатор каталога из настроек: ключ создан для \
     сервисного аккаунта другого каталога, или каталога с таким идентификатором нет. Проверьте \
     поле «Идентификатор каталога (folder_id)»: это должен быть каталог, в котором создан \
     сервисный аккаунт с ключом. В консоли console.yandex.cloud идентификатор написан под \
     именем каталога и виден в адресе страницы, обычно он начинается с b1g."
        .to_owned()
}

/// The advice for `error` with the service of `kind`, or `None` where the reason's generic
/// message says all there is.
pub fn advice_ru(error: &LlmError, kind: ProviderKind) -> Option<String> {
    let from_token_exchange = kind == ProviderKind::GigaChat && came_from_token_exchange(error);
    match (error.kind(), kind) {
        (ErrorKind::Auth, ProviderKind::GigaChat) => Some(String::from(
            "GigaChat не принял ключ авторизации. Получите новый ключ в личном \
             кабинете: developers.sber.ru → Studio → ваш проект → «Настройки API» → «Получить \
             ключ», скопируйте значение Authorization Key (оно показывается один раз) и \
             сохраните его в Заявке вместо старого.",
        )),
        (ErrorKind::Auth, ProviderKind::Yandex) if error.status() == Some(403) => {
            Some(String::from(
                "Yandex AI Studio отказал в доступе. У сервисного аккаунта должна быть роль \
             ai.languageModels.user в каталоге, а у API-ключа — область действия \
             yc.ai.languageModels.execute. Проверьте роль в консоли console.yandex.cloud \
             (каталог → «Права доступа») или создайте новый ключ: Identity and Access \
             Management → «Сервисные аккаунты» → ваш аккаунт → «Создать новый ключ» → \
             «Создать API-ключ», и сохраните его в Заявке вместо старого.",
            ))
        }
        (ErrorKind::Auth, ProviderKind::Yandex) => Some(String::from(
            "Yandex AI Studio не принял API-ключ. Создайте новый ключ в консоли \
             console.yandex.cloud: Identity and Access Management → «Сервисные аккаунты» → \
             ваш аккаунт → «Создать новый ключ» → «Создать API-ключ» с областью действия \
             yc.ai.languageModels.execute, и сохраните его в Заявке вместо старого.",
        )),
        (ErrorKind::InsufficientQuota, ProviderKind::GigaChat) => Some(String::from(
            "В GigaChat закончились токены: бесплатный объём или купленный пакет \
             израсходован. Купите пакет токенов в личном кабинете developers.sber.ru → Studio \
             → ваш проект или дождитесь нового бесплатного объёма по условиям вашего тарифа. \
             Пока можно составить заявку без модели.",
        )),
        (ErrorKind::InsufficientQuota, ProviderKind::Yandex) => Some(String::from(
            "Yandex AI Studio не выполняет запросы: на платёжном аккаунте закончились средства \
             или грант, или аккаунт не активен. Пополните платёжный аккаунт в консоли \
             console.yandex.cloud → «Биллинг»; он должен быть привязан к облаку и быть в \
             статусе ACTIVE или TRIAL_ACTIVE. Пока можно составить заявку без модели.",
        )),
        (ErrorKind::RateLimited, ProviderKind::GigaChat) => Some(String::from(
            "GigaChat попросил подождать. Физическим лицам GigaChat обрабатывает один \
             запрос за раз: пока идёт другой запрос с этим ключом (например, из другой \
             программы), новый не принимается. Подождите минуту и попробуйте снова.",
        )),
        (ErrorKind::RateLimited, ProviderKind::Yandex) => Some(String::from(
            "Yandex AI Studio ограничил число запросов: превышена квота каталога. \
             Подождите минуту и попробуйте снова.",
        )),
        (ErrorKind::Unavailable | ErrorKind::Timeout, ProviderKind::GigaChat)
            if from_token_exchange =>
        {
            Some(String::from(
                "Сервер авторизации GigaChat не выдал токен доступа: он недоступен или \
                 не ответил вовремя. Попробуйте снова чуть позже.",
            ))
        }
        (ErrorKind::BadRequest, ProviderKind::GigaChat) if mentions(error, "scope") => {
            Some(String::from(
                "GigaChat не принял scope из настроек: ключ авторизации выдан для \
                 другой версии API. Впишите в поле scope значение из поля Scope вашего проекта \
                 в личном кабинете developers.sber.ru (у физических лиц это \
                 GIGACHAT_API_PERS).",
            ))
        }
        // GigaChat answers `413 Payload too large` to a prompt longer than the model's
        // context (its «Описание ошибок» page).
        (ErrorKind::BadRequest, ProviderKind::GigaChat) if error.status() == Some(413) => {
            Some(context_advice(error, kind))
        }
        (ErrorKind::ContextTooSmall, _) => Some(context_advice(error, kind)),
        _ => None,
    }
}

/// The context-size advice: the numbers the server gave, and where this kind of server sets
/// its context, with a size that fits.
fn context_advice(error: &LlmError, kind: ProviderKind) -> String {
    let (requested, available) = error.context_size().unwrap_or((None, None));
    let suggested = suggested_context(requested);
    let numbers = match (requested, available) {
        (Some(requested), Some(available)) => {
            format!(
                ": нужно {}, а сервер даёт {}",
                tokens_ru(requested),
                zayavka_core::group_digits(available)
            )
        }
        (Some(requested), None) => format!(": нужно {}", tokens_ru(requested)),
        (None, Some(available)) => format!(": сервер даёт {}", tokens_ru(available)),
        (None, None) => String::new(),
    };
    let what = format!("Запрос Заявки не помещается в контекст модели{numbers}.");
    // In prose the size is grouped («16 384»); in a command or a variable it is typed as is.
    let grouped = zayavka_core::group_digits(suggested);
    let how = match kind {
        ProviderKind::LlamaCpp => format!(
            "Перезапустите сервер llama.cpp с большим контекстом: ключ --ctx-size (коротко -c), \
             например llama-server -m модель.gguf -c {suggested}. Если задан --parallel N, \
             контекст делится на N запросов — тогда умножьте размер на N."
        ),
        ProviderKind::Ollama => format!(
            "Увеличьте длину контекста Ollama до {grouped} или больше: ползунком длины \
             контекста в настройках приложения Ollama, переменной окружения \
             OLLAMA_CONTEXT_LENGTH={suggested} при запуске сервера (ollama serve) или \
             параметром модели num_ctx."
        ),
        ProviderKind::LmStudio => format!(
            "Загрузите модель в LM Studio заново с большей длиной контекста: поле «Context \
             Length» в настройках загрузки модели или команда lms load <модель> \
             --context-length {suggested}."
        ),
        ProviderKind::GigaChat | ProviderKind::Yandex => {
            format!("Выберите в настройках модель с контекстом не меньше {grouped} токенов.")
        }
        ProviderKind::Custom | ProviderKind::OpenAi | ProviderKind::OpenRouter => format!(
            "Выберите модель с контекстом не меньше {grouped} токенов или увеличьте размер \
             контекста в настройках сервера модели."
        ),
    };
    format!("{what} {how}")
}

/// A number of tokens with the noun in the form Russian needs after it: «1 токен»,
/// «6834 токена», «4096 токенов».
fn tokens_ru(count: u64) -> String {
    let noun = match (count % 10, count % 100) {
        (1, hundred) if hundred != 11 => "токен",
        (2..=4, hundred) if !(12..=14).contains(&hundred) => "токена",
        _ => "токенов",
    };
    format!("{} {noun}", zayavka_core::group_digits(count))
}

/// A context size that fits a request of `requested` tokens: the next power of two, and never
/// less than [`SMALLEST_USEFUL_CONTEXT`].
fn suggested_context(requested: Option<u64>) -> u64 {
    requested
        .and_then(u64::checked_next_power_of_two)
        .unwrap_or(SMALLEST_USEFUL_CONTEXT)
        .max(SMALLEST_USEFUL_CONTEXT)
}

/// The adapter starts the message of a failed token exchange with these words (ADR 22).
fn came_from_token_exchange(error: &LlmError) -> bool {
    error.to_string().contains("token exchange:")
}

fn mentions(error: &LlmError, word: &str) -> bool {
    error.to_string().to_lowercase().contains(word)
}

/// The server's own reason for the last failed attempt that has an answer: the error message
/// in its body (`error.message`, `message`, `error`, `detail`), or the start of the body, as
/// one line of at most [`SERVER_REASON_MAX_CHARS`] characters. The adapter has already removed
/// the key and every token from the body; the key is removed once more here, as are
/// `Authorization`, `Bearer`, `Basic` and `Api-Key` values, and control or invisible
/// characters are shown escaped rather than obeyed.
pub fn server_reason(attempts: &[Attempt], api_key: Option<&ApiKey>) -> Option<String> {
    let body = attempts
        .iter()
        .rev()
        .filter(|attempt| attempt.error_kind.is_some())
        .find_map(|attempt| attempt.error_body.as_deref())?;
    let text = message_in_body(body).unwrap_or_else(|| body.to_owned());
    let secrets: Vec<&str> = api_key.map(ApiKey::expose).into_iter().collect();
    let text = zayavka_llm::redact(&text, &secrets);
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let line = escape_invisible(&line);
    if line.is_empty() {
        return None;
    }
    Some(bounded(&line, SERVER_REASON_MAX_CHARS))
}

/// The message of an error object, as the services shape it: OpenAI's and Yandex's
/// `{"error": {"message"}}`, GigaChat's `{"status", "message"}`, `{"error": "…"}`,
/// FastAPI's `{"detail": "…"}`.
fn message_in_body(body: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(body).ok()?;
    let text = |value: &serde_json::Value| value.as_str().map(str::to_owned);
    value
        .get("error")
        .and_then(|error| error.get("message").and_then(text).or_else(|| text(error)))
        .or_else(|| value.get("message").and_then(text))
        .or_else(|| value.get("detail").and_then(text))
        .filter(|message| !message.trim().is_empty())
}

fn bounded(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max_chars).collect();
    cut.push('…');
    cut
}

/// A technical detail of a transport error, in Russian, without a final full stop.
pub(crate) fn detail_ru(error: &LlmError) -> String {
    let what = match error.kind() {
        ErrorKind::Timeout => "сервер модели не ответил за отведённое время".to_owned(),
        ErrorKind::RateLimited => "сервер модели ограничил частоту запросов".to_owned(),
        ErrorKind::Unavailable => match error.status() {
            // A success status with an `Unavailable` error is a body that broke off: the server
            // did answer, and the connection was cut while the answer came (issue 19).
            Some(200..=299) => "соединение с сервером модели оборвалось, пока он присылал \
                 ответ"
                .to_owned(),
            Some(_) => "сервер модели ответил ошибкой на своей стороне".to_owned(),
            None => "не удалось соединиться с сервером модели".to_owned(),
        },
        ErrorKind::Auth => "сервер модели не принял ключ доступа".to_owned(),
        ErrorKind::BadRequest => "сервер модели отклонил параметры запроса".to_owned(),
        ErrorKind::SchemaModeUnsupported => match error.suggested_mode() {
            Some(other) => {
                format!("сервер не принимает этот режим ответа по схеме; выберите режим {other}")
            }
            None => "сервер не принимает этот режим ответа по схеме".to_owned(),
        },
        ErrorKind::InsufficientQuota => "на счёте у провайдера закончилась квота".to_owned(),
        ErrorKind::ResponseTooLarge => "ответ сервера превысил допустимый размер".to_owned(),
        ErrorKind::InvalidResponse => {
            "сервер прислал ответ не в формате chat-completions".to_owned()
        }
        ErrorKind::NoApiKey => "ключ доступа не задан".to_owned(),
        ErrorKind::Cancelled => "запрос отменён".to_owned(),
        ErrorKind::BadConfig => "настройки подключения к серверу неверны".to_owned(),
        ErrorKind::ContextTooSmall => match error.context_size() {
            Some((Some(requested), Some(context))) => format!(
                "запрос не помещается в контекст модели: нужно {requested} токенов, а сервер \
                 даёт {context}"
            ),
            _ => "запрос не помещается в контекст модели".to_owned(),
        },
    };
    match error.status() {
        Some(status) => format!("{what} (HTTP {status})"),
        None => what,
    }
}

/// The core's reason for each of the adapter's error kinds.
pub fn failure_reason(kind: ErrorKind) -> FailureReason {
    match kind {
        ErrorKind::Timeout => FailureReason::Timeout,
        ErrorKind::RateLimited => FailureReason::RateLimited,
        ErrorKind::Unavailable => FailureReason::Unavailable,
        ErrorKind::Auth => FailureReason::Auth,
        ErrorKind::BadRequest => FailureReason::BadRequest,
        ErrorKind::SchemaModeUnsupported => FailureReason::SchemaModeUnsupported,
        ErrorKind::InsufficientQuota => FailureReason::InsufficientQuota,
        ErrorKind::ResponseTooLarge => FailureReason::ResponseTooLarge,
        ErrorKind::InvalidResponse => FailureReason::InvalidResponse,
        ErrorKind::NoApiKey => FailureReason::NoApiKey,
        ErrorKind::Cancelled => FailureReason::Cancelled,
        ErrorKind::BadConfig => FailureReason::BadConfig,
        ErrorKind::ContextTooSmall => FailureReason::ContextTooSmall,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attempt(body: Option<&str>) -> Attempt {
        Attempt {
            number: 1,
            started_at_unix_ms: 0,
            duration_ms: 1,
            http_status: Some(401),
            error_kind: Some(ErrorKind::Auth),
            retry_reason: None,
            usage: None,
            error_body: body.map(str::to_owned),
            token_exchange: None,
        }
    }

    #[test]
    fn the_server_reason_is_the_message_of_its_error_object() {
        let cases = [
            (
                r#"{"error":{"grpc_code":7,"http_code":403,"message":"Permission denied"}}"#,
                "Permission denied",
            ),
            (
                r#"{"status":402,"message":"Payment Required"}"#,
                "Payment Required",
            ),
            (
                r#"{"code":6,"message":"credentials doesn't match db data"}"#,
                "credentials doesn't match db data",
            ),
            (r#"{"error":"model not found"}"#, "model not found"),
            (
                "<html>\n  Bad gateway\n</html>",
                "<html> Bad gateway </html>",
            ),
        ];
        for (body, reason) in cases {
            assert_eq!(
                server_reason(&[attempt(Some(body))], None).as_deref(),
                Some(reason),
                "{body}"
            );
        }
        assert_eq!(server_reason(&[attempt(None)], None), None);
        assert_eq!(server_reason(&[], None), None);
    }

    #[test]
    fn the_server_reason_keeps_no_secret_no_control_character_and_no_length() {
        let key = ApiKey::new("canary-key-0123456789abcdef".to_owned());
        let body = "key canary-key-0123456789abcdef, Authorization: Basic Y2FuYXJ5LWtleS0wMTIzNDU2Nzg5 \
                    Bearer tok-123 \u{1b}[31mred\u{202e}";
        let reason = server_reason(&[attempt(Some(body))], Some(&key)).unwrap();
        assert!(!reason.contains("canary"), "{reason}");
        assert!(!reason.contains("Y2FuYXJ5"), "{reason}");
        assert!(!reason.contains("tok-123"), "{reason}");
        assert!(
            !reason.contains('\u{1b}') && !reason.contains('\u{202e}'),
            "{reason}"
        );
        let long = "x".repeat(1_000);
        let reason = server_reason(&[attempt(Some(&long))], None).unwrap();
        assert_eq!(reason.chars().count(), SERVER_REASON_MAX_CHARS + 1);
        assert!(reason.ends_with('…'));
    }

    /// Every service's words for every failure it has advice for, in one reviewed snapshot:
    /// a change of wording shows in review, next to `docs/providers.md`.
    #[test]
    fn issue_15_the_advice_of_every_service() {
        let errors = [
            LlmError::Auth {
                status: 401,
                message: "Unknown api key".to_owned(),
            },
            LlmError::Auth {
                status: 403,
                message: "Permission denied".to_owned(),
            },
            LlmError::Auth {
                status: 403,
                message: "Permission denied to folder b1gbbbbbbbbbbbbbbbbb".to_owned(),
            },
            LlmError::InsufficientQuota {
                status: 402,
                message: "Payment Required".to_owned(),
            },
            LlmError::RateLimited {
                status: 429,
                message: "Too many requests".to_owned(),
            },
            LlmError::Unavailable {
                status: Some(503),
                message: "token exchange: Service Unavailable".to_owned(),
            },
            LlmError::BadRequest {
                status: 400,
                message: "token exchange: 7: scope from db not fully includes consumed scope"
                    .to_owned(),
            },
            LlmError::BadRequest {
                status: 413,
                message: "Payload too large".to_owned(),
            },
            LlmError::ContextTooSmall {
                status: 400,
                requested_tokens: Some(6834),
                context_tokens: Some(4096),
                message: "request (6834 tokens) exceeds the available context size".to_owned(),
            },
            LlmError::ContextTooSmall {
                status: 400,
                requested_tokens: None,
                context_tokens: None,
                message: "the input length exceeds the context length".to_owned(),
            },
        ];
        let mut table = String::new();
        for kind in ProviderKind::ALL {
            for error in &errors {
                let failure = failure_for(error, kind, &[], None);
                if failure.advice.message_ru.is_none() {
                    continue;
                }
                table.push_str(&format!(
                    "{} / {} (HTTP {}) → {}\n{}\n\n",
                    kind.as_str(),
                    error.kind(),
                    error.status().unwrap_or_default(),
                    failure.reason,
                    failure.message_ru()
                ));
            }
        }
        insta::assert_snapshot!(table);
    }

    #[test]
    fn token_counts_take_the_russian_plural() {
        let forms = [1, 2, 5, 11, 12, 21, 22, 111, 4096, 6834].map(tokens_ru);
        assert_eq!(
            forms,
            [
                "1 токен",
                "2 токена",
                "5 токенов",
                "11 токенов",
                "12 токенов",
                "21 токен",
                "22 токена",
                "111 токенов",
                "4096 токенов",
                "6834 токена",
            ]
        );
    }

    #[test]
    fn a_context_size_that_fits_is_suggested() {
        assert_eq!(suggested_context(Some(6_834)), 8_192);
        assert_eq!(suggested_context(Some(9_000)), 16_384);
        assert_eq!(suggested_context(Some(100)), 8_192);
        assert_eq!(suggested_context(None), 8_192);
    }

    #[test]
    fn a_yandex_folder_refusal_is_a_setting_not_a_key() {
        let mismatch = LlmError::BadRequest {
            status: 400,
            message: "Specified folder ID 'b1gwrong' does not match with service account \
                      folder ID 'b1gright'"
                .to_owned(),
        };
        let failure = failure_for(&mismatch, ProviderKind::Yandex, &[], None);
        assert_eq!(failure.reason, FailureReason::BadConfig);
        assert!(!failure.retryable);
        let message = failure.message_ru();
        assert!(
            message.contains("«Идентификатор каталога (folder_id)»"),
            "{message}"
        );
        // The same words from another service are its own business.
        let other = failure_for(&mismatch, ProviderKind::Custom, &[], None);
        assert_eq!(other.reason, FailureReason::BadRequest);
        assert_eq!(other.advice.message_ru, None);
    }
}
