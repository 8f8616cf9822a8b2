// GENERATED from the Rust types (src-tauri/src/contract.rs, ADR 39): do not edit.
// `cargo test -p zayavka-desktop --test contract` writes it again when a type that
// crosses to the page changed, and fails until the new file is committed.

import type { Channel } from '../vendor/tauri-api/core.js';

/**
 * The answer to a filed request.
 */
export type Answer = { 
/**
 * The day the answer came.
 */
answered_on: string, 
/**
 * What it did about the problem.
 */
result: AnswerResult, };

/**
 * The answer as the page sends it.
 */
export type AnswerForm = { 
/**
 * The day it came, `ГГГГ-ММ-ДД`.
 */
answered_on: string, 
/**
 * `solved`, `partly`, `refused` or `unaddressed`; checked here, so the page may send only
 * those.
 */
result: AnswerResult, };

export type AnswerResult = "solved" | "partly" | "refused" | "unaddressed";

/**
 * Where the key in use came from.
 */
export type ApiKeySource = "environment" | "keyring";

/**
 * One HTTP attempt, for «Как получен результат».
 */
export type AttemptView = { 
/**
 * Its number.
 */
number: number, 
/**
 * The HTTP status, when an answer arrived.
 */
status: number | null, 
/**
 * What went wrong, as a stable code.
 */
error_kind: string | null, 
/**
 * Why it was retried.
 */
retry_reason: string | null, 
/**
 * How long it took.
 */
duration_ms: number, };

/**
 * HTTP attempts.
 */
export type Attempts = { 
/**
 * Every attempt made.
 */
total: number, 
/**
 * Attempts that another attempt followed.
 */
retries: number, 
/**
 * Why another attempt followed, by code (`http_503`, `timeout`, `retry_after`…).
 */
retry_causes: { [key in string]: number }, 
/**
 * How failed attempts failed, by code (`unavailable`, `rate_limited`…).
 */
errors: { [key in string]: number }, };

/**
 * Why a group needs a look.
 */
export type Attention = "many_rejected" | "many_failed";

/**
 * What a backup wrote.
 */
export type BackupView = { 
/**
 * The backup file.
 */
file: string, 
/**
 * What happened and where the file is, in Russian.
 */
message: string, };

/**
 * How a batch's filed rows stand today, and today (the filing form's default date).
 */
export type BatchCasesView = { 
/**
 * The date the app takes as today.
 */
today: string, 
/**
 * Filed.
 */
filed: number, 
/**
 * With an answer recorded.
 */
answered: number, 
/**
 * Past the deadline with no answer.
 */
overdue: number, 
/**
 * Answered as solved.
 */
solved: number, };

/**
 * What a batch export wrote.
 */
export type BatchExportView = { 
/**
 * The folder written to.
 */
folder: string, 
/**
 * How many files were written (or were already there, identical).
 */
written: number, 
/**
 * The rows without a document, with the reason in Russian.
 */
skipped: Array<SkippedRowView>, };

/**
 * What marking a batch filed did, in one sentence for the «Пакет» screen.
 */
export type BatchFilingView = { 
/**
 * Rows marked filed now.
 */
filed: number, 
/**
 * What happened to every row asked for.
 */
message: string, 
/**
 * The batch's cases afterwards.
 */
cases: CaseCounts, };

/**
 * What writing a batch's letters did.
 */
export type BatchFollowUpView = { 
/**
 * The folder the documents went to.
 */
folder: string, 
/**
 * Documents written (new letters and letters written before, saved again).
 */
written: number, 
/**
 * What happened to every filed row, in one paragraph.
 */
message: string, };

/**
 * One earlier batch, as «Пакет» lists it.
 */
export type BatchListView = { 
/**
 * Its short number: «Пакет 3».
 */
number: number, 
/**
 * The file's name as last run.
 */
file_name: string, 
/**
 * The file's path as last run, when known.
 */
source_path: string | null, 
/**
 * Whether that file is still there, so that the batch can be continued from it.
 */
file_found: boolean, 
/**
 * When it was first run, RFC 3339.
 */
created_at: string, 
/**
 * When it was last run, RFC 3339.
 */
updated_at: string, 
/**
 * The file's data rows as last run.
 */
rows: number, 
/**
 * Rows whose request is ready.
 */
ready: number, 
/**
 * Rows whose description must be changed, or whose model answer could not be used.
 */
needs_attention: number, 
/**
 * Rows that failed for a technical reason.
 */
failed: number, 
/**
 * Valid rows not drafted yet.
 */
unfinished: number, 
/**
 * Rows refused by the check.
 */
invalid: number, 
/**
 * Every valid row has an outcome and none failed.
 */
complete: boolean, };

/**
 * What a run of a batch file will do, shown before anything is sent: the engine's plan, row
 * numbers by what happens to them, and the token `batch_run` takes.
 */
export type BatchPlanView = { 
/**
 * Names this plan for `batch_run`.
 */
check_token: string, 
/**
 * The batch the run continues; `None` when it starts a new one.
 */
batch_number: number | null, 
/**
 * The file's name.
 */
file_name: string, 
/**
 * Data rows, valid or not.
 */
rows: number, 
/**
 * The plan is made without a model: none is set up (see `model_problem`).
 */
offline: boolean, 
/**
 * Why the rows cannot go to a model now, in Russian; `None` when they can.
 */
model_problem: string | null, 
/**
 * Rows the batch has not seen: they are sent.
 */
new: Array<number>, 
/**
 * Rows changed since the last run: they are sent again.
 */
changed: Array<number>, 
/**
 * Rows not finished by an earlier run: they are sent.
 */
unfinished: Array<number>, 
/**
 * Rows finished by an earlier run: not sent again.
 */
done_before: Array<number>, 
/**
 * Rows refused by the check, with why: never sent.
 */
invalid: Array<InvalidRow>, 
/**
 * Rows of the last run's file that are no longer in it (their drafts stay).
 */
no_longer_in_file: number, 
/**
 * Rows the run drafts (with the model or without).
 */
to_draft: number, 
/**
 * Of them, the rows that go to the model (0 without one).
 */
to_send: number, 
/**
 * What sending may cost at most.
 */
cost: PlanCost, };

/**
 * How far a batch run has got, for the progress bar: this run's rows.
 */
