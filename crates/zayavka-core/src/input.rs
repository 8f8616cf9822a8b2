//! The resident input contract.
//!
//! Two layers, as the data flows: [`RawInput`] is what the resident typed, kept exactly so that
//! nothing is ever lost, and [`ResidentInput`] is the checked, normalised value that every later
//! stage works with. The only way from one to the other is [`ResidentInput::parse`], which
//! reports every problem at once, each with a stable code and a Russian message that says how
//! to fix it.

use std::fmt;

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

use crate::subject::SubjectKind;
use crate::text::{char_count, has_letter, is_cyrillic, is_invisible_format};
use zayavka_codes::stable_codes;

/// The longest body of an assembled request, in characters. It lives with the input contract
/// because the contract holds the resident's own words to it when no model writes the
/// description (`TooLongForRequest`).
pub const BODY_LIMIT: usize = 2_500;

/// Character limits of the input fields, counted after trimming.
pub mod limits {
    /// The shortest description that can describe a problem.
    pub const DESCRIPTION_MIN: usize = 10;
    /// The longest description.
    pub const DESCRIPTION_MAX: usize = 2_000;
    /// The longest location.
    pub const LOCATION_MAX: usize = 120;
    /// The longest statement of consequences.
    pub const CONSEQUENCES_MAX: usize = 500;
    /// The longest statement of what the resident asks for.
    pub const DESIRED_ACTIONS_MAX: usize = 500;
}

stable_codes! {
    /// The fields of the resident input, in the order the form shows them.
    pub enum InputField {
        /// What happened, in the resident's words.
        Description => "description",
        /// Where it is.
        Location => "location",
        /// What it leads to.
        Consequences => "consequences",
        /// What the resident asks the management company to do.
        DesiredActions => "desired_actions",
        /// The subject the resident confirmed independently of the model.
        ConfirmedSubject => "confirmed_subject",
    }
}

impl InputField {
    /// The label the resident sees on the form.
    pub const fn label_ru(self) -> &'static str {
        match self {
            InputField::Description => "Описание проблемы",
            InputField::Location => "Место",
            InputField::Consequences => "Последствия",
            InputField::DesiredActions => "Что вы просите сделать",
            InputField::ConfirmedSubject => "К чему относится проблема",
        }
    }
}

/// What is wrong with one field of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputErrorKind {
    /// The input is not JSON at all.
    NotJson {
        /// What the JSON parser said, with line and column.
        detail: String,
    },
    /// The input is not a JSON object.
    NotAnObject,
    /// A field the contract does not know.
    UnknownField {
        /// The name as given.
        name: String,
    },
    /// A field of the wrong JSON type.
    WrongType,
    /// A name that appears more than once in the object: JSON readers keep only one of the
    /// values, silently, so which one the resident meant is unknown.
    DuplicateField {
        /// The name as given.
        name: String,
    },
    /// The description is missing.
    Missing,
    /// An optional text field holds only white space.
    Blank,
    /// Fewer characters than the minimum, after trimming.
    TooShort {
        /// The minimum.
        min: usize,
        /// How many there are.
        actual: usize,
    },
    /// More characters than the maximum, after trimming.
    TooLong {
        /// The maximum.
        max: usize,
        /// How many there are.
        actual: usize,
    },
    /// A control character other than tab and line breaks.
    ControlCharacter {
        /// The character.
        character: char,
        /// Its position in the field as typed, counted in characters from 1.
        position: usize,
    },
    /// A character that changes the direction of the text and can hide part of it.
    BidiControl {
        /// The character.
        character: char,
        /// Its position in the field as typed, counted in characters from 1.
        position: usize,
    },
    /// The text has no letters (or, outside the description, no letters or digits): only
    /// punctuation or symbols.
    NoWords,
    /// A request drafted without a model would be longer than the body limit.
    TooLongForRequest {
        /// The most characters the description may have with the other fields as they are.
        max: usize,
        /// How many it has.
        actual: usize,
    },
    /// A subject that is not one of the known kinds.
    UnknownSubject {
        /// The value as given.
        value: String,
    },
}

/// One problem with the resident input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The field concerned (`None` for the input as a whole or an unknown field).
    pub field: Option<InputField>,
    /// What is wrong.
    pub kind: InputErrorKind,
}

stable_codes! {
    /// The stable machine code of an [`InputError`].
    pub enum InputErrorCode {
        /// `not_json`.
        NotJson => "not_json",
        /// `not_an_object`.
        NotAnObject => "not_an_object",
        /// `unknown_field`.
        UnknownField => "unknown_field",
        /// `wrong_type`.
        WrongType => "wrong_type",
        /// `duplicate_field`.
        DuplicateField => "duplicate_field",
        /// `missing`.
        Missing => "missing",
        /// `blank`.
        Blank => "blank",
        /// `too_short`.
        TooShort => "too_short",
        /// `too_long`.
        TooLong => "too_long",
        /// `control_character`.
        ControlCharacter => "control_character",
        /// `bidi_control`.
        BidiControl => "bidi_control",
        /// `no_words`.
        NoWords => "no_words",
        /// `too_long_for_request`.
        TooLongForRequest => "too_long_for_request",
        /// `unknown_subject`.
        UnknownSubject => "unknown_subject",
    }
}

impl InputError {
    fn new(field: InputField, kind: InputErrorKind) -> InputError {
        InputError {
            field: Some(field),
            kind,
        }
    }

    /// The stable machine code of the error.
    pub fn code(&self) -> InputErrorCode {
        match self.kind {
            InputErrorKind::NotJson { .. } => InputErrorCode::NotJson,
            InputErrorKind::NotAnObject => InputErrorCode::NotAnObject,
            InputErrorKind::UnknownField { .. } => InputErrorCode::UnknownField,
            InputErrorKind::WrongType => InputErrorCode::WrongType,
            InputErrorKind::DuplicateField { .. } => InputErrorCode::DuplicateField,
            InputErrorKind::Missing => InputErrorCode::Missing,
            InputErrorKind::Blank => InputErrorCode::Blank,
            InputErrorKind::TooShort { .. } => InputErrorCode::TooShort,
            InputErrorKind::TooLong { .. } => InputErrorCode::TooLong,
            InputErrorKind::ControlCharacter { .. } => InputErrorCode::ControlCharacter,
            InputErrorKind::BidiControl { .. } => InputErrorCode::BidiControl,
            InputErrorKind::NoWords => InputErrorCode::NoWords,
            InputErrorKind::TooLongForRequest { .. } => InputErrorCode::TooLongForRequest,
            InputErrorKind::UnknownSubject { .. } => InputErrorCode::UnknownSubject,
        }
    }

