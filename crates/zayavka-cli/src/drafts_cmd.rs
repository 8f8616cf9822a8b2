//! `zayavka drafts`: the stored drafts, with no network and no key — list, search, show,
//! delete, and send again one that did not finish.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::process::ExitCode;

use zayavka_engine::{
    AttachmentError, AttachmentSummary, CaseView, DocumentFormat, DraftCommand, DraftFilter,
    DraftId, DraftListItem, DraftOutcome, DraftView, DraftsError, Engine, Explanation, FollowLink,
    InputSource, StoredDraft, SubjectKind, draft_view, explanation, filed_text, may_retry,
    stored_input, stored_record, stored_request,
};

use crate::document_out;
use crate::draft_cmd::{ProviderArgs, RunOptions};

/// `zayavka drafts …`
#[derive(Debug, clap::Args)]
pub struct DraftsArgs {
    #[command(subcommand)]
    command: DraftsCommand,
}

#[derive(Debug, clap::Subcommand)]
enum DraftsCommand {
    /// Черновики, новые сначала.
    List(ListArgs),
    /// Найти черновики по словам описания и заявки.
    Search(SearchArgs),
    /// Показать черновик.
    Show(ShowArgs),
    /// Удалить черновик насовсем.
    Delete(IdArgs),
    /// Исправить текст заявки: правка сохраняется как ваша версия, составленная остаётся.
    Edit(EditArgs),
    /// Сохранить заявку в файл: txt, pdf или docx — документ для подачи (шапка из профиля,
    /// текст, дата, подпись; с --collective — и таблица подписей соседей), json — всё о
    /// черновике.
    Export(ExportArgs),
    /// Записать согласованную копию всей базы черновиков в файл (можно при открытом приложении).
    Backup(BackupArgs),
    /// Восстановить черновики из копии, сделанной `drafts backup` (например, на новом
    /// компьютере); существующая база не заменяется без --replace.
    Restore(RestoreArgs),
    /// Спасти черновики из повреждённой базы: всё, что ещё читается, переносится в новый
    /// файл базы, а повреждённая база остаётся как есть; затем `drafts restore ФАЙЛ --replace`
    /// ставит спасённое на её место. Закройте приложение перед этим.
    Recover(RecoverArgs),
    /// Отправить модели ещё раз черновик, который не был составлен (сбой, отмена, прерванный
    /// запуск).
    Retry(Box<RetryArgs>),
    /// Приложить к черновику фотографии JPEG или PNG (все или ни одной); место съёмки, модель
    /// камеры и другие сведения из файлов удаляются.
    Attach(AttachArgs),
    /// Фотографии черновика по номерам.
    Attachments(AttachmentsArgs),
    /// Убрать фотографию из черновика по её номеру.
    Detach(DetachArgs),
    /// Отметить готовую заявку поданной: день, способ, входящий номер, адресат, фотографии
    /// отметки или квитанции; повторный вызов меняет сведения (например, добавляет день
    /// вручения письма). Текст поданного черновика больше не меняется.
    Filed(Box<crate::case_cmd::FiledArgs>),
    /// Записать заявку, поданную до Заявки (на бумаге, через ГИС ЖКХ): её текст как есть,
    /// день, способ, адресат, номер. Срок ответа считается сразу; следующие письма — как у
    /// любой поданной заявки.
    Add(Box<crate::case_cmd::AddArgs>),
    /// Записать ответ на поданную заявку: день и итог.
    Answer(crate::case_cmd::AnswerArgs),
    /// Сроки ответов: сначала просроченные, затем ближайшие.
    Due(crate::case_cmd::DueArgs),
    /// Срок ответа по поданной заявке — событием для своего календаря (.ics).
    Calendar(crate::case_cmd::CalendarArgs),
    /// Закрыть дело по поданной заявке.
    Close(crate::case_cmd::CaseIdArgs),
    /// Открыть закрытое дело снова.
    Reopen(crate::case_cmd::CaseIdArgs),
    /// Снять ошибочную отметку о подаче (удаляются сведения о подаче, ответ и их фотографии).
    Unfile(crate::case_cmd::CaseIdArgs),
    /// Создать исправленный черновик на основе поданного: копия текста, правок и фотографий.
    Correct(crate::case_cmd::CaseIdArgs),
    /// Написать по поданной заявке, на которую нет ответа после срока или ответ не решил
    /// проблему, повторную заявку (--to company) или жалобу в жилищную инспекцию (--to
    /// inspectorate) — из записанных сведений, без модели; письмо сохраняется новым
    /// черновиком, а с --format и --out — и документом.
    FollowUp(crate::case_cmd::FollowUpArgs),
}

