//! Russian for the parts of the interface that clap writes itself: the help layout and its
//! headings, the `-h/--help` and `-V/--version` flags, the `help` subcommand, and the error
//! messages for wrong arguments.
//!
//! clap has no localisation, so [`localise`] replaces what can be replaced on the command tree
//! (template, headings, the help and version flags, the usage line) and [`try_parse_from`]
//! renders every parse error itself from the error's kind and context instead of printing
//! clap's English text. A resident who mistypes a flag reads what happened, what clap suggests
//! («Возможно, вы имели в виду --json?») and where the help is, all in Russian.

use std::ffi::OsString;
use std::io::Write as _;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, Command, CommandFactory, FromArgMatches};

/// The help layout: clap's default with a Russian usage heading.
const HELP_TEMPLATE: &str =
    "{about-with-newline}\nИспользование: {usage}\n\n{all-args}{after-help}";
/// The heading of flags and options.
const OPTIONS_HEADING: &str = "Параметры";
/// The heading of positional arguments.
const ARGUMENTS_HEADING: &str = "Аргументы";
/// The heading of the subcommand list.
const COMMANDS_HEADING: &str = "Команды";
/// The placeholder for a subcommand in a usage line.
const COMMAND_VALUE_NAME: &str = "КОМАНДА";
/// The usage placeholder clap writes for optional flags, and its replacement.
const OPTIONS_PLACEHOLDER: (&str, &str) = ("[OPTIONS]", "[ПАРАМЕТРЫ]");
/// The description of the `help` subcommand clap adds to every command with subcommands.
const HELP_COMMAND_ABOUT: &str = "Показать справку: общую или по указанной команде";
/// How many characters of a rejected value are echoed back.
const ECHO_MAX_CHARS: usize = 60;

/// Applies the Russian template, headings, help and version flags to `command` and all its
/// subcommands, and builds it. Parse with the returned command.
pub fn localise(command: Command) -> Command {
    let name = command.get_name().to_owned();
    // The binary's name is fixed rather than taken from how it was started, so usage lines and
    // help hints name the command a resident can type.
    let mut command = localise_tree(command.bin_name(name))
        .disable_version_flag(true)
        .arg(
            Arg::new("version")
                .short('V')
                .long("version")
                .action(ArgAction::Version)
                .help("Показать версию программы")
                .help_heading(OPTIONS_HEADING),
        );
    // Building adds clap's own `help` subcommand and fills in each subcommand's full name, which
    // the usage lines below need.
    command.build();
    finish_tree(command)
}

/// The settings that must be in place before the command is built.
fn localise_tree(command: Command) -> Command {
    command
        .disable_help_flag(true)
        .arg(
            Arg::new("help")
                .short('h')
                .long("help")
                .action(ArgAction::Help)
                .help("Показать эту справку"),
        )
        .mut_args(with_heading)
        .help_template(HELP_TEMPLATE)
        .subcommand_help_heading(COMMANDS_HEADING)
        .subcommand_value_name(COMMAND_VALUE_NAME)
        .mut_subcommands(localise_tree)
}

/// Puts an argument under the Russian heading for its kind, unless it has a heading of its own.
fn with_heading(arg: Arg) -> Arg {
    if arg.get_help_heading().is_some() {
        arg
    } else if arg.is_positional() {
        arg.help_heading(ARGUMENTS_HEADING)
    } else {
        arg.help_heading(OPTIONS_HEADING)
    }
}

/// The changes that need the built tree: clap's `help` subcommand in Russian, and each usage line
/// rendered once and fixed, with the English placeholder replaced.
fn finish_tree(command: Command) -> Command {
    finish_subtree(command, false)
}

