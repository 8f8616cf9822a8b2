//! `zayavka config init`: the terminal's version of the app's first-run setup (issue 15). It asks
//! which service, then that service's fields, then the key (hidden, into the keyring exactly as
//! `zayavka key set` stores it), writes the profile with the same checked `config set` the
//! scripts use, and runs the provider checks of `zayavka doctor` to say plainly whether drafting
//! with the model will work. Without a terminal it asks nothing and points to `config set`.

use std::io::{BufRead, IsTerminal as _, Write};
use std::process::ExitCode;

use anyhow::Context as _;
use zayavka_engine::{
    ApiKey, BaseUrl, Check, CheckStatus, ENV_API_KEY, Engine, FolderId, GigaChatScope, ProfileName,
    ProviderKind, StoredKeyState, parse_model,
};

/// Exit code when there is no terminal to ask in, or the answers ran out.
use crate::exit::{PROBLEM, USAGE};

/// Where `config init` reads and writes, so tests can supply their own.
pub struct InitIo<'a> {
    /// The answers, one a line.
    pub input: &'a mut dyn BufRead,
    /// The questions and what was done.
    pub output: &'a mut dyn Write,
    /// Shows the prompt and reads a line without echoing it (the key).
    pub read_hidden: &'a mut dyn FnMut(&str) -> std::io::Result<String>,
    /// Whether `ZAYAVKA_API_KEY` is set, which wins over the keyring.
    pub environment_key_present: bool,
    /// Runs the provider checks of `zayavka doctor` against the configuration just written.
    pub check: &'a mut dyn FnMut() -> anyhow::Result<Vec<Check>>,
}

/// One line of the service list, in the engine's order, and what choosing it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Choice {
    Service(ProviderKind),
    /// Ollama, LM Studio or llama.cpp, asked next.
    ThisComputer,
    WithoutModel,
}

fn choices() -> Vec<Choice> {
    let mut choices = Vec::new();
    for kind in ProviderKind::ALL {
        if kind.runs_locally() {
            if !choices.contains(&Choice::ThisComputer) {
                choices.push(Choice::ThisComputer);
            }
        } else {
            choices.push(Choice::Service(kind));
        }
    }
    choices.push(Choice::WithoutModel);
    choices
}

fn choice_line(choice: Choice) -> String {
    match choice {
        Choice::Service(ProviderKind::Custom) => format!(
            "Другой сервис, совместимый с OpenAI — {}",
            ProviderKind::Custom.summary_ru()
        ),
        Choice::Service(kind) => format!("{} — {}", kind.title(), kind.summary_ru()),
        Choice::ThisComputer => format!(
            "Модель на этом компьютере (Ollama, LM Studio, llama.cpp) — {}",
            ProviderKind::Ollama.summary_ru()
        ),
        Choice::WithoutModel => "Пока без модели — заявки составляются из ваших слов, без сети и \
                                 без ключа; сервис можно выбрать позже."
            .to_owned(),
    }
}

/// Runs `zayavka config init` in the real terminal.
pub fn run(engine: &Engine) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        // Not `eprintln!`: a closed standard error must not panic (ADR 19).
        let _ = writeln!(
            std::io::stderr().lock(),
            "zayavka config init задаёт вопросы в терминале, а стандартный ввод — не терминал. \
             В сценариях настройте профиль командами `zayavka config set` (например, \
             `zayavka config set profiles.yandex.folder_id …` и `zayavka config set \
             active_profile yandex`) и сохраните ключ командой `zayavka key set --stdin`."
        );
        return Ok(ExitCode::from(USAGE));
    }
    let mut input = stdin.lock();
    let mut output = std::io::stdout().lock();
    let mut read_hidden = |prompt: &str| rpassword::prompt_password(prompt);
    let mut check = || provider_checks(engine);
    run_with(
        engine,
        InitIo {
            input: &mut input,
            output: &mut output,
            read_hidden: &mut read_hidden,
            environment_key_present: std::env::var_os(ENV_API_KEY).is_some(),
            check: &mut check,
        },
    )
}

fn provider_checks(engine: &Engine) -> anyhow::Result<Vec<Check>> {
    let environment = engine
        .environment(false)
        .map_err(|error| anyhow::anyhow!(error.to_string()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("не удалось запустить асинхронную среду")?;
    Ok(runtime
        .block_on(engine.provider_checks(environment, &zayavka_engine::CancellationToken::new())))
}

/// The answers ran out before the setup was complete.
#[derive(Debug)]
struct EndOfAnswers;

impl std::fmt::Display for EndOfAnswers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ввод закончился")
    }
}