    /// The name of the field as it appears in JSON (an unknown field keeps its own name).
    pub fn field_name(&self) -> String {
        match (&self.field, &self.kind) {
            (Some(field), _) => field.code().to_owned(),
            (None, InputErrorKind::UnknownField { name })
            | (None, InputErrorKind::DuplicateField { name }) => name.clone(),
            (None, _) => String::new(),
        }
    }

    /// The position of the offending character, counted in characters from 1, if any.
    pub fn position(&self) -> Option<usize> {
        match self.kind {
            InputErrorKind::ControlCharacter { position, .. }
            | InputErrorKind::BidiControl { position, .. } => Some(position),
            _ => None,
        }
    }

    /// The message for the resident: what is wrong and how to fix it, in Russian.
    pub fn message_ru(&self) -> String {
        let label = self.field.map(InputField::label_ru).unwrap_or("");
        match &self.kind {
            InputErrorKind::NotJson { detail } => {
                format!("Данные заявки не читаются как JSON: {detail}. Исправьте файл.")
            }
            InputErrorKind::NotAnObject => "Данные заявки должны быть объектом JSON с полями \
                description, location, consequences, desired_actions и confirmed_subject. \
                Проверьте файл."
                .to_owned(),
            InputErrorKind::UnknownField { name } => format!(
                "Поле «{}» не предусмотрено. Уберите его: допустимы только description, \
                 location, consequences, desired_actions и confirmed_subject.",
                shown_name(name)
            ),
            InputErrorKind::WrongType => {
                format!("Поле «{label}» должно быть текстом. Впишите текст или уберите поле.")
            }
            InputErrorKind::DuplicateField { name } => {
                let named = match self.field {
                    Some(_) => format!("«{label}» ({})", shown_name(name)),
                    None => format!("«{}»", shown_name(name)),
                };
                format!(
                    "Поле {named} указано в данных несколько раз, и неясно, какое значение \
                     верное. Оставьте его один раз — с тем текстом, который нужен."
                )
            }
            InputErrorKind::Missing => {
                "Опишите проблему: поле «Описание проблемы» обязательно.".to_owned()
            }
            InputErrorKind::Blank => {
                format!("В поле «{label}» только пробелы. Впишите текст или оставьте поле пустым.")
            }
            InputErrorKind::TooShort { min, actual } => format!(
                "Поле «{label}» слишком короткое: нужно не меньше {min} символов, сейчас \
                 {actual}. Допишите, что именно происходит, где и как давно."
            ),
            InputErrorKind::TooLong { max, actual } => format!(
                "Поле «{label}» слишком длинное: можно не больше {max} символов, сейчас \
                 {actual}. Сократите его на {} — текст не будет обрезан автоматически.",
                actual - max
            ),
            InputErrorKind::ControlCharacter {
                character,
                position,
            } => format!(
                "В поле «{label}» на позиции {position} стоит невидимый служебный символ \
                 (U+{:04X}). Удалите его, например перепечатав этот фрагмент текста.",
                u32::from(*character)
            ),
            InputErrorKind::BidiControl {
                character,
                position,
            } => format!(
                "В поле «{label}» на позиции {position} стоит невидимый символ смены \
                 направления текста (U+{:04X}), который может скрыть часть текста. Удалите \
                 его, например перепечатав этот фрагмент.",
                u32::from(*character)
            ),
            InputErrorKind::NoWords if self.field == Some(InputField::Description) => {
                "В описании нет ни одного слова — только знаки или символы. Напишите словами, \
                 что случилось."
                    .to_owned()
            }
            InputErrorKind::NoWords => format!(
                "В поле «{label}» нет ни слов, ни цифр — только знаки или символы. Напишите \
                 текст словами или оставьте поле пустым."
            ),
            InputErrorKind::TooLongForRequest { max, actual } => format!(
                "Без модели заявка складывается из ваших слов и должна уместиться в {} \
                 символов. С остальными полями, как они заполнены сейчас, описание может \
                 занимать не больше {max} символов, а в нём {actual}. Сократите описание на \
                 {} (или место и последствия) — текст не будет обрезан автоматически.",
                BODY_LIMIT,
                actual - max
            ),
            InputErrorKind::UnknownSubject { value } => format!(
                "Неизвестный вид проблемы «{}». Выберите один из списка: {} — или не \
                 выбирайте ничего.",
                shown_name(value),
                SubjectKind::ALL
                    .iter()
                    .map(|kind| kind.code())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message_ru())
    }
}

/// Every problem found in one input, in field order: never empty, and never more than
/// [`InputErrors::MAX_KEPT`] (a file with ten thousand unknown fields gets the first few and a
/// count, not megabytes of errors).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the resident input is invalid ({} problems)", self.total())]
pub struct InputErrors {
    errors: Vec<InputError>,
    omitted: usize,
}

impl InputErrors {
    /// The most errors kept.
    pub const MAX_KEPT: usize = 20;

    /// The errors, or `None` when there are none: an error list always says what is wrong.
    pub fn new(mut errors: Vec<InputError>) -> Option<InputErrors> {
        if errors.is_empty() {
            return None;
        }
        let omitted = errors.len().saturating_sub(Self::MAX_KEPT);
        errors.truncate(Self::MAX_KEPT);
        Some(InputErrors { errors, omitted })
    }

    fn from_found(errors: Vec<InputError>) -> InputErrors {
        InputErrors::new(errors).expect("called only with at least one error")
    }

    /// The errors kept, in field order.
    pub fn iter(&self) -> std::slice::Iter<'_, InputError> {
        self.errors.iter()
    }

