// The commands the page may call, each with what the page sends and what it gets back: the one
// list of them (docs/desktop-ipc.md says what each is for). Each line reads
//
//     name[injected](argument: Type, …; channel: Channel<Message>) -> Answer;
//
// where `injected` names what Tauri hands the command itself (`app`, `window`) and the
// channels, after `;`, are how a long command talks while it runs. `argument: String as Codes`
// is a string Rust checks itself, which the page may send only as one of those codes.
//
// `build.rs` includes this file with its own `commands!`, which keeps only the names: one
// `allow-…` permission per command, and the capability file grants exactly these. The crate's
// `contract` module includes it with the full `commands!`, which
// - checks at compile time that `ipc::name` takes exactly these arguments, in this order, and
//   answers with this type;
// - registers exactly these commands with Tauri;
// - writes the page's TypeScript declaration of every command (ui/js/ipc-contract.d.ts).
commands! {
    draft_run[app](input: RawInput, task_id: String; on_progress: Channel<DraftProgress>) -> DraftResult;
    draft_cancel[app](task_id: String) -> ();
    draft_offline[app](input: RawInput) -> DraftResult;
    draft_reassemble[app](draft_id: i64, subject: String as SubjectKind) -> DraftResult;
    input_autosave[app](input: RawInput) -> ();
    input_restore[app]() -> Option<RawInput>;
    drafts_list[app](filter: ListFilter) -> Vec<DraftListItem>;
    drafts_search[app](text: String) -> Vec<DraftListItem>;
    draft_open[app](id: i64) -> DraftDetail;
    draft_edit[app](id: i64, title: String, body: String) -> DraftDetail;
    draft_delete[app](id: i64) -> ();
    draft_save_as[app](id: i64, format: SaveFormat, collective: bool) -> Option<String>;
    draft_document[app](id: i64, collective: bool) -> DocumentView;
    print_page[window]() -> ();
    draft_photos[app](id: i64) -> Vec<PhotoView>;
    draft_attach_chosen[app](id: i64) -> Option<Vec<PhotoView>>;
    draft_attach_dropped[app](id: i64) -> Vec<PhotoView>;
    draft_detach[app](id: i64, number: u32) -> Vec<PhotoView>;
    photos_drop_watch[app](; on_drop: Channel<DropEvent>) -> ();
    clipboard_write[app](text: String) -> ();
    settings_get[app]() -> SettingsView;
    settings_set[app](key: String, value: String) -> SettingsView;
    key_status[app]() -> KeyStatusView;
    key_set[app](secret: String) -> KeyStatusView;
    key_delete[app]() -> KeyStatusView;
    connection_check[app]() -> DoctorReport;
    setup_check[app]() -> SetupCheckView;
    setup_skip[app]() -> ();
    batch_choose_file[app]() -> Option<String>;
    batch_check[app](path: String, options: Option<CheckOptions>) -> BatchPlanView;
    batch_list[app]() -> Vec<BatchListView>;
    batch_rows[app](number: u32) -> Vec<BatchRowView>;
    batch_continue[app](number: u32) -> BatchPlanView;
    batch_run[app](check_token: String, offline: bool, confirmed: bool, task_id: String; on_progress: Channel<BatchProgressView>) -> BatchSummaryView;
    batch_cancel[app](task_id: String) -> ();
    batch_export[app](number: u32, format: String, collective: bool) -> Option<BatchExportView>;
    profile_get[app]() -> Profile;
    profile_set[app](field: String as ProfileField, value: String) -> Profile;
    profile_clear[app]() -> Profile;
    stats_get[app](request: StatsRequest) -> Stats;
    window_close_watch[app](; on_close: Channel<CloseEvent>) -> ();
    window_unsaved[app](unsaved: bool) -> ();
    window_close[app, window]() -> ();
    case_get[app](id: i64) -> CaseDetail;
    case_file[app](id: i64, filing: FilingForm) -> CaseDetail;
    case_bring_in[app](text: String, filing: FilingForm) -> CaseDetail;
    case_unfile[app](id: i64) -> CaseDetail;
    case_answer[app](id: i64, answer: AnswerForm) -> CaseDetail;
    case_close[app](id: i64, close: bool) -> CaseDetail;
    case_attach_chosen[app](id: i64, role: String) -> Option<CaseDetail>;
    draft_correct[app](id: i64) -> i64;
    follow_up_write[app](id: i64, kind: String as FollowUpKind, addressee: Option<String>) -> i64;
    cases_due[app]() -> DueView;
    case_calendar[app](id: i64) -> Option<String>;
    batch_file[app](number: u32, rows: Vec<u32>, filing: FilingForm) -> BatchFilingView;
    batch_cases[app](number: u32) -> BatchCasesView;
    batch_follow_up[app](number: u32, kind: String as FollowUpKind, addressee: Option<String>, format: String as SaveFormat) -> Option<BatchFollowUpView>;
    data_backup[app]() -> Option<BackupView>;
    data_restore_choose[app]() -> Option<String>;
    data_restore[app](path: String) -> RestoredView;
    data_recover[app]() -> RestoredView;
}
