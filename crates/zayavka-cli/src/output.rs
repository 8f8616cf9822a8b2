//! Printing outcomes: the request text on stdout (so it can be piped or copied as it is), and
//! everything said to the resident about it on stderr — what happened, and what to do next,
//! worded as commands to run. Exit codes are this binary's own.

use std::io::Write;

use zayavka_engine::{
    ConfigError, Failure, NextStep, Outcome, ProfileName, Request, SecretError, SettingSource,
};

/// How many findings of a rejection the text output lists.
const FINDINGS_SHOWN: usize = 5;

/// Windows' `ERROR_PIPE_NOT_CONNECTED`, which the standard library leaves uncategorised.
const PIPE_NOT_CONNECTED: i32 = 233;

/// Whether `error` is, or was caused by, a write to a pipe whose reader has gone: standard
/// output or standard error closed by `head`, a pager that quit, a closed terminal.
///
/// Every command writes with `writeln!(…)?` and returns the error, so this one check in `main`
/// turns a closed pipe anywhere into a quiet exit with [`crate::exit::CLOSED_PIPE`] (ADR 19).
pub fn is_closed_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        let kind = match (
            cause.downcast_ref::<std::io::Error>(),
            cause.downcast_ref::<serde_json::Error>(),
        ) {
            // Windows also says «the pipe is not connected» when its reader has gone.
            (Some(io), _) if cfg!(windows) && io.raw_os_error() == Some(PIPE_NOT_CONNECTED) => {
                Some(std::io::ErrorKind::BrokenPipe)
            }
            (Some(io), _) => Some(io.kind()),
            // `serde_json::to_writer` wraps the write error, and its `source` skips it.
            (None, Some(json)) => json.io_error_kind(),
            (None, None) => None,
        };
        kind == Some(std::io::ErrorKind::BrokenPipe)
    })
}

/// What next steps need to be worded as commands: the command that repeats what was run.
pub struct Rerun {
    /// The words of the command that repeats it with the same flags.
    pub words: Vec<String>,
    /// The profile it used, for `key set`.
    pub profile: Option<String>,
    /// Whether the command is a draft (which `--offline` turns into a draft without a model);
    /// for any other command, drafting without a model is a new `draft --offline` command.
    pub is_draft: bool,
}

impl Rerun {
    fn line(&self) -> String {
        crate::command_line::join(&self.words)
    }

    fn offline_line(&self) -> String {
        if !self.is_draft {
            return "zayavka draft --offline --description ТЕКСТ".to_owned();
        }
        let mut words = self.words.clone();
        if !words.iter().any(|w| w == "--offline") {
            words.push("--offline".to_owned());
        }
        crate::command_line::join(&words)
    }

    fn key_set_line(&self) -> String {
        match &self.profile {
            Some(profile) => {
                crate::command_line::join(["zayavka", "key", "set", "--profile", profile])
            }
            None => "zayavka key set".to_owned(),
        }
    }
}

/// One next step as the command-line tool says it.
fn next_step_ru(step: NextStep, rerun: &Rerun) -> String {
    match step {
        NextStep::FixInput => {
            "исправьте поля, названные выше, и запустите команду снова".to_owned()
        }
        NextStep::DescribeOneProblem => {
            "опишите одну проблему; для второй составьте отдельную заявку".to_owned()
        }
        NextStep::AddDetails => {
            "допишите в описание, что именно случилось, где и как давно".to_owned()
        }
        NextStep::ShortenText => "сократите описание или последствия".to_owned(),
        NextStep::Retry => format!("повторить: {}", rerun.line()),
        NextStep::RetryLater => format!("подождать минуту и повторить: {}", rerun.line()),
        NextStep::DraftWithoutModel => format!("составить без модели: {}", rerun.offline_line()),
        NextStep::ConfigureProvider => format!(
            "подключить сервис модели пошагово: zayavka config init (или сразу: zayavka config \
             set active_profile ИМЯ — {})",
            zayavka_engine::ProviderKind::names_ru(false)
        ),
        NextStep::StoreApiKey => format!("сохранить ключ доступа: {}", rerun.key_set_line()),
        NextStep::CheckProviderSettings => {
            "проверить адрес сервера, модель и ключ: zayavka doctor".to_owned()
        }
        NextStep::SwitchSchemaMode => "выбрать другой режим ответа по схеме: --schema-mode \
                                       json_object или json_schema (zayavka doctor подскажет, \
                                       какой принимает сервер)"
            .to_owned(),
        NextStep::CheckProviderAccount => {
            "проверить баланс или квоту в личном кабинете провайдера".to_owned()
        }
        NextStep::ConfirmSubject => "чтобы добавить правовой абзац, укажите, к чему относится \
                                     проблема: --subject ВИД"
            .to_owned(),
        _ => String::new(),
    }
}

