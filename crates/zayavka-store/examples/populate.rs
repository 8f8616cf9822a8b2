//! Fills a database with realistic drafts for the drafts benchmarks (`scripts/bench-drafts.sh`).
//!
//! `cargo run --release -p zayavka-store --example populate -- DB_PATH N`
//!
//! Every draft goes through the store's public API exactly as the engine writes one:
//! `create_draft` with the input as typed and as checked, then (for all but the pending ones)
//! `finish_draft` with the outcome, the assembled request shaped like the engine's serialised
//! `Request`, the warnings, the context record of the model run and its attempts. The API makes
//! each call its own transaction, so this measures what real use costs, and prints how long it
//! took. The texts are built from a few hundred Russian words about entrances, lights, roofs,
//! lifts, doors, cleaning and ventilation, chosen by a fixed-seed generator, so every run
//! writes the same drafts and search has real work to do.
//!
//! A handful of rare phrases appear in about one draft in two thousand each; the benchmark
//! searches one of them («флюгер») to measure a query that matches few drafts.

use std::path::PathBuf;
use std::time::Instant;

use serde_json::{Value, json};
use zayavka_store::{
    FinalOutcome, FinishedDraft, NewAttempt, NewContextRecord, NewDraft, Store, StoreError,
};

/// The released system prompt and output schema: the context record of every model run holds
/// them verbatim, so they are a large, realistic share of the database's size per draft.
const SYSTEM_PROMPT: &str = include_str!("../../../prompts/system/v1.md");
const OUTPUT_SCHEMA: &str = include_str!("../../../schemas/request_draft/v1.json");

/// The paragraph every request with a legal part carries (from `legal_modules/common.toml`).
const COMMON_LEGAL: &str = "Согласно части 1 статьи 161 Жилищного кодекса РФ управление \
    многоквартирным домом должно обеспечивать благоприятные и безопасные условия проживания \
    граждан и надлежащее содержание общего имущества в доме. В соответствии с частью 2.3 той же \
    статьи управляющая организация несёт ответственность перед собственниками помещений в доме \
    за оказание всех услуг и (или) выполнение работ, которые обеспечивают надлежащее содержание \
    общего имущества в этом доме.";

/// One kind of problem: its subject code, what residents say about it, what they ask for, and
/// the subject's legal paragraph.
struct Subject {
    code: &'static str,
    title: &'static [&'static str],
    problems: &'static [&'static str],
    details: &'static [&'static str],
    actions: &'static [&'static str],
    legal: &'static str,
}

