//! What validation found wrong with the model's output, and the rejection it leads to.
//!
//! A leaf module: findings are plain data with stable codes, used by the reply checks, the
//! assembly and the outcome alike, so that none of them has to import another to report.

use serde::Serialize;

use crate::text::escape_invisible;
use zayavka_codes::stable_codes;

stable_codes! {
    /// What one finding is about.
    #[non_exhaustive]
    pub enum FindingCode {
        /// The model refused.
        Refusal => "refusal",
        /// The output stopped at the length limit.
        FinishReasonLength => "finish_reason_length",
        /// The provider's content filter stopped the output.
        FinishReasonContentFilter => "finish_reason_content_filter",
        /// The reply had no content.
        EmptyContent => "empty_content",
        /// The content is not JSON.
        InvalidJson => "invalid_json",
        /// A number too large for any field.
        NumberOutOfRange => "number_out_of_range",
        /// The content does not match the registered schema.
        Schema => "schema",
        /// The content matched the schema but not the typed decode.
        Decode => "decode",
        /// A text field holds a control, escape, direction or invisible character.
        UnsafeCharacter => "unsafe_character",
        /// A field a draft needs is missing.
        RequiredForDraft => "required_for_draft",
        /// A field holds only white space.
        Blank => "blank",
        /// A one-line field has a line break.
        LineBreak => "line_break",
        /// A descriptive field holds a «Прошу» block.
        RequestBlock => "request_block",
        /// A field holds a web address.
        Url => "url",
        /// A descriptive field cites or invokes law.
        LegalText => "legal_text",
        /// A field is longer than its limit.
        TooLong => "too_long",
        /// Too many warnings.
        TooMany => "too_many",
        /// The subject has no or too many evidence quotes.
        EvidenceCount => "evidence_count",
        /// An evidence quote is too short or too long.
        QuoteLength => "quote_length",
        /// The assembled body is longer than the limit.
        BodyTooLong => "body_too_long",
        /// The problem field shares no word with anything the resident typed.
        NoResidentWord => "no_resident_word",
        /// The draft repeats the system prompt's worked example instead of the resident's text.
        PromptExample => "prompt_example",
    }
}

/// One thing found wrong with the model's output, for the record and for the front ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    field: String,
    code: FindingCode,
    message: String,
}

impl Finding {
    /// A finding at `field` (a JSON pointer into the model's output, or empty for the reply as
    /// a whole). The message may quote the model; any character that could hide text or steer a
    /// terminal is shown escaped, never raw.
    pub fn new(field: impl Into<String>, code: FindingCode, message: impl AsRef<str>) -> Self {
        Finding {
            field: escape_invisible(&field.into()),
            code,
            message: escape_invisible(message.as_ref()),
        }
    }

    /// Where: a JSON pointer, or empty for the reply as a whole.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// What it is about.
    pub fn code(&self) -> FindingCode {
        self.code
    }

    /// What is wrong, in Russian.
    pub fn message(&self) -> &str {
        &self.message
    }
}

stable_codes! {
    /// Why the model's output could not be used.
    #[non_exhaustive]
    pub enum RejectionReason {
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
        /// A text field holds control, escape, direction or invisible characters.
        UnsafeText => "unsafe_text",
        /// The content breaks a semantic rule.
        SemanticViolation => "semantic_violation",
        /// The assembled body is longer than the limit; it is never cut.
        BodyTooLong => "body_too_long",
        /// The draft keeps none of the resident's facts: it describes another problem, such as
        /// the system prompt's worked example (issue 31, ADR 35).
        UnrelatedDraft => "unrelated_draft",
    }
}

impl RejectionReason {
    /// Whether asking the model again may give a usable answer: malformed output often is a
    /// one-off, and so is a draft about another problem (a small model that repeated the
    /// prompt's example may write about the resident's once told so), while a refusal or a
    /// filtered answer will most likely repeat.
    pub fn may_reask(self) -> bool {
        match self {
            RejectionReason::InvalidJson
            | RejectionReason::SchemaViolation
            | RejectionReason::EmptyResponse
            | RejectionReason::UnsafeText
            | RejectionReason::UnrelatedDraft => true,
            RejectionReason::Refusal
            | RejectionReason::Truncated
            | RejectionReason::ContentFilter
            | RejectionReason::SemanticViolation
            | RejectionReason::BodyTooLong => false,
        }
    }
}

/// Model output that could not be used, with everything found wrong: never an empty list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    reason: RejectionReason,
    findings: Vec<Finding>,
}

impl Rejection {
    /// A rejection with one finding.
    pub fn single(reason: RejectionReason, finding: Finding) -> Rejection {
        Rejection {
            reason,
            findings: vec![finding],
        }
    }

    /// A rejection with these findings, or `None` when there are none: a rejection always says
    /// what was wrong.
    pub fn new(reason: RejectionReason, findings: Vec<Finding>) -> Option<Rejection> {
        (!findings.is_empty()).then_some(Rejection { reason, findings })
    }

    /// Why.
    pub fn reason(&self) -> RejectionReason {
        self.reason
    }

    /// What was found: at least one finding.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zayavka_codes::check_stable_codes;

    #[test]
    fn codes_are_unique_and_round_trip() {
        check_stable_codes::<FindingCode>().unwrap();
        check_stable_codes::<RejectionReason>().unwrap();
    }

    #[test]
    fn a_rejection_is_never_empty() {
        assert!(Rejection::new(RejectionReason::SchemaViolation, Vec::new()).is_none());
        let finding = Finding::new("/title", FindingCode::Schema, "bad");
        let rejection = Rejection::new(RejectionReason::SchemaViolation, vec![finding]).unwrap();
        assert_eq!(rejection.findings().len(), 1);
    }

    #[test]
    fn a_finding_never_carries_raw_invisible_characters() {
        let finding = Finding::new(
            "",
            FindingCode::Refusal,
            "Отказ: \u{1b}[31mкрасный\u{202e}текст\u{200b}",
        );
        assert_eq!(
            finding.message(),
            "Отказ: \\u{1b}[31mкрасный\\u{202e}текст\\u{200b}"
        );
    }

    #[test]
    fn only_malformed_or_unrelated_output_is_asked_for_again() {
        let again: Vec<_> = RejectionReason::ALL
            .iter()
            .filter(|reason| reason.may_reask())
            .map(|reason| reason.code())
            .collect();
        assert_eq!(
            again,
            [
                "empty_response",
                "invalid_json",
                "schema_violation",
                "unsafe_text",
                "unrelated_draft"
            ]
        );
    }
}
