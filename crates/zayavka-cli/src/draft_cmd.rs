//! `zayavka draft`: one request from the resident's words, with the model or without it.

use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use zayavka_engine::{
    BaseUrl, CancellationToken, DraftCommand, DraftEvent, Engine, InputSource, KeptInput, Outcome,
    ProfileName, ProviderOverrides, RawInput, SchemaMode, SubjectKind,
};

use crate::exit::{SUCCESS, USAGE};
use crate::output::{Rerun, print_failure_details, print_outcome, sentence};

/// Arguments of `zayavka draft`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["description", "input"])))]
pub struct DraftArgs {
    /// Что случилось, своими словами (10–2000 символов). Весь текст заявки вместе с правовыми
    /// абзацами и пунктом «Прошу» — не длиннее 2500 символов.
    #[arg(long, value_name = "ТЕКСТ")]
    pub description: Option<String>,
    /// Где (подъезд, этаж, место), до 120 символов.
    #[arg(long, value_name = "ТЕКСТ", conflicts_with = "input")]
    pub location: Option<String>,
    /// К чему это приводит, до 500 символов.
    #[arg(long, value_name = "ТЕКСТ", conflicts_with = "input")]
    pub consequences: Option<String>,
    /// Что вы просите сделать, до 500 символов; без него — «Устранить наблюдаемую проблему.»
    #[arg(long, value_name = "ТЕКСТ", conflicts_with = "input")]
    pub desired_actions: Option<String>,
    /// К чему относится проблема (подтверждает правовой абзац, если текст это подтверждает).
    #[arg(long, value_name = "ВИД", conflicts_with = "input", value_parser = subject_kind)]
    pub subject: Option<SubjectKind>,
    /// Данные заявки из файла JSON (description, location, consequences, desired_actions,
    /// confirmed_subject).
    #[arg(long, value_name = "ФАЙЛ.json")]
    pub input: Option<PathBuf>,
    /// Составить без модели: из ваших слов, без обращения к сети и без ключа.
    #[arg(long)]
    pub offline: bool,
    /// Настройки провайдера для этого запуска.
    #[command(flatten)]
    pub provider: ProviderArgs,
    /// Вывести один объект JSON вместо текста заявки.
    #[arg(long)]
    pub json: bool,
    /// Записать в файл запись о том, что видела модель и что она ответила (без ключа).
    #[arg(long, value_name = "ФАЙЛ.json")]
    pub record: Option<PathBuf>,
}

/// Provider settings for one run, above the environment and the configuration file; shared by
/// `draft` and `drafts retry`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ProviderArgs {
    /// Профиль провайдера вместо активного.
    #[arg(long, value_name = "ИМЯ")]
    pub profile: Option<ProfileName>,
    /// Адрес OpenAI-совместимого сервера (например http://127.0.0.1:11434/v1).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<BaseUrl>,
    /// Модель.
    #[arg(long, value_name = "МОДЕЛЬ", value_parser = zayavka_engine::parse_model)]
    pub model: Option<String>,
    /// Как просить у провайдера ответ по схеме: json_schema, json_object или function_call.
    #[arg(long, value_name = "РЕЖИМ", value_parser = schema_mode)]
    pub schema_mode: Option<SchemaMode>,
    /// Сколько секунд ждать одну попытку (вместе с чтением ответа).
    #[arg(long, value_name = "СЕКУНДЫ", value_parser = zayavka_engine::parse_timeout_secs)]
    pub timeout: Option<u64>,
    /// Сколько попыток делать при временных сбоях.
    #[arg(long, value_name = "N", value_parser = zayavka_engine::parse_attempts)]
    pub attempts: Option<u32>,
}

impl ProviderArgs {
    pub(crate) fn overrides(&self) -> ProviderOverrides {
        ProviderOverrides {
            profile: self.profile.clone(),
            base_url: self.base_url.clone(),
            model: self.model.clone(),
            schema_mode: self.schema_mode,
            timeout_secs: self.timeout,
            attempts: self.attempts,
        }
    }