#[derive(Debug, clap::Args)]
struct AttachArgs {
    /// Номер черновика.
    #[arg(value_name = "НОМЕР")]
    id: DraftId,
    /// Файлы фотографий (JPEG или PNG).
    #[arg(value_name = "ФАЙЛ", required = true)]
    files: Vec<std::path::PathBuf>,
}

#[derive(Debug, clap::Args)]
struct AttachmentsArgs {
    /// Номер черновика.
    #[arg(value_name = "НОМЕР")]
    id: DraftId,
    /// Вывести массив JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct DetachArgs {
    /// Номер черновика.
    #[arg(value_name = "НОМЕР")]
    id: DraftId,
    /// Номер фотографии в списке черновика (zayavka drafts attachments НОМЕР).
    #[arg(value_name = "N", value_parser = photo_number)]
    number: u32,
}

fn photo_number(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(number) if number >= 1 => Ok(number),
        _ => Err(
            "номер фотографии — целое число от 1, как в списке фотографий черновика \
                  (zayavka drafts attachments НОМЕР)"
                .to_owned(),
        ),
    }
}

#[derive(Debug, clap::Args)]
struct ListArgs {
    /// Только с этим итогом: pending, ready, needs_user, rejected, failed, invalid_input.
    #[arg(long, value_name = "ИТОГ", value_parser = outcome)]
    outcome: Option<DraftOutcome>,
    /// Только о проблеме этого вида (например common_area_roof).
    #[arg(long, value_name = "ВИД", value_parser = crate::draft_cmd::subject_kind)]
    subject: Option<SubjectKind>,
    /// Только созданные с этого дня (ГГГГ-ММ-ДД).
    #[arg(long, value_name = "ДАТА", value_parser = since)]
    since: Option<jiff::Timestamp>,
    /// Не больше стольких черновиков.
    #[arg(long, value_name = "N")]
    limit: Option<u32>,
    /// Вывести массив JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct SearchArgs {
    /// Слова для поиска: регистр и «ё»/«е» не важны, начало слова находит слово.
    #[arg(value_name = "ТЕКСТ")]
    text: String,
    /// Не больше стольких черновиков.
    #[arg(long, value_name = "N", default_value_t = 50)]
    limit: u32,
    /// Вывести массив JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct ShowArgs {
    /// Номер черновика.
    #[arg(value_name = "НОМЕР")]
    id: DraftId,
    /// Показать, как получен результат: модель, попытки, что было отправлено, решение о
    /// правовом абзаце.
    #[arg(long)]
    explain: bool,
    /// Вывести объект JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct IdArgs {
    /// Номер черновика.
    #[arg(value_name = "НОМЕР")]
    id: DraftId,
}

#[derive(Debug, clap::Args)]
struct EditArgs {
    /// Номер черновика.
    #[arg(value_name = "НОМЕР")]
    id: DraftId,
    /// Файл с новым текстом: первая строка — заголовок, после пустой строки — текст заявки.
    /// Без него откроется редактор из переменной EDITOR (в Windows, если она не задана, — Блокнот).
    #[arg(long, value_name = "ФАЙЛ")]
    body_file: Option<std::path::PathBuf>,
}

#[derive(Debug, clap::Args)]
struct ExportArgs {
    /// Номер черновика.
    #[arg(value_name = "НОМЕР")]
    id: DraftId,
    /// txt, pdf, docx или json.
    #[arg(
        long,
        value_name = "ФОРМАТ",
        value_parser = ["txt", "pdf", "docx", "json"],
        hide_possible_values = true
    )]
    format: String,
    /// Куда записать; без него — в стандартный вывод.
    #[arg(long, value_name = "ФАЙЛ")]
    out: Option<std::path::PathBuf>,
    /// Дата документа (ГГГГ-ММ-ДД); без неё — сегодняшняя.
    #[arg(long, value_name = "ДАТА", value_parser = document_date)]
    date: Option<jiff::civil::Date>,
    /// Коллективная заявка: после текста — таблица для подписей соседей (№, ФИО, квартира,
    /// подпись) с пустыми строками. Только для txt, pdf и docx.
    #[arg(long)]
    collective: bool,
}

