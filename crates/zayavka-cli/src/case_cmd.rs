//! `zayavka drafts filed | answer | close | reopen | unfile | due | follow-up` (issue 30): what
//! happened after the request was filed — the filing, the answer's deadline, where each case
//! stands, the answer, the closing and the letters that follow. Today is the system's date, or
//! `ZAYAVKA_TODAY=ГГГГ-ММ-ДД`. A case is printed by `case_print.rs` and a letter written to a
//! file by `document_out.rs`, below this file and `drafts_cmd.rs` alike.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use zayavka_engine::{
    Answer, AnswerResult, AttachmentRole, CaseState, CaseView, DeadlineState, DocumentFormat,
    DraftId, Engine, FilingInput, FilingMethod, date_ru, method_ru, result_ru,
};

use crate::case_print::{case_error, print_deadline, titles, today_or_error};
use crate::document_out;
use crate::wording::{capitalised, row_list, sentence};

/// `drafts filed`.
#[derive(Debug, clap::Args)]
pub struct FiledArgs {
    /// Номер черновика.
    #[arg(value_name = "НОМЕР")]
    id: DraftId,
    /// День подачи (ГГГГ-ММ-ДД). Для уже поданного черновика можно не указывать: останется
    /// прежний.
    #[arg(long, value_name = "ДАТА", value_parser = day)]
    date: Option<jiff::civil::Date>,
    /// Как подана: in_person (лично, с отметкой на втором экземпляре), letter (заказным
    /// письмом с уведомлением), email, gis (ГИС ЖКХ или Госуслуги.Дом), site (сайт или
    /// приложение организации), other.
    #[arg(long, value_name = "СПОСОБ", value_parser = method)]
    how: Option<FilingMethod>,
    /// Входящий номер, который дала организация, как он записан (пустая строка убирает его).
    #[arg(long, value_name = "ТЕКСТ")]
    number: Option<String>,
    /// Кому подана, например «ООО „УК Восход“» (пустая строка убирает).
    #[arg(long, value_name = "ТЕКСТ")]
    to: Option<String>,
    /// Для письма: день вручения из уведомления или по трек-номеру (ГГГГ-ММ-ДД); срок ответа
    /// считается с него.
    #[arg(long, value_name = "ДАТА", value_parser = day)]
    delivered: Option<jiff::civil::Date>,
    /// Фотографии второго экземпляра с отметкой или почтовой квитанции (JPEG или PNG);
    /// сведения о месте съёмки и камере удаляются.
    #[arg(long = "photo", value_name = "ФАЙЛ")]
    photos: Vec<PathBuf>,
    /// Вывести объект JSON.
    #[arg(long)]
    json: bool,
}

/// `drafts add`: a request filed before Zayavka (issue 38).
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["text", "text_file"])))]
pub struct AddArgs {
    /// Текст заявки, как он был подан (от 10 до 2000 знаков). Ничего в нём не меняется.
    #[arg(long, value_name = "ТЕКСТ")]
    text: Option<String>,
    /// Файл UTF-8 с текстом заявки, как она была подана.
    #[arg(long, value_name = "ФАЙЛ")]
    text_file: Option<PathBuf>,
    /// День подачи (ГГГГ-ММ-ДД): раньше сегодняшнего можно, в будущем и до 2000 года — нет.
    #[arg(long, value_name = "ДАТА", value_parser = day)]
    filed: jiff::civil::Date,
    /// Как подана: in_person, letter, email, gis, site или other (как в drafts filed).
    #[arg(long, value_name = "СПОСОБ", value_parser = method)]
    how: FilingMethod,
    /// Кому подана, например «ООО „УК Восход“».
    #[arg(long, value_name = "ТЕКСТ")]
    to: Option<String>,
    /// Входящий номер, как он записан.
    #[arg(long, value_name = "ТЕКСТ")]
    number: Option<String>,
    /// Для письма: день вручения (ГГГГ-ММ-ДД).
    #[arg(long, value_name = "ДАТА", value_parser = day)]
    delivered: Option<jiff::civil::Date>,
    /// Фотографии второго экземпляра с отметкой или квитанции (JPEG или PNG).
    #[arg(long = "photo", value_name = "ФАЙЛ")]
    photos: Vec<PathBuf>,
    /// Вывести объект JSON.
    #[arg(long)]
    json: bool,
}

