//! The `zayavka` command-line tool: argument parsing and printing over `zayavka-engine`.
//!
//! Exit codes are stable: 0 ready, 2 invalid input or usage, 3 the resident is asked to change
//! the text, 4 the model's output was rejected, 5 a technical failure. `key status` and `doctor`
//! exit 1 when something needs fixing; `eval` exits 1 when a hard check failed and 5 when it was
//! stopped before every answer arrived. Any command whose reader goes away before the output is
//! written (`zayavka drafts list | head -1`) stops quietly with 141 (ADR 19).

mod batch_cmd;
mod case_cmd;
mod case_print;
mod clap_ru;
mod command_line;
mod config_cmd;
mod config_init;
mod doctor_cmd;
mod document_out;
mod draft_cmd;
mod drafts_cmd;
mod eval_cmd;
mod exit;
mod key;
mod output;
mod profile_cmd;
mod stats_cmd;
mod wording;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use zayavka_engine::{Engine, FileRole, KeyringStore, Paths};

/// Заявка: спокойное и точное обращение в управляющую организацию из ваших слов.
#[derive(Debug, Parser)]
#[command(name = "zayavka", version, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Составить заявку из описания проблемы (с моделью или без неё: --offline).
    Draft(Box<draft_cmd::DraftArgs>),
    /// Собрать заявку без сети из сохранённых данных и сохранённого ответа модели.
    Assemble(AssembleArgs),
    /// Повторить без сети сборку заявки из записи (--record) прошлого запуска draft.
    Replay(ReplayArgs),
    /// Сохранённые черновики: список, поиск, просмотр, удаление, повтор — без сети.
    Drafts(drafts_cmd::DraftsArgs),
    /// Заявки по всем строкам файла (CSV, XLSX, JSONL); повторный запуск продолжает пакет.
    Batch(Box<batch_cmd::BatchArgs>),
    /// API-ключ провайдера в хранилище ключей ОС.
    Key(key::KeyArgs),
    /// Настройки провайдеров.
    Config(config_cmd::ConfigArgs),
    /// Ваш профиль для шапки документа: ФИО, адрес, контакты, управляющая организация.
    Profile(profile_cmd::ProfileArgs),
    /// Проверить настройки, ключ, доступность провайдера и сроки правовых модулей.
    Doctor(doctor_cmd::DoctorArgs),
    /// Оценка модели и инструкции на наборе случаев: план (по умолчанию, ничего не
    /// отправляет), прогон (--run) или повтор без сети (--replay).
    Eval(Box<eval_cmd::EvalArgs>),
    /// Статистика черновиков по периодам и профилям: итоги, причины отказов, повторы, ожидание
    /// и стоимость — без сети.
    Stats(stats_cmd::StatsArgs),
}

#[derive(Debug, clap::Args)]
struct AssembleArgs {
    /// Данные заявки: объект JSON с полями description, location, consequences,
    /// desired_actions и confirmed_subject.
    #[arg(long, value_name = "INPUT.json")]
    input: PathBuf,
    /// Ответ модели: её объект JSON или всё тело ответа chat-completions.
    #[arg(long, value_name = "RESPONSE.json")]
    response: PathBuf,
    /// Вывести один объект JSON вместо текста заявки.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct ReplayArgs {
    /// Номер черновика или запись, сделанная командой `zayavka draft --record ФАЙЛ`.
    #[arg(value_name = "ЧЕРНОВИК")]
    record: PathBuf,
    /// Вывести один объект JSON вместо текста заявки.
    #[arg(long)]
    json: bool,
}

/// The environment variable that turns on diagnostic logging to stderr, with `tracing`'s filter
/// syntax (`ZAYAVKA_LOG=debug`, `ZAYAVKA_LOG=zayavka_llm=trace`). Logs never carry the key.
const LOG_VARIABLE: &str = "ZAYAVKA_LOG";

fn main() -> ExitCode {
    // clap's own help and errors are in English; `clap_ru` replaces them with Russian ones and
    // prints help and version to stdout (exit 0) and argument errors to stderr (exit 2).
    let cli = match clap_ru::parse::<Cli>() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    if let Ok(filter) = tracing_subscriber::EnvFilter::try_from_env(LOG_VARIABLE) {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_ansi(false)
            .init();
    }
    match run(cli) {
        Ok(code) => code,
        // Whoever read the output has gone (`| head`): nothing is wrong and nobody is left to
        // tell, so the tool stops quietly, as a Unix tool that SIGPIPE ends would (ADR 19).
        Err(error) if output::is_closed_pipe(&error) => ExitCode::from(exit::CLOSED_PIPE),
        Err(error) => {
            report_error(&error);
            ExitCode::from(exit::USAGE)
        }
    }
}