#[derive(Debug, clap::Args)]
struct BackupArgs {
    /// Файл копии; существующий файл не перезаписывается.
    #[arg(value_name = "ФАЙЛ")]
    file: std::path::PathBuf,
}

#[derive(Debug, clap::Args)]
struct RestoreArgs {
    /// Файл копии, сделанной командой `zayavka drafts backup`.
    #[arg(value_name = "ФАЙЛ")]
    file: std::path::PathBuf,
    /// Если база черновиков уже есть, сохранить её рядом под другим именем и поставить копию
    /// на её место (закройте приложение перед этим).
    #[arg(long)]
    replace: bool,
}

#[derive(Debug, clap::Args)]
struct RecoverArgs {
    /// Куда записать спасённые черновики; без него — новый файл рядом с базой
    /// (zayavka-recovered-ГГГГММДД-ЧЧММСС.sqlite3). Существующий файл не перезаписывается.
    #[arg(long, value_name = "ФАЙЛ")]
    out: Option<std::path::PathBuf>,
}

#[derive(Debug, clap::Args)]
struct RetryArgs {
    /// Номер черновика.
    #[arg(value_name = "НОМЕР")]
    id: DraftId,
    /// Составить без модели: из ваших слов, без обращения к сети и без ключа.
    #[arg(long)]
    offline: bool,
    #[command(flatten)]
    provider: ProviderArgs,
    /// Вывести один объект JSON вместо текста заявки.
    #[arg(long)]
    json: bool,
}

fn outcome(text: &str) -> Result<DraftOutcome, String> {
    DraftOutcome::from_code(text).ok_or_else(|| {
        "допустимы pending, ready, needs_user, rejected, failed и invalid_input".to_owned()
    })
}

fn since(text: &str) -> Result<jiff::Timestamp, String> {
    let date: jiff::civil::Date = text
        .parse()
        .map_err(|_| "нужна дата в виде ГГГГ-ММ-ДД, например 2026-12-01".to_owned())?;
    date.to_zoned(jiff::tz::TimeZone::system())
        .map(|zoned| zoned.timestamp())
        .map_err(|_| "такой даты нет в календаре".to_owned())
}

fn document_date(text: &str) -> Result<jiff::civil::Date, String> {
    text.parse()
        .map_err(|_| "нужна дата в виде ГГГГ-ММ-ДД, например 2026-12-01".to_owned())
}

fn drafts_error(error: DraftsError) -> anyhow::Error {
    anyhow::anyhow!(error.message_ru())
}

/// A draft as `--json` and `export --format json` print it: the engine's view, and the photos
/// attached to it (left out when there are none, so drafts without photos print as before).
#[derive(serde::Serialize)]
struct ShownDraft {
    #[serde(flatten)]
    view: DraftView,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    attachments: Vec<AttachmentSummary>,
    /// The case, once the draft is filed (issue 30): the filing, the deadline and where it
    /// came from, the answer, the state.
    #[serde(skip_serializing_if = "Option::is_none")]
    case: Option<CaseView>,
    /// The draft this one follows (a correction, a repeat request, a complaint).
    #[serde(skip_serializing_if = "Option::is_none")]
    follows: Option<FollowLink>,
    /// The program's own notes on the resident's text (issue 36), for a ready request.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<zayavka_engine::ResidentNote>,
}

fn shown_with_photos(
    engine: &Engine,
    draft: &StoredDraft,
    explain: bool,
) -> anyhow::Result<ShownDraft> {
    let id = draft.summary.id;
    let today = zayavka_engine::today().map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    let case = engine
        .case(id, today)
        .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
    Ok(ShownDraft {
        view: draft_view(draft, explain).map_err(drafts_error)?,
        attachments: engine.photos(id).map_err(attachment_error)?,
        follows: engine
            .follow_link(id)
            .map_err(|error| anyhow::anyhow!(error.message_ru()))?,
        case,
        notes: ready_notes(draft),
    })
}

