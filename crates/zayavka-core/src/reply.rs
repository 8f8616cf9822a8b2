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
                    format!("В ответе модели {}.", json_error_ru(&e)),
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
    // A name given twice is read one way by one parser and another way by the next: the reply
    // is refused rather than read with one of the two values.
    if let Some(path) = crate::text::first_duplicate_key(content) {
        let name = path.rsplit('/').next().unwrap_or_default().to_owned();
        return Err(Rejection::single(
            RejectionReason::InvalidJson,
            Finding::new(
                path,
                FindingCode::InvalidJson,
                format!("В ответе модели поле «{name}» указано несколько раз."),
            ),
        ));
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::request_draft;
    use serde_json::{Value, json};

    /// A draft that passes every check, as the model would send it.
    fn valid_draft_json() -> Value {
        json!({
            "outcome": "draft",
            "title": "Не работает освещение на лестнице в подъезде 2",
            "problem": "На лестнице между третьим и четвёртым этажами не горит свет",
            "circumstances": "Подъезд 2, лестница между 3 и 4 этажами; свет не горит неделю",
            "impact": "В тёмное время суток на лестнице плохо видно ступени",
            "verification": "Причину отсутствия освещения нужно установить при осмотре",
            "subject": {
                "kind": "common_area_premises_lighting",
                "evidence": [
                    {"source_field": "description", "quote": "неделю не горит свет на лестнице"}
                ]
            },
            "warnings": ["Проверьте номер подъезда"]
        })
    }

    fn reply_with(content: &str) -> ModelReply {
        ModelReply {
            content: Some(content.to_owned()),
            refusal: None,
            finish_reason: Some("stop".to_owned()),
        }
    }

    fn decode(reply: &ModelReply) -> Result<ModelDraft, Rejection> {
        decode_reply(reply, request_draft())
    }

    fn rejected(reply: &ModelReply) -> Rejection {
        decode(reply).expect_err("the reply must be rejected")
    }

    /// The pointer and code of each finding, the part of a finding that tests compare whole.
    fn places(findings: &[Finding]) -> Vec<(String, FindingCode)> {
        findings
            .iter()
            .map(|f| (f.field().to_owned(), f.code()))
            .collect()
    }

    /// The Latin words of a message: a Russian message may name JSON, and nothing else in
    /// English may slip through from a parser.
    fn latin_words(message: &str) -> Vec<&str> {
        message
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|word| !word.is_empty())
            .collect()
    }

    #[test]
    fn issue_14_a_name_given_twice_in_the_reply_is_refused_not_read_one_way() {
        let text = valid_draft_json().to_string();
        let twice = text.replacen(
            "\"title\":",
            "\"title\":\"Заголовок, который победил бы\",\"title\":",
            1,
        );
        let rejection = rejected(&reply_with(&twice));
        assert_eq!(rejection.reason(), RejectionReason::InvalidJson);
        assert_eq!(
            places(rejection.findings()),
            [("/title".to_owned(), FindingCode::InvalidJson)]
        );
        assert_eq!(
            rejection.findings()[0].message(),
            "В ответе модели поле «title» указано несколько раз."
        );
        assert!(rejection.reason().may_reask(), "a one-off is asked again");
    }

    #[test]
    fn a_valid_draft_decodes_to_its_typed_form() {
        let draft = decode(&reply_with(&valid_draft_json().to_string())).unwrap();
        assert_eq!(
            draft,
            ModelDraft {
                outcome: ModelOutcome::Draft,
                title: Some("Не работает освещение на лестнице в подъезде 2".into()),
                problem: Some("На лестнице между третьим и четвёртым этажами не горит свет".into()),
                circumstances: Some(
                    "Подъезд 2, лестница между 3 и 4 этажами; свет не горит неделю".into()
                ),
                impact: Some("В тёмное время суток на лестнице плохо видно ступени".into()),
                verification: Some(
                    "Причину отсутствия освещения нужно установить при осмотре".into()
                ),
                subject: Some(ModelSubject {
                    kind: SubjectKind::CommonAreaPremisesLighting,
                    evidence: vec![Evidence {
                        source_field: SourceField::Description,
                        quote: "неделю не горит свет на лестнице".into(),
                    }],
                }),
                warnings: vec!["Проверьте номер подъезда".into()],
            }
        );
        assert!(semantic_findings(&draft).is_empty());
    }

    #[test]
    fn a_refusal_is_rejected_even_with_usable_content_and_is_not_asked_again() {
        let mut reply = reply_with(&valid_draft_json().to_string());
        reply.refusal = Some("Я не могу помочь с этим.".into());
        let rejection = rejected(&reply);
        assert_eq!(rejection.reason(), RejectionReason::Refusal);
        assert_eq!(
            places(rejection.findings()),
            [(String::new(), FindingCode::Refusal)]
        );
        assert_eq!(
            rejection.findings()[0].message(),
            "Модель отказалась отвечать: «Я не могу помочь с этим.»."
        );
        assert!(!rejection.reason().may_reask());
    }

    #[test]
    fn a_blank_refusal_is_no_refusal() {
        let mut reply = reply_with(&valid_draft_json().to_string());
        reply.refusal = Some("  \n".into());
        assert!(decode(&reply).is_ok());
    }

    #[test]
    fn a_refusal_is_quoted_with_its_invisible_characters_escaped() {
        let mut reply = reply_with("");
        reply.refusal = Some("Нет\u{1b}[31m\u{202e}".into());
        let message = rejected(&reply).findings()[0].message().to_owned();
        assert_eq!(
            message,
            "Модель отказалась отвечать: «Нет\\u{1b}[31m\\u{202e}»."
        );
        assert!(!message.contains('\u{1b}') && !message.contains('\u{202e}'));
    }

    #[test]
    fn output_cut_at_the_length_limit_is_truncated_even_when_the_json_is_complete() {
        let mut reply = reply_with(&valid_draft_json().to_string());
        reply.finish_reason = Some("length".into());
        let rejection = rejected(&reply);
        assert_eq!(rejection.reason(), RejectionReason::Truncated);
        assert_eq!(
            places(rejection.findings()),
            [(String::new(), FindingCode::FinishReasonLength)]
        );
        assert!(!rejection.reason().may_reask());
    }

    #[test]
    fn output_stopped_by_the_content_filter_is_rejected_as_filtered() {
        let mut reply = reply_with(&valid_draft_json().to_string());
        reply.finish_reason = Some("content_filter".into());
        let rejection = rejected(&reply);
        assert_eq!(rejection.reason(), RejectionReason::ContentFilter);
        assert_eq!(
            places(rejection.findings()),
            [(String::new(), FindingCode::FinishReasonContentFilter)]
        );
        assert!(!rejection.reason().may_reask());
    }

    #[test]
    fn missing_or_blank_content_is_an_empty_response() {
        let mut replies = vec![ModelReply::default()];
        for content in ["", "   ", "\n\t "] {
            replies.push(reply_with(content));
        }
        for reply in replies {
            let rejection = rejected(&reply);
            assert_eq!(
                rejection.reason(),
                RejectionReason::EmptyResponse,
                "{reply:?}"
            );
            assert_eq!(
                places(rejection.findings()),
                [(String::new(), FindingCode::EmptyContent)]
            );
            assert!(rejection.reason().may_reask());
        }
    }

    #[test]
    fn text_that_is_not_json_is_explained_in_russian_without_the_parsers_english() {
        for content in [
            "Вот ваша заявка: свет не горит.",
            "```json\n{\"outcome\": \"draft\"}\n```",
            "{\"outcome\": \"draft\",",
            "{\"outcome\": \"draft\",,}",
        ] {
            let rejection = rejected(&reply_with(content));
            assert_eq!(
                rejection.reason(),
                RejectionReason::InvalidJson,
                "{content}"
            );
            assert_eq!(
                places(rejection.findings()),
                [(String::new(), FindingCode::InvalidJson)]
            );
            let message = rejection.findings()[0].message();
            assert!(
                message.starts_with("Ответ модели — не JSON: в строке "),
                "{message}"
            );
            assert_eq!(latin_words(message), ["JSON"], "{message}");
            assert!(rejection.reason().may_reask());
        }
    }

    #[test]
    fn a_number_out_of_range_is_a_schema_violation_not_invalid_json() {
        for content in [
            r#"{"outcome": "draft", "title": 1e400}"#.to_owned(),
            valid_draft_json()
                .to_string()
                .replace(r#""warnings":["#, r#""warnings":[-1e400,"#),
        ] {
            let rejection = rejected(&reply_with(&content));
            assert_eq!(
                rejection.reason(),
                RejectionReason::SchemaViolation,
                "{content}"
            );
            assert_eq!(
                places(rejection.findings()),
                [(String::new(), FindingCode::NumberOutOfRange)]
            );
            let message = rejection.findings()[0].message();
            assert!(message.starts_with("В ответе модели в строке 1"));
            assert_eq!(latin_words(message), Vec::<&str>::new(), "{message}");
            assert!(rejection.reason().may_reask());
        }
    }

    #[test]
    fn a_schema_violation_names_every_offending_place() {
        let mut value = valid_draft_json();
        value["title"] = json!(42);
        value["warnings"] = json!("не список");
        value.as_object_mut().unwrap().remove("verification");
        let rejection = rejected(&reply_with(&value.to_string()));
        assert_eq!(rejection.reason(), RejectionReason::SchemaViolation);
        let mut found = places(rejection.findings());
        found.sort();
        assert_eq!(
            found,
            [
                (String::new(), FindingCode::Schema),
                ("/title".to_owned(), FindingCode::Schema),
                ("/warnings".to_owned(), FindingCode::Schema),
            ]
        );
        assert!(rejection.reason().may_reask());
    }

    #[test]
    fn an_extra_field_is_refused_by_the_schema_and_by_the_typed_decode() {
        let mut at_root = valid_draft_json();
        at_root["request_items"] = json!(["Выплатить компенсацию"]);
        let mut in_subject = valid_draft_json();
        in_subject["subject"]["confidence"] = json!(0.9);
        let mut in_evidence = valid_draft_json();
        in_evidence["subject"]["evidence"][0]["verified"] = json!(true);
        for (value, pointer) in [
            (at_root, ""),
            (in_subject, "/subject"),
            (in_evidence, "/subject/evidence/0"),
        ] {
            let rejection = rejected(&reply_with(&value.to_string()));
            assert_eq!(rejection.reason(), RejectionReason::SchemaViolation);
            assert_eq!(
                places(rejection.findings()),
                [(pointer.to_owned(), FindingCode::Schema)]
            );
            // The types guarantee it on their own, whatever a schema file says.
            let error = serde_json::from_value::<ModelDraft>(value).unwrap_err();
            assert!(error.to_string().contains("unknown field"), "{error}");
        }
    }

    /// The characters a model's text may not hold, each in a short text that hides it after
    /// four letters.
    const UNSAFE: [(&str, char); 9] = [
        ("\u{1b}[31m", '\u{1b}'),
        ("\u{0}", '\u{0}'),
        ("\u{7f}", '\u{7f}'),
        ("\u{9b}", '\u{9b}'),
        ("\u{200b}", '\u{200b}'),
        ("\u{feff}", '\u{feff}'),
        ("\u{ad}", '\u{ad}'),
        ("\u{202e}", '\u{202e}'),
        ("\u{2066}", '\u{2066}'),
    ];

    /// Every text field of the model's output, by its JSON pointer.
    const TEXT_POINTERS: [&str; 7] = [
        "/title",
        "/problem",
        "/circumstances",
        "/impact",
        "/verification",
        "/warnings/0",
        "/subject/evidence/0/quote",
    ];

    #[test]
    fn unsafe_characters_in_any_model_text_are_refused_with_place_and_position() {
        for pointer in TEXT_POINTERS {
            for (inserted, character) in UNSAFE {
                let mut value = valid_draft_json();
                // The quote keeps its ten-character minimum after the four letters.
                let text = format!("Свет{inserted} не горит на лестнице");
                *value.pointer_mut(pointer).unwrap() = json!(text);
                let rejection = rejected(&reply_with(&value.to_string()));
                let case = format!("{pointer} U+{:04X}", u32::from(character));
                assert_eq!(rejection.reason(), RejectionReason::UnsafeText, "{case}");
                assert_eq!(
                    places(rejection.findings()),
                    [(pointer.to_owned(), FindingCode::UnsafeCharacter)],
                    "{case}"
                );
                let message = rejection.findings()[0].message();
                assert_eq!(
                    message,
                    format!(
                        "На позиции 5 стоит управляющий или невидимый символ U+{:04X}.",
                        u32::from(character)
                    ),
                    "{case}"
                );
                assert!(!message.contains(character), "{case}");
                assert!(rejection.reason().may_reask(), "{case}");
            }
        }
    }

    #[test]
    fn every_field_with_an_unsafe_character_is_reported_and_only_the_first_one_in_each() {
        let mut value = valid_draft_json();
        value["problem"] = json!("\u{200b}Свет не\u{1b} горит");
        value["warnings"] = json!(["Обычная заметка", "Заметка\u{202e}"]);
        let rejection = rejected(&reply_with(&value.to_string()));
        assert_eq!(rejection.reason(), RejectionReason::UnsafeText);
        assert_eq!(
            places(rejection.findings()),
            [
                ("/problem".to_owned(), FindingCode::UnsafeCharacter),
                ("/warnings/1".to_owned(), FindingCode::UnsafeCharacter),
            ]
        );
        assert_eq!(
            rejection.findings()[0].message(),
            "На позиции 1 стоит управляющий или невидимый символ U+200B."
        );
        assert_eq!(
            rejection.findings()[1].message(),
            "На позиции 8 стоит управляющий или невидимый символ U+202E."
        );
    }

    #[test]
    fn line_breaks_are_left_to_the_semantic_rules() {
        let mut value = valid_draft_json();
        value["problem"] = json!("Свет не горит\nна лестнице");
        let draft = decode(&reply_with(&value.to_string())).unwrap();
        assert_eq!(
            places(&semantic_findings(&draft)),
            [("/problem".to_owned(), FindingCode::LineBreak)]
        );
    }

    /// The typed form of [`valid_draft_json`].
    fn valid_draft() -> ModelDraft {
        serde_json::from_value(valid_draft_json()).unwrap()
    }

    fn evidence(quote: &str) -> Evidence {
        Evidence {
            source_field: SourceField::Description,
            quote: quote.to_owned(),
        }
    }

    #[test]
    fn each_semantic_rule_has_its_own_code_and_place() {
        type Change = fn(&mut ModelDraft);
        let cases: [(Change, &[(&str, FindingCode)]); 14] = [
            (
                |d| d.circumstances = Some("   ".into()),
                &[("/circumstances", FindingCode::Blank)],
            ),
            (
                |d| d.problem = Some("Свет не горит\nна лестнице".into()),
                &[("/problem", FindingCode::LineBreak)],
            ),
            (
                |d| d.impact = Some("Плохо видно\u{2028}ступени".into()),
                &[("/impact", FindingCode::LineBreak)],
            ),
            (
                |d| d.impact = Some("ПРОШУ срочно починить".into()),
                &[("/impact", FindingCode::RequestBlock)],
            ),
            (
                |d| d.verification = Some("Подробности на uk-dom.ru".into()),
                &[("/verification", FindingCode::Url)],
            ),
            (
                |d| d.problem = Some("Согласно статье 161 ЖК свет должен гореть".into()),
                &[("/problem", FindingCode::LegalText)],
            ),
            (
                |d| d.title = Some("я".repeat(limits::TITLE_MAX + 1)),
                &[("/title", FindingCode::TooLong)],
            ),
            (
                |d| d.warnings = vec!["я".repeat(limits::WARNING_MAX + 1)],
                &[("/warnings/0", FindingCode::TooLong)],
            ),
            (
                |d| d.warnings = vec!["Заметка".into(); limits::WARNINGS_MAX + 1],
                &[("/warnings", FindingCode::TooMany)],
            ),
            (
                |d| d.subject.as_mut().unwrap().evidence.clear(),
                &[("/subject/evidence", FindingCode::EvidenceCount)],
            ),
            (
                |d| {
                    d.subject.as_mut().unwrap().evidence =
                        vec![evidence("не горит свет"); 3]
                },
                &[("/subject/evidence", FindingCode::EvidenceCount)],
            ),
            (
                |d| {
                    // Nine characters each: one short of the minimum.
                    d.subject.as_mut().unwrap().evidence =
                        vec![evidence("не горит "), evidence("свет горю")]
                },
                &[
                    ("/subject/evidence/0/quote", FindingCode::QuoteLength),
                    ("/subject/evidence/1/quote", FindingCode::QuoteLength),
                ],
            ),
            (
                |d| {
                    d.subject.as_mut().unwrap().evidence =
                        vec![evidence("свет не горит"), evidence(&"я".repeat(301))]
                },
                &[("/subject/evidence/1/quote", FindingCode::QuoteLength)],
            ),
            (
                |d| {
                    d.title = None;
                    d.problem = Some(" ".into());
                },
                &[
                    ("/title", FindingCode::RequiredForDraft),
                    ("/problem", FindingCode::RequiredForDraft),
                    ("/problem", FindingCode::Blank),
                ],
            ),
        ];
        for (change, expected) in cases {
            let mut draft = valid_draft();
            change(&mut draft);
            let expected: Vec<(String, FindingCode)> = expected
                .iter()
                .map(|(field, code)| ((*field).to_owned(), *code))
                .collect();
            assert_eq!(places(&semantic_findings(&draft)), expected, "{draft:?}");
        }
    }

    #[test]
    fn the_limits_themselves_are_allowed() {
        let mut draft = valid_draft();
        draft.title = Some("я".repeat(limits::TITLE_MAX));
        draft.warnings = vec!["я".repeat(limits::WARNING_MAX); limits::WARNINGS_MAX];
        draft.subject.as_mut().unwrap().evidence = vec![
            evidence(&"я".repeat(limits::QUOTE_MIN)),
            evidence(&"я".repeat(limits::QUOTE_MAX)),
        ];
        assert_eq!(places(&semantic_findings(&draft)), []);
    }

    #[test]
    fn a_reply_without_a_draft_has_only_its_warnings_checked() {
        for outcome in [
            ModelOutcome::MultipleProblems,
            ModelOutcome::InsufficientInformation,
        ] {
            let mut draft = valid_draft();
            draft.outcome = outcome;
            // Text that would break every descriptive rule is left alone: it is never shown.
            draft.title = None;
            draft.problem = Some("Прошу по статье 161 см. uk-dom.ru\nсрочно".into());
            draft.subject.as_mut().unwrap().evidence.clear();
            assert_eq!(places(&semantic_findings(&draft)), [], "{outcome:?}");
            draft.warnings = vec![
                "Опишите качели отдельно".into(),
                "Смотрите uk-dom.ru".into(),
                "Вторая\nстрока".into(),
            ];
            assert_eq!(
                places(&semantic_findings(&draft)),
                [
                    ("/warnings/1".to_owned(), FindingCode::Url),
                    ("/warnings/2".to_owned(), FindingCode::LineBreak),
                ],
                "{outcome:?}"
            );
        }
    }
}
