//! The model's reply and its structural and semantic validation.
//!
//! The reply arrives as a protocol-neutral [`ModelReply`] (content, refusal, finish reason). It
//! is checked in layers, each of which can only narrow what the reply may mean: the finish
//! reason and refusal, then JSON, then the registered schema, then a typed decode that also
//! denies unknown fields, then the semantic rules that a schema cannot express.

use serde::{Deserialize, Serialize};

use crate::finding::{Finding, FindingCode, Rejection, RejectionReason};
use crate::input::InputField;
use crate::schema::RegisteredSchema;
use crate::subject::SubjectKind;
use crate::text::{
    char_count, contains_legal_reference, contains_request_word, contains_url, is_line_break,
    is_number_out_of_range, is_unsafe_in_model_text, json_error_ru,
};

/// What the model answered, independent of the provider's protocol.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelReply {
    /// The message content: the JSON object the schema describes, as text.
    pub content: Option<String>,
    /// The model's refusal message, if it refused.
    pub refusal: Option<String>,
    /// Why generation stopped (`stop`, `length`, `content_filter`, ...).
    pub finish_reason: Option<String>,
}

/// The model's processing outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelOutcome {
    /// One problem is described.
    Draft,
    /// Several unrelated problems: the resident is asked for one per request.
    MultipleProblems,
    /// Too little to describe a problem.
    InsufficientInformation,
}

/// An input field that evidence may quote: one of the four text fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceField {
    /// The description.
    Description,
    /// The location.
    Location,
    /// The consequences.
    Consequences,
    /// The desired actions.
    DesiredActions,
}

impl SourceField {
    /// The input field this names.
    pub fn input_field(self) -> InputField {
        match self {
            SourceField::Description => InputField::Description,
            SourceField::Location => InputField::Location,
            SourceField::Consequences => InputField::Consequences,
            SourceField::DesiredActions => InputField::DesiredActions,
        }
    }
}

/// A quote the model offers as evidence of the subject.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evidence {
    /// The field the quote is said to come from.
    pub source_field: SourceField,
    /// The quote, which must occur verbatim in that field.
    pub quote: String,
}

/// The model's classification of the problem's subject.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelSubject {
    /// The kind of common property.
    pub kind: SubjectKind,
    /// One or two verbatim quotes.
    pub evidence: Vec<Evidence>,
}

/// The model's answer, decoded against `request_draft` v1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelDraft {
    /// The processing outcome.
    pub outcome: ModelOutcome,
    /// A one-line title.
    pub title: Option<String>,
    /// What is observed.
    pub problem: Option<String>,
    /// Where, since when, how often.
    pub circumstances: Option<String>,
    /// What it leads to.
    pub impact: Option<String>,
    /// What is unknown and should be checked.
    pub verification: Option<String>,
    /// The subject, with evidence.
    pub subject: Option<ModelSubject>,
    /// Notes for the resident.
    pub warnings: Vec<String>,
}

/// Limits enforced again in code, whatever the schema and the provider did.
pub mod limits {
    /// The longest title.
    pub const TITLE_MAX: usize = 120;
    /// The shortest evidence quote.
    pub const QUOTE_MIN: usize = 10;
    /// The longest evidence quote.
    pub const QUOTE_MAX: usize = 300;
    /// The most evidence quotes.
    pub const EVIDENCE_MAX: usize = 2;
    /// The most warnings.
    pub const WARNINGS_MAX: usize = 5;
    /// The longest warning.
    pub const WARNING_MAX: usize = 200;
}