/// The program's notes on a stored draft that became a request; none for any other.
fn ready_notes(draft: &StoredDraft) -> Vec<zayavka_engine::ResidentNote> {
    if draft.summary.outcome == zayavka_engine::DraftOutcome::Ready {
        zayavka_engine::stored_notes(draft)
    } else {
        Vec::new()
    }
}

fn attachment_error(error: AttachmentError) -> anyhow::Error {
    anyhow::anyhow!(error.message_ru())
}

/// The photo list as `drafts attachments` and `drafts attach` print it.
fn print_photos(
    out: &mut dyn std::io::Write,
    id: DraftId,
    photos: &[AttachmentSummary],
) -> anyhow::Result<()> {
    if photos.is_empty() {
        writeln!(out, "У черновика № {id} нет фотографий.")?;
        return Ok(());
    }
    writeln!(out, "Фотографии черновика № {id}:")?;
    for photo in photos {
        writeln!(
            out,
            "{}. {} · {} × {} точек",
            photo.number, photo.label, photo.width, photo.height
        )?;
    }
    Ok(())
}

/// Runs `zayavka drafts`.
pub fn run(args: DraftsArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    match args.command {
        DraftsCommand::List(args) => list(args, engine),
        DraftsCommand::Search(args) => search(args, engine),
        DraftsCommand::Show(args) => show(args, engine),
        DraftsCommand::Delete(args) => delete(args, engine),
        DraftsCommand::Edit(args) => edit(args, engine),
        DraftsCommand::Export(args) => export(args, engine),
        DraftsCommand::Attach(args) => attach(args, engine),
        DraftsCommand::Attachments(args) => attachments(args, engine),
        DraftsCommand::Detach(args) => detach(args, engine),
        DraftsCommand::Backup(args) => backup(args, engine),
        DraftsCommand::Restore(args) => restore(args, engine),
        DraftsCommand::Recover(args) => recover(args, engine),
        DraftsCommand::Retry(args) => retry(&args, engine),
        DraftsCommand::Filed(args) => crate::case_cmd::filed(*args, engine),
        DraftsCommand::Add(args) => crate::case_cmd::add(*args, engine),
        DraftsCommand::Answer(args) => crate::case_cmd::answer(args, engine),
        DraftsCommand::Due(args) => crate::case_cmd::due(args, engine),
        DraftsCommand::Calendar(args) => crate::case_cmd::calendar(args, engine),
        DraftsCommand::Close(args) => crate::case_cmd::close(args, engine, true),
        DraftsCommand::Reopen(args) => crate::case_cmd::close(args, engine, false),
        DraftsCommand::Unfile(args) => crate::case_cmd::unfile(args, engine),
        DraftsCommand::Correct(args) => crate::case_cmd::correct(args, engine),
        DraftsCommand::FollowUp(args) => crate::case_cmd::follow_up(args, engine),
    }
}