/// `drafts add`: records a request filed before Zayavka, already filed, and says its deadline.
pub fn add(args: AddArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let today = today_or_error()?;
    let text = match (&args.text, &args.text_file) {
        (Some(text), _) => text.clone(),
        (None, Some(file)) => zayavka_engine::read_text_file(
            file,
            zayavka_engine::FileRole::FiledText,
            zayavka_engine::FileRole::FiledText.max_bytes(),
        )
        .map_err(|error| anyhow::anyhow!(error.message_ru()))?,
        (None, None) => unreachable!("clap requires --text or --text-file"),
    };
    let input = FilingInput {
        filed_on: args.filed,
        method: args.how,
        number: args.number.clone(),
        addressee: args.to.clone(),
        delivered_on: args.delivered,
    };
    let view = engine.bring_in(&text, &input, today).map_err(case_error)?;
    let id = view.case.draft_id;
    // The request is recorded whatever becomes of its photos: running `add` again would record
    // it twice, so a refused photo is attached with `drafts filed`.
    let again = format!(
        "Заявка записана как черновик № {id}; приложите фотографии командой zayavka drafts \
         filed {id} --photo ФАЙЛ."
    );
    let role = AttachmentRole::Filing;
    if args.json {
        attach_again(engine, &mut std::io::sink(), id, role, &args.photos, &again)?;
        let text = serde_json::to_string_pretty(&view)?;
        writeln!(std::io::stdout().lock(), "{text}")?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "Записана заявка, поданная {} ({}): черновик № {id}. Её текст сохранён как вы его \
         подали.",
        date_ru(args.filed),
        method_ru(args.how),
    )?;
    attach_again(engine, &mut stdout, id, role, &args.photos, &again)?;
    print_deadline(&mut stdout, &view, today)?;
    Ok(ExitCode::SUCCESS)
}

/// `drafts answer`.
#[derive(Debug, clap::Args)]
pub struct AnswerArgs {
    /// Номер черновика.
    #[arg(value_name = "НОМЕР")]
    id: DraftId,
    /// День, когда пришёл ответ (ГГГГ-ММ-ДД).
    #[arg(long, value_name = "ДАТА", value_parser = day)]
    date: jiff::civil::Date,
    /// Что сделано: solved (решено), partly (решено частично), refused (отказ), unaddressed
    /// (ответ не по существу).
    #[arg(long, value_name = "ИТОГ", value_parser = answer_result)]
    result: AnswerResult,
    /// Фотографии или скан ответа (JPEG или PNG).
    #[arg(long = "photo", value_name = "ФАЙЛ")]
    photos: Vec<PathBuf>,
    /// Вывести объект JSON.
    #[arg(long)]
    json: bool,
}

/// `drafts due`.
#[derive(Debug, clap::Args)]
pub struct DueArgs {
    /// Показать и закрытые, и получившие ответ.
    #[arg(long)]
    all: bool,
    /// Вывести массив JSON (всегда все поданные).
    #[arg(long)]
    json: bool,
}

/// `drafts calendar`.
#[derive(Debug, clap::Args)]
pub struct CalendarArgs {
    /// Номер черновика.
    #[arg(value_name = "НОМЕР")]
    id: DraftId,
    /// Файл .ics; без него — в стандартный вывод.
    #[arg(long, value_name = "ФАЙЛ")]
    out: Option<PathBuf>,
}

/// `batch filed`.
#[derive(Debug, clap::Args)]
pub struct BatchFiledArgs {
    /// Номер пакета из `zayavka batch list`.
    #[arg(value_name = "ПАКЕТ")]
    batch: String,
    /// День подачи (ГГГГ-ММ-ДД).
    #[arg(long, value_name = "ДАТА", value_parser = day)]
    date: jiff::civil::Date,
    /// Как поданы: in_person, letter, email, gis, site, other (как у `drafts filed`).
    #[arg(long, value_name = "СПОСОБ", value_parser = method)]
    how: FilingMethod,
    /// Только эти строки файла, через запятую: 2,5,7 (по умолчанию — все готовые).
    #[arg(long, value_name = "СТРОКИ", value_delimiter = ',', value_parser = row_number)]
    rows: Vec<u32>,
    /// Входящий номер, если на все заявки он один.
    #[arg(long, value_name = "ТЕКСТ")]
    number: Option<String>,
    /// Кому поданы.
    #[arg(long, value_name = "ТЕКСТ")]
    to: Option<String>,
    /// Для писем: день вручения (ГГГГ-ММ-ДД).
    #[arg(long, value_name = "ДАТА", value_parser = day)]
    delivered: Option<jiff::civil::Date>,
    /// Вывести объект JSON.
    #[arg(long)]
    json: bool,
}

