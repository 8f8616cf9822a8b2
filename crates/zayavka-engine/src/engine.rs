//! The engine handle: one value that holds what belongs to one installation — its folders, its
//! keyring, the model clients of this run — and through which a front end reaches the drafts
//! database. The database handle never leaves it: each operation opens the database, does its
//! work and closes it again, so a front end cannot write around the engine's rules, and every
//! thread of the desktop app may call the same handle at once (a SQLite connection is not shared
//! between threads). Both front ends already opened the database once per command.
//!
//! Operations that only read open the database to read: when the data folder or its disk cannot
//! be written, they still work, and the handle tells its front end so once per operation
//! ([`Notice::ReadOnlyData`]). Operations that change something open it to write, and on such a
//! disk are refused before anything is touched.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use jiff::civil::Date;
use zayavka_core::{Outcome, RawInput, SubjectKind};
use zayavka_document::{FiledDocument, Profile, ProfileField};
use zayavka_llm::CancellationToken;
use zayavka_store::{
    Answer, AttachmentRole, Batch, DraftFilter, DraftId, FollowLink, Store, StoreError, StoredDraft,
};

use crate::attachments::{self, AttachmentError, AttachmentSummary, Detached};
use crate::batch::run::{
    BatchError, BatchListItem, BatchProgress, BatchSettings, BatchSummary, ExportError,
    ExportFormat, ExportReport,
};
use crate::batch::{
    BatchFile, BatchPlan, BatchPreview, BatchRowReport, DocumentsError, DocumentsExport,
    DocumentsReport,
};
use crate::case::{
    self, BatchFiling, BatchFollowUps, CaseCounts, CaseError, CaseView, FilingInput,
};
use crate::config::{Config, ConfigError, ProfileName, ProviderOverrides};
use crate::database::{open_store, open_store_to_read};
use crate::doctor::Check;
use crate::draft::{
    DraftCommand, DraftCommandResult, DraftEvent, EnvironmentError, EnvironmentOverrides,
    SessionClients,
};
use crate::drafts::{self, DraftListItem, DraftsError, StoredReplay};
use crate::eval::{EvalError, EvalProgress, EvalReport, EvalSettings, PreparedEval};
use crate::filing::{self, FilingError};
use crate::form::FormError;
use crate::paths::Paths;
use crate::profile::ProfileError;
use crate::secrets::{ApiKey, KeyStatus, SecretError, SecretStore};
use crate::settings::{KeyStatusReport, ScreenSetting, SettingError, SettingsOverview, SetupError};
use crate::stats::{Stats, StatsError, StatsQuery};

/// Something a front end should tell its user that is not an error: the operation went on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Notice {
    /// The data folder cannot be written: the saved drafts were opened to be read only.
    ReadOnlyData,
}

impl Notice {
    /// The notice as one Russian sentence.
    pub fn message_ru(self) -> &'static str {
        match self {
            Notice::ReadOnlyData => {
                "Папка данных доступна только для чтения: черновики можно смотреть, но не изменять."
            }
        }
    }
}

/// Where a run's provider overrides and key from the environment come from.
#[derive(Debug, Clone, Default)]
pub enum Environment {
    /// Zayavka's environment variables (`ZAYAVKA_BASE_URL`, `ZAYAVKA_API_KEY`…), read at each
    /// operation that may call a model, as the command-line tool always has.
    #[default]
    Process,
    /// Fixed values (tests).
    Fixed(EnvironmentOverrides),
}

/// Who hears the handle's notices.
type Listener = Arc<dyn Fn(Notice) + Send + Sync>;

/// The engine of one installation, for one run of a front end.
#[derive(Clone)]
pub struct Engine {
    paths: Paths,
    secrets: Arc<dyn SecretStore + Send + Sync>,
    clients: SessionClients,
    environment: Environment,
    listener: Option<Listener>,
}

