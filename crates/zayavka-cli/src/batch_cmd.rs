//! `zayavka batch`: many requests from one file, resumable — `batch FILE` (or `batch run FILE`),
//! `batch list`, `batch status N` and `batch export N` (one filed document per row, or one
//! JSONL or CSV file for the batch). A run first shows its plan (which rows are new, changed,
//! done before or refused, and what sending may cost at most) and asks before it sends.

use std::io::{IsTerminal as _, Write as _};
use std::num::{NonZeroU32, NonZeroUsize};
use std::path::PathBuf;
use std::process::ExitCode;

use zayavka_engine::{
    BatchFile, BatchPlan, BatchProgress, BatchSettings, BatchSummary, CoSigners, DEFAULT_MAX_ROWS,
    DocumentFormat, DocumentsExport, Engine, ExportFormat, InvalidRow, PlanCost, RowPlan,
    StopReason, WriteStatus,
};

use crate::draft_cmd::ProviderArgs;
use crate::exit::{FAILED, SUCCESS, USAGE};

/// How many refused rows are printed one by one; the rest are counted.
const INVALID_ROWS_SHOWN: usize = 10;

/// `zayavka batch …`. A first word that is not one of the subcommands is the file to run, so
/// `zayavka batch FILE` and `zayavka batch run FILE` are the same.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct BatchArgs {
    #[command(subcommand)]
    command: Option<BatchCommand>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, clap::Subcommand)]
enum BatchCommand {
    /// Составить заявки по всем строкам файла (то же, что `zayavka batch ФАЙЛ`).
    Run(RunArgs),
    /// Пакеты, новые сначала.
    List(ListArgs),
    /// Итоги пакета.
    Status(StatusArgs),
    /// Сохранить заявки пакета в папку: txt, pdf или docx — документ для подачи на каждую
    /// строку с готовой заявкой (row-0002.pdf…), jsonl или csv — один файл на пакет.
    Export(ExportArgs),
    /// Отметить готовые заявки пакета поданными одним шагом: все или выбранные строки
    /// (--rows); уже отмеченные остаются как были.
    Filed(crate::case_cmd::BatchFiledArgs),
    /// Написать повторные заявки (--to company) или жалобы в жилищную инспекцию (--to
    /// inspectorate) по всем поданным строкам, где ответа нет после срока или он не решил
    /// проблему, и сохранить их документами в папку.
    FollowUp(crate::case_cmd::BatchFollowUpArgs),
    /// Записать заявки, поданные до Заявки, из файла: по строке на заявку — «Описание» (текст,
    /// как он был подан), «Дата подачи», «Способ подачи», «Входящий номер», «Кому», «Дата
    /// вручения». Все строки проверяются сразу: если хоть одна не подходит, ничего не
    /// записывается; записанные раньше строки повторно не записываются.
    Add(AddArgs),
}