impl BatchFiledArgs {
    /// The batch as the activist named it.
    pub fn batch(&self) -> &str {
        &self.batch
    }
}

fn row_number(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(number) if number >= 1 => Ok(number),
        _ => Err("номер строки — целое число от 1, как в файле пакета".to_owned()),
    }
}

/// `batch filed`: the ready rows of a batch marked filed in one step.
pub fn batch_filed(
    args: &BatchFiledArgs,
    batch_id: &str,
    engine: &Engine,
) -> anyhow::Result<ExitCode> {
    let today = today_or_error()?;
    let input = FilingInput {
        filed_on: args.date,
        method: args.how,
        number: args.number.clone(),
        addressee: args.to.clone(),
        delivered_on: args.delivered,
    };
    let report = engine
        .file_batch(batch_id, &args.rows, &input, today)
        .map_err(case_error)?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        stdout,
        "Отмечено поданными {} ({}): {}.",
        date_ru(args.date),
        method_ru(args.how),
        report.filed.len()
    )?;
    if !report.already_filed.is_empty() {
        writeln!(
            stdout,
            "Уже были отмечены и остались как были — строки {}.",
            row_list(&report.already_filed)
        )?;
    }
    if !report.not_ready.is_empty() {
        writeln!(
            stdout,
            "Без готовой заявки, не отмечены — строки {}.",
            row_list(&report.not_ready)
        )?;
    }
    if !report.unknown.is_empty() {
        writeln!(
            stdout,
            "В пакете нет строк {} — проверьте номера (zayavka batch status {}).",
            row_list(&report.unknown),
            args.batch
        )?;
    }
    if !report.filed.is_empty() {
        writeln!(stdout, "Сроки ответов: zayavka drafts due.")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `drafts follow-up`.
#[derive(Debug, clap::Args)]
pub struct FollowUpArgs {
    /// Номер поданного черновика.
    #[arg(value_name = "НОМЕР")]
    id: DraftId,
    /// company — повторная заявка в ту же управляющую организацию; inspectorate — жалоба в
    /// государственную жилищную инспекцию.
    #[arg(long, value_name = "КОМУ", value_parser = ["company", "inspectorate"],
          hide_possible_values = true)]
    to: String,
    /// Для жалобы: инспекция вашего региона, как она будет названа в строке «Кому»,
    /// например «Государственная жилищная инспекция Московской области».
    #[arg(long, value_name = "ТЕКСТ")]
    addressee: Option<String>,
    /// Сразу сохранить письмо документом: txt, pdf или docx (нужен --out).
    #[arg(long, value_name = "ФОРМАТ", value_parser = ["txt", "pdf", "docx"],
          hide_possible_values = true, requires = "out")]
    format: Option<String>,
    /// Файл документа.
    #[arg(long, value_name = "ФАЙЛ", requires = "format")]
    out: Option<PathBuf>,
    /// Коллективное письмо: добавить в документ таблицу, где соседи впишут ФИО и квартиры и
    /// распишутся (нужен --format).
    #[arg(long, requires = "format")]
    collective: bool,
}

