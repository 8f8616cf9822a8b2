//! The whole deterministic pipeline on a typical draft that includes a legal module: input
//! validation, structural and semantic validation of the model's reply, the policy and assembly.

#![allow(missing_docs)] // criterion's macros generate undocumented items.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use zayavka_core::{
    ModelReply, Outcome, RawInput, ResidentInput, evaluate_reply, legal_catalogue,
    request_draft_schema,
};

fn typical() -> (RawInput, ModelReply) {
    let raw = RawInput {
        description: Some(
            "В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами. \
             Вечером приходится подниматься с фонариком телефона."
                .into(),
        ),
        location: Some("Подъезд 2, лестница между 3 и 4 этажами".into()),
        consequences: Some("Пожилым соседям трудно подниматься в темноте".into()),
        desired_actions: Some("Прошу: заменить лампы и проверить светильники".into()),
        confirmed_subject: Some("common_area_premises_lighting".into()),
    };
    let content = serde_json::json!({
        "outcome": "draft",
        "title": "Не работает освещение на лестнице в подъезде 2",
        "problem": "На лестнице между третьим и четвёртым этажами неделю не горит свет",
        "circumstances": "Подъезд 2; вечером жильцы поднимаются с фонариком телефона",
        "impact": "Пожилым жильцам трудно подниматься в темноте",
        "verification": "Причину отсутствия освещения нужно установить при осмотре",
        "subject": {"kind": "common_area_premises_lighting", "evidence": [
            {"source_field": "description", "quote": "неделю не горит свет на лестнице"}
        ]},
        "warnings": []
    });
    let reply = ModelReply {
        content: Some(content.to_string()),
        refusal: None,
        finish_reason: Some("stop".into()),
    };
    (raw, reply)
}

fn pipeline(c: &mut Criterion) {
    let (raw, reply) = typical();
    let schema = request_draft_schema();
    let catalogue = legal_catalogue();
    // Warm the lazily built registry and catalogue, and prove the case is the one meant.
    let input = ResidentInput::parse(&raw).unwrap();
    let Outcome::Ready(request) = evaluate_reply(&input, &reply, schema, catalogue) else {
        panic!("the benchmark case must assemble");
    };
    assert!(request.subject_module().is_some());

    c.bench_function("validate_input_reply_policy_assemble", |b| {
        b.iter(|| {
            let input = ResidentInput::parse(black_box(&raw)).unwrap();
            black_box(evaluate_reply(&input, black_box(&reply), schema, catalogue))
        })
    });
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