export type BatchProgressView = { 
/**
 * Rows of this run finished.
 */
done: number, 
/**
 * Rows this run will process.
 */
total: number, 
/**
 * Of the finished rows, ready.
 */
ready: number, 
/**
 * … needing the resident.
 */
needs_user: number, 
/**
 * … rejected.
 */
rejected: number, 
/**
 * … failed.
 */
failed: number, };

/**
 * One row of a batch with what became of it, and its state in Russian.
 */
export type BatchRowView = { 
/**
 * The status as a chip shows it.
 */
status_label: string, 
/**
 * The row's number as the spreadsheet shows it.
 */
row: number, 
/**
 * The row's «ФИО».
 */
full_name: string | null, 
/**
 * The row's «Квартира».
 */
apartment: string | null, 
/**
 * Where it stands.
 */
status: RowStatus, 
/**
 * The request's title, when there is a request.
 */
title: string | null, 
/**
 * The stable code of why it was refused, needs the resident, was rejected or failed.
 */
reason: string | null, 
/**
 * The same in Russian, saying what to do.
 */
reason_ru: string | null, 
/**
 * Whether the next run sends a failed row again.
 */
retryable: boolean | null, 
/**
 * Its draft, once there is one.
 */
draft_id: DraftId | null, };

/**
 * How a batch run ended.
 */
export type BatchSummaryView = { 
/**
 * The batch's number: «Пакет 3».
 */
batch_number: number, 
/**
 * HTTP requests sent by this run.
 */
sent: number, 
/**
 * Tokens over the whole batch.
 */
tokens: number, 
/**
 * Priced cost of the whole batch.
 */
cost: number | null, 
/**
 * The currency of `cost` as the batch recorded it (`RUB`, `USD`); `None` when it named
 * none.
 */
currency: string | null, 
/**
 * Why the run stopped early: `cancelled`, `provider_refused`, `cost_cap`; `None` when it
 * went through.
 */
stopped: StopReason | null, 
/**
 * Valid rows of the whole batch not drafted yet.
 */
unfinished: number, 
/**
 * Every valid row of the batch has an outcome and none failed.
 */
complete: boolean, 
/**
 * What became of every row of the file — refused before sending, drafted by this run or
 * before it, not drafted yet — and the outcomes over the batch, in Russian (issue 31).
 */
rows_ru: string, 
/**
 * Rows of this run finished.
 */
done: number, 
/**
 * Rows this run will process.
 */
total: number, 
/**
 * Of the finished rows, ready.
 */
ready: number, 
/**
 * … needing the resident.
 */
needs_user: number, 
/**
 * … rejected.
 */
rejected: number, 
/**
 * … failed.
 */
failed: number, };

/**
 * One period bucket.
 */
export type Bucket = { 
/**
 * `2026-12-01` for a day, `2026-W49` for an ISO week, `2026-12` for a month.
 */
label: string, 
/**
 * Its first day.
 */
start: string, };

/**
 * The case of a filed draft: the filing, the answer and whether it is closed.
 */
export type Case = { 
/**
 * The filed draft.
 */
draft_id: DraftId, 
/**
 * The filing's facts.
 */
filing: Filing, 
/**
 * The answer, once recorded.
 */
answer: Answer | null, 
/**
 * The day the resident closed the case.
 */
closed_on: string | null, 
/**
 * The draft this one follows, and how, when it does.
 */
follows: FollowLink | null, 
/**
 * When the filing was first recorded.
 */
created_at: string, 
/**
 * When anything about the case last changed.
 */
updated_at: string, };

/**
 * How the cases of a set of drafts stand today, for a batch's status (issue 30).
 */
export type CaseCounts = { 
/**
 * Filed.
 */
filed: number, 
/**
 * With an answer recorded.
 */
answered: number, 
/**
 * Past the deadline with no answer.
 */
overdue: number, 
/**
 * Answered as solved.
 */
solved: number, };

/**
 * Everything the «Подача и ответ» part of an opened draft shows.
 */
export type CaseDetail = { 
/**
 * The draft.
 */
draft_id: number, 
/**
 * Whether the draft can be marked filed: a ready request not filed yet.
 */
can_file: boolean, 
/**
 * The case, once filed.
 */
case: CaseView | null, 
/**
 * The facts of the case, one sentence each, in the order a resident reads them: filed
 * when, how and to whom; delivered; answered.
 */
facts: Array<string>, 
/**
 * The deadline, or why there is none and what to do about it; `None` once answered or
 * closed.
 */
deadline_line: string | null, 
/**
 * Whether a repeat request or a complaint can be written now: overdue, or answered
 * without solving the problem, and not closed.
 */
can_follow_up: boolean, 
/**
 * What this draft follows, when it is itself a later letter.
 */
follows: LinkView | null, 
/**
 * The letters written after this one, oldest first.
 */
follow_ups: Array<LinkView>, 
/**
 * Photos of the stamped copy or the postal receipt.
 */
filing_photos: Array<PhotoView>, 
/**
 * Photos or a scan of the answer.
 */
answer_photos: Array<PhotoView>, 
/**
 * The management company from the resident's profile, offered as the addressee.
 */
profile_company: string | null, 
/**
 * The filing form's values when the draft is not filed: today, and the profile's company.
 */
today: string, };

/**
 * Where a case stands today, as the list and the «Сроки» view show it.
 */
export type CaseState = { "state": "waiting", 
/**
 * The last day for the answer.
 */
due: string, 
/**
 * Days from today to it (0: today).
 */
days_left: number, } | { "state": "overdue", 
/**
 * The last day that was allowed.
 */
due: string, 
/**
 * Days since it.
 */
days_over: number, } | { "state": "awaiting_delivery" } | { "state": "no_deadline" } | { "state": "answered", 
/**
 * What it did.
 */
result: AnswerResult, 
/**
 * Whether it came by the deadline; `None` when there was none to compare with.
 */
on_time: boolean | null, } | { "state": "closed", 
/**
 * When.
 */
closed_on: string, };

/**
 * The filed requests: in all, by period of filing, by addressee.
 */
export type CaseStats = { 
/**
 * Every filed request counted.
 */
total: CaseTally, 
/**
 * By the period they were filed in, oldest first.
 */
by_period: Array<CaseTally>, 
/**
 * By addressee, by name; those with none given last.
 */
by_addressee: Array<CaseTally>, };

/**
 * The filed requests of a group (issue 30): how many, and what became of them.
 */
