//! `zayavka key`: stores, inspects and deletes a profile's API key in the operating system's
//! keyring.
//!
//! The key is read from a hidden terminal prompt or from standard input, never from an argument,
//! because arguments are visible to every user of the machine (`ps`) and end up in shell history.
//! Nothing here ever prints the key.

use std::io::{BufRead, IsTerminal as _, Write};
use std::process::ExitCode;

use anyhow::Context as _;
use zayavka_engine::{
    ApiKey, ApiKeySource, Config, ENV_API_KEY, Engine, ProfileName, SecretError, StoredKeyState,
    api_key_from_env, optional_key_ru,
};

/// `zayavka key …`
#[derive(Debug, clap::Args)]
pub struct KeyArgs {
    /// Что сделать с ключом.
    #[command(subcommand)]
    pub command: KeyCommand,
}

/// The `zayavka key` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum KeyCommand {
    /// Сохранить API-ключ профиля в хранилище ключей ОС. Ключ спрашивается без отображения или
    /// читается из стандартного ввода (--stdin), но никогда не передаётся аргументом.
    Set(KeySetArgs),
    /// Показать, сохранён ли ключ и задана ли переменная ZAYAVKA_API_KEY. Сам ключ не выводится.
    Status(KeyStatusArgs),
    /// Удалить API-ключ профиля из хранилища ключей ОС.
    Delete(KeyProfileArgs),
}

/// Arguments of `zayavka key set`.
#[derive(Debug, clap::Args)]
pub struct KeySetArgs {
    /// Профиль, для которого сохраняется ключ (по умолчанию — активный, иначе «default»).
    #[arg(long, value_name = "ИМЯ")]
    pub profile: Option<ProfileName>,
    /// Прочитать ключ из первой строки стандартного ввода, а не спрашивать в терминале.
    #[arg(long)]
    pub stdin: bool,
}

/// Arguments of `zayavka key status`.
#[derive(Debug, clap::Args)]
pub struct KeyStatusArgs {
    /// Профиль (по умолчанию — активный, иначе «default»).
    #[arg(long, value_name = "ИМЯ")]
    pub profile: Option<ProfileName>,
    /// Вывести ответ в JSON.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `zayavka key delete`.
#[derive(Debug, clap::Args)]
pub struct KeyProfileArgs {
    /// Профиль (по умолчанию — активный, иначе «default»).
    #[arg(long, value_name = "ИМЯ")]
    pub profile: Option<ProfileName>,
}

/// Where `zayavka key` reads and writes, so tests can supply their own.
pub struct KeyIo<'a> {
    /// Standard input, read by `key set --stdin`.
    pub input: &'a mut dyn BufRead,
    /// Whether standard input is a terminal; a hidden prompt needs one.
    pub input_is_terminal: bool,
    /// Standard output.
    pub output: &'a mut dyn Write,
    /// Shows the prompt and reads a line without echoing it.
    pub read_hidden: &'a mut dyn FnMut(&str) -> std::io::Result<String>,
    /// The value of `ZAYAVKA_API_KEY`, already checked.
    pub environment_key: Result<Option<ApiKey>, SecretError>,
}

/// Runs `zayavka key` against the real terminal and environment.
pub fn run(args: KeyArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin();
    let input_is_terminal = stdin.is_terminal();
    let mut input = stdin.lock();
    let mut output = std::io::stdout().lock();
    let mut read_hidden = |prompt: &str| rpassword::prompt_password(prompt);
    run_with(
        args,
        engine,
        KeyIo {
            input: &mut input,
            input_is_terminal,
            output: &mut output,
            read_hidden: &mut read_hidden,
            environment_key: api_key_from_env(),
        },
    )
}

/// Runs `zayavka key` with the given input, output and environment.
pub fn run_with(args: KeyArgs, engine: &Engine, io: KeyIo<'_>) -> anyhow::Result<ExitCode> {
    match args.command {
        KeyCommand::Set(set) => set_key(set, engine, io),
        KeyCommand::Status(status) => key_status(status, engine, io),
        KeyCommand::Delete(delete) => delete_key(delete, engine, io),
    }
}