/// Checks a reply structurally: the finish reason and refusal, JSON, the schema, the typed
/// decode. What passes is a [`ModelDraft`] whose outcome may still be something other than a
/// draft.
pub fn decode_reply(
    reply: &ModelReply,
    schema: &RegisteredSchema,
) -> Result<ModelDraft, Rejection> {
    if let Some(refusal) = reply.refusal.as_deref().filter(|r| !r.trim().is_empty()) {
        return Err(Rejection::single(
            RejectionReason::Refusal,
            Finding::new(
                "",
                FindingCode::Refusal,
                format!("Модель отказалась отвечать: «{refusal}»."),
            ),
        ));
    }
    match reply.finish_reason.as_deref() {
        Some("length") => {
            return Err(Rejection::single(
                RejectionReason::Truncated,
                Finding::new(
                    "",
                    FindingCode::FinishReasonLength,
                    "Ответ модели оборвался на ограничении длины.",
                ),
            ));
        }
        Some("content_filter") => {
            return Err(Rejection::single(
                RejectionReason::ContentFilter,
                Finding::new(
                    "",
                    FindingCode::FinishReasonContentFilter,
                    "Ответ модели был остановлен фильтром содержимого провайдера.",
                ),
            ));
        }
        _ => {}
    }
    let content = reply
        .content
        .as_deref()
        .filter(|c| !c.trim().is_empty())
        .ok_or_else(|| {
            Rejection::single(
                RejectionReason::EmptyResponse,
                Finding::new(
                    "",
                    FindingCode::EmptyContent,
                    "Модель вернула пустой ответ.",
                ),
            )
        })?;
    let value: serde_json::Value = serde_json::from_str(content).map_err(|e| {
        // Valid JSON with a number no field can hold breaks the schema, not the syntax.
        if is_number_out_of_range(&e) {
            return Rejection::single(
                RejectionReason::SchemaViolation,
                Finding::new(
                    "",
                    FindingCode::NumberOutOfRange,
                    format!(
                        "В ответе модели слишком большое число: {}.",
                        json_error_ru(&e)
                    ),
                ),
            );
        }
        Rejection::single(
            RejectionReason::InvalidJson,
            Finding::new(
                "",
                FindingCode::InvalidJson,
                format!("Ответ модели — не JSON: {}.", json_error_ru(&e)),
            ),
        )
    })?;
    let violations = schema.violations(&value);
    if !violations.is_empty() {
        let findings = violations
            .into_iter()
            .map(|v| Finding::new(v.path, FindingCode::Schema, v.message))
            .collect();
        return Err(Rejection::new(RejectionReason::SchemaViolation, findings)
            .expect("there is at least one violation"));
    }
    // The schema already denies unknown fields; the typed decode denies them again so that the
    // types, not only the schema file, guarantee it.
    let draft: ModelDraft = serde_json::from_value(value).map_err(|e| {
        Rejection::single(
            RejectionReason::SchemaViolation,
            Finding::new("", FindingCode::Decode, e.to_string()),
        )
    })?;
    match Rejection::new(RejectionReason::UnsafeText, unsafe_text_findings(&draft)) {
        Some(rejection) => Err(rejection),
        None => Ok(draft),
    }
}

/// Every text the model wrote, with its JSON pointer.
fn model_texts(draft: &ModelDraft) -> Vec<(String, &str)> {
    let mut texts = Vec::new();
    for (name, value) in [
        ("title", &draft.title),
        ("problem", &draft.problem),
        ("circumstances", &draft.circumstances),
        ("impact", &draft.impact),
        ("verification", &draft.verification),
    ] {
        if let Some(text) = value.as_deref() {
            texts.push((format!("/{name}"), text));
        }
    }
    for (i, warning) in draft.warnings.iter().enumerate() {
        texts.push((format!("/warnings/{i}"), warning.as_str()));
    }
    if let Some(subject) = &draft.subject {
        for (i, evidence) in subject.evidence.iter().enumerate() {
            texts.push((
                format!("/subject/evidence/{i}/quote"),
                evidence.quote.as_str(),
            ));
        }
    }
    texts
}

/// The model's text is untrusted input, exactly like the resident's: a control character, an
/// escape sequence, a direction override or an invisible character in any field could hide
/// words or steer a terminal, so it is refused before anything is printed, stored or
/// assembled (OWASP LLM05, improper output handling).
fn unsafe_text_findings(draft: &ModelDraft) -> Vec<Finding> {
    model_texts(draft)
        .into_iter()
        .filter_map(|(path, text)| {
            let (position, character) = text
                .chars()
                .zip(1..)
                .find_map(|(c, position)| is_unsafe_in_model_text(c).then_some((position, c)))?;
            Some(Finding::new(
                path,
                FindingCode::UnsafeCharacter,
                format!(
                    "На позиции {position} стоит управляющий или невидимый символ U+{:04X}.",
                    u32::from(character)
                ),
            ))
        })
        .collect()
}

