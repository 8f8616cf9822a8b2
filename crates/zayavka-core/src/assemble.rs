//! Deterministic assembly of the request text.
//!
//! The body is built in a fixed order — problem, circumstances, impact, verification, the common
//! legal block, at most one subject paragraph, then «Прошу:» and exactly one numbered item — and
//! ends there. Normalisation here is presentation only: it trims, joins lines and settles the
//! final punctuation, and never shortens, splits or rewords anything. A body over the limit is
//! refused, never cut.

use serde::Serialize;

use crate::legal::LegalCatalogue;
use crate::policy::{LegalDecision, OmissionReason};
use crate::subject::SubjectKind;
use crate::text::{capitalise_first, char_count, end_as_sentence, join_lines};

/// The longest body, in characters.
pub const BODY_LIMIT: usize = 2_500;

/// The item requested when the resident did not say what they ask for.
pub const GENERIC_ITEM: &str = "Устранить наблюдаемую проблему.";

/// The line that opens the request block.
pub const REQUEST_HEADING: &str = "Прошу:";

/// The descriptive part of a request: written by the model, or taken from the resident's own
/// words when no model is used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftText {
    /// A one-line title.
    pub title: String,
    /// What is observed.
    pub problem: String,
    /// Where, since when, how often.
    pub circumstances: Option<String>,
    /// What it leads to.
    pub impact: Option<String>,
    /// What is unknown and should be checked.
    pub verification: Option<String>,
    /// Notes for the resident; not part of the body.
    pub warnings: Vec<String>,
}

/// An assembled request, ready to review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Request {
    /// The title.
    pub title: String,
    /// The body, ending with the single requested item.
    pub body: String,
    /// The requested items: always exactly one.
    pub items: Vec<String>,
    /// The subject whose legal paragraph the body includes.
    pub subject_module: Option<SubjectKind>,
    /// Why no subject paragraph was included.
    pub legal_omission: Option<OmissionReason>,
    /// Notes for the resident.
    pub warnings: Vec<String>,
}

/// The body would be longer than [`BODY_LIMIT`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the assembled body has {length} characters, more than the limit of {BODY_LIMIT}")]
pub struct BodyTooLong {
    /// The length it would have had.
    pub length: usize,
}

/// The single requested item: the resident's `desired_actions` in presentation form, or the
/// generic item when they gave none — never both.
pub fn request_item(desired_actions: Option<&str>) -> String {
    let Some(text) = desired_actions else {
        return GENERIC_ITEM.to_owned();
    };
    let text = strip_request_prefix(text.trim());
    let text = join_lines(text);
    if text.is_empty() {
        return GENERIC_ITEM.to_owned();
    }
    end_as_sentence(capitalise_first(&text))
}

/// Removes one leading «Прошу:» in any case, with the white space after it.
fn strip_request_prefix(text: &str) -> &str {
    let mut chars = text.char_indices();
    for expected in REQUEST_HEADING.chars() {
        match chars.next() {
            Some((_, c)) if c.to_lowercase().eq(expected.to_lowercase()) => {}
            _ => return text,
        }
    }
    let rest = chars.next().map_or(text.len(), |(at, _)| at);
    text[rest..].trim_start()
}

/// One descriptive section in presentation form.
fn section(text: &str) -> String {
    end_as_sentence(capitalise_first(&join_lines(text)))
}