const SUBJECTS: [Subject; 6] = [
    Subject {
        code: "common_area_premises_lighting",
        title: &[
            "Не горит свет в подъезде",
            "Не работает освещение на лестнице",
            "Мигает светильник на площадке",
            "Нет освещения в тамбуре",
        ],
        problems: &[
            "не горит свет",
            "перегорела лампочка",
            "мигает светильник",
            "разбит плафон светильника",
            "датчик движения не срабатывает",
            "свет горит круглые сутки",
            "из патрона торчат оголённые провода",
            "лампа гудит и тускло светит",
            "выключатель искрит при нажатии",
        ],
        details: &[
            "вечером на ступенях ничего не видно",
            "приходится подсвечивать дорогу телефоном",
            "светильник висит на одном проводе",
            "на плафоне скопилась вода",
            "соседи сами вкрутили лампу, но она тоже погасла",
        ],
        actions: &[
            "Заменить лампы и проверить светильники на лестнице.",
            "Восстановить освещение в подъезде.",
            "Починить датчик движения и заменить плафон.",
            "Убрать оголённые провода и установить светильник.",
        ],
        legal: "Согласно подпункту «а» пункта 2 и пункту 7 Правил содержания общего имущества \
            в многоквартирном доме осветительные установки помещений общего пользования входят \
            в состав общего имущества, а его содержание включает освещение этих помещений.",
    },
    Subject {
        code: "common_area_roof",
        title: &[
            "Протекает крыша",
            "Течёт с потолка после дождя",
            "Сосульки над входом в подъезд",
            "Повреждена кровля",
        ],
        problems: &[
            "протекает крыша",
            "течёт с потолка на последнем этаже",
            "с карниза свисают огромные сосульки",
            "сорвало лист кровли",
            "намокает потолок в квартире",
            "на чердаке стоит вода",
            "водосточная труба оторвалась и висит",
            "снег с крыши не убирают",
        ],
        details: &[
            "после каждого дождя на потолке новые пятна",
            "штукатурка отслаивается кусками",
            "под крышей слышно, как капает вода",
            "жильцы подставляют тазы и вёдра",
            "сосульки падают прямо на тротуар у входа",
        ],
        actions: &[
            "Отремонтировать кровлю над подъездом.",
            "Сбить сосульки и очистить крышу от снега.",
            "Устранить протечку и закрепить водосточную трубу.",
            "Осмотреть чердак и заделать щели в кровле.",
        ],
        legal: "Согласно пункту 2 Правил содержания общего имущества в многоквартирном доме \
            крыши входят в состав общего имущества, а их содержание включает осмотр и текущий \
            ремонт, обеспечивающие защиту помещений от протечек.",
    },
    Subject {
        code: "common_area_elevator",
        title: &[
            "Не работает лифт",
            "Лифт застревает между этажами",
            "Неисправна кнопка вызова лифта",
            "Двери лифта закрываются рывком",
        ],
        problems: &[
            "лифт застревает между этажами",
            "не работает кнопка вызова",
            "двери лифта закрываются рывком",
            "кабина останавливается не на уровне пола",
            "лифт не ездит уже третий день",
            "в кабине не горит свет",
            "кнопка связи с диспетчером молчит",
            "лифт скрипит и трясётся на ходу",
        ],
        details: &[
            "пожилые соседи не могут подняться домой",
            "с коляской приходится нести ребёнка на руках",
            "диспетчер обещал прислать механика, но никто не пришёл",
            "вчера в кабине застрял подросток",
            "на табличке нет телефона аварийной службы",
        ],
        actions: &[
            "Отремонтировать лифт и проверить его безопасность.",
            "Починить кнопку вызова на этаже.",
            "Отрегулировать двери кабины лифта.",
            "Восстановить связь кабины с диспетчером.",
        ],
        legal: "Согласно пункту 2 Правил содержания общего имущества в многоквартирном доме \
            механическое оборудование, в том числе лифты, входит в состав общего имущества, \
            которое должно содержаться в исправном состоянии.",
    },
    Subject {
        code: "common_area_entrance_door",
        title: &[
            "Не закрывается входная дверь",
            "Сломан доводчик двери подъезда",
            "Не работает домофон",
            "Выбито стекло в двери подъезда",
        ],
        problems: &[
            "не закрывается входная дверь",
            "сломан доводчик",
            "домофон не открывает дверь",
            "дверь подъезда громко хлопает",
            "выбито стекло в тамбурной двери",
            "магнитный замок не держит",
            "дверь перекосило, и она не запирается",
            "ручка двери отвалилась",
        ],
        details: &[
            "в подъезд заходят посторонние",
            "зимой из щелей сильно дует",
            "ночью дверь стоит распахнутой",
            "ключ от домофона больше не подходит",
            "осколки стекла лежат у порога",
        ],
        actions: &[
            "Починить доводчик и отрегулировать входную дверь.",
            "Восстановить работу домофона.",
            "Вставить стекло в тамбурную дверь.",
            "Заменить замок входной двери.",
        ],
        legal: "Согласно пункту 2 Правил содержания общего имущества в многоквартирном доме \
            двери подъездов и тамбуров входят в состав общего имущества, а их содержание \
            включает поддержание в исправном состоянии.",
    },
    Subject {
        code: "common_area_premises_cleaning",
        title: &[
            "В подъезде не убирают",
            "Грязь на лестнице",
            "Неприятный запах в подъезде",
            "Мусор у почтовых ящиков",
        ],
        problems: &[
            "на лестнице не моют полы",
            "в подъезде не убирают уже месяц",
            "у почтовых ящиков лежит мусор",
            "в подъезде стоит неприятный запах",
            "мусоропровод забит",
            "на подоконниках толстый слой пыли",
            "в лифтовом холле разлита краска",
            "по ступеням разбросаны окурки",
        ],
        details: &[
            "уборщицу никто из жильцов давно не видел",
            "график уборки на стене не обновлялся",
            "летом в подъезде летают мухи",
            "дети пачкают одежду о перила",
            "объявления о субботнике не помогли",
        ],
        actions: &[
            "Провести влажную уборку подъезда.",
            "Очистить мусоропровод и камеру.",
            "Убрать мусор и вымыть лестницу.",
            "Соблюдать график уборки подъезда.",
        ],
        legal: "Согласно подпункту «г» пункта 11 Правил содержания общего имущества в \
            многоквартирном доме содержание общего имущества включает уборку и санитарно-\
            гигиеническую очистку помещений общего пользования.",
    },
    Subject {
        code: "common_area_ventilation",
        title: &[
            "Не работает вентиляция",
            "Нет тяги в вентиляционном канале",
            "Запах из вентиляции",
            "Сырость из-за вентиляции",
        ],
        problems: &[
            "не работает вытяжка",
            "в ванной нет тяги",
            "из вентиляции пахнет гарью",
            "в вентиляционной решётке дует обратная тяга",
            "на кухне запотевают окна",
            "в вентиляционном канале шумит и гудит",
            "из решётки сыплется мусор",
        ],
        details: &[
            "на стенах в ванной появилась плесень",
            "запахи соседей приходят в квартиру",
            "бумажка у решётки даже не шевелится",
            "после ремонта соседей сверху тяга пропала",
            "зеркало в ванной часами остаётся мокрым",
        ],
        actions: &[
            "Прочистить вентиляционный канал.",
            "Проверить тягу в вентиляции и устранить засор.",
            "Осмотреть вентиляционную шахту на чердаке.",
            "Восстановить работу вытяжной вентиляции.",
        ],
        legal: "Согласно пункту 2 Правил содержания общего имущества в многоквартирном доме \
            внутридомовые системы вентиляции входят в состав общего имущества, а их \
            содержание включает проверку и очистку каналов.",
    },
];

