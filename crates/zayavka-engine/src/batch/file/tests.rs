use super::*;

use std::path::PathBuf;

const LEAK: &str = "В подъезде третий день не горит свет на всех этажах.";
const ROOF: &str = "С потолка на девятом этаже капает вода после дождя.";

fn parse(name: &str, bytes: &[u8]) -> Result<BatchFile, BatchFileError> {
    BatchFile::from_bytes(name, bytes)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn descriptions(batch: &BatchFile) -> Vec<Option<&str>> {
    batch
        .rows()
        .iter()
        .map(|row| row.raw().description.as_deref())
        .collect()
}

fn row_numbers(batch: &BatchFile) -> Vec<u32> {
    batch.rows().iter().map(BatchRow::row_number).collect()
}

/// A content error's message: in Russian, in the reader's form, naming the file.
fn assert_message(error: &BatchFileError, file_name: &str) -> String {
    let message = error.message_ru();
    assert!(
        message.starts_with(&format!(
            "не удалось прочитать файл с пакетом заявок «{file_name}»: "
        )),
        "{message}"
    );
    assert!(
        message.ends_with('.') && !message.contains(".."),
        "{message}"
    );
    assert_eq!(error.to_string(), message);
    message
}

#[test]
fn utf8_csv_with_english_headers_and_commas() {
    let text = format!(
        "description,location,consequences,desired_actions,confirmed_subject\n\
         {LEAK},Подъезд 2,Темно и опасно,Заменить лампы,common_area_premises_lighting\n\
         \"{ROOF}\",9 этаж,,,\n"
    );
    let batch = parse("batch.csv", text.as_bytes()).unwrap();
    assert_eq!(batch.format(), BatchFormat::Csv);
    assert_eq!(batch.encoding(), Some(TextEncoding::Utf8));
    assert_eq!(batch.delimiter(), Some(','));
    assert_eq!(batch.file_name(), "batch.csv");
    assert_eq!(row_numbers(&batch), [2, 3]);
    assert_eq!(batch.valid_count(), 2);
    assert!(batch.invalid().is_empty());
    let first = batch.rows()[0].checked().unwrap();
    assert_eq!(first.description(), LEAK);
    assert_eq!(first.location(), Some("Подъезд 2"));
    assert_eq!(first.desired_actions(), Some("Заменить лампы"));
    assert_eq!(
        first.confirmed_subject(),
        Some(SubjectKind::CommonAreaPremisesLighting)
    );
    // An empty cell is an absent field, not a blank one.
    let second = &batch.rows()[1];
    assert_eq!(second.raw().consequences, None);
    assert_eq!(second.checked().unwrap().consequences(), None);
}

#[test]
fn utf8_with_bom_semicolons_and_russian_headers() {
    let text =
        format!("\u{feff}Описание;Место;Последствия;Что сделать;Предмет\n{LEAK};Подъезд 1;;;\n");
    let batch = parse("excel.csv", text.as_bytes()).unwrap();
    assert_eq!(batch.encoding(), Some(TextEncoding::Utf8WithBom));
    assert_eq!(batch.delimiter(), Some(';'));
    assert_eq!(descriptions(&batch), [Some(LEAK)]);
    assert_eq!(batch.rows()[0].raw().location.as_deref(), Some("Подъезд 1"));
}

#[test]
fn windows_1251_is_decoded_and_reported() {
    let text = format!("Описание;Место;Что сделать\n{LEAK};Подъезд 3;Заменить лампы\n");
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1251.encode(&text);
    assert!(!unmappable);
    assert!(std::str::from_utf8(&bytes).is_err());
    let batch = parse("old-excel.csv", &bytes).unwrap();
    assert_eq!(batch.encoding(), Some(TextEncoding::Windows1251));
    assert_eq!(batch.delimiter(), Some(';'));
    let row = batch.rows()[0].checked().unwrap();
    assert_eq!(row.description(), LEAK);
    assert_eq!(row.location(), Some("Подъезд 3"));
    assert_eq!(row.desired_actions(), Some("Заменить лампы"));
    // The batch id is the hash of the bytes as saved, not of the decoded text.
    assert_eq!(batch.content_sha256(), zayavka_core::sha256_hex(&bytes));
    assert_ne!(
        batch.content_sha256(),
        zayavka_core::sha256_hex(text.as_bytes())
    );
}

#[test]
fn tabs_are_detected() {
    let text = format!("Описание\tМесто\n{LEAK}\tПодъезд 4, у лифта\n");
    let batch = parse("tabs.tsv", text.as_bytes()).unwrap();
    assert_eq!(batch.delimiter(), Some('\t'));
    // The comma inside a cell does not outvote the tab, being on a data line.
    assert_eq!(
        batch.rows()[0].raw().location.as_deref(),
        Some("Подъезд 4, у лифта")
    );
}

#[test]
fn delimiters_inside_quotes_in_the_header_are_not_counted() {
    let text = format!("\"Описание\";\"Место\";\"Что вы, просите, сделать\"\n{LEAK};;\n");
    assert_eq!(detect_delimiter(&text), b';');
    let batch = parse("quoted.csv", text.as_bytes());
    // «Что вы, просите, сделать» is not a known header, so the point is only the delimiter.
    assert_eq!(batch.unwrap_err().code(), "unknown_columns");
    // With one column there is no delimiter to find, and any choice reads the file alike.
    let single = parse(
        "single.csv",
        format!("Описание\n{LEAK}, {ROOF}\n").as_bytes(),
    )
    .unwrap();
    assert_eq!(
        descriptions(&single),
        [Some(format!("{LEAK}, {ROOF}").as_str())]
    );
}

#[test]
fn quoted_newlines_and_doubled_quotes_keep_spreadsheet_row_numbers() {
    let text = format!(
        "Описание,Что сделать\r\n\
         \"Первая строка описания: течёт кран.\r\nВторая строка: \"\"срочно\"\".\",Починить\r\n\
         {ROOF},\r\n\
         короче,\r\n"
    );
    let batch = parse("multiline.csv", text.as_bytes()).unwrap();
    // The record with a line break inside is one row, so the next rows are 3 and 4, as a
    // spreadsheet shows them, not the lines 4 and 5 of the file.
    assert_eq!(row_numbers(&batch), [2, 3, 4]);
    assert_eq!(
        batch.rows()[0].raw().description.as_deref(),
        Some("Первая строка описания: течёт кран.\r\nВторая строка: \"срочно\".")
    );
    assert!(batch.rows()[0].is_valid());
    let invalid = batch.invalid();
    assert_eq!(invalid.len(), 1);
    assert_eq!(invalid[0].row, 4);
}

#[test]
fn headers_ignore_case_spaces_underscores_and_yo() {
    let text = format!(
        "  ОПИСАНИЁ  ;место:;Что  вы просите сделать;к чему относится;Desired Actions*\n{LEAK};;;;\n"
    );
    // The last header means the same field as the third, which the header check refuses, so
    // the folding itself is checked on the names one by one first.
    for header in [
        "  ОПИСАНИЁ  ",
        "описание проблемы",
        "Description",
        "DESCRIPTION",
    ] {
        assert_eq!(
            Column::from_header(header),
            Some(Column::Input(InputField::Description)),
            "{header}"
        );
    }
    for (header, field) in [
        ("место:", InputField::Location),
        ("Что  вы просите сделать", InputField::DesiredActions),
        ("что сделать", InputField::DesiredActions),
        ("desired_actions", InputField::DesiredActions),
        ("Desired Actions*", InputField::DesiredActions),
        ("к чему относится", InputField::ConfirmedSubject),
        ("Предмет", InputField::ConfirmedSubject),
        ("ПОСЛЕДСТВИЯ", InputField::Consequences),
    ] {
        assert_eq!(
            Column::from_header(header),
            Some(Column::Input(field)),
            "{header}"
        );
    }
    assert_eq!(Column::from_header("Ф И О"), Some(Column::FullName));
    assert_eq!(Column::from_header("full_name"), Some(Column::FullName));
    let error = parse("twice.csv", text.as_bytes()).unwrap_err();
    assert_eq!(error.code(), "duplicate_column");
    let message = assert_message(&error, "twice.csv");
    assert!(message.contains("столбцы C и E"), "{message}");
    let text = format!("  ОПИСАНИЁ  ;место:;Что  вы просите сделать\n{LEAK};Подвал;Убрать\n");
    let batch = parse("yo.csv", text.as_bytes()).unwrap();
    let row = batch.rows()[0].checked().unwrap();
    assert_eq!(row.location(), Some("Подвал"));
    assert_eq!(row.desired_actions(), Some("Убрать"));
}

#[test]
fn a_bad_field_is_reported_by_row_number_in_russian() {
    let text = format!("Описание;Место\n{LEAK};\nтечёт;Подвал\n{ROOF};\n");
    let batch = parse("bad.csv", text.as_bytes()).unwrap();
    assert_eq!(batch.rows().len(), 3);
    assert_eq!(batch.valid_count(), 2);
    let invalid = batch.invalid();
    assert_eq!(invalid.len(), 1);
    assert_eq!(invalid[0].row, 3);
    assert_eq!(invalid[0].errors.len(), 1);
    let error = &invalid[0].errors[0];
    assert_eq!(error.field, "description");
    assert_eq!(error.code, "too_short");
    assert!(
        error
            .message
            .starts_with("Поле «Описание проблемы» слишком короткое"),
        "{}",
        error.message
    );
    // The invalid row keeps what was typed.
    assert_eq!(batch.rows()[1].raw().description.as_deref(), Some("течёт"));
}

#[test]
fn invalid_rows_serialise_exactly_as_the_front_ends_print_them() {
    let text = "Описание,Последствия\nтечёт,\" \"\n";
    let batch = parse("json.csv", text.as_bytes()).unwrap();
    let json = serde_json::to_value(batch.invalid()).unwrap();
    let message = batch.rows()[0].checked().unwrap_err().as_slice()[0].message_ru();
    assert_eq!(
        json,
        serde_json::json!([{
            "row": 2,
            "errors": [{"field": "description", "code": "too_short", "message": message}]
        }])
    );
}

#[test]
fn an_empty_file_is_refused() {
    for bytes in [
        &b""[..],
        b"   \r\n\n",
        b"\xEF\xBB\xBF",
        b"\xEF\xBB\xBF\n\n",
        b";;;\n;;\n",
    ] {
        let error = parse("empty.csv", bytes).unwrap_err();
        assert_eq!(error.code(), "empty", "{bytes:?}");
        let message = assert_message(&error, "empty.csv");
        assert!(message.contains("файл пустой"), "{message}");
    }
    let error = parse("empty.jsonl", b"\n  \n").unwrap_err();
    assert_eq!(error.code(), "empty");
}

#[test]
fn a_header_without_rows_says_so() {
    let error = parse("header.csv", "Описание;Место\n\n;\n".as_bytes()).unwrap_err();
    assert!(
        matches!(
            &error,
            BatchFileError::Content {
                kind: ContentError::NoRows { blank: 2 },
                ..
            }
        ),
        "{error:?}"
    );
    let message = assert_message(&error, "header.csv");
    assert!(message.contains("пустых строк: 2"), "{message}");
}

#[test]
fn a_header_without_description_is_refused() {
    let text = "Место;Что сделать\nПодъезд 1;Заменить лампы\n";
    let error = parse("nodesc.csv", text.as_bytes()).unwrap_err();
    assert_eq!(error.code(), "no_description_column");
    let message = assert_message(&error, "nodesc.csv");
    assert!(message.contains("нет столбца «Описание»"), "{message}");
    assert!(message.contains("«Место», «Что сделать»"), "{message}");
}

#[test]
fn unknown_columns_are_listed_with_the_accepted_ones() {
    let text = format!("Описание;Срок;Место;Комментарий\n{LEAK};завтра;;\n");
    let error = parse("unknown.csv", text.as_bytes()).unwrap_err();
    assert!(
        matches!(&error, BatchFileError::Content { kind: ContentError::UnknownColumns { unknown }, .. }
            if unknown == &["Срок", "Комментарий"]),
        "{error:?}"
    );
    let message = assert_message(&error, "unknown.csv");
    assert!(message.contains("«Срок», «Комментарий»"), "{message}");
    assert!(message.contains("«Описание» (обязательный)"), "{message}");
    assert!(message.contains("«Телефон»"), "{message}");
}

#[test]
fn a_first_row_of_data_is_not_a_header() {
    let text = format!("{LEAK};Подъезд 1\n");
    let error = parse("data.csv", text.as_bytes()).unwrap_err();
    assert_eq!(error.code(), "no_header");
    let message = assert_message(&error, "data.csv");
    assert!(message.contains("должна быть заголовком"), "{message}");
}

#[test]
fn hostile_header_text_is_escaped_and_shortened_in_messages() {
    let long = "Х".repeat(200);
    let text = format!("Описание;\u{1b}[31mкрасный;{long}\n{LEAK};;\n");
    let message = parse("x.csv", text.as_bytes()).unwrap_err().message_ru();
    assert!(!message.contains('\u{1b}'), "{message}");
    assert!(!message.contains(&long), "{message}");
    assert!(message.contains('…'), "{message}");
}

#[test]
fn blank_rows_are_skipped_and_listed() {
    let text = format!("\nОписание;Место\n{LEAK};\n\n;  ;\n{ROOF};\n");
    let batch = parse("blank.csv", text.as_bytes()).unwrap();
    // The blank line above the header is the sheet's margin: the header is row 2 there.
    assert_eq!(row_numbers(&batch), [3, 6]);
    assert_eq!(batch.skipped_blank(), [4, 5]);
    // The same with Excel's CRLF line ends, old Mac CR ones, and no line end after the last row.
    for end in ["\r\n", "\r"] {
        let text = format!("Описание{end}{LEAK}{end}{end}{end}{ROOF}");
        let batch = parse("crlf.csv", text.as_bytes()).unwrap();
        assert_eq!(row_numbers(&batch), [2, 5], "{end:?}");
        assert_eq!(batch.skipped_blank(), [3, 4], "{end:?}");
    }
}

#[test]
fn header_columns_are_kept_apart_from_the_input() {
    let text = format!(
        "ФИО;Квартира;Телефон;Описание\n\"Иванова  Мария\nПетровна \"; 12;+7 900\u{1b}[2J 000-00-00;{LEAK}\n"
    );
    let batch = parse("people.csv", text.as_bytes()).unwrap();
    let row = &batch.rows()[0];
    assert_eq!(
        row.header(),
        &RowHeader {
            full_name: Some("Иванова Мария Петровна".to_owned()),
            apartment: Some("12".to_owned()),
            phone: Some("+7 900\\u{1b}[2J 000-00-00".to_owned()),
        }
    );
    assert_eq!(
        row.raw(),
        &RawInput {
            description: Some(LEAK.to_owned()),
            ..RawInput::default()
        }
    );
    assert!(
        !serde_json::to_string(&row.checked().unwrap().model_view())
            .unwrap()
            .contains("Иванова")
    );
}

#[test]
fn the_subject_takes_a_code_or_a_russian_title_in_any_case() {
    let text = format!(
        "Описание;Предмет\n\
         {ROOF};КРЫША ДОМА\n\
         {ROOF};common_area_roof\n\
         {LEAK};  освещение в подъезде и других   общих помещениях\n\
         {LEAK};Common_Area_Elevator\n\
         {LEAK};двор\n"
    );
    let batch = parse("subjects.csv", text.as_bytes()).unwrap();
    let kinds: Vec<_> = batch
        .rows()
        .iter()
        .map(|row| {
            row.checked()
                .ok()
                .and_then(ResidentInput::confirmed_subject)
        })
        .collect();
    assert_eq!(
        kinds,
        [
            Some(SubjectKind::CommonAreaRoof),
            Some(SubjectKind::CommonAreaRoof),
            Some(SubjectKind::CommonAreaPremisesLighting),
            Some(SubjectKind::CommonAreaElevator),
            None
        ]
    );
    let invalid = batch.invalid();
    assert_eq!(invalid.len(), 1);
    assert_eq!(invalid[0].row, 6);
    assert_eq!(invalid[0].errors[0].field, "confirmed_subject");
    assert_eq!(invalid[0].errors[0].code, "unknown_subject");
}

#[test]
fn a_value_outside_the_header_is_refused_with_its_cell() {
    // Excel saves the used width for every row, so an unnamed empty column is normal.
    let text = format!("Описание;;\n{LEAK};;\n{ROOF};;заметка\n");
    let error = parse("extra.csv", text.as_bytes()).unwrap_err();
    assert_eq!(error.code(), "value_without_header");
    let message = assert_message(&error, "extra.csv");
    assert!(message.contains("ячейка C3"), "{message}");
    let text = format!("Описание;;\n{LEAK};;\n");
    assert_eq!(parse("ok.csv", text.as_bytes()).unwrap().rows().len(), 1);
}

#[test]
fn column_letters_are_the_spreadsheets() {
    let letters: Vec<_> = [0, 1, 25, 26, 27, 51, 52, 701, 702]
        .into_iter()
        .map(column_letters)
        .collect();
    assert_eq!(
        letters,
        ["A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"]
    );
}

#[test]
fn a_hundred_thousand_rows_are_read_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("Описание;Место;Что сделать\n");
    for index in 0..MAX_ROWS {
        let _ = writeln!(
            text,
            "В подъезде не горит свет, квартира {index};Этаж {};Заменить лампы",
            index % 17
        );
    }
    let path = write(dir.path(), "big.csv", text.as_bytes());
    let batch = BatchFile::read(&path).unwrap();
    assert_eq!(batch.rows().len(), MAX_ROWS);
    assert_eq!(batch.valid_count(), MAX_ROWS);
    assert_eq!(
        batch.rows().last().unwrap().row_number(),
        MAX_ROWS as u32 + 1
    );
}