/// Prints the error that ended a command, with the command that fixes it when there is one.
/// Standard error may be closed too (`2>&1 | head`): a message that cannot be written is
/// dropped rather than turned into a panic.
fn report_error(error: &anyhow::Error) {
    let hint = error
        .downcast_ref::<zayavka_engine::ConfigError>()
        .and_then(output::config_error_hint)
        .or_else(|| {
            error
                .downcast_ref::<zayavka_engine::SecretError>()
                .and_then(output::secret_error_hint)
        });
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "zayavka: {error:#}");
    if let Some(hint) = hint {
        let _ = writeln!(stderr, "Что можно сделать: {hint}.");
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    // Offline assembly and replay need no configuration, data folder or keyring.
    let command = match cli.command {
        Command::Assemble(args) => return assemble(args),
        Command::Replay(args) => return replay(args),
        command => command,
    };
    let engine = open_engine()?;
    match command {
        Command::Draft(args) => draft_cmd::run(*args, &engine),
        Command::Drafts(args) => drafts_cmd::run(args, &engine),
        Command::Batch(args) => batch_cmd::run(*args, &engine),
        Command::Key(args) => key::run(args, &engine),
        Command::Config(args) => config_cmd::run(args, &engine),
        Command::Profile(args) => profile_cmd::run(args, &engine),
        Command::Doctor(args) => doctor_cmd::run(args, &engine),
        Command::Eval(args) => eval_cmd::run(*args, &engine),
        Command::Stats(args) => stats_cmd::run(args, &engine),
        Command::Assemble(_) | Command::Replay(_) => unreachable!("handled above"),
    }
}

/// The engine over this user's folders and the operating system's keyring; what it notices on
/// the way (a data folder that cannot be written) goes to standard error.
fn open_engine() -> anyhow::Result<Engine> {
    let paths = Paths::resolve().map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    Ok(
        Engine::new(paths, std::sync::Arc::new(KeyringStore::new())).with_notices(|notice| {
            let _ = writeln!(std::io::stderr(), "{}", notice.message_ru());
        }),
    )
}

/// `zayavka replay ID`: the stored draft's response evaluated again, and whether today's request
/// is byte-identical to the stored one.
fn replay_stored(id: zayavka_engine::DraftId, json: bool) -> anyhow::Result<ExitCode> {
    let stored = open_engine()?
        .replay_draft(id)
        .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    let outcome = &stored.replay.outcome;
    #[derive(serde::Serialize)]
    struct ReplayReport<'a> {
        #[serde(flatten)]
        report: zayavka_engine::Report<'a>,
        identical: bool,
        changed: &'a [zayavka_engine::ReplayChange],
    }
    let report = ReplayReport {
        report: outcome.report(),
        identical: stored.identical,
        changed: &stored.changed,
    };
    output::print_outcome(outcome, &report, json, None)?;
    if !json {
        let mut stderr = std::io::stderr().lock();
        if stored.identical {
            writeln!(
                stderr,
                "Повтор совпадает с сохранённой заявкой байт в байт."
            )?;
        } else {
            let changed: Vec<&str> = stored.changed.iter().map(|what| what.label_ru()).collect();
            writeln!(
                stderr,
                "Повтор отличается от сохранённой заявки{}.",
                if changed.is_empty() {
                    String::new()
                } else {
                    format!(": с тех пор изменились {}", changed.join(", "))
                }
            )?;
        }
    }
    Ok(ExitCode::from(exit::outcome(outcome)))
}

fn assemble(args: AssembleArgs) -> anyhow::Result<ExitCode> {
    let input = read_file(&args.input, FileRole::Input)?;
    let response = read_file(&args.response, FileRole::ModelResponse)?;
    let outcome = zayavka_engine::assemble_from_texts(&input, &response);
    output::print_outcome(&outcome, &outcome.report(), args.json, None)?;
    Ok(ExitCode::from(exit::outcome(&outcome)))
}

fn replay(args: ReplayArgs) -> anyhow::Result<ExitCode> {
    if !args.record.exists()
        && let Some(id) = args
            .record
            .to_str()
            .and_then(|text| text.parse::<zayavka_engine::DraftId>().ok())
    {
        return replay_stored(id, args.json);
    }
    let text = read_file(&args.record, FileRole::ContextRecord)?;
    let record: zayavka_engine::ContextRecord = serde_json::from_str(&text).map_err(|error| {
        anyhow::anyhow!(
            "«{}» — не запись команды `zayavka draft --record` ({}). Укажите файл, который \
                 записала эта команда",
            args.record.display(),
            zayavka_engine::json_error_ru(&error)
        )
    })?;
    let replay = zayavka_engine::replay_record(&record)?;
    if !replay.same_catalogue {
        writeln!(
            std::io::stderr(),
            "Внимание: правовые модули обновились после этой записи ({} → {}), поэтому \
             правовые абзацы могут отличаться от записанных.",
            replay.recorded_catalogue_version,
            replay.current_catalogue_version
        )?;
    }
    let outcome = &replay.outcome;
    output::print_outcome(outcome, &outcome.report(), args.json, None)?;
    Ok(ExitCode::from(exit::outcome(outcome)))
}

/// Reads a file the resident named, with the size cap of its role; a folder, a device or a
/// FIFO is refused at once, a UTF-8 byte order mark dropped, and every failure explained in
/// Russian by its cause.
pub(crate) fn read_file(path: &std::path::Path, role: FileRole) -> anyhow::Result<String> {
    zayavka_engine::read_text_file(path, role, role.max_bytes())
        .map_err(|error| anyhow::anyhow!(error.message_ru()))
}