fn finish_subtree(mut command: Command, inside_help: bool) -> Command {
    // clap adds its `help` subcommand while building, after `localise_tree` gave every command
    // its Russian help flag; so a `help` without that flag is clap's own. Building expands it
    // into copies of the other subcommands (for `zayavka help key set`), which need the Russian
    // layout too.
    let is_generated_help =
        command.get_name() == "help" && !command.get_arguments().any(|a| a.get_id() == "help");
    if is_generated_help || inside_help {
        if command.get_name() == "help" {
            command = command.about(HELP_COMMAND_ABOUT);
        }
        command = command
            .help_template(HELP_TEMPLATE)
            .subcommand_help_heading(COMMANDS_HEADING)
            .subcommand_value_name(COMMAND_VALUE_NAME)
            .mut_args(|arg| {
                arg.value_name(COMMAND_VALUE_NAME)
                    .help("Команда, справку по которой показать")
                    .help_heading(ARGUMENTS_HEADING)
            });
    }
    let usage = plain_usage(&command.render_usage().to_string());
    let inside_help = inside_help || is_generated_help;
    command
        .override_usage(usage)
        .mut_subcommands(|sub| finish_subtree(sub, inside_help))
}

/// A usage line without clap's English heading and placeholder.
fn plain_usage(rendered: &str) -> String {
    let usage = rendered.strip_prefix("Usage:").unwrap_or(rendered).trim();
    usage.replace(OPTIONS_PLACEHOLDER.0, OPTIONS_PLACEHOLDER.1)
}

/// Why parsing stopped before there were arguments to run: help or version was asked for, or the
/// arguments were wrong. It knows what to print, where, and the exit code.
#[derive(Debug)]
pub struct ParseStop {
    kind: StopKind,
}

#[derive(Debug)]
enum StopKind {
    /// Help or version on standard output, printed by clap so that it can colour a terminal.
    Requested(clap::Error),
    /// A Russian message on standard error.
    Usage(String),
}

impl ParseStop {
    /// 0 for help and version, 2 for wrong arguments.
    pub fn exit_code(&self) -> u8 {
        match &self.kind {
            StopKind::Requested(_) => crate::exit::SUCCESS,
            StopKind::Usage(_) => crate::exit::USAGE,
        }
    }

    /// Whether the text goes to standard output (help, version) rather than standard error.
    pub fn is_stdout(&self) -> bool {
        matches!(self.kind, StopKind::Requested(_))
    }

    /// The text to print, without colours.
    pub fn text(&self) -> String {
        match &self.kind {
            StopKind::Requested(error) => error.render().to_string(),
            StopKind::Usage(message) => message.clone(),
        }
    }

    /// Prints the text where it belongs and returns the exit code: a closed pipe
    /// (`zayavka --help | head -1`) ends quietly with the same status as any other command's
    /// output would (ADR 19); other write errors have nobody left to tell and are ignored.
    pub fn print(&self) -> ExitCode {
        let written = match &self.kind {
            // clap prints help and version itself, so that it can colour a terminal.
            StopKind::Requested(error) => error.print(),
            StopKind::Usage(_) => {
                let text = self.text();
                if self.is_stdout() {
                    std::io::stdout().lock().write_all(text.as_bytes())
                } else {
                    std::io::stderr().lock().write_all(text.as_bytes())
                }
            }
        };
        match written {
            Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {
                ExitCode::from(crate::exit::CLOSED_PIPE)
            }
            _ => ExitCode::from(self.exit_code()),
        }
    }
}

/// Parses the process's arguments into `T` with Russian help and errors; on help, version or a
/// wrong argument prints what is needed and returns the exit code.
pub fn parse<T: CommandFactory + FromArgMatches>() -> Result<T, ExitCode> {
    try_parse_from(std::env::args_os()).map_err(|stop| stop.print())
}

/// Parses `args` (the first is the program's name) into `T` with Russian help and errors.
pub fn try_parse_from<T, I, S>(args: I) -> Result<T, ParseStop>
where
    T: CommandFactory + FromArgMatches,
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let mut command = localise(T::command());
    let parsed = command
        .try_get_matches_from_mut(args.iter().cloned())
        .and_then(|matches| T::from_arg_matches(&matches).map_err(|e| e.format(&mut command)));
    parsed.map_err(|error| stop(error, &command, &args))
}