/// `batch add`.
#[derive(Debug, clap::Args)]
pub struct AddArgs {
    /// Файл CSV, XLSX или JSONL (как для пакета; в JSONL — поля description, filed, how, number,
    /// to, delivered).
    #[arg(value_name = "ФАЙЛ")]
    file: PathBuf,
    /// Вывести объект JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of a batch run.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Файл с заявками: CSV (UTF-8 или Windows-1251; «,», «;» или табуляция), XLSX (первый
    /// лист) или JSONL. Первая строка — заголовки: «Описание», «Место», «Последствия», «Что
    /// сделать», «Предмет».
    #[arg(value_name = "ФАЙЛ", required = true)]
    file: Option<PathBuf>,
    /// Сколько строк отправлять одновременно (от 1 до 64). По умолчанию по одной для GigaChat
    /// физических лиц и для сервера на этом компьютере, по четыре для остальных сервисов.
    #[arg(long, value_name = "N", value_parser = concurrency)]
    concurrency: Option<NonZeroUsize>,
    /// Не больше стольких запросов в минуту.
    #[arg(long, value_name = "N", value_parser = rpm)]
    rpm: Option<NonZeroU32>,
    /// Не отправлять строку, если с ней расчётная стоимость пакета превысила бы эту сумму
    /// (нужны цены в профиле провайдера).
    #[arg(long, value_name = "СУММА", value_parser = positive_amount)]
    max_cost: Option<f64>,
    /// Составить без модели: из ваших слов, без обращения к сети и без ключа.
    #[arg(long)]
    offline: bool,
    /// Не спрашивать подтверждения перед отправкой (для сценариев).
    #[arg(long, short = 'y')]
    yes: bool,
    /// Начать новый пакет, даже если этот файл уже запускался (иначе пакет продолжается:
    /// готовые строки не отправляются снова).
    #[arg(long)]
    new: bool,
    /// Наибольшее число строк в файле (по умолчанию 5000).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_ROWS, value_parser = max_rows)]
    max_rows: u32,
    /// Настройки провайдера для этого запуска.
    #[command(flatten)]
    provider: ProviderArgs,
    /// Вывести один объект JSON с итогами.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct ListArgs {
    /// Вывести массив JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct StatusArgs {
    /// Номер пакета из `zayavka batch list`.
    #[arg(value_name = "ПАКЕТ")]
    id: String,
    /// Вывести один объект JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct ExportArgs {
    /// Номер пакета из `zayavka batch list`.
    #[arg(value_name = "ПАКЕТ")]
    id: String,
    /// txt, pdf или docx — документ на строку; jsonl или csv — один файл на пакет.
    #[arg(long, value_name = "ФОРМАТ", value_parser = export_format)]
    format: BatchExportFormat,
    /// Папка, куда записать файлы (создаётся, если её нет).
    #[arg(long, value_name = "ПАПКА")]
    out: PathBuf,
    /// Коллективные заявки: после текста — таблица для подписей соседей (№, ФИО, квартира,
    /// подпись). Только для txt, pdf и docx.
    #[arg(long)]
    collective: bool,
    /// Дата документов (ГГГГ-ММ-ДД); без неё — сегодняшняя. Только для txt, pdf и docx.
    #[arg(long, value_name = "ДАТА", value_parser = document_date)]
    date: Option<jiff::civil::Date>,
    /// Заменить файлы с теми же именами, если они уже есть в папке; без этого ничего не
    /// перезаписывается. Только для txt, pdf и docx.
    #[arg(long)]
    force: bool,
    /// Вывести один объект JSON: что записано и какие строки пропущены и почему.
    #[arg(long)]
    json: bool,
}

/// What `batch export --format` names: a filed document per row, or one file for the batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BatchExportFormat {
    Documents(DocumentFormat),
    Combined(ExportFormat),
}

fn concurrency(text: &str) -> Result<NonZeroUsize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=64).contains(&n) => Ok(NonZeroUsize::new(n).expect("n is at least 1")),
        _ => Err("ожидается целое число от 1 до 64".to_owned()),
    }
}

fn max_rows(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if (1..=zayavka_engine::MAX_ROWS as u32).contains(&n) => Ok(n),
        _ => Err(format!(
            "ожидается целое число строк от 1 до {}",
            zayavka_engine::group_digits(zayavka_engine::MAX_ROWS as u64)
        )),
    }
}

fn rpm(text: &str) -> Result<NonZeroU32, String> {
    text.parse::<NonZeroU32>()
        .map_err(|_| "ожидается целое положительное число запросов в минуту".to_owned())
}

fn positive_amount(text: &str) -> Result<f64, String> {
    match text.replace(',', ".").parse::<f64>() {
        Ok(amount) if amount.is_finite() && amount > 0.0 => Ok(amount),
        _ => Err("ожидается положительная сумма, например 0.50".to_owned()),
    }
}