/// Checks the rules a schema cannot express. Returns every finding; an empty list means the
/// draft may be assembled. Without a draft only the warnings are checked, since they are
/// still shown to the resident.
pub fn semantic_findings(draft: &ModelDraft) -> Vec<Finding> {
    let mut findings = warning_findings(&draft.warnings);
    if draft.outcome != ModelOutcome::Draft {
        return findings;
    }
    for (name, value) in [("title", &draft.title), ("problem", &draft.problem)] {
        if value.as_deref().is_none_or(|v| v.trim().is_empty()) {
            findings.push(Finding::new(
                format!("/{name}"),
                FindingCode::RequiredForDraft,
                format!("Поле {name} обязательно, когда модель составила черновик."),
            ));
        }
    }
    let descriptive = [
        ("title", &draft.title),
        ("problem", &draft.problem),
        ("circumstances", &draft.circumstances),
        ("impact", &draft.impact),
        ("verification", &draft.verification),
    ];
    for (name, value) in descriptive {
        let Some(text) = value.as_deref() else {
            continue;
        };
        let path = format!("/{name}");
        if text.trim().is_empty() {
            findings.push(Finding::new(
                &path,
                FindingCode::Blank,
                "Поле состоит из одних пробелов.",
            ));
        }
        if text.chars().any(is_line_break) {
            findings.push(Finding::new(
                &path,
                FindingCode::LineBreak,
                "Поле должно быть одной строкой.",
            ));
        }
        if contains_request_word(text) {
            findings.push(Finding::new(
                &path,
                FindingCode::RequestBlock,
                "Описательное поле содержит «Прошу»: просьбу формулирует не модель.",
            ));
        }
        if contains_url(text) {
            findings.push(Finding::new(
                &path,
                FindingCode::Url,
                "Описательное поле содержит адрес сайта.",
            ));
        }
        if contains_legal_reference(text) {
            findings.push(Finding::new(
                &path,
                FindingCode::LegalText,
                "Описательное поле ссылается на закон: правовые абзацы добавляет программа.",
            ));
        }
    }
    if draft
        .title
        .as_deref()
        .is_some_and(|t| char_count(t) > limits::TITLE_MAX)
    {
        findings.push(Finding::new(
            "/title",
            FindingCode::TooLong,
            format!("Заголовок длиннее {} символов.", limits::TITLE_MAX),
        ));
    }
    if let Some(subject) = &draft.subject {
        let count = subject.evidence.len();
        if !(1..=limits::EVIDENCE_MAX).contains(&count) {
            findings.push(Finding::new(
                "/subject/evidence",
                FindingCode::EvidenceCount,
                format!("Нужна одна или две цитаты, а не {count}."),
            ));
        }
        for (i, evidence) in subject.evidence.iter().enumerate() {
            let length = char_count(&evidence.quote);
            if !(limits::QUOTE_MIN..=limits::QUOTE_MAX).contains(&length) {
                findings.push(Finding::new(
                    format!("/subject/evidence/{i}/quote"),
                    FindingCode::QuoteLength,
                    format!(
                        "Цитата должна быть от {} до {} символов, а в ней {length}.",
                        limits::QUOTE_MIN,
                        limits::QUOTE_MAX
                    ),
                ));
            }
        }
    }
    findings
}

/// Checks the notes for the resident: few, short, one line each, and without web addresses.
fn warning_findings(warnings: &[String]) -> Vec<Finding> {
    let mut findings = Vec::new();
    if warnings.len() > limits::WARNINGS_MAX {
        findings.push(Finding::new(
            "/warnings",
            FindingCode::TooMany,
            format!("Предупреждений больше {}.", limits::WARNINGS_MAX),
        ));
    }
    for (i, warning) in warnings.iter().enumerate() {
        let path = format!("/warnings/{i}");
        if char_count(warning) > limits::WARNING_MAX {
            findings.push(Finding::new(
                &path,
                FindingCode::TooLong,
                format!("Предупреждение длиннее {} символов.", limits::WARNING_MAX),
            ));
        }
        if warning.chars().any(is_line_break) {
            findings.push(Finding::new(
                &path,
                FindingCode::LineBreak,
                "Предупреждение должно быть одной строкой.",
            ));
        }
        if contains_url(warning) {
            findings.push(Finding::new(
                &path,
                FindingCode::Url,
                "Предупреждение содержит адрес сайта.",
            ));
        }
    }
    findings
}
