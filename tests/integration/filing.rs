//! After the request is filed (issue 30), through the real `zayavka` binary with a fixed clock
//! (`ZAYAVKA_TODAY`): marking drafts filed, the deadline counted over the New Year holidays, a
//! letter's deadline waiting for its delivery, `drafts due` listing what is overdue first, the
//! answer and the closing, the case in `drafts show --json` and `drafts list`, a filed draft's
//! text refused for editing and corrected in a new draft, every bad date refused with nothing
//! changed, and the case gone with its draft.

use std::path::Path;

use serde_json::Value;

use crate::support::{run, zayavka};

/// Runs the binary with `today` fixed, as the store's clock too (a debug build's
/// `ZAYAVKA_STORE_NOW`), so that the drafts are written on the days the tests file them on,
/// whatever day the tests run.
fn cli(home: &Path, today: &str, args: &[&str]) -> (i32, String, String) {
    let (output, stdout, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home)
        .env("ZAYAVKA_TODAY", today)
        .env("ZAYAVKA_STORE_NOW", format!("{today}T09:00:00Z"))
        .env("TZ", "UTC0")
        .args(args));
    (output.status.code().unwrap_or(-1), stdout, stderr)
}

fn ok(home: &Path, today: &str, args: &[&str]) -> String {
    let (code, stdout, stderr) = cli(home, today, args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

fn json(home: &Path, today: &str, args: &[&str]) -> Value {
    serde_json::from_str(&ok(home, today, args)).unwrap()
}

fn offline_draft(home: &Path, description: &str) -> String {
    let report = json(
        home,
        "2026-12-01",
        &["draft", "--offline", "--json", "--description", description],
    );
    report["draft_id"]
        .as_i64()
        .map(|id| id.to_string())
        .unwrap_or_else(|| panic!("a draft id: {report}"))
}

#[test]
fn a_filed_request_waits_is_overdue_is_answered_and_is_closed() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let light = offline_draft(home, "В подъезде неделю не горит свет на третьем этаже.");
    let roof = offline_draft(home, "Течёт крыша над пятым этажом, на лестнице лужи.");

    // Filed in person on Thursday 24 December: ten working days run past the New Year
    // holidays to Monday 18 January 2027.
    let out = ok(
        home,
        "2026-12-24",
        &[
            "drafts",
            "filed",
            &light,
            "--date",
            "2026-12-24",
            "--how",
            "in_person",
            "--number",
            "Вх. № 17/А",
            "--to",
            "ООО «УК Восход»",
        ],
    );
    assert!(out.contains("отмечен поданным 24 декабря 2026 г."), "{out}");
    assert!(out.contains("не позднее 18 января 2027 г."), "{out}");
    assert!(out.contains("10 рабочих дней"), "{out}");
    assert!(
        out.contains("ещё не сверены"),
        "the unverified data say so: {out}"
    );

    // A letter: no deadline until it is delivered, then one from the delivery.
    let out = ok(
        home,
        "2026-12-10",
        &[
            "drafts",
            "filed",
            &roof,
            "--date",
            "2026-12-04",
            "--how",
            "letter",
        ],
    );
    assert!(out.contains("начнётся со дня вручения"), "{out}");
    let shown = json(home, "2026-12-10", &["drafts", "show", &roof, "--json"]);
    assert_eq!(shown["case"]["deadline"]["state"], "awaiting_delivery");
    assert_eq!(shown["case"]["state"]["state"], "awaiting_delivery");
    let (code, _, stderr) = cli(home, "2026-12-10", &["drafts", "calendar", &roof]);
    assert_eq!(code, 2);
    assert!(stderr.contains("письмо ещё не вручено"), "{stderr}");
    let out = ok(
        home,
        "2026-12-10",
        &["drafts", "filed", &roof, "--delivered", "2026-12-08"],
    );
    assert!(out.contains("не позднее 22 декабря 2026 г."), "{out}");

    // On 28 December the letter is overdue and the other still waits.
    let due = ok(home, "2026-12-28", &["drafts", "due"]);
    let roof_line = due
        .find(&format!("№ {roof} · срок ответа истёк 6 дней назад"))
        .expect(&due);
    let light_line = due
        .find(&format!("№ {light} · ждём ответа до 18 января 2027 г."))
        .expect(&due);
    assert!(roof_line < light_line, "overdue first:\n{due}");
    assert!(due.contains("вх. Вх. № 17/А"), "{due}");
    let listed = ok(home, "2026-12-28", &["drafts", "list"]);
    assert!(
        listed.contains("Подана 4 декабря 2026 г. · срок ответа истёк 6 дней назад"),
        "{listed}"
    );
    let listed = json(home, "2026-12-28", &["drafts", "list", "--json"]);
    let with_case: Vec<&Value> = listed
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["case"].is_object())
        .collect();
    assert_eq!(with_case.len(), 2);

    // The whole case in `show --json`: the filing, the deadline and where it came from.
    let shown = json(home, "2026-12-28", &["drafts", "show", &light, "--json"]);
    let case = &shown["case"];
    assert_eq!(case["case"]["filing"]["filed_on"], "2026-12-24");
    assert_eq!(case["case"]["filing"]["method"], "in_person");
    assert_eq!(case["case"]["filing"]["number"], "Вх. № 17/А");
    assert_eq!(case["case"]["filing"]["addressee"], "ООО «УК Восход»");
    assert_eq!(case["term"], "management_company");
    assert_eq!(case["deadline"]["due"], "2027-01-18");
    assert_eq!(
        case["deadline"]["calendar_years"],
        serde_json::json!([2026, 2027])
    );
    assert_eq!(case["deadline"]["verified"], false);
    assert!(
        case["term_sources"][0].as_str().unwrap().contains("№ 416"),
        "{case}"
    );
    assert_eq!(case["state"]["state"], "waiting");
    assert_eq!(case["state_ru"], "ждём ответа до 18 января 2027 г.");

    // The deadline as an event for the resident's calendar, in a folder with a Cyrillic name;
    // the same event on standard output without --out.
    let folder = home.join("Мои сроки");
    std::fs::create_dir(&folder).unwrap();
    let ics = folder.join("срок.ics");
    ok(
        home,
        "2026-12-28",
        &["drafts", "calendar", &light, "--out", ics.to_str().unwrap()],
    );
    let event = std::fs::read_to_string(&ics).unwrap();
    assert!(event.contains("DTSTART;VALUE=DATE:20270118\r\n"), "{event}");
    assert!(event.contains("BEGIN:VALARM"), "{event}");
    let printed = ok(home, "2026-12-28", &["drafts", "calendar", &light]);
    let without_stamp = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|line| !line.starts_with("DTSTAMP"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(without_stamp(&printed), without_stamp(&event));

    // The answer, late; then the case closed and opened again.
    let out = ok(
        home,
        "2026-12-28",
        &[
            "drafts",
            "answer",
            &roof,
            "--date",
            "2026-12-28",
            "--result",
            "partly",
        ],
    );
    assert!(out.contains("позже срока (22 декабря 2026 г.)"), "{out}");
    let shown = json(home, "2026-12-28", &["drafts", "show", &roof, "--json"]);
    assert_eq!(
        shown["case"]["state"],
        serde_json::json!({"state": "answered", "result": "partly", "on_time": false})
    );
    ok(home, "2026-12-29", &["drafts", "close", &roof]);
    let shown = json(home, "2026-12-29", &["drafts", "show", &roof, "--json"]);
    assert_eq!(shown["case"]["case"]["closed_on"], "2026-12-29");
    let due = ok(home, "2026-12-29", &["drafts", "due"]);
    assert!(
        !due.contains(&format!("№ {roof} ")),
        "closed cases are left out:\n{due}"
    );
    let due = ok(home, "2026-12-29", &["drafts", "due", "--all"]);
    assert!(
        due.contains(&format!("№ {roof} · закрыто 29 декабря")),
        "{due}"
    );
    ok(home, "2026-12-29", &["drafts", "reopen", &roof]);
    let shown = json(home, "2026-12-29", &["drafts", "show", &roof, "--json"]);
    assert_eq!(shown["case"]["case"]["closed_on"], Value::Null);

    // Deleted, the draft takes its case along.
    ok(home, "2026-12-29", &["drafts", "delete", &roof]);
    let due = json(home, "2026-12-29", &["drafts", "due", "--json"]);
    assert_eq!(due.as_array().unwrap().len(), 1);
}

#[test]
fn a_filed_draft_keeps_its_text_and_a_correction_is_a_new_linked_draft() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let id = offline_draft(
        home,
        "Не закрывается входная дверь подъезда, сломан доводчик.",
    );
    ok(
        home,
        "2026-12-02",
        &[
            "drafts",
            "filed",
            &id,
            "--date",
            "2026-12-02",
            "--how",
            "email",
        ],
    );
    let edit = home.join("edit.txt");
    std::fs::write(&edit, "Дверь\n\nНовый текст.").unwrap();
    let (code, _, stderr) = cli(
        home,
        "2026-12-02",
        &["drafts", "edit", &id, "--body-file", edit.to_str().unwrap()],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("больше не меняются"), "{stderr}");
    assert!(
        stderr.contains(&format!("zayavka drafts correct {id}")),
        "{stderr}"
    );
    // No editor opens for a filed draft: what the resident would type is never refused after.
    let (code, _, stderr) = cli(home, "2026-12-02", &["drafts", "edit", &id]);
    assert_eq!(code, 2, "{stderr}");

    let out = ok(home, "2026-12-02", &["drafts", "correct", &id]);
    let copy = out
        .split("черновик № ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap()
        .to_owned();
    ok(
        home,
        "2026-12-02",
        &[
            "drafts",
            "edit",
            &copy,
            "--body-file",
            edit.to_str().unwrap(),
        ],
    );
    let shown = json(home, "2026-12-02", &["drafts", "show", &copy, "--json"]);
    assert_eq!(shown["follows"]["kind"], "correction");
    assert_eq!(shown["follows"]["draft_id"].to_string(), id);
    assert!(
        shown.get("case").is_none(),
        "the correction is not filed: {shown}"
    );
    let shown = ok(home, "2026-12-02", &["drafts", "show", &copy]);
    assert!(
        shown.contains(&format!("Это исправление по черновику № {id}.")),
        "{shown}"
    );
}

#[test]
fn every_bad_date_or_value_is_refused_in_russian_with_nothing_changed() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let id = offline_draft(home, "В подвале стоит вода, пахнет сыростью.");
    let refused = |today: &str, args: &[&str], says: &str| {
        let (code, stdout, stderr) = cli(home, today, args);
        assert_eq!(code, 2, "{args:?}: {stdout}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    };
    let filed = |today: &str, extra: &[&str], says: &str| {
        let mut args = vec!["drafts", "filed", id.as_str()];
        args.extend_from_slice(extra);
        refused(today, &args, says);
    };
    // In the future, before the draft existed, a delivery for a visit in person, a delivery
    // before the filing, a number over two lines, a date that is not one, a method nobody has.
    filed(
        "2026-12-05",
        &["--date", "2026-12-06", "--how", "in_person"],
        "ещё не наступила",
    );
    filed(
        "2026-12-05",
        &["--date", "2026-11-20", "--how", "in_person"],
        "раньше, чем был составлен",
    );
    filed(
        "2026-12-05",
        &[
            "--date",
            "2026-12-02",
            "--how",
            "in_person",
            "--delivered",
            "2026-12-03",
        ],
        "только для заказного письма",
    );
    filed(
        "2026-12-05",
        &[
            "--date",
            "2026-12-02",
            "--how",
            "letter",
            "--delivered",
            "2026-12-01",
        ],
        "раньше дня подачи",
    );
    filed(
        "2026-12-05",
        &[
            "--date",
            "2026-12-02",
            "--how",
            "letter",
            "--number",
            "12\n13",
        ],
        "в одну строку",
    );
    filed(
        "2026-12-05",
        &["--date", "2026-12-32", "--how", "letter"],
        "ГГГГ-ММ-ДД",
    );
    filed(
        "2026-12-05",
        &["--date", "2026-12-02", "--how", "pigeon"],
        "in_person",
    );
    filed("2026-12-05", &["--how", "letter"], "Укажите день подачи");
    refused("зима", &["drafts", "due"], "ZAYAVKA_TODAY");
    let answer = |date: &'static str| {
        [
            "drafts",
            "answer",
            id.as_str(),
            "--date",
            date,
            "--result",
            "solved",
        ]
    };
    refused(
        "2026-12-05",
        &answer("2026-12-04"),
        "не отмечен как поданный",
    );
    let due = json(home, "2026-12-05", &["drafts", "due", "--json"]);
    assert_eq!(due, serde_json::json!([]), "nothing was stored");

    ok(
        home,
        "2026-12-05",
        &[
            "drafts",
            "filed",
            &id,
            "--date",
            "2026-12-02",
            "--how",
            "letter",
        ],
    );
    refused("2026-12-05", &answer("2026-12-01"), "раньше дня подачи");
    refused("2026-12-05", &answer("2026-12-09"), "ещё не наступила");
    // A photo that is not one: the answer is recorded, and the message says so.
    let not_a_photo = home.join("ответ.jpg");
    std::fs::write(&not_a_photo, "это не снимок").unwrap();
    let mut with_photo = answer("2026-12-04").to_vec();
    with_photo.extend(["--photo", not_a_photo.to_str().unwrap()]);
    refused(
        "2026-12-05",
        &with_photo,
        "Ответ записан, но фотографии не приложены",
    );
    let shown = json(home, "2026-12-05", &["drafts", "show", &id, "--json"]);
    assert_eq!(
        shown["case"]["case"]["answer"]["result"], "solved",
        "{shown}"
    );
    // A year the data hold no calendar for yet (issue 38): a date all the same, counted by the
    // Labour Code's provisional calendar, and marked provisional wherever it appears.
    let late = offline_draft(home, "Сломан почтовый ящик.");
    ok(
        home,
        "2027-12-27",
        &[
            "drafts",
            "filed",
            &late,
            "--date",
            "2027-12-24",
            "--how",
            "in_person",
        ],
    );
    let shown = json(home, "2027-12-27", &["drafts", "show", &late, "--json"]);
    assert_eq!(shown["case"]["deadline"]["state"], "known", "{shown}");
    assert_eq!(shown["case"]["deadline"]["due"], "2028-01-17", "{shown}");
    assert_eq!(
        shown["case"]["deadline"]["provisional_years"],
        serde_json::json!([2028])
    );
    let out = ok(home, "2027-12-27", &["drafts", "show", &late]);
    assert!(
        out.contains("Ответ должен прийти не позднее 17 января 2028 г.")
            && out.contains(
                "Срок предварительный: постановление о переносе выходных дней на 2028 год в \
                 программе ещё не учтено."
            ),
        "{out}"
    );
    let due = ok(home, "2027-12-27", &["drafts", "due"]);
    assert!(due.contains("(срок предварительный)"), "{due}");
}

#[test]
fn an_activist_files_a_batch_in_one_step_and_its_status_counts_the_cases() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let file = home.join("пакет.csv");
    std::fs::write(
        &file,
        "Описание;Место\nНе горит свет на лестнице уже неделю;подъезд 1\nТечёт крыша над \
         пятым этажом;подъезд 2\nх;\nСломан доводчик входной двери;подъезд 3\n",
    )
    .unwrap();
    ok(
        home,
        "2026-12-01",
        &["batch", "run", file.to_str().unwrap(), "--offline", "-y"],
    );

    // Chosen rows first: row 4 was refused (too short), row 9 is not in the file.
    let out = ok(
        home,
        "2026-12-02",
        &[
            "batch",
            "filed",
            "1",
            "--date",
            "2026-12-02",
            "--how",
            "in_person",
            "--rows",
            "2,4,9",
        ],
    );
    assert!(
        out.contains("Отмечено поданными 2 декабря 2026 г."),
        "{out}"
    );
    assert!(out.contains(": 1."), "{out}");
    assert!(
        out.contains("Без готовой заявки, не отмечены — строки 4."),
        "{out}"
    );
    assert!(out.contains("В пакете нет строк 9"), "{out}");
    // Then the rest; row 2 keeps its filing.
    let report = json(
        home,
        "2026-12-03",
        &[
            "batch",
            "filed",
            "1",
            "--date",
            "2026-12-03",
            "--how",
            "letter",
            "--json",
        ],
    );
    assert_eq!(report["filed"].as_array().unwrap().len(), 2, "{report}");
    assert_eq!(report["already_filed"], serde_json::json!([2]));
    let due = json(home, "2026-12-03", &["drafts", "due", "--json"]);
    let methods: Vec<&str> = due
        .as_array()
        .unwrap()
        .iter()
        .map(|view| view["case"]["filing"]["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods.iter().filter(|m| **m == "in_person").count(),
        1,
        "{methods:?}"
    );
    assert_eq!(
        methods.iter().filter(|m| **m == "letter").count(),
        2,
        "{methods:?}"
    );

    // A date in the future marks nothing.
    let (code, _, stderr) = cli(
        home,
        "2026-12-03",
        &[
            "batch",
            "filed",
            "1",
            "--date",
            "2026-12-04",
            "--how",
            "email",
        ],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("ещё не наступила"), "{stderr}");

    // On 18 December the in-person filing (due 16 December) is overdue; one answer is solved.
    let in_person = due
        .as_array()
        .unwrap()
        .iter()
        .find(|view| view["case"]["filing"]["method"] == "in_person")
        .unwrap()["case"]["draft_id"]
        .to_string();
    ok(
        home,
        "2026-12-18",
        &[
            "drafts",
            "answer",
            &in_person,
            "--date",
            "2026-12-18",
            "--result",
            "solved",
        ],
    );
    let status = ok(home, "2026-12-18", &["batch", "status", "1"]);
    assert!(
        status.contains("Подано: 3; ответ получен: 1; просрочено: 0; решено: 1."),
        "{status}"
    );
    let status = json(home, "2026-12-18", &["batch", "status", "1", "--json"]);
    assert_eq!(
        status["cases"],
        serde_json::json!({"filed": 3, "answered": 1, "overdue": 0, "solved": 1})
    );

    // `zayavka stats` counts them by the day they were filed: the answer came after the
    // deadline (16 December), the two letters wait for their delivery.
    let stats = json(home, "2026-12-18", &["stats", "--json"]);
    let total = &stats["cases"]["total"];
    assert_eq!(total["filed"], 3, "{stats}");
    assert_eq!(total["answered_late"], 1, "{stats}");
    assert_eq!(total["waiting"], 2, "{stats}");
    assert_eq!(total["solved"], 1, "{stats}");
    let text = ok(home, "2026-12-18", &["stats"]);
    assert!(text.contains("Поданные заявки"), "{text}");

    // The two letters get their delivery; on 30 December both are overdue (due 22 December)
    // and the solved row needs nothing: complaints for the two, as PDFs in one folder.
    for view in due.as_array().unwrap() {
        if view["case"]["filing"]["method"] == "letter" {
            let draft = view["case"]["draft_id"].to_string();
            ok(
                home,
                "2026-12-18",
                &["drafts", "filed", &draft, "--delivered", "2026-12-08"],
            );
        }
    }
    let folder = home.join("Жалобы пакета 1");
    let args = [
        "batch",
        "follow-up",
        "1",
        "--to",
        "inspectorate",
        "--addressee",
        "Государственная жилищная инспекция",
        "--format",
        "pdf",
        "--out",
        folder.to_str().unwrap(),
    ];
    let out = ok(home, "2026-12-30", &args);
    assert!(out.contains("Написано писем: 2."), "{out}");
    assert!(out.contains("Проблема решена — строки 2."), "{out}");
    let mut files: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(files, ["row-0003-complaint.pdf", "row-0005-complaint.pdf"]);
    // Run again: no letter twice, the files written again.
    let out = ok(home, "2026-12-30", &args);
    assert!(
        out.contains("Написано писем: 0. Уже были написаны раньше"),
        "{out}"
    );
    let listed = json(home, "2026-12-30", &["drafts", "list", "--json"]);
    assert_eq!(
        listed.as_array().unwrap().len(),
        5,
        "three rows and two complaints"
    );
}

#[test]
fn a_repeat_request_and_a_complaint_are_written_from_the_case_and_saved_as_documents() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let id = offline_draft(home, "в подъезде неделю не горит свет на лестнице");
    ok(
        home,
        "2026-12-07",
        &[
            "drafts",
            "filed",
            &id,
            "--date",
            "2026-12-07",
            "--how",
            "in_person",
            "--number",
            "17/А",
            "--to",
            "ООО «УК Восход»",
        ],
    );
    // Before the deadline (21 December) nothing is written.
    let (code, _, stderr) = cli(
        home,
        "2026-12-15",
        &["drafts", "follow-up", &id, "--to", "company"],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("ещё не истёк"), "{stderr}");
    assert!(!stderr.contains("г.."), "{stderr}");
    assert_eq!(
        json(home, "2026-12-15", &["drafts", "list", "--json"])
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // After it, a repeat request as a PDF and a complaint as a text file.
    let folder = home.join("Письма в УК");
    std::fs::create_dir(&folder).unwrap();
    let pdf = folder.join("повторная заявка.pdf");
    let out = ok(
        home,
        "2026-12-28",
        &[
            "drafts",
            "follow-up",
            &id,
            "--to",
            "company",
            "--format",
            "pdf",
            "--out",
            pdf.to_str().unwrap(),
        ],
    );
    assert!(out.contains("Повторная заявка по черновику"), "{out}");
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF-"));
    let (code, _, stderr) = cli(
        home,
        "2026-12-28",
        &["drafts", "follow-up", &id, "--to", "inspectorate"],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("--addressee"), "{stderr}");
    let txt = folder.join("жалоба.txt");
    ok(
        home,
        "2026-12-28",
        &[
            "drafts",
            "follow-up",
            &id,
            "--to",
            "inspectorate",
            "--addressee",
            "Государственная жилищная инспекция города Москвы",
            "--format",
            "txt",
            "--out",
            txt.to_str().unwrap(),
            "--collective",
        ],
    );
    let complaint = std::fs::read_to_string(&txt).unwrap();
    // A collective complaint carries the co-signers' table, as `export --collective` does.
    assert!(
        complaint.contains("Подписи жителей\n\nЗаявку поддерживают жители дома:"),
        "{complaint}"
    );
    assert!(
        complaint.contains("Кому: Государственная жилищная инспекция города Москвы"),
        "{complaint}"
    );
    assert!(
        complaint.contains(
            "7 декабря 2026 г. в ООО «УК Восход» лично подана заявка (входящий номер: 17/А)"
        ),
        "{complaint}"
    );
    assert!(
        complaint.contains("В подъезде неделю не горит свет на лестнице."),
        "{complaint}"
    );
    assert!(
        complaint.contains("На 28 декабря 2026 г. ответ на заявку не получен."),
        "{complaint}"
    );
    assert!(
        complaint.contains("Приложения: 1) копия заявки от 7 декабря 2026 г."),
        "{complaint}"
    );
    assert!(
        complaint.contains("1. Провести проверку по изложенным фактам"),
        "{complaint}"
    );

    // Both are drafts linked to the first; the complaint is counted by the inspectorate's term
    // once it is filed.
    let listed = json(home, "2026-12-28", &["drafts", "list", "--json"]);
    assert_eq!(listed.as_array().unwrap().len(), 3);
    let complaint_id = listed[0]["id"].to_string();
    let shown = json(
        home,
        "2026-12-28",
        &["drafts", "show", &complaint_id, "--json"],
    );
    assert_eq!(shown["follows"]["kind"], "complaint", "{shown}");
    assert_eq!(
        shown["request"]["title_source"], "recorded_facts",
        "{shown}"
    );
    assert_eq!(shown["request"]["item"]["source"], "inspection", "{shown}");
    ok(
        home,
        "2026-12-28",
        &[
            "drafts",
            "filed",
            &complaint_id,
            "--date",
            "2026-12-28",
            "--how",
            "email",
        ],
    );
    let shown = json(
        home,
        "2026-12-28",
        &["drafts", "show", &complaint_id, "--json"],
    );
    assert_eq!(shown["case"]["term"], "inspectorate", "{shown}");
    // 28 December + 3 + 30 days = 30 January 2027, a Saturday: Monday 1 February.
    assert_eq!(shown["case"]["deadline"]["due"], "2027-02-01", "{shown}");

    // A solved answer leaves nothing to write.
    ok(
        home,
        "2026-12-29",
        &[
            "drafts",
            "answer",
            &id,
            "--date",
            "2026-12-29",
            "--result",
            "solved",
        ],
    );
    let (code, _, stderr) = cli(
        home,
        "2026-12-29",
        &["drafts", "follow-up", &id, "--to", "company"],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("проблема решена"), "{stderr}");
}

/// Files draft `id` by letter on 1 December 2026, delivered on 3 December, with a number and
/// the company the resident wrote: the answer was due 17 December (10 working days).
fn filed_by_letter(home: &Path, id: &str, to: Option<&str>) {
    let mut args = vec![
        "drafts",
        "filed",
        id,
        "--date",
        "2026-12-01",
        "--how",
        "letter",
        "--delivered",
        "2026-12-03",
        "--number",
        "17/А",
    ];
    if let Some(to) = to {
        args.extend(["--to", to]);
    }
    // Recorded once the letter was delivered.
    ok(home, "2026-12-04", &args);
}

/// Writes the follow-up `to` (`company` or `inspectorate`) of draft `id` on 28 December 2026
/// as `format` to a file in `home`, and returns the file.
fn letter_file(home: &Path, id: &str, to: &str, format: &str, name: &str) -> std::path::PathBuf {
    let out = home.join(format!("{name}.{format}"));
    let mut args = vec![
        "drafts",
        "follow-up",
        id,
        "--to",
        to,
        "--format",
        format,
        "--out",
    ];
    let text = out.to_str().unwrap().to_owned();
    args.push(&text);
    if to == "inspectorate" {
        args.extend([
            "--addressee",
            "Государственная жилищная инспекция Московской области",
        ]);
    }
    ok(home, "2026-12-28", &args);
    out
}

/// Issue 38: both letters carry the facts — the filing's way, date and number, the letter's
/// delivery, the day the answer was due and its term, and the late, partial answer — and read
/// as a careful resident writes: no doubled full stop, no field name. Pinned as text
/// (`tests/cases/letters/`); the PDF and the DOCX say the same.
#[test]
fn issue_38_the_letters_carry_the_facts_in_txt_pdf_and_docx() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let id = offline_draft(home, "в подъезде неделю не горит свет на лестнице");
    filed_by_letter(home, &id, Some("ООО «УК Рассвет»"));
    ok(
        home,
        "2026-12-22",
        &[
            "drafts",
            "answer",
            &id,
            "--date",
            "2026-12-22",
            "--result",
            "partly",
        ],
    );
    let repeat =
        std::fs::read_to_string(letter_file(home, &id, "company", "txt", "repeat")).unwrap();
    let complaint =
        std::fs::read_to_string(letter_file(home, &id, "inspectorate", "txt", "complaint"))
            .unwrap();
    for letter in [&repeat, &complaint] {
        for fact in [
            "1 декабря 2026 г. в ООО «УК Рассвет» направлена письмом заявка (входящий номер: \
             17/А) о следующей проблеме:",
            "Письмо с заявкой получено 3 декабря 2026 г.",
            "Ответ должен был прийти не позднее 17 декабря 2026 г. (срок — 10 рабочих дней со \
             дня получения обращения).",
            "Ответ получен 22 декабря 2026 г., позже срока: проблема устранена лишь частично.",
        ] {
            assert!(letter.contains(fact), "{fact}\n{letter}");
        }
        assert!(!letter.contains("г.."), "{letter}");
        assert!(!letter.contains("management_company"), "{letter}");
    }
    // The repeat request is addressed to the company the request was filed with.
    assert!(repeat.contains("Кому: ООО «УК Рассвет»"), "{repeat}");
    assert!(
        complaint.contains("Кому: Государственная жилищная инспекция Московской области"),
        "{complaint}"
    );
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(crate::support::tests_dir().join("cases/letters"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        insta::assert_snapshot!("repeat_request", repeat);
        insta::assert_snapshot!("complaint", complaint);
    });

    // The PDF and the DOCX say the same.
    if cfg!(windows) {
        // poppler and LibreOffice are Linux programs; tests/windows compares the documents'
        // bytes with Linux's.
        return;
    }
    let pdf = letter_file(home, &id, "company", "pdf", "repeat");
    let pdf_text = crate::documents::words(&crate::documents::pdf_text(&pdf));
    for fact in [
        "Ответ должен был прийти не позднее 17 декабря 2026 г.",
        "Ответ получен 22 декабря 2026 г., позже срока",
        "Кому: ООО «УК Рассвет»",
    ] {
        assert!(pdf_text.contains(fact), "{fact}\n{pdf_text}");
    }
    let docx = letter_file(home, &id, "inspectorate", "docx", "complaint");
    let scratch = tempfile::tempdir().unwrap();
    let read = std::fs::read_to_string(crate::libreoffice::libreoffice(
        &docx,
        "txt:Text",
        scratch.path(),
    ))
    .unwrap();
    assert_eq!(
        crate::libreoffice::lines(&read),
        crate::libreoffice::lines(&complaint)
    );
}