fn stop(error: clap::Error, command: &Command, args: &[OsString]) -> ParseStop {
    let kind = match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => StopKind::Requested(error),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let help = error.render().to_string();
            let headline = if help.contains(&format!("\n{COMMANDS_HEADING}:")) {
                "zayavka: не указана команда. Выберите одну из команд ниже."
            } else {
                "zayavka: не хватает аргументов. Ниже — справка по команде."
            };
            StopKind::Usage(format!("{headline}\n\n{help}"))
        }
        _ => StopKind::Usage(render_error(&error, command, args)),
    };
    ParseStop { kind }
}

/// The Russian message for a wrong-arguments error: what happened, what to do, the usage line
/// when clap would show one, and where the help is.
fn render_error(error: &clap::Error, command: &Command, args: &[OsString]) -> String {
    let sentences = describe(error);
    let mut message = String::from("zayavka: ");
    for (index, sentence) in sentences.iter().enumerate() {
        if index > 0 {
            message.push('\n');
        }
        message.push_str(sentence);
    }
    message.push_str("\n\n");
    if let Some(ContextValue::StyledStr(usage)) = error.get(ContextKind::Usage) {
        message.push_str(&format!(
            "Использование: {}\n",
            plain_usage(&usage.to_string())
        ));
    }
    let bin_name = command_named_by(command, args)
        .get_bin_name()
        .unwrap_or("zayavka")
        .to_owned();
    message.push_str(&format!("Справка: {bin_name} --help\n"));
    message
}

/// The subcommand the arguments name, following subcommand names from the root while they match.
fn command_named_by<'a>(root: &'a Command, args: &[OsString]) -> &'a Command {
    let mut current = root;
    for arg in args.iter().skip(1) {
        let Some(arg) = arg.to_str() else { break };
        match current
            .get_subcommands()
            .find(|sub| sub.get_name() == arg || sub.get_all_aliases().any(|a| a == arg))
        {
            Some(sub) => current = sub,
            None => break,
        }
    }
    current
}