impl std::error::Error for EndOfAnswers {}

/// Asks `question` and returns the trimmed answer; `default` is taken for an empty one.
fn ask(io: &mut InitIo<'_>, question: &str, default: Option<&str>) -> anyhow::Result<String> {
    match default {
        Some(default) => write!(io.output, "{question} [{default}]: ")?,
        None => write!(io.output, "{question}: ")?,
    }
    io.output.flush()?;
    let mut line = String::new();
    if io.input.read_line(&mut line)? == 0 {
        writeln!(io.output)?;
        return Err(EndOfAnswers.into());
    }
    let answer = line.trim();
    Ok(match (answer.is_empty(), default) {
        (true, Some(default)) => default.to_owned(),
        _ => answer.to_owned(),
    })
}

/// Asks for a number from 1 to `count` until one is given.
fn ask_number(
    io: &mut InitIo<'_>,
    question: &str,
    count: usize,
    default: Option<usize>,
) -> anyhow::Result<usize> {
    let default_text = default.map(|number| number.to_string());
    loop {
        let answer = ask(io, question, default_text.as_deref())?;
        match answer.parse::<usize>() {
            Ok(number) if (1..=count).contains(&number) => return Ok(number),
            _ => writeln!(io.output, "Введите номер от 1 до {count}.")?,
        }
    }
}

/// Asks until `check` accepts the answer, printing its Russian refusal each time.
fn ask_checked<T>(
    io: &mut InitIo<'_>,
    question: &str,
    default: Option<&str>,
    check: impl Fn(&str) -> Result<T, String>,
) -> anyhow::Result<T> {
    loop {
        let answer = ask(io, question, default)?;
        match check(&answer) {
            Ok(value) => return Ok(value),
            Err(message) => writeln!(io.output, "{message}")?,
        }
    }
}

fn yes(answer: &str) -> bool {
    matches!(
        answer.to_lowercase().as_str(),
        "д" | "да" | "y" | "yes" | "l" /* «д» typed in the Latin layout */
    )
}

/// Runs `zayavka config init` with the given answers, output and checks.
pub fn run_with(engine: &Engine, mut io: InitIo<'_>) -> anyhow::Result<ExitCode> {
    match setup(engine, &mut io) {
        Ok(code) => Ok(code),
        Err(error) if error.is::<EndOfAnswers>() => {
            writeln!(
                io.output,
                "Ответы закончились раньше вопросов. Уже сохранённое остаётся; запустите \
                 `zayavka config init` снова."
            )?;
            Ok(ExitCode::from(USAGE))
        }
        Err(error) => Err(error),
    }
}

