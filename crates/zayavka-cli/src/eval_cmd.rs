//! `zayavka eval`: the evaluation harness (issue 17, ADR 28). Without `--run` it only plans —
//! cases × profiles × repeats, requests and the worst-case cost — and sends nothing; `--run`
//! sends, stores every answer as a cassette and writes a review sheet; `--replay RUN` checks a
//! stored run again with no network.
//!
//! Exit codes: 0 every hard check of every answer held (and a plan always), 1 a hard check
//! failed, 2 a usage error or a refused run (over the cost cap, no prices, an unknown case or
//! run), 5 the run was stopped (Ctrl-C) before every answer arrived — what arrived is stored.

use std::io::{IsTerminal as _, Write as _};
use std::num::{NonZeroU32, NonZeroUsize};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use zayavka_engine::{
    DEFAULT_MAX_COST, Engine, EvalCost, EvalError, EvalPlan, EvalProgress, EvalReport,
    EvalSettings, HardVerdict, Paths, ProfileName, SUMMARY_COLUMNS, SheetFiles, read_marks,
    summary_cells, write_sheet,
};

/// The corpus folder, looked for from the current folder upwards.
const DEFAULT_CASES: &str = "tests/eval/cases";

/// How many failed answers the text output lists one by one.
const FAILURES_SHOWN: usize = 20;

/// Arguments of `zayavka eval`.
#[derive(Debug, clap::Args)]
pub struct EvalArgs {
    /// Папка со случаями (*.json). По умолчанию tests/eval/cases в текущей папке или выше.
    #[arg(long, value_name = "ПАПКА")]
    cases: Option<PathBuf>,
    /// Только этот случай (id — имя файла без .json); можно указать несколько раз.
    #[arg(long = "case", value_name = "ID")]
    case_ids: Vec<String>,
    /// Сколько раз отправить каждый случай каждому профилю (от 1 до 100). По умолчанию 1.
    #[arg(
        long,
        value_name = "N",
        default_value_t = NonZeroU32::MIN,
        value_parser = repeats,
        hide_default_value = true
    )]
    repeats: NonZeroU32,
    /// Профиль провайдера; можно указать несколько, чтобы сравнить сервисы. По умолчанию —
    /// активный профиль.
    #[arg(long, value_name = "ИМЯ")]
    profile: Vec<ProfileName>,
    /// Сколько запросов отправлять одновременно (от 1 до 64). По умолчанию по одному для
    /// сервера на этом компьютере и GigaChat физических лиц, по четыре для остальных.
    #[arg(long, value_name = "N", value_parser = concurrency)]
    concurrency: Option<NonZeroUsize>,
    /// Версия инструкции для модели (например system/v1). По умолчанию — текущая.
    #[arg(long, value_name = "ВЕРСИЯ")]
    prompt: Option<String>,
    /// Отправить запросы. Без этого флага команда только показывает план и ничего не
    /// отправляет.
    #[arg(long)]
    run: bool,
    /// Не отправлять, если худшая оценка стоимости любого профиля выше этой суммы (в валюте
    /// его цен). По умолчанию 50.
    #[arg(
        long,
        value_name = "СУММА",
        default_value_t = DEFAULT_MAX_COST,
        value_parser = positive_amount,
        hide_default_value = true
    )]
    max_cost: f64,
    /// Проверить сохранённый прогон заново без сети: его ответы против сегодняшних проверок и
    /// файлов случаев.
    #[arg(
        long,
        value_name = "ПРОГОН",
        conflicts_with_all = ["run", "profile", "concurrency", "prompt"]
    )]
    replay: Option<String>,
    /// Ничего не отправлять, а записать в папку то, что отправил бы прогон: инструкцию, схему
    /// ответа и сообщение по каждому случаю (for-model/), и отдельно — какой номер какой
    /// случай (index.json). Для модели, к которой нет профиля (docs/eval.md).
    #[arg(
        long,
        value_name = "ПАПКА",
        conflicts_with_all = ["run", "replay", "profile", "concurrency", "repeats", "sheet"]
    )]
    export: Option<PathBuf>,
    /// Папка листа проверки (sheet.html, sheet.md, marks.json). По умолчанию —
    /// eval/ПРОГОН в папке данных.
    #[arg(long, value_name = "ПАПКА")]
    sheet: Option<PathBuf>,
    /// Вывести один объект JSON.
    #[arg(long)]
    json: bool,
}

