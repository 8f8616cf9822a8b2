//! The pure pipeline from a checked input and a model reply (or no model at all) to an
//! [`Outcome`].

use crate::assemble::{BODY_LIMIT, DraftText, Provenance, assemble};
use crate::finding::{Finding, FindingCode, Rejection, RejectionReason};
use crate::input::{InputError, InputErrorKind, InputErrors, InputField, ResidentInput};
use crate::legal::LegalCatalogue;
use crate::outcome::{NeedsUserReason, Outcome};
use crate::policy::{LegalDecision, OmissionReason, decide_legal_module};
use crate::reply::{ModelOutcome, ModelReply, decode_reply, semantic_findings};
use crate::schema::RegisteredSchema;
use crate::text::char_count;

/// The warning that says no model was used.
pub const NO_MODEL_WARNING: &str =
    "Текст составлен без языковой модели: описание — ваши слова без изменений.";

/// Decides what a model reply means for this input: a request, a question back to the resident,
/// or a rejection of the output.
pub fn evaluate_reply(
    input: &ResidentInput,
    reply: &ModelReply,
    schema: &RegisteredSchema,
    catalogue: &LegalCatalogue,
) -> Outcome {
    let draft = match decode_reply(reply, schema) {
        Ok(draft) => draft,
        Err(rejection) => return Outcome::Rejected(rejection),
    };
    let findings = semantic_findings(&draft);
    let reason = match draft.outcome {
        ModelOutcome::MultipleProblems => Some(NeedsUserReason::MultipleProblems),
        ModelOutcome::InsufficientInformation => Some(NeedsUserReason::InsufficientInformation),
        ModelOutcome::Draft => None,
    };
    if let Some(reason) = reason {
        // Without a draft only the warnings were checked; notes that fail the checks are
        // dropped rather than shown, and the resident still gets the question.
        let hints = if findings.is_empty() {
            draft
                .warnings
                .iter()
                .map(|w| w.trim().to_owned())
                .filter(|w| !w.is_empty())
                .collect()
        } else {
            Vec::new()
        };
        return Outcome::NeedsUser { reason, hints };
    }
    if let Some(rejection) = Rejection::new(RejectionReason::SemanticViolation, findings) {
        return Outcome::Rejected(rejection);
    }
    let legal = decide_legal_module(input, draft.subject.as_ref());
    // Both are present: the semantic rules above require them for a draft.
    let text = DraftText {
        source: Provenance::Model,
        title: draft.title.unwrap_or_default(),
        problem: draft.problem.unwrap_or_default(),
        circumstances: draft.circumstances,
        impact: draft.impact,
        verification: draft.verification,
        warnings: draft.warnings,
    };
    finish(&text, legal, input, catalogue)
}

/// Assembles a request from the resident's own words, with no model: the description as the
/// problem, the location and consequences as given, the usual item, and no subject paragraph.
///
/// The resident's words are the whole text here, so a body over the limit is their input being
/// too long for one request: it is refused as invalid input that names the real maximum for
/// the description, never as a rejected model answer and never cut.
pub fn offline_request(input: &ResidentInput, catalogue: &LegalCatalogue) -> Outcome {
    let title = match input.confirmed_subject() {
        Some(kind) => format!("Заявка: {}", kind.title_ru().to_lowercase()),
        None => "Заявка о проблеме в доме".to_owned(),
    };
    let text = DraftText {
        source: Provenance::Resident,
        title,
        problem: input.description().to_owned(),
        circumstances: input
            .location()
            .map(|location| format!("Место: {location}")),
        impact: input
            .consequences()
            .map(|consequences| format!("Последствия: {consequences}")),
        verification: None,
        warnings: vec![NO_MODEL_WARNING.to_owned()],
    };
    let legal = LegalDecision::Omitted(OmissionReason::NoModelSubject);
    match assemble(&text, legal, input.desired_actions(), catalogue) {
        Ok(request) => Outcome::Ready(request),
        Err(too_long) => {
            let actual = char_count(input.description());
            let excess = too_long.length - BODY_LIMIT;
            let error = InputError {
                field: Some(InputField::Description),
                kind: InputErrorKind::TooLongForRequest {
                    max: actual.saturating_sub(excess),
                    actual,
                },
            };
            Outcome::InvalidInput(InputErrors::new(vec![error]).expect("one error"))
        }
    }
}

fn finish(
    text: &DraftText,
    legal: LegalDecision,
    input: &ResidentInput,
    catalogue: &LegalCatalogue,
) -> Outcome {
    match assemble(text, legal, input.desired_actions(), catalogue) {
        Ok(request) => Outcome::Ready(request),
        Err(too_long) => Outcome::Rejected(Rejection::single(
            RejectionReason::BodyTooLong,
            Finding::new(
                "/body",
                FindingCode::BodyTooLong,
                format!(
                    "Длина текста заявки — {}, а предел — {} символов.",
                    too_long.length, BODY_LIMIT
                ),
            ),
        )),
    }
}