export type CaseTally = { 
/**
 * The period of filing, when grouped by period.
 */
period: Bucket | null, 
/**
 * The addressee as the resident wrote it, when grouped by addressee («» when not given).
 */
addressee: string | null, 
/**
 * Requests filed.
 */
filed: number, 
/**
 * Answered by the deadline.
 */
answered_on_time: number, 
/**
 * Answered after it.
 */
answered_late: number, 
/**
 * Answered when no deadline could be counted (a letter's delivery not entered, a year the
 * calendar lacks).
 */
answered_no_deadline: number, 
/**
 * Past the deadline with no answer recorded, closed or not.
 */
never_answered: number, 
/**
 * Still within the deadline, or with none counted yet.
 */
waiting: number, 
/**
 * Answered as solved.
 */
solved: number, };

/**
 * A case with its deadline and its state today.
 */
export type CaseView = { 
/**
 * The stored case.
 */
case: Case, 
/**
 * Whose answer term it is counted by.
 */
term: TermId, 
/**
 * The term as a resident reads it («10 рабочих дней со дня получения обращения»).
 */
term_ru: string, 
/**
 * The acts the term rests on, each «title, provisions».
 */
term_sources: Array<string>, 
/**
 * How far the term has been checked against the official texts.
 */
term_review: ReviewStatus, 
/**
 * The day the addressee received it, when known.
 */
received_on: string | null, 
/**
 * The deadline, or why there is none.
 */
deadline: DeadlineState, 
/**
 * Where it stands today.
 */
state: CaseState, 
/**
 * The state in plain Russian.
 */
state_ru: string, 
/**
 * When the deadline rests on data not yet checked against the official text, the notice
 * to show beside it.
 */
notice_ru: string | null, 
/**
 * When the deadline was counted through a year the data hold no calendar for yet, why the
 * date is provisional (issue 38): shown wherever the date appears.
 */
provisional_ru: string | null, };

export type Certainty = "found" | "unsure";

/**
 * What a check is about, serialised as the stable code `doctor --json` and the app's checks
 * have always carried.
 */
export type CheckName = "data_folder" | "config" | "provider" | "api_key" | "token_exchange" | "schema_mode" | "schemas" | "legal_modules_valid" | "legal_modules_review" | "deadlines";

/**
 * What the «Пакет» screen may ask of a check beyond the file (issue 31): a new batch even
 * when the file was run before («Начать новый пакет», the CLI's `--new`), and a row limit
 * above the usual 5,000 when the resident confirmed a large file is the right one (the CLI's
 * `--max-rows`).
 */
export type CheckOptions = { 
/**
 * Start a new batch.
 */
new_batch: boolean, 
/**
 * Refuse a file with more rows than this; the usual limit when `None`.
 */
max_rows: number | null, };

/**
 * How a check came out.
 */
export type CheckStatus = "ok" | "warning" | "problem";

/**
 * One connection check, in the words of the settings screen.
 */
export type CheckView = { 
/**
 * The engine's stable name.
 */
id: CheckName, 
/**
 * `ok`, `warning` or `problem`.
 */
status: CheckStatus, 
/**
 * What was checked, in Russian.
 */
title: string, 
/**
 * What was found.
 */
message: string, 
/**
 * The most useful next step.
 */
next_step: NextStep | null, };

/**
 * A request to close the window, as the page hears of it.
 */
export type CloseEvent = { "kind": "requested" };

/**
 * The signatures table of a collective request: its heading, the sentence above it, the
 * column headings and the number of empty rows, as in the saved document.
 */
export type CoSignersView = { 
/**
 * «Подписи жителей».
 */
heading: string, 
/**
 * «Заявку поддерживают жители дома:».
 */
sentence: string, 
/**
 * «№», «ФИО», «Квартира», «Подпись».
 */
columns: [string, string, string, string], 
/**
 * How many empty rows to sign on.
 */
rows: number, };

/**
 * A failed command.
 */
export type CommandError = { 
/**
 * What kind of failure.
 */
kind: ErrorKind, 
/**
 * What happened and what to do, in Russian, for the resident.
 */
message: string, };

/**
 * A deadline and where it came from.
 */
export type Deadline = { 
/**
 * The term it was counted by.
 */
term: TermId, 
/**
 * The day the addressee received the request; the count starts the day after.
 */
received: string, 
/**
 * The last day for the answer.
 */
due: string, 
/**
 * The calendar years the count consulted, in order.
 */
calendar_years: Array<number>, 
/**
 * Whether the term and every consulted calendar year are verified against the official
 * texts; when not, the deadline is shown with a notice.
 */
verified: boolean, 
/**
 * The consulted years the data hold no calendar for yet, counted by the provisional
 * calendar of the Labour Code alone ([`provisional_days_off`], issue 38): the deadline is
 * then provisional, and said so wherever it appears.
 */
provisional_years: Array<number>, };

/**
 * The deadline of a case, or why there is none.
 */
export type DeadlineState = { "state": "known" } & Deadline | { "state": "awaiting_delivery" } | { "state": "unknown", 
/**
 * Why, in Russian.
 */
reason: string, 
/**
 * The year missing.
 */
year: number, };

/**
 * All connection checks.
 */
export type DoctorReport = { 
/**
 * In the order they ran.
 */
checks: Array<CheckView>, };

/**
 * One line of a document's header as printed: its label and the value or the marked blank.
 */
export type DocumentLine = { 
/**
 * «Кому», «Адрес», «От», …
 */
label: string, 
/**
 * The profile's value, or the blank to fill in by hand.
 */
value: string, 
/**
 * Whether the value is a blank.
 */
blank: boolean, };

/**
 * A filed document as «Печать» lays it out: the same parts, in the same order and with the
 * same text, as the saved PDF.
 */
export type DocumentView = { 
/**
 * To whom.
 */
recipient: Array<DocumentLine>, 
/**
 * From whom.
 */
sender: Array<DocumentLine>, 
/**
 * The request's title.
 */
title: string, 
/**
 * The body's paragraphs, split at blank lines; line breaks inside a paragraph are kept.
 */
paragraphs: Array<string>, 
/**
 * The «Приложения» list: its heading, then one line per attached photo; empty without
 * photos. (The photos themselves are on the saved PDF's last pages.)
 */
appendix: Array<string>, 
/**
 * The table for neighbours' signatures of a collective request, printed after the text.
 */
co_signers: CoSignersView | null, 
/**
 * The date as printed («1 декабря 2026 г.»).
 */
date: string, 
/**
 * The signature line.
 */
signature: string, };