impl fmt::Debug for Engine {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("Engine")
            .field("paths", &self.paths)
            .field("secrets", &self.secrets.backend_name())
            .field("clients", &self.clients)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// The engine over these folders and this keyring, with no model client made yet.
    pub fn new(paths: Paths, secrets: Arc<dyn SecretStore + Send + Sync>) -> Engine {
        Engine {
            paths,
            secrets,
            clients: SessionClients::new(),
            environment: Environment::Process,
            listener: None,
        }
    }

    /// The same engine, reading the environment's provider overrides and key from
    /// `environment`.
    #[must_use]
    pub fn with_environment(mut self, environment: Environment) -> Engine {
        self.environment = environment;
        self
    }

    /// The environment's provider overrides and key for one run; a run without a model
    /// (`offline`) reads none, so a broken variable cannot stop it.
    pub fn environment(&self, offline: bool) -> Result<EnvironmentOverrides, EnvironmentError> {
        match &self.environment {
            Environment::Process => EnvironmentOverrides::from_env(offline),
            Environment::Fixed(_) if offline => Ok(EnvironmentOverrides::default()),
            Environment::Fixed(overrides) => Ok(overrides.clone()),
        }
    }

    /// The same engine, telling `listener` what its user should know ([`Notice`]).
    #[must_use]
    pub fn with_notices(mut self, listener: impl Fn(Notice) + Send + Sync + 'static) -> Engine {
        self.listener = Some(Arc::new(listener));
        self
    }

    /// The installation's folders.
    pub fn paths(&self) -> &Paths {
        &self.paths
    }

    /// The keyring holding the API keys: the handle's own, so that a front end stores and
    /// reads keys only through [`Engine::set_key`], [`Engine::delete_key`] and the status.
    fn secrets(&self) -> &(dyn SecretStore + Send + Sync) {
        self.secrets.as_ref()
    }

    /// The model clients of this run: drafts and batches with the same settings and key share
    /// one, so a provider's access token is exchanged once per run, not once per draft.
    pub fn clients(&self) -> &SessionClients {
        &self.clients
    }

    /// The database, to be read; on a disk that cannot be written, for reading only.
    fn read(&self) -> Result<Store, StoreError> {
        let store = open_store_to_read(&self.paths)?;
        if store.is_read_only()
            && let Some(listener) = &self.listener
        {
            listener(Notice::ReadOnlyData);
        }
        Ok(store)
    }

    /// The database, to be changed.
    fn write(&self) -> Result<Store, StoreError> {
        open_store(&self.paths)
    }

    // -----------------------------------------------------------------------------------------
    // A new draft

    /// Runs one draft: the input kept in the database before any model call, the model (or
    /// none, when the command is offline) with its retries and re-asks, the checks, the stored
    /// outcome. `observe` hears each attempt and wait as it happens.
    pub async fn run_draft(
        &self,
        command: DraftCommand,
        environment: EnvironmentOverrides,
        cancel: &CancellationToken,
        observe: &(dyn Fn(DraftEvent) + Send + Sync),
    ) -> DraftCommandResult {
        crate::draft::run_draft_command_in(
            &self.clients,
            command,
            &self.paths,
            self.secrets(),
            environment,
            cancel,
            observe,
        )
        .await
    }

    /// Keeps the desktop form as it is now, so that nothing typed is lost.
    pub fn keep_form(&self, input: &RawInput) -> Result<(), FormError> {
        crate::form::save(&self.paths, input)
    }

    /// The desktop form as it was last kept.
    pub fn kept_form(&self) -> Result<Option<RawInput>, FormError> {
        crate::form::restore(&self.paths)
    }

    // -----------------------------------------------------------------------------------------
    // Drafts

    /// The stored drafts that pass `filter`, newest first.
    pub fn drafts(&self, filter: &DraftFilter) -> Result<Vec<DraftListItem>, DraftsError> {
        drafts::list(&self.read()?, filter)
    }