/// The sentences that explain an error; the first starts with a lower-case letter because it
/// follows «zayavka: ».
fn describe(error: &clap::Error) -> Vec<String> {
    let invalid_arg = string(error, ContextKind::InvalidArg);
    let invalid_value = string(error, ContextKind::InvalidValue);
    let mut sentences = Vec::new();
    match error.kind() {
        ErrorKind::UnknownArgument => {
            let arg = invalid_arg.unwrap_or_default();
            if arg.starts_with('-') {
                sentences.push(format!("неизвестный параметр {}.", echo(&arg)));
                let hints = suggestions(error);
                if hints.is_empty() {
                    sentences.push("Проверьте написание: список параметров есть в справке.".into());
                }
                sentences.extend(hints);
            } else {
                sentences.push(format!("лишний аргумент {}.", echo(&arg)));
                sentences.extend(suggestions(error));
                sentences.push(QUOTE_ADVICE.into());
            }
        }
        ErrorKind::InvalidSubcommand => {
            let name = string(error, ContextKind::InvalidSubcommand).unwrap_or_default();
            sentences.push(format!("неизвестная команда {}.", echo(&name)));
            let hints = suggestions(error);
            if hints.is_empty() {
                sentences.push("Список команд есть в справке.".into());
            }
            sentences.extend(hints);
        }
        ErrorKind::InvalidValue => {
            let arg = invalid_arg.unwrap_or_default();
            match invalid_value.as_deref() {
                None | Some("") => {
                    sentences.push(format!("не указано значение для {}.", flag(&arg)));
                    sentences.push(format!("Напишите значение после параметра: {arg}."));
                }
                Some(value) => {
                    sentences.push(format!(
                        "недопустимое значение {} для {}.",
                        echo(value),
                        flag(&arg)
                    ));
                    let valid = strings(error, ContextKind::ValidValue);
                    if !valid.is_empty() {
                        sentences.push(format!("Допустимые значения: {}.", valid.join(", ")));
                    }
                    sentences.extend(suggestions(error));
                }
            }
        }
        ErrorKind::ValueValidation => {
            let arg = invalid_arg.unwrap_or_default();
            let value = invalid_value.unwrap_or_default();
            sentences.push(format!(
                "недопустимое значение {} для {}.",
                echo(&value),
                flag(&arg)
            ));
            if let Some(source) = std::error::Error::source(error) {
                sentences.push(as_sentence(&source.to_string()));
            }
        }
        ErrorKind::MissingRequiredArgument => {
            sentences.extend(missing_required(&strings(error, ContextKind::InvalidArg)));
        }
        ErrorKind::ArgumentConflict => sentences.extend(conflict(error, invalid_arg)),
        ErrorKind::NoEquals => {
            let name = flag(&invalid_arg.unwrap_or_default());
            sentences.push(format!(
                "значение для {name} пишется через знак «=»: {name}=ЗНАЧЕНИЕ."
            ));
        }
        ErrorKind::TooManyValues => {
            sentences.push(format!(
                "лишнее значение {} для {}.",
                echo(&invalid_value.unwrap_or_default()),
                flag(&invalid_arg.unwrap_or_default())
            ));
            sentences.push(QUOTE_ADVICE.into());
        }
        ErrorKind::TooFewValues | ErrorKind::WrongNumberOfValues => {
            let expected = number(error, ContextKind::MinValues)
                .or_else(|| number(error, ContextKind::ExpectedNumValues));
            let actual = number(error, ContextKind::ActualNumValues);
            let name = flag(&invalid_arg.unwrap_or_default());
            match (expected, actual) {
                (Some(expected), Some(actual)) => sentences.push(format!(
                    "для {name} нужно значений: {expected}, а указано: {actual}."
                )),
                _ => sentences.push(format!(
                    "для {name} указано не столько значений, сколько нужно."
                )),
            }
        }
        ErrorKind::MissingSubcommand => {
            let name = string(error, ContextKind::InvalidSubcommand).unwrap_or_default();
            sentences.push(format!("после «{name}» нужно указать команду."));
            let valid = strings(error, ContextKind::ValidSubcommand);
            if !valid.is_empty() {
                sentences.push(format!("Доступные команды: {}.", valid.join(", ")));
            }
        }
        ErrorKind::InvalidUtf8 => {
            sentences.push("в аргументах команды есть текст не в кодировке UTF-8.".into());
            sentences.push("Наберите его заново или проверьте кодировку терминала.".into());
        }
        ErrorKind::Io | ErrorKind::Format => {
            sentences.push("не удалось вывести текст.".into());
            sentences.push("Попробуйте ещё раз.".into());
        }
        _ => {
            sentences.push("неверные аргументы команды.".into());
            sentences.push("Проверьте их по справке.".into());
        }
    }
    sentences
}

/// The advice for a word that clap took as an extra argument: most often part of a text with
/// spaces that was not put in quotes.
const QUOTE_ADVICE: &str =
    "Если это часть текста с пробелами, заключите весь текст в кавычки: --description \"…\".";

/// The «did you mean» hints clap attached to the error, in Russian. Hints clap words in a way
/// this module does not know are left out rather than shown in English.
fn suggestions(error: &clap::Error) -> Vec<String> {
    let mut hints = Vec::new();
    for kind in [
        ContextKind::SuggestedArg,
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedValue,
    ] {
        let names = strings(error, kind);
        if !names.is_empty() {
            hints.push(format!("Возможно, вы имели в виду {}?", or_list(&names)));
        }
    }
    if let Some(ContextValue::StyledStrs(tips)) = error.get(ContextKind::Suggested) {
        hints.extend(
            tips.iter()
                .filter_map(|tip| translate_tip(&tip.to_string())),
        );
    }
    hints
}

