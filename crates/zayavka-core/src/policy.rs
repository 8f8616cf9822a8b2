//! The policy that decides whether a subject's legal paragraph is added.
//!
//! Three independent signals must agree: the resident confirmed a subject, the model classified
//! the problem as the same subject without being told the resident's choice, and every quote the
//! model offers as evidence occurs verbatim in the field it names. Anything less omits the
//! paragraph with one recorded reason; an omission never rejects the draft.

use unicode_normalization::UnicodeNormalization;
use zayavka_codes::stable_codes;

use crate::input::ResidentInput;
use crate::reply::{ModelSubject, SourceField};
use crate::subject::SubjectKind;

stable_codes! {
    /// Why a subject's legal paragraph was left out.
    pub enum OmissionReason {
        /// The resident did not confirm a subject.
        NotConfirmed => "not_confirmed",
        /// The model did not classify a subject (or no model was used).
        NoModelSubject => "no_model_subject",
        /// The model's subject differs from the resident's.
        SubjectMismatch => "subject_mismatch",
        /// A quote does not occur verbatim in the field it names.
        EvidenceNotVerbatim => "evidence_not_verbatim",
    }
}

impl OmissionReason {
    /// Why the paragraph was left out, in one Russian sentence for the resident, for a request
    /// a model wrote ([`crate::Request::legal_status_ru`] words every case).
    pub const fn message_ru(self) -> &'static str {
        match self {
            OmissionReason::NotConfirmed => {
                "Абзац с нормой о виде проблемы не добавлен: вы не выбрали, к чему относится \
                 проблема."
            }
            OmissionReason::NoModelSubject => {
                "Абзац с нормой о виде проблемы не добавлен: по тексту нельзя однозначно понять, \
                 к чему относится проблема."
            }
            OmissionReason::SubjectMismatch => {
                "Абзац с нормой о виде проблемы не добавлен: ваш выбор не совпал с тем, что \
                 следует из текста. Проверьте выбор."
            }
            OmissionReason::EvidenceNotVerbatim => {
                "Абзац с нормой о виде проблемы не добавлен: в вашем тексте не нашлось слов, \
                 которые прямо это подтверждают."
            }
        }
    }
}

/// Whether the subject's legal paragraph goes into the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegalDecision {
    /// The paragraph for this subject is added.
    Included(SubjectKind),
    /// No subject paragraph, for this reason.
    Omitted(OmissionReason),
}

impl LegalDecision {
    /// The subject whose paragraph is added, if any.
    pub fn subject(self) -> Option<SubjectKind> {
        match self {
            LegalDecision::Included(kind) => Some(kind),
            LegalDecision::Omitted(_) => None,
        }
    }

    /// The reason for leaving the paragraph out, if it was.
    pub fn omission(self) -> Option<OmissionReason> {
        match self {
            LegalDecision::Included(_) => None,
            LegalDecision::Omitted(reason) => Some(reason),
        }
    }
}

/// Decides on the subject's legal paragraph from the resident's input and the model's subject.
pub fn decide_legal_module(input: &ResidentInput, model: Option<&ModelSubject>) -> LegalDecision {
    let Some(confirmed) = input.confirmed_subject() else {
        return LegalDecision::Omitted(OmissionReason::NotConfirmed);
    };
    let Some(model) = model else {
        return LegalDecision::Omitted(OmissionReason::NoModelSubject);
    };
    if model.kind != confirmed {
        return LegalDecision::Omitted(OmissionReason::SubjectMismatch);
    }
    // What the resident asks for is not evidence of what the problem is («отремонтировать
    // крышу» does not establish a roof problem), so only the three descriptive fields count.
    let verbatim = !model.evidence.is_empty()
        && model.evidence.iter().all(|evidence| {
            evidence.source_field != SourceField::DesiredActions
                && input
                    .text(evidence.source_field.input_field())
                    .is_some_and(|field| occurs_verbatim(&evidence.quote, field))
        });
    if verbatim {
        LegalDecision::Included(confirmed)
    } else {
        LegalDecision::Omitted(OmissionReason::EvidenceNotVerbatim)
    }
}