/// `drafts follow-up`: a repeat request or a complaint written from the case, stored as a new
/// draft and, when asked, saved as a document.
pub fn follow_up(args: FollowUpArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let kind = follow_up_kind(&args.to, args.addressee.as_deref())?;
    let today = today_or_error()?;
    let id = engine
        .write_follow_up(args.id, kind, args.addressee.as_deref(), today)
        .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    writeln!(
        std::io::stdout().lock(),
        "{} по черновику № {} сохранена как черновик № {id}: посмотрите её (zayavka drafts \
         show {id}), подайте и отметьте подачу (zayavka drafts filed {id} …).",
        match kind {
            zayavka_engine::FollowUpKind::Repeat => "Повторная заявка",
            zayavka_engine::FollowUpKind::Complaint => "Жалоба в жилищную инспекцию",
        },
        args.id
    )?;
    if let (Some(format), Some(out)) = (&args.format, &args.out) {
        let format = document_format(format)?;
        document_out::write_document(engine, id, format, today, args.collective, out)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `batch follow-up`.
#[derive(Debug, clap::Args)]
pub struct BatchFollowUpArgs {
    /// Номер пакета из `zayavka batch list`.
    #[arg(value_name = "ПАКЕТ")]
    batch: String,
    /// company — повторные заявки в ту же управляющую организацию; inspectorate — жалобы в
    /// государственную жилищную инспекцию.
    #[arg(long, value_name = "КОМУ", value_parser = ["company", "inspectorate"],
          hide_possible_values = true)]
    to: String,
    /// Для жалоб: инспекция вашего региона, как она будет названа в строке «Кому».
    #[arg(long, value_name = "ТЕКСТ")]
    addressee: Option<String>,
    /// txt, pdf или docx.
    #[arg(long, value_name = "ФОРМАТ", value_parser = ["txt", "pdf", "docx"],
          hide_possible_values = true)]
    format: String,
    /// Папка для документов (создаётся, если её нет).
    #[arg(long, value_name = "ПАПКА")]
    out: PathBuf,
    /// Коллективные письма: добавить в каждый документ таблицу для подписей соседей.
    #[arg(long)]
    collective: bool,
}

impl BatchFollowUpArgs {
    /// The batch as the activist named it.
    pub fn batch(&self) -> &str {
        &self.batch
    }
}