/// Assembles the request. Same arguments, same bytes.
pub fn assemble(
    text: &DraftText,
    legal: LegalDecision,
    desired_actions: Option<&str>,
    catalogue: &LegalCatalogue,
) -> Result<Request, BodyTooLong> {
    let item = request_item(desired_actions);
    let mut parts: Vec<String> = Vec::with_capacity(8);
    parts.push(section(&text.problem));
    for optional in [&text.circumstances, &text.impact, &text.verification] {
        if let Some(optional) = optional.as_deref().filter(|t| !t.trim().is_empty()) {
            parts.push(section(optional));
        }
    }
    parts.extend(catalogue.common().paragraphs.iter().cloned());
    if let LegalDecision::Included(kind) = legal {
        parts.extend(catalogue.subject(kind).paragraphs.iter().cloned());
    }
    parts.push(format!("{REQUEST_HEADING}\n1. {item}"));
    let body = parts.join("\n\n");
    let length = char_count(&body);
    if length > BODY_LIMIT {
        return Err(BodyTooLong { length });
    }
    Ok(Request {
        title: join_lines(&text.title),
        body,
        items: vec![item],
        subject_module: legal.subject(),
        legal_omission: legal.omission(),
        warnings: text
            .warnings
            .iter()
            .map(|w| join_lines(w))
            .filter(|w| !w.is_empty())
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_item_is_the_residents_words_in_presentation_form() {
        let cases = [
            ("заменить лампы", "Заменить лампы."),
            ("Прошу: заменить лампы", "Заменить лампы."),
            ("ПРОШУ:заменить лампы", "Заменить лампы."),
            ("прошу:   заменить лампы!", "Заменить лампы!"),
            (
                "  Заменить\r\n лампы\n\n на этаже  ",
                "Заменить лампы на этаже.",
            ),
            ("заменить лампы,", "Заменить лампы."),
            ("заменить лампы;", "Заменить лампы."),
            ("заменить лампы:", "Заменить лампы."),
            ("заменить лампы?", "Заменить лампы?"),
            ("заменить лампы…", "Заменить лампы…"),
            (
                "Только провести осмотр, работы пока не выполнять.",
                "Только провести осмотр, работы пока не выполнять.",
            ),
            ("Прошу прошу: заменить", "Прошу прошу: заменить."),
            ("Прошу: Прошу: заменить", "Прошу: заменить."),
        ];
        for (given, expected) in cases {
            assert_eq!(request_item(Some(given)), expected, "{given:?}");
        }
    }

    #[test]
    fn the_generic_item_stands_alone() {
        assert_eq!(request_item(None), GENERIC_ITEM);
        assert_eq!(request_item(Some("Прошу:")), GENERIC_ITEM);
    }

    /// The words of a text, with the case of the first letter and the final punctuation — the
    /// only two things presentation may change — folded away.
    fn comparable_words(text: &str) -> Vec<String> {
        let mut words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        if let Some(first) = words.first_mut() {
            *first = first.to_lowercase();
        }
        if let Some(last) = words.last_mut() {
            let trimmed = last.trim_end_matches(['.', ',', ';', ':']).to_owned();
            *last = trimmed;
        }
        words.retain(|w| !w.is_empty());
        words
    }

    proptest::proptest! {
        #[test]
        fn the_item_is_generic_or_keeps_every_word_in_order(
            prefix in "(|Прошу:|ПРОШУ: |прошу:\n)",
            body in "[а-яА-ЯёЁa-z0-9 ,;:.!?…\n\t-]{0,120}",
        ) {
            let desired = format!("{prefix}{body}");
            let item = request_item(Some(&desired));
            if item != GENERIC_ITEM {
                let expected = comparable_words(&body.to_lowercase());
                let actual = comparable_words(&item.to_lowercase());
                proptest::prop_assert_eq!(actual, expected);
                proptest::prop_assert!(item.ends_with(['.', '!', '?', '…']));
                proptest::prop_assert!(!item.contains('\n'));
            } else {
                proptest::prop_assert!(comparable_words(&body).is_empty() || body.trim() == "Устранить наблюдаемую проблему.");
            }
        }
    }

    proptest::proptest! {
        /// Whatever the sections say, the body keeps its shape: the sections first, the two
        /// common paragraphs, then «Прошу:» and exactly one item at the very end — or the whole
        /// body is refused as too long, never cut.
        #[test]
        fn the_body_always_ends_with_the_one_item_or_is_refused_whole(
            problem in "[а-яА-Я ,.]{1,900}",
            circumstances in proptest::option::of("[а-яА-Я ,.]{0,600}"),
            impact in proptest::option::of("[а-яА-Я ,.\n]{0,600}"),
            desired in proptest::option::of("[а-яА-Я ,.:\n]{1,500}"),
            subject in proptest::option::of(proptest::sample::select(SubjectKind::ALL.to_vec())),
        ) {
            let catalogue = crate::legal::catalogue();
            let text = DraftText {
                title: "Заголовок".into(),
                problem,
                circumstances,
                impact,
                verification: None,
                warnings: vec![],
            };
            let legal = subject.map_or(
                LegalDecision::Omitted(OmissionReason::NotConfirmed),
                LegalDecision::Included,
            );
            let first = assemble(&text, legal, desired.as_deref(), catalogue);
            proptest::prop_assert_eq!(&first, &assemble(&text, legal, desired.as_deref(), catalogue));
            match first {
                Ok(request) => {
                    let item = request_item(desired.as_deref());
                    proptest::prop_assert_eq!(&request.items, &vec![item.clone()]);
                    let ending = format!("\n\n{REQUEST_HEADING}\n1. {item}");
                    proptest::prop_assert!(request.body.ends_with(&ending));
                    proptest::prop_assert_eq!(request.body.matches(REQUEST_HEADING).count(), 1);
                    for paragraph in &catalogue.common().paragraphs {
                        proptest::prop_assert!(request.body.contains(paragraph.as_str()));
                    }
                    proptest::prop_assert!(char_count(&request.body) <= BODY_LIMIT);
                }
                Err(BodyTooLong { length }) => proptest::prop_assert!(length > BODY_LIMIT),
            }
        }
    }
}
