//! The pure pipeline from a checked input and a model reply (or no model at all) to an
//! [`Outcome`].

use crate::assemble::{DraftText, assemble};
use crate::input::ResidentInput;
use crate::legal::LegalCatalogue;
use crate::outcome::{Finding, NeedsUserReason, Outcome, Rejection, RejectionReason};
use crate::policy::{LegalDecision, OmissionReason, decide_legal_module};
use crate::reply::{ModelOutcome, ModelReply, decode_reply, semantic_findings};
use crate::schema::RegisteredSchema;

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
    if !findings.is_empty() {
        return Outcome::Rejected(Rejection {
            reason: RejectionReason::SemanticViolation,
            findings,
        });
    }
    let legal = decide_legal_module(input, draft.subject.as_ref());
    // Both are present: the semantic rules above require them for a draft.
    let text = DraftText {
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
pub fn offline_request(input: &ResidentInput, catalogue: &LegalCatalogue) -> Outcome {
    let title = match input.confirmed_subject() {
        Some(kind) => format!("Заявка: {}", kind.title_ru().to_lowercase()),
        None => "Заявка о проблеме в доме".to_owned(),
    };
    let text = DraftText {
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
    finish(&text, legal, input, catalogue)
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
                "body_too_long",
                format!(
                    "Длина текста заявки — {}, а предел — {} символов.",
                    too_long.length,
                    crate::assemble::BODY_LIMIT
                ),
            ),
        )),
    }
}