/**
 * A stored draft in full.
 */
export type DraftDetail = { 
/**
 * As lists show it.
 */
summary: DraftListItem, 
/**
 * As it stands now.
 */
result: DraftResult, 
/**
 * The resident's versions, oldest first.
 */
versions: Array<VersionView>, 
/**
 * How it was reached; null when no model was used.
 */
explain: Explain | null, };

export type DraftField = "title" | "problem" | "circumstances" | "impact" | "verification";

/**
 * The id of a stored draft: a positive integer, never reused after a deletion. Only a positive
 * number can become one — through [`DraftId::new`], parsing, serde or a database column — so
 * an id in hand is one the store could have given.
 */
export type DraftId = number;

/**
 * One stored draft as front ends list it.
 */
export type DraftListItem = { 
/**
 * The id.
 */
id: number, 
/**
 * When it was created, RFC 3339.
 */
created_at: string, 
/**
 * `pending`, `ready`, `needs_user`, `rejected`, `failed` or `invalid_input`.
 */
outcome: DraftOutcome, 
/**
 * The reason code.
 */
reason: string | null, 
/**
 * The request's title, when one was assembled.
 */
title: string | null, 
/**
 * The first words of the resident's description as one line of at most
 * [`zayavka_core::PREVIEW_MAX`] characters, cut at a word boundary with «…» (issue 14):
 * shown under every title so that drafts can be told apart. Always the resident's words,
 * never the model's; `None` when the input has no description.
 */
preview: string | null, 
/**
 * The subject whose legal paragraph the request includes.
 */
subject_module: string | null, 
/**
 * The batch the draft belongs to.
 */
batch_id: string | null, 
/**
 * The batch row, as a spreadsheet numbers it.
 */
batch_row: number | null, 
/**
 * The resident's input as typed.
 */
input: JsonValue, };

export type DraftOutcome = "pending" | "ready" | "needs_user" | "rejected" | "failed" | "invalid_input";

/**
 * What the page hears while a model call is under way.
 */
export type DraftProgress = { 
/**
 * The attempt under way, or the one that follows the wait.
 */
attempt: number, 
/**
 * Since the draft started.
 */
elapsed_ms: number, 
/**
 * Where the call stands.
 */
state: ProgressState, 
/**
 * The pause before the next attempt, while `waiting_retry`.
 */
wait_ms: number | null, 
/**
 * The step in one Russian sentence, the same the command-line tool shows, such as
 * «Сервис модели занят (HTTP 503), пробуем ещё раз через 2 с…».
 */
message: string, };

/**
 * How a draft came out, for the result card or panel.
 */
export type DraftResult = { 
/**
 * The stored draft; null when the drafts database could not be used.
 */
draft_id: number | null, 
/**
 * `ready`, `needs_user`, `rejected`, `failed`, `invalid_input`, or `pending` for a stored
 * draft whose run was interrupted.
 */
outcome: DraftOutcome, 
/**
 * The engine's reason code.
 */
reason: string | null, 
/**
 * What happened and what to do next, in Russian.
 */
message: string, 
/**
 * What the resident can do next.
 */
next_steps: Array<NextStep>, 
/**
 * The request, when the outcome is ready.
 */
request: RequestView | null, 
/**
 * Refused input, field by field.
 */
errors: Array<FieldError>, 
/**
 * What to change, for `needs_user`.
 */
hints: Array<string>, 
/**
 * Whether trying again may help.
 */
retryable: boolean, 
/**
 * HTTP attempts made.
 */
attempts: number, 
/**
 * Whether a model wrote the description.
 */
model_used: boolean, 
/**
 * For a technical failure: what the page shows under «Подробности». Absent otherwise.
 */
details?: FailureDetails, };

/**
 * Files dragged over or dropped on the window, as the page hears of them: never their paths.
 */
export type DropEvent = { "kind": "over" } | { "kind": "left" } | { "kind": "dropped", 
/**
 * How many.
 */
files: number, };

/**
 * One filed request as «Сроки» lists it.
 */
export type DueItem = { 
/**
 * The draft.
 */
draft_id: number, 
/**
 * Its title as filed, when it has one.
 */
title: string | null, 
/**
 * Where it stands, as [`CaseState`] serialises it (`state` names which).
 */
state: CaseState, 
/**
 * The same in plain Russian.
 */
state_ru: string, 
/**
 * Overdue, or due within a few days.
 */
needs_attention: boolean, 
/**
 * «подана 3 декабря 2026 г., вх. № 15».
 */
filed_ru: string, 
/**
 * What kind of letter it is, when it follows another.
 */
follows: LinkView | null, };

/**
 * «Сроки»: every filed request, the overdue first, then the nearest deadlines.
 */
export type DueView = { 
/**
 * Today, `ГГГГ-ММ-ДД` (the app's today, `ZAYAVKA_TODAY`): the latest day a form may take.
 */
today: string, 
/**
 * «4 декабря 2026 г.».
 */
today_ru: string, 
/**
 * How many are overdue.
 */
overdue: number, 
/**
 * How many are due within a few days (not overdue).
 */
due_soon: number, 
/**
 * Every filed request.
 */
cases: Array<DueItem>, 
/**
 * When any deadline rests on data not yet checked against the official texts.
 */
notice: string | null, };

/**
 * The resident's own text of a request.
 */
export type Edited = { 
/**
 * The title.
 */
title: string, 
/**
 * The body.
 */
body: string, 
/**
 * Whether it is a request filed before Zayavka, its text as it was filed (issue 38),
 * rather than an edit.
 */
brought_in: boolean, };

/**
 * The provider in use.
 */
export type EffectiveView = { 
/**
 * The profile.
 */
profile: string, 
/**
 * The server.
 */
base_url: string, 
/**
 * The model.
 */
model: string, 
/**
 * `json_schema`, `json_object` or `function_call`.
 */
schema_mode: SchemaMode, 
/**
 * Per attempt.
 */
timeout_secs: number, 
/**
 * Attempts per call.
 */
attempts: number, };

/**
 * The stable kinds of failure.
 */
export type ErrorKind = "store" | "not_found" | "damaged" | "not_reassemblable" | "invalid_argument" | "invalid_setting" | "config" | "key" | "form" | "batch_file" | "batch_not_checked" | "batch_not_confirmed" | "batch_file_missing" | "batch_too_large" | "batch" | "write" | "read" | "files_exist" | "system" | "empty_edit" | "photo" | "internal";