/// Translates one of clap's free-text tips, recognised by its wording with the quoted parts
/// taken out.
fn translate_tip(tip: &str) -> Option<String> {
    let parts: Vec<&str> = tip.split('\'').collect();
    match parts.as_slice() {
        ["to pass ", value, " as a value, use ", usage, ""] => Some(format!(
            "Если {} — значение, а не параметр, поставьте перед ним «--»: {}.",
            echo(value),
            usage
        )),
        ["", usage, " exists"] => Some(format!("Возможно, вы имели в виду {usage}?")),
        [
            "subcommand ",
            name,
            " exists; to use it, remove the ",
            "--",
            " before it",
        ] => Some(format!("Команда {name} есть: уберите «--» перед ней.")),
        _ => None,
    }
}

/// The sentences for missing required arguments. clap lists each as it appears in usage: a
/// flag with its placeholder, a positional placeholder, or a required group `<a|b>`.
fn missing_required(items: &[String]) -> Vec<String> {
    let is_flag = |item: &String| item.starts_with('-') || alternatives(item).is_some();
    let rendered: Vec<String> = items
        .iter()
        .map(|item| match alternatives(item) {
            Some(choices) => or_list(&choices),
            None => item.clone(),
        })
        .collect();
    match items {
        [] => vec![
            "не хватает обязательных аргументов.".into(),
            "Проверьте команду по справке.".into(),
        ],
        [item] => match alternatives(item) {
            Some(_) => vec![
                format!("нужен один из параметров: {}.", rendered[0]),
                "Добавьте один из них в команду.".into(),
            ],
            None if item.starts_with('-') => vec![
                format!("не хватает обязательного параметра {item}."),
                "Добавьте его в команду.".into(),
            ],
            None => vec![
                format!("не хватает обязательного аргумента {item}."),
                "Добавьте его в команду.".into(),
            ],
        },
        _ => {
            let noun = if items.iter().all(is_flag) {
                "параметров"
            } else {
                "аргументов"
            };
            vec![
                format!("не хватает обязательных {noun}: {}.", rendered.join(", ")),
                "Добавьте их в команду.".into(),
            ]
        }
    }
}

/// The members of a required group as clap writes it in usage, `<--a <A>|--b <B>>`.
fn alternatives(item: &str) -> Option<Vec<String>> {
    let inner = item.strip_prefix('<')?.strip_suffix('>')?;
    let mut choices = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in inner.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            '|' if depth == 0 => {
                choices.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    choices.push(current);
    (choices.len() > 1).then_some(choices)
}

/// The sentences for two arguments that cannot be used together.
fn conflict(error: &clap::Error, invalid_arg: Option<String>) -> Vec<String> {
    let prior = strings(error, ContextKind::PriorArg);
    let subject = match (&invalid_arg, string(error, ContextKind::InvalidSubcommand)) {
        (Some(arg), _) => format!("параметр {}", flag(arg)),
        (None, Some(name)) => format!("команду {name}"),
        (None, None) => {
            return vec![
                "эти параметры нельзя указывать вместе.".into(),
                "Уберите лишние.".into(),
            ];
        }
    };
    if invalid_arg.is_some() && prior.len() == 1 && Some(&prior[0]) == invalid_arg.as_ref() {
        return vec![
            format!("{subject} указан больше одного раза."),
            "Оставьте один.".into(),
        ];
    }
    let others: Vec<String> = prior.iter().map(|p| flag(p)).collect();
    if others.is_empty() {
        vec![
            format!("{subject} нельзя указывать вместе с другими указанными параметрами."),
            "Уберите лишние.".into(),
        ]
    } else {
        vec![
            format!("{subject} нельзя указывать вместе с {}.", others.join(", ")),
            "Оставьте что-то одно.".into(),
        ]
    }
}

/// An argument's name without its value placeholder: `--timeout <СЕКУНДЫ>` → `--timeout`.
fn flag(arg: &str) -> String {
    if arg.starts_with('-') {
        arg.split(' ').next().unwrap_or(arg).to_owned()
    } else {
        arg.to_owned()
    }
}

/// «a», «a или b», «a, b или c».
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} или {last}", rest.join(", ")),
    }
}