const PLACES: &[&str] = &[
    "в подъезде",
    "на лестничной площадке {ord} этажа",
    "на пролёте между {ord} и {ord2} этажами",
    "в тамбуре у входа",
    "в холле первого этажа",
    "у почтовых ящиков",
    "на техническом этаже",
    "у лифта на {ord} этаже",
    "в колясочной",
    "на чердаке над нашей квартирой",
    "в подвале под подъездом",
    "у мусоропровода",
    "на крыльце подъезда",
    "возле квартиры {flat}",
    "в коридоре нашего этажа",
];

const ORDINALS: &[&str] = &[
    "первого",
    "второго",
    "третьего",
    "четвёртого",
    "пятого",
    "шестого",
    "седьмого",
    "восьмого",
    "девятого",
    "десятого",
    "двенадцатого",
    "шестнадцатого",
];

const STREETS: &[&str] = &[
    "Лесная",
    "Садовая",
    "Школьная",
    "Молодёжная",
    "Зелёная",
    "Берёзовая",
    "Солнечная",
    "Полевая",
    "Речная",
    "Заводская",
    "Строителей",
    "Гагарина",
    "Победы",
    "Мира",
    "Советская",
    "Пушкина",
    "Ленина",
    "Тополиная",
    "Озёрная",
    "Вокзальная",
    "Кирова",
    "Чкалова",
    "Набережная",
    "Цветочная",
];

const SINCE: &[&str] = &[
    "уже неделю",
    "третий день",
    "с прошлого понедельника",
    "с начала месяца",
    "после ремонта фасада",
    "каждую ночь",
    "после сильного дождя",
    "с новогодних праздников",
    "вторую неделю подряд",
    "с тех пор как сменилась управляющая компания",
    "уже почти месяц",
    "с позавчерашнего вечера",
];

const IMPACTS: &[&str] = &[
    "Жильцы спотыкаются в темноте, и кто-нибудь может упасть.",
    "Пожилые соседи боятся выходить из квартиры.",
    "Дети поскользнулись на мокрых ступенях.",
    "На стене появилась плесень, и пахнет сыростью.",
    "Вода может попасть в электрощиток на этаже.",
    "Соседи с маленькими детьми не могут нормально выйти на прогулку.",
    "Курьеры и врачи скорой помощи не могут найти нужную квартиру.",
    "В подъезде стало холодно, батареи не справляются.",
    "Посторонние ночуют на лестнице между этажами.",
    "Жильцы жалуются на головную боль от запаха.",
    "Ёлки после праздников так и стоят на площадке и мешают проходу.",
    "Кошки из подвала забегают в подъезд.",
];

