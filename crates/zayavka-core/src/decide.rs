//! The pure pipeline from a checked input and a model reply (or no model at all) to an
//! [`Outcome`].

use crate::assemble::{DraftText, Provenance, TitleSource, assemble};
use crate::faithfulness::check_faithfulness;
use crate::finding::{Finding, FindingCode, Rejection, RejectionReason};
use crate::input::{
    BODY_LIMIT, InputError, InputErrorKind, InputErrors, InputField, ResidentInput,
};
use crate::legal::LegalCatalogue;
use crate::outcome::{NeedsUserReason, Outcome};
use crate::policy::{LegalDecision, OmissionReason, decide_legal_module};
use crate::preview::offline_title;
use crate::reply::{ModelOutcome, ModelReply, decode_reply, semantic_findings};
use crate::schema::RegisteredSchema;
use crate::text::{char_count, join_lines};
use crate::unrelated::unrelated_findings;

/// The warning that says no model was used. It says what assembly still does to the resident's
/// words (issue 14): it is true whether or not the description needed any of it.
pub const NO_MODEL_WARNING: &str = "Текст составлен без языковой модели: описание — ваши слова. \
     Приложение лишь делает первую букву заглавной, ставит точку в конце и соединяет строки, \
     если это нужно.";

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
    // A draft that keeps none of the resident's facts is not a request with words to check:
    // it is about another problem, and it is withheld, not shown with warnings (issue 31).
    let unrelated = unrelated_findings(input, &draft);
    if let Some(rejection) = Rejection::new(RejectionReason::UnrelatedDraft, unrelated) {
        return Outcome::Rejected(rejection);
    }
    let legal = decide_legal_module(input, draft.subject.as_ref());
    // What the model's sentences say that the resident's text does not: warnings for the
    // resident at the sentence concerned, never a reason to withhold the request (issue 17).
    let faithfulness = check_faithfulness(input, &draft);
    // Both are present: the semantic rules above require them for a draft.
    let text = DraftText {
        source: Provenance::Model,
        title: draft.title.unwrap_or_default(),
        title_source: TitleSource::Model,
        problem: draft.problem.unwrap_or_default(),
        circumstances: draft.circumstances,
        impact: draft.impact,
        verification: draft.verification,
        warnings: with_input_notices(draft.warnings, input),
    };
    match finish(&text, legal, input, catalogue) {
        Outcome::Ready(request) => Outcome::Ready(request.with_faithfulness(&faithfulness)),
        other => other,
    }
}