    /// The stored drafts whose words match `text`, best first, at most `limit`.
    pub fn search_drafts(&self, text: &str, limit: u32) -> Result<Vec<DraftListItem>, DraftsError> {
        drafts::search(&self.read()?, text, limit)
    }

    /// Stored draft `id` in full.
    pub fn draft(&self, id: DraftId) -> Result<StoredDraft, DraftsError> {
        drafts::get(&self.read()?, id)
    }

    /// Stores the resident's edit of draft `id` as its newest version; gives the version's
    /// number.
    pub fn edit_draft(&self, id: DraftId, title: &str, body: &str) -> Result<u32, DraftsError> {
        drafts::edit(&self.write()?, id, title, body)
    }

    /// Deletes draft `id` for good, with its versions and photos.
    pub fn delete_draft(&self, id: DraftId) -> Result<(), DraftsError> {
        drafts::delete(&self.write()?, id)
    }

    /// Assembles ready draft `id` again with the subject the resident confirmed, from its stored
    /// model response: no model call ([`drafts::reassemble`]).
    pub fn reassemble_draft(
        &self,
        id: DraftId,
        subject: SubjectKind,
    ) -> Result<(StoredDraft, Outcome), DraftsError> {
        drafts::reassemble(&self.write()?, id, subject)
    }

    /// Stored draft `id`'s response evaluated again without the network, and whether today's
    /// request is byte-identical to the stored one.
    pub fn replay_draft(&self, id: DraftId) -> Result<StoredReplay, DraftsError> {
        drafts::replay_stored(&self.read()?, id)
    }

    /// Copies the whole database, consistent at one moment, to `target`.
    pub fn backup_drafts(&self, target: &Path) -> Result<(), DraftsError> {
        drafts::backup(&self.read()?, target)
    }

    /// Puts a backup in place of the database ([`drafts::restore`]).
    pub fn restore_drafts(
        &self,
        file: &Path,
        replace: bool,
    ) -> Result<drafts::Restored, DraftsError> {
        drafts::restore(&self.paths, file, replace)
    }

    /// Saves what can be read of a damaged database ([`drafts::recover`]).
    pub fn recover_drafts(&self, out: Option<&Path>) -> Result<drafts::Recovered, DraftsError> {
        drafts::recover(&self.paths, out)
    }

    // -----------------------------------------------------------------------------------------
    // Photos

    /// The photos attached to draft `id`, in their order.
    pub fn photos(&self, id: DraftId) -> Result<Vec<AttachmentSummary>, AttachmentError> {
        attachments::attachments(&self.read().map_err(AttachmentError::Store)?, id)
    }

    /// Attaches photos to draft `id`, all or none, cleaned of location and camera metadata;
    /// gives the photos added.
    pub fn attach_photos(
        &self,
        id: DraftId,
        files: &[PathBuf],
    ) -> Result<Vec<AttachmentSummary>, AttachmentError> {
        attachments::attach(&self.write().map_err(AttachmentError::Store)?, id, files)
    }

    /// Removes photo `number` from draft `id`; the photos after it move up.
    pub fn detach_photo(&self, id: DraftId, number: u32) -> Result<Detached, AttachmentError> {
        attachments::detach(&self.write().map_err(AttachmentError::Store)?, id, number)
    }

    // -----------------------------------------------------------------------------------------
    // Documents

    /// The document of stored draft `id`, dated `date`, with the profile's header and the
    /// draft's photos ([`filing::filed_document`]).
    pub fn filed_document(
        &self,
        id: DraftId,
        date: Date,
        collective: bool,
    ) -> Result<FiledDocument, FilingError> {
        let store = self.read().map_err(DraftsError::from)?;
        filing::filed_document(&store, &self.paths, id, date, collective)
    }

    // -----------------------------------------------------------------------------------------
    // Batches