    /// The errors kept, in field order.
    pub fn as_slice(&self) -> &[InputError] {
        &self.errors
    }

    /// How many more errors there were beyond those kept.
    pub fn omitted(&self) -> usize {
        self.omitted
    }

    /// How many errors there were in all.
    pub fn total(&self) -> usize {
        self.errors.len() + self.omitted
    }
}

impl<'a> IntoIterator for &'a InputErrors {
    type Item = &'a InputError;
    type IntoIter = std::slice::Iter<'a, InputError>;

    fn into_iter(self) -> Self::IntoIter {
        self.errors.iter()
    }
}

/// The input exactly as the resident gave it: any text, any length, kept for the record so that
/// nothing typed is lost even when it is refused.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RawInput {
    /// What happened.
    pub description: Option<String>,
    /// Where.
    pub location: Option<String>,
    /// What it leads to.
    pub consequences: Option<String>,
    /// What the resident asks for.
    pub desired_actions: Option<String>,
    /// The subject the resident confirmed, as a machine name.
    pub confirmed_subject: Option<String>,
}

impl RawInput {
    /// Reads a raw input from a JSON value: what can be read, and what could not (unknown
    /// fields and wrong types, with the field named). `null` counts as an absent field.
    fn read_json(value: &serde_json::Value) -> (RawInput, Vec<InputError>) {
        let mut raw = RawInput::default();
        let Some(object) = value.as_object() else {
            let error = InputError {
                field: None,
                kind: InputErrorKind::NotAnObject,
            };
            return (raw, vec![error]);
        };
        let mut errors = Vec::new();
        for (name, value) in object {
            let Some(field) = InputField::from_code(name) else {
                errors.push(InputError {
                    field: None,
                    kind: InputErrorKind::UnknownField { name: name.clone() },
                });
                continue;
            };
            let text = match value {
                serde_json::Value::Null => None,
                serde_json::Value::String(text) => Some(text.clone()),
                _ => {
                    errors.push(InputError::new(field, InputErrorKind::WrongType));
                    continue;
                }
            };
            *raw.slot(field) = text;
        }
        (raw, errors)
    }

    fn slot(&mut self, field: InputField) -> &mut Option<String> {
        match field {
            InputField::Description => &mut self.description,
            InputField::Location => &mut self.location,
            InputField::Consequences => &mut self.consequences,
            InputField::DesiredActions => &mut self.desired_actions,
            InputField::ConfirmedSubject => &mut self.confirmed_subject,
        }
    }
}

fn duplicate_field_errors(text: &str) -> Vec<InputError> {
    let Ok(TopLevelNames(names)) = serde_json::from_str::<TopLevelNames>(text) else {
        return Vec::new();
    };
    let mut seen = std::collections::HashSet::new();
    let mut reported = std::collections::HashSet::new();
    let mut errors = Vec::new();
    for name in names {
        if !seen.insert(name.clone()) && reported.insert(name.clone()) {
            errors.push(InputError {
                field: InputField::from_code(&name),
                kind: InputErrorKind::DuplicateField { name },
            });
        }
    }
    errors
}

/// The names of a JSON object's members in the order written, repeats included; the values
/// are skipped unread. Anything but an object fails to deserialise.
struct TopLevelNames(Vec<String>);

impl<'de> Deserialize<'de> for TopLevelNames {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Names;
        impl<'de> serde::de::Visitor<'de> for Names {
            type Value = TopLevelNames;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("a JSON object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<TopLevelNames, A::Error> {
                let mut names = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    map.next_value::<serde::de::IgnoredAny>()?;
                    names.push(name);
                }
                Ok(TopLevelNames(names))
            }
        }
        deserializer.deserialize_map(Names)
    }
}

/// The fewest letters a field must have before its script is judged: a short location such as
/// «корпус B» or «кв. 5А» says nothing about the language of the request.
pub const SCRIPT_CHECK_MIN_LETTERS: usize = 5;

stable_codes! {
    /// Something about an accepted input that the resident should know, shown with the result
    /// and never a reason to refuse the input.
    pub enum InputNoticeCode {
        /// A text field is mostly not in Cyrillic letters: typed in Latin transliteration
        /// («Zamenit lampy»), or in another language.
        NotInRussianLetters => "not_in_russian_letters",
    }
}

/// One notice about an accepted input: its code and the fields it concerns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InputNotice {
    /// What it is about.
    pub code: InputNoticeCode,
    /// The fields concerned, in form order.
    pub fields: Vec<InputField>,
}

impl InputNotice {
    /// The notice for the resident, in Russian: what was noticed and what to do about it.
    pub fn message_ru(&self) -> String {
        let names: Vec<String> = self
            .fields
            .iter()
            .map(|field| format!("«{}»", field.label_ru()))
            .collect();
        match self.code {
            InputNoticeCode::NotInRussianLetters => {
                let (fields, written, them) = match names.as_slice() {
                    [one] => (format!("Поле {one}"), "написано", "его"),
                    [rest @ .., last] => (
                        format!("Поля {} и {last}", rest.join(", ")),
                        "написаны",
                        "их",
                    ),
                    [] => ("Текст".to_owned(), "написан", "его"),
                };
                format!(
                    "{fields} {written} не русскими буквами. Заявку в управляющую организацию \
                     подают на русском языке: перепишите {them} кириллицей (например, «Заменить \
                     лампы», а не «Zamenit lampy») и составьте заявку заново."
                )
            }
        }
    }
}

/// Whether a field's text is mostly not Cyrillic: it has at least
/// [`SCRIPT_CHECK_MIN_LETTERS`] letters and fewer than half of them are Cyrillic. Digits,
/// punctuation and symbols do not count, so «кв. 12, 3-й этаж» and a Russian sentence with a
/// brand name in Latin letters pass.
fn mostly_not_cyrillic(text: &str) -> bool {
    let (letters, cyrillic) = text
        .chars()
        .filter(|c| c.is_alphabetic())
        .fold((0_usize, 0_usize), |(letters, cyrillic), c| {
            (letters + 1, cyrillic + usize::from(is_cyrillic(c)))
        });
    letters >= SCRIPT_CHECK_MIN_LETTERS && cyrillic * 2 < letters
}