fn export_format(text: &str) -> Result<BatchExportFormat, String> {
    match text {
        "jsonl" => Ok(BatchExportFormat::Combined(ExportFormat::Jsonl)),
        "csv" => Ok(BatchExportFormat::Combined(ExportFormat::Csv)),
        _ => DocumentFormat::from_extension(text)
            .map(BatchExportFormat::Documents)
            .ok_or_else(|| "допустимы txt, pdf, docx, jsonl и csv".to_owned()),
    }
}

fn document_date(text: &str) -> Result<jiff::civil::Date, String> {
    text.parse()
        .map_err(|_| "нужна дата в виде ГГГГ-ММ-ДД, например 2026-12-01".to_owned())
}

/// Runs `zayavka batch …`.
pub fn run(args: BatchArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    match args.command {
        None => run_file(args.run, engine),
        Some(BatchCommand::Run(run)) => run_file(run, engine),
        Some(BatchCommand::List(list)) => list_command(&list, engine),
        Some(BatchCommand::Status(status)) => status_command(&status, engine),
        Some(BatchCommand::Filed(args)) => {
            let batch = named_batch(engine, args.batch())?;
            crate::case_cmd::batch_filed(&args, &batch.id, engine)
        }
        Some(BatchCommand::FollowUp(args)) => {
            let batch = named_batch(engine, args.batch())?;
            crate::case_cmd::batch_follow_up(&args, &batch.id, engine)
        }
        Some(BatchCommand::Export(export)) => export_command(&export, engine),
        Some(BatchCommand::Add(add)) => add_command(&add, engine),
    }
}

/// `batch add`: a file of requests filed before Zayavka, all recorded or none (issue 38).
fn add_command(args: &AddArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let file = BatchFile::read(&args.file).map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    let today = zayavka_engine::today().map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    let report = engine
        .bring_in_file(&file, today)
        .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    let code = if report.refused.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::exit::USAGE)
    };
    let mut stdout = std::io::stdout().lock();
    if args.json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(code);
    }
    if !report.refused.is_empty() {
        let mut stderr = std::io::stderr().lock();
        writeln!(
            stderr,
            "Ничего не записано: в файле есть строки, которые не подходят. Исправьте их и \
             запустите команду снова."
        )?;
        for refused in &report.refused {
            writeln!(stderr, "Строка {}: {}", refused.row, refused.reason)?;
        }
        return Ok(code);
    }
    for recorded in &report.recorded {
        writeln!(
            stdout,
            "Строка {}: записана как черновик № {}.",
            recorded.row, recorded.draft_id
        )?;
    }
    if !report.already.is_empty() {
        writeln!(
            stdout,
            "Записаны раньше и повторно не записывались: строки {}.",
            crate::wording::row_list(&report.already)
        )?;
    }
    writeln!(
        stdout,
        "Записано заявок: {}. Сроки ответов: zayavka drafts due.",
        report.recorded.len()
    )?;
    Ok(code)
}

fn progress_bar() -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} строк, {msg} {elapsed} (Ctrl-C — остановить, продолжить можно \
             той же командой)",
        )
        .expect("the template is valid"),
    );
    bar
}