    /// Plans a run of `file` before anything is stored or sent: the batch it continues, which
    /// rows are new, changed, unfinished, done before or refused, and the worst-case cost.
    pub fn plan_batch(
        &self,
        file: &BatchFile,
        settings: &BatchSettings,
        environment: EnvironmentOverrides,
    ) -> Result<BatchPlan, BatchError> {
        let store = self.read()?;
        crate::batch::plan_batch(
            &store,
            file,
            settings,
            &self.paths,
            self.secrets(),
            environment,
        )
    }

    /// Plans a run of `file` as the desktop shows it before anything is sent: the model's plan
    /// when one is set up, otherwise the plan without a model with why
    /// ([`crate::batch::preview_batch`]).
    pub fn preview_batch(
        &self,
        file: &BatchFile,
        choice: crate::batch::BatchChoice,
        environment: EnvironmentOverrides,
    ) -> Result<BatchPreview, BatchError> {
        let store = self.read()?;
        crate::batch::preview_batch(
            &store,
            file,
            choice,
            &self.paths,
            self.secrets(),
            environment,
        )
    }

    /// Batch `number` and the file it was last run from, when that file is still there (so that
    /// the batch can be continued without choosing the file again).
    pub fn batch_source(&self, number: u32) -> Result<(Batch, Option<PathBuf>), BatchError> {
        let batch = self.find_batch(&number.to_string())?;
        let file = crate::batch::run::existing_file(batch.source_path.as_deref());
        Ok((batch, file))
    }

    /// Runs (or resumes) the batch of `file`; `progress` hears each row's outcome with the
    /// run's counts and, once decided, why it stops.
    pub async fn run_batch(
        &self,
        file: &BatchFile,
        settings: &BatchSettings,
        environment: EnvironmentOverrides,
        cancel: &CancellationToken,
        progress: &dyn Fn(BatchProgress),
    ) -> Result<BatchSummary, BatchError> {
        crate::batch::run::run_batch(
            file,
            settings,
            &self.paths,
            self.secrets(),
            environment,
            cancel,
            progress,
        )
        .await
    }

    /// The stored batches, newest first.
    pub fn batches(&self) -> Result<Vec<BatchListItem>, BatchError> {
        crate::batch::run::list_batches(&self.read()?)
    }

    /// The batch a person named by its number or id.
    pub fn find_batch(&self, name: &str) -> Result<Batch, BatchError> {
        crate::batch::find_batch(&self.read()?, name)
    }

    /// Where stored batch `batch_id` stands.
    pub fn batch_summary(&self, batch_id: &str) -> Result<BatchSummary, BatchError> {
        crate::batch::run::batch_summary(&self.read()?, batch_id)
    }

    /// Each row of stored batch `batch_id` with its status.
    pub fn batch_rows(&self, batch_id: &str) -> Result<Vec<BatchRowReport>, BatchError> {
        crate::batch::batch_row_reports(&self.read()?, batch_id)
    }

    /// Writes stored batch `batch_id` into `out_dir` as text, JSONL or CSV
    /// ([`crate::batch::run::export_batch`]).
    pub fn export_batch(
        &self,
        batch_id: &str,
        format: ExportFormat,
        out_dir: &Path,
    ) -> Result<ExportReport, ExportError> {
        let store = self.read().map_err(BatchError::from)?;
        crate::batch::run::export_batch(&store, batch_id, format, out_dir)
    }

    /// Writes one document per ready row of stored batch `batch_id` into `dir`
    /// ([`crate::batch::export_documents`]).
    pub fn export_documents(
        &self,
        batch_id: &str,
        profile: &Profile,
        options: &DocumentsExport,
        dir: &Path,
    ) -> Result<DocumentsReport, DocumentsError> {
        let store = self.read().map_err(BatchError::from)?;
        crate::batch::export_documents(&store, batch_id, profile, options, dir)
    }
}

impl Engine {
    // -----------------------------------------------------------------------------------------
    // The resident's profile