/// Prints an outcome as text, or as one JSON object with `--json`. With `rerun`, the next
/// steps are printed as commands.
pub fn print_outcome(
    outcome: &Outcome,
    report: &impl serde::Serialize,
    json: bool,
    rerun: Option<&Rerun>,
) -> anyhow::Result<()> {
    let next_steps = outcome.next_steps();
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr().lock();
    if json {
        serde_json::to_writer_pretty(&mut stdout, report)?;
        writeln!(stdout)?;
        // The next steps go to stderr even then: a script reads stdout, a person the rest.
        if let Some(rerun) = rerun {
            print_next_steps(&mut stderr, &next_steps, rerun)?;
        }
        return Ok(());
    }
    match outcome {
        Outcome::Ready(request) => {
            writeln!(stdout, "{}", request.plain_text())?;
            for warning in request.warnings() {
                writeln!(stderr, "Обратите внимание: {warning}")?;
            }
            print_faithfulness(&mut stderr, request)?;
            if request.legal_omission().is_some() {
                writeln!(stderr, "{}", request.legal_status_ru())?;
            }
        }
        Outcome::NeedsUser { hints, .. } => {
            writeln!(stderr, "{}", outcome.message_ru())?;
            for hint in hints {
                writeln!(stderr, "— {hint}")?;
            }
        }
        Outcome::Rejected(rejection) => {
            writeln!(stderr, "{}", outcome.message_ru())?;
            writeln!(stderr, "Подробности проверки:")?;
            for finding in rejection.findings().iter().take(FINDINGS_SHOWN) {
                let place = if finding.field().is_empty() {
                    "ответ"
                } else {
                    finding.field()
                };
                writeln!(stderr, "— {place}: {}", finding.message())?;
            }
            if rejection.findings().len() > FINDINGS_SHOWN {
                let more = rejection.findings().len() - FINDINGS_SHOWN;
                writeln!(stderr, "— и ещё {more} (все — в выводе с --json).")?;
            }
        }
        Outcome::InvalidInput(errors) => {
            writeln!(stderr, "{}", outcome.message_ru())?;
            if errors.omitted() > 0 {
                writeln!(
                    stderr,
                    "— и ещё {} (все — в выводе с --json).",
                    errors.omitted()
                )?;
            }
        }
        Outcome::Failed(_) => {
            writeln!(stderr, "{}", outcome.message_ru())?;
        }
    }
    if let Some(rerun) = rerun {
        print_next_steps(&mut stderr, &next_steps, rerun)?;
    }
    Ok(())
}

/// Runs `work` to completion on a runtime of two worker threads, handing it a token that
/// Ctrl-C cancels: how the long runs (a batch, an evaluation) stop early and keep what
/// finished. Rows or answers spend their time waiting on the provider, but each also renders,
/// validates and stores; two threads let that work of one overlap another's wait.
pub fn block_on_until_ctrl_c<Fut: std::future::Future>(
    work: impl FnOnce(zayavka_engine::CancellationToken) -> Fut,
) -> anyhow::Result<Fut::Output> {
    use anyhow::Context as _;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("не удалось запустить асинхронную среду")?;
    Ok(runtime.block_on(async {
        let cancel = zayavka_engine::CancellationToken::new();
        let on_interrupt = cancel.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                on_interrupt.cancel();
            }
        });
        work(cancel).await
    }))
}

/// Prints the program's own notes on the resident's text (issue 36): never blocking, and
/// apart from the model's warnings.
pub fn print_notes(
    out: &mut dyn Write,
    notes: &[zayavka_engine::ResidentNote],
) -> std::io::Result<()> {
    for note in notes {
        writeln!(out, "Заметка программы: {}", note.message())?;
    }
    Ok(())
}

/// Prints what the faithfulness checks found in the model's sentences, each at its sentence:
/// the resident compares them with what they wrote (issue 17). The request stays ready.
pub fn print_faithfulness(out: &mut dyn Write, request: &Request) -> std::io::Result<()> {
    if request.faithfulness().is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "Сверьте описание со своим текстом — модель могла добавить то, чего вы не писали:"
    )?;
    for finding in request.faithfulness() {
        writeln!(out, "— «{}»: {}", finding.sentence(), finding.message())?;
    }
    Ok(())
}

/// Prints the technical lines under a failure: «Подробности: …», the adapter's detail in
/// Russian, and «Ответ сервера: …», the server's own reason (redacted and bounded by the
/// engine), each when there is one.
pub fn print_failure_details(out: &mut dyn Write, failure: &Failure) -> std::io::Result<()> {
    if !failure.detail.is_empty() {
        writeln!(out, "Подробности: {}", sentence(&failure.detail))?;
    }
    if let Some(reason) = &failure.advice.server_reason {
        writeln!(out, "Ответ сервера: {reason}")?;
    }
    Ok(())
}

/// A detail as a sentence: capitalised, with one closing mark (the engine's rule for both front
/// ends).
pub use zayavka_engine::full_sentence as sentence;