    /// The flags as given, to repeat them in a rerun line.
    fn words(&self) -> Vec<String> {
        let options: [(&str, Option<String>); 6] = [
            (
                "--profile",
                self.profile.as_ref().map(|p| p.as_str().to_owned()),
            ),
            (
                "--base-url",
                self.base_url.as_ref().map(|u| u.as_str().to_owned()),
            ),
            ("--model", self.model.clone()),
            (
                "--schema-mode",
                self.schema_mode.map(|m| m.code().to_owned()),
            ),
            ("--timeout", self.timeout.map(|t| t.to_string())),
            ("--attempts", self.attempts.map(|a| a.to_string())),
        ];
        let mut words = Vec::new();
        for (flag, value) in options {
            if let Some(value) = value {
                words.push(flag.to_owned());
                words.push(value);
            }
        }
        words
    }
}

/// A spinner with the elapsed time on stderr, so a resident waiting for a slow provider sees
/// that something is happening and how to stop it.
fn progress_spinner() -> indicatif::ProgressBar {
    let spinner = indicatif::ProgressBar::new_spinner();
    spinner.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} {elapsed} (Ctrl-C — отменить)")
            .expect("the template is valid"),
    );
    spinner.set_message("Составляю заявку…");
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    spinner
}

/// Parses a subject kind for clap, with the known kinds in the message.
pub(crate) fn subject_kind(text: &str) -> Result<SubjectKind, String> {
    text.parse().map_err(|_| {
        let kinds: Vec<&str> = SubjectKind::ALL.iter().map(|k| k.code()).collect();
        format!("неизвестный вид проблемы; допустимы: {}", kinds.join(", "))
    })
}

fn schema_mode(text: &str) -> Result<SchemaMode, String> {
    SchemaMode::parse(text)
        .ok_or_else(|| "допустимы json_schema, json_object и function_call".to_owned())
}

/// Runs `zayavka draft`.
pub fn run(args: DraftArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let input = match &args.input {
        Some(path) => InputSource::File {
            text: crate::read_file(path, zayavka_engine::FileRole::Input)?,
            path: path.clone(),
        },
        None => InputSource::Typed(RawInput {
            description: args.description.clone(),
            location: args.location.clone(),
            consequences: args.consequences.clone(),
            desired_actions: args.desired_actions.clone(),
            confirmed_subject: args.subject.map(|kind| kind.code().to_owned()),
        }),
    };
    let command = DraftCommand {
        input,
        retry_of: None,
        offline: args.offline,
        overrides: args.provider.overrides(),
    };
    let typed = typed_words(&args);
    let options = RunOptions {
        offline: args.offline,
        json: args.json,
        record: args.record.as_deref(),
        provider: &args.provider,
        typed: &typed,
    };
    execute(command, &options, engine)
}

/// How a draft run is shown and repeated.
pub struct RunOptions<'a> {
    /// Drafted without a model.
    pub offline: bool,
    /// Print one JSON object.
    pub json: bool,
    /// Where to write the context record.
    pub record: Option<&'a std::path::Path>,
    /// The provider flags as given.
    pub provider: &'a ProviderArgs,
    /// The input flags as given, for a rerun line when the input could be kept nowhere.
    pub typed: &'a [String],
}

