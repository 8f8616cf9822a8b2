// What the page reads from `window` besides the DOM: Tauri's own internals, present only inside
// the app (ipc.js checks for them), and the browser tests' fake backend, which stands in for
// them (fake-tauri.js).
interface Window {
  __TAURI_INTERNALS__?: unknown;
  /** What a test asks of the fake backend: set by the harness (`openPage`'s `fake`) before the
   * page loads; absent when a test asks for nothing. */
  __FAKE_CONFIG__?: FakeTauri.Config;
  /** The fake backend as tests steer and read it (`page.evaluate`). */
  __fake?: FakeTauri.Backend;
  /** The Content-Security-Policy violations the page caused; every test fails if any appear. */
  __cspViolations?: FakeTauri.CspViolation[];
}

// The browser tests' fake backend (fake-tauri.js), in a namespace of its own so that none of
// these names reaches the page's global scope. Contract data is typed by the declarations
// generated from the Rust types, so that a test cannot hand the page a shape Rust never sends.
declare namespace FakeTauri {
  type Channel<T> = import('../../ui/vendor/tauri-api/core.js').Channel<T>;
  type CloseEvent = import('../../ui/js/ipc-contract.js').CloseEvent;
  type CommandName = import('../../ui/js/ipc-contract.js').CommandName;
  type DraftDetail = import('../../ui/js/ipc-contract.js').DraftDetail;
  type DraftListItem = import('../../ui/js/ipc-contract.js').DraftListItem;
  type DropEvent = import('../../ui/js/ipc-contract.js').DropEvent;
  type FilingForm = import('../../ui/js/ipc-contract.js').FilingForm;
  type FilingMethod = import('../../ui/js/ipc-contract.js').FilingMethod;
  type GroupStats = import('../../ui/js/ipc-contract.js').GroupStats;
  type RawInput = import('../../ui/js/ipc-contract.js').RawInput;
  type Stats = import('../../ui/js/ipc-contract.js').Stats;

  /**
   * What the next `draft_run` gives: `auto` (ready; an unconfirmed subject asks to confirm it),
   * `unfaithful` (ready, with faithfulness findings), one of the other outcomes, `slow` (waits
   * for `draft_cancel`) or `busy` (a 503, then waits for `draft_cancel`).
   */
  type Scenario =
    | 'auto'
    | 'unfaithful'
    | 'slow'
    | 'busy'
    | 'needs_user'
    | 'rejected'
    | 'failed'
    | 'failed_no_key'
    | 'no_provider'
    | 'rate_limited';

  /** How the setup's connection check fails: the service refuses the key, or does not answer. */
  type SetupFailure = 'key' | 'unreachable';

  /**
   * What `stats_get` answers, as a test gives it: only what differs from an empty `Stats`, and
   * of each group only what differs from an empty group; the fake fills in the rest.
   */
  type StatsGiven = Partial<Omit<Stats, 'total' | 'groups'>> & {
    total?: Partial<GroupStats>;
    groups?: Array<Partial<GroupStats>>;
  };

  /** A case filed before the page loads (issue 30), filed on 2026-11-17. */
  interface FiledSeed {
    /** The draft filed. */
    id: number;
    /** Past its deadline with no answer. */
    overdue?: boolean;
    /** How it was filed; `in_person` unless given. */
    method?: FilingMethod;
    /** The incoming number. */
    number?: string | null;
  }