/// A checked resident input: text in NFC, trimmed, within limits, free of control and
/// direction-changing characters. The fields can only be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResidentInput {
    description: String,
    location: Option<String>,
    consequences: Option<String>,
    desired_actions: Option<String>,
    confirmed_subject: Option<SubjectKind>,
}

/// The part of the input the model may see: the four text fields, never the subject the
/// resident confirmed (the model classifies on its own) and never the resident's profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ModelView<'a> {
    /// What happened.
    pub description: &'a str,
    /// Where.
    pub location: Option<&'a str>,
    /// What it leads to.
    pub consequences: Option<&'a str>,
    /// What the resident asks for.
    pub desired_actions: Option<&'a str>,
}

impl ResidentInput {
    /// Reads and checks an input from JSON text, reporting every problem at once: text that is
    /// not JSON, unknown fields, wrong types, and every rule of the contract for the fields that
    /// could be read.
    pub fn from_json_str(text: &str) -> Result<ResidentInput, InputErrors> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            InputErrors::from_found(vec![InputError {
                field: None,
                kind: InputErrorKind::NotJson {
                    detail: crate::text::json_error_ru(&e),
                },
            }])
        })?;
        let (raw, mut errors) = RawInput::read_json(&value);
        if matches!(errors.first(), Some(e) if e.kind == InputErrorKind::NotAnObject) {
            return Err(InputErrors::from_found(errors));
        }
        // The parsed value kept one of a duplicated field's values; the field is refused, and
        // the value that happened to be kept is not judged. A repeated unknown name is already
        // refused as unknown.
        let duplicated: Vec<InputError> = duplicate_field_errors(text)
            .into_iter()
            .filter(|e| e.field.is_some())
            .collect();
        let judged_elsewhere = |field| {
            duplicated
                .iter()
                .any(|e: &InputError| e.field == Some(field))
        };
        errors.extend(duplicated.iter().cloned());
        // A field of the wrong type was not read, so it must not also be reported as missing.
        let unreadable = |field| errors.iter().any(|e| e.field == Some(field));
        match ResidentInput::parse(&raw) {
            Ok(input) if errors.is_empty() => return Ok(input),
            Ok(_) => {}
            Err(more) => {
                let more: Vec<InputError> = more
                    .errors
                    .into_iter()
                    .filter(|e| {
                        let missing_but_unreadable =
                            e.kind == InputErrorKind::Missing && e.field.is_some_and(unreadable);
                        !missing_but_unreadable && !e.field.is_some_and(judged_elsewhere)
                    })
                    .collect();
                errors.extend(more);
            }
        }
        errors.sort_by_key(|e| e.field.map_or(usize::MAX, |f| f as usize));
        Err(InputErrors::from_found(errors))
    }

    /// What the resident should know about this input, though it is accepted: the text fields
    /// written mostly in letters other than Cyrillic (see [`InputNoticeCode`]). Each front end
    /// shows these with the result, with or without a model.
    pub fn notices(&self) -> Vec<InputNotice> {
        let fields: Vec<InputField> = [
            (InputField::Description, Some(self.description.as_str())),
            (InputField::Location, self.location.as_deref()),
            (InputField::Consequences, self.consequences.as_deref()),
            (InputField::DesiredActions, self.desired_actions.as_deref()),
        ]
        .into_iter()
        .filter_map(|(field, text)| text.filter(|text| mostly_not_cyrillic(text)).map(|_| field))
        .collect();
        if fields.is_empty() {
            return Vec::new();
        }
        vec![InputNotice {
            code: InputNoticeCode::NotInRussianLetters,
            fields,
        }]
    }

    /// Refuses a JSON object in which a name appears more than once, naming each such name
    /// once.
    ///
    /// `serde_json` (like most JSON readers) keeps the last of the values silently, so a file
    /// with two `description`s would be drafted from whichever came last.
    /// [`ResidentInput::from_json_str`] checks this itself; a reader that takes an object apart
    /// before the check (a batch file's JSONL line, whose header columns are removed first)
    /// calls this on the text as it was. Text that is not a JSON object passes: the other
    /// checks explain it.
    pub fn refuse_duplicate_fields(text: &str) -> Result<(), InputErrors> {
        match InputErrors::new(duplicate_field_errors(text)) {
            Some(errors) => Err(errors),
            None => Ok(()),
        }
    }

    /// Checks and normalises a raw input, reporting every problem found.
    pub fn parse(raw: &RawInput) -> Result<ResidentInput, InputErrors> {
        let mut errors = Vec::new();
        let description = match &raw.description {
            None => {
                errors.push(InputError::new(
                    InputField::Description,
                    InputErrorKind::Missing,
                ));
                None
            }
            Some(text) => check_text(
                InputField::Description,
                text,
                TextRule {
                    min: limits::DESCRIPTION_MIN,
                    max: limits::DESCRIPTION_MAX,
                    blank: Blank::TooShort,
                },
                &mut errors,
            ),
        };
        let optional = |field, max, blank, errors: &mut Vec<InputError>| {
            raw_text(raw, field)
                .and_then(|text| check_text(field, text, TextRule { min: 1, max, blank }, errors))
        };
        // An empty location is simply absent: the contract only bounds its length.
        let location = optional(
            InputField::Location,
            limits::LOCATION_MAX,
            Blank::Absent,
            &mut errors,
        );
        let consequences = optional(
            InputField::Consequences,
            limits::CONSEQUENCES_MAX,
            Blank::Error,
            &mut errors,
        );
        let desired_actions = optional(
            InputField::DesiredActions,
            limits::DESIRED_ACTIONS_MAX,
            Blank::Error,
            &mut errors,
        );
        let confirmed_subject = match raw.confirmed_subject.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(value) => match value.parse::<SubjectKind>() {
                Ok(kind) => Some(kind),
                Err(_) => {
                    errors.push(InputError::new(
                        InputField::ConfirmedSubject,
                        InputErrorKind::UnknownSubject {
                            value: value.to_owned(),
                        },
                    ));
                    None
                }
            },
        };
        match description {
            Some(description) if errors.is_empty() => Ok(ResidentInput {
                description,
                location,
                consequences,
                desired_actions,
                confirmed_subject,
            }),
            _ => Err(InputErrors::from_found(errors)),
        }
    }

    /// What happened, in the resident's words.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Where it is, if given.
    pub fn location(&self) -> Option<&str> {
        self.location.as_deref()
    }

    /// What it leads to, if given.
    pub fn consequences(&self) -> Option<&str> {
        self.consequences.as_deref()
    }

    /// What the resident asks for, if given.
    pub fn desired_actions(&self) -> Option<&str> {
        self.desired_actions.as_deref()
    }

    /// The subject the resident confirmed, if any.
    pub fn confirmed_subject(&self) -> Option<SubjectKind> {
        self.confirmed_subject
    }

    /// The text of one of the four text fields (`None` for the subject or an absent field).
    pub fn text(&self, field: InputField) -> Option<&str> {
        match field {
            InputField::Description => Some(&self.description),
            InputField::Location => self.location(),
            InputField::Consequences => self.consequences(),
            InputField::DesiredActions => self.desired_actions(),
            InputField::ConfirmedSubject => None,
        }
    }

    /// The checked input as a raw input again, for the record: parsing it gives back the same
    /// value, because normalisation is idempotent.
    pub fn to_raw(&self) -> RawInput {
        RawInput {
            description: Some(self.description.clone()),
            location: self.location.clone(),
            consequences: self.consequences.clone(),
            desired_actions: self.desired_actions.clone(),
            confirmed_subject: self.confirmed_subject.map(|kind| kind.code().to_owned()),
        }
    }

    /// The part of the input the model may see.
    pub fn model_view(&self) -> ModelView<'_> {
        ModelView {
            description: &self.description,
            location: self.location(),
            consequences: self.consequences(),
            desired_actions: self.desired_actions(),
        }
    }
}

