//! The case of a filed draft (issue 30): every state change with its audit event, the dates kept
//! in order, a filed draft's text and evidence frozen, the photos of a filing and of an answer
//! apart from the evidence, follow-up drafts linked, and nothing of a case left after its draft
//! is deleted or its filing withdrawn.

use jiff::civil::date;
use zayavka_store::{
    Answer, AnswerResult, AttachmentRole, AuditKind, Filing, FilingMethod, FollowKind,
    NewAttachment, NewVersion, StoreError,
};

use crate::{Scratch, contains, folder_files, input, ready_draft};

fn letter() -> Filing {
    Filing {
        filed_on: date(2026, 12, 1),
        method: FilingMethod::Letter,
        number: Some("Вх. № 17/А-2026".to_owned()),
        addressee: Some("ООО «УК Восход»".to_owned()),
        delivered_on: None,
    }
}

fn photo(marker: &str) -> NewAttachment {
    NewAttachment {
        media_type: "image/jpeg".to_owned(),
        width: 640,
        height: 480,
        bytes: marker.repeat(2_000).into_bytes(),
    }
}

fn kinds(store: &zayavka_store::Store, id: zayavka_store::DraftId) -> Vec<AuditKind> {
    store
        .audit_events(Some(id))
        .unwrap()
        .into_iter()
        .map(|event| event.kind)
        .collect()
}

#[test]
fn a_case_goes_from_filing_through_delivery_and_answer_to_closing() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = ready_draft(&store, "Не горит свет", "Свет", "Текст.");
    assert_eq!(store.case(id).unwrap(), None);

    let case = store.record_filing(id, &letter()).unwrap();
    assert_eq!(case.filing, letter());
    assert_eq!(
        (case.answer, case.closed_on, case.follows),
        (None, None, None)
    );

    let delivered = Filing {
        delivered_on: Some(date(2026, 12, 4)),
        ..letter()
    };
    let case = store.record_filing(id, &delivered).unwrap();
    assert_eq!(case.filing.delivered_on, Some(date(2026, 12, 4)));

    let answer = Answer {
        answered_on: date(2026, 12, 15),
        result: AnswerResult::Partly,
    };
    let case = store.record_answer(id, &answer).unwrap();
    assert_eq!(case.answer, Some(answer));
    let case = store.close_case(id, Some(date(2026, 12, 20))).unwrap();
    assert_eq!(case.closed_on, Some(date(2026, 12, 20)));
    let case = store.close_case(id, None).unwrap();
    assert_eq!(case.closed_on, None);
    assert_eq!(store.cases().unwrap(), vec![case.clone()]);
    assert_eq!(store.case(id).unwrap(), Some(case));

    let events = store.audit_events(Some(id)).unwrap();
    let case_events: Vec<(AuditKind, Option<String>)> = events
        .into_iter()
        .filter(|event| {
            !matches!(
                event.kind,
                AuditKind::DraftCreated | AuditKind::DraftFinished
            )
        })
        .map(|event| (event.kind, event.detail))
        .collect();
    assert_eq!(
        case_events,
        [
            (AuditKind::DraftFiled, Some("letter".to_owned())),
            (AuditKind::FilingAmended, Some("letter".to_owned())),
            (AuditKind::AnswerRecorded, Some("partly".to_owned())),
            (AuditKind::CaseClosed, None),
            (AuditKind::CaseReopened, None),
        ]
    );
}

#[test]
fn only_a_ready_draft_can_be_filed_and_only_a_filed_one_answered() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let pending = store.create_draft(&input("Течёт крыша")).unwrap();
    assert!(matches!(
        store.record_filing(pending, &letter()),
        Err(StoreError::DraftNotReady {
            outcome: "pending",
            ..
        })
    ));
    let ready = ready_draft(&store, "Не горит свет", "Свет", "Текст.");
    let answer = Answer {
        answered_on: date(2026, 12, 15),
        result: AnswerResult::Solved,
    };
    assert!(matches!(
        store.record_answer(ready, &answer),
        Err(StoreError::NotFiled(_))
    ));
    assert!(matches!(
        store.close_case(ready, Some(date(2026, 12, 15))),
        Err(StoreError::NotFiled(_))
    ));
    assert!(matches!(
        store.withdraw_filing(ready),
        Err(StoreError::NotFiled(_))
    ));
    let missing = zayavka_store::DraftId::new(999).unwrap();
    assert!(matches!(
        store.record_filing(missing, &letter()),
        Err(StoreError::DraftNotFound(_))
    ));
    assert!(matches!(
        store.case(missing),
        Err(StoreError::DraftNotFound(_))
    ));
    assert_eq!(store.cases().unwrap(), []);
}

