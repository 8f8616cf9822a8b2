//! The model's reply, decoded, validated and assembled against a fixed resident input: the
//! structural and semantic checks, the legal decision, the faithfulness checks. Whatever the
//! model writes, the «Прошу:» item is the resident's own words or the generic item.

use std::sync::LazyLock;

use zayavka_core::{
    ModelReply, Outcome, RawInput, ResidentInput, evaluate_reply, legal_catalogue,
    request_draft_schema, request_item,
};

static INPUT: LazyLock<ResidentInput> = LazyLock::new(|| {
    ResidentInput::parse(&RawInput {
        description: Some(
            "В подъезде неделю не горит свет на лестнице между 3 и 4 этажами.".into(),
        ),
        location: Some("Подъезд 2".into()),
        consequences: Some("Вечером темно, соседка чуть не упала".into()),
        desired_actions: Some("заменить лампы".into()),
        confirmed_subject: Some("common_area_premises_lighting".into()),
    })
    .expect("the fixed input is valid")
});

/// Checks one input.
pub fn check(data: &[u8]) {
    // The first byte picks the finish reason and whether a refusal comes with the content.
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let content = String::from_utf8_lossy(rest).into_owned();
    let finish_reason = match selector % 4 {
        0 => Some("stop".to_owned()),
        1 => Some("length".to_owned()),
        2 => None,
        _ => Some("content_filter".to_owned()),
    };
    let refusal = (selector & 0x80 != 0).then(|| "не могу".to_owned());
    let reply = ModelReply {
        content: Some(content),
        refusal,
        finish_reason,
    };
    let outcome = evaluate_reply(&INPUT, &reply, request_draft_schema(), legal_catalogue());
    if let Outcome::Ready(request) = &outcome {
        assert_eq!(request.item().text(), request_item(INPUT.desired_actions()));
        assert!(!request.body().is_empty());
    }
    let _ = outcome.report();
}