    /// The resident's profile for the document header (empty when none is kept).
    pub fn profile(&self) -> Result<Profile, ProfileError> {
        crate::profile::load(&self.paths)
    }

    /// Checks and stores one field of the profile; gives the profile as stored.
    pub fn set_profile_field(
        &self,
        field: ProfileField,
        value: &str,
    ) -> Result<Profile, ProfileError> {
        crate::profile::set(&self.paths, field, value)
    }

    /// Removes the profile.
    pub fn clear_profile(&self) -> Result<(), ProfileError> {
        crate::profile::clear(&self.paths)
    }

    // -----------------------------------------------------------------------------------------
    // Settings and keys

    /// The provider settings as the configuration file holds them.
    pub fn config(&self) -> Result<Config, ConfigError> {
        Config::load(&self.paths.config_file())
    }

    /// Checks and stores one setting (`profiles.NAME.FIELD` or `active_profile`; an empty value
    /// removes it); gives the settings as stored.
    pub fn set_setting(&self, key: &str, value: &str) -> Result<Config, ConfigError> {
        crate::config::set_value(&self.paths.config_file(), key, value)
    }

    /// Changes one setting as the settings screen does, choosing «Свой сервер» included
    /// ([`crate::settings::change_setting`]); gives the settings as stored.
    pub fn change_setting(
        &self,
        setting: ScreenSetting,
        value: &str,
    ) -> Result<Config, SettingError> {
        crate::settings::change_setting(&self.paths, setting, value)
    }

    /// The settings as `config show` and the settings screen present them: the profiles, the
    /// effective provider with the environment's `overrides`, and the key's state.
    pub fn settings_overview(
        &self,
        overrides: &ProviderOverrides,
        environment_key_present: bool,
    ) -> Result<SettingsOverview, ConfigError> {
        SettingsOverview::gather(
            &self.paths,
            self.secrets(),
            overrides,
            environment_key_present,
        )
    }

    /// Whether the desktop app opens on its first-run setup ([`crate::settings::first_run`]).
    pub fn first_run(&self, has_active_profile: bool, overrides: &ProviderOverrides) -> bool {
        crate::settings::first_run(&self.paths, has_active_profile, overrides)
    }

    /// Remembers that the resident chose to go on without a model, so that the first-run setup
    /// does not come back.
    pub fn skip_setup(&self) -> Result<(), SetupError> {
        crate::settings::skip_setup(&self.paths)
    }

    /// The profile chosen in the settings, if any and if they can be read.
    pub fn active_profile_name(&self) -> Option<String> {
        crate::settings::active_profile_name(&self.paths)
    }

    /// The profile a key command is about: the one `named`, else the chosen one, else the
    /// only one; with the settings when they could be read.
    pub fn key_profile(
        &self,
        named: Option<ProfileName>,
    ) -> Result<(ProfileName, Option<Config>), ConfigError> {
        crate::settings::choose_key_profile(named, &self.paths)
    }