/// Whether `quote` occurs in `field` character for character. The quote is brought to NFC,
/// as the field already is, so that two encodings of the same letters compare equal; case,
/// spacing, punctuation and «ё» against «е» all still count.
fn occurs_verbatim(quote: &str, field: &str) -> bool {
    let quote: String = quote.nfc().collect();
    !quote.is_empty() && field.contains(&quote)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::RawInput;
    use crate::reply::Evidence;

    fn input(confirmed: Option<&str>) -> ResidentInput {
        ResidentInput::parse(&RawInput {
            description: Some("В подъезде неделю не горит свёт на третьем этаже".into()),
            location: Some("Подъезд 2".into()),
            confirmed_subject: confirmed.map(str::to_owned),
            ..RawInput::default()
        })
        .unwrap()
    }

    fn subject(kind: SubjectKind, quotes: &[(SourceField, &str)]) -> ModelSubject {
        ModelSubject {
            kind,
            evidence: quotes
                .iter()
                .map(|(source_field, quote)| Evidence {
                    source_field: *source_field,
                    quote: (*quote).to_owned(),
                })
                .collect(),
        }
    }

    const LIGHTING: SubjectKind = SubjectKind::CommonAreaPremisesLighting;

    #[test]
    fn all_three_signals_agreeing_include_the_module() {
        let model = subject(
            LIGHTING,
            &[(SourceField::Description, "неделю не горит свёт")],
        );
        let decision = decide_legal_module(&input(Some(LIGHTING.code())), Some(&model));
        assert_eq!(decision, LegalDecision::Included(LIGHTING));
    }

    #[test]
    fn each_missing_signal_has_its_own_reason() {
        let model = subject(
            LIGHTING,
            &[(SourceField::Description, "неделю не горит свёт")],
        );
        assert_eq!(
            decide_legal_module(&input(None), Some(&model)),
            LegalDecision::Omitted(OmissionReason::NotConfirmed)
        );
        assert_eq!(
            decide_legal_module(&input(Some(LIGHTING.code())), None),
            LegalDecision::Omitted(OmissionReason::NoModelSubject)
        );
        assert_eq!(
            decide_legal_module(&input(Some("common_area_roof")), Some(&model)),
            LegalDecision::Omitted(OmissionReason::SubjectMismatch)
        );
    }

    #[test]
    fn evidence_must_be_verbatim_in_the_named_field() {
        let confirmed = input(Some(LIGHTING.code()));
        for quotes in [
            vec![(SourceField::Location, "неделю не горит свёт")],
            vec![(SourceField::Description, "неделю не горит свет")],
            vec![(SourceField::Description, "Неделю не горит свёт")],
            vec![(SourceField::Description, "неделю  не горит свёт")],
            vec![(SourceField::Consequences, "неделю не горит свёт")],
            vec![
                (SourceField::Description, "неделю не горит свёт"),
                (SourceField::Description, "свет не горит неделю"),
            ],
        ] {
            let model = subject(LIGHTING, &quotes);
            assert_eq!(
                decide_legal_module(&confirmed, Some(&model)),
                LegalDecision::Omitted(OmissionReason::EvidenceNotVerbatim),
                "{quotes:?}"
            );
        }
    }

    #[test]
    fn a_desired_action_is_not_evidence_of_the_subject() {
        let confirmed = ResidentInput::parse(&RawInput {
            description: Some("Протекает потолок в квартире на девятом этаже".into()),
            desired_actions: Some("Отремонтировать крышу над квартирой".into()),
            confirmed_subject: Some("common_area_roof".into()),
            ..RawInput::default()
        })
        .unwrap();
        let model = subject(
            SubjectKind::CommonAreaRoof,
            &[(SourceField::DesiredActions, "Отремонтировать крышу")],
        );
        assert_eq!(
            decide_legal_module(&confirmed, Some(&model)),
            LegalDecision::Omitted(OmissionReason::EvidenceNotVerbatim)
        );
    }

    #[test]
    fn a_decomposed_quote_matches_its_composed_field() {
        let confirmed = input(Some(LIGHTING.code()));
        let model = subject(
            LIGHTING,
            &[(SourceField::Description, "не горит све\u{308}т")],
        );
        assert_eq!(
            decide_legal_module(&confirmed, Some(&model)),
            LegalDecision::Included(LIGHTING)
        );
    }
}