#[test]
fn no_date_of_a_case_comes_before_its_filing() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = ready_draft(&store, "Не горит свет", "Свет", "Текст.");
    let early_delivery = Filing {
        delivered_on: Some(date(2026, 11, 30)),
        ..letter()
    };
    let error = store.record_filing(id, &early_delivery).unwrap_err();
    assert!(matches!(
        error,
        StoreError::CaseDatesOutOfOrder {
            later: "delivery",
            ..
        }
    ));
    assert!(
        error.message_ru().contains("30.11.2026"),
        "{}",
        error.message_ru()
    );
    assert_eq!(store.case(id).unwrap(), None, "nothing was stored");

    store.record_filing(id, &letter()).unwrap();
    let early = Answer {
        answered_on: date(2026, 11, 20),
        result: AnswerResult::Refused,
    };
    assert!(matches!(
        store.record_answer(id, &early),
        Err(StoreError::CaseDatesOutOfOrder {
            later: "answer",
            ..
        })
    ));
    assert!(matches!(
        store.close_case(id, Some(date(2026, 11, 1))),
        Err(StoreError::CaseDatesOutOfOrder {
            later: "closing",
            ..
        })
    ));
    // Moving the filing past a recorded answer is refused too.
    let answer = Answer {
        answered_on: date(2026, 12, 10),
        result: AnswerResult::Refused,
    };
    store.record_answer(id, &answer).unwrap();
    let later = Filing {
        filed_on: date(2026, 12, 11),
        ..letter()
    };
    assert!(matches!(
        store.record_filing(id, &later),
        Err(StoreError::CaseDatesOutOfOrder {
            later: "answer",
            ..
        })
    ));
    assert_eq!(store.case(id).unwrap().unwrap().filing, letter());
}

#[test]
fn a_filed_draft_keeps_its_text_and_its_evidence() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = ready_draft(&store, "Не горит свет", "Свет", "Текст.");
    store.add_attachments(id, &[photo("EVIDENCE")], 10).unwrap();
    store.record_filing(id, &letter()).unwrap();
    let version = NewVersion {
        author: "resident".to_owned(),
        title: "Свет".to_owned(),
        body: "Другой текст.".to_owned(),
    };
    let error = store.add_version(id, &version).unwrap_err();
    assert!(matches!(error, StoreError::DraftFiled(_)));
    assert!(
        error.message_ru().contains("не меняются"),
        "{}",
        error.message_ru()
    );
    assert!(matches!(
        store.add_attachments(id, &[photo("MORE")], 10),
        Err(StoreError::DraftFiled(_))
    ));
    assert!(matches!(
        store.remove_attachment(id, 1),
        Err(StoreError::DraftFiled(_))
    ));
    assert_eq!(store.attachments(id).unwrap().len(), 1);

    // The proof of filing and the answer's pages are the case's: numbered apart, and free to
    // change.
    let proof = store
        .add_attachments_as(id, AttachmentRole::Filing, &[photo("STAMP")], 10)
        .unwrap();
    assert_eq!(
        (proof[0].number, proof[0].role),
        (1, AttachmentRole::Filing)
    );
    store
        .add_attachments_as(id, AttachmentRole::Answer, &[photo("ANSWERPAGE")], 10)
        .unwrap();
    assert_eq!(
        store.attachments(id).unwrap().len(),
        1,
        "evidence stays apart"
    );
    store
        .remove_attachment_as(id, AttachmentRole::Answer, 1)
        .unwrap();
    assert_eq!(
        store.attachments_as(id, AttachmentRole::Answer).unwrap(),
        []
    );

    // Withdrawn, the draft can change again; the case's photos went with the case.
    store.withdraw_filing(id).unwrap();
    assert_eq!(store.case(id).unwrap(), None);
    assert_eq!(
        store.attachments_as(id, AttachmentRole::Filing).unwrap(),
        []
    );
    assert_eq!(
        store.attachments(id).unwrap().len(),
        1,
        "the evidence is the draft's"
    );
    assert_eq!(store.add_version(id, &version).unwrap(), 1);
    assert!(kinds(&store, id).contains(&AuditKind::FilingWithdrawn));
}

#[test]
fn a_follow_up_is_linked_to_its_draft_and_survives_its_deletion() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let first = ready_draft(&store, "Не горит свет", "Свет", "Текст.");
    let repeat = ready_draft(&store, "Не горит свет", "Повторно", "Текст повторно.");
    let complaint = ready_draft(&store, "Не горит свет", "Жалоба", "Текст жалобы.");
    store
        .link_follow_up(repeat, first, FollowKind::Repeat)
        .unwrap();
    store
        .link_follow_up(complaint, first, FollowKind::Complaint)
        .unwrap();
    assert_eq!(
        store.follow_ups(first).unwrap(),
        [
            (repeat, FollowKind::Repeat),
            (complaint, FollowKind::Complaint)
        ]
    );
    let link = store.follow_link(complaint).unwrap().unwrap();
    assert_eq!(
        (link.draft_id, link.kind),
        (Some(first), FollowKind::Complaint)
    );
    assert_eq!(store.follow_link(first).unwrap(), None);
    store.record_filing(complaint, &letter()).unwrap();
    let case = store.case(complaint).unwrap().unwrap();
    assert_eq!(case.follows, Some(link));
    assert!(kinds(&store, complaint).contains(&AuditKind::FollowUpCreated));

    store.delete_draft(first).unwrap();
    let link = store.follow_link(complaint).unwrap().unwrap();
    assert_eq!((link.draft_id, link.kind), (None, FollowKind::Complaint));
}