/// Something the resident typed, echoed back safely: in quotes, with control, bidi and
/// zero-width characters escaped, a URL's user-info and query (where keys hide) masked, and cut
/// to a readable length.
fn echo(value: &str) -> String {
    let value = redact_url(value);
    let mut shown = String::new();
    for (index, c) in value.chars().enumerate() {
        if index == ECHO_MAX_CHARS {
            shown.push('…');
            break;
        }
        if c.is_control() || is_invisible(c) {
            shown.push_str(&c.escape_unicode().to_string());
        } else {
            shown.push(c);
        }
    }
    format!("«{shown}»")
}

/// Characters that change how text around them is shown without being visible themselves.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}'
        | '\u{FEFF}')
}

/// Masks a URL's user-info and query string, which may carry an API key.
fn redact_url(value: &str) -> String {
    let Some((scheme, rest)) = value.split_once("://") else {
        return value.to_owned();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let host = match authority.rfind('@') {
        Some(at) => format!("***@{}", &authority[at + 1..]),
        None => authority.to_owned(),
    };
    let tail = match tail.find(['?', '#']) {
        Some(start) => format!("{}?***", &tail[..start]),
        None => tail.to_owned(),
    };
    format!("{scheme}://{host}{tail}")
}

/// Text from a value parser as a sentence of its own: capital first letter, one final stop.
fn as_sentence(text: &str) -> String {
    let text = text.trim();
    let mut chars = text.chars();
    let mut sentence: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => return String::new(),
    };
    if !sentence.ends_with(['.', '!', '?', '…']) {
        sentence.push('.');
    }
    sentence
}

fn string(error: &clap::Error, kind: ContextKind) -> Option<String> {
    match error.get(kind) {
        Some(ContextValue::String(value)) => Some(value.clone()),
        _ => None,
    }
}

fn strings(error: &clap::Error, kind: ContextKind) -> Vec<String> {
    match error.get(kind) {
        Some(ContextValue::String(value)) => vec![value.clone()],
        Some(ContextValue::Strings(values)) => values.clone(),
        _ => Vec::new(),
    }
}