fn setup(engine: &Engine, io: &mut InitIo<'_>) -> anyhow::Result<ExitCode> {
    let file = engine.paths().config_file();
    writeln!(
        io.output,
        "Настройка сервиса модели. Модель помогает составить описание; без неё заявка \
         составляется из ваших слов, и это работает всегда.\n"
    )?;
    writeln!(io.output, "Какой сервис модели использовать?")?;
    let choices = choices();
    for (number, choice) in choices.iter().enumerate() {
        writeln!(io.output, "  {}. {}", number + 1, choice_line(*choice))?;
    }
    let number = ask_number(io, "Номер", choices.len(), None)?;
    let kind = match choices[number - 1] {
        Choice::WithoutModel => {
            engine.set_setting("active_profile", "")?;
            writeln!(
                io.output,
                "Хорошо: сервис модели не выбран, заявки составляются без модели, из ваших слов. \
                 Выбрать сервис можно в любой момент: `zayavka config init`."
            )?;
            return Ok(ExitCode::SUCCESS);
        }
        Choice::ThisComputer => {
            let local: Vec<ProviderKind> = ProviderKind::ALL
                .into_iter()
                .filter(|kind| kind.runs_locally())
                .collect();
            writeln!(io.output, "Какая программа запускает модель?")?;
            for (number, kind) in local.iter().enumerate() {
                writeln!(io.output, "  {}. {}", number + 1, kind.title())?;
            }
            local[ask_number(io, "Номер", local.len(), Some(1))? - 1]
        }
        Choice::Service(kind) => kind,
    };
    let profile = ProfileName::parse(kind.as_str())?;
    let mut settings: Vec<(&str, String)> = Vec::new();
    match kind {
        ProviderKind::GigaChat => {
            writeln!(io.output, "Для кого ваш ключ GigaChat API?")?;
            for (number, scope) in GigaChatScope::ALL.iter().enumerate() {
                writeln!(
                    io.output,
                    "  {}. {} ({})",
                    number + 1,
                    scope.title_ru(),
                    scope.code()
                )?;
            }
            let scope =
                GigaChatScope::ALL[ask_number(io, "Номер", GigaChatScope::ALL.len(), Some(1))? - 1];
            settings.push(("scope", scope.code().to_owned()));
        }
        ProviderKind::Yandex => {
            let folder = ask_checked(
                io,
                "Идентификатор каталога Yandex Cloud (folder_id; 20 строчных латинских букв и \
                 цифр, обычно начинается с b1g)",
                None,
                |text| FolderId::parse(text).map_err(|error| error.to_string()),
            )?;
            settings.push(("folder_id", folder.as_str().to_owned()));
        }
        ProviderKind::Custom => {
            let url = ask_checked(
                io,
                "Адрес сервиса, например https://example.com/v1",
                None,
                |text| {
                    BaseUrl::parse(text)
                        .map(|url| url.as_str().to_owned())
                        .map_err(|error| error.to_string())
                },
            )?;
            let model = ask_checked(
                io,
                "Имя модели на этом сервисе",
                None,
                |text| parse_model(text).map_err(|error| error.to_string()),
            )?;
            let needs_key = yes(&ask(
                io,
                "Нужен ли этому сервису ключ доступа? (д/н)",
                Some("д"),
            )?);
            settings.push(("kind", kind.as_str().to_owned()));
            settings.push(("base_url", url));
            settings.push(("model", model));
            settings.push(("needs_api_key", needs_key.to_string()));
        }
        ProviderKind::Ollama | ProviderKind::LmStudio | ProviderKind::LlamaCpp => {
            let preset = kind.preset();
            let url = ask_checked(io, "Адрес сервера", preset.base_url, |text| {
                BaseUrl::parse(text)
                    .map(|url| url.as_str().to_owned())
                    .map_err(|error| error.to_string())
            })?;
            let model = ask_checked(io, "Имя модели", preset.model, |text| {
                parse_model(text).map_err(|error| error.to_string())
            })?;
            // Only what differs from the preset is written, so the file stays short.
            if Some(url.as_str()) != preset.base_url {
                settings.push(("base_url", url));
            }
            if Some(model.as_str()) != preset.model {
                settings.push(("model", model));
            }
        }
        ProviderKind::OpenAi | ProviderKind::OpenRouter => {}
    }
    for (field, value) in &settings {
        engine.set_setting(&format!("profiles.{profile}.{field}"), value)?;
    }
    let new_config = engine.set_setting("active_profile", profile.as_str())?;
    writeln!(
        io.output,
        "Сохранено в «{}»: сервис {}, профиль «{profile}».",
        file.display(),
        kind.title()
    )?;

    let needs_key = new_config
        .profile_settings(&profile)
        .map(|settings| settings.needs_api_key)
        .unwrap_or(true);
    if needs_key {
        ask_for_key(engine, &profile, kind, io)?;
    }

    writeln!(io.output, "\nПроверяю подключение…")?;
    let checks = (io.check)()?;
    for check in &checks {
        let mark = match check.status {
            CheckStatus::Ok => "[ок]",
            CheckStatus::Warning => "[внимание]",
            CheckStatus::Problem => "[проблема]",
        };
        writeln!(io.output, "{mark} {}", check.message)?;
    }
    let works = !checks.is_empty()
        && checks
            .iter()
            .all(|check| check.status != CheckStatus::Problem);
    if works {
        writeln!(
            io.output,
            "\nГотово: заявки можно составлять с моделью ({}). Например: zayavka draft \
             --description \"В подъезде не горит свет\".",
            kind.title()
        )?;
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(
            io.output,
            "\nПока составить заявку с моделью не получится: исправьте то, что отмечено \
             «[проблема]», и проверьте снова командой `zayavka doctor` (или запустите \
             `zayavka config init` ещё раз). Без модели заявка составляется всегда: \
             `zayavka draft --offline`."
        )?;
        Ok(ExitCode::from(PROBLEM))
    }
}

