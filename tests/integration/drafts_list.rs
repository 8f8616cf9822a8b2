//! `zayavka drafts list` and `drafts search` as a resident reads them (issue 14): drafts made
//! without a model titled with the resident's own first words, the first words of every
//! description under each title, and the time of each draft on the resident's own clock.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::support::{run, zayavka};

/// Ten problems in one entrance, as an activist saves them one after another: before issue 14
/// every one of them was titled «Заявка о проблеме в доме».
const DESCRIPTIONS: [&str; 10] = [
    "В подъезде 2 на лестнице между третьим и четвёртым этажами неделю не горит свет, вечером \
     ничего не видно.",
    "В подъезде 2 на пятом этаже разбито окно, дует и в подъезде холодно.",
    "В подъезде 2 не закрывается входная дверь,\nдоводчик сломан и дверь стоит открытой всю ночь.",
    "в подъезде 2 не работает лифт, пожилые соседи с девятого этажа не могут выйти из дома.",
    "В подъезде 2 не убирают лестницу третью неделю, на ступенях мусор и грязь.",
    "В подъезде 2 протекает крыша над девятым этажом, после дождя на лестнице лужи.",
    "В подъезде 2 из вентиляции на кухнях пахнет гарью с прошлой пятницы.",
    "В подъезде 2 сломаны почтовые ящики, письма пропадают.",
    "В подъезде 2 в подвале стоит вода, пахнет сыростью.",
    "В подъезде 2 ёлку 🎄 у входа сломали, осколки игрушек на ступеньках у самой двери подъезда.",
];

fn zayavka_in(home: &Path, tz: &str) -> std::process::Command {
    let mut command = zayavka();
    command.env("ZAYAVKA_HOME", home).env("TZ", tz);
    command
}

fn offline_draft(home: &Path, description: &str) -> Value {
    let (output, stdout, stderr) = run(zayavka_in(home, "UTC0").args([
        "draft",
        "--offline",
        "--json",
        "--description",
        description,
    ]));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

fn json_list(home: &Path, args: &[&str]) -> Vec<Value> {
    let (output, stdout, stderr) = run(zayavka_in(home, "UTC0").args(args));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    serde_json::from_str::<Value>(&stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn text(value: &Value) -> &str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("a string: {value}"))
}

#[test]
fn issue_14_ten_offline_drafts_list_with_ten_titles_and_ten_previews() {
    let home = tempfile::tempdir().unwrap();
    for description in DESCRIPTIONS {
        let report = offline_draft(home.path(), description);
        let request = &report["request"];
        assert_eq!(request["title_source"], "resident", "{request}");
        let title = text(&request["title"]);
        assert_ne!(title, "Заявка о проблеме в доме");
        assert!(title.chars().count() <= 60, "{title}");
        assert!(title.starts_with("В подъезде 2"), "{title}");
    }

    let listed = json_list(home.path(), &["drafts", "list", "--json"]);
    assert_eq!(listed.len(), 10);
    let titles: BTreeSet<&str> = listed.iter().map(|d| text(&d["title"])).collect();
    let previews: BTreeSet<&str> = listed.iter().map(|d| text(&d["preview"])).collect();
    assert_eq!(titles.len(), 10, "{titles:?}");
    assert_eq!(previews.len(), 10, "{previews:?}");
    for draft in &listed {
        let preview = text(&draft["preview"]);
        assert!(preview.chars().count() <= 80, "{preview}");
        assert!(!preview.contains('\n'), "{preview}");
        // The resident's words, from the start of the description, cut only at a word.
        let description = text(&draft["input"]["description"]).replace('\n', " ");
        match preview.strip_suffix('…') {
            Some(start) => {
                assert!(description.starts_with(start), "{preview}");
                let next = description[start.len()..].chars().next();
                assert!(
                    next.is_some_and(|c| c == ' ' || c == ','),
                    "cut inside a word: {preview}"
                );
            }
            None => assert_eq!(preview, description),
        }
        // RFC 3339 in JSON, as before.
        assert!(
            text(&draft["created_at"])
                .parse::<jiff::Timestamp>()
                .is_ok()
        );
    }
    // Newest first: the last draft, with its emoji and «ё» whole.
    assert_eq!(
        listed[0]["title"],
        "В подъезде 2 ёлку 🎄 у входа сломали, осколки игрушек на…"
    );
    assert_eq!(
        listed[0]["preview"],
        "В подъезде 2 ёлку 🎄 у входа сломали, осколки игрушек на ступеньках у самой…"
    );
    // A description with a line break and a small first letter: one line, capitalised title.
    let lift = listed
        .iter()
        .find(|d| text(&d["preview"]).contains("лифт"))
        .unwrap();
    assert_eq!(
        lift["title"],
        "В подъезде 2 не работает лифт, пожилые соседи с девятого…"
    );
    assert_eq!(
        lift["preview"],
        "в подъезде 2 не работает лифт, пожилые соседи с девятого этажа не могут выйти…"
    );

    // The text list: a heading per draft and its preview under it, ten of each, all different.
    let (output, stdout, stderr) = run(zayavka_in(home.path(), "UTC0").args(["drafts", "list"]));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 20, "{stdout}");
    for (pair, draft) in lines.chunks(2).zip(&listed) {
        assert!(
            pair[0].starts_with(&format!("№ {} · ", draft["id"])),
            "{stdout}"
        );
        assert!(pair[0].ends_with(text(&draft["title"])), "{stdout}");
        assert_eq!(pair[1], format!("    {}", text(&draft["preview"])));
    }
    assert_eq!(lines.iter().collect::<BTreeSet<_>>().len(), 20);
    assert!(!stdout.contains("Заявка о проблеме в доме"));

    // Search shows drafts the same way.
    let found = json_list(home.path(), &["drafts", "search", "лифт", "--json"]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0]["preview"], lift["preview"]);
    let (output, stdout, _) =
        run(zayavka_in(home.path(), "UTC0").args(["drafts", "search", "подвале"]));
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert_eq!(
        stdout.lines().nth(1),
        Some("    В подъезде 2 в подвале стоит вода, пахнет сыростью.")
    );
}

