//! `zayavka drafts filed | answer | close | reopen | unfile | due` (issue 30): what happened
//! after the request was filed — the filing, the answer's deadline, where each case stands, the
//! answer and the closing. Today is the system's date, or `ZAYAVKA_TODAY=ГГГГ-ММ-ДД`.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use zayavka_engine::{
    Answer, AnswerResult, AttachmentRole, CaseError, CaseState, CaseView, DeadlineState, DraftId,
    Engine, FilingInput, FilingMethod, date_ru, method_ru, result_ru, today,
};

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
    let format = zayavka_engine::DocumentFormat::from_extension(&args.format)
        .ok_or_else(|| anyhow::anyhow!("допустимы форматы txt, pdf и docx"))?;
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
        let bytes = engine
            .filed_document(*letter, today, args.collective)
            .and_then(|document| Ok(document.render(format)?))
            .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
        zayavka_engine::save_document(&path, &bytes)
            .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
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
pub fn follow_up_kind(
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

fn case_error(error: CaseError) -> anyhow::Error {
    anyhow::anyhow!(error.message_ru())
}

fn today_or_error() -> anyhow::Result<jiff::civil::Date> {
    today().map_err(case_error)
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

/// The deadline of a case, or why there is none, and what to do about it.
fn print_deadline(
    out: &mut dyn std::io::Write,
    view: &CaseView,
    today: jiff::civil::Date,
) -> anyhow::Result<()> {
    match &view.deadline {
        DeadlineState::Known(deadline) => {
            writeln!(
                out,
                "Ответ должен прийти не позднее {}: {}. Сейчас: {}",
                date_ru(deadline.due),
                view.term_ru,
                sentence(&view.state.phrase_ru(today))
            )?;
        }
        DeadlineState::AwaitingDelivery => writeln!(
            out,
            "Срок ответа начнётся со дня вручения письма. Когда узнаете дату из уведомления \
             о вручении или по трек-номеру, укажите её: zayavka drafts filed {} --delivered \
             ГГГГ-ММ-ДД.",
            view.case.draft_id
        )?,
        DeadlineState::Unknown { reason, .. } => writeln!(out, "{}.", capitalised(reason))?,
    }
    if let Some(provisional) = &view.provisional_ru {
        writeln!(out, "{}", sentence(&capitalised(provisional)))?;
    }
    if let Some(notice) = &view.notice_ru {
        writeln!(out, "{notice}")?;
    }
    Ok(())
}

/// `text` ending with one period, also when it ends with «г.» already.
fn sentence(text: &str) -> String {
    if text.ends_with('.') {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
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
            zayavka_engine::save_document(path, event.as_bytes())
                .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
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

/// The titles of the cases' drafts, for the lines under them.
fn titles(engine: &Engine, views: &[&CaseView]) -> BTreeMap<DraftId, String> {
    views
        .iter()
        .filter_map(|view| {
            let draft = engine.draft(view.case.draft_id).ok()?;
            Some((view.case.draft_id, draft.summary.title?))
        })
        .collect()
}

/// The case as `drafts show` prints it under the draft.
pub fn print_case(
    out: &mut dyn std::io::Write,
    engine: &Engine,
    id: DraftId,
) -> anyhow::Result<()> {
    let today = today_or_error()?;
    if let Some(link) = engine.follow_link(id).map_err(case_error)? {
        let kind = match link.kind {
            zayavka_engine::FollowKind::Correction => "исправление",
            zayavka_engine::FollowKind::Repeat => "повторная заявка",
            zayavka_engine::FollowKind::Complaint => "жалоба в жилищную инспекцию",
        };
        match link.draft_id {
            Some(first) => writeln!(out, "\nЭто {kind} по черновику № {first}.")?,
            None => writeln!(out, "\nЭто {kind} по черновику, который потом удалён.")?,
        }
    }
    let Some(view) = engine.case(id, today).map_err(case_error)? else {
        return Ok(());
    };
    let filing = &view.case.filing;
    writeln!(
        out,
        "\nПодана {} ({}){}{}.",
        date_ru(filing.filed_on),
        method_ru(filing.method),
        filing
            .number
            .as_deref()
            .map(|number| format!(", входящий № {}", zayavka_engine::escape_invisible(number)))
            .unwrap_or_default(),
        filing
            .addressee
            .as_deref()
            .map(|to| format!(", адресат: {}", zayavka_engine::escape_invisible(to)))
            .unwrap_or_default()
    )?;
    if let Some(delivered) = filing.delivered_on {
        writeln!(out, "Письмо вручено {}", sentence(&date_ru(delivered)))?;
    }
    if let Some(answer) = view.case.answer {
        writeln!(
            out,
            "Ответ получен {}: {}.",
            date_ru(answer.answered_on),
            result_ru(answer.result)
        )?;
    }
    if view.case.answer.is_none() && view.case.closed_on.is_none() {
        print_deadline(out, &view, today)?;
    } else {
        writeln!(out, "Сейчас: {}", sentence(&view.state_ru))?;
    }
    for (role, label) in [
        (AttachmentRole::Filing, "Фотографии подачи"),
        (AttachmentRole::Answer, "Фотографии ответа"),
    ] {
        let photos = engine
            .case_photos(id, role)
            .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
        if !photos.is_empty() {
            writeln!(out, "{label}: {}.", photos.len())?;
        }
    }
    Ok(())
}

/// The state line a list shows under a filed draft.
pub fn state_line(view: &CaseView) -> String {
    format!(
        "    Подана {} · {}",
        date_ru(view.case.filing.filed_on),
        view.state_ru
    )
}

/// Every case by draft, as of today, for the lists; empty when the cases cannot be read (the
/// list itself still shows).
pub fn cases_by_draft(engine: &Engine) -> BTreeMap<DraftId, CaseView> {
    let Ok(today) = today() else {
        return BTreeMap::new();
    };
    engine
        .due(today)
        .map(|views| {
            views
                .into_iter()
                .map(|view| (view.case.draft_id, view))
                .collect()
        })
        .unwrap_or_default()
}

/// Row numbers as a message lists them: «2, 5, 7–40» — a run of three or more in a row as a
/// range, so that a file of 500 rows is one line, not 500 numbers.
pub(crate) fn row_list(rows: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut index = 0;
    while index < rows.len() {
        let first = rows[index];
        let mut last = index;
        while last + 1 < rows.len() && rows[last + 1] == rows[last] + 1 {
            last += 1;
        }
        match last - index {
            0 => parts.push(first.to_string()),
            1 => parts.extend([first.to_string(), rows[last].to_string()]),
            _ => parts.push(format!("{first}–{}", rows[last])),
        }
        index = last + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn row_numbers_in_a_row_are_listed_as_a_range() {
        assert_eq!(super::row_list(&[]), "");
        assert_eq!(super::row_list(&[4]), "4");
        assert_eq!(super::row_list(&[2, 3]), "2, 3");
        assert_eq!(
            super::row_list(&[2, 3, 4, 9, 11, 12, 13, 14]),
            "2–4, 9, 11–14"
        );
    }
}