  /** What a test asks of the fake backend (`openPage(harness, { fake })`). */
  interface Config {
    /** The first `draft_run`'s outcome; `auto` unless given. */
    scenario?: Scenario;
    /** What `stats_get` answers instead of the fake's own service that mostly works. */
    stats?: StatsGiven;
    /** `stats_get` fails with this message. */
    statsFailure?: string | null;
    /** What `input_restore` answers: the form as the app kept it. */
    restored?: RawInput | null;
    /** A key is stored for the chosen service. */
    keyStored?: boolean;
    /** The first start: no model service chosen yet. */
    noProvider?: boolean;
    /** «Пока без модели» was chosen before. */
    setupSkipped?: boolean;
    /** How the setup's connection check fails. */
    setupFailure?: SetupFailure | null;
    /** The setup's connection check takes long enough to be seen. */
    slowSetupCheck?: boolean;
    /** Ten more drafts made without a model, about the same entrance. */
    offlineDrafts?: boolean;
    /** The drafts database does not read until «Данные» restores or recovers it. */
    damagedDatabase?: boolean;
    /** A recovery finds nothing readable. */
    nothingReadable?: boolean;
    /** Every file dialog is cancelled. */
    noFile?: boolean;
    /** A batch run before the page loaded. */
    earlierBatch?: boolean;
    /** The batch is planned without a model. */
    batchNoModel?: boolean;
    /** The model's prices are known, so a batch's cost is. */
    batchPrices?: boolean;
    /** The earlier batch's file is no longer where it was run from. */
    batchFileMissing?: boolean;
    /** The batch file's data rows, when it is to be longer than the fake's five. */
    batchRows?: number;
    /** A batch run drafts its next row only when a test calls `releaseBatchRow()`. */
    gatedBatch?: boolean;
    /** Cases filed before the page loads. */
    filed?: FiledSeed[];
    /** The day the app takes as today, `ГГГГ-ММ-ДД`; 2026-12-04 unless given. */
    today?: string;
  }

  /** One command the page invoked, with its arguments as Rust would receive them (JSON). */
  interface Call {
    cmd: string;
    args: unknown;
  }

  /**
   * A stored draft as the fake keeps it: `draft_open`'s answer, whose summary's `input` (any
   * JSON to the page) is always the resident's input here.
   */
  type StoredDraft = Omit<DraftDetail, 'summary'> & { summary: StoredSummary };
  type StoredSummary = Omit<DraftListItem, 'input'> & { input: RawInput };

  /** The model settings the configuration file holds, as far as the fake keeps them. */
  interface Settings {
    active_profile: string | null;
    base_url: string;
    model: string;
    schema_mode: import('../../ui/js/ipc-contract.js').SchemaMode;
  }

  /** Whether a key is stored. */
  interface KeyState {
    stored: boolean;
    environment: boolean;
  }

  /** One Content-Security-Policy violation, as the page's listener records it. */
  interface CspViolation {
    directive: string;
    blocked: string;
    sample: string;
  }

  /** The fake backend: what tests set to steer it, and what they read back. */
  interface Backend {
    /** The next `draft_run`'s outcome. */
    scenario: Scenario;
    /** What `stats_get` answers. */
    stats: Stats;
    /** `stats_get` fails with this message when set. */
    statsFailure: string | null;
    /** Lets a gated batch run draft its next row. */
    batchGate: (() => void) | null;
    /** Every command invoked, in order. */
    calls: Call[];
    /** The stored drafts by id. */
    drafts: Map<number, StoredDraft>;
    settings: Settings;
    keyState: KeyState;
    /** What `input_restore` answers. */
    restored: RawInput | null;
    /** The drafts database does not read. */
    damagedDatabase: boolean;
    /** How the next setup check fails; `null`: as the state says. */
    setupFailure: SetupFailure | null;
    /** The form as `input_autosave` last received it. */
    autosaved: RawInput | null;
    /** What `batch_file` last received. */
    batchFiled: { rows: number[]; filing: FilingForm } | null;
    releaseBatchRow(): void;
    callsOf(name: CommandName): Call[];
    /** The page's channel for the window's drag and drop, once it listens. */
    dropChannel: Channel<DropEvent> | null;
    droppedFiles: number;
    dropIndex: number;
    /** The next photo chosen is refused with this message. */
    nextPhotoRefusal: string | null;
    dragOver(): void;
    drop(files: number): void;
    /** The page's channel for requests to close the window, once it listens. */
    closeChannel: Channel<CloseEvent> | null;
    closeIndex: number;
    /** The page's last word on whether anything is unsaved. */
    unsaved: boolean;
    /** How the window closed, once it did. */
    windowClosed: 'at once' | 'by the page' | null;
    requestClose(options?: { tell?: boolean }): 'asked' | 'closed';
  }
}