fn repeats(text: &str) -> Result<NonZeroU32, String> {
    match text.parse::<u32>() {
        Ok(n) if (1..=100).contains(&n) => Ok(NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN)),
        _ => Err("ожидается целое число от 1 до 100".to_owned()),
    }
}

fn concurrency(text: &str) -> Result<NonZeroUsize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=64).contains(&n) => Ok(NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN)),
        _ => Err("ожидается целое число от 1 до 64".to_owned()),
    }
}

fn positive_amount(text: &str) -> Result<f64, String> {
    match text.replace(',', ".").parse::<f64>() {
        Ok(amount) if amount.is_finite() && amount > 0.0 => Ok(amount),
        _ => Err("ожидается положительная сумма, например 50 или 0.50".to_owned()),
    }
}

/// The JSON of a plan, a run or a replay: the engine's report and where the sheet is.
#[derive(serde::Serialize)]
struct JsonReport<'a> {
    #[serde(flatten)]
    report: &'a EvalReport,
    sheet: Option<SheetJson>,
}

#[derive(serde::Serialize)]
struct SheetJson {
    html: String,
    markdown: String,
    marks: String,
}

impl From<&SheetFiles> for SheetJson {
    fn from(files: &SheetFiles) -> SheetJson {
        SheetJson {
            html: files.html.display().to_string(),
            markdown: files.markdown.display().to_string(),
            marks: files.marks.display().to_string(),
        }
    }
}

/// The engine's error with the flag that fixes it.
fn with_flag(error: EvalError) -> anyhow::Error {
    if let EvalError::NoPrices { profile } = &error {
        return anyhow::anyhow!(
            "{}. Укажите цены в профиле: zayavka config set \
             profiles.{profile}.price_input_per_million ЦЕНА и то же для \
             price_output_per_million.",
            error.message_ru()
        );
    }
    if let EvalError::NoApiKey { profile } = &error {
        return anyhow::anyhow!(
            "{}. Сохраните ключ: zayavka key set --profile {profile}.",
            error.message_ru()
        );
    }
    let hint = match &error {
        EvalError::CasesNotFound { .. } | EvalError::NoCases { .. } => {
            " Укажите папку со случаями флагом --cases ПАПКА."
        }
        EvalError::InvalidCase { .. } => " Исправьте файл или уберите его из папки --cases.",
        EvalError::UnknownCase { .. } => " (флаг --case)",
        EvalError::UnknownPrompt { .. } => " Укажите одну из них флагом --prompt.",
        EvalError::OverCostCap { .. } => {
            " Чтобы разрешить такую оценку, укажите предел флагом --max-cost СУММА."
        }
        EvalError::NoProfile => {
            " Настройте профиль командой zayavka config init или назовите его флагом --profile \
             ИМЯ."
        }
        EvalError::RunNotFound { .. } => " (флаг --replay)",
        EvalError::Sheet { .. } => " Папку листа можно выбрать флагом --sheet ПАПКА.",
        EvalError::Export { .. } => " Выберите другую папку флагом --export ПАПКА.",
        _ => "",
    };
    let message = error.message_ru();
    let message = message.trim_end_matches('.');
    if hint.starts_with(" (") {
        anyhow::anyhow!("{message}{hint}.")
    } else {
        anyhow::anyhow!("{message}.{hint}")
    }
}

/// The corpus folder: `--cases`, else `tests/eval/cases` in the current folder or above it.
fn cases_dir(given: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    if let Some(dir) = given {
        return Ok(dir);
    }
    let here = std::env::current_dir().context("текущая папка недоступна")?;
    here.ancestors()
        .map(|dir| dir.join(DEFAULT_CASES))
        .find(|dir| dir.is_dir())
        .ok_or_else(|| {
            anyhow::anyhow!(
                "папки со случаями {DEFAULT_CASES} нет ни в текущей папке, ни выше. Укажите \
                 папку со случаями флагом --cases ПАПКА (в репозитории Заявки это \
                 {DEFAULT_CASES})."
            )
        })
}