/// Issue 38: a repeat request's «Кому» is the addressee recorded at filing; without one, the
/// profile's company; a blank line only when neither exists.
#[test]
fn issue_38_the_repeat_request_is_addressed_from_the_filing_then_the_profile() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let recorded = offline_draft(home, "в подъезде неделю не горит свет на лестнице");
    filed_by_letter(home, &recorded, Some("ООО «УК Рассвет»"));
    let unrecorded = offline_draft(home, "во дворе не убран снег у второго подъезда");
    filed_by_letter(home, &unrecorded, None);
    let blank =
        std::fs::read_to_string(letter_file(home, &unrecorded, "company", "txt", "blank")).unwrap();
    assert!(
        blank.contains("Кому: ________________ (название управляющей организации)"),
        "{blank}"
    );
    ok(
        home,
        "2026-12-28",
        &["profile", "set", "company_name", "ТСЖ «Берёзка»"],
    );
    ok(
        home,
        "2026-12-28",
        &["profile", "set", "company_address", "ул. Лесная, 5"],
    );
    let profile =
        std::fs::read_to_string(letter_file(home, &unrecorded, "company", "txt", "profile"))
            .unwrap();
    assert!(profile.contains("Кому: ТСЖ «Берёзка»"), "{profile}");
    assert!(profile.contains("ул. Лесная, 5"), "{profile}");
    let filed =
        std::fs::read_to_string(letter_file(home, &recorded, "company", "txt", "filed")).unwrap();
    assert!(filed.contains("Кому: ООО «УК Рассвет»"), "{filed}");
    // Another company than the profile's: the profile's address is not put under its name.
    assert!(!filed.contains("ул. Лесная, 5"), "{filed}");
}