#[test]
fn deleting_a_filed_draft_leaves_no_byte_of_its_case() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = ready_draft(&store, "Не горит свет", "Свет", "Текст.");
    let filing = Filing {
        number: Some("NUMBERMARKER-4411".to_owned()),
        addressee: Some("ADDRESSEEMARKER".to_owned()),
        ..letter()
    };
    store.record_filing(id, &filing).unwrap();
    store
        .add_attachments_as(id, AttachmentRole::Filing, &[photo("STAMPMARKER")], 10)
        .unwrap();
    store.delete_draft(id).unwrap();
    assert_eq!(store.cases().unwrap(), []);
    for marker in ["NUMBERMARKER-4411", "ADDRESSEEMARKER", "STAMPMARKER"] {
        for (path, bytes) in folder_files(&scratch.folder()) {
            assert!(
                !contains(&bytes, marker.as_bytes()),
                "{marker} is still in {}",
                path.display()
            );
        }
    }
    // The audit log keeps that there was a filing, never its facts.
    assert!(kinds(&store, id).contains(&AuditKind::DraftFiled));
}

#[test]
fn an_incoming_number_may_hold_any_characters_but_not_be_blank() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = ready_draft(&store, "Не горит свет", "Свет", "Текст.");
    let odd = "№ 12/3-\"А\" ; DROP TABLE cases; -- \u{1F600}";
    let filing = Filing {
        number: Some(odd.to_owned()),
        ..letter()
    };
    assert_eq!(
        store
            .record_filing(id, &filing)
            .unwrap()
            .filing
            .number
            .as_deref(),
        Some(odd)
    );
    let blank = Filing {
        number: Some("  ".to_owned()),
        ..letter()
    };
    assert!(store.record_filing(id, &blank).is_err());
    assert_eq!(
        store.case(id).unwrap().unwrap().filing.number.as_deref(),
        Some(odd)
    );
}

#[test]
fn a_correction_copies_the_filed_draft_whole_and_is_free_to_change() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = ready_draft(&store, "Не горит свет", "Свет", "Текст.");
    let version = NewVersion {
        author: "resident".to_owned(),
        title: "Свет в подъезде".to_owned(),
        body: "Мой текст.".to_owned(),
    };
    store.add_version(id, &version).unwrap();
    store.add_attachments(id, &[photo("EVIDENCE")], 10).unwrap();
    assert!(matches!(
        store.copy_for_correction(id),
        Err(StoreError::NotFiled(_))
    ));
    store.record_filing(id, &letter()).unwrap();
    store
        .add_attachments_as(id, AttachmentRole::Filing, &[photo("STAMP")], 10)
        .unwrap();

    let copy = store.copy_for_correction(id).unwrap();
    assert_ne!(copy, id);
    let original = store.get_draft(id).unwrap().unwrap();
    let corrected = store.get_draft(copy).unwrap().unwrap();
    assert_eq!(corrected.summary.outcome, original.summary.outcome);
    assert_eq!(corrected.summary.title, original.summary.title);
    assert_eq!(corrected.body, original.body);
    assert_eq!(corrected.request_json, original.request_json);
    assert_eq!(
        corrected.summary.raw_input_json,
        original.summary.raw_input_json
    );
    assert_eq!(corrected.versions.len(), 1);
    assert_eq!(corrected.versions[0].body, "Мой текст.");
    assert_eq!(corrected.summary.batch, None);
    let photos = store.attachments_with_bytes(copy).unwrap();
    assert_eq!(photos.len(), 1, "the evidence, not the stamp");
    assert_eq!(photos[0].1, photo("EVIDENCE").bytes);
    assert_eq!(
        store.attachments_as(copy, AttachmentRole::Filing).unwrap(),
        []
    );
    assert_eq!(store.case(copy).unwrap(), None, "the copy is not filed");
    let link = store.follow_link(copy).unwrap().unwrap();
    assert_eq!(
        (link.draft_id, link.kind),
        (Some(id), FollowKind::Correction)
    );
    assert_eq!(store.search_drafts("горит", 10).unwrap().len(), 2);
    // The copy takes an edit; the original still refuses one.
    assert_eq!(store.add_version(copy, &version).unwrap(), 2);
    assert!(matches!(
        store.add_version(id, &version),
        Err(StoreError::DraftFiled(_))
    ));
    assert_eq!(
        kinds(&store, copy),
        [
            AuditKind::DraftCreated,
            AuditKind::FollowUpCreated,
            AuditKind::DraftEdited
        ]
    );
}