const VERIFICATIONS: &[&str] = &[
    "Причину неисправности нужно установить при осмотре.",
    "Прошу сообщить, когда придёт мастер, чтобы кто-то из жильцов мог его встретить.",
    "Неизвестно, связана ли неисправность с недавним ремонтом, это стоит проверить.",
    "Нужно проверить, не повреждена ли проводка на соседних этажах.",
    "Возможно, такая же проблема есть и в соседнем подъезде.",
];

const OPENINGS: &[&str] = &[
    "Здравствуйте.",
    "Добрый день.",
    "Обращаюсь как жилец дома.",
    "Пишу уже не первый раз.",
    "",
    "",
];

/// Phrases that each appear in about one draft in two thousand, so that a search for one of
/// their words measures a query with few matches.
const RARE: &[&str] = &[
    "на крыше скрипит сорванный флюгер",
    "в подвале завелись хорьки",
    "на лестнице лежит старый граммофон",
    "под окнами гнездятся цапли",
    "у входа ржавеет брошенный самокат-гироскутер",
    "в шахте лифта застрял воздушный змей",
    "на чердаке нашли осиное гнездо размером с арбуз",
    "в подъезде сработал извещатель дымоудаления",
];

const WARNINGS: &[&str] = &[
    "Проверьте номер подъезда и этаж перед отправкой.",
    "Укажите, как с вами связаться, если управляющая компания попросит.",
    "Если проблема опасна для жизни, позвоните в аварийно-диспетчерскую службу.",
];

const OMISSIONS: &[&str] = &[
    "not_confirmed",
    "no_model_subject",
    "subject_mismatch",
    "evidence_not_verbatim",
];

/// A small fixed-seed generator (SplitMix64): the benchmark needs the same drafts on every
/// run, and the store's crate takes no random-number dependency for an example.
struct Generator(u64);