fn number(error: &clap::Error, kind: ContextKind) -> Option<isize> {
    match error.get(kind) {
        Some(ContextValue::Number(value)) => Some(*value),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words of clap's own English that must never reach a resident.
    const ENGLISH: [&str; 12] = [
        "Usage",
        "Options",
        "Commands",
        "Arguments",
        "error:",
        "Print",
        "unexpected argument",
        "For more information",
        "[OPTIONS]",
        "COMMAND",
        "tip:",
        "subcommand",
    ];

    fn assert_russian(text: &str) {
        for word in ENGLISH {
            assert!(!text.contains(word), "«{word}» in:\n{text}");
        }
        // «<ФАЙЛ>...» is clap's mark of an argument that takes several values, not a sentence.
        let sentences = text.replace(">...", ">");
        assert!(!sentences.contains(".."), "a doubled full stop in:\n{text}");
    }

    fn run(line: &[&str]) -> ParseStop {
        match try_parse_from::<crate::Cli, _, _>(
            std::iter::once("zayavka").chain(line.iter().copied()),
        ) {
            Ok(cli) => panic!("parsed: {cli:?}"),
            Err(stop) => stop,
        }
    }

    /// Every command's help, walking the whole localised tree.
    fn all_helps(command: &mut Command, helps: &mut Vec<(String, String)>) {
        let name = command.get_bin_name().unwrap_or_default().to_owned();
        helps.push((name, command.render_help().to_string()));
        for sub in command.get_subcommands_mut() {
            all_helps(sub, helps);
        }
    }

    #[test]
    fn every_help_in_the_tree_is_in_russian() {
        let mut command = localise(crate::Cli::command());
        let mut helps = Vec::new();
        all_helps(&mut command, &mut helps);
        assert!(helps.len() > 10, "{helps:?}");
        for (name, help) in &helps {
            assert_russian(help);
            assert!(help.contains("Использование: "), "{name}:\n{help}");
            // clap's `help` subcommand and its copies take no flags of their own.
            let in_help_tree = name.split(' ').any(|word| word == "help");
            assert_eq!(
                help.contains("-h, --help"),
                !in_help_tree,
                "{name}:\n{help}"
            );
        }
        let root = &helps[0].1;
        assert!(root.contains("Команды:"), "{root}");
        assert!(root.contains("Показать версию программы"), "{root}");
        assert!(root.contains(HELP_COMMAND_ABOUT), "{root}");
        assert!(root.contains("Использование: zayavka <КОМАНДА>"), "{root}");
    }

    #[test]
    fn help_and_version_go_to_stdout_with_exit_0() {
        for line in [
            &["--help"][..],
            &["-h"],
            &["draft", "--help"],
            &["help", "key"],
        ] {
            let stop = run(line);
            assert_eq!(stop.exit_code(), 0, "{line:?}");
            assert!(stop.is_stdout());
            assert_russian(&stop.text());
        }
        let version = run(&["--version"]);
        assert_eq!(version.exit_code(), 0);
        assert_eq!(
            version.text(),
            format!("zayavka {}\n", env!("CARGO_PKG_VERSION"))
        );
    }

    #[test]
    fn a_mistyped_flag_suggests_the_right_one() {
        let stop = run(&["draft", "--offline", "--jsn"]);
        assert_eq!(stop.exit_code(), 2);
        assert!(!stop.is_stdout());
        let text = stop.text();
        assert_russian(&text);
        assert!(
            text.starts_with("zayavka: неизвестный параметр «--jsn».\n"),
            "{text}"
        );
        assert!(text.contains("Возможно, вы имели в виду --json?"), "{text}");
        assert!(
            text.contains("Использование: zayavka draft [ПАРАМЕТРЫ]"),
            "{text}"
        );
        assert!(text.ends_with("Справка: zayavka draft --help\n"), "{text}");
    }

    #[test]
    fn an_unquoted_description_is_explained() {
        let text = run(&["draft", "--description", "Течёт", "кран"]).text();
        assert_russian(&text);
        assert!(
            text.starts_with("zayavka: лишний аргумент «кран».\n"),
            "{text}"
        );
        assert!(text.contains("заключите весь текст в кавычки"), "{text}");
    }

    #[test]
    fn a_mistyped_command_suggests_the_right_one() {
        let text = run(&["asemble"]).text();
        assert_russian(&text);
        assert!(
            text.starts_with("zayavka: неизвестная команда «asemble».\n"),
            "{text}"
        );
        assert!(
            text.contains("Возможно, вы имели в виду assemble?"),
            "{text}"
        );
        assert!(text.ends_with("Справка: zayavka --help\n"), "{text}");
        let text = run(&["key", "stats"]).text();
        assert!(text.contains("Возможно, вы имели в виду status?"), "{text}");
        assert!(text.ends_with("Справка: zayavka key --help\n"), "{text}");
    }

    #[test]
    fn missing_arguments_are_named() {
        let text = run(&["assemble"]).text();
        assert_russian(&text);
        assert!(
            text.starts_with(
                "zayavka: не хватает обязательных параметров: --input <INPUT.json>, \
                 --response <RESPONSE.json>.\nДобавьте их в команду.\n"
            ),
            "{text}"
        );
        let text = run(&["draft"]).text();
        assert_russian(&text);
        assert!(
            text.contains(
                "нужен один из параметров: --description <ТЕКСТ> или --input <ФАЙЛ.json>."
            ),
            "{text}"
        );
        let text = run(&["replay"]).text();
        assert!(
            text.contains("не хватает обязательного аргумента <ЧЕРНОВИК>."),
            "{text}"
        );
    }

    #[test]
    fn a_command_without_its_subcommand_shows_the_help_on_stderr() {
        for line in [&[][..], &["key"], &["config"]] {
            let stop = run(line);
            assert_eq!(stop.exit_code(), 2);
            assert!(!stop.is_stdout());
            let text = stop.text();
            assert_russian(&text);
            assert!(text.starts_with("zayavka: не указана команда."), "{text}");
            assert!(text.contains("Команды:"), "{text}");
        }
    }

    #[test]
    fn invalid_values_carry_the_parsers_russian_reason() {
        let text = run(&[
            "draft",
            "--offline",
            "--description",
            "Течёт кран",
            "--timeout",
            "x",
        ])
        .text();
        assert_russian(&text);
        assert!(
            text.starts_with("zayavka: недопустимое значение «x» для --timeout.\n"),
            "{text}"
        );
        assert!(text.contains("от 1 до 3600"), "{text}");
        let text = run(&["draft", "--description", "Течёт кран", "--schema-mode", "x"]).text();
        assert_russian(&text);
        assert!(
            text.contains("\nДопустимы json_schema, json_object и function_call.\n"),
            "{text}"
        );
        let text = run(&["draft", "--profile"]).text();
        assert_russian(&text);
        assert!(
            text.starts_with("zayavka: не указано значение для --profile.\n"),
            "{text}"
        );
    }

    #[test]
    fn conflicting_arguments_are_named() {
        let text = run(&["draft", "--description", "Течёт кран", "--input", "a.json"]).text();
        assert_russian(&text);
        assert!(
            text.starts_with(
                "zayavka: параметр --description нельзя указывать вместе с --input.\n"
            ) || text.starts_with(
                "zayavka: параметр --input нельзя указывать вместе с --description.\n"
            ),
            "{text}"
        );
        let text = run(&["draft", "--json", "--json"]).text();
        assert_russian(&text);
        assert!(text.contains("--json указан больше одного раза."), "{text}");
    }

    #[test]
    fn a_rejected_url_never_echoes_its_credentials() {
        let text = run(&[
            "draft",
            "--description",
            "Течёт кран",
            "--base-url",
            "ftp://user:sk-secret@example.com/v1?key=sk-other",
        ])
        .text();
        assert!(!text.contains("sk-secret"), "{text}");
        assert!(!text.contains("sk-other"), "{text}");
        assert!(text.contains("«ftp://***@example.com/v1?***»"), "{text}");
    }

    #[test]
    fn echoed_values_are_escaped_and_bounded() {
        assert_eq!(echo("a\u{1b}[31m"), "«a\\u{1b}[31m»");
        assert_eq!(echo("a\u{202e}b"), "«a\\u{202e}b»");
        let long = "я".repeat(100);
        assert_eq!(echo(&long).chars().count(), ECHO_MAX_CHARS + 3);
    }

    #[test]
    fn the_help_states_the_real_limits() {
        use zayavka_engine::input_limits as limits;
        let mut command = localise(crate::Cli::command());
        let draft = command.find_subcommand_mut("draft").unwrap();
        let help = draft.render_help().to_string();
        for expected in [
            format!(
                "{}–{} символов",
                limits::DESCRIPTION_MIN,
                limits::DESCRIPTION_MAX
            ),
            format!("до {} символов", limits::LOCATION_MAX),
            format!("до {} символов", limits::CONSEQUENCES_MAX),
            format!("до {} символов", limits::DESIRED_ACTIONS_MAX),
            format!("не длиннее {} символов", zayavka_engine::BODY_LIMIT),
        ] {
            assert!(help.contains(&expected), "«{expected}» missing in:\n{help}");
        }
    }

    #[test]
    fn clap_tips_are_translated_or_dropped() {
        assert_eq!(
            translate_tip("to pass '-x' as a value, use '-- -x'").as_deref(),
            Some("Если «-x» — значение, а не параметр, поставьте перед ним «--»: -- -x.")
        );
        assert_eq!(
            translate_tip("'key set' exists").as_deref(),
            Some("Возможно, вы имели в виду key set?")
        );
        assert_eq!(translate_tip("something new in clap"), None);
    }

    #[test]
    fn parser_messages_become_one_sentence() {
        assert_eq!(as_sentence("допустимы a и b"), "Допустимы a и b.");
        assert_eq!(as_sentence("Нужно число."), "Нужно число.");
    }
}