#[test]
fn more_rows_than_the_cap_are_refused() {
    let text = format!("Описание\n{LEAK}\n{LEAK}\n{LEAK}\n");
    assert_eq!(
        BatchFile::parse("cap.csv", text.as_bytes(), 3)
            .unwrap()
            .rows()
            .len(),
        3
    );
    let error = BatchFile::parse("cap.csv", format!("{text}{LEAK}\n").as_bytes(), 3).unwrap_err();
    assert_eq!(error.code(), "too_many_rows");
    let message = assert_message(&error, "cap.csv");
    assert!(message.contains("не больше 3"), "{message}");
}

#[test]
fn jsonl_reports_a_bad_line_by_its_line_number() {
    let text = format!(
        "{{\"description\": \"{LEAK}\", \"full_name\": \"Петров П. П.\", \"apartment\": 7}}\n\
         \n\
         {{\"description\": \"{ROOF}\",\n\
         {{\"description\": \"{ROOF}\", \"floor\": 9}}\r\n\
         {{\"description\": \"{ROOF}\", \"confirmed_subject\": \"common_area_roof\"}}\n"
    );
    let batch = parse("rows.jsonl", text.as_bytes()).unwrap();
    assert_eq!(batch.format(), BatchFormat::Jsonl);
    assert_eq!(batch.encoding(), Some(TextEncoding::Utf8));
    assert_eq!(row_numbers(&batch), [1, 3, 4, 5]);
    assert_eq!(batch.skipped_blank(), [2]);
    assert_eq!(batch.valid_count(), 2);
    let first = &batch.rows()[0];
    assert_eq!(first.header().full_name.as_deref(), Some("Петров П. П."));
    assert_eq!(first.header().apartment.as_deref(), Some("7"));
    assert_eq!(first.raw().description.as_deref(), Some(LEAK));
    let invalid = batch.invalid();
    assert_eq!(
        invalid.iter().map(|row| row.row).collect::<Vec<_>>(),
        [3, 4]
    );
    assert_eq!(invalid[0].errors[0].code, "not_json");
    assert!(
        invalid[0].errors[0]
            .message
            .starts_with("Данные заявки не читаются как JSON")
    );
    assert_eq!(invalid[1].errors[0].code, "unknown_field");
    assert_eq!(invalid[1].errors[0].field, "floor");
    assert_eq!(
        batch.rows()[3].checked().unwrap().confirmed_subject(),
        Some(SubjectKind::CommonAreaRoof)
    );
}

