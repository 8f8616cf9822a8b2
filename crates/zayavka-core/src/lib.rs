//! The deterministic core of Zayavka.
//!
//! Everything with authority over a request lives here, as pure functions: the resident input
//! contract, the registry of model output schemas, structural and semantic validation of the
//! model's answer, the legal catalogue and the policy that decides whether a legal paragraph
//! applies, and the assembly of the final text. This crate does no IO, reads no clock and uses no
//! randomness: the same input, model response and catalogue always give the same bytes.
//!
//! The data flows one way: [`RawInput`] → [`ResidentInput::parse`] → [`render_prompt`] → (the
//! model, elsewhere) → [`ModelReply`] → [`evaluate_reply`] → [`Outcome`], whose
//! [`Request`] keeps its [`Section`]s with their [`Provenance`] and its one [`RequestItem`].
//!
//! The modules are private; what other crates may use is re-exported here on purpose.

mod assemble;
mod deadline;
mod decide;
mod faithfulness;
mod finding;
mod follow_up;
mod input;
mod legal;
mod notes;
mod outcome;
mod policy;
mod preview;
mod prompt;
mod reply;
mod schema;
mod subject;
mod text;
mod unrelated;

pub use assemble::{
    BodyTooLong, DraftText, GENERIC_ITEM, ItemSource, Provenance, REQUEST_HEADING, Request,
    RequestItem, Section, SectionKind, TitleSource, assemble, request_item,
};
pub use deadline::{
    AnswerTerm, CalendarYear, Deadline, DeadlineDataError, Deadlines, NoDeadline, TermCount,
    TermId, deadlines, parse_deadlines,
};
pub use decide::{NO_MODEL_WARNING, evaluate_reply, offline_request};
pub use faithfulness::{
    Certainty, DraftField, FaithfulnessCheck, FaithfulnessFinding, FaithfulnessKind,
    FaithfulnessReport, Verdict, WordSpan, check_faithfulness,
};
pub use finding::{Finding, FindingCode, Rejection, RejectionReason};
pub use follow_up::{
    CasePhotos, FilingWay, FirstAnswer, FirstDeadline, FirstRequest, FollowUpKind, INSPECTION_ITEM,
    NO_SUPERVISION_PARAGRAPH, follow_up,
};
pub use input::{
    BODY_LIMIT, InputError, InputErrorCode, InputErrorKind, InputErrors, InputField, ModelView,
    RawInput, ResidentInput, limits as input_limits,
};
pub use legal::{
    LegalCatalogue, LegalCatalogueError, LegalModule, LegalSource, Review, ReviewStatus,
    catalogue as legal_catalogue, parse_catalogue,
};
pub use notes::{NoteKind, ResidentNote, resident_notes};
pub use outcome::{
    Failure, FailureAdvice, FailureReason, NeedsUserReason, NextStep, Outcome, OutcomeKind, Report,
    ReportError,
};
pub use policy::{LegalDecision, OmissionReason, decide_legal_module};
pub use preview::{OFFLINE_TITLE_MAX, PREVIEW_MAX, first_words, offline_title};
pub use prompt::{
    Prompt, SchemaMode, SystemPrompt, find_prompt, prompt_registry, reask_message,
    render as render_prompt, render_with as render_prompt_with,
    request_draft as request_draft_schema, system_prompt,
};
pub use reply::{
    Evidence, ModelDraft, ModelOutcome, ModelReply, ModelSubject, SourceField, decode_reply,
    limits as model_limits, semantic_findings,
};
pub use schema::{
    RegisteredSchema, SchemaViolation, find as find_schema, registry as schema_registry, sha256_hex,
};
pub use subject::SubjectKind;
pub use text::{char_count, escape_invisible, full_sentence, group_digits, json_error_ru};

/// The document crate's wording of a date («7 декабря 2026 г.»), restated for this crate's
/// tests: the core may not depend on that crate, and its functions take the wording as an
/// argument.
#[cfg(test)]
pub(crate) fn date_ru_for_tests(date: jiff::civil::Date) -> String {
    let months = "января февраля марта апреля мая июня июля августа сентября октября ноября \
                  декабря";
    let month = months
        .split_whitespace()
        .nth(usize::from(date.month().unsigned_abs()) - 1)
        .expect("a month is 1 to 12");
    format!("{} {month} {} г.", date.day(), date.year())
}