/// Issue 38: a request filed before Zayavka — two weeks ago, on paper — is recorded with its
/// text as filed, its number, addressee and a photo of the stamped copy; it gets its deadline,
/// `drafts show` prints the text as filed, and the repeat request works on it. A filing in the
/// future or before 2000, or a text the contract refuses, records nothing.
#[test]
fn issue_38_a_request_filed_before_zayavka_is_recorded_and_followed() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let text =
        "Прошу заменить перегоревшую лампу на площадке 3 этажа подъезда 2.\nТемно уже неделю.";
    let photo = crate::support::tests_dir().join("fixtures/photos/exif-bytes-in-scan.jpg");
    let report = json(
        home,
        "2026-12-07",
        &[
            "drafts",
            "add",
            "--text",
            text,
            "--filed",
            "2026-11-20",
            "--how",
            "in_person",
            "--to",
            "ООО «УК Рассвет»",
            "--number",
            "Вх. 512",
            "--photo",
            photo.to_str().unwrap(),
            "--json",
        ],
    );
    let id = report["case"]["draft_id"].to_string();
    assert_eq!(
        report["case"]["filing"]["filed_on"], "2026-11-20",
        "{report}"
    );
    assert_eq!(report["deadline"]["due"], "2026-12-04", "{report}");
    assert_eq!(report["state"]["state"], "overdue", "{report}");
    let shown = ok(home, "2026-12-07", &["drafts", "show", &id]);
    assert!(
        shown.contains(&format!(
            "Текст заявки, как он был подан до Заявки:\n{text}"
        )),
        "{shown}"
    );
    assert!(
        !shown.contains("Прошу:\n1."),
        "the assembled request is not shown: {shown}"
    );
    assert!(shown.contains("Фотографии подачи: 1."), "{shown}");
    // The document prints the text as it was filed.
    let document = home.join("копия.txt");
    ok(
        home,
        "2026-12-07",
        &[
            "drafts",
            "export",
            &id,
            "--format",
            "txt",
            "--out",
            document.to_str().unwrap(),
        ],
    );
    assert!(
        std::fs::read_to_string(&document).unwrap().contains(text),
        "the document holds the text as filed"
    );
    let letter =
        std::fs::read_to_string(letter_file(home, &id, "company", "txt", "repeat")).unwrap();
    assert!(
        letter.contains(
            "20 ноября 2026 г. в ООО «УК Рассвет» лично подана заявка (входящий номер: Вх. 512)"
        ),
        "{letter}"
    );
    assert!(
        letter.contains("Ответ должен был прийти не позднее 4 декабря 2026 г."),
        "{letter}"
    );

    let before = json(home, "2026-12-28", &["drafts", "list", "--json"]);
    for (args, message) in [
        (
            vec!["--filed", "2027-01-05", "--how", "email"],
            "ещё не наступила",
        ),
        (
            vec!["--filed", "1999-12-31", "--how", "email"],
            "с 2000 года",
        ),
    ] {
        let mut all = vec!["drafts", "add", "--text", text];
        all.extend(args);
        let (code, _, stderr) = cli(home, "2026-12-28", &all);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
    }
    let (code, _, stderr) = cli(
        home,
        "2026-12-28",
        &[
            "drafts",
            "add",
            "--text",
            "Свет",
            "--filed",
            "2026-12-01",
            "--how",
            "email",
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("Текст заявки не записан"), "{stderr}");
    assert_eq!(
        json(home, "2026-12-28", &["drafts", "list", "--json"]),
        before
    );
}