/// Runs `zayavka eval`.
pub fn run(args: EvalArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let cases = cases_dir(args.cases.clone())?;
    if let Some(run_id) = &args.replay {
        let report = engine
            .replay_eval(run_id, &cases, &args.case_ids)
            .map_err(with_flag)?;
        return finish(report, &args, engine.paths());
    }
    if let Some(out_dir) = &args.export {
        let export = zayavka_engine::export_eval_requests(
            &cases,
            &args.case_ids,
            args.prompt.as_deref(),
            out_dir,
        )
        .map_err(with_flag)?;
        if args.json {
            print_json(&export)?;
        } else {
            let mut stdout = std::io::stdout().lock();
            writeln!(
                stdout,
                "Записано сообщений: {} (инструкция {}, SHA-256 {}).\nОтвечающей модели — \
                 только папка {}; номера случаев — в {}.",
                export.cases.len(),
                export.prompt_version,
                export.prompt_sha256,
                export.for_model.display(),
                export.index.display()
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let environment = engine
        .environment(false)
        .map_err(|error| anyhow::anyhow!(error.to_string()))?;
    let settings = EvalSettings {
        cases_dir: cases,
        case_ids: args.case_ids.clone(),
        repeats: args.repeats,
        profiles: args.profile.clone(),
        concurrency: args.concurrency,
        prompt_version: args.prompt.clone(),
        max_cost: args.max_cost,
        // One command is one session.
        session: engine.clients().clone(),
    };
    let prepared = engine
        .prepare_eval(&settings, environment)
        .map_err(with_flag)?;
    if !args.run {
        let report = EvalReport {
            run: None,
            plan: serde_json::to_value(&prepared.plan)?,
            results: Vec::new(),
            summary: Vec::new(),
            stopped: false,
            missing_cases: Vec::new(),
            halted_profiles: Vec::new(),
            marks_counted: 0,
        };
        if args.json {
            print_json(&JsonReport {
                report: &report,
                sheet: None,
            })?;
        } else {
            print_plan(&prepared.plan, prepared.check_cost_cap().err())?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    prepared.check_cost_cap().map_err(with_flag)?;
    if !args.json {
        let mut stderr = std::io::stderr().lock();
        writeln!(
            stderr,
            "Оценка: {} запросов к модели. Ctrl-C — остановить (полученные ответы сохранятся).",
            prepared.plan.requests
        )?;
    }
    let bar = (!args.json && std::io::stderr().is_terminal()).then(progress_bar);
    let on_progress = |progress: EvalProgress| {
        if let Some(bar) = &bar {
            bar.set_length(u64::from(progress.total));
            bar.set_position(u64::from(progress.finished));
            bar.set_message(format!("жёстких провалов: {}", progress.hard_failed));
        }
    };
    let result = crate::output::block_on_until_ctrl_c(|cancel| async move {
        engine.run_eval(&prepared, &cancel, &on_progress).await
    })?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let report = result.map_err(with_flag)?;
    finish(report, &args, engine.paths())
}

fn progress_bar() -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} ответов, {msg} {elapsed} (Ctrl-C — остановить, полученное \
             сохранится)",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// The sheet, the marks counted, the output and the exit code of a run or a replay.
fn finish(mut report: EvalReport, args: &EvalArgs, paths: &Paths) -> anyhow::Result<ExitCode> {
    let run_id = report.run.clone().unwrap_or_default();
    let dir = args
        .sheet
        .clone()
        .unwrap_or_else(|| paths.data_dir().join("eval").join(&run_id));
    let marks = read_marks(&dir, &run_id).map_err(with_flag)?;
    if let Some(marks) = &marks {
        report.count_marks(marks);
    }
    let files = write_sheet(&report, marks.as_ref(), &dir).map_err(with_flag)?;
    if args.json {
        print_json(&JsonReport {
            report: &report,
            sheet: Some(SheetJson::from(&files)),
        })?;
    } else {
        print_report(&report, &files)?;
    }
    Ok(ExitCode::from(if report.stopped {
        crate::exit::FAILED
    } else if report.hard_passed() {
        crate::exit::SUCCESS
    } else {
        crate::exit::PROBLEM
    }))
}

fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut stdout, value)?;
    writeln!(stdout)?;
    Ok(())
}

fn money(amount: f64, currency: Option<&str>) -> String {
    zayavka_engine::money_text(amount, currency, 2)
}

fn print_plan(plan: &EvalPlan, refusal: Option<EvalError>) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "План оценки (ничего не отправлено): случаев {}, профилей {}, повторов {}.",
        plan.cases,
        plan.profiles.len(),
        plan.repeats
    )?;
    writeln!(
        out,
        "Запросов к модели: {} (повторный запрос после негодного ответа добавит по одному). \
         Одновременно: {}.",
        plan.requests, plan.concurrency
    )?;
    writeln!(
        out,
        "Инструкция для модели: {} (SHA-256 {}).",
        plan.prompt_version, plan.prompt_sha256
    )?;
    for line in &plan.cost {
        let cost = match &line.cost {
            EvalCost::Free => "бесплатно (сервер на этом компьютере)".to_owned(),
            EvalCost::Unknown => "неизвестна: в профиле не указаны цены".to_owned(),
            EvalCost::AtMost { amount, currency } => {
                format!("не больше {}", money(*amount, currency.as_deref()))
            }
        };
        writeln!(
            out,
            "Профиль «{}», модель {}: стоимость {cost}.",
            line.profile, line.model
        )?;
    }
    writeln!(
        out,
        "Предел стоимости: {} на профиль (--max-cost).",
        money(plan.max_cost, None).replace(" (в валюте цен профиля)", " в валюте его цен")
    )?;
    match refusal {
        Some(error) => writeln!(out, "С --run оценка будет отклонена: {}", with_flag(error))?,
        None => writeln!(out, "Чтобы отправить запросы, добавьте --run.")?,
    }
    Ok(())
}