fn raw_text(raw: &RawInput, field: InputField) -> Option<&String> {
    match field {
        InputField::Description => raw.description.as_ref(),
        InputField::Location => raw.location.as_ref(),
        InputField::Consequences => raw.consequences.as_ref(),
        InputField::DesiredActions => raw.desired_actions.as_ref(),
        InputField::ConfirmedSubject => raw.confirmed_subject.as_ref(),
    }
}

/// What a field that is only white space means.
#[derive(Clone, Copy)]
enum Blank {
    /// It is too short (the description, which is required).
    TooShort,
    /// It is a mistake worth telling the resident about.
    Error,
    /// It is the same as leaving the field out.
    Absent,
}

struct TextRule {
    min: usize,
    max: usize,
    blank: Blank,
}

/// Checks one text field and returns its normalised value when it passes.
fn check_text(
    field: InputField,
    text: &str,
    rule: TextRule,
    errors: &mut Vec<InputError>,
) -> Option<String> {
    // Characters are checked before normalisation so that positions match what was typed.
    if let Some(error) = forbidden_character(field, text) {
        errors.push(error);
        return None;
    }
    // Invisible formatting characters (zero-width spaces, soft hyphens, a byte order mark)
    // come with text copied from web pages and office files; they mean nothing in a request,
    // so they are dropped and never count towards a limit (ADR 11). Direction controls were
    // refused above, because they can hide what the text says.
    let normalised: String = text
        .chars()
        .filter(|&c| !is_invisible_format(c))
        .nfc()
        .collect();
    let trimmed = normalised.trim();
    let actual = char_count(trimmed);
    if actual == 0 {
        match rule.blank {
            Blank::Absent => return None,
            Blank::Error => {
                errors.push(InputError::new(field, InputErrorKind::Blank));
                return None;
            }
            Blank::TooShort => {}
        }
    }
    if actual < rule.min {
        errors.push(InputError::new(
            field,
            InputErrorKind::TooShort {
                min: rule.min,
                actual,
            },
        ));
        None
    } else if actual > rule.max {
        errors.push(InputError::new(
            field,
            InputErrorKind::TooLong {
                max: rule.max,
                actual,
            },
        ));
        None
    } else if !has_words(field, trimmed) {
        errors.push(InputError::new(field, InputErrorKind::NoWords));
        None
    } else {
        Some(trimmed.to_owned())
    }
}

/// Whether a field's text says something in words: the description needs a letter; the other
/// fields a letter or a digit («5» is a fine entrance number).
fn has_words(field: InputField, text: &str) -> bool {
    if field == InputField::Description {
        has_letter(text)
    } else {
        text.chars().any(char::is_alphanumeric)
    }
}

/// A name or value given by the resident, cut for a message so that a huge one cannot flood it.
fn shown_name(name: &str) -> String {
    const SHOWN: usize = 40;
    let escaped = crate::text::escape_invisible(name);
    if char_count(&escaped) <= SHOWN {
        escaped
    } else {
        let cut: String = escaped.chars().take(SHOWN).collect();
        format!("{cut}…")
    }
}

/// The first control or direction-changing character of `text`, as an error.
fn forbidden_character(field: InputField, text: &str) -> Option<InputError> {
    text.chars().zip(1..).find_map(|(character, position)| {
        let kind = if is_bidi_control(character) {
            InputErrorKind::BidiControl {
                character,
                position,
            }
        } else if character.is_control() && !matches!(character, '\t' | '\n' | '\r') {
            InputErrorKind::ControlCharacter {
                character,
                position,
            }
        } else {
            return None;
        };
        Some(InputError::new(field, kind))
    })
}