impl Generator {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound`.
    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    /// True in `percent` cases out of a hundred.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Capitalises the first letter, as a sentence starts.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect::<String>() + ".",
        None => String::new(),
    }
}

fn place(generator: &mut Generator) -> String {
    let first = generator.below(ORDINALS.len() - 1);
    generator
        .pick(PLACES)
        .replace("{ord}", ORDINALS[first])
        .replace("{ord2}", ORDINALS[first + 1])
        .replace("{flat}", &(1 + generator.below(240)).to_string())
}

/// One resident's problem, with the parts both the input and the request are made from.
struct Story {
    subject: &'static Subject,
    title: String,
    problem: String,
    circumstances: String,
    impact: String,
    verification: String,
    location: String,
    action: String,
    description: String,
    consequences: Option<String>,
}

fn story(generator: &mut Generator) -> Story {
    let subject = &SUBJECTS[generator.below(SUBJECTS.len())];
    let here = place(generator);
    let since = generator.pick(SINCE);
    let problem = sentence(&format!(
        "{here} {} {since}",
        generator.pick(subject.problems)
    ));
    let mut circumstances = format!(
        "{} {}",
        sentence(generator.pick(subject.details)),
        sentence(generator.pick(subject.details))
    );
    circumstances.push(' ');
    circumstances.push_str(&sentence(&format!(
        "кроме того, {} {}",
        place(generator),
        generator.pick(subject.problems)
    )));
    if generator.below(2000) < RARE.len() {
        circumstances.push(' ');
        circumstances.push_str(&sentence(generator.pick(RARE)));
    }
    let impact = format!(
        "{} {} {}",
        generator.pick(IMPACTS),
        generator.pick(IMPACTS),
        generator.pick(IMPACTS)
    );
    let verification = format!(
        "{} {}",
        generator.pick(VERIFICATIONS),
        generator.pick(VERIFICATIONS)
    );
    let entrance = 1 + generator.below(8);
    let location = format!(
        "улица {}, дом {}, подъезд {entrance}, {} этаж",
        generator.pick(STREETS),
        1 + generator.below(120),
        1 + generator.below(16)
    );
    let opening = generator.pick(OPENINGS);
    let description = [opening, &problem, &circumstances]
        .iter()
        .filter(|part| !part.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    Story {
        subject,
        title: format!("{}, подъезд {entrance}", generator.pick(subject.title)),
        problem,
        circumstances,
        verification,
        location,
        action: generator.pick(subject.actions).to_owned(),
        description,
        consequences: generator.chance(60).then(|| impact.clone()),
        impact,
    }
}

/// The input as typed (only the fields the resident filled in) and as checked (every field,
/// absent ones as `null`, as the engine serialises `RawInput`).
fn inputs(story: &Story, confirmed: bool) -> (Value, Value) {
    let confirmed_subject = confirmed.then_some(story.subject.code);
    let mut raw = json!({
        "description": story.description,
        "location": story.location,
        "desired_actions": story.action,
    });
    if let Some(consequences) = &story.consequences {
        raw["consequences"] = json!(consequences);
    }
    if let Some(code) = confirmed_subject {
        raw["confirmed_subject"] = json!(code);
    }
    let checked = json!({
        "description": story.description,
        "location": story.location,
        "consequences": story.consequences,
        "desired_actions": story.action,
        "confirmed_subject": confirmed_subject,
    });
    (raw, checked)
}

/// A ready request shaped like the engine's serialised `Request`: the body rendered from the
/// sections in their fixed order, then the one «Прошу:» item.
fn request(story: &Story, subject_included: bool, generator: &mut Generator) -> (Value, String) {
    let mut sections = vec![
        ("problem", "model", None, story.problem.clone()),
        ("circumstances", "model", None, story.circumstances.clone()),
        ("impact", "model", None, story.impact.clone()),
        ("verification", "model", None, story.verification.clone()),
        (
            "legal",
            "legal_catalogue",
            Some("common"),
            COMMON_LEGAL.to_owned(),
        ),
    ];
    if subject_included {
        sections.push((
            "legal",
            "legal_catalogue",
            Some(story.subject.code),
            story.subject.legal.to_owned(),
        ));
    }
    let mut body = sections
        .iter()
        .map(|(_, _, _, text)| text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n");
    body.push_str("\n\nПрошу:\n1. ");
    body.push_str(&story.action);
    let warnings: Vec<&str> = (0..generator.below(3))
        .map(|_| generator.pick(WARNINGS))
        .collect();
    let document = json!({
        "title": story.title,
        "body": body,
        "items": [story.action],
        "subject_module": subject_included.then_some(story.subject.code),
        "legal_omission": (!subject_included).then(|| generator.pick(OMISSIONS)),
        "warnings": warnings,
        "sections": sections
            .iter()
            .map(|(kind, source, module, text)| json!({
                "kind": kind, "source": source, "module": module, "text": text,
            }))
            .collect::<Vec<_>>(),
        "item": { "text": story.action, "source": "resident_request" },
    });
    (document, body)
}

fn attempt(number: u32, started_at_unix_ms: u64, status: u16) -> NewAttempt {
    NewAttempt {
        number,
        started_at_unix_ms,
        duration_ms: 900 + u64::from(number) * 130,
        http_status: Some(status),
        error_kind: (status != 200).then(|| "unavailable".to_owned()),
        retry_reason: (status != 200).then(|| format!("http_{status}")),
        prompt_tokens: (status == 200).then_some(4_100),
        completion_tokens: (status == 200).then_some(420),
        total_tokens: (status == 200).then_some(4_520),
        cost: (status == 200).then_some(0.0031),
    }
}

/// The context record of one model run, shaped like the engine's `ContextRecord`: the exact
/// messages (the whole system prompt and the resident's words), the transport schema, the raw
/// response and its attempts.
fn context_record(
    checked: &Value,
    reply: Option<&Value>,
    attempts: &[NewAttempt],
) -> NewContextRecord {
    let model_view = json!({
        "description": checked["description"],
        "location": checked["location"],
        "consequences": checked["consequences"],
        "desired_actions": checked["desired_actions"],
    });
    let schema: Value = serde_json::from_str(OUTPUT_SCHEMA).expect("the released schema is JSON");
    let responses: Vec<Value> = reply
        .map(|reply| {
            let content = reply.to_string();
            json!({
                "reask": [],
                "raw_body": json!({
                    "id": "chatcmpl-bench",
                    "object": "chat.completion",
                    "model": "bench-model",
                    "choices": [{
                        "index": 0,
                        "message": { "role": "assistant", "content": content },
                        "finish_reason": "stop",
                    }],
                    "usage": { "prompt_tokens": 4_100, "completion_tokens": 420, "total_tokens": 4_520 },
                })
                .to_string(),
                "reply": { "content": content, "refusal": null, "finish_reason": "stop" },
                "usage": { "prompt_tokens": 4_100, "completion_tokens": 420, "total_tokens": 4_520 },
                "verdict": "accepted",
            })
        })
        .into_iter()
        .collect();
    let record_json = json!({
        "format_version": 1,
        "app_version": "0.1.0",
        "input": checked,
        "prompt_version": "v1",
        "prompt_sha256": "a".repeat(64),
        "schema_id": "request_draft/v1",
        "schema_version": 1,
        "schema_sha256": "b".repeat(64),
        "transport_schema_sha256": "c".repeat(64),
        "transport_schema": schema,
        "legal_catalogue_version": "2026.1",
        "provider_profile": "default",
        "provider_host": "api.example.ru",
        "model": "bench-model",
        "temperature": 0.2,
        "max_tokens": 1_500,
        "schema_mode": "json_schema",
        "messages": [
            { "role": "system", "content": SYSTEM_PROMPT },
            { "role": "user", "content": model_view.to_string() },
        ],
        "responses": responses,
        "attempts": attempts.iter().map(|a| json!({
            "number": a.number,
            "started_at_unix_ms": a.started_at_unix_ms,
            "duration_ms": a.duration_ms,
            "http_status": a.http_status,
            "error_kind": a.error_kind,
            "retry_reason": a.retry_reason,
        })).collect::<Vec<_>>(),
        "usage": { "prompt_tokens": 4_100, "completion_tokens": 420, "total_tokens": 4_520 },
        "cost": 0.0031,
    });
    NewContextRecord {
        format_version: 1,
        record_json: record_json.to_string(),
        app_version: "0.1.0".to_owned(),
        prompt_version: "v1".to_owned(),
        prompt_sha256: "a".repeat(64),
        schema_id: "request_draft/v1".to_owned(),
        schema_version: 1,
        schema_sha256: "b".repeat(64),
        transport_schema_sha256: Some("c".repeat(64)),
        legal_catalogue_version: "2026.1".to_owned(),
        provider_profile: "default".to_owned(),
        provider_host: "api.example.ru".to_owned(),
        model: "bench-model".to_owned(),
    }
}

/// Counts of what was written, printed at the end.
#[derive(Default)]
struct Tally {
    ready: u64,
    needs_user: u64,
    rejected: u64,
    failed: u64,
    invalid_input: u64,
    pending: u64,
}

/// Writes one draft as the engine would, choosing its outcome with the mix a real installation
/// sees: mostly ready, some needing the resident, a few rejected, failed, refused or pending.
fn write_one(
    store: &Store,
    generator: &mut Generator,
    tally: &mut Tally,
    clock_ms: u64,
) -> Result<(), StoreError> {
    let story = story(generator);
    let confirmed = generator.chance(55);
    let (raw, checked) = inputs(&story, confirmed);
    let roll = generator.below(100);
    let invalid = roll >= 97;
    let id = store.create_draft(&NewDraft {
        raw_input_json: raw.to_string(),
        checked_input_json: (!invalid).then(|| checked.to_string()),
    })?;
    let mut attempts = Vec::new();
    if generator.chance(8) {
        attempts.push(attempt(1, clock_ms, 503));
    }
    let retried = attempts.len() as u32;
    let blank = FinishedDraft {
        outcome: FinalOutcome::Ready,
        reason: None,
        retryable: None,
        title: None,
        body: None,
        request_json: None,
        warnings_json: "[]".to_owned(),
        subject_module: None,
        legal_omission: None,
        model_used: true,
    };
    let (finished, record) = match roll {
        0..=69 => {
            attempts.push(attempt(retried + 1, clock_ms + 2_000, 200));
            let subject_included = confirmed && generator.chance(85);
            let (document, body) = request(&story, subject_included, generator);
            tally.ready += 1;
            let finished = FinishedDraft {
                title: Some(story.title.clone()),
                body: Some(body),
                request_json: Some(document.to_string()),
                warnings_json: document["warnings"].to_string(),
                subject_module: subject_included.then(|| story.subject.code.to_owned()),
                legal_omission: document["legal_omission"].as_str().map(str::to_owned),
                ..blank
            };
            let reply = json!({
                "outcome": "draft",
                "title": story.title,
                "problem": story.problem,
                "circumstances": story.circumstances,
                "impact": story.impact,
                "verification": story.verification,
            });
            (
                finished,
                Some(context_record(&checked, Some(&reply), &attempts)),
            )
        }
        70..=79 => {
            attempts.push(attempt(retried + 1, clock_ms + 2_000, 200));
            tally.needs_user += 1;
            let reason = if generator.chance(50) {
                "multiple_problems"
            } else {
                "insufficient_information"
            };
            let reply = json!({ "outcome": reason, "title": null });
            let finished = FinishedDraft {
                outcome: FinalOutcome::NeedsUser,
                reason: Some(reason.to_owned()),
                ..blank
            };
            (
                finished,
                Some(context_record(&checked, Some(&reply), &attempts)),
            )
        }
        80..=86 => {
            attempts.push(attempt(retried + 1, clock_ms + 2_000, 200));
            tally.rejected += 1;
            let reply = json!({ "outcome": "draft", "title": story.title, "problem": "" });
            let finished = FinishedDraft {
                outcome: FinalOutcome::Rejected,
                reason: Some("semantic_violation".to_owned()),
                ..blank
            };
            (
                finished,
                Some(context_record(&checked, Some(&reply), &attempts)),
            )
        }
        87..=94 => {
            attempts.push(attempt(retried + 1, clock_ms + 2_000, 503));
            tally.failed += 1;
            let finished = FinishedDraft {
                outcome: FinalOutcome::Failed,
                reason: Some(
                    generator
                        .pick(&["timeout", "unavailable", "rate_limited"])
                        .to_owned(),
                ),
                retryable: Some(true),
                ..blank
            };
            (finished, Some(context_record(&checked, None, &attempts)))
        }
        95..=96 => {
            // Interrupted during the call: the input is stored, nothing else.
            tally.pending += 1;
            return Ok(());
        }
        _ => {
            tally.invalid_input += 1;
            let finished = FinishedDraft {
                outcome: FinalOutcome::InvalidInput,
                reason: Some("invalid_input".to_owned()),
                model_used: false,
                ..blank
            };
            attempts.clear();
            (finished, None)
        }
    };
    store.finish_draft(id, &finished, record.as_ref(), &attempts)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: populate DB_PATH N";
    let path = PathBuf::from(args.next().ok_or(usage)?);
    let count: u64 = args.next().ok_or(usage)?.parse().map_err(|_| usage)?;
    if path.exists() {
        return Err(format!("{} exists; remove it first", path.display()).into());
    }
    let store = Store::open(&path)?;
    let mut generator = Generator(7);
    let mut tally = Tally::default();
    let started = Instant::now();
    let clock_ms = 1_780_000_000_000;
    for index in 0..count {
        write_one(
            &store,
            &mut generator,
            &mut tally,
            clock_ms + index * 60_000,
        )?;
        if (index + 1) % 10_000 == 0 {
            eprintln!(
                "{} drafts, {:.1} s",
                index + 1,
                started.elapsed().as_secs_f64()
            );
        }
    }
    store.checkpoint()?;
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "wrote {count} drafts to {} in {seconds:.1} s ({:.0} drafts/s, two transactions each): \
         ready {}, needs_user {}, rejected {}, failed {}, invalid_input {}, pending {}",
        path.display(),
        count as f64 / seconds,
        tally.ready,
        tally.needs_user,
        tally.rejected,
        tally.failed,
        tally.invalid_input,
        tally.pending,
    );
    Ok(())
}