/// `drafts list`: the stored drafts, newest first.
fn list(list: ListArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let filter = DraftFilter {
        outcome: list.outcome,
        subject: list.subject.map(|kind| kind.code().to_owned()),
        since: list.since,
        batch_id: None,
        limit: list.limit,
    };
    let items = engine.drafts(&filter).map_err(drafts_error)?;
    print_items(
        &mut stdout,
        &items,
        list.json,
        &crate::case_print::cases_by_draft(engine),
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `drafts search`: the drafts whose words match.
fn search(search: SearchArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let items = engine
        .search_drafts(&search.text, search.limit)
        .map_err(drafts_error)?;
    print_items(
        &mut stdout,
        &items,
        search.json,
        &crate::case_print::cases_by_draft(engine),
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `drafts show`: one draft, its edit, photos and, with `--explain`, how it was reached.
fn show(show: ShowArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let draft = engine.draft(show.id).map_err(drafts_error)?;
    let request = stored_request(&draft).map_err(drafts_error)?;
    let item = DraftListItem::from(&draft.summary);
    let record = stored_record(&draft).map_err(drafts_error)?;
    if show.json {
        let shown = shown_with_photos(engine, &draft, show.explain)?;
        writeln!(stdout, "{}", serde_json::to_string_pretty(&shown)?)?;
    } else {
        writeln!(stdout, "{}", heading(&item, &jiff::tz::TimeZone::system()))?;
        // A request filed before Zayavka (issue 38) is its text as filed, shown below; the
        // request assembled from it for the follow-up letters is not what was filed.
        let brought_in = draft
            .versions
            .iter()
            .any(|version| version.author == zayavka_engine::BROUGHT_IN_AUTHOR);
        match &request {
            Some(_) if brought_in => {}
            Some(request) => {
                writeln!(stdout, "\n{}", request.plain_text())?;
                if !request.faithfulness().is_empty() {
                    writeln!(stdout)?;
                    crate::output::print_faithfulness(&mut stdout, request)?;
                }
                let notes = ready_notes(&draft);
                if !notes.is_empty() {
                    writeln!(stdout)?;
                    crate::output::print_notes(&mut stdout, &notes)?;
                }
            }
            None => writeln!(
                stdout,
                "\nЗаявка не составлена. Текст, который вы ввели:\n{}",
                serde_json::to_string_pretty(&item.input)?
            )?,
        }
        if let Some(latest) = draft.versions.last() {
            if latest.author == zayavka_engine::BROUGHT_IN_AUTHOR {
                // A request filed before Zayavka (issue 38): its text as it was filed.
                writeln!(
                    stdout,
                    "\nТекст заявки, как он был подан до Заявки:\n{}",
                    latest.body
                )?;
            } else {
                writeln!(
                    stdout,
                    "\nВаша правка (версия {}):\n{}\n\n{}",
                    latest.version, latest.title, latest.body
                )?;
            }
        }
        let photos = engine.photos(show.id).map_err(attachment_error)?;
        if !photos.is_empty() {
            writeln!(stdout)?;
            print_photos(&mut stdout, show.id, &photos)?;
        }
        crate::case_print::print_case(&mut stdout, engine, show.id)?;
        if show.explain {
            let explanation = explanation(request.as_ref(), record.as_ref(), draft.model_used);
            explain(&mut stdout, &explanation)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `drafts delete`: a draft removed for good.
fn delete(delete: IdArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    engine.delete_draft(delete.id).map_err(drafts_error)?;
    writeln!(stdout, "Черновик № {} удалён насовсем.", delete.id)?;
    Ok(ExitCode::SUCCESS)
}

/// `drafts edit`: the resident's own version of the request.
fn edit(edit: EditArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let draft = engine.draft(edit.id).map_err(drafts_error)?;
    // A filed draft is refused before an editor opens, so that nothing typed is lost.
    if engine
        .case(edit.id, jiff::Zoned::now().date())
        .map_err(|error| anyhow::anyhow!(error.message_ru()))?
        .is_some()
    {
        anyhow::bail!(
            "{} Исправленный черновик: zayavka drafts correct {}.",
            zayavka_engine::StoreError::DraftFiled(edit.id).message_ru(),
            edit.id
        );
    }
    let text = match &edit.body_file {
        Some(path) => crate::read_file(path, zayavka_engine::FileRole::Input)?,
        None => edit_in_editor(&filed_text(&draft).map_err(drafts_error)?)?,
    };
    let (title, body) = split_title(&text);
    let version = engine
        .edit_draft(edit.id, title, body)
        .map_err(drafts_error)?;
    writeln!(
        stdout,
        "Правка сохранена как ваша версия {version} черновика № {}; составленный текст \
         остаётся в черновике.",
        edit.id
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `drafts export`: the filed document (txt, pdf, docx) or everything about the draft (json).
fn export(export: ExportArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let format = DocumentFormat::from_extension(&export.format);
    if export.collective && format.is_none() {
        anyhow::bail!(
            "--collective добавляет таблицу подписей к документу, а json — не документ, а \
             все сведения о черновике. Уберите --collective или выберите --format txt, \
             pdf или docx"
        );
    }
    let bytes = match format {
        None => {
            let draft = engine.draft(export.id).map_err(drafts_error)?;
            let shown = shown_with_photos(engine, &draft, true)?;
            (serde_json::to_string_pretty(&shown)? + "\n").into_bytes()
        }
        Some(format) => {
            if format != DocumentFormat::Txt && export.out.is_none() {
                anyhow::bail!(
                    "{} не выводится в терминал: укажите файл, например --out заявка.{}",
                    export.format.to_uppercase(),
                    export.format
                );
            }
            // Dated today (`ZAYAVKA_TODAY` fixes it, as for the deadlines) unless --date says.
            let date = match export.date {
                Some(date) => date,
                None => {
                    zayavka_engine::today().map_err(|error| anyhow::anyhow!(error.message_ru()))?
                }
            };
            document_out::render(engine, export.id, format, date, export.collective)
                .map_err(document_out::document_error)?
        }
    };
    match &export.out {
        Some(path) => document_out::save_draft(path, export.id, &bytes)?,
        None => stdout.write_all(&bytes)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `drafts attach`: photos added, all or none.
fn attach(attach: AttachArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let photos = engine
        .attach_photos(attach.id, &attach.files)
        .map_err(attachment_error)?;
    writeln!(
        stdout,
        "Приложено фотографий: {}. Место съёмки, модель камеры и другие сведения из \
         файлов удалены; в документе фотографии идут приложениями после заявки.",
        attach.files.len()
    )?;
    print_photos(&mut stdout, attach.id, &photos)?;
    Ok(ExitCode::SUCCESS)
}

/// `drafts attachments`: the draft's photos by number.
fn attachments(list: AttachmentsArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let photos = engine.photos(list.id).map_err(attachment_error)?;
    if list.json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(&photos)?)?;
    } else {
        print_photos(&mut stdout, list.id, &photos)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `drafts detach`: one photo removed.
fn detach(detach: DetachArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let detached = engine
        .detach_photo(detach.id, detach.number)
        .map_err(attachment_error)?;
    writeln!(
        stdout,
        "{} убрано из черновика № {} и удалено из базы.",
        detached.removed.label, detach.id
    )?;
    print_photos(&mut stdout, detach.id, &detached.remaining)?;
    Ok(ExitCode::SUCCESS)
}

/// `drafts backup`: a consistent copy of the drafts database.
fn backup(backup: BackupArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    engine.backup_drafts(&backup.file).map_err(drafts_error)?;
    writeln!(
        stdout,
        "Копия базы черновиков записана в {}.",
        backup.file.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `drafts restore`: the drafts put back from a copy.
fn restore(restore: RestoreArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let restored = engine
        .restore_drafts(&restore.file, restore.replace)
        .map_err(drafts_error)?;
    if let Some(aside) = &restored.set_aside {
        writeln!(
            stdout,
            "Прежняя база черновиков сохранена как {}.",
            aside.display()
        )?;
    }
    writeln!(
        stdout,
        "Черновики восстановлены из {}: {} шт.",
        restore.file.display(),
        restored.drafts
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `drafts recover`: what still reads of a damaged database, in a new one.
fn recover(recover: RecoverArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    // The damaged database is never opened here: the engine reads it as bytes only.
    let recovered = engine
        .recover_drafts(recover.out.as_deref())
        .map_err(drafts_error)?;
    writeln!(
        stdout,
        "Спасено черновиков: {}. Они записаны в новую базу {}.",
        recovered.drafts,
        recovered.file.display()
    )?;
    if recovered.drafts == 0 && recovered.damage_found {
        writeln!(
            stdout,
            "Ни одного черновика из базы {} прочитать не удалось; она не изменена. \
             Восстановите черновики из резервной копии командой\n  zayavka drafts \
             restore КОПИЯ --replace",
            recovered.damaged.display()
        )?;
        return Ok(ExitCode::from(crate::exit::PROBLEM));
    }
    if recovered.damage_found {
        writeln!(
            stdout,
            "В базе нашлись повреждённые места: записи, которые в них были, прочитать не \
             удалось. Если у вас есть резервная копия, сравните с ней."
        )?;
    }
    writeln!(
        stdout,
        "База {} не изменена. Чтобы работать со спасёнными черновиками, закройте \
         приложение и поставьте их на место базы командой\n  zayavka drafts restore {} \
         --replace\nПовреждённая база при этом будет сохранена рядом под другим именем.",
        recovered.damaged.display(),
        recovered.file.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `drafts retry`: a draft that did not come out sent to the model again.
fn retry(retry: &RetryArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let draft = engine.draft(retry.id).map_err(drafts_error)?;
    if !may_retry(&draft) {
        anyhow::bail!(
            "черновик № {} уже составлен ({}); повторять его не нужно. Чтобы составить \
             заявку заново, начните новый черновик",
            retry.id,
            draft.summary.outcome.code()
        );
    }
    let command = DraftCommand {
        input: InputSource::Typed(stored_input(&draft)),
        retry_of: Some(retry.id),
        offline: retry.offline,
        overrides: retry.provider.overrides(),
    };
    let options = RunOptions {
        offline: retry.offline,
        json: retry.json,
        record: None,
        provider: &retry.provider,
        typed: &[],
    };
    crate::draft_cmd::execute(command, &options, engine)
}

/// How a stored draft was reached, for `show --explain`: the engine's explanation as lines.
fn explain(out: &mut dyn std::io::Write, explanation: &Explanation) -> anyhow::Result<()> {
    writeln!(out, "\nКак получен результат")?;
    writeln!(out, "— {}", explanation.legal_decision)?;
    let Some(call) = &explanation.call else {
        writeln!(
            out,
            "— Модель не вызывалась: {}.",
            if explanation.model_used {
                "запись о вызове не сохранилась"
            } else {
                "заявка составлена из ваших слов"
            }
        )?;
        return Ok(());
    };
    writeln!(
        out,
        "— Модель: {} (профиль {}, сервер {}), программа {}.",
        call.model, call.provider_profile, call.provider_host, call.app_version
    )?;
    writeln!(
        out,
        "— Инструкция {} (SHA-256 {}…), схема ответа {} v{}, правовые модули {}.",
        call.prompt_version,
        call.prompt_sha256.get(..12).unwrap_or(&call.prompt_sha256),
        call.schema_id,
        call.schema_version,
        call.legal_catalogue_version
    )?;
    for attempt in &call.attempts {
        let status = attempt
            .http_status
            .map_or_else(|| "без ответа".to_owned(), |s| format!("HTTP {s}"));
        let failure = attempt
            .error_kind
            .map(|kind| format!(", сбой {}", kind.code()))
            .unwrap_or_default();
        let retry = attempt
            .retry_reason
            .map(|reason| format!(", повтор: {}", reason.as_str()))
            .unwrap_or_default();
        writeln!(
            out,
            "— Попытка {}: {status}, {} мс{failure}{retry}.",
            attempt.number, attempt.duration_ms
        )?;
    }
    for verdict in &call.verdicts {
        writeln!(out, "— Ответ модели: {}.", verdict.code())?;
    }
    writeln!(out, "— Модели отправлено:")?;
    for message in &call.messages {
        let role = serde_json::to_value(message.role)?;
        let shown: String = message.content.chars().take(400).collect();
        let more = if message.content.chars().count() > 400 {
            "…"
        } else {
            ""
        };
        writeln!(
            out,
            "  [{}] {}{more}",
            role.as_str().unwrap_or_default(),
            zayavka_engine::escape_invisible(&shown)
        )?;
    }
    Ok(())
}

/// The title (the first non-empty line) and the body (everything after it) of an edited text.
fn split_title(text: &str) -> (&str, &str) {
    let text = text.trim_start_matches(['\n', '\r']);
    match text.split_once('\n') {
        Some((title, body)) => (title.trim(), body.trim_matches(['\n', '\r'])),
        None => (text.trim(), ""),
    }
}

/// Opens the resident's editor (`VISUAL`, else `EDITOR`; on Windows Notepad when neither is
/// set) on the current text and returns what they saved.
fn edit_in_editor(current: &Option<String>) -> anyhow::Result<String> {
    let editor = std::env::var_os("VISUAL")
        .or_else(|| std::env::var_os("EDITOR"))
        .filter(|e| !e.is_empty())
        .or_else(|| cfg!(windows).then(|| "notepad.exe".into()))
        .ok_or_else(|| {
            anyhow::anyhow!(
                "не задан редактор: укажите его в переменной EDITOR (например EDITOR=nano) или \
                 передайте текст файлом: --body-file ФАЙЛ"
            )
        })?;
    let mut file = tempfile::Builder::new()
        .prefix("zayavka-edit-")
        .suffix(".txt")
        .tempfile()?;
    std::io::Write::write_all(&mut file, current.clone().unwrap_or_default().as_bytes())?;
    // Closed before the editor opens it, path kept (and removed when done): on Windows an editor
    // could not save over a file this process still holds open.
    let file = file.into_temp_path();
    let words = crate::command_line::split(&editor.to_string_lossy())
        .ok_or_else(|| anyhow::anyhow!("переменная EDITOR не читается как команда"))?;
    let (program, arguments) = words
        .split_first()
        .ok_or_else(|| anyhow::anyhow!("переменная EDITOR пуста"))?;
    let status = std::process::Command::new(program)
        .args(arguments)
        .arg(&file)
        .status()
        .map_err(|error| {
            let reason = if error.kind() == std::io::ErrorKind::NotFound {
                "такой программы нет; укажите в переменной EDITOR редактор, который установлен, \
                 или передайте текст файлом: --body-file ФАЙЛ"
                    .to_owned()
            } else {
                zayavka_engine::io_error_ru(&error)
            };
            anyhow::anyhow!("не удалось запустить редактор «{program}»: {reason}")
        })?;
    if !status.success() {
        anyhow::bail!("редактор завершился с ошибкой; черновик не изменён");
    }
    crate::read_file(&file, zayavka_engine::FileRole::Input)
}

fn outcome_ru(outcome: &str) -> &'static str {
    match outcome {
        "pending" => "не составлен (запуск прерван)",
        "ready" => "готов",
        "needs_user" => "нужно уточнить описание",
        "rejected" => "ответ модели не принят",
        "failed" => "технический сбой",
        "invalid_input" => "нужно исправить поля",
        _ => "неизвестно",
    }
}

/// The first line of a draft in a list: number, local time, state and title — or, for a
/// draft without a title, the first words of its description in the title's place.
fn heading(item: &DraftListItem, zone: &jiff::tz::TimeZone) -> String {
    let title = item
        .title
        .as_deref()
        .or(item.preview.as_deref())
        .unwrap_or_default();
    format!(
        "№ {} · {} · {} · {}",
        item.id,
        crate::wording::local_time_ru(&item.created_at, zone),
        outcome_ru(item.outcome),
        zayavka_engine::escape_invisible(title)
    )
}

/// The line under a titled draft in a list: the first words of the resident's description,
/// so that drafts with similar titles can be told apart (issue 14).
fn preview_line(item: &DraftListItem) -> Option<String> {
    item.title.as_ref()?;
    let preview = item.preview.as_deref()?;
    Some(format!("    {}", zayavka_engine::escape_invisible(preview)))
}

fn print_items(
    out: &mut dyn std::io::Write,
    items: &[DraftListItem],
    json: bool,
    cases: &BTreeMap<DraftId, CaseView>,
) -> anyhow::Result<()> {
    if json {
        /// A listed draft with its case, when it was filed (issue 30).
        #[derive(serde::Serialize)]
        struct Listed<'a> {
            #[serde(flatten)]
            item: &'a DraftListItem,
            #[serde(skip_serializing_if = "Option::is_none")]
            case: Option<&'a CaseView>,
        }
        let listed: Vec<Listed<'_>> = items
            .iter()
            .map(|item| Listed {
                item,
                case: DraftId::new(item.id).and_then(|id| cases.get(&id)),
            })
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&listed)?)?;
        return Ok(());
    }
    if items.is_empty() {
        writeln!(out, "Черновиков нет.")?;
    }
    let zone = jiff::tz::TimeZone::system();
    for item in items {
        writeln!(out, "{}", heading(item, &zone))?;
        if let Some(line) = preview_line(item) {
            writeln!(out, "{line}")?;
        }
        if let Some(case) = DraftId::new(item.id).and_then(|id| cases.get(&id)) {
            writeln!(out, "{}", crate::case_print::state_line(case))?;
        }
    }
    Ok(())
}