/// Prints «Что можно сделать:» and one line per step that has a wording here.
pub fn print_next_steps(
    out: &mut dyn Write,
    steps: &[NextStep],
    rerun: &Rerun,
) -> std::io::Result<()> {
    let lines: Vec<String> = steps
        .iter()
        .map(|step| next_step_ru(*step, rerun))
        .filter(|line| !line.is_empty())
        .collect();
    if lines.is_empty() {
        return Ok(());
    }
    writeln!(out, "Что можно сделать:")?;
    for line in lines {
        writeln!(out, "— {line}")?;
    }
    Ok(())
}

/// The command that fixes a configuration error, when there is one.
pub fn config_error_hint(error: &ConfigError) -> Option<String> {
    let key_set = |profile: &Option<ProfileName>| match profile {
        Some(profile) => {
            crate::command_line::join(["zayavka", "key", "set", "--profile", profile.as_str()])
        }
        None => "zayavka key set".to_owned(),
    };
    Some(match error {
        ConfigError::SecretInConfig { profile, .. }
        | ConfigError::SecretInSetting { profile, .. } => {
            format!("сохранить ключ в хранилище ключей: {}", key_set(profile))
        }
        ConfigError::InvalidValue {
            origin: SettingSource::File(_),
            field,
            ..
        } => format!("исправить значение: zayavka config set {field} ЗНАЧЕНИЕ"),
        ConfigError::UnknownProfile { name, .. } => format!(
            "создать профиль пошагово: zayavka config init (или сразу: zayavka config set \
             profiles.{name}.kind ВИД — {})",
            zayavka_engine::ProviderKind::names_ru(true)
        ),
        ConfigError::IncompleteProfile { profile, field } => format!(
            "задать значение: zayavka config set profiles.{profile}.{} ЗНАЧЕНИЕ",
            field.as_str()
        ),
        _ => return None,
    })
}

/// The command that fixes a key error, when there is one.
pub fn secret_error_hint(error: &SecretError) -> Option<String> {
    match error {
        SecretError::StoredKeyUnreadable { profile } => Some(format!(
            "сохранить ключ заново: {}",
            crate::command_line::join(["zayavka", "key", "set", "--profile", profile.as_str()])
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rerun() -> Rerun {
        Rerun {
            words: vec![
                "zayavka".into(),
                "draft".into(),
                "--input".into(),
                "/tmp/мой файл.json".into(),
                "--offline".into(),
            ],
            profile: Some("work".into()),
            is_draft: true,
        }
    }

    #[test]
    fn a_closed_pipe_is_recognised_through_the_error_chain() {
        let closed = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        assert!(is_closed_pipe(&anyhow::Error::new(closed)));
        let wrapped = anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::BrokenPipe))
            .context("writing the list");
        assert!(is_closed_pipe(&wrapped));
        let other = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        assert!(!is_closed_pipe(&anyhow::Error::new(other)));
        assert!(!is_closed_pipe(&anyhow::anyhow!("Broken pipe")));
        // `--json` output goes through serde_json, which keeps the write error inside its own.
        let json = serde_json::to_writer(ClosedPipe, &[1, 2, 3]).unwrap_err();
        assert!(is_closed_pipe(&anyhow::Error::new(json)));
        let syntax = serde_json::from_str::<u8>("x").unwrap_err();
        assert!(!is_closed_pipe(&anyhow::Error::new(syntax)));
    }

    /// A writer whose reader has gone.
    struct ClosedPipe;

    impl std::io::Write for ClosedPipe {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Windows only: a pipe whose reader has gone may answer «not connected».
    #[cfg(windows)]
    #[test]
    fn a_pipe_that_is_not_connected_is_a_closed_pipe_on_windows() {
        let error = anyhow::Error::new(std::io::Error::from_raw_os_error(PIPE_NOT_CONNECTED));
        assert!(is_closed_pipe(&error));
    }

    #[test]
    fn every_next_step_is_worded_and_commands_are_quoted() {
        for step in NextStep::ALL {
            let line = next_step_ru(*step, &rerun());
            assert!(!line.is_empty(), "{step}");
            assert!(!line.ends_with('.'), "{line}");
        }
        // Quoted as this platform's shell reads it (command_line.rs).
        let file = if cfg!(windows) {
            "\"/tmp/мой файл.json\""
        } else {
            "'/tmp/мой файл.json'"
        };
        assert_eq!(
            next_step_ru(NextStep::Retry, &rerun()),
            format!("повторить: zayavka draft --input {file} --offline")
        );
        assert_eq!(
            next_step_ru(NextStep::DraftWithoutModel, &rerun()),
            format!("составить без модели: zayavka draft --input {file} --offline")
        );
        assert_eq!(
            next_step_ru(NextStep::StoreApiKey, &rerun()),
            "сохранить ключ доступа: zayavka key set --profile work"
        );
    }
}