fn print_report(report: &EvalReport, files: &SheetFiles) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "Прогон {}: ответов {}.",
        report.run.as_deref().unwrap_or("—"),
        report.results.len()
    )?;
    for line in &report.summary {
        let cells = summary_cells(line);
        let described: Vec<String> = SUMMARY_COLUMNS
            .iter()
            .zip(&cells)
            .skip(1)
            .map(|(column, cell)| format!("{} — {cell}", column.to_lowercase()))
            .collect();
        writeln!(out, "Профиль «{}»: {}.", cells[0], described.join("; "))?;
    }
    let failed: Vec<_> = report
        .results
        .iter()
        .filter(|result| result.hard == HardVerdict::Fail)
        .collect();
    if !failed.is_empty() {
        writeln!(out, "Не пройдены жёсткие проверки:")?;
        for result in failed.iter().take(FAILURES_SHOWN) {
            let checks: Vec<String> = result
                .checks
                .iter()
                .filter(|check| {
                    zayavka_engine::HARD_CHECKS.contains(&check.check)
                        && check.verdict == zayavka_engine::Verdict::Fail
                })
                .map(|check| match &check.detail {
                    Some(detail) => format!("{} ({detail})", check.check),
                    None => check.check.to_owned(),
                })
                .collect();
            writeln!(
                out,
                "  {} · {} · повтор {}: {}",
                result.case,
                result.profile,
                result.repeat,
                checks.join("; ")
            )?;
        }
        if failed.len() > FAILURES_SHOWN {
            writeln!(
                out,
                "  … и ещё {}; все — в листе проверки и в --json.",
                failed.len() - FAILURES_SHOWN
            )?;
        }
    }
    if !report.missing_cases.is_empty() {
        writeln!(
            out,
            "Случаев больше нет в папке, их ответы не проверены: {}.",
            report.missing_cases.join(", ")
        )?;
    }
    for profile in &report.halted_profiles {
        writeln!(
            out,
            "Профилю «{profile}» больше ничего не отправлено: сервис отказал так, что остальные \
             запросы получили бы тот же отказ. Проверьте ключ, квоту и настройки (zayavka doctor \
             с этим профилем активным) и запустите оценку снова."
        )?;
    }
    if report.stopped {
        writeln!(
            out,
            "Прогон остановлен до конца; полученные ответы сохранены. Проверить их снова: \
             zayavka eval --replay {}.",
            report.run.as_deref().unwrap_or("")
        )?;
    }
    writeln!(
        out,
        "Лист проверки: {} (и {}). Отметки проверяющего сохраняйте в {}.",
        files.html.display(),
        display_name(&files.markdown),
        files.marks.display()
    )?;
    Ok(())
}

fn display_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}