fn run_file(args: RunArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let path = args.file.clone().expect("clap requires the file");
    let file = BatchFile::read(&path).map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    let environment = engine
        .environment(args.offline)
        .map_err(|error| anyhow::anyhow!(error.to_string()))?;
    let settings = BatchSettings {
        concurrency: args.concurrency,
        rpm: args.rpm,
        max_cost: args.max_cost,
        offline: args.offline,
        overrides: args.provider.overrides(),
        new_batch: args.new,
        max_rows: args.max_rows,
        // The CLI names no batch: a file continues the batch last run from it.
        batch_number: None,
        // One command is one session.
        session: engine.clients().clone(),
    };
    let plan = engine
        .plan_batch(&file, &settings, environment.clone())
        .map_err(|error| match error {
            zayavka_engine::BatchError::TooManyRows { .. } => {
                anyhow::anyhow!("{} (--max-rows {})", error.message_ru(), file.rows().len())
            }
            error => anyhow::anyhow!(error.message_ru()),
        })?;
    if !args.json {
        print_plan(&plan)?;
    }
    if plan.needs_confirmation() && !args.yes && !confirm(&plan)? {
        return Ok(ExitCode::from(USAGE));
    }
    let bar = (!args.json && std::io::stderr().is_terminal()).then(progress_bar);
    let on_progress = |progress: BatchProgress| {
        if let Some(bar) = &bar {
            bar.set_length(u64::from(progress.to_run));
            bar.set_position(u64::from(progress.finished));
            bar.set_message(format!("запросов: {}", progress.sent));
        }
    };
    let result = crate::output::block_on_until_ctrl_c(|cancel| async move {
        engine
            .run_batch(&file, &settings, environment, &cancel, &on_progress)
            .await
    })?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let summary = result.map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    // The plan priced the run in the profile's currency; the summary and the cap say it too.
    let currency = match &plan.cost {
        PlanCost::AtMost { currency, .. } => currency.clone(),
        PlanCost::Nothing | PlanCost::Unknown => None,
    };
    print_summary(&summary, currency.as_deref(), args.json)?;
    let mut stderr = std::io::stderr().lock();
    if summary.valid() == 0 {
        writeln!(
            stderr,
            "Ни одна строка файла не прошла проверку, поэтому ничего не отправлено. Исправьте \
             строки, указанные выше, и запустите пакет снова."
        )?;
        return Ok(ExitCode::from(USAGE));
    }
    if !args.json {
        match summary.stopped {
            Some(StopReason::CostCap) => writeln!(
                stderr,
                "Отправка остановлена: следующая строка могла превысить ограничение стоимости \
                 {}. Чтобы продолжить, запустите ту же команду с большим --max-cost.",
                args.max_cost
                    .map_or_else(String::new, |cap| money(cap, currency.as_deref()))
            )?,
            Some(StopReason::Cancelled) => writeln!(
                stderr,
                "Пакет остановлен. Готовые строки сохранены; чтобы продолжить, запустите ту же \
                 команду снова."
            )?,
            Some(StopReason::ProviderRefused) => writeln!(
                stderr,
                "Отправка остановлена: провайдер отказал так, что остальные строки получили бы \
                 тот же отказ. Проверьте ключ, квоту и настройки (`zayavka doctor`), затем \
                 запустите ту же команду снова."
            )?,
            None if !summary.complete() => writeln!(
                stderr,
                "Не все строки составлены. Запустите ту же команду снова: готовые строки не \
                 будут отправлены повторно."
            )?,
            None => {}
        }
    }
    // Rows failed or left to do: running the same command again resumes the batch.
    Ok(ExitCode::from(if summary.complete() {
        SUCCESS
    } else {
        FAILED
    }))
}

/// Row numbers as a person reads them: «2–5, 9, 12–14».
fn row_ranges(rows: &[u32]) -> String {
    let mut parts = Vec::new();
    let mut iter = rows.iter().copied().peekable();
    while let Some(start) = iter.next() {
        let mut end = start;
        while iter.peek() == Some(&(end + 1)) {
            end = iter.next().unwrap_or(end);
        }
        parts.push(match end - start {
            0 => start.to_string(),
            1 => format!("{start}, {end}"),
            _ => format!("{start}–{end}"),
        });
    }
    parts.join(", ")
}

/// «: строки 2–5» after a count, or nothing when there are none.
fn which_rows(rows: &[u32]) -> String {
    match rows.len() {
        0 => String::new(),
        1 => format!(" (строка {})", rows[0]),
        _ => format!(" (строки {})", row_ranges(rows)),
    }
}