/**
 * How a result was reached.
 */
export type Explain = { 
/**
 * The model.
 */
model: string | null, 
/**
 * The provider's host.
 */
provider_host: string | null, 
/**
 * When the first attempt started, RFC 3339.
 */
started_at: string | null, 
/**
 * From the first attempt's start to the last one's end.
 */
duration_ms: number | null, 
/**
 * Every attempt.
 */
attempts: Array<AttemptView>, 
/**
 * Every message sent, re-asks included.
 */
messages: Array<MessageView>, 
/**
 * The legal decision, one Russian sentence.
 */
legal_decision: string, };

/**
 * The technical side of a failure, for «Подробности»: the engine's detail in Russian and the
 * server's own reason, redacted and bounded by the engine (ADR 24).
 */
export type FailureDetails = { 
/**
 * What failed, in Russian, such as «сервер модели не принял ключ доступа (HTTP 401)»;
 * null when there is nothing to add to the message.
 */
detail: string | null, 
/**
 * What the server answered, such as «Payment Required»; null when no server answered.
 */
server_reason: string | null, };

/**
 * What the faithfulness checks found in the stored requests.
 */
export type Faithfulness = { 
/**
 * Drafts with at least one certain finding.
 */
drafts_with_found: number, 
/**
 * Drafts with findings the checks could not decide, and no certain one.
 */
drafts_unsure_only: number, 
/**
 * Certain findings over all drafts.
 */
found: number, 
/**
 * Undecided findings over all drafts.
 */
unsure: number, 
/**
 * Findings by kind (`new_cause`, `new_number`, `negation_flipped`…).
 */
by_kind: { [key in string]: KindCount }, };

/**
 * One thing a draft's sentence says that the resident's text does not, or that a check could
 * not decide.
 */
export type FaithfulnessFinding = { kind: FaithfulnessKind, certainty: Certainty, field: DraftField, sentence_index: number, sentence: string, words: Array<string>, spans: Array<WordSpan>, message: string, };

export type FaithfulnessKind = "new_number" | "new_cause" | "new_material" | "new_contractor" | "new_repair_method" | "new_group" | "negation_flipped" | "new_word";

/**
 * One field error of refused input.
 */
export type FieldError = { 
/**
 * The form field.
 */
field: string, 
/**
 * The core's stable code.
 */
code: InputErrorCode, 
/**
 * The Russian message.
 */
message: string, 
/**
 * The field's label on the form («Описание проблемы»), for a field of the resident's input
 * that was refused; null for any other error.
 */
label: string | null, };

/**
 * The facts of a filing, as the resident gives them.
 */
export type Filing = { 
/**
 * The day the request was filed.
 */
filed_on: string, 
/**
 * How.
 */
method: FilingMethod, 
/**
 * The incoming number the addressee gave, as written.
 */
number: string | null, 
/**
 * To whom, as the resident writes it.
 */
addressee: string | null, 
/**
 * For a letter, the day it was delivered.
 */
delivered_on: string | null, };

/**
 * The filing form as the page sends it: dates as `ГГГГ-ММ-ДД`, the method's code, and the
 * optional texts (blank is none).
 */
export type FilingForm = { 
/**
 * The day it was filed.
 */
filed_on: string, 
/**
 * `in_person`, `letter`, `email`, `gis`, `site` or `other`; checked here, so the page may
 * send only those.
 */
method: FilingMethod, 
/**
 * The incoming number.
 */
number: string | null, 
/**
 * To whom.
 */
addressee: string | null, 
/**
 * For a letter, the day it was delivered.
 */
delivered_on: string | null, };

export type FilingMethod = "in_person" | "letter" | "email" | "gis" | "site" | "other";

export type FollowKind = "correction" | "repeat" | "complaint";

/**
 * A draft written after another.
 */
export type FollowLink = { 
/**
 * The earlier draft; `None` when it was deleted.
 */
draft_id: DraftId | null, 
/**
 * How this one follows it.
 */
kind: FollowKind, };

export type FollowUpKind = "repeat" | "complaint";

/**
 * The statistics of one group of drafts.
 */
export type GroupStats = { 
/**
 * The period bucket; `None` for the whole period.
 */
period: Bucket | null, 
/**
 * The profile of the drafts' latest model run; `None` for drafts with no recorded run.
 */
profile: string | null, 
/**
 * How many drafts.
 */
drafts: number, 
/**
 * By outcome.
 */
outcomes: Outcomes, 
/**
 * Ready drafts written without a model.
 */
ready_without_model: number, 
/**
 * Drafts that went to a model: ready with a model, needs_user, rejected and failed.
 */
sent_to_model: number, 
/**
 * The share of `sent_to_model` that was rejected, from 0 to 1; `None` when none was sent.
 */
rejected_share: number | null, 
/**
 * The share of `sent_to_model` that failed, from 0 to 1; `None` when none was sent.
 */
failed_share: number | null, 
/**
 * What needs a look; empty when nothing does.
 */
attention: Array<Attention>, 
/**
 * The reason codes of the outcomes.
 */
reasons: Reasons, 
/**
 * Why the legal paragraph was left out, over ready drafts.
 */
legal_omissions: { [key in string]: number }, 
/**
 * Re-asks.
 */
reasks: Reasks, 
/**
 * HTTP attempts.
 */
attempts: Attempts, 
/**
 * Faithfulness findings.
 */
faithfulness: Faithfulness, 
/**
 * Waiting time; `None` when no attempt was recorded.
 */
latency: Latency | null, 
/**
 * Tokens.
 */
tokens: Tokens, 
/**
 * Money spent, one entry per currency; empty when no attempt was priced.
 */
cost: Array<Money>, };

export type InputErrorCode = "not_json" | "not_an_object" | "unknown_field" | "wrong_type" | "duplicate_field" | "missing" | "blank" | "too_short" | "too_long" | "control_character" | "bidi_control" | "no_words" | "too_long_for_request" | "unknown_subject";

/**
 * A row that failed its checks, in the shape front ends print as JSON:
 * `{"row": 3, "errors": [{"field", "code", "message"}]}`.
 */
export type InvalidRow = { 
/**
 * The row's number as a spreadsheet shows it (or the JSONL line number).
 */
row: number, 
/**
 * What is wrong, in field order.
 */
errors: Array<RowError>, };

export type ItemSource = "resident_request" | "generic" | "inspection";

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

/**
 * The key, never the key itself.
 */