/// `batch follow-up`: the letters for a batch's overdue or unsolved rows, as documents.
pub fn batch_follow_up(
    args: &BatchFollowUpArgs,
    batch_id: &str,
    engine: &Engine,
) -> anyhow::Result<ExitCode> {
    let kind = follow_up_kind(&args.to, args.addressee.as_deref())?;
    let name = kind.code();
    let format = document_format(&args.format)?;
    let today = today_or_error()?;
    // The folder itself, never its parents: a path whose parent is gone is most often a
    // removable disk that was pulled out (the engine's rule for every export).
    zayavka_engine::create_output_dir(&args.out).map_err(|error| {
        anyhow::anyhow!(
            "Не удалось создать папку «{}»: {}. Выберите другую папку.",
            args.out.display(),
            zayavka_engine::io_error_ru(&error)
        )
    })?;
    let report = engine
        .batch_follow_ups(batch_id, kind, args.addressee.as_deref(), today)
        .map_err(case_error)?;
    let mut stdout = std::io::stdout().lock();
    for (row, letter) in report.written.iter().chain(&report.existing) {
        let path = args
            .out
            .join(format!("row-{row:04}-{name}.{}", args.format));
        let bytes = document_out::render(engine, *letter, format, today, args.collective)
            .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
        document_out::save(&path, &bytes)?;
        writeln!(
            stdout,
            "Строка {row}: черновик № {letter}, {}",
            path.display()
        )?;
    }
    writeln!(
        stdout,
        "Написано писем: {}.{}{}{}",
        report.written.len(),
        if report.existing.is_empty() {
            String::new()
        } else {
            format!(
                " Уже были написаны раньше и сохранены снова — строки {}.",
                row_list(
                    &report
                        .existing
                        .iter()
                        .map(|(row, _)| *row)
                        .collect::<Vec<_>>()
                )
            )
        },
        if report.not_due.is_empty() {
            String::new()
        } else {
            format!(
                " Срок ответа ещё не истёк — строки {}.",
                row_list(&report.not_due)
            )
        },
        if report.solved.is_empty() {
            String::new()
        } else {
            format!(" Проблема решена — строки {}.", row_list(&report.solved))
        }
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The letter `--to` asks for (`company` or `inspectorate`); a complaint needs the
/// inspectorate's name for its «Кому».
fn follow_up_kind(
    to: &str,
    addressee: Option<&str>,
) -> anyhow::Result<zayavka_engine::FollowUpKind> {
    if to != "inspectorate" {
        return Ok(zayavka_engine::FollowUpKind::Repeat);
    }
    if addressee.is_none() {
        anyhow::bail!(
            "Укажите инспекцию вашего региона, как её назвать в строке «Кому»: --addressee \
             \"Государственная жилищная инспекция …\" (название и адрес есть на сайте \
             инспекции или на Госуслугах)"
        );
    }
    Ok(zayavka_engine::FollowUpKind::Complaint)
}

/// A follow-up letter's `--format` as a document format (clap lets only txt, pdf and docx by).
fn document_format(text: &str) -> anyhow::Result<DocumentFormat> {
    DocumentFormat::from_extension(text)
        .ok_or_else(|| anyhow::anyhow!("допустимы форматы txt, pdf и docx"))
}

/// How a batch's cases stand today, for `batch status --json`.
pub fn batch_cases(engine: &Engine, batch_id: &str) -> anyhow::Result<zayavka_engine::CaseCounts> {
    engine
        .batch_cases(batch_id, today_or_error()?)
        .map_err(case_error)
}

/// The line `batch status` prints about the batch's cases, when any row was filed.
pub fn print_batch_cases(engine: &Engine, batch_id: &str) -> anyhow::Result<()> {
    let counts = batch_cases(engine, batch_id)?;
    if counts.filed > 0 {
        writeln!(
            std::io::stdout().lock(),
            "Подано: {}; ответ получен: {}; просрочено: {}; решено: {}.",
            counts.filed,
            counts.answered,
            counts.overdue,
            counts.solved
        )?;
    }
    Ok(())
}

/// `drafts close`, `drafts reopen`, `drafts unfile`.
#[derive(Debug, clap::Args)]
pub struct CaseIdArgs {
    /// Номер черновика.
    #[arg(value_name = "НОМЕР")]
    id: DraftId,
}

fn day(text: &str) -> Result<jiff::civil::Date, String> {
    text.trim()
        .parse()
        .map_err(|_| "нужна дата в виде ГГГГ-ММ-ДД, например 2026-12-01".to_owned())
}

fn method(text: &str) -> Result<FilingMethod, String> {
    FilingMethod::from_code(text.trim()).ok_or_else(|| {
        "допустимы in_person (лично), letter (заказное письмо), email, gis (ГИС ЖКХ или \
         Госуслуги.Дом), site (сайт или приложение организации) и other"
            .to_owned()
    })
}

fn answer_result(text: &str) -> Result<AnswerResult, String> {
    AnswerResult::from_code(text.trim()).ok_or_else(|| {
        "допустимы solved (решено), partly (решено частично), refused (отказ) и unaddressed \
         (ответ не по существу)"
            .to_owned()
    })
}

/// `--json` of `drafts filed` and `drafts answer`: the photos attached quietly, then the case.
fn print_json_with_photos(
    engine: &Engine,
    view: &CaseView,
    role: AttachmentRole,
    photos: &[PathBuf],
) -> anyhow::Result<ExitCode> {
    attach(
        engine,
        &mut std::io::sink(),
        view.case.draft_id,
        role,
        photos,
    )?;
    writeln!(
        std::io::stdout().lock(),
        "{}",
        serde_json::to_string_pretty(view)?
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Photos added to a case, reported as `drafts attach` reports them.
fn attach(
    engine: &Engine,
    out: &mut dyn std::io::Write,
    id: DraftId,
    role: AttachmentRole,
    photos: &[PathBuf],
) -> anyhow::Result<()> {
    if photos.is_empty() {
        return Ok(());
    }
    attach_again(
        engine,
        out,
        id,
        role,
        photos,
        "Приложите их снова той же командой: остальные сведения останутся прежними.",
    )
}

/// [`attach`], with `again` saying how to attach the photos once more when they are refused.
fn attach_again(
    engine: &Engine,
    out: &mut dyn std::io::Write,
    id: DraftId,
    role: AttachmentRole,
    photos: &[PathBuf],
    again: &str,
) -> anyhow::Result<()> {
    if photos.is_empty() {
        return Ok(());
    }
    // Called after the filing or the answer is stored: a refused photo must not read as if
    // nothing had been recorded.
    let list = engine
        .attach_case_photos(id, role, photos)
        .map_err(|error| {
            anyhow::anyhow!(
                "{} записан, но фотографии не приложены: {} {again}",
                if role == AttachmentRole::Answer {
                    "Ответ"
                } else {
                    "Факт подачи"
                },
                zayavka_engine::full_sentence(&error.message_ru())
            )
        })?;
    writeln!(
        out,
        "Приложено фотографий: {} (всего {}); сведения о месте съёмки и камере удалены.",
        photos.len(),
        list.len()
    )?;
    Ok(())
}

/// `drafts filed`: the draft marked filed, or its filing's facts changed.
pub fn filed(args: FiledArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let today = today_or_error()?;
    let existing = engine.case(args.id, today).map_err(case_error)?;
    let previous = existing.as_ref().map(|view| &view.case.filing);
    let (Some(filed_on), Some(method)) = (
        args.date.or(previous.map(|filing| filing.filed_on)),
        args.how.or(previous.map(|filing| filing.method)),
    ) else {
        anyhow::bail!(
            "Укажите день подачи и способ: zayavka drafts filed {} --date ГГГГ-ММ-ДД --how \
             in_person|letter|email|gis|site|other.",
            args.id
        );
    };
    let keep = |given: Option<String>, old: Option<&String>| match given {
        Some(text) => Some(text),
        None => old.cloned(),
    };
    let input = FilingInput {
        filed_on,
        method,
        number: keep(args.number, previous.and_then(|f| f.number.as_ref())),
        addressee: keep(args.to, previous.and_then(|f| f.addressee.as_ref())),
        delivered_on: args
            .delivered
            .or(previous.and_then(|filing| filing.delivered_on)),
    };
    let view = engine
        .file_draft(args.id, &input, today)
        .map_err(case_error)?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
        return print_json_with_photos(engine, &view, AttachmentRole::Filing, &args.photos);
    }
    let filing = &view.case.filing;
    if existing.is_some() {
        writeln!(
            stdout,
            "Сведения о подаче черновика № {} обновлены: подан {} ({}){}",
            args.id,
            date_ru(filing.filed_on),
            method_ru(filing.method),
            sentence(
                &filing
                    .delivered_on
                    .map(|day| format!(", вручён {}", date_ru(day)))
                    .unwrap_or_default()
            )
        )?;
    } else {
        writeln!(
            stdout,
            "Черновик № {} отмечен поданным {} ({}).",
            args.id,
            date_ru(filing.filed_on),
            method_ru(filing.method)
        )?;
    }
    writeln!(
        stdout,
        "Текст и фотографии этого черновика больше не меняются; исправленный текст — новый \
         черновик: zayavka drafts correct {}.",
        args.id
    )?;
    attach(
        engine,
        &mut stdout,
        args.id,
        AttachmentRole::Filing,
        &args.photos,
    )?;
    print_deadline(&mut stdout, &view, today)?;
    Ok(ExitCode::SUCCESS)
}

/// `drafts answer`: the answer recorded.
pub fn answer(args: AnswerArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let today = today_or_error()?;
    let answer = Answer {
        answered_on: args.date,
        result: args.result,
    };
    let view = engine
        .record_answer(args.id, answer, today)
        .map_err(case_error)?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
        return print_json_with_photos(engine, &view, AttachmentRole::Answer, &args.photos);
    }
    writeln!(
        stdout,
        "Ответ по черновику № {} записан: {}, {}.",
        args.id,
        date_ru(args.date),
        result_ru(args.result)
    )?;
    attach(
        engine,
        &mut stdout,
        args.id,
        AttachmentRole::Answer,
        &args.photos,
    )?;
    if let CaseState::Answered {
        on_time: Some(false),
        ..
    } = view.state
        && let DeadlineState::Known(deadline) = &view.deadline
    {
        writeln!(
            stdout,
            "Ответ пришёл позже срока ({}).",
            date_ru(deadline.due)
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `drafts close` and `drafts reopen`.
pub fn close(args: CaseIdArgs, engine: &Engine, close: bool) -> anyhow::Result<ExitCode> {
    let today = today_or_error()?;
    engine
        .close_case(args.id, close, today)
        .map_err(case_error)?;
    let mut stdout = std::io::stdout().lock();
    if close {
        writeln!(
            stdout,
            "Дело по черновику № {} закрыто {} Открыть снова: zayavka drafts reopen {}.",
            args.id,
            sentence(&date_ru(today)),
            args.id
        )?;
    } else {
        writeln!(stdout, "Дело по черновику № {} снова открыто.", args.id)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `drafts correct`: a new draft to correct a filed one.
pub fn correct(args: CaseIdArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let copy = engine.correct_draft(args.id).map_err(case_error)?;
    writeln!(
        std::io::stdout().lock(),
        "Создан черновик № {copy} — копия поданного черновика № {} с его текстом, правками и \
         фотографиями. Исправьте его (zayavka drafts edit {copy}) и подайте как новую заявку; \
         поданный черновик остаётся как был.",
        args.id
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `drafts calendar`: the deadline as an event for the resident's own calendar.
pub fn calendar(args: CalendarArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let today = today_or_error()?;
    let Some(view) = engine.case(args.id, today).map_err(case_error)? else {
        anyhow::bail!(
            "Черновик № {} не отмечен как поданный, и срока ответа у него нет. Сначала \
             отметьте подачу: zayavka drafts filed {} --date ГГГГ-ММ-ДД --how СПОСОБ.",
            args.id,
            args.id
        );
    };
    let title = engine
        .draft(args.id)
        .map_err(|error| anyhow::anyhow!(error.message_ru()))?
        .summary
        .title;
    let Some(event) =
        zayavka_engine::deadline_event(&view, title.as_deref(), jiff::Timestamp::now())
    else {
        let why = match &view.deadline {
            DeadlineState::AwaitingDelivery => {
                "письмо ещё не вручено, и срок ответа не начался; укажите день вручения: \
                 zayavka drafts filed НОМЕР --delivered ГГГГ-ММ-ДД"
                    .to_owned()
            }
            DeadlineState::Unknown { reason, .. } => reason.clone(),
            DeadlineState::Known(_) => String::new(),
        };
        anyhow::bail!("Событие для календаря не создано: {why}.");
    };
    match &args.out {
        Some(path) => {
            document_out::save(path, event.as_bytes())?;
            writeln!(
                std::io::stdout().lock(),
                "Срок ответа по черновику № {} записан в {} — откройте файл, чтобы добавить \
                 событие в свой календарь (с напоминанием за день).",
                args.id,
                path.display()
            )?;
        }
        None => write!(std::io::stdout().lock(), "{event}")?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `drafts unfile`: a filing mark made by mistake taken back.
pub fn unfile(args: CaseIdArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    engine.withdraw_filing(args.id).map_err(case_error)?;
    writeln!(
        std::io::stdout().lock(),
        "Отметка о подаче черновика № {} снята: сведения о подаче, ответ и их фотографии \
         удалены, текст черновика снова можно править.",
        args.id
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `drafts due`: what is overdue first, then what is due soon, then the rest.
pub fn due(args: DueArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let today = today_or_error()?;
    let views = engine.due(today).map_err(case_error)?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(&views)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let shown: Vec<&CaseView> = views
        .iter()
        .filter(|view| {
            args.all
                || !matches!(
                    view.state,
                    CaseState::Answered { .. } | CaseState::Closed { .. }
                )
        })
        .collect();
    if views.is_empty() {
        writeln!(
            stdout,
            "Поданных заявок нет. Когда подадите заявку, отметьте это: zayavka drafts filed \
             НОМЕР --date ГГГГ-ММ-ДД --how СПОСОБ."
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    if shown.is_empty() {
        writeln!(
            stdout,
            "Ответов ждать не от кого: по всем поданным заявкам ответ получен или дело \
             закрыто (zayavka drafts due --all покажет их)."
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let titles = titles(engine, &shown);
    let overdue = shown
        .iter()
        .filter(|view| matches!(view.state, CaseState::Overdue { .. }))
        .count();
    writeln!(
        stdout,
        "Сроки на {}: просрочено {overdue}, всего поданных {}.",
        date_ru(today),
        views.len()
    )?;
    for view in &shown {
        let id = view.case.draft_id;
        writeln!(
            stdout,
            "№ {id} · {} · подана {}{}",
            view.state_ru,
            date_ru(view.case.filing.filed_on),
            view.case
                .filing
                .number
                .as_deref()
                .map(|number| format!(", вх. {}", zayavka_engine::escape_invisible(number)))
                .unwrap_or_default()
        )?;
        if let Some(title) = titles.get(&id) {
            writeln!(stdout, "    {}", zayavka_engine::escape_invisible(title))?;
        }
    }
    for provisional in shown
        .iter()
        .filter_map(|view| view.provisional_ru.as_deref())
        .collect::<std::collections::BTreeSet<&str>>()
    {
        writeln!(stdout, "{}", sentence(&capitalised(provisional)))?;
    }
    if views.iter().any(|view| view.notice_ru.is_some()) {
        writeln!(stdout, "{}", zayavka_engine::DEADLINE_REVIEW_NOTICE)?;
    }
    Ok(ExitCode::SUCCESS)
}