/// The refused rows, one line each for the first few, then how many more (a file of random
/// bytes is one refused row per line: a thousand identical lines help nobody).
fn print_invalid(out: &mut dyn std::io::Write, invalid: &[InvalidRow]) -> std::io::Result<()> {
    for row in invalid.iter().take(INVALID_ROWS_SHOWN) {
        let messages: Vec<&str> = row.errors.iter().map(|e| e.message.as_str()).collect();
        writeln!(
            out,
            "Строка {} не будет отправлена: {}",
            row.row,
            messages.join("; ")
        )?;
    }
    if invalid.len() > INVALID_ROWS_SHOWN {
        writeln!(
            out,
            "… и ещё {} строк с ошибками. Все они перечислены в `zayavka batch run ФАЙЛ --json` \
             (поле invalid); проверьте, тот ли это файл.",
            invalid.len() - INVALID_ROWS_SHOWN
        )?;
    }
    Ok(())
}

fn money(amount: f64, currency: Option<&str>) -> String {
    zayavka_engine::money_text(amount, currency, 2)
}

/// The plan, before anything is sent: which batch, which rows go to the model and why, which
/// do not, and what it may cost at most.
fn print_plan(plan: &BatchPlan) -> anyhow::Result<()> {
    let mut err = std::io::stderr().lock();
    match plan.batch_number {
        Some(number) => writeln!(
            err,
            "Файл «{}» уже запускался: это продолжение пакета {number}. Строк в файле: {}.",
            plan.file_name, plan.rows
        )?,
        None => writeln!(
            err,
            "Новый пакет из файла «{}». Строк в файле: {}.",
            plan.file_name, plan.rows
        )?,
    }
    print_invalid(&mut err, &plan.invalid)?;
    let new = plan.rows_with(RowPlan::New);
    let changed = plan.rows_with(RowPlan::Changed);
    let unfinished = plan.rows_with(RowPlan::Unfinished);
    let done = plan.rows_with(RowPlan::DoneBefore);
    let verb = if plan.offline {
        "Будут составлены без модели"
    } else {
        "Будут отправлены модели"
    };
    let sending = new.len() + changed.len() + unfinished.len();
    writeln!(err, "{verb}: {sending}.")?;
    if plan.batch_number.is_some() {
        writeln!(err, "  новые строки: {}{}", new.len(), which_rows(&new))?;
        writeln!(
            err,
            "  изменённые строки: {}{}",
            changed.len(),
            which_rows(&changed)
        )?;
        writeln!(
            err,
            "  не составленные в прошлый раз: {}{}",
            unfinished.len(),
            which_rows(&unfinished)
        )?;
        writeln!(
            err,
            "Составлены раньше, повторно не отправляются: {}.",
            done.len()
        )?;
        if plan.no_longer_in_file > 0 {
            writeln!(
                err,
                "Строк прошлого запуска больше нет в файле: {} (их черновики сохранены).",
                plan.no_longer_in_file
            )?;
        }
    }
    if !plan.invalid.is_empty() {
        writeln!(err, "С ошибками, не отправляются: {}.", plan.invalid.len())?;
    }
    match &plan.cost {
        PlanCost::Nothing => {}
        PlanCost::Unknown => writeln!(
            err,
            "Стоимость оценить нельзя: в профиле провайдера не указаны цены за миллион токенов \
             (zayavka config set profiles.ИМЯ.price_input_per_million … и \
             profiles.ИМЯ.price_output_per_million …)."
        )?,
        PlanCost::AtMost { amount, currency } => writeln!(
            err,
            "Наибольшая возможная стоимость: {} (с запасом: каждая строка с повторными \
             запросами и самым длинным ответом).",
            money(*amount, currency.as_deref())
        )?,
    }
    Ok(())
}