export type KeyStatusView = { 
/**
 * The profile the key belongs to.
 */
profile: string | null, 
/**
 * Whether a key is usable.
 */
stored: boolean, 
/**
 * `keyring` or `environment`.
 */
source: ApiKeySource | null, 
/**
 * Whether the keyring answers.
 */
keyring_available: boolean, 
/**
 * For a profile that does not require a key (a local or custom server), what happens to
 * one: sent when stored or given, and only then (issue 14), in the engine's words. Absent
 * when the profile requires a key.
 */
optional_note?: string, };

/**
 * Findings of one faithfulness kind.
 */
export type KindCount = { 
/**
 * Certain findings.
 */
found: number, 
/**
 * Findings the checks could not decide.
 */
unsure: number, };

/**
 * How long residents waited for the service.
 */
export type Latency = { 
/**
 * Drafts with a recorded attempt, over which the rest is computed.
 */
drafts: number, 
/**
 * The median, in milliseconds.
 */
median_ms: number, 
/**
 * The 90th percentile (nearest rank), in milliseconds.
 */
p90_ms: number, 
/**
 * The longest, in milliseconds.
 */
max_ms: number, };

/**
 * Another draft a case links to: the one this draft follows, or one written after it.
 */
export type LinkView = { 
/**
 * The draft; `None` when it was deleted.
 */
draft_id: number | null, 
/**
 * `correction`, `repeat` or `complaint`.
 */
kind: FollowKind, 
/**
 * «Исправленный черновик», «Повторная заявка», «Жалоба в жилищную инспекцию».
 */
label: string, };

/**
 * The filter of `drafts_list`.
 */
export type ListFilter = { 
/**
 * An outcome code; checked here, so the page may send only those.
 */
outcome: DraftOutcome | null, 
/**
 * A subject kind; checked here, so the page may send only those.
 */
subject: SubjectKind | null, 
/**
 * A batch id.
 */
batch_id: string | null, 
/**
 * At most this many.
 */
limit: number | null, };

/**
 * One message sent to the model.
 */
export type MessageView = { 
/**
 * `system`, `user` or `assistant`.
 */
role: string, 
/**
 * Exactly what was sent.
 */
content: string, };

/**
 * An amount of money.
 */
export type Money = { 
/**
 * The amount, rounded to 1/10,000 of the currency.
 */
amount: number, 
/**
 * The currency (`RUB`, `USD`); `None` when the profile's prices name none, or the profile
 * is no longer configured.
 */
currency: string | null, };

export type NextStep = "fix_input" | "describe_one_problem" | "add_details" | "shorten_text" | "retry" | "retry_later" | "draft_without_model" | "configure_provider" | "store_api_key" | "check_provider_settings" | "switch_schema_mode" | "check_provider_account" | "confirm_subject";

export type NoteKind = "relative_date" | "no_place";

export type OmissionReason = "not_confirmed" | "no_model_subject" | "subject_mismatch" | "evidence_not_verbatim";

/**
 * Drafts by outcome.
 */
export type Outcomes = { 
/**
 * Not finished: under way, or interrupted.
 */
pending: number, 
/**
 * A request was assembled (with a model or without one).
 */
ready: number, 
/**
 * The resident was asked to change the text.
 */
needs_user: number, 
/**
 * The model's answer could not be used.
 */
rejected: number, 
/**
 * A technical failure.
 */
failed: number, 
/**
 * The input was refused before any call.
 */
invalid_input: number, };

export type Period = "day" | "week" | "month" | "all";

/**
 * The formats a photo may have, told by its first bytes, never by the file's name.
 */
export type PhotoFormat = "jpeg" | "png";

/**
 * A photo of a draft as the page lists it: the engine's summary, and the photo's short name.
 */
export type PhotoView = { 
/**
 * How the document names the photo in short, the start of its label: «Фото 1».
 */
name: string, 
/**
 * Its number in the draft's list and in the document («Приложение N»), from 1.
 */
number: number, 
/**
 * JPEG or PNG.
 */
format: PhotoFormat, 
/**
 * The width in pixels, upright.
 */
width: number, 
/**
 * The height in pixels, upright.
 */
height: number, 
/**
 * The size of the stored (cleaned) copy in bytes.
 */
byte_size: number, 
/**
 * The SHA-256 of the stored copy, as the audit log keeps it.
 */
sha256: string, 
/**
 * How the document names it: «Фото 1 (JPEG, 1,2 МБ)».
 */
label: string, };

/**
 * What sending the rows may cost.
 */
export type PlanCost = { "kind": "nothing" } | { "kind": "unknown" } | { "kind": "at_most", 
/**
 * The amount.
 */
amount: number, 
/**
 * The profile's currency, when it names one.
 */
currency: string | null, };

/**
 * A provider preset, with one line about privacy and cost, in the engine's order and words.
 */
export type PresetView = { 
/**
 * The profile name.
 */
name: string, 
/**
 * The product's name.
 */
label: string, 
/**
 * The default server.
 */
base_url: string, 
/**
 * The default model.
 */
model: string, 
/**
 * Whether a key is needed.
 */
needs_api_key: boolean, 
/**
 * Whether the model runs on this computer.
 */
local: boolean, 
/**
 * Where the description goes.
 */
privacy_note: string, 
/**
 * What it costs.
 */
cost_note: string, };

/**
 * The resident's profile: seven one-line values, a missing field `None`.
 *
 * A value type: it prints what it holds. The engine checks every value a resident types
 * (`zayavka_engine::profile::check_value`: one line, no invisible characters, within the
 * field's limit) before it builds a profile from it.
 */
export type Profile = { full_name: string | null, address: string | null, apartment: string | null, phone: string | null, email: string | null, company_name: string | null, company_address: string | null, };

export type ProfileField = "full_name" | "address" | "apartment" | "phone" | "email" | "company_name" | "company_address";

/**
 * Where a model call stands, as [`DraftProgress`] says.
 */
export type ProgressState = "sending" | "waiting_retry" | "reasking";

export type Provenance = "resident" | "model" | "legal_catalogue" | "recorded_facts";

/**
 * The input exactly as the resident gave it: any text, any length, kept for the record so that
 * nothing typed is lost even when it is refused.
 */
export type RawInput = { 
/**
 * What happened.
 */
description: string | null, 
/**
 * Where.
 */
location: string | null, 
/**
 * What it leads to.
 */
consequences: string | null, 
/**
 * What the resident asks for.
 */
desired_actions: string | null, 
/**
 * The subject the resident confirmed, as a machine name.
 */
confirmed_subject: string | null, };