#[test]
fn issue_14_a_jsonl_line_with_a_repeated_name_is_refused_naming_it() {
    // The header columns are taken out of the object before the check, so the repeat must be
    // seen in the line as written, for them and for the input's own fields.
    let text = format!(
        "{{\"description\": \"{LEAK}\", \"description\": \"{ROOF}\"}}\n\
         {{\"description\": \"{LEAK}\", \"full_name\": \"А\", \"full_name\": \"Б\"}}\n\
         {{\"description\": \"{ROOF}\"}}\n"
    );
    let batch = parse("rows.jsonl", text.as_bytes()).unwrap();
    assert_eq!(batch.valid_count(), 1);
    let invalid = batch.invalid();
    let found: Vec<(u32, &str, &str)> = invalid
        .iter()
        .map(|row| {
            (
                row.row,
                row.errors[0].field.as_str(),
                row.errors[0].code.code(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (1, "description", "duplicate_field"),
            (2, "full_name", "duplicate_field")
        ]
    );
    assert!(
        invalid[0].errors[0]
            .message
            .contains("указано в данных несколько раз"),
        "{}",
        invalid[0].errors[0].message
    );
}

#[test]
fn jsonl_is_detected_by_content_without_the_extension() {
    let text = format!("\u{feff}  {{\"description\": \"{LEAK}\"}}\n");
    let batch = parse("rows.txt", text.as_bytes()).unwrap();
    assert_eq!(batch.format(), BatchFormat::Jsonl);
    assert_eq!(batch.encoding(), Some(TextEncoding::Utf8WithBom));
    assert_eq!(batch.valid_count(), 1);
}

fn xlsx_fixture(offset_rows: u32) -> Vec<u8> {
    let mut workbook = rust_xlsxwriter::Workbook::new();
    let sheet = workbook.add_worksheet();
    let header = ["Описание", "Место", "Квартира", "Предмет"];
    for (column, title) in header.iter().enumerate() {
        sheet
            .write_string(offset_rows, column as u16, *title)
            .unwrap();
    }
    sheet.write_string(offset_rows + 1, 0, LEAK).unwrap();
    sheet.write_string(offset_rows + 1, 1, "Подъезд 2").unwrap();
    // A flat number typed into a cell is a number in the workbook.
    sheet.write_number(offset_rows + 1, 2, 12).unwrap();
    sheet.write_string(offset_rows + 1, 3, "Лифт").unwrap();
    // One blank row, then a row whose description is too short.
    sheet.write_string(offset_rows + 3, 0, "темно").unwrap();
    let second = workbook.add_worksheet();
    second
        .write_string(0, 0, "Второй лист не читается")
        .unwrap();
    workbook.save_to_buffer().unwrap()
}

#[test]
fn xlsx_reads_the_first_sheet_with_spreadsheet_row_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = xlsx_fixture(0);
    // The content decides, whatever the extension says.
    let path = write(dir.path(), "requests.bin", &bytes);
    let batch = BatchFile::read(&path).unwrap();
    assert_eq!(batch.format(), BatchFormat::Xlsx);
    assert_eq!(batch.encoding(), None);
    assert_eq!(batch.delimiter(), None);
    assert_eq!(batch.content_sha256(), zayavka_core::sha256_hex(&bytes));
    assert_eq!(row_numbers(&batch), [2, 4]);
    assert_eq!(batch.skipped_blank(), [3]);
    let first = &batch.rows()[0];
    assert_eq!(first.header().apartment.as_deref(), Some("12"));
    let checked = first.checked().unwrap();
    assert_eq!(checked.location(), Some("Подъезд 2"));
    assert_eq!(
        checked.confirmed_subject(),
        Some(SubjectKind::CommonAreaElevator)
    );
    let invalid = batch.invalid();
    assert_eq!(invalid.len(), 1);
    assert_eq!(invalid[0].row, 4);
    assert_eq!(invalid[0].errors[0].code, "too_short");
}

#[test]
fn xlsx_rows_below_a_margin_keep_their_numbers() {
    let batch = parse("margin.xlsx", &xlsx_fixture(2)).unwrap();
    assert_eq!(row_numbers(&batch), [4, 6]);
}

#[test]
fn a_broken_workbook_and_old_formats_get_advice() {
    let error = parse("broken.xlsx", b"PK\x03\x04 not really a zip").unwrap_err();
    assert_eq!(error.code(), "unreadable_workbook");
    let message = assert_message(&error, "broken.xlsx");
    assert!(message.contains("сохраните заново"), "{message}");
    let error = parse("old.xls", b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1\0\0").unwrap_err();
    assert_eq!(error.code(), "unsupported_spreadsheet");
    assert!(assert_message(&error, "old.xls").contains("формате XLS"));
    let ods = b"PK\x03\x04\x14\0\0\0\0\0mimetypeapplication/vnd.oasis.opendocument.spreadsheetPK";
    let error = parse("calc.zip", ods).unwrap_err();
    assert!(assert_message(&error, "calc.zip").contains("формате ODS"));
}

#[test]
fn an_empty_workbook_is_empty() {
    let mut workbook = rust_xlsxwriter::Workbook::new();
    workbook.add_worksheet();
    let bytes = workbook.save_to_buffer().unwrap();
    assert_eq!(parse("empty.xlsx", &bytes).unwrap_err().code(), "empty");
}

#[test]
fn utf16_and_broken_utf8_after_a_bom_are_explained() {
    let error = parse("u16.csv", b"\xFF\xFEa\0").unwrap_err();
    assert_eq!(error.code(), "utf16");
    assert!(assert_message(&error, "u16.csv").contains("CSV UTF-8"));
    let error = parse("bom.csv", b"\xEF\xBB\xBFab\xFF").unwrap_err();
    assert!(
        matches!(
            error,
            BatchFileError::NotText {
                byte_offset: 5,
                utf16: false,
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(error.code(), "not_utf8");
}

#[test]
fn the_batch_id_is_the_hash_of_the_bytes() {
    let text = format!("Описание\n{LEAK}\n");
    let one = parse("a.csv", text.as_bytes()).unwrap();
    let again = parse("renamed.csv", text.as_bytes()).unwrap();
    assert_eq!(one.content_sha256(), again.content_sha256());
    assert_eq!(one.content_sha256().len(), 64);
    let changed = parse("a.csv", format!("{text}{ROOF}\n").as_bytes()).unwrap();
    assert_ne!(one.content_sha256(), changed.content_sha256());
}

#[test]
fn unreadable_files_keep_the_readers_messages() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.csv");
    let error = BatchFile::read(&missing).unwrap_err();
    assert_eq!(error.code(), "not_found");
    let message = error.message_ru();
    assert!(
        message.starts_with("не удалось прочитать файл с пакетом заявок"),
        "{message}"
    );
    assert!(message.contains("такого файла нет"), "{message}");
    assert_eq!(
        BatchFile::read(dir.path()).unwrap_err().code(),
        "is_directory"
    );
    #[cfg(unix)]
    assert_eq!(
        BatchFile::read(Path::new("/dev/zero")).unwrap_err().code(),
        "not_regular_file"
    );
}

#[test]
fn a_file_over_the_batch_cap_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.csv");
    // A sparse file: its size is over the cap, yet it takes no room and is never read.
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(FileRole::BATCH_MAX_BYTES + 1).unwrap();
    let error = BatchFile::read(&path).unwrap_err();
    assert_eq!(error.code(), "too_large");
    let message = error.message_ru();
    assert!(message.contains("не больше 256 МБ"), "{message}");
}

#[test]
fn issue_19_two_cells_at_opposite_corners_are_read_without_a_dense_table() {
    // A1 and XFD1048576: as a dense range (what calamine's `worksheet_range` builds) these are
    // 17 billion cells, far more memory than any computer has. Read cell by cell they are a
    // header and one value without a header, said plainly.
    let mut workbook = rust_xlsxwriter::Workbook::new();
    let sheet = workbook.add_worksheet();
    sheet.write_string(0, 0, "Описание").unwrap();
    sheet.write_string(1, 0, LEAK).unwrap();
    sheet.write_string(1_048_575, 16_383, "x").unwrap();
    let bytes = workbook.save_to_buffer().unwrap();
    let error = parse("corners.xlsx", &bytes).unwrap_err();
    assert_eq!(error.code(), "value_without_header");
    let message = assert_message(&error, "corners.xlsx");
    assert!(message.contains("ячейка XFD1048576"), "{message}");
}

#[test]
fn issue_19_cells_past_the_limit_are_refused_before_the_rows_are_built() {
    let header = "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>Описание</t></is></c></row>";
    let cell = "<c t=\"inlineStr\"><is><t>x</t></is></c>";
    let mut sheet = String::from(header);
    // Rows of sixteen short cells each, past the limit of cells with a value.
    let row = format!("<row>{}</row>", cell.repeat(16));
    sheet.push_str(&row.repeat(1000 / 16 + 1));
    let mut table = Table::new(MAX_ROWS);
    let error =
        super::xlsx::read_xlsx_with(&workbook_with_sheet(&sheet), &mut table, 1000).unwrap_err();
    assert_eq!(error, ContentError::TooManyCells { max: 1000 });
    // The limit itself: the header and every row a batch may have, with all eight columns.
    assert_eq!(super::xlsx::MAX_CELLS, (MAX_ROWS + 1) * 8);
}

/// The smallest workbook calamine opens, with `sheet_data` as its one sheet's rows.
fn workbook_with_sheet(sheet_data: &str) -> Vec<u8> {
    use std::io::Write as _;
    let mut archive = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let files = [
        (
            "[Content_Types].xml",
            r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#.to_owned(),
        ),
        (
            "_rels/.rels",
            r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#.to_owned(),
        ),
        (
            "xl/workbook.xml",
            r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Лист1" sheetId="1" r:id="rId1"/></sheets></workbook>"#.to_owned(),
        ),
        (
            "xl/_rels/workbook.xml.rels",
            r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#.to_owned(),
        ),
        (
            "xl/worksheets/sheet1.xml",
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{sheet_data}</sheetData></worksheet>"#
            ),
        ),
    ];
    for (name, text) in files {
        archive.start_file(name, options).unwrap();
        archive.write_all(text.as_bytes()).unwrap();
    }
    archive.finish().unwrap().into_inner()
}

#[test]
fn issue_19_a_workbook_read_cell_by_cell_keeps_rows_blank_rows_and_columns() {
    let sheet = concat!(
        "<row r=\"2\"><c r=\"B2\" t=\"inlineStr\"><is><t>Описание</t></is></c>",
        "<c r=\"C2\" t=\"inlineStr\"><is><t>Место</t></is></c></row>",
        "<row r=\"5\"><c r=\"C5\" t=\"inlineStr\"><is><t>Подъезд 1</t></is></c>",
        "<c r=\"B5\" t=\"inlineStr\"><is><t>В подъезде неделю не горит свет на лестнице.</t></is></c></row>",
    );
    let batch = parse("cells.xlsx", &workbook_with_sheet(sheet)).unwrap();
    assert_eq!(row_numbers(&batch), [5]);
    assert_eq!(batch.skipped_blank(), [3, 4]);
    assert_eq!(
        batch.rows()[0].checked().unwrap().location(),
        Some("Подъезд 1")
    );
}

/// `batch add` (issue 38): a date typed into a spreadsheet is a date cell, which the workbook
/// stores as a day's number; the row's filing keeps it as written for the engine to read.
#[test]
fn xlsx_date_cells_and_filing_columns_reach_the_row_s_filing() {
    let mut workbook = rust_xlsxwriter::Workbook::new();
    let sheet = workbook.add_worksheet();
    for (column, title) in ["Описание", "Дата подачи", "Способ подачи", "Входящий номер"]
        .iter()
        .enumerate()
    {
        sheet.write_string(0, column as u16, *title).unwrap();
    }
    sheet.write_string(1, 0, LEAK).unwrap();
    let day = rust_xlsxwriter::ExcelDateTime::from_ymd(2026, 11, 20).unwrap();
    let format = rust_xlsxwriter::Format::new().set_num_format("dd.mm.yyyy");
    sheet
        .write_datetime_with_format(1, 1, &day, &format)
        .unwrap();
    sheet.write_string(1, 2, "лично").unwrap();
    sheet.write_number(1, 3, 512).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "поданные.xlsx",
        &workbook.save_to_buffer().unwrap(),
    );
    let batch = BatchFile::read(&path).unwrap();
    let filing = batch.rows()[0].filing();
    assert_eq!(filing.filed.as_deref(), Some("46346"));
    assert_eq!(filing.how.as_deref(), Some("лично"));
    assert_eq!(filing.number.as_deref(), Some("512"));
    assert_eq!(filing.to, None);
}