/// Assembles a request from the resident's own words, with no model: the description as the
/// problem, the location and consequences as given, the usual item, and no subject paragraph.
/// The title is the description's first words ([`offline_title`]), marked as the resident's,
/// so that drafts made without a model can be told apart (issue 14).
///
/// The resident's words are the whole text here, so a body over the limit is their input being
/// too long for one request: it is refused as invalid input that names the real maximum for
/// the description, never as a rejected model answer and never cut.
pub fn offline_request(input: &ResidentInput, catalogue: &LegalCatalogue) -> Outcome {
    let text = DraftText {
        source: Provenance::Resident,
        title: offline_title(input.description()),
        title_source: TitleSource::Resident,
        problem: input.description().to_owned(),
        circumstances: input
            .location()
            .map(|location| format!("Место: {location}")),
        impact: input
            .consequences()
            .map(|consequences| format!("Последствия: {consequences}")),
        verification: None,
        warnings: with_input_notices(vec![NO_MODEL_WARNING.to_owned()], input),
    };
    let legal = LegalDecision::Omitted(OmissionReason::NoModelSubject);
    match assemble(&text, legal, input.desired_actions(), catalogue) {
        Ok(request) => Outcome::Ready(request),
        Err(too_long) => {
            // Counted as the body counts it: line breaks are joined into single spaces, so a
            // blank line between paragraphs takes no room in the request.
            let actual = char_count(&join_lines(input.description()));
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

/// The warnings, then the notices about the resident's input (text not in Russian letters),
/// so that the resident sees them with the result, with or without a model (issue 14).
fn with_input_notices(mut warnings: Vec<String>, input: &ResidentInput) -> Vec<String> {
    warnings.extend(
        input
            .notices()
            .iter()
            .map(crate::input::InputNotice::message_ru),
    );
    warnings
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assemble::{GENERIC_ITEM, ItemSource, SectionKind};
    use crate::input::RawInput;
    use crate::legal::catalogue;
    use crate::prompt::request_draft;
    use crate::subject::SubjectKind;
    use serde_json::{Value, json};

    const LIGHTING: &str = "common_area_premises_lighting";

    fn input(desired_actions: Option<&str>, confirmed: Option<&str>) -> ResidentInput {
        ResidentInput::parse(&RawInput {
            description: Some(
                "В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами."
                    .into(),
            ),
            location: Some("Подъезд 2, лестница между 3 и 4 этажами".into()),
            consequences: None,
            desired_actions: desired_actions.map(str::to_owned),
            confirmed_subject: confirmed.map(str::to_owned),
        })
        .unwrap()
    }

    fn draft_json() -> Value {
        json!({
            "outcome": "draft",
            "title": "Не работает освещение на лестнице в подъезде 2",
            "problem": "На лестнице между третьим и четвёртым этажами не горит свет",
            "circumstances": "Подъезд 2, лестница между 3 и 4 этажами; свет не горит неделю",
            "impact": "В тёмное время суток на лестнице плохо видно ступени",
            "verification": "Причину отсутствия освещения нужно установить при осмотре",
            "subject": {
                "kind": LIGHTING,
                "evidence": [
                    {"source_field": "description", "quote": "неделю не горит свет на лестнице"}
                ]
            },
            "warnings": []
        })
    }

    fn evaluate(input: &ResidentInput, value: &Value) -> Outcome {
        let reply = ModelReply {
            content: Some(value.to_string()),
            refusal: None,
            finish_reason: Some("stop".into()),
        };
        evaluate_reply(input, &reply, request_draft(), catalogue())
    }

    fn ready(outcome: Outcome) -> crate::assemble::Request {
        match outcome {
            Outcome::Ready(request) => request,
            other => panic!("expected a ready request, got {other:?}"),
        }
    }

    fn rejection(outcome: Outcome) -> Rejection {
        match outcome {
            Outcome::Rejected(rejection) => rejection,
            other => panic!("expected a rejection, got {other:?}"),
        }
    }

    /// The kind, source and module of every section, in order.
    fn layout(
        request: &crate::assemble::Request,
    ) -> Vec<(SectionKind, Provenance, Option<String>)> {
        request
            .sections()
            .iter()
            .map(|s| (s.kind(), s.source(), s.module().map(str::to_owned)))
            .collect()
    }

    /// The legal sections one module contributes.
    fn legal_layout(id: &str, count: usize) -> Vec<(SectionKind, Provenance, Option<String>)> {
        vec![
            (
                SectionKind::Legal,
                Provenance::LegalCatalogue,
                Some(id.to_owned())
            );
            count
        ]
    }

    #[test]
    fn a_fact_the_resident_never_gave_is_a_warning_at_its_sentence_and_the_request_stays_ready() {
        let mut invented = draft_json();
        invented["impact"] = json!("Соседка упала на лестнице");
        let request = ready(evaluate(&input(None, Some(LIGHTING)), &invented));
        let fell: Vec<_> = request
            .faithfulness()
            .iter()
            .filter(|f| f.words().iter().any(|w| w == "упала"))
            .collect();
        assert_eq!(fell.len(), 1, "{:#?}", request.faithfulness());
        assert_eq!(fell[0].field(), crate::faithfulness::DraftField::Impact);
        assert_eq!(fell[0].sentence(), "Соседка упала на лестнице");
        assert!(
            fell[0].message().contains("«упала»"),
            "{}",
            fell[0].message()
        );
        // The stored request reads back with the same findings.
        let text = serde_json::to_string(&request).unwrap();
        let back: crate::assemble::Request = serde_json::from_str(&text).unwrap();
        assert_eq!(back.faithfulness(), request.faithfulness());
        // A request stored before the checks ran on every draft reads as having none.
        let mut old: Value = serde_json::from_str(&text).unwrap();
        old.as_object_mut().unwrap().remove("faithfulness");
        let old: crate::assemble::Request = serde_json::from_value(old).unwrap();
        assert!(old.faithfulness().is_empty());
        // Without a model there is nothing to compare.
        let offline = ready(offline_request(&input(None, None), catalogue()));
        assert!(offline.faithfulness().is_empty());
    }

    #[test]
    fn the_legal_status_is_one_sentence_that_says_whether_a_model_wrote_the_draft() {
        let included = ready(evaluate(
            &input(Some("Прошу: заменить лампы"), Some(LIGHTING)),
            &draft_json(),
        ));
        assert!(included.written_by_model());
        assert_eq!(
            included.legal_status_ru(),
            "Добавлен нормативный абзац о теме «Освещение в подъезде»: ваш выбор подтверждён \
             текстом."
        );
        let not_confirmed = ready(evaluate(&input(None, None), &draft_json()));
        assert_eq!(
            not_confirmed.legal_status_ru(),
            OmissionReason::NotConfirmed.message_ru()
        );
        let offline = ready(offline_request(&input(None, Some(LIGHTING)), catalogue()));
        assert!(!offline.written_by_model());
        assert_eq!(
            offline.legal_status_ru(),
            "Заявка составлена без модели, поэтому абзац с нормой о виде проблемы не добавлен."
        );
        for &reason in OmissionReason::ALL {
            let sentence = reason.message_ru();
            assert!(sentence.starts_with("Абзац с нормой") && sentence.ends_with('.'));
        }
    }

    #[test]
    fn a_checked_draft_becomes_a_request_in_the_fixed_order() {
        let catalogue = catalogue();
        let request = ready(evaluate(
            &input(Some("Прошу: заменить лампы на лестнице"), Some(LIGHTING)),
            &draft_json(),
        ));
        let mut expected = vec![
            (SectionKind::Problem, Provenance::Model, None),
            (SectionKind::Circumstances, Provenance::Model, None),
            (SectionKind::Impact, Provenance::Model, None),
            (SectionKind::Verification, Provenance::Model, None),
        ];
        expected.extend(legal_layout("common", catalogue.common().paragraphs.len()));
        let lighting = catalogue.subject(SubjectKind::CommonAreaPremisesLighting);
        expected.extend(legal_layout(LIGHTING, lighting.paragraphs.len()));
        assert_eq!(layout(&request), expected);
        let texts: Vec<&str> = request.sections().iter().map(|s| s.text()).collect();
        assert_eq!(
            texts[..4],
            [
                "На лестнице между третьим и четвёртым этажами не горит свет.",
                "Подъезд 2, лестница между 3 и 4 этажами; свет не горит неделю.",
                "В тёмное время суток на лестнице плохо видно ступени.",
                "Причину отсутствия освещения нужно установить при осмотре.",
            ]
        );
        let legal_texts: Vec<&str> = catalogue
            .common()
            .paragraphs
            .iter()
            .chain(&lighting.paragraphs)
            .map(String::as_str)
            .collect();
        assert_eq!(texts[4..], legal_texts[..]);
        assert_eq!(
            request.title(),
            "Не работает освещение на лестнице в подъезде 2"
        );
        assert_eq!(request.item().text(), "Заменить лампы на лестнице.");
        assert_eq!(request.item().source(), ItemSource::ResidentRequest);
        assert_eq!(
            request.subject_module(),
            Some(SubjectKind::CommonAreaPremisesLighting)
        );
        assert_eq!(request.legal_omission(), None);
        assert!(request.warnings().is_empty());
    }

    #[test]
    fn without_desired_actions_the_item_is_the_generic_one() {
        let request = ready(evaluate(&input(None, None), &draft_json()));
        assert_eq!(request.item().text(), GENERIC_ITEM);
        assert_eq!(request.item().source(), ItemSource::Generic);
        assert!(
            request
                .body()
                .ends_with(&format!("Прошу:\n1. {GENERIC_ITEM}"))
        );
        assert_eq!(request.subject_module(), None);
        assert_eq!(request.legal_omission(), Some(OmissionReason::NotConfirmed));
        // Only the common block: no subject paragraph without the resident's confirmation.
        let common = catalogue().common().paragraphs.len();
        assert_eq!(layout(&request)[4..], legal_layout("common", common)[..]);
    }

    #[test]
    fn the_models_warnings_reach_the_request_and_absent_sections_are_left_out() {
        let mut value = draft_json();
        value["circumstances"] = Value::Null;
        value["verification"] = Value::Null;
        value["warnings"] = json!(["Уточните номер подъезда"]);
        let request = ready(evaluate(&input(None, Some(LIGHTING)), &value));
        assert_eq!(request.warnings(), ["Уточните номер подъезда"]);
        assert_eq!(
            layout(&request)[..2],
            [
                (SectionKind::Problem, Provenance::Model, None),
                (SectionKind::Impact, Provenance::Model, None),
            ]
        );
    }

    fn needs_user(outcome: Outcome) -> (NeedsUserReason, Vec<String>) {
        match outcome {
            Outcome::NeedsUser { reason, hints } => (reason, hints),
            other => panic!("expected needs_user, got {other:?}"),
        }
    }

    fn no_draft(outcome: &str, warnings: Value) -> Value {
        json!({
            "outcome": outcome,
            "title": null,
            "problem": null,
            "circumstances": null,
            "impact": null,
            "verification": null,
            "subject": null,
            "warnings": warnings,
        })
    }

    #[test]
    fn a_reply_without_a_draft_asks_the_resident_and_keeps_clean_hints() {
        let (reason, hints) = needs_user(evaluate(
            &input(None, None),
            &no_draft(
                "multiple_problems",
                json!(["  Опишите качели отдельно. ", " ", "Свет — в этой заявке"]),
            ),
        ));
        assert_eq!(reason, NeedsUserReason::MultipleProblems);
        assert_eq!(hints, ["Опишите качели отдельно.", "Свет — в этой заявке"]);
        let (reason, hints) = needs_user(evaluate(
            &input(None, None),
            &no_draft("insufficient_information", json!([])),
        ));
        assert_eq!(reason, NeedsUserReason::InsufficientInformation);
        assert!(hints.is_empty());
    }

    #[test]
    fn hints_that_fail_the_checks_are_all_dropped_and_the_question_stays() {
        let (reason, hints) = needs_user(evaluate(
            &input(None, None),
            &no_draft(
                "insufficient_information",
                json!(["Напишите, где именно", "Подробнее на uk-dom.ru"]),
            ),
        ));
        assert_eq!(reason, NeedsUserReason::InsufficientInformation);
        assert!(hints.is_empty());
    }

    #[test]
    fn a_draft_that_breaks_a_semantic_rule_is_rejected_with_every_finding() {
        let mut value = draft_json();
        value["problem"] = json!("Прошу заменить лампы");
        value["impact"] = json!("Подробнее на uk-dom.ru");
        let rejection = rejection(evaluate(&input(None, Some(LIGHTING)), &value));
        assert_eq!(rejection.reason(), RejectionReason::SemanticViolation);
        let found: Vec<(&str, FindingCode)> = rejection
            .findings()
            .iter()
            .map(|f| (f.field(), f.code()))
            .collect();
        assert_eq!(
            found,
            [
                ("/problem", FindingCode::RequestBlock),
                ("/impact", FindingCode::Url)
            ]
        );
        assert!(!rejection.reason().may_reask());
    }

    #[test]
    fn a_structural_rejection_is_passed_through_unchanged() {
        let mut value = draft_json();
        value["title"] = json!("Свет\u{1b}[2J не горит");
        let rejection = rejection(evaluate(&input(None, None), &value));
        assert_eq!(rejection.reason(), RejectionReason::UnsafeText);
        assert_eq!(rejection.findings()[0].field(), "/title");
    }

    #[test]
    fn a_model_body_over_the_limit_is_rejected_whole_never_cut() {
        let mut value = draft_json();
        value["problem"] = json!("Свет не горит ".repeat(70).trim_end());
        value["circumstances"] = json!("Подъезд два ".repeat(50).trim_end());
        value["impact"] = json!("Плохо видно ".repeat(50).trim_end());
        value["verification"] = json!("Нужен осмотр ".repeat(46).trim_end());
        let rejection = rejection(evaluate(&input(None, Some(LIGHTING)), &value));
        assert_eq!(rejection.reason(), RejectionReason::BodyTooLong);
        assert_eq!(rejection.findings().len(), 1);
        assert_eq!(rejection.findings()[0].field(), "/body");
        assert_eq!(rejection.findings()[0].code(), FindingCode::BodyTooLong);
    }

    #[test]
    fn evaluation_is_deterministic() {
        let input = input(Some("заменить лампы"), Some(LIGHTING));
        let first = evaluate(&input, &draft_json());
        assert_eq!(first, evaluate(&input, &draft_json()));
        assert_eq!(
            serde_json::to_vec(&first.report()).unwrap(),
            serde_json::to_vec(&evaluate(&input, &draft_json()).report()).unwrap()
        );
    }

    #[test]
    fn an_offline_request_is_the_residents_own_words_with_no_subject_paragraph() {
        let input = ResidentInput::parse(&RawInput {
            description: Some("в подъезде неделю не горит свет".into()),
            location: Some("Подъезд 2".into()),
            consequences: Some("Темно на лестнице".into()),
            desired_actions: Some("заменить лампы".into()),
            confirmed_subject: Some(LIGHTING.into()),
        })
        .unwrap();
        let request = ready(offline_request(&input, catalogue()));
        // The resident's own words, even with a subject confirmed (issue 14).
        assert_eq!(request.title(), "В подъезде неделю не горит свет");
        assert_eq!(request.title_source(), TitleSource::Resident);
        let mut expected = vec![
            (SectionKind::Problem, Provenance::Resident, None),
            (SectionKind::Circumstances, Provenance::Resident, None),
            (SectionKind::Impact, Provenance::Resident, None),
        ];
        expected.extend(legal_layout(
            "common",
            catalogue().common().paragraphs.len(),
        ));
        assert_eq!(layout(&request), expected);
        let texts: Vec<&str> = request.sections().iter().map(|s| s.text()).collect();
        assert_eq!(
            texts[..3],
            [
                "В подъезде неделю не горит свет.",
                "Место: Подъезд 2.",
                "Последствия: Темно на лестнице."
            ]
        );
        assert_eq!(request.warnings(), [NO_MODEL_WARNING]);
        assert_eq!(request.subject_module(), None);
        assert_eq!(
            request.legal_omission(),
            Some(OmissionReason::NoModelSubject)
        );
        assert_eq!(request.item().text(), "Заменить лампы.");
        assert_eq!(request.item().source(), ItemSource::ResidentRequest);
    }

    #[test]
    fn an_offline_request_without_a_subject_has_the_residents_title_and_the_generic_item() {
        let input = ResidentInput::parse(&RawInput {
            description: Some("На крыльце третий день лужа".into()),
            ..RawInput::default()
        })
        .unwrap();
        let request = ready(offline_request(&input, catalogue()));
        assert_eq!(request.title(), "На крыльце третий день лужа");
        assert_eq!(request.title_source(), TitleSource::Resident);
        assert_eq!(request.sections()[0].kind(), SectionKind::Problem);
        assert_eq!(request.sections()[1].kind(), SectionKind::Legal);
        assert_eq!(request.item().source(), ItemSource::Generic);
        assert_eq!(request.warnings(), [NO_MODEL_WARNING]);
    }

    fn offline_title_of(description: &str) -> (String, TitleSource) {
        let input = ResidentInput::parse(&RawInput {
            description: Some(description.into()),
            ..RawInput::default()
        })
        .unwrap();
        let request = ready(offline_request(&input, catalogue()));
        (request.title().to_owned(), request.title_source())
    }

    #[test]
    fn issue_14_offline_titles_are_the_residents_first_words_cut_at_a_word_boundary() {
        let (title, source) = offline_title_of(
            "в подъезде номер два уже неделю не горит свет на лестнице между третьим и \
             четвёртым этажами",
        );
        assert_eq!(
            title,
            "В подъезде номер два уже неделю не горит свет на лестнице…"
        );
        assert_eq!(source, TitleSource::Resident);
        assert!(char_count(&title) <= crate::preview::OFFLINE_TITLE_MAX);
    }

    #[test]
    fn issue_14_an_offline_title_of_one_very_long_word_is_cut_inside_it() {
        let (title, _) = offline_title_of(&"ж".repeat(300));
        assert_eq!(title, format!("Ж{}…", "ж".repeat(58)));
    }

    #[test]
    fn issue_14_an_offline_title_joins_the_lines_of_the_description() {
        let (title, _) = offline_title_of("Течёт крыша.\n\nВода капает\r\nна пятом этаже.");
        assert_eq!(title, "Течёт крыша. Вода капает на пятом этаже");
        assert!(!title.contains(['\n', '\r']));
    }

    #[test]
    fn issue_14_an_offline_title_keeps_emoji_and_yo_whole() {
        let (title, _) = offline_title_of("ёлку 🎄 у подъезда сломали 😡, осколки на ступенях");
        assert_eq!(title, "Ёлку 🎄 у подъезда сломали 😡, осколки на ступенях");
        let (title, _) = offline_title_of(&format!("ёж {}", "😡".repeat(80)));
        assert_eq!(title, "Ёж…");
    }

    #[test]
    fn issue_14_ten_different_descriptions_give_ten_different_titles_every_time() {
        let descriptions = [
            "На крыльце третий день лужа",
            "В подъезде не горит свет",
            "Течёт крыша над пятым этажом",
            "Лифт стоит вторую неделю",
            "Дверь подъезда не закрывается",
            "В подвале вода",
            "Не убирают лестницу месяц",
            "Из вентиляции пахнет гарью",
            "Сломан почтовый ящик",
            "Во дворе яма на дорожке",
        ];
        let titles: std::collections::BTreeSet<String> =
            descriptions.iter().map(|d| offline_title_of(d).0).collect();
        assert_eq!(titles.len(), descriptions.len());
        for description in descriptions {
            assert_eq!(offline_title_of(description), offline_title_of(description));
        }
    }

    #[test]
    fn issue_14_a_models_title_is_marked_as_the_models() {
        let request = ready(evaluate(&input(None, None), &draft_json()));
        assert_eq!(request.title_source(), TitleSource::Model);
    }

    /// A description of exactly `length` characters: words of letters, ending in a letter so
    /// that presentation adds the same final period whatever the length.
    fn description_of(length: usize) -> String {
        (0..length)
            .map(|i| {
                if i % 8 == 7 && i + 1 < length {
                    ' '
                } else {
                    'а'
                }
            })
            .collect()
    }

    fn offline_with_description(length: usize) -> (Outcome, usize) {
        let description = description_of(length);
        assert_eq!(char_count(&description), length);
        let input = ResidentInput::parse(&RawInput {
            description: Some(description),
            location: Some("л".repeat(crate::input::limits::LOCATION_MAX)),
            consequences: Some("п".repeat(crate::input::limits::CONSEQUENCES_MAX)),
            desired_actions: Some("д".repeat(crate::input::limits::DESIRED_ACTIONS_MAX)),
            confirmed_subject: None,
        })
        .unwrap();
        (offline_request(&input, catalogue()), length)
    }

    /// The one error of an over-long offline request: its maximum and actual length.
    fn too_long_for_request(outcome: &Outcome) -> (usize, usize) {
        let Outcome::InvalidInput(errors) = outcome else {
            panic!("expected invalid input, never a rejection: {outcome:?}");
        };
        assert_eq!(errors.total(), 1);
        let error = &errors.as_slice()[0];
        assert_eq!(error.code(), "too_long_for_request");
        assert_eq!(error.field, Some(InputField::Description));
        match error.kind {
            InputErrorKind::TooLongForRequest { max, actual } => (max, actual),
            ref other => panic!("unexpected kind {other:?}"),
        }
    }

    #[test]
    fn an_over_long_offline_body_is_refused_up_front_with_the_maximum_that_fits() {
        let longest = crate::input::limits::DESCRIPTION_MAX;
        let (outcome, length) = offline_with_description(longest);
        let (max, actual) = too_long_for_request(&outcome);
        assert_eq!(actual, length);
        assert!(max < actual);
        assert!(
            outcome
                .message_ru()
                .contains(&format!("не больше {max} символов"))
        );

        // The maximum is exact: that many characters fit to the last one, one more does not.
        let (fits, _) = offline_with_description(max);
        let request = ready(fits);
        assert_eq!(char_count(request.body()), BODY_LIMIT);
        let (one_more, length) = offline_with_description(max + 1);
        assert_eq!(too_long_for_request(&one_more), (max, length));
    }

    /// Regression (issue 6): the offline maximum counts the description as the body does, so
    /// blank lines between paragraphs do not make it too generous.
    #[test]
    fn the_offline_maximum_holds_for_a_description_with_blank_lines() {
        let catalogue = crate::legal::catalogue();
        let description = vec!["а".repeat(10); 150].join("\n\n");
        let input = ResidentInput::parse(&crate::input::RawInput {
            description: Some(description),
            consequences: Some("б".repeat(500)),
            ..Default::default()
        })
        .unwrap();
        let Outcome::InvalidInput(errors) = offline_request(&input, catalogue) else {
            panic!("expected the offline body to be too long");
        };
        let InputErrorKind::TooLongForRequest { max, .. } = errors.as_slice()[0].kind else {
            panic!("expected too_long_for_request");
        };
        let fits = ResidentInput::parse(&crate::input::RawInput {
            description: Some("а".repeat(max)),
            consequences: Some("б".repeat(500)),
            ..Default::default()
        })
        .unwrap();
        assert!(matches!(
            offline_request(&fits, catalogue),
            Outcome::Ready(_)
        ));
    }

    /// Regression (issue 14): an offline request's note called the description «ваши слова без
    /// изменений» while assembly had capitalised it, joined its lines and added a full stop.
    #[test]
    fn issue_14_the_no_model_note_says_what_assembly_changes() {
        let input = ResidentInput::parse(&crate::input::RawInput {
            description: Some("в подъезде неделю не горит свет\nна лестнице".into()),
            ..Default::default()
        })
        .unwrap();
        let request = ready(offline_request(&input, crate::legal::catalogue()));
        assert_eq!(
            request.sections()[0].text(),
            "В подъезде неделю не горит свет на лестнице."
        );
        assert_eq!(
            request.warnings(),
            [
                "Текст составлен без языковой модели: описание — ваши слова. Приложение лишь делает \
                 первую букву заглавной, ставит точку в конце и соединяет строки, если это нужно."
            ]
        );
    }
}
