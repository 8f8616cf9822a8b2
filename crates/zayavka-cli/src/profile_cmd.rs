//! `zayavka profile`: the resident's name, address and contacts and the management company, for
//! the document's header only. They are kept on this computer and never sent to the model.

use std::io::Write;
use std::process::ExitCode;

use zayavka_engine::{Engine, Profile, ProfileError, ProfileField, field_named};

/// `zayavka profile …`
#[derive(Debug, clap::Args)]
pub struct ProfileArgs {
    /// Что сделать с профилем.
    #[command(subcommand)]
    command: ProfileCommand,
}

#[derive(Debug, clap::Subcommand)]
enum ProfileCommand {
    /// Показать профиль: что будет в шапке документа.
    Show(ShowArgs),
    /// Изменить одно поле, например `zayavka profile set apartment 12`. Пустое значение
    /// удаляет поле.
    Set(SetArgs),
    /// Удалить профиль целиком.
    Clear,
}

#[derive(Debug, clap::Args)]
struct ShowArgs {
    /// Вывести объект JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct SetArgs {
    /// Поле: full_name (ФИО), address (адрес), apartment (квартира), phone (телефон), email
    /// (эл. почта), company_name (управляющая организация), company_address (её адрес).
    #[arg(value_name = "ПОЛЕ")]
    field: String,
    /// Новое значение, одной строкой; пустая строка удаляет поле.
    #[arg(value_name = "ЗНАЧЕНИЕ", allow_hyphen_values = true)]
    value: String,
}

/// Runs `zayavka profile` against the real standard output.
pub fn run(args: ProfileArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let fail = |error: ProfileError| anyhow::anyhow!(error.message_ru());
    match args.command {
        ProfileCommand::Show(show) => {
            let profile = engine.profile().map_err(fail)?;
            if show.json {
                writeln!(stdout, "{}", serde_json::to_string_pretty(&profile)?)?;
            } else {
                print_profile(&profile, &mut stdout)?;
            }
        }
        ProfileCommand::Set(set) => {
            let field = field_named(&set.field).map_err(fail)?;
            let profile = engine.set_profile_field(field, &set.value).map_err(fail)?;
            match profile.get(field) {
                Some(value) => writeln!(
                    stdout,
                    "{}: {value} — сохранено в профиле.",
                    field.label_ru()
                )?,
                None => writeln!(stdout, "{}: удалено из профиля.", field.label_ru())?,
            }
        }
        ProfileCommand::Clear => {
            engine.clear_profile().map_err(fail)?;
            writeln!(stdout, "Профиль очищен.")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_profile(profile: &Profile, output: &mut impl Write) -> std::io::Result<()> {
    for &field in ProfileField::ALL {
        writeln!(
            output,
            "{} ({}): {}",
            field.label_ru(),
            field.code(),
            profile.get(field).unwrap_or("не указано")
        )?;
    }
    writeln!(
        output,
        "\nПрофиль нужен только для шапки документа и модели не передаётся. Пустые поля в \
         документе останутся чертой, чтобы вписать их от руки."
    )
}