/// Asks for the key without echo and stores it in the keyring exactly as `zayavka key set`
/// does; an empty answer keeps what is stored.
fn ask_for_key(
    engine: &Engine,
    profile: &ProfileName,
    kind: ProviderKind,
    io: &mut InitIo<'_>,
) -> anyhow::Result<()> {
    let (what, where_) = match kind {
        ProviderKind::GigaChat => (
            "Ключ авторизации",
            "в личном кабинете GigaChat API (developers.sber.ru), раздел проекта, кнопка \
             «Получить ключ»",
        ),
        ProviderKind::Yandex => (
            "API-ключ сервисного аккаунта",
            "в консоли Yandex Cloud: сервисный аккаунт с ролью ai.languageModels.user, \
             «Создать API-ключ»",
        ),
        _ => ("API-ключ", "в личном кабинете сервиса"),
    };
    let stored = matches!(
        engine.key_status(profile, false).stored,
        StoredKeyState::Present
    );
    if stored {
        writeln!(
            io.output,
            "Для профиля «{profile}» ключ уже сохранён. Введите новый, чтобы заменить его, или \
             нажмите Enter, чтобы оставить прежний."
        )?;
    } else {
        writeln!(io.output, "{what} берётся {where_}.")?;
    }
    let typed = (io.read_hidden)(&format!("{what} (ввод не отображается): "))
        .context("Не удалось прочитать ключ из терминала")?;
    if typed.trim().is_empty() {
        if !stored {
            writeln!(
                io.output,
                "Ключ не введён. Сохраните его позже: `zayavka key set --profile {profile}`."
            )?;
        }
    } else {
        match ApiKey::new(&typed).and_then(|key| engine.set_key(profile, &key)) {
            Ok(()) => writeln!(
                io.output,
                "Ключ профиля «{profile}» сохранён в хранилище ключей ({}).",
                engine.keyring_name()
            )?,
            // The engine's messages never quote the key.
            Err(error) => writeln!(io.output, "Ключ не сохранён: {}", error.message_ru())?,
        }
    }
    if io.environment_key_present {
        writeln!(
            io.output,
            "Внимание: задана переменная окружения {ENV_API_KEY}; пока она задана, используется \
             ключ из неё, а не из хранилища."
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use zayavka_engine::{MemoryStore, Paths, SecretStore, set_config_value};

    const SECRET: &str = "Y2xpZW50LWlkOnNlY3JldC1ub3QtcmVhbA==";

    fn run_answers(
        answers: &str,
        key: &str,
        paths: &Paths,
        store: &Arc<MemoryStore>,
        checks: Vec<Check>,
    ) -> (ExitCode, String, Vec<String>) {
        let mut input = answers.as_bytes();
        let mut output = Vec::new();
        let mut prompts = Vec::new();
        let mut read_hidden = |prompt: &str| {
            prompts.push(prompt.to_owned());
            Ok(key.to_owned())
        };
        let mut check = || Ok(checks.clone());
        let engine = Engine::new(
            paths.clone(),
            Arc::clone(store) as Arc<dyn SecretStore + Send + Sync>,
        );
        let code = run_with(
            &engine,
            InitIo {
                input: &mut input,
                output: &mut output,
                read_hidden: &mut read_hidden,
                environment_key_present: false,
                check: &mut check,
            },
        )
        .unwrap();
        (code, String::from_utf8(output).unwrap(), prompts)
    }

    fn check(status: CheckStatus, message: &str) -> Check {
        Check {
            name: zayavka_engine::CheckName::Provider,
            status,
            message: message.to_owned(),
            detail: None,
            next_steps: Vec::new(),
        }
    }

    fn ok_checks() -> Vec<Check> {
        vec![check(CheckStatus::Ok, "Сервис модели отвечает.")]
    }

    #[test]
    fn issue_15_the_list_follows_the_engine_order_and_ends_without_a_model() {
        let lines: Vec<String> = choices().into_iter().map(choice_line).collect();
        assert!(lines[0].starts_with("GigaChat — "), "{lines:?}");
        assert!(lines[1].starts_with("Yandex AI Studio — "), "{lines:?}");
        assert!(
            lines[2].starts_with("Модель на этом компьютере"),
            "{lines:?}"
        );
        assert!(
            lines[3].starts_with("Другой сервис, совместимый с OpenAI"),
            "{lines:?}"
        );
        assert!(lines[4].starts_with("OpenAI — "), "{lines:?}");
        assert!(lines[5].starts_with("OpenRouter — "), "{lines:?}");
        assert!(lines[6].starts_with("Пока без модели"), "{lines:?}");
        assert_eq!(lines.len(), 7);
    }

    #[test]
    fn issue_15_init_sets_up_yandex_asking_again_for_a_malformed_folder() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let store = Arc::new(MemoryStore::new());
        let (code, output, prompts) = run_answers(
            "2\nmy-folder\nb1gaaaaaaaaaaaaaaaaa\n",
            SECRET,
            &paths,
            &store,
            ok_checks(),
        );
        assert_eq!(code, ExitCode::SUCCESS, "{output}");
        assert!(output.contains("«folder_id»"), "{output}");
        assert!(
            output.contains("Готово: заявки можно составлять"),
            "{output}"
        );
        assert!(!output.contains(SECRET), "{output}");
        assert_eq!(
            prompts,
            ["API-ключ сервисного аккаунта (ввод не отображается): "]
        );
        let config = zayavka_engine::Config::load(&paths.config_file()).unwrap();
        let settings = config
            .profile_settings(&ProfileName::parse("yandex").unwrap())
            .unwrap();
        assert_eq!(
            settings.model,
            "gpt://b1gaaaaaaaaaaaaaaaaa/yandexgpt/latest"
        );
        assert_eq!(config.active_profile.unwrap().as_str(), "yandex");
        let stored = store.get(&ProfileName::parse("yandex").unwrap()).unwrap();
        assert_eq!(stored.unwrap().expose(), SECRET);
        assert!(
            !std::fs::read_to_string(paths.config_file())
                .unwrap()
                .contains(SECRET)
        );
    }

    #[test]
    fn issue_15_init_sets_up_gigachat_with_a_scope_and_reports_a_problem_plainly() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let store = Arc::new(MemoryStore::new());
        let problem = vec![check(
            CheckStatus::Problem,
            "Сервис модели отвечает, но не принимает ключ доступа.",
        )];
        let (code, output, prompts) = run_answers("1\n3\n", SECRET, &paths, &store, problem);
        assert_eq!(code, ExitCode::from(1), "{output}");
        assert_eq!(prompts, ["Ключ авторизации (ввод не отображается): "]);
        assert!(
            output.contains("[проблема] Сервис модели отвечает"),
            "{output}"
        );
        assert!(
            output.contains("Пока составить заявку с моделью не получится"),
            "{output}"
        );
        assert!(!output.contains(SECRET), "{output}");
        let text = std::fs::read_to_string(paths.config_file()).unwrap();
        assert!(text.contains("scope = \"GIGACHAT_API_CORP\""), "{text}");
        assert!(text.contains("active_profile = \"gigachat\""), "{text}");
    }

    #[test]
    fn issue_15_init_without_a_model_unsets_the_active_profile() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        set_config_value(&paths.config_file(), "active_profile", "ollama").unwrap();
        let (code, output, prompts) = run_answers(
            "9\n7\n",
            "",
            &paths,
            &Arc::new(MemoryStore::new()),
            Vec::new(),
        );
        assert_eq!(code, ExitCode::SUCCESS);
        assert!(output.contains("Введите номер от 1 до 7."), "{output}");
        assert!(output.contains("без модели"), "{output}");
        assert!(prompts.is_empty());
        let config = zayavka_engine::Config::load(&paths.config_file()).unwrap();
        assert_eq!(config.active_profile, None);
    }

    #[test]
    fn issue_15_init_for_a_local_server_keeps_the_preset_and_asks_no_key() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let (code, output, prompts) = run_answers(
            "3\n3\n\nmy-model\n",
            "",
            &paths,
            &Arc::new(MemoryStore::new()),
            ok_checks(),
        );
        assert_eq!(code, ExitCode::SUCCESS, "{output}");
        assert!(prompts.is_empty());
        let text = std::fs::read_to_string(paths.config_file()).unwrap();
        assert_eq!(
            text,
            "active_profile = \"llamacpp\"\n[profiles.llamacpp]\nmodel = \"my-model\"\n"
        );
    }

    #[test]
    fn issue_15_init_stops_calmly_when_the_answers_run_out() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let (code, output, _) =
            run_answers("2\n", "", &paths, &Arc::new(MemoryStore::new()), Vec::new());
        assert_eq!(code, ExitCode::from(USAGE));
        assert!(output.contains("Ответы закончились"), "{output}");
        assert!(!paths.config_file().exists());
    }
}