fn choose_profile(
    named: Option<ProfileName>,
    engine: &Engine,
) -> anyhow::Result<(ProfileName, Option<Config>)> {
    Ok(engine.key_profile(named)?)
}

fn set_key(args: KeySetArgs, engine: &Engine, io: KeyIo<'_>) -> anyhow::Result<ExitCode> {
    let (profile, config) = choose_profile(args.profile, engine)?;
    let typed = if args.stdin {
        let mut line = String::new();
        io.input
            .read_line(&mut line)
            .context("Не удалось прочитать ключ из стандартного ввода")?;
        line
    } else if io.input_is_terminal {
        (io.read_hidden)(&format!(
            "API-ключ для профиля «{profile}» (ввод не отображается): "
        ))
        .context("Не удалось прочитать ключ из терминала")?
    } else {
        anyhow::bail!(
            "Стандартный ввод — не терминал, поэтому ключ нельзя запросить скрыто. Передайте \
             его через стандартный ввод: `zayavka key set --stdin < файл-с-ключом`."
        );
    };
    let key = ApiKey::new(&typed)?;
    engine.set_key(&profile, &key)?;

    let out = io.output;
    writeln!(
        out,
        "Ключ профиля «{profile}» сохранён в хранилище ключей ({}).",
        engine.keyring_name()
    )?;
    if let Some(config) = &config {
        if !config.has_profile(&profile) && profile.as_str() != ProfileName::DEFAULT {
            writeln!(
                out,
                "Профиля «{profile}» пока нет в настройках; создайте его: \
                 `zayavka config set profiles.{profile}.kind ВИД`."
            )?;
        } else if config
            .profile_settings(&profile)
            .is_ok_and(|settings| !settings.needs_api_key)
        {
            // The key just stored is the one sent, unless the environment's wins (said below).
            let source = match io.environment_key {
                Ok(Some(_)) => ApiKeySource::Environment,
                _ => ApiKeySource::Keyring,
            };
            writeln!(
                out,
                "Профилю «{profile}» ключ не обязателен (needs_api_key = false). {}",
                optional_key_ru(Some(source), false)
            )?;
        }
    }
    if matches!(io.environment_key, Ok(Some(_))) {
        writeln!(
            out,
            "Внимание: задана переменная окружения {ENV_API_KEY}; пока она задана, используется \
             ключ из неё, а не из хранилища."
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn key_status(args: KeyStatusArgs, engine: &Engine, io: KeyIo<'_>) -> anyhow::Result<ExitCode> {
    let (profile, config) = choose_profile(args.profile, engine)?;
    // Without a readable configuration the profile is taken to need a key, as drafting would.
    let key_optional = config
        .as_ref()
        .and_then(|config| config.profile_settings(&profile).ok())
        .is_some_and(|settings| !settings.needs_api_key);
    let report = engine.key_status_report(&profile, io.environment_key);
    let usable = report.usable_source;
    let out = io.output;

    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        let status = &report.status;
        writeln!(out, "Профиль: {profile}")?;
        let stored = match &status.stored {
            StoredKeyState::Present => "ключ сохранён".to_owned(),
            StoredKeyState::Absent => "ключа нет".to_owned(),
            StoredKeyState::Unreachable { message, .. } => format!("недоступно. {message}"),
        };
        writeln!(out, "Хранилище ключей ({}): {stored}", status.backend)?;
        let environment = match (&report.environment_error, status.environment_override) {
            (Some(error), _) => format!("задана неверно. {}", error.message_ru()),
            (None, true) => "задана — используется она, а не ключ из хранилища".to_owned(),
            (None, false) => "не задана".to_owned(),
        };
        writeln!(out, "Переменная {ENV_API_KEY}: {environment}")?;
        let verdict = match usable {
            _ if key_optional => optional_key_ru(
                usable,
                matches!(status.stored, StoredKeyState::Unreachable { .. }),
            ),
            Some(ApiKeySource::Environment) => format!("ключ будет взят из {ENV_API_KEY}."),
            Some(ApiKeySource::Keyring) => "ключ будет взят из хранилища.".to_owned(),
            None => format!(
                "ключа нет. Сохраните его командой `zayavka key set --profile {profile}` или \
                 передайте в переменной окружения {ENV_API_KEY}."
            ),
        };
        writeln!(out, "Итог: {verdict}")?;
    }
    // A profile that needs no key has nothing to fix without one.
    Ok(match usable {
        Some(_) => ExitCode::SUCCESS,
        None if key_optional => ExitCode::SUCCESS,
        None => ExitCode::from(crate::exit::PROBLEM),
    })
}

fn delete_key(args: KeyProfileArgs, engine: &Engine, io: KeyIo<'_>) -> anyhow::Result<ExitCode> {
    let (profile, _) = choose_profile(args.profile, engine)?;
    let deleted = engine.delete_key(&profile)?;
    let out = io.output;
    if deleted {
        writeln!(
            out,
            "Ключ профиля «{profile}» удалён из хранилища ключей ({}).",
            engine.keyring_name()
        )?;
    } else {
        writeln!(
            out,
            "В хранилище ключей ({}) нет ключа профиля «{profile}» — удалять нечего.",
            engine.keyring_name()
        )?;
    }
    if matches!(io.environment_key, Ok(Some(_))) {
        writeln!(
            out,
            "Переменная окружения {ENV_API_KEY} по-прежнему задана, и ключ из неё будет \
             использоваться."
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser as _;
    use std::sync::Arc;
    use zayavka_engine::{MemoryStore, Paths, SecretStore};

    const SECRET: &str = "sk-test-0123456789abcdef";

    /// Parses a `zayavka key …` line through the binary's real argument parser.
    fn args(line: &[&str]) -> KeyArgs {
        match crate::Cli::try_parse_from(["zayavka", "key"].iter().chain(line))
            .unwrap()
            .command
        {
            crate::Command::Key(args) => args,
            other => panic!("parsed as {other:?}"),
        }
    }

    struct Outcome {
        code: ExitCode,
        output: String,
        prompts: Vec<String>,
    }

    /// Runs a line with empty stdin that is not a terminal and no `ZAYAVKA_API_KEY`.
    fn run_plain(
        line: &[&str],
        paths: &Paths,
        store: &Arc<MemoryStore>,
    ) -> anyhow::Result<Outcome> {
        run_case(line, paths, store, "", false, "", Ok(None))
    }

    fn run_case(
        line: &[&str],
        paths: &Paths,
        store: &Arc<MemoryStore>,
        stdin: &str,
        input_is_terminal: bool,
        typed: &str,
        environment_key: Result<Option<ApiKey>, SecretError>,
    ) -> anyhow::Result<Outcome> {
        let mut input = stdin.as_bytes();
        let mut output = Vec::new();
        let mut prompts = Vec::new();
        let mut read_hidden = |prompt: &str| {
            prompts.push(prompt.to_owned());
            Ok(typed.to_owned())
        };
        let engine = Engine::new(
            paths.clone(),
            Arc::clone(store) as Arc<dyn SecretStore + Send + Sync>,
        );
        let code = run_with(
            args(line),
            &engine,
            KeyIo {
                input: &mut input,
                input_is_terminal,
                output: &mut output,
                read_hidden: &mut read_hidden,
                environment_key,
            },
        )?;
        Ok(Outcome {
            code,
            output: String::from_utf8(output).unwrap(),
            prompts,
        })
    }

    fn profile(name: &str) -> ProfileName {
        ProfileName::parse(name).unwrap()
    }

    #[test]
    fn set_from_stdin_uses_the_first_line_and_never_prints_the_key() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let store = Arc::new(MemoryStore::new());
        let outcome = run_case(
            &["set", "--stdin", "--profile", "openai"],
            &paths,
            &store,
            &format!("  {SECRET}  \nsecond line\n"),
            false,
            "",
            Ok(None),
        )
        .unwrap();
        assert_eq!(outcome.code, ExitCode::SUCCESS);
        assert_eq!(
            store.get(&profile("openai")).unwrap().unwrap().expose(),
            SECRET
        );
        assert!(outcome.output.contains("«openai» сохранён"));
        assert!(!outcome.output.contains(SECRET));
        assert!(outcome.prompts.is_empty());
    }

    /// Regression (issue 14): `key set` said the profile needed no key while the key it had
    /// just stored was sent with every request; the rule is «sent when stored, and only then».
    #[test]
    fn issue_14_a_profile_without_a_required_key_says_a_stored_key_is_sent() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        for (key, value) in [
            ("profiles.local.kind", "custom"),
            ("profiles.local.base_url", "http://127.0.0.1:8000/v1"),
            ("profiles.local.model", "local-model"),
            ("profiles.local.needs_api_key", "false"),
            ("active_profile", "local"),
        ] {
            zayavka_engine::set_config_value(&paths.config_file(), key, value).unwrap();
        }
        let store = Arc::new(MemoryStore::new());
        let rule = "Ключ не обязателен: если он сохранён, он отправляется серверу.";

        let status = run_plain(&["status"], &paths, &store).unwrap();
        assert_eq!(status.code, ExitCode::SUCCESS, "{}", status.output);
        assert!(
            status.output.contains(&format!(
                "Итог: {rule} Сейчас ключа нет, и запросы идут без него."
            )),
            "{}",
            status.output
        );

        let set = run_case(
            &["set", "--stdin"],
            &paths,
            &store,
            SECRET,
            false,
            "",
            Ok(None),
        )
        .unwrap();
        assert!(
            set.output.contains(&format!(
                "Профилю «local» ключ не обязателен (needs_api_key = false). {rule} Сейчас ключ \
                 сохранён и отправляется с каждым запросом; чтобы запросы шли без ключа, \
                 удалите его."
            )),
            "{}",
            set.output
        );
        assert!(!set.output.contains("не требующий"), "{}", set.output);

        let status = run_plain(&["status"], &paths, &store).unwrap();
        assert_eq!(status.code, ExitCode::SUCCESS);
        assert!(
            status
                .output
                .contains("Сейчас ключ сохранён и отправляется"),
            "{}",
            status.output
        );
        assert!(!status.output.contains(SECRET));
    }

    #[test]
    fn set_prompts_on_a_terminal_for_the_active_profile() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        zayavka_engine::set_config_value(&paths.config_file(), "active_profile", "openrouter")
            .unwrap();
        let store = Arc::new(MemoryStore::new());
        let outcome = run_case(&["set"], &paths, &store, "", true, SECRET, Ok(None)).unwrap();
        assert_eq!(outcome.prompts.len(), 1);
        assert!(outcome.prompts[0].contains("«openrouter»"));
        assert_eq!(
            store.get(&profile("openrouter")).unwrap().unwrap().expose(),
            SECRET
        );
    }

    #[test]
    fn set_without_a_profile_or_config_uses_default() {
        let home = tempfile::tempdir().unwrap();
        let store = Arc::new(MemoryStore::new());
        run_case(
            &["set", "--stdin"],
            &Paths::under(home.path()),
            &store,
            SECRET,
            false,
            "",
            Ok(None),
        )
        .unwrap();
        assert!(store.get(&profile("default")).unwrap().is_some());
    }

    #[test]
    fn set_refuses_an_empty_key_and_a_non_terminal_prompt() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let store = Arc::new(MemoryStore::new());
        let error = run_case(
            &["set", "--stdin"],
            &paths,
            &store,
            "\n",
            false,
            "",
            Ok(None),
        )
        .err()
        .unwrap();
        assert!(error.to_string().contains("Ключ пустой"), "{error}");
        let error = run_case(&["set"], &paths, &store, "", true, "   ", Ok(None))
            .err()
            .unwrap();
        assert!(error.to_string().contains("Ключ пустой"), "{error}");
        let error = run_case(&["set"], &paths, &store, SECRET, false, "", Ok(None))
            .err()
            .unwrap();
        assert!(error.to_string().contains("--stdin"), "{error}");
        assert_eq!(store.get(&profile("default")).unwrap(), None);
    }

    #[test]
    fn the_key_is_never_an_argument() {
        let parsed = crate::Cli::try_parse_from(["zayavka", "key", "set", SECRET]);
        assert!(parsed.is_err());
    }

    #[test]
    fn status_reports_without_the_key_and_exits_by_availability() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let store = Arc::new(MemoryStore::new());
        let none = run_plain(&["status"], &paths, &store).unwrap();
        assert_eq!(none.code, ExitCode::from(crate::exit::PROBLEM));
        assert!(none.output.contains("Профиль: default"));
        assert!(none.output.contains("ключа нет"));
        assert!(none.output.contains("zayavka key set --profile default"));

        store
            .set(&profile("default"), &ApiKey::new(SECRET).unwrap())
            .unwrap();
        let stored = run_plain(&["status"], &paths, &store).unwrap();
        assert_eq!(stored.code, ExitCode::SUCCESS);
        assert!(stored.output.contains("ключ сохранён"));
        assert!(stored.output.contains("ключ будет взят из хранилища"));
        assert!(!stored.output.contains(SECRET));

        let overridden = run_case(
            &["status", "--json"],
            &paths,
            &store,
            "",
            false,
            "",
            Ok(Some(ApiKey::new("sk-env-override").unwrap())),
        )
        .unwrap();
        let json: serde_json::Value = serde_json::from_str(&overridden.output).unwrap();
        assert_eq!(json["usable_source"], "environment");
        assert_eq!(json["status"]["stored"]["state"], "present");
        assert_eq!(json["status"]["environment_override"], true);
        assert!(!overridden.output.contains(SECRET));
        assert!(!overridden.output.contains("sk-env-override"));
    }

    #[test]
    fn status_with_an_unreachable_keyring_points_to_the_environment_variable() {
        let home = tempfile::tempdir().unwrap();
        let outcome = run_case(
            &["status", "--profile", "openai"],
            &Paths::under(home.path()),
            &Arc::new(MemoryStore::unavailable()),
            "",
            false,
            "",
            Err(SecretError::InvalidEnvironmentKey),
        )
        .unwrap();
        assert_eq!(outcome.code, ExitCode::from(crate::exit::PROBLEM));
        assert!(outcome.output.contains("недоступно"));
        assert!(outcome.output.contains("ZAYAVKA_API_KEY: задана неверно"));
    }

    #[test]
    fn delete_removes_the_key_and_says_when_there_was_none() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let store = Arc::new(MemoryStore::new());
        store
            .set(&profile("openai"), &ApiKey::new(SECRET).unwrap())
            .unwrap();
        let first = run_plain(&["delete", "--profile", "openai"], &paths, &store).unwrap();
        assert!(first.output.contains("удалён"));
        assert_eq!(store.get(&profile("openai")).unwrap(), None);
        let second = run_plain(&["delete", "--profile", "openai"], &paths, &store).unwrap();
        assert_eq!(second.code, ExitCode::SUCCESS);
        assert!(second.output.contains("удалять нечего"));
    }

    #[test]
    fn a_keyring_failure_is_an_error_with_the_russian_message() {
        let home = tempfile::tempdir().unwrap();
        let error = run_case(
            &["set", "--stdin", "--profile", "openai"],
            &Paths::under(home.path()),
            &Arc::new(MemoryStore::unavailable()),
            SECRET,
            false,
            "",
            Ok(None),
        )
        .err()
        .unwrap();
        let message = format!("{error:#}");
        assert!(message.contains("ZAYAVKA_API_KEY"), "{message}");
        assert!(!message.contains(SECRET));
    }

    #[test]
    fn an_invalid_profile_name_is_refused_by_the_parser() {
        assert!(
            crate::Cli::try_parse_from(["zayavka", "key", "status", "--profile", "a.b"]).is_err()
        );
    }
}