/// Asks before sending. Without a terminal to ask in, nothing is sent: a script says `--yes`.
fn confirm(plan: &BatchPlan) -> anyhow::Result<bool> {
    let mut err = std::io::stderr().lock();
    let count = plan.to_send();
    if !std::io::stdin().is_terminal() {
        writeln!(
            err,
            "Ничего не отправлено: пакет отправил бы модели строк: {count}, а спросить \
             подтверждение негде. Проверьте план выше и запустите ту же команду с --yes."
        )?;
        return Ok(false);
    }
    write!(err, "Отправить модели строк: {count}? [д/Н] ")?;
    err.flush()?;
    let mut answer = String::new();
    std::io::stdin().read_line(&mut answer)?;
    let yes = matches!(
        answer.trim().to_lowercase().as_str(),
        "д" | "да" | "y" | "yes"
    );
    if !yes {
        writeln!(
            err,
            "Ничего не отправлено. Чтобы отправить, запустите ту же команду снова и ответьте «д»."
        )?;
    }
    Ok(yes)
}

fn print_summary(summary: &BatchSummary, currency: Option<&str>, json: bool) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    if json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(summary)?)?;
        return Ok(());
    }
    let cost = summary.cost.map_or_else(
        || "не рассчитана".to_owned(),
        |cost| zayavka_engine::money_text(cost, currency, 4),
    );
    use zayavka_engine::group_digits;
    let lines = [
        ("Пакет", summary.batch_number.to_string()),
        ("Строк в файле", group_digits(summary.rows)),
        (
            "С ошибками (не отправлены)",
            group_digits(summary.invalid.len() as u64),
        ),
        ("Готово", group_digits(summary.ready)),
        ("Нужно уточнить описание", group_digits(summary.needs_user)),
        ("Ответ модели не подошёл", group_digits(summary.rejected)),
        ("Сбой", group_digits(summary.failed)),
        ("Ещё не составлены", group_digits(summary.unfinished)),
        ("Запросов за этот запуск", group_digits(summary.sent)),
        ("Токенов", group_digits(summary.tokens)),
        ("Стоимость", cost),
    ];
    let width = lines
        .iter()
        .map(|(label, _)| label.chars().count())
        .max()
        .unwrap_or(0);
    for (label, value) in lines {
        let pad = width - label.chars().count();
        writeln!(stdout, "{label}{:pad$}  {value}", "")?;
    }
    Ok(())
}