/**
 * Re-asks after an unusable answer.
 */
export type Reasks = { 
/**
 * How many, over all drafts.
 */
total: number, 
/**
 * How many drafts had at least one.
 */
drafts: number, };

/**
 * The reasons of the outcomes that have one.
 */
export type Reasons = { 
/**
 * Of needs_user drafts.
 */
needs_user: { [key in string]: number }, 
/**
 * Of rejected drafts.
 */
rejected: { [key in string]: number }, 
/**
 * Of failed drafts.
 */
failed: { [key in string]: number }, };

/**
 * The single requested item of a request.
 */
export type RequestItem = { text: string, source: ItemSource, };

/**
 * A request as the page renders it: the engine's request with the resident's latest edit.
 */
export type RequestView = { 
/**
 * The resident's latest edit, if any.
 */
edited: Edited | null, 
/**
 * The legal paragraph's status in one Russian sentence, the same «Как получен результат»
 * and the command-line tool give ([`Request::legal_status_ru`]).
 */
legal_status: string, 
/**
 * The program's own notes on the resident's text (issue 36): `{kind, words, message}`,
 * `kind` `relative_date` or `no_place`; shown apart from the model's warnings, never
 * blocking.
 */
notes: Array<ResidentNote>, title: string, 
/**
 * Always written; absent from requests stored before titles had a source (issue 14).
 */
title_source: TitleSource, body: string, items: Array<string>, subject_module: SubjectKind | null, legal_omission: OmissionReason | null, warnings: Array<string>, sections: Array<Section>, item: RequestItem, 
/**
 * Always written; absent from requests stored before the checks ran on every draft
 * (issue 17), which read as having none.
 */
faithfulness: Array<FaithfulnessFinding>, };

/**
 * One note of the program's on the resident's text.
 */
export type ResidentNote = { kind: NoteKind, words: Array<string>, message: string, };

/**
 * What a restore or a recovery put in place.
 */
export type RestoredView = { 
/**
 * The drafts in the database now in place.
 */
drafts: number, 
/**
 * Where the database that was in place is kept, under its new name; `None` when there was
 * none.
 */
set_aside: string | null, 
/**
 * For a recovery: the new database the readable drafts were first copied into, which
 * stays where it is as one more copy.
 */
recovered: string | null, 
/**
 * For a recovery: whether damaged places were met, so that some records may be missing.
 */
damage_found: boolean, 
/**
 * What happened and where the files are, in Russian.
 */
message: string, };

export type ReviewStatus = "verified" | "partially_verified" | "awaiting_verification";

/**
 * One problem with one row.
 */
export type RowError = { 
/**
 * The input field's JSON name (empty for the row as a whole).
 */
field: string, 
/**
 * The stable code of the problem, as for a single input.
 */
code: InputErrorCode, 
/**
 * The Russian message that says how to fix it.
 */
message: string, };

/**
 * Where a row of a batch stands, as `batch status` lists it and the app's table shows it.
 */
export type RowStatus = "invalid" | "waiting" | "ready" | "needs_user" | "rejected" | "failed";

/**
 * The document formats of «Сохранить как…».
 */
export type SaveFormat = "pdf" | "docx" | "txt";

export type SchemaMode = "json_schema" | "json_object" | "function_call";

/**
 * One paragraph of the body before the request block, with where it came from.
 */
export type Section = { kind: SectionKind, source: Provenance, 
/**
 * The legal module's id (`common` or a subject kind) for a legal paragraph.
 */
module: string | null, text: string, };

export type SectionKind = "problem" | "circumstances" | "impact" | "verification" | "legal";

/**
 * The service settings of the chosen profile as written in the file.
 */
export type ServiceFieldsView = { 
/**
 * The kind of the chosen profile (`gigachat`, `yandex`, …), when known.
 */
kind: string | null, 
/**
 * The Yandex Cloud folder (yandex).
 */
folder_id: string | null, 
/**
 * Whose GigaChat access the key opens (gigachat).
 */
scope: string | null, 
/**
 * `chat_completions` or `responses` (yandex, openai, custom).
 */
protocol: string | null, };

/**
 * Everything the settings screen shows.
 */
export type SettingsView = { 
/**
 * The chosen profile.
 */
active_profile: string | null, 
/**
 * Every preset.
 */
presets: Array<PresetView>, 
/**
 * The provider in use, when it is complete.
 */
effective: EffectiveView | null, 
/**
 * Why the chosen provider is not complete.
 */
problem: string | null, 
/**
 * The key.
 */
key: KeyStatusView, 
/**
 * The service settings written in the chosen profile (issue 15), `null` where the file
 * leaves the preset's default: the page shows the default and sends only what changed.
 */
service: ServiceFieldsView, 
/**
 * Whether the page opens on the first-run setup (issue 15): no service chosen, none given
 * by a `ZAYAVKA_*` variable, and «Пока без модели» not chosen before
 * ([`crate::setup::first_run`]).
 */
first_run: boolean, };

/**
 * What «Проверить подключение» on the setup screen receives.
 */
export type SetupCheckView = { 
/**
 * Whether drafting with the model will work: the service answered, the key (when one is
 * needed) was accepted, and no check found a problem.
 */
ready: boolean, 
/**
 * The provider's checks in the order they ran, each with its Russian message.
 */
checks: Array<CheckView>, };

/**
 * A batch row that has no document.
 */
export type SkippedRowView = { 
/**
 * The row's number as the spreadsheet shows it.
 */
row: number, 
/**
 * Why, in Russian.
 */
reason: string, };

/**
 * Statistics over the stored drafts.
 */
export type Stats = { 
/**
 * The first day counted, as asked.
 */
since: string | null, 
/**
 * The last day counted, as asked.
 */
until: string | null, 
/**
 * The profile asked for.
 */
profile: string | null, 
/**
 * How the groups are cut in time.
 */
period: Period, 
/**
 * Every draft counted, in one group.
 */
total: GroupStats, 
/**
 * By period bucket (oldest first), then by profile (by name, drafts with no run last).
 */
groups: Array<GroupStats>, 
/**
 * The filed requests, by the day they were filed (the period filter applies to that day;
 * a case has no profile, so the profile filter does not apply).
 */
cases: CaseStats, };

/**
 * What the panel asks for.
 */