    /// The keyring's name as its user knows it («Secret Service», «macOS Keychain»…).
    pub fn keyring_name(&self) -> &'static str {
        self.secrets.backend_name()
    }

    /// `key status` as a report: where `profile`'s key would come from, the keyring's state,
    /// and the environment's key or why it could not be read.
    pub fn key_status_report(
        &self,
        profile: &ProfileName,
        environment_key: Result<Option<ApiKey>, SecretError>,
    ) -> KeyStatusReport {
        crate::settings::key_status_report(self.secrets(), profile, environment_key)
    }

    /// Where `profile`'s key would come from, and whether the keyring could be read.
    pub fn key_status(&self, profile: &ProfileName, environment_override: bool) -> KeyStatus {
        crate::secrets::key_status(self.secrets(), profile, environment_override)
    }

    /// Stores `profile`'s key in the keyring.
    pub fn set_key(&self, profile: &ProfileName, key: &ApiKey) -> Result<(), SecretError> {
        self.secrets.set(profile, key)
    }

    /// Removes `profile`'s key from the keyring; whether there was one.
    pub fn delete_key(&self, profile: &ProfileName) -> Result<bool, SecretError> {
        self.secrets.delete(profile)
    }

    // -----------------------------------------------------------------------------------------
    // Checks and statistics

    /// Every check of `zayavka doctor`: the data folder, the settings, the key, the service
    /// (a real call when a model is configured) and the legal modules' review dates.
    pub async fn doctor(
        &self,
        environment: EnvironmentOverrides,
        today: Date,
        cancel: &CancellationToken,
    ) -> Vec<Check> {
        crate::doctor::run_doctor(&self.paths, self.secrets(), environment, today, cancel).await
    }

    /// The checks of the configured service alone: settings, key, connection, schema modes.
    pub async fn provider_checks(
        &self,
        environment: EnvironmentOverrides,
        cancel: &CancellationToken,
    ) -> Vec<Check> {
        crate::doctor::run_provider_checks(&self.paths, self.secrets(), environment, cancel).await
    }

    /// An evaluation priced and ready to run: the cases read, the profiles resolved with
    /// their keys, nothing sent (ADR 28).
    pub fn prepare_eval(
        &self,
        settings: &EvalSettings,
        environment: EnvironmentOverrides,
    ) -> Result<PreparedEval, EvalError> {
        crate::eval::prepare_eval(settings, &self.paths, self.secrets(), environment)
    }

    /// Runs a prepared evaluation, storing each answer as it arrives.
    pub async fn run_eval(
        &self,
        prepared: &PreparedEval,
        cancel: &CancellationToken,
        on_progress: &(dyn Fn(EvalProgress) + Sync),
    ) -> Result<EvalReport, EvalError> {
        crate::eval::run_eval(prepared, &self.paths, cancel, on_progress).await
    }

    /// Checks stored evaluation run `run_id` again from its cassettes: nothing is sent.
    pub fn replay_eval(
        &self,
        run_id: &str,
        cases_dir: &Path,
        case_ids: &[String],
    ) -> Result<EvalReport, EvalError> {
        crate::eval::replay_eval(&self.read()?, run_id, cases_dir, case_ids)
    }

    /// How the model behaved on the stored drafts: outcomes, reasons, waiting and cost by
    /// period and profile. From the database only.
    pub fn stats(&self, query: &StatsQuery) -> Result<Stats, StatsError> {
        crate::stats::stats(&self.paths, query, || self.read())
    }

    // -----------------------------------------------------------------------------------------
    // After the request is filed (issue 30)

    /// Marks ready draft `id` filed, or changes its filing's facts; its text no longer changes.
    /// `today` is what [`crate::today`] gives.
    pub fn file_draft(
        &self,
        id: DraftId,
        filing: &FilingInput,
        today: Date,
    ) -> Result<CaseView, CaseError> {
        case::file(&self.write()?, id, filing, today)
    }

    /// Records a request filed before Zayavka, `text` as it was filed, with its filing
    /// (issue 38): a new draft that is filed already, counted and followed like any other.
    pub fn bring_in(
        &self,
        text: &str,
        filing: &FilingInput,
        today: Date,
    ) -> Result<CaseView, CaseError> {
        case::bring_in(&self.write()?, text, filing, today)
    }

    /// Records every row of a file as a request filed before Zayavka (`batch add`, issue 38):
    /// all or none, and nothing recorded twice.
    pub fn bring_in_file(
        &self,
        file: &crate::batch::BatchFile,
        today: Date,
    ) -> Result<case::BroughtInRows, CaseError> {
        case::bring_in_file(&self.write()?, file, today)
    }

    /// Attaches photos of the filing (the stamped copy, the postal receipt) or of the answer to
    /// draft `id`, cleaned like any photo, all or none.
    pub fn attach_case_photos(
        &self,
        id: DraftId,
        role: AttachmentRole,
        files: &[PathBuf],
    ) -> Result<Vec<AttachmentSummary>, AttachmentError> {
        attachments::attach_as(
            &self.write().map_err(AttachmentError::Store)?,
            id,
            role,
            files,
        )
    }

    /// Draft `id`'s photos of a role, in order.
    pub fn case_photos(
        &self,
        id: DraftId,
        role: AttachmentRole,
    ) -> Result<Vec<AttachmentSummary>, AttachmentError> {
        attachments::attachments_as(&self.read().map_err(AttachmentError::Store)?, id, role)
    }

    /// A new draft to correct filed draft `id` (whose own text no longer changes): a copy of
    /// its input, text, edits and photos of the problem, linked to it, not filed. Returns its
    /// id.
    pub fn correct_draft(&self, id: DraftId) -> Result<DraftId, CaseError> {
        Ok(self.write()?.copy_for_correction(id)?)
    }

    /// Writes the letter of `kind` after filed draft `id` (a repeat request, or a complaint to
    /// the inspectorate `addressee`) and stores it as a new linked draft; returns its id
    /// ([`case::write_follow_up`]).
    pub fn write_follow_up(
        &self,
        id: DraftId,
        kind: zayavka_core::FollowUpKind,
        addressee: Option<&str>,
        today: Date,
    ) -> Result<DraftId, CaseError> {
        case::write_follow_up(&self.write()?, id, kind, addressee, today)
    }

    /// Writes the letter of `kind` for every filed row of stored batch `batch_id` whose answer
    /// is overdue or did not solve the problem; the other rows are reported with why not. Each
    /// letter is its own transaction: a failure stops at that row, the letters before it kept.
    pub fn batch_follow_ups(
        &self,
        batch_id: &str,
        kind: zayavka_core::FollowUpKind,
        addressee: Option<&str>,
        today: Date,
    ) -> Result<BatchFollowUps, CaseError> {
        let store = self.write()?;
        let rows = crate::batch::batch_row_reports(&store, batch_id)?;
        let mut report = BatchFollowUps::default();
        for row in rows {
            let Some(draft) = row.draft_id else {
                continue;
            };
            if store.case(draft)?.is_none() {
                continue;
            }
            let follow = match kind {
                zayavka_core::FollowUpKind::Repeat => zayavka_store::FollowKind::Repeat,
                zayavka_core::FollowUpKind::Complaint => zayavka_store::FollowKind::Complaint,
            };
            // Run again, the batch's letters are not written twice.
            if let Some((letter, _)) = store
                .follow_ups(draft)?
                .into_iter()
                .find(|(_, existing)| *existing == follow)
            {
                report.existing.push((row.row, letter));
                continue;
            }
            match case::write_follow_up(&store, draft, kind, addressee, today) {
                Ok(letter) => report.written.push((row.row, letter)),
                Err(CaseError::NotDueYet { .. }) => report.not_due.push(row.row),
                Err(CaseError::Solved) => report.solved.push(row.row),
                Err(error) => return Err(error),
            }
        }
        Ok(report)
    }

    /// The letters written after draft `id` (corrections, repeat requests, complaints), oldest
    /// first.
    pub fn follow_ups(
        &self,
        id: DraftId,
    ) -> Result<Vec<(DraftId, zayavka_store::FollowKind)>, CaseError> {
        Ok(self.read()?.follow_ups(id)?)
    }

    /// How draft `id` follows another draft, when it does.
    pub fn follow_link(&self, id: DraftId) -> Result<Option<FollowLink>, CaseError> {
        Ok(self.read()?.follow_link(id)?)
    }

    /// Marks the ready rows of stored batch `batch_id` filed in one step: the rows numbered in
    /// `rows`, or every row when it is empty ([`case::file_batch`]).
    pub fn file_batch(
        &self,
        batch_id: &str,
        rows: &[u32],
        filing: &FilingInput,
        today: Date,
    ) -> Result<BatchFiling, CaseError> {
        let store = self.write()?;
        let reports = crate::batch::batch_row_reports(&store, batch_id)?;
        let table: Vec<(u32, Option<DraftId>, bool)> = reports
            .iter()
            .map(|row| {
                (
                    row.row,
                    row.draft_id,
                    row.status == crate::batch::RowStatus::Ready,
                )
            })
            .collect();
        case::file_batch(&store, &table, rows, filing, today)
    }

    /// How the cases of stored batch `batch_id`'s drafts stand on `today`.
    pub fn batch_cases(&self, batch_id: &str, today: Date) -> Result<CaseCounts, CaseError> {
        let store = self.read()?;
        let drafts: Vec<DraftId> = crate::batch::batch_row_reports(&store, batch_id)?
            .iter()
            .filter_map(|row| row.draft_id)
            .collect();
        case::counts(&store, &drafts, today)
    }

    /// Takes back draft `id`'s filing mark, with its answer and the case's photos.
    pub fn withdraw_filing(&self, id: DraftId) -> Result<(), CaseError> {
        Ok(self.write()?.withdraw_filing(id)?)
    }

    /// Records the answer to filed draft `id`.
    pub fn record_answer(
        &self,
        id: DraftId,
        answer: Answer,
        today: Date,
    ) -> Result<CaseView, CaseError> {
        case::answer(&self.write()?, id, answer, today)
    }

    /// Closes filed draft `id`'s case on `today` (`close`), or opens it again.
    pub fn close_case(&self, id: DraftId, close: bool, today: Date) -> Result<CaseView, CaseError> {
        case::close(&self.write()?, id, close, today)
    }

    /// Draft `id`'s case as it stands on `today`, or `None` when it is not filed.
    pub fn case(&self, id: DraftId, today: Date) -> Result<Option<CaseView>, CaseError> {
        Ok(self
            .read()?
            .case(id)?
            .map(|case| CaseView::new(case, today)))
    }

    /// Every case as it stands on `today`, what is overdue first ([`case::due`]).
    pub fn due(&self, today: Date) -> Result<Vec<CaseView>, CaseError> {
        case::due(&self.read()?, today)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::MemoryStore;

    fn engine(home: &Path) -> Engine {
        Engine::new(Paths::under(home), Arc::new(MemoryStore::new()))
    }

    #[test]
    fn a_fixed_environment_is_given_to_runs_with_a_model_and_none_to_offline_runs() {
        let home = tempfile::tempdir().unwrap();
        let overrides = EnvironmentOverrides {
            api_key: Some(crate::secrets::ApiKey::new("sk-fixed-0123456789").unwrap()),
            ..EnvironmentOverrides::default()
        };
        let engine = engine(home.path()).with_environment(Environment::Fixed(overrides));
        assert!(engine.environment(false).unwrap().api_key.is_some());
        assert!(engine.environment(true).unwrap().api_key.is_none());
    }

    #[test]
    fn skipping_the_setup_is_remembered_and_ends_the_first_run() {
        let home = tempfile::tempdir().unwrap();
        let engine = engine(home.path());
        let none = ProviderOverrides::default();
        assert!(engine.first_run(false, &none));
        assert!(
            !engine.first_run(true, &none),
            "a chosen service is not a first run"
        );
        engine.skip_setup().unwrap();
        engine.skip_setup().unwrap();
        assert!(!engine.first_run(false, &none));
    }

    #[test]
    fn an_empty_data_folder_lists_no_drafts_and_no_batches() {
        let home = tempfile::tempdir().unwrap();
        let engine = engine(home.path());
        assert!(engine.drafts(&DraftFilter::default()).unwrap().is_empty());
        assert!(engine.batches().unwrap().is_empty());
        let missing = DraftId::new(7).unwrap();
        assert!(matches!(
            engine.draft(missing),
            Err(DraftsError::NotFound(id)) if id == missing
        ));
    }
}