fn list_command(args: &ListArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let batches = engine
        .batches()
        .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(&batches)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    if batches.is_empty() {
        writeln!(
            stdout,
            "Пакетов пока нет. Запустите `zayavka batch ФАЙЛ`, чтобы составить заявки по файлу."
        )?;
    }
    let zone = jiff::tz::TimeZone::system();
    for batch in &batches {
        let state = if batch.complete() {
            "завершён".to_owned()
        } else {
            format!(
                "не составлено строк: {}",
                zayavka_engine::group_digits(batch.unfinished + batch.failed)
            )
        };
        writeln!(
            stdout,
            "Пакет {}  {}  строк: {}, готово: {}, {state}  {}",
            batch.number,
            crate::wording::local_time_ru(&batch.updated_at, &zone),
            zayavka_engine::group_digits(batch.rows),
            zayavka_engine::group_digits(batch.ready),
            batch.file_name
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The batch a person named, by its number.
fn named_batch(engine: &Engine, name: &str) -> anyhow::Result<zayavka_engine::Batch> {
    engine
        .find_batch(name)
        .map_err(|error| anyhow::anyhow!(error.message_ru()))
}

fn status_command(args: &StatusArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let batch = named_batch(engine, &args.id)?;
    let summary = engine
        .batch_summary(&batch.id)
        .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    let rows = engine
        .batch_rows(&batch.id)
        .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
        // The totals as `batch run --json` prints them, and every row of the file.
        let mut report = serde_json::to_value(&summary)?;
        report["row_results"] = serde_json::to_value(&rows)?;
        report["cases"] = serde_json::to_value(crate::case_cmd::batch_cases(engine, &batch.id)?)?;
        writeln!(stdout, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    for row in &rows {
        let person = [
            row.full_name.clone(),
            row.apartment.as_deref().map(|flat| format!("кв. {flat}")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ");
        let mut line = format!("Строка {}", row.row);
        if !person.is_empty() {
            line.push_str(&format!(" ({person})"));
        }
        line.push_str(&format!(": {}", row.status.label_ru()));
        if let Some(title) = &row.title {
            line.push_str(&format!(" — «{title}»"));
        }
        if let Some(reason) = &row.reason_ru {
            line.push_str(&format!(". {reason}"));
        }
        writeln!(stdout, "{line}")?;
    }
    // What became of every row of the file, the refused ones included (issue 31).
    writeln!(stdout, "{}", summary.rows_ru(None))?;
    drop(stdout);
    // The currency the batch's first priced run recorded; an older batch recorded none, and
    // the status then names none rather than guess one.
    print_summary(&summary, summary.currency.as_deref(), false)?;
    crate::case_cmd::print_batch_cases(engine, &batch.id)?;
    Ok(ExitCode::SUCCESS)
}

fn export_command(args: &ExportArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let format = match args.format {
        BatchExportFormat::Documents(format) => format,
        BatchExportFormat::Combined(format) => return export_combined(args, format, engine),
    };
    let profile = engine
        .profile()
        .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    let options = DocumentsExport {
        format,
        date: match args.date {
            Some(date) => date,
            None => zayavka_engine::today().map_err(|error| anyhow::anyhow!(error.message_ru()))?,
        },
        co_signers: args.collective.then(CoSigners::default),
        replace: args.force,
    };
    let batch = named_batch(engine, &args.id)?;
    let report = match engine.export_documents(&batch.id, &profile, &options, &args.out) {
        Ok(report) => report,
        Err(error @ zayavka_engine::DocumentsError::Clash { .. }) => {
            anyhow::bail!("{} (--force)", error.message_ru())
        }
        Err(error) => anyhow::bail!(error.message_ru()),
    };
    if args.json {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut stderr = std::io::stderr().lock();
    let count = |status: WriteStatus| {
        report
            .written
            .iter()
            .filter(|document| document.status == status)
            .count()
    };
    if report.written.is_empty() {
        writeln!(
            stderr,
            "Ни у одной строки пакета нет готовой заявки, поэтому документы не записаны."
        )?;
    } else {
        let mut details = Vec::new();
        for (status, label) in [
            (WriteStatus::Replaced, "заменено"),
            (WriteStatus::Unchanged, "уже были такими же и не менялись"),
        ] {
            if count(status) > 0 {
                details.push(format!("{label}: {}", count(status)));
            }
        }
        let details = if details.is_empty() {
            String::new()
        } else {
            format!(" ({})", details.join(", "))
        };
        let first = &report.written[0].path;
        let last = &report.written[report.written.len() - 1].path;
        let name = |path: &std::path::Path| {
            path.file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        let range = if report.written.len() == 1 {
            name(first)
        } else {
            format!("{} … {}", name(first), name(last))
        };
        writeln!(
            stderr,
            "Записано документов: {}{details} в папку {}: {range}.",
            report.written.len(),
            args.out.display(),
        )?;
    }
    for skipped in &report.skipped {
        writeln!(
            stderr,
            "Строка {} без документа: {}.",
            skipped.row,
            skipped.reason.message_ru()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn export_combined(
    args: &ExportArgs,
    format: ExportFormat,
    engine: &Engine,
) -> anyhow::Result<ExitCode> {
    for (given, flag) in [
        (args.collective, "--collective"),
        (args.date.is_some(), "--date"),
        (args.force, "--force"),
    ] {
        if given {
            anyhow::bail!(
                "{flag} относится к документам (--format txt, pdf или docx), а jsonl и csv — \
                 таблица всех строк пакета. Уберите {flag} или выберите формат документа"
            );
        }
    }
    let batch = named_batch(engine, &args.id)?;
    let report = engine
        .export_batch(&batch.id, format, &args.out)
        .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    if args.json {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut stderr = std::io::stderr().lock();
    writeln!(
        stderr,
        "Записано файлов: {} (строк: {}) в папку {}.",
        report.files.len(),
        report.rows,
        args.out.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