/// Issue 38: `drafts add --text-file` reads the text through the engine, as every file is read:
/// a missing file is named in Russian and nothing is recorded.
#[test]
fn issue_38_a_request_s_text_comes_from_a_file_or_is_refused_by_name() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let file = home.join("заявка.txt");
    std::fs::write(
        &file,
        "Прошу убрать мусор у мусоропровода на 5 этаже, третий день лежит.\n",
    )
    .unwrap();
    let report = json(
        home,
        "2026-12-07",
        &[
            "drafts",
            "add",
            "--text-file",
            file.to_str().unwrap(),
            "--filed",
            "2026-12-01",
            "--how",
            "gis",
            "--json",
        ],
    );
    assert_eq!(report["case"]["filing"]["method"], "gis", "{report}");
    let missing = home.join("нет такого.txt");
    let (code, _, stderr) = cli(
        home,
        "2026-12-07",
        &[
            "drafts",
            "add",
            "--text-file",
            missing.to_str().unwrap(),
            "--filed",
            "2026-12-01",
            "--how",
            "gis",
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("файл с текстом заявки"), "{stderr}");
    assert_eq!(
        json(home, "2026-12-07", &["drafts", "list", "--json"])
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

/// Issue 38: `batch add` records a file of requests filed before Zayavka — a CSV as a
/// spreadsheet saves it and a JSONL — all rows or none: one bad row refuses the file, each
/// refusal named by its row, and nothing is recorded; a rerun records nothing twice.
#[test]
fn issue_38_batch_add_records_a_file_of_filed_requests_all_or_none() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let csv = home.join("поданные.csv");
    let good = "Описание,Дата подачи,Способ подачи,Входящий номер,Кому,Дата вручения\n\
        \"Прошу заменить лампу на площадке 3 этажа, темно неделю.\",20.11.2026,лично,Вх. 17,ООО «УК Рассвет»,\n\
        \"Прошу убрать мусор у мусоропровода на 5 этаже.\",2026-11-25,письмо,,,2026-11-30\n";
    // A bad row among good ones: no day of filing, and a way no one can read.
    let bad = format!("{good}\"Прошу починить домофон в подъезде 1.\",,голубиная почта,,,\n");
    std::fs::write(&csv, &bad).unwrap();
    let (code, stdout, stderr) = cli(home, "2026-12-07", &["batch", "add", csv.to_str().unwrap()]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("Ничего не записано"), "{stderr}");
    assert!(
        stderr.contains("Строка 4: Нет даты подачи в столбце «Дата подачи»."),
        "{stderr}"
    );
    let (code, stdout, _) = cli(
        home,
        "2026-12-07",
        &["batch", "add", csv.to_str().unwrap(), "--json"],
    );
    assert_eq!(code, 2, "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["refused"][0]["row"], 4, "{report}");
    assert_eq!(report["recorded"], serde_json::json!([]), "{report}");
    assert_eq!(
        json(home, "2026-12-07", &["drafts", "list", "--json"]),
        serde_json::json!([])
    );

    std::fs::write(&csv, good).unwrap();
    let report = json(
        home,
        "2026-12-07",
        &["batch", "add", csv.to_str().unwrap(), "--json"],
    );
    let recorded = report["recorded"].as_array().unwrap();
    assert_eq!(recorded.len(), 2, "{report}");
    assert_eq!(recorded[0]["row"], 2, "{report}");
    let lamp = recorded[0]["draft_id"].to_string();
    let case = json(home, "2026-12-07", &["drafts", "show", &lamp, "--json"]);
    assert_eq!(
        case["case"]["case"]["filing"]["filed_on"], "2026-11-20",
        "{case}"
    );
    assert_eq!(
        case["case"]["case"]["filing"]["method"], "in_person",
        "{case}"
    );
    assert_eq!(case["case"]["case"]["filing"]["number"], "Вх. 17", "{case}");
    let letter = recorded[1]["draft_id"].to_string();
    let case = json(home, "2026-12-07", &["drafts", "show", &letter, "--json"]);
    assert_eq!(case["case"]["case"]["filing"]["method"], "letter", "{case}");
    assert_eq!(
        case["case"]["case"]["filing"]["delivered_on"], "2026-11-30",
        "{case}"
    );

    // A rerun records nothing twice; a JSONL file with one of the same requests and a new
    // one records the new one only.
    let out = ok(home, "2026-12-07", &["batch", "add", csv.to_str().unwrap()]);
    assert!(
        out.contains("Записаны раньше и повторно не записывались: строки 2, 3."),
        "{out}"
    );
    assert!(out.contains("Записано заявок: 0."), "{out}");
    let jsonl = home.join("поданные.jsonl");
    std::fs::write(
        &jsonl,
        "{\"description\": \"Прошу убрать мусор у мусоропровода на 5 этаже.\", \"filed\": \"2026-11-25\", \"how\": \"letter\", \"delivered\": \"2026-11-30\"}\n\
         {\"description\": \"Прошу починить домофон в подъезде 1, не открывает.\", \"filed\": \"2026-12-02\", \"how\": \"gis\"}\n",
    )
    .unwrap();
    let report = json(
        home,
        "2026-12-07",
        &["batch", "add", jsonl.to_str().unwrap(), "--json"],
    );
    assert_eq!(report["already"], serde_json::json!([1]), "{report}");
    assert_eq!(report["recorded"].as_array().unwrap().len(), 1, "{report}");
    assert_eq!(
        json(home, "2026-12-07", &["drafts", "list", "--json"])
            .as_array()
            .unwrap()
            .len(),
        3
    );
}