/// The Unicode `Bidi_Control` characters: marks, embeddings, overrides and isolates. They are
/// invisible and can make text display differently from what it says.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(value: serde_json::Value) -> Result<ResidentInput, Vec<(String, &'static str)>> {
        ResidentInput::from_json_str(&value.to_string()).map_err(|errors| {
            errors
                .iter()
                .map(|e| (e.field_name(), e.code().code()))
                .collect()
        })
    }

    fn codes(value: serde_json::Value) -> Vec<(String, &'static str)> {
        parse(value).expect_err("the input should be refused")
    }

    #[test]
    fn a_plain_description_is_accepted_trimmed_and_in_nfc() {
        // «й» typed as «и» plus a combining breve becomes the single precomposed character.
        let input = parse(json!({"description": "  Не горит свет, и\u{306} неделю  "})).unwrap();
        assert_eq!(input.description(), "Не горит свет, й неделю");
        assert_eq!(input.location(), None);
        assert_eq!(input.confirmed_subject(), None);
    }

    #[test]
    fn limits_are_counted_in_characters_after_trimming() {
        assert_eq!(
            codes(json!({"description": "          "})),
            [("description".to_owned(), "too_short")]
        );
        assert_eq!(
            codes(json!({"description": "   123456789   "})),
            [("description".to_owned(), "too_short")]
        );
        // Ten Cyrillic letters are twenty bytes but ten characters: accepted.
        assert!(parse(json!({"description": "ёёёёёёёёёё"})).is_ok());
        let longest = "я".repeat(limits::DESCRIPTION_MAX);
        assert!(parse(json!({"description": format!("  {longest}\n")})).is_ok());
        assert_eq!(
            codes(json!({"description": format!("{longest}я")})),
            [("description".to_owned(), "too_long")]
        );
        let location = "д".repeat(limits::LOCATION_MAX + 1);
        assert_eq!(
            codes(json!({"description": "Не горит свет в подъезде", "location": location})),
            [("location".to_owned(), "too_long")]
        );
    }

    #[test]
    fn blank_optional_fields_are_errors_except_the_location() {
        let input = parse(json!({"description": "Не горит свет в подъезде", "location": "   "}));
        assert_eq!(input.unwrap().location(), None);
        assert_eq!(
            codes(json!({
                "description": "Не горит свет в подъезде",
                "consequences": " \n ",
                "desired_actions": "\t",
            })),
            [
                ("consequences".to_owned(), "blank"),
                ("desired_actions".to_owned(), "blank")
            ]
        );
    }

    #[test]
    fn invisible_formatting_is_dropped_and_never_counts_towards_a_limit() {
        // Ten letters with zero-width spaces, a soft hyphen and a byte order mark between them:
        // what is left is exactly the ten letters.
        let raw = RawInput {
            description: Some("\u{feff}Свет\u{200b}не\u{ad}горит\u{2060}".into()),
            ..RawInput::default()
        };
        let input = ResidentInput::parse(&raw).unwrap();
        assert_eq!(input.description(), "Светнегорит");
        let at_limit = format!(
            "{}{}",
            "а".repeat(limits::DESCRIPTION_MAX),
            "\u{200b}".repeat(50)
        );
        let raw = RawInput {
            description: Some(at_limit),
            ..RawInput::default()
        };
        assert_eq!(
            char_count(ResidentInput::parse(&raw).unwrap().description()),
            limits::DESCRIPTION_MAX
        );
    }

    #[test]
    fn text_without_words_is_refused_in_russian() {
        assert_eq!(
            codes(json!({"description": "!!!!!!!!!!!!!!!!!"})),
            [("description".to_owned(), "no_words")]
        );
        assert_eq!(
            codes(json!({"description": "Свет не горит в подъезде", "desired_actions": "..."})),
            [("desired_actions".to_owned(), "no_words")]
        );
        assert!(parse(json!({"description": "Свет не горит в подъезде", "location": "5"})).is_ok());
        let raw = RawInput {
            description: Some("?!?!?!?!?!?!".into()),
            ..RawInput::default()
        };
        let message = ResidentInput::parse(&raw).unwrap_err().as_slice()[0].message_ru();
        assert!(message.contains("Напишите словами"), "{message}");
    }

    #[test]
    fn an_error_list_is_bounded() {
        let mut object = serde_json::Map::new();
        object.insert("description".into(), json!("Свет не горит в подъезде"));
        for i in 0..10_000 {
            object.insert(format!("поле{i}{}", "x".repeat(100)), json!(1));
        }
        let errors = ResidentInput::from_json_str(&serde_json::Value::Object(object).to_string())
            .unwrap_err();
        assert_eq!(errors.as_slice().len(), InputErrors::MAX_KEPT);
        assert_eq!(errors.total(), 10_000);
        assert!(errors.iter().all(|e| e.message_ru().chars().count() < 300));
    }

    #[test]
    fn issue_14_a_duplicated_field_is_refused_by_name() {
        // `json!` cannot write a repeated name, so the text is written out.
        let text = r#"{"description": "Не горит свет в подъезде второй день",
                       "description": "Течёт крыша над пятым этажом", "location": "Подъезд 2"}"#;
        let errors = ResidentInput::from_json_str(text).unwrap_err();
        let found: Vec<(String, &str)> = errors
            .iter()
            .map(|e| (e.field_name(), e.code().code()))
            .collect();
        assert_eq!(found, [("description".to_owned(), "duplicate_field")]);
        assert_eq!(
            errors.as_slice()[0].message_ru(),
            "Поле «Описание проблемы» (description) указано в данных несколько раз, и неясно, \
             какое значение верное. Оставьте его один раз — с тем текстом, который нужен."
        );
        // A name written with an escape is the same name.
        let escaped = r#"{"description": "Не горит свет в подъезде", "desc\u0072iption": "x"}"#;
        assert_eq!(
            ResidentInput::from_json_str(escaped)
                .unwrap_err()
                .as_slice()[0]
                .code(),
            "duplicate_field"
        );
        // Every duplicated name once, beside the other errors; the kept value is not judged.
        let text = r#"{"description": "коротко", "location": "А", "location": "Б",
                       "location": "В", "desired_actions": "Заменить", "desired_actions": ""}"#;
        let found: Vec<(String, &str)> = ResidentInput::from_json_str(text)
            .unwrap_err()
            .iter()
            .map(|e| (e.field_name(), e.code().code()))
            .collect();
        assert_eq!(
            found,
            [
                ("description".to_owned(), "too_short"),
                ("location".to_owned(), "duplicate_field"),
                ("desired_actions".to_owned(), "duplicate_field"),
            ]
        );
        // A repeated unknown name is refused once, as unknown.
        let text = r#"{"description": "Не горит свет в подъезде", "x": 1, "x": 2}"#;
        let found: Vec<&str> = ResidentInput::from_json_str(text)
            .unwrap_err()
            .iter()
            .map(|error| error.code().code())
            .collect();
        assert_eq!(found, ["unknown_field"]);
        // Nested objects and the same name at different depths are no duplicate.
        assert_eq!(
            ResidentInput::refuse_duplicate_fields(
                r#"{"a": {"a": 1, "b": {"a": 2}}, "b": [1, 1]}"#
            ),
            Ok(())
        );
        let header = ResidentInput::refuse_duplicate_fields(
            r#"{"description": "Не горит свет", "full_name": "А", "full_name": "Б"}"#,
        )
        .unwrap_err();
        assert_eq!(header.as_slice()[0].field_name(), "full_name");
        assert_eq!(
            header.as_slice()[0].message_ru(),
            "Поле «full_name» указано в данных несколько раз, и неясно, какое значение верное. \
             Оставьте его один раз — с тем текстом, который нужен."
        );
        assert_eq!(ResidentInput::refuse_duplicate_fields("[1, 1]"), Ok(()));
        assert_eq!(ResidentInput::refuse_duplicate_fields("не JSON"), Ok(()));
    }

    #[test]
    fn issue_14_text_not_in_russian_letters_is_noticed_not_refused() {
        let notices = |value: serde_json::Value| parse(value).unwrap().notices();
        let latin = notices(json!({"description": "Zamenit lampy na lestnice"}));
        assert_eq!(
            latin,
            [InputNotice {
                code: InputNoticeCode::NotInRussianLetters,
                fields: vec![InputField::Description],
            }]
        );
        assert_eq!(latin[0].code.code(), "not_in_russian_letters");
        zayavka_codes::check_stable_codes::<InputNoticeCode>().unwrap();
        zayavka_codes::check_stable_codes::<InputErrorCode>().unwrap();
        zayavka_codes::check_stable_codes::<InputField>().unwrap();
        zayavka_codes::check_stable_codes::<crate::SchemaMode>().unwrap();
        zayavka_codes::check_stable_codes::<crate::ReviewStatus>().unwrap();
        assert_eq!(
            latin[0].message_ru(),
            "Поле «Описание проблемы» написано не русскими буквами. Заявку в управляющую \
             организацию подают на русском языке: перепишите его кириллицей (например, \
             «Заменить лампы», а не «Zamenit lampy») и составьте заявку заново."
        );
        let several = notices(json!({
            "description": "Ne gorit svet v podezde nedelyu",
            "location": "Podezd 2",
            "consequences": "Темно, соседи падают на лестнице",
            "desired_actions": "Zamenit lampy",
        }));
        assert_eq!(
            several[0].fields,
            [
                InputField::Description,
                InputField::Location,
                InputField::DesiredActions
            ]
        );
        assert!(
            several[0].message_ru().starts_with(
                "Поля «Описание проблемы», «Место» и «Что вы просите сделать» написаны"
            )
        );
        // Russian text with a brand, a flat number or a short Latin location passes; so does
        // a text that is half Cyrillic.
        for quiet in [
            json!({"description": "Домофон Vizit не открывает дверь, на экране ошибка E3"}),
            json!({"description": "Не горит свет в подъезде", "location": "корпус B, кв. 5А"}),
            json!({"description": "Не горит свет в подъезде", "location": "корп. B"}),
            json!({"description": "Lift не работает неделю"}),
            json!({"description": "1234567890 !!!, свет"}),
        ] {
            assert_eq!(notices(quiet.clone()), [], "{quiet}");
        }
        // Other scripts are not Russian letters either.
        assert_eq!(
            notices(json!({"description": "Ο ανελκυστήρας δεν λειτουργεί"}))[0].fields,
            [InputField::Description]
        );
    }

    #[test]
    fn issue_14_the_notice_reaches_the_request_with_and_without_a_model() {
        let input = parse(json!({
            "description": "Ne gorit svet na lestnice mezhdu tretim i chetvertym etazhami",
            "desired_actions": "Zamenit lampy na lestnice",
        }))
        .unwrap();
        let notice = input.notices()[0].message_ru();
        let catalogue = crate::legal::catalogue();
        let offline = match crate::decide::offline_request(&input, catalogue) {
            crate::Outcome::Ready(request) => request,
            other => panic!("expected a ready request, got {other:?}"),
        };
        assert_eq!(
            offline.warnings(),
            [crate::NO_MODEL_WARNING.to_owned(), notice.clone()]
        );
        let draft = json!({
            "outcome": "draft",
            "title": "Не горит свет на лестнице",
            "problem": "На лестнице между третьим и четвёртым этажами не горит свет",
            "circumstances": null,
            "impact": null,
            "verification": null,
            "subject": null,
            "warnings": ["Уточните номер подъезда"],
        });
        let reply = crate::ModelReply {
            content: Some(draft.to_string()),
            refusal: None,
            finish_reason: Some("stop".into()),
        };
        let outcome =
            crate::evaluate_reply(&input, &reply, crate::request_draft_schema(), catalogue);
        let crate::Outcome::Ready(with_model) = outcome else {
            panic!("expected a ready request, got {outcome:?}");
        };
        assert_eq!(
            with_model.warnings(),
            ["Уточните номер подъезда".to_owned(), notice]
        );
        // A Russian request gets no such notice.
        let russian = parse(json!({"description": "Не горит свет на лестнице"})).unwrap();
        let crate::Outcome::Ready(request) = crate::decide::offline_request(&russian, catalogue)
        else {
            panic!("expected a ready request");
        };
        assert_eq!(request.warnings(), [crate::NO_MODEL_WARNING]);
    }

    #[test]
    fn json_errors_are_explained_in_russian() {
        let errors = ResidentInput::from_json_str("{\"description\": \"Свет\",}").unwrap_err();
        let message = errors.as_slice()[0].message_ru();
        assert!(message.contains("в строке 1"), "{message}");
        assert!(!message.contains("expected"), "{message}");
        assert!(!message.contains(".."), "{message}");
    }

    #[test]
    fn control_and_bidi_characters_are_refused_with_their_position() {
        let raw = RawInput {
            description: Some("Свет\u{0007} не горит неделю".into()),
            location: Some("Подъезд \u{202E}2".into()),
            ..RawInput::default()
        };
        let errors = ResidentInput::parse(&raw).unwrap_err().as_slice().to_vec();
        assert_eq!(errors[0].code(), "control_character");
        assert_eq!(errors[0].position(), Some(5));
        assert!(errors[0].message_ru().contains("позиции 5"));
        assert!(errors[0].message_ru().contains("U+0007"));
        assert_eq!(errors[1].code(), "bidi_control");
        assert_eq!(errors[1].position(), Some(9));
        assert_eq!(
            codes(json!({"description": "Свет не горит\u{0000} неделю"})),
            [("description".to_owned(), "control_character")]
        );
    }

    #[test]
    fn tabs_and_line_breaks_are_allowed() {
        let input = parse(json!({"description": "Свет не горит.\r\n\tУже неделю."})).unwrap();
        assert_eq!(input.description(), "Свет не горит.\r\n\tУже неделю.");
    }

    #[test]
    fn unknown_fields_wrong_types_and_unknown_subjects_are_named() {
        assert_eq!(
            codes(json!({"description": "Не горит свет в подъезде", "profile": {"name": "x"}})),
            [("profile".to_owned(), "unknown_field")]
        );
        assert_eq!(
            codes(json!({"description": 42})),
            [("description".to_owned(), "wrong_type")]
        );
        assert_eq!(
            codes(json!({"description": "Не горит свет в подъезде", "confirmed_subject": "yard"})),
            [("confirmed_subject".to_owned(), "unknown_subject")]
        );
        assert_eq!(codes(json!(["x"])), [(String::new(), "not_an_object")]);
        assert_eq!(codes(json!({})), [("description".to_owned(), "missing")]);
    }

    #[test]
    fn unknown_fields_do_not_hide_the_other_problems() {
        let errors = codes(json!({"description": "   ", "extra": 1, "location": 5}));
        assert_eq!(
            errors,
            [
                ("description".to_owned(), "too_short"),
                ("location".to_owned(), "wrong_type"),
                ("extra".to_owned(), "unknown_field"),
            ]
        );
        assert_eq!(
            codes(json!({"description": 5})),
            [("description".to_owned(), "wrong_type")]
        );
        assert_eq!(codes(json!("text")), [(String::new(), "not_an_object")]);
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let errors = codes(json!({
            "description": "коротко",
            "consequences": "п".repeat(501),
            "confirmed_subject": "roof",
        }));
        assert_eq!(errors.len(), 3);
    }

    #[test]
    fn a_checked_input_round_trips_through_its_raw_form() {
        let input = parse(json!({
            "description": "  Не горит свет, и\u{306} неделю \n",
            "location": " Подъезд 2 ",
            "confirmed_subject": "common_area_premises_lighting",
        }))
        .unwrap();
        assert_eq!(ResidentInput::parse(&input.to_raw()).unwrap(), input);
    }

    #[test]
    fn the_model_view_has_no_confirmed_subject() {
        let input = parse(json!({
            "description": "Не горит свет в подъезде",
            "confirmed_subject": "common_area_premises_lighting",
        }))
        .unwrap();
        let view = serde_json::to_value(input.model_view()).unwrap();
        assert!(view.get("confirmed_subject").is_none());
        assert_eq!(view["description"], "Не горит свет в подъезде");
    }

    #[test]
    fn every_message_is_russian_and_says_what_to_do() {
        let errors = [
            InputErrorKind::NotJson {
                detail: "EOF".into(),
            },
            InputErrorKind::NotAnObject,
            InputErrorKind::UnknownField { name: "x".into() },
            InputErrorKind::WrongType,
            InputErrorKind::DuplicateField {
                name: "location".into(),
            },
            InputErrorKind::Missing,
            InputErrorKind::Blank,
            InputErrorKind::TooShort { min: 10, actual: 3 },
            InputErrorKind::TooLong {
                max: 120,
                actual: 130,
            },
            InputErrorKind::ControlCharacter {
                character: '\u{1}',
                position: 1,
            },
            InputErrorKind::BidiControl {
                character: '\u{202E}',
                position: 1,
            },
            InputErrorKind::UnknownSubject { value: "x".into() },
        ];
        for kind in errors {
            let message = InputError::new(InputField::Location, kind).message_ru();
            assert!(
                message.chars().any(|c| ('а'..='я').contains(&c)),
                "{message}"
            );
            assert!(message.ends_with('.'), "{message}");
        }
    }

    proptest::proptest! {
        /// Whatever is typed, parsing either accepts a value within the contract or names each
        /// problem, and never panics; positions point at the offending character.
        #[test]
        fn parsing_any_text_is_total_and_accepted_values_keep_the_contract(
            description in "\\PC{0,40}|[\\x00-\\x1f\u{202a}-\u{202e} а-я]{0,30}",
            location in proptest::option::of("\\PC{0,130}"),
        ) {
            let raw = RawInput {
                description: Some(description.clone()),
                location: location.clone(),
                ..RawInput::default()
            };
            match ResidentInput::parse(&raw) {
                Ok(input) => {
                    let length = char_count(input.description());
                    proptest::prop_assert!((limits::DESCRIPTION_MIN..=limits::DESCRIPTION_MAX).contains(&length));
                    proptest::prop_assert_eq!(input.description(), input.description().trim());
                    proptest::prop_assert!(input.location().is_none_or(|l| char_count(l) <= limits::LOCATION_MAX));
                    proptest::prop_assert_eq!(ResidentInput::parse(&input.to_raw()).unwrap(), input);
                }
                Err(errors) => {
                    proptest::prop_assert!(errors.total() > 0);
                    for error in &errors {
                        if let Some(position) = error.position() {
                            let text = if error.field == Some(InputField::Description) {
                                &description
                            } else {
                                location.as_ref().unwrap()
                            };
                            let character = text.chars().nth(position - 1).unwrap();
                            proptest::prop_assert!(character.is_control() || is_bidi_control(character));
                        }
                        proptest::prop_assert!(error.message_ru().ends_with('.'));
                    }
                }
            }
        }
    }
}