/// Runs a draft command and prints it: the outcome, the details, where the text is kept, the
/// next steps as commands, and the context record when asked for.
pub fn execute(
    command: DraftCommand,
    options: &RunOptions<'_>,
    engine: &Engine,
) -> anyhow::Result<ExitCode> {
    let environment = engine
        .environment(options.offline)
        .map_err(|error| anyhow::anyhow!(error.to_string()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("не удалось запустить асинхронную среду")?;
    let result = runtime.block_on(async {
        let cancel = CancellationToken::new();
        let on_interrupt = cancel.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                on_interrupt.cancel();
            }
        });
        let spinner = (!options.offline && std::io::stderr().is_terminal()).then(progress_spinner);
        // The spinner says when the service is busy and a retry follows, and when the model
        // is asked again; the first attempt keeps its plain line.
        let on_event = |event: DraftEvent| {
            if let Some(spinner) = &spinner
                && !matches!(event, DraftEvent::Sending { attempt: 1, .. })
            {
                spinner.set_message(event.message_ru());
            }
        };
        let result = engine
            .run_draft(command, environment, &cancel, &on_event)
            .await;
        if let Some(spinner) = spinner {
            spinner.finish_and_clear();
        }
        result
    });
    // The outcome is printed first: a record that cannot be written must not hide it.
    let outcome = &result.run.outcome;
    let rerun = rerun_command(options, &result.kept_input, engine);
    print_outcome(outcome, &result.report(), options.json, Some(&rerun))?;
    let mut stderr = std::io::stderr().lock();
    if !options.json {
        crate::output::print_notes(&mut stderr, &result.notes)?;
    }
    if let Outcome::Failed(failure) = outcome {
        print_failure_details(&mut stderr, failure)?;
    }
    if let Some(error) = &result.store_error {
        writeln!(
            stderr,
            "Черновик не записан в базу черновиков: {}",
            sentence(&error.message_ru())
        )?;
    }
    match &result.kept_input {
        KeptInput::NotNeeded => {}
        KeptInput::Stored(id) => {
            writeln!(stderr, "Ваш текст сохранён в черновике № {id}.")?;
        }
        KeptInput::Kept(kept) => {
            writeln!(stderr, "Ваш текст сохранён в файле {}.", kept.display())?;
        }
        KeptInput::InFile(path) => {
            writeln!(stderr, "Ваш текст остаётся в файле {}.", path.display())?;
        }
        KeptInput::NotKept { error, json } => {
            writeln!(stderr, "{}", error.message_ru())?;
            writeln!(stderr, "{json}")?;
        }
    }
    let mut code = crate::exit::outcome(outcome);
    if result.store_error.is_some() && code == SUCCESS {
        code = crate::exit::NOT_STORED;
    }
    if let (Some(path), Some(record)) = (options.record, &result.run.record) {
        let json = serde_json::to_string_pretty(record)? + "\n";
        if let Err(error) = zayavka_engine::replace_file(path, json.as_bytes()) {
            writeln!(
                stderr,
                "Не удалось записать запись о запуске в «{}»: {}. Заявка выше от этого не \
                 зависит; укажите в --record другой файл, если запись нужна.",
                path.display(),
                zayavka_engine::io_error_ru(&error)
            )?;
            if code == SUCCESS {
                code = USAGE;
            }
        }
    }
    Ok(ExitCode::from(code))
}

/// The input flags of a typed draft, as given.
fn typed_words(args: &DraftArgs) -> Vec<String> {
    let mut words = Vec::new();
    if let Some(path) = &args.input {
        words.push("--input".into());
        words.push(path.display().to_string());
        return words;
    }
    let typed = [
        ("--description", &args.description),
        ("--location", &args.location),
        ("--consequences", &args.consequences),
        ("--desired-actions", &args.desired_actions),
    ];
    for (flag, value) in typed {
        if let Some(value) = value {
            words.push(flag.into());
            words.push(value.clone());
        }
    }
    if let Some(subject) = args.subject {
        words.push("--subject".into());
        words.push(subject.code().into());
    }
    words
}

/// The command that repeats this draft with the same flags: the stored draft sent again, or the
/// typed text replaced by the file that keeps it; `--offline` and every provider option as
/// given. A `--record` is left out so that a rerun does not overwrite the first record.
fn rerun_command(options: &RunOptions<'_>, kept: &KeptInput, engine: &Engine) -> Rerun {
    let mut words: Vec<String> = match kept {
        KeptInput::Stored(id) => {
            vec![
                "zayavka".into(),
                "drafts".into(),
                "retry".into(),
                id.to_string(),
            ]
        }
        KeptInput::Kept(path) | KeptInput::InFile(path) => vec![
            "zayavka".into(),
            "draft".into(),
            "--input".into(),
            path.display().to_string(),
        ],
        KeptInput::NotNeeded | KeptInput::NotKept { .. } => {
            let mut words = vec!["zayavka".to_owned(), "draft".to_owned()];
            words.extend(options.typed.iter().cloned());
            words
        }
    };
    if options.offline {
        words.push("--offline".into());
    }
    words.extend(options.provider.words());
    if options.json {
        words.push("--json".into());
    }
    let profile = options
        .provider
        .profile
        .as_ref()
        .map(|p| p.as_str().to_owned())
        .or_else(|| engine.active_profile_name());
    Rerun {
        words,
        profile,
        is_draft: true,
    }
}