/// «2 декабря 2026 г., 14:05» on the clock `tz` names.
fn local_ru(created_at: &str, tz: &jiff::tz::TimeZone) -> String {
    const MONTHS: [&str; 12] = [
        "января",
        "февраля",
        "марта",
        "апреля",
        "мая",
        "июня",
        "июля",
        "августа",
        "сентября",
        "октября",
        "ноября",
        "декабря",
    ];
    let local = created_at
        .parse::<jiff::Timestamp>()
        .unwrap()
        .to_zoned(tz.clone());
    format!(
        "{} {} {} г., {:02}:{:02}",
        local.day(),
        MONTHS[usize::try_from(local.month()).unwrap() - 1],
        local.year(),
        local.hour(),
        local.minute()
    )
}

#[test]
fn issue_14_drafts_list_prints_local_time_in_russian_and_json_keeps_rfc_3339() {
    let home = tempfile::tempdir().unwrap();
    offline_draft(home.path(), DESCRIPTIONS[7]);
    let listed = json_list(home.path(), &["drafts", "list", "--json"]);
    let created_at = text(&listed[0]["created_at"]);
    assert!(created_at.ends_with('Z'), "{created_at}");

    let moscow = jiff::tz::TimeZone::fixed(jiff::tz::offset(3));
    let vladivostok = jiff::tz::TimeZone::fixed(jiff::tz::offset(10));
    for (tz, zone) in [
        ("MSK-3", &moscow),
        ("<+10>-10", &vladivostok),
        ("UTC0", &jiff::tz::TimeZone::UTC),
    ] {
        let (output, stdout, stderr) = run(zayavka_in(home.path(), tz).args(["drafts", "list"]));
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        let heading = stdout.lines().next().unwrap();
        let expected = format!("№ 1 · {} · готов · ", local_ru(created_at, zone));
        assert!(heading.starts_with(&expected), "TZ={tz}: {heading}");
        assert!(!heading.contains(created_at), "{heading}");
    }
    // `drafts show` heads the draft the same way.
    let (_, stdout, _) = run(zayavka_in(home.path(), "MSK-3").args(["drafts", "show", "1"]));
    assert!(
        stdout.starts_with(&format!("№ 1 · {} · ", local_ru(created_at, &moscow))),
        "{stdout}"
    );
}

/// A draft made without a model before issue 14 keeps its stored request and title; it reads
/// back with its title marked as the program's, and replaying it still says there is no model
/// response to repeat.
#[test]
fn issue_14_an_old_offline_draft_keeps_its_title_and_reads_back_as_standard() {
    let home = tempfile::tempdir().unwrap();
    let report = offline_draft(home.path(), DESCRIPTIONS[8]);
    let id = zayavka_store::DraftId::new(report["draft_id"].as_i64().unwrap()).unwrap();

    // Rewrite the stored draft as an earlier version stored it: the fixed title, and no
    // `title_source` in the request document.
    let mut request = report["request"].clone();
    request["title"] = "Заявка о проблеме в доме".into();
    request.as_object_mut().unwrap().remove("title_source");
    let store = zayavka_store::Store::open(&home.path().join("data/zayavka.sqlite3")).unwrap();
    let input = serde_json::json!({"description": DESCRIPTIONS[8]}).to_string();
    store
        .reassemble_draft(
            id,
            &zayavka_store::NewDraft {
                raw_input_json: input.clone(),
                checked_input_json: Some(input),
            },
            &zayavka_store::FinishedDraft {
                outcome: zayavka_store::FinalOutcome::Ready,
                reason: None,
                retryable: None,
                title: Some("Заявка о проблеме в доме".into()),
                body: Some(text(&request["body"]).to_owned()),
                request_json: Some(request.to_string()),
                warnings_json: request["warnings"].to_string(),
                subject_module: None,
                legal_omission: Some("no_model_subject".into()),
                model_used: false,
            },
        )
        .unwrap();
    drop(store);

    let listed = json_list(home.path(), &["drafts", "list", "--json"]);
    assert_eq!(listed[0]["title"], "Заявка о проблеме в доме");
    assert_eq!(
        listed[0]["preview"],
        "В подъезде 2 в подвале стоит вода, пахнет сыростью."
    );
    let (output, stdout, stderr) =
        run(zayavka_in(home.path(), "UTC0").args(["drafts", "show", &id.to_string(), "--json"]));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let shown: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(shown["request"]["title"], "Заявка о проблеме в доме");
    assert_eq!(shown["request"]["title_source"], "standard");
    assert_eq!(shown["request"]["body"], report["request"]["body"]);

    // Nothing to replay, exactly as before: no «changed», no new title.
    let (output, stdout, stderr) =
        run(zayavka_in(home.path(), "UTC0").args(["replay", &id.to_string()]));
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("нет ответа модели"), "{stderr}");
    assert!(!stderr.contains("отличается"), "{stderr}");
}