export type StatsRequest = { 
/**
 * Only the drafts of the last this many days, today included; all drafts when `None`.
 */
days: number | null, };

/**
 * Why a run stopped before every row was done.
 */
export type StopReason = "cost_cap" | "cancelled" | "provider_refused";

export type SubjectKind = "common_area_entrance_door" | "common_area_premises_lighting" | "common_area_premises_cleaning" | "common_area_roof" | "common_area_ventilation" | "common_area_elevator";

export type TermId = "management_company" | "inspectorate";

export type TitleSource = "resident" | "model" | "standard" | "recorded_facts";

/**
 * Tokens over all attempts.
 */
export type Tokens = { 
/**
 * Input tokens.
 */
prompt: number, 
/**
 * Output tokens.
 */
completion: number, 
/**
 * All tokens, as the services reported them.
 */
total: number, };

/**
 * One version of the request text.
 */
export type VersionView = { 
/**
 * From 1.
 */
version: number, 
/**
 * Who wrote it: `resident` (an edit) or `brought_in` (a request's text as it was filed
 * before Zayavka, issue 38); the model's and the program's text are the draft's result,
 * not versions.
 */
author: "resident" | "brought_in", 
/**
 * The title.
 */
title: string, 
/**
 * The body.
 */
body: string, 
/**
 * RFC 3339.
 */
created_at: string, };

/**
 * Where a word a finding concerns is in its field's text, counted in characters from 0, end
 * exclusive. Presentation (the first letter upper-cased, a final period) keeps these offsets.
 */
export type WordSpan = { 
/**
 * The first character.
 */
start: number, 
/**
 * One past the last character.
 */
end: number, };

/** Every command the page may call: what it sends (`args`) and what it gets back (`answer`). */
export interface Commands {
  draft_run: { args: { input: RawInput; taskId: string; onProgress: Channel<DraftProgress> }; answer: DraftResult };
  draft_cancel: { args: { taskId: string }; answer: null };
  draft_offline: { args: { input: RawInput }; answer: DraftResult };
  draft_reassemble: { args: { draftId: number; subject: SubjectKind }; answer: DraftResult };
  input_autosave: { args: { input: RawInput }; answer: null };
  input_restore: { args: {}; answer: RawInput | null };
  drafts_list: { args: { filter: ListFilter }; answer: Array<DraftListItem> };
  drafts_search: { args: { text: string }; answer: Array<DraftListItem> };
  draft_open: { args: { id: number }; answer: DraftDetail };
  draft_edit: { args: { id: number; title: string; body: string }; answer: DraftDetail };
  draft_delete: { args: { id: number }; answer: null };
  draft_save_as: { args: { id: number; format: SaveFormat; collective: boolean }; answer: string | null };
  draft_document: { args: { id: number; collective: boolean }; answer: DocumentView };
  print_page: { args: {}; answer: null };
  draft_photos: { args: { id: number }; answer: Array<PhotoView> };
  draft_attach_chosen: { args: { id: number }; answer: Array<PhotoView> | null };
  draft_attach_dropped: { args: { id: number }; answer: Array<PhotoView> };
  draft_detach: { args: { id: number; number: number }; answer: Array<PhotoView> };
  photos_drop_watch: { args: { onDrop: Channel<DropEvent> }; answer: null };
  clipboard_write: { args: { text: string }; answer: null };
  settings_get: { args: {}; answer: SettingsView };
  settings_set: { args: { key: string; value: string }; answer: SettingsView };
  key_status: { args: {}; answer: KeyStatusView };
  key_set: { args: { secret: string }; answer: KeyStatusView };
  key_delete: { args: {}; answer: KeyStatusView };
  connection_check: { args: {}; answer: DoctorReport };
  setup_check: { args: {}; answer: SetupCheckView };
  setup_skip: { args: {}; answer: null };
  batch_choose_file: { args: {}; answer: string | null };
  batch_check: { args: { path: string; options: CheckOptions | null }; answer: BatchPlanView };
  batch_list: { args: {}; answer: Array<BatchListView> };
  batch_rows: { args: { number: number }; answer: Array<BatchRowView> };
  batch_continue: { args: { number: number }; answer: BatchPlanView };
  batch_run: { args: { checkToken: string; offline: boolean; confirmed: boolean; taskId: string; onProgress: Channel<BatchProgressView> }; answer: BatchSummaryView };
  batch_cancel: { args: { taskId: string }; answer: null };
  batch_export: { args: { number: number; format: string; collective: boolean }; answer: BatchExportView | null };
  profile_get: { args: {}; answer: Profile };
  profile_set: { args: { field: ProfileField; value: string }; answer: Profile };
  profile_clear: { args: {}; answer: Profile };
  stats_get: { args: { request: StatsRequest }; answer: Stats };
  window_close_watch: { args: { onClose: Channel<CloseEvent> }; answer: null };
  window_unsaved: { args: { unsaved: boolean }; answer: null };
  window_close: { args: {}; answer: null };
  case_get: { args: { id: number }; answer: CaseDetail };
  case_file: { args: { id: number; filing: FilingForm }; answer: CaseDetail };
  case_bring_in: { args: { text: string; filing: FilingForm }; answer: CaseDetail };
  case_unfile: { args: { id: number }; answer: CaseDetail };
  case_answer: { args: { id: number; answer: AnswerForm }; answer: CaseDetail };
  case_close: { args: { id: number; close: boolean }; answer: CaseDetail };
  case_attach_chosen: { args: { id: number; role: string }; answer: CaseDetail | null };
  draft_correct: { args: { id: number }; answer: number };
  follow_up_write: { args: { id: number; kind: FollowUpKind; addressee: string | null }; answer: number };
  cases_due: { args: {}; answer: DueView };
  case_calendar: { args: { id: number }; answer: string | null };
  batch_file: { args: { number: number; rows: Array<number>; filing: FilingForm }; answer: BatchFilingView };
  batch_cases: { args: { number: number }; answer: BatchCasesView };
  batch_follow_up: { args: { number: number; kind: FollowUpKind; addressee: string | null; format: SaveFormat }; answer: BatchFollowUpView | null };
  data_backup: { args: {}; answer: BackupView | null };
  data_restore_choose: { args: {}; answer: string | null };
  data_restore: { args: { path: string }; answer: RestoredView };
  data_recover: { args: {}; answer: RestoredView };
}

/** A command's name. */
export type CommandName = keyof Commands;
